//! What search finds: one document per section of every chapter and one per glossary entry,
//! taken from the resolved site. The command-line index and the browser index are both built
//! from this list, in this order, so a document has the same number in both and ties rank the
//! same way.

use std::borrow::Cow;

use super::analyzer::tokenize;
use crate::render::chapter_path;
use crate::site::Site;

/// What a document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Section,
    Glossary,
}

/// One search result candidate, borrowing its text from the site where it can.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Doc<'s> {
    pub lang: &'s str,
    pub kind: Kind,
    /// The section number (`7.1.0`), empty when the heading has none.
    pub section: Cow<'s, str>,
    /// What the result shows as its title (a heading, or a glossary term).
    pub title: Cow<'s, str>,
    /// The chapter's title (for a glossary entry: the glossary's).
    pub chapter: Cow<'s, str>,
    /// Relative to the site root: `uk/rr-07-damage/#7.1.0`.
    pub url: String,
    /// What the title field indexes: the title, and for a glossary entry its aliases and the
    /// terms of the same entry in the other languages, so `exhaustion token` searched on the
    /// Ukrainian side finds *Жетон виснаження*.
    pub keys: Cow<'s, str>,
    /// The plain text of the section (snippets come from it).
    pub text: Cow<'s, str>,
    /// The languages that show this document's chapter in this language, having none of
    /// their own: their page of it (`<lang>/<id>/`) carries this text under a "not translated
    /// yet" banner, so a reader of theirs who finds it is sent there, not out of their
    /// language's site.
    pub shown_in: Vec<&'s str>,
}

impl Doc<'_> {
    /// The document's own name (its title, or a glossary entry's term: the first line of
    /// [`Doc::keys`]) and its other names (aliases and other languages' terms, one a line).
    /// Only the own name counts in the title's length (rank.rs, step 3): an entry with many
    /// names is not a longer title, and a query that is exactly its name can be told.
    pub fn names(&self) -> (&str, &str) {
        self.keys.split_once('\n').unwrap_or((&self.keys, ""))
    }

    /// A glossary entry's other names, a line each (empty for a section): what steps 5 and 6
    /// compare with the query besides the title ([`named`], rank.rs `spelled_first`), kept
    /// in the command line's index and in the entry's row of the browser's.
    pub fn other_names(&self) -> &str {
        match self.kind {
            Kind::Glossary => self.names().1,
            Kind::Section => "",
        }
    }
}

/// One name of a document: its distinct terms and its length in words (tantivy's field
/// length: every word counts, a little word or a number too).
pub type Name = (Vec<String>, u32);

/// For a glossary entry with other names, each of its names (`names`: its title as shown,
/// then its other names, a line each, as the command line stores them and the browser has
/// them in the entry's row), as its terms and its length; `None` for a document without
/// other names. Step 5 (rank.rs `named_exact`) asks whether one name is exactly the query,
/// where the title's postings, which hold every name's words under the own name's length,
/// cannot tell: `поле бою` on the English side is the other name of *Battlefield*, not of
/// *Battlefield Value*, whose own name has two words.
pub fn named(names: &str) -> Option<Vec<Name>> {
    match names.split_once('\n') {
        Some((_, others)) if !others.is_empty() => {}
        _ => return None,
    }
    let names = names.split('\n').map(|name| {
        let tokens = tokenize(name);
        let mut terms: Vec<String> = tokens.iter().map(|t| t.term.clone()).collect();
        terms.sort_unstable();
        terms.dedup();
        (terms, tokens.len() as u32)
    });
    Some(names.collect())
}

/// Every document of the site: languages in site order, chapters in reading order, sections
/// in page order, then the glossary in file order.
pub fn collect(site: &Site) -> Vec<Doc<'_>> {
    let mut out = Vec::new();
    let index = site.page_index();
    for lang in &site.config.languages {
        let syms = &site.symbols[lang];
        for page in site.pages.get(lang).into_iter().flatten() {
            let c = &page.chapter;
            let chapter = syms.plain(&page.title_text);
            let base = chapter_path(lang, &c.id);
            let shown_in: Vec<&str> = (site.config.others(lang))
                .filter(|l| !index.contains_key(&(l.as_str(), c.id.as_str())))
                .map(String::as_str)
                .collect();
            let mut opening = false;
            for block in &page.prepared.blocks {
                let (section, title, anchor) = match block.heading {
                    Some(h) => {
                        let h = &page.prepared.headings[h];
                        (
                            h.number.as_deref().unwrap_or_default(),
                            syms.plain(&h.title),
                            Some(h.anchor.as_str()),
                        )
                    }
                    None => {
                        opening = true;
                        (
                            page.title_number.as_deref().unwrap_or_default(),
                            chapter.clone(),
                            page.title_number.as_deref(),
                        )
                    }
                };
                out.push(Doc {
                    lang,
                    kind: Kind::Section,
                    section: section.into(),
                    keys: title.clone(),
                    title,
                    chapter: chapter.clone(),
                    url: match anchor {
                        Some(a) => format!("{base}#{a}"),
                        None => base.clone(),
                    },
                    text: syms.plain(block.text.trim()),
                    shown_in: shown_in.clone(),
                });
            }
            if !opening {
                // A chapter with no text before its first heading still is a result for its
                // title.
                out.push(Doc {
                    lang,
                    kind: Kind::Section,
                    section: page.title_number.as_deref().unwrap_or_default().into(),
                    title: chapter.clone(),
                    keys: chapter.clone(),
                    chapter: chapter.clone(),
                    url: base.clone(),
                    text: Cow::Borrowed(""),
                    shown_in: shown_in.clone(),
                });
            }
        }
        glossary_docs(site, lang, &mut out);
    }
    out
}

fn glossary_docs<'s>(site: &'s Site, lang: &'s str, out: &mut Vec<Doc<'s>>) {
    let Some(g) = site.glossaries.get(lang) else {
        return;
    };
    let syms = &site.symbols[lang];
    let glossary = site.theme.string(lang, "glossary");
    for (e, prepared) in g.entries.iter().zip(&site.glossary_html[lang]) {
        let mut keys = vec![e.term.clone()];
        keys.extend(e.aliases.iter().cloned());
        for other in site.config.others(lang) {
            let Some(og) = site.glossaries.get(other) else {
                continue;
            };
            let found = og
                .get(&e.key)
                .or_else(|| e.merged_keys.iter().find_map(|k| og.get(k)));
            if let Some(oe) = found {
                keys.push(oe.term.clone());
                keys.extend(oe.aliases.iter().cloned());
            }
        }
        let text: Vec<&str> = prepared.blocks.iter().map(|b| b.text.trim()).collect();
        out.push(Doc {
            lang,
            kind: Kind::Glossary,
            section: Cow::Borrowed(""),
            title: capitalised(&e.term).into(),
            chapter: glossary.clone().into(),
            url: format!("{lang}/glossary/#{}", e.anchor),
            keys: keys.join("\n").into(),
            text: syms.to_plain(&text.join("\n")).into(),
            shown_in: Vec::new(),
        });
    }
}

/// Keys of the chat-bot glossary are lower case (`exhausted pool`); results show them
/// capitalised, as the glossary page does.
fn capitalised(term: &str) -> String {
    if term.chars().any(char::is_uppercase) {
        return term.to_string();
    }
    let mut c = term.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
