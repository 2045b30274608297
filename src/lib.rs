//! rulebook: a static site generator for bilingual game rules references.
//!
//! The pipeline, one module per stage:
//! - [`load`]: read `content/` (front matter, encodings) — with [`config`] and [`glossary`];
//! - [`site`]: resolve — render each chapter's Markdown once ([`markdown`]), collect the
//!   numbered [`sections`], and check cross-references ([`xref`], where `7.0.0` becomes a link);
//! - [`render`]: fill the templates of the [`theme`] for every page and language (and the
//!   single-page [`print`] view of each language), with the long [`lists`] ready-made; beside
//!   it, the browser's [`search`] index; last, the service worker ([`offline`]);
//! - [`output`]: write into a staging folder and swap it in, never touching what is not ours.
//!
//! Beside the pipeline: [`check`] (what a translator has left, with [`original`] for text kept
//! in its language on purpose), [`serve`] (the preview, rebuilding what an edit touches).

/// A line on standard error. A closed or full stream (the terminal gone, a script that read
/// what it wanted and closed its end, `2>/dev/full`) is no reason to stop serving, nor to
/// panic as `eprintln!` does (exit 101 instead of the exit code the line goes with).
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

pub mod autolink;
pub mod build;
pub mod bytes;
pub mod chars;
pub mod check;
pub mod config;
pub mod diag;
pub mod export;
pub mod glossary;
pub mod html;
pub mod init;
pub mod json;
pub mod language_names;
pub mod lean;
pub mod limits;
pub mod lists;
pub mod load;
pub mod markdown;
pub mod offline;
pub mod original;
pub mod output;
pub mod print;
pub mod reading;
pub mod reading_pages;
pub mod render;
pub mod search;
pub mod sections;
pub mod serve;
pub mod site;
pub mod stop;
pub mod symbols;
pub mod symlinks;
pub mod template_safety;
pub mod theme;
pub mod timing;
pub mod xref;
