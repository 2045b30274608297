//! The site kept in memory between rebuilds, and the rebuild of only what a change touches.
//!
//! An edit to a chapter re-reads that one file and renders its Markdown again, updates the
//! section index and anchors, and writes that chapter's page in every language. Other pages are
//! written again only when they depend on what changed: the pages that refer to a section number
//! that appeared or disappeared, the neighbours (previous/next links show titles) and the
//! contents pages when titles or headings changed; the print view, which holds every chapter,
//! right after (see [`Live::write_print`]); the search index and the exports, which hold every
//! chapter's text, once edits pause (see [`Live::write_search`]).
//! Anything else (the glossary, templates, static files, UI strings, settings, a new, removed
//! or renamed chapter) rebuilds the whole site, which the build does fast enough, and which can
//! never be subtly wrong.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

use tera::Tera;

use crate::diag::{Diagnostic, Diagnostics, Severity};
use crate::render::{chapter_path, Renderer};
use crate::site::Site;

pub struct Live {
    pub root: PathBuf,
    /// The output folder (canonical), served as it is.
    pub output: PathBuf,
    pub site: Site,
    tera: Tera,
    /// The fingerprint of the theme's files and images the full build wrote (an edit of a
    /// chapter changes none): with the index's, the service worker's version.
    theme_files: u64,
}

/// What a rebuild did.
pub struct Rebuilt {
    pub pages: usize,
    pub millis: f64,
    pub full: bool,
    /// Warnings of what was rebuilt (errors make the rebuild fail instead).
    pub warnings: Vec<Diagnostic>,
}

fn errors_of(d: Diagnostics) -> Vec<Diagnostic> {
    d.items
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .collect()
}

impl Live {
    /// Builds the whole site into `output` (swapped in only when it succeeded).
    pub fn full(root: &Path, output: &Path) -> Result<(Live, Rebuilt), Vec<Diagnostic>> {
        let start = Instant::now();
        let mut diags = Diagnostics::default();
        // the preview shows drafts: it is where their authors read them
        let site = crate::site::load_with_drafts(root, Some("/"), &mut diags);
        let tera = site
            .as_ref()
            .and_then(|s| match crate::render::compile(&s.theme.templates) {
                Ok(t) => Some(t),
                Err(e) => {
                    diags.extend(e);
                    None
                }
            });
        let (Some(site), Some(tera)) = (site, tera) else {
            return Err(errors_of(diags));
        };
        if diags.has_errors() {
            return Err(errors_of(diags));
        }
        let staging = crate::output::Staging::new(output).map_err(|e| {
            vec![Diagnostic::error(
                "io",
                output,
                0,
                format!("cannot write the site: {e}"),
            )]
        })?;
        let (files, theme_files) =
            crate::build::write_output(&site, tera.clone(), &staging.dir, &mut diags);
        if diags.has_errors() {
            return Err(errors_of(diags));
        }
        // What `build` checks before it replaces a site, checked again on every full rebuild:
        // the folder may have gained files of the user's since `serve` started (a full
        // rebuild deleted them, with the rest of the old site).
        let refused =
            |e: crate::output::OutputError| vec![Diagnostic::error("output", output, 0, e.0)];
        let checked = crate::output::check_output(output, root).map_err(refused)?;
        if checked.is_legacy() {
            return Err(refused(checked.legacy_refusal()));
        }
        checked.check_unlisted().map_err(refused)?;
        // an old site that cannot be deleted whole is set aside with its marker, out of the
        // next swap's way, and removed by a later build once it can be
        staging.commit().map(drop).map_err(|e| {
            vec![Diagnostic::error(
                "io",
                output,
                0,
                format!("cannot swap the site in: {e}"),
            )]
        })?;
        let output = output
            .canonicalize()
            .unwrap_or_else(|_| output.to_path_buf());
        let warnings = diags.items;
        Ok((
            Live {
                root: root.to_path_buf(),
                output,
                site,
                tera,
                theme_files,
            },
            Rebuilt {
                pages: files,
                millis: start.elapsed().as_secs_f64() * 1000.0,
                full: true,
                warnings,
            },
        ))
    }

    /// Whether a change to these files can be rebuilt incrementally: every one an existing
    /// chapter file of the site.
    pub fn can_update(&self, changed: &[PathBuf]) -> bool {
        !changed.is_empty()
            && changed
                .iter()
                .all(|p| self.chapter_of(p).is_some() && p.is_file())
    }

    /// (language, position in `pages[lang]`) of the chapter file at `path` (absolute).
    fn chapter_of(&self, path: &Path) -> Option<(String, usize)> {
        let rel = path.strip_prefix(&self.site.root).ok()?;
        let lang = rel
            .strip_prefix("content")
            .ok()?
            .components()
            .next()?
            .as_os_str()
            .to_str()?;
        let pages = self.site.pages.get(lang)?;
        let i = pages.iter().position(|p| p.chapter.path == rel)?;
        Some((lang.to_string(), i))
    }

    /// Rebuilds after edits to existing chapter files. `Err` holds the errors; the site in memory
    /// and on disk is then as it was. `Ok(None)` means the change needs a full rebuild.
    pub fn update(&mut self, changed: &[PathBuf]) -> Result<Option<Rebuilt>, Vec<Diagnostic>> {
        let start = Instant::now();
        let mut to_render: BTreeSet<String> = BTreeSet::new();
        let mut index_pages = false;
        let mut warnings = Vec::new();
        // chapters whose own sections changed: their preview files are written again
        let mut edited: BTreeSet<String> = BTreeSet::new();
        for path in changed {
            let Some((lang, i)) = self.chapter_of(path) else {
                return Ok(None);
            };
            let mut diags = Diagnostics::default();
            let rel = self.site.pages[&lang][i].chapter.path.clone();
            let dir = path.parent().unwrap_or(&self.site.root).to_path_buf();
            let chapter = crate::limits::read_limited(path, &rel, &mut diags)
                .and_then(|b| crate::load::decode(b, &rel, &mut diags))
                .and_then(|t| crate::load::parse_chapter(t, &lang, rel.clone(), dir, &mut diags));
            let Some(chapter) = chapter else {
                return Err(errors_of(diags));
            };
            let old = &self.site.pages[&lang][i];
            if chapter.id != old.chapter.id || chapter.weight != old.chapter.weight {
                return Ok(None); // the order or the pairing changes: rebuild it all
            }
            let syms = &self.site.symbols[&lang];
            // the same reading aids as the full build: glossary terms linked, paragraphs
            // left in the original language marked
            let latin =
                crate::site::latin_text_language(&self.site.config, &self.site.theme, &lang);
            let page = crate::site::prepare_chapter(
                chapter,
                self.site.config.safe,
                &self.site.root,
                syms,
                crate::markdown::Aids {
                    terms: self.site.reading.terms.get(&lang),
                    latin_lang: latin.as_deref(),
                },
                &self.site.theme.page_ids(),
            );
            let old_defs = crate::site::section_defs(&lang, old);
            let new_defs = crate::site::section_defs(&lang, &page);
            // sorted, not a set: a number written twice in this chapter must not compare equal
            let numbers = |d: &[crate::sections::SectionDef]| -> Vec<String> {
                let mut n: Vec<String> = d.iter().map(|x| x.number.clone()).collect();
                n.sort_unstable();
                n
            };
            // A section number added or removed changes more than this chapter: the links to it
            // in other chapters and in glossary definitions (a link or plain text), the page of
            // section addresses, and a duplicate of a number, defined elsewhere or a second
            // time here, is an error the full build reports. (Other chapters re-rendered here
            // kept the glossary and the address page out of date; a number repeated within the
            // chapter was served without a word.)
            if numbers(&old_defs) != numbers(&new_defs) {
                return Ok(None);
            }
            let titles = |p: &crate::site::ChapterPage| -> Vec<(u8, String, Option<String>)> {
                p.prepared
                    .headings
                    .iter()
                    .filter(|h| h.level <= 2)
                    .map(|h| (h.level, h.title.clone(), h.number.clone()))
                    .collect()
            };
            // A chapter's title is also how other chapters' "Referenced by" lists name a
            // reference it makes outside any numbered section: every page that lists one would
            // change, so a new title is a full rebuild.
            if page.chapter.title != old.chapter.title {
                return Ok(None);
            }
            // the headings the contents pages list (the neighbours' pages name the chapter by
            // its title only, a full rebuild above)
            // and whether it is translated in part (the contents page's badge)
            let partly = |p: &crate::site::ChapterPage| {
                (p.prepared.untranslated_in_part(), p.prepared.all_original())
            };
            if titles(&page) != titles(old) || partly(&page) != partly(old) {
                index_pages = true;
            }
            let id = page.chapter.id.clone();
            self.site.sections.remove_chapter(&lang, &id);
            for d in new_defs {
                let _ = self.site.sections.insert(d);
            }
            let mut anchors: std::collections::HashSet<String> =
                page.prepared.anchors().map(str::to_string).collect();
            anchors.extend(page.title_number.iter().cloned());
            self.site
                .chapter_map
                .anchors
                .insert((lang.clone(), id.clone()), anchors);
            warnings.extend(page.prepared.diags.iter().cloned());
            warnings.extend(self.site.resolver().check(
                &page.prepared.pending,
                &page.chapter.path,
                &lang,
                &self.site.root,
            ));
            if let Some(slot) = self.site.pages.get_mut(&lang).and_then(|v| v.get_mut(i)) {
                // references made or removed, or a term now too common to link (or no longer):
                // other chapters' pages change too
                let syms = self.site.symbols.get(&lang).cloned().unwrap_or_default();
                if !self.site.reading.replace_chapter(&lang, slot, &page, &syms) {
                    return Ok(None);
                }
                *slot = page;
            }
            edited.insert(id.clone());
            to_render.insert(id);
        }
        let pages = self.write(&to_render, &edited, index_pages)?;
        Ok(Some(Rebuilt {
            pages,
            millis: start.elapsed().as_secs_f64() * 1000.0,
            full: false,
            warnings,
        }))
    }

    /// Writes the pages of the given chapters in every language (and the contents pages), and
    /// the preview files that hold the sections of the `edited` chapters.
    fn write(
        &self,
        ids: &BTreeSet<String>,
        edited: &BTreeSet<String>,
        index_pages: bool,
    ) -> Result<usize, Vec<Diagnostic>> {
        let r = Renderer::new(&self.site, self.tera.clone());
        let mut n = 0;
        let io = |e: std::io::Error| {
            vec![Diagnostic::error(
                "io",
                &self.output,
                0,
                format!("cannot write the site: {e}"),
            )]
        };
        for lang in &self.site.config.languages {
            for id in ids {
                let Some(pos) = self.site.order.iter().position(|x| x == id) else {
                    continue;
                };
                let html = r.chapter(lang, id, pos).map_err(|d| vec![d])?;
                write_atomic(
                    &self.output,
                    &format!("{}index.html", chapter_path(lang, id)),
                    html.as_bytes(),
                )
                .map_err(io)?;
                n += 1;
            }
            let count = crate::reading_pages::preview_file_count(&self.site);
            let files: Vec<usize> = edited
                .iter()
                .map(|id| crate::reading_pages::hashed_file(id, count))
                .collect();
            if !files.is_empty() {
                for (path, text) in
                    crate::reading_pages::preview_files(&self.site, lang, Some(&files))
                {
                    write_atomic(&self.output, &path, text.as_bytes()).map_err(io)?;
                    n += 1;
                }
            }
            if index_pages {
                let html = r.index(lang).map_err(|d| vec![d])?;
                write_atomic(&self.output, &format!("{lang}/index.html"), html.as_bytes())
                    .map_err(io)?;
                n += 1;
            }
        }
        Ok(n)
    }
}

impl Live {
    /// Writes the print view of every language again. It holds every chapter, so it costs as
    /// much as the whole book: `serve` calls it after an incremental rebuild has been announced,
    /// so the edited page reloads without waiting for it.
    pub fn write_print(&self) -> Result<usize, Vec<Diagnostic>> {
        let r = Renderer::new(&self.site, self.tera.clone());
        for lang in &self.site.config.languages {
            let html = r.print(lang).map_err(|d| vec![d])?;
            write_atomic(
                &self.output,
                &crate::print::print_path(lang),
                &html.to_bytes(),
            )
            .map_err(|e| {
                vec![Diagnostic::error(
                    "io",
                    &self.output,
                    0,
                    format!("cannot write the site: {e}"),
                )]
            })?;
        }
        Ok(self.site.config.languages.len())
    }

    /// Writes the search index and the JSON exports (`sections.json`) again: like the print
    /// views they hold every chapter's text, and an incremental rebuild leaves them as they
    /// were. `serve` calls it once edits pause (a large site's index takes most of a second).
    /// The index is written whole beside the served one and swapped in. (`sw.js` is left as
    /// it is: the preview never serves it, see `http.rs`.)
    pub fn write_search(&self) -> Result<usize, Vec<Diagnostic>> {
        let io = |e: std::io::Error| {
            vec![Diagnostic::error(
                "io",
                &self.output,
                0,
                format!("cannot write the search index: {e}"),
            )]
        };
        let mut n = 0;
        for job in crate::export::jobs(&self.site) {
            let (rel, bytes) = job.make(&self.site);
            write_atomic(&self.output, &rel, &bytes).map_err(io)?;
            n += 1;
        }
        let staging = crate::output::Staging::new(&self.output).map_err(io)?;
        let (files, index) =
            crate::search::web::write_site(&self.site, &staging.dir).map_err(|d| vec![d])?;
        staging.replace_folder("search").map_err(io)?;
        // the worker's version follows the index, as a build's does: `serve --output` left
        // the version of its first build in a folder that may be published
        let worker =
            crate::offline::worker_of(&self.site, &self.output, index.value(), self.theme_files)
                .map_err(io)?;
        if let Some(bytes) = &worker {
            write_atomic(&self.output, "sw.js", bytes).map_err(io)?;
        }
        Ok(n + files + usize::from(worker.is_some()))
    }
}

/// Replaces a file in the served folder so that a request never reads it half-written.
fn write_atomic(root: &Path, rel: &str, bytes: &[u8]) -> std::io::Result<()> {
    let path = root.join(rel);
    let mut tmp = path.clone().into_os_string();
    tmp.push(".rulebook-tmp");
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, &path)
}
