//! The print view (`/<lang>/print/`): every chapter on one page, in reading order, with unique
//! ids and every in-page link landing on the page; checked by parsing the built HTML.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use crate::common::*;

/// The chapter ids of a language's contents page, in its order.
fn contents_order(out: &Path, lang: &str) -> Vec<String> {
    let doc = page(&out.join(lang).join("index.html"));
    attrs(&doc, ".chapter-list > li > a", "href")
        .iter()
        .map(|h| {
            h.trim_end_matches('/')
                .rsplit('/')
                .next()
                .unwrap()
                .to_string()
        })
        .collect()
}

/// Every id of the page, with how often it occurs.
fn id_counts(doc: &Html) -> HashMap<String, usize> {
    let mut ids = HashMap::new();
    for id in attrs(doc, "[id]", "id") {
        *ids.entry(id).or_insert(0) += 1;
    }
    ids
}

/// Ids that occur more than once, and in-page links (`#…`) whose target is not on the page.
fn id_problems(doc: &Html) -> (Vec<String>, Vec<String>) {
    let ids = id_counts(doc);
    let mut dups: Vec<String> = ids
        .iter()
        .filter(|(_, n)| **n > 1)
        .map(|(id, _)| id.clone())
        .collect();
    dups.sort();
    let dead = attrs(doc, "a[href^='#']", "href")
        .into_iter()
        .filter(|h| !ids.contains_key(&percent_decode(&h[1..])))
        .collect();
    (dups, dead)
}

#[test]
fn print_view_has_every_chapter_in_order_with_unique_ids_and_live_links() {
    let site = default_site();
    build_ok(site.path());
    let out = site.path().join("public");
    for lang in ["uk", "en"] {
        let path = out.join(lang).join("print/index.html");
        let doc = page(&path);
        let order = contents_order(&out, lang);
        assert!(order.len() > 10, "{lang}: chapters {order:?}");
        let chapters = attrs(&doc, "main > section.print-chapter", "id");
        assert_eq!(
            chapters[..chapters.len() - 1],
            order[..],
            "{lang}: every chapter, in the contents' order"
        );
        assert_eq!(
            chapters.last().unwrap(),
            "glossary",
            "the glossary ends the book"
        );

        // each chapter keeps its title, numbers and headings as its own page shows them
        for id in &order {
            let own = page(&out.join(lang).join(id).join("index.html"));
            let mine = doc
                .select(&sel(&format!("section.print-chapter[id='{id}']")))
                .next()
                .unwrap();
            let h1 = |d: scraper::ElementRef| {
                d.select(&sel("h1"))
                    .next()
                    .unwrap()
                    .text()
                    .collect::<String>()
            };
            let own_article = own.select(&sel("article")).next().unwrap();
            assert_eq!(h1(mine), h1(own_article), "{lang}/{id}: title");
            let heads = |d: scraper::ElementRef| -> Vec<String> {
                d.select(&sel("h2, h3, h4"))
                    .map(|h| h.text().collect::<String>())
                    .collect()
            };
            assert_eq!(heads(mine), heads(own_article), "{lang}/{id}: headings");
            // numbered sections keep their number as id, as on the chapter page
            for n in attrs(&own, "article h2[id], article h3[id]", "id")
                .into_iter()
                .filter(|i| i.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
            {
                assert!(
                    mine.select(&sel(&format!("[id='{n}']"))).next().is_some(),
                    "{lang}/{id}: section {n} keeps its id"
                );
            }
            // an untranslated chapter says so, as its page does
            assert_eq!(
                mine.select(&sel(".banner.untranslated")).next().is_some(),
                own.select(&sel(".banner.untranslated")).next().is_some(),
                "{lang}/{id}: untranslated banner"
            );
        }

        let (dups, dead) = id_problems(&doc);
        assert!(dups.is_empty(), "{lang}: ids used twice: {dups:?}");
        assert!(
            dead.is_empty(),
            "{lang}: in-page links to nothing: {dead:?}"
        );

        // a cross-link to a section of the book stays on the page
        let xrefs = attrs(&doc, "section.print-chapter a.xref", "href");
        assert!(xrefs.len() > 50, "{lang}: {} cross-links", xrefs.len());
        let leaving: Vec<&String> = xrefs.iter().filter(|h| !h.starts_with('#')).collect();
        assert!(
            leaving.is_empty(),
            "{lang}: cross-links leave the page: {leaving:?}"
        );
        assert!(
            xrefs.iter().any(|h| h == "#7.1.0"),
            "{lang}: a link to 7.1.0"
        );
        // glossary terms lead to the glossary at the end
        let terms = attrs(&doc, "section.print-chapter a.gl", "href");
        assert!(!terms.is_empty());
        assert!(
            terms.iter().all(|h| h.starts_with("#glossary:")),
            "{terms:?}"
        );
        // the contents at the top lead to every chapter and its sections on the page
        let toc = attrs(&doc, ".print-toc a", "href");
        assert!(toc.len() > order.len(), "{lang}: contents {}", toc.len());
        assert!(toc.iter().all(|h| h.starts_with('#')));

        // no site furniture that needs scripts; not for search engines. The one script is
        // site.js: from `file://` it points folder links at index.html, and the language
        // switch keeps the section the reader is at.
        let scripts = attrs(&doc, "script[src]", "src");
        assert_eq!(scripts, ["../../static/js/site.js"], "{lang}");
        for gone in ["input", ".toc", ".search", ".pager"] {
            assert!(
                doc.select(&sel(gone)).next().is_none(),
                "{lang}: the print view has no {gone}"
            );
        }
        assert_eq!(attrs(&doc, "meta[name=robots]", "content"), ["noindex"]);

        // the contents page leads to it
        let index = page(&out.join(lang).join("index.html"));
        assert_eq!(
            attrs(&index, "a.print-link", "href"),
            ["../uk/print/".replace("uk", lang)]
        );
    }
    // the Ukrainian book has chapters still in English, marked as such
    let uk = page(&out.join("uk/print/index.html"));
    let untranslated = attrs(&uk, "section.print-chapter[lang='en']", "id");
    assert!(!untranslated.is_empty());
    for id in &untranslated {
        assert!(uk
            .select(&sel(&format!(
                "section[id='{id}'] > .banner.untranslated[lang='uk']"
            )))
            .next()
            .is_some());
    }
    // the sitemap lists the pages to read, not this copy of them
    let sitemap = std::fs::read_to_string(out.join("sitemap.xml")).unwrap();
    assert!(sitemap.contains("/uk/introduction/") && !sitemap.contains("/print/"));
    // every link of the whole site, print views included, resolves
    assert_links_resolve(&out);
}

/// Ids that would be the same on one page: the same heading in two chapters, footnotes with the
/// same label, and a section number that a translated chapter and an untranslated one (shown in
/// the original language) both define.
#[test]
fn print_view_keeps_colliding_ids_apart() {
    let site = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/uk/a.md",
            "---\nid: a\ntitle: 1.0 Перший\nweight: 1\n---\n## Приклади\n\nТекст[^1], див. 5.1 і [другий](../en/b.md#examples) та [другий](../en/b.md).\n\n[^1]: Примітка.\n\n## 5.1 Розділ\n\nТекст, [приклади](#приклади).\n",
        ),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: 1.0 First\nweight: 1\n---\n## Examples\n\nText[^1].\n\n[^1]: A note.\n",
        ),
        (
            "content/en/b.md",
            "---\nid: b\ntitle: 2.0 Second\nweight: 2\n---\n## Examples\n\nText[^1], see 5.1 and 1.0.\n\n[^1]: A note.\n\n## 5.1 Section\n\nText, [examples](#examples).\n",
        ),
    ]);
    build_ok(site.path());
    let out = site.path().join("public");
    let uk = page(&out.join("uk/print/index.html"));
    let (dups, dead) = id_problems(&uk);
    assert!(dups.is_empty(), "ids used twice: {dups:?}");
    assert!(dead.is_empty(), "in-page links to nothing: {dead:?}");
    let ids: HashSet<String> = attrs(&uk, "[id]", "id").into_iter().collect();
    // 5.1 is the Ukrainian chapter's; the English one, shown untranslated, keeps its own apart
    let in_a = |s: &str| attrs(&uk, &format!("section[id=a] {s}"), "id");
    let in_b = |s: &str| attrs(&uk, &format!("section[id=b] {s}"), "id");
    assert_eq!(in_a("h2"), ["a:приклади", "5.1"]);
    assert_eq!(in_b("h2"), ["b:examples", "b:5.1"]);
    assert!(ids.contains("a:fn-1") && ids.contains("b:fn-1"));
    // links go where they go on the chapter pages, but on this page
    let hrefs = |s: &str| attrs(&uk, &format!("section[id={s}] a"), "href");
    let a = hrefs("a");
    assert!(a.contains(&"#5.1".to_string()), "{a:?}");
    assert!(a.contains(&"#b:examples".to_string()), "{a:?}");
    assert!(a.contains(&"#b".to_string()), "{a:?}");
    assert!(a.contains(&"#a:приклади".to_string()), "{a:?}");
    assert!(a.contains(&"#a:fn-1".to_string()), "{a:?}");
    let b = hrefs("b");
    assert!(b.contains(&"#b:examples".to_string()), "{b:?}");
    assert!(b.contains(&"#b:fn-1".to_string()), "{b:?}");
    // and the chapter pages themselves keep their plain ids
    let a_page = page(&out.join("uk/a/index.html"));
    assert_eq!(attrs(&a_page, "article h2", "id"), ["приклади", "5.1"]);
    assert!(attrs(&a_page, "article a", "href").contains(&"#fn-1".to_string()));
}
