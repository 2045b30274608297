//! Glossary files: `content/<lang>/glossary.json`.
//!
//! A file is a JSON object whose keys are glossary ids. A value is either the definition itself
//! (Markdown; the key is then also the term: the format of the chat-bot glossary we started from,
//! which must load unchanged) or an object with `term`, `definition` and optional `aliases`,
//! `autolink`, `source` and `tags`. Keys pair entries across languages, like chapter ids.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::diag::{Diagnostic, Diagnostics, LineIndex};

#[derive(Debug, Clone, serde::Serialize)]
pub struct Entry {
    /// The key in the file (the id that pairs languages).
    pub key: String,
    pub term: String,
    pub definition: String,
    /// Other names: from the file, plus the keys of entries merged into this one.
    pub aliases: Vec<String>,
    /// Keys merged into this entry because their definitions were identical.
    pub merged_keys: Vec<String>,
    pub autolink: bool,
    pub source: Option<String>,
    pub tags: Vec<String>,
    pub line: usize,
    pub anchor: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryObject {
    term: String,
    definition: String,
    #[serde(default)]
    aliases: Vec<String>,
    #[serde(default)]
    autolink: Option<bool>,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    tags: Vec<String>,
}

#[derive(Debug, Default, Clone)]
pub struct Glossary {
    pub lang: String,
    pub path: PathBuf,
    /// Entries in file order (sorting is the page's job: it depends on the language).
    pub entries: Vec<Entry>,
    /// Every key (merged ones too) → index into `entries`.
    pub by_key: HashMap<String, usize>,
}

impl Glossary {
    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.by_key.get(key).map(|&i| &self.entries[i])
    }
}

/// A key of a JSON object: how deep its object is (1: the top level), which object it is in
/// (numbered as met), its name and its byte offset.
struct Key {
    depth: usize,
    object: usize,
    name: String,
    at: usize,
}

/// Every key of every object, found by a small scanner over text that already parsed as JSON.
/// serde_json does not report where a map key was, and keeps only the last of a key given
/// twice: a duplicate must be reported with both lines.
fn object_keys(text: &str) -> Vec<Key> {
    let bytes = text.as_bytes();
    let mut keys = Vec::new();
    // for each open object or array: its number, or None for an array
    let mut open: Vec<Option<usize>> = Vec::new();
    let mut objects = 0;
    let mut i = 0;
    let mut expect_key = false;
    while i < bytes.len() {
        match bytes[i] {
            b'{' => {
                open.push(Some(objects));
                objects += 1;
                expect_key = true;
            }
            b'[' => {
                open.push(None);
                expect_key = false;
            }
            b'}' | b']' => {
                open.pop();
                expect_key = false;
            }
            b',' => expect_key = matches!(open.last(), Some(Some(_))),
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                if let (true, Some(Some(object))) = (expect_key, open.last()) {
                    if let Ok(name) =
                        serde_json::from_str::<String>(&text[start..=i.min(bytes.len() - 1)])
                    {
                        keys.push(Key {
                            depth: open.len(),
                            object: *object,
                            name,
                            at: start,
                        });
                    }
                }
                expect_key = false;
            }
            _ => {}
        }
        i += 1;
    }
    keys
}

/// The top-level keys of a JSON object, with their byte offsets.
fn top_level_keys(text: &str) -> Vec<(String, usize)> {
    object_keys(text)
        .into_iter()
        .filter(|k| k.depth == 1)
        .map(|k| (k.name, k.at))
        .collect()
}

/// Fields given twice inside an entry (`"definition"` twice): (name, offset of the repeat,
/// offset of the first).
fn repeated_fields(text: &str) -> Vec<(String, usize, usize)> {
    let mut seen: HashMap<(usize, String), usize> = HashMap::new();
    let mut out = Vec::new();
    for k in object_keys(text).into_iter().filter(|k| k.depth > 1) {
        match seen.get(&(k.object, k.name.clone())) {
            Some(&first) => out.push((k.name, k.at, first)),
            None => {
                seen.insert((k.object, k.name), k.at);
            }
        }
    }
    out
}

/// The column in characters of serde_json's column in bytes (`byte_column`, 1-based) on
/// 1-based line `line` of `text`: the rest of our positions count characters, as editors do,
/// and in a Ukrainian glossary every letter before the mistake is two bytes.
fn char_column(text: &str, line: usize, byte_column: usize) -> usize {
    let Some(l) = line.checked_sub(1).and_then(|n| text.lines().nth(n)) else {
        return byte_column;
    };
    let before = byte_column.saturating_sub(1);
    l.char_indices().take_while(|(i, _)| *i < before).count() + 1
}

/// Parses one glossary file. Problems go to `diags`; entries with problems are skipped.
pub fn parse(text: &str, lang: &str, path: &Path, diags: &mut Diagnostics) -> Option<Glossary> {
    let value: serde_json::Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            // serde_json puts an error found at a line break (an unclosed string) at column 0
            // of the next line; the mistake is at the end of the line before
            let (line, column) = match (e.line(), e.column()) {
                (l, 0) if l > 1 => (
                    l - 1,
                    text.lines().nth(l - 2).map_or(0, |t| t.chars().count() + 1),
                ),
                (l, c) => (l, char_column(text, l, c)),
            };
            diags.push(
                Diagnostic::error(
                    "glossary-json",
                    path,
                    line,
                    format!(
                        "glossary is not valid JSON: {}",
                        strip_position(&e.to_string())
                    ),
                )
                .at_column(column),
            );
            return None;
        }
    };
    let serde_json::Value::Object(map) = value else {
        diags.push(Diagnostic::error(
            "glossary-shape",
            path,
            1,
            "a glossary is a JSON object: {\"term\": \"definition\", …}",
        ));
        return None;
    };
    let lines = LineIndex::new(text);
    let keys = top_level_keys(text);
    let mut first_line: HashMap<&str, usize> = HashMap::new();
    let mut line_of: HashMap<&str, usize> = HashMap::new();
    for (k, off) in &keys {
        let line = lines.line(*off);
        if let Some(first) = first_line.get(k.as_str()) {
            diags.push(Diagnostic::error(
                "glossary-duplicate-key",
                path,
                line,
                format!(
                    "key \"{k}\" is already defined on line {first}; JSON keeps only one of them"
                ),
            ));
        } else {
            first_line.insert(k, line);
        }
        line_of.insert(k, line);
    }
    for (name, at, first) in repeated_fields(text) {
        diags.push(Diagnostic::error(
            "glossary-duplicate-key",
            path,
            lines.line(at),
            format!(
                "\"{name}\" is given twice in this entry (first on line {}); JSON keeps only one of them",
                lines.line(first)
            ),
        ));
    }
    let mut g = Glossary {
        lang: lang.to_string(),
        path: path.to_path_buf(),
        ..Default::default()
    };
    let mut ok = true;
    // keep the file's order: serde_json's map is sorted, so walk the scanned keys instead
    let mut order: Vec<&str> = Vec::new();
    for (k, _) in &keys {
        if !order.contains(&k.as_str()) && map.contains_key(k) {
            order.push(k);
        }
    }
    if order.len() != map.len() {
        order = map.keys().map(String::as_str).collect();
    }
    for key in order {
        let line = *first_line.get(key).unwrap_or(&1);
        let v = &map[key];
        if key.trim().is_empty() {
            diags.push(Diagnostic::error(
                "glossary-shape",
                path,
                line,
                "empty key: every entry needs a name",
            ));
            ok = false;
            continue;
        }
        let entry = match v {
            serde_json::Value::String(def) => Entry {
                key: key.to_string(),
                term: key.to_string(),
                definition: def.clone(),
                aliases: Vec::new(),
                merged_keys: Vec::new(),
                autolink: true,
                source: None,
                tags: Vec::new(),
                line,
                anchor: String::new(),
            },
            serde_json::Value::Object(_) => match EntryObject::deserialize(v) {
                Ok(o) if !o.term.trim().is_empty() => Entry {
                    key: key.to_string(),
                    term: o.term,
                    definition: o.definition,
                    aliases: o.aliases,
                    merged_keys: Vec::new(),
                    autolink: o.autolink.unwrap_or(true),
                    source: o.source,
                    tags: o.tags,
                    line,
                    anchor: String::new(),
                },
                Ok(_) => {
                    diags.push(Diagnostic::error(
                        "glossary-shape",
                        path,
                        line,
                        format!("entry \"{key}\" has an empty `term`"),
                    ));
                    ok = false;
                    continue;
                }
                Err(e) => {
                    diags.push(Diagnostic::error(
                        "glossary-shape",
                        path,
                        line,
                        format!("entry \"{key}\": {e} (an entry is a string, or an object with term, definition and optional aliases, autolink, source, tags)"),
                    ));
                    ok = false;
                    continue;
                }
            },
            _ => {
                diags.push(Diagnostic::error("glossary-shape", path, line, format!("entry \"{key}\" must be a string (the definition) or an object with `term` and `definition`")));
                ok = false;
                continue;
            }
        };
        g.entries.push(entry);
    }
    if !ok {
        return None;
    }
    merge_identical(&mut g);
    assign_anchors(&mut g);
    Some(g)
}

fn strip_position(msg: &str) -> &str {
    msg.split(" at line ").next().unwrap_or(msg)
}

/// Entries whose definitions are word-for-word the same (`damage resolution`, `drp`, `ddrp`) are
/// one entry with aliases: a reader should not read the same paragraph three times.
fn merge_identical(g: &mut Glossary) {
    let mut first_by_def: HashMap<String, usize> = HashMap::new();
    let mut kept: Vec<Entry> = Vec::with_capacity(g.entries.len());
    let mut key_to: HashMap<String, usize> = HashMap::new();
    for e in std::mem::take(&mut g.entries) {
        let norm: String = e
            .definition
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if norm.is_empty() {
            key_to.insert(e.key.clone(), kept.len());
            kept.push(e);
            continue;
        }
        if let Some(&i) = first_by_def.get(&norm) {
            let target = &mut kept[i];
            if !target.aliases.contains(&e.term) && target.term != e.term {
                target.aliases.push(e.term.clone());
            }
            for a in e.aliases {
                if !target.aliases.contains(&a) {
                    target.aliases.push(a);
                }
            }
            target.merged_keys.push(e.key.clone());
            key_to.insert(e.key, i);
        } else {
            first_by_def.insert(norm, kept.len());
            key_to.insert(e.key.clone(), kept.len());
            kept.push(e);
        }
    }
    g.entries = kept;
    g.by_key = key_to;
}

/// Ids the glossary page gives elements of its own (the default theme's `base.html` and
/// `glossary.html`, and `reading.js`'s card): an entry keyed `untranslated` or `main` takes
/// the next free anchor (`untranslated-1`), and no key's own anchor is kept beside it
/// (render.rs), or the heading, the skip link's target or the search box would share its id.
pub const PAGE_IDS: &[&str] = &[
    "main",
    "rb-i18n",
    "rb-tip",
    "search-input",
    "search-results",
    "search-status",
    "untranslated",
];

fn assign_anchors(g: &mut Glossary) {
    let mut used: HashMap<String, usize> = PAGE_IDS.iter().map(|id| (id.to_string(), 1)).collect();
    for e in &mut g.entries {
        let base = crate::html::slugify(&e.key);
        let n = used.entry(base.clone()).or_insert(0);
        e.anchor = if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        };
        *n += 1;
    }
}

/// Anchor of a merged key: the slug of the key, kept on the page as an extra anchor so links
/// to `#drp` still land on the merged entry.
pub fn alias_anchor(key: &str) -> String {
    crate::html::slugify(key)
}

/// Sort key for a term in a language whose alphabet is given as a string of lowercase letters
/// (`абвгґдеєжзиіїйклмнопрстуфхцчшщьюя`). Letters outside the alphabet sort after it, by code
/// point; case and apostrophes do not count.
pub fn collation_key(term: &str, alphabet: &[char]) -> Vec<u32> {
    let mut key = Vec::with_capacity(term.len());
    for c in term.chars().flat_map(char::to_lowercase) {
        if matches!(c, '\'' | '’' | 'ʼ' | '`') {
            continue;
        }
        if c.is_whitespace() {
            key.push(0);
            continue;
        }
        match alphabet.iter().position(|&a| a == c) {
            Some(i) => key.push(1 + i as u32),
            None => key.push(0x1000 + c as u32),
        }
    }
    key
}

/// Glossaries of every language.
pub type Glossaries = BTreeMap<String, Glossary>;

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_ok(text: &str) -> Glossary {
        let mut d = Diagnostics::default();
        let g = parse(text, "en", Path::new("g.json"), &mut d);
        assert!(d.items.is_empty(), "{:?}", d.items);
        g.unwrap()
    }

    #[test]
    fn both_entry_forms_and_file_order() {
        let g = parse_ok(
            r#"{"zeta": "Last letter.", "alpha": {"term": "Alpha", "definition": "First.", "aliases": ["a"]}}"#,
        );
        assert_eq!(g.entries[0].key, "zeta");
        assert_eq!(g.entries[1].term, "Alpha");
        assert_eq!(g.entries[1].aliases, ["a"]);
    }

    #[test]
    fn identical_definitions_merge_into_aliases() {
        let g = parse_ok(
            r#"{"damage resolution": "Same text.", "drp": "Same  text.", "ddrp": "Same text.", "other": "x"}"#,
        );
        assert_eq!(g.entries.len(), 2);
        assert_eq!(g.entries[0].aliases, ["drp", "ddrp"]);
        assert_eq!(g.get("ddrp").unwrap().key, "damage resolution");
    }

    #[test]
    fn errors_name_the_line() {
        let cases = [
            (
                "{\n\"a\": \"x\",\n\"a\": \"y\"\n}",
                "glossary-duplicate-key",
                3,
            ),
            ("{\n\"a\": \"x\"\n\"b\": 1}", "glossary-json", 3),
            (
                "{\n\"a\": {\"term\": \"A\",\n \"definition\": \"x\",\n \"definition\": \"y\"}}",
                "glossary-duplicate-key",
                4,
            ),
            ("[1, 2]", "glossary-shape", 1),
            ("{\n\"\": \"x\"}", "glossary-shape", 2),
            ("{\n\"a\": 5}", "glossary-shape", 2),
            ("{\n\"a\": {\"term\": \"A\"}}", "glossary-shape", 2),
            (
                "{\n\"a\": {\"term\": \"A\", \"definition\": \"d\", \"colour\": 1}}",
                "glossary-shape",
                2,
            ),
        ];
        for (text, kind, line) in cases {
            let mut d = Diagnostics::default();
            parse(text, "en", Path::new("g.json"), &mut d);
            assert_eq!(
                (d.items[0].kind, d.items[0].line),
                (kind, line),
                "{text}: {}",
                d.items[0]
            );
        }
    }

    /// Columns count characters, as editors do: a Cyrillic letter is two bytes.
    #[test]
    fn a_json_error_column_counts_characters() {
        let text = "{\n  \"хід\": \"Частина гри\" \"зайве\"\n}\n";
        let mut d = Diagnostics::default();
        parse(text, "uk", Path::new("g.json"), &mut d);
        let at = text.lines().nth(1).unwrap().find(" \"зайве").unwrap();
        let want = text.lines().nth(1).unwrap()[..at].chars().count() + 2;
        assert_eq!(
            (d.items[0].line, d.items[0].column),
            (2, want),
            "{}",
            d.items[0]
        );
        assert_eq!(want, 24);
    }

    #[test]
    fn ukrainian_alphabetical_order() {
        let abc: Vec<char> = "абвгґдеєжзиіїйклмнопрстуфхцчшщьюя".chars().collect();
        let mut words = vec![
            "ґанок",
            "гра",
            "їжак",
            "інше",
            "єдиний",
            "яма",
            "Абетка",
            "й",
        ];
        words.sort_by_key(|w| collation_key(w, &abc));
        assert_eq!(
            words,
            [
                "Абетка",
                "гра",
                "ґанок",
                "єдиний",
                "інше",
                "їжак",
                "й",
                "яма"
            ]
        );
    }
}
