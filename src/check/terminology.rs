//! Terminology: in translated text, a source-language glossary term left as it was, or a
//! glossary term that the translation renders differently from the glossary.
//!
//! Terms are compared as sequences of analyzer terms (the search analyzer's stems), so
//! `exhausted pools` matches `exhausted pool` and `виснаженого резерву` matches
//! `виснажений резерв`. Sections are paired by number across languages; text before the first
//! numbered section pairs with the other language's text before its first one.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

use rayon::prelude::*;

use super::units::{script_of, written_in, Unit};
use crate::diag::Diagnostic;
use crate::glossary::Glossary;
use crate::search::analyzer::tokenize;

/// Sections (number, line) where a term is missing.
type Places<'a> = Vec<(&'a str, usize)>;
/// A unit of a translation's section: whether it is translated, and its words' stems.
type OwnUnit<'a> = (bool, &'a [u32]);

/// A term as a sequence of stems, each stem interned as a number.
type Stems = Vec<u32>;

/// Words of a text as the analyzer would cut them, lower-cased but not yet stemmed. Splitting is
/// cheap; stemming is not, so [`Vocabulary`] stems each distinct word once.
fn raw_words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut w = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if super::units::is_word_char(c) || ('\u{300}'..='\u{36f}').contains(&c) || c == '\u{ad}' {
            w.push(c);
        } else if matches!(c, '\'' | '’' | 'ʼ' | '‘' | '`' | '´' | '′')
            && !w.is_empty()
            && chars.peek().is_some_and(|n| super::units::is_word_char(*n))
        {
            w.push('\'');
        } else if !w.is_empty() {
            out.push(std::mem::take(&mut w));
        }
    }
    if !w.is_empty() {
        out.push(w);
    }
    out
}

/// Every distinct word of the texts compared, with its analyzer terms as interned numbers.
struct Vocabulary {
    words: HashMap<String, Vec<u32>>,
}

impl Vocabulary {
    fn new<'a>(texts: impl ParallelIterator<Item = &'a str>) -> Vocabulary {
        let distinct: HashSet<String> = texts
            .fold(HashSet::new, |mut set, t| {
                set.extend(raw_words(t));
                set
            })
            .reduce(HashSet::new, |mut a, b| {
                a.extend(b);
                a
            });
        let stemmed: Vec<(String, Vec<String>)> = distinct
            .into_par_iter()
            .map(|w| {
                let terms = tokenize(&w).into_iter().map(|t| t.term).collect();
                (w, terms)
            })
            .collect();
        let mut ids: HashMap<String, u32> = HashMap::new();
        let mut words = HashMap::with_capacity(stemmed.len());
        for (w, terms) in stemmed {
            let seq = terms
                .into_iter()
                .map(|t| {
                    let n = ids.len() as u32;
                    *ids.entry(t).or_insert(n)
                })
                .collect();
            words.insert(w, seq);
        }
        Vocabulary { words }
    }

    fn stems(&self, text: &str) -> Stems {
        let mut out = Vec::new();
        for w in raw_words(text) {
            match self.words.get(&w) {
                Some(seq) => out.extend_from_slice(seq),
                // a word not seen when the vocabulary was made can match nothing
                None => out.push(u32::MAX),
            }
        }
        out
    }
}

/// The name of a term without a note in brackets: `ability (rulebook)` → `ability`.
fn bare(term: &str) -> &str {
    term.split(" (").next().unwrap_or(term).trim()
}

fn contains(haystack: &[u32], needle: &[u32]) -> bool {
    !needle.is_empty() && haystack.windows(needle.len()).any(|w| w == needle)
}

/// A long text's stems with where each one occurs, so that asking "does it contain this term"
/// for many terms looks only where the term's first stem is.
struct Positions<'a> {
    words: &'a [u32],
    at: HashMap<u32, Vec<usize>>,
}

impl<'a> Positions<'a> {
    fn new(words: &'a [u32]) -> Self {
        let mut at: HashMap<u32, Vec<usize>> = HashMap::new();
        for (i, w) in words.iter().enumerate() {
            at.entry(*w).or_default().push(i);
        }
        Positions { words, at }
    }

    fn contains(&self, needle: &[u32]) -> bool {
        let Some(first) = needle.first() else {
            return false;
        };
        self.at
            .get(first)
            .is_some_and(|v| v.iter().any(|&i| self.words[i..].starts_with(needle)))
    }
}

/// Finds which of a set of terms occur in a text, by their first stem.
struct Matcher {
    by_first: HashMap<u32, Vec<(usize, Stems)>>,
}

impl Matcher {
    fn new(terms: impl IntoIterator<Item = (usize, Stems)>) -> Self {
        let mut by_first: HashMap<u32, Vec<(usize, Stems)>> = HashMap::new();
        for (i, s) in terms {
            if let Some(f) = s.first() {
                by_first.entry(*f).or_default().push((i, s));
            }
        }
        Matcher { by_first }
    }

    /// The entries whose terms occur in `text`, leftmost longest first: a term inside a longer
    /// one that matches there is not found on its own (`exhaust` in `exhaustion token`, whose
    /// own translation is what the text must use). Terms of the same length at the same place
    /// are one group (`Exhaust (when referring to a card)` and `… to a die`, both `exhaust`):
    /// the text means one of them, so any one's translation will do. Groups are sorted, each
    /// once.
    fn find(&self, text: &[u32]) -> Vec<Vec<usize>> {
        let mut found: HashSet<Vec<usize>> = HashSet::new();
        let mut i = 0;
        while i < text.len() {
            let here: Vec<&(usize, Stems)> = (self.by_first.get(&text[i]).into_iter().flatten())
                .filter(|(_, s)| text[i..].starts_with(s))
                .collect();
            let longest = here.iter().map(|(_, s)| s.len()).max().unwrap_or(0);
            let mut group: Vec<usize> = (here.iter())
                .filter(|(_, s)| s.len() == longest)
                .map(|(id, _)| *id)
                .collect();
            group.sort_unstable();
            group.dedup();
            if !group.is_empty() {
                found.insert(group);
            }
            i += longest.max(1);
        }
        let mut groups: Vec<Vec<usize>> = found.into_iter().collect();
        groups.sort_unstable();
        groups
    }
}

/// One chapter to compare: the translation (`lang`, `units`, file) and its source units.
pub struct Pair<'a> {
    pub file: &'a Path,
    pub units: &'a [Unit],
    pub source_units: &'a [Unit],
}

/// Checks every chapter of `lang` translated from `source`.
pub fn check(
    lang: &str,
    source: &str,
    glossaries: &BTreeMap<String, Glossary>,
    pairs: &[Pair<'_>],
) -> Vec<Diagnostic> {
    let (Some(src_g), Some(script)) = (glossaries.get(source), script_of(lang)) else {
        return Vec::new();
    };
    let own_g = glossaries.get(lang);
    let glossary_texts: Vec<&str> = glossaries
        .values()
        .flat_map(|g| &g.entries)
        .flat_map(|e| std::iter::once(e.term.as_str()).chain(e.aliases.iter().map(String::as_str)))
        .collect();
    let vocab = Vocabulary::new(
        pairs
            .par_iter()
            .flat_map_iter(|p| {
                p.units
                    .iter()
                    .chain(p.source_units)
                    .map(|u| u.text.as_str())
            })
            .chain(glossary_texts.into_par_iter()),
    );
    let stems = |t: &str| vocab.stems(t);
    // Source terms (with their aliases), each pointing back at its entry.
    let mut src_terms: Vec<(usize, Stems)> = Vec::new();
    for (i, e) in src_g.entries.iter().enumerate() {
        for name in std::iter::once(&e.term).chain(&e.aliases) {
            let name = bare(name);
            let s: Stems = stems(name);
            // very short names (`DR`, `a`) match too much ordinary text to be useful
            if name.chars().filter(|c| c.is_alphanumeric()).count() >= 3 {
                src_terms.push((i, s));
            }
        }
    }
    // The translation of each source entry, where the glossary has one.
    let translations: Vec<Option<(String, Vec<Stems>)>> = src_g
        .entries
        .iter()
        .map(|e| {
            let o = own_g?.get(&e.key).or_else(|| {
                e.merged_keys
                    .iter()
                    .find_map(|k| own_g.and_then(|g| g.get(k)))
            })?;
            let forms: Vec<Stems> = std::iter::once(&o.term)
                .chain(&o.aliases)
                .map(|t| stems(bare(t)))
                .filter(|s| !s.is_empty())
                .collect();
            Some((bare(&o.term).to_string(), forms))
        })
        .collect();
    let mut src_terms_of: Vec<Vec<Stems>> = vec![Vec::new(); src_g.entries.len()];
    for (i, s) in &src_terms {
        src_terms_of[*i].push(s.clone());
    }
    let matcher = Matcher::new(src_terms);
    let forms_meet = matches!(lang.split('-').next().unwrap_or(lang), "uk" | "en");
    pairs
        .par_iter()
        .flat_map_iter(|p| {
            let mut out = Vec::new();
            let own_stems: Vec<Stems> = p.units.iter().map(|u| stems(&u.text)).collect();
            // 1. source terms left in the translated text
            for (u, words) in p.units.iter().zip(&own_stems) {
                if u.original || !written_in(&u.text, script) {
                    // an untranslated paragraph: coverage reports it; or one kept in the
                    // original on purpose (`<!-- keep original -->`)
                    continue;
                }
                for group in matcher.find(words) {
                    // a name the translation keeps on purpose (a title, a brand)
                    let kept = group.iter().any(|&i| {
                        (translations[i].as_ref())
                            .is_some_and(|(_, forms)| forms.iter().any(|f| contains(words, f)))
                    });
                    if kept {
                        continue;
                    }
                    // said once for the group, of the entry that has a translation
                    let i = (group.iter().copied())
                        .find(|&i| translations[i].is_some())
                        .unwrap_or(group[0]);
                    let e = &src_g.entries[i];
                    let hint = match &translations[i] {
                        Some((t, _)) => format!("; the glossary translates it as \"{t}\""),
                        None => "; the glossary has no translation for it yet".to_string(),
                    };
                    out.push(Diagnostic::warning(
                        "untranslated-term",
                        p.file,
                        u.line,
                        format!("{source} glossary term \"{}\" is left untranslated in {lang} text{hint}", bare(&e.term)),
                    ));
                }
            }
            // 2. glossary terms translated differently, section by section; one finding per
            // term and chapter, naming the sections. Only where the analyzer knows the
            // language's word forms (uk, en): in another, `tury` and `turze` never meet the
            // glossary's `Tura`, and every section would be said to lack it.
            if !forms_meet {
                return out;
            }
            // each section's units, source and own: their words, and whether the own one is
            // translated (an untranslated one still has the source's terms, which would count
            // as the term used)
            let mut src_sections: BTreeMap<&str, Vec<Vec<u32>>> = BTreeMap::new();
            for u in p.source_units {
                src_sections.entry(&u.section).or_default().push(stems(&u.text));
            }
            let mut own_sections: BTreeMap<&str, (usize, Vec<OwnUnit<'_>>)> = BTreeMap::new();
            for (u, words) in p.units.iter().zip(&own_stems) {
                let s = own_sections.entry(&u.section).or_insert((u.line, Vec::new()));
                s.1.push((u.original || written_in(&u.text, script), words));
            }
            // translation → (source term, [(section, line)])
            let mut missing: BTreeMap<String, (String, Places<'_>)> = BTreeMap::new();
            for (key, (line, units)) in &own_sections {
                let Some(src_units) = src_sections.get(key) else { continue };
                // A section translated in part is compared where it is: its translated units
                // with the source units they stand for, when the two have as many units (one
                // for one, in order). Otherwise which source text a unit translates is not
                // known, and the section waits until it is all translated.
                let pairs: Vec<usize> = if units.iter().all(|u| u.0) {
                    (0..src_units.len()).collect()
                } else if units.len() == src_units.len() {
                    (0..units.len()).filter(|&i| units[i].0).collect()
                } else {
                    continue;
                };
                let all = pairs.len() == src_units.len();
                let src_words: Vec<u32> = pairs.iter().flat_map(|&i| src_units[i].iter().copied()).collect();
                let words: Vec<u32> = if all {
                    units.iter().flat_map(|u| u.1.iter().copied()).collect()
                } else {
                    pairs.iter().flat_map(|&i| units[i].1.iter().copied()).collect()
                };
                let own = Positions::new(&words);
                for group in matcher.find(&src_words) {
                    // any entry of the group the text uses (its translation, or the source
                    // term left as it is, reported above as untranslated) is the term used
                    let used = group.iter().any(|&i| {
                        src_terms_of[i].iter().any(|f| own.contains(f))
                            || (translations[i].as_ref())
                                .is_some_and(|(_, forms)| forms.iter().any(|f| own.contains(f)))
                    });
                    if used {
                        continue;
                    }
                    let Some(i) = group.iter().copied().find(|&i| translations[i].is_some()) else {
                        continue;
                    };
                    let Some((t, _)) = &translations[i] else { continue };
                    let m = missing
                        .entry(t.clone())
                        .or_insert_with(|| (bare(&src_g.entries[i].term).to_string(), Vec::new()));
                    if !m.1.iter().any(|(k, _)| k == key) {
                        m.1.push((key, *line));
                    }
                }
            }
            // a chapter without numbered sections is one stretch of text, keyed ""
            let unnumbered = own_sections.keys().all(|k| k.is_empty());
            for (t, (term, places)) in missing {
                let names: Vec<String> = places
                    .iter()
                    .take(5)
                    .map(|(k, _)| match k.is_empty() {
                        true if unnumbered => "this chapter".to_string(),
                        true => "the opening text".to_string(),
                        false => format!("section {k}"),
                    })
                    .collect();
                let more = if places.len() > 5 { format!(" and {} more", places.len() - 5) } else { String::new() };
                out.push(Diagnostic::warning(
                    "inconsistent-term",
                    p.file,
                    places[0].1,
                    format!(
                        "the {source} text uses the glossary term \"{term}\" in {}{more}, but this translation never uses the glossary's \"{t}\" there",
                        names.join(", ")
                    ),
                ));
            }
            out
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_term_inside_a_longer_one_is_not_found_on_its_own() {
        // 0: exhaust, 1: exhaust token, 2: token, 3: exhaust (another entry, same stems)
        let m = Matcher::new([(0, vec![1]), (1, vec![1, 2]), (2, vec![2]), (3, vec![1])]);
        // the groups: entries of the same words at one place are one
        assert_eq!(m.find(&[9, 1, 2, 9]), [vec![1]]);
        assert_eq!(m.find(&[1, 9, 2]), [vec![0, 3], vec![2]]);
        assert_eq!(m.find(&[1, 2, 1]), [vec![0, 3], vec![1]]);
        assert!(m.find(&[9, 9]).is_empty());
    }

    fn g(lang: &str, json: &str) -> Glossary {
        let mut d = crate::diag::Diagnostics::default();
        crate::glossary::parse(json, lang, Path::new("g.json"), &mut d).unwrap()
    }

    fn u(text: &str, section: &str, line: usize) -> Unit {
        Unit {
            line,
            text: text.into(),
            section: section.into(),
            heading: false,
            original: false,
            targets: String::new(),
        }
    }

    #[test]
    fn a_language_without_word_forms_is_not_said_to_lack_its_terms() {
        let mut gs = BTreeMap::new();
        gs.insert(
            "en".to_string(),
            g("en", r#"{"turn": "A part of the game."}"#),
        );
        gs.insert(
            "pl".to_string(),
            g(
                "pl",
                r#"{"turn": {"term": "Tura", "definition": "Część gry."}}"#,
            ),
        );
        let src = vec![u("Players take turns.", "1.1.0", 3)];
        // `tury` is a form of `Tura` the analyzer does not know
        let own = vec![u("Gracze wykonują tury po kolei.", "1.1.0", 3)];
        let pairs = [Pair {
            file: Path::new("pl.md"),
            units: &own,
            source_units: &src,
        }];
        let d = check("pl", "en", &gs, &pairs);
        assert!(d.iter().all(|d| d.kind != "inconsistent-term"), "{d:?}");
    }

    #[test]
    fn finds_both_kinds() {
        let mut gs = BTreeMap::new();
        gs.insert(
            "en".to_string(),
            g(
                "en",
                r#"{"exhausted pool": "Where spent dice go.", "discard": "To put a card away."}"#,
            ),
        );
        gs.insert(
            "uk".to_string(),
            g("uk", r#"{"exhausted pool": {"term": "Виснажений резерв", "definition": "Куди йдуть кубики."}, "discard": {"term": "Скинути", "definition": "Відкласти карту."}}"#),
        );
        let src = vec![
            u("Move the dice to your exhausted pool.", "", 1),
            u("Discard a card.", "1.1.0", 3),
        ];
        let own = vec![
            u("Перемістіть кубики у ваш exhausted pool.", "", 1),
            u("Викиньте карту.", "1.1.0", 3),
        ];
        let pairs = [Pair {
            file: Path::new("uk.md"),
            units: &own,
            source_units: &src,
        }];
        let d = check("uk", "en", &gs, &pairs);
        let kinds: Vec<(&str, usize)> = d.iter().map(|d| (d.kind, d.line)).collect();
        assert!(kinds.contains(&("untranslated-term", 1)), "{d:?}");
        assert!(kinds.contains(&("inconsistent-term", 3)), "{d:?}");
        // inflected forms of the glossary's translation are the same term
        let own = vec![
            u("Перемістіть кубики до виснаженого резерву.", "", 1),
            u("Скиньте карту.", "1.1.0", 3),
        ];
        let pairs = [Pair {
            file: Path::new("uk.md"),
            units: &own,
            source_units: &src,
        }];
        let d = check("uk", "en", &gs, &pairs);
        assert!(d.iter().all(|d| d.kind != "untranslated-term"), "{d:?}");
        assert!(!d.iter().any(|d| d.line == 1), "{d:?}");
        // text kept in the original on purpose (`<!-- keep original -->`) is no finding
        let own = vec![Unit {
            original: true,
            targets: String::new(),
            ..u("Перемістіть кубики у ваш exhausted pool.", "", 1)
        }];
        let pairs = [Pair {
            file: Path::new("uk.md"),
            units: &own,
            source_units: &src[..1],
        }];
        let d = check("uk", "en", &gs, &pairs);
        assert!(d.is_empty(), "{d:?}");
    }
}
