//! Browser checks of the reading aids on the default content (the Ashes rules): glossary
//! tooltips, cross-link previews, short section addresses, the side-by-side view, the theme
//! toggle and axe-core. Screenshots go to `target/screenshots/` for a person to look at.

use crate::common::browser::Browser;
use crate::common::*;

fn open(b: &Browser, path: &str) {
    b.goto(&format!("{}{path}", served_default_site().url));
    b.wait_until(
        "return document.readyState === 'complete' && window.Rulebook",
        10,
        "page load",
    );
}

/// Where the text of the page starts: a tooltip must not move it.
const ARTICLE_TOP: &str = "var a = document.querySelector('article'); var r = a.getBoundingClientRect(); return [r.top + window.scrollY, r.height];";

#[test]
fn glossary_tooltip_on_hover_and_keyboard_focus() {
    for (w, h, name) in [(1280, 860, "desktop"), (390, 844, "phone")] {
        let b = Browser::start(w, h);
        open(&b, "uk/introduction/");
        // an inflected form links to its entry
        let href = b.js("var a = [].find.call(document.querySelectorAll('article a.gl'), function (a) { return /жетон/i.test(a.textContent); }); return a && a.getAttribute('href');");
        assert_eq!(
            href.as_str(),
            Some("../glossary/#wound-token-rulebook"),
            "жетони ран links to Жетон рани"
        );
        b.js("document.querySelector('article a.gl').scrollIntoView({block: 'center'})");
        let before = b.js(ARTICLE_TOP);
        b.hover("article a.gl");
        let tip = b.wait_until(
            "var t = document.getElementById('rb-tip'); return t && !t.hidden && t.textContent",
            10,
            "tooltip on hover",
        );
        let tip = tip.as_str().unwrap().to_string();
        assert!(tip.contains("·"), "tooltip names the English term: {tip}");
        assert_eq!(
            before,
            b.js(ARTICLE_TOP),
            "showing the tooltip moved the text"
        );
        b.screenshot(&shots().join(format!("tooltip-{name}.png")));
        // the card's last line opens the entry (it was a line of text that did nothing)
        let entry = b.js("return document.querySelector('article a.gl').href");
        b.click("#rb-tip .rb-tip-hint a");
        b.wait_until(
            &format!("return location.href === {entry}"),
            10,
            "the card's link to the entry",
        );
        open(&b, "uk/introduction/");

        // keyboard: focus the next term link; the card follows focus and says what it describes
        b.hover("header.top");
        b.js("var t = document.getElementById('rb-tip'); if (t) t.hidden = true; var l = document.querySelectorAll('article a.gl')[1]; l.scrollIntoView({block: 'center'}); l.focus();");
        let described = b.wait_until(
            "var t = document.getElementById('rb-tip'); var f = document.activeElement; return t && !t.hidden && f.getAttribute('aria-describedby') === 'rb-tip' && t.textContent",
            10,
            "tooltip on keyboard focus",
        );
        assert!(!described.as_str().unwrap().is_empty());
        // Enter follows the link to the entry
        b.keys("\u{E007}");
        b.wait_until(
            "return location.pathname.indexOf('/uk/glossary/') === 0",
            10,
            "Enter opens the glossary entry",
        );
    }
}

/// Hovers the link `sel` and returns the text of the card that comes up.
fn hover_card(b: &Browser, sel: &str) -> String {
    b.js("var t = document.getElementById('rb-tip'); if (t) t.hidden = true;");
    b.js(&format!(
        "document.querySelector(\"{sel}\").scrollIntoView({{block: 'center'}})"
    ));
    b.hover(sel);
    let text = b.wait_until(
        "var t = document.getElementById('rb-tip'); return t && !t.hidden && t.textContent",
        10,
        &format!("a card for {sel}"),
    );
    text.as_str().unwrap().to_string()
}

#[test]
fn cross_link_preview() {
    let b = Browser::start(1280, 860);
    // opened from disk too: the previews load as scripts, which file:// allows
    b.goto(&format!(
        "file://{}",
        built_default_site()
            .join("en/game-round/index.html")
            .display()
    ));
    b.wait_until(
        "return document.readyState === 'complete' && window.Rulebook",
        10,
        "page load from disk",
    );
    let text = hover_card(&b, "article a.xref[href*='#5.7.1']");
    assert!(text.starts_with("5.7.1"), "preview from disk: {text}");
    open(&b, "en/game-round/");
    let sel = "article a.xref[href*='#5.7.1']";
    let n = b.js(&format!(
        "var a = document.querySelector(\"{sel}\"); a.scrollIntoView({{block: 'center'}}); return decodeURIComponent(a.getAttribute('href').split('#')[1]);"
    ));
    let n = n.as_str().unwrap().to_string();
    b.hover(sel);
    let text = b.wait_until(
        "var t = document.getElementById('rb-tip'); return t && !t.hidden && t.textContent",
        10,
        "a preview of the linked section",
    );
    let text = text.as_str().unwrap();
    assert!(text.starts_with(&n), "preview starts with {n}: {text}");
    assert!(
        text.len() > n.len() + 10,
        "preview has a title and text: {text}"
    );
    b.screenshot(&shots().join("preview-desktop.png"));

    // the previews are split over files by chapter, found from the chapter in the link: a link
    // into every chapter that a page links to finds its preview
    open(&b, "en/about/");
    let hrefs = b.js("var seen = {}, out = []; document.querySelectorAll('article a.xref').forEach(function (a) { var h = a.getAttribute('href'), i = h.indexOf('#'); if (i > 0 && !seen[h.slice(0, i)]) { seen[h.slice(0, i)] = 1; out.push(h); } }); return out;");
    let hrefs: Vec<String> = serde_json::from_value(hrefs).unwrap();
    assert!(hrefs.len() >= 8, "links into many chapters: {hrefs:?}");
    for h in hrefs {
        b.hover("header.top");
        let card = hover_card(&b, &format!("article a.xref[href='{h}']"));
        let n = percent_decode(h.split('#').nth(1).unwrap());
        assert!(card.starts_with(&n), "{h}: {card}");
    }
}

/// On a large site the short addresses' table is split over files, and a number is looked up
/// in the file its first part hashes to: the page no longer carries every section of the site (471 KB at
/// 2,000 chapters), and each number, in whichever file, still leads to its section.
#[test]
fn short_addresses_of_a_large_site_read_one_file_of_the_table() {
    let mut files: Vec<(String, String)> = vec![("content/site.yaml".into(), SITE_YAML.into())];
    for c in 1..=300 {
        let sections: String = (1..=8)
            .map(|k| format!("## {c}.{k}.0 Part {k}\n\nText {c} {k}.\n\n"))
            .collect();
        files.push((
            format!("content/en/c{c:03}.md"),
            format!("---\nid: c{c}\ntitle: \"{c}.0.0 Chapter {c}\"\n---\n\n{sections}"),
        ));
    }
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let d = site(&refs);
    build_ok(d.path());
    let public = d.path().join("public");
    // 2,700 numbers: two files, each number in the one it hashes to, the page without them
    let table: Vec<String> = (0..2)
        .map(|k| std::fs::read_to_string(public.join(format!("en/s/n{k}-of-2.js"))).unwrap())
        .collect();
    let mut names: Vec<String> = std::fs::read_dir(public.join("en/s"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with('n'))
        .collect();
    names.sort();
    assert_eq!(names, ["n0-of-2.js", "n1-of-2.js"]);
    let page = std::fs::read_to_string(public.join("en/s/index.html")).unwrap();
    assert!(
        !page.contains("\"7.1.0\"") && page.len() < 8 * 1024,
        "{}",
        page.len()
    );
    let mut in_each = [None, None];
    for c in 1..=300 {
        for k in 0..=8 {
            let n = format!("{c}.{k}.0");
            let f = hashed_file(&c.to_string(), 2);
            assert!(table[f].contains(&format!("\"{n}\"")), "{n} not in n{f}.js");
            assert!(
                !table[1 - f].contains(&format!("\"{n}\"")),
                "{n} in n{}.js too",
                1 - f
            );
            in_each[f].get_or_insert(n);
        }
    }
    let server = StaticServer::start(&public, "/");
    let b = Browser::start(1000, 800);
    for n in in_each.iter().flatten() {
        let c = n.split('.').next().unwrap();
        b.goto(&format!("{}en/s/?{n}", server.url));
        b.wait_until(
            &format!("return location.pathname === '/en/c{c}/' && location.hash === '#{n}'"),
            10,
            n,
        );
    }
    b.goto(&format!("{}en/s/?301.1.0", server.url));
    b.wait_until(
        "return document.documentElement.getAttribute('data-missing') === '301.1.0' && getComputedStyle(document.querySelector('main')).visibility === 'visible'",
        10,
        "an unknown number, and the form shown",
    );
}

#[test]
fn short_address_leads_to_the_section() {
    let b = Browser::start(1000, 800);
    b.goto(&format!("{}uk/s/7.1.0/", served_default_site().url));
    b.wait_until(
        "return location.pathname.indexOf('/uk/damage-and-destruction/') === 0 && location.hash === '#7.1.0'",
        10,
        "/uk/s/7.1.0/ goes to section 7.1.0",
    );
    let top = b
        .js("return document.getElementById('7.1.0').getBoundingClientRect().top")
        .as_f64()
        .unwrap();
    assert!((-5.0..200.0).contains(&top), "7.1.0 is in view: {top}");
    // an unknown number asks for another one
    b.goto(&format!("{}en/s/?99.99.99", served_default_site().url));
    b.wait_until(
        "return document.documentElement.getAttribute('data-missing') === '99.99.99'",
        10,
        "unknown section",
    );
    b.type_into("#n", "7.1.0\u{E007}");
    b.wait_until(
        "return location.pathname.indexOf('/en/damage-and-destruction/') === 0 && location.hash === '#7.1.0'",
        10,
        "typed section number",
    );
    // a `%` that starts no escape is a number no page has (it threw, and the page said nothing)
    b.goto(&format!("{}uk/s/?%E0%A4%A", served_default_site().url));
    b.wait_until(
        "return document.documentElement.getAttribute('data-missing') === '%E0%A4%A'",
        10,
        "a malformed escape is an unknown number",
    );
    // the reader's dark theme holds on this page too (it was always light)
    b.js("localStorage.setItem('rulebook-theme /', 'dark')");
    b.goto(&format!("{}uk/s/?99.99.99", served_default_site().url));
    let theme = b.wait_until(
        "return document.readyState === 'complete' && (document.documentElement.dataset.theme || 'none')",
        10,
        "page load",
    );
    b.js("localStorage.removeItem('rulebook-theme /')");
    assert_eq!(theme, "dark");
}

#[test]
fn language_switch_keeps_the_section() {
    let b = Browser::start(1000, 800);
    open(&b, "en/damage-and-destruction/#7.1.0");
    b.click("a[data-lang-switch=uk]");
    b.wait_until(
        "return location.pathname.indexOf('/uk/damage-and-destruction/') === 0 && location.hash === '#7.1.0'",
        10,
        "the Ukrainian page at the same section",
    );
}

/// The switch carries the section both pages have: read under a heading without a number
/// (whose id is made of its own words, `приклади-3`, which the other page lacks) it is the
/// numbered section above it; and a section the other language lacks lands on the last one
/// before it that the page has. Both once opened the other page at its top.
#[test]
fn language_switch_lands_on_a_section_both_pages_have() {
    let filler = "Text of the rule. ".repeat(60);
    let section = |n: &str, title: &str, sub: &str| {
        format!("## {n} {title}\n\n{filler}\n\n### {sub}\n\n{filler}\n\n")
    };
    let en: String = ["1.1.0", "1.2.0", "1.3.0", "1.4.0", "1.5.0"]
        .iter()
        .map(|n| section(n, "Rule", "Examples"))
        .collect();
    let uk: String = ["1.1.0", "1.2.0", "1.3.0", "1.5.0"]
        .iter()
        .map(|n| section(n, "Правило", "Приклади"))
        .collect();
    let dir = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            &format!("---\nid: rules\ntitle: Rules\n---\n\n{en}"),
        ),
        (
            "content/uk/a.md",
            &format!("---\nid: rules\ntitle: Правила\n---\n\n{uk}"),
        ),
    ]);
    build_ok(dir.path());
    let server = StaticServer::start(&dir.path().join("public"), "/");
    let b = Browser::start(1000, 700);
    let load = |path: &str| {
        b.goto(&format!("{}{path}", server.url));
        b.wait_until(
            "return document.readyState === 'complete' && window.Rulebook",
            10,
            "page load",
        );
    };
    // an address whose anchor is no escape (`#%E0%A4%A`) leaves the page's scripts working
    // (it threw before the language switch was set up)
    load("en/rules/");
    b.js("localStorage.removeItem('rulebook-lang /')");
    load("uk/rules/#%E0%A4%A");
    assert_eq!(b.js("return localStorage.getItem('rulebook-lang /')"), "uk");
    // just past the sub-heading of 1.5.0
    load("uk/rules/");
    b.js("var h = document.querySelectorAll('article h3')[3]; window.scrollTo(0, h.getBoundingClientRect().top + window.scrollY - 40);");
    b.click("a[data-lang-switch=en]");
    b.wait_until(
        "return location.pathname.indexOf('/en/rules/') === 0 && location.hash === '#1.5.0' && document.readyState === 'complete'",
        10,
        "the English page at 1.5.0",
    );
    // inside 1.4.0, which the Ukrainian text lacks
    b.js("var h = document.getElementById('1.4.0'); window.scrollTo(0, h.getBoundingClientRect().top + window.scrollY + 60);");
    b.click("a[data-lang-switch=uk]");
    b.wait_until(
        "return location.pathname.indexOf('/uk/rules/') === 0 && location.hash === '#1.4.0' && document.readyState === 'complete' && window.Rulebook",
        10,
        "the Ukrainian page",
    );
    b.wait_until(
        "var t = document.getElementById('1.3.0').getBoundingClientRect().top; return t > -5 && t < 150;",
        5,
        "1.3.0 at the top of the view",
    );
}

#[test]
fn side_by_side_view_aligns_the_languages() {
    // not offered for a chapter not translated yet: its page shows the other language's text
    // already, and both columns were that text
    let b = Browser::start(1280, 860);
    open(&b, "uk/attacking/");
    // (reading.js has run: its copy-link buttons are there)
    b.wait_until(
        "return document.readyState === 'complete' && document.querySelector('button.copy-link')",
        10,
        "the page's scripts",
    );
    assert_eq!(
        b.js("return document.querySelector('article').lang + ' ' + document.querySelector('.pair-toggle').hidden"),
        "en true"
    );
    // nor from the other side, the English page of that chapter
    open(&b, "en/attacking/");
    b.wait_until(
        "return document.readyState === 'complete' && document.querySelector('button.copy-link')",
        10,
        "the page's scripts",
    );
    assert_eq!(
        b.js("return document.querySelector('.pair-toggle').hidden"),
        true
    );
    // an address that asks for it anyway says why there is one column, and names the
    // language as the header does (it said `uk`)
    open(&b, "en/attacking/?pair=uk");
    let note = b.wait_until(
        "var n = document.querySelector('.pair-note'); return n && n.textContent",
        10,
        "the note of an untranslated chapter",
    );
    assert!(
        note.as_str().unwrap().contains("not translated yet"),
        "{note}"
    );
    assert_eq!(
        b.js("var a = document.querySelector('.pair-note a'); return [a.textContent, a.lang];"),
        serde_json::json!(["Українська", "uk"])
    );
    assert_eq!(
        b.js("return document.body.classList.contains('paired')"),
        false
    );
    drop(b);
    for (w, h, name) in [(1280, 860, "desktop"), (390, 844, "phone")] {
        let b = Browser::start(w, h);
        open(&b, "uk/roundOrder/");
        b.wait_until(
            "var l = document.querySelector('.pair-toggle'); return l && !l.hidden",
            10,
            "the side-by-side switch",
        );
        b.click(".pair-toggle");
        b.wait_until(
            "return document.querySelectorAll('.pair-row').length > 2",
            10,
            "the side-by-side view",
        );
        assert!(b.url().contains("?pair=en"), "addressable: {}", b.url());
        let row = b.js(
            "var r = document.querySelector(\".pair-row[data-section='player-turns-phase']\"); var c = r.querySelectorAll('.pair-cell'); var h1 = c[0].querySelector('h2'), h2 = c[1].querySelector('h2'); return [c[0].lang, c[1].lang, h1.getBoundingClientRect().top, h2.getBoundingClientRect().top, h1.getBoundingClientRect().left, h2.getBoundingClientRect().left, h2.textContent];",
        );
        assert_eq!(row[0], "uk");
        assert_eq!(row[1], "en");
        assert!(
            row[6].as_str().unwrap().contains("Player Turns"),
            "the English heading sits next to the Ukrainian one: {row}"
        );
        let (t1, t2) = (row[2].as_f64().unwrap(), row[3].as_f64().unwrap());
        let (l1, l2) = (row[4].as_f64().unwrap(), row[5].as_f64().unwrap());
        if name == "desktop" {
            assert!((t1 - t2).abs() < 2.0, "headings aligned: {t1} vs {t2}");
            assert!(l2 > l1 + 200.0, "two columns: {l1} vs {l2}");
        } else {
            assert!(t2 > t1, "stacked on a phone: {t1} vs {t2}");
        }
        b.js("document.querySelector(\".pair-row[data-section='player-turns-phase']\").scrollIntoView()");
        b.screenshot(&shots().join(format!("side-by-side-{name}.png")));
    }
}

/// A small site whose two chapters link each other in both languages (the translated
/// chapters of the default content have no cross-links).
fn linked_pair_site() -> tempfile::TempDir {
    let dir = site(&[
        (
            "content/site.yaml",
            "title: {uk: Правила, en: Rules}\nlanguages: [uk, en]\ndefault_language: uk\nbase_url: \"/\"\n",
        ),
        (
            "content/uk/01-a.md",
            "---\nid: a\ntitle: Початок\n---\n## 1.1.0 Вступ\n\nПро удари читайте в 2.1.0.\n",
        ),
        (
            "content/uk/02-b.md",
            "---\nid: b\ntitle: Бій\n---\n## 2.1.0 Удар\n\nУдар завдає шкоди бійцю. Див. також 1.1.0.\n",
        ),
        (
            "content/en/01-a.md",
            "---\nid: a\ntitle: Start\n---\n## 1.1.0 Introduction\n\nFor strikes, read 2.1.0.\n",
        ),
        (
            "content/en/02-b.md",
            "---\nid: b\ntitle: Battle\n---\n## 2.1.0 Strike\n\nA strike deals damage to a unit. See also 1.1.0.\n",
        ),
    ]);
    build_ok(dir.path());
    dir
}

#[test]
fn side_by_side_view_previews_each_column_in_its_language() {
    let dir = linked_pair_site();
    let server = StaticServer::start(&dir.path().join("public"), "/");
    let b = Browser::start(1280, 860);
    b.goto(&format!("{}uk/a/?pair=en", server.url));
    b.wait_until(
        "return document.querySelectorAll('.pair-row').length > 1",
        10,
        "the side-by-side view",
    );
    // the English column's links lead to English pages, however they were written
    let href = b.js(
        "return document.querySelector(\".pair-cell[data-reader=en] a.xref[href$='#2.1.0']\").href",
    );
    assert!(href.as_str().unwrap().ends_with("/en/b/#2.1.0"), "{href}");
    let en = hover_card(&b, ".pair-cell[data-reader=en] a.xref[href$='#2.1.0']");
    b.hover("header.top");
    let uk = hover_card(&b, ".pair-cell:not([data-reader]) a.xref[href$='#2.1.0']");
    assert!(
        en.starts_with("2.1.0") && en.contains("Strike") && en.contains("deals damage"),
        "{en}"
    );
    assert!(
        uk.starts_with("2.1.0") && uk.contains("Удар") && uk.contains("завдає шкоди"),
        "{uk}"
    );
}

#[test]
fn dark_mode_toggle_and_chapter_screenshots() {
    for (w, h, name) in [(1280, 860, "desktop"), (390, 844, "phone")] {
        let b = Browser::start(w, h);
        open(&b, "en/damage-and-destruction/");
        b.screenshot(&shots().join(format!("chapter-light-{name}.png")));
        let bg = "return getComputedStyle(document.body).backgroundColor";
        let light = b.js(bg);
        b.click(".theme-toggle");
        b.wait_until(
            "return document.documentElement.dataset.theme === 'dark'",
            5,
            "dark theme",
        );
        let dark = b.js(bg);
        assert_ne!(light, dark, "the background changes");
        b.screenshot(&shots().join(format!("chapter-dark-{name}.png")));
        // remembered on the next page
        open(&b, "uk/introduction/");
        assert_eq!(
            b.js("return document.documentElement.dataset.theme"),
            "dark"
        );
    }
}

#[test]
fn toc_follows_the_scroll_and_sections_have_copy_links() {
    let b = Browser::start(1280, 860);
    open(&b, "en/damage-and-destruction/");
    b.js("document.getElementById('7.2.0').scrollIntoView()");
    b.wait_until(
        "var a = document.querySelector('.toc a.active'); return a && a.getAttribute('href') === '#7.2.0'",
        5,
        "the table of contents marks the section in view",
    );
    let crumb = b.js("return document.querySelector('.crumb-sec').textContent");
    assert!(crumb.as_str().unwrap().contains("7.2.0"), "{crumb}");
    assert!(
        b.js("return document.querySelectorAll('button.copy-link').length")
            .as_u64()
            .unwrap()
            > 3
    );
    // a copy-link button says for a moment what happened (copied, or with no clipboard here,
    // that the link is in the address bar), then its own name again: its name once stayed
    // "Link copied", and said so when nothing was copied
    let label = "return document.querySelector(\"button.copy-link[data-anchor='7.2.0']\").getAttribute('aria-label')";
    assert_eq!(b.js(label), "Copy link 7.2.0");
    b.click("button.copy-link[data-anchor='7.2.0']");
    let said = b.wait_until(
        &format!("var l = (function () {{ {label} }})(); return l !== 'Copy link 7.2.0' && l;"),
        5,
        "the button says what happened",
    );
    assert!(
        said == "Link copied" || said == "The link is in the address bar",
        "{said}"
    );
    assert!(b.url().ends_with("#7.2.0"), "{}", b.url());
    b.wait_until(
        &format!("var l = (function () {{ {label} }})(); return l === 'Copy link 7.2.0';"),
        5,
        "the button's own name again",
    );
    // a chapter without section numbers has them too, named by their headings' words (its
    // sections had none: on a phone, where `#` shows only on hover, no way to a link)
    open(&b, "uk/introduction/");
    let named = b.js("return Array.from(document.querySelectorAll('article h2 button.copy-link')).map(function (b) { return [b.getAttribute('data-anchor'), b.getAttribute('aria-label')]; })");
    let named = named.as_array().unwrap();
    assert!(named.len() > 3, "{named:?}");
    assert_eq!(
        named[0],
        serde_json::json!(["goal", "Скопіювати посилання Мета гри"])
    );
}

#[test]
fn axe_finds_no_serious_violations() {
    let b = Browser::start(1280, 860);
    for path in [
        "uk/introduction/",
        "en/damage-and-destruction/",
        "uk/glossary/",
        "en/",
    ] {
        open(&b, path);
        let found = b.axe_serious_violations();
        assert_eq!(
            found,
            serde_json::json!([]),
            "axe-core on {path}: {found:#}"
        );
    }
}

#[test]
fn glossary_term_on_touch_first_tap_shows_second_tap_opens() {
    let b = Browser::start(390, 844);
    open(&b, "uk/introduction/");
    let tip_up =
        "var t = document.getElementById('rb-tip'); return t && !t.hidden && t.textContent";
    for (i, what) in [
        (0, "a term, terms not loaded yet"),
        (1, "another term, terms loaded"),
    ] {
        b.js_with(
            "var a = document.querySelectorAll('article a.gl')[arguments[0]]; a.id = 'tap-me'; a.scrollIntoView({block: 'center'});",
            vec![serde_json::json!(i)],
        );
        b.tap("#tap-me");
        let tip = b.wait_until(tip_up, 10, &format!("tooltip on the first tap ({what})"));
        assert!(!tip.as_str().unwrap().is_empty());
        // the first tap must not have followed the link
        std::thread::sleep(std::time::Duration::from_millis(300));
        assert!(
            b.url().contains("/uk/introduction/"),
            "first tap on {what} opened {}",
            b.url()
        );
        if i == 0 {
            b.screenshot(&shots().join("tooltip-touch-phone.png"));
            // Escape closes the card; then the next term, its card's data already loaded
            b.keys("\u{E00C}");
            b.wait_until(
                "return document.getElementById('rb-tip').hidden",
                5,
                "Escape closes the card",
            );
            b.js("document.getElementById('tap-me').removeAttribute('id')");
            continue;
        }
        b.tap("#tap-me");
        b.wait_until(
            "return location.pathname.indexOf('/uk/glossary/') === 0 && location.hash.length > 1",
            10,
            "the second tap opens the entry",
        );
    }
}

#[test]
fn untranslated_paragraph_is_marked_in_the_reader_language() {
    for (w, h, name) in [(1280, 860, "desktop"), (390, 844, "phone")] {
        let b = Browser::start(w, h);
        open(&b, "uk/main-actions/");
        let seen = b.js(
            "var p = document.querySelector('article p.untr'); p.scrollIntoView({block: 'center'}); var n = p.previousElementSibling; var r = n.getBoundingClientRect(); return [p.lang, p.title, n.className, n.lang, n.textContent, r.height > 0 && r.width > 0, getComputedStyle(p).borderLeftStyle];",
        );
        assert_eq!(seen[0], "en", "the paragraph says it is English: {seen}");
        assert_eq!(seen[1], "Цей абзац ще не перекладено", "{seen}");
        assert_eq!(seen[2], "untr-note", "a note opens the run: {seen}");
        assert_eq!(
            seen[3], "uk",
            "the note is in the reader's language: {seen}"
        );
        assert_eq!(seen[4], "Цей абзац ще не перекладено");
        assert_eq!(seen[5], true, "the note is visible: {seen}");
        assert_eq!(seen[6], "dotted", "the paragraph is marked: {seen}");
        // one note per run of untranslated paragraphs, not one per paragraph
        let counts = b.js("var runs = [].filter.call(document.querySelectorAll('article p.untr'), function (p) { var q = p.previousElementSibling; while (q && q.classList.contains('untr-note')) q = q.previousElementSibling; return !(q && q.classList.contains('untr')); }).length; return [runs, document.querySelectorAll('article .untr-note').length]");
        assert!(counts[1].as_u64().unwrap() >= 1);
        assert_eq!(counts[0], counts[1], "one note per run: {counts}");
        b.screenshot(&shots().join(format!("untranslated-{name}.png")));
    }
}

#[test]
fn desktop_header_is_one_row() {
    // the longer Ukrainian title and language names once pushed the theme button onto a second
    // row at an ordinary laptop width
    let b = Browser::start(1280, 860);
    for path in ["uk/damage-and-destruction/", "en/damage-and-destruction/"] {
        open(&b, path);
        let r = b.js("var h = document.querySelector('header.top').getBoundingClientRect(); var t = document.querySelector('.theme-toggle').getBoundingClientRect(); var s = document.getElementById('search-input').getBoundingClientRect(); return [h.height, t.top < s.bottom, s.width];");
        assert!(r[0].as_f64().unwrap() <= 70.0, "{path}: header {r}");
        assert_eq!(
            r[1], true,
            "{path}: theme button on the search box's row: {r}"
        );
        assert!(
            r[2].as_f64().unwrap() > 150.0,
            "{path}: search box usable: {r}"
        );
    }
}

#[test]
fn phone_header_is_compact_and_search_in_reach() {
    let b = Browser::start(390, 844);
    open(&b, "uk/damage-and-destruction/");
    let r = b.js("var h = document.querySelector('header.top').getBoundingClientRect(); var s = document.getElementById('search-input').getBoundingClientRect(); return [h.height, s.width, s.bottom <= h.bottom, getComputedStyle(document.querySelector('header.top')).position];");
    let height = r[0].as_f64().unwrap();
    assert!(height <= 70.0, "header is {height}px tall on a phone");
    assert!(r[1].as_f64().unwrap() > 150.0, "search box usable: {r}");
    assert_eq!(r[2], true, "search box inside the bar: {r}");
    assert_eq!(r[3], "sticky", "the bar stays at hand: {r}");
    // nothing in the bar is pushed past the screen's edge (no sideways scrolling)
    let fit = b.js("var w = document.documentElement.clientWidth; var out = []; document.querySelectorAll('header.top > *').forEach(function (e) { var r = e.getBoundingClientRect(); if (r.width && r.right > w + 0.5) out.push(e.className + ' ' + r.right); }); return [document.documentElement.scrollWidth <= w, out.join('; ')];");
    assert_eq!(fit[0], true, "the page scrolls sideways on a phone: {fit}");
    assert_eq!(fit[1], "", "header items past the right edge: {fit}");
    // the copy-link button draws its icon (no empty box from a missing emoji font)
    let icon = b.js("var b = document.querySelector('button.copy-link'); var s = b.querySelector('svg'); return s && s.getBoundingClientRect().width");
    assert!(icon.as_f64().unwrap_or(0.0) > 8.0, "copy-link icon: {icon}");
    b.js("window.scrollTo(0, 400)");
    b.screenshot(&shots().join("chapter-phone-header.png"));
}

/// A card shows its text in the text's language: a glossary entry or a section that only
/// English has, shown on a Ukrainian page, is marked `lang="en"` (a screen reader read it as
/// Ukrainian); the page's own entries are marked with the page's language.
#[test]
fn a_tooltip_from_another_language_says_which() {
    use serde_json::Value;
    let b = Browser::start(1280, 860);
    open(&b, "uk/damage-and-destruction/");
    let card = |pick: &str| -> Value {
        b.js(&format!(
            "document.dispatchEvent(new KeyboardEvent('keydown', {{key: 'Escape'}})); document.querySelectorAll('#picked').forEach(function (a) {{ a.removeAttribute('id'); }}); var a = {pick}; a.id = 'picked'; a.scrollIntoView({{block: 'center'}}); return a.getAttribute('href');"
        ));
        b.hover("h1");
        b.hover("#picked");
        b.wait_until(
            "var t = document.getElementById('rb-tip'); return t && !t.hidden && t.getAttribute('lang')",
            10,
            "the card",
        )
    };
    // the terms of this language, loaded by a first card
    card("document.querySelector('article a.gl')");
    // every tooltip file of the language (a card loads only the one its anchor is in)
    let files = b.js("var n = +document.querySelector('article').getAttribute('data-terms'); for (var k = 0; k < n; k++) { var s = document.createElement('script'); s.src = document.body.getAttribute('data-root') + 'uk/glossary/terms-' + k + '-of-' + n + '.js'; document.head.appendChild(s); } return n;");
    assert!(
        files.as_u64().unwrap() > 1,
        "the default glossary is split: {files}"
    );
    b.wait_until(
        &format!("for (var k = 0; k < {files}; k++) if (!(window.RulebookTerms || {{}})['uk/' + k]) return false; return true;"),
        10,
        "every tooltip file",
    );
    let keys = b.js("var all = {}; for (var f in window.RulebookTerms) if (f.indexOf('uk/') === 0) Object.assign(all, window.RulebookTerms[f]); var own = null, other = null; document.querySelectorAll('article a.gl').forEach(function (a) { var k = decodeURIComponent(a.getAttribute('href').split('#')[1]), e = all[k]; if (!e) return; if (e[3] === 'en' && !other) other = a.getAttribute('href'); if (!e[3] && !own) own = a.getAttribute('href'); }); return [own, other];");
    let (own, other) = (keys[0].as_str().unwrap(), keys[1].as_str().unwrap());
    let lang_of = |href: &str| {
        card(&format!(
            "document.querySelector('article a.gl[href=\"{href}\"]')"
        ))
    };
    assert_eq!(lang_of(other), Value::from("en"), "{other}");
    assert_eq!(lang_of(own), Value::from("uk"), "{own}");
    // a cross-link to a section of a chapter only English has
    let xref = card("[].find.call(document.querySelectorAll('article a.xref'), function (a) { return /#[0-9]/.test(a.getAttribute('href')); })");
    assert_eq!(xref, Value::from("en"));
}

/// A Ukrainian chapter with English paragraphs left in it, published on the English side too
/// (not translated into English): there the English paragraphs are in the reader's language,
/// so neither the dotted line nor a "not translated yet" note marks them; on the Ukrainian page
/// both do. English readers were told their own language was not translated yet.
#[test]
fn paragraphs_in_the_readers_language_are_not_marked_untranslated() {
    let dir = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/uk/a.md",
            "---\nid: a\ntitle: Раунд\n---\n\nПерший абзац українською.\n\nThis paragraph is still in English.\n",
        ),
        ("content/en/b.md", "---\nid: b\ntitle: Other\n---\n\nText.\n"),
    ]);
    build_ok(dir.path());
    let server = StaticServer::start(&dir.path().join("public"), "/");
    let b = Browser::start(1280, 860);
    let look = "var p = document.querySelector('article p.untr'); var n = document.querySelectorAll('.untr-note').length; return p ? [p.lang, getComputedStyle(p).borderLeftStyle, n] : ['', '', n];";
    for (lang, border, notes) in [("uk", "dotted", 1), ("en", "none", 0)] {
        b.goto(&format!("{}{lang}/a/", server.url));
        b.wait_until(
            "return document.readyState === 'complete' && window.Rulebook",
            10,
            "page load",
        );
        let seen = b.js(look);
        assert_eq!(
            seen[0], "en",
            "{lang}: the paragraph keeps its language: {seen}"
        );
        assert_eq!(seen[1], border, "{lang}: {seen}");
        assert_eq!(seen[2], notes, "{lang}: {seen}");
    }
    // the print views alike
    for (lang, border) in [("uk", "dotted"), ("en", "none")] {
        b.goto(&format!("{}{lang}/print/", server.url));
        let seen = b.js(
            "var p = document.querySelector('p.untr'); return getComputedStyle(p).borderLeftStyle;",
        );
        assert_eq!(seen, border, "{lang} print");
    }
}

/// The side-by-side view pairs the sections each language has between two it shares (headings
/// without a number, whose ids are made of their own words) row by row, and a link of the
/// other language's column to an anchor of its own page (a footnote, a section only it has)
/// leads to that page: each such section stood alone, and such links led nowhere or to this
/// column's own footnote, another text.
#[test]
fn side_by_side_pairs_unnumbered_sections_and_keeps_each_columns_links() {
    let dir = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/uk/a.md",
            "---\nid: a\ntitle: Розділ\n---\n\nВступ, див. 1.1.0.\n\n## 1.1.0 Перший\n\nТекст.[^a]\n\n## Без номера\n\nТекст без номера.\n\n## 1.3.0 Лише тут\n\nТекст.\n\n[^a]: Українська примітка.\n",
        ),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: Chapter\n---\n\nIntro, see 1.1.0 and 1.2.0.\n\n## 1.1.0 First\n\nText.[^x][^a]\n\n## Without a number\n\nUnnumbered text.\n\n## 1.2.0 Only here\n\nText.\n\n[^x]: Note X.\n\n[^a]: Note A.\n",
        ),
    ]);
    build_ok(dir.path());
    let server = StaticServer::start(&dir.path().join("public"), "/");
    let b = Browser::start(1280, 860);
    b.goto(&format!("{}uk/a/?pair=en", server.url));
    b.wait_until(
        "return document.querySelectorAll('.pair-row').length > 2",
        10,
        "the side-by-side view",
    );
    let rows = b.js("return Array.from(document.querySelectorAll('.pair-row')).map(function (r) { return Array.from(r.querySelectorAll('.pair-cell')).map(function (c) { var h = c.querySelector('h1, h2'); return h ? (h.id || h.getAttribute('data-id') || '') : ''; }); })");
    assert_eq!(
        rows,
        serde_json::json!([
            ["", ""],
            ["1.1.0", "1.1.0"],
            ["без-номера", "without-a-number"],
            ["1.3.0", ""],
            ["", "1.2.0"]
        ]),
        "{rows}"
    );
    // every link of the English column to an anchor on this page lands on a section both
    // have; the rest lead to the English page
    let links = b.js("return Array.from(document.querySelectorAll('.pair-cell[data-reader=en] a[href]')).map(function (a) { return [a.getAttribute('href'), a.href]; })");
    let links = links.as_array().unwrap();
    let english = format!("{}en/a/#", server.url);
    let mut local = 0;
    let mut away = 0;
    for l in links {
        let (raw, full) = (l[0].as_str().unwrap(), l[1].as_str().unwrap());
        if let Some(id) = raw.strip_prefix('#') {
            assert!(["1.1.0"].contains(&id), "{raw}");
            local += 1;
        } else if full.starts_with(&english) {
            away += 1;
        }
    }
    assert!(local >= 1, "{links:?}");
    // the footnotes and their back links, and 1.2.0, which only English has
    assert!(away >= 5, "{links:?}");
}
