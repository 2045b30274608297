//! End-to-end tests of `rulebook build` on small fixture sites: the output is parsed as HTML.

use crate::common::*;

const EN_INTRO: &str = r#"---
id: intro
title: Introduction
weight: 1
---

Opening words, see 2.1.0 and [2.0.0 Combat](#). Also [2.0.0 Fight](#) and [the attack](#2.1.0).
Missing: see 9.9.9. A version v2.0 and `7.1.0` in code are not links. Pay a :main: cost.[^a]

[^a]: From the rulebook.

## 1.1.0 Basics

| Step | Value |
| --- | --- |
| 1 | 1.1 |

![The board, laid out](resources/board.png)

## Plain heading {#plain}

Back to [the basics](#1.1.0) and [plain](#plain).
"#;

const UK_INTRO: &str = r#"---
id: intro
title: Вступ
weight: 1
---

Перші слова, див. 2.1.0 і [2.0.0 Бій](#).

## 1.1.0 Основи

Текст.

## Звичайний заголовок {#plain}
"#;

const EN_COMBAT: &str = r#"---
id: combat
title: "2.0.0 Combat"
weight: 2
---

Fighting.

## 2.1.0 Attacking

Attack text, back to 1.1.0.
"#;

const EN_GLOSSARY: &str = r#"{
  "damage resolution": "Resolve damage. Pay <:side:408070378204954629> first.",
  "drp": "Resolve damage.  Pay <:side:408070378204954629> first.",
  "exhaustion token": {"term": "Exhaustion token", "definition": "A token, see 2.1.0.", "source": "Rulebook", "tags": ["Red Rains"]},
  "guard": "Guard text."
}"#;

const UK_GLOSSARY: &str = r#"{
  "exhaustion token": {"term": "Жетон виснаження", "definition": "Жетон."},
  "guard": {"term": "Ґвардія", "definition": "Охорона."},
  "damage resolution": {"term": "Вирішення шкоди", "definition": "Шкода."}
}"#;

const ICON: &str = r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><circle cx="12" cy="12" r="9"/></svg>"#;

fn fixture() -> tempfile::TempDir {
    site(&[
        ("content/site.yaml", SITE_YAML),
        ("content/en/01-intro.md", EN_INTRO),
        ("content/uk/01-intro.md", UK_INTRO),
        ("content/en/02-combat.md", EN_COMBAT),
        ("content/en/glossary.json", EN_GLOSSARY),
        ("content/uk/glossary.json", UK_GLOSSARY),
        ("static/icons/main.svg", ICON),
        ("static/icons/side.svg", ICON),
    ])
}

/// Every link that `selector` picks: (address, text).
fn links(doc: &Html, selector: &str) -> Vec<(String, String)> {
    doc.select(&sel(selector))
        .map(|a| {
            let href = a.value().attr("href").unwrap_or_default().to_string();
            (href, a.text().collect::<String>().trim().to_string())
        })
        .collect()
}

fn link_to(doc: &Html, text: &str) -> Option<String> {
    doc.select(&sel("a"))
        .find(|a| a.text().collect::<String>().trim() == text)
        .and_then(|a| a.value().attr("href").map(str::to_string))
}

/// A chapter's front-matter `description` is its page's `<meta name="description">`, escaped;
/// a page without one has none.
#[test]
fn a_description_in_front_matter_describes_the_page() {
    let dir = fixture();
    let intro = EN_INTRO.replacen(
        "\ntitle:",
        "\ndescription: 'Setup & the \"first\" <round>'\ntitle:",
        1,
    );
    assert_ne!(intro, EN_INTRO, "the fixture has a title line");
    write(dir.path(), "content/en/01-intro.md", intro.as_bytes());
    build_ok(dir.path());
    let out = dir.path().join("public");
    let described = |p: &str| attrs(&page(&out.join(p)), "meta[name=description]", "content");
    assert_eq!(
        described("en/intro/index.html"),
        ["Setup & the \"first\" <round>"]
    );
    assert!(described("en/combat/index.html").is_empty());
    assert!(described("en/index.html").is_empty());
}

/// Front matter cannot forge the marks the build splices pages together with: a title or a
/// description holding the mark of a page's content, or of a print-view chapter, stays text
/// (it once put the chapter's raw HTML inside the `content` attribute, `--safe` or not, and
/// pulled a chapter into the print view's list of contents).
#[test]
fn front_matter_cannot_forge_the_build_s_own_marks() {
    let dir = fixture();
    let content = "\u{F8FF}rulebook:content\u{F8FF}";
    let print = "\u{F8FF}rulebook:print:0\u{F8FF}";
    let intro = EN_INTRO.replacen(
        "\ntitle: Introduction",
        &format!("\ndescription: \"d {content}\"\ntitle: \"T {print} {content}\""),
        1,
    );
    assert_ne!(intro, EN_INTRO, "the fixture has this title line");
    write(dir.path(), "content/en/01-intro.md", intro.as_bytes());
    let s = dir.path().to_str().unwrap();
    assert_eq!(run(&["build", "--site", s, "--safe"]).code, 0);
    let out = dir.path().join("public");
    let doc = page(&out.join("en/intro/index.html"));
    let shown = "\u{FFFD}rulebook:content\u{F8FF}";
    assert_eq!(
        attrs(&doc, "meta[name=description]", "content"),
        [format!("d {shown}")]
    );
    assert_eq!(
        texts(&doc, "article h1"),
        [format!("T \u{FFFD}rulebook:print:0\u{F8FF} {shown}")]
    );
    assert!(doc.select(&sel("head a, head p, title *")).next().is_none());
    // the print view: the chapter's text once, as in a build without the forged title
    let print_view = page(&out.join("en/print/index.html"));
    let opening = texts(&print_view, "p")
        .into_iter()
        .filter(|t| t.starts_with("Opening words"))
        .count();
    assert_eq!(opening, 1, "the first chapter's text appears once");
}

#[test]
fn pages_pair_across_languages_and_fall_back() {
    let dir = fixture();
    build_ok(dir.path());
    let out = dir.path().join("public");
    for p in [
        "index.html",
        "404.html",
        "uk/index.html",
        "en/index.html",
        "uk/intro/index.html",
        "en/intro/index.html",
        "en/combat/index.html",
        "uk/combat/index.html",
        "uk/glossary/index.html",
        "en/glossary/index.html",
        "sitemap.xml",
        ".nojekyll",
    ] {
        assert!(out.join(p).exists(), "{p} missing");
    }
    // every page names its counterparts
    let uk = page(&out.join("uk/intro/index.html"));
    let alts = attrs(&uk, "link[rel=alternate]", "hreflang");
    assert_eq!(alts, ["uk", "en"]);
    assert_eq!(
        attrs(&uk, "a[data-lang-switch]", "href"),
        ["../../en/intro/"]
    );
    // the untranslated chapter is published on the uk side, with a banner linking the original
    let fb = page(&out.join("uk/combat/index.html"));
    assert_eq!(attrs(&fb, "html", "lang"), ["uk"]);
    assert_eq!(attrs(&fb, "article", "lang"), ["en"]);
    let banner = texts(&fb, ".banner.untranslated");
    assert_eq!(banner.len(), 1);
    assert_eq!(attrs(&fb, ".banner a", "href"), ["../../en/combat/"]);
    assert!(texts(&fb, "article").join(" ").contains("Attack text"));
    // a section anchor survives the language switch
    let en = page(&out.join("en/intro/index.html"));
    for a in ["1.1.0", "plain"] {
        assert!(attrs(&en, "[id]", "id").contains(&a.to_string()));
        assert!(
            attrs(&uk, "[id]", "id").contains(&a.to_string()),
            "uk lacks #{a}"
        );
    }
    // the chapter title number defines a section too
    assert_eq!(
        attrs(&page(&out.join("en/combat/index.html")), "h1", "id"),
        ["2.0.0"]
    );
    // navigation: prev/next and the table of contents
    assert_eq!(attrs(&en, "a[rel=next]", "href"), ["../../en/combat/"]);
    assert!(texts(&en, ".toc a").iter().any(|t| t.contains("1.1.0")));
    let n = assert_links_resolve(&out);
    assert!(n > 40, "only {n} links checked");
}

#[test]
fn section_numbers_become_links_in_the_readers_language() {
    let dir = fixture();
    let r = build_ok(dir.path());
    let out = dir.path().join("public");
    let en = page(&out.join("en/intro/index.html"));
    assert_eq!(link_to(&en, "2.1.0").as_deref(), Some("../combat/#2.1.0"));
    assert_eq!(
        link_to(&en, "2.0.0 Combat").as_deref(),
        Some("../combat/#2.0.0")
    );
    assert_eq!(
        link_to(&en, "the attack").as_deref(),
        Some("../combat/#2.1.0")
    );
    assert_eq!(link_to(&en, "the basics").as_deref(), Some("#1.1.0"));
    // the Ukrainian reader stays on Ukrainian pages (the combat chapter is a fallback page there)
    let uk = page(&out.join("uk/intro/index.html"));
    assert_eq!(link_to(&uk, "2.1.0").as_deref(), Some("../combat/#2.1.0"));
    // the English text shown on the Ukrainian side links Ukrainian pages too
    let fb = page(&out.join("uk/combat/index.html"));
    assert_eq!(link_to(&fb, "1.1.0").as_deref(), Some("../intro/#1.1.0"));
    // not links: a missing section, a version, code, a table decimal
    assert!(link_to(&en, "9.9.9").is_none());
    assert!(texts(&en, "article p").join(" ").contains("9.9.9"));
    assert!(texts(&en, "article a")
        .iter()
        .all(|t| !t.contains("2.0") || t.contains("2.0.0")));
    assert_eq!(texts(&en, "code"), ["7.1.0"]);
    assert!(texts(&en, "td a").is_empty());
    // the heading's own number is a label, not a link
    assert!(texts(&en, "h2 a.xref").is_empty());
    // warnings name file and line
    assert!(
        r.stderr
            .contains("warning[broken-ref]: content/en/01-intro.md:8:"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("warning[ref-title]: content/en/01-intro.md:7:"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("\"Fight\""));
    assert!(
        !r.stderr
            .contains("warning[ref-title]: content/uk/01-intro.md:6:"),
        "uk title matched nothing in uk and must not be compared with English: {}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("warning[missing-image]: content/en/01-intro.md:18:"),
        "{}",
        r.stderr
    );
}

#[test]
fn markdown_features_symbols_images_and_footnotes() {
    let dir = fixture();
    build_ok(dir.path());
    let en = page(&dir.path().join("public/en/intro/index.html"));
    assert_eq!(attrs(&en, "img.sym", "alt"), ["Main action"]);
    assert_eq!(texts(&en, "thead th"), ["Step", "Value"]);
    assert_eq!(
        texts(&en, "tbody td"),
        ["1", "1.1"],
        "body cells are td, not th"
    );
    assert_eq!(
        attrs(&en, ".img-missing", "aria-label"),
        ["The board, laid out"]
    );
    assert_eq!(attrs(&en, "sup.fnref a", "href"), ["#fn-a"]);
    assert_eq!(attrs(&en, ".footnote", "id"), ["fn-a"]);
}

/// A heading written on two lines (a setext heading over `===`) is two words in its anchor
/// and its text, not one run together (`#attackwith-fire`).
/// A symbol whose name is a glossary term (`:exhaust:`, *Exhaust*) is an icon, not the
/// term's link between two colons; the term is linked where it is a word.
#[test]
fn a_symbol_named_like_a_term_stays_a_symbol() {
    let dir = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: A\n---\n\n| Symbol | Name |\n|---|---|\n| :exhaust: | Exhaust |\n",
        ),
        (
            "content/en/glossary.json",
            r#"{"exhaust": {"term": "Exhaust", "definition": "Turn it."}}"#,
        ),
    ]);
    build_ok(dir.path());
    let doc = page(&dir.path().join("public/en/a/index.html"));
    assert_eq!(attrs(&doc, "td img.sym", "alt"), ["Exhaust"]);
    assert_eq!(texts(&doc, "td a.gl"), ["Exhaust"]);
    assert!(
        !texts(&doc, "td")[0].contains(':'),
        "{:?}",
        texts(&doc, "td")
    );
}

/// A chapter not translated yet is shown in English on the Ukrainian pages: its title on the
/// contents page, in the pager and the breadcrumbs, and its table of contents say `lang="en"`
/// (a screen reader read them in a Ukrainian voice); the page's own words inside its English
/// article (the "Referenced by" label) say `lang="uk"`.
#[test]
fn english_text_on_ukrainian_pages_says_so() {
    let out = built_default_site();
    let index = page(&out.join("uk/index.html"));
    let langs = attrs(
        &index,
        ".chapter-list li.untranslated > a[href$='attacking/']",
        "lang",
    );
    assert_eq!(langs, ["en"]);
    let translated = attrs(&index, ".chapter-list li:not(.untranslated) > a", "lang");
    assert!(translated.is_empty(), "{translated:?}");
    // the contents page tells a chapter translated in part, and one whose own file is still
    // all English, from a translated one (they looked the same)
    let badge = |href: &str| -> Vec<String> {
        texts(
            &index,
            &format!(".chapter-list > li:has(> a[href='../uk/{href}/']) > .badge"),
        )
    };
    assert_eq!(badge("roundOrder"), ["Перекладено частково"]);
    assert_eq!(badge("main-actions"), ["Ще не перекладено"]);
    assert!(badge("setup").is_empty(), "{:?}", badge("setup"));
    // each navigation landmark has a name of its own (the header's and the list of chapters
    // were both "Зміст")
    let mut names = attrs(&index, "nav[aria-label]", "aria-label");
    let all = names.len();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), all, "{names:?}");
    let p = page(&out.join("uk/attacking/index.html"));
    assert_eq!(attrs(&p, "nav.toc > ol", "lang"), ["en"]);
    assert_eq!(attrs(&p, "nav.crumbs a[href^='#']", "lang"), ["en"]);
    assert_eq!(attrs(&p, ".pager a", "lang"), ["en", "en"]);
    assert_eq!(attrs(&p, ".pager a > span", "lang"), ["uk", "uk"]);
    let labels = attrs(&p, "article[lang=en] .refby-label", "lang");
    assert!(
        !labels.is_empty() && labels.iter().all(|l| l == "uk"),
        "{labels:?}"
    );
    // a translated chapter's own page names no language but the page's
    let t = page(&out.join("uk/setup/index.html"));
    assert!(attrs(&t, "nav.toc > ol, .refby-label", "lang").is_empty());
}

#[test]
fn a_heading_on_two_lines_keeps_its_words_apart() {
    let dir = fixture();
    write(
        dir.path(),
        "content/en/03-fire.md",
        b"---\nid: fire\ntitle: Fire\n---\n\nAttack\nwith fire\n---------\n\nText.\n",
    );
    build_ok(dir.path());
    let doc = page(&dir.path().join("public/en/fire/index.html"));
    assert_eq!(attrs(&doc, "article h2[id]", "id"), ["attack-with-fire"]);
    let toc: Vec<String> = texts(&doc, ".toc a");
    assert!(toc.iter().any(|t| t == "Attack with fire"), "{toc:?}");
}

#[test]
fn glossary_merges_aliases_sorts_and_pairs() {
    let dir = fixture();
    build_ok(dir.path());
    let out = dir.path().join("public");
    let en = page(&out.join("en/glossary/index.html"));
    let terms = texts(&en, "dt .term");
    assert_eq!(
        terms,
        ["Damage resolution", "Exhaustion token", "Guard"],
        "identical definitions are one entry"
    );
    assert_eq!(texts(&en, ".aliases"), ["Also: drp"]);
    assert!(
        attrs(&en, "[id]", "id").contains(&"drp".to_string()),
        "the merged key keeps its anchor"
    );
    assert_eq!(
        attrs(&en, "dd img.sym", "alt"),
        ["Side action"],
        "chat emoji placeholders become icons"
    );
    assert!(texts(&en, "dt .other-term").contains(&"Жетон виснаження".to_string()));
    assert_eq!(link_to(&en, "2.1.0").as_deref(), Some("../combat/#2.1.0"));
    assert!(texts(&en, ".meta").join(" ").contains("Red Rains"));
    let uk = page(&out.join("uk/glossary/index.html"));
    // Ukrainian order: в < ґ < ж
    assert_eq!(
        texts(&uk, "dt .term"),
        ["Вирішення шкоди", "Ґвардія", "Жетон виснаження"]
    );
    // the English term beside a Ukrainian one is written as the English page writes it: a
    // lowercase key of the chat-bot glossary capitalised (`guard` was shown as it is)
    assert!(
        texts(&uk, "dt .other-term").contains(&"Guard".to_string()),
        "{:?}",
        texts(&uk, "dt .other-term")
    );
}

#[test]
fn builds_are_byte_identical() {
    let dir = fixture();
    build_ok(dir.path());
    let first = snapshot(&dir.path().join("public"));
    build_ok(dir.path());
    let second = snapshot(&dir.path().join("public"));
    assert_eq!(first.len(), second.len());
    for ((p1, b1), (p2, b2)) in first.iter().zip(&second) {
        assert_eq!(p1, p2);
        assert!(b1 == b2, "{} differs between two builds", p1.display());
    }
}

/// Each case: a file to (over)write, the error kind, the file and line the message must name.
const BAD: &[(&str, &str, &str, &str)] = &[
    (
        "content/en/03-x.md",
        "no front matter\n",
        "front-matter",
        "content/en/03-x.md:1:",
    ),
    (
        "content/en/03-x.md",
        "---\nid: x\ntitle: [oops\n---\n",
        "front-matter",
        "content/en/03-x.md:3:",
    ),
    (
        "content/en/03-x.md",
        "---\ntitle: X\n---\nbody\n",
        "front-matter",
        "content/en/03-x.md:1:",
    ),
    (
        "content/en/03-x.md",
        "---\nid: intro\ntitle: X\n---\n",
        "duplicate-id",
        "content/en/03-x.md:2:",
    ),
    (
        "content/en/03-x.md",
        "---\nid: x\ntitle: X\n---\n\n## 1.1.0 Again\n",
        "duplicate-section",
        "content/en/03-x.md:6:",
    ),
    (
        "content/en/glossary.json",
        "{\n  \"a\": \"x\",\n  \"b\" \"y\"\n}",
        "glossary-json",
        "content/en/glossary.json:3:",
    ),
    (
        "content/site.yaml",
        "title: x\nlanguages: [uk, en]\ndefault_language: de\n",
        "unknown-language",
        "content/site.yaml:3:",
    ),
];

#[test]
fn bad_input_fails_with_file_and_line_and_keeps_the_old_site() {
    for (file, text, kind, place) in BAD {
        let dir = fixture();
        build_ok(dir.path());
        let before = snapshot(&dir.path().join("public"));
        write(dir.path(), file, text.as_bytes());
        let r = run(&["build", "--site", dir.path().to_str().unwrap()]);
        assert_eq!(r.code, 1, "{file}: expected exit 1\n{}", r.stderr);
        assert!(
            r.stderr.contains(&format!("error[{kind}]: {place}")),
            "{file}: expected error[{kind}] at {place}, got:\n{}",
            r.stderr
        );
        assert!(!r.stderr.contains("panicked"));
        assert!(
            before == snapshot(&dir.path().join("public")),
            "{file}: the previous site changed"
        );
    }
}

#[test]
fn not_utf8_names_line_and_column() {
    let dir = fixture();
    write(
        dir.path(),
        "content/en/03-x.md",
        b"---\nid: x\ntitle: X\n---\nok \xff\n",
    );
    let r = run(&["build", "--site", dir.path().to_str().unwrap()]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("error[not-utf8]: content/en/03-x.md:5:4"),
        "{}",
        r.stderr
    );
}

#[test]
fn strict_turns_warnings_into_errors() {
    let dir = fixture();
    let r = run(&["build", "--site", dir.path().to_str().unwrap(), "--strict"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("error[broken-ref]"));
    assert!(
        !dir.path().join("public").exists(),
        "a failed build writes nothing"
    );
}

#[test]
fn output_that_is_not_ours_is_refused() {
    let dir = fixture();
    let foreign = dir.path().join("mine");
    write(&foreign, "notes.txt", b"keep me");
    for target in [
        foreign.clone(),
        dir.path().to_path_buf(),
        dir.path().join("content"),
    ] {
        let r = run(&[
            "build",
            "--site",
            dir.path().to_str().unwrap(),
            "--output",
            target.to_str().unwrap(),
        ]);
        assert_eq!(r.code, 2, "{}: {}", target.display(), r.stderr);
        assert!(r.stderr.contains("refusing"), "{}", r.stderr);
    }
    assert_eq!(
        std::fs::read_to_string(foreign.join("notes.txt")).unwrap(),
        "keep me"
    );
    assert!(dir.path().join("content/site.yaml").exists());
}

#[test]
fn usage_errors_exit_2_and_version_works() {
    assert_eq!(run(&["build", "--no-such-flag"]).code, 2);
    let v = run(&["--version"]);
    assert_eq!(v.code, 0);
    assert!(v.stdout.starts_with("rulebook "));
    assert_eq!(run(&["help"]).code, 0);
}

/// The generated corpus: every broken reference the manifest lists is reported, and no other.
#[test]
fn corpus_broken_references_match_the_manifest() {
    let dir = generated_corpus(20);
    let site = dir.path().join("rulebook");
    let r = build_ok(&site);
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("manifest.json")).unwrap())
            .unwrap();
    let want: std::collections::BTreeSet<String> = manifest["broken_refs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    let got: std::collections::BTreeSet<String> = r
        .stderr
        .lines()
        .filter(|l| l.contains("[broken-ref]"))
        .filter_map(|l| {
            l.split("section ")
                .nth(1)
                .and_then(|s| s.split(',').next())
                .map(str::to_string)
        })
        .collect();
    assert_eq!(got, want);
    assert!(
        !r.stderr
            .lines()
            .any(|l| l.starts_with("warning") && !l.contains("[broken-ref]")),
        "{}",
        r.stderr
    );
    assert_links_resolve(&site.join("public"));
}

/// The other language merged two keys with the same definition into one entry; this language
/// has only one of those keys. Text here may still link the other key's anchor (an English
/// term in an untranslated chapter), so this language's glossary page must carry it.
#[test]
fn glossary_keeps_the_anchors_of_keys_merged_in_another_language() {
    let dir = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/glossary.json",
            r#"{"wound token (2)": "Counts damage.", "wound token": "Counts damage."}"#,
        ),
        (
            "content/uk/glossary.json",
            r#"{"wound token": {"term": "Жетон рани", "definition": "Рахує шкоду."}}"#,
        ),
        ("content/en/a.md", "---\nid: a\ntitle: A\n---\n\nText.\n"),
        ("content/uk/a.md", "---\nid: a\ntitle: А\n---\n\nТекст.\n"),
    ]);
    build_ok(dir.path());
    let out = dir.path().join("public");
    let en = page(&out.join("en/glossary/index.html"));
    let en_ids = attrs(&en, "[id]", "id");
    let uk = page(&out.join("uk/glossary/index.html"));
    let uk_ids = attrs(&uk, "[id]", "id");
    for id in en_ids.iter().filter(|i| i.starts_with("wound-token")) {
        assert!(
            uk_ids.contains(id),
            "{id} of the English page is missing on the Ukrainian one: {uk_ids:?}"
        );
    }
    assert!(en_ids.iter().any(|i| i == "wound-token-2"), "{en_ids:?}");
    let mut sorted = uk_ids.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), uk_ids.len(), "no id twice: {uk_ids:?}");
}

/// The contents page's list is written by the build (`chapters_html`); a theme that lays it out
/// itself from `chapters` gets the same chapters, sections and addresses.
#[test]
fn contents_list_and_a_themes_own_layout_of_it_agree() {
    let dir = fixture();
    build_ok(dir.path());
    let uk = page(&dir.path().join("public/uk/index.html"));
    let items = links;
    let chapters = items(&uk, ".chapter-list > li > a");
    let sections = items(&uk, ".section-list a");
    assert_eq!(
        chapters,
        [
            ("../uk/intro/".to_string(), "Вступ".to_string()),
            ("../uk/combat/".to_string(), "2.0.0 Combat".to_string())
        ]
    );
    assert_eq!(
        sections,
        [
            ("../uk/intro/#1.1.0".to_string(), "1.1.0 Основи".to_string()),
            (
                "../uk/intro/#plain".to_string(),
                "Звичайний заголовок".to_string()
            ),
            (
                "../uk/combat/#2.1.0".to_string(),
                "2.1.0 Attacking".to_string()
            )
        ]
    );
    // the untranslated chapter is marked
    assert_eq!(
        texts(&uk, ".chapter-list > li.untranslated .badge").len(),
        1
    );

    let own = r#"{% extends "base.html" %}
{% block main %}
<ol class="mine">{% for c in chapters %}<li><a href="{{ c.url }}">{% if c.number %}{{ c.number }} {% endif %}{{ c.title }}</a><ol>{% for s in c.sections %}<li><a href="{{ c.url }}#{{ s.anchor }}">{% if s.number %}{{ s.number }} {% endif %}{{ s.title }}</a></li>{% endfor %}</ol></li>{% endfor %}</ol>
{% endblock main %}
"#;
    write(dir.path(), "templates/index.html", own.as_bytes());
    // what a file manager leaves beside it is no template (it failed the build as one)
    write(dir.path(), "templates/.DS_Store", b"\0\0\0\x01Bud1\xff\xfe");
    build_ok(dir.path());
    let mine = page(&dir.path().join("public/uk/index.html"));
    assert_eq!(items(&mine, ".mine > li > a"), chapters);
    assert_eq!(items(&mine, ".mine ol a"), sections);
}

/// The glossary's entries are written by the build (`entries_html`); a theme that lays them out
/// itself from `entries` gets the same terms, anchors and definitions, on the glossary page and
/// on the print view.
/// Keys that differ only in case (`Exhaust`, `exhaust`) are two entries with two anchors,
/// and no element of the glossary page or the print view repeats an id (the second entry once
/// carried the first one's anchor as the anchor of its key).
#[test]
fn glossary_keys_differing_in_case_give_no_id_twice() {
    let dir = fixture();
    let glossary = EN_GLOSSARY.replacen(
        "\"guard\":",
        "\"Exhaust\": \"To turn a card.\",\n  \"exhaust\": \"A die used up.\",\n  \"guard\":",
        1,
    );
    assert_ne!(glossary, EN_GLOSSARY);
    write(dir.path(), "content/en/glossary.json", glossary.as_bytes());
    build_ok(dir.path());
    let out = dir.path().join("public");
    for p in ["en/glossary/index.html", "en/print/index.html"] {
        unique_ids(&page(&out.join(p)), p);
    }
    let doc = page(&out.join("en/glossary/index.html"));
    let both: Vec<String> = attrs(&doc, "dt[id]", "id")
        .into_iter()
        .filter(|a| a.starts_with("exhaust") && !a.starts_with("exhaustion"))
        .collect();
    assert_eq!(both, ["exhaust", "exhaust-1"], "two entries, two anchors");
}

/// An entry keyed like an id of the glossary page itself (`untranslated`, the heading of the
/// entries another language has; `main`, the skip link's target) takes another anchor, and no
/// element repeats an id: links to the entry reached the heading.
#[test]
fn glossary_keys_named_like_the_pages_own_ids_give_no_id_twice() {
    let dir = fixture();
    let glossary = EN_GLOSSARY.replacen(
        "\"guard\":",
        "\"untranslated\": \"Not yet in the other language.\",\n  \"main\": \"The main action.\",\n  \"guard\":",
        1,
    );
    assert_ne!(glossary, EN_GLOSSARY);
    write(dir.path(), "content/en/glossary.json", glossary.as_bytes());
    build_ok(dir.path());
    let out = dir.path().join("public");
    for lang in ["en", "uk"] {
        for p in [
            format!("{lang}/glossary/index.html"),
            format!("{lang}/print/index.html"),
        ] {
            unique_ids(&page(&out.join(&p)), &p);
        }
        // the entry is on the page, under an anchor of its own
        let doc = page(&out.join(format!("{lang}/glossary/index.html")));
        let dt: Vec<String> = attrs(&doc, "dt[id]", "id");
        assert!(dt.iter().any(|a| a == "untranslated-1"), "{lang}: {dt:?}");
        assert!(dt.iter().any(|a| a == "main-1"), "{lang}: {dt:?}");
    }
    assert_links_resolve(&out);
}

#[test]
fn glossary_list_and_a_themes_own_layout_of_it_agree() {
    let dir = fixture();
    // an entry only the English glossary has
    let en = EN_GLOSSARY.replacen('{', "{\n  \"meditate\": \"Meditate text.\",", 1);
    write(dir.path(), "content/en/glossary.json", en.as_bytes());
    build_ok(dir.path());
    let read = |rel: &str| page(&dir.path().join("public").join(rel));
    let entries = links;
    let mut before = Vec::new();
    for rel in ["uk/glossary/index.html", "uk/print/index.html"] {
        let doc = read(rel);
        let terms = entries(&doc, "dl.glossary dt a.term");
        let definitions = texts(&doc, "dl.glossary dd");
        assert_eq!(terms.len(), 4, "{rel}: {terms:?}");
        assert_eq!(definitions.len(), 4, "{rel}");
        before.push((terms, definitions));
    }
    let (terms, _) = &before[0];
    assert!(
        terms
            .iter()
            .any(|(h, t)| h == "#exhaustion-token" && t == "Жетон виснаження"),
        "{terms:?}"
    );
    // the entry only the English glossary has comes after its own heading, in English
    let uk = read("uk/glossary/index.html");
    assert_eq!(attrs(&uk, "h2#untranslated", "id").len(), 1);
    assert_eq!(attrs(&uk, "dt[lang]", "lang"), ["en"]);
    assert!(texts(&read("en/glossary/index.html"), "p.meta")
        .iter()
        .any(|m| m.contains("Red Rains")));

    let own = r##"{% for e in entries %}<div class="mine"><a class="term" href="#{{ e.anchor }}">{{ e.term }}</a><div class="def">{{ e.definition | safe }}</div></div>{% endfor %}
"##;
    write(
        dir.path(),
        "templates/glossary_entries.html",
        own.as_bytes(),
    );
    build_ok(dir.path());
    for (rel, (terms, definitions)) in ["uk/glossary/index.html", "uk/print/index.html"]
        .iter()
        .zip(&before)
    {
        let doc = read(rel);
        assert_eq!(&entries(&doc, ".mine a.term"), terms, "{rel}");
        assert_eq!(&texts(&doc, ".mine .def"), definitions, "{rel}");
    }
}

/// A link to a chapter file may percent-encode its name (`my%20file.md`), as Markdown editors
/// write it; it names the same file as an image path does.
#[test]
fn percent_encoded_links_to_chapter_files_resolve() {
    let dir = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/01-a.md",
            "---\nid: a\ntitle: A\n---\nGo to [the other](02%20b%20%D1%84.md).\n",
        ),
        ("content/en/02 b ф.md", "---\nid: b\ntitle: B\n---\nHere.\n"),
    ]);
    let r = build_ok(dir.path());
    assert!(!r.stderr.contains("broken-link"), "{}", r.stderr);
    let hrefs = attrs(
        &page(&dir.path().join("public/en/a/index.html")),
        "main p a[href]",
        "href",
    );
    assert!(hrefs.iter().any(|h| h == "../b/"), "{hrefs:?}");
}

/// A link written as an address on the site (`/en/combat/`), which `check` resolves against the
/// site's root, leads there on a project site too (`https://user.github.io/repo/`), on the
/// chapter page and in the print view: it is written relative to the page, as the theme's own
/// links are. (A leading `/` was kept, and led to the host's root, outside `/repo/`.)
#[test]
fn site_absolute_links_hold_on_a_project_site() {
    let dir = fixture();
    let intro = format!(
        "{EN_INTRO}\nSee [the fight](/en/combat/#2.1.0), [terms](/en/glossary/) and [other](//example.org/x).\n"
    );
    write(dir.path(), "content/en/01-intro.md", intro.as_bytes());
    let checked = run(&["check", "--site", dir.path().to_str().unwrap()]);
    assert!(
        !checked.stderr.contains("broken-link"),
        "{}",
        checked.stderr
    );
    let r = run(&[
        "build",
        "--site",
        dir.path().to_str().unwrap(),
        "--base-url",
        "https://user.github.io/repo/",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = dir.path().join("public");
    for p in ["en/intro/index.html", "en/print/index.html"] {
        let doc = page(&out.join(p));
        for (text, file, frag) in [
            ("the fight", "en/combat/index.html", Some("2.1.0")),
            ("terms", "en/glossary/index.html", None),
        ] {
            let href = link_to(&doc, text).unwrap_or_else(|| panic!("{p}: no link {text}"));
            assert!(!href.starts_with('/'), "{p}: {href}");
            let (target, f) = resolve_href(&out, &out.join(p), &href).unwrap();
            assert_eq!(target, out.join(file), "{p}: {href}");
            assert_eq!(f.as_deref(), frag, "{p}: {href}");
        }
        assert_eq!(
            link_to(&doc, "other").as_deref(),
            Some("//example.org/x"),
            "{p}"
        );
    }
}

/// A glossary definition may link to another entry with `#its-id`: on the glossary page the
/// link is the entry's id, on the print view the entry's `glossary:` id; neither is reported
/// as broken.
#[test]
fn glossary_definitions_link_to_other_entries() {
    let dir = site(&[
        ("content/site.yaml", SITE_YAML),
        ("content/en/01-a.md", "---\nid: a\ntitle: A\n---\nText.\n"),
        (
            "content/en/glossary.json",
            "{\n  \"turn\": \"One player's part. See also [round](#round).\",\n  \"round\": \"Every player takes a [turn](#turn).\"\n}\n",
        ),
    ]);
    let r = build_ok(dir.path());
    assert!(!r.stderr.contains("broken-anchor"), "{}", r.stderr);
    let out = dir.path().join("public");
    let glossary = attrs(
        &page(&out.join("en/glossary/index.html")),
        "dd a[href]",
        "href",
    );
    assert!(glossary.iter().any(|h| h == "#round"), "{glossary:?}");
    let print = attrs(
        &page(&out.join("en/print/index.html")),
        "dd a[href]",
        "href",
    );
    assert!(print.iter().any(|h| h == "#glossary:round"), "{print:?}");
    // and every link of the site lands on an id that exists
    assert_links_resolve(&out);
}

/// `draft: true` leaves a chapter out of everything the build writes (its page, the index,
/// the sitemap, the search index, the print view, the exports), names it in the summary, and
/// turns links to it from published chapters into plain text with a warning at their line.
#[test]
fn drafts_are_left_out_of_the_build() {
    let s = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/01-a.md",
            "---\nid: a\ntitle: \"1.0.0 Alpha\"\nweight: 1\n---\n\nSee 2.1.0 and [the plan](02-b.md).\n",
        ),
        (
            "content/en/02-b.md",
            "---\nid: b\ntitle: \"2.0.0 Beta\"\nweight: 2\ndraft: true\n---\n\n## 2.1.0 Zebrafish\n\nQuokkaword lives here.\n",
        ),
        (
            "content/uk/01-a.md",
            "---\nid: a\ntitle: \"1.0.0 Альфа\"\nweight: 1\n---\n\nДив. 1.0.0.\n",
        ),
    ]);
    // the link to the draft is warned about, and the draft is named as left out
    let tells = |said: &str| {
        said.contains("warning[draft-ref]: content/en/01-a.md:7:")
            && said.contains("left out 1 draft chapter file")
            && said.contains("content/en/02-b.md")
    };
    let r = build_ok(s.path());
    assert!(tells(&r.stderr), "{}", r.stderr);
    let out = s.path().join("public");
    assert!(!out.join("en/b").exists() && !out.join("uk/b").exists());
    for (path, bytes) in snapshot(&out) {
        let text = String::from_utf8_lossy(&bytes);
        assert!(
            !text.contains("Quokkaword")
                && !text.contains("Zebrafish")
                && !text.contains("en/b/")
                && !text.contains("../b/"),
            "{} mentions the draft",
            path.display()
        );
    }
    assert!(search_json(s.path(), &["quokkaword"]).is_empty());
    // check sees the site the build publishes, with the same warning
    let r = run(&["check", "--site", s.path().to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(tells(&r.stdout), "{}", r.stdout);
    let r = run(&[
        "check",
        "--format",
        "json",
        "--site",
        s.path().to_str().unwrap(),
    ]);
    let report: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        report["drafts"],
        serde_json::json!(["content/en/02-b.md"]),
        "{report}"
    );
    // published, it is there
    write(
        s.path(),
        "content/en/02-b.md",
        b"---\nid: b\ntitle: \"2.0.0 Beta\"\nweight: 2\ndraft: false\n---\n\n## 2.1.0 Zebrafish\n\nQuokkaword lives here.\n",
    );
    let r = build_ok(s.path());
    assert!(!r.stderr.contains("draft"), "{}", r.stderr);
    assert!(out.join("en/b/index.html").exists());
}

/// A language the theme has no UI strings for: without a file of its own it borrows English
/// (not merely the site's first language), and a file that sets only some strings is laid
/// over English, with a warning naming what it lacks, rather than failing every page that
/// uses a string it does not set.
#[test]
fn a_language_the_theme_lacks_borrows_english_strings() {
    let chapter = |t: &str| format!("---\nid: a\ntitle: {t}\n---\n\n## 1.1.0 {t}\n\nText.\n");
    let yaml = "title: Zasady\nlanguages: [uk, pl]\ndefault_language: pl\nbase_url: \"/\"\n";
    let d = site(&[
        ("content/site.yaml", yaml),
        ("content/uk/a.md", &chapter("Правила")),
        ("content/pl/a.md", &chapter("Zasady")),
    ]);
    let r = build_ok(d.path());
    assert!(r.stderr.contains("no UI strings for `pl`"), "{}", r.stderr);
    assert!(r.stderr.contains("using en for now"), "{}", r.stderr);
    let doc = page(&d.path().join("public/pl/a/index.html"));
    assert_eq!(
        attrs(&doc, "#search-input", "placeholder"),
        ["Search rules and terms…"]
    );
    // but not English's name: every language of the switch and of the root page's chooser
    // was called English
    assert_eq!(texts(&doc, ".langs .current"), ["Polski"]);
    assert_eq!(texts(&doc, ".langs a.lang"), ["Українська"]);
    let root = page(&d.path().join("public/index.html"));
    let names = texts(&root, "a[lang]");
    assert!(names.iter().any(|t| t == "Polski"), "{names:?}");
    assert!(!names.iter().any(|t| t == "English"), "{names:?}");
    // some strings of its own, not the name: those are used, English for the rest, the
    // language's own name, and the build works
    write(
        d.path(),
        "i18n/pl.yaml",
        "contents: Spis treści\n".as_bytes(),
    );
    let r = build_ok(d.path());
    let doc = page(&d.path().join("public/pl/a/index.html"));
    assert_eq!(texts(&doc, ".langs .current"), ["Polski"]);
    assert!(!r.stderr.contains("`language_name`"), "{}", r.stderr);
    // a name of its own wins
    write(
        d.path(),
        "i18n/pl.yaml",
        "language_name: Po polsku\ncontents: Spis treści\n".as_bytes(),
    );
    let r = build_ok(d.path());
    assert_eq!(
        texts(
            &page(&d.path().join("public/pl/a/index.html")),
            ".langs .current"
        ),
        ["Po polsku"]
    );
    assert!(
        r.stderr.contains("UI strings are not set here"),
        "{}",
        r.stderr
    );
    write(
        d.path(),
        "i18n/pl.yaml",
        "language_name: Polski\ncontents: Spis treści\n".as_bytes(),
    );
    let r = build_ok(d.path());
    assert!(
        r.stderr.contains("warning[i18n]: i18n/pl.yaml: ")
            && r.stderr.contains("UI strings are not set here")
            && r.stderr.contains("their en text is shown"),
        "{}",
        r.stderr
    );
    let doc = page(&d.path().join("public/pl/a/index.html"));
    assert_eq!(
        attrs(&doc, "#search-input", "placeholder"),
        ["Search rules and terms…"]
    );
    assert!(texts(&doc, "a").iter().any(|t| t == "Spis treści"));
    assert_eq!(texts(&doc, ".langs .current"), ["Polski"]);
}

/// A misspelled front-matter key is named with the key it likely is: `darft` would publish a
/// chapter meant to be a draft, and `titel` left the chapter "without a title".
#[test]
fn a_misspelled_front_matter_key_names_the_key_it_likely_is() {
    let d = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: A\ndarft: true\n---\n\nText.\n",
        ),
        ("content/uk/a.md", "---\nid: a\ntitel: А\n---\n\nТекст.\n"),
    ]);
    let r = run(&["build", "--site", d.path().to_str().unwrap()]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains(
            "content/en/a.md:4: unknown front-matter key `darft` is ignored; did you mean `draft`?"
        ),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("content/uk/a.md:3: front matter has no `title`; `titel` here looks like a misspelling of it"),
        "{}",
        r.stderr
    );
}

/// A symbol a letter or two from one the theme has (`:mian:`) is a warning naming the symbol
/// it likely is; other `:words:` (a time, `a:b:c`) are not.
#[test]
fn a_misspelled_symbol_names_the_symbol_it_likely_is() {
    let d = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: A\n---\n\nPay a :main: cost.\n\nPay a :mian: cost at 10:30:00, see a:b:c.\n",
        ),
        ("content/uk/a.md", "---\nid: a\ntitle: А\n---\n\nТекст.\n"),
    ]);
    let r = build_ok(d.path());
    let found: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.contains("unknown-symbol"))
        .collect();
    assert_eq!(
        found,
        ["warning[unknown-symbol]: content/en/a.md:8: `:mian:` is no symbol the theme has; did you mean `:main:`? (it is shown as text)"],
        "{}",
        r.stderr
    );
}

/// A chapter that does not load makes the references and links to it "broken" only because
/// of that: the build holds those warnings back (one line says how many) and shows the error.
#[test]
fn references_to_a_chapter_that_did_not_load_are_held_back() {
    let d = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: A\n---\n\nSee [setup](b.md) and 2.1.0.\n",
        ),
        (
            "content/en/b.md",
            "---\nid: b\ntitle: \"2.0.0 Setup\n---\n\n## 2.1.0 Deal\n\nDeal.\n",
        ),
        ("content/uk/a.md", "---\nid: a\ntitle: А\n---\n\nТекст.\n"),
    ]);
    let r = run(&["build", "--site", d.path().to_str().unwrap()]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("error[front-matter]: content/en/b.md:"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("broken-ref"), "{}", r.stderr);
    assert!(!r.stderr.contains("broken-link"), "{}", r.stderr);
    assert!(
        r.stderr.contains(
            "warning[held-back]: content: 2 warnings about references and links held back"
        ),
        "{}",
        r.stderr
    );
}

/// The short-address page's example number is the site's own first section, not another
/// game's `7.1.0`.
#[test]
fn the_short_address_page_shows_the_sites_own_section_number() {
    let d = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: \"3.0.0 A\"\n---\n\n## 3.2.0 Two\n\nText.\n\n## 3.4.0 Four\n\nText.\n",
        ),
        ("content/uk/a.md", "---\nid: a\ntitle: \"3.0.0 А\"\n---\n\n## 3.2.0 Два\n\nТекст.\n"),
    ]);
    build_ok(d.path());
    for lang in ["en", "uk"] {
        let doc = page(&d.path().join(format!("public/{lang}/s/index.html")));
        assert_eq!(attrs(&doc, "#n", "placeholder"), ["3.2.0"], "{lang}");
        let missing = texts(&doc, ".short-missing").join("");
        assert!(
            missing.contains("3.2.0") && !missing.contains("7.1.0"),
            "{missing}"
        );
    }
}

/// The version on top of the service worker (`var RULEBOOK_VERSION = "…";`).
fn worker_version(public: &std::path::Path) -> String {
    let sw = std::fs::read_to_string(public.join("sw.js")).expect("sw.js");
    let first = sw.lines().next().unwrap_or_default();
    let v = first
        .strip_prefix("var RULEBOOK_VERSION = \"")
        .and_then(|r| r.strip_suffix("\";"))
        .unwrap_or_else(|| panic!("no version on top of sw.js: {first}"));
    assert_eq!(v.len(), 16, "{v}");
    v.to_string()
}

/// The worker serves the theme's files, the images and the search index from its cache without
/// asking the server: unless its version changes with any byte of them, returning visitors keep
/// the old ones for good.
#[test]
fn the_service_worker_is_new_whenever_a_file_it_caches_first_changes() {
    let dir = fixture();
    let public = dir.path().join("public");
    write(dir.path(), "content/en/resources/board.png", b"PNG one");
    build_ok(dir.path());
    let first = worker_version(&public);
    build_ok(dir.path());
    assert_eq!(
        worker_version(&public),
        first,
        "the same site, another version"
    );
    let mut seen = vec![first];
    let mut changed = |what: &str, rel: &str, bytes: &[u8]| {
        write(dir.path(), rel, bytes);
        build_ok(dir.path());
        let v = worker_version(&public);
        assert!(!seen.contains(&v), "{what}: the worker kept version {v}");
        seen.push(v);
    };
    changed(
        "an image, same name",
        "content/en/resources/board.png",
        b"PNG two",
    );
    changed(
        "a theme file",
        "static/icons/main.svg",
        ICON.replace("r=\"9\"", "r=\"8\"").as_bytes(),
    );
    // the same words as often, in another order: only the passage a result shows changes
    changed(
        "the order of two words",
        "content/en/02-combat.md",
        EN_COMBAT.replace("Attack text,", "text Attack,").as_bytes(),
    );
}

/// A list item still in English in a Ukrainian chapter says so, as a paragraph does: its
/// language for screen readers (`lang`), and a class for the eye; a heading, its language. Names
/// (few letters), items in Ukrainian, an item whose paragraphs are marked themselves and an item
/// holding a nested list are left as they are.
#[test]
fn a_list_item_or_heading_left_in_english_is_marked_with_its_language() {
    let dir = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: Alpha\n---\n\nSteps.\n",
        ),
        (
            "content/uk/a.md",
            "---\nid: a\ntitle: Альфа\n---\n\nКроки.\n\n- Declare the attackers of the round\n- Оголосіть атакуючих\n- Fire Archer\n- The outer step in English\n  - Внутрішній крок\n\nІнший список:\n\n- The first paragraph of a loose item\n\n- Другий пункт\n\n```\ncode in English is no text to translate\n```\n\n## Attack a Phoenixborn\n\nТекст.\n\n## Атака на пломенекровного\n\nТекст.\n",
        ),
    ]);
    build_ok(dir.path());
    let uk = page(&dir.path().join("public/uk/a/index.html"));
    // a heading too, for screen readers (no mark: a heading is seen at once)
    assert_eq!(
        attrs(&uk, "article h2[lang=\"en\"]", "id"),
        ["attack-a-phoenixborn"]
    );
    let marked: Vec<String> = uk
        .select(&sel("article li.untr-item"))
        .map(|li| {
            assert_eq!(li.value().attr("lang"), Some("en"));
            li.text().next().unwrap_or_default().trim().to_string()
        })
        .collect();
    // not the outer item in English: it holds a Ukrainian list, which its `lang` would cover
    assert_eq!(marked, ["Declare the attackers of the round"]);
    assert_eq!(
        texts(&uk, "article li > p.untr"),
        ["The first paragraph of a loose item"]
    );
}

/// The summary line counts chapters in words a reader would write: "1 chapter", "2 chapters".
#[test]
fn the_summary_counts_chapters_in_the_singular_and_plural() {
    let dir = fixture();
    let said = |dir: &std::path::Path| {
        build_ok(dir)
            .stderr
            .lines()
            .find(|l| l.starts_with("built "))
            .map(str::to_string)
            .unwrap_or_default()
    };
    assert!(said(dir.path()).starts_with("built 2 chapters per language,"));
    std::fs::remove_file(dir.path().join("content/en/02-combat.md")).unwrap();
    assert!(said(dir.path()).starts_with("built 1 chapter per language,"));
}

#[test]
fn the_themes_scripts_are_served_lean_and_a_sites_own_as_written() {
    let source = |rel: &str| std::fs::read_to_string(repo().join(rel)).unwrap();
    let comment_lines = |text: &str| {
        text.lines()
            .filter(|l| l.trim_start().starts_with("/*") || l.trim_start().starts_with("//"))
            .count()
    };
    // a site with the theme's `site.js` copied unchanged, and a `reading.js` of its own
    let own = "// my own note\n  console.log(\"reading\"); /* kept */\n";
    let dir = site(&[
        ("content/site.yaml", SITE_YAML),
        ("content/en/01-intro.md", EN_INTRO),
        ("static/js/site.js", &source("static/js/site.js")),
        ("static/js/reading.js", own),
    ]);
    build_ok(dir.path());
    let out = dir.path().join("public/static");
    for rel in [
        "js/search.js",
        "js/analyzer.js",
        "js/site.js",
        "css/style.css",
    ] {
        let theirs = source(&format!("static/{rel}"));
        let served = std::fs::read_to_string(out.join(rel)).unwrap();
        assert!(
            comment_lines(&theirs) > 0,
            "{rel} has no comment line to leave out"
        );
        assert_eq!(comment_lines(&served), 0, "{rel}");
        assert!(
            served.len() < theirs.len(),
            "{rel}: {} of {}",
            served.len(),
            theirs.len()
        );
        let kind = rulebook::lean::kind_of(rel).unwrap();
        assert_eq!(served, rulebook::lean::lean(&theirs, kind), "{rel}");
    }
    assert_eq!(
        std::fs::read_to_string(out.join("js/reading.js")).unwrap(),
        own
    );
    // the worker too: its version lines, then the lean script
    let worker = std::fs::read_to_string(dir.path().join("public/sw.js")).unwrap();
    assert!(worker.starts_with("var RULEBOOK_VERSION = "), "{worker}");
    assert_eq!(comment_lines(&worker), 0);
}

/// A template reads only the environment variables named `RULEBOOK_…` (`get_env`): a site's
/// templates are published with every build, and one built in CI could otherwise print the
/// machine's secrets into every page. Asking for another is an error at the template's line.
#[test]
fn templates_read_only_the_sites_own_environment_variables() {
    let dir = fixture();
    let base = include_str!("../templates/chapter.html");
    let with = |call: &str| {
        let t = base.replacen(
            "{% block main %}",
            &format!("{{% block main %}}<p id=\"env\">{call}</p>"),
            1,
        );
        assert_ne!(t, base, "the template has a main block");
        write(dir.path(), "templates/chapter.html", t.as_bytes());
    };
    let build = || {
        let out = std::process::Command::new(bin())
            .args(["build", "--site", dir.path().to_str().unwrap()])
            .env("RULEBOOK_EDITION", "second")
            .env("SECRET_TOKEN", "s3cret")
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    with("{{ get_env(name=\"RULEBOOK_EDITION\") }} {{ get_env(name=\"RULEBOOK_NONE\", default=\"-\") }}");
    let (code, err) = build();
    assert_eq!(code, Some(0), "{err}");
    let doc = page(&dir.path().join("public/en/intro/index.html"));
    assert_eq!(texts(&doc, "#env"), ["second -"]);
    with("{{ get_env(name=\"SECRET_TOKEN\") }}");
    let (code, err) = build();
    assert_eq!(code, Some(1), "{err}");
    let line = base
        .lines()
        .position(|l| l.contains("{% block main %}"))
        .unwrap()
        + 1;
    assert!(
        err.contains(&format!("templates/chapter.html:{line}:")) && err.contains("RULEBOOK_"),
        "{err}"
    );
    assert!(!err.contains("s3cret"), "{err}");
    // the site built before is still there, without the secret
    let doc = page(&dir.path().join("public/en/intro/index.html"));
    assert_eq!(texts(&doc, "#env"), ["second -"]);
}

/// What lies in a site's `templates/` beside its templates (a README that shows a tag, an
/// editor's backup) is no template and fails nothing; an `i18n/` file of comments only
/// changes nothing; and a UI string cannot end the script it is written into. Each of these
/// failed the build, or put the string's own `<script>` into every page.
#[test]
fn a_sites_own_theme_files_are_read_for_what_they_are() {
    let dir = fixture();
    write(
        dir.path(),
        "templates/README.md",
        b"Override `{% block main %}` here.\n",
    );
    write(dir.path(), "templates/chapter.html~", b"{% if %}\n");
    // a template of another ending is a template (a file of macros)
    write(
        dir.path(),
        "templates/macros.tera",
        b"{% macro mark() %}<p id=\"own-macro\">mine</p>{% endmacro %}\n",
    );
    let chapter = include_str!("../templates/chapter.html")
        .replacen(
            "{% extends \"base.html\" %}",
            "{% extends \"base.html\" %}\n{% import \"macros.tera\" as m %}",
            1,
        )
        .replacen("{% block main %}", "{% block main %}{{ m::mark() }}", 1);
    write(dir.path(), "templates/chapter.html", chapter.as_bytes());
    write(dir.path(), "i18n/uk.yaml", b"# nothing of our own yet\n");
    write(
        dir.path(),
        "i18n/en.yaml",
        b"copy_link: \"</script><script>window.owned = 1</script>\"\n",
    );
    build_ok(dir.path());
    let out = dir.path().join("public");
    assert!(!out.join("README.md").exists());
    let doc = page(&out.join("en/intro/index.html"));
    assert_eq!(texts(&doc, "#own-macro"), ["mine"]);
    // the JSON is whole: one script, whose text parses and holds the string as written
    let json = texts(&doc, "script#rb-i18n");
    assert_eq!(json.len(), 1, "{json:?}");
    let v: serde_json::Value = serde_json::from_str(&json[0]).unwrap();
    assert_eq!(v["copy_link"], "</script><script>window.owned = 1</script>");
    assert_eq!(
        doc.select(&sel("script"))
            .filter(|s| s.inner_html().contains("owned"))
            .count(),
        1
    );
}

/// A UI string of the site's own set for one language only: the other language's pages show
/// its text, and a warning names the file that lacks it. Every page of the other language
/// failed with "Variable `t.my_note` not found" at the template's line, naming no strings file.
#[test]
fn a_sites_own_ui_string_set_in_one_language_is_shared_with_a_warning() {
    let dir = fixture();
    let chapter = include_str!("../templates/chapter.html").replacen(
        "{% block main %}",
        "{% block main %}<p id=\"note\">{{ t.my_note }}</p>",
        1,
    );
    write(dir.path(), "templates/chapter.html", chapter.as_bytes());
    write(dir.path(), "i18n/en.yaml", b"my_note: Printed rules win\n");
    let r = build_ok(dir.path());
    assert!(
        r.stderr.contains(
            "warning[i18n]: i18n/uk.yaml: does not set the site's own UI strings `my_note` (i18n/en.yaml has it)"
        ),
        "{}",
        r.stderr
    );
    for lang in ["en", "uk"] {
        let doc = page(&dir.path().join(format!("public/{lang}/intro/index.html")));
        assert_eq!(texts(&doc, "#note"), ["Printed rules win"], "{lang}");
    }
    // set in both, nothing to say
    write(
        dir.path(),
        "i18n/uk.yaml",
        "my_note: Друковані правила\n".as_bytes(),
    );
    let r = build_ok(dir.path());
    assert!(!r.stderr.contains("my_note"), "{}", r.stderr);
    // a misspelled theme key is one, where it is written; no other file is said to lack it
    write(
        dir.path(),
        "i18n/uk.yaml",
        "my_note: Друковані правила\nnot_translated_titel: Ще ні\n".as_bytes(),
    );
    let r = build_ok(dir.path());
    let lines: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.contains("not_translated_titel"))
        .collect();
    assert_eq!(lines.len(), 1, "{}", r.stderr);
    assert!(
        lines[0].contains("i18n/uk.yaml") && lines[0].contains("not_translated_title"),
        "{}",
        r.stderr
    );
}

/// Chapters without a `weight` are read in the order of their files in every language, also
/// when a translation lacks some of them: a chapter one language lacks goes after the one it
/// follows in the other. The order compared positions across languages, and the Ukrainian
/// `d`, second of its two, went before the English `b`.
#[test]
fn a_partial_translation_keeps_the_order_of_the_files() {
    let ch = |id: &str| {
        format!(
            "---\nid: {id}\ntitle: {}\n---\n\nText.\n",
            id.to_uppercase()
        )
    };
    let (a, b, c, d, e) = (ch("a"), ch("b"), ch("c"), ch("d"), ch("e"));
    let dir = site(&[
        ("content/site.yaml", SITE_YAML),
        ("content/en/01-a.md", &a),
        ("content/en/02-b.md", &b),
        ("content/en/03-c.md", &c),
        ("content/en/04-d.md", &d),
        ("content/uk/01-a.md", &a),
        ("content/uk/04-d.md", &d),
        ("content/uk/05-e.md", &e),
    ]);
    build_ok(dir.path());
    for lang in ["en", "uk"] {
        let doc = page(&dir.path().join(format!("public/{lang}/print/index.html")));
        assert_eq!(
            attrs(&doc, "section.print-chapter", "id"),
            ["a", "b", "c", "d", "e"],
            "{lang}"
        );
        let out = dir.path().join("public");
        let from = out.join(format!("{lang}/a/index.html"));
        let next = attrs(&page(&from), "a[rel=next]", "href");
        assert_eq!(next.len(), 1, "{lang}: {next:?}");
        let (to, _) = resolve_href(&out, &from, &next[0]).unwrap();
        assert_eq!(to, out.join(format!("{lang}/b/index.html")), "{lang}");
    }
}

/// "Referenced by" leads where a cross-link to the referring section leads: to the original's
/// page when the reader's translation of that chapter lacks the section (on the chapter page
/// and on the print view). It led to an anchor the translated page does not have.
#[test]
fn referenced_by_leads_to_a_section_the_translation_lacks() {
    let dir = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: \"61.0.0 Alpha\"\nweight: 1\n---\n\n## 61.1.0 First\n\nText.\n\n## 61.2.0 Second\n\nSee 60.1.0.\n",
        ),
        (
            "content/uk/a.md",
            "---\nid: a\ntitle: \"61.0.0 Альфа\"\nweight: 1\n---\n\n## 61.1.0 Перший\n\nТекст.\n",
        ),
        (
            "content/en/b.md",
            "---\nid: b\ntitle: \"60.0.0 Beta\"\nweight: 2\n---\n\n## 60.1.0 One\n\nText.\n",
        ),
    ]);
    build_ok(dir.path());
    let out = dir.path().join("public");
    for p in ["uk/b/index.html", "uk/print/index.html"] {
        let refby = attrs(&page(&out.join(p)), "p.refby a", "href");
        assert_eq!(refby.len(), 1, "{p}: {refby:?}");
        let (to, frag) = resolve_href(&out, &out.join(p), &refby[0]).unwrap();
        assert_eq!(
            (to, frag.as_deref()),
            (out.join("en/a/index.html"), Some("61.2.0")),
            "{p}"
        );
    }
    assert_links_resolve(&out);
}

/// A table of contents is not a reference: a place that links to more sections than a rule
/// does (the Rules Reference's "About" lists all 74) is left out of "Referenced by", and its
/// links still lead to the sections. Every section said "Referenced by: About this reference".
#[test]
fn a_table_of_contents_is_not_a_reference() {
    let sections: String = (1..=30)
        .map(|i| format!("## 5.{i}.0 Rule {i}\n\nText {i}.\n\n"))
        .collect();
    let contents: String = (1..=30)
        .map(|i| format!("- [5.{i}.0 Rule {i}](#)\n"))
        .collect();
    let dir = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            &format!("---\nid: about\ntitle: About\nweight: 1\n---\n\n## Contents\n\n{contents}"),
        ),
        (
            "content/en/b.md",
            &format!("---\nid: rules\ntitle: \"5.0.0 Rules\"\nweight: 2\n---\n\n{sections}"),
        ),
        (
            "content/en/c.md",
            "---\nid: faq\ntitle: FAQ\nweight: 3\n---\n\nSee 5.2.0 for this.\n",
        ),
    ]);
    build_ok(dir.path());
    let out = dir.path().join("public");
    let doc = page(&out.join("en/rules/index.html"));
    let refby = texts(&doc, "p.refby");
    assert_eq!(refby.len(), 1, "{refby:?}");
    assert!(
        refby[0].contains("FAQ") && !refby[0].contains("About"),
        "{refby:?}"
    );
    let links = attrs(
        &page(&out.join("en/about/index.html")),
        "article a.xref",
        "href",
    );
    assert_eq!(links.len(), 30, "{links:?}");
    assert_links_resolve(&out);
}

/// A numbered heading keeps its number as its id when it is given one of its own (which is
/// kept beside it), and a link to a chapter file with an anchor leads where that anchor is in
/// the reader's language, or to the original's page: every link to `## 7.1.0 … {#discarding}`
/// was dead, and so was `a.md#1.2.0` on a translation that lacks 1.2.0.
#[test]
fn links_reach_sections_with_ids_of_their_own_and_anchors_a_translation_lacks() {
    let dir = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: \"1.0.0 Alpha\"\n---\n\n## 1.1.0 One {#one}\n\nText.\n\n## 1.2.0 Two\n\nOnly in English.\n\n## Notes\n\nNotes.\n",
        ),
        (
            "content/uk/a.md",
            "---\nid: a\ntitle: \"1.0.0 Альфа\"\n---\n\n## 1.1.0 Один\n\nТекст.\n",
        ),
        (
            "content/en/b.md",
            "---\nid: b\ntitle: \"2.0.0 Beta\"\n---\n\nSee 1.1.0, [1.1.0 One](#), [one](a.md#one), [two](a.md#1.2.0) and [notes](a.md#notes).\n",
        ),
    ]);
    let r = build_ok(dir.path());
    assert!(!r.stderr.contains("broken"), "{}", r.stderr);
    let out = dir.path().join("public");
    let en = page(&out.join("en/a/index.html"));
    assert_eq!(attrs(&en, "h2#\\31 \\.1\\.0", "id"), ["1.1.0"]);
    assert_eq!(attrs(&en, "#one", "id"), ["one"]);
    for p in [
        "uk/b/index.html",
        "uk/print/index.html",
        "en/b/index.html",
        "en/print/index.html",
    ] {
        let doc = page(&out.join(p));
        let two = link_to(&doc, "two").unwrap();
        let (to, frag) = resolve_href(&out, &out.join(p), &two).unwrap();
        if p.ends_with("print/index.html") && p.starts_with("en") {
            assert_eq!((to, frag.as_deref()), (out.join(p), Some("1.2.0")), "{p}");
        } else {
            assert_eq!(
                (to, frag.as_deref()),
                (out.join("en/a/index.html"), Some("1.2.0")),
                "{p}"
            );
        }
    }
    assert_links_resolve(&out);
}

/// Links in a heading are links as in the text: to a chapter file, to an address on the site,
/// or none (`[7.9.9](#)`, an unsafe address: only the text). They were passed through as
/// written (`b.md`, dead), and a dropped one left a stray `</a>`.
#[test]
fn links_in_headings_lead_where_links_in_the_text_do() {
    let dir = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: A\n---\n\n## 1.1.0 See [the rules](b.md) and [top](/en/)\n\nText.\n\n## Setup ([7.9.9](#)) and [bad](javascript:alert(1)) end\n\nText.\n",
        ),
        ("content/en/b.md", "---\nid: b\ntitle: B\n---\n\nText.\n"),
    ]);
    build_ok(dir.path());
    let out = dir.path().join("public");
    let p = out.join("en/a/index.html");
    let doc = page(&p);
    let links: Vec<(String, String)> = doc
        .select(&sel("article h2 a:not(.permalink)"))
        .map(|a| {
            (
                a.text().collect(),
                a.value().attr("href").unwrap_or("").to_string(),
            )
        })
        .collect();
    let texts: Vec<&str> = links.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(texts, ["the rules", "top"], "{links:?}");
    for (_, href) in &links {
        assert!(!href.starts_with('/') && !href.ends_with(".md"), "{href}");
        let (to, _) = resolve_href(&out, &p, href).unwrap();
        assert!(to.is_file(), "{href}");
    }
    // the second heading's text is whole, in one heading, with no link
    let second = texts_of(&doc, "article h2");
    assert!(
        second
            .iter()
            .any(|t| t.starts_with("Setup (7.9.9) and bad end")),
        "{second:?}"
    );
    let html = std::fs::read_to_string(&p).unwrap();
    let h2 = &html[html.find("<h2 id=\"setup").unwrap()..];
    let h2 = &h2[..h2.find("</h2>").unwrap()];
    assert_eq!(
        h2.matches("</a>").count(),
        h2.matches("<a ").count(),
        "{h2}"
    );
}

fn texts_of(doc: &Html, selector: &str) -> Vec<String> {
    doc.select(&sel(selector))
        .map(|e| e.text().collect::<String>())
        .collect()
}

/// The ids of `doc` (the page `p`), sorted; fails when one is repeated.
fn unique_ids(doc: &scraper::Html, p: &str) -> Vec<String> {
    let mut ids = attrs(doc, "[id]", "id");
    let n = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), n, "{p}: an id is repeated");
    ids
}

/// Footnotes: a label matches its note however its case or white space is written, as Markdown
/// matches them, and the ids follow (no space in an id); a second reference to a note has an id
/// of its own; a heading whose words make a footnote's id (`Fn 1`) takes another. Each of these
/// gave a dead link or an id twice.
#[test]
fn footnote_ids_are_whole_and_unique() {
    let dir = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: A\n---\n\n## Fn 1\n\nOne[^Note] two[^a  b] three[^1] four[^1] five[^a-b].\n\n[^note]: The note.\n[^A B]: Spaced.\n[^1]: First.\n[^a-b]: Dashed.\n",
        ),
    ]);
    build_ok(dir.path());
    let out = dir.path().join("public");
    for p in ["en/a/index.html", "en/print/index.html"] {
        let doc = page(&out.join(p));
        let ids = unique_ids(&doc, p);
        assert!(ids.iter().all(|i| !i.contains(' ')), "{p}: {ids:?}");
        // every reference leads to its note, and each note back to a reference
        let refs = attrs(&doc, "sup.fnref a", "href");
        assert_eq!(refs.len(), 5, "{p}");
        // `a b` and `a-b` are two notes, with two ids
        let notes = attrs(&doc, "div.footnote", "id");
        assert_eq!(notes.len(), 4, "{p}: {notes:?}");
        for href in refs.iter().chain(&attrs(&doc, "a.fn-back", "href")) {
            let id = href.trim_start_matches('#');
            assert!(ids.iter().any(|i| i == id), "{p}: {href}");
        }
    }
    assert_links_resolve(&out);
}

/// A footnote defined twice: the page has each id once (the second definition has none), the
/// reference goes to the first, and the build warns at the second's line.
#[test]
fn a_footnote_defined_twice_is_warned_of_and_keeps_its_ids_unique() {
    let dir = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: A\n---\n\nText[^1].\n\n[^1]: One.\n[^1]: Two.\n",
        ),
    ]);
    let r = build_ok(dir.path());
    assert!(
        r.stderr.contains("warning[footnote]: content/en/a.md:9:") && r.stderr.contains("line 8"),
        "{}",
        r.stderr
    );
    let out = dir.path().join("public");
    for p in ["en/a/index.html", "en/print/index.html"] {
        let doc = page(&out.join(p));
        unique_ids(&doc, p);
        assert_eq!(doc.select(&sel("div.footnote")).count(), 2, "{p}");
        assert_eq!(attrs(&doc, "div.footnote", "id").len(), 1, "{p}");
    }
    assert_links_resolve(&out);
}

/// Inside a raw HTML link or code element, as inside Markdown's own, no section number and no
/// glossary term is linked: they were, and made a link inside a link.
#[test]
fn nothing_is_linked_inside_raw_html_links_and_code() {
    let dir = fixture();
    let intro = format!(
        "{EN_INTRO}\n<a href=\"https://example.org\">the guard rules in 1.1.0</a> and <code>guard 1.1.0</code>, but guard and 1.1.0 here.\n"
    );
    write(dir.path(), "content/en/01-intro.md", intro.as_bytes());
    build_ok(dir.path());
    let doc = page(&dir.path().join("public/en/intro/index.html"));
    assert_eq!(doc.select(&sel("a a, code a")).count(), 0);
    let p = doc
        .select(&sel("article p"))
        .find(|p| p.text().collect::<String>().contains("here."))
        .unwrap();
    let linked: Vec<String> = p.select(&sel("a")).map(|a| a.text().collect()).collect();
    assert_eq!(
        linked,
        ["the guard rules in 1.1.0", "guard", "1.1.0"],
        "{}",
        p.html()
    );
}

/// A cross-link that quotes its section's title as written, with emphasis or code in it or
/// over two lines, draws no "title differs" warning; one that quotes another title does. The
/// words before an emphasis and around a line break ran together (`PlayingReady Spells`).
#[test]
fn a_quoted_title_with_emphasis_or_a_line_break_is_the_title() {
    let dir = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: A\n---\n\n## 7.1.0 Playing *Ready* Spells\n\nText.\n\n## 7.2.0 The Exhaust Keyword\n\nText.\n",
        ),
        (
            "content/en/b.md",
            "---\nid: b\ntitle: B\n---\n\nSee [7.1.0 Playing *Ready* Spells](#), [7.2.0 The Exhaust\nKeyword](#) and [7.2.0 The `Exhaust` Keyword](#).\n\nBut [7.1.0 Playing Spells](#).\n",
        ),
    ]);
    let r = build_ok(dir.path());
    let warned: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.contains("ref-title"))
        .collect();
    assert_eq!(warned.len(), 1, "{}", r.stderr);
    assert!(warned[0].contains("content/en/b.md:9:"), "{}", r.stderr);
}

/// A number in a table cell is a reference when words are around it, emphasis or not (`see
/// **7.1.0** now`), and a value of the table when it is the whole cell (`1.1`, `**1.1**`): the
/// emphasised one was taken for a whole cell.
#[test]
fn a_number_among_words_in_a_table_cell_is_a_reference() {
    let dir = fixture();
    let intro = format!("{EN_INTRO}\n| a | b |\n| --- | --- |\n| see **1.1.0** now | **1.1** |\n");
    write(dir.path(), "content/en/01-intro.md", intro.as_bytes());
    build_ok(dir.path());
    let doc = page(&dir.path().join("public/en/intro/index.html"));
    let cells: Vec<(String, usize)> = doc
        .select(&sel("article table tbody td"))
        .map(|td| (td.text().collect(), td.select(&sel("a")).count()))
        .collect();
    let row: Vec<_> = cells.iter().rev().take(2).rev().collect();
    assert_eq!(row[0], &("see 1.1.0 now".to_string(), 1), "{cells:?}");
    assert_eq!(row[1], &("1.1".to_string(), 0), "{cells:?}");
}

/// A raw element left open in a table cell or a list item, or one in a comment, does not keep
/// the text after it unlinked; a link written `<a href=/x/>` is open after its `/>`.
#[test]
fn raw_html_left_open_keeps_no_other_block_unlinked() {
    let dir = fixture();
    let intro = format!(
        "{EN_INTRO}\n| a | b |\n| --- | --- |\n| <code>x | see 1.1.0 |\n| y | see 2.1.0 |\n\n- <a href=\"https://example.org\">item 1.1.0\n- second item 2.1.0\n\nNote <!-- <a href=\"x\"> --> then 1.1.0, and <a href=https://example.org/x/>in 2.1.0</a>.\n"
    );
    write(dir.path(), "content/en/01-intro.md", intro.as_bytes());
    build_ok(dir.path());
    let doc = page(&dir.path().join("public/en/intro/index.html"));
    let linked = |s: &str| -> Vec<String> {
        doc.select(&sel(s))
            .flat_map(|e| {
                e.select(&sel("a.xref"))
                    .map(|a| a.text().collect::<String>())
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    // the second row, the second item, and the paragraph's number after the comment
    assert_eq!(linked("article tbody tr:last-child td"), ["2.1.0"]);
    assert_eq!(linked("article li:last-child"), ["2.1.0"]);
    let p = doc
        .select(&sel("article p"))
        .find(|p| p.text().collect::<String>().starts_with("Note"))
        .unwrap();
    let in_p: Vec<String> = p
        .select(&sel("a.xref"))
        .map(|a| a.text().collect())
        .collect();
    assert_eq!(in_p, ["1.1.0"], "{}", p.html());
}

/// Tooltip data is split over files as the glossary grows: the first card a reader opens loads
/// one file of a few tens of kilobytes, not the whole glossary (one file was 1.6 MB at 4,000
/// entries). Each term's anchor is in the file reading.js picks for it: FNV-1a over the
/// anchor's UTF-16 code units, modulo the count on the chapter's `<article>`.
#[test]
fn glossary_tooltips_are_split_over_files_each_term_in_the_file_its_anchor_picks() {
    let entries: Vec<String> = (0..150)
        .map(|i| format!("\"Term{i} word\": \"Definition of term {i}.\""))
        .collect();
    let glossary = format!("{{{}}}", entries.join(", "));
    let text: Vec<String> = (0..150)
        .map(|i| format!("Use term{i} word here."))
        .collect();
    let chapter = format!("---\nid: a\ntitle: A\n---\n\n{}\n", text.join("\n\n"));
    let d = site(&[
        ("content/site.yaml", SITE_YAML),
        ("content/en/glossary.json", &glossary),
        ("content/en/a.md", &chapter),
    ]);
    build_ok(d.path());
    let public = d.path().join("public");
    let doc = page(&public.join("en/a/index.html"));
    let count: usize = attrs(&doc, "article", "data-terms")[0].parse().unwrap();
    assert_eq!(count, 3, "150 entries, about 64 a file");
    assert!(!public.join("en/glossary/terms.js").exists());
    let files: Vec<String> = (0..count)
        .map(|k| {
            std::fs::read_to_string(public.join(format!("en/glossary/terms-{k}-of-{count}.js")))
                .unwrap()
        })
        .collect();
    let links = attrs(&doc, "article a.gl", "href");
    assert!(links.len() >= 5, "{links:?}");
    for href in links {
        let anchor = href.split('#').nth(1).unwrap();
        let k = hashed_file(anchor, count);
        let key = format!("\"{anchor}\":[");
        assert!(files[k].contains(&format!("[\"en/{k}\"]=")), "file {k}");
        assert!(files[k].contains(&key), "{anchor} is not in file {k}");
        for (j, f) in files.iter().enumerate() {
            assert!(j == k || !f.contains(&key), "{anchor} is in file {j} too");
        }
    }
    assert!(
        files.iter().all(|f| f.len() < 12 * 1024),
        "files of a few KB each"
    );
}

/// A section's preview (the card of a cross-link to it) shows its symbols as their words, as
/// search results do: the card of the default site's 12.2.0 read `:side: 1
/// :ceremonial-power: : Choose…`.
#[test]
fn section_previews_show_symbols_as_words() {
    let d = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: A\n---\n\n## 1.1.0 Pay :side:\n\n:side: 1 :ceremonial-power: : Choose an ally.\n\n## 1.2.0 Other\n\nSee 1.1.0.\n",
        ),
    ]);
    build_ok(d.path());
    let previews = std::fs::read_to_string(d.path().join("public/en/s/p0-of-1.js")).unwrap();
    assert!(
        previews.contains(
            r#""1.1.0":["Pay Side action","Side action 1 Ceremonial power : Choose an ally."]"#
        ),
        "{previews}"
    );
    assert!(!previews.contains(":side:"), "{previews}");
}
