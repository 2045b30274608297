//! Ready-made HTML that the templates output as it is: the entries of a chapter's table of
//! contents, the contents page's list of chapters, the glossary's entries. Looped over in the
//! templates, these lists were a tenth of a build at one time (Tera looks every variable up by
//! name, each time); written here, they read exactly as the default templates wrote them, and
//! the same items go into the templates' context as data for a theme that lays them out
//! itself (see the README's "Theme").

use serde::Serialize;

/// A heading in a list of contents.
#[derive(Serialize)]
pub(crate) struct TocEntry {
    pub(crate) level: u8,
    pub(crate) anchor: String,
    pub(crate) number: Option<String>,
    pub(crate) title: String,
}

/// A chapter on the contents page, with its sections.
#[derive(Serialize)]
pub(crate) struct IndexChapter {
    pub(crate) title: String,
    pub(crate) number: Option<String>,
    pub(crate) url: String,
    pub(crate) translated: bool,
    /// Translated, with paragraphs still in the original language.
    pub(crate) partly: bool,
    /// The language its title and sections are written in, when not the page's (a chapter
    /// not translated yet): said so for a screen reader's voice.
    pub(crate) lang: Option<String>,
    pub(crate) sections: Vec<TocEntry>,
}

/// A glossary entry's term in another language.
#[derive(Serialize)]
pub(crate) struct OtherTerm {
    pub(crate) lang: String,
    pub(crate) lang_name: String,
    pub(crate) term: String,
}

/// A glossary entry as the glossary page and the print view show it; `definition` is HTML.
#[derive(Serialize)]
pub(crate) struct GlossaryItem {
    pub(crate) anchor: String,
    pub(crate) extra_anchors: Vec<String>,
    pub(crate) term: String,
    pub(crate) aliases: Vec<String>,
    pub(crate) others: Vec<OtherTerm>,
    pub(crate) definition: String,
    pub(crate) source: Option<String>,
    pub(crate) tags: Vec<String>,
    pub(crate) translated: bool,
    pub(crate) lang: String,
}

/// One entry of a chapter's table of contents: `<li>` with a link to the heading. No closing
/// tag and no indentation, because the list is on every page.
pub(crate) fn toc_entry(
    out: &mut String,
    level: u8,
    anchor: &str,
    number: Option<&str>,
    title: &str,
) {
    out.push_str("<li");
    if level > 2 {
        out.push_str(&format!(" class=\"toc-l{level}\""));
    }
    out.push_str("><a href=\"#");
    crate::html::escape_into(anchor, out);
    out.push_str("\">");
    if let Some(n) = number {
        crate::html::escape_into(n, out);
        out.push(' ');
    }
    crate::html::escape_text_into(title, out);
    out.push_str("</a>\n");
}

/// A link text of the contents page: the section number, if any, then the title.
fn numbered(number: Option<&str>, title: &str, out: &mut String) {
    use crate::html::escape_template_into as esc;
    if let Some(n) = number {
        out.push_str("<span class=\"secnum\">");
        esc(n, out);
        out.push_str("</span> ");
    }
    esc(title, out);
}

/// The contents page's list of chapters and their sections, as `<li>` items of the
/// `chapter-list`.
pub(crate) fn chapter_list(
    chapters: &[IndexChapter],
    not_translated: &str,
    partly: &str,
) -> String {
    use crate::html::escape_template_into as esc;
    let mut out = String::new();
    for c in chapters {
        out.push_str("\n  <li");
        if !c.translated {
            out.push_str(" class=\"untranslated\"");
        }
        let lang_attr = |out: &mut String| {
            if let Some(l) = &c.lang {
                out.push_str(" lang=\"");
                esc(l, out);
                out.push('"');
            }
        };
        out.push_str("><a href=\"");
        esc(&c.url, &mut out);
        out.push('"');
        lang_attr(&mut out);
        out.push('>');
        numbered(c.number.as_deref(), &c.title, &mut out);
        out.push_str("</a>");
        if !c.translated {
            out.push_str(" <span class=\"badge\">");
            esc(not_translated, &mut out);
            out.push_str("</span>");
        } else if c.partly {
            out.push_str(" <span class=\"badge partly\">");
            esc(partly, &mut out);
            out.push_str("</span>");
        }
        if !c.sections.is_empty() {
            out.push_str("\n    <ol class=\"section-list\"");
            lang_attr(&mut out);
            out.push('>');
            for s in &c.sections {
                out.push_str("<li><a href=\"");
                esc(&c.url, &mut out);
                out.push('#');
                esc(&s.anchor, &mut out);
                out.push_str("\">");
                numbered(s.number.as_deref(), &s.title, &mut out);
                out.push_str("</a></li>");
            }
            out.push_str("\n    </ol>");
        }
        out.push_str("\n  </li>");
    }
    out
}

/// What the glossary list says besides its entries.
pub(crate) struct GlossaryLabels<'a> {
    pub(crate) untranslated_id: &'a str,
    pub(crate) untranslated_entries: &'a str,
    pub(crate) aliases: &'a str,
    pub(crate) source: &'a str,
}

/// The glossary's `<dl>` lists: this language's entries, then, under their own heading, the
/// ones only another language has.
pub(crate) fn glossary_list(entries: &[GlossaryItem], l: &GlossaryLabels<'_>) -> String {
    use crate::html::escape_template_into as esc;
    let mut out = String::from("<dl class=\"glossary\">");
    let mut shown_untranslated = false;
    for e in entries {
        if !e.translated && !shown_untranslated {
            out.push_str("\n</dl>\n<h2 id=\"");
            esc(l.untranslated_id, &mut out);
            out.push_str("\">");
            esc(l.untranslated_entries, &mut out);
            out.push_str("</h2>\n<dl class=\"glossary\">");
            shown_untranslated = true;
        }
        let lang_attr = |out: &mut String| {
            if !e.translated {
                out.push_str(" lang=\"");
                esc(&e.lang, out);
                out.push('"');
            }
        };
        out.push_str("\n  <dt id=\"");
        esc(&e.anchor, &mut out);
        out.push('"');
        lang_attr(&mut out);
        out.push('>');
        for a in &e.extra_anchors {
            out.push_str("<span id=\"");
            esc(a, &mut out);
            out.push_str("\"></span>");
        }
        out.push_str("<a class=\"term\" href=\"#");
        esc(&e.anchor, &mut out);
        out.push_str("\">");
        esc(&e.term, &mut out);
        out.push_str("</a>");
        for o in &e.others {
            out.push_str(" <span class=\"other-term\" lang=\"");
            esc(&o.lang, &mut out);
            out.push_str("\" title=\"");
            esc(&o.lang_name, &mut out);
            out.push_str("\">");
            esc(&o.term, &mut out);
            out.push_str("</span>");
        }
        out.push_str("\n  </dt>\n  <dd");
        lang_attr(&mut out);
        out.push('>');
        if !e.aliases.is_empty() {
            out.push_str("<p class=\"aliases\">");
            esc(l.aliases, &mut out);
            out.push_str(": ");
            esc(&e.aliases.join(", "), &mut out);
            out.push_str("</p>");
        }
        out.push_str("\n    ");
        out.push_str(&e.definition);
        // as in a template, an empty source counts as none
        let source = e.source.as_deref().filter(|s| !s.is_empty());
        if source.is_some() || !e.tags.is_empty() {
            out.push_str("<p class=\"meta\">");
            for tag in &e.tags {
                out.push_str("<span class=\"badge\">");
                esc(tag, &mut out);
                out.push_str("</span> ");
            }
            if let Some(src) = source {
                esc(l.source, &mut out);
                out.push_str(": ");
                esc(src, &mut out);
            }
            out.push_str("</p>");
        }
        out.push_str("\n  </dd>");
    }
    out.push_str("\n</dl>");
    out
}
