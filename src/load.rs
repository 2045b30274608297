//! Loading: reads `content/<lang>/**/*.md` into [`Chapter`]s, checking encodings and front matter.
//!
//! Everything read is normalised once here (UTF-8 BOM dropped, CRLF and lone CR turned into LF,
//! Unicode NFC) so every later stage sees one form of the text: an `й` typed as `и` + U+0306 then
//! anchors and searches exactly like the precomposed letter. Line numbers survive all three steps.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use serde::Deserialize;
use unicode_normalization::char::canonical_combining_class;
use unicode_normalization::{is_nfc_quick, IsNormalized, UnicodeNormalization};
use walkdir::WalkDir;

use crate::config::SiteConfig;
use crate::diag::{Diagnostic, Diagnostics};

/// Chapter ids that would collide with the pages the build writes itself.
pub const RESERVED_IDS: &[&str] = &["glossary", "s", "search", "print", "static", "media"];

/// One Markdown file of one language.
#[derive(Debug, Clone)]
pub struct Chapter {
    pub lang: String,
    pub id: String,
    pub title: String,
    pub weight: Option<i64>,
    /// Path relative to the site root (`content/uk/03-round.md`), for messages.
    pub path: PathBuf,
    /// Absolute folder of the file, for images relative to the chapter.
    pub dir: PathBuf,
    /// The Markdown after the front matter.
    pub body: String,
    /// 1-based line number of the body's first line in the file.
    pub body_line: usize,
    /// 1-based line of the `id:` key, where a clash with another chapter is reported.
    pub id_line: usize,
    /// Line of `title:` in the file (1 when the front matter has none, as it must).
    pub title_line: usize,
    /// `draft: true`: left out of `build`, `check` and `search`, shown by `serve` (as in Hugo
    /// and Zola), so a chapter can be written in the open without being published.
    pub draft: bool,
    /// Front-matter fields the build does not use itself (kept for `check`, e.g. translation hashes).
    pub extra: BTreeMap<String, serde_yaml::Value>,
}

#[derive(Deserialize)]
struct FrontMatter {
    id: Option<IdValue>,
    title: Option<String>,
    /// Any YAML value: one that is not a whole number gets its own message below (serde's
    /// named Rust types: "as u128, expected i64").
    #[serde(default)]
    weight: Option<serde_yaml::Value>,
    #[serde(flatten)]
    extra: BTreeMap<String, serde_yaml::Value>,
}

/// Ids are strings, but `id: 12` in YAML is a number; both are accepted and read as text.
#[derive(Deserialize)]
#[serde(untagged)]
enum IdValue {
    Text(String),
    Number(i64),
    /// Anything else (`1.5`, a list): refused below with a message of its own, where serde's
    /// was "data did not match any variant of untagged enum IdValue".
    Other(serde_yaml::Value),
}

/// A YAML value as a short text for a message.
fn yaml_shown(v: &serde_yaml::Value) -> String {
    // JSON has no such numbers, and would write them `null`
    if let Some(f) = v.as_f64().filter(|f| !f.is_finite()) {
        return if f.is_nan() {
            ".nan"
        } else if f > 0.0 {
            ".inf"
        } else {
            "-.inf"
        }
        .into();
    }
    // JSON is YAML's flow style: one line, `["a","b"]` rather than a block list
    let s = serde_json::to_string(v).unwrap_or_default();
    let s = s.trim();
    if s.chars().count() > 40 {
        format!("{}…", s.chars().take(40).collect::<String>())
    } else {
        s.to_string()
    }
}

/// Front-matter keys that other commands use; anything else draws a warning (likely a typo).
const KNOWN_EXTRA_KEYS: &[&str] = &["translated_from", "description", "draft"];

/// Turns raw bytes into normalised text, or reports where the bytes stop being UTF-8.
pub fn decode(bytes: Vec<u8>, shown: impl AsRef<Path>, diags: &mut Diagnostics) -> Option<String> {
    // The standard check walks Cyrillic text byte by byte; the SIMD one is several times
    // faster on it, and only a file that fails it is checked again to find the bad byte.
    let checked = if simdutf8::basic::from_utf8(&bytes).is_ok() {
        // SAFETY: simdutf8 has just validated these bytes as UTF-8.
        Ok(unsafe { String::from_utf8_unchecked(bytes) })
    } else {
        String::from_utf8(bytes)
    };
    let text = match checked {
        Ok(t) => t,
        Err(e) => {
            let valid = e.utf8_error().valid_up_to();
            let bytes = e.as_bytes();
            let before = String::from_utf8_lossy(&bytes[..valid]);
            let line = before.matches('\n').count() + 1;
            let col = before
                .rsplit('\n')
                .next()
                .map(|l| l.chars().count())
                .unwrap_or(0)
                + 1;
            diags.push(
                Diagnostic::error(
                    "not-utf8",
                    shown.as_ref(),
                    line,
                    format!(
                        "the file is not UTF-8 (invalid byte 0x{:02X}); save it as UTF-8",
                        bytes[valid]
                    ),
                )
                .at_column(col),
            );
            return None;
        }
    };
    if let Some(at) = text.find('\0') {
        let (line, col) = crate::diag::LineIndex::new(&text).position(at);
        diags.push(
            Diagnostic::error(
                "nul-byte",
                shown.as_ref(),
                line,
                "the file holds a NUL byte (0x00): it is binary or damaged, not text",
            )
            .at_column(col),
        );
        return None;
    }
    let mut text = normalize_text(text);
    if let Some(at) = text.find("\n\u{feff}") {
        // a file pasted onto the end of another, both saved with a BOM: the mark at the start
        // of the line would turn a heading or a list item there into plain text
        let (line, _) = crate::diag::LineIndex::new(&text).position(at + 1);
        diags.push(Diagnostic::warning(
            "bom-inside",
            shown.as_ref(),
            line,
            "a byte-order mark (U+FEFF) starts this line, as if another file were pasted \
             here; it is left out (remove it from the file)",
        ));
        while text.contains("\n\u{feff}") {
            text = text.replace("\n\u{feff}", "\n");
        }
    }
    // nothing read can forge the build's own placeholders and marks (xref.rs `scrub`)
    Some(match crate::xref::scrub(&text) {
        std::borrow::Cow::Owned(clean) => clean,
        std::borrow::Cow::Borrowed(_) => text,
    })
}

/// BOM, line ends and NFC, in one place. Cheap when the text is already clean.
pub fn normalize_text(mut text: String) -> String {
    // every leading BOM: a file saved twice by a careless tool starts with two (found by fuzzing)
    if text.starts_with('\u{feff}') {
        text = text.trim_start_matches('\u{feff}').to_string();
    }
    if text.contains('\r') {
        text = text.replace("\r\n", "\n").replace('\r', "\n");
    }
    if !surely_nfc(&text) && is_nfc_quick(text.chars()) != IsNormalized::Yes {
        text = text.nfc().collect();
    }
    text
}

/// A fast pre-check for the common case: ASCII, Latin-1, Cyrillic letters and general
/// punctuation never change under NFC (no combining marks, no composition candidates), so
/// text made only of them needs no further look. Any other character is looked at on its own
/// (see the last branch); only one that may combine or reorder sends the text to the full
/// check.
///
/// Works on the UTF-8 bytes: ASCII, lead bytes C2–CB (U+0080–U+02FF), D0–D4 (U+0400–U+053F,
/// less the Cyrillic combining marks U+0483–U+0489 = D2 83–D2 89) and E2 80–82
/// (U+2002–U+20BF) are all stable; any other byte sends the text to the full check.
fn surely_nfc(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        // eight bytes of ASCII and Cyrillic letters at once: the bulk of a rules text in
        // either language (a character at a time, this scan was nearly 2 % of a build)
        if let Some(step) = ascii_or_cyrillic_run(b, i) {
            i += step;
            continue;
        }
        let c = b[i];
        if c < 0x80 {
            // (runs of ASCII go eight bytes at a time above)
            i += 1;
        } else if c == 0xD0 || c == 0xD1 {
            // the Cyrillic letters (U+0400–U+047F), the bulk of Ukrainian text
            i += 2;
        } else if (0xC2..=0xCB).contains(&c) {
            i += 2;
        } else if (0xD0..=0xD4).contains(&c) {
            if c == 0xD2 && b.get(i + 1).is_some_and(|n| (0x83..=0x89).contains(n)) {
                return false;
            }
            i += 2;
        } else if c == 0xE2
            && b.get(i + 1).is_some_and(|n| (0x80..=0x82).contains(n))
            // U+2000 and U+2001 (E2 80 80, E2 80 81) decompose to U+2002 and U+2003.
            && !(b[i + 1] == 0x80 && b.get(i + 2).is_some_and(|n| *n <= 0x81))
        {
            i += 3;
        } else {
            // Any other character: on its own. One that never combines with what comes
            // before it and never reorders (quick check Yes, combining class 0) leaves the
            // text's NFC status to the rest, so the scan goes on. Before, the first such
            // character (a `☹` or `♠` in a rules text) sent the whole file to the full
            // check, a table lookup per character: a third of the generated corpus's files.
            let c = text[i..].chars().next().expect("a character starts here");
            if canonical_combining_class(c) != 0
                || is_nfc_quick(std::iter::once(c)) != IsNormalized::Yes
            {
                return false;
            }
            i += c.len_utf8();
        }
    }
    true
}

/// When the eight bytes from `i` (a character boundary) hold only ASCII and the Cyrillic
/// letters U+0400–U+047F (lead byte `D0` or `D1`, all NFC-stable), how far to go on: to the
/// next character boundary, past the second byte of a letter that the eighth byte begins.
fn ascii_or_cyrillic_run(b: &[u8], i: usize) -> Option<usize> {
    use crate::bytes::{eight_at, zero_bytes, HIGH, ONES};
    let w = eight_at(b, i)?;
    // a byte from C0 up has its top two bits set: a lead byte, which must be D0 or D1; the
    // bytes below C0 are ASCII or the second bytes of those letters (`i` is a boundary, and
    // any other lead byte is refused here, so a second byte can only follow D0 or D1)
    let lead = w & (w << 1) & HIGH;
    let d0_d1 = zero_bytes((w ^ (ONES * 0xD0)) & (ONES * 0xFE));
    if lead & !d0_d1 != 0 {
        return None;
    }
    // the eighth byte begins a letter whose second byte is the next one
    Some(if lead >> 63 == 1 { 9 } else { 8 })
}

/// The key a top-level front-matter line sets, however it is spelled: `key:`, `key :`,
/// `"key":` or `'key':`. `None` for a line that sets no top-level key (indented, a comment, a
/// list item, a blank line). Duplicates and the lines that messages point at are found with it,
/// and `translated` finds the block it replaces with it, so a key in quotes or with a space
/// before its colon is the same key to all of them, as it is to YAML.
pub fn front_matter_key(line: &str) -> Option<String> {
    let line = line.trim_end_matches(['\n', '\r']);
    let first = line.chars().next()?;
    if first.is_whitespace() || matches!(first, '#' | '-' | '?' | '[' | '{' | '%' | '&' | '*' | '!')
    {
        return None;
    }
    let (key, rest) = if first == '"' || first == '\'' {
        let inner = &line[1..];
        let end = inner.find(first)?;
        (inner[..end].to_string(), &inner[end + 1..])
    } else {
        // a plain key ends at the first `:` followed by a space or the end of the line
        let bytes = line.as_bytes();
        let at = (0..bytes.len()).find(|&i| {
            bytes[i] == b':' && bytes.get(i + 1).is_none_or(|c| *c == b' ' || *c == b'\t')
        })?;
        (line[..at].trim_end().to_string(), &line[at..])
    };
    let rest = rest.trim_start();
    (rest.starts_with(':') && !key.is_empty()).then_some(key)
}

/// Every top-level key that front matter sets more than once, with the line (counted from the
/// front matter's first line, 1-based) of each repeat. YAML parsers disagree about repeats, and
/// serde keeps only one of them for the keys it does not know (`description`, `draft`,
/// `translated_from`): the other is silently lost, so every repeat is an error.
pub fn duplicate_keys(yaml: &str) -> Vec<(String, usize, usize)> {
    let mut first: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::new();
    for (i, line) in yaml.lines().enumerate() {
        if let Some(key) = front_matter_key(line) {
            match first.get(&key) {
                Some(&f) => out.push((key, f, i + 1)),
                None => {
                    first.insert(key, i + 1);
                }
            }
        }
    }
    out
}

/// The 0-based line of the repeat of a key that serde_yaml reports as a duplicate (`msg`): it
/// places the error at the start of the mapping, which is line 1 of a file.
pub(crate) fn duplicate_key_line(yaml: &str, msg: &str) -> Option<usize> {
    let key = msg
        .split("duplicate field `")
        .nth(1)
        .and_then(|r| r.split('`').next())?;
    yaml.lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with(&format!("{key}:")))
        .nth(1)
        .map(|(i, _)| i)
}

/// A key given twice inside a nested mapping (`title: {uk: a, uk: b}`, or a block under
/// `title:`): read into a map, serde keeps the last silently; read as YAML values, it refuses
/// it. Only YAML with a nested mapping is read twice (front matter is mostly flat, and a build
/// reads thousands). Gives the 1-based line in `yaml` of the repeat (of the mapping, when the
/// repeat is not found on a line of its own) and the message.
pub(crate) fn nested_duplicate(yaml: &str) -> Option<(usize, String)> {
    if !(yaml.contains('{') || yaml.lines().any(|l| l.starts_with([' ', '\t']))) {
        return None;
    }
    duplicate_key(yaml)
}

/// A key given twice in any mapping of `yaml`, top level included: (1-based line of the repeat,
/// or of its mapping; the message). For YAML read into a map of any kind, which keeps the last.
pub(crate) fn duplicate_key(yaml: &str) -> Option<(usize, String)> {
    let e = serde_yaml::from_str::<serde_yaml::Value>(yaml).err()?;
    let msg = e.to_string();
    let key = msg
        .split("duplicate entry with key \"")
        .nth(1)?
        .split('"')
        .next()?;
    let start = e.location().map_or(1, |l| l.line()).max(1);
    let repeat = yaml
        .lines()
        .enumerate()
        .skip(start - 1)
        .filter(|(_, l)| l.trim_start().starts_with(&format!("{key}:")))
        .nth(1)
        .map(|(i, _)| i + 1);
    Some((
        repeat.unwrap_or(start),
        format!("{}; only one of them would count", strip_location(&msg)),
    ))
}

/// serde's message in the words of the file: it names our Rust types (`expected struct
/// FrontMatter`) where a YAML file holds something other than `key: value` lines.
pub(crate) fn readable_yaml_error(msg: &str) -> String {
    let mut out = msg.to_string();
    for name in ["FrontMatter", "RawConfig"] {
        out = out.replace(
            &format!("expected struct {name}"),
            "expected `key: value` lines",
        );
    }
    out
}

/// The first line of `yaml` (0-based, and the 1-based column of the quote) whose value opens
/// a quote that the line does not close: `title: "7.0.0 Damage`.
fn unclosed_quote(yaml: &str) -> Option<(usize, usize)> {
    yaml.lines().enumerate().find_map(|(i, l)| {
        let (key, value) = l.split_once(':')?;
        if key.trim_start().starts_with('#') || key.trim_start().starts_with('-') {
            return None;
        }
        let v = value.trim();
        let q = v.chars().next().filter(|c| *c == '"' || *c == '\'')?;
        let rest = &v[1..];
        let closed = if q == '"' {
            // a quote not escaped by a backslash
            let b = rest.as_bytes();
            (0..b.len()).any(|k| b[k] == b'"' && (k == 0 || b[k - 1] != b'\\'))
        } else {
            rest.contains('\'')
        };
        let col = key.chars().count() + 1 + (value.len() - value.trim_start().len()) + 1;
        (!closed).then_some((i, col))
    })
}

/// Splits front matter from the body and checks it.
pub fn parse_chapter(
    text: String,
    lang: &str,
    path: PathBuf,
    dir: PathBuf,
    diags: &mut Diagnostics,
) -> Option<Chapter> {
    let Some(after_open) = text
        .strip_prefix("---\n")
        .or_else(|| (text == "---").then_some(""))
    else {
        // say what is near: a fence with spaces after it, or another tool's TOML fence
        let first = text.lines().next().unwrap_or_default();
        let msg = if first.trim().is_empty() && text.trim_start().starts_with("---") {
            "the front matter must start on the first line: remove the blank lines before `---`"
        } else if first.trim_end() == "---" {
            "the opening `---` has spaces after it; remove them (a chapter starts with a line that is `---` alone)"
        } else if first.trim_end() == "+++" {
            "front matter in TOML (`+++`) is not read; write it in YAML between `---` lines: `id:`, `title:`"
        } else {
            "no front matter: a chapter starts with `---`, then `id:` and `title:`, then `---`"
        };
        diags.push(Diagnostic::error("front-matter", &path, 1, msg));
        return None;
    };
    let close = if after_open.starts_with("---\n") || after_open == "---" {
        Some(0)
    } else {
        after_open
            .find("\n---\n")
            .map(|i| i + 1)
            .or_else(|| after_open.ends_with("\n---").then(|| after_open.len() - 3))
    };
    let Some(close) = close else {
        diags.push(Diagnostic::error(
            "front-matter",
            &path,
            1,
            "the front matter that opens on line 1 is never closed; add a line `---` after it",
        ));
        return None;
    };
    let yaml = &after_open[..close];
    let body_start = (4 + close + 4).min(text.len());
    let body_line = 2 + yaml.matches('\n').count() + 1;
    if let Some(at) = crate::limits::yaml_too_deep(yaml) {
        diags.push(crate::limits::too_deep_diagnostic(
            "front-matter",
            &path,
            yaml,
            at,
            2,
        ));
        return None;
    }
    let duplicates = duplicate_keys(yaml);
    if !duplicates.is_empty() {
        for (key, first, again) in duplicates {
            diags.push(Diagnostic::error(
                "front-matter",
                &path,
                again + 1,
                format!(
                    "front-matter key `{key}` is set again here (first on line {}); keep one of them",
                    first + 1
                ),
            ));
        }
        return None;
    }
    if let Some((line, msg)) = nested_duplicate(yaml) {
        diags.push(Diagnostic::error(
            "front-matter",
            &path,
            line + 1,
            format!("front matter is not valid YAML: {msg}"),
        ));
        return None;
    }
    let fm: FrontMatter = match serde_yaml::from_str::<Option<FrontMatter>>(yaml) {
        Ok(Some(fm)) => fm,
        Ok(None) => FrontMatter {
            id: None,
            title: None,
            weight: None,
            extra: BTreeMap::new(),
        },
        Err(e) => {
            let (mut line, col) = e
                .location()
                .map(|l| (l.line() + 1, l.column()))
                .unwrap_or((1, 0));
            let msg = e.to_string();
            if let Some(i) = duplicate_key_line(yaml, &msg) {
                line = i + 2;
            }
            // a whole number beyond 64 bits: serde names its Rust types (`as u128`)
            let message = match msg.split_once(": invalid type: integer `") {
                Some((key, rest)) if rest.contains("` as u128") || rest.contains("` as i128") => {
                    format!(
                        "`{key}` is a number too large to read (whole numbers go from {} to {})",
                        i64::MIN,
                        i64::MAX
                    )
                }
                _ => format!(
                    "front matter is not valid YAML: {}",
                    readable_yaml_error(strip_location(&msg))
                ),
            };
            // A quote left open runs on to the next lines, and YAML says what it missed
            // where it gave up, lines later: name the quote, where the fix is.
            if let Some((q, qcol)) = unclosed_quote(yaml).filter(|&(q, _)| q + 2 <= line) {
                let message = format!(
                    "{message} (line {line}); the quote opened here is not closed on its line"
                );
                diags
                    .push(Diagnostic::error("front-matter", &path, q + 2, message).at_column(qcol));
                return None;
            }
            diags.push(Diagnostic::error("front-matter", &path, line, message).at_column(col));
            return None;
        }
    };
    let key_line = |key: &str| {
        yaml.lines()
            .position(|l| front_matter_key(l).as_deref() == Some(key))
            .map(|i| i + 2)
            .unwrap_or(1)
    };
    let id = match fm.id {
        Some(IdValue::Text(s)) => s,
        Some(IdValue::Number(n)) => n.to_string(),
        Some(IdValue::Other(v)) => {
            diags.push(Diagnostic::error(
                "front-matter",
                &path,
                key_line("id"),
                format!(
                    "`id` must be a word of letters, digits and `-` (the same in every language), such as `round-order`, not `{}`",
                    yaml_shown(&v)
                ),
            ));
            return None;
        }
        None => {
            diags.push(Diagnostic::error("front-matter", &path, 1, "front matter has no `id`; add e.g. `id: round-order` (the same id in every language)"));
            return None;
        }
    };
    if let Err(why) = check_id(&id) {
        diags.push(Diagnostic::error(
            "bad-id",
            &path,
            key_line("id"),
            format!("id `{id}` {why}"),
        ));
        return None;
    }
    let weight = match fm.weight {
        None | Some(serde_yaml::Value::Null) => None,
        Some(v) => match v.as_i64() {
            Some(w) => Some(w),
            None => {
                diags.push(Diagnostic::error(
                    "front-matter",
                    &path,
                    key_line("weight"),
                    format!(
                        "`weight` must be a whole number (chapters are ordered by it, lowest first; between {} and {}), not `{}`",
                        i64::MIN,
                        i64::MAX,
                        yaml_shown(&v)
                    ),
                ));
                return None;
            }
        },
    };
    // every key front matter knows, for "did you mean" (`titel`, `darft`)
    let known = || {
        ["id", "title", "weight"]
            .into_iter()
            .chain(KNOWN_EXTRA_KEYS.iter().copied())
    };
    let Some(title) = fm.title.as_ref().filter(|t| !t.trim().is_empty()).cloned() else {
        let misspelled = (fm.extra.keys()).find(|k| crate::theme::near_key(k, ["title"]).is_some());
        let (line, msg) = match (&fm.title, misspelled) {
            (Some(_), _) => (
                key_line("title").max(1),
                "`title` is empty; give the chapter one, e.g. `title: \"Round Order\"`".to_string(),
            ),
            (None, Some(k)) => (
                key_line(k).max(1),
                format!("front matter has no `title`; `{k}` here looks like a misspelling of it (write `title:`)"),
            ),
            // `title:` with nothing after it reads as no title
            (None, None) if yaml.lines().any(|l| front_matter_key(l).as_deref() == Some("title")) => (
                key_line("title"),
                "`title` is empty; give the chapter one, e.g. `title: \"Round Order\"`".to_string(),
            ),
            (None, None) => (
                1,
                "front matter has no `title`; add e.g. `title: \"Round Order\"`".to_string(),
            ),
        };
        diags.push(Diagnostic::error("front-matter", &path, line, msg));
        return None;
    };
    for key in fm.extra.keys() {
        if !KNOWN_EXTRA_KEYS.contains(&key.as_str()) {
            let hint = match crate::theme::near_key(key, known()) {
                Some(near) => format!("; did you mean `{near}`?"),
                None => format!(" (known: {})", known().collect::<Vec<_>>().join(", ")),
            };
            diags.push(Diagnostic::warning(
                "front-matter",
                &path,
                key_line(key),
                format!("unknown front-matter key `{key}` is ignored{hint}"),
            ));
        }
    }
    let draft = match fm.extra.get("draft") {
        None => false,
        Some(serde_yaml::Value::Bool(b)) => *b,
        Some(_) => {
            diags.push(Diagnostic::error(
                "front-matter",
                &path,
                key_line("draft"),
                "`draft` must be `true` (leave the chapter out of the build) or `false`",
            ));
            return None;
        }
    };
    // read by the chapter page (`<meta name="description">`): text only
    if let Some(v) = fm.extra.get("description") {
        if !matches!(v, serde_yaml::Value::String(_) | serde_yaml::Value::Null) {
            diags.push(Diagnostic::error(
                "front-matter",
                &path,
                key_line("description"),
                "`description` must be text (one line: what the chapter is about, for search engines and link previews)",
            ));
            return None;
        }
    }
    Some(Chapter {
        draft,
        lang: lang.to_string(),
        id,
        title: title.trim().to_string(),
        weight,
        path,
        dir,
        body: crate::original::lift_line_markers(&text[body_start..]).into_owned(),
        body_line,
        id_line: key_line("id"),
        title_line: key_line("title").max(1),
        extra: fm.extra,
    })
}

pub(crate) fn strip_location(msg: &str) -> &str {
    msg.split(" at line ").next().unwrap_or(msg)
}

/// An id becomes a folder name in the output, so it must be a single plain path segment.
pub fn check_id(id: &str) -> Result<(), &'static str> {
    if id.is_empty() {
        return Err("is empty");
    }
    if id.len() > 200 {
        return Err("is longer than 200 characters");
    }
    if !id
        .chars()
        .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
    {
        return Err(
            "may hold only letters, digits, `-` and `_` (it becomes part of the page address)",
        );
    }
    // without regard to case: on a file system that ignores case (a Mac's, Windows'), the
    // folder of `Glossary` is the folder of `glossary`, and one page would replace the other
    // (upper then lower case: `ſ`, a letter of its own to `to_lowercase`, is `s` to them)
    if RESERVED_IDS.contains(&id.to_uppercase().to_lowercase().as_str()) {
        return Err(
            "is reserved for a page the build writes itself (in any case); choose another id",
        );
    }
    Ok(())
}

/// Everything read from `content/`, before anything is resolved.
#[derive(Debug, Default)]
pub struct Content {
    /// Per language (site order), chapters sorted by weight, then path.
    pub chapters: BTreeMap<String, Vec<Chapter>>,
    /// Raw glossary files per language: (path relative to root, text).
    pub glossaries: BTreeMap<String, (PathBuf, String)>,
}

/// Reads every language folder. Files are read in parallel; the result is sorted, so it does not
/// depend on the order the file system lists them in.
pub fn load_content(root: &Path, config: &SiteConfig, diags: &mut Diagnostics) -> Content {
    use rayon::prelude::*;
    let content_dir = root.join("content");
    let canon_root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let mut out = Content::default();
    if let Ok(entries) = std::fs::read_dir(&content_dir) {
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok())
            .filter(|e| e.path().is_dir())
            .filter_map(|e| e.file_name().into_string().ok())
            .collect();
        names.sort();
        for name in names {
            if !config.languages.contains(&name) && !name.starts_with('.') {
                diags.push(Diagnostic::warning(
                    "unknown-language",
                    PathBuf::from("content").join(&name),
                    0,
                    format!(
                        "folder `{name}` is not one of the site's languages [{}] and is ignored",
                        config.languages.join(", ")
                    ),
                ));
            }
        }
    }
    for lang in &config.languages {
        let dir = content_dir.join(lang);
        let mut files = Vec::new();
        if dir.exists() && !dir.is_dir() {
            diags.push(Diagnostic::error(
                "io",
                crate::diag::display_path(&dir, root),
                0,
                format!(
                    "this is a file, but the {lang} chapters go in a folder of that name; \
                     rename the file and make content/{lang}/ a folder"
                ),
            ));
            out.chapters.insert(lang.clone(), Vec::new());
            continue;
        }
        for entry in WalkDir::new(&dir).follow_links(false).sort_by_file_name() {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    if e.path() != Some(dir.as_path()) || dir.exists() {
                        let p = e
                            .path()
                            .map(|p| crate::diag::display_path(p, root))
                            .unwrap_or_default();
                        diags.push(Diagnostic::error("io", p, 0, format!("cannot read: {e}")));
                    }
                    continue;
                }
            };
            let path = entry.path().to_path_buf();
            let shown = crate::diag::display_path(&path, root);
            let mut real = path.clone();
            let is_glossary = path.file_name().is_some_and(|n| n == "glossary.json")
                && path.parent() == Some(dir.as_path());
            if entry.path_is_symlink() {
                use crate::symlinks::Target;
                match crate::symlinks::resolve(&path, &canon_root) {
                    Target::File(target) => real = target,
                    // A link to a folder inside the site is reported, not followed: its files
                    // would be read under two paths (here and where they are), which the
                    // messages, `serve`'s watcher and `translated` (which writes the file)
                    // would each see differently, and links can make a loop. Before, its
                    // chapters were dropped without a word.
                    Target::Folder(target) if !is_glossary => {
                        diags.push(Diagnostic::warning(
                            "symlink",
                            shown,
                            0,
                            format!(
                                "symbolic link to a folder ({}) is not followed, so the chapters \
                                 in it are not read; move the folder here, or link each file",
                                crate::diag::display_path(&target, &canon_root).display()
                            ),
                        ));
                        continue;
                    }
                    Target::Folder(_) => {
                        diags.push(Diagnostic::error(
                            "io",
                            shown,
                            0,
                            "glossary.json links to a folder; it must be a JSON file",
                        ));
                        continue;
                    }
                    Target::Outside => {
                        diags.push(crate::symlinks::not_followed(shown));
                        continue;
                    }
                }
            } else if !entry.file_type().is_file() {
                if is_glossary && entry.file_type().is_dir() {
                    diags.push(Diagnostic::error(
                        "io",
                        shown,
                        0,
                        "glossary.json is a folder; it must be a JSON file (move what is in it \
                         and make glossary.json a file)",
                    ));
                } else if is_glossary {
                    diags.push(Diagnostic::error(
                        "io",
                        shown,
                        0,
                        "glossary.json is not a plain file (a pipe, a socket or a device); it \
                         must be a JSON file",
                    ));
                } else if !entry.file_type().is_dir() {
                    // a chapter that is a named pipe was left out without a word
                    diags.push(Diagnostic::warning(
                        "io",
                        shown,
                        0,
                        "not a plain file (a pipe, a socket or a device), so it is not read; \
                         make it a file, or move it out of content/",
                    ));
                }
                continue;
            }
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.starts_with('.') {
                continue;
            }
            if path.extension().is_some_and(|e| e == "md") {
                files.push((real, shown, path.parent().unwrap_or(&dir).to_path_buf()));
            } else if path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| e.eq_ignore_ascii_case("md"))
            {
                // `02.MD`: meant as a chapter, surely, but the build reads `.md` only
                diags.push(Diagnostic::warning(
                    "not-a-chapter",
                    &shown,
                    0,
                    "not read as a chapter: chapter files end in `.md`, in lower case; rename it",
                ));
            } else if name == "glossary.json" && path.parent() == Some(dir.as_path()) {
                let mut local = Diagnostics::default();
                if let Some(text) = crate::limits::read_limited(&real, &shown, &mut local)
                    .and_then(|bytes| decode(bytes, &shown, &mut local))
                {
                    out.glossaries.insert(lang.clone(), (shown, text));
                }
                diags.extend(local.items);
            }
        }
        let results: Vec<(Option<Chapter>, Diagnostics)> = files
            .into_par_iter()
            .map(|(real, shown, parent)| {
                let mut local = Diagnostics::default();
                let chapter = crate::limits::read_limited(&real, &shown, &mut local)
                    .and_then(|bytes| decode(bytes, &shown, &mut local))
                    .and_then(|text| parse_chapter(text, lang, shown.clone(), parent, &mut local));
                (chapter, local)
            })
            .collect();
        let mut chapters = Vec::with_capacity(results.len());
        for (c, d) in results {
            diags.extend(d.items);
            chapters.extend(c);
        }
        chapters.sort_by(|a, b| {
            (a.weight.is_none(), a.weight, &a.path).cmp(&(b.weight.is_none(), b.weight, &b.path))
        });
        // Keyed by the id in lower case: ids that differ only in case name output folders
        // that a case-insensitive file system (macOS, Windows: where a site is often built
        // and previewed) takes for one, so one chapter's pages would overwrite the other's.
        let mut seen: HashMap<String, &Chapter> = HashMap::new();
        for c in &chapters {
            if let Some(first) = seen.get(&c.id.to_lowercase()) {
                let why = if first.id == c.id {
                    format!(
                        "id `{}` is already used by {} in {lang}; ids must be unique per language",
                        c.id,
                        first.path.display()
                    )
                } else {
                    format!(
                        "id `{}` differs from `{}` of {} only in case; their pages would \
                         overwrite each other on a case-insensitive file system, so ids must \
                         differ in more than case",
                        c.id,
                        first.id,
                        first.path.display()
                    )
                };
                diags.push(Diagnostic::error("duplicate-id", &c.path, c.id_line, why));
            } else {
                seen.insert(c.id.to_lowercase(), c);
            }
        }
        out.chapters.insert(lang.clone(), chapters);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> (Option<Chapter>, Diagnostics) {
        let mut d = Diagnostics::default();
        let c = parse_chapter(
            normalize_text(text.to_string()),
            "en",
            "content/en/a.md".into(),
            PathBuf::new(),
            &mut d,
        );
        (c, d)
    }

    #[test]
    fn an_unclosed_quote_is_named_at_its_line() {
        let mut d = Diagnostics::default();
        let text = "---\nid: a\ntitle: \"7.0.0 Damage\nweight: 3\nx: 1\n---\nBody\n";
        assert!(parse_chapter(text.into(), "en", "a.md".into(), ".".into(), &mut d).is_none());
        let e = &d.items[0];
        assert_eq!((e.line, e.column), (3, 8), "{e}");
        assert!(
            e.message.contains("the quote opened here is not closed"),
            "{e}"
        );
        // quotes closed, escaped or in a comment are no such quote
        assert_eq!(
            unclosed_quote("a: \"x\"\nb: 'y'\n# c: \"z\nd: \"e \\\" f\"\n"),
            None
        );
        assert_eq!(unclosed_quote("a: 1\nb: 'open\n"), Some((1, 4)));
    }

    #[test]
    fn front_matter_and_body_line() {
        let (c, d) = parse("---\nid: a\ntitle: A\nweight: 2\n---\n\nBody\n");
        assert!(d.items.is_empty());
        let c = c.unwrap();
        assert_eq!(
            (c.id.as_str(), c.title.as_str(), c.weight),
            ("a", "A", Some(2))
        );
        assert_eq!(c.body, "\nBody\n");
        assert_eq!(c.body_line, 6);
    }

    #[test]
    fn crlf_bom_and_nfd_are_normalised() {
        let (c, _) = parse("\u{feff}---\r\nid: a\r\ntitle: Ви\u{306}\r\n---\r\nx\ry\n");
        let c = c.unwrap();
        assert_eq!(c.title, "Вй");
        assert_eq!(c.body, "x\ny\n");
    }

    #[test]
    fn a_fence_with_spaces_or_in_toml_is_named() {
        for (text, says) in [
            ("--- \nid: a\ntitle: b\n---\n", "has spaces after it"),
            ("+++\nid = \"a\"\n+++\n", "TOML"),
            ("Hello\n", "no front matter"),
        ] {
            let (c, d) = parse(text);
            assert!(c.is_none());
            assert!(
                d.items[0].message.contains(says),
                "{text:?}: {}",
                d.items[0]
            );
            assert_eq!(d.items[0].line, 1);
        }
    }

    #[test]
    fn errors_name_the_line() {
        let cases = [
            ("no front matter\n", 1, "front-matter"),
            ("---\nid: a\ntitle: b\n", 1, "front-matter"),
            ("---\nid: a\ntitle: [unclosed\n---\n", 3, "front-matter"),
            ("---\ntitle: b\n---\n", 1, "front-matter"),
            ("---\nid: a\n---\n", 1, "front-matter"),
            ("---\nid: ../x\ntitle: b\n---\n", 2, "bad-id"),
            ("---\nid: a/b\ntitle: b\n---\n", 2, "bad-id"),
            ("---\nid: a\nid: b\ntitle: b\n---\n", 3, "front-matter"),
            (
                "---\nid: a\ntitle: b\ndescription: x\ndescription: y\n---\n",
                5,
                "front-matter",
            ),
            ("---\nid: a\ntitle: b\ndraft: true\n\"draft\": false\n---\n", 5, "front-matter"),
            ("---\nid: a\ntitle: b\ndraft: yes please\n---\n", 4, "front-matter"),
            (
                "---\nid: a\ntitle: b\ntranslated_from: {lang: en}\ntranslated_from :\n  lang: en\n---\n",
                5,
                "front-matter",
            ),
            (
                "---\nid: a\ntitle: b\nweight: heavy\n---\n",
                4,
                "front-matter",
            ),
        ];
        for (text, line, kind) in cases {
            let (c, d) = parse(text);
            assert!(c.is_none(), "{text:?} should fail");
            assert_eq!(
                (d.items[0].kind, d.items[0].line),
                (kind, line),
                "{text:?}: {}",
                d.items[0]
            );
        }
    }

    #[test]
    fn draft_is_read() {
        let (c, d) = parse("---\nid: a\ntitle: A\ndraft: true\n---\n");
        assert!(d.items.is_empty() && c.unwrap().draft);
        let (c, _) = parse("---\nid: a\ntitle: A\n---\n");
        assert!(!c.unwrap().draft);
    }

    #[test]
    fn keys_are_found_however_they_are_spelled() {
        for (line, key) in [
            ("id: a", Some("id")),
            ("translated_from :", Some("translated_from")),
            ("\"translated_from\":", Some("translated_from")),
            ("'translated_from' : {}", Some("translated_from")),
            ("title: \"a: b\"", Some("title")),
            ("url: http://x", Some("url")),
            ("  lang: en", None),
            ("# id: a", None),
            ("- id: a", None),
            ("", None),
            ("no colon", None),
        ] {
            assert_eq!(front_matter_key(line).as_deref(), key, "{line:?}");
        }
    }

    #[test]
    fn nfc_fast_path_agrees_with_the_full_check() {
        for s in [
            "plain",
            "Вітаю, ґанок — «так»’",
            "й",
            "и\u{306}",
            "e\u{301}",
            "\u{483}x",
            "€ ½ ß",
            "日本",
            "☹ ✧ ♠ ⊗ → №",
            "x\u{20D0}",
            "a\u{2126}b",
            "\u{2329}",
            "\u{1100}\u{1161}",
            "e\u{301}\u{300}",
            "a\u{316}\u{301}",
            "a\u{301}\u{316}",
            "\u{0BC6}\u{0BBE}",
        ] {
            let full = is_nfc_quick(s.chars()) == IsNormalized::Yes;
            assert!(
                !surely_nfc(s) || full,
                "{s:?} passed the fast path but is not NFC"
            );
        }
        assert!(surely_nfc("Вітаю, ґанок — «так»’ café"));
        assert!(!surely_nfc("и\u{306}"));
        assert!(!surely_nfc("a\u{2000}b"));
        assert!(!surely_nfc("a\u{2001}b"));
        assert!(surely_nfc("a\u{2002}b\u{2014}"));
        // symbols outside the byte ranges above are looked at one by one, not sent on
        assert!(surely_nfc("☹ ✧ ♠ ⊗ → № 日本"));
        // ... unless they can change: a singleton (Ω ohm sign), a mark that reorders, or a
        // character that composes with the one before it
        assert!(!surely_nfc("a\u{2126}b"));
        assert!(!surely_nfc("x\u{20D0}"));
        assert!(!surely_nfc("\u{1100}\u{1161}"));
    }

    proptest::proptest! {
        /// Long text of letters, marks and symbols in every alignment: the eight-byte steps
        /// never pass text that is not NFC, and pass text of ASCII and Cyrillic letters.
        #[test]
        fn nfc_fast_path_in_long_text(
            pieces in proptest::collection::vec(
                proptest::sample::select(vec![
                    "і", "a", " ", "я", "ж", "ґ", "и\u{306}", "\u{301}", "\u{483}", "—", "é",
                    "\u{2000}", "ә", "7", "\u{1161}",
                ]),
                0..60,
            )
        ) {
            let s: String = pieces.concat();
            if surely_nfc(&s) {
                proptest::prop_assert_eq!(is_nfc_quick(s.chars()), IsNormalized::Yes, "{:?}", s);
            }
            let plain: String = s.chars().filter(|c| c.is_ascii() || ('\u{400}'..='\u{47f}').contains(c)).collect();
            proptest::prop_assert!(surely_nfc(&plain), "{:?}", plain);
        }
    }

    #[test]
    fn nfc_fast_path_never_passes_what_the_full_check_does_not() {
        // every character of the first planes, alone, between letters, and before and after
        // a combining mark and a character that composes with the one before it
        for c in (0..0x3_0000u32).filter_map(char::from_u32) {
            for s in [
                format!("{c}"),
                format!("a{c}b"),
                format!("{c}\u{301}"),
                format!("\u{301}{c}"),
                format!("{c}\u{1161}"),
            ] {
                if surely_nfc(&s) {
                    assert_eq!(
                        is_nfc_quick(s.chars()),
                        IsNormalized::Yes,
                        "{s:?} passed the fast path but is not NFC"
                    );
                }
            }
        }
    }

    #[test]
    fn invalid_utf8_names_line_and_column() {
        let mut d = Diagnostics::default();
        assert!(decode(b"ok\nab\xff".to_vec(), "x.md", &mut d).is_none());
        assert_eq!((d.items[0].line, d.items[0].column), (2, 3));
    }

    #[test]
    fn a_bom_starting_a_line_inside_the_file_is_named_and_left_out() {
        let mut d = Diagnostics::default();
        let text = "\u{feff}---\r\nid: a\r\n---\r\nx\r\n\u{feff}\u{feff}# H\r\n\u{feff}- i\nmid\u{feff}dle\n";
        let out = decode(text.as_bytes().to_vec(), "x.md", &mut d).unwrap();
        assert_eq!(out, "---\nid: a\n---\nx\n# H\n- i\nmid\u{feff}dle\n");
        assert_eq!(d.items.len(), 1, "{:?}", d.items);
        assert_eq!((d.items[0].kind, d.items[0].line), ("bom-inside", 5));
        let mut clean = Diagnostics::default();
        decode(b"a\nb\n".to_vec(), "y.md", &mut clean).unwrap();
        assert!(clean.items.is_empty());
    }
}
