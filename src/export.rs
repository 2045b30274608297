//! Machine-readable exports written with the site, for bots and other tools:
//!
//! - `<lang>/glossary.json`: the language's glossary in the format the chat-bot glossary came
//!   in, `{"term": "definition"}` (Markdown definitions, file order), so a bot that read the
//!   original file reads this one unchanged;
//! - `<lang>/sections.json`: every heading of every chapter the language has, as
//!   `{"number", "title", "chapter", "url", "text"}`. `text` is the start of the section's first
//!   paragraph (at most [`EXCERPT_CHARS`] characters): enough to show or to pick a section,
//!   while the page at `url` has the rest. Full texts would double the size of a large site.

use std::fmt::Write as _;

use crate::json::quoted as json;
use crate::site::Site;

/// Longest excerpt in `sections.json`, in characters.
pub const EXCERPT_CHARS: usize = 80;

/// One export file still to be made: independent of the others, so they can be made in
/// parallel (the sections of a large site take a while).
pub enum Job<'a> {
    Glossary(&'a str),
    Sections(&'a str),
}

/// Every export file of the site, in a fixed order.
pub fn jobs(site: &Site) -> Vec<Job<'_>> {
    let mut out = Vec::new();
    for lang in &site.config.languages {
        if site.glossaries.contains_key(lang) {
            out.push(Job::Glossary(lang));
        }
        out.push(Job::Sections(lang));
    }
    out
}

impl Job<'_> {
    /// (path below the output root, bytes).
    pub fn make(&self, site: &Site) -> (String, Vec<u8>) {
        match *self {
            Job::Glossary(lang) => (
                format!("{lang}/glossary.json"),
                site.glossaries
                    .get(lang)
                    .map(|g| glossary_json(g).into_bytes())
                    .unwrap_or_default(),
            ),
            Job::Sections(lang) => (
                format!("{lang}/sections.json"),
                sections_json(site, lang).into_bytes(),
            ),
        }
    }
}

/// `{"term": "definition"}` in file order: an entry's own name in this language (its term), then
/// the keys merged into it (identical definitions), each with the definition. Two entries may
/// share a term (a rule defined differently by two sources: `Ability` of the Rules Reference
/// and of the rulebook); the later one is named by its key (`ability (rulebook)`), so that no
/// definition is left out.
pub fn glossary_json(g: &crate::glossary::Glossary) -> String {
    let mut s = String::from("{");
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut first = true;
    for e in &g.entries {
        let own = [e.term.clone(), e.key.clone()]
            .into_iter()
            .chain((2..).map(|n| format!("{} ({n})", e.term)))
            .find(|n| !seen.contains(n))
            .unwrap_or_default();
        for name in std::iter::once(own).chain(e.merged_keys.iter().cloned()) {
            if seen.contains(&name) {
                continue;
            }
            if !first {
                s.push(',');
            }
            first = false;
            let _ = write!(s, "\n  {}: {}", json(&name), json(&e.definition));
            seen.insert(name);
        }
    }
    s.push_str("\n}\n");
    s
}

/// Cuts text at a word boundary to at most `max` characters, marking the cut with `…`.
pub fn excerpt(text: &str, max: usize) -> String {
    let (cut, more) = squeeze(text, max);
    if !more {
        return cut;
    }
    let cut = match cut.rfind(' ') {
        Some(i) if i > max / 2 => &cut[..i],
        _ => cut.as_str(),
    };
    format!("{}…", cut.trim_end_matches([',', ';', ':', ' ']))
}

/// The first `max` characters of `text` with its white space collapsed, as
/// `split_whitespace().join(" ")` would (no space at either end, one between words), and
/// whether the collapsed text goes on past them. One pass that stops at `max`: excerpts and
/// previews are cut from every section of the site, and splitting and joining whole texts
/// first was 10% of a build's instructions.
///
/// Most of a text is already collapsed: words with one ASCII space between them. Such a run
/// is copied whole, and it is walked eight bytes at a time where a block has no white space
/// but single spaces between words (a word at a time, this was 3.5 % of a 200-chapter
/// build's instructions).
pub fn squeeze(text: &str, max: usize) -> (String, bool) {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len().min(max * 2));
    let mut count = 0;
    let mut i = skip_space(text, 0);
    while i < bytes.len() {
        // a run from a character that is not white space, up to white space that is not
        // one ASCII space between two words
        let start = i;
        'run: loop {
            while let Some(w) = crate::bytes::eight_at(bytes, i) {
                if !plain_block(w) {
                    break;
                }
                // continuation bytes (10xxxxxx) belong to the character of their lead byte
                let chars = 8 - (w & !(w << 1) & crate::bytes::HIGH).count_ones() as usize;
                if count + chars > max {
                    break;
                }
                count += chars;
                i += 8;
            }
            // the next few bytes one at a time, then blocks again
            let stop = (i + 8).min(bytes.len());
            while i < stop {
                let b = bytes[i];
                if space_len(text, i) > 0 {
                    let inner = b == b' ' && i + 1 < bytes.len() && space_len(text, i + 1) == 0;
                    if !inner {
                        break 'run;
                    }
                } else if b & 0xc0 == 0x80 {
                    i += 1;
                    continue;
                }
                if count == max {
                    out.push_str(&text[start..i]);
                    return (out, true);
                }
                count += 1;
                i += 1;
            }
            if i >= bytes.len() {
                break;
            }
        }
        out.push_str(&text[start..i]);
        i = skip_space(text, i);
        if i < bytes.len() {
            if count == max {
                return (out, true);
            }
            out.push(' ');
            count += 1;
        }
    }
    (out, false)
}

/// Whether eight bytes of a run (little-endian) can be taken whole: no control character
/// (white space among them), no lead byte of non-ASCII white space (0xC2, 0xE1–0xE3; 0xE0 is
/// let in with them), and every space a single one with a byte after it in the block (the
/// byte before a block is never white space: a run starts at a word, and a space is taken
/// one at a time only before a word).
fn plain_block(w: u64) -> bool {
    use crate::bytes::{below, zero_bytes, ONES};
    let spaces = zero_bytes(w ^ (ONES * 0x20));
    below(w, 0x20) == 0
        && below(w ^ (ONES * 0xc2), 1) == 0
        && below(w ^ (ONES * 0xe0), 4) == 0
        && spaces & (spaces << 8) == 0
        && spaces >> 63 == 0
}

/// The length in bytes of the white space character at byte `at` of `text`, or 0 when the
/// character there is not white space (or `at` is inside a character or past the end). Only
/// four lead bytes begin a white space character outside ASCII, so other characters
/// (Cyrillic among them) are never decoded.
fn space_len(text: &str, at: usize) -> usize {
    match text.as_bytes().get(at) {
        Some(&b) if b < 0x80 => usize::from(b.is_ascii_whitespace() || b == 0x0b),
        Some(0xc2 | 0xe1 | 0xe2 | 0xe3) => text
            .get(at..)
            .and_then(|t| t.chars().next())
            .filter(|c| c.is_whitespace())
            .map_or(0, char::len_utf8),
        _ => 0,
    }
}

/// The first byte at or after `at` that does not begin white space.
fn skip_space(text: &str, mut at: usize) -> usize {
    loop {
        match space_len(text, at) {
            0 => return at,
            n => at += n,
        }
    }
}

fn head(text: &str) -> &str {
    let mut end = (EXCERPT_CHARS * 4 + 64).min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

pub fn sections_json(site: &Site, lang: &str) -> String {
    let base = &site.config.base_url;
    let mut first = true;
    let Some(pages) = site.pages.get(lang) else {
        return "[]\n".into();
    };
    // about 250 bytes a section: the export is megabytes on a large site, and grown by
    // doubling it would be copied over and over
    let sections: usize = pages.iter().map(|p| p.prepared.headings.len() + 1).sum();
    let mut s = String::with_capacity(sections * 256);
    s.push('[');
    let syms = &site.symbols[lang];
    let quoted = crate::json::quoted_into;
    // written piece by piece: one entry per section of the site, and `format!` for each
    // piece was a fifth of this export's instructions
    let mut push =
        |s: &mut String, number: Option<&str>, title: &str, id: &str, anchor: &str, text: &str| {
            if !first {
                s.push(',');
            }
            first = false;
            s.push_str("\n{\"number\":");
            match number {
                Some(n) => quoted(n, s),
                None => s.push_str("null"),
            }
            s.push_str(",\"title\":");
            quoted(&syms.to_plain(title), s);
            s.push_str(",\"chapter\":");
            quoted(id, s);
            s.push_str(",\"url\":\"");
            for part in [base.as_str(), lang, "/", id, "/"] {
                crate::json::escape_into(part, s);
            }
            if !anchor.is_empty() {
                s.push('#');
                crate::json::escape_into(anchor, s);
            }
            s.push_str("\",\"text\":");
            quoted(&excerpt(&syms.to_plain(head(text)), EXCERPT_CHARS), s);
            s.push('}');
        };
    let by_pos: std::collections::HashMap<&str, usize> = site
        .order
        .iter()
        .enumerate()
        .map(|(i, id)| (id.as_str(), i))
        .collect();
    let mut ordered: Vec<&crate::site::ChapterPage> = pages.iter().collect();
    ordered.sort_by_key(|p| {
        by_pos
            .get(p.chapter.id.as_str())
            .copied()
            .unwrap_or(usize::MAX)
    });
    for p in ordered {
        let id = &p.chapter.id;
        let blocks = &p.prepared.blocks;
        let text_of = |h: Option<usize>| {
            blocks
                .iter()
                .find(|b| b.heading == h)
                .map(|b| match b.first_paragraph() {
                    "" => b.text.as_str(),
                    first => first,
                })
                .unwrap_or("")
        };
        push(
            &mut s,
            p.title_number.as_deref(),
            &p.title_text,
            id,
            p.title_number.as_deref().unwrap_or(""),
            text_of(None),
        );
        for (i, h) in p.prepared.headings.iter().enumerate() {
            push(
                &mut s,
                h.number.as_deref(),
                &h.title,
                id,
                &h.anchor,
                text_of(Some(i)),
            );
        }
    }
    s.push_str("\n]\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::test_runner::TestCaseError;

    #[test]
    fn excerpts_cut_at_words() {
        assert_eq!(excerpt("short  text", 20), "short text");
        assert_eq!(excerpt("one two three four", 12), "one two…");
        assert_eq!(excerpt("абвгґдежзий", 5), "абвгґ…");
    }

    /// `squeeze` is the one-pass form of collapsing white space and taking a prefix.
    fn squeezes_as_split_join_take(text: &str, max: usize) -> Result<(), TestCaseError> {
        let whole = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let more = whole.chars().count() > max;
        let head: String = whole.chars().take(max).collect();
        proptest::prop_assert_eq!(squeeze(text, max), (head, more));
        Ok(())
    }

    proptest::proptest! {
        /// Words of every length between runs of white space: most of a text goes eight bytes
        /// at a time.
        #[test]
        fn squeeze_is_split_join_take_in_long_words(text in "([a-zжґ€😀.,]{0,30}[ \t\n\u{b}\u{c}\r\u{85}\u{a0}\u{1680}\u{2003}\u{2028}\u{202f}\u{3000}]{1,2}){0,6}", max in 0usize..120) {
            squeezes_as_split_join_take(&text, max)?;
        }

        #[test]
        fn squeeze_is_split_join_take(text in "[a b\\t\\n\u{b}\u{c}\rжґ€😀\u{85}\u{a0}\u{1680}\u{2003}\u{2028}\u{202f}\u{3000}.,]{0,40}", max in 0usize..30) {
            squeezes_as_split_join_take(&text, max)?;
        }
    }

    #[test]
    fn glossary_keeps_the_seed_format() {
        let mut d = crate::diag::Diagnostics::default();
        let g = crate::glossary::parse(
            r#"{"zeta": "Last.", "drp": "Same.", "ddrp": "Same.", "a": {"term": "Альфа", "definition": "Перша."}}"#,
            "en",
            std::path::Path::new("g.json"),
            &mut d,
        )
        .unwrap();
        let v: serde_json::Value = serde_json::from_str(&glossary_json(&g)).unwrap();
        assert_eq!(v["zeta"], "Last.");
        assert_eq!(v["ddrp"], "Same.");
        assert_eq!(v["Альфа"], "Перша.");
    }

    /// Entries that share a term (two sources' definitions of one rule) are all exported: the
    /// later ones by their keys, or numbered when the key is taken too. The build once kept
    /// the first and dropped the rest (13 definitions of the default glossary).
    #[test]
    fn entries_sharing_a_term_are_all_exported() {
        let mut d = crate::diag::Diagnostics::default();
        let g = crate::glossary::parse(
            r#"{"ability": "One.", "ability (rulebook)": {"term": "ability", "definition": "Two."},
                "x": {"term": "ability", "definition": "Three."}, "ability (2)": {"term": "ability (rulebook)", "definition": "Four."}}"#,
            "en",
            std::path::Path::new("g.json"),
            &mut d,
        )
        .unwrap();
        let v: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&glossary_json(&g)).unwrap();
        let mut defs: Vec<&str> = v.values().filter_map(|x| x.as_str()).collect();
        defs.sort_unstable();
        assert_eq!(defs, ["Four.", "One.", "Three.", "Two."], "{v:?}");
    }
}
