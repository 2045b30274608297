//! The resolved site: everything loaded, every chapter's Markdown rendered once, every section
//! known. This is the "resolve" stage between loading and writing pages.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::autolink::TermMatcher;
use crate::config::SiteConfig;
use crate::diag::{Diagnostic, Diagnostics};
use crate::glossary::{self, Glossaries, Glossary};
use crate::load::{self, Chapter};
use crate::markdown::{self, Prepared, Source};
use crate::reading::Reading;
use crate::sections::{split_heading_number, SectionDef, SectionIndex};
use crate::symbols::Symbols;
use crate::theme::Theme;
use crate::xref::{ChapterMap, Resolver};

/// Relative path from every chapter-level page (`/<lang>/<id>/`) to the site root.
pub const PAGE_ROOT: &str = "../../";

/// One chapter in one language, rendered once.
pub struct ChapterPage {
    pub chapter: Chapter,
    /// The section number carried by the title (`7.0.0 Damage and Destruction`), if any.
    pub title_number: Option<String>,
    /// The title without that number.
    pub title_text: String,
    pub prepared: Prepared,
}

pub struct Site {
    pub root: PathBuf,
    pub config: SiteConfig,
    pub theme: Theme,
    /// Per language, the chapters that exist in that language, in weight order.
    pub pages: BTreeMap<String, Vec<ChapterPage>>,
    /// Every chapter id in reading order (the same order in every language).
    pub order: Vec<String>,
    pub sections: SectionIndex,
    pub chapter_map: ChapterMap,
    pub glossaries: Glossaries,
    /// Rendered glossary definitions, aligned with `glossaries[lang].entries`.
    pub glossary_html: BTreeMap<String, Vec<Prepared>>,
    pub symbols: BTreeMap<String, Symbols>,
    /// Glossary terms in the text, "Referenced by", section previews.
    pub reading: Reading,
    /// Chapters marked `draft: true` that this load left out, sorted by path: for the
    /// build's summary, and for `check`, which measures how far a draft translation is.
    pub drafts_left_out: Vec<crate::load::Chapter>,
}

/// For a language not written in Latin letters, the language whose text is (its paragraphs
/// left in that language are marked untranslated); `None` for a Latin-alphabet language.
pub fn latin_text_language(config: &SiteConfig, theme: &Theme, lang: &str) -> Option<String> {
    let latin = |l: &str| {
        let a = theme.alphabet(l);
        !a.is_empty() && a.iter().all(char::is_ascii_lowercase)
    };
    if latin(lang) {
        None
    } else {
        config.others(lang).find(|o| latin(o)).cloned()
    }
}

impl Site {
    /// Finds a chapter in a language.
    pub fn page(&self, lang: &str, id: &str) -> Option<&ChapterPage> {
        self.pages
            .get(lang)
            .and_then(|v| v.iter().find(|p| p.chapter.id == id))
    }

    /// The version of a chapter to show a reader of `lang`: their own, or else the first
    /// language (site order) that has it. The bool says whether it is a fallback.
    pub fn page_for(
        &self,
        lang: &str,
        id: &str,
        index: &HashMap<(&str, &str), usize>,
    ) -> Option<(&ChapterPage, bool)> {
        if let Some(&i) = index.get(&(lang, id)) {
            return Some((&self.pages[lang][i], false));
        }
        self.config.languages.iter().find_map(|l| {
            index
                .get(&(l.as_str(), id))
                .map(|&i| (&self.pages[l.as_str()][i], true))
        })
    }

    /// (lang, id) → position in `pages[lang]`.
    pub fn page_index(&self) -> HashMap<(&str, &str), usize> {
        let mut m = HashMap::new();
        for (lang, pages) in &self.pages {
            for (i, p) in pages.iter().enumerate() {
                m.insert((lang.as_str(), p.chapter.id.as_str()), i);
            }
        }
        m
    }

    pub fn resolver(&self) -> Resolver<'_> {
        Resolver {
            sections: &self.sections,
            chapters: &self.chapter_map,
            languages: &self.config.languages,
        }
    }
}

/// Whether the loaded site keeps each chapter's Markdown source (`Chapter::body`) once it is
/// rendered. `check` and `serve` keep them (they re-read units and rebuild single chapters from
/// them). `build` needs only the rendered chapters: at 2,000 chapters the sources are about a
/// tenth of its peak memory, and each one is freed as soon as its chapter is rendered, so the
/// stages after the Markdown reuse the room.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sources {
    Keep,
    Release,
}

/// What a load does with chapters marked `draft: true`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Drafts {
    /// Left out, as if their files were not there (links to them warn): `build`, `check`,
    /// `search` — what is published, and what is checked, is the same site.
    Leave,
    /// Loaded like any chapter: `serve`, where an author previews a draft, and `translated`,
    /// which records a translation whether or not it is published yet.
    Show,
}

/// Loads and resolves a site, leaving drafts out. Returns `None` when errors make rendering
/// pointless; all problems (errors and warnings) are in `diags` either way.
pub fn load(root: &Path, base_url: Option<&str>, diags: &mut Diagnostics) -> Option<Site> {
    load_opts(root, base_url, false, Sources::Keep, diags)
}

/// [`load`], with the chapters marked `draft: true` loaded too.
pub fn load_with_drafts(
    root: &Path,
    base_url: Option<&str>,
    diags: &mut Diagnostics,
) -> Option<Site> {
    load_inner(
        root,
        base_url,
        false,
        Sources::Keep,
        Drafts::Show,
        diags,
        &mut |_| (),
    )
}

/// [`load`], with `safe` forcing safe mode on (`--safe`) even when site.yaml does not ask for
/// it, and a choice of whether to keep the sources.
pub fn load_opts(
    root: &Path,
    base_url: Option<&str>,
    safe: bool,
    sources: Sources,
    diags: &mut Diagnostics,
) -> Option<Site> {
    load_beside(root, base_url, safe, sources, diags, |_| ()).0
}

/// [`load_opts`], running `beside` on the theme while the content is read: the build compiles
/// its templates there (28 M instructions, about 1% of a 200-chapter build, otherwise spent
/// on one core while the other waits). `beside` runs once the theme is loaded, or not at all when the site
/// configuration is unusable.
pub fn load_beside<R: Send>(
    root: &Path,
    base_url: Option<&str>,
    safe: bool,
    sources: Sources,
    diags: &mut Diagnostics,
    beside: impl FnOnce(&Theme) -> R + Send,
) -> (Option<Site>, Option<R>) {
    let mut beside = Some(beside);
    let mut out = None;
    let site = load_inner(
        root,
        base_url,
        safe,
        sources,
        Drafts::Leave,
        diags,
        &mut |theme: &Theme| {
            if let Some(f) = beside.take() {
                out = Some(f(theme));
            }
        },
    );
    (site, out)
}

fn load_inner(
    root: &Path,
    base_url: Option<&str>,
    safe: bool,
    sources: Sources,
    drafts: Drafts,
    diags: &mut Diagnostics,
    beside: &mut (dyn FnMut(&Theme) + Send),
) -> Option<Site> {
    let mut sw = crate::timing::Stopwatch::start();
    let mut config = SiteConfig::load(root, diags)?;
    config.safe |= safe;
    if let Some(url) = base_url {
        match crate::config::normalize_base_url(url) {
            Ok(u) => {
                if let Some(msg) = config
                    .cname
                    .as_deref()
                    .and_then(|c| crate::config::cname_mismatch(&u, c, "--base-url"))
                {
                    diags.push(Diagnostic::warning("bad-config", "--base-url", 0, msg));
                }
                config.base_url = u;
            }
            Err(e) => {
                diags.push(Diagnostic::error("bad-base-url", "--base-url", 0, e));
                return None;
            }
        }
    }
    let theme = Theme::load(root, &config.languages, diags);
    sw.lap("theme");
    let (mut content, ()) = rayon::join(
        || load::load_content(root, &config, diags),
        || beside(&theme),
    );
    let left_out = match drafts {
        Drafts::Leave => take_drafts(&mut content.chapters),
        Drafts::Show => Vec::new(),
    };
    sw.lap("load content");
    let symbol_names = theme.symbol_names();
    let symbols: BTreeMap<String, Symbols> = config
        .languages
        .iter()
        .map(|l| {
            (
                l.clone(),
                Symbols::new(symbol_names.iter().cloned(), &theme.table(l, "symbols")),
            )
        })
        .collect();

    // Glossaries, and the glossary terms to find in the text: one language per thread (on a
    // large site each glossary is a large JSON file, and this stretch was all on one thread).
    type Parsed = (String, Option<(Glossary, TermMatcher)>, Diagnostics);
    let parsed: Vec<Parsed> = content
        .glossaries
        .par_iter()
        .map(|(lang, (path, text))| {
            let mut found = Diagnostics::default();
            let g = glossary::parse(text, lang, path, &mut found).map(|g| {
                let m = TermMatcher::new(&g);
                (g, m)
            });
            (lang.clone(), g, found)
        })
        .collect();
    let mut glossaries = Glossaries::new();
    let mut terms: BTreeMap<String, TermMatcher> = BTreeMap::new();
    for (lang, g, found) in parsed {
        diags.extend(found.items);
        if let Some((g, m)) = g {
            glossaries.insert(lang.clone(), g);
            terms.insert(lang, m);
        }
    }

    // Per language, the language whose text is written in Latin letters when this one's is not
    // (to mark untranslated paragraphs).
    let latin_lang: BTreeMap<String, Option<String>> = config
        .languages
        .iter()
        .map(|l| (l.clone(), latin_text_language(&config, &theme, l)))
        .collect();
    sw.lap("glossary terms");

    // Render every chapter's Markdown once, in parallel.
    let site_root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let page_ids = theme.page_ids();
    let mut pages: BTreeMap<String, Vec<ChapterPage>> = BTreeMap::new();
    for (lang, chapters) in content.chapters {
        let syms = &symbols[&lang];
        let aids = markdown::Aids {
            terms: terms.get(&lang),
            latin_lang: latin_lang.get(&lang).and_then(Option::as_deref),
        };
        let rendered: Vec<ChapterPage> = chapters
            .into_par_iter()
            .map(|chapter| {
                let mut page =
                    prepare_chapter(chapter, config.safe, &site_root, syms, aids, &page_ids);
                if sources == Sources::Release {
                    page.chapter.body = String::new();
                }
                page
            })
            .collect();
        pages.insert(lang, rendered);
    }

    sw.lap("markdown");
    // The reading aids are gathered beside the section index and the glossary: making the
    // index is mostly one thread's work, and the reading aids take one thread a language.
    let (reading, (sections, chapter_map, order, glossary_html)) = rayon::join(
        || Reading::gather(terms, &pages, &symbols),
        || {
            let (sections, chapter_map) = index_sections(&config, &pages, &site_root, diags);
            // Reading order: the order of the first language that has each chapter, merged by weight.
            let order = reading_order(&config, &pages);
            check_orphans(&config, &pages, diags);
            let glossary_html =
                prepare_glossaries(&glossaries, &symbols, &site_root, config.safe, diags);
            (sections, chapter_map, order, glossary_html)
        },
    );
    sw.lap("sections, glossary, reading aids");
    let mut chapter_map = chapter_map;
    let mut drafts_left_out = Vec::with_capacity(left_out.len());
    for c in left_out {
        let file = site_root.join(&c.path);
        for number in draft_section_numbers(&c) {
            if !sections.exists(&number) {
                chapter_map
                    .draft_sections
                    .entry(number)
                    .or_insert_with(|| c.path.clone());
            }
        }
        chapter_map
            .drafts
            .insert(file, (c.lang.clone(), c.id.clone()));
        drafts_left_out.push(c);
    }
    drafts_left_out.sort_by(|a, b| a.path.cmp(&b.path));
    let site = Site {
        drafts_left_out,
        reading,
        root: site_root.clone(),
        config,
        theme,
        pages,
        order,
        sections,
        chapter_map,
        glossaries,
        glossary_html,
        symbols,
    };

    // Cross-references that lead nowhere.
    let resolver = site.resolver();
    for (lang, pages) in &site.pages {
        let found: Vec<Vec<Diagnostic>> = pages
            .par_iter()
            .map(|p| resolver.check(&p.prepared.pending, &p.chapter.path, lang, &site_root))
            .collect();
        for f in found {
            diags.extend(f);
        }
    }
    for (lang, prepared) in &site.glossary_html {
        let g = &site.glossaries[lang];
        for (e, p) in g.entries.iter().zip(prepared) {
            for mut d in resolver.check(&p.pending, &g.path, lang, &site_root) {
                d.line = e.line;
                diags.push(d);
            }
        }
    }
    sw.lap("check references");
    Some(site)
}

/// Removes the chapters marked `draft: true` from every language and returns them, in language
/// order, then in each language's chapter order (so messages come in a stable order).
fn take_drafts(chapters: &mut BTreeMap<String, Vec<Chapter>>) -> Vec<Chapter> {
    let mut out = Vec::new();
    for list in chapters.values_mut() {
        if list.iter().any(|c| c.draft) {
            let (drafts, kept): (Vec<Chapter>, Vec<Chapter>) =
                std::mem::take(list).into_iter().partition(|c| c.draft);
            *list = kept;
            out.extend(drafts);
        }
    }
    out
}

/// The section numbers a draft chapter would define: its title's and its ATX headings'. Only
/// the wording of a warning depends on it (a reference to one of them says the section is in a
/// draft rather than nowhere), so a plain line scan is enough; a `#` line inside a code block
/// counted here changes no output.
fn draft_section_numbers(c: &Chapter) -> Vec<String> {
    let mut out: Vec<String> = split_heading_number(&c.title)
        .map(|(n, _)| n)
        .into_iter()
        .collect();
    for line in c.body.lines() {
        let t = line.trim_start_matches(' ');
        if line.len() - t.len() > 3 || !t.starts_with('#') {
            continue;
        }
        let rest = t.trim_start_matches('#');
        if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
            continue;
        }
        if let Some((n, _)) = split_heading_number(rest.trim_start()) {
            out.push(n);
        }
    }
    out
}

/// Sections: every numbered heading of every language, and where each chapter's file and
/// anchors are.
fn index_sections(
    config: &SiteConfig,
    pages: &BTreeMap<String, Vec<ChapterPage>>,
    site_root: &Path,
    diags: &mut Diagnostics,
) -> (SectionIndex, ChapterMap) {
    let mut sections = SectionIndex::new(&config.languages);
    let mut chapter_map = ChapterMap::default();
    for lang in &config.languages {
        let lang_pages = pages.get(lang).map(Vec::as_slice).unwrap_or_default();
        // what each page adds, made on all cores; added in page order
        let made: Vec<(Vec<SectionDef>, HashSet<String>, PathBuf)> = lang_pages
            .par_iter()
            .map(|p| {
                let mut anchors: HashSet<String> =
                    p.prepared.anchors().map(str::to_string).collect();
                anchors.extend(p.title_number.iter().cloned());
                (
                    section_defs(lang, p),
                    anchors,
                    site_root.join(&p.chapter.path),
                )
            })
            .collect();
        for (p, (defs, anchors, file)) in lang_pages.iter().zip(made) {
            let c = &p.chapter;
            diags.extend(p.prepared.diags.iter().cloned());
            for d in defs {
                if let Err(dup) = sections.insert(d) {
                    let (first, d) = *dup;
                    diags.push(Diagnostic::error(
                        "duplicate-section",
                        d.file,
                        d.line,
                        format!("section {} is already defined in {}:{} ({lang}); a number may be defined once per language", d.number, first.file.display(), first.line),
                    ));
                }
            }
            let key = (lang.clone(), c.id.clone());
            chapter_map.present.insert(key.clone());
            chapter_map.files.insert(file, key.clone());
            chapter_map.anchors.insert(key, anchors);
        }
    }

    (sections, chapter_map)
}

/// The glossary's definitions of every language, through the same Markdown pipeline as the
/// chapters (symbols, section links).
fn prepare_glossaries(
    glossaries: &Glossaries,
    symbols: &BTreeMap<String, Symbols>,
    site_root: &Path,
    safe: bool,
    diags: &mut Diagnostics,
) -> BTreeMap<String, Vec<Prepared>> {
    let mut glossary_html = BTreeMap::new();
    for (lang, g) in glossaries {
        let syms = &symbols[lang];
        let gdir = site_root.join("content").join(lang);
        // the glossary page's ids: a definition may link to another entry with `#its-id`
        let entries: Vec<String> = g
            .entries
            .iter()
            .flat_map(|e| {
                std::iter::once(e.anchor.clone()).chain(
                    std::iter::once(&e.key)
                        .chain(&e.merged_keys)
                        .map(|k| crate::glossary::alias_anchor(k)),
                )
            })
            .collect::<std::collections::BTreeSet<String>>()
            .into_iter()
            .collect();
        let prepared: Vec<Prepared> = g
            .entries
            .par_iter()
            .map(|e| {
                let src = Source {
                    file: &g.path,
                    first_line: e.line,
                    dir: &gdir,
                    site_root,
                    root: PAGE_ROOT,
                    safe,
                    reserved_anchors: &entries,
                    sections: false,
                };
                let mut p = markdown::prepare(&e.definition, &src, syms);
                // a definition's lines are not the file's lines (it is a JSON string): report the entry's line
                for d in &mut p.diags {
                    d.line = e.line;
                }
                p
            })
            .collect();
        for p in &prepared {
            diags.extend(p.diags.iter().cloned());
        }
        glossary_html.insert(lang.clone(), prepared);
    }
    glossary_html
}

/// Renders one chapter's Markdown (the first pass): the one place that turns a loaded chapter
/// into a page, for the build and for `serve`'s incremental rebuilds alike.
pub fn prepare_chapter(
    chapter: Chapter,
    safe: bool,
    site_root: &Path,
    syms: &Symbols,
    aids: markdown::Aids<'_>,
    page_ids: &[String],
) -> ChapterPage {
    let (title_number, title_text) = match split_heading_number(&chapter.title) {
        Some((n, rest)) => (Some(n), rest.to_string()),
        None => (None, chapter.title.clone()),
    };
    // the chapter title's number is its own anchor; the theme's ids are the page's
    let mut reserved: Vec<String> = title_number.iter().chain(page_ids).cloned().collect();
    reserved.sort_unstable();
    let dir = chapter
        .dir
        .canonicalize()
        .unwrap_or_else(|_| chapter.dir.clone());
    let src = Source {
        file: &chapter.path,
        first_line: chapter.body_line,
        dir: &dir,
        site_root,
        root: PAGE_ROOT,
        safe,
        reserved_anchors: &reserved,
        sections: true,
    };
    let prepared = markdown::prepare_with(&chapter.body, &src, syms, aids);
    ChapterPage {
        chapter,
        title_number,
        title_text,
        prepared,
    }
}

/// The numbered sections a page defines (its title's number, then its headings').
pub fn section_defs(lang: &str, p: &ChapterPage) -> Vec<SectionDef> {
    let c = &p.chapter;
    let mut defs = Vec::new();
    if let Some(n) = &p.title_number {
        defs.push(SectionDef {
            number: n.clone(),
            lang: lang.to_string(),
            chapter_id: c.id.clone(),
            title: p.title_text.clone(),
            file: c.path.clone(),
            line: c.title_line,
            level: 1,
        });
    }
    for h in &p.prepared.headings {
        if let Some(n) = &h.number {
            defs.push(SectionDef {
                number: n.clone(),
                lang: lang.to_string(),
                chapter_id: c.id.clone(),
                title: h.title.clone(),
                file: c.path.clone(),
                line: h.line,
                level: h.level,
            });
        }
    }
    defs
}

/// The order chapters are read in, in every language: by `weight` (the first language that has
/// the chapter says it), then the chapters without one, each language's in its own order
/// (file names). Those are merged, not compared by position: a chapter's place in one language
/// says nothing of its place in another that lacks some chapters (a partial translation), so
/// a chapter only one language has goes after the one it follows there.
fn reading_order(config: &SiteConfig, pages: &BTreeMap<String, Vec<ChapterPage>>) -> Vec<String> {
    let mut seen: HashMap<&str, (Option<i64>, usize, usize)> = HashMap::new();
    for (li, lang) in config.languages.iter().enumerate() {
        for (i, p) in pages.get(lang).into_iter().flatten().enumerate() {
            seen.entry(p.chapter.id.as_str())
                .or_insert((p.chapter.weight, li, i));
        }
    }
    let mut weighted: Vec<(i64, usize, usize, &str)> = seen
        .iter()
        .filter_map(|(id, &(w, li, i))| w.map(|w| (w, i, li, *id)))
        .collect();
    weighted.sort_unstable();
    // each language's chapters without a weight, the longest list first (ties: the site's
    // order of languages), the others merged into it
    let mut lists: Vec<Vec<&str>> = (config.languages.iter())
        .map(|lang| {
            (pages.get(lang).into_iter().flatten())
                .map(|p| p.chapter.id.as_str())
                .filter(|id| seen[id].0.is_none())
                .collect()
        })
        .collect();
    lists.sort_by_key(|l| std::cmp::Reverse(l.len()));
    let mut merged: Vec<&str> = Vec::new();
    let mut placed: HashSet<&str> = HashSet::new();
    for list in lists {
        let mut at = 0;
        for id in list {
            if placed.contains(id) {
                at = merged.iter().position(|m| *m == id).map_or(at, |k| k + 1);
                continue;
            }
            merged.insert(at, id);
            placed.insert(id);
            at += 1;
        }
    }
    (weighted.into_iter().map(|w| w.3))
        .chain(merged)
        .map(str::to_string)
        .collect()
}

/// A chapter that exists in one language only is normal (it is not translated yet). But when
/// two languages each have a chapter the other lacks and the ids are nearly the same, that is
/// almost always a typo that breaks the pairing.
fn check_orphans(
    config: &SiteConfig,
    pages: &BTreeMap<String, Vec<ChapterPage>>,
    diags: &mut Diagnostics,
) {
    let ids: BTreeMap<&str, HashSet<&str>> = config
        .languages
        .iter()
        .map(|l| {
            (
                l.as_str(),
                pages
                    .get(l)
                    .into_iter()
                    .flatten()
                    .map(|p| p.chapter.id.as_str())
                    .collect(),
            )
        })
        .collect();
    for (lang, own) in &ids {
        for p in pages.get(*lang).into_iter().flatten() {
            let id = p.chapter.id.as_str();
            for (other, theirs) in &ids {
                if other == lang || theirs.contains(id) {
                    continue;
                }
                if let Some(close) = theirs
                    .iter()
                    .filter(|t| !own.contains(**t))
                    .find(|t| similar(id, t))
                {
                    diags.push(Diagnostic::warning(
                        "unpaired-chapter",
                        &p.chapter.path,
                        2,
                        format!("id `{id}` has no {other} chapter, but {other} has `{close}`, which has no {lang} chapter; if they are the same chapter, give them the same id"),
                    ));
                }
            }
        }
    }
}

/// Case-insensitive equality or an edit distance of at most 2.
fn similar(a: &str, b: &str) -> bool {
    if a.eq_ignore_ascii_case(b) {
        return true;
    }
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > 2 || a.len() < 4 {
        return false;
    }
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()] <= 2
}

#[cfg(test)]
mod tests {
    #[test]
    fn similar_ids() {
        assert!(super::similar("roundOrder", "roundorder"));
        assert!(super::similar("roundOrder", "roundOrdr"));
        assert!(!super::similar("setup", "combat"));
    }
}
