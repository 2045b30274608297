//! `rulebook check`: everything the build would report, and more, without writing anything.
//!
//! The load and resolve stages are the build's own ([`crate::site::load`]), so `check` and
//! `build` can never disagree about a broken reference. On top of them `check` looks at the
//! site as translators and editors do: which chapters and glossary entries one language lacks,
//! how much of each language is really translated ([`coverage`]), which translations were made
//! from a source text that has changed since ([`stale`]), glossary terms left untranslated or
//! translated differently ([`terminology`]), and links written as site addresses ([`links`]).

pub mod coverage;
pub mod links;
pub mod output;
pub mod stale;
pub mod terminology;
pub mod units;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::diag::{Diagnostic, Diagnostics, Severity};
use crate::site::Site;
use units::Unit;

/// What a check found.
pub struct Report {
    pub diags: Diagnostics,
    /// `None` when the site could not be loaded at all.
    pub coverage: Option<coverage::Coverage>,
    /// The chapter files left out as drafts (`draft: true`), which nothing was checked in.
    pub drafts: Vec<std::path::PathBuf>,
    /// The text units still in another language's script (the coverage's untranslated
    /// ones), in site order: where a translator has work left.
    pub untranslated: Vec<Untranslated>,
    /// The translations that record no source yet (`translated_from`): a later change to
    /// their source chapter goes unnoticed until `rulebook translated` records one.
    pub unrecorded: Vec<std::path::PathBuf>,
}

/// A unit of a chapter that is not in its language yet (see [`coverage`]).
#[derive(Debug, Clone, serde::Serialize)]
pub struct Untranslated {
    pub file: std::path::PathBuf,
    pub line: usize,
    /// Its first words.
    pub text: String,
}

/// The units of `units` not written in their chapter's language, with where they are.
fn untranslated_units(
    site: &Site,
    units: &BTreeMap<String, BTreeMap<String, Vec<Unit>>>,
) -> Vec<Untranslated> {
    let mut out = Vec::new();
    let index = site.page_index();
    for lang in &site.config.languages {
        for id in &site.order {
            let (Some(&i), Some(us)) = (
                index.get(&(lang.as_str(), id.as_str())),
                units.get(lang).and_then(|m| m.get(id)),
            ) else {
                continue;
            };
            let p = &site.pages[lang][i];
            for u in units::untranslated(lang, us) {
                let words: Vec<&str> = u.text.split_whitespace().take(8).collect();
                let mut text = words.join(" ");
                if u.text.split_whitespace().nth(8).is_some() {
                    text.push_str(" …");
                }
                out.push(Untranslated {
                    file: p.chapter.path.clone(),
                    line: u.line,
                    text,
                });
            }
        }
    }
    out
}

/// The language translations are made from: the one the site's translations name in their
/// `translated_from` records (the most often named, when they differ), else the first language
/// in site order that is not the default (readers' first) language — `en` for a `[uk, en]` site
/// whose default is `uk`. A site whose readers' first language is the source (`default_language:
/// en`, translated into `uk`) has it from its records once one is written; it was inferred the
/// other way, and `translated` wrote records into the source's files. A site with one language
/// is its own source.
pub fn source_language(site: &Site) -> String {
    let config = &site.config;
    let mut named: BTreeMap<&str, usize> = BTreeMap::new();
    for p in site.pages.values().flatten() {
        if let Some(r) = (p.chapter.extra.get("translated_from")).and_then(|v| stale::parse(v).ok())
        {
            if let Some(l) = config.languages.iter().find(|l| **l == r.lang) {
                *named.entry(l.as_str()).or_default() += 1;
            }
        }
    }
    // the most named; a tie goes to the site's order of languages
    let most = (config.languages.iter())
        .filter_map(|l| named.get(l.as_str()).map(|n| (*n, l)))
        .fold(None::<(usize, &String)>, |best, (n, l)| match best {
            Some((b, _)) if b >= n => best,
            _ => Some((n, l)),
        });
    if let Some((_, l)) = most {
        return l.clone();
    }
    config
        .languages
        .iter()
        .find(|l| **l != config.default_language)
        .unwrap_or(&config.default_language)
        .clone()
}

/// Compares section numbers component by component (`7.2.0` < `7.10.0`); other keys by text.
pub fn compare_numbers(a: &str, b: &str) -> std::cmp::Ordering {
    let parse = |s: &str| -> Option<Vec<u64>> { s.split('.').map(|p| p.parse().ok()).collect() };
    match (parse(a), parse(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        _ => a.cmp(b),
    }
}

/// Checks the site at `root`. `strict` turns warnings into errors.
pub fn check(root: &Path, strict: bool) -> Report {
    let mut diags = Diagnostics::default();
    if !root.join("content").is_dir() {
        diags.push(Diagnostic::missing_content(root));
        return Report {
            diags,
            coverage: None,
            drafts: Vec::new(),
            untranslated: Vec::new(),
            unrecorded: Vec::new(),
        };
    }
    let site = crate::site::load(root, None, &mut diags);
    let mut sw = crate::timing::Stopwatch::start();
    let mut coverage = None;
    let mut untranslated = Vec::new();
    let mut unrecorded = Vec::new();
    if let Some(site) = &site {
        // the build's own compile (syntax, template cycles), then the pages that use the
        // site's own templates, rendered in memory: what the build would find in them
        match crate::render::compile(&site.theme.templates) {
            Ok(tera) => diags.extend(crate::render::render_samples(
                site,
                tera,
                &site.theme.overridden,
            )),
            Err(errs) => diags.extend(errs),
        }
        sw.lap("check: templates");
        let units = all_units(site);
        sw.lap("check: text units");
        let failed = Failed::of(root, &diags, &site.config.languages);
        diags.extend(pairing(site, &failed));
        diags.extend(section_pairs(site));
        diags.extend(glossary_duplicates(site));
        diags.extend(stale_translations(site, &units, &failed));
        sw.lap("check: pairs, stale");
        let source = source_language(site);
        for lang in site.config.others(&source) {
            unrecorded.extend(
                site.pages[lang.as_str()]
                    .iter()
                    .filter(|p| !p.chapter.extra.contains_key("translated_from"))
                    .filter(|p| site.page(&source, &p.chapter.id).is_some())
                    .map(|p| p.chapter.path.clone()),
            );
            let pairs: Vec<terminology::Pair<'_>> = site.pages[lang.as_str()]
                .iter()
                .filter_map(|p| {
                    Some(terminology::Pair {
                        file: &p.chapter.path,
                        units: units.get(lang)?.get(&p.chapter.id)?,
                        source_units: units.get(&source)?.get(&p.chapter.id)?,
                    })
                })
                .collect();
            diags.extend(terminology::check(lang, &source, &site.glossaries, &pairs));
        }
        sw.lap("check: terminology");
        let targets = links::Targets::new(site);
        for (lang, pages) in &site.pages {
            let found: Vec<Vec<Diagnostic>> = pages
                .par_iter()
                .map(|p| {
                    targets.check(
                        site,
                        lang,
                        &p.chapter.id,
                        &p.chapter.body,
                        p.chapter.body_line,
                        &p.chapter.path,
                    )
                })
                .collect();
            diags.extend(found.into_iter().flatten());
        }
        sw.lap("check: links");
        let mut draft_units: BTreeMap<String, BTreeMap<String, Vec<Unit>>> = BTreeMap::new();
        for c in &site.drafts_left_out {
            draft_units
                .entry(c.lang.clone())
                .or_default()
                .insert(c.id.clone(), chapter_units(c));
        }
        coverage = Some(coverage::measure(
            &site.config.languages,
            &site.order,
            &units,
            &draft_units,
            &failed.chapters,
        ));
        untranslated = untranslated_units(site, &units);
        sw.lap("check: coverage");
    }
    if strict {
        diags.make_strict();
    }
    diags.sort();
    sw.lap("check: sort findings");
    let drafts = site
        .map(|s| s.drafts_left_out.into_iter().map(|c| c.path).collect())
        .unwrap_or_default();
    Report {
        diags,
        coverage,
        drafts,
        untranslated,
        unrecorded,
    }
}

/// The text units of every chapter: `[lang][id]`. The title is the first unit.
pub fn all_units(site: &Site) -> BTreeMap<String, BTreeMap<String, Vec<Unit>>> {
    site.pages
        .iter()
        .map(|(lang, pages)| {
            let m: BTreeMap<String, Vec<Unit>> = pages
                .par_iter()
                .map(|p| (p.chapter.id.clone(), chapter_units(&p.chapter)))
                .collect();
            (lang.clone(), m)
        })
        .collect()
}

/// A chapter's units, its title first (a title left in English is untranslated text too).
pub fn chapter_units(c: &crate::load::Chapter) -> Vec<Unit> {
    let mut v = vec![Unit {
        line: c.title_line,
        text: c.title.clone(),
        section: String::new(),
        heading: true,
        original: false,
        targets: String::new(),
    }];
    v.extend(units::units(&c.body, c.body_line));
    v
}

/// The languages some of whose files did not load: an error named a chapter of theirs, or
/// their glossary. What `check` would say across languages about them is about what is
/// missing only because of that error (a chapter "has no en version yet" when its en file
/// is the one with broken front matter, every glossary entry "has no uk entry" when the uk
/// glossary does not parse, a translation "changed since" its source when the source's id
/// clashed): those findings wait until the errors are fixed.
#[derive(Default)]
struct Failed {
    /// Per language, the ids of its chapters that did not load; `None` when a file's id
    /// could not be read either (then any chapter of the language may be the one).
    chapters: BTreeMap<String, Option<BTreeSet<String>>>,
    glossaries: BTreeSet<String>,
}

impl Failed {
    fn of(root: &Path, diags: &Diagnostics, langs: &[String]) -> Failed {
        let mut f = Failed::default();
        for d in diags.items.iter().filter(|d| d.severity == Severity::Error) {
            for lang in langs {
                if !d.file.starts_with(Path::new("content").join(lang)) {
                    continue;
                }
                let glossary = d.file.extension().is_some_and(|e| e != "md");
                if glossary {
                    f.glossaries.insert(lang.clone());
                    continue;
                }
                let id = std::fs::read_to_string(root.join(&d.file))
                    .ok()
                    .and_then(|t| id_line(&t));
                let entry = f
                    .chapters
                    .entry(lang.clone())
                    .or_insert_with(|| Some(BTreeSet::new()));
                match (entry.as_mut(), id) {
                    (Some(ids), Some(id)) => {
                        ids.insert(id);
                    }
                    _ => *entry = None,
                }
            }
        }
        f
    }

    /// Whether chapter `id` of `lang` may be one that did not load.
    fn chapter(&self, lang: &str, id: &str) -> bool {
        match self.chapters.get(lang) {
            None => false,
            Some(None) => true,
            Some(Some(ids)) => ids.contains(id),
        }
    }
}

/// The `id:` a chapter file's front matter gives, read line by line (the file is one that
/// did not load, often for a mistake elsewhere in its front matter). A byte-order mark, `id :`
/// and `"id":` are read as the loader reads them (with a BOM the chapter was taken for one
/// whose id could not be read, and its language's other findings were held back).
fn id_line(text: &str) -> Option<String> {
    let text = text.trim_start_matches('\u{feff}');
    let mut lines = text.lines();
    if lines.next()?.trim_end() != "---" {
        return None;
    }
    lines
        .take_while(|l| l.trim_end() != "---")
        .find(|l| crate::load::front_matter_key(l).as_deref() == Some("id"))
        .and_then(|l| l.split_once(':').map(|(_, v)| v))
        .map(|v| v.trim().trim_matches(['"', '\'']).to_string())
        .filter(|v| !v.is_empty() && !v.contains(['[', '{', ' ']))
}

/// Chapters and glossary keys that exist in one language only (not said of a language some
/// of whose files did not load: see [`Failed`]).
fn pairing(site: &Site, failed: &Failed) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let langs = &site.config.languages;
    if langs.len() < 2 {
        return out;
    }
    let index = site.page_index();
    let page = |l: &str, id: &str| index.get(&(l, id)).map(|&i| &site.pages[l][i]);
    for id in &site.order {
        let have: Vec<&String> = langs.iter().filter(|l| page(l, id).is_some()).collect();
        if have.len() == langs.len() {
            continue;
        }
        let lacking: Vec<&str> = langs
            .iter()
            .filter(|l| !have.contains(l) && !failed.chapter(l, id))
            .map(String::as_str)
            .collect();
        if lacking.is_empty() {
            continue;
        }
        if let Some(p) = have.first().and_then(|l| page(l, id)) {
            // a translation under way as a draft is not "none yet": say where it is
            let drafts: Vec<String> = (site.drafts_left_out.iter())
                .filter(|d| d.id == *id && lacking.contains(&d.lang.as_str()))
                .map(|d| d.path.display().to_string())
                .collect();
            let draft_note = if drafts.is_empty() {
                String::new()
            } else {
                format!(
                    " (the draft {} is left out until its `draft: true` goes)",
                    drafts.join(", ")
                )
            };
            out.push(Diagnostic::warning(
                "chapter-one-language",
                &p.chapter.path,
                1,
                format!(
                    "chapter `{id}` has no {} version yet{draft_note}; readers of {} see this text with a \"not translated\" banner",
                    lacking.join(", "),
                    lacking.join(", ")
                ),
            ));
        }
    }
    for (lang, g) in &site.glossaries {
        for e in &g.entries {
            let keys: Vec<&String> = std::iter::once(&e.key).chain(&e.merged_keys).collect();
            for other in site.config.others(lang) {
                // a glossary with an error that still loaded (a duplicate key) is checked
                if failed.glossaries.contains(other) && !site.glossaries.contains_key(other) {
                    continue;
                }
                let has = site
                    .glossaries
                    .get(other)
                    .is_some_and(|og| keys.iter().any(|k| og.get(k).is_some()));
                if !has {
                    out.push(Diagnostic::warning(
                        "glossary-one-language",
                        &g.path,
                        e.line,
                        format!(
                            "glossary entry \"{}\" has no {other} entry with the same key",
                            e.key
                        ),
                    ));
                }
            }
        }
    }
    out
}

/// Numbered sections that a chapter has in its source language and not in a translation, or
/// the other way round. Section numbers are the same in every language (they are the
/// anchors), so one missing from a translation is a section not translated yet (a link to it
/// from that language leads to the source's page, silently), and one only in a translation
/// is most often a typo in its number.
fn section_pairs(site: &Site) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let source = source_language(site);
    let index = site.page_index();
    let page = |l: &str, id: &str| index.get(&(l, id)).map(|&i| &site.pages[l][i]);
    // number → line of its heading (the title's: its front matter line)
    let numbers = |p: &crate::site::ChapterPage| -> BTreeMap<String, usize> {
        let mut m = BTreeMap::new();
        if let Some(n) = &p.title_number {
            m.insert(n.clone(), p.chapter.title_line);
        }
        for h in &p.prepared.headings {
            if let Some(n) = &h.number {
                m.entry(n.clone()).or_insert(h.line);
            }
        }
        m
    };
    for id in &site.order {
        let Some(src) = page(&source, id) else {
            continue;
        };
        let src_numbers = numbers(src);
        for lang in site.config.others(&source) {
            let Some(tr) = page(lang, id) else {
                continue;
            };
            let tr_numbers = numbers(tr);
            let mut missing: Vec<&String> = src_numbers
                .keys()
                .filter(|n| !tr_numbers.contains_key(*n))
                .collect();
            missing.sort_by(|a, b| compare_numbers(a, b));
            for n in missing {
                // at the section of the translation it would follow
                let before = tr_numbers
                    .iter()
                    .filter(|(m, _)| compare_numbers(m, n).is_lt())
                    .max_by(|a, b| compare_numbers(a.0, b.0));
                let line = before.map_or(1, |(_, l)| *l);
                let place = match before {
                    Some((m, _)) => format!("after section {m}, whose heading is on this line"),
                    None => "before the first section".to_string(),
                };
                out.push(Diagnostic::warning(
                    "section-one-language",
                    &tr.chapter.path,
                    line,
                    format!(
                        "section {n} of the {source} chapter is not in this translation; a link to it from {lang} text leads to the {source} page (add its heading, `{n} …`, {place})"
                    ),
                ));
            }
            for (n, line) in &tr_numbers {
                if !src_numbers.contains_key(n) {
                    out.push(Diagnostic::warning(
                        "section-one-language",
                        &tr.chapter.path,
                        *line,
                        format!(
                            "section {n} is not in the {source} chapter `{id}`; section numbers are the same in every language (a typo in the number, or one the {source} text has changed?)"
                        ),
                    ));
                }
            }
        }
    }
    out
}

/// Line of `"key":` in a glossary file's text.
fn key_line(text: &str, key: &str) -> Option<usize> {
    let quoted = serde_json::to_string(key).ok()?;
    let mut from = 0;
    while let Some(i) = text[from..].find(&quoted) {
        let at = from + i;
        let rest = text[at + quoted.len()..].trim_start();
        if rest.starts_with(':') {
            return Some(text[..at].matches('\n').count() + 1);
        }
        from = at + quoted.len();
    }
    None
}

/// Glossary entries that duplicate each other: the same definition under several keys (the
/// build shows them as one entry with aliases) or the same term defined twice.
fn glossary_duplicates(site: &Site) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for g in site.glossaries.values() {
        let text = std::fs::read_to_string(site.root.join(&g.path)).unwrap_or_default();
        let mut by_term: HashMap<String, &crate::glossary::Entry> = HashMap::new();
        for e in &g.entries {
            for k in &e.merged_keys {
                out.push(Diagnostic::warning(
                    "glossary-duplicate",
                    &g.path,
                    key_line(&text, k).unwrap_or(e.line),
                    format!("entry \"{k}\" has the same definition as \"{}\" (line {}); it is shown as an alias of it — merge them or write distinct definitions", e.key, e.line),
                ));
            }
            // the same term from different sources (rulebook, errata) is deliberate
            let norm = format!(
                "{}\u{0}{}",
                crate::search::analyzer::fold(e.term.trim()),
                e.source.as_deref().unwrap_or("")
            );
            if let Some(first) = by_term.get(&norm) {
                out.push(Diagnostic::warning(
                    "glossary-duplicate",
                    &g.path,
                    e.line,
                    format!("term \"{}\" is already defined by entry \"{}\" (line {}); readers see two entries with one name", e.term, first.key, first.line),
                ));
            } else {
                by_term.insert(norm, e);
            }
        }
    }
    out
}

/// Translations whose recorded source fingerprint no longer matches the source chapter.
fn stale_translations(
    site: &Site,
    units: &BTreeMap<String, BTreeMap<String, Vec<Unit>>>,
    failed: &Failed,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for pages in site.pages.values() {
        for p in pages {
            let c = &p.chapter;
            let Some(value) = c.extra.get("translated_from") else {
                continue;
            };
            let line = front_matter_line(&site.root.join(&c.path), "translated_from").unwrap_or(1);
            let then = match stale::parse(value) {
                Ok(r) => r,
                Err(msg) => {
                    out.push(Diagnostic::warning("stale-translation", &c.path, line, msg));
                    continue;
                }
            };
            if !site.config.languages.contains(&then.lang) {
                out.push(Diagnostic::warning(
                    "stale-translation",
                    &c.path,
                    line,
                    format!(
                        "`translated_from` names the language `{}`, which this site does not \
                         have (it has {}); `rulebook translated` writes the record",
                        then.lang,
                        site.config.languages.join(", ")
                    ),
                ));
                continue;
            }
            let Some(src) = site.page(&then.lang, &c.id) else {
                // gone only because its file did not load: that error is the finding
                if failed.chapter(&then.lang, &c.id) {
                    continue;
                }
                // a draft for now (`draft: true`), not gone: checked again once published
                if (site.drafts_left_out.iter()).any(|d| d.lang == then.lang && d.id == c.id) {
                    continue;
                }
                out.push(Diagnostic::warning(
                    "stale-translation",
                    &c.path,
                    line,
                    format!(
                        "translated from the {} chapter `{}`, which no longer exists",
                        then.lang, c.id
                    ),
                ));
                continue;
            };
            let now = stale::record(
                &then.lang,
                &src.chapter.title,
                units
                    .get(&then.lang)
                    .and_then(|m| m.get(&c.id))
                    .map(|v| &v[1..])
                    .unwrap_or(&[]),
            );
            if now.hash == then.hash {
                continue;
            }
            let changed = stale::changed_sections(&then, &now);
            let what = what_changed(&changed, &now);
            // at the heading of the first section that changed, where the translator's work
            // is; else (the opening text, the title, a section gone) at the record
            let at = changed
                .first()
                .filter(|k| !k.is_empty())
                .and_then(|k| {
                    let own = units.get(&c.lang)?.get(&c.id)?;
                    own.iter()
                        .find(|u| u.heading && &u.section == k)
                        .map(|u| u.line)
                })
                .unwrap_or(line);
            out.push(Diagnostic::warning(
                "stale-translation",
                &c.path,
                at,
                format!(
                    "the {} source ({}) changed after this translation was made; {what}. Update the translation, then run `rulebook translated {}`",
                    then.lang,
                    src.chapter.path.display(),
                    c.id
                ),
            ));
        }
    }
    out
}

/// What changed in a source chapter, its sections that `changed` ([`stale::changed_sections`])
/// up to the record `now`: `changed since: 7.1.0, the opening text`, or its title, or its text
/// for a chapter without numbered sections.
fn what_changed(changed: &[String], now: &stale::Record) -> String {
    // a chapter without numbered sections is one stretch of text, "" (see stale.rs)
    let unnumbered = now.sections.keys().all(String::is_empty);
    if changed.is_empty() {
        "its title changed".to_string()
    } else if unnumbered {
        "its text changed (it has no numbered sections to name)".to_string()
    } else {
        let names: Vec<&str> = changed
            .iter()
            .map(|s| if s.is_empty() { "the opening text" } else { s })
            .collect();
        format!("changed since: {}", names.join(", "))
    }
}

/// 1-based line of a top-level front-matter key in a chapter file, however the key is spelled
/// (`"translated_from" :` too), and only in the front matter.
fn front_matter_line(file: &Path, key: &str) -> Option<usize> {
    // old Mac line ends (`\r` alone) are lines too, as the loader reads them
    let text = std::fs::read_to_string(file)
        .ok()?
        .replace("\r\n", "\n")
        .replace('\r', "\n");
    text.lines()
        .enumerate()
        .skip(1)
        .take_while(|(_, l)| l.trim_end() != "---")
        .find(|(_, l)| crate::load::front_matter_key(l).as_deref() == Some(key))
        .map(|(i, _)| i + 1)
}

/// `rulebook translated`: records, in each translation of the given chapters (all chapters when
/// none are given), the fingerprint of the source text it now matches. Returns the files written.
pub fn mark_translated(
    root: &Path,
    ids: &[String],
    diags: &mut Diagnostics,
) -> Result<Vec<PathBuf>, String> {
    // Any error, not only an unusable site.yaml: a chapter that failed to load is missing from
    // the site, and recording the others as up to date would read as "all is well".
    if !root.join("content").is_dir() {
        diags.push(Diagnostic::missing_content(root));
        return Err("nothing was written".into());
    }
    // with drafts: a translation may be recorded before it is published
    let site = match crate::site::load_with_drafts(root, None, diags) {
        Some(site) if !diags.has_errors() => site,
        _ => return Err("the site has errors; fix them first (nothing was written)".into()),
    };
    let source = source_language(&site);
    // a chapter's file may stand for its id (`content/uk/rr-07-damage.md`, `rr-07-damage.md`)
    let named: Vec<String> = ids.iter().map(|i| id_of_file(&site, i)).collect();
    let ids = &named[..];
    let known: Vec<&str> = (site.pages.get(&source).into_iter().flatten())
        .map(|p| p.chapter.id.as_str())
        .collect();
    let unknown: Vec<String> = ids
        .iter()
        .filter(|id| site.page(&source, id).is_none())
        .map(
            |id| match crate::theme::near_key(id, known.iter().copied()) {
                Some(near) => format!("`{id}` (did you mean `{near}`?)"),
                None => format!("`{id}`"),
            },
        )
        .collect();
    if !unknown.is_empty() {
        let listed = if known.len() <= 12 {
            format!("; the {source} chapters' ids: {}", known.join(", "))
        } else {
            String::new()
        };
        return Err(format!(
            "no {source} chapter has the id {} (nothing was written; a chapter's id is the `id:` of its front matter{listed})",
            unknown.join(", ")
        ));
    }
    for id in ids {
        if !site
            .config
            .others(&source)
            .any(|l| site.page(l, id).is_some())
        {
            return Err(format!(
                "`{id}` has no translation yet: only its {source} chapter exists (nothing was written)"
            ));
        }
    }
    // Every new text is made before any file is written, so an error part of the way through
    // leaves every file as it was.
    let mut changes = Vec::new();
    for lang in site.config.others(&source) {
        for p in site.pages.get(lang.as_str()).into_iter().flatten() {
            let c = &p.chapter;
            if !ids.is_empty() && !ids.contains(&c.id) {
                continue;
            }
            let Some(src) = site.page(&source, &c.id) else {
                continue;
            };
            let src_units = units::units(&src.chapter.body, src.chapter.body_line);
            let rec = stale::record(&source, &src.chapter.title, &src_units);
            let file = site.root.join(&c.path);
            let text = std::fs::read_to_string(&file)
                .map_err(|e| format!("cannot read {}: {e}", c.path.display()))?;
            let new = stale::rewrite_front_matter(&text, &stale::to_yaml(&rec), &c.path)?;
            // read again as the build will: a file that no longer loads, or does not hold the
            // record as written, is never written (an old value of a shape not foreseen)
            let mut again = Diagnostics::default();
            let reread = crate::load::normalize_text(new.trim_start_matches('\u{feff}').into());
            let holds =
                crate::load::parse_chapter(reread, lang, c.path.clone(), c.dir.clone(), &mut again)
                    .and_then(|ch| ch.extra.get("translated_from").map(stale::parse))
                    .is_some_and(|r| r.is_ok_and(|r| r == rec));
            if !holds || again.has_errors() {
                return Err(format!(
                    "{}: its `translated_from` could not be replaced safely (nothing was written); replace it by hand with:\n{}",
                    c.path.display(),
                    stale::to_yaml(&rec)
                ));
            }
            if new != text {
                // lines the record added or removed above the body: the body's lines as the
                // written file numbers them (the first record said line 7 for line 15)
                let shift = new.lines().count() as isize - text.lines().count() as isize;
                let line_after = |l: usize| (l as isize + shift).max(1) as usize;
                // Recording every chapter at once (no ids) also records the ones whose source
                // changed since they were last recorded: that is no longer flagged after this,
                // so say which changes were taken as followed.
                let before = c.extra.get("translated_from").map(stale::parse);
                if let (true, Some(Ok(then))) = (ids.is_empty(), before) {
                    if then.hash != rec.hash && then.lang == rec.lang {
                        let line = front_matter_line(&file, "translated_from").unwrap_or(1);
                        diags.push(Diagnostic::warning(
                            "stale-recorded",
                            &c.path,
                            line,
                            format!(
                                "its {source} source had changed since it was last recorded ({}); recorded as up to date all the same, so `check` no longer says so. If the translation does not follow yet, bring it up to date (`rulebook translated {}` records one chapter)",
                                what_changed(&stale::changed_sections(&then, &rec), &rec),
                                c.id
                            ),
                        ));
                    }
                }
                // recorded as up to date with text still in another language: say so, the
                // record is not a sign that the chapter is done
                let own = chapter_units(c);
                let left = units::untranslated(lang, &own);
                if let Some(first) = left.first() {
                    diags.push(Diagnostic::warning(
                        "unfinished-translation",
                        &c.path,
                        line_after(first.line),
                        format!(
                            "recorded as up to date with its {source} source, though {} of its {} text units {} still in another language (`rulebook check --untranslated` lists them)",
                            left.len(),
                            own.len(),
                            if left.len() == 1 { "is" } else { "are" }
                        ),
                    ));
                }
                changes.push((file, c.path.clone(), new));
            }
        }
    }
    let mut written = Vec::new();
    for (file, shown, new) in changes {
        replace_file(&file, new.as_bytes()).map_err(|e| {
            format!(
                "cannot write {}: {e} (the file was left as it was)",
                shown.display()
            )
        })?;
        written.push(shown);
    }
    Ok(written)
}

/// The id of the chapter whose file `given` names (its path, or its end: `rr-07-damage.md`,
/// `uk/rr-07-damage.md`), in any language; `given` itself when it names no chapter's file.
fn id_of_file(site: &Site, given: &str) -> String {
    let g = given.replace('\\', "/");
    if !g.ends_with(".md") {
        return given.to_string();
    }
    let g = g.trim_start_matches("./");
    (site.pages.values().flatten())
        .map(|p| &p.chapter)
        .find(|c| {
            let path = c.path.to_string_lossy().replace('\\', "/");
            path == g || path.ends_with(&format!("/{g}"))
        })
        .map_or_else(|| given.to_string(), |c| c.id.clone())
}

/// Replaces a file's contents all at once: the new text goes to a temporary file beside it,
/// is flushed to disk, and is renamed over the old one. A translator's file is their work; a
/// crash, a full disk or Ctrl-C half-way through a plain write would leave it cut short. A
/// symbolic link is resolved first so the link stays a link, and the file keeps its permissions.
pub fn replace_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let real = path.canonicalize()?;
    let dir = real.parent().unwrap_or(Path::new("."));
    let name = real.file_name().unwrap_or_default().to_string_lossy();
    let tmp = dir.join(format!(".{name}.rulebook-tmp-{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        if let Ok(meta) = std::fs::metadata(&real) {
            f.set_permissions(meta.permissions())?;
        }
        f.sync_all()?;
        std::fs::rename(&tmp, &real)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    #[test]
    fn numbers_sort_numerically() {
        let mut v = vec!["7.10.0", "7.2.0", "", "10.1"];
        v.sort_by(|a, b| super::compare_numbers(a, b));
        assert_eq!(v, ["", "7.2.0", "7.10.0", "10.1"]);
    }

    #[test]
    fn the_id_of_a_file_that_did_not_load_is_read_from_its_line() {
        use super::id_line;
        assert_eq!(
            id_line("---\nid: setup\ntitle: \"unclosed\n---\n").as_deref(),
            Some("setup")
        );
        assert_eq!(
            id_line("---\ntitle: T\nid: 'b-2'\n---\n").as_deref(),
            Some("b-2")
        );
        // a byte-order mark, and the key as YAML may write it
        for t in [
            "\u{feff}---\nid: c\ntitle: \"x\n---\n",
            "---\n\"id\": c\n---\n",
            "---\nid : c\n---\n",
        ] {
            assert_eq!(id_line(t).as_deref(), Some("c"), "{t:?}");
        }
        // broken itself, or no front matter: unknown
        for t in [
            "---\nid: [a\n---\n",
            "---\ntitle: T\n---\nid: x\n",
            "id: x\n",
            "",
        ] {
            assert_eq!(id_line(t), None, "{t:?}");
        }
    }

    #[test]
    fn replace_file_swaps_the_whole_text_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("a.md");
        std::fs::write(&f, "old").unwrap();
        super::replace_file(&f, b"new text").unwrap();
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "new text");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        // a missing folder is an error, not a panic, and writes nothing
        assert!(super::replace_file(&dir.path().join("no/b.md"), b"x").is_err());
    }

    #[test]
    fn glossary_key_lines() {
        let t = "{\n  \"a\": \"x \\\"b\\\": y\",\n  \"b\" : \"z\"\n}";
        assert_eq!(super::key_line(t, "b"), Some(3));
    }
}
