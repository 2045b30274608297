//! Markdown to HTML, as a stream of pulldown-cmark events passed through small adapters.
//!
//! This is the first half of rendering and runs once per chapter: headings get their anchors,
//! symbols become icons, images are checked, and every place that refers to a section is marked
//! with a placeholder (see [`crate::xref`]). The placeholders are filled in later, once every
//! chapter's sections are known, and once per reader language: that is how an English chapter
//! published on the Ukrainian side links to Ukrainian pages without being parsed twice.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::path::{Path, PathBuf};

use pulldown_cmark::{
    CowStr, Event, HeadingLevel, LinkType, Options, Parser, Tag, TagEnd, TextMergeWithOffset,
};

use crate::autolink::TermMatcher;
use crate::diag::{Diagnostic, LineIndex};
use crate::html::{escape, escape_into, has_scheme, is_safe_url, slugify};
use crate::original::KeepOriginal;
use crate::sections::{malformed_heading_number, scan_refs, split_heading_number};
use crate::symbols::Symbols;
use crate::xref::{placeholder, ChapterLink, Mark, Pending, SectionLink};

/// At most this many glossary terms are linked in one section: past that, links stop helping
/// and start making the text hard to read.
const MAX_TERMS_PER_SECTION: usize = 6;

pub fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_HEADING_ATTRIBUTES
}

/// A heading of a chapter, with the anchor it got.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Heading {
    pub level: u8,
    pub anchor: String,
    /// The id a numbered heading was given (`## 7.1.0 Discarding {#discarding}`): an anchor
    /// of its own beside the number, which stays the section's id.
    pub also: Option<String>,
    pub number: Option<String>,
    /// Title without the number, as plain text.
    pub title: String,
    pub line: usize,
}

/// Plain text of one stretch of a chapter (the part before the first heading, or one heading's
/// section up to the next heading). Feeds search, previews and exports.
#[derive(Debug, Clone, Default)]
pub struct Block {
    /// Index into `Prepared::headings`, `None` for the chapter's opening text.
    pub heading: Option<usize>,
    pub text: String,
    /// Where the first paragraph with text is in `text`, trimmed (empty when there is none).
    /// A range, not a copy: the copies were 56 MB of the 2,000-chapter build's memory.
    pub first_paragraph_at: std::ops::Range<usize>,
}

impl Block {
    /// The first paragraph only, for previews.
    pub fn first_paragraph(&self) -> &str {
        self.text.get(self.first_paragraph_at.clone()).unwrap_or("")
    }

    /// Takes the text from `at` to the end as the first paragraph, unless there is one already
    /// or it is no opening: empty, or a label such as `*Source:*[^30]`, which the Rules
    /// Reference puts first in each chapter (previews of its chapters said only "Source:").
    fn set_opening(&mut self, at: usize) {
        let Some(para) = self.text.get(at..) else {
            return;
        };
        let trimmed = para.trim();
        let label = trimmed.ends_with(':') && trimmed.split_whitespace().count() <= 2;
        // a paragraph wholly in brackets is an aside, an editor's note on the text (the
        // default content's "(The English original of this section is not part of the
        // source text; …)"), not what the section says
        let aside = trimmed.starts_with('(') && trimmed.ends_with(')');
        if self.first_paragraph_at.is_empty() && !trimmed.is_empty() && !label && !aside {
            let start = at + (para.len() - para.trim_start().len());
            self.first_paragraph_at = start..start + trimmed.len();
        }
    }
}

/// An image that exists and must be copied into the output.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ImageCopy {
    pub from: PathBuf,
    /// Path below the output's `media/` folder.
    pub to: String,
}

/// The result of the first rendering pass of one Markdown text.
#[derive(Debug, Default)]
pub struct Prepared {
    pub html: String,
    pub pending: Vec<Pending>,
    pub headings: Vec<Heading>,
    pub blocks: Vec<Block>,
    pub images: Vec<ImageCopy>,
    /// Paragraphs and list items marked as still in the original language: a chapter that
    /// has any is translated in part (the contents page says so).
    pub untranslated: usize,
    /// Paragraphs and list items with text, of which `untranslated` are still in the original.
    pub text_blocks: usize,
    pub diags: Vec<Diagnostic>,
}

impl Prepared {
    /// Whether some paragraph or list item is still in the original language.
    pub fn untranslated_in_part(&self) -> bool {
        self.untranslated > 0
    }

    /// Whether every paragraph and list item is still in the original language.
    pub fn all_original(&self) -> bool {
        self.untranslated > 0 && self.untranslated >= self.text_blocks
    }

    pub fn anchors(&self) -> impl Iterator<Item = &str> {
        (self.headings.iter())
            .flat_map(|h| std::iter::once(h.anchor.as_str()).chain(h.also.as_deref()))
    }
}

/// What the renderer needs to know about where the text comes from.
pub struct Source<'a> {
    /// File shown in messages (relative to the site root).
    pub file: &'a Path,
    /// Line of the text's first line in that file.
    pub first_line: usize,
    /// Folder that relative image paths start from.
    pub dir: &'a Path,
    /// The site root (images must stay inside it) and the `content/` folder (images are copied
    /// to the output relative to it).
    pub site_root: &'a Path,
    /// Relative path from a page to the site root (`../../` for chapter pages).
    pub root: &'a str,
    pub safe: bool,
    /// Anchors already used on the page (a heading may not reuse the id of the page's h1 or
    /// of the theme; a glossary definition may link to the other entries), sorted: looked up,
    /// never copied, as a glossary gives each of its thousands of definitions all its ids.
    pub reserved_anchors: &'a [String],
    /// Whether headings are part of the page outline (chapters) or just text (glossary entries,
    /// where a `#` line is rare and gets no section semantics).
    pub sections: bool,
}

impl Source<'_> {
    /// Whether `anchor` is one of the page's reserved anchors (a lookup in the sorted list).
    fn reserves(&self, anchor: &str) -> bool {
        (self.reserved_anchors)
            .binary_search_by(|a| a.as_str().cmp(anchor))
            .is_ok()
    }
}

/// The reading aids the Markdown pass adds to a chapter: glossary terms (first use per section)
/// and paragraphs left in another script than the chapter's.
#[derive(Clone, Copy, Default)]
pub struct Aids<'a> {
    /// The text language's glossary terms.
    pub terms: Option<&'a TermMatcher>,
    /// When the text's language is not written in Latin letters: the site's language that is,
    /// so a paragraph of Latin letters only is marked as not yet translated from it.
    pub latin_lang: Option<&'a str>,
}

/// The letters of a stretch of text by script, and where its element starts in the event
/// buffer: a paragraph, list item or heading all in Latin letters in a Cyrillic chapter is
/// still in the original language.
#[derive(Default)]
struct Letters {
    at: usize,
    latin: usize,
    /// A letter of another script was met (counting stops there).
    other: bool,
}

impl Letters {
    fn at(at: usize) -> Letters {
        Letters {
            at,
            ..Letters::default()
        }
    }

    fn add(&mut self, t: &str) {
        if self.other {
            return;
        }
        for c in t.chars() {
            if c.is_ascii_alphabetic() {
                self.latin += 1;
            } else if !c.is_ascii() && c.is_alphabetic() {
                self.other = true;
                break;
            }
        }
    }

    /// Text in some language: a letter of another script, or enough Latin ones.
    fn has_text(&self) -> bool {
        self.other || self.latin >= UNTRANSLATED_LETTERS
    }

    /// Enough Latin letters, and no other: text, not a name or a number.
    fn all_latin(&self) -> bool {
        self.latin >= UNTRANSLATED_LETTERS && !self.other
    }
}

/// A list item being read: see `State::items`.
struct ItemText {
    letters: Letters,
    /// It holds paragraphs (a loose list): they are marked, not the item.
    paragraphs: bool,
    /// It holds a list, a quote or code, whose language is not its own text's.
    blocks: bool,
    /// A marker in its own text, before a nested list (see [`KeepOriginal::take_inline`]).
    kept: bool,
    /// Where its text starts in the block's text: a tight item is the section's opening for
    /// a preview when no paragraph came before it (a section that starts with a list).
    text_at: usize,
}

/// Letters of Latin script an untranslated paragraph or list item has at least: fewer are a
/// name or a number, not text left to translate.
const UNTRANSLATED_LETTERS: usize = 12;

struct State<'s> {
    src: &'s Source<'s>,
    /// The Markdown, for the footnotes' ids (see [`State::reserve_footnote_ids`]).
    markdown: &'s str,
    footnotes_reserved: bool,
    aids: Aids<'s>,
    /// Terms already met in the current section (only the first use becomes a link).
    linked: HashSet<u32>,
    /// The open paragraph's letters by script.
    para: Option<Letters>,
    /// Text marked to stay in the original language is not marked as untranslated.
    keep: KeepOriginal,
    /// The list items open, innermost last: where each starts in the event buffer and its own
    /// letters by script (a tight item's text is in no paragraph).
    items: Vec<ItemText>,
    symbols: &'s Symbols,
    lines: LineIndex<'s>,
    out: Prepared,
    used_anchors: HashSet<String>,
    local_links: Vec<(String, usize)>,
    /// Footnote ids in the order first met (see [`footnote_id`]).
    footnotes: Vec<String>,
    /// References met so far to each footnote: a second one gets an id of its own.
    footnote_refs: HashMap<String, usize>,
    /// Each footnote label, as Markdown matches it, → its id (see [`State::footnote_id`]).
    footnote_ids: HashMap<String, String>,
    /// The id of each footnote defined so far → the line of its definition.
    footnotes_defined: HashMap<String, usize>,
    in_code: bool,
    /// Raw HTML elements open around the text: links (`<a …>`) and code (`<code>`, `<pre>`,
    /// `<kbd>`, `<samp>`), in which no number or term is linked, as in Markdown's own.
    raw_link: usize,
    raw_code: usize,
    in_link: usize,
    in_cell: bool,
    /// Where the table cell's Markdown is: a number that is the whole of it, emphasis marks
    /// aside, is a value of the table (`1.1`), not a reference; one in words (`see **7.1.0**
    /// now`) is. Read only for a text that is a lone number (see [`State::whole_cell`]).
    cell: std::ops::Range<usize>,
    block: Block,
    /// Where the open paragraph starts in `block.text`.
    paragraph_at: usize,
    in_paragraph: bool,
    /// Inside a footnote's definition: its text is no section's opening.
    in_footnote: bool,
}

/// Renders one Markdown text. `text` is the chapter body (or a glossary definition).
pub fn prepare(text: &str, src: &Source<'_>, symbols: &Symbols) -> Prepared {
    prepare_with(text, src, symbols, Aids::default())
}

/// [`prepare`] with reading aids.
pub fn prepare_with<'s>(
    text: &'s str,
    src: &'s Source<'s>,
    symbols: &'s Symbols,
    aids: Aids<'s>,
) -> Prepared {
    let mut st = State {
        src,
        markdown: text,
        footnotes_reserved: false,
        aids,
        linked: HashSet::default(),
        para: None,
        keep: KeepOriginal::default(),
        items: Vec::new(),
        symbols,
        lines: LineIndex::new(text),
        out: Prepared::default(),
        used_anchors: HashSet::default(),
        local_links: Vec::new(),
        footnotes: Vec::new(),
        footnote_refs: HashMap::default(),
        footnote_ids: HashMap::default(),
        footnotes_defined: HashMap::default(),
        in_code: false,
        raw_link: 0,
        raw_code: 0,
        in_link: 0,
        in_cell: false,
        cell: 0..0,
        block: Block::default(),
        paragraph_at: 0,
        in_paragraph: false,
        in_footnote: false,
    };
    let parser = Parser::new_ext(text, options()).into_offset_iter();
    let mut events = TextMergeWithOffset::new(parser).peekable();
    let mut html = String::with_capacity(text.len() * 3 / 2);
    let mut buf: Vec<Event<'_>> = Vec::with_capacity(text.len() / 16);

    while let Some((event, range)) = events.next() {
        let line = st.line(range.start);
        // a start marks the text after it, an end unmarks the text after it (below)
        let ends = match &event {
            Event::End(t) => Some(*t),
            e => {
                st.keep.step(e);
                None
            }
        };
        // a raw element left open in one block (a paragraph, a cell, a tight list item) does
        // not keep the next ones unlinked
        if matches!(
            ends,
            Some(
                TagEnd::Paragraph
                    | TagEnd::TableCell
                    | TagEnd::Item
                    | TagEnd::Heading(_)
                    | TagEnd::BlockQuote(_)
                    | TagEnd::HtmlBlock
            )
        ) {
            st.raw_link = 0;
            st.raw_code = 0;
        }
        match event {
            Event::Start(Tag::Heading {
                level,
                id,
                classes,
                attrs,
            }) => {
                // Gather the whole heading: its anchor depends on its text.
                let mut inner = Vec::new();
                for (e, _) in events.by_ref() {
                    if matches!(e, Event::End(TagEnd::Heading(_))) {
                        break;
                    }
                    inner.push(e);
                }
                let mut h = String::new();
                st.heading(level, id, classes, attrs, inner, line, &mut h);
                buf.push(Event::Html(h.into()));
                // its end was taken here, not by the loop
                st.keep.step(&Event::End(TagEnd::Heading(level)));
                st.keep.unit_done();
            }
            Event::Start(Tag::Image {
                dest_url, title, ..
            }) => {
                let mut alt = String::new();
                for (e, _) in events.by_ref() {
                    match e {
                        Event::End(TagEnd::Image) => break,
                        Event::Text(t) | Event::Code(t) => alt.push_str(&t),
                        _ => {}
                    }
                }
                st.keep.step(&Event::End(TagEnd::Image));
                let img = st.image(&dest_url, &title, &alt, line);
                buf.push(Event::Html(img.into()));
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => {
                st.in_link += 1;
                let event = st.link(link_type, dest_url, title, id, line, &mut events, &mut buf);
                match event {
                    Some(e) => buf.push(e),
                    // the link was read to its end here, not by the loop
                    None => st.keep.step(&Event::End(TagEnd::Link)),
                }
            }
            Event::End(TagEnd::Link) => {
                st.in_link = st.in_link.saturating_sub(1);
                buf.push(Event::End(TagEnd::Link));
            }
            Event::Text(t) => {
                st.plain(&t);
                if st.in_code || st.in_link > 0 || st.raw_link > 0 || st.raw_code > 0 {
                    buf.push(Event::Text(t));
                } else {
                    let rendered = st.text(&t, line);
                    buf.push(Event::Html(rendered.into()));
                }
            }
            Event::Code(t) => {
                st.plain(&t);
                buf.push(Event::Code(t));
            }
            Event::Start(tag @ (Tag::List(_) | Tag::BlockQuote(_))) => {
                if let Some(item) = st.items.last_mut() {
                    item.blocks = true;
                }
                buf.push(Event::Start(tag));
            }
            Event::Start(Tag::CodeBlock(k)) => {
                if let Some(item) = st.items.last_mut() {
                    item.blocks = true;
                }
                st.in_code = true;
                buf.push(Event::Start(Tag::CodeBlock(k)));
            }
            Event::End(TagEnd::CodeBlock) => {
                st.in_code = false;
                st.block.text.push('\n');
                buf.push(Event::End(TagEnd::CodeBlock));
            }
            Event::Start(Tag::TableCell) => {
                st.in_cell = true;
                st.cell = range.clone();
                buf.push(Event::Start(Tag::TableCell));
            }
            Event::End(TagEnd::TableCell) => {
                st.in_cell = false;
                st.block.text.push(' ');
                buf.push(Event::End(TagEnd::TableCell));
            }
            Event::Start(Tag::Paragraph) => {
                if let Some(item) = st.items.last_mut() {
                    item.paragraphs = true;
                }
                st.in_paragraph = true;
                st.paragraph_at = st.block.text.len();
                st.para = Some(Letters::at(buf.len()));
                buf.push(Event::Start(Tag::Paragraph));
            }
            Event::End(TagEnd::Paragraph) => {
                st.end_paragraph();
                if let (Some(para), Some(lang)) = (st.para.take(), st.aids.latin_lang) {
                    st.out.text_blocks += usize::from(para.has_text());
                    // a whole paragraph of Latin letters in a Cyrillic chapter is still in the
                    // original language: say so (lang for screen readers, class for the eye)
                    if para.all_latin() {
                        // text kept in the original on purpose keeps its language only
                        let untranslated = !st.keep.active();
                        st.out.untranslated += usize::from(untranslated);
                        buf[para.at] =
                            Event::Html(latin_open("p", "untr", untranslated, lang).into());
                    }
                }
                buf.push(Event::End(TagEnd::Paragraph));
            }
            Event::Start(Tag::Item) => {
                // a marker in the parent item's own text is the parent's, not this one's
                if let Some(parent) = st.items.last_mut() {
                    parent.kept |= st.keep.take_inline();
                }
                st.items.push(ItemText {
                    letters: Letters::at(buf.len()),
                    paragraphs: false,
                    blocks: false,
                    kept: false,
                    text_at: st.block.text.len(),
                });
                buf.push(Event::Start(Tag::Item));
            }
            Event::End(TagEnd::Item) => {
                if let Some(item) = st.items.last().filter(|i| !i.paragraphs && !st.in_footnote) {
                    st.block.set_opening(item.text_at);
                }
                st.block.text.push('\n');
                let item = st.items.pop();
                if let (Some(item), Some(lang)) = (item, st.aids.latin_lang) {
                    // a list item of Latin letters only, as a paragraph: its language for
                    // screen readers, a class for the eye (no note: it would sit in the list).
                    // Not one that holds a list, a quote or code: its language would be theirs.
                    if !item.paragraphs && !item.blocks {
                        st.out.text_blocks += usize::from(item.letters.has_text());
                    }
                    if !item.paragraphs && !item.blocks && item.letters.all_latin() {
                        let untranslated = !(item.kept || st.keep.active());
                        st.out.untranslated += usize::from(untranslated);
                        buf[item.letters.at] =
                            Event::Html(latin_open("li", "untr-item", untranslated, lang).into());
                    }
                }
                buf.push(Event::End(TagEnd::Item));
            }
            Event::SoftBreak | Event::HardBreak => {
                st.plain(" ");
                buf.push(event);
            }
            Event::Html(h) | Event::InlineHtml(h) => {
                // dropped in safe mode, where the text between is text like any other
                if !st.src.safe {
                    let (links, code) = raw_tags(&h);
                    st.raw_link = st.raw_link.saturating_add_signed(links);
                    st.raw_code = st.raw_code.saturating_add_signed(code);
                    buf.push(Event::Html(h));
                }
            }
            Event::FootnoteReference(label) => {
                let h = st.footnote_ref(&label);
                buf.push(Event::Html(h.into()));
            }
            Event::Start(Tag::FootnoteDefinition(label)) => {
                st.in_footnote = true;
                let n = st.footnote_number(&label);
                let id = st.footnote_id(&label);
                let mut h = String::from("<div class=\"footnote\"");
                // A label defined twice: the references go to the first definition, and the
                // second keeps no id, or the page would have two elements of one id.
                if let Some(&first) = st.footnotes_defined.get(&id) {
                    st.out.diags.push(Diagnostic::warning(
                        "footnote",
                        st.src.file,
                        line,
                        format!("footnote `[^{label}]` is defined a second time (first on line {first}); its references go to the first, so remove or rename one"),
                    ));
                } else {
                    st.footnotes_defined.insert(id.clone(), line);
                    st.used_anchors.insert(format!("fn-{id}"));
                    h.push_str(" id=\"");
                    st.anchor(&format!("fn-{id}"), &mut h);
                    h.push('"');
                }
                h.push_str(" role=\"doc-footnote\"><a class=\"fn-back\" href=\"#");
                st.anchor(&format!("fnref-{id}"), &mut h);
                h.push_str(&format!("\">{n}</a>"));
                buf.push(Event::Html(h.into()));
            }
            Event::End(TagEnd::FootnoteDefinition) => {
                st.in_footnote = false;
                buf.push(Event::Html("</div>\n".into()))
            }
            other => buf.push(other),
        }
        if let Some(t) = ends {
            st.keep.step(&Event::End(t));
            if matches!(
                t,
                TagEnd::Paragraph | TagEnd::Item | TagEnd::TableCell | TagEnd::Heading(_)
            ) {
                st.keep.unit_done();
            }
        }
    }
    // One writer for the whole text: the HTML writer keeps state (a table's head or body)
    // across events, so the stream must not be written in pieces.
    pulldown_cmark::html::push_html(&mut html, buf.into_iter());
    st.end_paragraph();
    st.finish_block();
    let State {
        mut out,
        local_links,
        used_anchors,
        footnotes,
        src,
        ..
    } = st;
    for (target, line) in local_links {
        let known = used_anchors.contains(&target)
            || src.reserves(&target)
            || footnotes
                .iter()
                .any(|f| target == format!("fn-{f}") || target == format!("fnref-{f}"));
        if !known {
            out.diags.push(Diagnostic::warning(
                "broken-anchor",
                src.file,
                line,
                format!("link to `#{target}`, which is not an anchor on this page"),
            ));
        }
    }
    // kept to the end of the build, as are the placeholders: no room to spare
    html.shrink_to_fit();
    out.html = html;
    out.pending.shrink_to_fit();
    out
}

/// The opening tag of an element of text in the Latin-script language `lang`: with the class
/// that marks it as not translated yet when it is so (not for text kept so on purpose).
fn latin_open(tag: &str, class: &str, untranslated: bool, lang: &str) -> String {
    let mut open = format!("<{tag}");
    if untranslated {
        open.push_str(" class=\"");
        open.push_str(class);
        open.push('"');
    }
    open.push_str(" lang=\"");
    escape_into(lang, &mut open);
    open.push_str("\">");
    open
}

impl<'s> State<'s> {
    fn line(&self, offset: usize) -> usize {
        self.lines.line(offset) + self.src.first_line - 1
    }

    fn plain(&mut self, t: &str) {
        if self.aids.latin_lang.is_some() {
            if let Some(para) = &mut self.para {
                para.add(t);
            } else if let Some(item) = self.items.last_mut() {
                // a tight item's own text (a code block in it is no text to translate)
                if !self.in_code {
                    item.letters.add(t);
                }
            }
        }
        self.block.text.push_str(t);
    }

    fn end_paragraph(&mut self) {
        if std::mem::take(&mut self.in_paragraph) && !self.in_footnote {
            // everything a paragraph adds to the block's text is its own text (`plain`)
            self.block.set_opening(self.paragraph_at);
        }
        self.block.text.push('\n');
    }

    fn finish_block(&mut self) {
        let mut b = std::mem::take(&mut self.block);
        if b.heading.is_some() || !b.text.trim().is_empty() {
            // kept to the end of the build: no room to spare (a third of them was spare)
            b.text.shrink_to_fit();
            self.out.blocks.push(b);
        }
    }

    /// What a footnote shows: its own label when that is a number (a document that numbers
    /// its notes across chapters keeps its numbers), otherwise its position on the page.
    /// Where an id of this text goes, or the fragment of a link to one: a placeholder for the
    /// anchor (see [`Pending::Anchor`]).
    fn anchor(&mut self, anchor: &str, out: &mut String) {
        let idx = self.out.pending.len();
        self.out.pending.push(Pending::Anchor {
            anchor: anchor.to_string(),
        });
        placeholder(out, idx, Mark::Bare);
    }

    /// `<sup class="fnref" id="fnref-x"><a href="#fn-x" …>1</a></sup>`; a second reference to
    /// the same note is `fnref-x-2` (the note's back link goes to the first).
    fn footnote_ref(&mut self, label: &str) -> String {
        let n = self.footnote_number(label);
        let id = self.footnote_id(label);
        let seen = self.footnote_refs.entry(id.clone()).or_insert(0);
        *seen += 1;
        let own = if *seen == 1 {
            format!("fnref-{id}")
        } else {
            let own = format!("fnref-{id}-{seen}");
            self.unique_anchor(own)
        };
        let mut h = String::from("<sup class=\"fnref\" id=\"");
        self.anchor(&own, &mut h);
        h.push_str("\"><a href=\"#");
        self.anchor(&format!("fn-{id}"), &mut h);
        h.push_str(&format!("\" role=\"doc-noteref\">{n}</a></sup>"));
        h
    }

    /// The id part of a footnote's ids (`fn-<id>`, `fnref-<id>`): its label as Markdown matches
    /// it, with `-` for white space, which no id may hold; a label whose id another label has
    /// already (`a b` and `a-b`) gets the next free one (`a-b-2`).
    fn footnote_id(&mut self, label: &str) -> String {
        let label = footnote_label(label);
        if let Some(id) = self.footnote_ids.get(&label) {
            return id.clone();
        }
        let base = label.replace(' ', "-");
        let taken = |id: &str, ids: &HashMap<String, String>| ids.values().any(|v| v == id);
        let id = std::iter::once(base.clone())
            .chain((2..).map(|n| format!("{base}-{n}")))
            .find(|id| !taken(id, &self.footnote_ids))
            .unwrap_or(base);
        self.footnote_ids.insert(label, id.clone());
        id
    }

    fn footnote_number(&mut self, label: &str) -> String {
        let id = self.footnote_id(label);
        let pos = match self.footnotes.iter().position(|l| *l == id) {
            Some(i) => i + 1,
            None => {
                self.footnotes.push(id);
                self.footnotes.len()
            }
        };
        if !label.is_empty() && label.len() <= 6 && label.bytes().all(|b| b.is_ascii_digit()) {
            label.to_string()
        } else {
            pos.to_string()
        }
    }

    /// Whether the table cell being read is `number` and nothing else, emphasis marks aside.
    fn whole_cell(&self, number: &str) -> bool {
        (self.markdown.get(self.cell.clone()).unwrap_or_default())
            .trim_matches(|c: char| c.is_whitespace() || c == '|')
            .trim_matches(['*', '_', '`', '~'])
            .trim()
            == number
    }

    /// The footnotes' ids are theirs before any heading takes an id: a heading `Fn 1` above
    /// footnote 1 took `fn-1`, and the note shared it. Looked for only when a heading wants
    /// such an id (scanning every chapter for notes cost 10 M instructions at 200 chapters).
    fn reserve_footnote_ids(&mut self) {
        if std::mem::replace(&mut self.footnotes_reserved, true) {
            return;
        }
        for line in self.markdown.lines() {
            if let Some((label, _)) =
                (line.trim_start().strip_prefix("[^")).and_then(|rest| rest.split_once("]:"))
            {
                let id = self.footnote_id(label);
                self.used_anchors.insert(format!("fn-{id}"));
                self.used_anchors.insert(format!("fnref-{id}"));
            }
        }
    }

    fn unique_anchor(&mut self, wanted: String) -> String {
        if wanted.starts_with("fn") {
            self.reserve_footnote_ids();
        }
        let src = self.src;
        let mut take = |a: &String| !src.reserves(a) && self.used_anchors.insert(a.clone());
        if take(&wanted) {
            return wanted;
        }
        (1..)
            .map(|n| format!("{wanted}-{n}"))
            .find(|a| take(a))
            .unwrap_or(wanted)
    }

    #[allow(clippy::too_many_arguments)]
    fn heading(
        &mut self,
        level: HeadingLevel,
        id: Option<CowStr<'_>>,
        classes: Vec<CowStr<'_>>,
        _attrs: Vec<(CowStr<'_>, Option<CowStr<'_>>)>,
        inner: Vec<Event<'_>>,
        line: usize,
        html: &mut String,
    ) {
        let level_n = level as u8;
        let mut text = String::new();
        for e in &inner {
            match e {
                Event::Text(t) | Event::Code(t) => text.push_str(t),
                // a heading of two lines (`Attack` / `with fire` over `===`) is two words
                // there, not `Attackwith`
                Event::SoftBreak | Event::HardBreak => text.push(' '),
                _ => {}
            }
        }
        let numbered = if self.src.sections {
            split_heading_number(&text)
        } else {
            None
        };
        if numbered.is_none() && self.src.sections && malformed_heading_number(&text) {
            self.out.diags.push(Diagnostic::warning(
                "bad-section-number",
                self.src.file,
                line,
                format!("heading `{}` starts like a section number but is not one (numbers are digits separated by single dots, at most 9 digits each)", text.trim()),
            ));
        }
        let (number, title) = match &numbered {
            Some((n, rest)) => (Some(n.clone()), rest.to_string()),
            None => (None, text.trim().to_string()),
        };
        // An id of the form of a section number would take the anchor, and with it the
        // cross-references, of the section of that number: in a text with sections it is
        // not taken.
        let id = match id {
            Some(i) if self.src.sections && split_heading_number(&i).is_some() => {
                self.out.diags.push(Diagnostic::warning(
                    "heading-id",
                    self.src.file,
                    line,
                    format!("heading id `{i}` looks like a section number, which is the anchor of that section only; the id is not used (choose one with a letter in it)"),
                ));
                None
            }
            other => other,
        };
        // A numbered heading's id is its number, whatever id it was given: the number is what
        // every cross-reference, the other language and the exports lead to (a given id took
        // its place, and every link to the section was dead). The given id is kept beside it.
        let (id, also) = match (&number, id) {
            (Some(_), Some(given)) => (None, Some(given)),
            (_, given) => (given, None),
        };
        let also = also.map(|given| {
            let got = self.unique_anchor(given.to_string());
            if got != given.as_ref() {
                self.out.diags.push(Diagnostic::warning(
                    "heading-id",
                    self.src.file,
                    line,
                    format!("heading id `{given}` is already used on this page (by an earlier heading or by the theme); this heading gets `{got}`"),
                ));
            }
            got
        });
        let wanted = match (&id, &number) {
            (Some(id), _) => id.to_string(),
            (None, Some(n)) => n.clone(),
            (None, None) => slugify(&title),
        };
        let anchor = if number.is_some() && id.is_none() {
            // a section anchor is the number itself, never suffixed: duplicates are reported
            // by the resolver with both places named
            self.used_anchors.insert(wanted.clone());
            wanted
        } else {
            let got = self.unique_anchor(wanted.clone());
            if id.is_some() && got != wanted {
                // a slug is renamed quietly (two headings of the same title are normal); an
                // id was chosen, and links written to it would go elsewhere
                self.out.diags.push(Diagnostic::warning(
                    "heading-id",
                    self.src.file,
                    line,
                    format!("heading id `{wanted}` is already used on this page (by an earlier heading or by the theme); this heading gets `{got}`"),
                ));
            }
            got
        };
        if self.src.sections {
            self.end_paragraph();
            self.finish_block();
            self.block.heading = Some(self.out.headings.len());
            self.linked.clear();
        }
        self.out.headings.push(Heading {
            level: level_n,
            anchor: anchor.clone(),
            also: also.clone(),
            number: number.clone(),
            title,
            line,
        });

        let tag = format!("h{level_n}");
        if let Some(a) = &also {
            // before the heading, so a link to it shows the heading as `#7.1.0` does
            html.push_str("<span id=\"");
            self.anchor(a, html);
            html.push_str("\"></span>");
        }
        html.push('<');
        html.push_str(&tag);
        html.push_str(" id=\"");
        self.anchor(&anchor, html);
        html.push('"');
        if !classes.is_empty() {
            html.push_str(" class=\"");
            escape_into(
                &classes
                    .iter()
                    .map(|c| c.as_ref())
                    .collect::<Vec<_>>()
                    .join(" "),
                html,
            );
            html.push('"');
        }
        // a heading in the original language (still, or kept so on purpose): its language,
        // for screen readers
        if let Some(lang) = self.aids.latin_lang {
            let mut letters = Letters::default();
            letters.add(&text);
            if letters.all_latin() {
                html.push_str(" lang=\"");
                escape_into(lang, html);
                html.push('"');
            }
        }
        html.push('>');
        // The heading's own number is shown as a label, never linked.
        let mut events: Vec<Event<'_>> = Vec::with_capacity(inner.len() + 2);
        let mut number_left = number.as_deref().map(|n| n.len());
        // what each link of the heading became, so its end goes with it: kept, a chapter
        // link's closing placeholder, or dropped (an unsafe address, or none: `[7.9.9](#)`,
        // which in a heading is only text; its start dropped and its end kept left a stray
        // `</a>`)
        let mut links: Vec<Option<String>> = Vec::new();
        for e in inner {
            match e {
                Event::Text(t) if number_left.is_some() => {
                    let n = number_left.take().unwrap_or(0);
                    let lead = t.len() - t.trim_start().len();
                    let split = (lead + n).min(t.len());
                    if t.is_char_boundary(split) {
                        let rest = t[split..].trim_start_matches('.');
                        events.push(Event::Html(
                            format!("<span class=\"secnum\">{}</span> ", escape(&t[lead..split]))
                                .into(),
                        ));
                        events.push(Event::Html(self.symbols_only(rest.trim_start()).into()));
                    } else {
                        events.push(Event::Text(t));
                    }
                }
                Event::Text(t) => events.push(Event::Html(self.symbols_only(&t).into())),
                Event::FootnoteReference(label) => {
                    let h = self.footnote_ref(&label);
                    events.push(Event::Html(h.into()));
                }
                Event::Html(h) | Event::InlineHtml(h) => {
                    if !self.src.safe {
                        events.push(Event::InlineHtml(h));
                    }
                }
                Event::Start(Tag::Link {
                    link_type,
                    dest_url,
                    title,
                    id,
                }) => {
                    let d = dest_url.trim();
                    if d.is_empty() || d == "#" || !is_safe_url(d, false) {
                        links.push(None);
                    } else if let Some((open, close)) = self.chapter_link(d, line) {
                        events.push(Event::Html(open.into()));
                        links.push(Some(close));
                    } else {
                        let dest_url = self.site_address(dest_url);
                        events.push(Event::Start(Tag::Link {
                            link_type,
                            dest_url,
                            title,
                            id,
                        }));
                        links.push(Some(String::new()));
                    }
                }
                Event::End(TagEnd::Link) => match links.pop() {
                    Some(Some(close)) if !close.is_empty() => {
                        events.push(Event::Html(close.into()))
                    }
                    Some(Some(_)) | None => events.push(Event::End(TagEnd::Link)),
                    Some(None) => {}
                },
                Event::Start(Tag::Image { .. }) | Event::End(TagEnd::Image) => {}
                other => events.push(other),
            }
        }
        pulldown_cmark::html::push_html(html, events.into_iter());
        if self.src.sections {
            html.push_str("<a class=\"permalink\" href=\"#");
            self.anchor(&anchor, html);
            html.push_str("\" aria-hidden=\"true\" tabindex=\"-1\">#</a>");
        }
        html.push_str("</");
        html.push_str(&tag);
        html.push_str(">\n");
        if let (true, Some(n)) = (self.src.sections, number) {
            let idx = self.out.pending.len();
            self.out.pending.push(Pending::Section { number: n });
            placeholder(html, idx, Mark::Bare);
        }
    }

    /// Text inside a heading: symbols yes, section links no.
    fn symbols_only(&self, t: &str) -> String {
        let mut out = String::with_capacity(t.len());
        self.symbols.render_into(t, self.src.root, &mut out);
        out
    }

    /// Body text: escape it, turn symbols into icons and bare section numbers into placeholders.
    fn text(&mut self, t: &str, line: usize) -> String {
        if t.contains(':') {
            for (at, written, near) in self.symbols.misspelled(t) {
                self.out.diags.push(Diagnostic::warning(
                    "unknown-symbol",
                    self.src.file,
                    line + t[..at].matches('\n').count(),
                    format!("`{written}` is no symbol the theme has; did you mean `:{near}:`? (it is shown as text)"),
                ));
            }
        }
        let refs = scan_refs(t);
        let whole_cell = self.in_cell
            && refs.len() == 1
            && t.trim() == refs[0].number
            && self.whole_cell(&refs[0].number);
        let mut out = String::with_capacity(t.len() + 16);
        let mut last = 0;
        // a section that has linked its share of terms needs no search for more: on a text
        // that names a term in almost every phrase, most paragraphs come after that point
        let mut hits = match self.aids.terms {
            Some(m) if self.linked.len() < MAX_TERMS_PER_SECTION => m.find_cached(t),
            _ => Vec::new(),
        };
        // a symbol's name is no word of the text (`:exhaust:` in a table of symbols)
        if !hits.is_empty() && t.contains(':') {
            let spans = self.symbols.spans(t);
            hits.retain(|h| !spans.iter().any(|s| h.start < s.end && s.start < h.end));
        }
        hits.retain(|h| self.linked.len() < MAX_TERMS_PER_SECTION && self.linked.insert(h.term));
        let mut hits = hits.into_iter().peekable();
        // lines are counted incrementally: a 10 MB line with a million references must not
        // rescan the text from its start for each one
        let mut line = line;
        let mut counted = 0;
        if !whole_cell {
            for m in refs {
                while let Some(h) = hits.next_if(|h| h.start < m.start) {
                    if h.end > m.start {
                        continue; // a term never swallows a section number
                    }
                    last = self.term(t, last, h, &mut out);
                }
                self.symbols
                    .render_into(&t[last..m.start], self.src.root, &mut out);
                line += t[counted..m.start].matches('\n').count();
                counted = m.end;
                let idx = self.out.pending.len();
                // a content file is at most 16 MiB: its counts fit in 32 bits
                self.out.pending.push(Pending::Bare {
                    number: m.number.clone(),
                    parts: m.parts as u32,
                    line: line as u32,
                });
                placeholder(&mut out, idx, Mark::Bare);
                line += t[m.start..m.end].matches('\n').count();
                last = m.end;
            }
        }
        for h in hits {
            if h.start >= last {
                last = self.term(t, last, h, &mut out);
            }
        }
        self.symbols
            .render_into(&t[last..], self.src.root, &mut out);
        out
    }

    /// Writes the text before a glossary term and the term between its placeholders; returns
    /// where the text goes on.
    fn term(&mut self, t: &str, last: usize, h: crate::autolink::Hit, out: &mut String) -> usize {
        self.symbols
            .render_into(&t[last..h.start], self.src.root, out);
        let idx = self.out.pending.len();
        self.out.pending.push(Pending::Term { term: h.term });
        placeholder(out, idx, Mark::Open);
        self.symbols
            .render_into(&t[h.start..h.end], self.src.root, out);
        placeholder(out, idx, Mark::Close);
        h.end
    }

    #[allow(clippy::too_many_arguments)]
    fn link<'a, I>(
        &mut self,
        link_type: LinkType,
        dest: CowStr<'a>,
        title: CowStr<'a>,
        id: CowStr<'a>,
        line: usize,
        events: &mut std::iter::Peekable<I>,
        buf: &mut Vec<Event<'a>>,
    ) -> Option<Event<'a>>
    where
        I: Iterator<Item = (Event<'a>, std::ops::Range<usize>)>,
    {
        let d = dest.trim();
        // `[7.0.0 Damage and Destruction](#)`: the Rules Reference's way of writing a cross-link.
        if d.is_empty() || d == "#" {
            let lead = match events.peek() {
                Some((Event::Text(t), _)) => Some(t.to_string()),
                _ => None,
            };
            if let Some((number, rest)) = lead.as_deref().and_then(split_heading_number) {
                // the quoted title is the rest of the link text (all of it, up to the link's
                // end), with the space before an emphasis (`Playing *Ready*`) and a line break
                // as the words' space: they ran together, and the title was said to differ
                let lead = lead.as_deref().unwrap_or_default().trim_start();
                let after = lead.get(number.len()..).unwrap_or(rest);
                let mut quoted = after
                    .strip_prefix('.')
                    .unwrap_or(after)
                    .trim_start()
                    .to_string();
                let mut depth = 0;
                let mut first = true;
                let mut inner = Vec::new();
                for (e, r) in events.by_ref() {
                    match &e {
                        Event::Start(Tag::Link { .. }) => depth += 1,
                        Event::End(TagEnd::Link) if depth == 0 => {
                            inner.push((e, r));
                            break;
                        }
                        Event::End(TagEnd::Link) => depth -= 1,
                        Event::Text(t) | Event::Code(t) if !first => quoted.push_str(t),
                        Event::SoftBreak | Event::HardBreak => quoted.push(' '),
                        _ => {}
                    }
                    first = false;
                    inner.push((e, r));
                }
                let idx = self.out.pending.len();
                self.out.pending.push(Pending::Link(Box::new(SectionLink {
                    number: number.clone(),
                    quoted: quoted.trim().to_string(),
                    line,
                })));
                let mut open = String::new();
                placeholder(&mut open, idx, Mark::Open);
                buf.push(Event::Html(open.into()));
                let closed = matches!(inner.last(), Some((Event::End(TagEnd::Link), _)));
                let inner = inner
                    .into_iter()
                    .map(|(e, _)| e)
                    .filter(|e| !matches!(e, Event::End(TagEnd::Link)));
                self.link_text(inner, line, buf);
                if closed {
                    self.in_link = self.in_link.saturating_sub(1);
                    let mut close = String::new();
                    placeholder(&mut close, idx, Mark::Close);
                    buf.push(Event::Html(close.into()));
                }
                return None;
            }
            self.out.diags.push(Diagnostic::warning(
                "empty-link",
                self.src.file,
                line,
                "link has no target; its text is shown without a link (write a section number first to link a section)",
            ));
            self.in_link = self.in_link.saturating_sub(1);
            skip_to_link_end(events, buf, self, line);
            return None;
        }
        if let Some(frag) = d.strip_prefix('#') {
            if let Some((number, rest)) = split_heading_number(frag) {
                if rest.is_empty() {
                    let idx = self.out.pending.len();
                    self.out.pending.push(Pending::Link(Box::new(SectionLink {
                        number,
                        quoted: String::new(),
                        line,
                    })));
                    let mut open = String::new();
                    placeholder(&mut open, idx, Mark::Open);
                    let mut close = String::new();
                    placeholder(&mut close, idx, Mark::Close);
                    self.emit_wrapped(open, close, line, events, buf);
                    return None;
                }
            }
            if !self.src.sections && self.src.reserves(frag) {
                // a glossary definition's link to another entry of the glossary page
                let idx = self.out.pending.len();
                self.out.pending.push(Pending::Entry {
                    anchor: frag.to_string(),
                });
                let mut a = String::from("<a href=\"#");
                placeholder(&mut a, idx, Mark::Bare);
                a.push_str("\">");
                return Some(Event::Html(a.into()));
            }
            self.local_links.push((frag.to_string(), line));
            // written here rather than by the HTML writer: the target is an anchor of this text,
            // which the print view renames (its end tag is still the writer's `</a>`)
            let mut a = String::from("<a href=\"#");
            self.anchor(frag, &mut a);
            a.push('"');
            if !title.is_empty() {
                a.push_str(" title=\"");
                escape_into(&title, &mut a);
                a.push('"');
            }
            a.push('>');
            return Some(Event::Html(a.into()));
        }
        if !is_safe_url(d, false) {
            self.out.diags.push(Diagnostic::warning(
                "unsafe-link",
                self.src.file,
                line,
                "link to a `javascript:`, `vbscript:` or `data:` address; only its text is kept",
            ));
            self.in_link = self.in_link.saturating_sub(1);
            skip_to_link_end(events, buf, self, line);
            return None;
        }
        if let Some((open, close)) = self.chapter_link(d, line) {
            self.emit_wrapped(open, close, line, events, buf);
            return None;
        }
        let dest = self.site_address(dest);
        Some(Event::Start(Tag::Link {
            link_type,
            dest_url: dest,
            title,
            id,
        }))
    }

    /// A link to a chapter file (`b.md`, `b.md#7.1.0`): the placeholders its text goes between,
    /// filled with the chapter's address for each page. `None` for any other link.
    fn chapter_link(&mut self, d: &str, line: usize) -> Option<(String, String)> {
        if has_scheme(d) || d.starts_with('/') {
            return None;
        }
        let (path, frag) = d
            .split_once('#')
            .map(|(p, f)| (p, Some(f)))
            .unwrap_or((d, None));
        if !path.ends_with(".md") {
            return None;
        }
        // `my%20file.md` names `my file.md`, as an image path does
        let target = lexical_join(self.src.dir, &percent_decode(path));
        let idx = self.out.pending.len();
        self.out
            .pending
            .push(Pending::Chapter(Box::new(ChapterLink {
                path: target,
                fragment: frag.map(str::to_string),
                line,
            })));
        let mut open = String::new();
        placeholder(&mut open, idx, Mark::Open);
        let mut close = String::new();
        placeholder(&mut close, idx, Mark::Close);
        Some((open, close))
    }

    /// `/en/setup/` is an address on this site (`check` resolves it so): written relative to
    /// the page, it holds on a project site (`https://user.github.io/repo/`) and from disk,
    /// where a leading `/` would leave the site.
    fn site_address<'a>(&self, dest: CowStr<'a>) -> CowStr<'a> {
        match dest.trim().strip_prefix('/') {
            Some(rest) if !rest.starts_with(['/', '\\']) => {
                CowStr::from(format!("{}{rest}", self.src.root))
            }
            _ => dest,
        }
    }

    /// Emits a link's inner events between two placeholders, consuming its end.
    fn emit_wrapped<'a, I>(
        &mut self,
        open: String,
        close: String,
        line: usize,
        events: &mut std::iter::Peekable<I>,
        buf: &mut Vec<Event<'a>>,
    ) where
        I: Iterator<Item = (Event<'a>, std::ops::Range<usize>)>,
    {
        buf.push(Event::Html(open.into()));
        let inner = take_link_text(events);
        self.link_text(inner, line, buf);
        self.in_link = self.in_link.saturating_sub(1);
        buf.push(Event::Html(close.into()));
    }

    /// The text of a link whose start tag was replaced (a cross-link, or a link that was
    /// dropped): symbols become icons, images are checked like any other, and raw HTML obeys
    /// safe mode. Without this, `[<script>…</script>](#7.1.0)` would slip past `--safe`.
    fn link_text<'a>(
        &mut self,
        inner: impl IntoIterator<Item = Event<'a>>,
        line: usize,
        buf: &mut Vec<Event<'a>>,
    ) {
        let mut inner = inner.into_iter();
        while let Some(e) = inner.next() {
            // a marker inside the link's text marks the text it is in
            if matches!(e, Event::Html(_) | Event::InlineHtml(_)) {
                self.keep.step(&e);
            }
            match e {
                Event::Text(t) => {
                    self.plain(&t);
                    let mut s = String::new();
                    self.symbols.render_into(&t, self.src.root, &mut s);
                    buf.push(Event::Html(s.into()));
                }
                Event::Html(_) | Event::InlineHtml(_) if self.src.safe => {}
                Event::Start(Tag::Image {
                    dest_url, title, ..
                }) => {
                    let mut alt = String::new();
                    for e in inner.by_ref() {
                        match e {
                            Event::End(TagEnd::Image) => break,
                            Event::Text(t) | Event::Code(t) => alt.push_str(&t),
                            _ => {}
                        }
                    }
                    let img = self.image(&dest_url, &title, &alt, line);
                    buf.push(Event::Html(img.into()));
                }
                // a link inside a link is not valid HTML; keep its text only
                Event::Start(Tag::Link { .. }) | Event::End(TagEnd::Link) => {}
                other => buf.push(other),
            }
        }
    }

    fn image(&mut self, dest: &str, title: &str, alt: &str, line: usize) -> String {
        let alt_attr = escape(alt);
        let title_attr = if title.is_empty() {
            String::new()
        } else {
            format!(" title=\"{}\"", escape(title))
        };
        if !is_safe_url(dest, true) {
            self.out.diags.push(Diagnostic::warning(
                "unsafe-link",
                self.src.file,
                line,
                "image with a `javascript:` or non-image `data:` address is dropped",
            ));
            return placeholder_image(alt);
        }
        if has_scheme(dest) || dest.starts_with("//") {
            return format!(
                "<img src=\"{}\" alt=\"{alt_attr}\"{title_attr} loading=\"lazy\">",
                escape(dest)
            );
        }
        let rel = dest.split(['#', '?']).next().unwrap_or(dest);
        let rel = percent_decode(rel);
        let content = self.src.site_root.join("content");
        let statics = self.src.site_root.join("static");
        // `/img/x.png` is the site's `static/img/x.png`; anything else is relative to the
        // chapter. Only two places may hold images: `content/` (copied into `media/`) and
        // `static/` (copied as it is). Elsewhere in the site are the user's own files
        // (`.env`, `.git/`, drafts), which a path like `../../.env` must never publish.
        let path = match rel.strip_prefix('/') {
            Some(abs) => lexical_join(&statics, abs),
            None => lexical_join(self.src.dir, &rel),
        };
        let (base, under) = match (path.strip_prefix(&content), path.strip_prefix(&statics)) {
            (Ok(r), _) => (Place::Content, r),
            (_, Ok(r)) => (Place::Static, r),
            _ => {
                let (code, what) = if path.starts_with(self.src.site_root) {
                    (
                        "image-outside-content",
                        "is neither in content/ nor in static/",
                    )
                } else {
                    ("image-outside-site", "points outside the site")
                };
                self.out.diags.push(Diagnostic::warning(
                    code,
                    self.src.file,
                    line,
                    format!("image `{dest}` {what} and is not copied; put it beside the chapter, or in static/ and write `/` and its path there"),
                ));
                return placeholder_image(alt);
            }
        };
        let to = under.to_string_lossy().replace('\\', "/");
        if let Some(why) = not_publishable(&to) {
            self.out.diags.push(Diagnostic::warning(
                "image-not-copied",
                self.src.file,
                line,
                format!("image `{dest}` {why}, so it is not copied"),
            ));
            return placeholder_image(alt);
        }
        let real = match std::fs::canonicalize(&path) {
            Ok(real) if real.is_file() => real,
            _ => {
                self.out.diags.push(Diagnostic::warning(
                    "missing-image",
                    self.src.file,
                    line,
                    format!(
                        "image `{dest}` does not exist (looked for {}); a placeholder with its description is shown",
                        crate::diag::display_path(&path, self.src.site_root).display()
                    ),
                ));
                return placeholder_image(alt);
            }
        };
        // A link in content/ may point anywhere: what it points to must be in the site and
        // pass the same test under its real name.
        let root_real = std::fs::canonicalize(self.src.site_root)
            .unwrap_or_else(|_| self.src.site_root.to_path_buf());
        let real_under = real
            .strip_prefix(&root_real)
            .map(|r| r.to_string_lossy().replace('\\', "/"));
        match real_under {
            Ok(r) if not_publishable(&r).is_none() => {}
            _ => {
                self.out.diags.push(Diagnostic::warning(
                    "image-outside-site",
                    self.src.file,
                    line,
                    format!("image `{dest}` is a link to a file outside the site (or to a hidden or non-image file) and is not copied"),
                ));
                return placeholder_image(alt);
            }
        }
        let url: String = to.split('/').map(url_segment).collect::<Vec<_>>().join("/");
        let folder = match base {
            Place::Content => {
                self.out.images.push(ImageCopy { from: real, to });
                "media"
            }
            // copied with the rest of static/ (theme.rs), under the same name
            Place::Static => "static",
        };
        format!(
            "<img src=\"{}{folder}/{}\" alt=\"{alt_attr}\"{title_attr} loading=\"lazy\">",
            self.src.root,
            escape(&url)
        )
    }
}

fn skip_to_link_end<'a, I>(
    events: &mut std::iter::Peekable<I>,
    buf: &mut Vec<Event<'a>>,
    st: &mut State<'_>,
    line: usize,
) where
    I: Iterator<Item = (Event<'a>, std::ops::Range<usize>)>,
{
    let inner = take_link_text(events);
    st.link_text(inner, line, buf);
}

/// The events up to the end of the current link (consumed, not returned).
fn take_link_text<'a, I>(events: &mut std::iter::Peekable<I>) -> Vec<Event<'a>>
where
    I: Iterator<Item = (Event<'a>, std::ops::Range<usize>)>,
{
    let mut depth = 0;
    let mut inner = Vec::new();
    for (e, _) in events.by_ref() {
        match e {
            Event::Start(Tag::Link { .. }) => depth += 1,
            Event::End(TagEnd::Link) if depth == 0 => break,
            Event::End(TagEnd::Link) => depth -= 1,
            _ => {}
        }
        inner.push(e);
    }
    inner
}

/// A missing picture, described in words: what a screen reader says and what a reader sees.
/// Where a local image lives: `content/` (copied into `media/`) or `static/`.
enum Place {
    Content,
    Static,
}

/// The file types an image may have: what browsers show in `<img>`.
const IMAGE_TYPES: &[&str] = &[
    "apng", "avif", "bmp", "gif", "ico", "jpeg", "jpg", "png", "svg", "webp",
];

/// Why the file at `rel` (a path with `/` below `content/`, `static/` or the site) may not be
/// published as an image, if it may not: a hidden file or folder (`.git/`, `.env`) is never
/// the site's, and a file of another type is not an image, whatever `![...]()` says.
fn not_publishable(rel: &str) -> Option<&'static str> {
    if rel.split('/').any(|part| part.starts_with('.')) {
        return Some("is a hidden file or in a hidden folder");
    }
    let ext = rel.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    match ext {
        Some(e) if !e.contains('/') && IMAGE_TYPES.contains(&e.as_str()) => None,
        _ => Some("is not an image file (.png, .jpg, .gif, .svg, .webp, .avif, …)"),
    }
}

fn placeholder_image(alt: &str) -> String {
    let alt = if alt.trim().is_empty() {
        "image"
    } else {
        alt.trim()
    };
    let a = escape(alt);
    format!("<span class=\"img-missing\" role=\"img\" aria-label=\"{a}\"><span class=\"img-missing-icon\" aria-hidden=\"true\"></span><span class=\"img-missing-text\" aria-hidden=\"true\">{a}</span></span>")
}

/// Joins a relative path onto a folder without touching the file system, resolving `.` and `..`.
pub fn lexical_join(base: &Path, rel: &str) -> PathBuf {
    let mut out = base.to_path_buf();
    for part in rel.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                out.pop();
            }
            p => out.push(p),
        }
    }
    out
}

/// Decodes `%XX` escapes. Works on bytes, never slicing the text: `%` may stand before a
/// Cyrillic letter, and a string slice there would cut a character in half.
pub fn percent_decode(s: &str) -> String {
    fn hex(b: u8) -> Option<u8> {
        (b as char).to_digit(16).map(|d| d as u8)
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push(h * 16 + l);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_string())
}

fn url_segment(seg: &str) -> String {
    let mut out = String::with_capacity(seg.len());
    for b in seg.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// How many raw HTML links and code elements `html` opens, less those it closes: `<a href=…>`
/// is one link, `</code>` one code element fewer. A comment holds no element; and `/>` closes
/// none of these (HTML reads `<a href=/x/>` and `<a/>` as opening a link).
fn raw_tags(html: &str) -> (isize, isize) {
    let (mut links, mut code) = (0, 0);
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        let tag = &rest[at + 1..];
        if let Some(comment) = tag.strip_prefix("!--") {
            rest = comment.split_once("-->").map_or("", |(_, after)| after);
            continue;
        }
        rest = tag;
        let (close, tag) = match tag.strip_prefix('/') {
            Some(r) => (true, r),
            None => (false, tag),
        };
        let len = tag
            .bytes()
            .position(|b| !b.is_ascii_alphanumeric())
            .unwrap_or(tag.len());
        let name = &tag[..len];
        let step = if close { -1 } else { 1 };
        if name.eq_ignore_ascii_case("a") {
            links += step;
        } else if ["code", "pre", "kbd", "samp"]
            .iter()
            .any(|n| name.eq_ignore_ascii_case(n))
        {
            code += step;
        }
    }
    (links, code)
}

/// A footnote's label as Markdown matches it: without regard to case or to how white space is
/// written (`[^Note]` is `[^note]:`).
fn footnote_label(label: &str) -> String {
    label
        .split_whitespace()
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_tags_count_links_and_code() {
        assert_eq!(raw_tags("<a href=\"https://x.org\">"), (1, 0));
        assert_eq!(raw_tags("</a>"), (-1, 0));
        assert_eq!(raw_tags("<CODE>"), (0, 1));
        assert_eq!(raw_tags("<pre><code>x</code></pre>"), (0, 0));
        assert_eq!(raw_tags("<abbr title=x><b><br/>"), (0, 0));
        // `/>` closes no link, and a comment holds no tag
        assert_eq!(raw_tags("<a href=/en/basics/>"), (1, 0));
        assert_eq!(raw_tags("<!-- <a href=\"x\"> --> <code>"), (0, 1));
        assert_eq!(raw_tags("<!-- never closed <a>"), (0, 0));
        assert_eq!(raw_tags("<kbd>"), (0, 1));
    }

    fn blocks(text: &str) -> Vec<Block> {
        let dir = Path::new("content/en");
        let src = Source {
            file: Path::new("content/en/01-x.md"),
            first_line: 1,
            dir,
            site_root: Path::new("."),
            root: "../../",
            safe: true,
            reserved_anchors: &[],
            sections: true,
        };
        let syms = Symbols::new(std::iter::empty(), &Default::default());
        prepare(text, &src, &syms).blocks
    }

    #[test]
    fn first_paragraph_is_the_first_with_text_trimmed() {
        let b = blocks("Intro *one*\nline two.\n\nSecond.\n\n## 1.1.0 Head\n\n- item\n- other\n\n&#32;Para&#32;\n");
        assert_eq!(b.len(), 2);
        assert_eq!(b[0].first_paragraph(), "Intro one line two.");
        assert!(b[0].text.contains("Second."));
        // a section that starts with a list opens with its first item (its preview said
        // nothing); a paragraph is taken without its spaces
        assert_eq!(b[1].first_paragraph(), "item");
        assert_eq!(blocks("&#32;Para&#32;\n")[0].first_paragraph(), "Para");
        // a label first (the Rules Reference's `*Source:*[^1]`) is no opening
        let b = blocks("*Source:*[^1]\n\nAll cards are played.\n\n[^1]: Rules, p. 3\n");
        assert_eq!(b[0].first_paragraph(), "All cards are played.");
        let b = blocks("Each player has these values:\n\n- life\n");
        assert_eq!(b[0].first_paragraph(), "Each player has these values:");
        // an editor's note in brackets neither
        let b =
            blocks("*(Not in the source; translated back.)*\n\nIn Ashes, you are a Phoenixborn.\n");
        assert_eq!(b[0].first_paragraph(), "In Ashes, you are a Phoenixborn.");
        let b = blocks(
            "*Source:*[^1]\n\n| Symbol | Name |\n|---|---|\n| x | Main |\n\n[^1]: Rules, p. 3\n",
        );
        assert_eq!(b[0].first_paragraph(), "", "{:?}", b[0].text);
        let none = blocks("| a | b |\n|---|---|\n| c | d |\n");
        assert_eq!(none[0].first_paragraph(), "");
        assert!(none[0].text.contains('c'));
    }
}
