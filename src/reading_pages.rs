//! The files and page fragments of the reading aids: glossary links and their tooltip data,
//! "Referenced by" lists, cross-link previews, and the short section addresses (`/uk/s/7.1.0/`).
//!
//! Tooltip data is split over a few scripts per language (`<lang>/glossary/terms-<k>-of-<count>.js`, each
//! holding the entries whose anchors hash to it), loaded by the page the first time a term of
//! theirs is hovered, focused or tapped, so no page carries copies of definitions and it works
//! from `file://` (a script tag, unlike `fetch`, may load a local file). Previews of sections
//! load the same way, from files that each hold the previews of a group of chapters
//! (`<lang>/s/p<k>-of-<count>.js`): a page carries none, and each preview is written once per language.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::glossary::alias_anchor;
use crate::html::{escape, escape_into};
use crate::reading::TermLinks;
use crate::reading::REFERENCED_BY_CAP;
use crate::render::display_term;
use crate::site::{Site, PAGE_ROOT};
use crate::xref::{Mark, Page, Pending};

/// JSON that can sit inside a `<script>` element. Every `<` is written `\u003c` (only strings
/// can hold one), so neither `</script>` nor `<!--` from content can close the element or
/// change how the rest of the page is parsed.
pub fn script_json(v: &impl serde::Serialize) -> String {
    serde_json::to_string(v)
        .unwrap_or_else(|_| "null".into())
        .replace('<', "\\u003c")
}

/// Writes what a chapter's non-reference placeholders stand for: glossary links and the
/// "Referenced by" line under a numbered heading.
pub fn fill_extra(
    site: &Site,
    text_lang: &str,
    terms: TermLinks<'_>,
    page: Page<'_>,
    p: &Pending,
    mark: Mark,
    out: &mut String,
) {
    match (p, mark) {
        (Pending::Term { term }, Mark::Open) => {
            if let Some(anchor) = terms.anchor(*term) {
                // chapter pages sit next to their language's glossary: keep the link short,
                // there are many of them
                out.push_str("<a class=\"gl\" href=\"");
                if page.print {
                    // the print view ends with the glossary
                    out.push_str("#glossary:");
                    escape_into(anchor, out);
                    out.push_str("\">");
                    return;
                }
                if page.root != PAGE_ROOT {
                    escape_into(page.root, out);
                    escape_into(page.lang, out);
                    out.push('/');
                } else {
                    out.push_str("../");
                }
                out.push_str("glossary/#");
                escape_into(anchor, out);
                out.push_str("\">");
            }
        }
        (Pending::Term { term }, Mark::Close) if terms.anchor(*term).is_some() => {
            out.push_str("</a>");
        }
        (Pending::Section { number }, _) => referenced_by(site, text_lang, page, number, out),
        _ => {}
    }
}

/// `<p class="refby">Referenced by: 3.2.0, 7.4.1 …</p>`, capped at [`REFERENCED_BY_CAP`].
pub fn referenced_by(site: &Site, text_lang: &str, page: Page<'_>, number: &str, out: &mut String) {
    let Some(list) = site
        .reading
        .referenced_by
        .get(text_lang)
        .and_then(|by_number| by_number.get(number))
    else {
        return;
    };
    if list.is_empty() {
        return;
    }
    out.push_str("<p class=\"refby\"><span class=\"refby-label\"");
    if page.lang != text_lang {
        // the page's words, in a chapter shown in the other language
        out.push_str(" lang=\"");
        escape_into(page.lang, out);
        out.push('"');
    }
    out.push('>');
    escape_into(site.theme.str(page.lang, "referenced_by"), out);
    out.push_str(":</span> ");
    // Written straight into `out`: a chapter page and the print view write one of these
    // under every numbered heading (16,100 at 200 chapters), and the addresses and link texts
    // built as strings first were most of their cost.
    for (i, r) in list.iter().take(REFERENCED_BY_CAP).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str("<a class=\"xref\" href=\"");
        match r.number.as_deref() {
            // where a cross-link to that number leads: the reader's page, or the original's
            // when the reader's translation of the chapter lacks the section
            Some(n) if site.resolver().section_href_into(page, n, out) => {}
            Some(n) => {
                page.chapter_href_into(page.lang, &r.chapter_id, out);
                out.push('#');
                escape_into(n, out);
            }
            None if page.print => {
                out.push('#');
                escape_into(&r.chapter_id, out);
            }
            None => page.chapter_href_into(page.lang, &r.chapter_id, out),
        }
        out.push_str("\">");
        match &r.number {
            Some(n) => escape_into(n, out),
            None => {
                let title = site
                    .page(page.lang, &r.chapter_id)
                    .or_else(|| {
                        site.config
                            .languages
                            .iter()
                            .find_map(|l| site.page(l, &r.chapter_id))
                    })
                    .map(|p| p.title_text.as_str())
                    .unwrap_or(r.chapter_id.as_str());
                escape_into(title, out);
            }
        }
        out.push_str("</a>");
    }
    if list.len() > REFERENCED_BY_CAP {
        out.push(' ');
        let more = site
            .theme
            .str(page.lang, "and_more")
            .replace("{n}", &(list.len() - REFERENCED_BY_CAP).to_string());
        escape_into(&more, out);
    }
    out.push_str("</p>\n");
}

/// Chapters per preview file, on average: a file is then a few tens of kilobytes at most, and a
/// page whose links lead into a handful of chapters loads a handful of files.
const CHAPTERS_PER_PREVIEW_FILE: usize = 16;

/// How many preview files each language has: grows with the site, so no file grows with it.
pub fn preview_file_count(site: &Site) -> usize {
    site.order.len().div_ceil(CHAPTERS_PER_PREVIEW_FILE).max(1)
}

/// Which of `files` files holds what is filed under `key` (a chapter's previews, a glossary
/// entry's tooltip). FNV-1a over the key's UTF-16 code units (what a JavaScript string is made
/// of), so `reading.js` finds the same file from the chapter or the anchor named in a link's
/// address, with no table on the page.
pub fn hashed_file(key: &str, files: usize) -> usize {
    let mut h: u32 = 0x811c_9dc5;
    for u in key.encode_utf16() {
        h ^= u32::from(u);
        h = h.wrapping_mul(0x0100_0193);
    }
    (h as usize) % files.max(1)
}

/// Where preview file `k` of the `count` of `lang` is written, below the output root. Beside
/// the short section addresses (`<lang>/s/`): a folder no chapter id may take.
///
/// The name carries the count, as the names of every file split by [`hashed_file`] do: a page
/// a reader kept offline from an earlier build, split over another count, asks for the files
/// of its own split (kept with it), not for a file of the new split under the old name, which
/// has another part of the entries.
pub fn preview_file_path(lang: &str, k: usize, count: usize) -> String {
    format!("{lang}/s/p{k}-of-{count}.js")
}

/// The preview files of one reader language, or only those numbered in `only`:
/// `(path, script)`. Each section's preview is in exactly one file (the file of the chapter
/// that a reader of `lang` is sent to for it), and a file registers its previews with
/// `RulebookPreviews["<lang>/<k>"] = {"7.1.0": ["Title", "Opening text…"]}` (and the text's
/// language after them when it is another's, [`Tip`]): a script, unlike `fetch`, also loads
/// from `file://`.
pub fn preview_files(site: &Site, lang: &str, only: Option<&[usize]>) -> Vec<(String, String)> {
    let count = preview_file_count(site);
    let mut files: Vec<BTreeMap<&str, Tip<'_, 2>>> = vec![BTreeMap::new(); count];
    let key = |k: usize| only.is_none_or(|o| o.contains(&k));
    for n in site.sections.numbers() {
        let Some(def) = site.sections.resolve(lang, n) else {
            continue;
        };
        let k = hashed_file(&def.chapter_id, count);
        if !key(k) {
            continue;
        }
        if let Some((t, body)) = (site.reading.previews.get(&def.lang)).and_then(|p| p.get(n)) {
            let other = (def.lang != lang).then_some(def.lang.as_str());
            files[k].insert(n, Tip::new([t, body], other));
        }
    }
    files
        .into_iter()
        .enumerate()
        .filter(|(k, _)| key(*k))
        .map(|(k, map)| {
            let mut s = data_script("section previews", "RulebookPreviews", lang, k);
            tips_json(map.iter().map(|(k, t)| (*k, t)), &mut s);
            s.push_str(";\n");
            (preview_file_path(lang, k, count), s)
        })
        .collect()
}

/// The start of data file `k` of `lang`, up to the data: a script that registers it as
/// `window[name]["<lang>/<k>"]` (`reading.js` `withData`), with what it holds in a comment.
fn data_script(what: &str, name: &str, lang: &str, k: usize) -> String {
    let mut s = format!("/* {what} */\n(window.{name}=window.{name}||{{}})[");
    s.push_str(&script_json(&format!("{lang}/{k}")));
    s.push_str("]=");
    s
}

/// A tooltip's texts, as a JSON array, and after them the language they are in when it is not
/// the page's (an entry or a section shown from another language): the tooltip takes it as
/// its `lang`, so that a screen reader reads English as English on a Ukrainian page.
#[derive(Clone)]
struct Tip<'a, const N: usize> {
    texts: [&'a str; N],
    lang: Option<&'a str>,
}

impl<'a, const N: usize> Tip<'a, N> {
    fn new(texts: [&'a str; N], lang: Option<&'a str>) -> Self {
        Tip { texts, lang }
    }
}

/// `{"key":[texts…, lang?],…}`: what [`script_json`] makes of a map of [`Tip`]s, without
/// serde (see [`crate::json::script_map_into`]; serde and the `replace` after it were 2 % of a
/// 200-chapter build's instructions).
fn tips_json<'a, const N: usize>(
    tips: impl IntoIterator<Item = (&'a str, &'a Tip<'a, N>)>,
    out: &mut String,
) {
    crate::json::script_map_into(
        tips.into_iter()
            .map(|(key, tip)| (key, tip.texts.iter().copied().chain(tip.lang))),
        out,
    );
}

impl<const N: usize> serde::Serialize for Tip<'_, N> {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq as _;
        let mut seq = ser.serialize_seq(Some(N + usize::from(self.lang.is_some())))?;
        for t in &self.texts {
            seq.serialize_element(t)?;
        }
        if let Some(l) = self.lang {
            seq.serialize_element(l)?;
        }
        seq.end()
    }
}

/// Glossary entries per tooltip file, on average: a file is then a few tens of kilobytes, and
/// the first card a reader opens loads one of them. (One file per language was 1.6 MB at 4,000
/// entries, all of it loaded for the first card.)
const ENTRIES_PER_TERMS_FILE: usize = 64;

/// How many tooltip files each language has: grows with the glossary, so no file grows with it.
/// The same for every language, so a card of the other column of the side-by-side view finds
/// its file with the page's count.
pub fn terms_file_count(site: &Site) -> usize {
    let most = (site.glossaries.values().map(|g| g.entries.len()))
        .max()
        .unwrap_or(0);
    most.div_ceil(ENTRIES_PER_TERMS_FILE).max(1)
}

/// Where tooltip file `k` of the `count` of `lang` is written, below the output root (the
/// count in the name: [`preview_file_path`]).
pub fn terms_file_path(lang: &str, k: usize, count: usize) -> String {
    format!("{lang}/glossary/terms-{k}-of-{count}.js")
}

/// The tooltip files of `lang`: `(path, script)`. Every entry the language's glossary page
/// shows, by anchor, in the file its anchor hashes to ([`hashed_file`]):
/// `[term, term in the other language, definition HTML]`, and the entry's language when it is
/// another's ([`Tip`]). A file registers its entries with `RulebookTerms["<lang>/<k>"]`.
pub fn terms_files(site: &Site, lang: &str) -> Vec<(String, String)> {
    let resolver = site.resolver();
    let page = Page {
        lang,
        id: None,
        root: PAGE_ROOT,
        print: false,
    };
    let mut map: BTreeMap<String, (String, String, String, Option<&str>)> = BTreeMap::new();
    let mut sources: Vec<&str> = vec![lang];
    sources.extend(site.config.others(lang).map(String::as_str));
    for src_lang in sources {
        let Some(g) = site.glossaries.get(src_lang) else {
            continue;
        };
        for (e, prepared) in g.entries.iter().zip(&site.glossary_html[src_lang]) {
            let keys: Vec<&String> = std::iter::once(&e.key).chain(&e.merged_keys).collect();
            // the keys' anchors, and the entry's own, which a term link uses when its key's is
            // one of the page's own ids (autolink.rs)
            let mut anchors: Vec<String> = keys.iter().map(|k| alias_anchor(k)).collect();
            if !anchors.contains(&e.anchor) {
                anchors.push(e.anchor.clone());
            }
            if anchors.iter().all(|a| map.contains_key(a)) {
                continue;
            }
            let other = site
                .config
                .others(src_lang)
                .find_map(|l| {
                    let og = site.glossaries.get(l)?;
                    keys.iter()
                        .find_map(|k| og.get(k))
                        .map(|oe| oe.term.clone())
                })
                .unwrap_or_default();
            let def = resolver.fill(&prepared.html, &prepared.pending, page);
            let shown_in = (src_lang != lang).then_some(src_lang);
            let value = (display_term(&e.term), display_term(&other), def, shown_in);
            for a in anchors {
                map.entry(a).or_insert_with(|| value.clone());
            }
        }
    }
    let count = terms_file_count(site);
    let mut files: Vec<BTreeMap<&str, Tip<'_, 3>>> = vec![BTreeMap::new(); count];
    for (k, v) in &map {
        files[hashed_file(k, count)].insert(k, Tip::new([&v.0, &v.1, &v.2], v.3));
    }
    files
        .iter()
        .enumerate()
        .map(|(k, tips)| {
            let mut s = data_script("glossary terms for tooltips", "RulebookTerms", lang, k);
            tips_json(tips.iter().map(|(k, t)| (*k, t)), &mut s);
            s.push_str(";\n");
            (terms_file_path(lang, k, count), s)
        })
        .collect()
}

/// The reader's choice of a dark or light theme, applied before the page is drawn: the same
/// line as `base.html`'s, for the one page the templates do not make.
/// (The page is at `<lang>/s/`: the site's folder is two up.)
const THEME_CHOICE: &str = r#"<script>try{var m=localStorage.getItem("rulebook-theme "+new URL("../../",location.href).pathname);if(m)document.documentElement.dataset.theme=m}catch(e){}</script>"#;

/// Section numbers per file of the short addresses' table, on average: a file is then a few
/// tens of kilobytes. (The whole table in the page was 471 KB at 2,000 chapters, read to send
/// the reader on to one section.)
const NUMBERS_PER_SHORT_FILE: usize = 2048;

/// How many files the short addresses' table of each language is split over.
pub fn short_file_count(site: &Site) -> usize {
    (site.sections.numbers().len())
        .div_ceil(NUMBERS_PER_SHORT_FILE)
        .max(1)
}

/// What a number is filed under in the short addresses' table: its first part (`7` of
/// `7.1.0`), so the numbers of one chapter, which mostly share it, are in one file, and the
/// file names the chapter's page once (hashed whole, the numbers of 2,000 chapters took 1.1 MB
/// in files of 55 KB, each naming most pages).
pub fn short_key(number: &str) -> &str {
    number.split('.').next().unwrap_or(number)
}

/// One file of the short addresses' table as it is gathered: each target page's place in the
/// list, and the list of pages (address, numbers).
type ShortFile<'s> = (
    rustc_hash::FxHashMap<(&'s str, &'s str), usize>,
    Vec<(String, Vec<&'s str>)>,
);

/// Where file `k` of the `count` of the short addresses' table of `lang` is written, below the
/// output root (the count in the name: [`preview_file_path`]).
pub fn short_file_path(lang: &str, k: usize, count: usize) -> String {
    format!("{lang}/s/n{k}-of-{count}.js")
}

/// The short addresses' table of `lang`, in [`short_file_count`] files (`<lang>/s/n<k>-of-<count>.js`),
/// each number in the file its first part hashes to ([`short_key`], [`hashed_file`]):
/// `(path, script)`. A file registers
/// `RulebookShort["<lang>/<k>"] = {"uk/id":["7.1.0",…],…}`, each target page with its numbers
/// (the numbers are the bulk of it).
pub fn short_files(site: &Site, lang: &str) -> Vec<(String, String)> {
    let resolver = site.resolver();
    let count = short_file_count(site);
    // each page's address made once, not once per number (tens of thousands of them), and
    // the pages sorted by it as a map keyed by the address would keep them
    let mut files: Vec<ShortFile<'_>> = vec![Default::default(); count];
    for n in site.sections.numbers() {
        if let Some(page) = resolver.section_page(lang, n) {
            let (slot, by_page) = &mut files[hashed_file(short_key(n), count)];
            let k = *slot.entry(page).or_insert_with(|| {
                by_page.push((format!("{}/{}", page.0, page.1), Vec::new()));
                by_page.len() - 1
            });
            by_page[k].1.push(n);
        }
    }
    files
        .into_iter()
        .enumerate()
        .map(|(k, (_, mut by_page))| {
            by_page.sort_unstable_by(|a, b| a.0.cmp(&b.0));
            let mut s = data_script("short section addresses", "RulebookShort", lang, k);
            crate::json::script_map_into(
                by_page
                    .iter()
                    .map(|(page, numbers)| (page.as_str(), numbers.iter().copied())),
                &mut s,
            );
            s.push_str(";\n");
            (short_file_path(lang, k, count), s)
        })
        .collect()
}

/// `<lang>/s/index.html`: the short address of every section. `s/?7.1.0` (and `s/7.1.0/`, which
/// `404.html` forwards here) goes to the section, found in the file of the table the number
/// hashes to ([`short_files`]); an unknown number shows a form to type one. One page per
/// language, not one per section: tens of thousands of tiny files would cost more to write
/// and to publish than a table.
pub fn short_page(site: &Site, lang: &str) -> String {
    let numbers = site.sections.numbers();
    let t = |k: &str| escape(&site.theme.string(lang, k));
    // the site's own first section number as the example, not another game's
    // (a section's, `1.1.0`, rather than a chapter's `1.0.0`)
    let first = |keep: &dyn Fn(&str) -> bool| {
        (numbers.iter().copied())
            .filter(|n| keep(n))
            .min_by(|a, b| crate::check::compare_numbers(a, b))
    };
    let example = first(&|n| n.split('.').count() == 3 && n.split('.').nth(1) != Some("0"))
        .or_else(|| first(&|_| true))
        .unwrap_or("1.1.0")
        .to_string();
    let mut s = String::new();
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{} · {}</title>\n<meta name=\"robots\" content=\"noindex\">\n<link rel=\"icon\" href=\"../../static/favicon.svg\" type=\"image/svg+xml\">\n<link rel=\"stylesheet\" href=\"../../static/css/style.css\">\n<link rel=\"stylesheet\" href=\"../../static/css/reading.css\">\n{THEME_CHOICE}\n<script defer src=\"../../static/js/site.js\"></script>\n",
        escape(lang),
        t("section"),
        escape(site.config.title_in(lang)),
    );
    let _ = write!(
        s,
        "<script>\n(function () {{\n  var lang = {}, count = {};",
        script_json(&lang),
        short_file_count(site)
    );
    s.push_str(r##"
  // a Ukrainian keypad's decimal key types a comma (`7,1,0`), as the search box accepts too
  // a `%` that starts no escape (`?%`) is a number no page has, not an error
  var q = (location.search || location.hash).slice(1);
  try { q = decodeURIComponent(q); } catch (e) {}
  q = q.replace(/^n=/, "").replace(/\+/g, " ").trim().replace(/\s*,\s*/g, ".").replace(/\.$/, "");
  if (!q) return;
  var root = document.documentElement;
  function missing() { root.removeAttribute("data-looking"); root.setAttribute("data-missing", q); }
  // the table's file of this number: FNV-1a over the UTF-16 code units of its first part
  // (reading_pages.rs short_key, hashed_file)
  var key = q.split(".")[0], h = 0x811c9dc5;
  for (var i = 0; i < key.length; i++) { h ^= key.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; }
  var k = h % count, s = document.createElement("script");
  root.setAttribute("data-looking", "");
  s.src = "n" + k + "-of-" + count + ".js";
  s.onload = function () {
    var pages = (window.RulebookShort || {})[lang + "/" + k] || {};
    // a number written short (`7.1`, `7`) is its section's (`7.1.0`, `7.0.0`), as in search;
    // all of them are in this file, which the first part picks
    for (var n = q, more = 2; more >= 0; n += ".0", more--) {
      for (var p in pages) {
        if (pages[p].indexOf(n) >= 0) {
          location.replace("../../" + p + "/" + (location.protocol === "file:" ? "index.html" : "") + "#" + n);
          return;
        }
      }
    }
    missing();
  };
  s.onerror = missing;
  document.head.appendChild(s);
})();
</script>
<style>html[data-looking] main{visibility:hidden}</style>
</head>
<body class="kind-short">
<main id="main" class="short">
"##);
    let _ = write!(
        s,
        "<h1>{}</h1>\n<form method=\"get\" action=\"\" role=\"search\"><label for=\"n\">{}</label> <input id=\"n\" name=\"n\" inputmode=\"decimal\" autocomplete=\"off\" placeholder=\"{}\"> <button type=\"submit\">{}</button></form>\n<p class=\"short-missing\">{}</p>\n<p><a href=\"../\">{}</a></p>\n</main>\n</body>\n</html>\n",
        t("section"),
        t("section_number"),
        escape(&example),
        t("go"),
        t("section_not_found").replace("{example}", &escape(&example)),
        t("contents"),
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preview_files_are_picked_as_reading_js_picks_them() {
        // FNV-1a over UTF-16 code units; the same values as `previewFile` in reading.js
        assert_eq!(hashed_file("", 1_000_000_007), 0x811c_9dc5 % 1_000_000_007);
        assert_eq!(hashed_file("a", usize::MAX), 0xe40c_292c);
        assert_eq!(hashed_file("правила", 1), 0);
        let spread: std::collections::BTreeSet<usize> = (0..200)
            .map(|i| hashed_file(&format!("chapter-{i}"), 13))
            .collect();
        assert_eq!(spread.len(), 13, "every file is used");
    }

    proptest::proptest! {
        /// The map of tips written by hand is what serde_json writes, `<` escaped after.
        #[test]
        fn tips_json_is_script_json(
            tips in proptest::collection::btree_map("[a-z0-9.<\"\\\\\\x00-\\x1fж]{0,6}", ("\\PC{0,12}", "[<>a\"\\\\\n\u{7}]{0,8}", proptest::option::of("[a-z<]{1,3}")), 0..5),
        ) {
            let tips: BTreeMap<&str, Tip<'_, 2>> = tips
                .iter()
                .map(|(k, (a, b, l))| (k.as_str(), Tip::new([a.as_str(), b.as_str()], l.as_deref())))
                .collect();
            let mut ours = String::new();
            tips_json(tips.iter().map(|(k, t)| (*k, t)), &mut ours);
            proptest::prop_assert_eq!(ours, script_json(&tips));
        }
    }

    #[test]
    fn script_json_cannot_end_or_confuse_its_script_element() {
        let v = serde_json::json!({"t": "a</script><!--<script>b"});
        let s = script_json(&v);
        assert!(!s.contains('<'), "{s}");
        let back: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back, v);
    }
}
