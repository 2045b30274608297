//! Glossary terms in running text: which words of a chapter name a glossary entry.
//!
//! Terms are matched by *stem*, with the search analyzer's stemmers
//! ([`crate::search::analyzer::stem_word`]), so `жетонів ран` finds *Жетон рани* and
//! `exhausted dice` finds *Exhausted Dice*. The longest phrase wins (`exhausted dice pool`
//! before `exhausted`).
//!
//! This runs on every text event of every chapter, so it must be cheap: the analyzer's full
//! tokenizer (clusters, NFC) is far too slow for the whole corpus. Instead words are cut here
//! and looked up as written in a per-thread cache; a word not seen before is lower-cased, and
//! stemmed only when its first three letters could begin a term's stem (a 64 KiB-bit filter).
//! A stem is (nearly always) a prefix of its word, which is what makes the filter sound; the
//! exceptions are covered: Porter2's suffix rewrite (`y` → `i`) by also entering the `y` form,
//! the Ukrainian stemmer's irregular words (`бою` of `бій`) by entering them, and a word with
//! an apostrophe, which the Ukrainian stemmer drops, by stemming it whatever its first letters.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::glossary::{alias_anchor, Glossary};
use crate::search::analyzer::{stem_word, tokenize};

/// A term found in text: byte range and the term's id (see [`TermMatcher::anchor`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hit {
    pub start: usize,
    pub end: usize,
    pub term: u32,
}

/// A small multiplicative hasher: the maps here are probed once per word of the corpus, and
/// their keys are short words, not attacker-chosen input that would need SipHash.
#[derive(Default, Clone, Copy)]
pub struct WordHasher(u64);

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            self.0 = (self.0.rotate_left(5) ^ crate::bytes::load_le(chunk))
                .wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.0 = (self.0.rotate_left(5) ^ i as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u32(&mut self, i: u32) {
        self.0 = (self.0.rotate_left(5) ^ i as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<WordHasher>>;

/// Lower case of one character, with the scripts of our texts done without Unicode tables.
fn lower(c: char, out: &mut String) {
    match c {
        'A'..='Z' => out.push(c.to_ascii_lowercase()),
        'a'..='z' | '0'..='9' | 'а'..='я' | 'ѐ'..='џ' => out.push(c),
        'А'..='Я' => out.push(char::from_u32(c as u32 + 32).unwrap_or(c)),
        'Ѐ'..='Џ' => out.push(char::from_u32(c as u32 + 80).unwrap_or(c)),
        'ґ' | 'Ґ' => out.push('г'),
        _ => out.extend(c.to_lowercase()),
    }
}

fn is_word_char(c: char) -> bool {
    match c as u32 {
        0..=0x7f => c.is_ascii_alphanumeric(),
        // Cyrillic letters (not the combining marks and signs in the middle of the block)
        0x400..=0x481 | 0x48a..=0x52f => true,
        _ => c.is_alphanumeric(),
    }
}

/// Every linkable phrase of one language's glossary.
#[derive(Debug, Default)]
pub struct TermMatcher {
    /// Stem → token id, for every stem that occurs in a phrase.
    ids: FastMap<String, u32>,
    /// First token id → phrases starting with it (token ids, term id, the phrase as written,
    /// folded), longest first. Two entries may have a phrase of the same stems (`exhaust`,
    /// `exhausted`): both are kept, and the words as written choose.
    phrases: FastMap<u32, Vec<Phrase>>,
    /// Bit filter over the first three characters of every stem.
    filter: Vec<u64>,
    /// Stems shorter than three characters exist (their full text is in the filter).
    short: [bool; 3],
    /// Per term id: the glossary anchor every language's glossary page has for it.
    anchors: Vec<String>,
    /// Per term id: whether it is one word (only one-word terms can be "too common").
    single: Vec<bool>,
    /// Tells this matcher's words apart in the per-thread cache.
    serial: u64,
}

static SERIAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// Most distinct words a thread remembers before starting afresh.
const CACHE_WORDS: usize = 1 << 18;

thread_local! {
    /// One cache per worker thread, kept across chapters: a rules text uses the same few
    /// thousand words everywhere, so most words are stemmed once per thread, not per chapter.
    static CACHE: std::cell::RefCell<(u64, WordCache)> = std::cell::RefCell::new((0, WordCache::default()));
}

const FILTER_BITS: u64 = 1 << 16;

fn prefix_hash(chars: &[char]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &c in chars {
        h ^= c as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h ^ (chars.len() as u64) << 40
}

/// One phrase of an entry: its token ids, the entry's term id, the phrase as written (folded),
/// and whether another entry has a phrase of the same ids (only then do the words as written
/// choose between them).
type Phrase = (Vec<u32>, u32, String, bool);

/// The phrases an entry is found by: its term and aliases, with a parenthesised remark
/// dropped (`Exhaust (when referring to a card)`), `aka`/`або` asides made aliases, and
/// slash alternatives split (`active dice pool / active pool`, `reaction ability/effect`).
pub fn phrases_of(term: &str, aliases: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for name in std::iter::once(term).chain(aliases.iter().map(String::as_str)) {
        let mut main = String::new();
        let mut depth = 0;
        let mut aside = String::new();
        for c in name.chars() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth = 0;
                    let a = aside.trim();
                    for lead in ["aka ", "або ", "or "] {
                        if let Some(rest) = a.strip_prefix(lead) {
                            out.push(rest.trim().to_string());
                        }
                    }
                    aside.clear();
                }
                _ if depth > 0 => aside.push(c),
                _ => main.push(c),
            }
        }
        let alts: Vec<&str> = main
            .split('/')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect();
        let Some(first) = alts.first() else { continue };
        out.push(first.to_string());
        let head: Vec<&str> = first.split_whitespace().collect();
        for alt in &alts[1..] {
            if !alt.contains(' ') && head.len() > 1 {
                // `reaction ability/effect`: the alternative replaces the last word
                let mut p = head[..head.len() - 1].join(" ");
                p.push(' ');
                p.push_str(alt);
                out.push(p);
            } else {
                out.push(alt.to_string());
            }
        }
    }
    out.retain(|p| !p.trim().is_empty());
    out.sort();
    out.dedup();
    out
}

impl TermMatcher {
    pub fn new(g: &Glossary) -> TermMatcher {
        let mut m = TermMatcher {
            filter: vec![0; (FILTER_BITS / 64) as usize],
            serial: SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            ..TermMatcher::default()
        };
        for e in &g.entries {
            if !e.autolink {
                continue;
            }
            let id = m.anchors.len() as u32;
            // the key's anchor, but for a key named like an id of the glossary page itself
            // (`main`), which the entry does not get (glossary.rs `PAGE_IDS`)
            let key_anchor = alias_anchor(&e.key);
            m.anchors.push(
                if crate::glossary::PAGE_IDS.contains(&key_anchor.as_str()) {
                    e.anchor.clone()
                } else {
                    key_anchor
                },
            );
            let mut single = true;
            for p in phrases_of(&e.term, &e.aliases) {
                let toks: Vec<String> = tokenize(&p).into_iter().map(|t| t.term).collect();
                // one-letter terms (`X`) are never words worth a link
                if toks.is_empty() || (toks.len() == 1 && toks[0].chars().count() < 2) {
                    continue;
                }
                single &= toks.len() == 1;
                let ids: Vec<u32> = toks.iter().map(|t| m.intern(t)).collect();
                let written = folded(&p);
                let list = m.phrases.entry(ids[0]).or_default();
                if !list.iter().any(|(p, _, w, _)| *p == ids && *w == written) {
                    list.push((ids, id, written, false));
                }
            }
            m.single.push(single);
        }
        for list in m.phrases.values_mut() {
            // longest first; among equals, the earlier entry of the file
            list.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.1.cmp(&b.1)));
            // one entry's spellings of the same stems stay (`current / currently`): the
            // English words as written choose among them (`english_forms_agree`)
            list.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1 && a.2 == b.2);
            for k in 0..list.len() {
                let twins =
                    (0..list.len()).any(|j| list[j].1 != list[k].1 && list[j].0 == list[k].0);
                list[k].3 = twins;
            }
        }
        m
    }

    fn intern(&mut self, stem: &str) -> u32 {
        if let Some(&i) = self.ids.get(stem) {
            return i;
        }
        let i = self.ids.len() as u32;
        self.ids.insert(stem.to_string(), i);
        let chars: Vec<char> = stem.chars().collect();
        self.mark(&chars);
        // `бою` is a word of the stem `бій`: its own first letters pass the filter
        for form in crate::search::stem_uk::irregular_forms(stem) {
            self.mark(&form.chars().collect::<Vec<_>>());
        }
        // Porter2 turns a final `y` into `i` (`ready` → `readi`): the word has the `y`
        if chars.len() <= 3 && chars.last() == Some(&'i') {
            let mut y = chars.clone();
            *y.last_mut().unwrap() = 'y';
            self.mark(&y);
        }
        i
    }

    fn mark(&mut self, chars: &[char]) {
        let n = chars.len().min(3);
        if n < 3 {
            self.short[n] = true;
        }
        let h = prefix_hash(&chars[..n]) % FILTER_BITS;
        self.filter[(h / 64) as usize] |= 1 << (h % 64);
    }

    fn maybe(&self, chars: &[char]) -> bool {
        let probe = |n: usize| {
            let h = prefix_hash(&chars[..n]) % FILTER_BITS;
            self.filter[(h / 64) as usize] & (1 << (h % 64)) != 0
        };
        (chars.len() >= 3 && probe(3))
            || (1..3).any(|n| self.short[n] && chars.len() >= n && probe(n))
    }

    pub fn is_empty(&self) -> bool {
        self.phrases.is_empty()
    }

    /// Number of term ids.
    pub fn len(&self) -> usize {
        self.anchors.len()
    }

    /// The glossary anchor of a term id.
    pub fn anchor(&self, term: u32) -> &str {
        &self.anchors[term as usize]
    }

    /// Whether a term id is a single word.
    pub fn single_word(&self, term: u32) -> bool {
        self.single[term as usize]
    }

    /// [`Self::find`] with this thread's word cache.
    pub fn find_cached(&self, text: &str) -> Vec<Hit> {
        CACHE.with(|c| {
            let mut c = c.borrow_mut();
            if c.0 != self.serial || c.1.seen.len() > CACHE_WORDS {
                *c = (self.serial, WordCache::default());
            }
            self.find(text, &mut c.1)
        })
    }

    /// Finds the terms in one run of text, longest match first, left to right.
    /// `cache` maps lower-cased words to their token id; keep one per chapter.
    ///
    /// The text is walked by bytes: ASCII (spaces, punctuation, English words) needs no UTF-8
    /// decoding, and the two lead bytes of the Cyrillic letters are told apart without it. A
    /// word is only marked here; it is lower-cased (into the cache's buffer, the key looked up)
    /// only when its first letters pass the filter: this loop sees every character of the
    /// corpus, and most words are no term's.
    pub fn find(&self, text: &str, cache: &mut WordCache) -> Vec<Hit> {
        let mut hits = Vec::new();
        if self.is_empty() {
            return hits;
        }
        // words: (start, end, token id or none); a gap that is not plain space ends a phrase
        let mut words = std::mem::take(&mut cache.words);
        words.clear();
        let bytes = text.as_bytes();
        let mut start = None;
        let mut joined = true;
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if WORD_STEP[b as usize] != 0 {
                start.get_or_insert(i);
                i = skip_letters(bytes, i);
                continue;
            }
            if b < 0x80 {
                // an apostrophe inside a word, before a letter, is part of it
                if b == b'\'' && start.is_some() && next_is_alphabetic(text, i + 1) {
                    i += 1;
                    continue;
                }
                if let Some(s) = start.take() {
                    words.push((s, i, self.word_id(&text[s..i], cache), joined));
                    joined = true;
                }
                if !b.is_ascii_whitespace() && b != 0x0b {
                    joined = false;
                }
                i += 1;
                continue;
            }
            let c = text[i..]
                .chars()
                .next()
                .unwrap_or(char::REPLACEMENT_CHARACTER);
            let len = c.len_utf8();
            let letter = is_word_char(c);
            let apostrophe =
                matches!(c, '’' | 'ʼ') && start.is_some() && next_is_alphabetic(text, i + len);
            if letter || apostrophe {
                start.get_or_insert(i);
                i += len;
                continue;
            }
            if let Some(s) = start.take() {
                words.push((s, i, self.word_id(&text[s..i], cache), joined));
                joined = true;
            }
            if !c.is_whitespace() {
                joined = false;
            }
            i += len;
        }
        if let Some(s) = start {
            words.push((s, text.len(), self.word_id(&text[s..], cache), joined));
        }
        let mut i = 0;
        while i < words.len() {
            let Some(first) = words[i].2 else {
                i += 1;
                continue;
            };
            let mut matched: Option<(usize, u32)> = None;
            if let Some(list) = self.phrases.get(&first) {
                let mut as_written = None;
                for (ids, term, phrase, twins) in list {
                    let n = ids.len();
                    if i + n > words.len() || matched.is_some_and(|(m, _)| m != n) {
                        continue;
                    }
                    let ok = (1..n).all(|k| words[i + k].3 && words[i + k].2 == Some(ids[k]));
                    if !ok || !english_forms_agree(text, &words[i..i + n], phrase) {
                        continue;
                    }
                    // the first entry of the file, unless another of the same stems is
                    // written just so (`exhausted` is the `exhausted` entry, not `exhaust`)
                    if matched.is_none() {
                        matched = Some((n, *term));
                        if !twins {
                            break;
                        }
                    } else if as_written.is_none() {
                        as_written = Some(folded(&text[words[i].0..words[i + n - 1].1]));
                    }
                    if let Some(w) = &as_written {
                        if w == phrase {
                            matched = Some((n, *term));
                            break;
                        }
                    }
                }
            }
            match matched {
                Some((n, term)) => {
                    hits.push(Hit {
                        start: words[i].0,
                        end: words[i + n - 1].1,
                        term,
                    });
                    i += n;
                }
                None => i += 1,
            }
        }
        cache.words = words;
        hits
    }

    /// The token id of a word as written (letters, and apostrophes between them), if its
    /// lower case is a stem of some phrase. The cache is keyed by the word as written, so the
    /// words seen before (nearly all of them) are looked up without being lower-cased.
    fn word_id(&self, written: &str, cache: &mut WordCache) -> Option<u32> {
        if let Some(v) = cache.seen.get(written) {
            return *v;
        }
        if !folds_alone(written) {
            // The phrases' stems come from the full analyzer, which also drops accents
            // (`główna` is `glowna`, as in search) and maps look-alikes in a Cyrillic word;
            // the quick folding below does neither, so such a word takes the same road as
            // the phrases. Rare words, and each is worked out once.
            let toks = tokenize(written);
            let id = match toks.as_slice() {
                [t] => self.ids.get(&t.term).copied(),
                _ => None,
            };
            cache.seen.insert(written.to_string(), id);
            return id;
        }
        let word = &mut cache.word;
        word.clear();
        for c in written.chars() {
            fold_into(c, word);
        }
        let mut head = ['\0'; 3];
        let mut n = 0;
        for c in word.chars().take(3) {
            head[n] = c;
            n += 1;
        }
        // A Ukrainian stem has no apostrophe (`п'ятірка` is `пятірк`), so the first letters of
        // such a word as written say nothing of its stem: it is always stemmed (few words have
        // one, and each is worked out once).
        let id = if word.contains('\'') || self.maybe(&head[..n]) {
            self.ids.get(&stem_word(word)).copied()
        } else {
            None
        };
        cache.seen.insert(written.to_string(), id);
        id
    }
}

/// Whether the English words of a match are forms of the phrase's words, not other words of
/// the same stem: Porter2 gives `activate` and `active` one stem (`activ`), so `activate dice`
/// was *Active Dice*, and `exhaust dice` *Exhausted Dice*. A word matches its phrase word
/// written alike but for the plural (`token`, `tokens`, `abilities`) and, past the phrase
/// word's whole letters (less a final `e`, or with `y` as `i`), the endings `-ed`, `-ing`,
/// `-er`: `exhausted` and `exhausting` are *Exhaust*, `activate` is no *Active*. Other
/// scripts, and words that are not plain Latin letters, keep the stem's match.
fn english_forms_agree(
    text: &str,
    words: &[(usize, usize, Option<u32>, bool)],
    phrase: &str,
) -> bool {
    // Every match passes here (hundreds of thousands in a large site): a phrase of another
    // script, and a word written as its phrase word, cost no folding.
    if !phrase.is_ascii() || phrase.split(' ').count() != words.len() {
        return true; // or the phrase is cut into words otherwise (`ceremonial-power`)
    }
    let latin = |w: &str| w.bytes().all(|b| b.is_ascii_lowercase() || b == b'\'');
    phrase.split(' ').zip(words).all(|(base, &(s, e, _, _))| {
        let written = &text[s..e];
        if written.eq_ignore_ascii_case(base) || !latin(base) {
            return true;
        }
        let mut w = String::with_capacity(written.len());
        for c in written.chars() {
            fold_into(c, &mut w);
        }
        !latin(&w) || english_form_of(&w, base)
    })
}

/// Whether `word` is `base` or an inflection of it (both lower case Latin; see
/// [`english_forms_agree`]).
fn english_form_of(word: &str, base: &str) -> bool {
    let (w, b) = (singular(word), singular(base));
    if w == b {
        return true;
    }
    // past a root of the base word: its whole letters; less a final `e` (`place`, `placing`);
    // with `y` as `i` (`ready`, `readied`); with its last consonant doubled (`stop`, `stopped`)
    let ending = |rest: &str| matches!(rest, "ed" | "d" | "ing" | "er" | "ers");
    let past = |root: &str| w.strip_prefix(root);
    past(&b).is_some_and(ending)
        || b.strip_suffix('e').and_then(past).is_some_and(ending)
        || (b.strip_suffix('y').and_then(past))
            .and_then(|r| r.strip_prefix('i'))
            .is_some_and(ending)
        || (b.chars().last().filter(|c| !"aeiouwxy".contains(*c)))
            .and_then(|last| past(&b).and_then(|r| r.strip_prefix(last)))
            .is_some_and(ending)
}

/// An English word without its plural or possessive ending (`abilities` → `ability`,
/// `tokens` → `token`, `player's` → `player`); other words as they are.
fn singular(w: &str) -> std::borrow::Cow<'_, str> {
    let w = w
        .strip_suffix("'s")
        .or_else(|| w.strip_suffix("s'"))
        .unwrap_or(w);
    if let Some(r) = w.strip_suffix("ies").filter(|r| r.len() > 1) {
        return format!("{r}y").into();
    }
    for end in ["sses", "xes", "zes", "ches", "shes"] {
        if w.ends_with(end) {
            return w[..w.len() - 2].into();
        }
    }
    match w.strip_suffix('s') {
        Some(r) if !r.ends_with('s') && !r.ends_with('u') && !r.ends_with('i') && r.len() > 2 => {
            r.into()
        }
        _ => w.into(),
    }
}

/// A character of a word as matched: lower case, and every apostrophe the ASCII one.
/// A phrase as the words of text are compared: folded letter by letter, one space between words.
fn folded(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (k, w) in text.split_whitespace().enumerate() {
        if k > 0 {
            out.push(' ');
        }
        for c in w.chars() {
            fold_into(c, &mut out);
        }
    }
    out
}

fn fold_into(c: char, out: &mut String) {
    match c {
        '\'' | '’' | 'ʼ' => out.push('\''),
        _ => lower(c, out),
    }
}

/// For each byte that starts a character of a word in the common case, how long that
/// character is: 1 for an ASCII letter or digit, 2 for the lead bytes `D0` and `D1` (the
/// Cyrillic letters U+0400..U+047F, all letters); 0 for any other byte, which
/// [`TermMatcher::find`] looks at more closely.
const WORD_STEP: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() {
            t[b] = 1;
        } else if c == 0xd0 || c == 0xd1 {
            t[b] = 2;
        }
        b += 1;
    }
    t
};

/// Where the run of [`WORD_STEP`] characters from `i` ends: one table look-up a character.
/// Every letter of the site passes here, and most words are made only of such characters
/// (a byte at a time, with a branch per kind of byte, this loop was most of `find`'s own
/// instructions: 98 M of a build's 2,052 M at 200 chapters; 51 M now).
fn skip_letters(bytes: &[u8], mut i: usize) -> usize {
    while let Some(&b) = bytes.get(i) {
        let step = WORD_STEP[b as usize];
        if step == 0 {
            break;
        }
        i += usize::from(step);
    }
    i
}

/// Whether [`fold_into`] and [`stem_word`] give a word the term the full analyzer gives it:
/// a word of ASCII letters and digits, or of Cyrillic letters, with apostrophes between
/// them. Any other letter may carry a mark the analyzer drops (`ó`, `é`), and a word of both
/// scripts has look-alikes it maps.
fn folds_alone(word: &str) -> bool {
    let apostrophe = |c: char| matches!(c, '\'' | '’' | 'ʼ');
    word.chars()
        .all(|c| c.is_ascii_alphanumeric() || apostrophe(c))
        || word
            .chars()
            .all(|c| matches!(c, '\u{400}'..='\u{481}' | '\u{48a}'..='\u{52f}') || apostrophe(c))
}

/// Whether the character at byte `at` of `text` is a letter (false at the end).
fn next_is_alphabetic(text: &str, at: usize) -> bool {
    text.get(at..)
        .and_then(|r| r.chars().next())
        .is_some_and(char::is_alphabetic)
}

/// Word as written → token id (or none): stemming is the expensive part, and a chapter
/// repeats its words. Also the scratch buffers of [`TermMatcher::find`].
#[derive(Default)]
pub struct WordCache {
    seen: FastMap<String, Option<u32>>,
    word: String,
    words: Vec<(usize, usize, Option<u32>, bool)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glossary(json: &str) -> Glossary {
        let mut d = crate::diag::Diagnostics::default();
        crate::glossary::parse(json, "x", std::path::Path::new("g.json"), &mut d).unwrap()
    }

    fn found(m: &TermMatcher, text: &str) -> Vec<(String, String)> {
        m.find(text, &mut WordCache::default())
            .into_iter()
            .map(|h| {
                (
                    text[h.start..h.end].to_string(),
                    m.anchor(h.term).to_string(),
                )
            })
            .collect()
    }

    #[test]
    fn inflected_ukrainian_forms() {
        let m = TermMatcher::new(&glossary(
            r#"{"wound token": {"term": "Жетон рани", "definition": "d"}}"#,
        ));
        assert_eq!(
            found(&m, "Покладіть два жетони ран. Без жетонів ран."),
            [
                ("жетони ран".into(), "wound-token".into()),
                ("жетонів ран".into(), "wound-token".into())
            ]
        );
    }

    /// Letters with marks the analyzer drops (Polish, French) and a Cyrillic word typed with a
    /// Latin look-alike: the text's words meet the glossary's as search meets them.
    #[test]
    fn english_words_of_one_stem_are_not_one_term() {
        let m = TermMatcher::new(&glossary(
            r#"{"active dice": "a", "activate": "b", "exhausted dice": "c", "exhaust": "d",
                "exhaustion token": "e", "reaction ability": "f"}"#,
        ));
        let hits = |t: &str| -> Vec<(String, String)> { found(&m, t) };
        // other words of the same stem
        assert_eq!(hits("spent to activate dice abilities")[0].1, "activate");
        assert_eq!(hits("considered active"), []);
        assert_eq!(
            hits("you must exhaust dice"),
            [("exhaust".into(), "exhaust".into())]
        );
        // forms of the same word
        assert_eq!(hits("two Active Dice")[0].1, "active-dice");
        assert_eq!(hits("activated")[0].1, "activate");
        assert_eq!(hits("exhausting it")[0].1, "exhaust");
        assert_eq!(hits("three exhaustion tokens")[0].1, "exhaustion-token");
        assert_eq!(hits("Reaction Abilities")[0].1, "reaction-ability");
        assert_eq!(
            hits("the player's reaction ability's cost")[0].1,
            "reaction-ability"
        );
        // an entry's other spelling of the same stem
        let m = TermMatcher::new(&glossary(r#"{"current / currently": "a"}"#));
        assert_eq!(
            found(&m, "Currently, the current one."),
            [
                ("Currently".into(), "current-currently".into()),
                ("current".into(), "current-currently".into())
            ]
        );
    }

    #[test]
    fn english_inflections() {
        for (w, b) in [
            ("tokens", "token"),
            ("token", "tokens"),
            ("abilities", "ability"),
            ("readied", "ready"),
            ("exhausted", "exhaust"),
            ("placing", "place"),
            ("stopped", "stop"),
            ("attackers", "attack"),
            ("discards", "discard"),
            ("passes", "pass"),
            ("dice", "dice"),
        ] {
            assert!(english_form_of(w, b), "{w} of {b}");
        }
        for (w, b) in [
            ("activate", "active"),
            ("active", "activate"),
            ("exhaust", "exhausted"),
            ("exhaustion", "exhaust"),
            ("battling", "battlefield"),
        ] {
            assert!(!english_form_of(w, b), "{w} of {b}");
        }
    }

    #[test]
    fn ukrainian_terms_of_the_default_glossary() {
        let m = TermMatcher::new(&glossary(
            r#"{"battlefield": {"term": "Поле бою", "definition": "x"},
                "bv": {"term": "Ліміт поля бою", "definition": "w"},
                "first five": {"term": "Перша п'ятірка", "definition": "z"}}"#,
        ));
        let words = |t: &str| -> Vec<String> { found(&m, t).into_iter().map(|h| h.0).collect() };
        assert_eq!(words("Поле бою."), ["Поле бою"]);
        assert_eq!(words("на полі бою"), ["полі бою"]);
        assert_eq!(words("Ліміт поля бою."), ["Ліміт поля бою"]);
        assert_eq!(words("Перша п'ятірка."), ["Перша п'ятірка"]);
    }

    #[test]
    fn words_with_accents_and_look_alikes_meet_their_terms() {
        let m = TermMatcher::new(&glossary(
            r#"{"Ściana": "a", "Akcja główna": "b", "Épée": "c", "Öl": "d", "Відповідь": "e"}"#,
        ));
        let text = "Ściana stoi. To akcja główna. Une épée. Öl fließt. Моя вiдповiдь.";
        let hits = found(&m, text);
        let words: Vec<&str> = hits.iter().map(|(w, _)| w.as_str()).collect();
        assert_eq!(words, ["Ściana", "akcja główna", "épée", "Öl", "вiдповiдь"]);
        let mut anchors: Vec<&str> = hits.iter().map(|(_, a)| a.as_str()).collect();
        anchors.sort_unstable();
        anchors.dedup();
        assert_eq!(anchors.len(), 5, "{hits:?}");
    }

    #[test]
    fn longest_match_first_and_no_match_across_punctuation() {
        let m = TermMatcher::new(&glossary(
            r#"{"exhausted": "a", "exhausted dice pool / exhausted pool": "b", "X": "c"}"#,
        ));
        assert_eq!(
            found(&m, "Move it to the exhausted dice pool. Exhausted, dice. X"),
            [
                (
                    "exhausted dice pool".into(),
                    "exhausted-dice-pool-exhausted-pool".into()
                ),
                ("Exhausted".into(), "exhausted".into())
            ]
        );
        assert_eq!(found(&m, "the exhausted pool")[0].0, "exhausted pool");
    }

    /// Two entries of the same stems (`exhaust`, `exhausted`): a word links to the one it is
    /// written as, else to the earlier entry. The later one was never linked at all.
    #[test]
    fn entries_of_the_same_stems_are_told_apart_as_written() {
        let m = TermMatcher::new(&glossary(
            r#"{"exhaust": "a", "exhausted": "b", "ready": "c"}"#,
        ));
        assert_eq!(
            found(&m, "Exhausted cards. Exhaust a card. Exhausting it."),
            [
                ("Exhausted".into(), "exhausted".into()),
                ("Exhaust".into(), "exhaust".into()),
                ("Exhausting".into(), "exhaust".into())
            ]
        );
    }

    #[test]
    fn phrases_from_terms() {
        assert_eq!(
            phrases_of("Active Dice Pool (aka Active Pool)", &[]),
            ["Active Dice Pool", "Active Pool"]
        );
        assert_eq!(
            phrases_of("reaction ability/effect", &[]),
            ["reaction ability", "reaction effect"]
        );
        assert_eq!(
            phrases_of("Exhaust (when referring to a card)", &[]),
            ["Exhaust"]
        );
    }

    /// The words as `find` cuts them, (start, end, joined to the word before), by a plain walk
    /// over the characters: what the byte walk with its shortcuts must give.
    fn words_by_chars(text: &str) -> Vec<(usize, usize, bool)> {
        let mut out = Vec::new();
        let (mut start, mut joined) = (None, true);
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        for (k, &(i, c)) in chars.iter().enumerate() {
            let next_alphabetic = chars.get(k + 1).is_some_and(|&(_, n)| n.is_alphabetic());
            let apostrophe = matches!(c, '\'' | '’' | 'ʼ') && start.is_some() && next_alphabetic;
            if is_word_char(c) || apostrophe {
                start.get_or_insert(i);
                continue;
            }
            if let Some(s) = start.take() {
                out.push((s, i, joined));
                joined = true;
            }
            if !c.is_whitespace() {
                joined = false;
            }
        }
        if let Some(s) = start {
            out.push((s, text.len(), joined));
        }
        out
    }

    proptest::proptest! {
        #[test]
        fn words_are_cut_as_a_walk_over_characters_cuts_them(
            pieces in proptest::collection::vec(
                proptest::sample::select(vec![
                    "a", "Z", "7", "і", "ґ", "Ж", "я", "ё", "'", "’", "ʼ", " ", "\u{b}", "\t",
                    ",", "-", "\u{a0}", "é", "\u{301}", "😀", "\u{483}", "ә",
                ]),
                0..40,
            )
        ) {
            let text: String = pieces.concat();
            let m = TermMatcher::new(&glossary(r#"{"wound token": "x"}"#));
            let mut cache = WordCache::default();
            m.find(&text, &mut cache);
            let cut: Vec<(usize, usize, bool)> =
                cache.words.iter().map(|w| (w.0, w.1, w.3)).collect();
            proptest::prop_assert_eq!(cut, words_by_chars(&text));
        }
    }

    #[test]
    fn opt_out() {
        let m = TermMatcher::new(&glossary(
            r#"{"unit": {"term": "unit", "definition": "d", "autolink": false}}"#,
        ));
        assert!(found(&m, "a unit").is_empty());
    }
}
