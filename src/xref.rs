//! Cross-links: where a section number in the text becomes a link.
//!
//! The Markdown pass ([`crate::markdown`]) leaves a placeholder wherever text refers to a section
//! (`see 7.1.0`, `[7.0.0 Damage and Destruction](#)`, `[text](#7.1.0)`) or to another chapter file
//! (`[x](other.md#anchor)`). Once every chapter's sections are known, [`Resolver::fill`] replaces
//! the placeholders for one reader language, and [`Resolver::check`] reports the references that
//! lead nowhere. A reference to a missing section stays plain text: never a dead link.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::diag::Diagnostic;
use crate::html::escape_into;
use crate::sections::{normalize_title, SectionIndex};

/// Private-use characters frame placeholders. The loader replaces any that appear in content,
/// so they can only come from the renderer.
const START: char = '\u{E000}';
const BARE: char = '\u{E001}';
const OPEN: char = '\u{E002}';
const CLOSE: char = '\u{E003}';

#[derive(Debug, Clone, Copy)]
pub enum Mark {
    /// A bare number in text: the placeholder stands for the number itself.
    Bare,
    /// The start and end of a link's text.
    Open,
    Close,
}

/// A reference waiting for the sections to be known.
///
/// A chapter holds one per glossary term, cross-reference and anchor of its text (about
/// 800,000 at 2,000 chapters, held to the end of the build), so the rare large ones are boxed
/// and the enum stays at 32 bytes (it was 56).
#[derive(Debug, Clone)]
pub enum Pending {
    /// A section number in running text; `parts` is how many numbers it has (`7.1.0`: 3).
    Bare {
        number: String,
        parts: u32,
        line: u32,
    },
    /// A Markdown link to a section.
    Link(Box<SectionLink>),
    /// A link to another chapter's Markdown file.
    Chapter(Box<ChapterLink>),
    /// A glossary term in running text (open and close marks around it): whether it becomes a
    /// link is decided once the whole site is known (a term used everywhere is not linked).
    /// `term` is the id in the text language's [`crate::autolink::TermMatcher`].
    Term { term: u32 },
    /// Just after a numbered heading: where the sections that refer to it are listed.
    Section { number: String },
    /// An id the text gives (a heading's anchor, a footnote's), or the target of a link to one
    /// on the same page. It is the anchor itself on the chapter's own page; the print view, which
    /// puts every chapter on one page, gives it the chapter's prefix there (see
    /// [`Resolver::page_anchor`]), so that ids stay unique and in-page links keep working.
    Anchor { anchor: String },
    /// The target of a link from a glossary definition to another entry (`[turn](#turn)`):
    /// the entry's id on the glossary page, `glossary:` and the id on the print view, where
    /// the glossary's ids carry that prefix.
    Entry { anchor: String },
}

const _: () = assert!(std::mem::size_of::<Pending>() <= 32);

/// A Markdown link to a section ([`Pending::Link`]).
#[derive(Debug, Clone)]
pub struct SectionLink {
    pub number: String,
    /// The title written after the number (may be empty).
    pub quoted: String,
    pub line: usize,
}

/// A link to another chapter's Markdown file ([`Pending::Chapter`]).
#[derive(Debug, Clone)]
pub struct ChapterLink {
    /// Absolute, resolved lexically.
    pub path: PathBuf,
    pub fragment: Option<String>,
    pub line: usize,
}

/// Where the next placeholder starts in `html`. `str::find` looks for a character by its last
/// byte, and the last byte of [`START`] (`0x80`) is also the last byte of the Ukrainian `р`:
/// the search stopped at every one of them. Its first byte (`0xEE`) starts only characters of
/// the private-use area, which no text has.
fn find_start(html: &str) -> Option<usize> {
    let mut buf = [0u8; 4];
    let start = START.encode_utf8(&mut buf).as_bytes();
    let bytes = html.as_bytes();
    let mut from = 0;
    while let Some(i) = memchr::memchr(start[0], &bytes[from..]) {
        let at = from + i;
        if bytes[at..].starts_with(start) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

pub fn placeholder(out: &mut String, index: usize, mark: Mark) {
    out.push(START);
    push_decimal(out, index);
    out.push(match mark {
        Mark::Bare => BARE,
        Mark::Open => OPEN,
        Mark::Close => CLOSE,
    });
}

/// `n` in decimal, without the formatting machinery and the String of `to_string`: a chapter
/// writes a placeholder for every link and glossary term (a quarter of a million at 200
/// chapters), and `to_string` was a third of their cost.
fn push_decimal(out: &mut String, n: usize) {
    out.push_str(itoa::Buffer::new().format(n));
}

/// How every mark the build puts into a rendered page begins ([`crate::render::CONTENT_MARK`],
/// the print view's chapter marks): a private-use character, then `rulebook:`.
pub const MARK_LEAD: &str = "\u{F8FF}rulebook:";

/// Replaces what could forge the build's placeholders and page marks in loaded text: the
/// placeholder characters, and the lead of a page mark ([`MARK_LEAD`]). Called on every file
/// of content, configuration and strings as it is read (`load::decode`): front matter lands
/// in templates next to the marks, and a forged mark there got a chapter's raw HTML spliced
/// into an attribute. A lone U+F8FF (the Apple logo in Apple's fonts) stays.
pub fn scrub(text: &str) -> std::borrow::Cow<'_, str> {
    // the placeholders encode as EE 80 80..83 in UTF-8, U+F8FF as EF A3 BF: one pass for
    // either lead byte first (neither occurs in Cyrillic or Latin text; every file read
    // passes here, and two passes of the standard library's search were 0.4 % of a build)
    if memchr::memchr2(0xEE, 0xEF, text.as_bytes()).is_none() {
        return text.into();
    }
    let placeholders = text.contains([START, BARE, OPEN, CLOSE]);
    let marks = text.contains(MARK_LEAD);
    if !placeholders && !marks {
        return text.into();
    }
    let mut out = text.replace([START, BARE, OPEN, CLOSE], "\u{FFFD}");
    if marks {
        out = out.replace(MARK_LEAD, "\u{FFFD}rulebook:");
    }
    out.into()
}

/// What the resolver knows about chapters: which exist in which language, their files, and
/// their anchors.
#[derive(Debug, Default)]
pub struct ChapterMap {
    /// (lang, id) of every chapter that exists in its own language.
    pub present: HashSet<(String, String)>,
    /// Absolute path of each chapter file → (lang, id).
    pub files: HashMap<PathBuf, (String, String)>,
    /// Anchors of each (lang, id).
    pub anchors: HashMap<(String, String), HashSet<String>>,
    /// Draft chapters left out of this build: absolute path → (lang, id). A link to one is
    /// plain text, like a link to a missing chapter, but the warning says why.
    pub drafts: HashMap<PathBuf, (String, String)>,
    /// Section numbers defined only in draft chapters → the draft's file (for messages).
    pub draft_sections: HashMap<String, PathBuf>,
}

impl ChapterMap {
    pub fn has(&self, lang: &str, id: &str) -> bool {
        self.present.contains(&(lang.to_string(), id.to_string()))
    }
}

/// The page a text is being rendered for.
#[derive(Debug, Clone, Copy)]
pub struct Page<'a> {
    /// The reader's language (the page's language, not necessarily the text's).
    pub lang: &'a str,
    /// The chapter id of the page, if it is a chapter page (for same-page links).
    pub id: Option<&'a str>,
    /// Relative path from the page to the site root.
    pub root: &'a str,
    /// Whether this is the language's print view, which holds every chapter: links to any
    /// chapter of `lang` stay on the page, and `id` names the chapter being filled (or the
    /// glossary entry), whose anchors get it as a prefix.
    pub print: bool,
}

impl Page<'_> {
    /// The address of `lang`'s page of chapter `id` (with `fragment`, `#…` or empty), from this
    /// page. A page one folder below its own language's folder (a chapter page, the glossary,
    /// the tooltips shown on them) reaches the chapters of its language as `../id/`, not
    /// `../../lang/id/`: pages carry dozens of such links. Links into another language keep
    /// the full form, and the side-by-side view resolves the other column's links against the
    /// page they were written for.
    pub fn chapter_href(&self, lang: &str, id: &str, fragment: &str) -> String {
        if self.is_sibling(lang) {
            format!("../{id}/{fragment}")
        } else {
            format!("{}{lang}/{id}/{fragment}", self.root)
        }
    }

    /// Whether a chapter of `lang` sits next to this page (`../id/`).
    fn is_sibling(&self, lang: &str) -> bool {
        lang == self.lang && self.root == crate::site::PAGE_ROOT
    }

    /// [`Page::chapter_href`] without a fragment, HTML-escaped into `out`.
    pub fn chapter_href_into(&self, lang: &str, id: &str, out: &mut String) {
        if self.is_sibling(lang) {
            out.push_str("../");
        } else {
            escape_into(self.root, out);
            escape_into(lang, out);
            out.push('/');
        }
        escape_into(id, out);
        out.push('/');
    }
}

pub struct Resolver<'a> {
    pub sections: &'a SectionIndex,
    pub chapters: &'a ChapterMap,
    /// Languages in site order.
    pub languages: &'a [String],
}

impl Resolver<'_> {
    /// The (language, chapter id) page where a reader of `lang` finds section `number`: the
    /// reader's own language when the section is translated there; otherwise, if the chapter is
    /// translated but lacks that section, the other language's page; otherwise the reader's
    /// language's copy of the untranslated chapter (published with the original text).
    pub fn section_page<'s>(&'s self, lang: &'s str, number: &str) -> Option<(&'s str, &'s str)> {
        let (def_lang, chapter) = self.sections.place(lang, number)?;
        if def_lang == lang || !self.chapters.has(lang, chapter) {
            Some((lang, chapter))
        } else {
            Some((def_lang, chapter))
        }
    }

    /// The address of section `number` for `page`, HTML-escaped, written straight into `out`:
    /// every cross-reference of every page comes here (twice, with the print view), and the
    /// strings built in between were 1 % of a build's instructions. Returns false, having
    /// written nothing, when no chapter has the section.
    pub fn section_href_into(&self, page: Page<'_>, number: &str, out: &mut String) -> bool {
        let Some((lang, id)) = self.section_page(page.lang, number) else {
            return false;
        };
        // On the print view a number keeps its own id where it lands (see `print_anchor`), and
        // where it lands is just what `section_page` found: no second lookup.
        if !(lang == page.lang && (page.print || Some(id) == page.id)) {
            page.chapter_href_into(lang, id, out);
        }
        out.push('#');
        escape_into(number, out);
        true
    }

    fn chapter_url(&self, page: Page<'_>, path: &Path, fragment: Option<&str>) -> Option<String> {
        let (file_lang, id) = self.chapters.files.get(path)?;
        // `a.md#7.1.0` goes where `7.1.0` goes (the original's page when the reader's
        // translation lacks the section); another anchor the reader's page lacks (a heading's
        // own words, which differ by language) is the file's own page's
        if let Some(f) = fragment {
            let mut out = String::new();
            if crate::sections::split_heading_number(f).is_some_and(|(_, rest)| rest.is_empty())
                && self.section_href_into(page, f, &mut out)
            {
                return Some(out);
            }
            let key = (page.lang.to_string(), id.clone());
            let here = self
                .chapters
                .anchors
                .get(&key)
                .is_some_and(|a| a.contains(f));
            if !here && file_lang != page.lang && self.chapters.has(page.lang, id) {
                return Some(page.chapter_href(file_lang, id, &format!("#{f}")));
            }
        }
        if page.print {
            // every chapter is on the print view: its wrapper carries the chapter's id
            return Some(match fragment {
                Some(f) => format!("#{}", self.print_anchor(page.lang, id, f)),
                None => format!("#{id}"),
            });
        }
        let frag = fragment.map(|f| format!("#{f}")).unwrap_or_default();
        if Some(id.as_str()) == page.id {
            return Some(if frag.is_empty() {
                "#".to_string()
            } else {
                frag
            });
        }
        // every chapter is published in every language, so the reader's language always has it
        Some(page.chapter_href(page.lang, id, &frag))
    }

    /// The id that anchor `anchor` of chapter `chapter` has on `lang`'s print view. A section
    /// number keeps its own id (so `print/#7.1.0` works like `combat/#7.1.0`) where it is the
    /// section a link to that number lands on; every other anchor, and a number that another
    /// chapter on the page owns (an untranslated chapter shown in the original language may
    /// repeat one), becomes `chapter:anchor`. Chapter ids hold only letters, digits, `-` and
    /// `_`, and numbers only digits and dots, so no two ids on the page can be the same.
    pub fn print_anchor<'s>(
        &self,
        lang: &str,
        chapter: &str,
        anchor: &'s str,
    ) -> std::borrow::Cow<'s, str> {
        match self.section_page(lang, anchor) {
            Some((l, id)) if l == lang && id == chapter => anchor.into(),
            _ => format!("{chapter}:{anchor}").into(),
        }
    }

    /// The id of a text's own anchor on `page`: itself, or on the print view, prefixed (see
    /// [`Self::print_anchor`]).
    pub fn page_anchor<'s>(&self, page: Page<'_>, anchor: &'s str) -> std::borrow::Cow<'s, str> {
        match (page.print, page.id) {
            (true, Some(id)) => self.print_anchor(page.lang, id, anchor),
            _ => anchor.into(),
        }
    }

    /// Fills the placeholders of `html` for one page.
    pub fn fill(&self, html: &str, pending: &[Pending], page: Page<'_>) -> String {
        self.fill_with(html, pending, page, &mut |_, _, _| {})
    }

    /// [`Self::fill`], with `extra` writing the placeholders that are not cross-references
    /// ([`Pending::Term`], [`Pending::Section`]): those need the reading aids of the whole site.
    pub fn fill_with(
        &self,
        html: &str,
        pending: &[Pending],
        page: Page<'_>,
        extra: &mut dyn FnMut(&Pending, Mark, &mut String),
    ) -> String {
        let Some(first) = find_start(html) else {
            return html.to_string();
        };
        let mut out = String::with_capacity(html.len() + pending.len() * 48);
        let mut rest = html;
        let mut next = Some(first);
        // The placeholder whose opening tag was written: its closing mark needs no second
        // lookup of the section (a miss in a table of every section, at 2,000 chapters).
        let mut opened = usize::MAX;
        while let Some(pos) = next {
            out.push_str(&rest[..pos]);
            let after = &rest[pos + START.len_utf8()..];
            let digits = after.bytes().take_while(u8::is_ascii_digit).count();
            let idx: usize = after[..digits].parse().unwrap_or(usize::MAX);
            let mark = after[digits..].chars().next();
            rest = &after[digits + mark.map_or(0, char::len_utf8)..];
            let Some(p) = pending.get(idx) else {
                next = find_start(rest);
                continue;
            };
            match (mark, p) {
                (Some(BARE), Pending::Bare { number, .. }) => {
                    let before = out.len();
                    out.push_str("<a class=\"xref\" href=\"");
                    if self.section_href_into(page, number, &mut out) {
                        out.push_str("\">");
                        escape_into(number, &mut out);
                        out.push_str("</a>");
                    } else {
                        out.truncate(before);
                        escape_into(number, &mut out);
                    }
                }
                (Some(OPEN), Pending::Link(l)) => {
                    let before = out.len();
                    out.push_str("<a class=\"xref\" href=\"");
                    if self.section_href_into(page, &l.number, &mut out) {
                        out.push_str("\">");
                        opened = idx;
                    } else {
                        out.truncate(before);
                    }
                }
                (Some(OPEN), Pending::Chapter(c)) => {
                    if let Some(url) = self.chapter_url(page, &c.path, c.fragment.as_deref()) {
                        out.push_str("<a href=\"");
                        escape_into(&url, &mut out);
                        out.push_str("\">");
                        opened = idx;
                    }
                }
                (Some(CLOSE), Pending::Link(_) | Pending::Chapter(_)) if opened == idx => {
                    out.push_str("</a>")
                }
                (Some(BARE), Pending::Anchor { anchor }) => {
                    escape_into(&self.page_anchor(page, anchor), &mut out);
                }
                (Some(BARE), Pending::Entry { anchor }) => {
                    if page.print {
                        out.push_str("glossary:");
                    }
                    escape_into(anchor, &mut out);
                }
                (
                    Some(m @ (OPEN | CLOSE | BARE)),
                    p @ (Pending::Term { .. } | Pending::Section { .. }),
                ) => {
                    let m = match m {
                        OPEN => Mark::Open,
                        CLOSE => Mark::Close,
                        _ => Mark::Bare,
                    };
                    extra(p, m, &mut out);
                }
                _ => {}
            }
            next = find_start(rest);
        }
        out.push_str(rest);
        out
    }

    /// Reports references that lead nowhere, once per source text (not once per reader).
    ///
    /// A bare number with two parts (`2.5`) is only a reference when such a section exists, so a
    /// missing one is not reported: prose is full of decimals. Three or more parts, or any
    /// number in a link, is clearly meant as a section.
    pub fn check(
        &self,
        pending: &[Pending],
        file: &Path,
        text_lang: &str,
        site_root: &Path,
    ) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for p in pending {
            match p {
                Pending::Bare { number, parts, line } => {
                    if *parts >= 3 && !self.sections.exists(number) {
                        if let Some(d) = self.chapters.draft_sections.get(number) {
                            out.push(draft_warning(file, *line as usize, &format!("reference to section {number}"), d));
                            continue;
                        }
                        out.push(Diagnostic::warning("broken-ref", file, *line as usize, format!("reference to section {number}, which no chapter defines; it is shown as plain text")));
                    }
                }
                Pending::Link(l) => match self.sections.get(text_lang, &l.number).or_else(|| self.sections.resolve(text_lang, &l.number)) {
                    None => match self.chapters.draft_sections.get(&l.number) {
                        Some(d) => out.push(draft_warning(file, l.line, &format!("link to section {}", l.number), d)),
                        None => out.push(Diagnostic::warning("broken-ref", file, l.line, format!("link to section {}, which no chapter defines; it is shown as plain text", l.number))),
                    },
                    Some(def) => {
                        // a title quoted as written (nearly all) needs no normalizing
                        if !l.quoted.is_empty() && def.lang == text_lang && l.quoted != def.title && normalize_title(&l.quoted) != normalize_title(&def.title) {
                            out.push(Diagnostic::warning(
                                "ref-title",
                                file,
                                l.line,
                                format!("link quotes section {} as \"{}\", but its title is \"{}\" ({}:{})", l.number, l.quoted, def.title, def.file.display(), def.line),
                            ));
                        }
                    }
                },
                Pending::Term { .. }
                | Pending::Section { .. }
                | Pending::Anchor { .. }
                | Pending::Entry { .. } => {}
                Pending::Chapter(c) => match self.chapters.files.get(&c.path) {
                    None if self.chapters.drafts.contains_key(&c.path) => out.push(draft_warning(
                        file,
                        c.line,
                        "link to a chapter",
                        &crate::diag::display_path(&c.path, site_root),
                    )),
                    None => out.push(Diagnostic::warning(
                        "broken-link",
                        file,
                        c.line,
                        format!("link to `{}`, which is not a chapter of this site", crate::diag::display_path(&c.path, site_root).display()),
                    )),
                    Some(key) => {
                        if let Some(f) = &c.fragment {
                            if !self.chapters.anchors.get(key).is_some_and(|a| a.contains(f)) {
                                out.push(Diagnostic::warning("broken-anchor", file, c.line, format!("link to `#{f}` in chapter `{}`, which has no such anchor", key.1)));
                            }
                        }
                    }
                },
            }
        }
        out
    }
}

/// A reference into a chapter marked `draft: true`. The chapter is left out of the build, so
/// the reference is plain text; a warning rather than an error, because publishing the link
/// before the chapter is a normal step of writing one, but a reader would find nothing there.
fn draft_warning(file: &Path, line: usize, what: &str, draft: &Path) -> Diagnostic {
    Diagnostic::warning(
        "draft-ref",
        file,
        line,
        format!(
            "{what} in {}, a draft (`draft: true`) that is left out of the build; it is shown \
             as plain text until the chapter is published (remove `draft: true` there)",
            draft.display()
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scrub_leaves_no_placeholder_and_no_page_mark() {
        let mark = crate::render::CONTENT_MARK;
        assert!(
            mark.starts_with(MARK_LEAD),
            "scrub must know every mark's lead"
        );
        let forged = format!("a{mark}b{START}1{BARE}c\u{F8FF}d");
        let clean = scrub(&forged);
        assert!(!clean.contains(MARK_LEAD), "{clean}");
        assert!(!clean.contains([START, BARE, OPEN, CLOSE]), "{clean}");
        assert!(clean.contains("c\u{F8FF}d"), "a lone U+F8FF stays: {clean}");
        assert!(matches!(
            scrub("чиста ї text’s"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn decimals_are_written_as_to_string_writes_them() {
        for n in [0, 7, 9, 10, 45, 99, 100, 260_612, 1 << 40, usize::MAX] {
            let mut out = String::from("x");
            push_decimal(&mut out, n);
            assert_eq!(out, format!("x{n}"));
        }
    }
}
