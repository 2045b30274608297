//! The theme's own scripts and stylesheets as the site serves them: without their comment
//! lines, blank lines and indentation.
//!
//! The theme's JavaScript is written to be read: `search.js` is more comment than code, and
//! every page loads it. Served as written, the theme's scripts and styles were 37.2 KB
//! gzipped, 25.7 KB without those lines (BENCHMARKS.md), on every first visit.
//!
//! This is not a minifier, and it does not parse JavaScript. It only drops what is a comment
//! or blank as a whole line, and trims each line, keeping every line break, so automatic
//! semicolons and every token stay as they were. It is safe for the theme's files, which have
//! no text that spans lines (no template literal or string continued over a line break);
//! [`crate::theme::Theme::read_static`] applies it to those files only, unchanged, and serves
//! a site's own scripts as they are.

/// What kind of file `lean` is given: the comment forms differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `//` and `/* */` comments.
    Script,
    /// `/* */` comments only (`//` is no comment in CSS).
    Style,
}

/// The kind of file `name` is, by its extension, or `None` for a file left as it is.
pub fn kind_of(name: &str) -> Option<Kind> {
    if name.ends_with(".js") {
        Some(Kind::Script)
    } else if name.ends_with(".css") {
        Some(Kind::Style)
    } else {
        None
    }
}

/// `src` without the lines that are only a comment or blank, each other line trimmed.
///
/// A block comment is dropped only when it starts a line: one that starts after code is left
/// where it is, lines and all (so a `//` line inside it, which may hold its `*/`, is never
/// taken for a line comment of its own; a `//` line holding `*/` is always kept). What follows
/// the `*/` of a dropped comment on its line is kept.
pub fn lean(src: &str, kind: Kind) -> String {
    let mut out = String::with_capacity(src.len());
    let mut in_block = false;
    for line in src.lines() {
        let mut t = line.trim();
        if in_block {
            match t.find("*/") {
                Some(end) => {
                    in_block = false;
                    t = t[end + 2..].trim_start();
                }
                None => continue,
            }
        }
        while let Some(rest) = t.strip_prefix("/*") {
            match rest.find("*/") {
                Some(end) => t = rest[end + 2..].trim_start(),
                None => {
                    in_block = true;
                    t = "";
                }
            }
        }
        let line_comment = kind == Kind::Script && t.starts_with("//") && !t.contains("*/");
        if t.is_empty() || line_comment {
            continue;
        }
        out.push_str(t);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comment_lines_blank_lines_and_indentation_go() {
        let src = "/* head\n * more\n */\n\"use strict\";\n  // a note\n\n  var a = 1; // kept\n    /* one */ var b = 2;\n";
        assert_eq!(
            lean(src, Kind::Script),
            "\"use strict\";\nvar a = 1; // kept\nvar b = 2;\n"
        );
    }

    #[test]
    fn a_block_comment_after_code_is_left_whole() {
        // its `//` line holds the comment's end: taking it for a line comment would leave the
        // comment open
        let src = "var a = 1; /* starts here\n// and ends */ var b = 2;\n";
        assert_eq!(lean(src, Kind::Script), src);
        let src = "var a = 1; /* starts here\n// still inside\n*/ var b = 2;\n";
        assert_eq!(
            lean(src, Kind::Script),
            "var a = 1; /* starts here\n*/ var b = 2;\n"
        );
    }

    #[test]
    fn strings_that_look_like_comments_stay() {
        let src = "var s = \"/* not a comment */\", u = \"// nor this\";\nvar r = /\\/(#|$)/;\n";
        assert_eq!(lean(src, Kind::Script), src);
    }

    #[test]
    fn styles_keep_double_slashes() {
        let src = "/* a rule */\n.a {\n  background: url(//example.org/x.png);\n}\n";
        assert_eq!(
            lean(src, Kind::Style),
            ".a {\nbackground: url(//example.org/x.png);\n}\n"
        );
    }

    #[test]
    fn comments_one_after_another_on_a_line_all_go() {
        let src = "/* a */ /* b */ x();\n/* c */ /* d\n*/ y();\n";
        assert_eq!(lean(src, Kind::Script), "x();\ny();\n");
    }

    #[test]
    fn the_kind_goes_by_extension() {
        assert_eq!(kind_of("js/search.js"), Some(Kind::Script));
        assert_eq!(kind_of("css/style.css"), Some(Kind::Style));
        assert_eq!(kind_of("icons/main.svg"), None);
    }
}
