//! Fast term extraction for whole sites: [`super::analyzer::tokenize`] run once per distinct
//! whitespace-separated chunk and remembered. Words never span whitespace (whitespace ends a
//! word, and a mark after a space attaches to the space), so the terms of a text are the terms
//! of its chunks in order; a test checks that on random text. Rules text repeats its words
//! all the time, so nearly every chunk is found in the cache.
//!
//! The cache is shared by the threads that analyze the site: each thread keeps its own
//! lock-free table of the chunks it has seen (`web.rs` `Run`) and asks here only for chunks
//! new to it, so a chunk is analyzed once for the site, not once per thread's run (at 200
//! chapters, half of the analyzer's calls were chunks another run had already analyzed).

use std::sync::{Arc, RwLock};

use rustc_hash::FxHashMap;

use super::analyzer::tokenize;

/// Chunks remembered at most; past it the cache starts over, so memory stays bounded on any
/// input.
const MAX_CHUNKS: usize = 400_000;

/// Remembers the terms of the chunks seen so far; safe to share between threads.
#[derive(Default)]
pub struct TermCache {
    map: RwLock<FxHashMap<Box<str>, Arc<[String]>>>,
}

impl TermCache {
    /// The terms of `text`, in order (the same as `tokenize(text)`'s terms).
    pub fn terms(&self, text: &str, out: &mut Vec<String>) {
        for chunk in text.split(char::is_whitespace) {
            if chunk.is_empty() {
                continue;
            }
            // A poisoned lock only means another thread panicked mid-insert; the map is
            // still a valid map of correct entries.
            let known = self
                .map
                .read()
                .unwrap_or_else(|e| e.into_inner())
                .get(chunk)
                .cloned();
            let t = match known {
                Some(t) => t,
                None => {
                    let t: Arc<[String]> = tokenize(chunk).into_iter().map(|t| t.term).collect();
                    let mut map = self.map.write().unwrap_or_else(|e| e.into_inner());
                    if map.len() >= MAX_CHUNKS {
                        map.clear();
                    }
                    map.insert(chunk.into(), t.clone());
                    t
                }
            };
            out.extend(t.iter().cloned());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn direct(s: &str) -> Vec<String> {
        tokenize(s).into_iter().map(|t| t.term).collect()
    }

    fn cached(s: &str) -> Vec<String> {
        let c = TermCache::default();
        let mut out = Vec::new();
        c.terms(s, &mut out);
        // twice: the second time from the cache
        let mut again = Vec::new();
        c.terms(s, &mut again);
        assert_eq!(out, again);
        out
    }

    #[test]
    fn chunks_give_the_same_terms() {
        for s in [
            "ім’я гравця — 7.1.0 ро\u{301}зум",
            "a \u{301}b \u{AD}c ім' я",
            "  пломе\u{AD}некровний-воїн\tPlayer's\nturn ",
        ] {
            assert_eq!(cached(s), direct(s), "{s:?}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        #[test]
        fn random_text_gives_the_same_terms(s in "[а-яіїєґa-zA-Z0-9'’ʼ.\\-\u{301}\u{306}\u{AD} \t\n\u{A0}\u{2003}😀]{0,60}") {
            prop_assert_eq!(cached(&s), direct(&s));
        }
    }
}
