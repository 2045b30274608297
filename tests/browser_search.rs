//! The search box in headless Chromium: typing shows ranked results with highlights, from
//! file:// and from a server; the keyboard works; results are text, never HTML from the
//! content; search keeps working offline once the service worker has the index; and the
//! browser ranks like `rulebook search`.

use std::path::Path;

use crate::common::browser::Browser;
use crate::common::*;
use serde_json::Value;

/// A section whose first match for `basilisk` is far from its start (past the characters
/// the document chunk keeps), inside a text with markup.
const LORE: &str = "## Lore\n\nThe long road goes on through the hills and the old woods, past the river and the mill, and further on through the fields. \
The long road goes on through the hills and the old woods, past the river and the mill. \
A `<i>basilisk</i>` waits at its end, and the basilisk never sleeps nor leaves the stone bridge it guards. \
Travellers go round it by the northern ford.\n";

/// The default content plus one chapter whose title looks like HTML.
fn built_site() -> tempfile::TempDir {
    let dir = default_site();
    write(
        dir.path(),
        "content/en/zz-markup.md",
        format!("---\nid: zz-markup\ntitle: Markup\n---\n\n## Wyvern `<img src=x onerror=alert(1)>` tags\n\nWyverns and `<b>bold</b>` wyvern text.\n\n{LORE}").as_bytes(),
    );
    // more sections below one number than a word's expansions (rank.rs `MAX_EXPANSIONS`),
    // and no `142.0.0`: `142` completes to the first of them in the order of the rules
    let numbers: String = (1..=20)
        .map(|i| format!("## 142.{i}.0 Tally {i}\n\nCount the tally.\n\n"))
        .collect();
    write(
        dir.path(),
        "content/en/zz-numbers.md",
        format!("---\nid: zz-numbers\ntitle: Tallies\n---\n\n{numbers}").as_bytes(),
    );
    build_ok(dir.path());
    dir
}

/// Types `query` into the search box and waits for its results; returns the titles shown.
fn search(b: &Browser, query: &str) -> Vec<String> {
    b.search(query)
}

fn file_url(p: &Path) -> String {
    format!("file://{}", p.display())
}

fn check_box(b: &Browser) {
    // a section number finds its section first (from the other language: the Ukrainian text
    // has no section 7.1.0)
    let titles = search(b, "7.1.0");
    assert_eq!(
        titles.first().map(String::as_str),
        Some("7.1.0 Discarding Cards"),
        "{titles:?}"
    );
    // results as you type: a half-typed word is completed
    let titles = search(b, "заклят");
    assert!(titles.iter().any(|t| t == "Закляття"), "{titles:?}");
    // the matched word is highlighted
    let marks = b.js("return Array.from(document.querySelectorAll('#search-results mark')).map(m => m.textContent)");
    assert!(
        marks.as_array().unwrap().iter().any(|m| m
            .as_str()
            .unwrap()
            .to_lowercase()
            .starts_with("заклят")),
        "{marks}"
    );
    // a typo still finds it, and apostrophe variants agree
    assert_eq!(search(b, "заклятя")[0], "Закляття");
    assert_eq!(search(b, "ім’я"), search(b, "ім'я"));
    // the page's language first, then the other language under its heading
    let titles = search(b, "exhaustion token");
    assert_eq!(titles[0], "Жетон виснаження", "{titles:?}");
    let other = b.js("var o = document.querySelector('#search-results .search-other'); return o && o.textContent");
    assert_eq!(other, Value::String("Іншою мовою".into()));
}

#[test]
fn search_box_from_file_url() {
    let dir = built_site();
    let b = Browser::start(1200, 800);
    b.goto(&file_url(&dir.path().join("public/uk/index.html")));
    b.wait_until("return document.readyState === 'complete'", 10, "page load");
    check_box(&b);
    // Enter opens the first result, as a file
    search(&b, "жетон виснаження");
    b.keys("\u{E007}");
    b.wait_until(
        "return location.pathname.indexOf('/uk/glossary/index.html') > 0",
        10,
        "the glossary page",
    );
    assert!(b.url().contains("#"), "{}", b.url());
}

#[test]
fn search_box_from_a_server_with_keyboard_and_offline() {
    let dir = built_site();
    let public = dir.path().join("public");
    let server = StaticServer::start(&public, "/rules/");
    let b = Browser::start(1200, 800);
    b.goto(&format!("{}uk/glossary/", server.url));
    b.wait_until("return document.readyState === 'complete'", 10, "page load");
    // `/` focuses the box from anywhere on the page, and leaves the page where it was read
    // (focusing the box in the sticky header scrolled the page up by about a screen)
    b.js("document.querySelector('a.brand').focus({ preventScroll: true }); window.scrollTo(0, 3000);");
    let at = b.js("return window.scrollY");
    assert!(at.as_f64().unwrap() > 2000.0, "{at}");
    b.keys("/");
    b.wait_until(
        "return document.activeElement && document.activeElement.id === 'search-input'",
        5,
        "focus on /",
    );
    assert_eq!(b.js("return window.scrollY"), at);
    check_box(&b);
    // a query typed and entered at once (a phone keyboard's "Go") opens its first result
    // once it is shown (Enter before the results was lost)
    let first = b.js("return RulebookSearch.query('жетон виснаження', 'uk').then(function (h) { return h[0].url; })");
    // (the input and the Enter in one task: Enter surely comes before the results)
    b.js("var i = document.getElementById('search-input'); i.focus(); i.value = 'жетон виснаження'; i.dispatchEvent(new Event('input')); i.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));");
    b.wait_until(
        &format!(
            "return location.href.indexOf({}) >= 0",
            serde_json::to_string(first.as_str().unwrap()).unwrap()
        ),
        10,
        "the first result, entered at once",
    );
    b.goto(&format!("{}uk/glossary/", server.url));
    b.wait_until("return document.readyState === 'complete'", 10, "page load");
    // arrows move through the results, Enter opens the chosen one
    search(&b, "пломенекровний");
    let second = b.js("return document.querySelectorAll('#search-results a.search-hit')[1].href");
    b.keys("\u{E015}\u{E015}");
    let active =
        b.js("var a = document.querySelector('#search-results li.active a'); return a && a.href");
    assert_eq!(active, second);
    b.keys("\u{E007}");
    b.wait_until(
        &format!("return location.href === {second}"),
        10,
        "the chosen result",
    );

    // markup in the content is shown as text
    b.goto(&format!("{}en/", server.url));
    b.wait_until("return document.readyState === 'complete'", 10, "page load");
    let titles = search(&b, "wyvern");
    assert!(
        titles
            .iter()
            .any(|t| t.contains("<img src=x onerror=alert(1)>")),
        "{titles:?}"
    );
    let elements =
        b.js("return document.querySelectorAll('#search-results img, #search-results b').length");
    assert_eq!(elements, Value::from(0));

    // a match far into a section: the snippet is the passage around it, the words marked,
    // the same passage as the command line's
    search(&b, "basilisk");
    let snippet = b.wait_until(
        "var s = document.querySelector('#search-results .search-snippet'); return s && s.querySelector('mark') && s.textContent",
        10,
        "the passage around the match",
    );
    let marks = b.js("return Array.from(document.querySelector('#search-results .search-snippet').querySelectorAll('mark')).map(m => m.textContent)");
    assert_eq!(
        marks,
        serde_json::json!(["basilisk", "basilisk"]),
        "{snippet}"
    );
    let other = b.js("return document.querySelectorAll('#search-results .search-snippet *:not(mark), #search-results i').length");
    assert_eq!(other, Value::from(0));
    let cli = search_json(dir.path(), &["--lang", "en", "basilisk"]);
    let cli = cli[0]["snippet"].as_str().unwrap().replace("**", "");
    let web = snippet
        .as_str()
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        web.starts_with('…') && web.contains("<i>basilisk</i>"),
        "{web}"
    );
    assert_eq!(web, cli);

    // the service worker takes the site (its scope is the site's root) and caches the index
    let scope = b.wait_until(
        "return navigator.serviceWorker.controller && navigator.serviceWorker.controller.scriptURL",
        20,
        "the service worker",
    );
    assert_eq!(scope, Value::String(format!("{}sw.js", server.url)));
    b.goto(&format!("{}en/", server.url));
    b.wait_until(
        "return document.readyState === 'complete' && navigator.serviceWorker.controller",
        10,
        "page load",
    );
    let online = search(&b, "phoenixborn");
    // offline
    server.set_offline(true);
    b.goto(&format!("{}en/", server.url));
    b.wait_until(
        "return document.readyState === 'complete' && document.getElementById('search-input')",
        10,
        "the cached page",
    );
    assert_eq!(search(&b, "phoenixborn"), online);
    // a small index came whole with the first visit: a search never made online works too
    let never = search(&b, "guard");
    // the first page read, loaded before the worker was there, opens offline too, with the
    // reading aids' own stylesheet (it was the one page that did not)
    b.goto(&format!("{}uk/glossary/", server.url));
    let styled = b.wait_until(
        "var l = document.querySelector('link[href$=\"reading.css\"]'); return document.readyState === 'complete' && document.getElementById('search-input') && l && l.sheet && l.sheet.cssRules.length > 0;",
        10,
        "the first page, offline",
    );
    server.set_offline(false);
    assert_eq!(styled, Value::Bool(true));
    assert!(!never.is_empty());
    b.goto(&format!("{}en/", server.url));
    b.wait_until("return document.readyState === 'complete'", 10, "page load");
    assert_eq!(search(&b, "guard"), never);
    assert_ne!(never, search(&b, "phoenixborn"));
}

/// On a small site the first visit keeps every page and every icon: a chapter never opened
/// reads offline, with its game symbols. It was the site's "not found" page, and a first page
/// read with symbols lost them offline. A page not kept (the print view, which repeats every
/// chapter) says it was not saved, not that there is no such page.
#[test]
fn a_first_visit_keeps_every_page_and_icon_of_a_small_site_for_offline() {
    let server = StaticServer::start(built_default_site(), "/");
    let b = Browser::start(1200, 800);
    // the first page read has no symbols; the worker is not there yet when it loads
    b.goto(&format!("{}en/", server.url));
    b.wait_until(
        "return document.readyState === 'complete' && navigator.serviceWorker.controller",
        20,
        "the service worker",
    );
    server.set_offline(true);
    b.goto(&format!("{}uk/introduction/", server.url));
    let symbols = b.wait_until(
        "var s = Array.from(document.querySelectorAll('article img.sym')); return document.readyState === 'complete' && document.querySelector('article h1') && s.length > 0 && s.every(function (i) { return i.complete; }) && s.map(function (i) { return i.naturalWidth > 0; });",
        10,
        "a chapter never opened, offline",
    );
    let symbols = symbols.as_array().unwrap();
    assert!(
        symbols.len() >= 10 && symbols.iter().all(|v| v == &Value::Bool(true)),
        "{symbols:?}"
    );
    b.goto(&format!("{}uk/print/", server.url));
    let said = b.wait_until(
        "var s = Array.from(document.querySelectorAll('.not-found h1')).filter(function (h) { return h.offsetParent; }); return document.readyState === 'complete' && s.length > 0 && s.map(function (h) { return h.textContent; });",
        10,
        "the print view, offline",
    );
    server.set_offline(false);
    assert_eq!(
        said,
        serde_json::json!([
            "Сторінку не збережено для читання без мережі",
            "Not saved for offline reading"
        ])
    );
}

/// The results past the panel's edge are placeholders until they scroll into view, so a
/// search loads the details of the results on screen only; scrolling or the arrow keys bring
/// the others in, in the ranked order.
#[test]
fn results_past_the_panel_load_when_they_come_into_view() {
    let server = served_default_site();
    let b = Browser::start(1200, 800);
    b.goto(&format!("{}uk/", server.url));
    b.wait_until("return document.readyState === 'complete'", 10, "page load");
    let ranked = |q: &str| {
        b.js_with(
            "window.__want = null; RulebookSearch.query(arguments[0], 'uk').then(function (h) { window.__want = h.map(function (x) { return new URL(document.body.getAttribute('data-root') + x.url, location.href).href; }); });",
            vec![Value::from(q)],
        );
        b.wait_until("return window.__want", 10, "the ranked results")
    };
    let shown = "return Array.from(document.querySelectorAll('#search-results .search-list')[0].children).map(function (li) { var a = li.querySelector('a.search-hit'); return a ? a.href : null; })";

    let want = ranked("карта");
    assert_eq!(want.as_array().unwrap().len(), 10, "{want}");
    search(&b, "карта");
    let first = b.js(shown);
    let first = first.as_array().unwrap();
    assert_eq!(first.len(), 10, "{first:?}");
    let loaded = first.iter().take_while(|h| !h.is_null()).count();
    assert!(
        (5..10).contains(&loaded),
        "{loaded} of 10 loaded before scrolling: {first:?}"
    );
    assert!(first[loaded..].iter().all(Value::is_null), "{first:?}");
    assert_eq!(&first[..loaded], &want.as_array().unwrap()[..loaded]);
    // scrolling down the panel fills the rest, in order
    b.wait_until(
        "var r = document.getElementById('search-results'); r.scrollTop += r.clientHeight / 2; return !r.querySelector('.search-wait') && !r.hasAttribute('aria-busy');",
        20,
        "every result after scrolling",
    );
    assert_eq!(b.js(shown), want);

    // the arrow keys walk onto a placeholder, which loads; Enter opens it
    let want = ranked("гравець");
    search(&b, "гравець");
    b.keys(&"\u{E015}".repeat(10));
    let last = b.wait_until(
        "var a = document.querySelector('#search-results li.active a.search-hit'); return a && a.href",
        10,
        "the tenth result loaded",
    );
    assert_eq!(last, want[9]);
    b.keys("\u{E007}");
    b.wait_until(
        &format!("return location.href === {last}"),
        10,
        "the tenth result",
    );
}

/// The URLs of the command line's first ten results for `q` in `lang`.
fn cli_top_ten(site: &Path, lang: &str, q: &str) -> Vec<String> {
    search_json(site, &["--lang", lang, "--limit", "10", q])
        .iter()
        .map(|h| h["url"].as_str().unwrap().to_string())
        .collect()
}

/// Queries of [`AGREEMENT`] whose first page step 5 (rank.rs `exact_first`) orders, whose
/// typos `typo_budget` limits, and that are one number written short (`number_completions`):
/// the two sides must agree on each of them, not only on 95 % of all.
const MUST_AGREE: &[&str] = &[
    "виснажена (карта)",
    "exhausted (when referring to a card)",
    "exhausted pool",
    "142",
    "пять",
    "бій",
    "перша п'ятір",
    "з'яв",
    "з'а поле",
    "поле бою",
    "полем бою",
    "поле заклять",
    "значення життя",
    "winning and losing",
    "in play",
    "play / in play",
    "attack",
    "attacker",
    "exhaust",
    "виснаження (карта)",
    "медитувати",
    "працювати",
    "medtation",
    "7.1",
    "11.2",
    "1.1",
    "7",
    // words typed half way past an ending the stemmer rewrites (rank.rs `prefix_found`)
    "вартіс",
    "властиві",
    "placin",
    "timi",
    // more words than are looked for (rank.rs MAX_QUERY_WORDS): both sides keep the same ones
    "After you have taken both a main action and side action or have taken a main action and chosen not to take a side action play passes clockwise to the next player meditate",
];

/// Queries of the agreement check: terms, phrases, word forms, typos and prefixes, in both
/// languages.
const AGREEMENT: &[(&str, &str)] = &[
    ("uk", "закляття"),
    ("en", "7.1.0"),
    ("uk", "7.1.0"),
    ("uk", "заклятя"),
    ("uk", "заклят"),
    ("uk", "пломенекровний"),
    ("uk", "пломенекровного"),
    ("uk", "жетон виснаження"),
    ("uk", "exhaustion token"),
    ("uk", "кубик"),
    ("uk", "кубики сили"),
    ("uk", "фаза підготовки"),
    ("uk", "ім'я"),
    ("uk", "вiдповiдь"),
    ("uk", "союзник"),
    ("uk", "атака"),
    ("uk", "атакувати"),
    ("uk", "поле битви"),
    ("uk", "знищений"),
    ("uk", "колода"),
    ("uk", "резерв"),
    ("uk", "химера"),
    ("uk", "ран"),
    ("uk", "виснажена карта"),
    ("uk", "гравець"),
    ("uk", "ритуал"),
    ("uk", "раунд"),
    ("uk", "дія"),
    ("uk", "головна дія"),
    ("uk", "додаткова"),
    ("uk", "перший гравець"),
    ("uk", "магія"),
    ("uk", "арґаєю"),
    ("uk", "аргаєю світ"),
    ("en", "damage"),
    ("en", "exhaustion token"),
    ("en", "phoenixborn"),
    ("en", "phoenixbron"),
    ("en", "attack"),
    ("en", "attacking units"),
    ("en", "guard"),
    ("en", "spellboard"),
    ("en", "conjuration"),
    ("en", "conjurat"),
    ("en", "battlefield"),
    ("en", "dice"),
    ("en", "main action"),
    ("en", "side action"),
    ("en", "recover"),
    ("en", "wound"),
    ("en", "first player"),
    ("en", "ready spell"),
    ("en", "discard"),
    ("en", "meditate"),
    ("en", "deck building"),
    ("en", "alteration"),
    ("en", "destroyed"),
    ("en", "reaction"),
    ("en", "пломенекровний"),
    ("en", "ex"),
    ("en", "ph"),
    ("en", "unit"),
    ("en", "cost"),
    ("en", "exhaust"),
    ("en", "7.1.0"),
    ("en", "damage 7.1.0"),
    ("uk", "1.2"),
    // little words left out, and the last word kept as the start of a longer one
    ("uk", "на полі бою"),
    ("uk", "стос скиду і"),
    ("uk", "стос скиду на"),
    ("en", "attack a unit"),
    ("en", "the"),
    // typos in an ending the stemmer does not know
    ("en", "conjuraton"),
    ("en", "meditaton"),
    ("en", "discradng"),
    ("uk", "пломенекровнго"),
    // an exact name first (rank.rs step 5)
    ("uk", "поле бою"),
    ("uk", "полем бою"),
    ("uk", "поле заклять"),
    ("uk", "значення життя"),
    ("en", "exhaustion tokens"),
    ("en", "main action"),
    // a little word counts in the query's length (rank.rs `query_length`)
    ("en", "winning and losing"),
    ("en", "in play"),
    ("en", "play / in play"),
    // word forms of one term: the title spelled as typed first (rank.rs step 6)
    ("en", "attack"),
    ("en", "attacker"),
    ("en", "exhaust"),
    ("uk", "виснаження (карта)"),
    // typos on a short stem of a long word (rank.rs `typo_budget`)
    ("uk", "медитувати"),
    ("uk", "працювати"),
    ("en", "medtation"),
    // a section number written short: alone, and beside a word (rank.rs `number_completions`)
    ("en", "7.1"),
    ("en", "11.2"),
    ("en", "1.1"),
    ("uk", "7.1"),
    ("en", "12"),
    ("en", "7"),
    ("en", "damage 7.1"),
    ("en", "7.1 damage"),
    ("en", "142"),
    // a question as it is asked (rank.rs `STOP_WORDS`)
    ("uk", "що таке поле бою"),
    ("en", "how do I meditate"),
    // typed without the apostrophe; an irregular form (stem_uk.rs)
    ("uk", "пять"),
    ("uk", "пяти"),
    ("uk", "перша п'ятір"),
    ("uk", "з'яв"),
    ("uk", "з'а поле"),
    ("uk", "бій"),
    ("uk", "вартіс"),
    ("uk", "властиві"),
    ("en", "placin"),
    ("en", "timi"),
    ("en", "After you have taken both a main action and side action or have taken a main action and chosen not to take a side action play passes clockwise to the next player meditate"),
    // a glossary entry's name in the other language (rank.rs `named_exact`), spelled as
    // typed (step 6); an alias
    ("en", "поле бою"),
    ("en", "поле заклять"),
    ("en", "виснажена (карта)"),
    ("uk", "exhausted (when referring to a card)"),
    ("en", "exhausted pool"),
];

#[test]
fn browser_and_command_line_agree_on_the_top_ten() {
    let dir = built_site();
    let b = Browser::start(1000, 800);
    b.goto(&file_url(&dir.path().join("public/uk/index.html")));
    b.wait_until(
        "return document.readyState === 'complete' && window.RulebookSearch",
        10,
        "page load",
    );
    let mut agree = 0;
    let mut differ = Vec::new();
    for (lang, q) in AGREEMENT {
        let cli = cli_top_ten(dir.path(), lang, q);
        b.js_with(
            "window.__got = null; RulebookSearch.query(arguments[0], arguments[1]).then(function (h) { window.__got = h.map(function (x) { return x.url; }); });",
            vec![Value::from(*q), Value::from(*lang)],
        );
        let got = b.wait_until("return window.__got", 20, q);
        let web: Vec<String> = got
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        if web == cli {
            agree += 1;
        } else {
            differ.push(format!("{lang} {q}:\n  cli {cli:?}\n  web {web:?}"));
        }
    }
    let pct = agree as f64 * 100.0 / AGREEMENT.len() as f64;
    println!("top-10 agreement: {agree}/{} ({pct:.1} %)", AGREEMENT.len());
    // step 5 (exact names first), the typo budget and short numbers are the same rules on both
    // sides: no difference allowed there
    for q in MUST_AGREE {
        assert!(
            !differ
                .iter()
                .any(|d| d.split(':').next().is_some_and(|h| h.ends_with(q))),
            "{q}: {differ:#?}"
        );
    }
    for d in &differ {
        println!("{d}");
    }
    assert!(
        pct >= 95.0,
        "agreement {pct:.1} % < 95 %:\n{}",
        differ.join("\n")
    );
}

/// The browser, like the command line, ranks the exact spelling (`ґ` or `г`) first.
#[test]
fn browser_ranks_the_exact_spelling_first() {
    let dir = spelling::spelling_site();
    build_ok(dir.path());
    let b = Browser::start(1000, 800);
    b.goto(&file_url(&dir.path().join("public/uk/index.html")));
    b.wait_until(
        "return document.readyState === 'complete' && window.RulebookSearch",
        10,
        "page load",
    );
    let mut failed = Vec::new();
    for (q, want) in spelling::SPELLING_CASES {
        b.js_with(
            "window.__got = null; RulebookSearch.query(arguments[0], 'uk').then(function (h) { window.__got = h.map(function (x) { return x.section; }); });",
            vec![Value::from(*q)],
        );
        let got: Vec<String> = b
            .wait_until("return window.__got", 20, q)
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        if got != *want {
            failed.push(format!("{q}: {got:?}, want {want:?}"));
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
}

/// On a site where common words have tiers, the browser loads them one at a time until the
/// top results are proven: what it shows must be what loading every tier gives, and what
/// `rulebook search` gives. Some queries must need a tier but not all of them, or the
/// progressive path would not be exercised.
#[test]
fn browser_tiers_rank_as_loading_everything() {
    let dir = tiers::tiers_site();
    build_ok(dir.path());
    let b = Browser::start(1000, 800);
    // `all`: load every shard and tier first; `pairs`: use the pair heads; `tiers_first`:
    // load by bound alone, not a small shard before a tier (search.js SHARD_FIRST)
    let query_with = |q: &str,
                      lang: &str,
                      all: bool,
                      pairs: bool,
                      tiers_first: bool|
     -> (Vec<String>, u64, u64) {
        // Nothing loaded yet, as on a fresh page: the index read so far is forgotten by
        // `RulebookSearch.reset` (what `rulebook serve` calls once it has written the index
        // anew). A page loaded for each of the 120 runs was half of this test's time.
        let page = format!("public/{lang}/index.html");
        if !b.url().ends_with(&page) {
            b.goto(&file_url(&dir.path().join(&page)));
            b.wait_until(
                "return document.readyState === 'complete' && window.RulebookSearch",
                10,
                "page load",
            );
        }
        b.js("RulebookSearch.reset(); RulebookSearch.tiersTaken = 0; RulebookSearch.shardsTaken = 0;");
        b.js_with(
            "window.__got = null; RulebookSearch.exhaustive = arguments[2]; RulebookSearch.noPairs = !arguments[3]; RulebookSearch.tiersFirst = arguments[4]; RulebookSearch.query(arguments[0], arguments[1]).then(function (h) { window.__got = h.map(function (x) { return x.url; }); });",
            vec![Value::from(q), Value::from(lang), Value::from(all), Value::from(pairs), Value::from(tiers_first)],
        );
        let got = b.wait_until("return window.__got", 20, q);
        let loaded = b
            .js("return RulebookSearch.tiersTaken || 0")
            .as_u64()
            .unwrap();
        let shards = b
            .js("return RulebookSearch.shardsTaken || 0")
            .as_u64()
            .unwrap();
        let urls = got
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        (urls, loaded, shards)
    };
    let query =
        |q: &str, lang: &str, all: bool, pairs: bool| query_with(q, lang, all, pairs, false);
    let mut failed = Vec::new();
    let mut progressive = 0;
    // queries whose typo expansions were not all loaded (their bounds proved them unneeded)
    let mut lazy = 0;
    // queries that the pair heads spared some tiers
    let mut paired = 0;

    for (lang, q) in tiers::TIER_QUERIES {
        let cli = cli_top_ten(dir.path(), lang, q);
        let (some, loaded, shards) = query(q, lang, false, true);
        let (unpaired, loaded_unpaired, _) = query(q, lang, false, false);
        let (every, all, all_shards) = query(q, lang, true, false);
        let (by_bound, loaded_by_bound, _) = query_with(q, lang, false, true, true);
        println!(
            "{lang} {q}: {loaded} of {all} tiers ({loaded_unpaired} without pair heads, {loaded_by_bound} by bound alone), {shards} of {all_shards} shards"
        );
        if by_bound != every {
            failed.push(format!(
                "{lang} {q} by bound alone:\n  {by_bound:?}\n  every tier {every:?}"
            ));
        }
        if loaded < loaded_unpaired {
            paired += 1;
        }
        if unpaired != every {
            failed.push(format!(
                "{lang} {q} without pair heads:\n  {unpaired:?}\n  every tier {every:?}"
            ));
        }
        if loaded > 0 && loaded < all {
            progressive += 1;
        }
        if shards < all_shards {
            lazy += 1;
        }
        if some != every || some != cli {
            failed.push(format!(
                "{lang} {q}:\n  tiers as needed {some:?}\n  every tier {every:?}\n  cli {cli:?}"
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    assert!(
        progressive >= 3,
        "only {progressive} queries loaded some tiers but not all"
    );
    assert!(
        lazy >= 2,
        "only {lazy} queries left a typo expansion's shard unloaded"
    );
    assert!(
        paired >= 3,
        "only {paired} queries loaded fewer tiers with the pair heads"
    );
}

/// gzip size of a file (`gzip -6`), what a server sending it compressed transfers.
fn gz(path: &Path) -> u64 {
    let out = std::process::Command::new("gzip")
        .args(["-6", "-c"])
        .arg(path)
        .output()
        .expect("gzip");
    out.stdout.len() as u64
}

/// Puts `query` into the search box in one go (one input event, as a paste) and waits for
/// its results.
fn search_at_once(b: &Browser, query: &str) {
    b.js_with(
        "var i = document.getElementById('search-input'); i.value = arguments[0]; i.dispatchEvent(new Event('input'));",
        vec![Value::from(query)],
    );
    b.wait_until(
        &format!(
            "var r = document.getElementById('search-results'); return !r.hidden && r.getAttribute('data-query') === {} && !r.hasAttribute('aria-busy');",
            Value::String(query.to_string())
        ),
        20,
        &format!("results for {query}"),
    );
}

/// Types `query` letter by letter, each prefix's results on screen before the next letter.
/// Returns, for each keystroke, the milliseconds to its results (`RulebookSearch.lastMillis`)
/// and the query typed so far.
fn type_slowly(b: &Browser, query: &str) -> Vec<(f64, String)> {
    b.js("var i = document.getElementById('search-input'); i.value = ''; i.focus();");
    let mut typed = String::new();
    let mut times = Vec::new();
    for c in query.chars() {
        typed.push(c);
        b.js("window.RulebookSearch.lastMillis = null;");
        b.type_into("#search-input", &c.to_string());
        if typed.trim().is_empty() {
            continue;
        }
        let t = b.wait_until(
            &format!("var r = document.getElementById('search-results'); return r.getAttribute('data-query') === {} && window.RulebookSearch.lastMillis", Value::String(typed.clone())),
            20,
            "results",
        );
        times.push((t.as_f64().unwrap(), typed.clone()));
    }
    times
}

/// Files the page fetched for search since the last call (resource timing), and their gzip
/// sizes.
fn fetched(b: &Browser, server: &str, public: &Path) -> (Vec<String>, u64) {
    let names = b.js("var n = performance.getEntriesByType('resource').map(e => e.name); performance.clearResourceTimings(); return n;");
    let mut files = Vec::new();
    let mut bytes = 0;
    for n in names.as_array().unwrap() {
        let rel = n
            .as_str()
            .unwrap()
            .strip_prefix(server)
            .unwrap_or("")
            .to_string();
        if rel.starts_with("search/")
            || rel.ends_with("js/search.js")
            || rel.ends_with("js/analyzer.js")
            || rel.ends_with("css/search.css")
        {
            bytes += gz(&public.join(&rel));
            files.push(rel);
        }
    }
    (files, bytes)
}

/// Prints the gzip bytes that the search `first`, then each of `later`, fetch on a fresh page
/// of `lang` in `b`, each put in by `go`; then the median and the largest of the later ones.
fn searches_bytes(
    b: &Browser,
    server: &str,
    public: &Path,
    how: &str,
    (lang, first, later): (&str, &str, &[&str]),
    go: impl Fn(&Browser, &str),
) {
    b.goto(&format!("{server}{lang}/"));
    b.wait_until("return document.readyState === 'complete'", 20, "page load");
    // the search files the page itself loads (search.js, search.css) are part of the first
    // search's bytes: all of search's JavaScript counts
    let (page_files, page_bytes) = fetched(b, server, public);
    go(b, first);
    let (files, bytes) = fetched(b, server, public);
    println!(
        "{lang} first search {first:?} {how}: {} B gz in {} files ({page_bytes} B of them loaded with the page: {page_files:?}): {files:?}",
        bytes + page_bytes,
        files.len() + page_files.len()
    );
    let mut sizes = Vec::new();
    for q in later {
        go(b, q);
        let (files, bytes) = fetched(b, server, public);
        println!(
            "{lang} later search {q:?} {how}: {bytes} B gz in {} files: {files:?}",
            files.len()
        );
        sizes.push(bytes);
    }
    sizes.sort_unstable();
    println!(
        "{lang} later searches {how}: median {} B, max {} B",
        sizes[sizes.len() / 2],
        sizes[sizes.len() - 1]
    );
}

/// Measures a built site (not a check: speed is never asserted). Run with
/// `RULEBOOK_SEARCH_BENCH=path/to/public cargo test --release --test e2e browser_search::measure_search -- --ignored --nocapture`.
/// Prints the gzip bytes of the first and later searches and the keystroke-to-results times.
#[test]
#[ignore]
fn measure_search() {
    let Some(public) = std::env::var_os("RULEBOOK_SEARCH_BENCH") else {
        return;
    };
    let public = std::path::PathBuf::from(public);
    let server = StaticServer::start(&public, "/");
    let b = Browser::start(1200, 800);
    for (lang, first, later) in [
        (
            "uk",
            "закляття",
            &[
                "кубик сили",
                "пломенекровний",
                "жетон виснаження",
                "атакувати",
                "фаза",
                "резерв",
                "химера",
                "заклятя",
                "союзник",
                "відновлення",
                // glossary terms of two and three words, as players type them
                "мета гри",
                "фаза ходу гравців",
                "стос добору гравця",
                "ліміт поля заклять",
                "резерв активних кубиків",
            ][..],
        ),
        (
            "en",
            "attack",
            &[
                "exhaustion token",
                "phoenixborn",
                "conjuration",
                "guard",
                "spellboard",
                "damage",
                "recover",
                "meditate",
                "first player",
                "dice",
                "base game",
                "prepare phase",
                "face down cards",
                "play area setup",
                "resolving simultaneous effects",
            ][..],
        ),
    ] {
        // bytes of whole queries (entered at once), then of the same typed letter by letter
        // as fast as the driver types (the searches of most prefixes are replaced before
        // they load anything)
        searches_bytes(
            &b,
            &server.url,
            &public,
            "entered",
            (lang, first, later),
            search_at_once,
        );
        searches_bytes(
            &b,
            &server.url,
            &public,
            "typed",
            (lang, first, later),
            |b, q| {
                search(b, q);
            },
        );
        // keystrokes: each query typed letter by letter, the time from the input event to
        // the results on screen, every keystroke
        let mut times = Vec::new();
        // (milliseconds, query so far): the slowest keystrokes, to see what they waited for
        let mut slowest: Vec<(f64, String)> = Vec::new();
        for q in later.iter().chain(later.iter()) {
            for (t, typed) in type_slowly(&b, q) {
                times.push(t);
                slowest.push((t, typed));
            }
        }
        slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
        // the keystrokes that decide the 95th percentile are about the 17th slowest
        slowest.truncate(24);
        println!("{lang} slowest keystrokes: {slowest:?}");
        times.sort_by(f64::total_cmp);
        let p = |q: f64| times[((times.len() as f64 - 1.0) * q).round() as usize];
        println!("{lang} keystroke to results: {} keystrokes, median {:.1} ms, p95 {:.1} ms, max {:.1} ms", times.len(), p(0.5), p(0.95), p(1.0));
        // bytes of the same queries typed slowly (each prefix's results on screen before the
        // next letter: every prefix is searched to the end), in a browser with nothing cached
        let fresh = Browser::start(1200, 800);
        searches_bytes(
            &fresh,
            &server.url,
            &public,
            "slowly",
            (lang, first, later),
            |b, q| {
                type_slowly(b, q);
            },
        );
    }
}

/// A glossary entry's other names (aliases, other languages' terms) are title words outside
/// its title's length on both sides, numbers among them (`Phase 2`), and a word in both its
/// name and an alias counts once in the document frequency (which orders a prefix's
/// completions before the cut to the first 16): the command line and the browser give the
/// same results for such entries.
#[test]
fn other_names_of_glossary_entries_rank_alike_on_both_sides() {
    let mut words = String::new();
    for c in 'b'..='q' {
        words.push_str(&format!("zq{c} "));
    }
    let d = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            &format!("---\nid: a\ntitle: One\n---\n\n## 2. Movement\n\nMove {words}\n\n## 3. Two\n\nAgain {words}\n"),
        ),
        (
            "content/uk/a.md",
            "---\nid: a\ntitle: Один\n---\n\nТекст.\n",
        ),
        (
            "content/en/glossary.json",
            r#"{"second phase": {"term": "Second phase", "definition": "The next one.", "aliases": ["Phase 2"]}, "zqa": {"term": "Zqa", "definition": "A word.", "aliases": ["zqa card"]}}"#,
        ),
        ("content/uk/glossary.json", r#"{"second phase": {"term": "Друга фаза", "definition": "Наступна."}}"#),
    ]);
    build_ok(d.path());
    let server = StaticServer::start(&d.path().join("public"), "/");
    let b = Browser::start(1000, 800);
    b.goto(&format!("{}en/", server.url));
    b.wait_until(
        "return document.readyState === 'complete' && window.RulebookSearch",
        10,
        "page load",
    );
    for q in ["2", "phase 2", "zq", "zqa", "second phase", "друга фаза"] {
        let cli = cli_top_ten(d.path(), "en", q);
        b.js_with(
            "window.__got = null; RulebookSearch.query(arguments[0], 'en').then(function (h) { window.__got = h.map(function (x) { return x.url; }); });",
            vec![Value::from(q)],
        );
        let web = b.wait_until("return window.__got", 20, q);
        assert_eq!(serde_json::json!(cli), web, "{q}");
    }
    // the alias's number finds the entry
    assert!(cli_top_ten(d.path(), "en", "2")
        .iter()
        .any(|u| u.contains("glossary/#second-phase")));
}

/// The service worker serves images, the theme's files and the index from its cache without
/// asking the server. After a new build changes one of them (here an image, under the same name,
/// in a site whose text did not change), a returning visitor gets the new one: the worker's
/// version changed, so the browser installs the new worker, which drops the old cache.
#[test]
fn a_returning_visitor_gets_a_file_the_worker_had_cached_once_it_changed() {
    let svg = |r: u32| {
        format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><circle cx="4" cy="4" r="{r}"/></svg>"#
        )
    };
    let dir = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: Alpha\n---\n\nThe board:\n\n![A dot](resources/dot.svg)\n",
        ),
        ("content/en/resources/dot.svg", &svg(1)),
    ]);
    build_ok(dir.path());
    let server = StaticServer::start(&dir.path().join("public"), "/");
    let b = Browser::start(1000, 700);
    let page = format!("{}en/a/", server.url);
    b.goto(&page);
    b.wait_until(
        "return navigator.serviceWorker.controller && navigator.serviceWorker.controller.state === 'activated'",
        20,
        "the service worker",
    );
    // what the page gets for the image: through the worker, from its cache once read
    let image = "window.__img = null; fetch(document.querySelector('article img').src).then(r => r.text()).then(t => { window.__img = t; }); return null;";
    let got = |b: &Browser| {
        b.js(image);
        b.wait_until("return window.__img", 10, "the image")
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(got(&b).contains("r=\"1\""));
    // the names of the worker's caches, read without a request through the worker
    let caches = |b: &Browser| -> Vec<String> {
        b.js("window.__keys = null; caches.keys().then(k => { window.__keys = k; }); return null;");
        b.wait_until("return window.__keys", 10, "the cache names")
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k.as_str().unwrap().to_string())
            .collect()
    };
    // the build's cache (the pages read are kept in one of their own, across builds)
    let builds = |b: &Browser| -> Vec<String> {
        let mut c = caches(b);
        c.retain(|k| !k.ends_with(" pages"));
        c
    };
    let first = builds(&b);
    assert!(!first.is_empty(), "the worker made no cache");
    write(
        dir.path(),
        "content/en/resources/dot.svg",
        svg(2).as_bytes(),
    );
    build_ok(dir.path());
    // the visit: the browser checks the worker's script after the page has loaded (Chromium
    // puts the check off while navigations follow each other, so one visit, then wait), and a
    // new worker takes the page over (clients.claim)
    b.goto(&page);
    b.wait_until("return document.readyState === 'complete'", 10, "page load");
    // Wait for the new worker by its cache (it drops the old ones as it activates), not by
    // fetching the image: every request of the page through the worker puts Chromium's
    // update check off again (`ServiceWorkerVersion::DeferScheduledUpdate`), so a poll by
    // fetch could hold the old worker as long as it polls (once in about 30 runs of the suite).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let now = builds(&b);
        if !now.is_empty() && now.iter().all(|k| !first.contains(k)) {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the returning visitor still gets the image of the first visit (caches {now:?})"
        );
        std::thread::sleep(std::time::Duration::from_millis(300));
    }
    // the new worker has claimed the page, or is about to
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !got(&b).contains("r=\"2\"") {
        assert!(
            std::time::Instant::now() < deadline,
            "the returning visitor still gets the image of the first visit"
        );
        std::thread::sleep(std::time::Duration::from_millis(300));
    }
}

/// Offline, what a reader kept stays kept: the pages read survive a new build of the site (its
/// new worker dropped every page with the old build's cache), a page asked for with a query
/// is the page read (`?pair=uk`, every short address), the site's own address opens, and two
/// sites on one origin (project sites of one GitHub user) leave each other's caches alone
/// (each worker dropped every `rulebook-` cache but its own). What the site no longer has is
/// not kept: a removed chapter read before is "not found" online and offline (the kept copy
/// was served for it whenever the server said 404), and an earlier rulebook's cache is
/// dropped only when it is this site's (a site below it, or an empty one, is not).
/// A site at the domain's root has every other site of the origin in its worker's scope (a
/// GitHub user's site and their project sites): its worker answers for its own addresses only,
/// and kept the other site's pages and files in its cache.
#[test]
fn a_site_at_the_root_leaves_a_site_below_it_alone() {
    let make = |t: &str| {
        site(&[
            ("content/site.yaml", SITE_YAML),
            (
                "content/en/a.md",
                &format!("---\nid: a\ntitle: {t}\n---\n\n## 1.1.0 {t}\n\nText.\n"),
            ),
        ])
    };
    let (root_site, below) = (make("Root"), make("Below"));
    let www = tempfile::tempdir().unwrap();
    for (s, out) in [
        (&root_site, www.path().to_path_buf()),
        (&below, www.path().join("two")),
    ] {
        let r = run(&[
            "build",
            "--site",
            s.path().to_str().unwrap(),
            "--output",
            out.to_str().unwrap(),
        ]);
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
    let server = StaticServer::start(www.path(), "/");
    let b = Browser::start(1000, 700);
    b.goto(&format!("{}en/a/", server.url));
    b.wait_until(
        "return document.readyState === 'complete' && navigator.serviceWorker.controller && navigator.serviceWorker.controller.state === 'activated'",
        20,
        "the root site's worker",
    );
    // the site below, first visit: the root's worker is the one in charge of it
    b.goto(&format!("{}two/en/a/", server.url));
    b.wait_until("return document.readyState === 'complete' && document.querySelector('h1').textContent.indexOf('Below') >= 0", 20, "the site below");
    b.js(&format!(
        "window.__urls = null; var name = 'rulebook ' + {:?} + ' '; caches.keys().then(function (ks) {{ \
           return Promise.all(ks.filter(function (k) {{ return k.indexOf(name) === 0; }}).map(function (k) {{ \
             return caches.open(k).then(function (c) {{ return c.keys(); }}).then(function (rs) {{ return rs.map(function (r) {{ return r.url; }}); }}); }})); \
         }}).then(function (l) {{ window.__urls = [].concat.apply([], l); }}); return null;",
        server.url
    ));
    let urls: Vec<String> =
        serde_json::from_value(b.wait_until("return window.__urls", 10, "the root site's caches"))
            .unwrap();
    assert!(urls.iter().any(|u| u.ends_with("/en/a/")), "{urls:?}");
    let theirs: Vec<&String> = urls.iter().filter(|u| u.contains("/two/")).collect();
    assert!(theirs.is_empty(), "{theirs:?}");
}

#[test]
fn pages_read_stay_offline_across_builds_and_beside_another_site() {
    let chapter = |lang: &str, t: &str| {
        format!("---\nid: a\ntitle: {t}\n---\n\n## 1.1.0 {t} one\n\n{t} text ({lang}). A quokka, see 1.1.1.\n\n## 1.1.1 {t} two\n\nMore {t}.\n")
    };
    let filler = format!(
        "---\nid: z\ntitle: Filler\nweight: 9\n---\n\n## 9.1.0 Filler\n\n{}\n",
        "Filler words of the rules. ".repeat(90_000)
    );
    let make = |word: &str| {
        site(&[
            ("content/site.yaml", SITE_YAML),
            ("content/en/a.md", &chapter("en", word)),
            (
                "content/en/b.md",
                "---\nid: b\ntitle: Bee\nweight: 2\n---\n\n## 2.1.0 Bee\n\nBee text.\n",
            ),
            (
                "content/en/glossary.json",
                r#"{"Quokka": "A small animal."}"#,
            ),
            ("content/uk/a.md", &chapter("uk", "Слово")),
            // pages past the worker's budget (src/offline.rs `OFFLINE_PAGES_BYTES`): it keeps
            // the pages read, not every page, which would bring the new build's
            ("content/en/z.md", &filler),
        ])
    };
    let (one, two) = (make("Alpha"), make("Beta"));
    let root = tempfile::tempdir().unwrap();
    let served = root.path().join("www");
    let build = |site: &Path, to: &str| {
        let out = served.join(to);
        let r = run(&[
            "build",
            "--site",
            site.to_str().unwrap(),
            "--output",
            out.to_str().unwrap(),
        ]);
        assert_eq!(r.code, 0, "{}", r.stderr);
    };
    build(one.path(), "one");
    build(two.path(), "two");
    let server = StaticServer::start(&served, "/");
    let b = Browser::start(1000, 700);
    let visit = |b: &Browser, url: &str| {
        b.goto(url);
        b.wait_until(
            "return document.readyState === 'complete' && navigator.serviceWorker.controller && navigator.serviceWorker.controller.state === 'activated'",
            20,
            url,
        );
    };
    let caches = |b: &Browser| -> Vec<String> {
        b.js("window.__keys = null; caches.keys().then(k => { window.__keys = k; }); return null;");
        let mut k: Vec<String> =
            serde_json::from_value(b.wait_until("return window.__keys", 10, "cache names"))
                .unwrap();
        k.sort();
        k
    };
    let one_url = format!("{}one/", server.url);
    visit(&b, &format!("{one_url}en/a/"));
    visit(&b, &format!("{one_url}en/s/?1.1.0"));
    visit(&b, &format!("{one_url}en/b/"));
    visit(&b, &format!("{}two/en/a/", server.url));
    // caches of an earlier rulebook: the first site's, a site's below it, an empty one
    b.js(&format!(
        "window.__put = null; var o = {one_url:?}; \
         Promise.all([['rulebook-0a', ['static/js/site.js', 'en/a/']], ['rulebook-0b', ['sub/static/js/site.js', 'sub/en/']], ['rulebook-0c', []]].map(function (c) {{ \
           return caches.open(c[0]).then(function (k) {{ return Promise.all(c[1].map(function (u) {{ return k.put(o + u, new Response('old')); }})); }}); \
         }})).then(function () {{ window.__put = true; }}); return null;"
    ));
    b.wait_until("return window.__put", 10, "old caches");
    let before = caches(&b);
    assert_eq!(before.len(), 7, "{before:?}");
    // a new build of the first site, without chapter b, and a visit that brings its new worker
    write(
        one.path(),
        "content/en/a.md",
        chapter("en", "Gamma").as_bytes(),
    );
    std::fs::remove_file(one.path().join("content/en/b.md")).unwrap();
    build(one.path(), "one");
    b.goto(&format!("{one_url}en/"));
    b.wait_until("return document.readyState === 'complete'", 10, "page load");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let now = caches(&b);
        // the first site's build cache replaced, its old-style cache dropped, the rest kept
        // (what is dropped may go one at a time: the state asked for, or the deadline)
        let kept: Vec<&String> = before.iter().filter(|k| now.contains(k)).collect();
        let dropped: Vec<&String> = before.iter().filter(|k| !now.contains(k)).collect();
        if now.len() == 6 && kept.len() == 5 {
            assert!(dropped.iter().any(|k| *k == "rulebook-0a"), "{now:?}");
            assert!(kept.iter().any(|k| *k == "rulebook-0b"), "{now:?}");
            assert!(kept.iter().any(|k| *k == "rulebook-0c"), "{now:?}");
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "not the first site's new worker's caches: {now:?}, of {before:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(300));
    }
    // the removed chapter, online: the server's answer, not the copy kept before
    let gone = format!("{one_url}en/b/");
    b.goto(&gone);
    b.wait_until("return document.readyState === 'complete'", 10, "page load");
    let text = b.js("return document.body ? document.body.innerText : ''");
    assert!(!text.as_str().unwrap().contains("Bee text."), "{text}");
    // offline
    server.set_offline(true);
    let shows = |b: &Browser, url: &str, what: &str| {
        b.goto(url);
        let text = b.wait_until(
            "return document.readyState === 'complete' && document.body && document.body.innerText",
            10,
            url,
        );
        assert!(
            text.as_str().unwrap_or_default().contains(what),
            "offline, {url} does not show {what:?}: {text}"
        );
    };
    shows(&b, &format!("{one_url}en/a/"), "Alpha text (en).");
    shows(&b, &format!("{one_url}en/a/?pair=uk"), "Alpha text (en).");
    // its other language was never read: the note says so (it said the site was opened
    // from disk)
    let note = b.wait_until(
        "var n = document.querySelector('.pair-note'); return n && n.textContent",
        10,
        "the side-by-side view's note, offline",
    );
    assert!(note.as_str().unwrap().contains("you are offline"), "{note}");
    // another number on the short addresses' page, which sends the reader to the section
    shows(&b, &format!("{one_url}en/s/?1.1.1"), "More Alpha.");
    shows(&b, &format!("{}two/en/a/", server.url), "Beta text (en).");
    // a page not kept is the site's "not found" page, which also sends a short address on
    b.goto(&gone);
    let text = b.wait_until(
        "var n = document.querySelector('.not-found'); return document.readyState === 'complete' && n && document.body.innerText",
        10,
        "the not-found page, offline",
    );
    assert!(!text.as_str().unwrap().contains("Bee text."), "{text}");
    // (the not-found page shows its text before it sends the reader on: wait for the chapter)
    b.goto(&format!("{one_url}en/s/1.1.1/"));
    let text = b.wait_until(
        "return /\\/one\\/en\\/a\\/$/.test(location.pathname) && document.readyState === 'complete' && document.body.innerText",
        10,
        "a short address, offline",
    );
    assert!(text.as_str().unwrap().contains("More Alpha."), "{text}");
    // a small site's glossary cards and section previews came with the worker: they open
    // offline though none was opened online
    // the card open before stays open until the next one is ready: wait for the one asked for
    let card = |b: &Browser, link: &str, says: &str| {
        b.hover(link);
        b.wait_until(
            &format!(
                "var t = document.getElementById('rb-tip'); return t && !t.hidden && t.textContent.indexOf({}) >= 0",
                serde_json::to_string(says).unwrap()
            ),
            10,
            &format!("the card of {link} saying {says:?}, offline"),
        );
    };
    b.goto(&format!("{one_url}en/a/"));
    b.wait_until("return document.readyState === 'complete'", 10, "page load");
    card(&b, "article a.gl", "A small animal.");
    // (the cards are the newest build's, which the new worker brought: the page kept is older)
    card(&b, "article a.xref", "More Gamma.");
    // the site's address: its page, loaded before any worker, sends the reader on
    b.goto(&one_url);
    b.wait_until(
        "return document.readyState === 'complete' && /\\/one\\/(uk|en)\\//.test(location.pathname) && document.body.innerText.length > 0",
        10,
        "the site's address, offline",
    );
}

/// A screen reader hears what a search found (a live region says how many results, or that
/// there are none), and reads each result in its own language: the other language's results
/// say so (`lang`). Neither was there.
#[test]
fn results_are_announced_and_carry_their_language() {
    let b = Browser::start(1200, 800);
    b.goto(&format!("{}uk/", served_default_site().url));
    b.wait_until("return document.readyState === 'complete'", 10, "page load");
    let status =
        "var s = document.querySelector('[role=status]#search-status'); return s && s.textContent;";
    search(&b, "qqqqzz");
    assert_eq!(b.js(status), "Нічого не знайдено");
    search(&b, "discarding");
    let found =
        b.js("return document.querySelectorAll('#search-results .search-list > li').length");
    assert_eq!(b.js(status), format!("Знайдено: {found}"));
    let langs = b.js("return Array.from(document.querySelectorAll('#search-results a.search-hit')).map(function (a) { return [a.getAttribute('href'), a.lang]; })");
    let langs = langs.as_array().unwrap();
    assert!(!langs.is_empty());
    for l in langs {
        // an English page's result is English; a Ukrainian page's may show English text (a
        // section not translated yet), and says so too
        let href = l[0].as_str().unwrap();
        assert!(l[1] == "en" || (l[1] == "" && !href.contains("en/")), "{l}");
    }
    assert!(langs.iter().any(|l| l[1] == "en"), "{langs:?}");
    // closed, it says nothing
    b.keys("\u{E00C}");
    assert_eq!(b.js(status), "");
}

/// A new build's service worker taking over an open page makes the search read the index
/// again: the page had read the old build's words, and searched the new parts with them
/// (every search failed, called "offline").
#[test]
fn a_new_service_worker_makes_the_search_read_the_index_again() {
    let server = served_default_site();
    let b = Browser::start(1200, 800);
    b.goto(&format!("{}en/", server.url));
    b.wait_until(
        "return navigator.serviceWorker.controller",
        20,
        "the service worker",
    );
    b.goto(&format!("{}en/", server.url));
    b.wait_until(
        "return document.readyState === 'complete' && navigator.serviceWorker.controller && window.RulebookSearch",
        10,
        "a page the worker controls",
    );
    let before = search(&b, "phoenixborn");
    b.js("window.__resets = 0; var r = RulebookSearch.reset; RulebookSearch.reset = function () { window.__resets++; r(); }; navigator.serviceWorker.dispatchEvent(new Event('controllerchange'));");
    assert_eq!(b.js("return window.__resets"), 1);
    assert_eq!(search(&b, "phoenixborn"), before);
}
