//! Proves that the default content in `content/` keeps everything the five
//! source documents in `../shared/seeds/` say.
//!
//! Every sentence of the Rules Reference (seed 004) must appear in the English
//! content, every English sentence of the rulebook translation (seeds 002 and
//! 003) in the English content and every Ukrainian sentence in the Ukrainian
//! content; every key of the chat-bot glossary (seed 000) must be in
//! `content/en/glossary.json` with its value unchanged, every definition of the
//! Rules Reference glossary (seed 001) must be in the English glossary and every
//! entry of the rulebook glossary (*Словник термінів*) in the glossary of its
//! language.
//!
//! Before comparing, both sides are normalised: whitespace, hyphens, Markdown
//! markup (emphasis, link brackets and `(#)` targets, image alt text, footnote
//! references, heading ids, table pipes), game symbol markup (`:main:`) and the
//! gap the extraction left where a symbol stood, and footnote superscripts are
//! removed. The text replacements listed in `content/CORRECTIONS.md` (the
//! repairs of extraction damage, such as *Conjunction* → *Conjuration*) are
//! applied to the seeds first, so a documented correction is not a loss.

use serde_json::Value;
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

const SYMBOLS: &[&str] = &[
    "main",
    "side",
    "exhaust",
    "discard",
    "basic",
    "ceremonial-power",
    "ceremonial-class",
    "charm-power",
    "charm-class",
    "illusion-power",
    "illusion-class",
    "natural-power",
    "natural-class",
    "divine-power",
    "divine-class",
    "sympathy-power",
    "sympathy-class",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn seeds_dir() -> PathBuf {
    let dir = root().join("..").join("shared").join("seeds");
    if !dir.is_dir() {
        panic!(
            "the seed documents were not found: looked for the folder {} \
             (the test expects `shared/seeds/` beside the repository)",
            dir.display()
        );
    }
    dir
}

/// The text of the seed whose file name starts with `prefix` ("000" … "004").
fn seed(prefix: &str) -> String {
    let dir = seeds_dir();
    let mut found = None;
    for entry in fs::read_dir(&dir).expect("cannot list the seeds folder") {
        let path = entry.expect("cannot read the seeds folder").path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name.starts_with(&format!("{prefix}_")) {
            found = Some(path);
        }
    }
    let path = found.unwrap_or_else(|| {
        panic!(
            "no seed document {prefix}_* in {} (looked for the file there)",
            dir.display()
        )
    });
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// (source, found, written) rows of the machine-readable table in CORRECTIONS.md.
fn corrections() -> Vec<(String, String, String)> {
    let text = read(&root().join("content").join("CORRECTIONS.md"));
    let mut rows = Vec::new();
    for line in text.lines() {
        let line = line.trim_end();
        if !line.starts_with('|') {
            continue;
        }
        let cells: Vec<&str> = line.split('|').collect();
        // "", source, where, found, written, why, ""
        if cells.len() < 6 {
            continue;
        }
        let source = cells[1].trim();
        if !(source.len() == 3 && source.chars().all(|c| c.is_ascii_digit())) {
            continue;
        }
        let code = |cell: &str| -> Option<String> {
            let a = cell.find('`')?;
            let b = cell.rfind('`')?;
            (b > a).then(|| cell[a + 1..b].to_string())
        };
        if let (Some(found), Some(written)) = (code(cells[3]), code(cells[4])) {
            rows.push((source.to_string(), found, written));
        }
    }
    assert!(
        rows.len() >= 3,
        "content/CORRECTIONS.md has no machine-readable corrections table"
    );
    rows
}

/// The seed with every documented correction for it applied. A correction
/// whose text is not in the seed fails the test: the list must stay true.
fn corrected_seed(prefix: &str, rows: &[(String, String, String)]) -> String {
    let mut text = seed(prefix);
    for (source, found, written) in rows {
        if source != prefix {
            continue;
        }
        assert!(
            text.contains(found.as_str()),
            "CORRECTIONS.md lists `{found}` for seed {prefix}, but the seed does not contain it"
        );
        text = text.replace(found.as_str(), written);
    }
    text
}

fn is_superscript_digit(c: char) -> bool {
    matches!(c, '⁰' | '¹' | '²' | '³' | '⁴' | '⁵' | '⁶' | '⁷' | '⁸' | '⁹')
}

fn has_cyrillic(s: &str) -> bool {
    s.chars().any(|c| ('\u{0400}'..='\u{04FF}').contains(&c))
}

/// Removes `start … end` spans whose inside satisfies `keep_inside == false`.
fn strip_spans(s: &str, start: &str, end: &str, inside_ok: impl Fn(&str) -> bool) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find(start) {
        let after = &rest[i + start.len()..];
        match after.find(end) {
            Some(j) if inside_ok(&after[..j]) => {
                out.push_str(&rest[..i]);
                rest = &after[j + end.len()..];
            }
            _ => {
                out.push_str(&rest[..i + start.len()]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The comparison form of a text: what a reader sees, without layout.
fn normalise(s: &str) -> String {
    // image alt text: `![alt](path)` keeps only the path
    let mut t = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("![") {
        let after = &rest[i + 2..];
        match after.find("](") {
            Some(j) if !after[..j].contains('\n') => {
                t.push_str(&rest[..i]);
                t.push('(');
                rest = &after[j + 2..];
            }
            _ => {
                t.push_str(&rest[..i + 2]);
                rest = after;
            }
        }
    }
    t.push_str(rest);
    let t = t.replace("(#)", "");
    // footnote references and definition labels `[^12]`
    let t = strip_spans(&t, "[^", "]", |x| {
        !x.is_empty() && x.chars().all(|c| c.is_ascii_digit())
    });
    // explicit heading ids `{#prepare-phase}`
    let t = strip_spans(&t, "{#", "}", |x| {
        !x.is_empty()
            && x.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    });
    // chat-emoji placeholders of seed 000 `<:main:408070378204954629>`
    let t = strip_spans(&t, "<:", ">", |x| {
        x.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == ':' || c == '_' || c == '-')
    });
    // game symbol markup
    let mut t = t;
    for name in SYMBOLS {
        t = t.replace(&format!(":{name}:"), "");
    }
    let mut out = String::with_capacity(t.len());
    for c in t.chars() {
        if c.is_whitespace() || is_superscript_digit(c) {
            continue;
        }
        match c {
            '*' | '_' | '`' | '[' | ']' | '(' | ')' | '\\' | '|' | '#' | '<' | '>' | '-'
            | '\u{2010}' | '\u{00AD}' => {}
            '’' | '‘' => out.push('\''),
            '“' | '”' => out.push('"'),
            _ => out.push(c),
        }
    }
    out
}

/// Splits a line into sentences (after `.`, `?`, `!` followed by whitespace).
fn sentences(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = line.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        cur.push(c);
        let next_ws = chars.get(i + 1).is_none_or(|n| n.is_whitespace());
        if matches!(c, '.' | '?' | '!') && next_ws {
            out.push(std::mem::take(&mut cur));
        }
    }
    out.push(cur);
    out.into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !normalise(s).is_empty())
        .collect()
}

/// A table alignment row or a `---` separator: layout only.
fn is_layout_line(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && t.chars().all(|c| matches!(c, '|' | ':' | '-' | ' ' | '\t'))
}

struct Corpus {
    name: String,
    text: String,
    lower: String,
}

impl Corpus {
    fn new(name: &str, raw: &str) -> Self {
        let text = normalise(raw);
        let lower = text.to_lowercase();
        Corpus {
            name: name.to_string(),
            text,
            lower,
        }
    }
    /// Exact match, or a match that differs in case only (a glossary key is
    /// lower case where its source capitalises the term).
    fn has(&self, s: &str) -> bool {
        let n = normalise(s);
        self.text.contains(&n) || self.lower.contains(&n.to_lowercase())
    }
}

/// Every file `content/<lang>/*.md`, concatenated (front matter included).
fn markdown_of(lang: &str) -> String {
    let dir = root().join("content").join(lang);
    let mut paths: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no chapters in {}", dir.display());
    paths.iter().map(|p| read(p) + "\n\n").collect()
}

fn glossary_of(lang: &str) -> serde_json::Map<String, Value> {
    let path = root().join("content").join(lang).join("glossary.json");
    match serde_json::from_str::<Value>(&read(&path)) {
        Ok(Value::Object(map)) => map,
        Ok(_) => panic!("{} is not a JSON object", path.display()),
        Err(e) => panic!("{} is not valid JSON: {e}", path.display()),
    }
}

/// The glossary as text: `**term:** definition` per entry.
fn glossary_text(map: &serde_json::Map<String, Value>) -> String {
    let mut out = String::new();
    for (key, value) in map {
        match value {
            Value::String(def) => out.push_str(&format!("**{key}:** {def}\n\n")),
            Value::Object(o) => {
                let term = o.get("term").and_then(Value::as_str).unwrap_or(key);
                let def = o.get("definition").and_then(Value::as_str).unwrap_or("");
                out.push_str(&format!("**{term}:** {def}\n\n"));
            }
            _ => {}
        }
    }
    out
}

fn report(missing: &[String], what: &str) {
    if !missing.is_empty() {
        let shown: Vec<&String> = missing.iter().take(40).collect();
        panic!(
            "{} {what} missing from the content:\n{}",
            missing.len(),
            shown
                .iter()
                .map(|s| format!("  - {s}"))
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

fn check_lines<'a>(
    lines: impl Iterator<Item = &'a str>,
    corpus: &Corpus,
    source: &str,
    missing: &mut Vec<String>,
) {
    for line in lines {
        if line.trim().is_empty() || is_layout_line(line) {
            continue;
        }
        for s in sentences(line) {
            if !corpus.has(&s) {
                missing.push(format!("[seed {source} → {}] {s}", corpus.name));
            }
        }
    }
}

#[test]
fn rules_reference_is_complete() {
    seeds_dir(); // fails first, naming the folder, when the seeds are not there
    let rows = corrections();
    let text = corrected_seed("004", &rows);
    let en = Corpus::new("content/en", &markdown_of("en"));
    let mut missing = Vec::new();
    // the table of contents keeps its entries, not its page numbers
    let lines: Vec<String> = text
        .lines()
        .map(|l| {
            let t = l.trim_end();
            match t.rsplit_once('\t') {
                Some((head, page))
                    if !page.is_empty() && page.chars().all(|c| c.is_ascii_digit()) =>
                {
                    head.to_string()
                }
                _ => t.to_string(),
            }
        })
        .collect();
    check_lines(lines.iter().map(String::as_str), &en, "004", &mut missing);
    report(&missing, "sentences of the Rules Reference (seed 004) are");
}

#[test]
fn rulebook_translation_is_complete() {
    seeds_dir(); // fails first, naming the folder, when the seeds are not there
    let rows = corrections();
    let uk_text = markdown_of("uk") + &glossary_text(&glossary_of("uk"));
    let en_text = markdown_of("en") + &glossary_text(&glossary_of("en"));
    let uk = Corpus::new("content/uk", &uk_text);
    let en = Corpus::new("content/en", &en_text);
    let mut missing = Vec::new();
    for prefix in ["002", "003"] {
        let mut text = corrected_seed(prefix, &rows);
        if prefix == "003" {
            // the translators' front matter: the id must pair a chapter in both
            // languages, the title (less its "03 - " ordering prefix) is the
            // Ukrainian chapter title
            let body_start = text
                .match_indices("---")
                .nth(1)
                .map(|(i, _)| i + 3)
                .unwrap();
            let front = text[..body_start].to_string();
            for line in front.lines() {
                if let Some(id) = line.strip_prefix("id:") {
                    let id = id.trim();
                    for (lang, corpus_raw) in [("uk", markdown_of("uk")), ("en", markdown_of("en"))]
                    {
                        assert!(
                            corpus_raw.lines().any(|l| l.trim() == format!("id: {id}")),
                            "no chapter with `id: {id}` (seed 003) in content/{lang}"
                        );
                    }
                }
                if let Some(title) = line.strip_prefix("title:") {
                    let title = title.trim();
                    let title = title
                        .split_once(" - ")
                        .filter(|(n, _)| n.chars().all(|c| c.is_ascii_digit()))
                        .map_or(title, |(_, t)| t);
                    if !uk.has(title) {
                        missing.push(format!("[seed 003 → content/uk] title {title}"));
                    }
                }
            }
            text = text[body_start..].to_string();
        }
        // Sections whose body the translators left in English: the Ukrainian
        // chapter keeps that English text.
        let mut section: Vec<&str> = Vec::new();
        let mut sections: Vec<Vec<&str>> = Vec::new();
        for line in text.lines() {
            if line.starts_with('#') && !line.starts_with("#TODO") {
                sections.push(std::mem::take(&mut section));
            }
            section.push(line);
        }
        sections.push(section);
        for sec in &sections {
            let untranslated = sec.iter().skip(1).all(|l| !has_cyrillic(l))
                && sec.iter().skip(1).any(|l| !l.trim().is_empty());
            for (i, line) in sec.iter().enumerate() {
                if line.trim() == "## Словник термінів" {
                    // the glossary's heading: its entries are the glossary files,
                    // checked entry by entry in `glossaries_are_complete`
                    continue;
                }
                // `#TODO` stands in the Ukrainian list, for a step not yet translated
                let ukrainian = has_cyrillic(line) || line.contains("#TODO");
                let corpus = if ukrainian { &uk } else { &en };
                check_lines(std::iter::once(*line), corpus, prefix, &mut missing);
                let heading_in_english = i == 0 && line.starts_with('#') && !has_cyrillic(line);
                if (untranslated && i > 0) || heading_in_english {
                    check_lines(std::iter::once(*line), &uk, prefix, &mut missing);
                }
            }
        }
    }
    report(
        &missing,
        "sentences of the rulebook translation (seeds 002, 003) are",
    );
}

#[test]
fn glossaries_are_complete() {
    seeds_dir(); // fails first, naming the folder, when the seeds are not there
    let rows = corrections();
    let en_map = glossary_of("en");
    let uk_map = glossary_of("uk");
    let mut missing = Vec::new();

    // format: strings, or objects with the known fields only
    for (lang, map) in [("en", &en_map), ("uk", &uk_map)] {
        for (key, value) in map.iter() {
            match value {
                Value::String(_) => {}
                Value::Object(o) => {
                    for field in o.keys() {
                        assert!(
                            ["term", "definition", "aliases", "autolink", "source", "tags"]
                                .contains(&field.as_str()),
                            "content/{lang}/glossary.json: entry {key:?} has unknown field {field:?}"
                        );
                    }
                    assert!(
                        o.get("term").is_some_and(Value::is_string)
                            && o.get("definition").is_some_and(Value::is_string),
                        "content/{lang}/glossary.json: entry {key:?} needs a term and a definition"
                    );
                }
                _ => panic!(
                    "content/{lang}/glossary.json: entry {key:?} is neither text nor an object"
                ),
            }
        }
    }
    for key in uk_map.keys() {
        assert!(
            en_map.contains_key(key),
            "content/uk/glossary.json: key {key:?} has no English entry"
        );
    }

    // seed 000: every key, its value unchanged
    let seed000: serde_json::Map<String, Value> = match serde_json::from_str(&seed("000")) {
        Ok(Value::Object(m)) => m,
        _ => panic!("seed 000 is not a JSON object"),
    };
    for (key, value) in &seed000 {
        match en_map.get(key) {
            None => missing.push(format!("[seed 000] key {key:?}")),
            Some(v) if v != value => missing.push(format!("[seed 000] value of {key:?} changed")),
            _ => {}
        }
    }

    // seed 001: every definition sentence, without the extraction debris
    let en_gloss = Corpus::new("content/en/glossary.json", &glossary_text(&en_map));
    let text001 = corrected_seed("001", &rows);
    let mut cleaned = String::new();
    for line in text001.lines() {
        let mut l = line.to_string();
        while let (Some(a), Some(b)) = (l.find("<|"), l.find("|>")) {
            if b < a {
                break;
            }
            l.replace_range(a..b + 2, "");
        }
        cleaned.push_str(&l);
        cleaned.push('\n');
    }
    for line in cleaned.lines() {
        if line.trim() == "Entries in purple apply to the Red Rains game mode only." {
            // the colour is gone; the entries carry the tag instead
            let tagged = en_map.values().any(|v| {
                v.get("tags")
                    .and_then(Value::as_array)
                    .is_some_and(|t| t.iter().any(|x| x == "Red Rains"))
            });
            assert!(tagged, "no glossary entry is tagged \"Red Rains\"");
            continue;
        }
        check_lines(std::iter::once(line), &en_gloss, "001", &mut missing);
    }

    // seed 002: every entry of *Словник термінів*, in the glossary of its language
    let uk_gloss = Corpus::new("content/uk/glossary.json", &glossary_text(&uk_map));
    let text002 = corrected_seed("002", &rows);
    let start = text002
        .find("## Словник термінів")
        .expect("seed 002 has no glossary");
    let mut blocks: Vec<String> = Vec::new();
    let mut cur = String::new();
    for line in text002[start..].lines().skip(1) {
        if line.trim().is_empty() {
            if !cur.is_empty() {
                blocks.push(std::mem::take(&mut cur));
            }
        } else {
            cur.push_str(line.trim());
            cur.push(' ');
        }
    }
    if !cur.is_empty() {
        blocks.push(cur);
    }
    let (uk_lower, en_lower) = (&uk_gloss.lower, &en_gloss.lower);
    let mut entries = 0;
    for block in &blocks {
        let (corpus, name) = if has_cyrillic(block) {
            (uk_lower, "content/uk/glossary.json")
        } else {
            (en_lower, "content/en/glossary.json")
        };
        entries += 1;
        if !corpus.contains(&normalise(block).to_lowercase()) {
            missing.push(format!(
                "[seed 002, Словник термінів → {name}] {}",
                block.trim()
            ));
        }
    }
    assert!(
        entries >= 100,
        "seed 002: the glossary should have over 100 entries, found {entries}"
    );

    report(&missing, "glossary entries are");
}

#[test]
fn rules_reference_structure_holds() {
    seeds_dir(); // fails first, naming the folder, when the seeds are not there
    let en = markdown_of("en");
    // section titles: chapter titles in front matter, `##`/`###` headings
    let mut titles = BTreeSet::new();
    let canon = |s: &str| -> String {
        let s = s.replace('\\', "");
        let mut out = String::new();
        let mut depth = 0;
        for c in s.chars() {
            match c {
                '[' => depth += 1,
                ']' => depth -= 1,
                _ if depth > 0 => {}
                _ => out.push(c),
            }
        }
        out.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let numbered = |s: &str| -> bool {
        let first = s.split_whitespace().next().unwrap_or("");
        let parts: Vec<&str> = first.split('.').collect();
        parts.len() == 3
            && parts
                .iter()
                .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
    };
    for line in en.lines() {
        let t = if let Some(t) = line.strip_prefix("title: ") {
            t.trim().trim_matches('"').to_string()
        } else if let Some(t) = line
            .strip_prefix("## ")
            .or_else(|| line.strip_prefix("### "))
        {
            strip_spans(t, "[^", "]", |x| x.chars().all(|c| c.is_ascii_digit()))
        } else {
            continue;
        };
        if numbered(&t) {
            titles.insert(canon(&t));
        }
    }
    let seed004 = seed("004");
    let mut wanted = 0;
    for line in seed004.lines() {
        let head = line.split('\t').next().unwrap();
        let head: String = head.chars().filter(|c| !is_superscript_digit(*c)).collect();
        if numbered(&head) {
            wanted += 1;
            let fixed = head
                .replace("Conjunction", "Conjuration")
                .replace("Conjuraction", "Conjuration");
            assert!(
                titles.contains(&canon(&fixed)),
                "section {fixed:?} of seed 004 has no heading"
            );
        }
    }
    assert!(wanted > 70, "seed 004 headings not recognised");

    // internal links name sections that exist
    let mut rest = en.as_str();
    let mut links = 0;
    while let Some(i) = rest.find("](#)") {
        let before = &rest[..i];
        let mut depth = 0;
        let mut start = None;
        for (j, c) in before.char_indices().rev() {
            match c {
                ']' if !before[..j].ends_with('\\') => depth += 1,
                '[' if j > 0 && before[..j].ends_with('\\') => {}
                '[' if depth == 0 => {
                    start = Some(j);
                    break;
                }
                '[' => depth -= 1,
                _ => {}
            }
        }
        let text = &before[start.expect("unbalanced link") + 1..];
        assert!(numbered(text), "link without a section number: [{text}](#)");
        assert!(
            titles.contains(&canon(text)),
            "link to a section that does not exist: [{text}](#)"
        );
        links += 1;
        rest = &rest[i + 4..];
    }
    assert!(links > 50, "too few internal links found ({links})");

    // the 109 footnotes: every reference defined, every number used once
    let mut refs = BTreeSet::new();
    let mut defs = BTreeSet::new();
    for line in en.lines() {
        let mut l = line;
        if l.starts_with("[^") {
            if let Some(k) = l.find("]:") {
                defs.insert(l[2..k].to_string());
                l = &l[k + 2..];
            }
        }
        let mut r = l;
        while let Some(a) = r.find("[^") {
            let b = r[a..]
                .find(']')
                .map(|b| a + b)
                .expect("unclosed footnote reference");
            refs.insert(r[a + 2..b].to_string());
            r = &r[b..];
        }
    }
    let all: BTreeSet<String> = (1..=109).map(|n| n.to_string()).collect();
    assert_eq!(refs, all, "footnote references differ from 1..=109");
    assert_eq!(defs, all, "footnote definitions differ from 1..=109");

    // symbol markup names an icon that exists
    for name in SYMBOLS {
        let icon = root()
            .join("static")
            .join("icons")
            .join(format!("{name}.svg"));
        assert!(icon.is_file(), "missing icon {}", icon.display());
    }
}
