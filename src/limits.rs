//! Limits: the bounds that keep hostile or broken input from using up the machine's time or
//! memory. Each one is far above what a real rules reference needs, and hitting one is reported
//! like any other problem: file, line, and what to do.

use std::path::Path;

use crate::diag::{Diagnostic, Diagnostics};

/// Largest file the build reads (16 MiB). The whole Rules Reference is well under 1 MiB; a file
/// many times that size is a mistake (a log, a dump), and reading it would only use up memory.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Reads a content file, refusing one larger than [`MAX_FILE_BYTES`] before reading it, and
/// one that is not a file at all: opening a named pipe waits for a writer that never comes, so
/// a pipe as `site.yaml` hung the build.
pub fn read_limited(path: &Path, shown: &Path, diags: &mut Diagnostics) -> Option<Vec<u8>> {
    use std::io::Read;
    if let Ok(m) = std::fs::metadata(path) {
        if !m.is_file() && !m.is_dir() {
            diags.push(Diagnostic::error(
                "io",
                shown,
                0,
                "this is not a plain file (a pipe, a socket or a device); it must be a text file",
            ));
            return None;
        }
    }
    let result = std::fs::File::open(path).and_then(|f| {
        let mut bytes = Vec::new();
        // one byte more than the limit tells "too large" apart from "exactly the limit"
        f.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
        Ok(bytes)
    });
    match result {
        Ok(bytes) if bytes.len() as u64 > MAX_FILE_BYTES => {
            diags.push(Diagnostic::error(
                "too-large",
                shown,
                0,
                format!(
                    "the file is larger than {} MiB; {}",
                    MAX_FILE_BYTES / 1024 / 1024,
                    if shown.extension().is_some_and(|e| e == "md") {
                        "split it into several chapters"
                    } else {
                        "no site needs one this large: check that it is the file you meant"
                    }
                ),
            ));
            None
        }
        Ok(bytes) => Some(bytes),
        Err(e) => {
            diags.push(Diagnostic::error(
                "io",
                shown,
                0,
                format!("cannot read: {e}"),
            ));
            None
        }
    }
}

/// Deepest `[`/`{` nesting accepted in YAML (front matter, site.yaml, UI strings). The YAML
/// parser stops at 128 levels itself, but only after a scan whose time grows with the square of
/// the depth: 100,000 `[` took most of a minute. Counting first is linear.
pub const MAX_YAML_DEPTH: usize = 64;

/// Byte offset of the first `[` or `{` that nests deeper than [`MAX_YAML_DEPTH`], if any.
/// Quoted strings and comments are skipped; a bracket inside a plain scalar is counted too, which
/// errs on the side of refusing text that no real front matter contains.
pub fn yaml_too_deep(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_YAML_DEPTH {
                    return Some(i);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            q @ (b'"' | b'\'') if i == 0 || !b[i - 1].is_ascii_alphanumeric() => {
                i += 1;
                while i < b.len() && b[i] != q && b[i] != b'\n' {
                    if q == b'"' && b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'#' if i == 0 || b[i - 1].is_ascii_whitespace() => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The diagnostic for YAML nested too deeply, at the line of the offending bracket.
pub fn too_deep_diagnostic(
    kind: &'static str,
    file: &Path,
    text: &str,
    offset: usize,
    first_line: usize,
) -> Diagnostic {
    let (line, col) = crate::diag::LineIndex::new(text).position(offset);
    Diagnostic::error(
        kind,
        file,
        line + first_line - 1,
        format!("YAML nested more than {MAX_YAML_DEPTH} levels deep is not accepted"),
    )
    .at_column(col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_is_counted_outside_quotes() {
        assert_eq!(yaml_too_deep("a: [1, [2]]\nb: {c: d}"), None);
        let deep = format!("a: {}", "[".repeat(MAX_YAML_DEPTH + 1));
        assert_eq!(yaml_too_deep(&deep), Some(3 + MAX_YAML_DEPTH));
        let quoted = format!("a: \"{}\"", "[".repeat(500));
        assert_eq!(yaml_too_deep(&quoted), None);
        let comment = format!("a: b # {}", "{".repeat(500));
        assert_eq!(yaml_too_deep(&comment), None);
    }
}
