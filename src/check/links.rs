//! Links written as site addresses (`../glossary/#exhausted-pool`, `/en/setup/`) rather than as
//! chapter files or section numbers: the build passes them through, so `check` resolves them
//! against the pages the build writes and reports the ones that lead nowhere.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use pulldown_cmark::{Event, Parser, Tag};

use crate::diag::{Diagnostic, LineIndex};
use crate::html::has_scheme;
use crate::site::Site;

/// Every page and anchor the build writes: path below the site root (`uk/setup/`) → anchors
/// (`None`: a page whose anchors are not listed, the print view's), and the files it writes
/// beside the pages (`uk/sections.json`).
pub struct Targets {
    pages: HashMap<String, Option<HashSet<String>>>,
    files: HashSet<String>,
}

impl Targets {
    pub fn new(site: &Site) -> Targets {
        let mut pages: HashMap<String, Option<HashSet<String>>> = HashMap::new();
        pages.insert(String::new(), Some(HashSet::new()));
        let mut files: HashSet<String> = ["404.html", "robots.txt", "sitemap.xml", "sw.js"]
            .into_iter()
            .map(str::to_string)
            .collect();
        if site.config.cname.is_some() {
            files.insert("CNAME".to_string());
        }
        let index = site.page_index();
        for lang in &site.config.languages {
            pages.insert(format!("{lang}/"), Some(HashSet::new()));
            // the short addresses' page (`s/?7.1.0`) and the print view, whose ids are the
            // chapters' own renamed (print.rs)
            pages.insert(format!("{lang}/s/"), Some(HashSet::new()));
            pages.insert(format!("{lang}/print/"), None);
            files.insert(format!("{lang}/glossary.json"));
            files.insert(format!("{lang}/sections.json"));
            let mut g = HashSet::new();
            for gl in site.glossaries.values() {
                for e in &gl.entries {
                    g.insert(e.anchor.clone());
                    for k in std::iter::once(&e.key).chain(&e.merged_keys) {
                        g.insert(crate::glossary::alias_anchor(k));
                    }
                }
            }
            pages.insert(format!("{lang}/glossary/"), Some(g));
            for id in &site.order {
                if let Some((p, _)) = site.page_for(lang, id, &index) {
                    let mut a: HashSet<String> = p.prepared.anchors().map(str::to_string).collect();
                    a.extend(p.title_number.iter().cloned());
                    pages.insert(format!("{lang}/{id}/"), Some(a));
                }
            }
        }
        Targets { pages, files }
    }

    /// Checks the links of one chapter (`lang`/`id`); `body` starts on line `first_line`.
    pub fn check(
        &self,
        site: &Site,
        lang: &str,
        id: &str,
        body: &str,
        first_line: usize,
        file: &Path,
    ) -> Vec<Diagnostic> {
        let lines = LineIndex::new(body);
        let mut out = Vec::new();
        for (event, range) in Parser::new_ext(body, crate::markdown::options()).into_offset_iter() {
            let Event::Start(Tag::Link { dest_url, .. }) = event else {
                continue;
            };
            let d = dest_url.trim();
            if d.is_empty() || d.starts_with('#') || has_scheme(d) || d.starts_with("//") {
                continue; // section links, same-page anchors and other sites are checked elsewhere
            }
            let (path, frag) = match d.split_once('#') {
                Some((p, f)) => (p, Some(f)),
                None => (d, None),
            };
            let path = path.split('?').next().unwrap_or("");
            if path.ends_with(".md") {
                continue; // a chapter file: the build checks those
            }
            let line = lines.line(range.start) + first_line - 1;
            let Some(target) = resolve(&format!("{lang}/{id}/"), path) else {
                out.push(Diagnostic::warning(
                    "broken-link",
                    file,
                    line,
                    format!("link to `{d}` leaves the site"),
                ));
                continue;
            };
            if target.starts_with("static/") || target.starts_with("media/") {
                let exists = target
                    .strip_prefix("static/")
                    .is_some_and(|k| site.theme.static_files.contains_key(k))
                    || site.pages.values().flatten().any(|p| {
                        p.prepared
                            .images
                            .iter()
                            .any(|i| format!("media/{}", i.to) == target)
                    });
                if !exists {
                    out.push(Diagnostic::warning(
                        "broken-link",
                        file,
                        line,
                        format!("link to `{d}`: the site has no file {target}"),
                    ));
                }
                continue;
            }
            if self.files.contains(&target) {
                continue;
            }
            let key = if target.is_empty() || target.ends_with('/') {
                target.clone()
            } else if let Some(t) = target.strip_suffix("index.html") {
                t.to_string()
            } else {
                format!("{target}/")
            };
            match self.pages.get(&key) {
                None => out.push(Diagnostic::warning(
                    "broken-link",
                    file,
                    line,
                    format!("link to `{d}`: the site has no page /{key}"),
                )),
                Some(None) => {}
                Some(Some(anchors)) => {
                    if let Some(f) = frag.filter(|f| !f.is_empty()) {
                        let f = crate::markdown::percent_decode(f);
                        if !anchors.contains(&f) {
                            out.push(Diagnostic::warning(
                                "broken-anchor",
                                file,
                                line,
                                format!("link to `{d}`: page /{key} has no anchor `#{f}`"),
                            ));
                        }
                    }
                }
            }
        }
        out
    }
}

/// Resolves `href` written on the page at `page` (a path below the site root ending in `/`).
/// A leading `/` means the site root. `None` when the link climbs above the root.
pub fn resolve(page: &str, href: &str) -> Option<String> {
    let mut parts: Vec<&str> = if href.starts_with('/') {
        Vec::new()
    } else {
        page.split('/').filter(|s| !s.is_empty()).collect()
    };
    let trailing = href.ends_with('/')
        || href.is_empty()
        || href.ends_with("/.")
        || href.ends_with("/..")
        || href == "."
        || href == "..";
    for seg in href.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    let mut s = parts.join("/");
    if trailing && !s.is_empty() {
        s.push('/');
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::resolve;

    #[test]
    fn resolves_like_a_browser() {
        assert_eq!(resolve("uk/a/", "../b/").as_deref(), Some("uk/b/"));
        assert_eq!(
            resolve("uk/a/", "../glossary/").as_deref(),
            Some("uk/glossary/")
        );
        assert_eq!(resolve("uk/a/", "../../en/").as_deref(), Some("en/"));
        assert_eq!(
            resolve("uk/a/", "/static/x.css").as_deref(),
            Some("static/x.css")
        );
        assert_eq!(resolve("uk/a/", "../../../x"), None);
        assert_eq!(resolve("uk/a/", "../..").as_deref(), Some(""));
    }
}
