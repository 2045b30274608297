//! The print view: every chapter of one language on one page (`<lang>/print/`), in reading
//! order, then the glossary, for printing the whole book or saving it as a PDF.
//!
//! It is made of the chapter HTML the build already rendered: each chapter's placeholders are
//! filled once more for this page ([`Page::print`]), which keeps every link that leads to a
//! chapter of the book on the page (`#7.1.0`, `#combat`, `#glossary:exhaust`) and gives every
//! anchor that is not a section number its chapter's prefix (`combat:examples`), so ids stay
//! unique. The page sits at the same depth as a chapter page, so images and icons need no
//! change. It costs one fill per chapter and language: linear in the size of the book.

use rayon::prelude::*;
use serde::Serialize;

use crate::diag::Diagnostic;
use crate::html::{escape_into, escape_text_into};
use crate::render::Renderer;
use crate::site::PAGE_ROOT;
use crate::xref::Page;

/// The path of a language's print view below the output folder.
pub fn print_path(lang: &str) -> String {
    format!("{lang}/print/index.html")
}

#[derive(Serialize)]
struct PrintChapter {
    id: String,
    /// The id of the chapter's title, when the title carries a section number.
    number: Option<String>,
    number_anchor: Option<String>,
    title: String,
    /// The language of the text (another than the page's when the chapter is not translated).
    content_lang: String,
    fallback: Option<PrintFallback>,
    /// "Referenced by" of the title's section.
    refby: String,
    /// Stands for the chapter's HTML while the template renders (see [`mark`]).
    content: String,
}

#[derive(Serialize)]
struct PrintFallback {
    lang: String,
    lang_name: String,
    url: String,
}

/// The marker of chapter `i`'s HTML in the rendered template. Like
/// [`crate::render::CONTENT_MARK`], made of private-use characters no text produces; numbered,
/// so a template that moves or repeats chapters still gets each one's own text.
fn mark(i: usize) -> String {
    format!("\u{F8FF}rulebook:print:{i}\u{F8FF}")
}

const MARK_START: &str = "\u{F8FF}rulebook:print:";

/// The print view as rendered: the template's page with a [`mark`] per chapter, and the
/// chapters' HTML. Written out piece by piece, so the whole book is never copied into one
/// string (at 2,000 chapters the page is tens of megabytes per language).
pub struct PrintPage {
    page: String,
    contents: Vec<String>,
}

impl PrintPage {
    /// Writes the page with every mark replaced by its chapter's HTML.
    pub fn write_to(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        splice_into(&self.page, &self.contents, out)
    }

    /// The page in bytes, for callers that want it whole.
    pub fn to_bytes(&self) -> Vec<u8> {
        let total: usize = self.contents.iter().map(String::len).sum();
        let mut out = Vec::with_capacity(self.page.len() + total);
        // writing into a Vec cannot fail
        let _ = self.write_to(&mut out);
        out
    }

    /// Bytes of the chapters' HTML, for the timings line.
    pub fn content_len(&self) -> usize {
        self.contents.iter().map(String::len).sum()
    }
}

/// Replaces every [`mark`] in `page` by its chapter's HTML, writing to `out`.
fn splice_into(
    page: &str,
    contents: &[String],
    out: &mut impl std::io::Write,
) -> std::io::Result<()> {
    let mut rest = page;
    while let Some(at) = rest.find(MARK_START) {
        out.write_all(&rest.as_bytes()[..at])?;
        let after = &rest[at + MARK_START.len()..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let i: Option<usize> = after[..digits].parse().ok();
        match (
            i.and_then(|i| contents.get(i)),
            after[digits..].strip_prefix('\u{F8FF}'),
        ) {
            (Some(c), Some(tail)) => {
                out.write_all(c.as_bytes())?;
                rest = tail;
            }
            _ => {
                out.write_all(&rest.as_bytes()[at..at + MARK_START.len()])?;
                rest = after;
            }
        }
    }
    out.write_all(rest.as_bytes())
}

impl Renderer<'_> {
    /// `<lang>/print/index.html`.
    pub fn print(&self, lang: &str) -> Result<PrintPage, Diagnostic> {
        let site = self.site;
        let resolver = site.resolver();
        let mut ctx = self.common(lang, PAGE_ROOT, "print", &|l| format!("{l}/print/"));
        // The chapters are filled in parallel: on a large book this page is the longest job
        // of the build, and the other pages can wait for a thread more easily than it can.
        let filled: Vec<Option<(PrintChapter, String, String)>> = site
            .order
            .par_iter()
            .enumerate()
            .map(|(i, id)| {
                let (page, fallback) = site.page_for(lang, id, &self.index)?;
                let c = &page.chapter;
                let syms = &site.symbols[&c.lang];
                let at = Page {
                    lang,
                    id: Some(id),
                    root: PAGE_ROOT,
                    print: true,
                };
                let html = resolver.fill_with(
                    &page.prepared.html,
                    &page.prepared.pending,
                    at,
                    &mut |p, m, out| crate::reading_pages::fill_extra(site, &c.lang, at, p, m, out),
                );
                let mut refby = String::new();
                if let Some(n) = &page.title_number {
                    crate::reading_pages::referenced_by(site, &c.lang, at, n, &mut refby);
                }
                let title = syms.to_plain(&page.title_text);
                let mut toc = String::new();
                self.toc_of(lang, id, page, &title, fallback, &mut toc);
                let chapter = PrintChapter {
                    id: id.clone(),
                    number_anchor: page
                        .title_number
                        .as_deref()
                        .map(|n| resolver.print_anchor(lang, id, n).into_owned()),
                    number: page.title_number.clone(),
                    title,
                    content_lang: c.lang.clone(),
                    fallback: fallback.then(|| PrintFallback {
                        lang: c.lang.clone(),
                        lang_name: self.lang_name(&c.lang),
                        url: format!("{PAGE_ROOT}{}", crate::render::chapter_path(&c.lang, id)),
                    }),
                    refby,
                    content: mark(i),
                };
                Some((chapter, html, toc))
            })
            .collect();
        // marks are numbered by position in the reading order
        let mut chapters = Vec::with_capacity(filled.len());
        let mut contents = vec![String::new(); filled.len()];
        let mut toc = String::new();
        for (i, f) in filled.into_iter().enumerate() {
            if let Some((c, html, t)) = f {
                chapters.push(c);
                contents[i] = html;
                toc.push_str(&t);
            }
        }
        let has_glossary = !site.glossaries.is_empty();
        ctx.insert("title", &site.theme.string(lang, "print_view"));
        ctx.insert("chapters", &chapters);
        ctx.insert("toc_html", &toc);
        ctx.insert("has_glossary", &has_glossary);
        ctx.insert("untranslated_id", "glossary:untranslated");
        if has_glossary {
            ctx.insert("entries", &self.glossary_items(lang, true));
        }
        let page = self.render("print.html", &ctx)?;
        Ok(PrintPage { page, contents })
    }

    /// One chapter's entry in the print view's contents: the chapter, and its sections (level
    /// 2) as a nested list, every link to an id on the page.
    fn toc_of(
        &self,
        lang: &str,
        id: &str,
        page: &crate::site::ChapterPage,
        title: &str,
        fallback: bool,
        out: &mut String,
    ) {
        let resolver = self.site.resolver();
        let syms = &self.site.symbols[&page.chapter.lang];
        out.push_str("<li");
        if fallback {
            out.push_str(" class=\"untranslated\"");
        }
        out.push_str("><a href=\"#");
        escape_into(id, out);
        out.push_str("\">");
        if let Some(n) = &page.title_number {
            out.push_str("<span class=\"secnum\">");
            escape_into(n, out);
            out.push_str("</span> ");
        }
        escape_text_into(title, out);
        out.push_str("</a>");
        if fallback {
            out.push_str(" <span class=\"badge\">");
            escape_text_into(&self.site.theme.string(lang, "not_translated_title"), out);
            out.push_str("</span>");
        }
        let mut sections = page
            .prepared
            .headings
            .iter()
            .filter(|h| h.level == 2)
            .peekable();
        if sections.peek().is_some() {
            out.push_str("\n<ol class=\"section-list\">");
            for h in sections {
                out.push_str("<li><a href=\"#");
                escape_into(&resolver.print_anchor(lang, id, &h.anchor), out);
                out.push_str("\">");
                if let Some(n) = &h.number {
                    out.push_str("<span class=\"secnum\">");
                    escape_into(n, out);
                    out.push_str("</span> ");
                }
                escape_text_into(&syms.to_plain(&h.title), out);
                out.push_str("</a></li>");
            }
            out.push_str("</ol>");
        }
        out.push_str("</li>\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splice_puts_each_chapter_at_its_own_mark() {
        let splice = |page: String, contents: Vec<String>| {
            String::from_utf8(PrintPage { page, contents }.to_bytes()).unwrap()
        };
        let page = format!("a{}b{}c{}", mark(1), mark(0), mark(1));
        let out = splice(page, vec!["X".into(), "Ж".into()]);
        assert_eq!(out, "aЖbXcЖ");
        // an unknown number is left as it was
        assert_eq!(splice(mark(5), vec!["X".into()]), mark(5));
    }
}
