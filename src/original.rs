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
