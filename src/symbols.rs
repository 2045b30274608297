//! Game symbols: `:main:` in Markdown (and the chat placeholders `<:main:4080…>` that the
//! glossary seed uses) become icons with a text alternative.
//!
//! The set of symbols is not fixed in code: a symbol exists when the theme or the site has
//! `static/icons/<name>.svg`, and its text alternative comes from the `symbols` table of the
//! language's UI strings. Another game brings its own icons and names.

use std::collections::BTreeMap;

use crate::html::{escape_into, escape_text_into};

#[derive(Debug, Clone, Default)]
pub struct Symbols {
    /// Symbol name → text alternative in one language.
    names: BTreeMap<String, String>,
}

impl Symbols {
    pub fn new(
        available: impl IntoIterator<Item = String>,
        alt: &BTreeMap<String, String>,
    ) -> Self {
        let names = available
            .into_iter()
            .map(|n| {
                let text = alt.get(&n).cloned().unwrap_or_else(|| n.replace('-', " "));
                (n, text)
            })
            .collect();
        Symbols { names }
    }

    pub fn alt(&self, name: &str) -> Option<&str> {
        self.names.get(name).map(String::as_str)
    }

    pub fn names(&self) -> impl Iterator<Item = (&String, &String)> {
        self.names.iter()
    }

    /// The `:name:` spans of `text` that are no symbol but one a letter or two from a symbol's
    /// name (`:enrgy:` for `:energy:`), with the name they likely meant: shown as text, they
    /// are a typo the author wants to hear of. Other `:words:` (a time, `a:b:c`) are left
    /// alone. (byte offset, what was written, the symbol's name)
    pub fn misspelled<'t>(&self, text: &'t str) -> Vec<(usize, &'t str, &str)> {
        let mut out = Vec::new();
        if self.names.is_empty() {
            return out;
        }
        let bytes = text.as_bytes();
        let mut i = 0;
        while let Some(off) = memchr::memchr(b':', &bytes[i..]) {
            let start = i + off;
            let len = bytes[start + 1..]
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || **b == b'-' || **b == b'_')
                .count();
            let end = start + 1 + len;
            if len >= 4 && bytes.get(end) == Some(&b':') {
                let name = &text[start + 1..end];
                if !self.names.contains_key(name) {
                    if let Some(near) =
                        crate::theme::near_key(name, self.names.keys().map(String::as_str))
                    {
                        out.push((start, &text[start..=end], near));
                        i = end + 1;
                        continue;
                    }
                }
            }
            i = start + 1;
        }
        out
    }

    /// Escapes `text` into `out`, replacing every known symbol with its icon.
    pub fn render_into(&self, text: &str, root: &str, out: &mut String) {
        let mut last = 0;
        while let Some((start, end, name)) = self.next_symbol(text, last) {
            escape_text_into(&text[last..start], out);
            self.icon(name, root, out);
            last = end;
        }
        escape_text_into(&text[last..], out);
    }

    /// The byte ranges of the symbols in `text`, in order.
    pub fn spans(&self, text: &str) -> Vec<std::ops::Range<usize>> {
        let mut out = Vec::new();
        let mut last = 0;
        while let Some((start, end, _)) = self.next_symbol(text, last) {
            out.push(start..end);
            last = end;
        }
        out
    }

    /// Plain text with symbols spelled out (for search, previews and titles).
    pub fn to_plain(&self, text: &str) -> String {
        self.plain(text).into_owned()
    }

    /// [`Self::to_plain`], borrowing `text` when it has no symbol (most text has none): the
    /// search documents hold the text of every section, and copies of it cost the
    /// 2,000-chapter build about 80 MB.
    pub fn plain<'t>(&self, text: &'t str) -> std::borrow::Cow<'t, str> {
        if self.next_symbol(text, 0).is_none() {
            return text.into();
        }
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        while let Some((start, end, name)) = self.next_symbol(text, last) {
            out.push_str(&text[last..start]);
            out.push_str(self.alt(name).unwrap_or(name));
            last = end;
        }
        out.push_str(&text[last..]);
        out.into()
    }

    /// The first symbol that starts at or after byte `from`. Symbols start at a `:` or at the
    /// `<` just before one, so the search jumps from colon to colon (memchr) instead of trying
    /// every byte: this runs over the whole text of every page, for search and previews too.
    fn next_symbol<'t>(&self, text: &'t str, from: usize) -> Option<(usize, usize, &'t str)> {
        if self.names.is_empty() {
            return None;
        }
        let bytes = text.as_bytes();
        let mut i = from;
        while let Some(off) = memchr::memchr(b':', bytes.get(i..)?) {
            let colon = i + off;
            let at = if colon > from && bytes[colon - 1] == b'<' {
                colon - 1
            } else {
                colon
            };
            if let Some(found) = self.symbol_at(text, at) {
                return Some(found);
            }
            i = colon + 1;
        }
        None
    }

    fn icon(&self, name: &str, root: &str, out: &mut String) {
        let alt = self.alt(name).unwrap_or(name);
        out.push_str("<img class=\"sym\" src=\"");
        out.push_str(root);
        out.push_str("static/icons/");
        out.push_str(name);
        out.push_str(".svg\" alt=\"");
        escape_into(alt, out);
        out.push_str("\" title=\"");
        escape_into(alt, out);
        out.push_str("\" width=\"18\" height=\"18\">");
    }

    /// A symbol starting at byte `i`: `:name:` or `<:name:digits>`. Returns (start, end, name).
    fn symbol_at<'t>(&self, text: &'t str, i: usize) -> Option<(usize, usize, &'t str)> {
        let b = text.as_bytes();
        let (name_start, chat) = match b.get(i) {
            Some(b'<') if b.get(i + 1) == Some(&b':') => (i + 2, true),
            Some(b':') => (i + 1, false),
            _ => return None,
        };
        let mut j = name_start;
        while j < b.len()
            && (b[j].is_ascii_lowercase() || b[j].is_ascii_digit() || b[j] == b'-' || b[j] == b'_')
        {
            j += 1;
        }
        if j == name_start || b.get(j) != Some(&b':') {
            return None;
        }
        let name = &text[name_start..j];
        if !self.names.contains_key(name) {
            return None;
        }
        if chat {
            let mut k = j + 1;
            while k < b.len() && b[k].is_ascii_digit() {
                k += 1;
            }
            (b.get(k) == Some(&b'>')).then_some((i, k + 1, name))
        } else {
            // `:main:` must not be glued to a word on the left (`a:main:` is not a symbol)
            let glued = i > 0
                && text[..i]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_alphanumeric() || c == '<');
            (!glued).then_some((i, j + 1, name))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn syms() -> Symbols {
        let mut alt = BTreeMap::new();
        alt.insert("main".to_string(), "Main action".to_string());
        Symbols::new(["main".to_string(), "side".to_string()], &alt)
    }

    #[test]
    fn renders_both_spellings() {
        let mut out = String::new();
        syms().render_into(
            "Pay a :main: or <:side:408070378204954629> cost <b>",
            "../../",
            &mut out,
        );
        assert_eq!(out.matches("<img class=\"sym\"").count(), 2, "{out}");
        assert!(out.contains("alt=\"Main action\""));
        assert!(out.contains("alt=\"side\""));
        assert!(out.ends_with("cost &lt;b&gt;"));
    }

    #[test]
    fn leaves_unknown_and_glued_names() {
        let mut out = String::new();
        syms().render_into("at 10:30:45 :nope: a:main: <:main:x>", "", &mut out);
        assert!(!out.contains("<img"), "{out}");
    }

    #[test]
    fn spans_are_the_symbols_byte_ranges() {
        let t = "Pay :main: then <:side:4080> and :nope:";
        let spans: Vec<&str> = syms().spans(t).into_iter().map(|r| &t[r]).collect();
        assert_eq!(spans, [":main:", "<:side:4080>"]);
    }

    #[test]
    fn plain_text_spells_symbols_out() {
        assert_eq!(syms().to_plain("Pay :main:"), "Pay Main action");
    }
}
