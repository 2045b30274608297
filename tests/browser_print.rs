//! The print view and the print stylesheet in Chromium: in-page links stay on the page, and with
//! print media emulated (Chrome DevTools Protocol) the site's furniture is gone, each chapter
//! starts a new page and external links show their address. Screenshots go to
//! `target/screenshots/`.

use crate::common::browser::Browser;
use crate::common::*;
use serde_json::json;

fn open(b: &Browser, path: &str) {
    b.goto(&format!("{}{path}", served_default_site().url));
    b.wait_until("return document.readyState === 'complete'", 10, "page load");
}

/// `display` of the first element matching each selector.
const DISPLAYS: &str = "return arguments[0].map(function (s) { var e = document.querySelector(s); return e ? getComputedStyle(e).display : 'absent'; });";

#[test]
fn print_view_links_stay_on_the_page_and_print_media_hides_the_furniture() {
    let b = Browser::start(1280, 860);
    open(&b, "uk/print/");
    b.screenshot(&shots().join("print-view-desktop.png"));
    // a cross-link to 7.1.0 jumps to that section of this page
    b.js("var a = document.querySelector(\"section.print-chapter a.xref[href='#7.1.0']\"); a.scrollIntoView({block: 'center'}); a.click();");
    b.wait_until(
        "return location.pathname === '/uk/print/' && location.hash === '#7.1.0'",
        5,
        "the link to 7.1.0 stays on the print view",
    );
    let top = b
        .js("return document.getElementById('7.1.0').getBoundingClientRect().top")
        .as_f64()
        .unwrap();
    assert!((-5.0..200.0).contains(&top), "7.1.0 is in view: {top}");
    // so do the contents at the top
    b.js("var a = document.querySelector('.print-toc a[href=\"#glossary\"]'); a.click();");
    b.wait_until(
        "var g = document.getElementById('glossary'); return location.hash === '#glossary' && Math.abs(g.getBoundingClientRect().top) < 100",
        5,
        "the contents lead to the glossary",
    );

    // on paper: no bars, every chapter on a new page, external addresses written out
    b.cdp("Emulation.setEmulatedMedia", json!({"media": "print"}));
    assert_eq!(b.js("return matchMedia('print').matches"), true);
    let shown = b.js_with(
        DISPLAYS,
        vec![json!([
            "header.top",
            "footer.bottom",
            ".print-hint",
            "main"
        ])],
    );
    assert_eq!(shown, json!(["none", "none", "none", "block"]));
    assert_eq!(
        b.js(
            "return getComputedStyle(document.querySelector('section.print-chapter')).breakBefore"
        ),
        "page"
    );
    let after = b.js("var a = document.querySelector(\"main a[href^='http']\"); return a && [a.getAttribute('href'), getComputedStyle(a, '::after').content];");
    let href = after[0].as_str().expect("an external link in the book");
    assert!(
        after[1].as_str().unwrap().contains(href),
        "the address is printed after the link: {after}"
    );
    b.js("window.scrollTo(0, 0)");
    b.screenshot(&shots().join("print-view-print-media.png"));
    b.cdp("Emulation.setEmulatedMedia", json!({"media": ""}));

    // a chapter page printed: the text only
    open(&b, "en/damage-and-destruction/");
    b.cdp("Emulation.setEmulatedMedia", json!({"media": "print"}));
    let shown = b.js_with(
        DISPLAYS,
        vec![json!([
            "header.top",
            ".search",
            "nav.toc",
            ".pager",
            "button.copy-link",
            "article"
        ])],
    );
    assert_eq!(
        shown,
        json!(["none", "none", "none", "none", "none", "block"]),
        "printed chapter: header, search, sidebar, pager, buttons hidden"
    );
    b.screenshot(&shots().join("chapter-print-media.png"));
    // the dark theme stays on screen: on paper a section number is the light theme's colour
    // (it printed light orange, and footnotes light grey, on white)
    b.cdp("Emulation.setEmulatedMedia", json!({"media": ""}));
    let number = "return getComputedStyle(document.querySelector('article h2 .secnum')).color";
    let light = b.js(number);
    b.js("document.documentElement.dataset.theme = 'dark'; return null;");
    assert_ne!(b.js(number), light, "the dark theme changes it on screen");
    b.cdp(
        "Emulation.setEmulatedMedia",
        json!({"media": "print", "features": [{"name": "prefers-color-scheme", "value": "dark"}]}),
    );
    assert_eq!(b.js(number), light, "on paper, in the dark theme");
    assert_eq!(
        b.js("return getComputedStyle(document.body).backgroundColor"),
        "rgb(255, 255, 255)"
    );
}

#[test]
fn print_view_on_a_phone() {
    let b = Browser::start(390, 844);
    open(&b, "en/print/");
    let height = b
        .js("return document.querySelector('header.top').getBoundingClientRect().height")
        .as_f64()
        .unwrap();
    assert!(height <= 70.0, "the bar is compact on a phone: {height}px");
    let fits = b.js("return document.documentElement.scrollWidth <= window.innerWidth + 1");
    assert_eq!(fits, true, "nothing wider than the phone");
    b.screenshot(&shots().join("print-view-phone.png"));
}

#[test]
fn axe_finds_no_serious_violations_on_the_print_view() {
    let b = Browser::start(1280, 860);
    open(&b, "uk/print/");
    let found = b.axe_serious_violations();
    assert_eq!(found, json!([]), "axe-core on the print view: {found:#}");
}
