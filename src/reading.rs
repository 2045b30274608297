//! What the reading aids need to know about the whole site, gathered once after every chapter
//! is rendered: which glossary terms are too common to link, which sections refer to which
//! ("Referenced by"), and a short preview of every section (for cross-link previews).
//!
//! Everything here is built in one pass over the chapters' pending references, so it grows with
//! the site, and what a page takes from it is bounded (a capped list, the previews of the
//! sections that page links to).

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;

use rayon::prelude::*;

use crate::autolink::TermMatcher;
use crate::site::ChapterPage;
use crate::symbols::Symbols;
use crate::xref::Pending;

/// At most this many "Referenced by" links per section; the rest is a count.
pub const REFERENCED_BY_CAP: usize = 24;

/// A preview's text is cut to about this many characters.
const PREVIEW_CHARS: usize = 160;

/// A one-word term used in more than this share of a language's sections is an ordinary word of
/// that text (`effect`, `ефект`): linking it everywhere would only turn the pages blue.
const COMMON_SHARE: f64 = 0.2;

/// Below this many sections there is too little text to call any word common.
const COMMON_MIN_SECTIONS: usize = 30;

/// A place that refers to a section: the chapter and the numbered section it is in.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Referrer {
    /// Sort key: the section number's parts, so 10.1 comes after 9.2.
    pub order: Vec<u64>,
    pub chapter_id: String,
    /// The numbered section the reference is in (the chapter's own number before any heading).
    pub number: Option<String>,
}

#[derive(Debug, Default)]
pub struct Reading {
    /// Per text language: the glossary term matcher.
    pub terms: BTreeMap<String, TermMatcher>,
    /// Per text language: term ids that are not linked because they are everywhere.
    pub common: BTreeMap<String, Vec<bool>>,
    /// Text language → section number → referrers, sorted, deduplicated. Keyed by language
    /// first so that a lookup borrows both keys (it is made under every numbered heading).
    pub referenced_by: BTreeMap<String, FxHashMap<String, Vec<Referrer>>>,
    /// Text language → section number → (title, opening text); by language first, like
    /// `referenced_by`, so a lookup borrows its keys.
    pub previews: BTreeMap<String, FxHashMap<String, (String, String)>>,
    /// Text language → how often each glossary term is used, and the number of sections:
    /// what `common` is worked out from, kept for the incremental rebuild.
    used: BTreeMap<String, (FxHashMap<u32, usize>, usize)>,
}

/// Which terms of `m` are too common to link, from how often each is used in `sections`
/// sections.
fn common_flags(m: &TermMatcher, used: &FxHashMap<u32, usize>, sections: usize) -> Vec<bool> {
    (0..m.len() as u32)
        .map(|t| {
            sections >= COMMON_MIN_SECTIONS
                && m.single_word(t)
                && used.get(&t).copied().unwrap_or(0) as f64 > COMMON_SHARE * sections as f64
        })
        .collect()
}

fn number_key(n: &str) -> Vec<u64> {
    n.split('.')
        .map(|p| p.parse().unwrap_or(u64::MAX))
        .collect()
}

fn cut(text: &str, max: usize) -> String {
    // a character is at most 4 bytes: look no further than the preview can reach
    let mut end = text.len().min(max * 4 + 8);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let (mut s, more) = crate::export::squeeze(&text[..end], max);
    if !more {
        return s;
    }
    if let Some(sp) = s.rfind(' ') {
        s.truncate(sp);
    }
    s.push('…');
    s
}

/// The previews of one chapter's numbered sections: number → (title, opening text). The
/// chapter's opening text belongs to its title number. Symbols are their words (`syms`, the
/// chapter's language's), as in search results: a card showed `:side: 1 :ceremonial-power:`.
pub fn chapter_previews(p: &ChapterPage, syms: &Symbols) -> Vec<(String, (String, String))> {
    let h = &p.prepared.headings;
    let mut out: Vec<(String, (String, String))> = Vec::new();
    for b in &p.prepared.blocks {
        let number = match b.heading {
            Some(i) => h[i].number.as_deref(),
            None => p.title_number.as_deref(),
        };
        let Some(n) = number else { continue };
        let title = match b.heading {
            Some(i) => syms.to_plain(&h[i].title),
            None => syms.to_plain(&p.title_text),
        };
        // a later block of the same number wins, as it always has
        out.retain(|(m, _)| m != n);
        out.push((
            n.to_string(),
            (title, cut(&syms.plain(b.first_paragraph()), PREVIEW_CHARS)),
        ));
    }
    if let Some(n) = &p.title_number {
        if !out.iter().any(|(m, _)| m == n) {
            out.push((n.clone(), (syms.to_plain(&p.title_text), String::new())));
        }
    }
    out
}

/// What one chapter adds to its language's reading aids: the references it makes (target
/// number, where it is made from), the previews of its sections, and the glossary terms it
/// uses (once per use).
#[allow(clippy::type_complexity)]
fn page_part<'p>(
    p: &'p ChapterPage,
    syms: &Symbols,
) -> (
    Vec<(&'p str, Referrer)>,
    Vec<(String, (String, String))>,
    Vec<u32>,
) {
    let id = &p.chapter.id;
    // numbered heading lines, to find the section a reference sits in
    let numbered: Vec<(usize, &str)> = p
        .prepared
        .headings
        .iter()
        .filter_map(|h| h.number.as_deref().map(|n| (h.line, n)))
        .collect();
    let mut refs = Vec::new();
    let mut terms = Vec::new();
    for pend in &p.prepared.pending {
        let (target, line) = match pend {
            Pending::Term { term } => {
                terms.push(*term);
                continue;
            }
            Pending::Bare { number, line, .. } => (number, *line as usize),
            Pending::Link(l) => (&l.number, l.line),
            _ => continue,
        };
        let at = numbered.partition_point(|(l, _)| *l <= line);
        let from = match at {
            0 => p.title_number.as_deref(),
            i => Some(numbered[i - 1].1),
        };
        if from == Some(target.as_str()) {
            continue;
        }
        refs.push((
            target.as_str(),
            Referrer {
                order: from.map(number_key).unwrap_or_default(),
                chapter_id: id.clone(),
                number: from.map(str::to_string),
            },
        ));
    }
    drop_contents_lists(&mut refs);
    (refs, chapter_previews(p, syms), terms)
}

/// More sections than this linked from one place (one section, or a chapter's text outside
/// its numbered sections) make it a table of contents, not a reference. The Rules
/// Reference's "About" chapter lists all 74 sections, and every section said "Referenced by:
/// About this reference"; a rule of the default content links to 5 sections at most.
const MAX_REFERENCES_FROM_ONE_PLACE: usize = 24;

/// Leaves out of the "Referenced by" lists the references of a place that links to more than
/// [`MAX_REFERENCES_FROM_ONE_PLACE`] sections (its links stay links).
fn drop_contents_lists(refs: &mut Vec<(&str, Referrer)>) {
    let mut targets: std::collections::HashMap<Option<&str>, std::collections::HashSet<&str>> =
        std::collections::HashMap::new();
    for (t, r) in refs.iter() {
        targets.entry(r.number.as_deref()).or_default().insert(t);
    }
    let contents: Vec<Option<String>> = (targets.into_iter())
        .filter(|(_, t)| t.len() > MAX_REFERENCES_FROM_ONE_PLACE)
        .map(|(from, _)| from.map(str::to_string))
        .collect();
    if !contents.is_empty() {
        refs.retain(|(_, r)| !contents.contains(&r.number));
    }
}

/// One language's part of [`Reading`]: its language, "Referenced by" lists, previews, terms too
/// common to link, and the uses of terms with the number of sections.
type LangPart = (
    String,
    FxHashMap<String, Vec<Referrer>>,
    FxHashMap<String, (String, String)>,
    Option<Vec<bool>>,
    (FxHashMap<u32, usize>, usize),
);

impl Reading {
    /// Puts an edited chapter of `lang` in place of its old version (the incremental rebuild):
    /// its previews, and its uses of glossary terms. Returns whether the edit changes only the
    /// chapter's own pages. It does not when it changes the references the chapter makes (the
    /// "Referenced by" lists under other chapters' headings and on the print view) or which
    /// terms are too common to link (every page): then only a full rebuild is right, and what
    /// is left here is not to be used.
    pub fn replace_chapter(
        &mut self,
        lang: &str,
        old: &ChapterPage,
        new: &ChapterPage,
        syms: &Symbols,
    ) -> bool {
        let (old_refs, old_previews, old_terms) = page_part(old, syms);
        let (new_refs, new_previews, new_terms) = page_part(new, syms);
        let previews = self.previews.entry(lang.to_string()).or_default();
        for (n, _) in old_previews {
            previews.remove(&n);
        }
        previews.extend(new_previews);
        fn set(mut r: Vec<(&str, Referrer)>) -> Vec<(&str, Referrer)> {
            r.sort_unstable();
            r.dedup();
            r
        }
        let same_refs = set(old_refs) == set(new_refs);
        let (used, sections) = self.used.entry(lang.to_string()).or_default();
        for t in old_terms {
            if let Some(n) = used.get_mut(&t) {
                *n = n.saturating_sub(1);
            }
        }
        for t in new_terms {
            *used.entry(t).or_default() += 1;
        }
        *sections =
            (*sections + new.prepared.headings.len()).saturating_sub(old.prepared.headings.len());
        let common = self
            .terms
            .get(lang)
            .map(|m| common_flags(m, used, *sections));
        let same_common = common.as_ref() == self.common.get(lang);
        if let Some(c) = common {
            self.common.insert(lang.to_string(), c);
        }
        same_refs && same_common
    }

    /// Gathers the site-wide facts from the rendered chapters of every language. It needs no
    /// section index, so the build gathers beside making one: a reference to a number that
    /// no chapter defines is kept too, and never shown, as lists are looked up by headings.
    pub fn gather(
        terms: BTreeMap<String, TermMatcher>,
        pages: &BTreeMap<String, Vec<ChapterPage>>,
        symbols: &BTreeMap<String, Symbols>,
    ) -> Reading {
        let mut r = Reading {
            terms,
            ..Reading::default()
        };
        let parts: Vec<LangPart> = pages
            .par_iter()
            .map(|(lang, pages)| {
                let none = Symbols::default();
                r.gather_lang(lang, pages, symbols.get(lang).unwrap_or(&none))
            })
            .collect();
        for (lang, refby, previews, common, used) in parts {
            r.referenced_by.insert(lang.clone(), refby);
            r.previews.insert(lang.clone(), previews);
            r.used.insert(lang.clone(), used);
            if let Some(c) = common {
                r.common.insert(lang, c);
            }
        }
        r
    }

    fn gather_lang(&self, lang: &str, pages: &[ChapterPage], syms: &Symbols) -> LangPart {
        let lang = lang.to_string();
        {
            // Each page's part on all cores: the references it makes (target, referrer), its
            // sections' previews and the glossary terms it uses; then put together in page
            // order, which is one language's work on one thread.
            type PagePart<'p> = (
                Vec<(&'p str, Referrer)>,
                Vec<(String, (String, String))>,
                Vec<u32>,
            );
            let parts: Vec<PagePart<'_>> = pages.par_iter().map(|p| page_part(p, syms)).collect();
            let sections: usize = pages.iter().map(|p| 1 + p.prepared.headings.len()).sum();
            let mut used: FxHashMap<u32, usize> = FxHashMap::default();
            let mut refs: FxHashMap<&str, Vec<Referrer>> = FxHashMap::default();
            let mut previews = FxHashMap::with_capacity_and_hasher(sections, Default::default());
            for (page_refs, page_previews, terms) in parts {
                for (target, r) in page_refs {
                    refs.entry(target).or_default().push(r);
                }
                previews.extend(page_previews);
                for t in terms {
                    *used.entry(t).or_default() += 1;
                }
            }
            let mut refs: Vec<(&str, Vec<Referrer>)> = refs.into_iter().collect();
            refs.par_iter_mut().for_each(|(_, list)| {
                list.sort_unstable();
                list.dedup();
            });
            let referenced_by: FxHashMap<String, Vec<Referrer>> =
                refs.into_iter().map(|(n, l)| (n.to_string(), l)).collect();
            let common = self
                .terms
                .get(&lang)
                .map(|m| common_flags(m, &used, sections));
            (lang, referenced_by, previews, common, (used, sections))
        }
    }

    /// The glossary links of text in `lang`: looked up once for a page, not once for each of
    /// its links (each link looked the language up by name four times, twice for its opening
    /// tag and twice for its closing one, and a 200-chapter build writes about 140,000 links
    /// in its pages and print views).
    pub fn term_links(&self, lang: &str) -> TermLinks<'_> {
        TermLinks {
            terms: self.terms.get(lang),
            common: self.common.get(lang).map(Vec::as_slice),
        }
    }
}

/// The glossary terms of one text language, as [`Reading::term_links`] finds them.
#[derive(Clone, Copy)]
pub struct TermLinks<'a> {
    terms: Option<&'a TermMatcher>,
    common: Option<&'a [bool]>,
}

impl<'a> TermLinks<'a> {
    /// The glossary anchor to link a term to, unless the term is too common.
    pub fn anchor(&self, term: u32) -> Option<&'a str> {
        let m = self.terms?;
        if (self.common)
            .and_then(|c| c.get(term as usize))
            .copied()
            .unwrap_or(false)
        {
            return None;
        }
        Some(m.anchor(term))
    }
}
