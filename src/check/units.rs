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

/// The unit being read, and the units read so far.
struct Collector<'a> {
    lines: LineIndex<'a>,
    first_line: usize,
    out: Vec<Unit>,
    text: String,
    /// Where the unit's text starts in the body.
    start: usize,
    targets: String,
    section: String,
    keep: KeepOriginal,
}

impl Collector<'_> {
    /// Ends the unit being read: a unit if it has text.
    fn flush(&mut self, heading: bool) {
        let t = self.text.split_whitespace().collect::<Vec<_>>().join(" ");
        self.text.clear();
        let targets = std::mem::take(&mut self.targets);
        if !t.is_empty() {
            self.out.push(Unit {
                line: self.lines.line(self.start) + self.first_line - 1,
                text: t,
                section: self.section.clone(),
                heading,
                original: self.keep.active(),
                targets,
            });
        }
        // even without text: a marker in an empty cell is that cell's
        self.keep.unit_done();
    }
}

/// Splits a chapter body into units. `first_line` is the line of the body in its file.
pub fn units(body: &str, first_line: usize) -> Vec<Unit> {
    let mut c = Collector {
        lines: LineIndex::new(body),
        first_line,
        out: Vec::new(),
        text: String::new(),
        start: 0,
        targets: String::new(),
        section: String::new(),
        keep: KeepOriginal::default(),
    };
    let mut in_code = 0usize;
    let mut in_heading = false;
    // the open link's section number, and where its text began in `c.text`
    let mut link: Option<(String, usize)> = None;
    for (event, range) in Parser::new_ext(body, crate::markdown::options()).into_offset_iter() {
        match &event {
            Event::Start(Tag::CodeBlock(_)) => in_code += 1,
            Event::End(TagEnd::CodeBlock) => in_code = in_code.saturating_sub(1),
            Event::Start(Tag::Heading { .. }) => {
                c.flush(false);
                in_heading = true;
                c.start = range.start;
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((n, _)) = split_heading_number(c.text.trim()) {
                    c.section = n;
                }
                c.flush(true);
                in_heading = false;
            }
            Event::Start(Tag::Paragraph | Tag::Item | Tag::TableCell) => {
                if !in_heading {
                    c.flush(false);
                }
                c.start = range.start;
            }
            Event::End(TagEnd::Paragraph | TagEnd::Item | TagEnd::TableCell) => c.flush(false),
            Event::Text(t) | Event::Code(t) if in_code == 0 => {
                if c.text.is_empty() {
                    c.start = range.start;
                }
                c.text.push_str(t);
            }
            Event::SoftBreak | Event::HardBreak => c.text.push(' '),
            Event::Start(Tag::Link { dest_url, .. }) if in_code == 0 => {
                // a page of the site's (`#6.1.0`, `b.md#7.1.0`), not another site's
                let external = dest_url.contains(':');
                let anchor =
                    (dest_url.rsplit_once('#').filter(|_| !external)).map_or("", |(_, a)| a);
                link = split_heading_number(anchor)
                    .filter(|(n, rest)| {
                        rest.is_empty() && n.len() == anchor.len() && n.contains('.')
                    })
                    .map(|(n, _)| (n, c.text.len()));
            }
            Event::End(TagEnd::Link) => {
                if let Some((n, from)) = link.take() {
                    if !c.text.get(from..).is_some_and(|t| t.contains(n.as_str())) {
                        if !c.targets.is_empty() {
                            c.targets.push(' ');
                        }
                        c.targets.push_str(&n);
                    }
                }
            }
            _ => {}
        }
        // after the event's own work: a block's start marks what follows it, not the text
        // flushed before it
        c.keep.step(&event);
    }
    c.flush(false);
    c.out
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
