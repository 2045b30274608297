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

/// Chapters filled at a time while the print view is written: enough to keep both cores busy,
/// few enough that only a sliver of the book is in memory at once.
const FILL_BATCH: usize = 64;

/// Fills chapter `i` (its position in the reading order) for the print view: `Some("")` for a
/// chapter this language lacks, `None` for a number that is no chapter.
type Fill<'a> = Box<dyn Fn(usize) -> Option<String> + Send + Sync + 'a>;

/// The print view as rendered: the template's page with a [`mark`] per chapter, and how to fill
/// each chapter's HTML. The chapters are filled while the page is written, a batch at a time:
/// at 2,000 chapters the book is tens of megabytes per language, and holding it whole raised
/// the build's peak memory by about 190 MiB.
pub struct PrintPage<'a> {
    page: String,
    fill: Fill<'a>,
}

/// A stretch of the rendered page: its own text, or the place of chapter `i`'s HTML (with the
/// mark as written, for a number that is no chapter).
enum Piece<'p> {
    Text(&'p str),
    Chapter(usize, &'p str),
}

impl PrintPage<'_> {
    /// Writes the page with every mark replaced by its chapter's HTML; returns the bytes of
    /// the chapters' HTML (for the timings line).
    pub fn write_to(&self, out: &mut impl std::io::Write) -> std::io::Result<usize> {
        let pieces = split_marks(&self.page);
        let mut written = 0;
        for batch in pieces.chunks(FILL_BATCH) {
            let filled: Vec<Option<String>> = batch
                .par_iter()
                .map(|p| match p {
                    Piece::Chapter(i, _) => (self.fill)(*i),
                    Piece::Text(_) => None,
                })
                .collect();
            for (piece, html) in batch.iter().zip(filled) {
                match (piece, html) {
                    (Piece::Text(t), _) => out.write_all(t.as_bytes())?,
                    (Piece::Chapter(..), Some(h)) => {
                        written += h.len();
                        out.write_all(h.as_bytes())?
                    }
                    // an unknown number is left as it was
                    (Piece::Chapter(_, mark), None) => out.write_all(mark.as_bytes())?,
                }
            }
        }
        Ok(written)
    }

    /// The page in bytes, for callers that want it whole.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.page.len());
        // writing into a Vec cannot fail
        let _ = self.write_to(&mut out);
        out
    }
}

/// Cuts `page` at every [`mark`]. A mark that is not well formed stays text.
fn split_marks(page: &str) -> Vec<Piece<'_>> {
    let mut pieces = Vec::new();
    let mut rest = page;
    let mut text_from = 0;
    while let Some(at) = rest[text_from..].find(MARK_START).map(|a| a + text_from) {
        let after = &rest[at + MARK_START.len()..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let i: Option<usize> = after[..digits].parse().ok();
        match (i, after[digits..].strip_prefix('\u{F8FF}')) {
            (Some(i), Some(tail)) => {
                pieces.push(Piece::Text(&rest[..at]));
                let end = rest.len() - tail.len();
                pieces.push(Piece::Chapter(i, &rest[at..end]));
                rest = tail;
                text_from = 0;
            }
            _ => text_from = at + MARK_START.len(),
        }
    }
    pieces.push(Piece::Text(rest));
    pieces
}

/// Where a chapter's links point from, on the print view.
fn print_page<'a>(lang: &'a str, id: &'a str) -> Page<'a> {
    Page {
        lang,
        id: Some(id),
        root: PAGE_ROOT,
        print: true,
    }
}

impl Renderer<'_> {
    /// `<lang>/print/index.html`.
    pub fn print(&self, lang: &str) -> Result<PrintPage<'_>, Diagnostic> {
        let site = self.site;
        let resolver = site.resolver();
        let mut ctx = self.common(lang, PAGE_ROOT, "print", &|l| format!("{l}/print/"));
        // The chapters' entries are made in parallel; their HTML is filled as the page is
        // written (see [`PrintPage`]).
        let entries: Vec<Option<(PrintChapter, String)>> = site
            .order
            .par_iter()
            .enumerate()
            .map(|(i, id)| {
                let (page, fallback) = site.page_for(lang, id, &self.index)?;
                let c = &page.chapter;
                let syms = &site.symbols[&c.lang];
                let mut refby = String::new();
                if let Some(n) = &page.title_number {
                    let at = print_page(lang, id);
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
                Some((chapter, toc))
            })
            .collect();
        let mut chapters = Vec::with_capacity(entries.len());
        let mut toc = String::new();
        for (c, t) in entries.into_iter().flatten() {
            chapters.push(c);
            toc.push_str(&t);
        }
        let has_glossary = !site.glossaries.is_empty();
        ctx.insert("title", &site.theme.string(lang, "print_view"));
        ctx.insert("chapters", &chapters);
        ctx.insert("toc_html", &toc);
        ctx.insert("has_glossary", &has_glossary);
        if has_glossary {
            self.insert_glossary(&mut ctx, lang, "glossary:untranslated", true);
        }
        let page = self.render("print.html", &ctx)?;
        let lang = lang.to_string();
        let fill = move |i: usize| {
            let id = site.order.get(i)?;
            let Some((page, _)) = site.page_for(&lang, id, &self.index) else {
                return Some(String::new());
            };
            let c = &page.chapter;
            let at = print_page(&lang, id);
            let terms = site.reading.term_links(&c.lang);
            Some(resolver.fill_with(
                &page.prepared.html,
                &page.prepared.pending,
                at,
                &mut |p, m, out| {
                    crate::reading_pages::fill_extra(site, &c.lang, terms, at, p, m, out)
                },
            ))
        };
        Ok(PrintPage {
            page,
            fill: Box::new(fill),
        })
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
    fn the_marks_begin_as_loaded_text_never_does() {
        // content is scrubbed of this lead as it is read (xref.rs `scrub`)
        assert!(MARK_START.starts_with(crate::xref::MARK_LEAD));
    }

    #[test]
    fn splice_puts_each_chapter_at_its_own_mark() {
        let splice = |page: String, contents: Vec<String>| {
            let fill: Fill<'_> = Box::new(move |i| contents.get(i).cloned());
            String::from_utf8(PrintPage { page, fill }.to_bytes()).unwrap()
        };
        let page = format!("a{}b{}c{}", mark(1), mark(0), mark(1));
        let out = splice(page, vec!["X".into(), "Ж".into()]);
        assert_eq!(out, "aЖbXcЖ");
        // an unknown number is left as it was
        assert_eq!(splice(mark(5), vec!["X".into()]), mark(5));
        let padded = format!("{MARK_START}05\u{F8FF}");
        assert_eq!(splice(padded.clone(), vec!["X".into()]), padded);
        // a mark that is not well formed stays text, and the next one is still found
        let broken = format!("{MARK_START}x{}", mark(0));
        assert_eq!(splice(broken, vec!["X".into()]), format!("{MARK_START}xX"));
    }

    #[test]
    fn splice_keeps_the_order_across_batches() {
        let n = FILL_BATCH * 3 + 5;
        let page: String = (0..n).map(|i| format!("<{}>", mark(n - 1 - i))).collect();
        let contents: Vec<String> = (0..n).map(|i| i.to_string()).collect();
        let fill: Fill<'_> = Box::new(move |i| contents.get(i).cloned());
        let out = String::from_utf8(PrintPage { page, fill }.to_bytes()).unwrap();
        let want: String = (0..n).map(|i| format!("<{}>", n - 1 - i)).collect();
        assert_eq!(out, want);
    }
}
