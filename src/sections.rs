//! Section numbers: what counts as one, where one is defined, and where text refers to one.
//!
//! A section number is two or more dot-separated numbers (`7.1.0`, `34.2`). It is the anchor of
//! its section in every language, which is what lets a reader switch language and stay in place.

use rustc_hash::FxHashMap;
use std::path::PathBuf;

/// Longest component accepted; longer digit runs are data (phone numbers, ids), not sections, and
/// keeping them short means a number never overflows anything downstream.
const MAX_COMPONENT_DIGITS: usize = 9;

/// A place in text that looks like a section reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefMatch {
    /// Byte range of the number in the scanned text.
    pub start: usize,
    pub end: usize,
    pub number: String,
    /// Number of components (`7.1.0` has 3).
    pub parts: usize,
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Reads a run of `digits(.digits)+` starting at `start`; returns its end and component count.
fn read_number(text: &str, start: usize) -> Option<(usize, usize, bool)> {
    let bytes = text.as_bytes();
    let mut i = start;
    let mut parts = 0;
    let mut too_long = false;
    loop {
        let s = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        if i == s {
            // a dot not followed by a digit: the number ended before that dot
            return if parts >= 2 {
                Some((s - 1, parts, too_long))
            } else {
                None
            };
        }
        too_long |= i - s > MAX_COMPONENT_DIGITS;
        parts += 1;
        if i + 1 < bytes.len() && bytes[i] == b'.' && bytes[i + 1].is_ascii_digit() {
            i += 1;
            continue;
        }
        return if parts >= 2 {
            Some((i, parts, too_long))
        } else {
            None
        };
    }
}

/// Dates written like section numbers: `01.08.2018` and `2018.08.01` (zero-padded two-digit
/// day and month are what tell them apart from sections such as `2000.8.1`).
fn looks_like_date(number: &str) -> bool {
    let p: Vec<&str> = number.split('.').collect();
    if p.len() != 3 {
        return false;
    }
    let two =
        |s: &str, max: u32| s.len() == 2 && s.parse::<u32>().is_ok_and(|v| (1..=max).contains(&v));
    (two(p[0], 31) && two(p[1], 12) && p[2].len() == 4)
        || (p[0].len() == 4 && two(p[1], 12) && two(p[2], 31))
}

/// Finds the section references in a run of plain text.
///
/// A number counts only when it stands alone: not after a letter, digit, `.`, `-` or `_` (so not
/// `v2.0`, `x-1.2`), not before a letter or digit, and not a date. A trailing sentence dot is not
/// part of it (`see 7.1.0.`, `see 7.1.0...`). Written right after a Ukrainian abbreviation's
/// dot (`п.7.1.0`, `див.7.2.0`), a number of three parts or more counts, and so do both ends of a
/// range or a pair written with `-` or `/` (`7.1.0-7.2.0`, `7.1.0/7.2.0`).
pub fn scan_refs(text: &str) -> Vec<RefMatch> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    loop {
        i = next_digit(bytes, i);
        if i == bytes.len() {
            break;
        }
        let mut before = text[..i].chars().rev();
        let prev = before.next();
        let prev2 = before.next();
        let run_end = {
            let mut j = i;
            while j < bytes.len() && (bytes[j].is_ascii_digit() || bytes[j] == b'.') {
                j += 1;
            }
            j
        };
        // the run without a sentence's dots after it
        let run = text[i..run_end].trim_end_matches('.');
        let blocked = match prev {
            // after a Ukrainian abbreviation written without a space (`п.7.1.0`, `див.7.2.0`):
            // a section number, not a version (`v.2.0`, `x.1.2.3`)
            Some('.') => {
                !(prev2.is_some_and(|c| matches!(c, 'а'..='я' | 'і' | 'ї' | 'є' | 'ґ'))
                    && run.matches('.').count() >= 2)
            }
            // the second end of a range or pair (`7.1.0-7.2.0`)
            Some('-' | '/') => !prev2.is_some_and(|c| c.is_ascii_digit()),
            Some(c) => is_word_char(c) || c == '\\',
            None => false,
        };
        if blocked {
            i = run_end;
            continue;
        }
        match read_number(text, i) {
            Some((end, parts, too_long)) => {
                let mut after = text[end..].chars();
                let next = after.next();
                // the first end of a range (`7.1.0-7.2.0`), not `1.2-beta`
                let next_ok = match next {
                    Some('-') => after.next().is_some_and(|c| c.is_ascii_digit()),
                    Some(c) => !is_word_char(c),
                    None => true,
                };
                // `7..1` and `7.1..2`: a doubled dot makes the whole run not a number
                let doubled = run.contains("..");
                let number = &text[i..end];
                if next_ok && !too_long && !doubled && !looks_like_date(number) {
                    out.push(RefMatch {
                        start: i,
                        end,
                        number: number.to_string(),
                        parts,
                    });
                }
                i = run_end.max(end);
            }
            None => i = run_end,
        }
    }
    out
}

/// Where the first ASCII digit at or after `i` is (the length of `bytes` if none is). Every
/// text of the site is scanned for numbers, and digits are rare in it: eight bytes are tested
/// at a time, and only a word with a digit is looked at byte by byte (a byte at a time, this
/// scan was 2% of a build's instructions).
fn next_digit(bytes: &[u8], mut i: usize) -> usize {
    use crate::bytes::{below, ONES};
    while let Some(word) = crate::bytes::eight_at(bytes, i) {
        // `^ '0'` turns exactly the digits into bytes below 10
        let t = word ^ (ONES * 0x30);
        if below(t, 10) != 0 {
            break;
        }
        i += 8;
    }
    (bytes[i..].iter())
        .position(u8::is_ascii_digit)
        .map_or(bytes.len(), |k| i + k)
}

/// If a heading's text begins with a section number, splits it off: `7.1.0 Discarding Cards`
/// gives `("7.1.0", "Discarding Cards")`. A trailing dot after the number (`7.1. Title`) is
/// accepted, as many rulebooks write it so.
pub fn split_heading_number(text: &str) -> Option<(String, &str)> {
    let t = text.trim_start();
    let first = t.chars().next()?;
    if !first.is_ascii_digit() {
        return None;
    }
    let (end, _parts, too_long) = read_number(t, 0)?;
    if too_long {
        return None;
    }
    let mut rest = &t[end..];
    if let Some(r) = rest.strip_prefix('.') {
        rest = r;
    }
    if !(rest.is_empty() || rest.starts_with(char::is_whitespace)) {
        return None;
    }
    Some((t[..end].to_string(), rest.trim()))
}

/// Whether a heading starts with something that tries to be a section number but is not valid
/// (`7..1`, a 20-digit component). Used to warn instead of silently making a plain heading.
pub fn malformed_heading_number(text: &str) -> bool {
    let t = text.trim_start();
    let head: String = t
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    head.contains('.')
        && head.chars().next().is_some_and(|c| c.is_ascii_digit())
        && split_heading_number(t).is_none()
}

/// Compares a quoted title with a section's title the way a reader would: case, spacing,
/// trailing punctuation and bracket tags such as `[AOP]` do not matter.
pub fn normalize_title(title: &str) -> String {
    let mut out = String::with_capacity(title.len());
    let mut depth = 0usize;
    for c in title.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            _ if depth > 0 => {}
            _ => out.extend(c.to_lowercase()),
        }
    }
    let words: Vec<&str> = out.split_whitespace().collect();
    words
        .join(" ")
        .trim_end_matches([':', '.', ';', ','])
        .to_string()
}

/// Where one section is defined.
#[derive(Debug, Clone)]
pub struct SectionDef {
    pub number: String,
    pub lang: String,
    pub chapter_id: String,
    /// The title without the number, as written.
    pub title: String,
    pub file: PathBuf,
    pub line: usize,
    /// Heading level (1 for a chapter title that carries the number).
    pub level: u8,
}

/// Every section of every language, by number.
///
/// Looked up for every cross-reference of every page, again for the print views and for the
/// reference checks: millions of lookups at 2,000 chapters, in a table of tens of thousands of
/// numbers. Those lookups were bound by memory, not by hashing (a table of whole definitions
/// is megabytes, and each probe also read the key from the heap), so the table holds only
/// short keys inline and the row of the number; a row holds the number's definition in each
/// language, in site order, so one probe answers "in my language?", "in which other?" and
/// "anywhere?".
#[derive(Debug, Default)]
pub struct SectionIndex {
    /// Numbers of up to 16 bytes (nearly all), packed into the key itself.
    short: FxHashMap<[u64; 2], u32>,
    /// Longer ones.
    long: FxHashMap<String, u32>,
    /// Row `r` is `defs[r * order.len()..][..order.len()]`.
    defs: Vec<Option<SectionDef>>,
    /// Where each definition of `defs` is, as an index into `chapters` (`u32::MAX`: none):
    /// what a link needs, in a few bytes per row rather than a whole definition per row.
    places: Vec<u32>,
    /// Chapter ids, each once.
    chapters: Vec<String>,
    chapter_ids: FxHashMap<String, u32>,
    /// The number of each row, for listing them.
    numbers: Vec<String>,
    /// Languages in site order, for picking a fallback deterministically; a language the site
    /// does not list (none in a build) is added after them, and is never a fallback.
    order: Vec<String>,
    fallbacks: usize,
}

/// A section number of up to 16 bytes as a key compared where it lies, in the table. The
/// rest is filled with the byte `0xFF`, which UTF-8 never uses, so two different numbers
/// never pack alike.
fn packed(number: &str) -> Option<[u64; 2]> {
    let b = number.as_bytes();
    if b.len() > 16 {
        return None;
    }
    let mut out = [u64::MAX; 2];
    for (word, chunk) in out.iter_mut().zip(b.chunks(8)) {
        // the bytes the chunk does not fill are 0xFF
        let fill = u64::MAX.checked_shl(8 * chunk.len() as u32).unwrap_or(0);
        *word = crate::bytes::load_le(chunk) | fill;
    }
    Some(out)
}

impl SectionIndex {
    pub fn new(languages: &[String]) -> Self {
        SectionIndex {
            order: languages.to_vec(),
            fallbacks: languages.len(),
            ..SectionIndex::default()
        }
    }

    /// The slot of `lang` in each row.
    fn slot(&self, lang: &str) -> Option<usize> {
        self.order.iter().position(|l| l == lang)
    }

    fn row(&self, number: &str) -> Option<usize> {
        Some(match packed(number) {
            Some(k) => *self.short.get(&k)?,
            None => *self.long.get(number)?,
        } as usize)
    }

    fn row_of(&self, number: &str) -> Option<&[Option<SectionDef>]> {
        let row = self.row(number)?;
        let w = self.order.len();
        Some(&self.defs[row * w..(row + 1) * w])
    }

    /// Where a link of a `lang` page to `number` goes, as [`Self::resolve`] picks it: (the
    /// language, the chapter id). The hot path of every cross-reference: it reads neither
    /// the definition nor its strings.
    pub fn place(&self, lang: &str, number: &str) -> Option<(&str, &str)> {
        let w = self.order.len();
        let row = &self.places[self.row(number)? * w..][..w];
        let slot = match self.slot(lang).filter(|&s| row[s] != u32::MAX) {
            Some(s) => s,
            None => (0..self.fallbacks).find(|&s| row[s] != u32::MAX)?,
        };
        Some((&self.order[slot], &self.chapters[row[slot] as usize]))
    }

    /// Adds a definition. If the number is already defined in that language, gives back the
    /// earlier definition and this one.
    pub fn insert(&mut self, def: SectionDef) -> Result<(), Box<(SectionDef, SectionDef)>> {
        let slot = match self.slot(&def.lang) {
            Some(s) => s,
            None => {
                // widen every row by one language (never in a build: it lists its languages)
                let w = self.order.len();
                let mut defs = Vec::with_capacity(self.numbers.len() * (w + 1));
                let mut places = Vec::with_capacity(self.numbers.len() * (w + 1));
                let old = std::mem::take(&mut self.defs).into_iter();
                for (i, (d, p)) in old.zip(std::mem::take(&mut self.places)).enumerate() {
                    defs.push(d);
                    places.push(p);
                    if i % w == w - 1 {
                        defs.push(None);
                        places.push(u32::MAX);
                    }
                }
                self.defs = defs;
                self.places = places;
                self.order.push(def.lang.clone());
                w
            }
        };
        let next = self.numbers.len() as u32;
        let row = match packed(&def.number) {
            Some(k) => *self.short.entry(k).or_insert(next),
            None => *self.long.entry(def.number.clone()).or_insert(next),
        } as usize;
        let w = self.order.len();
        if row == self.numbers.len() {
            self.numbers.push(def.number.clone());
            self.defs.resize(self.defs.len() + w, None);
            self.places.resize(self.places.len() + w, u32::MAX);
        }
        let at = &mut self.defs[row * w + slot];
        if let Some(old) = at {
            return Err(Box::new((old.clone(), def)));
        }
        let next = self.chapters.len() as u32;
        let chapter = *self
            .chapter_ids
            .entry(def.chapter_id.clone())
            .or_insert(next);
        if chapter == next {
            self.chapters.push(def.chapter_id.clone());
        }
        self.places[row * w + slot] = chapter;
        *at = Some(def);
        Ok(())
    }

    /// Forgets every section of one chapter in one language (before it is added again, changed).
    pub fn remove_chapter(&mut self, lang: &str, chapter_id: &str) {
        let Some(slot) = self.slot(lang) else { return };
        let w = self.order.len();
        let places = self.places.iter_mut().skip(slot).step_by(w);
        for (d, p) in self.defs.iter_mut().skip(slot).step_by(w).zip(places) {
            if d.as_ref().is_some_and(|d| d.chapter_id == chapter_id) {
                *d = None;
                *p = u32::MAX;
            }
        }
    }

    pub fn get(&self, lang: &str, number: &str) -> Option<&SectionDef> {
        let slot = self.slot(lang)?;
        self.row_of(number)?[slot].as_ref()
    }

    /// The definition a reader of `lang` should be sent to: their own language's when it exists,
    /// otherwise the first other language (site order) that has the section.
    pub fn resolve(&self, lang: &str, number: &str) -> Option<&SectionDef> {
        let row = self.row_of(number)?;
        if let Some(d) = self.slot(lang).and_then(|s| row[s].as_ref()) {
            return Some(d);
        }
        row[..self.fallbacks].iter().find_map(Option::as_ref)
    }

    /// Every section number of every language, sorted, once each.
    pub fn numbers(&self) -> Vec<&str> {
        let w = self.order.len();
        let mut v: Vec<&str> = self
            .numbers
            .iter()
            .zip(self.defs.chunks(w.max(1)))
            .filter(|(_, row)| row.iter().any(Option::is_some))
            .map(|(n, _)| n.as_str())
            .collect();
        v.sort_unstable();
        v
    }

    /// Whether any of the site's languages defines `number`.
    pub fn exists(&self, number: &str) -> bool {
        let w = self.order.len();
        self.row(number).is_some_and(|r| {
            self.places[r * w..][..self.fallbacks]
                .iter()
                .any(|&p| p != u32::MAX)
        })
    }

    pub fn len(&self, lang: &str) -> usize {
        self.slot(lang).map_or(0, |s| {
            let w = self.order.len();
            self.defs
                .iter()
                .skip(s)
                .step_by(w)
                .filter(|d| d.is_some())
                .count()
        })
    }

    pub fn is_empty(&self) -> bool {
        self.defs.iter().all(Option::is_none)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_digit_finds_the_first_digit_wherever_it_is() {
        // every digit at every position of texts up to three words of eight bytes long, among
        // bytes next to the digits ('/' and ':' are just below and above them; `°` has the
        // byte 0xB0, a digit with the high bit set)
        for len in 0..24 {
            for at in 0..=len {
                for filler in ["a", "/", ":", "ж", "°", " "] {
                    let mut text: Vec<u8> = filler.bytes().cycle().take(len).collect();
                    if at < len {
                        text[at] = b"0123456789"[at % 10];
                    }
                    for from in 0..=len {
                        let expected = (text[from..].iter())
                            .position(u8::is_ascii_digit)
                            .map_or(len, |k| from + k);
                        assert_eq!(next_digit(&text, from), expected, "{text:?} from {from}");
                    }
                }
            }
        }
    }

    fn nums(text: &str) -> Vec<String> {
        scan_refs(text).into_iter().map(|m| m.number).collect()
    }

    #[test]
    fn finds_bare_references() {
        assert_eq!(nums("see 7.1.0 and (див. 34.2)."), ["7.1.0", "34.2"]);
        assert_eq!(nums("see 7.1.0."), ["7.1.0"]);
        assert_eq!(nums("7.1.0, 8.0.0; 9.1"), ["7.1.0", "8.0.0", "9.1"]);
    }

    /// Each of these was missed, with no link and no warning.
    #[test]
    fn finds_references_after_abbreviations_in_ranges_and_before_an_ellipsis() {
        assert_eq!(nums("Див. п.7.1.0 і див.7.2.0"), ["7.1.0", "7.2.0"]);
        assert_eq!(nums("see 7.1.0..."), ["7.1.0"]);
        assert_eq!(
            nums("7.1.0-7.2.0 and 7.1.0/7.2.0"),
            ["7.1.0", "7.2.0", "7.1.0", "7.2.0"]
        );
        // still none: a version after a letter's dot, a word after a dash, a path
        assert!(nums("ver.2.0 v.1.2 x.1.2.0 x-1.2.0 1.2-beta path/1.2.0 п.1.2").is_empty());
    }

    #[test]
    fn ignores_numbers_that_are_something_else() {
        for t in [
            "v2.0",
            "version2.0.1",
            "1.5x",
            "a-1.2",
            "7..1",
            "01.08.2018",
            "2018.08.01",
            "x7.1",
            "1.2.3-beta",
            "12345678901.1.0",
            "7",
            "7.",
            "3,5",
            "path/1.2",
            "1.2a",
        ] {
            assert!(nums(t).is_empty(), "{t:?} gave {:?}", nums(t));
        }
        // big section numbers are not dates
        assert_eq!(nums("see 2000.8.1"), ["2000.8.1"]);
    }

    #[test]
    fn offsets_point_at_the_number() {
        let t = "Докладніше див. 12.3.0.";
        let m = &scan_refs(t)[0];
        assert_eq!(&t[m.start..m.end], "12.3.0");
        assert_eq!(m.parts, 3);
    }

    #[test]
    fn heading_numbers() {
        assert_eq!(
            split_heading_number("7.1.0 Discarding Cards"),
            Some(("7.1.0".into(), "Discarding Cards"))
        );
        assert_eq!(
            split_heading_number("7.1. Title"),
            Some(("7.1".into(), "Title"))
        );
        assert_eq!(split_heading_number("34.2"), Some(("34.2".into(), "")));
        assert_eq!(split_heading_number("7 Title"), None);
        assert_eq!(split_heading_number("7.1.0Title"), None);
        assert_eq!(split_heading_number("Title 7.1.0"), None);
        assert!(malformed_heading_number("7..1 Title"));
        assert!(malformed_heading_number("99999999999.1 Title"));
        assert!(!malformed_heading_number("Title"));
    }

    #[test]
    fn different_numbers_pack_differently() {
        let numbers = [
            "",
            "7",
            "7.1",
            "7.1\0",
            "\0",
            "12345678",
            "123456789",
            "7.1.0",
            "7.1.00",
            "1234567.123456.1",
        ];
        for a in numbers {
            for b in numbers {
                assert_eq!(packed(a) == packed(b), a == b, "{a:?} / {b:?}");
            }
        }
        assert!(packed("1234567.1234567.").is_some());
        assert_eq!(packed("1234567.1234567.1"), None);
    }

    fn def(lang: &str, number: &str, chapter: &str) -> SectionDef {
        SectionDef {
            number: number.into(),
            lang: lang.into(),
            chapter_id: chapter.into(),
            title: format!("{lang} {number}"),
            file: PathBuf::from(format!("{lang}/{chapter}.md")),
            line: 1,
            level: 2,
        }
    }

    #[test]
    fn index_resolves_own_language_then_site_order() {
        let mut ix = SectionIndex::new(&["uk".into(), "en".into()]);
        ix.insert(def("en", "7.1.0", "combat")).unwrap();
        ix.insert(def("uk", "7.1.0", "bii")).unwrap();
        ix.insert(def("en", "8.0.0", "end")).unwrap();
        ix.insert(def("fr", "9.0.0", "fin")).unwrap();
        // a second definition in one language is refused, with the first one returned
        let dup = ix.insert(def("uk", "7.1.0", "other")).unwrap_err();
        assert_eq!(
            (dup.0.chapter_id.as_str(), dup.1.chapter_id.as_str()),
            ("bii", "other")
        );

        assert_eq!(ix.resolve("uk", "7.1.0").unwrap().chapter_id, "bii");
        assert_eq!(ix.resolve("en", "7.1.0").unwrap().chapter_id, "combat");
        assert_eq!(ix.resolve("uk", "8.0.0").unwrap().lang, "en");
        assert_eq!(ix.place("uk", "7.1.0"), Some(("uk", "bii")));
        assert_eq!(ix.place("en", "7.1.0"), Some(("en", "combat")));
        assert_eq!(ix.place("uk", "8.0.0"), Some(("en", "end")));
        assert_eq!(ix.place("uk", "7.2.0"), None);
        assert!(ix.get("uk", "8.0.0").is_none());
        // a language the site does not list is found as itself, but is never a fallback
        assert_eq!(ix.get("fr", "9.0.0").unwrap().chapter_id, "fin");
        assert!(ix.resolve("uk", "9.0.0").is_none());
        assert!(!ix.exists("9.0.0"));
        assert!(ix.exists("8.0.0") && !ix.exists("8.0"));
        assert_eq!(ix.numbers(), ["7.1.0", "8.0.0", "9.0.0"]);
        assert_eq!((ix.len("uk"), ix.len("en"), ix.len("de")), (1, 2, 0));

        ix.remove_chapter("en", "end");
        assert!(!ix.exists("8.0.0"));
        assert_eq!(ix.numbers(), ["7.1.0", "9.0.0"]);
        ix.remove_chapter("uk", "bii");
        assert_eq!(ix.resolve("uk", "7.1.0").unwrap().lang, "en");
        assert_eq!(ix.place("uk", "7.1.0"), Some(("en", "combat")));
        assert_eq!(ix.place("fr", "9.0.0"), Some(("fr", "fin")));
        assert_eq!(ix.place("uk", "9.0.0"), None);
        ix.remove_chapter("en", "combat");
        ix.remove_chapter("fr", "fin");
        assert!(ix.is_empty());
    }

    #[test]
    fn titles_compare_loosely() {
        assert_eq!(normalize_title("[AOP]  Card   Errata:"), "card errata");
        assert_eq!(
            normalize_title("Damage and Destruction"),
            normalize_title("damage and  destruction")
        );
        assert_ne!(
            normalize_title("Damage"),
            normalize_title("Damage and Destruction")
        );
    }
}
