//! The browser's search index, written by `rulebook build` into `search/` of the site.
//!
//! Every file is a classic script that hands its data to `window.RulebookSearch`, so the index
//! loads from `file://` too (a `fetch` of a local file is refused there). The index is split so
//! that the first search does not download all of it, even at thousands of chapters:
//!
//! - `search/index.js`: the words of the vocabulary (sorted, with their document
//!   frequencies; numbers such as section numbers, which are matched only exactly, are left
//!   out), the first term of each shard, and the numbers BM25 needs. Typo and prefix matching run over
//!   the vocabulary, so they need no shard but the ones of the terms they pick.
//! - `search/t/N.js`: term shards: runs of consecutive terms with their postings, cut at about
//!   [`SHARD_BYTES`], so a few hundred files even for a large site.
//! - `search/d/N.js`: document chunks of [`CHUNK_DOCS`] documents: what a result shows (title,
//!   section, chapter, URL and the start of its text).
//! - `search/x/N.js`: text chunks, the same documents: the rest of each text up to
//!   [`PASSAGE_CHARS`], for a passage around a match that is not in the start.
//!
//! The text is analyzed once per document, on all cores; the postings are then gathered in
//! document order. `sw.js` (the service worker, at the site root so its scope is the whole
//! site) is written here too, named with the index's fingerprint so a new build replaces the
//! cached index.

use rustc_hash::FxHashMap;
use std::path::Path;

use rayon::prelude::*;
use serde::Serialize;
use tantivy::fieldnorm::FieldNormReader;

use super::analyzer::tokenize;
use super::docs::{Doc, Kind};
use super::rank::{is_number, spelling};
use super::terms::TermCache;
use crate::output::write_file;

/// Target size of a term shard before compression.
pub const SHARD_BYTES: usize = 24 * 1024;
/// Documents per document chunk.
pub const CHUNK_DOCS: usize = 32;
/// Characters of a document's text in its document chunk: the snippet shown at once.
pub const SNIPPET_CHARS: usize = 100;
/// Characters of a document's text the browser can show a passage from: what is beyond the
/// snippet's characters is in the text chunks (`search/x/N.js`), loaded only for a result whose
/// snippet shows no matched word although its text has one (on the default content, the first
/// match is within the first 100 characters for 76 % of the top-10 results of the test
/// queries, within 400 for 90 %).
pub const PASSAGE_CHARS: usize = 400;

/// The terms of one field of one document: (local term id, frequency) sorted by id, and the
/// field's length.
struct FieldTerms {
    terms: Vec<(u32, u32)>,
    len: u32,
}

/// A word written with `ґ`: (local term id, its spelling).
type Spelled = (u32, String);

/// Analysis of a run of consecutive documents, on one thread: the terms of each document as
/// ids into this run's own vocabulary. Chunks of text repeat, so each distinct chunk is
/// analyzed once ([`TermCache`]) and remembered as ids.
#[derive(Default)]
struct Run {
    cache: TermCache,
    /// Each distinct chunk: its term ids and its words written with `ґ`.
    chunks: FxHashMap<String, (Vec<u32>, Vec<Spelled>)>,
    ids: FxHashMap<String, u32>,
    vocab: Vec<String>,
    docs: Vec<[FieldTerms; 2]>,
    /// For each document, its words written with `ґ`: (local term id, spelling), title and
    /// body together (rank.rs, step 3).
    spelled: Vec<Vec<Spelled>>,
    scratch: Vec<String>,
}

impl Run {
    fn id(&mut self, term: String) -> u32 {
        let next = self.vocab.len() as u32;
        *self.ids.entry(term).or_insert_with_key(|k| {
            self.vocab.push(k.clone());
            next
        })
    }

    /// The terms of one field of a document; its words written with `ґ` go to `spelled`.
    fn field(&mut self, text: &str, spelled: &mut Vec<Spelled>) -> FieldTerms {
        let mut all: Vec<u32> = Vec::new();
        for chunk in text.split(char::is_whitespace) {
            if chunk.is_empty() {
                continue;
            }
            if let Some((t, sp)) = self.chunks.get(chunk) {
                all.extend_from_slice(t);
                spelled.extend(sp.iter().cloned());
                continue;
            }
            self.scratch.clear();
            self.cache.terms(chunk, &mut self.scratch);
            let mut t = Vec::with_capacity(self.scratch.len());
            for term in std::mem::take(&mut self.scratch) {
                t.push(self.id(term));
            }
            // `ґ` has no decomposition and no look-alike: only a chunk that has it can have a
            // word spelled with it (few do; see the command line's `SpellingTokenizer`).
            let mut sp = Vec::new();
            if chunk.contains(['ґ', 'Ґ']) {
                for tok in tokenize(chunk) {
                    if tok.exact.contains('ґ') {
                        let s = spelling(&tok.exact, &tok.term);
                        sp.push((self.id(tok.term), s));
                    }
                }
            }
            all.extend_from_slice(&t);
            spelled.extend(sp.iter().cloned());
            self.chunks.insert(chunk.to_string(), (t, sp));
        }
        let len = all.len() as u32;
        all.sort_unstable();
        let mut terms: Vec<(u32, u32)> = Vec::with_capacity(all.len());
        for t in all {
            match terms.last_mut() {
                Some((last, n)) if *last == t => *n += 1,
                _ => terms.push((t, 1)),
            }
        }
        FieldTerms { terms, len }
    }
}

/// The 92 digits of the postings' number encoding: printable ASCII without `"` and `\`, so
/// an encoded list is a JSON string as it is. A number is written low digits first; the first
/// 46 digits end a number, the other 46 say that more digits follow. Most numbers in postings
/// (document gaps, frequencies, length ids) are below 46: one byte each.
pub const DIGITS: &[u8; 92] =
    b"!#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{|}~";

fn encode(mut v: u32, out: &mut Vec<u8>) {
    while v >= 46 {
        out.push(DIGITS[46 + (v % 46) as usize]);
        v /= 46;
    }
    out.push(DIGITS[v as usize]);
}

/// Postings of one term in one field, encoded: for each document that has the term, its gap
/// from the previous one, then `length id × 8 + frequency` (frequency below 8), or
/// `length id × 8` followed by the frequency.
#[derive(Default)]
struct Postings {
    enc: Vec<u8>,
    last: u32,
    count: u32,
    /// The sum of the frequencies.
    total: u64,
}

impl Postings {
    fn push(&mut self, doc: u32, tf: u32, len_id: u8) {
        encode(doc - self.last, &mut self.enc);
        // The length id and a small frequency share one number (most frequencies are 1);
        // low bits 0 say the frequency follows on its own.
        let len = u32::from(len_id) * 8;
        if tf < 8 {
            encode(len + tf, &mut self.enc);
        } else {
            encode(len, &mut self.enc);
            encode(tf, &mut self.enc);
        }
        self.last = doc;
        self.count += 1;
        self.total += u64::from(tf);
    }
}

#[derive(Serialize)]
struct Meta<'a> {
    /// Number of documents.
    n: usize,
    /// Total tokens of the title and body fields.
    tokens: [u64; 2],
    /// First document of each language: [lang, first, end).
    langs: Vec<(String, usize, usize)>,
    chunk: usize,
    /// The first term of each shard (the shards cut the sorted vocabulary into runs).
    shards: Vec<&'a str>,
    terms: Vec<&'a str>,
    /// Documents with the term in the title plus documents with it in the body.
    df: Vec<u64>,
    /// tantivy's field length for each length id.
    norms: Vec<u32>,
}

/// Writes the browser index for `docs` into `dir/search/` and the service worker into
/// `dir/sw.js`. Returns the number of files written.
/// The version is a hash of the vocabulary and statistics: it changes when the text does.
pub fn write(docs: &[Doc], languages: &[String], dir: &Path) -> std::io::Result<(usize, String)> {
    let mut sw = crate::timing::Stopwatch::start();
    let per_run = docs
        .len()
        .div_ceil(4 * rayon::current_num_threads())
        .max(64);
    let runs: Vec<Run> = docs
        .par_chunks(per_run)
        .map(|chunk| {
            let mut run = Run::default();
            for d in chunk {
                let mut spelled = Vec::new();
                let fields = [
                    run.field(&d.keys, &mut spelled),
                    run.field(&d.text, &mut spelled),
                ];
                run.docs.push(fields);
                run.spelled.push(spelled);
            }
            // The caches only speed up analysis; the postings need the ids and the vocabulary.
            // Freed here, they are not held through the rest of the build (about a tenth of
            // its peak memory at 2,000 chapters).
            run.chunks = FxHashMap::default();
            run.cache = TermCache::default();
            run
        })
        .collect();
    sw.lap("search: analyze");
    // Global term ids in order of first appearance, postings gathered in document order.
    let mut ids: FxHashMap<&str, usize> = FxHashMap::default();
    let mut postings: Vec<[Postings; 2]> = Vec::new();
    // global term id → its spellings with `ґ`, each with its postings (title and body)
    let mut spelled: FxHashMap<usize, std::collections::BTreeMap<String, Postings>> =
        FxHashMap::default();
    let mut tokens = [0u64; 2];
    let mut doc = 0u32;
    for run in &runs {
        let global: Vec<usize> = run
            .vocab
            .iter()
            .map(|t| {
                *ids.entry(t.as_str()).or_insert_with(|| {
                    postings.push(Default::default());
                    postings.len() - 1
                })
            })
            .collect();
        for (fields, sp) in run.docs.iter().zip(&run.spelled) {
            for (f, ft) in fields.iter().enumerate() {
                tokens[f] += u64::from(ft.len);
                let len_id = FieldNormReader::fieldnorm_to_id(ft.len);
                for (local, tf) in &ft.terms {
                    postings[global[*local as usize]][f].push(doc, *tf, len_id);
                }
            }
            // (global term, spelling) → frequency in this document
            let mut here: std::collections::BTreeMap<(usize, &str), u32> = Default::default();
            for (local, s) in sp {
                *here
                    .entry((global[*local as usize], s.as_str()))
                    .or_default() += 1;
            }
            for ((id, s), tf) in here {
                spelled
                    .entry(id)
                    .or_default()
                    .entry(s.to_string())
                    .or_default()
                    .push(doc, tf, 0);
            }
            doc += 1;
        }
    }
    let mut vocab: Vec<(&str, usize)> = ids.into_iter().collect();
    vocab.sort_unstable();
    // A term has more than one spelling when it has two with `ґ`, or one with `ґ` and
    // occurrences beyond it (spelled with `г`). With one spelling, the spelling cannot
    // reorder anything (rank.rs `folded_docs`), so it is left out of the index.
    spelled.retain(|id, sp| {
        let with = sp.values().map(|p| p.total).sum::<u64>();
        sp.len() > 1 || postings[*id][0].total + postings[*id][1].total > with
    });

    sw.lap("search: postings");
    // Cut the sorted vocabulary into shards.
    let mut shards = Vec::new();
    let mut size = 0;
    for (i, (term, id)) in vocab.iter().enumerate() {
        if i == 0 || size >= SHARD_BYTES {
            shards.push(i);
            size = 0;
        }
        size += term.len() + 8 + postings[*id][0].enc.len() + postings[*id][1].enc.len();
        if let Some(sp) = spelled.get(id) {
            size += sp
                .iter()
                .map(|(s, p)| s.len() + 6 + p.enc.len())
                .sum::<usize>();
        }
    }

    let mut langs = Vec::new();
    for l in languages {
        let first = docs.iter().position(|d| &d.lang == l).unwrap_or(docs.len());
        let end = first + docs[first..].iter().take_while(|d| &d.lang == l).count();
        langs.push((l.clone(), first, end));
    }
    let meta = Meta {
        n: docs.len(),
        tokens,
        langs,
        chunk: CHUNK_DOCS,
        shards: shards.iter().map(|&i| vocab[i].0).collect(),
        // Only the words: numbers are matched exactly, through `shards` (see rank.rs).
        terms: vocab
            .iter()
            .filter(|(t, _)| !is_number(t))
            .map(|(t, _)| *t)
            .collect(),
        df: vocab
            .iter()
            .filter(|(t, _)| !is_number(t))
            .map(|(_, id)| u64::from(postings[*id][0].count + postings[*id][1].count))
            .collect(),
        norms: (0..=255u8).map(FieldNormReader::id_to_fieldnorm).collect(),
    };
    let meta_json = serde_json::to_string(&meta).map_err(std::io::Error::other)?;
    let version = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        meta_json.hash(&mut h);
        docs.len().hash(&mut h);
        for d in docs {
            d.url.hash(&mut h);
            d.title.hash(&mut h);
        }
        format!("{:016x}", h.finish())
    };
    write_file(
        dir,
        "search/index.js",
        format!("RulebookSearch.meta({meta_json});\n").as_bytes(),
    )?;

    let shard_ranges: Vec<(usize, usize)> = shards
        .iter()
        .enumerate()
        .map(|(k, &s)| (s, shards.get(k + 1).copied().unwrap_or(vocab.len())))
        .collect();
    shard_ranges
        .par_iter()
        .enumerate()
        .try_for_each(|(k, &(from, to))| {
            let mut s = format!("RulebookSearch.shard({k},{{").into_bytes();
            for (i, (term, id)) in vocab[from..to].iter().enumerate() {
                if i > 0 {
                    s.push(b',');
                }
                serde_json::to_writer(&mut s, term).map_err(std::io::Error::other)?;
                s.extend_from_slice(b":[\"");
                s.extend_from_slice(&postings[*id][0].enc);
                s.extend_from_slice(b"\",\"");
                s.extend_from_slice(&postings[*id][1].enc);
                s.push(b'"');
                // the term's spellings with `ґ`, when it has more than one spelling
                for (sp, p) in spelled.get(id).into_iter().flatten() {
                    s.push(b',');
                    serde_json::to_writer(&mut s, sp).map_err(std::io::Error::other)?;
                    s.extend_from_slice(b",\"");
                    s.extend_from_slice(&p.enc);
                    s.push(b'"');
                }
                s.push(b']');
            }
            s.extend_from_slice(b"});\n");
            write_file(dir, &format!("search/t/{k}.js"), &s)
        })?;

    sw.lap("search: term shards");
    let chunks: Vec<&[Doc]> = docs.chunks(CHUNK_DOCS).collect();
    chunks.par_iter().enumerate().try_for_each(|(k, chunk)| {
        let rows: Vec<(u8, &str, &str, &str, &str, &str)> = chunk
            .iter()
            .map(|d| {
                (
                    u8::from(d.kind == Kind::Glossary),
                    d.section.as_str(),
                    d.title.as_str(),
                    d.chapter.as_str(),
                    d.url.as_str(),
                    cut(&d.text, SNIPPET_CHARS),
                )
            })
            .collect();
        let json = serde_json::to_string(&rows).map_err(std::io::Error::other)?;
        write_file(
            dir,
            &format!("search/d/{k}.js"),
            format!("RulebookSearch.docs({k},{json});\n").as_bytes(),
        )?;
        let rest: Vec<String> = chunk.iter().map(|d| rest_of(&d.text)).collect();
        let json = serde_json::to_string(&rest).map_err(std::io::Error::other)?;
        write_file(
            dir,
            &format!("search/x/{k}.js"),
            format!("RulebookSearch.text({k},{json});\n").as_bytes(),
        )
    })?;
    Ok((1 + shard_ranges.len() + 2 * chunks.len(), version))
}

/// What the text chunk keeps of `text`: from the end of the snippet's characters to
/// [`PASSAGE_CHARS`], with `…` when the text goes on.
fn rest_of(text: &str) -> String {
    let head = cut(text, SNIPPET_CHARS).len();
    let upto = cut(text, PASSAGE_CHARS);
    let mut rest = upto[head.min(upto.len())..].to_string();
    if upto.len() < text.len() && !rest.is_empty() {
        rest.push('…');
    }
    rest
}

/// The start of `text`, at most `chars` characters, cut after a whole word when possible.
fn cut(text: &str, chars: usize) -> &str {
    match text.char_indices().nth(chars) {
        None => text,
        Some((end, _)) => {
            let head = &text[..end];
            match head.rfind(char::is_whitespace) {
                Some(sp) if sp > end / 2 => &text[..sp],
                _ => head,
            }
        }
    }
}

/// The service worker: the theme's `js/sw.js` with the index version on top, so a rebuilt
/// site's worker is a new worker and drops the old caches.
pub fn service_worker(template: &[u8], version: &str) -> Vec<u8> {
    let mut out = format!("var RULEBOOK_VERSION = {version:?};\n").into_bytes();
    out.extend_from_slice(template);
    out
}

/// Writes the whole browser side of search for `site` into `dir`: the index and `sw.js`.
/// Returns the number of files written.
pub fn write_site(site: &crate::site::Site, dir: &Path) -> Result<usize, crate::diag::Diagnostic> {
    let io = |e: std::io::Error| {
        crate::diag::Diagnostic::error(
            "io",
            dir.display().to_string(),
            0,
            format!("cannot write the search index: {e}"),
        )
    };
    let docs = super::docs::collect(site);
    let (files, version) = write(&docs, &site.config.languages, dir).map_err(io)?;
    let template = match site.theme.static_files.get("js/sw.js") {
        Some(f) => site.theme.read_static(f).map_err(io)?,
        None => return Ok(files),
    };
    write_file(dir, "sw.js", &service_worker(&template, &version)).map_err(io)?;
    Ok(files + 1)
}
