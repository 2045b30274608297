//! Browser checks of the core pages: the language switch keeps the reader's section, and the
//! root page picks a language. Runs headless Chromium (see tests/common/browser.rs).

use std::time::Duration;

use crate::common::browser::Browser;
use crate::common::*;

fn fixture() -> tempfile::TempDir {
    let mut long = String::from("---\nid: rules\ntitle: Rules\n---\n\nIntro.\n\n");
    let mut long_uk = String::from("---\nid: rules\ntitle: Правила\n---\n\nВступ.\n\n");
    for i in 1..=6 {
        long.push_str(&format!(
            "## 1.{i}.0 Part {i}\n\n{}\n\n",
            "Words of the rules. ".repeat(120)
        ));
        long_uk.push_str(&format!(
            "## 1.{i}.0 Частина {i}\n\n{}\n\n",
            "Слова правил. ".repeat(120)
        ));
    }
    let d = site(&[
        ("content/site.yaml", SITE_YAML),
        ("content/en/rules.md", &long),
        ("content/uk/rules.md", &long_uk),
    ]);
    build_ok(d.path());
    d
}

/// Opens `url` and waits for the page and its scripts.
fn open_at(b: &Browser, url: &str) {
    b.goto(url);
    b.wait_until(
        "return document.readyState === 'complete' && window.Rulebook",
        10,
        "page load",
    );
}

/// Waits until the page has kept the reader's place after a scroll (site.js keeps it once
/// scrolling pauses for 100 ms).
fn after_scrolling(b: &Browser) {
    b.wait_until(
        "return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => r(true), 250))))",
        5,
        "two frames and a pause",
    );
}

/// From the keyboard: Shift+Tab to the language switch passes the breadcrumbs, whose focus
/// scrolls the page to its top; Enter on the switch still keeps the section read (it took
/// the top of the page, and no section).
#[test]
fn language_switch_from_the_keyboard_keeps_the_section() {
    let dir = fixture();
    let server = StaticServer::start(&dir.path().join("public"), "/");
    let b = Browser::start(1200, 800);
    open_at(&b, &format!("{}en/rules/#1.4.0", server.url));
    // the reader scrolled a little past the jump (the place is kept as they scroll)
    b.js("window.scrollBy(0, 40)");
    after_scrolling(&b);
    b.js("document.querySelector('nav.crumbs a').focus()");
    b.wait_until(
        "return window.scrollY < 50",
        5,
        "the breadcrumbs' focus scrolled up",
    );
    after_scrolling(&b);
    b.js("document.querySelector('a[data-lang-switch=uk]').focus()");
    b.keys("\u{E007}");
    b.wait_until(
        "return location.pathname.indexOf('/uk/rules/') === 0",
        10,
        "the Ukrainian page",
    );
    assert!(b.url().ends_with("/uk/rules/#1.4.0"), "{}", b.url());
}

#[test]
fn language_switch_lands_on_the_same_section() {
    let dir = fixture();
    let server = StaticServer::start(&dir.path().join("public"), "/");
    let b = Browser::start(1200, 800);
    open_at(&b, &format!("{}en/rules/#1.4.0", server.url));
    b.click("a[data-lang-switch=uk]");
    b.wait_until(
        "return location.pathname.indexOf('/uk/rules/') === 0",
        10,
        "the Ukrainian page",
    );
    assert!(b.url().ends_with("/uk/rules/#1.4.0"), "{}", b.url());
    let visible: f64 = b
        .js("return document.getElementById('1.4.0').getBoundingClientRect().top")
        .as_f64()
        .unwrap();
    assert!(
        (-5.0..200.0).contains(&visible),
        "section 1.4.0 is not in view after the switch: top = {visible}"
    );
    // in a tall window the last section cannot scroll to the top of the view: the one the
    // address names, on screen, is the one read (the section above it was taken)
    let tall = Browser::start(1200, 2000);
    tall.goto(&format!("{}en/rules/#1.6.0", server.url));
    tall.wait_until(
        "return document.readyState === 'complete' && window.Rulebook",
        10,
        "page load",
    );
    let top = tall.js("return document.getElementById('1.6.0').getBoundingClientRect().top");
    assert!(
        top.as_f64().unwrap() > 150.0,
        "1.6.0 reached the top: {top}"
    );
    tall.click("a[data-lang-switch=uk]");
    tall.wait_until(
        "return location.pathname.indexOf('/uk/rules/') === 0",
        10,
        "the Ukrainian page",
    );
    assert!(tall.url().ends_with("/uk/rules/#1.6.0"), "{}", tall.url());
    drop(tall);
    // the choice is remembered: the root page now sends this reader to Ukrainian
    b.click("a[data-lang-switch=en]");
    b.wait_until(
        "return location.pathname.indexOf('/en/rules/') === 0",
        10,
        "back to English",
    );
    b.goto(&server.url);
    b.wait_until(
        "return location.pathname.indexOf('/en/') === 0",
        10,
        "root redirects to the remembered language",
    );
    // kept for this site, by its address: not for every site of the origin
    assert_eq!(
        b.js("return [localStorage.getItem('rulebook-lang /'), localStorage.getItem('rulebook-lang')]"),
        serde_json::json!(["en", null])
    );
}

#[test]
fn pages_work_from_the_file_system() {
    let dir = fixture();
    let b = Browser::start(1000, 800);
    let root = dir.path().join("public/index.html");
    b.goto(&format!("file://{}", root.display()));
    let lang = b.wait_until(
        "var m = location.href.match(/\\/(uk|en)\\/index\\.html$/); return m && m[1]",
        10,
        "root redirect on file://",
    );
    let lang = lang.as_str().unwrap().to_string();
    b.wait_until("return window.Rulebook", 10, "site script");
    let href = b
        .js("return document.querySelector('.chapter-list a').href")
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        href.ends_with(&format!("/{lang}/rules/index.html")),
        "{href}"
    );
}

/// A page whose server never answers fails its test with chromedriver's page-load timeout,
/// instead of holding the suite (chromedriver's default wait is 300 s).
#[test]
fn a_page_that_never_loads_fails_the_test() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        // accepts every connection, reads nothing, answers nothing
        let held: Vec<_> = listener.incoming().flatten().collect();
        drop(held);
    });
    let b = Browser::start(800, 600);
    b.set_page_load_timeout(Duration::from_secs(3));
    let url = format!("http://{addr}/");
    let failed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| b.goto(&url)))
        .expect_err("a page that never loads must fail the test");
    let message = failed.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(message.starts_with(&format!("goto {url}: ")), "{message}");
    // chromedriver gave up on the page; the last-resort bound on chromedriver itself did not fire
    assert!(
        !message.contains("no answer from chromedriver"),
        "{message}"
    );
}
