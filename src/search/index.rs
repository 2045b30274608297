//! The command line's index: tantivy, kept in `SITE/.rulebook-cache/search/` (never in the
//! published output), built on the first `rulebook search` and reused while the content's
//! fingerprint stays the same.
//!
//! tantivy stores the postings (with frequencies), the field lengths and the documents; the
//! site's analyzer is registered as its tokenizer (`rulebook`), so tantivy's terms are exactly
//! the browser's. Matching and ranking follow [`super::rank`] (the browser follows the same
//! rules), reading postings and statistics from tantivy directly.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::Path;

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};
use serde::{Deserialize, Serialize};
use tantivy::schema::{
    Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, Value, STORED,
};
use tantivy::tokenizer::{TextAnalyzer, Token, TokenStream, Tokenizer};
use tantivy::{DocSet, Index, IndexReader, TantivyDocument, Term, TERMINATED};

use super::analyzer::tokenize;
use super::docs::{Doc, Kind};
use super::rank;
use super::web::is_plain_number;

/// Name of the site's analyzer among tantivy's tokenizers.
pub const TOKENIZER: &str = "rulebook";
/// Name of the tokenizer of the `spelling` field: the spellings with `ґ` of the words that
/// have one ([`rank::spelling`]), so the exact form can rank higher (rank.rs, step 3).
pub const SPELLING_TOKENIZER: &str = "rulebook-spelling";
/// Changes whenever the index's schema or the analyzer's terms do, so an index of an older
/// layout is rebuilt (10: English words past `MAX_STEMMED_CHARS` are kept whole).
const FORMAT: u32 = 10;
/// The code that makes the index's terms: an index made by another analyzer or stemmer (a
/// program built from other sources, of the same version) is built again, not searched
/// with terms it does not have (`пять` found nothing once the stemmer dropped apostrophes).
const ANALYZER_SOURCE: [&str; 6] = [
    include_str!("analyzer.rs"),
    include_str!("stem_uk.rs"),
    include_str!("index.rs"),
    // `rank::spelling` makes the spelling field's terms, `web::is_plain_number` and the
    // documents of `docs.rs` what is indexed
    include_str!("rank.rs"),
    include_str!("web.rs"),
    include_str!("docs.rs"),
];
/// Where the index lives, below the site folder.
pub const CACHE_DIR: &str = ".rulebook-cache/search";
/// The index's vocabulary ([`SearchIndex::vocabulary`]), written beside it when it is built:
/// the number of terms, then one `term<TAB>frequency` line per term, sorted. Every search
/// plans its words over the vocabulary, and working it out from the index (every term of three
/// fields, 41,732 at 2,000 chapters) took 18 to 24 ms of each warm search; the file is read in
/// a few.
const VOCABULARY: &str = "vocabulary.tsv";

/// The site's analyzer as a tantivy tokenizer: one token per word, its text the word's term.
#[derive(Clone, Default)]
pub struct RulebookTokenizer;

pub struct RulebookTokenStream {
    tokens: Vec<Token>,
    next: usize,
}

/// A token of a chunk: (start, end, term), offsets relative to the chunk.
type ChunkToken = (usize, usize, String);

thread_local! {
    /// The tokens of each whitespace-separated chunk seen so far (offsets relative to the
    /// chunk): rules text repeats its words, so indexing a large site analyzes each distinct
    /// chunk once. Words never span whitespace (see [`super::terms`]).
    static CHUNKS: std::cell::RefCell<HashMap<String, Vec<ChunkToken>>> =
        std::cell::RefCell::new(HashMap::new());
}

impl Tokenizer for RulebookTokenizer {
    type TokenStream<'a> = RulebookTokenStream;
    fn token_stream<'a>(&'a mut self, text: &'a str) -> RulebookTokenStream {
        let mut tokens = Vec::new();
        CHUNKS.with_borrow_mut(|cache| {
            if cache.len() > 500_000 {
                cache.clear();
            }
            let mut at = 0;
            for chunk in text.split(char::is_whitespace) {
                let base = at;
                at += chunk.len();
                // the separator: one whitespace character
                at += text[at..].chars().next().map_or(0, char::len_utf8);
                if chunk.is_empty() {
                    continue;
                }
                let toks = cache.entry(chunk.to_string()).or_insert_with(|| {
                    tokenize(chunk)
                        .into_iter()
                        .map(|t| (t.start, t.end, t.term))
                        .collect()
                });
                for (s, e, term) in toks.iter() {
                    tokens.push(Token {
                        offset_from: base + s,
                        offset_to: base + e,
                        position: tokens.len(),
                        text: term.clone(),
                        position_length: 1,
                    });
                }
            }
        });
        RulebookTokenStream { tokens, next: 0 }
    }
}

/// The `spelling` field's tokenizer: one token per word written with `ґ`, its text the
/// word's spelling (its term with `ґ` kept). Nothing for other words, which are most words,
/// so the field stays tiny; how often a document has a term spelled with `г` is its count of
/// the term less the counts of its spellings with `ґ`.
#[derive(Clone, Default)]
pub struct SpellingTokenizer;

impl Tokenizer for SpellingTokenizer {
    type TokenStream<'a> = RulebookTokenStream;
    fn token_stream<'a>(&'a mut self, text: &'a str) -> RulebookTokenStream {
        let mut tokens = Vec::new();
        // `ґ` has no decomposition and no look-alike, so only a chunk that has it can give a
        // spelling with it; words never span whitespace (see [`super::terms`]).
        if text.contains(['ґ', 'Ґ']) {
            let mut at = 0;
            for chunk in text.split(char::is_whitespace) {
                let base = at;
                at += chunk.len();
                at += text[at..].chars().next().map_or(0, char::len_utf8);
                if !chunk.contains(['ґ', 'Ґ']) {
                    continue;
                }
                for t in tokenize(chunk) {
                    if t.exact.contains('ґ') {
                        tokens.push(Token {
                            offset_from: base + t.start,
                            offset_to: base + t.end,
                            position: tokens.len(),
                            text: rank::spelling(&t.exact, &t.term),
                            position_length: 1,
                        });
                    }
                }
            }
        }
        RulebookTokenStream { tokens, next: 0 }
    }
}

impl TokenStream for RulebookTokenStream {
    fn advance(&mut self) -> bool {
        self.next += 1;
        self.next <= self.tokens.len()
    }
    fn token(&self) -> &Token {
        &self.tokens[self.next - 1]
    }
    fn token_mut(&mut self) -> &mut Token {
        &mut self.tokens[self.next - 1]
    }
}

struct Fields {
    title: Field,
    body: Field,
    /// A section's own number (`7.1.0`), which ranks as a word of its title without
    /// counting in the title's length (rank.rs, step 3): a field of its own, as tantivy's
    /// field lengths count every token of a field.
    number: Field,
    /// A glossary entry's other names (aliases, other languages' terms): words of its title
    /// outside the title's length, like `number` (rank.rs, step 3; [`Doc::names`]).
    others: Field,
    /// A glossary entry's names, stored for an entry with other names only: its title as
    /// shown, then its other names (`Doc::names`), a line each, as the browser has them in
    /// the entry's document chunk. Step 5 asks whether one of them is exactly the query
    /// (`docs::named`, rank.rs `named_exact`), step 6 whether one is spelled as typed.
    names: Field,
    spelling: Field,
    lang: Field,
    kind: Field,
    section: Field,
    shown_title: Field,
    chapter: Field,
    url: Field,
}

fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let indexed = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(TOKENIZER)
            .set_index_option(IndexRecordOption::WithFreqs)
            .set_fieldnorms(true),
    );
    let fields = Fields {
        title: b.add_text_field("title", indexed.clone()),
        body: b.add_text_field("body", indexed.clone().set_stored()),
        number: b.add_text_field(
            "number",
            TextOptions::default().set_indexing_options(
                TextFieldIndexing::default()
                    .set_tokenizer("raw")
                    .set_index_option(IndexRecordOption::WithFreqs)
                    .set_fieldnorms(false),
            ),
        ),
        others: b.add_text_field(
            "others",
            TextOptions::default().set_indexing_options(
                TextFieldIndexing::default()
                    .set_tokenizer(TOKENIZER)
                    .set_index_option(IndexRecordOption::WithFreqs)
                    .set_fieldnorms(false),
            ),
        ),
        names: b.add_text_field("names", STORED),
        spelling: b.add_text_field(
            "spelling",
            TextOptions::default().set_indexing_options(
                TextFieldIndexing::default()
                    .set_tokenizer(SPELLING_TOKENIZER)
                    .set_index_option(IndexRecordOption::WithFreqs)
                    .set_fieldnorms(false),
            ),
        ),
        lang: b.add_text_field("lang", STORED),
        kind: b.add_text_field("kind", STORED),
        section: b.add_text_field("section", STORED),
        shown_title: b.add_text_field("shown_title", STORED),
        chapter: b.add_text_field("chapter", STORED),
        url: b.add_text_field("url", STORED),
    };
    (b.build(), fields)
}

fn fields_of(schema: &Schema) -> tantivy::Result<Fields> {
    Ok(Fields {
        title: schema.get_field("title")?,
        body: schema.get_field("body")?,
        number: schema.get_field("number")?,
        others: schema.get_field("others")?,
        names: schema.get_field("names")?,
        spelling: schema.get_field("spelling")?,
        lang: schema.get_field("lang")?,
        kind: schema.get_field("kind")?,
        section: schema.get_field("section")?,
        shown_title: schema.get_field("shown_title")?,
        chapter: schema.get_field("chapter")?,
        url: schema.get_field("url")?,
    })
}

/// What is kept beside the tantivy files.
#[derive(Serialize, Deserialize, PartialEq)]
struct Stamp {
    fingerprint: String,
    /// (lang, first document, end)
    langs: Vec<(String, u32, u32)>,
}

/// A cheap fingerprint of everything the index is made from: the program's version and the
/// path, size and modification time of every file of `content/`, `i18n/` and `site.yaml`.
/// Reading the files would cost more than a warm search may take; and every warm search
/// takes this fingerprint, so each file's status is asked of its folder (`DirEntry::metadata`,
/// a `statx` relative to the open folder) rather than by its whole path, which at 2,000
/// chapters took 14 to 20 ms of a 55 to 75 ms search.
pub fn fingerprint(site: &Path) -> String {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    env!("CARGO_PKG_VERSION").hash(&mut h);
    FORMAT.hash(&mut h);
    ANALYZER_SOURCE.hash(&mut h);
    for top in ["content", "i18n", "site.yaml", "content/site.yaml"] {
        let mut entries: Vec<(Vec<u8>, u64, u128)> = Vec::new();
        let path = site.join(top);
        // the top itself may be a link (to a folder kept elsewhere); below it, links are
        // not followed
        match std::fs::metadata(&path) {
            Ok(m) if m.is_file() => entries.push((Vec::new(), m.len(), mtime(&m))),
            Ok(m) if m.is_dir() => files_below(&path, &mut Vec::new(), &mut entries),
            _ => {}
        }
        entries.sort_unstable();
        entries.hash(&mut h);
    }
    format!("{:016x}", h.finish())
}

/// Every file below `dir`, and every link to a file: its path below the top folder (`rel`
/// is the part down to `dir`), size and modification time (of the file a link leads to).
/// Links to folders are not followed.
fn files_below(dir: &Path, rel: &mut Vec<u8>, out: &mut Vec<(Vec<u8>, u64, u128)>) {
    let Ok(list) = std::fs::read_dir(dir) else {
        return;
    };
    // this folder's files, whose status is asked for before the folder is left: an entry
    // keeps its folder open, and a site of more folders than a process may open would have
    // lost some of them from the fingerprint
    let mut files: Vec<(Vec<u8>, std::fs::DirEntry)> = Vec::new();
    for e in list.flatten() {
        let Ok(kind) = e.file_type() else {
            continue;
        };
        let len = rel.len();
        rel.push(b'/');
        rel.extend_from_slice(e.file_name().as_encoded_bytes());
        if kind.is_dir() {
            files_below(&e.path(), rel, out);
        } else if kind.is_file() {
            files.push((rel.clone(), e));
        } else if kind.is_symlink() {
            // a linked chapter file is read by the build (load.rs), so what it leads to
            // counts: an edit of the file it links to, or a link moved to another file (a
            // linked folder is not read, and not walked here)
            let path = e.path();
            if let (Ok(m), Ok(to)) = (std::fs::metadata(&path), std::fs::read_link(&path)) {
                if m.is_file() {
                    rel.extend_from_slice(b" -> ");
                    rel.extend_from_slice(to.as_os_str().as_encoded_bytes());
                    out.push((rel.clone(), m.len(), mtime(&m)));
                }
            }
        }
        rel.truncate(len);
    }
    // A status each, asked on every core: a warm search of a site of 4,000 chapter files
    // spent a fifth of its time in these calls, one after the other.
    out.par_extend(files.into_par_iter().filter_map(|(rel, e)| {
        let m = e.metadata().ok()?;
        Some((rel, m.len(), mtime(&m)))
    }));
}

fn mtime(m: &std::fs::Metadata) -> u128 {
    m.modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos())
}

fn register(tok: &tantivy::tokenizer::TokenizerManager) {
    tok.register(TOKENIZER, TextAnalyzer::from(RulebookTokenizer));
    tok.register(SPELLING_TOKENIZER, TextAnalyzer::from(SpellingTokenizer));
}

fn tokenizers(index: &Index) {
    register(index.tokenizers());
}

/// An open index.
pub struct SearchIndex {
    reader: IndexReader,
    fields: Fields,
    langs: Vec<(String, u32, u32)>,
    /// [`VOCABULARY`] of this index
    vocabulary_file: std::path::PathBuf,
}

/// One result.
#[derive(Debug, Clone, Serialize)]
pub struct Hit {
    pub lang: String,
    pub kind: Kind,
    pub title: String,
    pub section: String,
    pub chapter: String,
    pub url: String,
    pub snippet: String,
    pub score: f64,
    /// Whether its title is exactly the query, which put it before results of higher score
    /// on the first page (rank.rs, step 5).
    pub exact: bool,
    /// Position of the document in site order (what ties are broken by).
    #[serde(skip)]
    pub ord: u64,
}

impl SearchIndex {
    /// Opens the index of `site` if it is there and current.
    pub fn open_current(site: &Path) -> Option<SearchIndex> {
        let dir = site.join(CACHE_DIR);
        let stamp: Stamp =
            serde_json::from_slice(&std::fs::read(dir.join("stamp.json")).ok()?).ok()?;
        if stamp.fingerprint != fingerprint(site) {
            return None;
        }
        // a stamp that does not describe the index beside it (damaged, or written by hand) is
        // no reason to answer "the site has no such language": the index is built again
        Self::open(&dir.join("index"), stamp.langs)
            .ok()
            .filter(SearchIndex::ranges_cover_documents)
    }

    /// Whether the languages' document ranges cover every document once. A language without
    /// documents has an empty range, wherever it is in the list (`build` puts it at the end).
    fn ranges_cover_documents(&self) -> bool {
        let docs = self.reader.searcher().num_docs();
        let mut ranges: Vec<(u32, u32)> = self.langs.iter().map(|(_, f, e)| (*f, *e)).collect();
        if ranges.is_empty() || ranges.iter().any(|(f, e)| f > e || u64::from(*e) > docs) {
            return false;
        }
        ranges.retain(|(f, e)| f < e);
        ranges.sort_unstable();
        let mut next = 0;
        for (first, end) in ranges {
            if first != next {
                return false;
            }
            next = end;
        }
        u64::from(next) == docs
    }

    fn open(dir: &Path, langs: Vec<(String, u32, u32)>) -> tantivy::Result<SearchIndex> {
        let index = Index::open(super::read_only::ReadOnly::open(dir)?)?;
        tokenizers(&index);
        let fields = fields_of(&index.schema())?;
        // Manual: a search reads the index once; the default policy starts a thread that
        // watches `meta.json` by path, a path another build may have moved by then
        let reader = index
            .reader_builder()
            .reload_policy(tantivy::ReloadPolicy::Manual)
            .try_into()?;
        Ok(SearchIndex {
            reader,
            fields,
            langs,
            vocabulary_file: dir.join(VOCABULARY),
        })
    }

    /// Builds the index of `docs` for `site` and opens it. The new index is written beside the
    /// old one and renamed into place, so a search running at the same time never sees half
    /// an index.
    pub fn build(
        site: &Path,
        docs: &[Doc<'_>],
        languages: &[String],
    ) -> Result<SearchIndex, String> {
        let fp = fingerprint(site);
        let cache = site.join(CACHE_DIR);
        let tmp = cache.join(format!("tmp-{}", std::process::id()));
        sweep(&cache);
        remove_any(&tmp);
        crate::stop::remove_on_stop(&tmp);
        std::fs::create_dir_all(&tmp).map_err(|e| {
            use std::io::ErrorKind::{PermissionDenied, ReadOnlyFilesystem};
            let hint = if matches!(e.kind(), PermissionDenied | ReadOnlyFilesystem) {
                "; the search index is missing or older than the content, and it is kept in \
                     the site folder, which must be writable to build it (or search a copy of \
                     the site)"
            } else {
                ""
            };
            format!("cannot create {}: {e}{hint}", tmp.display())
        })?;
        let err = |e: tantivy::TantivyError| format!("cannot build the search index: {e}");
        let (schema, f) = schema();
        let tok = tantivy::tokenizer::TokenizerManager::default();
        register(&tok);
        let dir = tantivy::directory::MmapDirectory::open(&tmp).map_err(|e| err(e.into()))?;
        let mut writer = Index::builder()
            .schema(schema)
            .tokenizers(tok)
            .single_segment_index_writer::<TantivyDocument>(dir, 200_000_000)
            .map_err(err)?;
        for d in docs {
            let mut doc = TantivyDocument::default();
            let (own, others) = d.names();
            doc.add_text(f.title, own);
            if !others.is_empty() {
                doc.add_text(f.others, others);
            }
            if !d.other_names().is_empty() {
                // as the browser has them: the title as shown, then the other names
                doc.add_text(f.names, format!("{}\n{}", d.title, d.other_names()));
            }
            doc.add_text(f.body, &d.text);
            if is_plain_number(&d.section) {
                doc.add_text(f.number, &d.section);
            }
            doc.add_text(f.spelling, &d.keys);
            doc.add_text(f.spelling, &d.text);
            doc.add_text(f.lang, d.lang);
            doc.add_text(
                f.kind,
                if d.kind == Kind::Glossary {
                    "glossary"
                } else {
                    "section"
                },
            );
            doc.add_text(f.section, &d.section);
            doc.add_text(f.shown_title, &d.title);
            doc.add_text(f.chapter, &d.chapter);
            doc.add_text(f.url, &d.url);
            writer.add_document(doc).map_err(err)?;
        }
        writer.finalize().map_err(err)?;
        let mut langs = Vec::new();
        for l in languages {
            let first = docs.iter().position(|d| d.lang == l).unwrap_or(docs.len());
            let end = first + docs[first..].iter().take_while(|d| d.lang == l).count();
            langs.push((l.clone(), first as u32, end as u32));
        }
        let io = |e: std::io::Error| format!("cannot write the search index: {e}");
        // Opened here, before the swap, and returned: its files are open from now on, and
        // stay readable whatever another search does with the folder after the swap (two
        // searches building at once: the other may move this index aside and delete it
        // before it could be opened again by its new name).
        let built = Self::open(&tmp, langs.clone()).map_err(err)?;
        let vocabulary = built.vocabulary().map_err(err)?;
        if let Some(text) = vocabulary_text(&vocabulary) {
            std::fs::write(tmp.join(VOCABULARY), text).map_err(io)?;
        }
        let stamp = Stamp {
            fingerprint: fp,
            langs: langs.clone(),
        };
        std::fs::write(
            tmp.join("stamp.json"),
            serde_json::to_vec(&stamp).map_err(|e| e.to_string())?,
        )
        .map_err(io)?;
        // Swap: old → trash, tmp/… → place. Another search building at the same time (from
        // the same content: an index as good as this one) can win any step of it; then this
        // search goes on with the index it opened, and the place is the other's.
        let index_dir = cache.join("index");
        let trash = cache.join(format!("old-{}", std::process::id()));
        remove_any(&trash);
        crate::stop::remove_on_stop(&trash);
        let _ = std::fs::rename(&index_dir, &trash);
        let _ = std::fs::remove_file(cache.join("stamp.json"));
        let lost = |e: &std::io::Error| {
            use std::io::ErrorKind::*;
            matches!(e.kind(), DirectoryNotEmpty | AlreadyExists | NotFound)
        };
        match std::fs::rename(&tmp, &index_dir)
            .and_then(|()| std::fs::rename(index_dir.join("stamp.json"), cache.join("stamp.json")))
        {
            Ok(()) => {}
            Err(e) if lost(&e) => remove_any(&tmp),
            Err(e) => return Err(io(e)),
        }
        crate::stop::keep(&tmp);
        remove_any(&trash);
        crate::stop::keep(&trash);
        Ok(SearchIndex {
            vocabulary_file: index_dir.join(VOCABULARY),
            ..built
        })
    }

    /// Every term of the index with its document frequency (title + body), sorted. The
    /// title is the title field and a glossary entry's other names (`others`) as one: a
    /// document with a word in both counts once, as in the browser's index, where they are
    /// one list (the frequency orders a word's typo and prefix expansions). Numbers are in
    /// the list only to be found: they are matched exactly, so their frequency orders
    /// nothing, and it is not worked out.
    pub fn vocabulary(&self) -> tantivy::Result<Vec<(String, u64)>> {
        let searcher = self.reader.searcher();
        let mut all: FxHashMap<String, u64> = FxHashMap::default();
        for seg in searcher.segment_readers() {
            for field in [self.fields.title, self.fields.body, self.fields.number] {
                let inv = seg.inverted_index(field)?;
                let mut stream = inv.terms().stream()?;
                while stream.advance() {
                    let Ok(t) = std::str::from_utf8(stream.key()) else {
                        continue;
                    };
                    *all.entry(t.to_string()).or_default() += u64::from(stream.value().doc_freq);
                }
            }
            // the other names: few (a glossary's), so their documents are read and those
            // the title field lacks are counted
            let inv = seg.inverted_index(self.fields.others)?;
            let mut stream = inv.terms().stream()?;
            let mut terms = Vec::new();
            while stream.advance() {
                if let Ok(t) = std::str::from_utf8(stream.key()) {
                    terms.push(t.to_string());
                }
            }
            let titles = seg.inverted_index(self.fields.title)?;
            for t in terms {
                let others = freqs(seg, self.fields.others, &t)?;
                // the title's list of a common word is long: seek the few documents in it
                let mut new = others.len();
                let term = Term::from_field_text(self.fields.title, &t);
                if let Some(mut title) = titles.read_postings(&term, IndexRecordOption::Basic)? {
                    for (d, _) in &others {
                        if title.doc() <= *d && title.seek(*d) == *d {
                            new -= 1;
                        }
                    }
                }
                *all.entry(t).or_default() += new as u64;
            }
        }
        let mut v: Vec<(String, u64)> = all.into_iter().collect();
        v.sort_unstable();
        Ok(v)
    }

    /// [`Self::vocabulary`], as written beside the index when it was built ([`VOCABULARY`]);
    /// worked out from the index when that file is missing or damaged.
    fn stored_vocabulary(&self) -> tantivy::Result<Vec<(String, u64)>> {
        let stored = std::fs::read_to_string(&self.vocabulary_file).ok();
        match stored.as_deref().and_then(parse_vocabulary) {
            Some(v) => Ok(v),
            None => self.vocabulary(),
        }
    }

    /// The spellings with `ґ` of the index's terms: term → its spellings, sorted.
    fn spellings(&self) -> tantivy::Result<FxHashMap<String, Vec<String>>> {
        let searcher = self.reader.searcher();
        let mut out: FxHashMap<String, Vec<String>> = FxHashMap::default();
        for seg in searcher.segment_readers() {
            let inv = seg.inverted_index(self.fields.spelling)?;
            let mut stream = inv.terms().stream()?;
            while stream.advance() {
                let Ok(s) = std::str::from_utf8(stream.key()) else {
                    continue;
                };
                let list = out.entry(s.replace('ґ', "г")).or_default();
                if !list.iter().any(|x| x == s) {
                    list.push(s.to_string());
                }
            }
        }
        for list in out.values_mut() {
            list.sort();
        }
        Ok(out)
    }

    /// Runs a query; `lang` keeps the results of one language.
    pub fn search(
        &self,
        query: &str,
        lang: Option<&str>,
        limit: usize,
    ) -> tantivy::Result<Vec<Hit>> {
        let vocab = self.stored_vocabulary()?;
        let words = rank::plan(query, &vocab);
        if words.is_empty() {
            return Ok(Vec::new());
        }
        let searcher = self.reader.searcher();
        let n = u64::from(
            searcher
                .segment_readers()
                .iter()
                .map(|s| s.max_doc())
                .sum::<u32>(),
        );
        let fields = [
            (self.fields.title, rank::TITLE_BOOST),
            (self.fields.body, 1.0),
        ];
        let mut avg = [0f64; 2];
        for (i, (field, _)) in fields.iter().enumerate() {
            let mut total = 0u64;
            for seg in searcher.segment_readers() {
                total += seg.inverted_index(*field)?.total_num_tokens();
            }
            avg[i] = total as f64 / n as f64;
        }
        let range = lang.and_then(|l| self.langs.iter().find(|(x, _, _)| x == l));
        let spellings = self.spellings()?;
        // (segment, doc) → row of `scores`
        let mut rows: FxHashMap<(u32, u32), usize> = FxHashMap::default();
        let mut keys: Vec<(u32, u32)> = Vec::new();
        let mut scores: Vec<Vec<f64>> = Vec::new();
        let mut base = 0u32;
        // The index is one segment (see `build`), so the documents of the segment are all
        // the documents, as `rank::folded_docs` needs.
        // step 5: for each word, the documents with its own term in the title; and each
        // such document's title length
        let mut titled: Vec<FxHashSet<(u32, u32)>> = vec![Default::default(); words.len()];
        let mut title_len: FxHashMap<(u32, u32), u32> = FxHashMap::default();
        for (si, seg) in searcher.segment_readers().iter().enumerate() {
            for (wi, word) in words.iter().enumerate() {
                // this word's best score per document in this segment
                let mut best: FxHashMap<u32, f64> = FxHashMap::default();
                for (term, weight) in &word.expansions {
                    let mut this: FxHashMap<u32, f64> = FxHashMap::default();
                    // how often each document has the term, title and body (all languages)
                    let mut totals: FxHashMap<u32, u32> = FxHashMap::default();
                    for (fi, (field, boost)) in fields.iter().enumerate() {
                        let mut list = freqs(seg, *field, term)?;
                        if fi == 0 {
                            // words of the title outside its length (rank.rs, step 3): a
                            // section's own number, a glossary entry's other names (which
                            // may have numbers too: `Phase 2`)
                            for outside in [self.fields.number, self.fields.others] {
                                list = merge_freqs(&list, &freqs(seg, outside, term)?);
                            }
                        }
                        // the index is one segment (see `build`): its list is every
                        // document with the term
                        let df = list.len() as u64;
                        let norms = seg.get_fieldnorms_reader(*field)?;
                        if fi == 0 && *weight == 1.0 && *term == word.term {
                            for &(doc, _) in &list {
                                titled[wi].insert((si as u32, doc));
                                title_len.insert((si as u32, doc), norms.fieldnorm(doc));
                            }
                        }
                        for &(doc, tf) in &list {
                            *totals.entry(doc).or_default() += tf;
                            let ord = base + doc;
                            if range.is_none_or(|r| (r.1..r.2).contains(&ord)) {
                                let s = rank::bm25(tf, norms.fieldnorm(doc), df, n, avg[fi]);
                                *this.entry(doc).or_default() += boost * s;
                            }
                        }
                    }
                    if let Some(list) = spellings.get(term) {
                        let mut variants = Vec::new();
                        let inv = seg.inverted_index(self.fields.spelling)?;
                        for sp in list {
                            let t = Term::from_field_text(self.fields.spelling, sp);
                            let mut docs = FxHashMap::default();
                            if let Some(mut postings) =
                                inv.read_postings(&t, IndexRecordOption::WithFreqs)?
                            {
                                use tantivy::postings::Postings;
                                let mut doc = postings.doc();
                                while doc != TERMINATED {
                                    docs.insert(doc, postings.term_freq());
                                    doc = postings.advance();
                                }
                            }
                            variants.push((sp.clone(), docs));
                        }
                        for d in rank::folded_docs(word, term, *weight, &totals, &variants) {
                            if let Some(s) = this.get_mut(&d) {
                                *s *= rank::FOLDED_WEIGHT;
                            }
                        }
                    }
                    for (doc, s) in this {
                        let e = best.entry(doc).or_default();
                        *e = e.max(weight * s);
                    }
                }
                for (doc, s) in best {
                    let row = *rows.entry((si as u32, doc)).or_insert_with(|| {
                        keys.push((si as u32, doc));
                        scores.push(vec![0.0; words.len()]);
                        scores.len() - 1
                    });
                    scores[row][wi] = s;
                }
            }
            base += seg.max_doc();
        }
        let mut seg_base = Vec::new();
        let mut b = 0u64;
        for seg in searcher.segment_readers() {
            seg_base.push(b);
            b += u64::from(seg.max_doc());
        }
        let ords: Vec<u64> = keys
            .iter()
            .map(|(s, d)| seg_base[*s as usize] + u64::from(*d))
            .collect();
        let mut ranked = rank::combine(&ords, &scores, words.len());
        let by_ord: FxHashMap<u64, (u32, u32)> = ords.iter().copied().zip(keys).collect();
        let lengths = rank::title_lengths(query);
        let terms: Vec<&str> = words.iter().map(|w| w.term.as_str()).collect();
        // The stored fields of the first page, read once for steps 5 and 6 (both look only
        // there).
        let mut stored: FxHashMap<u64, TantivyDocument> = FxHashMap::default();
        for &(ord, _) in ranked.iter().take(rank::SHOWN) {
            let (s, d) = by_ord[&ord];
            stored.insert(ord, searcher.doc(tantivy::DocAddress::new(s, d))?);
        }
        let text = |ord: u64, f: Field| -> &str {
            (stored.get(&ord))
                .and_then(|doc| doc.get_first(f))
                .and_then(|v| v.as_str())
                .unwrap_or_default()
        };
        // step 5 for the first page, worked out once: one of the first NAMED_CHECKED with
        // other names is judged by them
        let mut exact_of: FxHashMap<u64, bool> = FxHashMap::default();
        for (at, &(ord, _)) in ranked.iter().take(rank::SHOWN).enumerate() {
            let key = by_ord[&ord];
            let titled = titled.iter().all(|t| t.contains(&key));
            let named = (at < rank::NAMED_CHECKED)
                .then(|| super::docs::named(text(ord, self.fields.names)))
                .flatten();
            let exact = match named {
                Some(names) => titled && rank::named_exact(&names, &terms, lengths),
                None => titled && title_len.get(&key).is_some_and(|n| lengths.contains(n)),
            };
            exact_of.insert(ord, exact);
        }
        let is_exact = |ord: u64| exact_of.get(&ord).copied().unwrap_or(false);
        let exact = rank::exact_first(&mut ranked, is_exact);
        // step 6: a document's title and other names (its stored `names` but the first,
        // which is the title)
        let names_of = |ord: u64| -> Vec<String> {
            let others = text(ord, self.fields.names).split('\n').skip(1);
            std::iter::once(text(ord, self.fields.shown_title))
                .chain(others)
                .map(str::to_string)
                .collect()
        };
        rank::spelled_first(&mut ranked, exact, query, names_of);
        let marks: Vec<String> = words
            .iter()
            .flat_map(|w| w.expansions.iter().map(|(t, _)| t.clone()))
            .collect();
        let mut hits = Vec::new();
        for (at, (ord, score)) in ranked.into_iter().take(limit).enumerate() {
            let (s, d) = by_ord[&ord];
            let doc: TantivyDocument = searcher.doc(tantivy::DocAddress::new(s, d))?;
            let get = |f: Field| -> String {
                doc.get_first(f)
                    .and_then(|v| v.as_str())
                    .unwrap_or_default()
                    .to_string()
            };
            let text = get(self.fields.body);
            hits.push(Hit {
                lang: get(self.fields.lang),
                kind: if get(self.fields.kind) == "glossary" {
                    Kind::Glossary
                } else {
                    Kind::Section
                },
                title: get(self.fields.shown_title),
                section: get(self.fields.section),
                chapter: get(self.fields.chapter),
                url: get(self.fields.url),
                snippet: super::snippet::snippet(&text, &marks, super::snippet::SNIPPET_CHARS),
                score,
                exact: at < rank::SHOWN && is_exact(ord),
                ord,
            });
        }
        Ok(hits)
    }
}

/// The text of [`VOCABULARY`] for `vocabulary` (sorted, as [`SearchIndex::vocabulary`] gives
/// it); `None` if a term has a tab or a line break, which the analyzer never keeps in one.
fn vocabulary_text(vocabulary: &[(String, u64)]) -> Option<String> {
    let mut out = format!("{}\n", vocabulary.len());
    for (term, df) in vocabulary {
        if term.contains(['\t', '\n', '\r']) {
            return None;
        }
        out.push_str(term);
        out.push('\t');
        out.push_str(itoa::Buffer::new().format(*df));
        out.push('\n');
    }
    Some(out)
}

/// Reads [`vocabulary_text`] back; `None` unless it has as many lines as its first says, each
/// a term and a number, in strictly ascending order of terms (as it was written), so a
/// damaged or cut file is not used.
fn parse_vocabulary(text: &str) -> Option<Vec<(String, u64)>> {
    let mut lines = text.lines();
    let count: usize = lines.next()?.parse().ok()?;
    let mut out: Vec<(String, u64)> = Vec::with_capacity(count.min(text.len()));
    for line in lines {
        let (term, df) = line.split_once('\t')?;
        if out.last().is_some_and(|(last, _)| last.as_str() >= term) {
            return None;
        }
        out.push((term.to_string(), df.parse().ok()?));
    }
    (out.len() == count).then_some(out)
}

/// Removes what earlier searches that could not clean up (killed with SIGKILL, a power cut)
/// left in the cache: the `tmp-PID` and `old-PID` folders of processes no longer running.
/// Those of a running process are another search building the index at the same moment.
fn sweep(cache: &Path) {
    let Ok(entries) = std::fs::read_dir(cache) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix("tmp-").or_else(|| n.strip_prefix("old-")))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !crate::stop::running(pid) {
            remove_any(&e.path());
        }
    }
}

/// Removes `path`, a folder or a file (an `index` that was a file once moved aside is one).
fn remove_any(path: &Path) {
    if std::fs::remove_dir_all(path).is_err() {
        let _ = std::fs::remove_file(path);
    }
}

/// Every document of `seg` with `term` in `field`, and how often it has it, in document
/// order.
fn freqs(
    seg: &tantivy::SegmentReader,
    field: Field,
    term: &str,
) -> tantivy::Result<Vec<(tantivy::DocId, u32)>> {
    use tantivy::postings::Postings;
    let t = Term::from_field_text(field, term);
    let mut out = Vec::new();
    if let Some(mut postings) = seg
        .inverted_index(field)?
        .read_postings(&t, IndexRecordOption::WithFreqs)?
    {
        let mut doc = postings.doc();
        while doc != TERMINATED {
            out.push((doc, postings.term_freq()));
            doc = postings.advance();
        }
    }
    Ok(out)
}

/// Two lists of [`freqs`] as one: a document in both has the sum of its frequencies.
fn merge_freqs(
    a: &[(tantivy::DocId, u32)],
    b: &[(tantivy::DocId, u32)],
) -> Vec<(tantivy::DocId, u32)> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let da = a.get(i).map_or(u32::MAX, |x| x.0);
        let db = b.get(j).map_or(u32::MAX, |x| x.0);
        let d = da.min(db);
        let mut tf = 0;
        if da == d {
            tf += a[i].1;
            i += 1;
        }
        if db == d {
            tf += b[j].1;
            j += 1;
        }
        out.push((d, tf));
    }
    out
}

impl SearchIndex {
    /// The languages of the indexed site, in site order.
    pub fn languages(&self) -> Vec<String> {
        self.langs.iter().map(|(l, _, _)| l.clone()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tokenizer (with its chunk cache) gives tantivy exactly the analyzer's tokens.
    #[test]
    fn tokenizer_gives_the_analyzers_tokens() {
        let mut tok = RulebookTokenizer;
        for text in [
            "Ро\u{301}зум  и\u{306}ти — ім’я 7.1.0\tпломе\u{AD}некровний-воїн",
            "ім’я ім’я\nPlayer's turn ,  жетон",
            "",
            "   ",
        ] {
            for _ in 0..2 {
                let mut stream = tok.token_stream(text);
                let mut got = Vec::new();
                while stream.advance() {
                    let t = stream.token();
                    got.push((t.offset_from, t.offset_to, t.text.clone()));
                }
                let want: Vec<(usize, usize, String)> = tokenize(text)
                    .into_iter()
                    .map(|t| (t.start, t.end, t.term))
                    .collect();
                assert_eq!(got, want, "{text:?}");
            }
        }
    }

    /// The vocabulary file reads back as written, and a damaged one is refused (the search
    /// then works the vocabulary out from the index).
    #[test]
    fn the_vocabulary_file_reads_back_and_damage_is_refused() {
        let mut v: Vec<(String, u64)> = [("7.1.0", 3), ("ім\u{2bc}я", 12), ("жетон", 1), ("a", 40)]
            .iter()
            .map(|(t, n)| (t.to_string(), *n))
            .collect();
        v.sort_unstable();
        let text = vocabulary_text(&v).unwrap();
        assert_eq!(parse_vocabulary(&text), Some(v));
        assert_eq!(parse_vocabulary("0\n"), Some(Vec::new()));
        let bad = [
            "",
            "a\t1\n",
            "2\na\t1\na\t2\n",
            "2\nb\t1\na\t1\n",
            "1\na 1\n",
            "1\na\tx\n",
            "1\na\t-1\n",
            "2\na\t1\n\n",
            "2\na\t1\n",
            "1\na\t1\nb\t1\n",
        ];
        for bad in bad {
            assert_eq!(parse_vocabulary(bad), None, "{bad:?}");
        }
        assert_eq!(vocabulary_text(&[("a\tb".to_string(), 1)]), None);
    }

    /// The fingerprint changes with any file below `content/` (however deep), and only then;
    /// a `content` that is a link to a folder is read through the link.
    #[test]
    fn the_fingerprint_moves_with_any_file_below_content() {
        let d = tempfile::tempdir().unwrap();
        let site = d.path().join("site");
        let deep = site.join("content/en/resources/img");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(site.join("content/en/a.md"), "alpha").unwrap();
        std::fs::write(deep.join("x.svg"), "<svg/>").unwrap();
        let first = fingerprint(&site);
        assert_eq!(fingerprint(&site), first);
        std::fs::write(deep.join("x.svg"), "<svg></svg>").unwrap();
        let edited = fingerprint(&site);
        assert_ne!(edited, first);
        std::fs::write(deep.join("y.svg"), "").unwrap();
        let added = fingerprint(&site);
        assert_ne!(added, edited);
        std::fs::rename(deep.join("y.svg"), deep.join("z.svg")).unwrap();
        assert_ne!(fingerprint(&site), added);
        #[cfg(unix)]
        {
            let linked = d.path().join("linked");
            std::fs::create_dir_all(&linked).unwrap();
            std::os::unix::fs::symlink(site.join("content"), linked.join("content")).unwrap();
            let through = fingerprint(&linked);
            std::fs::write(site.join("content/en/a.md"), "alpha, beta").unwrap();
            assert_ne!(fingerprint(&linked), through);
        }
    }

    /// A chapter file that is a link (the build reads it) moves the fingerprint when the file
    /// it leads to changes, or when it leads to another file of the same size and time.
    #[cfg(unix)]
    #[test]
    fn the_fingerprint_follows_linked_files() {
        let d = tempfile::tempdir().unwrap();
        let site = d.path();
        std::fs::create_dir_all(site.join("content/en")).unwrap();
        std::fs::create_dir_all(site.join("shared")).unwrap();
        std::fs::write(site.join("shared/a.md"), "alpha").unwrap();
        std::fs::write(site.join("shared/b.md"), "bravo").unwrap();
        let link = site.join("content/en/a.md");
        std::os::unix::fs::symlink("../../shared/a.md", &link).unwrap();
        let first = fingerprint(site);
        std::fs::write(site.join("shared/a.md"), "alpha, beta").unwrap();
        let edited = fingerprint(site);
        assert_ne!(edited, first);
        // same size, same time, another file
        let m = std::fs::metadata(site.join("shared/a.md")).unwrap();
        std::fs::write(site.join("shared/b.md"), "bravo, beta").unwrap();
        std::fs::File::options()
            .write(true)
            .open(site.join("shared/b.md"))
            .unwrap()
            .set_modified(m.modified().unwrap())
            .unwrap();
        std::fs::remove_file(&link).unwrap();
        std::os::unix::fs::symlink("../../shared/b.md", &link).unwrap();
        assert_ne!(fingerprint(site), edited);
    }
}
