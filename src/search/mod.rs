//! Search: the analyzer shared with the browser, the documents, the ranking rules, the
//! command line's tantivy index and the browser's sharded index.

pub mod analyzer;
pub mod cli;
pub mod docs;
pub mod index;
pub mod rank;
pub mod read_only;
pub mod snippet;
pub mod stem_uk;
pub mod terms;
pub mod web;
