//! The theme: templates, static files and UI strings.
//!
//! The default theme is embedded in the binary (see `build.rs`). A site may bring its own
//! `templates/`, `static/` and `i18n/`: a file there replaces the embedded file of the same name,
//! and UI strings are merged key by key, so a site can change one word without copying a file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::diag::display_path;
use crate::diag::{Diagnostic, Diagnostics};
use crate::symlinks::{not_followed, resolve, Target};

include!(concat!(env!("OUT_DIR"), "/embedded.rs"));

/// A file to copy into the output's `static/`.
#[derive(Debug, Clone)]
pub enum StaticFile {
    Embedded(&'static [u8]),
    Disk(PathBuf),
}

#[derive(Debug, Default)]
pub struct Theme {
    /// Template name (`chapter.html`) → source.
    pub templates: BTreeMap<String, String>,
    /// The templates the site brings itself (its `templates/`): `check` renders the pages
    /// that use them, since only those can fail where the embedded theme does not.
    pub overridden: std::collections::BTreeSet<String>,
    /// Path below `static/` → file.
    pub static_files: BTreeMap<String, StaticFile>,
    /// Language → UI strings (a JSON object; nested tables such as `symbols` allowed).
    pub strings: BTreeMap<String, serde_json::Value>,
}

fn merge(into: &mut serde_json::Value, from: serde_json::Value) {
    match (into, from) {
        (serde_json::Value::Object(a), serde_json::Value::Object(b)) => {
            for (k, v) in b {
                match a.get_mut(&k) {
                    Some(slot) => merge(slot, v),
                    None => {
                        a.insert(k, v);
                    }
                }
            }
        }
        (slot, v) => *slot = v,
    }
}

/// Warns once about the keys of the fallback's strings that a site's own strings file (of a
/// language the theme has none for) does not set: their text is the fallback language's.
fn lacking_strings(
    fallback: &serde_json::Value,
    site: &serde_json::Value,
    fallback_lang: &str,
    shown: &Path,
    diags: &mut Diagnostics,
) {
    let (Some(all), Some(own)) = (fallback.as_object(), site.as_object()) else {
        return;
    };
    let lacking: Vec<&str> = all
        .keys()
        // a language's name is its own, never the fallback's (see `language_names`)
        .filter(|k| !own.contains_key(*k) && *k != "language_name")
        .map(String::as_str)
        .collect();
    if lacking.is_empty() {
        return;
    }
    const NAMED: usize = 8;
    let mut names: Vec<String> = lacking
        .iter()
        .take(NAMED)
        .map(|k| format!("`{k}`"))
        .collect();
    if lacking.len() > NAMED {
        names.push(format!("and {} more", lacking.len() - NAMED));
    }
    diags.push(Diagnostic::warning(
        "i18n",
        shown,
        0,
        format!(
            "{} of the theme's {} UI strings are not set here ({}); their {fallback_lang} text is shown until they are",
            lacking.len(),
            all.len(),
            names.join(", ")
        ),
    ));
}

/// Gives each language the strings of the site's own (keys the theme does not have) that
/// another language's file sets and its own does not, with a warning naming the file that
/// lacks them. Without them, every page in that language failed to render with Tera's
/// "Variable `t.my_key` not found", at the template's line, with no word of which file
/// lacked the key.
fn share_own_strings(
    strings: &mut BTreeMap<String, serde_json::Value>,
    languages: &[String],
    known: &std::collections::BTreeSet<String>,
    diags: &mut Diagnostics,
) {
    // each own key, with the first language (in the site's order) that sets it
    let mut own: BTreeMap<String, (&str, serde_json::Value)> = BTreeMap::new();
    for lang in languages {
        if let Some(m) = strings.get(lang).and_then(|v| v.as_object()) {
            // a key one edit from a theme's key is a misspelling, warned of as one where it
            // is written (`check_types`), not a string of the site's own to share
            let own_key = |k: &str| {
                !known.contains(k) && near_key(k, known.iter().map(String::as_str)).is_none()
            };
            for (k, v) in m.iter().filter(|(k, _)| own_key(k)) {
                own.entry(k.clone()).or_insert((lang.as_str(), v.clone()));
            }
        }
    }
    for lang in languages {
        let Some(m) = strings.get_mut(lang).and_then(|v| v.as_object_mut()) else {
            continue;
        };
        let mut lacking = Vec::new();
        for (k, (from, v)) in &own {
            if !m.contains_key(k) {
                m.insert(k.clone(), v.clone());
                lacking.push(format!("`{k}` (i18n/{from}.yaml has it)"));
            }
        }
        if lacking.is_empty() {
            continue;
        }
        const NAMED: usize = 8;
        let more = lacking.len().saturating_sub(NAMED);
        lacking.truncate(NAMED);
        if more > 0 {
            lacking.push(format!("and {more} more"));
        }
        diags.push(Diagnostic::warning(
            "i18n",
            format!("i18n/{lang}.yaml"),
            0,
            format!(
                "does not set the site's own UI strings {}; the {lang} pages show the other \
                 language's text until it does",
                lacking.join(", ")
            ),
        ));
    }
}

fn parse_strings(text: &str, shown: &Path, diags: &mut Diagnostics) -> Option<serde_json::Value> {
    if let Some(at) = crate::limits::yaml_too_deep(text) {
        diags.push(crate::limits::too_deep_diagnostic(
            "i18n", shown, text, at, 1,
        ));
        return None;
    }
    // read into a map, a name given twice keeps its last text silently
    if let Some((line, msg)) = crate::load::duplicate_key(text) {
        diags.push(Diagnostic::error(
            "i18n",
            shown,
            line,
            format!("UI strings are not valid YAML: {msg}"),
        ));
        return None;
    }
    match serde_yaml::from_str::<serde_json::Value>(text) {
        Ok(v @ serde_json::Value::Object(_)) => Some(v),
        // an empty file, or one of comments only (a new language's file, not begun): nothing
        // of the theme's is changed
        Ok(serde_json::Value::Null) => Some(serde_json::Value::Object(Default::default())),
        Ok(_) => {
            diags.push(Diagnostic::error(
                "i18n",
                shown,
                1,
                "UI strings must be a YAML mapping of names to texts",
            ));
            None
        }
        Err(e) => {
            let line = e.location().map(|l| l.line()).unwrap_or(1);
            diags.push(Diagnostic::error(
                "i18n",
                shown,
                line,
                format!("UI strings are not valid YAML: {e}"),
            ));
            None
        }
    }
}

/// What a YAML value is, in the words of the messages.
fn kind_of(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "empty",
        serde_json::Value::Bool(_) => "true/false",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "text",
        serde_json::Value::Array(_) => "a list",
        serde_json::Value::Object(_) => "a mapping",
    }
}

/// The known key `key` is most likely a misspelling of: one edit away (two for keys of 8
/// letters or more), the nearest first, alphabetical among equals.
pub(crate) fn near_key<'k>(key: &str, known: impl IntoIterator<Item = &'k str>) -> Option<&'k str> {
    let k: Vec<char> = key.chars().collect();
    let limit = if k.len() >= 8 { 2 } else { 1 };
    if k.len() < 4 {
        return None;
    }
    known
        .into_iter()
        .filter_map(|c| {
            let cc: Vec<char> = c.chars().collect();
            let d = crate::search::rank::distance(&k, &cc, limit);
            (d <= limit).then_some((d, c))
        })
        .min()
        .map(|(_, c)| c)
}

/// Checks the types of a site's UI strings against the keys the theme knows, and drops the
/// values of the wrong type (so they cannot reach a page). Every known key is a text, except
/// `symbols`, a mapping of symbol names to texts. Before, a list or a number was rendered as
/// `[1, 2]` or replaced by the key's own name, and a wrong `alphabet` or `symbols` was
/// ignored, all without a message. Keys the theme does not know are left to the site's own
/// templates.
///
/// Unknown keys one or two edits from a known one get a warning: see [`near_key`].
fn check_string_types(
    v: &mut serde_json::Value,
    text: &str,
    shown: &Path,
    known: &std::collections::BTreeSet<String>,
    diags: &mut Diagnostics,
) {
    let lines: Vec<&str> = text.lines().collect();
    let top_line = |key: &str| {
        lines
            .iter()
            .position(|l| crate::load::front_matter_key(l).as_deref() == Some(key))
            .map(|i| i + 1)
    };
    let serde_json::Value::Object(map) = v else {
        return;
    };
    let mut bad = Vec::new();
    for (key, value) in map.iter_mut() {
        if !known.contains(key) {
            // A key of one's own is for one's own templates (`{{ t.my_key }}`); one a letter
            // or two from a known key is likely that key mistyped, which would leave the
            // default text in place without a word.
            if let Some(near) = near_key(key, known.iter().map(String::as_str)) {
                diags.push(Diagnostic::warning(
                    "i18n",
                    shown,
                    top_line(key).unwrap_or(1),
                    format!(
                        "`{key}` is not a key the theme knows; did you mean `{near}`? (until then `{near}` keeps its default text)"
                    ),
                ));
            }
            continue;
        }
        let line = top_line(key).unwrap_or(1);
        if key == "symbols" {
            let serde_json::Value::Object(symbols) = value else {
                diags.push(Diagnostic::error(
                    "i18n",
                    shown,
                    line,
                    format!(
                        "`symbols` must be a mapping of symbol names to texts (`main: Main \
                         action`, one a line), not {}",
                        kind_of(value)
                    ),
                ));
                bad.push(key.clone());
                continue;
            };
            let mut bad_symbols = Vec::new();
            for (name, text) in symbols.iter() {
                if !text.is_string() {
                    let at = lines
                        .iter()
                        .enumerate()
                        .skip(line)
                        .find(|(_, l)| {
                            crate::load::front_matter_key(l.trim_start()).as_deref()
                                == Some(name.as_str())
                        })
                        .map(|(i, _)| i + 1)
                        .unwrap_or(line);
                    diags.push(Diagnostic::error(
                        "i18n",
                        shown,
                        at,
                        format!(
                            "`symbols.{name}` must be text (the symbol's name read aloud), not {}",
                            kind_of(text)
                        ),
                    ));
                    bad_symbols.push(name.clone());
                }
            }
            for name in bad_symbols {
                symbols.remove(&name);
            }
        } else if !value.is_string() {
            diags.push(Diagnostic::error(
                "i18n",
                shown,
                line,
                format!(
                    "`{key}` must be text, not {}; write it as `{key}: \"…\"`",
                    kind_of(value)
                ),
            ));
            bad.push(key.clone());
        }
    }
    for key in bad {
        map.remove(&key);
    }
}

/// The `{name}` placeholders of a UI string (`Results: {n}`).
fn placeholders_in(text: &str) -> impl Iterator<Item = &str> {
    text.split('{').skip(1).filter_map(|rest| {
        let name = rest.split('}').next().filter(|_| rest.contains('}'))?;
        (!name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
            .then_some(name)
    })
}

/// Warns of a placeholder in a site's UI string that the theme does not fill in (`{lnag}` for
/// `{lang}`): it would be shown to readers as written, and nothing else said so.
fn check_placeholders(
    v: &serde_json::Value,
    text: &str,
    shown: &Path,
    known: &BTreeMap<String, std::collections::BTreeSet<String>>,
    diags: &mut Diagnostics,
) {
    let Some(map) = v.as_object() else { return };
    for (key, value) in map {
        let (Some(own), Some(filled)) = (value.as_str(), known.get(key)) else {
            continue;
        };
        for name in placeholders_in(own) {
            if filled.contains(name) {
                continue;
            }
            let line = text
                .lines()
                .position(|l| crate::load::front_matter_key(l).as_deref() == Some(key.as_str()))
                .map_or(1, |i| i + 1);
            let what = match filled.len() {
                0 => format!("`{key}` has no placeholders"),
                _ => format!(
                    "`{key}` fills in {}",
                    filled
                        .iter()
                        .map(|f| format!("`{{{f}}}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            let hint = near_key(name, filled.iter().map(String::as_str))
                .map(|n| format!("; did you mean `{{{n}}}`?"))
                .unwrap_or_default();
            diags.push(Diagnostic::warning(
                "i18n",
                shown,
                line,
                format!(
                    "`{{{name}}}` is not filled in and will be shown as written ({what}){hint}"
                ),
            ));
        }
    }
}

impl Theme {
    /// The ids the theme itself gives elements of a chapter page (`main`, `search-input`, and
    /// the one `reading.js` makes): a heading must not take one, or the skip link, the search
    /// box or a link to `#main` would find the heading instead. Read from `chapter.html` and
    /// the templates it extends or includes, so a site's own theme reserves its own ids; an
    /// id written with a Tera expression is not a fixed one and is left out.
    pub fn page_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = vec!["rb-tip".to_string()];
        let mut todo = vec!["chapter.html".to_string()];
        let mut seen = std::collections::BTreeSet::new();
        while let Some(name) = todo.pop() {
            if !seen.insert(name.clone()) {
                continue;
            }
            let Some(src) = self.templates.get(&name) else {
                continue;
            };
            ids.extend(quoted_after(src, " id=\"").filter(|v| !v.contains('{')));
            for keyword in ["extends", "include"] {
                todo.extend(tag_targets(src, keyword).map(str::to_string));
            }
        }
        ids.sort();
        ids.dedup();
        ids
    }

    pub fn load(site_root: &Path, languages: &[String], diags: &mut Diagnostics) -> Theme {
        let mut theme = Theme::default();
        let mut embedded_strings: BTreeMap<String, serde_json::Value> = BTreeMap::new();
        for (path, bytes) in EMBEDDED {
            if let Some(name) = path.strip_prefix("templates/") {
                theme.templates.insert(
                    name.to_string(),
                    String::from_utf8_lossy(bytes).into_owned(),
                );
            } else if let Some(name) = path.strip_prefix("static/") {
                theme
                    .static_files
                    .insert(name.to_string(), StaticFile::Embedded(bytes));
            } else if let Some(name) = path
                .strip_prefix("i18n/")
                .and_then(|n| n.strip_suffix(".yaml"))
            {
                let text = String::from_utf8_lossy(bytes);
                if let Some(v) = parse_strings(&text, Path::new(path), diags) {
                    embedded_strings.insert(name.to_string(), v);
                }
            }
        }
        let canon_root = site_root
            .canonicalize()
            .unwrap_or_else(|_| site_root.to_path_buf());
        // site templates
        let tdir = site_root.join("templates");
        for (rel, real) in theme_files(&tdir, &canon_root, site_root, diags) {
            // a README, an editor's backup (`chapter.html~`) or a desktop's `Thumbs.db` beside
            // the templates is no template, and compiled as one it failed the build; any other
            // file is one (a site may import its macros from `macros.tera`)
            if !is_template_file(&rel) {
                continue;
            }
            match std::fs::read(&real).map(String::from_utf8) {
                Ok(Ok(text)) => {
                    theme.overridden.insert(rel.clone());
                    theme.templates.insert(rel, text);
                }
                _ => diags.push(Diagnostic::error(
                    "template",
                    display_path(&tdir.join(&rel), site_root),
                    0,
                    "template is not readable UTF-8 text",
                )),
            }
        }
        // site static files
        let sdir = site_root.join("static");
        for (rel, real) in theme_files(&sdir, &canon_root, site_root, diags) {
            theme.static_files.insert(rel, StaticFile::Disk(real));
        }
        // a file where another file needs a folder (the site's `static/css` beside the theme's
        // `css/style.css`) cannot be written; said here, with its name, and not as a failed
        // write in a temporary folder
        let mut clashes = BTreeMap::new();
        for name in theme.static_files.keys() {
            for (at, _) in name.match_indices('/') {
                let folder = &name[..at];
                if theme.static_files.contains_key(folder) {
                    clashes.entry(folder.to_string()).or_insert(name.clone());
                }
            }
        }
        for (file, next) in clashes {
            diags.push(Diagnostic::error(
                "static",
                display_path(&sdir.join(&file), site_root),
                0,
                format!("a file where `{next}` needs a folder `{file}/`: rename the file, or make it a folder"),
            ));
        }
        // UI strings: embedded, then the site's on top
        let known: std::collections::BTreeSet<String> = embedded_strings
            .values()
            .filter_map(|v| v.as_object())
            .flat_map(|m| m.keys().cloned())
            .collect();
        // what each string of the theme's has filled in (`{n}`, `{lang}`)
        let mut placeholders: BTreeMap<String, std::collections::BTreeSet<String>> =
            BTreeMap::new();
        for m in embedded_strings.values().filter_map(|v| v.as_object()) {
            for (key, value) in m {
                if let Some(text) = value.as_str() {
                    placeholders
                        .entry(key.clone())
                        .or_default()
                        .extend(placeholders_in(text).map(str::to_string));
                }
            }
        }
        let walk_i18n = stays_inside(&site_root.join("i18n"), &canon_root, site_root, diags);
        // What a language without strings of its own borrows: English, the language most
        // readers of another one can follow, else the site's first language that has them.
        let fallback = embedded_strings
            .get_key_value("en")
            .or_else(|| {
                languages
                    .iter()
                    .find_map(|l| embedded_strings.get_key_value(l))
            })
            .or_else(|| embedded_strings.iter().next());
        for lang in languages {
            let mut v = embedded_strings.get(lang).cloned();
            // whether the language's name is its own, not the fallback's
            let mut named = v.is_some();
            let site_file = site_root.join("i18n").join(format!("{lang}.yaml"));
            let readable = walk_i18n && stays_inside(&site_file, &canon_root, site_root, diags);
            // a file that is there and cannot be read (or is a pipe) is an error, not a
            // language without strings
            let had_file = readable && site_file.exists();
            let shown = display_path(&site_file, site_root);
            let site_bytes = had_file
                .then(|| crate::limits::read_limited(&site_file, &shown, diags))
                .flatten();
            // a file that is there but could not be read as strings has said so itself
            if let Some(bytes) = site_bytes {
                if let Some(text) = crate::load::decode(bytes, &shown, diags) {
                    if let Some(mut site_v) = parse_strings(&text, &shown, diags) {
                        check_string_types(&mut site_v, &text, &shown, &known, diags);
                        check_placeholders(&site_v, &text, &shown, &placeholders, diags);
                        named |= site_v.get("language_name").is_some_and(|n| n.is_string());
                        match &mut v {
                            Some(base) => merge(base, site_v),
                            // a language the theme has no strings for: the site's file on
                            // top of the fallback's, so a key it lacks shows the fallback's
                            // text rather than failing every page that uses it
                            None => {
                                let mut base = fallback.map(|f| f.1.clone()).unwrap_or_default();
                                if let Some((name, f)) = fallback {
                                    lacking_strings(f, &site_v, name, &shown, diags);
                                }
                                merge(&mut base, site_v);
                                v = Some(base);
                            }
                        }
                    }
                }
            }
            let mut v = match v {
                Some(v) => v,
                None => {
                    // No strings for this language anywhere: borrow the fallback's, and say
                    // so, rather than showing raw keys to readers.
                    if !had_file {
                        diags.push(Diagnostic::warning(
                            "i18n",
                            format!("i18n/{lang}.yaml"),
                            0,
                            format!(
                            "no UI strings for `{lang}`; add i18n/{lang}.yaml (using {} for now)",
                            fallback.map(|f| f.0.as_str()).unwrap_or("keys")
                        ),
                        ));
                    }
                    fallback
                        .map(|f| f.1.clone())
                        .unwrap_or(serde_json::Value::Object(Default::default()))
                }
            };
            if !named {
                if let Some(m) = v.as_object_mut() {
                    m.insert(
                        "language_name".into(),
                        crate::language_names::own_name(lang).into(),
                    );
                }
            }
            theme.strings.insert(lang.clone(), v);
        }
        share_own_strings(&mut theme.strings, languages, &known, diags);
        theme
    }

    /// Names of the symbols the theme has icons for (`static/icons/<name>.svg`).
    pub fn symbol_names(&self) -> Vec<String> {
        self.static_files
            .keys()
            .filter_map(|p| {
                p.strip_prefix("icons/")
                    .and_then(|n| n.strip_suffix(".svg"))
            })
            .filter(|n| !n.contains('/'))
            .map(str::to_string)
            .collect()
    }

    /// A UI string, or the key itself when a site's strings lack it.
    pub fn string(&self, lang: &str, key: &str) -> String {
        self.str(lang, key).to_string()
    }

    /// [`Theme::string`], borrowed: for the fragments written once per section.
    pub fn str<'s>(&'s self, lang: &str, key: &'s str) -> &'s str {
        self.strings
            .get(lang)
            .and_then(|v| v.get(key))
            .and_then(|v| v.as_str())
            .unwrap_or(key)
    }

    /// A table of strings (`symbols`) as a map.
    pub fn table(&self, lang: &str, key: &str) -> BTreeMap<String, String> {
        self.strings
            .get(lang)
            .and_then(|v| v.get(key))
            .and_then(|v| v.as_object())
            .map(|m| {
                m.iter()
                    .filter_map(|(k, v)| v.as_str().map(|s| (k.clone(), s.to_string())))
                    .collect()
            })
            .unwrap_or_default()
    }

    pub fn alphabet(&self, lang: &str) -> Vec<char> {
        self.string(lang, "alphabet")
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect()
    }

    /// The bytes to write for static file `name` (its path below `static/`). The theme's own
    /// scripts and stylesheets are served lean ([`crate::lean`]), also when a site brings an
    /// unchanged copy of one; a file of the site's own, or a theme file it changed, is
    /// written exactly as it is.
    pub fn read_static(&self, name: &str, f: &StaticFile) -> std::io::Result<Vec<u8>> {
        let bytes = match f {
            StaticFile::Embedded(b) => b.to_vec(),
            StaticFile::Disk(p) => std::fs::read(p)?,
        };
        let Some(kind) = crate::lean::kind_of(name) else {
            return Ok(bytes);
        };
        let ours = EMBEDDED
            .iter()
            .any(|(path, b)| path.strip_prefix("static/") == Some(name) && *b == bytes.as_slice());
        match std::str::from_utf8(&bytes) {
            Ok(text) if ours => Ok(crate::lean::lean(text, kind).into_bytes()),
            _ => Ok(bytes),
        }
    }
}

/// Whether `path`, a theme folder of the site or a file in one, is inside the site once its
/// links are resolved (see [`crate::symlinks`]). A link out, or to nothing, is a warning and
/// is not followed; a path that is simply not there is no finding.
fn stays_inside(path: &Path, canon_root: &Path, site_root: &Path, diags: &mut Diagnostics) -> bool {
    if !matches!(resolve(path, canon_root), Target::Outside) {
        return true;
    }
    if std::fs::symlink_metadata(path).is_ok() {
        diags.push(not_followed(display_path(path, site_root)));
    }
    false
}

/// The files of the site's theme folder `dir` (`templates/`, `static/`): (path below `dir`,
/// with `/`; the file to read), sorted by path. Hidden files and folders (`.DS_Store`,
/// `.git/`) are not the theme's; links are followed only within the site ([`site_file`]),
/// and not at all when `dir` itself leads out of it.
fn theme_files(
    dir: &Path,
    canon_root: &Path,
    site_root: &Path,
    diags: &mut Diagnostics,
) -> Vec<(String, PathBuf)> {
    if !stays_inside(dir, canon_root, site_root, diags) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(dir)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'))
        .filter_map(|e| e.ok())
    {
        if let Some(real) = site_file(&entry, canon_root, site_root, diags) {
            let rel = entry.path().strip_prefix(dir).unwrap_or(entry.path());
            out.push((rel.to_string_lossy().replace('\\', "/"), real));
        }
    }
    out
}

/// The file an entry of a theme folder stands for: itself, or the file its link resolves to
/// inside the site (see [`stays_inside`]). Folders and the walk's root give none.
fn site_file(
    entry: &walkdir::DirEntry,
    canon_root: &Path,
    site_root: &Path,
    diags: &mut Diagnostics,
) -> Option<PathBuf> {
    if entry.depth() == 0 {
        return None;
    }
    if !entry.path_is_symlink() {
        let kind = entry.file_type();
        if !kind.is_file() && !kind.is_dir() {
            // a named pipe among the templates or static files was left out without a word
            diags.push(Diagnostic::warning(
                "io",
                display_path(entry.path(), site_root),
                0,
                "not a plain file (a pipe, a socket or a device), so it is not used; make it a \
                 file, or move it out of the theme's folders",
            ));
        }
        return kind.is_file().then(|| entry.path().to_path_buf());
    }
    match resolve(entry.path(), canon_root) {
        Target::File(t) => Some(t),
        Target::Folder(_) => {
            diags.push(Diagnostic::warning(
                "symlink",
                display_path(entry.path(), site_root),
                0,
                "symbolic link to a folder is not followed; link the files themselves",
            ));
            None
        }
        Target::Outside => {
            diags.push(not_followed(display_path(entry.path(), site_root)));
            None
        }
    }
}

/// Each value written as `<prefix>value"` in `src`.
/// Whether a file in `templates/` is a template: anything but what lies beside templates without
/// being one (hidden files, editors' backups, a README, a desktop's index files).
fn is_template_file(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    let lower = name.to_ascii_lowercase();
    !(name.starts_with('.')
        || name.ends_with('~')
        || name.starts_with('#')
        || [".bak", ".swp", ".swo", ".orig", ".tmp", ".md", ".txt"]
            .iter()
            .any(|e| lower.ends_with(e))
        || lower.starts_with("readme")
        || matches!(lower.as_str(), "thumbs.db" | "desktop.ini"))
}

/// The templates that the `keyword` tags of `src` name (`extends`, `include`, `import`), however
/// the tag is written: `{%- extends 'base.html' -%}`, `{% include ["a.html", "b.html"] %}`.
pub(crate) fn tag_targets<'s>(src: &'s str, keyword: &'s str) -> impl Iterator<Item = &'s str> {
    src.match_indices("{%").flat_map(move |(at, _)| {
        let tag = src[at + 2..].trim_start_matches(['-', '+']).trim_start();
        let tag = tag.split("%}").next().unwrap_or("");
        let names = tag
            .strip_prefix(keyword)
            .filter(|rest| {
                rest.starts_with(char::is_whitespace) || rest.starts_with(['"', '\'', '['])
            })
            .map(|rest| rest.trim_start().trim_start_matches('['))
            .unwrap_or("");
        // the quoted names at the head of the tag (a list's items), up to `as`, `ignore`, ...
        let mut out = Vec::new();
        let mut rest = names;
        while let Some(q) = rest
            .chars()
            .next()
            .filter(|c| matches!(c, '"' | '\'' | '`'))
        {
            let Some((name, after)) = rest[1..].split_once(q) else {
                break;
            };
            out.push(name);
            rest = after.trim_start().trim_start_matches(',').trim_start();
        }
        out
    })
}

fn quoted_after<'s>(src: &'s str, prefix: &'s str) -> impl Iterator<Item = String> + 's {
    src.match_indices(prefix).filter_map(move |(at, _)| {
        let rest = &src[at + prefix.len()..];
        rest.find('"').map(|end| rest[..end].to_string())
    })
}

#[cfg(test)]
mod placeholder_tests {
    use super::*;

    #[test]
    fn placeholders_are_names_in_braces() {
        let found: Vec<&str> = placeholders_in("a {n} b {lang} {} {x y} {unclosed").collect();
        assert_eq!(found, ["n", "lang"]);
    }

    #[test]
    fn a_placeholder_the_theme_does_not_fill_in_is_named_with_its_line() {
        let text = "contents: Inhalt\nnot_translated_text: \"Nicht übersetzt ({lnag})\"\nsearch_found: \"{n} Treffer\"\n";
        let v =
            parse_strings(text, Path::new("i18n/de.yaml"), &mut Diagnostics::default()).unwrap();
        let mut known = BTreeMap::new();
        known.insert(
            "not_translated_text".to_string(),
            ["lang".to_string()].into(),
        );
        known.insert("search_found".to_string(), ["n".to_string()].into());
        known.insert("contents".to_string(), Default::default());
        let mut d = Diagnostics::default();
        check_placeholders(&v, text, Path::new("i18n/de.yaml"), &known, &mut d);
        let said: Vec<String> = d.items.iter().map(|x| x.to_string()).collect();
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(
            said[0].contains("i18n/de.yaml:2:")
                && said[0].contains("`{lnag}` is not filled in")
                && said[0].contains("did you mean `{lang}`?"),
            "{said:?}"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_name_their_templates_however_written() {
        let src = "{%- extends 'base.html' -%}\n{%include \"a.html\"%}{% include [\"b.html\", 'c.html'] ignore missing %}{% includes \"x\" %}{{ \"{% include 'y' %}\" }}";
        assert_eq!(
            tag_targets(src, "extends").collect::<Vec<_>>(),
            ["base.html"]
        );
        // a tag inside a string is not told apart: it is only ever one more id reserved
        assert_eq!(
            tag_targets(src, "include").collect::<Vec<_>>(),
            ["a.html", "b.html", "c.html", "y"]
        );
    }

    #[test]
    fn a_key_a_letter_from_a_known_one_is_a_warning_a_key_of_ones_own_is_not() {
        let text =
            "serach: Find\nmy_footer_note: Mine\ncontnets: Index\nsearch_placeholder: Look\n";
        let mut v =
            parse_strings(text, Path::new("i18n/en.yaml"), &mut Diagnostics::default()).unwrap();
        let known = ["search", "search_placeholder", "contents"]
            .map(String::from)
            .into_iter()
            .collect();
        let mut d = Diagnostics::default();
        check_string_types(&mut v, text, Path::new("i18n/en.yaml"), &known, &mut d);
        let mut got: Vec<(usize, &str)> = d
            .items
            .iter()
            .map(|d| (d.line, d.message.as_str()))
            .collect();
        got.sort();
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(
            got[0].0 == 1 && got[0].1.contains("did you mean `search`?"),
            "{got:?}"
        );
        assert!(
            got[1].0 == 3 && got[1].1.contains("did you mean `contents`?"),
            "{got:?}"
        );
        assert!(d
            .items
            .iter()
            .all(|d| d.severity == crate::diag::Severity::Warning));
    }

    #[test]
    fn ui_strings_of_the_wrong_type_are_errors_at_their_line() {
        let text = "contents: [1, 2]\nlanguage_name: {a: 1}\nalphabet: [z, y]\nsymbols: 5\ngo: Go\nmine: [1]\n";
        let mut v =
            parse_strings(text, Path::new("i18n/en.yaml"), &mut Diagnostics::default()).unwrap();
        let known = ["contents", "language_name", "alphabet", "symbols", "go"]
            .map(String::from)
            .into_iter()
            .collect();
        let mut d = Diagnostics::default();
        check_string_types(&mut v, text, Path::new("i18n/en.yaml"), &known, &mut d);
        let mut got: Vec<(usize, bool)> = d
            .items
            .iter()
            .map(|d| (d.line, d.severity == crate::diag::Severity::Error))
            .collect();
        got.sort();
        assert_eq!(
            got,
            [(1, true), (2, true), (3, true), (4, true)],
            "{:?}",
            d.items
        );
        let said = |line: usize, what: &str| {
            d.items
                .iter()
                .any(|d| d.line == line && d.message.contains(what))
        };
        assert!(said(1, "`contents` must be text, not a list"));
        assert!(said(2, "`language_name` must be text, not a mapping"));
        assert!(said(3, "`alphabet` must be text, not a list"));
        assert!(said(
            4,
            "`symbols` must be a mapping of symbol names to texts"
        ));
        // the bad values are gone, the good and the unknown ones stay
        assert_eq!(v.as_object().unwrap().len(), 2);

        let text = "symbols:\n  main: Main\n  other: [x]\n";
        let mut v =
            parse_strings(text, Path::new("i18n/en.yaml"), &mut Diagnostics::default()).unwrap();
        let mut d = Diagnostics::default();
        check_string_types(&mut v, text, Path::new("i18n/en.yaml"), &known, &mut d);
        assert_eq!(d.items.len(), 1);
        assert_eq!(d.items[0].line, 3);
        assert!(d.items[0].message.contains("`symbols.other` must be text"));
    }
}
