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
    let index = match SearchIndex::open_current(site_root) {
        Some(i) => i,
        None => {
            let site = crate::site::load(site_root, None, diags).ok_or(SearchError::Content)?;
            if diags.has_errors() {
                return Err(SearchError::Content);
            }
            if let Some(l) = &opts.lang {
                check_lang(l, &site.config.languages)?;
            }
            let docs = super::docs::collect(&site);
            SearchIndex::build(site_root, &docs, &site.config.languages)
                .map_err(SearchError::Other)?
        }
    };
    if let Some(l) = &opts.lang {
        check_lang(l, &index.languages())?;
    }
    index
        .search(&opts.query, opts.lang.as_deref(), opts.limit)
        .map_err(|e| SearchError::Other(format!("search failed: {e}")))
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

/// The results as the terminal shows them.
pub fn format_text(hits: &[Hit]) -> String {
    let mut s = String::new();
    for (i, h) in hits.iter().enumerate() {
        let num = if h.section.is_empty() {
            String::new()
        } else {
            format!("{} ", h.section)
        };
        s.push_str(&format!(
            "{}. {num}{} — {} [{}] ({:.3})\n   {}\n",
            i + 1,
            h.title,
            h.chapter,
            h.lang,
            h.score,
            h.url
        ));
        if !h.snippet.is_empty() {
            s.push_str(&format!("   {}\n", h.snippet));
        }
    }
    s
}
