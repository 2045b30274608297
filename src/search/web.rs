//! The browser's search index, written by `rulebook build` into `search/` of the site.
//!
//! Every file is a classic script that hands its data to `window.RulebookSearch`, so the index
//! loads from `file://` too (a `fetch` of a local file is refused there). The index is split so
//! that the first search does not download all of it, even at thousands of chapters:
//!
//! - `search/index.js`: the words of the vocabulary (sorted, with their document
//!   frequencies; numbers such as section numbers, which are matched only exactly, are left
//!   out), the first term of each shard, and the numbers BM25 needs. Typo and prefix matching run over
//!   the vocabulary, so they need no shard but the ones of the terms they pick; and each word
//!   carries, per language, a bound on what it adds to one document's score
//!   ([`score_bounds`]), so a typo expansion of a word that has a closer match is loaded only
//!   when it could still change the top results.
//! - `search/t/N.js`: term shards: runs of consecutive terms with their postings, cut at about
//!   [`SHARD_BYTES`] ([`NUMBER_SHARD_BYTES`] for numbers), so a few hundred files even for a
//!   large site (602 at 2,000 chapters). A term found in more than [`HEAD_DOCS`] documents of
//!   a language keeps only its best-scoring ones there (its head).
//! - `search/r/N.js`: tier files: the rest of those terms' postings in tiers of falling score
//!   (see [`Split`]), loaded one tier at a time, only while what is loaded cannot prove which
//!   results come first; a big tier has a file of its own, small ones share (see [`group`]).
//! - `search/p/N.js`: group heads: for two words side by side in a glossary term or a
//!   section title, and for the whole of such a name of three or four words, the documents
//!   with all of them that score best for them together (see [`group_entry`]), which prove
//!   most queries of those words without their tiers.
//! - `search/d/N.js`: document chunks of [`CHUNK_DOCS`] documents: what a result shows (title,
//!   section, chapter, URL and the first [`PASSAGE_CHARS`] of its text, for the passage around
//!   its first match).
//!
//! The text is analyzed once per document, on all cores; the postings are then gathered in
//! document order. Every file is counted into a fingerprint as it is written: the service
//! worker's version ([`crate::offline`]), so that browsers drop an index they kept once any of
//! its bytes change.

use rustc_hash::FxHashMap;
use std::path::Path;

use rayon::prelude::*;
use serde::Serialize;
use tantivy::fieldnorm::FieldNormReader;

use super::analyzer::tokenize;
use super::docs::{Doc, Kind};
use super::rank::{is_number, spelling};
use super::terms::TermCache;
use crate::json::escape_into;
use crate::offline::Fingerprint;
use crate::output::write_file;

/// Target size of a term shard before compression. A search loads a shard for each word it
/// looks up, and for each prefix and typo expansion it takes in: one shard for one term, so
/// smaller shards bring less of what is not asked for. At 2,000 chapters, 2 KB rather than 4
/// made the later searches of `measure_search` lighter (medians entered / typed: uk 17.1 /
/// 20.7 → 15.5 / 17.3 KB, en 17.3 / 23.6 → 15.7 / 22.1 KB; the largest 1 to 6 KB lighter)
/// for 559 more files (1,143 shards), most of them numbers' (see [`NUMBER_SHARD_BYTES`]).
pub const SHARD_BYTES: usize = 2 * 1024;
/// Target size of a shard of numbers (section numbers, mostly). A number is matched exactly:
/// a query loads one shard for it, never its neighbours' as prefix and typo expansions of a
/// word do, so a larger shard costs a number search a few kilobytes once, and the build far
/// fewer files: at 2,000 chapters the numbers were 727 of the 1,143 shards of 2 KB, and a file
/// costs the build as much as the analysis of about 1,500 words of text on an ext4 disk
/// without a journal (BENCHMARKS.md).
pub const NUMBER_SHARD_BYTES: usize = 8 * 1024;
/// Target size of a file of tiers or of group heads before compression; a tier of at least
/// half of it has a file of its own (see [`group`]). A file holds the pieces of neighbouring
/// terms, and a query needs one of them: at 10 KB, `кубик сили` loaded five tier files for
/// its two words' tiers, and more than half of two of them was other words' (`куд`, `куп`,
/// `світ`, `символ`). At 2 KB, the 100 test queries at 2,000 chapters load 830 KB of term
/// shards, tiers and group heads rather than 1,244, with 931 more files (14,004), which cost
/// the build a few percent (BENCHMARKS.md: 1–5 % in turns at 200 chapters).
pub const TIER_BYTES: usize = 2 * 1024;
/// Documents per document chunk. A result loads its whole chunk, so this is the price of
/// showing one result; and the chunks are most of the site's files, which cost the build
/// more than their bytes (creating a file is slow on some file systems: ext4 without a
/// journal looks past every recently deleted inode first). On the 2,000-chapter corpus, 8
/// documents were about 1.7 KB gzipped and 10,717 files; 12 make later searches' medians 18 /
/// 26 KB (entered / typed; they were 14.5 / 21) with 7,145 files, and the 200-chapter build,
/// after deleting the previous output, 19 % faster on the benchmark machine (2 cores, ext4
/// without a journal). 16 took the typed median past 30 KB.
pub const CHUNK_DOCS: usize = 12;
/// Characters of a document's text in its document chunk: the browser shows the passage
/// around the first match in them. On the default content the first match is within the
/// first 100 characters for 76 % of the top-10 results of the test queries, within 400 for
/// 90 %; on the generated corpora, for most results it is past the first 100. (Until the
/// start and the rest of the text were two files, loaded one after the other; most results
/// needed both.)
pub const PASSAGE_CHARS: usize = 400;

/// The terms of one field of one document: (local term id, frequency) in the order first met,
/// and the field's length.
struct FieldTerms {
    terms: Vec<(u32, u32)>,
    len: u32,
}

impl FieldTerms {
    /// Adds `tf` occurrences of term `id` to this field without counting them in its length
    /// (rank.rs, step 3: a section's own number, a glossary entry's other names).
    fn add_outside_length(&mut self, id: u32, tf: u32) {
        match self.terms.iter_mut().find(|(t, _)| *t == id) {
            Some((_, n)) => *n += tf,
            None => self.terms.push((id, tf)),
        }
    }
}

/// A word written with `ґ`: (local term id, its spelling).
type Spelled = (u32, String);

/// Analysis of a run of consecutive documents, on one thread: the terms of each document as
/// ids into this run's own vocabulary. Chunks of text repeat, so each distinct chunk is
/// analyzed once for the whole site (the shared [`TermCache`]) and remembered here as ids,
/// where looking it up needs no lock.
#[derive(Default)]
struct Run {
    /// Each distinct chunk: its term ids and its words written with `ґ`.
    chunks: FxHashMap<String, (Vec<u32>, Vec<Spelled>)>,
    ids: FxHashMap<String, u32>,
    vocab: Vec<String>,
    docs: Vec<[FieldTerms; 2]>,
    /// For each document, its words written with `ґ`: (local term id, spelling), title and
    /// body together (rank.rs, step 3).
    spelled: Vec<Vec<Spelled>>,
    scratch: Vec<String>,
    /// Frequency of each local term in the field being analyzed, and the terms it has: a
    /// count per term rather than a sort of every word (a field has far fewer distinct terms
    /// than words). Both are back to zero and empty between fields.
    counts: Vec<u32>,
    touched: Vec<u32>,
}

impl Run {
    fn id(&mut self, term: String) -> u32 {
        let next = self.vocab.len() as u32;
        *self.ids.entry(term).or_insert_with_key(|k| {
            self.vocab.push(k.clone());
            next
        })
    }

    /// [`Self::id`] of a term met as a `&str`: no copy of it when it is known already.
    fn id_of(&mut self, term: &str) -> u32 {
        match self.ids.get(term) {
            Some(&id) => id,
            None => self.id(term.to_string()),
        }
    }

    /// The terms of one field of a document; its words written with `ґ` go to `spelled`.
    fn field(&mut self, text: &str, spelled: &mut Vec<Spelled>, cache: &TermCache) -> FieldTerms {
        let mut len = 0u32;
        // Split at ASCII white space only, a byte test: a chunk with other white space in it
        // (a no-break space) is split again by the term cache, which gives the same terms.
        // (memchr3 on space, tab and line feed was slower: chunks are a few bytes long.)
        for chunk in ascii_words(text) {
            if is_plain_number(chunk) {
                // a number (a section number, mostly): its own term, without the chunk tables
                let id = self.id_of(chunk);
                self.counts.resize(self.vocab.len(), 0);
                len += 1;
                count(&mut self.counts, &mut self.touched, &[id]);
                continue;
            }
            if let Some((t, sp)) = self.chunks.get(chunk) {
                len += t.len() as u32;
                count(&mut self.counts, &mut self.touched, t);
                spelled.extend(sp.iter().cloned());
                continue;
            }
            self.scratch.clear();
            cache.terms(chunk, &mut self.scratch);
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
            self.counts.resize(self.vocab.len(), 0);
            len += t.len() as u32;
            count(&mut self.counts, &mut self.touched, &t);
            spelled.extend(sp.iter().cloned());
            self.chunks.insert(chunk.to_string(), (t, sp));
        }
        // In the order first met, not sorted: the postings are gathered per term, document
        // after document, so the order of a document's terms changes nothing.
        let terms = self
            .touched
            .drain(..)
            .map(|t| (t, std::mem::take(&mut self.counts[t as usize])))
            .collect();
        FieldTerms { terms, len }
    }

    /// A section's own number (`7.1.0`) as one more occurrence of that term in its title,
    /// left out of the title's length (rank.rs, step 3): a number query finds its section
    /// first, and no other query's ranking moves (a number counted in the length did move
    /// them, and made later searches load more).
    fn own_number(&mut self, title: &mut FieldTerms, number: &str) {
        if !is_plain_number(number) {
            return;
        }
        let id = self.id_of(number);
        title.add_outside_length(id, 1);
    }
}

/// Whether `chunk` is digits separated by single dots (`7`, `7.1.0`), which the analyzer
/// keeps as they are, one term (a test below checks it against `tokenize`).
pub(crate) fn is_plain_number(chunk: &str) -> bool {
    let b = chunk.as_bytes();
    !b.is_empty()
        && b.len() <= 32
        && b[0].is_ascii_digit()
        && b[b.len() - 1].is_ascii_digit()
        && b.iter().all(|c| c.is_ascii_digit() || *c == b'.')
        && !chunk.contains("..")
}

/// The words of `text` between ASCII white space, as `str::split_ascii_whitespace` gives
/// them, found eight bytes at a time: every character of the site's text passes here, and a
/// byte at a time the split was a fifth of the analysis.
fn ascii_words(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() && is_ascii_space(bytes[i]) {
            i += 1;
        }
        if i == bytes.len() {
            return None;
        }
        let start = i;
        i = next_ascii_space(bytes, i + 1);
        Some(&text[start..i])
    })
}

/// What `u8::is_ascii_whitespace` calls white space.
fn is_ascii_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\x0c' | b'\r')
}

/// The first ASCII white space at or after `i`, or the length of `bytes`.
fn next_ascii_space(bytes: &[u8], mut i: usize) -> usize {
    while let Some(w) = crate::bytes::eight_at(bytes, i) {
        // the lowest byte flagged is exactly the first byte below 0x21 (every white space is)
        let below = crate::bytes::below(w, 0x21);
        if below == 0 {
            i += 8;
            continue;
        }
        let at = i + (below.trailing_zeros() / 8) as usize;
        if is_ascii_space(bytes[at]) {
            return at;
        }
        // a control character: go on after it
        i = at + 1;
    }
    (bytes[i..].iter())
        .position(|&b| is_ascii_space(b))
        .map_or(bytes.len(), |k| i + k)
}

/// Counts the terms `ids` into `counts`, noting in `touched` each term counted for the first
/// time.
fn count(counts: &mut [u32], touched: &mut Vec<u32>, ids: &[u32]) {
    for &t in ids {
        let n = &mut counts[t as usize];
        if *n == 0 {
            touched.push(t);
        }
        *n += 1;
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

/// One document of a term's postings: the document, and the term's frequency in it with the
/// field's length id, packed into one number. 8 bytes rather than 12: the postings are most of
/// the index's memory (tens of millions at 2,000 chapters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Posting {
    doc: u32,
    tf_len: u32,
}

impl Posting {
    /// The largest frequency kept. A content file is at most 16 MiB (limits.rs), so no word
    /// comes near it; one that did would count as this many.
    const MAX_TF: u32 = (1 << 24) - 1;

    fn new(doc: u32, tf: u32, len_id: u8) -> Self {
        Posting {
            doc,
            tf_len: (tf.min(Self::MAX_TF) << 8) | u32::from(len_id),
        }
    }

    fn tf(self) -> u32 {
        self.tf_len >> 8
    }

    fn len_id(self) -> u8 {
        self.tf_len as u8
    }
}

/// The postings of one term in one field, in document order.
type Postings = Vec<Posting>;

/// Encodes postings for the browser: for each document, its gap from the previous one, then
/// `length id × 8 + frequency` (frequency below 8), or `length id × 8` followed by the
/// frequency.
fn encode_postings<'a>(postings: impl Iterator<Item = &'a Posting>, out: &mut Vec<u8>) {
    let mut last = 0;
    for p in postings {
        let (doc, tf, len_id) = (p.doc, p.tf(), p.len_id());
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

/// How one term's postings are split for the browser: impact-ordered tiers. In each
/// language, the term's documents are ranked by the term's score in them (as search.js
/// computes it, title and body); the [`HEAD_DOCS`] best go into its term shard (the head),
/// the next [`FIRST_TIER_DOCS`] into its first tier, the next [`TIER_GROWTH`] times as many
/// into the second, and so on (a last tier smaller than the one before it joins that one).
/// Tiers are written to tier files (`search/r/N.js`, see [`group`]) and loaded by the browser
/// one at a time, only while the results are not proven: every document of a tier scores at
/// most as much as the weakest one of the tier before it, so after tiers `0..=k` are loaded,
/// the weakest of tier `k` bounds everything still out (see `static/js/search.js` `combine`).
///
/// Why tiers rather than one tail: a word on most sections of a large site has tens of
/// thousands of postings, and a query of two such words usually needs only the next thousand
/// or so of each to prove its top ten. Growing tiers keep the bytes of a query within a small
/// factor of what its proof needs, in a few rounds, whatever the depth it needs.
struct Split {
    /// For each document of the term (ascending), its piece: 0 for the head, else the
    /// number of the tail tier counted over all languages from 1, languages in order.
    piece: Vec<(u32, u16)>,
    /// For each language, how many tail tiers it has.
    tiers: Vec<usize>,
}

/// Documents of one language kept in a term's head.
pub const HEAD_DOCS: usize = 200;
/// Documents of one language in a term's first tail tier.
pub const FIRST_TIER_DOCS: usize = 1000;
/// Each tail tier holds this many times as many documents as the one before it.
pub const TIER_GROWTH: usize = 5;

/// `rank::bm25` for a term found in `df` documents' field `f`, split into what every document
/// shares, idf × (K1 + 1), and the length part of the denominator for each length id, so a
/// document's score is `shared × tf / (tf + length part)`: the same operations in the same
/// order as `rank::bm25`, so the same numbers, with the logarithm worked out once per term and
/// the length parts once per field ([`Stats::new`]).
fn bm25_parts(df: usize, f: usize, stats: &Stats) -> (f64, &[f64]) {
    use super::rank::K1;
    let (n, df) = (stats.n as f64, df as f64);
    let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
    (idf * (K1 + 1.0), &stats.lens[f])
}

/// A term's score in each of its documents, as search.js computes it (title, then body),
/// in document order.
fn doc_scores(p: &[Postings; 2], stats: &Stats) -> Vec<(u32, f64)> {
    let mut docs: Vec<(u32, f64)> = Vec::with_capacity(p[0].len().max(p[1].len()));
    let (mut i, mut j) = (0, 0);
    let fields = [
        bm25_parts(p[0].len(), 0, stats),
        bm25_parts(p[1].len(), 1, stats),
    ];
    let score = |f: usize, x: &Posting| {
        let tf = f64::from(x.tf());
        fields[f].0 * tf / (tf + fields[f].1[x.len_id() as usize])
    };
    while i < p[0].len() || j < p[1].len() {
        let dt = p[0].get(i).map_or(u32::MAX, |x| x.doc);
        let db = p[1].get(j).map_or(u32::MAX, |x| x.doc);
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
    docs
}

/// The split of one term's `[title, body]` postings. `langs` are the document ranges of the
/// languages, `stats` the numbers BM25 needs.
fn split(p: &[Postings; 2], langs: &[(String, usize, usize)], stats: &Stats) -> Option<Split> {
    let docs = doc_scores(p, stats);
    let mut piece: Vec<(u32, u16)> = docs.iter().map(|&(d, _)| (d, 0)).collect();
    let mut tiers = vec![0; langs.len()];
    let mut next = 1u16;
    for (l, (_, from, to)) in langs.iter().enumerate() {
        let a = docs.partition_point(|x| (x.0 as usize) < *from);
        let b = docs.partition_point(|x| (x.0 as usize) < *to);
        if b - a <= HEAD_DOCS {
            continue;
        }
        // (score, position in `docs`): the score beside its document, so the selections
        // below compare values in place rather than look each one up.
        let mut order: Vec<(f64, usize)> = (a..b).map(|x| (docs[x].1, x)).collect();
        // Only which documents make each tier matters, not their order within it: a
        // selection per cut, not a sort. Ties go by document, so the tiers are the same sets
        // a full sort would cut.
        let by_score = |x: &(f64, usize), y: &(f64, usize)| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1));
        let mut rest = &mut order[..];
        let mut size = HEAD_DOCS;
        let mut first = true;
        while !rest.is_empty() {
            // the cut after this tier, unless what would be left is smaller than it
            let take = if first || rest.len() >= 2 * size {
                size
            } else {
                rest.len()
            };
            if take < rest.len() {
                rest.select_nth_unstable_by(take, by_score);
            }
            let (tier, more) = rest.split_at_mut(take);
            if !first {
                for &(_, x) in tier.iter() {
                    piece[x].1 = next;
                }
                next += 1;
                tiers[l] += 1;
            }
            rest = more;
            size = if first {
                FIRST_TIER_DOCS
            } else {
                size * TIER_GROWTH
            };
            first = false;
        }
    }
    if next == 1 {
        return None;
    }
    Some(Split { piece, tiers })
}

/// Documents of one language kept in a group's head (see [`group_entry`]).
pub const GROUP_DOCS: usize = 200;
/// The most words of a name given a head of the whole name (see [`title_groups`]).
pub const GROUP_WORDS: usize = 4;

/// The groups of words to give heads of their own, each a sorted list of terms, from the
/// names of things: glossary terms and the titles of sections (each title once, however many
/// sections have it). Two different words side by side in a name (`exhaustion token`,
/// `жетон виснаження`), and the whole name when it has three or four words (`play area
/// setup`, `ліміт поля заклять`), at least one of them common enough to have tiers. These are
/// the queries players type most, and the ones tiers serve worst: the sections that rank
/// first for two words are seldom in the head of the common one, and a pair's head leaves a
/// third word's tiers to load (at 2,000 chapters such a search loaded 55 to 70 KB). A name's
/// words are those a query typed as the name keeps (rank.rs `query_words`: `attack a unit` is
/// `attack unit`).
fn title_groups<'v>(
    docs: &[Doc<'_>],
    words: &FxHashMap<&'v str, (usize, bool)>,
) -> Vec<Vec<&'v str>> {
    let mut titles: Vec<&str> = docs.iter().map(|d| &*d.title).collect();
    titles.sort_unstable();
    titles.dedup();
    let mut out: Vec<Vec<&str>> = Vec::new();
    for title in titles {
        // each word as (term, whether it has tiers), or None when it has no entry here
        let terms: Vec<Option<(&str, bool)>> = super::rank::query_words(title)
            .into_iter()
            .filter(|(t, _)| !is_number(t))
            .map(|(t, _)| words.get_key_value(t.as_str()).map(|(k, v)| (*k, v.1)))
            .collect();
        for w in terms.windows(2) {
            if let [Some((a, ta)), Some((b, tb))] = w {
                if a != b && (*ta || *tb) {
                    out.push(if a < b { vec![*a, *b] } else { vec![*b, *a] });
                }
            }
        }
        if !(3..=GROUP_WORDS).contains(&terms.len()) {
            continue;
        }
        // query_words gives each term once
        if let Some(all) = terms.into_iter().collect::<Option<Vec<_>>>() {
            if all.iter().any(|(_, tiered)| *tiered) {
                let mut g: Vec<&str> = all.into_iter().map(|(t, _)| t).collect();
                g.sort_unstable();
                out.push(g);
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// A word's `[title, body]` postings and its [`doc_scores`].
type Scored<'a> = (&'a [Postings; 2], &'a [(u32, f64)]);

/// A group's head: for each language, the [`GROUP_DOCS`] documents with every word of the
/// group that score best for them together (each word's score as search.js computes it,
/// added), and the postings of each word in exactly those documents. Every other document
/// with all the words scores at most the weakest of them: that bound (0 when the head holds
/// every such document) lets search.js prove the query of those words without their tiers.
/// Written as `"a b c":[language,bound,"a title","a body","b title","b body",…]`, the terms
/// sorted. `lists`: each word's postings and its [`doc_scores`], in the group's order.
fn group_entry(
    terms: &[&str],
    lists: &[Scored<'_>],
    langs: &[(String, usize, usize)],
) -> std::io::Result<Vec<u8>> {
    // documents with every word, in document order, with their summed score
    let mut all: Vec<(u32, f64)> = lists[0].1.to_vec();
    for (_, scores) in &lists[1..] {
        let mut both = Vec::with_capacity(all.len().min(scores.len()));
        let (mut i, mut j) = (0, 0);
        while i < all.len() && j < scores.len() {
            match all[i].0.cmp(&scores[j].0) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    both.push((all[i].0, all[i].1 + scores[j].1));
                    i += 1;
                    j += 1;
                }
            }
        }
        all = both;
    }
    let mut out = Vec::new();
    serde_json::to_writer(&mut out, &terms.join(" ")).map_err(std::io::Error::other)?;
    out.extend_from_slice(b":[");
    for (l, (_, from, to)) in langs.iter().enumerate() {
        let lo = all.partition_point(|x| (x.0 as usize) < *from);
        let hi = all.partition_point(|x| (x.0 as usize) < *to);
        let mut head: Vec<(u32, f64)> = all[lo..hi].to_vec();
        let mut bound = 0.0;
        if head.len() > GROUP_DOCS {
            head.select_nth_unstable_by(GROUP_DOCS, |x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
            head.truncate(GROUP_DOCS);
            // a little above the weakest, for the browser's own floating point
            bound = head.iter().map(|x| x.1).fold(f64::INFINITY, f64::min) * (1.0 + 1e-9);
        }
        let mut kept: Vec<u32> = head.iter().map(|x| x.0).collect();
        kept.sort_unstable();
        if l > 0 {
            out.push(b',');
        }
        out.extend_from_slice(format!("{l},{bound},").as_bytes());
        let fields = lists.iter().flat_map(|(p, _)| [&p[0], &p[1]]);
        for (n, p) in fields.enumerate() {
            if n > 0 {
                out.push(b',');
            }
            out.push(b'"');
            // both in document order: one walk over the language's postings, not a search
            // per posting
            let lo = p.partition_point(|x| (x.doc as usize) < *from);
            let hi = p.partition_point(|x| (x.doc as usize) < *to);
            let mut at = 0;
            let kept_postings = p[lo..hi].iter().filter(|x| {
                while at < kept.len() && kept[at] < x.doc {
                    at += 1;
                }
                at < kept.len() && kept[at] == x.doc
            });
            encode_postings(kept_postings, &mut out);
            out.push(b'"');
        }
    }
    out.push(b']');
    Ok(out)
}

/// What BM25 needs besides a term's own postings.
struct Stats {
    n: usize,
    /// For each field, the length part of BM25's denominator for each length id (see
    /// [`bm25_parts`]): the same for every term, so worked out once.
    lens: [Vec<f64>; 2],
}

impl Stats {
    /// `avg`: the average length of each field; `norms`: tantivy's field length of each
    /// length id.
    fn new(n: usize, avg: [f64; 2], norms: &[u32]) -> Self {
        use super::rank::{B, K1};
        let lens = avg.map(|avg| {
            (norms.iter())
                .map(|&l| K1 * (1.0 - B + B * f64::from(l) / avg))
                .collect()
        });
        Stats { n, lens }
    }
}

/// The ratio between consecutive values of an encoded score bound (see [`bound_digit`]).
const BOUND_STEP: f64 = 1.06;

/// The most a term can add to one document's score in each language, as search.js scores it
/// (title boosted, weight 1): the title's best plus the body's best, which no single document
/// can exceed. The browser loads a typo expansion's postings only when this bound could still
/// change the top results (`static/js/search.js` `score`), so a word typed right does not
/// fetch the shards of the words one letter away from it.
fn score_bounds(p: &[Postings; 2], langs: &[(String, usize, usize)], stats: &Stats) -> Vec<f64> {
    let mut out = vec![0.0; langs.len()];
    for (f, postings) in p.iter().enumerate() {
        if postings.is_empty() {
            continue;
        }
        // tf / (tf + length part) is all that varies between documents: its best per
        // language, times what they share once
        let (full, norm) = bm25_parts(postings.len(), f, stats);
        let mut best = vec![0.0f64; langs.len()];
        let mut l = 0;
        for x in postings {
            while l + 1 < langs.len() && x.doc as usize >= langs[l].2 {
                l += 1;
            }
            let tf = f64::from(x.tf());
            let part = tf / (tf + norm[x.len_id() as usize]);
            if part > best[l] {
                best[l] = part;
            }
        }
        let boost = if f == 0 {
            super::rank::TITLE_BOOST
        } else {
            1.0
        };
        for (o, b) in out.iter_mut().zip(best) {
            *o += boost * full * b;
        }
    }
    out
}

/// A score bound as one of the postings' [`DIGITS`]: `k` stands for `BOUND_STEP^k - 1`,
/// rounded up (and a little more, for the browser's floating point), so it never says less
/// than the bound; the last digit stands for no bound at all.
fn bound_digit(bound: f64) -> u8 {
    if bound <= 0.0 {
        return DIGITS[0];
    }
    let k = ((1.0 + bound * 1.001).ln() / BOUND_STEP.ln()).ceil();
    DIGITS[(k as usize).min(DIGITS.len() - 1)]
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
    /// For each language, one digit per word of `terms`: the most the word adds to one
    /// document's score there (see [`score_bounds`], [`bound_digit`]).
    bounds: Vec<String>,
    /// `BOUND_STEP`, to read those digits.
    bound_step: f64,
    /// For each language, its first glossary entry (the entries close its documents; the
    /// language's end when it has none). Step 5 needs the names of an entry that has other
    /// names (rank.rs `named_exact`), which are in its document chunk: the browser loads
    /// the chunk of a first-page result only when it is an entry.
    glossary: Vec<usize>,
    /// The little words a query leaves out (rank.rs `STOP_WORDS`), so the browser has the
    /// command line's list and no copy of its own.
    stop: &'static [&'static str],
}

/// Writes the browser index for `docs` into `dir/search/`, adding every file to `print`.
/// Returns the number of files written.
pub fn write(
    docs: &[Doc<'_>],
    languages: &[String],
    dir: &Path,
    print: &Fingerprint,
) -> std::io::Result<usize> {
    // every file of the index goes through here, so the fingerprint misses none
    let write_file = |dir: &Path, rel: &str, bytes: &[u8]| {
        print.add(rel, bytes);
        write_file(dir, rel, bytes)
    };
    let mut sw = crate::timing::Stopwatch::start();
    // Two runs per thread: each run meets every word of the site anew (a table lookup, a
    // string and a list for each, and the shared cache's lock), so fewer runs do less; two
    // rather than one leave the threads something to share when one finishes early. (Four per
    // thread were 0.8 % more instructions at 200 chapters than one.)
    let per_run = docs
        .len()
        .div_ceil(2 * rayon::current_num_threads())
        .max(64);
    let cache = TermCache::default();
    let runs: Vec<Run> = docs
        .par_chunks(per_run)
        .map(|chunk| {
            let mut run = Run::default();
            for d in chunk {
                let mut spelled = Vec::new();
                let (own, others) = d.names();
                let mut title = run.field(own, &mut spelled, &cache);
                if !others.is_empty() {
                    for (id, tf) in run.field(others, &mut spelled, &cache).terms {
                        title.add_outside_length(id, tf);
                    }
                }
                run.own_number(&mut title, &d.section);
                let fields = [title, run.field(&d.text, &mut spelled, &cache)];
                run.docs.push(fields);
                run.spelled.push(spelled);
            }
            // The chunk and term tables only speed up analysis; the postings need the ids
            // and the vocabulary. Freed here, the tables are not held through the rest of the
            // build (they were about a tenth of its peak memory at 2,000 chapters).
            run.chunks = FxHashMap::default();
            run.ids = FxHashMap::default();
            run.counts = Vec::new();
            run
        })
        .collect();
    drop(cache);
    sw.lap("search: analyze");
    // Global term ids in order of first appearance, postings gathered in document order.
    // The vocabularies stay (the ids borrow them); each run's documents are freed once
    // gathered.
    let (vocabs, analyzed): (Vec<Vec<String>>, Vec<_>) = runs
        .into_iter()
        .map(|r| (r.vocab, (r.docs, r.spelled)))
        .unzip();
    let mut ids: FxHashMap<&str, usize> = FxHashMap::default();
    let globals: Vec<Vec<usize>> = vocabs
        .iter()
        .map(|vocab| {
            vocab
                .iter()
                .map(|t| {
                    let next = ids.len();
                    *ids.entry(t.as_str()).or_insert(next)
                })
                .collect()
        })
        .collect();
    // Each term's postings get their exact size first: they are most of the index's memory,
    // and a list grown by doubling holds up to twice its length.
    let mut sizes = vec![[0usize; 2]; ids.len()];
    for ((docs, _), global) in analyzed.iter().zip(&globals) {
        for fields in docs {
            for (f, ft) in fields.iter().enumerate() {
                for (local, _) in &ft.terms {
                    sizes[global[*local as usize]][f] += 1;
                }
            }
        }
    }
    let mut postings: Vec<[Postings; 2]> = sizes
        .into_iter()
        .map(|[t, b]| [Vec::with_capacity(t), Vec::with_capacity(b)])
        .collect();
    // global term id → its spellings with `ґ`, each with its postings (title and body)
    let mut spelled: FxHashMap<usize, std::collections::BTreeMap<String, Postings>> =
        FxHashMap::default();
    let mut tokens = [0u64; 2];
    let mut doc = 0u32;
    for ((docs, spellings), global) in analyzed.into_iter().zip(&globals) {
        for (fields, sp) in docs.iter().zip(&spellings) {
            for (f, ft) in fields.iter().enumerate() {
                tokens[f] += u64::from(ft.len);
                let len_id = FieldNormReader::fieldnorm_to_id(ft.len);
                for (local, tf) in &ft.terms {
                    postings[global[*local as usize]][f].push(Posting::new(doc, *tf, len_id));
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
                    .push(Posting::new(doc, tf, 0));
            }
            doc += 1;
        }
    }
    let mut vocab: Vec<(&str, usize)> = ids.into_iter().collect();
    vocab.sort_unstable();
    // A term has more than one spelling when it has two with `ґ`, or one with `ґ` and
    // occurrences beyond it (spelled with `г`). With one spelling, the spelling cannot
    // reorder anything (rank.rs `folded_docs`), so it is left out of the index.
    let total = |p: &Postings| p.iter().map(|x| u64::from(x.tf())).sum::<u64>();
    spelled.retain(|id, sp| {
        let with = sp.values().map(total).sum::<u64>();
        sp.len() > 1 || total(&postings[*id][0]) + total(&postings[*id][1]) > with
    });

    let mut langs = Vec::new();
    for l in languages {
        let first = docs.iter().position(|d| d.lang == l).unwrap_or(docs.len());
        let end = first + docs[first..].iter().take_while(|d| d.lang == l).count();
        langs.push((l.clone(), first, end));
    }
    let norms: Vec<u32> = (0..=255u8).map(FieldNormReader::id_to_fieldnorm).collect();
    let stats = Stats::new(
        docs.len(),
        [
            tokens[0] as f64 / docs.len().max(1) as f64,
            tokens[1] as f64 / docs.len().max(1) as f64,
        ],
        &norms,
    );
    // Each term's entry in its shard and its tail tiers (if it has some), encoded.
    let encoded: Vec<Entry> = vocab
        .par_iter()
        .map(|(term, id)| entry(term, &postings[*id], spelled.get(id), &langs, &stats))
        .collect::<Result<_, _>>()?;
    // Only the words: numbers are matched exactly, through `shards` (see rank.rs).
    let df: Vec<u64> = vocab
        .iter()
        .filter(|(t, _)| !is_number(t))
        .map(|(_, id)| (postings[*id][0].len() + postings[*id][1].len()) as u64)
        .collect();
    let word_bounds: Vec<Vec<f64>> = vocab
        .par_iter()
        .filter(|(t, _)| !is_number(t))
        .map(|(_, id)| score_bounds(&postings[*id], &langs, &stats))
        .collect();
    let bounds: Vec<String> = (0..langs.len())
        .map(|l| {
            word_bounds
                .iter()
                .map(|b| char::from(bound_digit(b[l])))
                .collect()
        })
        .collect();
    // heads of the glossary's pairs of common words, while the postings are here
    // each word: its id, and whether it has tiers; a word with more than one spelling
    // (folded by rank.rs) is left out, as its scores depend on the query's spelling
    let words: FxHashMap<&str, (usize, bool)> = vocab
        .iter()
        .zip(&encoded)
        .filter(|((t, id), _)| !is_number(t) && !spelled.contains_key(id))
        .map(|((t, id), e)| (*t, (*id, !e.pieces.is_empty())))
        .collect();
    sw.lap("search: postings");
    let groups = title_groups(docs, &words);
    // A common word is in many groups (`token`: `exhaustion token`, `wound token`, …): each
    // word's scores are worked out once for all its groups. (At 2,000 chapters, 165 words,
    // about 29 MB while the heads are made.)
    let postings_of = |w: &str| &postings[words[w].0];
    let mut grouped: Vec<&str> = groups.iter().flatten().copied().collect();
    grouped.sort_unstable();
    grouped.dedup();
    let scores: FxHashMap<&str, Vec<(u32, f64)>> = grouped
        .par_iter()
        .map(|w| (*w, doc_scores(postings_of(w), &stats)))
        .collect();
    let group_entries: Vec<Vec<u8>> = groups
        .par_iter()
        .map(|g| {
            let lists: Vec<Scored<'_>> = g
                .iter()
                .map(|w| (postings_of(w), scores[w].as_slice()))
                .collect();
            group_entry(g, &lists, &langs)
        })
        .collect::<Result<_, _>>()?;
    drop(scores);
    // encoded: not needed while the files are written
    drop((postings, spelled));

    sw.lap("search: group heads");
    // Cut the sorted vocabulary into shards, and the tail tiers into tier files.
    let shards = shard_starts(
        vocab
            .iter()
            .zip(&encoded)
            .map(|((t, _), e)| (*t, e.head.len())),
    );
    let (files, file_of) = group(&encoded);
    // group heads in files of about TIER_BYTES, in the order of their groups; the shard entry
    // of each word of a group that has tiers names the file under the group's other words
    // (a group has one such word at least)
    let mut group_files: Vec<Vec<usize>> = Vec::new();
    let mut size = TIER_BYTES;
    for (n, e) in group_entries.iter().enumerate() {
        if size >= TIER_BYTES {
            group_files.push(Vec::new());
            size = 0;
        }
        group_files.last_mut().expect("a file").push(n);
        size += e.len();
    }
    let mut partners: FxHashMap<&str, Vec<(String, usize)>> = FxHashMap::default();
    for (k, members) in group_files.iter().enumerate() {
        for &n in members {
            let g = &groups[n];
            for (i, w) in g.iter().enumerate() {
                let others: Vec<&str> = (g.iter().enumerate())
                    .filter(|(j, _)| *j != i)
                    .map(|(_, o)| *o)
                    .collect();
                partners.entry(w).or_default().push((others.join(" "), k));
            }
        }
    }
    let glossary = (langs.iter())
        .map(|(_, first, end)| {
            let at = docs[*first..*end]
                .iter()
                .position(|d| d.kind == Kind::Glossary);
            at.map_or(*end, |i| first + i)
        })
        .collect();
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
        df,
        norms,
        bounds,
        bound_step: BOUND_STEP,
        glossary,
        stop: super::rank::STOP_WORDS,
    };
    let meta_json = serde_json::to_string(&meta).map_err(std::io::Error::other)?;
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
                s.extend_from_slice(&encoded[i].head);
                if !encoded[i].pieces.is_empty() {
                    // the tier files of each language close the entry
                    let mut f = file_of[i].iter();
                    s.push(b',');
                    for l in 0..meta.langs.len() {
                        s.push(if l == 0 { b'[' } else { b',' });
                        s.push(b'[');
                        let of_lang = encoded[i].pieces.iter().filter(|p| p.lang == l);
                        for (n, _) in of_lang.enumerate() {
                            if n > 0 {
                                s.push(b',');
                            }
                            s.extend_from_slice(f.next().unwrap_or(&0).to_string().as_bytes());
                        }
                        s.push(b']');
                    }
                    s.push(b']');
                    if let Some(with) = partners.get(vocab[i].0) {
                        // the files of the group heads this word is in, under the group's other
                        // words: {"other words":file,…}
                        s.extend_from_slice(b",{");
                        for (n, (other, k)) in with.iter().enumerate() {
                            if n > 0 {
                                s.push(b',');
                            }
                            serde_json::to_writer(&mut s, other).map_err(std::io::Error::other)?;
                            s.extend_from_slice(format!(":{k}").as_bytes());
                        }
                        s.push(b'}');
                    }
                    s.push(b']');
                }
            }
            s.extend_from_slice(b"});\n");
            write_file(dir, &format!("search/t/{k}.js"), &s)
        })?;
    files.par_iter().enumerate().try_for_each(|(k, pieces)| {
        let mut s = format!("RulebookSearch.tail({k},{{").into_bytes();
        let mut last = usize::MAX;
        for &(i, n) in pieces {
            let piece = &encoded[i].pieces[n];
            if i == last {
                s.push(b',');
            } else {
                if last != usize::MAX {
                    s.extend_from_slice(b"],");
                }
                serde_json::to_writer(&mut s, vocab[i].0).map_err(std::io::Error::other)?;
                s.extend_from_slice(b":[");
                last = i;
            }
            s.extend_from_slice(format!("{},{},", piece.lang, piece.tier).as_bytes());
            s.extend_from_slice(&piece.lists);
        }
        if last != usize::MAX {
            s.push(b']');
        }
        s.extend_from_slice(b"});\n");
        write_file(dir, &format!("search/r/{k}.js"), &s)
    })?;
    group_files
        .par_iter()
        .enumerate()
        .try_for_each(|(k, members)| {
            let mut s = format!("RulebookSearch.pair({k},{{").into_bytes();
            for (i, &n) in members.iter().enumerate() {
                if i > 0 {
                    s.push(b',');
                }
                s.extend_from_slice(&group_entries[n]);
            }
            s.extend_from_slice(b"});\n");
            write_file(dir, &format!("search/p/{k}.js"), &s)
        })?;

    sw.lap("search: term shards");
    let chunks: Vec<&[Doc<'_>]> = docs.chunks(CHUNK_DOCS).collect();
    chunks.par_iter().enumerate().try_for_each(|(k, chunk)| {
        // One JSON array per document: glossary entry (1) or section (0), section number,
        // title, chapter, URL, the first PASSAGE_CHARS of the text with `…` when it goes
        // on, the languages that show the chapter in this language, if any, and a glossary
        // entry's other names, if any. Written by hand rather than through serde_json: the
        // passages are most of the index's bytes, and they rarely need escaping (see
        // `json::escape_into`).
        let mut s = format!("RulebookSearch.docs({k},[");
        for (i, d) in chunk.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str(if d.kind == Kind::Glossary { "[1" } else { "[0" });
            for field in [&*d.section, &*d.title, &*d.chapter, d.url.as_str()] {
                s.push_str(",\"");
                escape_into(field, &mut s);
                s.push('"');
            }
            s.push_str(",\"");
            let upto = cut(&d.text, PASSAGE_CHARS);
            escape_into(upto, &mut s);
            if upto.len() < d.text.len() {
                s.push('…');
            }
            s.push('"');
            // the languages that show this chapter in this language (`Doc::shown_in`), and a
            // glossary entry's other names, which step 6 compares with the query too (rank.rs
            // `spelled_first`)
            let others = d.other_names();
            let list = |s: &mut String, items: &mut dyn Iterator<Item = &str>| {
                s.push_str(",[");
                for (i, l) in items.enumerate() {
                    s.push_str(if i > 0 { ",\"" } else { "\"" });
                    escape_into(l, s);
                    s.push('"');
                }
                s.push(']');
            };
            if !d.shown_in.is_empty() || !others.is_empty() {
                list(&mut s, &mut d.shown_in.iter().copied());
            }
            if !others.is_empty() {
                list(&mut s, &mut others.split('\n'));
            }
            s.push(']');
        }
        s.push_str("]);\n");
        write_file(dir, &format!("search/d/{k}.js"), s.as_bytes())
    })?;
    sw.lap("search: document chunks");
    Ok(1 + shard_ranges.len() + files.len() + group_files.len() + chunks.len())
}

/// Where each term shard starts, for the terms in vocabulary order with the sizes of their
/// entries: a shard is cut once it holds [`SHARD_BYTES`] ([`NUMBER_SHARD_BYTES`] for numbers),
/// and numbers and words never share one.
fn shard_starts<'t>(terms: impl Iterator<Item = (&'t str, usize)>) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut size = 0;
    let mut numbers = false;
    for (i, (term, bytes)) in terms.enumerate() {
        let number = is_number(term);
        let limit = if number {
            NUMBER_SHARD_BYTES
        } else {
            SHARD_BYTES
        };
        if i == 0 || size >= limit || number != numbers {
            starts.push(i);
            size = 0;
            numbers = number;
        }
        size += bytes;
    }
    starts
}

/// The tier files: which pieces each holds, as (term, piece) in the order written, and for
/// each term the file of each of its pieces. A tier of at least half of [`TIER_BYTES`] has a
/// file of its own, so loading it brings nothing else; smaller ones are grouped, so that
/// small tiers do not make thousands of tiny files. A group holds tiers of one depth (first
/// tiers with first tiers, …) of consecutive terms: a query's prefix expansions are
/// neighbours in the vocabulary and often need the same depth, so one file serves several of
/// them; and a small first tier never comes with a big deep tier of another term.
type Files = (Vec<Vec<(usize, usize)>>, Vec<Vec<usize>>);
fn group(encoded: &[Entry]) -> Files {
    let depth = encoded
        .iter()
        .flat_map(|e| e.pieces.iter().map(|p| p.tier + 1))
        .max()
        .unwrap_or(0);
    let mut files: Vec<Vec<(usize, usize)>> = Vec::new();
    let mut file_of: Vec<Vec<usize>> = encoded.iter().map(|e| vec![0; e.pieces.len()]).collect();
    for tier in 0..depth {
        let mut open: Option<(usize, usize)> = None; // (file, bytes)
        for (i, e) in encoded.iter().enumerate() {
            for (n, p) in e.pieces.iter().enumerate() {
                if p.tier != tier {
                    continue;
                }
                let len = p.lists.len();
                let f = if 2 * len >= TIER_BYTES {
                    files.push(Vec::new());
                    files.len() - 1
                } else {
                    match open {
                        Some((f, bytes)) if bytes < TIER_BYTES => {
                            open = Some((f, bytes + len));
                            f
                        }
                        _ => {
                            files.push(Vec::new());
                            open = Some((files.len() - 1, len));
                            files.len() - 1
                        }
                    }
                };
                files[f].push((i, n));
                file_of[i][n] = f;
            }
        }
    }
    (files, file_of)
}

/// One tail tier of a term, encoded: its language, its number among the language's tiers
/// (from 0), and `"title","body"` (its postings).
struct Piece {
    lang: usize,
    tier: usize,
    lists: Vec<u8>,
}

/// A term's entry: its part of the shard and its tail tiers.
struct Entry {
    /// `"term":["title","body"` and, when the term has tiers, `,title df,body df` (the
    /// writer closes it; the document frequencies BM25 needs are no longer the lengths of
    /// the lists).
    head: Vec<u8>,
    pieces: Vec<Piece>,
}

/// A term's entry in its shard, `"term":["title","body"]`, and its tail tiers if it has
/// some: then the shard entry is `"term":["title","body",title df,body df,[[files…],…]]`,
/// with for each language (in the order of `langs`) the numbers of the tier files of its
/// tiers, best tier first, `[]` where it has none (see [`write`]). A tier file is
/// `RulebookSearch.tail(N,{"term":[language,tier,"title","body",…],…})`. A term with more
/// than one spelling (see `spelled` in [`write`]) is never split, as which documents rank.rs
/// `folded_docs` weighs down depends on all of them; its entry goes on with its spellings:
/// `,"spelling","postings"` each.
fn entry(
    term: &str,
    p: &[Postings; 2],
    spellings: Option<&std::collections::BTreeMap<String, Postings>>,
    langs: &[(String, usize, usize)],
    stats: &Stats,
) -> std::io::Result<Entry> {
    let mut head = Vec::new();
    serde_json::to_writer(&mut head, term).map_err(std::io::Error::other)?;
    head.extend_from_slice(b":[");
    match split(p, langs, stats).filter(|_| spellings.is_none()) {
        None => {
            head.push(b'"');
            encode_postings(p[0].iter(), &mut head);
            head.extend_from_slice(b"\",\"");
            encode_postings(p[1].iter(), &mut head);
            head.push(b'"');
            for (sp, p) in spellings.into_iter().flatten() {
                head.push(b',');
                serde_json::to_writer(&mut head, sp).map_err(std::io::Error::other)?;
                head.extend_from_slice(b",\"");
                encode_postings(p.iter(), &mut head);
                head.push(b'"');
            }
            head.push(b']');
            Ok(Entry {
                head,
                pieces: Vec::new(),
            })
        }
        Some(sp) => {
            // each field's postings dealt out to their pieces, in document order
            let count = 1 + sp.tiers.iter().sum::<usize>();
            let mut lists: Vec<[Postings; 2]> = vec![Default::default(); count];
            for (f, field) in p.iter().enumerate() {
                let mut k = 0;
                for x in field {
                    while sp.piece[k].0 < x.doc {
                        k += 1;
                    }
                    lists[sp.piece[k].1 as usize][f].push(*x);
                }
            }
            let encode_pair = |out: &mut Vec<u8>, l: &[Postings; 2]| {
                out.push(b'"');
                encode_postings(l[0].iter(), out);
                out.extend_from_slice(b"\",\"");
                encode_postings(l[1].iter(), out);
                out.push(b'"');
            };
            encode_pair(&mut head, &lists[0]);
            head.extend_from_slice(format!(",{},{}", p[0].len(), p[1].len()).as_bytes());
            let mut pieces = Vec::with_capacity(count - 1);
            let mut next = 1;
            for (lang, &n) in sp.tiers.iter().enumerate() {
                for tier in 0..n {
                    let mut out = Vec::new();
                    encode_pair(&mut out, &lists[next]);
                    pieces.push(Piece {
                        lang,
                        tier,
                        lists: out,
                    });
                    next += 1;
                }
            }
            Ok(Entry { head, pieces })
        }
    }
}

/// The start of `text`, at most `chars` characters, cut after a whole word when possible.
fn cut(text: &str, chars: usize) -> &str {
    match crate::chars::offset_of(text, chars) {
        None => text,
        Some(end) => {
            let head = &text[..end];
            match head.rfind(char::is_whitespace) {
                Some(sp) if sp > end / 2 => &text[..sp],
                _ => head,
            }
        }
    }
}

/// Writes the browser's search index for `site` into `dir/search/`. Returns the number of
/// files written and their fingerprint, the service worker's part of its version
/// ([`crate::offline`]).
pub fn write_site(
    site: &crate::site::Site,
    dir: &Path,
) -> Result<(usize, Fingerprint), crate::diag::Diagnostic> {
    let docs = super::docs::collect(site);
    let print = Fingerprint::default();
    let files = write(&docs, &site.config.languages, dir, &print).map_err(|e| {
        crate::diag::Diagnostic::error(
            "io",
            dir.display().to_string(),
            0,
            format!("cannot write the search index: {e}"),
        )
    })?;
    Ok((files, print))
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The split eight bytes at a time is `split_ascii_whitespace`, around every byte below
        /// 0x21 (white space or not) and characters of several bytes.
        #[test]
        fn ascii_words_split_as_the_standard_library(
            text in "[a-z \\t\\n\\r\u{b}\u{c}\u{0}\u{1}\u{1f}!жґ\u{a0}😀]{0,40}"
        ) {
            let ours: Vec<&str> = ascii_words(&text).collect();
            let std: Vec<&str> = text.split_ascii_whitespace().collect();
            proptest::prop_assert_eq!(ours, std);
        }
    }

    #[test]
    fn plain_numbers_are_one_term_of_their_own() {
        for n in ["7", "7.1.0", "12.10.3", "1063.8.0", "0.0", "99999999.1"] {
            assert!(is_plain_number(n), "{n}");
            let t: Vec<String> = crate::search::analyzer::tokenize(n)
                .into_iter()
                .map(|t| t.term)
                .collect();
            assert_eq!(t, [n], "{n}");
        }
        for n in ["", "7.", ".7", "7..1", "7a", "7,1", "-7", "7.1.0)"] {
            assert!(!is_plain_number(n), "{n}");
        }
    }

    #[test]
    fn a_sections_own_number_is_a_title_word_outside_its_length() {
        let cache = TermCache::default();
        let mut run = Run::default();
        let term = |run: &Run, ft: &FieldTerms, w: &str| {
            ft.terms
                .iter()
                .find(|(t, _)| run.vocab[*t as usize] == w)
                .map(|x| x.1)
        };
        let mut title = run.field("Discarding Cards", &mut Vec::new(), &cache);
        run.own_number(&mut title, "7.1.0");
        assert_eq!((term(&run, &title, "7.1.0"), title.len), (Some(1), 2));
        // named in the title too: counted twice, the length still that of the text
        let mut title = run.field("7.1.0 Discarding", &mut Vec::new(), &cache);
        run.own_number(&mut title, "7.1.0");
        assert_eq!((term(&run, &title, "7.1.0"), title.len), (Some(2), 2));
        // no number, or not a plain one: nothing added
        for n in ["", "A.1", "7.1.0)"] {
            let mut title = run.field("Discarding", &mut Vec::new(), &cache);
            run.own_number(&mut title, n);
            assert_eq!(title.terms.len(), 1, "{n}");
        }
    }

    proptest::proptest! {
        #[test]
        fn every_plain_number_is_its_own_term(n in "[0-9]{1,6}(\\.[0-9]{1,4}){0,4}") {
            proptest::prop_assert!(is_plain_number(&n));
            let t: Vec<String> = crate::search::analyzer::tokenize(&n)
                .into_iter()
                .map(|t| t.term)
                .collect();
            proptest::prop_assert_eq!(t, vec![n.clone()]);
        }
    }

    #[test]
    fn numbers_and_words_never_share_a_shard_and_numbers_have_larger_ones() {
        // 85 numbers, then 101 words with a term that has a digit among them (`ba9`), in
        // vocabulary order, 300 bytes each: the numbers' last shard and the words' shard
        // before `ba9` are both below the size that cuts a shard
        let mut terms: Vec<String> = (0..85).map(|i| format!("1.{i}.0")).collect();
        for i in 0..101u8 {
            terms.push(format!(
                "{}{}",
                (b'a' + i / 26) as char,
                (b'a' + i % 26) as char
            ));
            if i == 26 {
                terms.push("ba9".into());
            }
        }
        let starts = shard_starts(terms.iter().map(|t| (t.as_str(), 300)));
        let mut ends = starts[1..].to_vec();
        ends.push(terms.len());
        let mut numbers = 0;
        for (&a, &b) in starts.iter().zip(&ends) {
            let shard = &terms[a..b];
            let number = is_number(&shard[0]);
            assert!(shard.iter().all(|t| is_number(t) == number), "{shard:?}");
            numbers += usize::from(shard[0].starts_with("1."));
        }
        // a shard of numbers is cut once it holds 8 KB: 28 numbers (8,400 bytes)
        assert_eq!(numbers, 85usize.div_ceil(28));
    }

    #[test]
    fn a_posting_keeps_its_document_frequency_and_length_id() {
        let p = Posting::new(70_000, 300, 255);
        assert_eq!((p.doc, p.tf(), p.len_id()), (70_000, 300, 255));
        let p = Posting::new(1, 1, 0);
        assert_eq!((p.doc, p.tf(), p.len_id()), (1, 1, 0));
        // a frequency past what a content file can hold is kept at the largest one
        let p = Posting::new(2, u32::MAX, 9);
        assert_eq!((p.tf(), p.len_id()), (Posting::MAX_TF, 9));
    }

    /// What a digit of `bounds` says, as search.js reads it.
    fn read_digit(d: u8) -> f64 {
        let k = DIGITS.iter().position(|&x| x == d).unwrap();
        if k == DIGITS.len() - 1 {
            f64::INFINITY
        } else {
            BOUND_STEP.powi(k as i32) - 1.0
        }
    }

    #[test]
    fn score_bounds_hold_every_document_and_survive_their_encoding() {
        let norms: Vec<u32> = (0..=255u8).map(FieldNormReader::id_to_fieldnorm).collect();
        let avg = [3.0, 40.0];
        let stats = Stats::new(60, avg, &norms);
        let langs = vec![("uk".to_string(), 0, 30), ("en".to_string(), 30, 60)];
        // documents 0..60, some with the term in the title, most in the body, with
        // frequencies and lengths that put the best title and the best body in different
        // documents
        let mut p: [Postings; 2] = [Vec::new(), Vec::new()];
        for d in 0..60u32 {
            if d % 7 == 0 {
                p[0].push(Posting::new(d, 1 + d % 2, (d % 5) as u8));
            }
            if d % 3 != 1 {
                p[1].push(Posting::new(d, 1 + d % 9, (10 + d * 3 % 90) as u8));
            }
        }
        let bounds = score_bounds(&p, &langs, &stats);
        let score = |f: usize, x: &Posting| {
            super::super::rank::bm25(
                x.tf(),
                norms[x.len_id() as usize],
                p[f].len() as u64,
                stats.n as u64,
                avg[f],
            )
        };
        for (l, (_, from, to)) in langs.iter().enumerate() {
            let mut most = 0.0f64;
            for d in *from as u32..*to as u32 {
                let t = p[0]
                    .iter()
                    .find(|x| x.doc == d)
                    .map_or(0.0, |x| score(0, x));
                let b = p[1]
                    .iter()
                    .find(|x| x.doc == d)
                    .map_or(0.0, |x| score(1, x));
                most = most.max(super::super::rank::TITLE_BOOST * t + b);
            }
            assert!(most > 0.0);
            assert!(bounds[l] >= most, "{l}: bound {} below {most}", bounds[l]);
            // loose only by what the title and the body's best in two documents give
            assert!(
                bounds[l] < 2.0 * most,
                "{l}: bound {} far above {most}",
                bounds[l]
            );
            let read = read_digit(bound_digit(bounds[l]));
            assert!(read >= bounds[l] && read <= bounds[l] * BOUND_STEP + 0.1);
        }
        assert_eq!(read_digit(bound_digit(0.0)), 0.0);
        assert_eq!(read_digit(bound_digit(1e9)), f64::INFINITY);
    }

    #[test]
    fn an_entrys_other_names_are_in_its_row_and_the_glossary_start_in_the_meta() {
        let mut entry = titled(Kind::Glossary, "Battlefield");
        entry.keys = "Battlefield\nПоле бою\nField".into();
        let docs = [
            titled(Kind::Section, "Attack"),
            titled(Kind::Section, "Battlefield Value"),
            entry,
            titled(Kind::Glossary, "Unit"),
        ];
        let d = tempfile::tempdir().unwrap();
        write(
            &docs,
            &["en".to_string()],
            d.path(),
            &Fingerprint::default(),
        )
        .unwrap();
        let read = |rel: &str| std::fs::read_to_string(d.path().join(rel)).unwrap();
        let json = |text: &str, open: &str| -> serde_json::Value {
            let body = text
                .trim_end()
                .strip_prefix(open)
                .unwrap()
                .strip_suffix(");")
                .unwrap();
            serde_json::from_str(body).unwrap()
        };
        let meta = json(&read("search/index.js"), "RulebookSearch.meta(");
        assert_eq!(meta["glossary"], serde_json::json!([2]));
        let rows = json(&read("search/d/0.js"), "RulebookSearch.docs(0,");
        // no languages showing it, then the other names; nothing after a row without them
        assert_eq!(rows[2][6], serde_json::json!([]));
        assert_eq!(rows[2][7], serde_json::json!(["Поле бою", "Field"]));
        assert_eq!(rows[3].as_array().unwrap().len(), 6);
    }

    fn titled(kind: Kind, title: &str) -> Doc<'static> {
        Doc {
            lang: "en",
            kind,
            section: "".into(),
            title: title.to_string().into(),
            chapter: "".into(),
            url: String::new(),
            keys: title.to_string().into(),
            text: "".into(),
            shown_in: Vec::new(),
        }
    }

    #[test]
    fn groups_are_pairs_side_by_side_and_whole_terms_of_three_or_four_words() {
        // (id, has tiers): `rare` has none, `multi` is left out of `words` (two spellings)
        let words: FxHashMap<&str, (usize, bool)> = [
            ("first", (0, true)),
            ("player", (1, true)),
            ("token", (2, true)),
            ("rare", (3, false)),
            ("unit", (4, false)),
            ("attack", (5, true)),
        ]
        .into_iter()
        .collect();
        let docs = [
            titled(Kind::Glossary, "First player token"),
            // a section's title counts too; the little word `a` is left out, as a query
            // leaves it out
            titled(Kind::Section, "Attack a unit"),
            titled(Kind::Section, "Attack a unit"),
            // no word with tiers: no head
            titled(Kind::Section, "Rare unit"),
            // a word without an entry breaks the run: no pair across it, no whole term
            titled(Kind::Glossary, "Token multi first"),
            // five words: pairs only
            titled(Kind::Glossary, "First player token attack unit"),
        ];
        let groups = title_groups(&docs, &words);
        let want: Vec<Vec<&str>> = vec![
            vec!["attack", "token"],
            vec!["attack", "unit"],
            vec!["first", "player"],
            vec!["first", "player", "token"],
            vec!["player", "token"],
        ];
        assert_eq!(groups, want);
    }

    #[test]
    fn a_group_head_keeps_the_best_documents_with_every_word_and_bounds_the_rest() {
        let stats = Stats::new(1000, [2.0, 20.0], &(0..=255u32).collect::<Vec<_>>());
        // three words over one language's documents 0..1000: `a` in every document, `b` in
        // the even ones, `c` in every third; more of each in the higher documents
        let list = |step: u32| -> [Postings; 2] {
            let body = (0..1000u32)
                .filter(|d| d % step == 0)
                .map(|d| Posting::new(d, 1 + d / 100, 20))
                .collect();
            [Vec::new(), body]
        };
        let (pa, pb, pc) = (list(1), list(2), list(3));
        let (sa, sb, sc) = (
            doc_scores(&pa, &stats),
            doc_scores(&pb, &stats),
            doc_scores(&pc, &stats),
        );
        let langs = vec![("en".to_string(), 0, 1000)];
        let lists = [(&pa, &sa[..]), (&pb, &sb[..]), (&pc, &sc[..])];
        let entry = group_entry(&["a", "b", "c"], &lists, &langs).unwrap();
        let text = String::from_utf8(entry).unwrap();
        let (key, rest) = text.split_once(':').unwrap();
        assert_eq!(key, "\"a b c\"");
        let row: Vec<serde_json::Value> = serde_json::from_str(rest).unwrap();
        assert_eq!(row.len(), 2 + 2 * 3);
        // 167 documents have all three words (multiples of 6): fewer than GROUP_DOCS, so the
        // head holds them all and bounds nothing
        assert_eq!(row[1].as_f64(), Some(0.0));
        let docs_in = |s: &serde_json::Value| {
            let mut out = Vec::new();
            encode_postings(
                (0..1000u32)
                    .filter(|d| d % 6 == 0)
                    .map(|d| Posting::new(d, 1 + d / 100, 20))
                    .collect::<Vec<_>>()
                    .iter(),
                &mut out,
            );
            s.as_str() == Some(std::str::from_utf8(&out).unwrap())
        };
        // each word's body postings are exactly those documents', whatever else it is in
        for body in [&row[3], &row[5], &row[7]] {
            assert!(docs_in(body), "{body}");
        }
        // with more documents than a head keeps, the bound is the weakest kept sum
        let many: Vec<Scored<'_>> = vec![(&pa, &sa[..]), (&pb, &sb[..])];
        let entry = group_entry(&["a", "b"], &many, &langs).unwrap();
        let text = String::from_utf8(entry).unwrap();
        let row: Vec<serde_json::Value> =
            serde_json::from_str(text.split_once(':').unwrap().1).unwrap();
        let mut both: Vec<f64> = sa
            .iter()
            .zip(sa.iter().map(|x| sb.iter().find(|y| y.0 == x.0)))
            .filter_map(|(x, y)| y.map(|y| x.1 + y.1))
            .collect();
        both.sort_by(|x, y| y.total_cmp(x));
        let weakest_kept = both[GROUP_DOCS - 1];
        let bound = row[1].as_f64().unwrap();
        assert!(
            bound >= weakest_kept && bound <= weakest_kept * (1.0 + 1e-6),
            "{bound} {weakest_kept}"
        );
    }
}
