//! Never run a stranger's script: pages built from hostile content are loaded in headless
//! Chromium, and no payload may run. Every payload that runs would set `window.__pwned` or
//! change the document title, which the test reads after each page has loaded.
//!
//! Two sites: one with `safe: true` (raw HTML in Markdown is stripped), and one trusted site
//! (raw HTML allowed), where the payloads sit only in places that are never HTML: titles,
//! front-matter values, glossary terms.

use crate::common::browser::Browser;
use crate::common::*;

/// Markdown full of script: raw tags, event handlers, `javascript:` links, and payloads inside
/// the link texts and image descriptions the renderer rewrites.
const HOSTILE_BODY: &str = r#"
<script>window.__pwned = "script tag"</script>

<img src="x.png" onerror="window.__pwned = 'img onerror'">

Inline <svg onload="window.__pwned = 'svg onload'"></svg> and <iframe srcdoc="<script>parent.__pwned = 'iframe'</script>"></iframe>.

[click me](javascript:window.__pwned='js link') and [also](  JaVaScRiPt:window.__pwned='js link 2')
and <a href="javascript:window.__pwned='raw js link'">raw</a>.

[1.1.0 <script>window.__pwned = "xref text"</script>](#) and [<img src=x onerror="window.__pwned='xref img'">](#1.1.0)

![" onerror="window.__pwned='alt'](missing.png) ![x](javascript:window.__pwned='img js')

<details open ontoggle="window.__pwned='ontoggle'"><summary>x</summary></details>

## 1.1.0 Heading <img src=x onerror="window.__pwned='heading'">

<style>body { display: none }</style>

</title><script>document.title = "PWNED"</script>
"#;

const TITLE: &str = r#""</title><script>document.title='PWNED'</script><img src=x onerror=window.__pwned='title'>""#;

fn chapter(id: &str, body: &str) -> String {
    format!("---\nid: {id}\ntitle: {TITLE}\ndescription: \"<script>window.__pwned='description'</script>\"\n---\n{body}")
}

/// Glossary payloads. A definition is Markdown, so on a trusted site its raw HTML is the
/// author's; there the definition carries its payload inside a code span, which is text.
fn glossary(safe: bool) -> String {
    let definition = if safe {
        "Definition with </script><script>window.__pwned='definition'</script> and <img src=x onerror=\"window.__pwned='definition img'\">."
    } else {
        "Definition with `</script><script>window.__pwned='definition'</script>` as code."
    };
    serde_json::json!({
        "</script><script>window.__pwned='glossary key'</script>": definition,
        "entry": {
            "term": "<img src=x onerror=\"window.__pwned='term'\">",
            "definition": "See [x](javascript:window.__pwned='definition link').",
            "aliases": ["<script>window.__pwned='alias'</script>"],
            "source": "<script>window.__pwned='source'</script>",
            "tags": ["<script>window.__pwned='tag'</script>"]
        }
    })
    .to_string()
}

fn build(safe: bool) -> tempfile::TempDir {
    let yaml = format!(
        "title: {{uk: \"<script>window.__pwned='site title'</script>\", en: \"</title><script>document.title='PWNED'</script>\"}}\nlanguages: [uk, en]\ndefault_language: uk\nbase_url: \"/\"\nsafe: {safe}\n"
    );
    // the trusted site keeps the payloads out of the Markdown bodies: raw HTML is its right
    let body = if safe {
        HOSTILE_BODY
    } else {
        "Plain text, see 1.1.0.\n\n## 1.1.0 Heading\n"
    };
    let dir = site(&[
        ("content/site.yaml", yaml.as_str()),
        ("content/en/01-a.md", chapter("a", body).as_str()),
        ("content/uk/01-a.md", chapter("a", body).as_str()),
        ("content/en/glossary.json", glossary(safe).as_str()),
        ("content/uk/glossary.json", glossary(safe).as_str()),
    ]);
    let r = run(&["build", "--site", dir.path().to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    dir
}

fn assert_nothing_ran(dir: &std::path::Path) {
    let out = dir.join("public");
    let server = StaticServer::start(&out, "/");
    let b = Browser::start(1000, 800);
    let pages = files_with_ext(&out, "html");
    assert!(pages.len() >= 6, "{pages:?}");
    for p in pages {
        let rel = p
            .strip_prefix(&out)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if rel == "index.html" {
            continue; // the root page redirects at once; its text is checked below by parsing
        }
        b.goto(&format!("{}{rel}", server.url));
        b.wait_until("return document.readyState === 'complete'", 10, "page load");
        // give handlers (onerror of images that fail to load, ontoggle) time to fire
        std::thread::sleep(std::time::Duration::from_millis(300));
        let pwned = b.js("return window.__pwned === undefined ? null : String(window.__pwned)");
        assert!(pwned.is_null(), "{rel}: a payload ran: {pwned}");
        let title = b
            .js("return document.title")
            .as_str()
            .unwrap_or("")
            .to_string();
        assert!(
            !title.contains("PWNED") || title.contains("<script>"),
            "{rel}: title changed to {title:?}"
        );
        // nothing hostile even sits in the DOM waiting for a click
        let bad = b.js(
            "return Array.from(document.querySelectorAll('*')).filter(e => \
               e.tagName === 'SCRIPT' && !e.src && e.textContent.indexOf('__pwned') >= 0 || \
               Array.from(e.attributes).some(a => /^on/i.test(a.name) || \
                 /^\\s*javascript:/i.test(a.value) && /^(href|src|action|formaction)$/i.test(a.name)) \
             ).map(e => e.outerHTML.slice(0, 200))",
        );
        assert_eq!(
            bad,
            serde_json::json!([]),
            "{rel}: hostile elements in the page"
        );
    }
    // search: the hostile titles and text come back as results and snippets, as text
    b.goto(&format!("{}en/a/", server.url));
    b.wait_until("return document.readyState === 'complete'", 10, "page load");
    for query in ["pwned", "script", "onerror"] {
        b.js("var i = document.getElementById('search-input'); i.value = ''; i.focus();");
        b.type_into("#search-input", query);
        b.wait_until(
            &format!(
                "var r = document.getElementById('search-results'); return !r.hidden && r.getAttribute('data-query') === '{query}';"
            ),
            20,
            &format!("results for {query}"),
        );
        // every result rendered: the ones past the panel load when scrolled into view
        b.wait_until(
            "var r = document.getElementById('search-results'); r.scrollTop += r.clientHeight / 2; return !r.querySelector('.search-wait') && !r.hasAttribute('aria-busy');",
            20,
            &format!("every result for {query}"),
        );
        std::thread::sleep(std::time::Duration::from_millis(300));
        let pwned = b.js("return window.__pwned === undefined ? null : String(window.__pwned)");
        assert!(
            pwned.is_null(),
            "search for {query}: a payload ran: {pwned}"
        );
        let tags = b.js(
            "return document.querySelectorAll('#search-results script, #search-results img, #search-results [onerror]').length",
        );
        assert_eq!(
            tags,
            serde_json::json!(0),
            "search for {query}: markup from the content in the results"
        );
    }
    // the root page, parsed: its inline script has no payload in it
    let root = page(&out.join("index.html"));
    for s in root.select(&sel("script")) {
        let text: String = s.text().collect();
        assert!(
            !text.contains("__pwned") && !text.contains("PWNED"),
            "{text}"
        );
    }
}

#[test]
fn hostile_content_runs_no_script_in_safe_mode() {
    let dir = build(true);
    // the hostile text is still there, as text
    let en = page(&dir.path().join("public/en/a/index.html"));
    assert!(texts(&en, "h1").join(" ").contains("<script>"));
    assert_nothing_ran(dir.path());
}

#[test]
fn titles_terms_and_front_matter_are_escaped_on_trusted_sites_too() {
    let dir = build(false);
    assert_nothing_ran(dir.path());
}

/// `--safe` on the command line does what `safe: true` does.
#[test]
fn safe_flag_strips_raw_html() {
    let dir = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/01-a.md",
            "---\nid: a\ntitle: A\n---\n<script>x()</script>\n\n<b onclick=\"x()\">bold</b> text\n",
        ),
    ]);
    let s = dir.path().to_str().unwrap();
    assert_eq!(run(&["build", "--site", s]).code, 0);
    let doc = page(&dir.path().join("public/en/a/index.html"));
    assert_eq!(texts(&doc, "article b"), ["bold"]);
    assert_eq!(run(&["build", "--site", s, "--safe"]).code, 0);
    let doc = page(&dir.path().join("public/en/a/index.html"));
    assert!(texts(&doc, "article b").is_empty());
    assert!(doc
        .select(&sel("article script, [onclick]"))
        .next()
        .is_none());
    assert!(texts(&doc, "article p").join(" ").contains("bold text"));
}
