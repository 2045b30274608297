//! Stale translations: a translated chapter records, in its front matter, a fingerprint of the
//! source text it was translated from; when the source changes, `check` says which sections
//! moved on since.
//!
//! ```yaml
//! translated_from:
//!   lang: en
//!   hash: 5f1d0c9a2b3e4f60      # the whole source chapter
//!   sections:                   # each numbered section ("" is the text before the first one)
//!     "7.1.0": 0a1b2c3d4e5f6071
//! ```
//!
//! `rulebook translated` writes this block; translators run it after updating a chapter. The
//! fingerprints are of the plain text (see [`super::units`]), so reformatting the source (a
//! line break, emphasis) does not make a translation stale, while changing a word does.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use super::units::Unit;

/// FNV-1a, 64 bits: stable across versions and platforms (unlike `std`'s hasher), and enough to
/// notice that a text changed; it guards nothing against an adversary, nor needs to.
pub fn fingerprint(parts: impl IntoIterator<Item = impl AsRef<str>>) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.as_ref().bytes().chain(std::iter::once(0u8)) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// The fingerprints of one source chapter.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
pub struct Record {
    pub lang: String,
    pub hash: String,
    #[serde(default)]
    pub sections: BTreeMap<String, String>,
}

/// Fingerprints of a source chapter: its title and units, whole and per section.
pub fn record(lang: &str, title: &str, units: &[Unit]) -> Record {
    // A unit's text, and the sections its links lead to that the text does not show. Only
    // units with such links take them in, so a record written before targets counted stays
    // true of every other unit.
    let said: Vec<std::borrow::Cow<'_, str>> = units
        .iter()
        .map(|u| match u.targets.is_empty() {
            true => u.text.as_str().into(),
            false => format!("{}\u{1}{}", u.text, u.targets).into(),
        })
        .collect();
    let mut sections: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for (u, t) in units.iter().zip(&said) {
        sections.entry(u.section.clone()).or_default().push(t);
    }
    Record {
        lang: lang.to_string(),
        hash: fingerprint(std::iter::once(title).chain(said.iter().map(|t| t.as_ref()))),
        sections: sections
            .into_iter()
            .map(|(k, v)| (k, fingerprint(v)))
            .collect(),
    }
}

/// Reads a `translated_from` value; `Err` explains what is wrong with it.
pub fn parse(value: &serde_yaml::Value) -> Result<Record, String> {
    serde_yaml::from_value::<Record>(value.clone()).map_err(|_| {
        "`translated_from` is not the record `rulebook translated` writes (a mapping of `lang`, \
         `hash` and `sections`); run `rulebook translated` to write it again"
            .to_string()
    })
}

/// Sections whose text differs between what was translated and the source now: changed,
/// added and removed, in number order. Empty when only the title changed.
pub fn changed_sections(then: &Record, now: &Record) -> Vec<String> {
    let mut out = Vec::new();
    for (k, h) in &now.sections {
        if then.sections.get(k) != Some(h) {
            out.push(k.clone());
        }
    }
    for k in then.sections.keys() {
        if !now.sections.contains_key(k) {
            out.push(k.clone());
        }
    }
    out.sort_by(|a, b| crate::check::compare_numbers(a, b));
    out.dedup();
    out
}

/// The YAML block for a record, as written into front matter.
pub fn to_yaml(r: &Record) -> String {
    let mut s = format!(
        "translated_from:\n  lang: {}\n  hash: \"{}\"\n",
        r.lang, r.hash
    );
    if !r.sections.is_empty() {
        s.push_str("  sections:\n");
        for (k, v) in &r.sections {
            s.push_str(&format!("    \"{k}\": \"{v}\"\n"));
        }
    }
    s
}

/// Replaces (or adds) the `translated_from` block in the front matter of a chapter file's text,
/// leaving every other line exactly as it was (line ends included).
pub fn rewrite_front_matter(text: &str, block: &str, file: &Path) -> Result<String, String> {
    // the file's own line ends, old Mac ones (`\r` alone) too, which the loader reads
    let (nl, end) = if text.contains("\r\n") {
        ("\r\n", '\n')
    } else if !text.contains('\n') && text.contains('\r') {
        ("\r", '\r')
    } else {
        ("\n", '\n')
    };
    let mut lines: Vec<&str> = text.split_inclusive(end).collect();
    let first = lines
        .first()
        .map(|l| l.trim_start_matches('\u{feff}').trim_end());
    if first != Some("---") {
        return Err(format!("{}: no front matter", file.display()));
    }
    let Some(close) = lines
        .iter()
        .skip(1)
        .position(|l| l.trim_end() == "---")
        .map(|i| i + 1)
    else {
        return Err(format!(
            "{}: the front matter is never closed",
            file.display()
        ));
    };
    // drop an old block: the key line and every line up to the next top-level key
    let mut i = 1;
    let mut kept: Vec<&str> = Vec::with_capacity(lines.len());
    kept.push(lines[0]);
    while i < close {
        // `translated_from :` and `"translated_from":` are the same key: missing them here
        // appended a second block, which the next load refuses as a duplicate
        if crate::load::front_matter_key(lines[i]).as_deref() == Some("translated_from") {
            // a value in brackets goes on until they close (`{lang: en,` then `hash: …}` on
            // the next line, which looks like a key of its own)
            let mut depth = brackets(lines[i]);
            i += 1;
            let aside = |l: &str| l.trim().is_empty() || l.trim_start().starts_with('#');
            // the block's own lines: indented ones, a list at the key's column (`- en`), any
            // line inside its brackets
            let within = |l: &str, depth: i32| {
                depth > 0 || (!aside(l) && crate::load::front_matter_key(l).is_none())
            };
            // a blank line or a comment is the block's when the block goes on after it (one
            // left behind kept the lines under it, indented under nothing: the file no longer
            // loaded)
            while i < close
                && (within(lines[i], depth)
                    || (aside(lines[i])
                        && (i..close)
                            .find(|&j| !aside(lines[j]))
                            .is_some_and(|j| within(lines[j], depth))))
            {
                depth += brackets(lines[i]);
                i += 1;
            }
            continue;
        }
        kept.push(lines[i]);
        i += 1;
    }
    let mut out = String::with_capacity(text.len() + block.len());
    for l in &kept {
        out.push_str(l);
    }
    for l in block.lines() {
        out.push_str(l);
        out.push_str(nl);
    }
    for l in lines.drain(close..) {
        out.push_str(l);
    }
    Ok(out)
}

/// How many more brackets (`{`, `[`) a line of YAML opens than it closes, outside quotes and
/// comments.
fn brackets(line: &str) -> i32 {
    let mut depth = 0;
    let mut quote = None;
    let mut prev = ' ';
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            // a quote opens a string only at the start of a value (`it's` is a word)
            (None, '"' | '\'') if prev.is_whitespace() || matches!(prev, '[' | '{' | ',' | ':') => {
                quote = Some(c)
            }
            (None, '#') if prev.is_whitespace() => break,
            (None, '{' | '[') => depth += 1,
            (None, '}' | ']') => depth -= 1,
            _ => {}
        }
        prev = c;
    }
    depth
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(text: &str, section: &str) -> Unit {
        Unit {
            line: 1,
            text: text.into(),
            section: section.into(),
            heading: false,
            original: false,
            targets: String::new(),
        }
    }

    #[test]
    fn an_old_record_with_blank_lines_or_comments_is_replaced_whole() {
        let block = "translated_from:\n  lang: en\n  hash: \"new\"\n";
        for old in [
            // a list at the key's column, and a mapping in braces over two lines: both were
            // partly left behind, and the file no longer loaded
            "translated_from:\n- en\n- \"abc\"\n",
            "translated_from: {lang: en,\nhash: \"abc\"}\n",
            "translated_from: [en, # a note {\n  \"abc\"]\n",
            "translated_from: {lang: en, note: it's old,\n  hash: \"abc\"}\n",
            "translated_from:\n  lang: en\n\n  hash: \"abc\"\n",
            "translated_from:\n  lang: en\n# from the English\n  hash: \"abc\"\n",
            "translated_from:\n  # a note\n  lang: en\n  hash: \"abc\"\n",
        ] {
            let text = format!("---\nid: x\n{old}weight: 2\n\n# kept\ntitle: T\n---\nbody\n");
            let out = rewrite_front_matter(&text, block, Path::new("x.md")).unwrap();
            assert_eq!(
                out,
                format!("---\nid: x\nweight: 2\n\n# kept\ntitle: T\n{block}---\nbody\n"),
                "{old:?}"
            );
        }
    }

    #[test]
    fn records_round_trip_through_front_matter() {
        let r = record("en", "T", &[u("a", ""), u("b", "7.1.0")]);
        let text = "---\nid: x\ntitle: T\ntranslated_from:\n  lang: en\n  hash: old\n---\nbody\n";
        let new = rewrite_front_matter(text, &to_yaml(&r), Path::new("x.md")).unwrap();
        assert!(new.starts_with("---\nid: x\ntitle: T\ntranslated_from:\n  lang: en\n"));
        assert!(new.ends_with("---\nbody\n"));
        assert_eq!(new.matches("translated_from").count(), 1);
        let yaml = new.split("---\n").nth(1).unwrap();
        let v: serde_yaml::Value = serde_yaml::from_str(yaml).unwrap();
        assert_eq!(parse(&v["translated_from"]).unwrap(), r);
    }

    #[test]
    fn changed_sections_are_listed() {
        let then = record("en", "T", &[u("a", ""), u("b", "7.1.0"), u("c", "7.2.0")]);
        let now = record("en", "T", &[u("a", ""), u("B", "7.1.0"), u("d", "7.10.0")]);
        assert_eq!(changed_sections(&then, &now), ["7.1.0", "7.2.0", "7.10.0"]);
        assert!(changed_sections(&then, &then).is_empty());
    }

    #[test]
    fn other_spellings_of_the_key_are_replaced() {
        for key in [
            "translated_from :",
            "\"translated_from\":",
            "'translated_from' :",
        ] {
            let text = format!("---\nid: x\n{key}\n  lang: en\n  hash: old\ntitle: T\n---\nbody\n");
            let new = rewrite_front_matter(&text, "translated_from:\n  lang: en\n", Path::new("x"))
                .unwrap();
            assert_eq!(
                new, "---\nid: x\ntitle: T\ntranslated_from:\n  lang: en\n---\nbody\n",
                "{key}"
            );
        }
    }

    #[test]
    fn crlf_files_keep_their_line_ends() {
        let text = "---\r\nid: x\r\n---\r\nbody\r\n";
        let new =
            rewrite_front_matter(text, "translated_from:\n  lang: en\n", Path::new("x")).unwrap();
        assert_eq!(
            new,
            "---\r\nid: x\r\ntranslated_from:\r\n  lang: en\r\n---\r\nbody\r\n"
        );
    }
}
