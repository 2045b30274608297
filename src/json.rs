//! Strings for JSON written by hand (the search index's document chunks, the exports), escaped
//! exactly as serde_json escapes them, so the output is the same as serializing them.

/// Appends `text` to `out` as the inside of a JSON string.
///
/// Most text has nothing to escape, so one pass over the bytes rules that out first; `fold`
/// rather than `any`, because with no early exit the test is vectorized, and on text with
/// nothing to escape it would run to the end anyway. Text with something to escape (a
/// passage of the search index with a line break in it) is then looked at [`BLOCK`] bytes at a
/// time, the same way, and only a block with something in it byte by byte: a byte at a time
/// throughout, such text cost 45 M of the 2,009 M instructions of a 200-chapter build.
pub fn escape_into(text: &str, out: &mut String) {
    let bytes = text.as_bytes();
    if !has_special(bytes) {
        out.push_str(text);
        return;
    }
    // every character to escape is ASCII: the runs between them are copied whole
    let mut from = 0;
    let mut start = 0;
    while start < bytes.len() {
        let end = (start + BLOCK).min(bytes.len());
        if has_special(&bytes[start..end]) {
            for (i, &b) in bytes.iter().enumerate().take(end).skip(start) {
                if special(b) {
                    out.push_str(&text[from..i]);
                    push_escaped(b, out);
                    from = i + 1;
                }
            }
        }
        start = end;
    }
    out.push_str(&text[from..]);
}

/// Bytes [`escape_into`] tests at once in text with something to escape.
const BLOCK: usize = 32;

/// A byte JSON escapes: a control character, `"` or `\`.
fn special(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

fn has_special(bytes: &[u8]) -> bool {
    bytes.iter().fold(false, |found, &b| found | special(b))
}

/// The escape of one byte that [`special`] says JSON escapes, as serde_json writes it.
fn push_escaped(b: u8, out: &mut String) {
    match b {
        b'"' => out.push_str("\\\""),
        b'\\' => out.push_str("\\\\"),
        b'\n' => out.push_str("\\n"),
        b'\r' => out.push_str("\\r"),
        b'\t' => out.push_str("\\t"),
        0x08 => out.push_str("\\b"),
        0x0c => out.push_str("\\f"),
        _ => {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u00");
            out.push(HEX[usize::from(b >> 4)] as char);
            out.push(HEX[usize::from(b & 0xf)] as char);
        }
    }
}

/// [`escape_into`] for JSON inside a `<script>` element: `<` also as `\u003c`, so that no
/// text can end the element or open a comment in it (what `serde_json` then
/// `.replace('<', "\\u003c")` gives, in one pass).
pub fn escape_script_into(text: &str, out: &mut String) {
    if !text.contains('<') {
        escape_into(text, out);
        return;
    }
    let mut parts = text.split('<');
    if let Some(first) = parts.next() {
        escape_into(first, out);
    }
    for part in parts {
        out.push_str("\\u003c");
        escape_into(part, out);
    }
}

/// `text` as a JSON string, quotes included.
pub fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    quoted_into(text, &mut out);
    out
}

/// [`quoted`], appended to `out`.
pub fn quoted_into(text: &str, out: &mut String) {
    out.push('"');
    escape_into(text, out);
    out.push('"');
}

/// `{"key":["text",…],…}` for a `<script>` element, each string escaped with
/// [`escape_script_into`]: what `serde_json` writes for a map of string lists, then
/// `.replace('<', "\\u003c")`. The section previews, the tooltips and the short-address table
/// are such maps over every section or entry of the site, written without serde's detour.
pub fn script_map_into<'a, L: IntoIterator<Item = &'a str>>(
    entries: impl IntoIterator<Item = (&'a str, L)>,
    out: &mut String,
) {
    let quoted = |text: &str, out: &mut String| {
        out.push('"');
        escape_script_into(text, out);
        out.push('"');
    };
    out.push('{');
    for (i, (key, list)) in entries.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        quoted(key, out);
        out.push_str(":[");
        for (j, text) in list.into_iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            quoted(text, out);
        }
        out.push(']');
    }
    out.push('}');
}

#[cfg(test)]
mod tests {
    use super::quoted;
    use proptest::prelude::*;

    #[test]
    fn escapes_like_serde_json() {
        for s in [
            "",
            "правило 7.1.0",
            "a \"b\" \\c",
            "tab\tnl\nnul\u{0}\u{8}\u{c}\r\u{1f}",
            "…ʼ’",
        ] {
            assert_eq!(quoted(s), serde_json::to_string(s).unwrap(), "{s:?}");
        }
    }

    proptest! {
        #[test]
        fn escapes_any_text_like_serde_json(s in "\\PC{0,40}|[\\x00-\\x7f]{0,40}") {
            prop_assert_eq!(quoted(&s), serde_json::to_string(&s).unwrap());
        }

        /// Longer text, a few characters to escape in it: runs over several blocks.
        #[test]
        fn escapes_long_text_like_serde_json(s in "([a-zа-яʼ ]{0,45}[\"\\\\\n\t\u{1}]?){0,8}") {
            prop_assert_eq!(quoted(&s), serde_json::to_string(&s).unwrap());
        }
    }
}
