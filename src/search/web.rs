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
//!   [`SHARD_BYTES`], so a few hundred files even for a large site. A term found in more than
//!   [`HEAD_DOCS`] documents of a language keeps only its best-scoring ones there (its head).
//! - `search/r/N.js`: the rest of those terms' postings (tails), loaded only when the heads
//!   cannot prove which results come first (see [`Split`]).
//! - `search/d/N.js`: document chunks of [`CHUNK_DOCS`] documents: what a result shows (title,
//!   section, chapter, URL and the first [`PASSAGE_CHARS`] of its text, for the passage around
//!   its first match).
//!
//! The text is analyzed once per document, on all cores; the postings are then gathered in
//! document order. `sw.js` (the service worker, at the site root so its scope is the whole
//! site) is written here too, named with the index's fingerprint so a new build replaces the
//! cached index.

use rustc_hash::FxHashMap;
use std::borrow::Cow;
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
pub const SHARD_BYTES: usize = 4 * 1024;
/// Target size of a tail file before compression.
pub const TAIL_BYTES: usize = 64 * 1024;
/// Documents per document chunk. A result loads its whole chunk, so this is the price of
/// showing one result: 8 documents are about 1.7 KB gzipped on the 2,000-chapter corpus (16
/// were 2.8 KB). Halving it again would double the files for 0.7 KB a result.
pub const CHUNK_DOCS: usize = 8;
/// Characters of a document's text in its document chunk: the browser shows the passage
/// around the first match in them. On the default content the first match is within the
/// first 100 characters for 76 % of the top-10 results of the test queries, within 400 for
/// 90 %; on the generated corpora, for most results it is past the first 100. (Until the
/// start and the rest of the text were two files, loaded one after the other; most results
/// needed both.)
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

/// The postings of one term in one field: (document, frequency, length id), in document
/// order.
type Postings = Vec<(u32, u32, u8)>;

/// Encodes postings for the browser: for each document, its gap from the previous one, then
/// `length id × 8 + frequency` (frequency below 8), or `length id × 8` followed by the
/// frequency.
fn encode_postings<'a>(postings: impl Iterator<Item = &'a (u32, u32, u8)>, out: &mut Vec<u8>) {
    let mut last = 0;
    for &(doc, tf, len_id) in postings {
        encode(doc - last, out);
        // The length id and a small frequency share one number (most frequencies are 1);
        // low bits 0 say the frequency follows on its own.
        let len = u32::from(len_id) * 8;
        if tf < 8 {
            encode(len + tf, out);
        } else {
            encode(len, out);
            encode(tf, out);
        }
        last = doc;
    }
}

/// How one term's postings are split for the browser. In each language, the [`HEAD_DOCS`]
/// documents where the term scores best go into its term shard (the head); the rest, if
/// any, into a tail file that the browser loads only when the head cannot prove the top
/// results (see `static/js/search.js`: every document left out scores at most as much as the
/// weakest one kept, so when the results shown outscore that bound they are the exact top).
/// A word on most sections of a large site is then a few hundred postings to download
/// instead of tens of thousands.
struct Split {
    /// The documents kept in the head, in order.
    head: Vec<u32>,
    /// Bit `l` set: the term has documents of language `l` in its tail.
    mask: u32,
}

/// Documents of one language kept in a term's head.
pub const HEAD_DOCS: usize = 200;

/// The split of one term's `[title, body]` postings. `langs` are the document ranges of the
/// languages, `stats` the numbers BM25 needs.
fn split(p: &[Postings; 2], langs: &[(String, usize, usize)], stats: &Stats) -> Option<Split> {
    // The term's score in each document, as search.js computes it: title, then body.
    let mut docs: Vec<(u32, f64)> = Vec::new();
    let (mut i, mut j) = (0, 0);
    let score = |f: usize, &(_, tf, len): &(u32, u32, u8)| {
        super::rank::bm25(
            tf,
            stats.norms[len as usize],
            p[f].len() as u64,
            stats.n as u64,
            stats.avg[f],
        )
    };
    while i < p[0].len() || j < p[1].len() {
        let dt = p[0].get(i).map_or(u32::MAX, |x| x.0);
        let db = p[1].get(j).map_or(u32::MAX, |x| x.0);
        let d = dt.min(db);
        let mut s = 0.0;
        if dt == d {
            s += super::rank::TITLE_BOOST * score(0, &p[0][i]);
            i += 1;
        }
        if db == d {
            s += score(1, &p[1][j]);
            j += 1;
        }
        docs.push((d, s));
    }
    let mut keep = vec![true; docs.len()];
    let mut mask = 0;
    for (l, (_, from, to)) in langs.iter().enumerate() {
        let a = docs.partition_point(|x| (x.0 as usize) < *from);
        let b = docs.partition_point(|x| (x.0 as usize) < *to);
        if b - a <= HEAD_DOCS {
            continue;
        }
        let mut order: Vec<usize> = (a..b).collect();
        // Only which documents make the head matters, not their order: a selection, not a
        // sort. Ties go by document, so the head is the same set a full sort would keep.
        order.select_nth_unstable_by(HEAD_DOCS, |&x, &y| {
            docs[y].1.total_cmp(&docs[x].1).then(x.cmp(&y))
        });
        for &x in &order[HEAD_DOCS..] {
            keep[x] = false;
        }
        mask |= 1 << l;
    }
    if mask == 0 {
        return None;
    }
    let head = docs
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|((d, _), _)| *d)
        .collect();
    Some(Split { head, mask })
}

/// What BM25 needs besides a term's own postings.
struct Stats {
    n: usize,
    avg: [f64; 2],
    norms: Vec<u32>,
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
                    postings[global[*local as usize]][f].push((doc, *tf, len_id));
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
                    .push((doc, tf, 0));
            }
            doc += 1;
        }
    }
    let mut vocab: Vec<(&str, usize)> = ids.into_iter().collect();
    vocab.sort_unstable();
    // A term has more than one spelling when it has two with `ґ`, or one with `ґ` and
    // occurrences beyond it (spelled with `г`). With one spelling, the spelling cannot
    // reorder anything (rank.rs `folded_docs`), so it is left out of the index.
    let total = |p: &Postings| p.iter().map(|x| u64::from(x.1)).sum::<u64>();
    spelled.retain(|id, sp| {
        let with = sp.values().map(total).sum::<u64>();
        sp.len() > 1 || total(&postings[*id][0]) + total(&postings[*id][1]) > with
    });

    let mut langs = Vec::new();
    for l in languages {
        let first = docs.iter().position(|d| &d.lang == l).unwrap_or(docs.len());
        let end = first + docs[first..].iter().take_while(|d| &d.lang == l).count();
        langs.push((l.clone(), first, end));
    }
    let norms: Vec<u32> = (0..=255u8).map(FieldNormReader::id_to_fieldnorm).collect();
    let stats = Stats {
        n: docs.len(),
        avg: [
            tokens[0] as f64 / docs.len().max(1) as f64,
            tokens[1] as f64 / docs.len().max(1) as f64,
        ],
        norms: norms.clone(),
    };
    // Each term's entry in its shard and its tail (if it has one), encoded.
    let encoded: Vec<(Vec<u8>, Option<Vec<u8>>)> = vocab
        .par_iter()
        .map(|(term, id)| entry(term, &postings[*id], spelled.get(id), &langs, &stats))
        .collect::<Result<_, _>>()?;

    sw.lap("search: postings");
    // Cut the sorted vocabulary into shards, and the terms with tails into tail files.
    let mut shards = Vec::new();
    let mut tails: Vec<Vec<usize>> = Vec::new();
    let mut tail_of = vec![0usize; vocab.len()];
    let (mut size, mut tail_size) = (0, 0);
    for (i, (head, tail)) in encoded.iter().enumerate() {
        if i == 0 || size >= SHARD_BYTES {
            shards.push(i);
            size = 0;
        }
        size += head.len();
        if let Some(t) = tail {
            if tails.is_empty() || tail_size >= TAIL_BYTES {
                tails.push(Vec::new());
                tail_size = 0;
            }
            tails.last_mut().unwrap().push(i);
            tail_of[i] = tails.len() - 1;
            tail_size += t.len();
        }
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
            .map(|(_, id)| (postings[*id][0].len() + postings[*id][1].len()) as u64)
            .collect(),
        norms,
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
            for i in from..to {
                if i > from {
                    s.push(b',');
                }
                s.extend_from_slice(&encoded[i].0);
                if encoded[i].1.is_some() {
                    // the tail file's number closes the entry
                    s.pop();
                    s.extend_from_slice(format!(",{}]", tail_of[i]).as_bytes());
                }
            }
            s.extend_from_slice(b"});\n");
            write_file(dir, &format!("search/t/{k}.js"), &s)
        })?;
    tails.par_iter().enumerate().try_for_each(|(k, terms)| {
        let mut s = format!("RulebookSearch.tail({k},{{").into_bytes();
        for (n, &i) in terms.iter().enumerate() {
            if n > 0 {
                s.push(b',');
            }
            s.extend_from_slice(encoded[i].1.as_deref().unwrap_or_default());
        }
        s.extend_from_slice(b"});\n");
        write_file(dir, &format!("search/r/{k}.js"), &s)
    })?;

    sw.lap("search: term shards");
    let chunks: Vec<&[Doc]> = docs.chunks(CHUNK_DOCS).collect();
    chunks.par_iter().enumerate().try_for_each(|(k, chunk)| {
        let rows: Vec<Row> = chunk
            .iter()
            .map(|d| {
                Row(
                    u8::from(d.kind == Kind::Glossary),
                    d.section.as_str(),
                    d.title.as_str(),
                    d.chapter.as_str(),
                    d.url.as_str(),
                    passage(&d.text),
                )
            })
            .collect();
        let json = serde_json::to_string(&rows).map_err(std::io::Error::other)?;
        write_file(
            dir,
            &format!("search/d/{k}.js"),
            format!("RulebookSearch.docs({k},{json});\n").as_bytes(),
        )
    })?;
    Ok((1 + shard_ranges.len() + tails.len() + chunks.len(), version))
}

/// A document in its chunk, written as a JSON array: glossary entry (1) or section (0),
/// section number, title, chapter, URL, [`passage`].
#[derive(Serialize)]
struct Row<'a>(u8, &'a str, &'a str, &'a str, &'a str, Cow<'a, str>);

/// What the document chunk keeps of `text`: its first [`PASSAGE_CHARS`] characters, with `…`
/// when the text goes on.
fn passage(text: &str) -> Cow<'_, str> {
    let upto = cut(text, PASSAGE_CHARS);
    if upto.len() < text.len() {
        format!("{upto}…").into()
    } else {
        upto.into()
    }
}

/// A term's entry in its shard, `"term":["title","body"]`, and in its tail file if it has
/// one. An entry with a tail is `"term":["title","body",title df,body df,language mask]`
/// (the shard adds the tail file's number): the document frequencies BM25 needs are no
/// longer the lengths of the lists. A term with more than one spelling (see `spelled` in
/// [`write`]) is never split, as which documents rank.rs `folded_docs` weighs down depends on
/// all of them; its entry goes on with its spellings: `,"spelling","postings"` each.
fn entry(
    term: &str,
    p: &[Postings; 2],
    spellings: Option<&std::collections::BTreeMap<String, Postings>>,
    langs: &[(String, usize, usize)],
    stats: &Stats,
) -> std::io::Result<(Vec<u8>, Option<Vec<u8>>)> {
    let mut name = Vec::new();
    serde_json::to_writer(&mut name, term).map_err(std::io::Error::other)?;
    let lists = |out: &mut Vec<u8>, keep: &dyn Fn(u32) -> bool| {
        out.extend_from_slice(&name);
        out.extend_from_slice(b":[\"");
        encode_postings(p[0].iter().filter(|x| keep(x.0)), out);
        out.extend_from_slice(b"\",\"");
        encode_postings(p[1].iter().filter(|x| keep(x.0)), out);
        out.push(b'"');
    };
    let mut head = Vec::new();
    match split(p, langs, stats).filter(|_| spellings.is_none()) {
        None => {
            lists(&mut head, &|_| true);
            for (sp, p) in spellings.into_iter().flatten() {
                head.push(b',');
                serde_json::to_writer(&mut head, sp).map_err(std::io::Error::other)?;
                head.extend_from_slice(b",\"");
                encode_postings(p.iter(), &mut head);
                head.push(b'"');
            }
            head.push(b']');
            Ok((head, None))
        }
        Some(sp) => {
            let in_head = |d: u32| sp.head.binary_search(&d).is_ok();
            lists(&mut head, &in_head);
            head.extend_from_slice(
                format!(",{},{},{}]", p[0].len(), p[1].len(), sp.mask).as_bytes(),
            );
            let mut tail = Vec::new();
            lists(&mut tail, &|d| !in_head(d));
            tail.push(b']');
            Ok((head, Some(tail)))
        }
    }
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
