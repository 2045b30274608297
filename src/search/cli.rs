//! `rulebook search`: opens the site's index (building it first when it is missing or the
//! content changed) and prints the ranked results, as text or as JSON.

use std::path::PathBuf;

use super::index::{Hit, SearchIndex};
use crate::diag::Diagnostics;

pub struct SearchOptions {
    pub site: PathBuf,
    pub query: String,
    pub lang: Option<String>,
    pub limit: usize,
}

#[derive(Debug)]
pub enum SearchError {
    /// The content has errors; they are in the diagnostics.
    Content,
    /// The command line asks for what the site does not have (`--lang de`).
    Usage(String),
    /// The site cannot be searched: no `content/`, or the index cannot be written or read.
    Other(String),
}

/// Runs one search. Findings of a (re)build of the index go to `diags`.
pub fn search(opts: &SearchOptions, diags: &mut Diagnostics) -> Result<Vec<Hit>, SearchError> {
    let site_root = opts.site.as_path();
    if !site_root.join("content").is_dir() {
        return Err(SearchError::Other(format!(
            "no content/ folder in {}; point --site at the folder that holds content/",
            site_root.display()
        )));
    }
    let (index, cached) = match SearchIndex::open_current(site_root) {
        Some(i) => (i, true),
        None => (build_index(opts, diags)?, false),
    };
    if let Some(l) = &opts.lang {
        check_lang(l, &index.languages())?;
    }
    let run = |index: &SearchIndex| index.search(&opts.query, opts.lang.as_deref(), opts.limit);
    match run(&index) {
        Ok(hits) => Ok(hits),
        // An index from the cache that opens but fails to read is damaged (a disk error, a
        // file edited by hand): built again, once, rather than failing every search until
        // the content changes.
        Err(_) if cached => {
            drop(index);
            let index = build_index(opts, diags)?;
            run(&index).map_err(|e| failed(site_root, e))
        }
        Err(e) => Err(failed(site_root, e)),
    }
}

/// The index of the site, built from its content (into the cache, replacing what is there).
fn build_index(opts: &SearchOptions, diags: &mut Diagnostics) -> Result<SearchIndex, SearchError> {
    let site = crate::site::load(&opts.site, None, diags).ok_or(SearchError::Content)?;
    if diags.has_errors() {
        return Err(SearchError::Content);
    }
    if let Some(l) = &opts.lang {
        check_lang(l, &site.config.languages)?;
    }
    let docs = super::docs::collect(&site);
    SearchIndex::build(&opts.site, &docs, &site.config.languages).map_err(SearchError::Other)
}

fn failed(site: &std::path::Path, e: tantivy::TantivyError) -> SearchError {
    SearchError::Other(format!(
        "search failed: {e}\nthe search index in {} may be damaged: delete that folder and \
         search again to build it anew",
        site.join(super::index::CACHE_DIR).display()
    ))
}

fn check_lang(lang: &str, languages: &[String]) -> Result<(), SearchError> {
    if languages.iter().any(|l| l == lang) {
        Ok(())
    } else {
        Err(SearchError::Usage(format!(
            "--lang {lang}: the site has no such language (it has {})",
            languages.join(", ")
        )))
    }
}

/// The results as the terminal shows them: every text from the content with its control
/// characters escaped (`diag::plain`), so an escape sequence in a title or a snippet is shown,
/// not run by the terminal. (`--json` escapes them as JSON does.)
pub fn format_text(hits: &[Hit]) -> String {
    use crate::diag::plain;
    let mut s = String::new();
    for (i, h) in hits.iter().enumerate() {
        let num = if h.section.is_empty() {
            String::new()
        } else {
            format!("{} ", plain(&h.section, false))
        };
        s.push_str(&format!(
            "{}. {num}{} — {} [{}] ({:.3})\n   {}\n",
            i + 1,
            plain(&h.title, false),
            plain(&h.chapter, false),
            h.lang,
            h.score,
            plain(&h.url, false)
        ));
        if !h.snippet.is_empty() {
            s.push_str(&format!("   {}\n", plain(&h.snippet, false)));
        }
    }
    s
}
