//! Text that stays in the original language on purpose: a card's name, a quoted card text, a
//! list of names. A translator marks it with the comment `<!-- keep original -->`:
//!
//! - on a line of its own, it marks the block that follows (a paragraph, a heading, a whole
//!   list or table);
//! - inside a paragraph, list item or table cell, it marks that one.
//!
//! Marked text is no untranslated text: coverage, `check --untranslated` and `translated` do
//! not count it ([`crate::check::units`]), and the build does not mark its paragraph as not
//! translated yet ([`crate::markdown`]). Other Markdown renderers show nothing of the comment.

use pulldown_cmark::{Event, Tag, TagEnd};

/// Whether `html` (an HTML block or inline HTML) is the marker.
pub fn is_marker(html: &str) -> bool {
    html.trim()
        .strip_prefix("<!--")
        .and_then(|r| r.strip_suffix("-->"))
        .is_some_and(|m| m.trim().eq_ignore_ascii_case("keep original"))
}

/// A chapter's text with every marker that begins a line followed by text on that line
/// (`<!-- keep original --> The card's text`, `1. <!-- keep original --> Name`) moved to the end
/// of that line. Markdown starts a raw HTML block at a line that begins with `<!--`, so the
/// text after such a marker was shown as it was written (`**` and all), was dropped by
/// `--safe`, and counted as neither translated nor not: at the line's end the marker is inside
/// its paragraph or list item, as the translator meant. Lines inside fenced code are left as
/// they are; no line is added or removed, so every line number stays.
pub fn lift_line_markers(body: &str) -> std::borrow::Cow<'_, str> {
    if !body.contains("<!--") {
        return body.into();
    }
    let mut out = String::with_capacity(body.len() + 8);
    let mut fence: Option<(u8, usize)> = None;
    let mut changed = false;
    for line in body.split_inclusive('\n') {
        let text = line.trim_end_matches(['\n', '\r']);
        let end = &line[text.len()..];
        let trimmed = text.trim_start();
        let run = |c: u8| trimmed.bytes().take_while(|&b| b == c).count();
        let opens = [b'`', b'~']
            .into_iter()
            .map(|c| (c, run(c)))
            .find(|&(_, n)| n >= 3);
        match (fence, opens) {
            (None, Some(f)) => fence = Some(f),
            (Some((c, n)), Some((c2, n2)))
                if c == c2 && n2 >= n && trimmed[n2..].trim().is_empty() =>
            {
                fence = None
            }
            _ => {}
        }
        if fence.is_none() && opens.is_none() {
            if let Some((prefix, marker, rest)) = split_line_marker(text) {
                out.push_str(prefix);
                out.push_str(rest.trim_end());
                out.push_str(marker);
                out.push_str(end);
                changed = true;
                continue;
            }
        }
        out.push_str(line);
    }
    if changed {
        out.into()
    } else {
        body.into()
    }
}

/// `text` as (its block prefix: indent, quote marks, a list marker; the marker; the text after
/// it) when it begins with a marker followed by text.
fn split_line_marker(text: &str) -> Option<(&str, &str, &str)> {
    let b = text.as_bytes();
    let mut i = 0;
    loop {
        while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
            i += 1;
        }
        match b.get(i) {
            Some(b'>') => i += 1,
            Some(b'-' | b'*' | b'+') if matches!(b.get(i + 1), Some(b' ' | b'\t')) => i += 1,
            Some(c) if c.is_ascii_digit() => {
                let digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
                if digits <= 9
                    && matches!(b.get(i + digits), Some(b'.' | b')'))
                    && matches!(b.get(i + digits + 1), Some(b' ' | b'\t'))
                {
                    i += digits + 1;
                } else {
                    return None;
                }
            }
            _ => break,
        }
    }
    let rest = &text[i..];
    let close = rest.strip_prefix("<!--")?.find("-->")? + 4 + 3;
    let marker = &rest[..close];
    let after = &rest[close..];
    (is_marker(marker) && !after.trim().is_empty()).then_some((
        &text[..i],
        marker,
        after.trim_start(),
    ))
}

/// Follows a chapter's Markdown events and tells whether the text being read is marked.
#[derive(Debug, Default)]
pub struct KeepOriginal {
    /// A marker on a line of its own was met: the next block is marked.
    pending: bool,
    /// Open elements (blocks and inline markup), the marker's own HTML block left out.
    depth: usize,
    /// The depth of the marked block while it is open.
    until: Option<usize>,
    /// A marker inside the open paragraph, item or cell.
    inline: bool,
}

impl KeepOriginal {
    /// Takes in one event. Call it after handling the event's text: a block's start marks
    /// the text that follows, its end unmarks it.
    pub fn step(&mut self, e: &Event<'_>) {
        match e {
            Event::Html(h) if is_marker(h) => self.pending = true,
            Event::InlineHtml(h) if is_marker(h) => self.inline = true,
            Event::Start(Tag::HtmlBlock) | Event::End(TagEnd::HtmlBlock) => {}
            Event::Start(_) => {
                self.depth += 1;
                if self.pending {
                    self.pending = false;
                    self.until.get_or_insert(self.depth);
                }
            }
            Event::End(_) => {
                if self.until == Some(self.depth) {
                    self.until = None;
                }
                self.depth = self.depth.saturating_sub(1);
            }
            _ => {}
        }
    }

    /// Whether the text read now is marked to stay in the original language.
    pub fn active(&self) -> bool {
        self.until.is_some() || self.inline
    }

    /// A unit of text (paragraph, item, cell, heading) ended: an inline marker was its alone.
    pub fn unit_done(&mut self) {
        self.inline = false;
    }

    /// Whether an inline marker was met in the unit read so far, which it then leaves: a list
    /// item's own text ends where a nested list's first item starts.
    pub fn take_inline(&mut self) -> bool {
        std::mem::take(&mut self.inline)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pulldown_cmark::Parser;

    #[test]
    fn a_marker_that_begins_a_line_of_text_goes_to_its_end() {
        let m = "<!-- keep original -->";
        let lifted = |t: &str| lift_line_markers(t).into_owned();
        assert_eq!(
            lifted(&format!("{m} The **text**.\r\nNext\n")),
            format!("The **text**.{m}\r\nNext\n")
        );
        assert_eq!(
            lifted(&format!("1. {m}  Deal\n   - {m} Name\n> {m} Q\n")),
            format!("1. Deal{m}\n   - Name{m}\n> Q{m}\n")
        );
        // on a line of its own, inside code, or another comment: as it is
        for same in [
            format!("{m}\nText\n"),
            format!("```\n{m} x\n```\n"),
            "<!-- note --> x\n".into(),
            format!("Text {m} more\n"),
        ] {
            assert_eq!(lifted(&same), same);
        }
        // after the fence closes, lines are looked at again
        assert_eq!(
            lifted(&format!("~~~~\n{m} x\n~~~~\n{m} y")),
            format!("~~~~\n{m} x\n~~~~\ny{m}")
        );
        // the lifted marker marks its paragraph or item, and the text is text
        let t = lifted(&format!("{m} The **text**.\n\n- {m} Name\n- Other\n"));
        assert_eq!(
            marked(&t),
            [
                ("The text.".to_string(), true),
                ("Name".to_string(), true),
                ("Other".to_string(), false)
            ]
        );
    }

    /// The text of every paragraph, heading or list item of `md`, and whether it is marked.
    fn marked(md: &str) -> Vec<(String, bool)> {
        let mut k = KeepOriginal::default();
        let mut out = Vec::new();
        let mut text = String::new();
        for e in Parser::new(md) {
            match &e {
                Event::Text(t) => text.push_str(t),
                Event::End(TagEnd::Paragraph | TagEnd::Heading(_) | TagEnd::Item)
                    if !text.is_empty() =>
                {
                    out.push((std::mem::take(&mut text), k.active()));
                    k.unit_done();
                }
                _ => {}
            }
            k.step(&e);
        }
        out
    }

    #[test]
    fn a_marker_marks_the_next_block_or_its_own_paragraph() {
        let md = "Before.\n\n<!-- keep original -->\nCoal Roarkwin\n\nAfter.\n\n\
                  <!--  Keep Original  -->\n\n- Aradel\n- *Maeoni* Viper\n\nLast.\n\n\
                  Card <!-- keep original --> text.\n\nNot this.\n\n<!-- a note -->\nPlain.\n\n\
                  # Heading\n";
        assert_eq!(
            marked(md),
            [
                ("Before.".into(), false),
                ("Coal Roarkwin".into(), true),
                ("After.".into(), false),
                ("Aradel".into(), true),
                ("Maeoni Viper".into(), true),
                ("Last.".into(), false),
                ("Card  text.".into(), true),
                ("Not this.".into(), false),
                ("Plain.".into(), false),
                ("Heading".into(), false),
            ]
        );
        assert!(is_marker("<!--keep original-->\n"));
        assert!(!is_marker("<!-- keep original text -->"));
    }
}
