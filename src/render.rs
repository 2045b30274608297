//! Pages: fills the templates with the resolved site and writes the output folder.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use rayon::prelude::*;
use serde::Serialize;
use tera::{Context, Tera};

use crate::diag::{Diagnostic, Diagnostics};
use crate::glossary::{alias_anchor, collation_key};

use crate::html::escape;
use crate::lists::{
    chapter_list, glossary_list, toc_entry, GlossaryItem, GlossaryLabels, IndexChapter, OtherTerm,
    TocEntry,
};
use crate::output::write_file;
use crate::site::{Site, PAGE_ROOT};
use crate::xref::Page;

/// Templates every theme must have.
pub const REQUIRED_TEMPLATES: &[&str] = &[
    "base.html",
    "chapter.html",
    "glossary.html",
    "index.html",
    "root.html",
    "404.html",
    "print.html",
];

/// Compiles the templates; a syntax error names the template and its line.
pub fn compile(
    templates: &std::collections::BTreeMap<String, String>,
) -> Result<Tera, Vec<Diagnostic>> {
    let mut tera = Tera::default();
    tera.autoescape_on(vec![".html", ".xml"]);
    tera.set_escape_fn(crate::html::escape_template);
    let mut errors = Vec::new();
    for name in REQUIRED_TEMPLATES {
        if !templates.contains_key(*name) {
            errors.push(Diagnostic::error(
                "template",
                format!("templates/{name}"),
                0,
                "required template is missing",
            ));
        }
    }
    // Tera parses and renders nesting by recursion: refuse what would overflow the stack
    let deep: Vec<Diagnostic> = (templates.iter())
        .filter_map(|(name, src)| crate::template_safety::too_deep(name, src))
        .collect();
    if !deep.is_empty() {
        errors.extend(deep);
        return Err(errors);
    }
    let list: Vec<(&str, &str)> = templates
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    match tera.add_raw_templates(list) {
        // A cycle would overflow the stack when rendered, which aborts the process: refused
        // here, before anything is written (see `template_safety`).
        Ok(()) => errors.extend(crate::template_safety::cycles(&tera, templates)),
        Err(e) => {
            // `Template 'a.html' is inheriting from 'b.html', which doesn't exist`: the line
            // of `a.html` that names `b.html`
            let mut d = template_error(&e, None);
            let words: Vec<&str> = quoted_words(&d.message).collect();
            if let (0, [own, .., missing]) = (d.line, words.as_slice()) {
                if let Some(i) = (templates.get(*own))
                    .and_then(|src| src.lines().position(|l| l.contains(missing)))
                {
                    d.line = i + 1;
                }
            }
            errors.push(d)
        }
    }
    crate::template_safety::add_guards(&mut tera);
    tera.register_function("get_env", site_env);
    tera.register_filter("json_encode", json_encode);
    if errors.is_empty() {
        Ok(tera)
    } else {
        Err(errors)
    }
}

/// Prefix of the environment variables a template may read with `get_env`.
pub const ENV_PREFIX: &str = "RULEBOOK_";

/// Tera's `get_env`, kept to the variables named [`ENV_PREFIX`]…: a site's templates are
/// published with every build, and a pull request built in CI (`--safe` or not) could
/// otherwise print the machine's secrets (`get_env(name="GITHUB_TOKEN")`) into every page.
/// The same rule as Hugo's `HUGO_` prefix.
fn site_env(args: &HashMap<String, tera::Value>) -> tera::Result<tera::Value> {
    let name = args
        .get("name")
        .and_then(tera::Value::as_str)
        .ok_or("`get_env` needs name=\"RULEBOOK_…\"")?;
    if !name.starts_with(ENV_PREFIX) {
        return Err(format!(
            "`{name}`: templates may read only environment variables whose names begin with {ENV_PREFIX} (a template could otherwise publish the build machine's secrets)"
        )
        .into());
    }
    match (std::env::var(name), args.get("default")) {
        (Ok(v), _) => Ok(tera::Value::String(v)),
        (Err(_), Some(d)) => Ok(d.clone()),
        (Err(_), None) => Err(format!(
            "`{name}`: no such environment variable, and no default=\"…\" for it"
        )
        .into()),
    }
}

/// Tera's `json_encode` (`pretty=true` too), with `<`, `>` and `&` written as `\u003c`, `\u003e`
/// and `\u0026`: the same JSON, but a text can no longer end the `<script>` it is written
/// into (`{{ t.copy_link | json_encode | safe }}` with a UI string `</script><script>…`).
fn json_encode(
    value: &tera::Value,
    args: &HashMap<String, tera::Value>,
) -> tera::Result<tera::Value> {
    let pretty = args
        .get("pretty")
        .and_then(tera::Value::as_bool)
        .unwrap_or(false);
    let text = if pretty {
        serde_json::to_string_pretty(value)
    } else {
        serde_json::to_string(value)
    }
    .map_err(tera::Error::json)?;
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            c => out.push(c),
        }
    }
    Ok(tera::Value::String(out))
}

/// Turns a Tera error chain into one diagnostic with the template's name and line.
pub fn template_error(e: &tera::Error, template: Option<&str>) -> Diagnostic {
    let mut msg = e.to_string();
    let mut src = std::error::Error::source(e);
    while let Some(s) = src {
        msg.push_str(": ");
        msg.push_str(&s.to_string());
        src = s.source();
    }
    // the template Tera names (`Failed to parse 'chapter.html'`): the first quoted word, as
    // an apostrophe in the text (`isn't`) opens no name
    let name = template
        .map(str::to_string)
        .or_else(|| quoted_words(&msg).next().map(str::to_string))
        .unwrap_or_else(|| "template".to_string());
    // pest reports positions as ` --> line:column`
    let (line, col) = msg
        .split("--> ")
        .nth(1)
        .and_then(|rest| {
            let mut it = rest
                .split(|c: char| !c.is_ascii_digit())
                .filter(|s| !s.is_empty());
            Some((it.next()?.parse().ok()?, it.next()?.parse().unwrap_or(0)))
        })
        .unwrap_or((0, 0));
    let msg = msg
        .split('\n')
        .filter(|l| !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    Diagnostic::error("template", format!("templates/{name}"), line, msg).at_column(col)
}

/// Tera reports errors found while rendering (an unknown variable, filter or included template)
/// without a line. The name it complains about is in the message, so find the line that uses it:
/// in the template being rendered first, then in the others (the template it extends or
/// includes), so the message points at the line to fix.
pub fn locate_runtime_error(
    mut d: Diagnostic,
    template: &str,
    templates: &BTreeMap<String, String>,
) -> Diagnostic {
    if d.line > 0 {
        return d;
    }
    // the name Tera complains about: `x`, '[x]', or the quoted word after Filter, Function,
    // Test or Template
    let quoted = [
        "Filter",
        "Function call",
        "Function",
        "Test",
        "Template",
        "template",
    ]
    .iter()
    .find_map(|w| {
        let rest = d.message.split_once(&format!("{w} '"))?.1;
        Some(rest.split_once('\'')?.0.to_string())
    });
    let Some(name) = ["`", "'["]
        .iter()
        .filter_map(|open| {
            let close = if *open == "`" { "`" } else { "]'" };
            let rest = d.message.split_once(open)?.1;
            Some(rest.split_once(close)?.0.to_string())
        })
        .chain(quoted)
        .find(|n| !n.is_empty())
    else {
        return d;
    };
    // Tera says that the error is in a parent template, not which: the templates this one
    // extends come first then, else after it
    let mut parents = Vec::new();
    let mut at = template;
    while let Some(p) = templates
        .get(at)
        .and_then(|src| crate::theme::tag_targets(src, "extends").next())
    {
        if p == template || parents.contains(&p) {
            break;
        }
        parents.push(p);
        at = p;
    }
    let mut order: Vec<&str> = vec![template];
    if d.message.contains("error happened in a parent template") {
        order.splice(0..0, parents.iter().copied());
    } else {
        order.extend(parents.iter().copied());
    }
    let rest = templates
        .keys()
        .map(String::as_str)
        .filter(|k| !order.contains(k));
    let order: Vec<&str> = order.iter().copied().chain(rest).collect();
    for file in order {
        let Some(text) = templates.get(file) else {
            continue;
        };
        if let Some(i) = text.lines().position(|l| uses_name(l, &name)) {
            d.file = format!("templates/{file}").into();
            d.line = i + 1;
            break;
        }
    }
    d
}

/// The words in single quotes in `msg` (`'chapter.html'`): a quote that is followed by white
/// space before the next one is an apostrophe (`isn't`), not the start of a name.
fn quoted_words(msg: &str) -> impl Iterator<Item = &str> {
    ['\'', '`']
        .iter()
        .flat_map(|q| {
            let starts: Vec<usize> = msg.match_indices(*q).map(|(i, _)| i).collect();
            starts
                .windows(2)
                .map(|w| (w[0], &msg[w[0] + 1..w[1]]))
                .filter(|(_, s)| !s.is_empty() && !s.contains(char::is_whitespace))
                .collect::<Vec<_>>()
        })
        .collect::<std::collections::BTreeMap<_, _>>()
        .into_values()
}

/// Whether `line` has `name` as a whole name, not inside a longer one (`titl` is not in
/// `title`).
fn uses_name(line: &str, name: &str) -> bool {
    let part = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    line.match_indices(name).any(|(i, _)| {
        !part(line[..i].chars().next_back()) && !part(line[i + name.len()..].chars().next())
    })
}

#[derive(Serialize)]
struct LangLink {
    code: String,
    name: String,
    url: String,
    current: bool,
}

#[derive(Serialize)]
struct Alternate {
    hreflang: String,
    href: String,
}

#[derive(Serialize)]
struct NavLink {
    title: String,
    url: String,
    /// The title's language, when not the page's (a chapter not translated yet).
    lang: Option<String>,
}

#[derive(Serialize)]
struct Fallback {
    lang: String,
    lang_name: String,
    url: String,
}

pub struct Renderer<'a> {
    pub(crate) site: &'a Site,
    tera: Tera,
    pub(crate) index: HashMap<(&'a str, &'a str), usize>,
    /// For each language, the part of every page's context that does not change from page
    /// to page (see [`Renderer::common`]): made once and copied, because Tera turns what is
    /// inserted into JSON values, and doing that for the UI strings on every page was 2% of a
    /// build's instructions.
    base: HashMap<String, Context>,
}

/// Stands for a chapter's HTML while its template renders (see [`Renderer::chapter`]). Made of
/// private-use characters so that no text or escaping produces it by chance.
pub(crate) const CONTENT_MARK: &str = "\u{F8FF}rulebook:content\u{F8FF}";

/// Replaces every `mark` in `page` by `content`, in one pass and one allocation.
fn splice(page: &str, mark: &str, content: &str) -> String {
    let n = page.matches(mark).count();
    let mut out = String::with_capacity(page.len() + n * content.len());
    let mut rest = page;
    while let Some(i) = rest.find(mark) {
        out.push_str(&rest[..i]);
        out.push_str(content);
        rest = &rest[i + mark.len()..];
    }
    out.push_str(rest);
    out
}

/// The URL of a page relative to the site root (`uk/round-order/`).
pub fn chapter_path(lang: &str, id: &str) -> String {
    format!("{lang}/{id}/")
}

/// What every page of `lang` has, whatever the page: its language, the site's title, base URL
/// and default language, and the UI strings.
fn base_context(site: &Site, lang: &str) -> Context {
    let mut ctx = Context::new();
    ctx.insert("lang", lang);
    ctx.insert("site_title", site.config.title_in(lang));
    ctx.insert("base_url", &site.config.base_url);
    ctx.insert("default_language", &site.config.default_language);
    ctx.insert("t", &site.theme.strings[lang]);
    // a chapter's front-matter `description`; empty on every other page
    ctx.insert("description", "");
    ctx
}

impl<'a> Renderer<'a> {
    pub fn new(site: &'a Site, tera: Tera) -> Self {
        let base = (site.config.languages.iter())
            .map(|l| (l.clone(), base_context(site, l)))
            .collect();
        Renderer {
            site,
            tera,
            index: site.page_index(),
            base,
        }
    }

    pub(crate) fn lang_name(&self, lang: &str) -> String {
        self.site.theme.string(lang, "language_name")
    }

    /// What every page has: language, strings, the language switch and hreflang alternates.
    pub(crate) fn common(
        &self,
        lang: &str,
        root: &str,
        kind: &str,
        path_in: &dyn Fn(&str) -> String,
    ) -> Context {
        let site = self.site;
        let mut ctx = match self.base.get(lang) {
            Some(base) => base.clone(),
            None => base_context(site, lang),
        };
        ctx.insert("root", root);
        ctx.insert("kind", kind);
        let languages: Vec<LangLink> = site
            .config
            .languages
            .iter()
            .map(|l| LangLink {
                code: l.clone(),
                name: self.lang_name(l),
                url: format!("{root}{}", path_in(l)),
                current: l == lang,
            })
            .collect();
        ctx.insert("languages", &languages);
        // full addresses when the site's is known (search engines want them here)
        let base = site
            .config
            .absolute_base()
            .unwrap_or_else(|| site.config.base_url.clone());
        let alternates: Vec<Alternate> = site
            .config
            .languages
            .iter()
            .map(|l| Alternate {
                hreflang: l.clone(),
                href: format!("{base}{}", path_in(l)),
            })
            .collect();
        ctx.insert("alternates", &alternates);
        ctx.insert("canonical", &format!("{base}{}", path_in(lang)));
        ctx
    }

    pub(crate) fn render(&self, template: &str, ctx: &Context) -> Result<String, Diagnostic> {
        use crate::template_safety as safety;
        safety::guarded(|| self.tera.render(template, ctx)).map_err(|e| {
            if let Some(t) = safety::take_tripped() {
                return safety::tripped_diagnostic(&t, &self.site.theme.templates);
            }
            locate_runtime_error(
                template_error(&e, Some(template)),
                template,
                &self.site.theme.templates,
            )
        })
    }

    /// One chapter page for a reader of `lang`.
    pub fn chapter(&self, lang: &str, id: &str, pos: usize) -> Result<String, Diagnostic> {
        let site = self.site;
        let Some((page, fallback)) = site.page_for(lang, id, &self.index) else {
            return Err(Diagnostic::error("internal", id, 0, "chapter vanished"));
        };
        let c = &page.chapter;
        let syms = &site.symbols[&c.lang];
        let mut ctx = self.common(lang, PAGE_ROOT, "chapter", &|l| chapter_path(l, id));
        let at = Page {
            lang,
            id: Some(id),
            root: PAGE_ROOT,
            print: false,
        };
        let terms = site.reading.term_links(&c.lang);
        let html = site.resolver().fill_with(
            &page.prepared.html,
            &page.prepared.pending,
            at,
            &mut |p, m, out| crate::reading_pages::fill_extra(site, &c.lang, terms, at, p, m, out),
        );
        let mut title_refby = String::new();
        if let Some(n) = &page.title_number {
            crate::reading_pages::referenced_by(site, &c.lang, at, n, &mut title_refby);
        }
        ctx.insert("title_refby", &title_refby);
        // how many preview files the language has: reading.js finds a linked section's file
        // from this and the chapter named in the link
        ctx.insert("previews", &crate::reading_pages::preview_file_count(site));
        // and tooltip files, found from this and the anchor named in a term's link
        ctx.insert("terms_files", &crate::reading_pages::terms_file_count(site));
        let other_lang = site.config.others(lang).next();
        ctx.insert("pair_lang", &other_lang);
        // Side by side needs the chapter in both languages: not offered where either side is
        // a chapter not translated yet (both columns were one text; from the translated side,
        // the toggle was offered and led to a note). An address with `?pair=` still gets it.
        let pair_untranslated = other_lang.is_some_and(|other| {
            c.lang != lang
                || site
                    .page_for(other, id, &self.index)
                    .is_none_or(|(_, fallback)| fallback)
        });
        ctx.insert("pair_untranslated", &pair_untranslated);
        ctx.insert(
            "pair_lang_name",
            &other_lang.map(|l| self.lang_name(l)).unwrap_or_default(),
        );
        ctx.insert("title", &syms.to_plain(&c.title));
        let description = c.extra.get("description").and_then(|v| v.as_str());
        ctx.insert("description", description.unwrap_or_default().trim());
        ctx.insert("title_text", &syms.to_plain(&page.title_text));
        ctx.insert("number", &page.title_number);
        // The chapter's HTML is the bulk of the page. Handing it to Tera would copy it into
        // the context, through the filter and into Tera's buffer, then validate the whole
        // page as UTF-8 again; a marker that is replaced after rendering costs one copy.
        ctx.insert("content", CONTENT_MARK);
        ctx.insert("content_lang", &c.lang);
        ctx.insert("chapter_id", id);
        // only `serve` loads drafts: the page says it is one, or an author could take it for
        // published
        ctx.insert("draft", &c.draft);
        // The entries of the table of contents are written here rather than looped over in
        // the template: a Tera loop of five lookups per entry was a tenth of the whole build.
        let mut toc = String::new();
        for h in page
            .prepared
            .headings
            .iter()
            .filter(|h| (2..=3).contains(&h.level))
        {
            toc_entry(
                &mut toc,
                h.level,
                &h.anchor,
                h.number.as_deref(),
                &syms.to_plain(&h.title),
            );
        }
        ctx.insert("toc_html", &toc);
        let nav = |i: usize| -> Option<NavLink> {
            let id = site.order.get(i)?;
            let (p, _) = site.page_for(lang, id, &self.index)?;
            Some(NavLink {
                title: site.symbols[&p.chapter.lang].to_plain(&p.chapter.title),
                url: format!("{PAGE_ROOT}{}", chapter_path(lang, id)),
                lang: (p.chapter.lang != lang).then(|| p.chapter.lang.clone()),
            })
        };
        ctx.insert("prev", &pos.checked_sub(1).and_then(nav));
        ctx.insert("next", &nav(pos + 1));
        let fb = fallback.then(|| Fallback {
            lang: c.lang.clone(),
            lang_name: self.lang_name(&c.lang),
            url: format!("{PAGE_ROOT}{}", chapter_path(&c.lang, id)),
        });
        ctx.insert("fallback", &fb);
        let page = self.render("chapter.html", &ctx)?;
        Ok(splice(&page, CONTENT_MARK, &html))
    }

    pub fn index(&self, lang: &str) -> Result<String, Diagnostic> {
        let site = self.site;
        let root = "../";
        let mut ctx = self.common(lang, root, "index", &|l| format!("{l}/"));
        let chapters: Vec<IndexChapter> = site
            .order
            .iter()
            .filter_map(|id| {
                let (p, fallback) = site.page_for(lang, id, &self.index)?;
                let syms = &site.symbols[&p.chapter.lang];
                Some(IndexChapter {
                    title: syms.to_plain(&p.title_text),
                    number: p.title_number.clone(),
                    url: format!("{root}{}", chapter_path(lang, id)),
                    partly: !fallback && p.prepared.untranslated_in_part(),
                    // its own file, with nothing of it translated yet (an English copy)
                    translated: !fallback && !p.prepared.all_original(),
                    lang: (p.chapter.lang != lang).then(|| p.chapter.lang.clone()),
                    sections: p
                        .prepared
                        .headings
                        .iter()
                        .filter(|h| h.level == 2)
                        .map(|h| TocEntry {
                            level: h.level,
                            anchor: h.anchor.clone(),
                            number: h.number.clone(),
                            title: syms.to_plain(&h.title),
                        })
                        .collect(),
                })
            })
            .collect();
        ctx.insert("title", site.config.title_in(lang));
        // The list is written here, as the chapter pages' tables of contents are (see
        // `chapter`): looped over in the template, its entries were 2% of a whole build.
        // `chapters` stays in the context for a theme that lays the list out itself.
        ctx.insert(
            "chapters_html",
            &chapter_list(
                &chapters,
                site.theme.str(lang, "not_translated_title"),
                site.theme.str(lang, "partly_translated"),
            ),
        );
        ctx.insert("chapters", &chapters);
        ctx.insert("has_glossary", &!site.glossaries.is_empty());
        self.render("index.html", &ctx)
    }

    pub fn glossary(&self, lang: &str) -> Result<String, Diagnostic> {
        let site = self.site;
        let mut ctx = self.common(lang, PAGE_ROOT, "glossary", &|l| format!("{l}/glossary/"));
        ctx.insert("title", &site.theme.string(lang, "glossary"));
        self.insert_glossary(&mut ctx, lang, "untranslated", false);
        self.render("glossary.html", &ctx)
    }

    /// The glossary's entries for `glossary_entries.html`: ready-made (`entries_html`, written
    /// here as the contents list is: looped over in the template, the entries were 3% of a
    /// build, on two pages a language), and as data (`entries`) for a theme that lays them out
    /// itself. `untranslated_id` is the id of the heading before the entries only another
    /// language has.
    pub(crate) fn insert_glossary(
        &self,
        ctx: &mut Context,
        lang: &str,
        untranslated_id: &str,
        print: bool,
    ) {
        let entries = self.glossary_items(lang, print);
        let t = |key| self.site.theme.str(lang, key);
        let labels = GlossaryLabels {
            untranslated_id,
            untranslated_entries: t("untranslated_entries"),
            aliases: t("aliases"),
            source: t("source"),
        };
        ctx.insert("entries_html", &glossary_list(&entries, &labels));
        ctx.insert("entries", &entries);
        ctx.insert("untranslated_id", untranslated_id);
    }

    /// The entries of `lang`'s glossary as its page shows them: this language's entries in
    /// alphabetical order, then the ones only another language has. On the print view
    /// (`print`), every anchor is prefixed `glossary:` and section links stay on the page.
    pub(crate) fn glossary_items(&self, lang: &str, print: bool) -> Vec<GlossaryItem> {
        let site = self.site;
        let resolver = site.resolver();
        let mut items: Vec<(Vec<u32>, GlossaryItem)> = Vec::new();
        let mut seen_keys: rustc_hash::FxHashSet<&str> = Default::default();
        // every id on the page, and where each of this language's entries is in `items`
        let mut page_anchors: rustc_hash::FxHashSet<String> = (crate::glossary::PAGE_IDS.iter())
            .map(|id| id.to_string())
            .collect();
        let mut by_anchor: rustc_hash::FxHashMap<&str, usize> = Default::default();
        // this language's entries, then the entries only other languages have (untranslated)
        let mut sources: Vec<&str> = vec![lang];
        sources.extend(site.config.others(lang).map(String::as_str));
        // the own anchor of every entry of this language: a key's anchor that is another
        // entry's own (keys `Exhaust` and `exhaust`: `exhaust` and `exhaust-1`) is not given
        // to a second element
        let own_anchors: rustc_hash::FxHashSet<&str> = (site.glossaries.get(lang).iter())
            .flat_map(|g| g.entries.iter().map(|e| e.anchor.as_str()))
            .collect();
        for src_lang in sources {
            let Some(g) = site.glossaries.get(src_lang) else {
                continue;
            };
            let alphabet = site.theme.alphabet(src_lang);
            for (e, prepared) in g.entries.iter().zip(&site.glossary_html[src_lang]) {
                if src_lang != lang {
                    let own = site.glossaries.get(lang).and_then(|o| {
                        o.get(&e.key)
                            .or_else(|| e.merged_keys.iter().find_map(|k| o.get(k)))
                    });
                    if let Some(oe) = own {
                        // This language has the entry, perhaps under only some of the keys the
                        // other language merged into it. Text in this language may still link
                        // the other keys' anchors (a term left untranslated): they go on the
                        // entry that is shown.
                        if let Some(&i) = by_anchor.get(oe.anchor.as_str()) {
                            let keys = std::iter::once(&e.key).chain(&e.merged_keys);
                            let anchors = std::iter::once(e.anchor.clone())
                                .chain(keys.map(|k| alias_anchor(k)));
                            for a in anchors {
                                if page_anchors.insert(a.clone()) {
                                    items[i].1.extra_anchors.push(a);
                                }
                            }
                        }
                        continue;
                    }
                }
                if !seen_keys.insert(&e.key) {
                    continue;
                }
                let others = site
                    .config
                    .others(src_lang)
                    .filter_map(|l| {
                        let og = site.glossaries.get(l)?;
                        let oe = og
                            .get(&e.key)
                            .or_else(|| e.merged_keys.iter().find_map(|k| og.get(k)))?;
                        Some(OtherTerm {
                            lang: l.clone(),
                            lang_name: self.lang_name(l),
                            term: display_term(&oe.term),
                        })
                    })
                    .collect();
                let mut extra = vec![];
                for k in std::iter::once(&e.key).chain(&e.merged_keys) {
                    let a = alias_anchor(k);
                    let taken = own_anchors.contains(a.as_str()) || page_anchors.contains(&a);
                    if a != e.anchor && !taken && !extra.contains(&a) {
                        extra.push(a);
                    }
                }
                let term = display_term(&e.term);
                page_anchors.insert(e.anchor.clone());
                page_anchors.extend(extra.iter().cloned());
                by_anchor.insert(&e.anchor, items.len());
                items.push((
                    collation_key(&term, &alphabet),
                    GlossaryItem {
                        anchor: e.anchor.clone(),
                        extra_anchors: extra,
                        term,
                        aliases: e.aliases.clone(),
                        others,
                        definition: {
                            // on the print view, a definition's own anchors (footnotes) are
                            // kept apart from every other entry's
                            let ns = format!("glossary:{}", e.anchor);
                            let page = Page {
                                lang,
                                id: print.then_some(ns.as_str()),
                                root: PAGE_ROOT,
                                print,
                            };
                            resolver.fill(&prepared.html, &prepared.pending, page)
                        },
                        source: e.source.clone(),
                        tags: e.tags.clone(),
                        translated: src_lang == lang,
                        lang: src_lang.to_string(),
                    },
                ));
            }
        }
        items.sort_by(|a, b| (!a.1.translated, &a.0).cmp(&(!b.1.translated, &b.0)));
        let mut items: Vec<GlossaryItem> = items.into_iter().map(|(_, i)| i).collect();
        if print {
            for i in &mut items {
                i.anchor.insert_str(0, "glossary:");
                for a in &mut i.extra_anchors {
                    a.insert_str(0, "glossary:");
                }
            }
        }
        items
    }

    pub fn root_page(&self) -> Result<String, Diagnostic> {
        let lang = self.site.config.default_language.clone();
        let mut ctx = self.common(&lang, "", "root", &|l| format!("{l}/"));
        ctx.insert("title", self.site.config.title_in(&lang));
        self.render("root.html", &ctx)
    }

    pub fn not_found(&self) -> Result<String, Diagnostic> {
        let site = self.site;
        let lang = site.config.default_language.clone();
        // 404.html is served at any depth, so its links are absolute (from base_url)
        let root = site.config.base_url.clone();
        let mut ctx = self.common(&lang, &root, "404", &|l| format!("{l}/"));
        let per_lang: Vec<HashMap<&str, String>> = site
            .config
            .languages
            .iter()
            .map(|l| {
                let mut m = HashMap::new();
                m.insert("lang", l.clone());
                m.insert("title", site.theme.string(l, "not_found_title"));
                m.insert("text", site.theme.string(l, "not_found_text"));
                m.insert("offline_title", site.theme.string(l, "offline_page_title"));
                m.insert("offline_text", site.theme.string(l, "offline_page_text"));
                m.insert("home", site.theme.string(l, "contents"));
                m.insert("url", format!("{root}{l}/"));
                m
            })
            .collect();
        ctx.insert("title", &site.theme.string(&lang, "not_found_title"));
        ctx.insert("messages", &per_lang);
        // served for any address that has no page: it is no page of the site's own to name
        // as canonical, nor the language version of one
        ctx.insert("canonical", "");
        ctx.insert("alternates", &Vec::<Alternate>::new());
        self.render("404.html", &ctx)
    }
}

/// Keys of the chat-bot glossary are lowercase (`exhausted pool`); show them capitalised.
pub fn display_term(term: &str) -> String {
    if term.chars().any(char::is_uppercase) {
        return term.to_string();
    }
    let mut c = term.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The templates that render a whole page, each rendered by one [`Renderer`] method.
const PAGE_TEMPLATES: &[&str] = &[
    "chapter.html",
    "index.html",
    "glossary.html",
    "print.html",
    "root.html",
    "404.html",
];

/// For `check`: renders in memory every page whose template uses one of `changed` (the
/// templates the site overrides), with the context the build gives it, and returns what
/// failed. A template can be valid syntax and still fail only when it meets a page's data
/// (`{{ nonexistent.var }}`, or `{{ prev.titel }}` in a branch only a chapter with a previous
/// one takes), which only rendering finds: so every chapter is rendered, as the build renders
/// them, not a sample (the first chapter alone passed templates that failed the build). Pages
/// that use only the embedded templates are skipped, as those render on any site, which keeps
/// `check` as fast as before on a site without overrides. An overridden template no page uses
/// is not rendered, as the build never renders it either.
pub fn render_samples(site: &Site, tera: Tera, changed: &BTreeSet<String>) -> Vec<Diagnostic> {
    let pages: Vec<&str> = (PAGE_TEMPLATES.iter().copied())
        .filter(|p| {
            let used = crate::template_safety::reached(&tera, &[p]);
            used.iter().any(|t| changed.contains(t))
        })
        .collect();
    if pages.is_empty() {
        return Vec::new();
    }
    let r = Renderer::new(site, tera);
    // (template, language, chapter position for chapter pages)
    let mut jobs: Vec<(&str, &str, usize)> = Vec::new();
    for p in pages {
        if matches!(p, "root.html" | "404.html") {
            // one page for the whole site, in the default language
            jobs.push((p, &site.config.default_language, 0));
        } else if p == "chapter.html" {
            for l in &site.config.languages {
                jobs.extend((0..site.order.len()).map(|i| (p, l.as_str(), i)));
            }
        } else {
            jobs.extend(site.config.languages.iter().map(|l| (p, l.as_str(), 0)));
        }
    }
    let mut out: Vec<Diagnostic> = jobs
        .par_iter()
        .filter_map(|&(page, lang, i)| {
            let rendered = match page {
                "chapter.html" => r.chapter(lang, &site.order[i], i).map(drop),
                "index.html" => r.index(lang).map(drop),
                "glossary.html" => r.glossary(lang).map(drop),
                "print.html" => r.print(lang).map(drop),
                "root.html" => r.root_page().map(drop),
                _ => r.not_found().map(drop),
            };
            rendered.err()
        })
        .collect();
    // the same mistake fails every page and language alike: say it once
    out.sort_by(|a, b| (&a.file, a.line, &a.message).cmp(&(&b.file, b.line, &b.message)));
    out.dedup();
    out
}

/// A page of the site to render and write.
enum PageJob<'s> {
    Index(&'s str),
    Glossary(&'s str),
    /// `<lang>/glossary/terms-<k>-of-<count>.js`: tooltip data.
    Terms(&'s str),
    /// `<lang>/s/index.html` and its table's files: short section addresses.
    Short(&'s str),
    /// `<lang>/s/p<k>-of-<count>.js`: section previews.
    Previews(&'s str),
    Chapter(&'s str, &'s str, usize),
    /// `<lang>/print/index.html`: every chapter on one page.
    Print(&'s str),
}

/// Writes every file of the site into `dir`. Returns the number of files written.
/// Every file the service worker serves from its cache first (`static/`, `media/`) is counted
/// into `cached` as it is written ([`crate::offline`]).
pub fn write_site(
    site: &Site,
    tera: Tera,
    dir: &Path,
    cached: &crate::offline::Fingerprint,
    diags: &mut Diagnostics,
) -> usize {
    let r = Renderer::new(site, tera);
    // One parallel pass over every page. The index and glossary pages of a large site are long
    // single renders, so they go first: the chapter pages then fill the other threads around
    // them instead of waiting behind them.
    let mut jobs: Vec<PageJob> = Vec::new();
    for lang in &site.config.languages {
        jobs.push(PageJob::Print(lang));
    }
    for lang in &site.config.languages {
        jobs.push(PageJob::Index(lang));
        jobs.push(PageJob::Glossary(lang));
        jobs.push(PageJob::Terms(lang));
        jobs.push(PageJob::Short(lang));
        jobs.push(PageJob::Previews(lang));
    }
    for lang in &site.config.languages {
        for (pos, id) in site.order.iter().enumerate() {
            jobs.push(PageJob::Chapter(lang, id, pos));
        }
    }
    let results: Vec<Result<usize, Diagnostic>> = jobs
        .par_iter()
        .with_max_len(1)
        .map(|job| {
            let files = match *job {
                PageJob::Index(lang) => vec![(format!("{lang}/index.html"), r.index(lang)?)],
                PageJob::Glossary(lang) => {
                    vec![(format!("{lang}/glossary/index.html"), r.glossary(lang)?)]
                }
                PageJob::Terms(lang) => crate::reading_pages::terms_files(site, lang),
                PageJob::Short(lang) => {
                    let mut files = crate::reading_pages::short_files(site, lang);
                    files.push((
                        format!("{lang}/s/index.html"),
                        crate::reading_pages::short_page(site, lang),
                    ));
                    files
                }
                PageJob::Previews(lang) => crate::reading_pages::preview_files(site, lang, None),
                PageJob::Print(lang) => {
                    // the one page that grows with the whole book: its own line in the timings
                    let mut sw = crate::timing::Stopwatch::start();
                    let page = r.print(lang)?;
                    let mut chapters = 0;
                    crate::output::write_with(dir, &crate::print::print_path(lang), |w| {
                        chapters = page.write_to(w)?;
                        Ok(())
                    })
                    .map_err(|e| io_error(dir, e))?;
                    sw.lap(&format!("print view {lang} ({} KB)", chapters / 1024));
                    return Ok(1);
                }
                PageJob::Chapter(lang, id, pos) => vec![(
                    format!("{}index.html", chapter_path(lang, id)),
                    r.chapter(lang, id, pos)?,
                )],
            };
            for (path, text) in &files {
                write_file(dir, path, text.as_bytes()).map_err(|e| io_error(dir, e))?;
            }
            Ok(files.len())
        })
        .collect();
    let mut written = 0;
    let mut fails: Vec<Diagnostic> = Vec::new();
    for r in results {
        match r {
            Ok(n) => written += n,
            Err(d) => fails.push(d),
        }
    }
    let mut small: Vec<(String, Vec<u8>)> = Vec::new();
    match r.root_page() {
        Ok(h) => small.push(("index.html".into(), h.into_bytes())),
        Err(d) => fails.push(d),
    }
    match r.not_found() {
        Ok(h) => small.push(("404.html".into(), h.into_bytes())),
        Err(d) => fails.push(d),
    }
    small.push((".nojekyll".into(), Vec::new()));
    if let Some(c) = &site.config.cname {
        small.push(("CNAME".into(), format!("{c}\n").into_bytes()));
    }
    small.push(("sitemap.xml".into(), sitemap(site).into_bytes()));
    let robots = if let Some(base) = site.config.absolute_base() {
        format!("User-agent: *\nAllow: /\nSitemap: {base}sitemap.xml\n")
    } else {
        "User-agent: *\nAllow: /\n".to_string()
    };
    small.push(("robots.txt".into(), robots.into_bytes()));
    for (name, f) in &site.theme.static_files {
        match site.theme.read_static(name, f) {
            Ok(b) => small.push((format!("static/{name}"), b)),
            Err(e) => fails.push(Diagnostic::error(
                "io",
                format!("static/{name}"),
                0,
                format!("cannot read: {e}"),
            )),
        }
    }
    let mut images: Vec<&crate::markdown::ImageCopy> = site
        .pages
        .values()
        .flatten()
        .flat_map(|p| &p.prepared.images)
        .collect();
    images.extend(
        site.glossary_html
            .values()
            .flatten()
            .flat_map(|p| &p.images),
    );
    images.sort();
    images.dedup();
    for img in images {
        match std::fs::read(&img.from) {
            Ok(b) => small.push((format!("media/{}", img.to), b)),
            Err(e) => fails.push(Diagnostic::error(
                "io",
                img.from.display().to_string(),
                0,
                format!("cannot read image: {e}"),
            )),
        }
    }
    for (name, bytes) in &small {
        if crate::offline::cached_first(name) {
            cached.add(name, bytes);
        }
        if let Err(e) = write_file(dir, name, bytes) {
            fails.push(io_error(dir, e));
        }
    }
    written += small.len();
    diags.extend(fails);
    written
}

fn io_error(dir: &Path, e: std::io::Error) -> Diagnostic {
    Diagnostic::error(
        "io",
        dir.display().to_string(),
        0,
        format!("cannot write the site: {e}"),
    )
}

/// `sitemap.xml` with every page and its language alternates. URLs are absolute when
/// `base_url` is; with a path-only base URL they are paths (still useful to tools, and correct
/// once the site is published under that path).
fn sitemap(site: &Site) -> String {
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n");
    // a sitemap's addresses must be absolute: the custom domain's when the base is a path
    let base = site
        .config
        .absolute_base()
        .unwrap_or_else(|| site.config.base_url.clone());
    type PathOf = Box<dyn Fn(&str) -> String>;
    let mut paths: Vec<PathOf> = vec![
        Box::new(|l: &str| format!("{l}/")),
        Box::new(|l: &str| format!("{l}/glossary/")),
    ];
    for id in &site.order {
        let id = id.clone();
        paths.push(Box::new(move |l: &str| chapter_path(l, &id)));
    }
    for p in &paths {
        for lang in &site.config.languages {
            s.push_str("<url><loc>");
            s.push_str(&escape(&url_escaped(&format!("{base}{}", p(lang)))));
            s.push_str("</loc>");
            for alt in &site.config.languages {
                s.push_str(&format!(
                    "<xhtml:link rel=\"alternate\" hreflang=\"{alt}\" href=\"{}\"/>",
                    escape(&url_escaped(&format!("{base}{}", p(alt))))
                ));
            }
            s.push_str("</url>\n");
        }
    }
    s.push_str("</urlset>\n");
    s
}

/// `url` with every byte outside printable ASCII (a chapter id in Cyrillic, a space)
/// percent-encoded: a sitemap's addresses must be URLs, not IRIs.
fn url_escaped(url: &str) -> String {
    let mut out = String::with_capacity(url.len());
    for b in url.bytes() {
        if b.is_ascii_graphic() {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sitemap_addresses_are_percent_encoded() {
        assert_eq!(
            url_escaped("https://x.org/uk/кінець/"),
            "https://x.org/uk/%D0%BA%D1%96%D0%BD%D0%B5%D1%86%D1%8C/"
        );
        assert_eq!(url_escaped("/en/a b/"), "/en/a%20b/");
        assert_eq!(url_escaped("/en/basics/"), "/en/basics/");
    }

    #[test]
    fn splice_replaces_every_mark_and_nothing_else() {
        assert_eq!(splice("a<M>b<M>c", "<M>", "Ж"), "aЖbЖc");
        assert_eq!(splice("no mark", "<M>", "Ж"), "no mark");
    }
}
