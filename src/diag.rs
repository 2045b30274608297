//! Diagnostics: every problem the build finds, with the file, line and column it comes from.
//!
//! Stages never print or exit on their own; they push a [`Diagnostic`] and carry on, so that one
//! run reports every problem at once instead of making the user fix them one per build.

use std::fmt;
use std::path::{Path, PathBuf};

/// How bad a finding is. `--strict` turns every warning into an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Warning,
    Error,
}

/// One finding. `kind` is a stable, machine-readable name (`broken-ref`, `duplicate-id`, …)
/// that tests and `check --format json` rely on.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub kind: &'static str,
    /// Path relative to the site root where possible, so messages read the same on every machine.
    pub file: PathBuf,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl Diagnostic {
    pub fn error(
        kind: &'static str,
        file: impl Into<PathBuf>,
        line: usize,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            severity: Severity::Error,
            kind,
            file: file.into(),
            line,
            column: 0,
            message: message.into(),
        }
    }

    /// A site folder without `content/`: every command says it in the same words.
    pub fn missing_content(site: &Path) -> Self {
        Diagnostic::error(
            "missing-content",
            site.join("content"),
            0,
            "no content/ folder here; point --site at the folder that holds content/ (or \
             create one with `rulebook init`)",
        )
    }

    pub fn warning(
        kind: &'static str,
        file: impl Into<PathBuf>,
        line: usize,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            kind,
            file: file.into(),
            line,
            column: 0,
            message: message.into(),
        }
    }

    pub fn at_column(mut self, column: usize) -> Self {
        self.column = column;
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = match self.severity {
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        write!(f, "{level}[{}]: ", self.kind)?;
        write_plain(f, &self.file.display().to_string(), false)?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
            if self.column > 0 {
                write!(f, ":{}", self.column)?;
            }
        }
        f.write_str(": ")?;
        write_plain(f, &self.message, true)
    }
}

/// Writes `text` with its control characters shown as `\u{..}` escapes: file names and
/// messages quote the content, and an escape sequence in a file name (ESC `[2J`…) would
/// otherwise be run by the terminal that shows the report. A line break stays one in a
/// message (some span lines) but not in a file name, which must stay on its line.
fn write_plain(f: &mut fmt::Formatter<'_>, text: &str, breaks: bool) -> fmt::Result {
    f.write_str(&plain(text, breaks))
}

/// `text` with its control characters shown as `\u{..}` escapes (line breaks and tabs kept
/// when `breaks`), for any text of the content a command prints to the terminal: titles,
/// snippets, lines of text (see [`write_plain`]).
pub fn plain(text: &str, breaks: bool) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if c.is_control() && !(breaks && (c == '\n' || c == '\t')) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out.into()
}

/// A list of findings; sorted before it is shown so the report does not depend on thread timing.
#[derive(Debug, Default, Clone)]
pub struct Diagnostics {
    pub items: Vec<Diagnostic>,
}

impl Diagnostics {
    pub fn push(&mut self, d: Diagnostic) {
        self.items.push(d);
    }

    pub fn extend(&mut self, other: impl IntoIterator<Item = Diagnostic>) {
        self.items.extend(other);
    }

    pub fn has_errors(&self) -> bool {
        self.items.iter().any(|d| d.severity == Severity::Error)
    }

    pub fn count(&self, severity: Severity) -> usize {
        self.items.iter().filter(|d| d.severity == severity).count()
    }

    /// Turns every warning into an error (`--strict`).
    pub fn make_strict(&mut self) {
        for d in &mut self.items {
            d.severity = Severity::Error;
        }
    }

    pub fn sort(&mut self) {
        self.items.sort_by(|a, b| {
            (&a.file, a.line, a.column, a.kind, &a.message)
                .cmp(&(&b.file, b.line, b.column, b.kind, &b.message))
        });
        self.items.dedup();
    }
}

/// Maps byte offsets of a text to 1-based line and column numbers (columns count characters).
pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str) -> Self {
        // every chapter gets one (for the lines of its diagnostics): memchr's search of the
        // bytes is several times faster than `match_indices` on them
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        LineIndex { text, starts }
    }

    /// 1-based (line, column) of a byte offset.
    pub fn position(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let column = self
            .text
            .get(start..offset)
            .map(|s| s.chars().count())
            .unwrap_or(0)
            + 1;
        (line + 1, column)
    }

    /// 1-based line of a byte offset. Does not count columns: that walks the line, and on a
    /// 10 MB line asked once per event it would make rendering quadratic.
    pub fn line(&self, offset: usize) -> usize {
        let offset = offset.min(self.text.len());
        self.starts.partition_point(|&s| s <= offset)
    }
}

/// A path shown relative to the site root when it lies below it.
pub fn display_path(path: &Path, root: &Path) -> PathBuf {
    path.strip_prefix(root)
        .map(Path::to_path_buf)
        .unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    #[test]
    fn control_characters_are_shown_not_sent_to_the_terminal() {
        let d = super::Diagnostic::error(
            "io",
            "content/en/a\u{1b}[2J\nb.md",
            3,
            "bad \u{1b}[31m\nnext",
        );
        assert_eq!(
            d.to_string(),
            "error[io]: content/en/a\\u{1b}[2J\\u{a}b.md:3: bad \\u{1b}[31m\nnext"
        );
    }

    use super::*;

    #[test]
    fn line_index_counts_lines_and_characters() {
        let idx = LineIndex::new("ab\nвів\nx");
        assert_eq!(idx.position(0), (1, 1));
        assert_eq!(idx.position(3), (2, 1));
        // "ві" is 4 bytes, 2 characters
        assert_eq!(idx.position(7), (2, 3));
        assert_eq!(idx.position(10), (3, 1));
    }

    #[test]
    fn strict_turns_warnings_into_errors() {
        let mut d = Diagnostics::default();
        d.push(Diagnostic::warning("x", "a.md", 1, "m"));
        assert!(!d.has_errors());
        d.make_strict();
        assert!(d.has_errors());
    }
}
