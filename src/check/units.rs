//! Text units of a chapter: its paragraphs, headings, list items and table cells as plain text,
//! each with its line and the numbered section it belongs to.
//!
//! Coverage, terminology and stale-translation checks all compare languages unit by unit; they
//! read the Markdown again through pulldown-cmark (the build's HTML is no help: it has lost the
//! lines and mixes markup into the text).

use pulldown_cmark::{Event, Parser, Tag, TagEnd};

use crate::diag::LineIndex;
use crate::original::KeepOriginal;
use crate::sections::split_heading_number;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// 1-based line in the chapter file.
    pub line: usize,
    pub text: String,
    /// Number of the numbered section the unit is in (`7.1.0`), empty before the first one.
    pub section: String,
    pub heading: bool,
    /// Marked to stay in the original language (`<!-- keep original -->`, see
    /// [`crate::original`]): not text left to translate.
    pub original: bool,
    /// The section numbers its links lead to that their text does not show (`[the attack
    /// rules](#6.1.0)`), space-separated: where a reference points is part of what a rules
    /// text says, so a changed target makes a translation stale ([`super::stale`]).
    pub targets: String,
}

/// Splits a chapter body into units. `first_line` is the line of the body in its file.
pub fn units(body: &str, first_line: usize) -> Vec<Unit> {
    let lines = LineIndex::new(body);
    let mut out = Vec::new();
    let mut text = String::new();
    let mut start = 0usize;
    let mut section = String::new();
    let mut in_code = 0usize;
    let mut in_heading = false;
    let mut keep = KeepOriginal::default();
    let mut targets = String::new();
    // the open link's section number, and where its text began in `text`
    let mut link: Option<(String, usize)> = None;
    let flush = |text: &mut String,
                 targets: &mut String,
                 start: usize,
                 section: &str,
                 heading: bool,
                 keep: &mut KeepOriginal,
                 out: &mut Vec<Unit>| {
        let t = text.split_whitespace().collect::<Vec<_>>().join(" ");
        text.clear();
        if !t.is_empty() {
            out.push(Unit {
                line: lines.line(start) + first_line - 1,
                text: t,
                section: section.to_string(),
                heading,
                original: keep.active(),
                targets: std::mem::take(targets),
            });
        }
        targets.clear();
        // even without text: a marker in an empty cell is that cell's
        keep.unit_done();
    };
    for (event, range) in Parser::new_ext(body, crate::markdown::options()).into_offset_iter() {
        match &event {
            Event::Start(Tag::CodeBlock(_)) => in_code += 1,
            Event::End(TagEnd::CodeBlock) => in_code = in_code.saturating_sub(1),
            Event::Start(Tag::Heading { .. }) => {
                flush(
                    &mut text,
                    &mut targets,
                    start,
                    &section,
                    false,
                    &mut keep,
                    &mut out,
                );
                in_heading = true;
                start = range.start;
            }
            Event::End(TagEnd::Heading(_)) => {
                let t = text.trim().to_string();
                if let Some((n, _)) = split_heading_number(&t) {
                    section = n;
                }
                flush(
                    &mut text,
                    &mut targets,
                    start,
                    &section,
                    true,
                    &mut keep,
                    &mut out,
                );
                in_heading = false;
            }
            Event::Start(Tag::Paragraph | Tag::Item | Tag::TableCell) => {
                if !in_heading {
                    flush(
                        &mut text,
                        &mut targets,
                        start,
                        &section,
                        false,
                        &mut keep,
                        &mut out,
                    );
                }
                start = range.start;
            }
            Event::End(TagEnd::Paragraph | TagEnd::Item | TagEnd::TableCell) => {
                flush(
                    &mut text,
                    &mut targets,
                    start,
                    &section,
                    false,
                    &mut keep,
                    &mut out,
                );
            }
            Event::Text(t) | Event::Code(t) if in_code == 0 => {
                if text.is_empty() {
                    start = range.start;
                }
                text.push_str(t);
            }
            Event::SoftBreak | Event::HardBreak => text.push(' '),
            Event::Start(Tag::Link { dest_url, .. }) if in_code == 0 => {
                // a page of the site's (`#6.1.0`, `b.md#7.1.0`), not another site's
                let external = dest_url.contains(':');
                let anchor =
                    (dest_url.rsplit_once('#').filter(|_| !external)).map_or("", |(_, a)| a);
                link = split_heading_number(anchor)
                    .filter(|(n, rest)| {
                        rest.is_empty() && n.len() == anchor.len() && n.contains('.')
                    })
                    .map(|(n, _)| (n, text.len()));
            }
            Event::End(TagEnd::Link) => {
                if let Some((n, from)) = link.take() {
                    if !text.get(from..).is_some_and(|t| t.contains(n.as_str())) {
                        if !targets.is_empty() {
                            targets.push(' ');
                        }
                        targets.push_str(&n);
                    }
                }
            }
            _ => {}
        }
        // after the event's own work: a block's start marks what follows it, not the text
        // flushed before it
        keep.step(&event);
    }
    flush(
        &mut text,
        &mut targets,
        start,
        &section,
        false,
        &mut keep,
        &mut out,
    );
    out
}

/// The writing system a language is expected to be written in, when we know it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Script {
    Latin,
    Cyrillic,
}

pub fn script_of(lang: &str) -> Option<Script> {
    let base = lang.split('-').next().unwrap_or(lang);
    match base {
        "uk" | "ru" | "be" | "bg" | "sr" | "mk" | "kk" | "ky" | "tg" | "mn" => {
            Some(Script::Cyrillic)
        }
        "en" | "de" | "fr" | "es" | "it" | "pt" | "pl" | "nl" | "cs" | "sk" | "sv" | "da"
        | "no" | "nb" | "fi" | "et" | "lv" | "lt" | "ro" | "hu" | "hr" | "sl" | "tr" | "ca"
        | "eu" | "ga" | "is" | "id" | "ms" | "vi" => Some(Script::Latin),
        _ => None,
    }
}

/// The units of `us` not written in `lang`'s script: text still in another language, unless
/// marked to stay so. None for a language whose script is not known (all of it counts as its
/// own). What coverage
/// counts, `check --untranslated` lists and `translated` warns of.
pub fn untranslated<'u>(lang: &str, us: &'u [Unit]) -> Vec<&'u Unit> {
    match script_of(lang) {
        Some(s) => us
            .iter()
            .filter(|u| !u.original && !written_in(&u.text, s))
            .collect(),
        None => Vec::new(),
    }
}

/// Whether a unit of text is written in `script`: more of its letters are of that script than of
/// the other. Symbol names (`:main:`) are not words and do not count; a unit without letters
/// (numbers only) counts as written in any script.
pub fn written_in(text: &str, script: Script) -> bool {
    let (mut latin, mut cyrillic) = (0usize, 0usize);
    let mut in_symbol = false;
    for c in text.chars() {
        // the common cases first: `is_alphabetic` is a table look-up outside ASCII
        if c.is_ascii_alphabetic() {
            if !in_symbol {
                latin += 1;
            }
            continue;
        }
        if is_cyrillic_letter(c) {
            if !in_symbol {
                cyrillic += 1;
            }
            continue;
        }
        if c == ':' {
            in_symbol = !in_symbol;
            continue;
        }
        if !c.is_alphabetic() {
            if !(c.is_ascii_alphanumeric() || c == '-' || c == '_') {
                in_symbol = false;
            }
            continue;
        }
        if in_symbol {
            continue;
        }
        match c as u32 {
            0x0400..=0x052F => cyrillic += 1,
            _ if c.is_ascii_alphabetic() || (0x00C0..=0x024F).contains(&(c as u32)) => latin += 1,
            _ => {}
        }
    }
    match script {
        Script::Latin => latin >= cyrillic,
        Script::Cyrillic => cyrillic >= latin,
    }
}

/// A letter of the basic Cyrillic block (U+0482–U+0489 are signs and combining marks).
pub fn is_cyrillic_letter(c: char) -> bool {
    matches!(c, '\u{0400}'..='\u{0481}' | '\u{048A}'..='\u{04FF}')
}

/// `char::is_alphanumeric` with the common cases (ASCII, Cyrillic) answered without a table.
pub fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || is_cyrillic_letter(c) || (!c.is_ascii() && c.is_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_to_sections_their_text_does_not_show_are_kept() {
        let u = units("See [the attack rules](#6.1.0), [6.2.0 Rules](#6.2.0), [that](b.md#7.1.0) and [x](https://e.org/#1.0).\n\nPlain.\n", 1);
        assert_eq!(u[0].targets, "6.1.0 7.1.0");
        assert_eq!(u[0].text, "See the attack rules, 6.2.0 Rules, that and x.");
        assert_eq!(u[1].targets, "");
    }

    #[test]
    fn units_carry_lines_and_sections() {
        let body = "Intro text.\n\n## 7.1.0 Title\n\n- one\n- two\n\n```\ncode\n```\n\n| a | b |\n|---|---|\n| c | d |\n";
        let u = units(body, 5);
        let texts: Vec<(&str, usize, &str)> = u
            .iter()
            .map(|u| (u.text.as_str(), u.line, u.section.as_str()))
            .collect();
        assert_eq!(
            texts,
            [
                ("Intro text.", 5, ""),
                ("7.1.0 Title", 7, "7.1.0"),
                ("one", 9, "7.1.0"),
                ("two", 10, "7.1.0"),
                ("a", 16, "7.1.0"),
                ("b", 16, "7.1.0"),
                ("c", 18, "7.1.0"),
                ("d", 18, "7.1.0"),
            ]
        );
    }

    #[test]
    fn scripts() {
        assert!(written_in("Розмістіть кубики", Script::Cyrillic));
        assert!(!written_in("Place the dice", Script::Cyrillic));
        assert!(written_in("Витратьте :main: дію", Script::Cyrillic));
        assert!(written_in(
            "Ashes: Відродження Пломенекровних",
            Script::Cyrillic
        ));
        assert!(written_in("1.2.3", Script::Cyrillic));
        assert_eq!(script_of("pt-BR"), Some(Script::Latin));
        assert_eq!(script_of("ja"), None);
    }
}
