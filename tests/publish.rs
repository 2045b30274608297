//! Publishing on GitHub Pages: a build under a sub-path (`/repo/`) served locally with every
//! link resolving over HTTP, the Pages files (.nojekyll, bilingual 404, sitemap with hreflang,
//! robots.txt, CNAME), and the machine-readable exports.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use crate::common::*;

/// A copy of the default site (content only) with `site.yaml` changed by `edit`.
fn default_site(edit: impl Fn(&str) -> String) -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    for e in walkdir_files(&repo().join("content")) {
        let rel = e.strip_prefix(repo()).unwrap();
        let bytes = std::fs::read(&e).unwrap();
        write(t.path(), rel.to_str().unwrap(), &bytes);
    }
    let yaml = std::fs::read_to_string(t.path().join("content/site.yaml")).unwrap();
    write(t.path(), "content/site.yaml", edit(&yaml).as_bytes());
    t
}

fn walkdir_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out
}

/// Joins a link found on the page at URL path `page` (`/repo/uk/setup/`) into a URL path.
fn join(page: &str, href: &str) -> String {
    let href = href.split('#').next().unwrap().split('?').next().unwrap();
    if href.starts_with('/') {
        return href.to_string();
    }
    let mut parts: Vec<&str> = page.split('/').collect();
    parts.pop(); // the file name (empty for a folder)
    for seg in href.split('/') {
        match seg {
            "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    let mut s = parts.join("/");
    if href.is_empty() {
        s = page.to_string();
    }
    s
}

#[test]
fn sub_path_build_serves_with_every_link_resolving() {
    let s = default_site(|y| y.to_string());
    let r = run(&[
        "build",
        "--site",
        s.path().to_str().unwrap(),
        "--base-url",
        "/repo/",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = s.path().join("public");
    assert_links_resolve(&out);
    let server = StaticServer::start(&out, "/repo/");
    let addr = http::addr_of(&server.url);
    // crawl from the root page, following every link and asset inside /repo/
    let mut queue = vec!["/repo/".to_string(), "/repo/404.html".to_string()];
    let mut seen: HashSet<String> = queue.iter().cloned().collect();
    let mut ids: HashMap<String, HashSet<String>> = HashMap::new();
    let mut anchors: Vec<(String, String, String)> = Vec::new();
    let mut fetched = 0;
    while let Some(url) = queue.pop() {
        let resp = http::get(&addr, &url);
        fetched += 1;
        assert_eq!(
            resp.status, 200,
            "{url} (linked from the site) is {}",
            resp.status
        );
        if !(url.ends_with('/') || url.ends_with(".html")) {
            continue;
        }
        let doc = Html::parse_document(&resp.text());
        ids.insert(url.clone(), attrs(&doc, "[id]", "id").into_iter().collect());
        for (sel_, attr) in [
            ("a[href]", "href"),
            ("link[href]", "href"),
            ("script[src]", "src"),
            ("img[src]", "src"),
        ] {
            for href in attrs(&doc, sel_, attr) {
                if href.contains("://") || href.starts_with("mailto:") {
                    continue;
                }
                let target = if href.starts_with('#') {
                    url.clone()
                } else {
                    join(&url, &href)
                };
                assert!(
                    target.starts_with("/repo/"),
                    "{url}: link {href} leaves the sub-path ({target})"
                );
                if let Some(f) = href.split_once('#').map(|x| x.1).filter(|f| !f.is_empty()) {
                    anchors.push((url.clone(), target.clone(), percent_decode(f)));
                }
                if seen.insert(target.clone()) {
                    queue.push(target);
                }
            }
        }
    }
    assert!(fetched > 40, "only {fetched} URLs reached");
    for (from, target, frag) in anchors {
        if let Some(set) = ids.get(&target) {
            assert!(set.contains(&frag), "{from}: #{frag} not on {target}");
        }
    }
    // a missing page gets the bilingual 404 page, whose links work under the sub-path
    let nf = http::get(&addr, "/repo/uk/no-such-page/");
    assert_eq!(nf.status, 404);
    let doc = Html::parse_document(&nf.text());
    let langs = attrs(&doc, "section.not-found[lang]", "lang");
    assert_eq!(langs, ["uk", "en"]);
    for href in attrs(&doc, "section.not-found a", "href") {
        assert!(href.starts_with("/repo/"), "{href}");
        assert_eq!(http::get(&addr, &href).status, 200, "{href}");
    }
}

/// With a custom domain and the default `base_url: "/"`, the sitemap and `robots.txt` give
/// the domain's full addresses: a search engine takes no relative one (they were `/uk/`).
#[test]
fn a_custom_domain_makes_the_sitemap_absolute() {
    let s = default_site(|y| {
        y.replace(
            "base_url: \"/\"",
            "base_url: \"/\"\ncname: rules.example.org",
        )
    });
    build_ok(s.path());
    let out = s.path().join("public");
    let robots = std::fs::read_to_string(out.join("robots.txt")).unwrap();
    assert!(
        robots.contains("Sitemap: https://rules.example.org/sitemap.xml"),
        "{robots}"
    );
    let xml = std::fs::read_to_string(out.join("sitemap.xml")).unwrap();
    let locs: Vec<&str> = xml
        .split("<loc>")
        .skip(1)
        .map(|u| u.split("</loc>").next().unwrap())
        .collect();
    assert!(!locs.is_empty());
    for loc in locs {
        assert!(loc.starts_with("https://rules.example.org/"), "{loc}");
    }
    // so do a page's canonical and alternate addresses; its links stay relative
    let doc = page(&out.join("en/index.html"));
    assert_eq!(
        attrs(&doc, "link[rel=canonical]", "href"),
        ["https://rules.example.org/en/"]
    );
    assert_eq!(
        attrs(&doc, "link[rel=alternate][hreflang=uk]", "href"),
        ["https://rules.example.org/uk/"]
    );
    let links = attrs(&doc, "a[href]", "href");
    assert!(!links.is_empty());
    assert!(links
        .iter()
        .all(|h| !h.starts_with("https://rules.example.org")));
    // the Pages workflow's --base-url on another host is checked against the domain too (the
    // settings' base_url was, before the option replaced it)
    let dir = s.path().to_str().unwrap();
    let r = run(&[
        "build",
        "--site",
        dir,
        "--base-url",
        "https://example.github.io/repo/",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains("warning[bad-config]: --base-url: --base-url is on `example.github.io` but the site's custom domain (cname) is `rules.example.org`"),
        "{}",
        r.stderr
    );
    let r = run(&[
        "build",
        "--site",
        dir,
        "--base-url",
        "https://rules.example.org/",
    ]);
    assert!(!r.stderr.contains("bad-config"), "{}", r.stderr);
}

#[test]
fn pages_files_sitemap_robots_and_cname() {
    let s = default_site(|y| {
        y.replace(
            "base_url: \"/\"",
            "base_url: \"https://example.github.io/repo/\"\ncname: rules.example.org",
        )
    });
    build_ok(s.path());
    let out = s.path().join("public");
    assert!(out.join(".nojekyll").is_file());
    assert_eq!(
        std::fs::read_to_string(out.join("CNAME")).unwrap().trim(),
        "rules.example.org"
    );
    let robots = std::fs::read_to_string(out.join("robots.txt")).unwrap();
    assert!(
        robots.contains("Sitemap: https://example.github.io/repo/sitemap.xml"),
        "{robots}"
    );
    // the sitemap: every page of every language, each with all its language alternates
    let xml = std::fs::read_to_string(out.join("sitemap.xml")).unwrap();
    // (scraper parses HTML, not XML namespaces: read the few fields by hand)
    let attr = |tag: &str, name: &str| -> String {
        let i = tag.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
        tag[i..].split('"').next().unwrap().to_string()
    };
    let urls: Vec<&str> = xml.split("<url>").skip(1).collect();
    // every page but the short-address page (`en/s/`), which only redirects, and the print
    // view (`en/print/`), which repeats every chapter: neither is for search engines
    let chapters = files_with_ext(&out.join("en"), "html")
        .iter()
        .filter(|p| !p.starts_with(out.join("en/s")) && !p.starts_with(out.join("en/print")))
        .count();
    assert_eq!(urls.len(), 2 * chapters, "one <url> per page and language");
    for u in &urls {
        let loc = u
            .split("<loc>")
            .nth(1)
            .unwrap()
            .split("</loc>")
            .next()
            .unwrap();
        assert!(loc.starts_with("https://example.github.io/repo/"), "{loc}");
        let alts: Vec<(String, String)> = u
            .split("<xhtml:link ")
            .skip(1)
            .map(|l| {
                assert!(l.contains("rel=\"alternate\""), "{l}");
                (attr(l, "hreflang"), attr(l, "href"))
            })
            .collect();
        assert_eq!(
            alts.iter().map(|a| a.0.as_str()).collect::<Vec<_>>(),
            ["uk", "en"],
            "{loc}"
        );
        assert!(
            alts.iter().any(|a| a.1 == loc),
            "{loc} is one of its own alternates"
        );
        for (_, href) in &alts {
            let rel = href.trim_start_matches("https://example.github.io/repo/");
            assert!(out.join(rel).join("index.html").is_file(), "{href}");
        }
    }
    // the 404 page speaks both languages and links from base_url
    let nf = page(&out.join("404.html"));
    assert_eq!(attrs(&nf, "section.not-found[lang]", "lang"), ["uk", "en"]);
    for h in attrs(&nf, "section.not-found a", "href") {
        assert!(h.starts_with("https://example.github.io/repo/"), "{h}");
    }
    // it is no page of the site's: no canonical address, no language versions (it named the
    // Ukrainian contents page as both)
    assert!(attrs(&nf, "link[rel=canonical], link[rel=alternate]", "href").is_empty());
    let contents = page(&out.join("uk/index.html"));
    assert_eq!(attrs(&contents, "link[rel=canonical]", "href").len(), 1);
    // without cname there is no CNAME file
    let plain = default_site(|y| y.to_string());
    build_ok(plain.path());
    assert!(!plain.path().join("public/CNAME").exists());
}

#[test]
fn exports_glossary_in_the_seed_format_and_sections() {
    let s = default_site(|y| y.to_string());
    build_ok(s.path());
    let out = s.path().join("public");
    // every plain entry of the English glossary comes back exactly as it was written
    let seed: serde_json::Map<String, serde_json::Value> = serde_json::from_str(
        &std::fs::read_to_string(repo().join("content/en/glossary.json")).unwrap(),
    )
    .unwrap();
    let export: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(out.join("en/glossary.json")).unwrap())
            .unwrap();
    let mut plain = 0;
    for (k, v) in &seed {
        if let Some(def) = v.as_str() {
            assert_eq!(export.get(k).and_then(|x| x.as_str()), Some(def), "{k}");
            plain += 1;
        }
    }
    assert!(plain > 10);
    assert!(
        export.values().all(|v| v.is_string()),
        "only term → definition"
    );
    // the Ukrainian glossary is keyed by Ukrainian terms
    let uk: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(out.join("uk/glossary.json")).unwrap())
            .unwrap();
    assert!(uk.keys().any(|k| k
        .chars()
        .any(|c| ('а'..='я').contains(&c.to_lowercase().next().unwrap()))));
    // sections: number, title, URL, text, and every URL leads to that heading
    for lang in ["uk", "en"] {
        let v: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(out.join(format!("{lang}/sections.json"))).unwrap(),
        )
        .unwrap();
        let list = v.as_array().unwrap();
        assert!(!list.is_empty());
        for s in list {
            let url = s["url"].as_str().unwrap();
            let (path, frag) = url.split_once('#').unwrap_or((url, ""));
            let file = out.join(path.trim_start_matches('/')).join("index.html");
            let doc = page(&file);
            if !frag.is_empty() {
                assert_eq!(
                    attrs(&doc, &format!("[id=\"{frag}\"]"), "id").len(),
                    1,
                    "{url}"
                );
            }
            assert!(s["title"].is_string() && s["text"].is_string());
            assert!(s["text"].as_str().unwrap().chars().count() <= 81);
        }
    }
    let en: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("en/sections.json")).unwrap())
            .unwrap();
    assert!(
        en.as_array()
            .unwrap()
            .iter()
            .any(|s| s["number"] == "7.1.0"),
        "numbered sections are listed"
    );
}
