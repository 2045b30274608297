//! Fast term extraction for whole sites: [`super::analyzer::tokenize`] run once per distinct
//! whitespace-separated chunk and remembered. Words never span whitespace (whitespace ends a
//! word, and a mark after a space attaches to the space), so the terms of a text are the terms
//! of its chunks in order; a test checks that on random text. Rules text repeats its words
//! all the time, so nearly every chunk is found in the cache.

use std::collections::HashMap;

use super::analyzer::tokenize;

/// Remembers the terms of the chunks seen so far.
#[derive(Default)]
pub struct TermCache {
    map: HashMap<String, Vec<String>>,
}

impl TermCache {
    /// The terms of `text`, in order (the same as `tokenize(text)`'s terms).
    pub fn terms(&mut self, text: &str, out: &mut Vec<String>) {
        for chunk in text.split(char::is_whitespace) {
            if chunk.is_empty() {
                continue;
            }
            if let Some(t) = self.map.get(chunk) {
                out.extend(t.iter().cloned());
                continue;
            }
            let t: Vec<String> = tokenize(chunk).into_iter().map(|t| t.term).collect();
            out.extend(t.iter().cloned());
            if self.map.len() > 200_000 {
                self.map.clear();
            }
            self.map.insert(chunk.to_string(), t);
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
        let mut c = TermCache::default();
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
