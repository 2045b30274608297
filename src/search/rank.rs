//! How a query is matched and ranked. The command line (over tantivy) and the browser
//! (`static/js/search.js`, over the shards written by [`super::web`]) follow these rules step by
//! step, with the same constants, so both give the same top results; a test compares them.
//!
//! 1. The query is analyzed like the text ([`super::analyzer::tokenize`]); each distinct term
//!    is a query word.
//! 2. Each word is expanded over the index's vocabulary ([`expand`]) into: the word's own term
//!    (weight 1), terms within edit distance 1 (from 5 letters) or 2 (from 9 letters) of it
//!    (typos; no more than the stem's own length allows, see [`typo_budget`]), and for the
//!    last word, which may be half typed, the terms that start with what was typed. A word
//!    with a digit only to itself, but for a query of one section number written short
//!    ([`number_completions`]: `7.1` for `7.1.0`). At most [`MAX_EXPANSIONS`] terms per word,
//!    best first, so a two-letter prefix does not pull in half the vocabulary (nor half the
//!    browser index).
//! 3. A document's score for a word is the best, over the word's expansions, of
//!    `weight × (TITLE_BOOST × bm25(title) + bm25(body))`, with BM25 as tantivy computes it
//!    (k1 = 1.2, b = 0.75, tantivy's quantized field lengths).
//!    A section's own number (`7.1.0` for section 7.1.0) counts as one more occurrence of
//!    that term in its title, not counted in the title's length: the text of a section
//!    seldom names its own number, and a number query should find the section first
//!    without moving any other query's ranking (titles are two or three words, so one more
//!    word in every title's length changed which documents the browser must load).
//!    When the index has the expansion in more than one spelling (`ґ` and `г` fold to one
//!    term: `ґанок` and `ганок` are both `ганк`), a document that has it only in a spelling
//!    other than the one typed scores [`FOLDED_WEIGHT`] times as much ([`folded_docs`]): the
//!    exact form ranks higher, both ways (see [`FOLDED_WEIGHT`] for why both).
//! 4. Documents that match every word rank by the sum of their word scores; only if no
//!    document matches every word do documents matching some words count. Ties go to the
//!    earlier document (site order). Scores are rounded to 6 decimals first, so the last bits
//!    of floating point arithmetic cannot reorder results.
//! 5. Among the first [`SHOWN`], the documents whose title is exactly the query come first
//!    ([`exact_first`]).
//! 6. Among the first few of those, the ones with a name (title or other name) spelled as
//!    the query come first ([`spelled_first`]).

use std::collections::{HashMap, HashSet};

use super::analyzer::tokenize;

pub const K1: f64 = 1.2;
pub const B: f64 = 0.75;
/// A match in the title (a heading, a glossary term) counts this much more than one in the
/// text: a query that names a term should find its glossary entry and its section first.
pub const TITLE_BOOST: f64 = 3.0;
/// Weight of a completion of the half-typed last word.
pub const PREFIX_WEIGHT: f64 = 0.6;
/// Weight of a term one edit away; two edits away is half as much again.
pub const FUZZY_WEIGHT: f64 = 0.5;
/// What a document counts for an expansion it has only in another spelling than the query's
/// (`ґ` where `г` was typed, or `г` where `ґ` was typed). Below 1, so that between otherwise
/// alike documents the exact form wins (`ґрати`, bars, is not `грати`, to play); well above
/// [`FUZZY_WEIGHT`], because the folded spelling is the same word, often typed without `ґ`
/// on a keyboard that lacks it or in the spelling of 1933–1990. Both ways: someone who types
/// `г` where the text has both forms more likely means the `г` word, and a text that has
/// only one spelling of a word is never demoted (see [`folded_docs`]).
pub const FOLDED_WEIGHT: f64 = 0.7;
pub const MAX_EXPANSIONS: usize = 16;
/// Shortest typed prefix that is completed.
pub const MIN_PREFIX: usize = 2;
/// Most words of a query that are looked for: the first ones, after the little words are left
/// out ([`query_words`]). A pasted paragraph of 40 words took the browser 1.2 s at 400
/// chapters, and 32 words 2.6 s at 2,000: each word is scored over every document its
/// postings name, again after each tier loaded. Twelve words of a sentence already find it
/// (0.5 to 0.7 s on a first visit at 2,000 chapters). search.js `MAX_WORDS`.
pub const MAX_QUERY_WORDS: usize = 12;

/// One word of a query.
#[derive(Debug, Clone, PartialEq)]
pub struct Word {
    pub term: String,
    /// What was typed, folded (`ґ` → `г`, and no apostrophe in a Ukrainian word), for
    /// matching against terms ([`typed_form`]).
    pub typed: String,
    /// What was typed, with `ґ` kept (the token's exact form).
    pub exact: String,
    /// The term as typed: [`spelling`] of `exact`.
    pub spelling: String,
    /// (term of the index, weight), best first.
    pub expansions: Vec<(String, f64)>,
}

/// Little words that narrow no search: articles, prepositions, conjunctions and particles of
/// both languages, and the question words and pronouns of a question typed as it is asked
/// (`що таке поле бою`, `how do I attack`), as typed (lowercase, `ґ` folded to `г`). Sorted,
/// for a binary search.
///
/// Every query word must match (step 4), so a little word in a query dropped the very entry
/// it was about: `на полі бою` (on the battlefield) lost the glossary's `Поле бою`, whose
/// text has no `на`, and `attack a unit` wanted an `a`. Such a word is left out of a query
/// that has another word ([`query_words`]): it is neither needed nor scored, so the browser
/// loads nothing for it either (the commonest words have the largest postings).
pub const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "how",
    "i", "in", "into", "is", "it", "its", "of", "on", "onto", "or", "than", "that", "the", "then",
    "this", "to", "what", "when", "where", "which", "who", "why", "with", "а", "або", "але", "б",
    "без", "би", "в", "во", "від", "де", "до", "з", "за", "зі", "й", "коли", "на", "над", "по",
    "при", "про", "під", "та", "таке", "то", "у", "це", "чи", "чому", "що", "щоб", "я", "як",
    "яка", "яке", "який", "які", "і", "із",
];

/// A query's numbers of three or more parts written with commas (`7,1,0`) as section numbers
/// (`7.1.0`): the decimal key of a Ukrainian keyboard's number pad types a comma. Numbers of
/// two parts (`1,5`) stay as they are: those are decimals as often as sections.
pub fn section_commas(query: &str) -> std::borrow::Cow<'_, str> {
    let b = query.as_bytes();
    let mut out: Option<String> = None;
    let mut i = 0;
    while i < b.len() {
        // a run of digits and commas, not glued to a letter, digit or comma before it
        if b[i].is_ascii_digit()
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b','))
        {
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_digit() || b[j] == b',') {
                j += 1;
            }
            // a comma after the number is punctuation
            while b[j - 1] == b',' {
                j -= 1;
            }
            let run = &query[i..j];
            let parts = run.split(',').count();
            let well_formed = !run.contains(",,");
            let free = j == b.len() || !b[j].is_ascii_alphanumeric();
            if parts >= 3 && well_formed && free {
                let o = out.get_or_insert_with(|| query[..i].to_string());
                o.push_str(&run.replace(',', "."));
            } else if let Some(o) = out.as_mut() {
                o.push_str(run);
            }
            i = j;
            continue;
        }
        let ch = query[i..].chars().next().map_or(1, char::len_utf8);
        if let Some(o) = out.as_mut() {
            o.push_str(&query[i..i + ch]);
        }
        i += ch;
    }
    match out {
        Some(o) => std::borrow::Cow::Owned(o),
        None => std::borrow::Cow::Borrowed(query),
    }
}

/// Whether a word as typed (see [`Word::typed`]) is one of the [`STOP_WORDS`].
pub fn is_stop_word(typed: &str) -> bool {
    STOP_WORDS.binary_search(&typed).is_ok()
}

/// The query's words: analyzed, without repeats, in order: (term, exact form).
///
/// A [`STOP_WORDS`] word is left out when the query has a word that is not one, unless it is
/// the last word and long enough to be completed: it may be the start of a longer word still
/// being typed (`на` of `накладання`). A query of little words alone keeps them all. At most
/// the first [`MAX_QUERY_WORDS`] are kept.
pub fn query_words(query: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for t in tokenize(&section_commas(query)) {
        if !out.iter().any(|(term, _)| *term == t.term) {
            out.push((t.term, t.exact));
        }
    }
    let stop = |exact: &str| is_stop_word(&typed_form(exact));
    if out.iter().all(|(_, exact)| stop(exact)) {
        out.truncate(MAX_QUERY_WORDS);
        return out;
    }
    let n = out.len();
    out.into_iter()
        .enumerate()
        .filter(|(i, (_, exact))| {
            !stop(exact) || (i + 1 == n && exact.chars().count() >= MIN_PREFIX)
        })
        .map(|(_, w)| w)
        .take(MAX_QUERY_WORDS)
        .collect()
}

/// The title lengths step 5 takes as the query's ([`exact_first`]): its words as typed,
/// repeats included, without the little words left out of it; and the same with the little
/// words that stand between two of its words. `line of sight` is 2 or 3 words long, so it
/// names *Line of Sight*; `на полі бою` (on the battlefield) is 2, as the little word is at
/// its edge, so it names *Поле бою* and not the longer *Ліміт поля бою*.
pub fn title_lengths(query: &str) -> [u32; 2] {
    let kept: Vec<String> = query_words(query).into_iter().map(|(t, _)| t).collect();
    let tokens: Vec<bool> = tokenize(&section_commas(query))
        .iter()
        .map(|t| kept.contains(&t.term))
        .collect();
    let short = tokens.iter().filter(|k| **k).count();
    let (first, last) = (
        tokens.iter().position(|k| *k),
        tokens.iter().rposition(|k| *k),
    );
    let inner = match (first, last) {
        (Some(a), Some(b)) => tokens[a..=b].iter().filter(|k| !**k).count(),
        _ => 0,
    };
    [short as u32, (short + inner) as u32]
}

/// How a word is spelled, at the granularity of terms: its term with `ґ` put back wherever
/// the exact form has it at the same letter (the stemmer changes only the end of a word, and
/// never a `г`). Equal to the term for every word without `ґ`; folding `ґ` → `г` in a
/// spelling gives back the term.
pub fn spelling(exact: &str, term: &str) -> String {
    if !exact.contains('ґ') {
        return term.to_string();
    }
    // the stemmer drops apostrophes (stem_uk.rs, step 0)
    let mut e = exact.chars().filter(|&c| c != '\'');
    term.chars()
        .map(|c| match e.next() {
            Some('ґ') if c == 'г' => 'ґ',
            _ => c,
        })
        .collect()
}

/// The documents that have expansion `(term, weight)` of `word` only in other spellings than
/// the query's, so score [`FOLDED_WEIGHT`] of it (step 3). `totals`: every document with the
/// term and how often it has it (title and body); `variants`: each spelling of the term with
/// `ґ` that the index has, with how often each document has it. A document's other
/// occurrences of the term are spelled with `г`. The query's spelling is [`Word::spelling`]
/// for the word's own term and the typed prefix (with `ґ`) for a completion; typo expansions
/// are left alone. Nobody is demoted when no document has the query's spelling.
pub fn folded_docs<S: std::hash::BuildHasher>(
    word: &Word,
    term: &str,
    weight: f64,
    totals: &HashMap<u32, u32, S>,
    variants: &[(String, HashMap<u32, u32, S>)],
) -> HashSet<u32> {
    let own = weight == 1.0;
    if variants.is_empty() || !(own || weight == PREFIX_WEIGHT) {
        return HashSet::new();
    }
    // spellings have no apostrophe (the stemmer drops them, stem_uk.rs step 0)
    let prefix: String = word.exact.chars().filter(|&c| c != '\'').collect();
    let agrees = |s: &str| {
        if own {
            s == word.spelling
        } else {
            s.starts_with(&prefix)
        }
    };
    let plain = agrees(term);
    let agree: Vec<bool> = variants.iter().map(|(s, _)| agrees(s)).collect();
    let mut out = HashSet::new();
    let mut any = false;
    for (&d, &total) in totals {
        let mut spelled = 0;
        let mut ok = false;
        for ((_, docs), a) in variants.iter().zip(&agree) {
            if let Some(&tf) = docs.get(&d) {
                spelled += tf;
                ok |= *a;
            }
        }
        ok |= plain && total > spelled;
        if ok {
            any = true;
        } else {
            out.insert(d);
        }
    }
    if any {
        out
    } else {
        HashSet::new()
    }
}

/// Typos tolerated in a word of `chars` letters.
pub fn max_distance(chars: usize) -> usize {
    match chars {
        0..=4 => 0,
        5..=8 => 1,
        _ => 2,
    }
}

/// Typos tolerated in a query word typed in `typed` letters whose stem is `stem` letters long:
/// [`max_distance`] of the word, and no more than its stem allows: none in a stem of 2
/// letters or fewer, nor in one of 3 left of a word of 7 or more (mostly ending); one in a
/// stem of 3 to 5 letters; two from 6.
///
/// Why: typos are matched on stems, and a stem can be much shorter than the word typed.
/// `медитувати` (ten letters, so two typos) has the stem `медит`, two edits from `мет`
/// (`мета`, a goal) and `мусит` (`мусить`, must); `малювати` (eight letters, one typo) has
/// the stem `мал`, one edit from `маг` (`магія`, magic) and `ма`. Such words, which the
/// book does not have, found unrelated sections. A short word keeps its typo (`маоія`, stem
/// `мао`, finds `магія`), and a stem of 6 its two (`medtation`, stem `medtat`, finds
/// `meditation`).
pub fn typo_budget(typed: usize, stem: usize) -> usize {
    let by_stem = match stem {
        0..=2 => 0,
        3 if typed >= 7 => 0,
        3..=5 => 1,
        _ => 2,
    };
    max_distance(typed).min(by_stem)
}

/// Optimal string alignment distance over characters, giving up (returning `limit + 1`) once
/// it must exceed `limit`.
pub fn distance(a: &[char], b: &[char], limit: usize) -> usize {
    if a.len().abs_diff(b.len()) > limit {
        return limit + 1;
    }
    if a.is_empty() {
        return b.len();
    }
    let mut last = limit + 1;
    osa_rows(a, b, a.len(), |i, at_end, row_min| {
        if row_min > limit {
            return false;
        }
        if i == a.len() {
            last = at_end;
        }
        true
    });
    last
}

/// The optimal string alignment table of `a[..rows]` against `b`, a row at a time: for each
/// row `i` from 1, `row(i, distance(a[..i], b), the row's least value)`, until it returns
/// false. Every later row's values are at least a row's least, which is when callers stop.
fn osa_rows(a: &[char], b: &[char], rows: usize, mut row: impl FnMut(usize, usize, usize) -> bool) {
    let w = b.len() + 1;
    let mut d = vec![0usize; (rows + 1) * w];
    for (j, cell) in d.iter_mut().take(w).enumerate() {
        *cell = j;
    }
    for i in 1..=rows {
        d[i * w] = i;
        let mut row_min = i;
        for j in 1..w {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
            row_min = row_min.min(v);
        }
        if !row(i, d[i * w + b.len()], row_min) {
            return;
        }
    }
}

/// Longest ending of a word that [`ending_distance`] lets go unmatched.
pub const MAX_ENDING: usize = 5;

/// How far `word` (as typed, folded) is from the stem `stem` when its ending is misspelled:
/// the distance from `stem` to `word` without its last 1 to [`MAX_ENDING`] letters, plus one
/// for the ending; the part kept is at least half the word and 3 letters. `limit + 1` when
/// over `limit`.
///
/// Why: typos are matched on stems, and a stemmer takes off only the endings it knows. In
/// `conjuraton` it finds none, so the stem stays `conjuraton`, four edits from `conjur`
/// (`conjuration`); one letter off was nothing found. Used only for a word whose stem the
/// index does not have ([`expand`]), so a word typed right keeps the expansions it had.
pub fn ending_distance(word: &[char], stem: &[char], limit: usize) -> usize {
    let n = word.len();
    let shortest = (n.div_ceil(2)).max(3).max(n.saturating_sub(MAX_ENDING));
    // the part kept is `shortest..n` letters long, at most `limit - 1` edits from the stem
    if limit == 0 || shortest >= n || stem.len() + limit <= shortest || stem.len() + 1 >= n + limit
    {
        return limit + 1;
    }
    // distance(word[..i], stem) for every i: one table, its last column
    let mut best = limit + 1;
    osa_rows(word, stem, n - 1, |i, at_end, row_min| {
        if i >= shortest {
            best = best.min(at_end + 1);
        }
        row_min < limit
    });
    best.min(limit + 1)
}

/// Most letters [`prefix_found`] takes off a half-typed word.
pub const PREFIX_BACK: usize = 2;

/// What a half-typed last word that is no term itself is completed from: the word as typed
/// when a term begins with it, else the word without its last letter or two ([`PREFIX_BACK`];
/// 3 letters left, or 4 when two go but for an English `-in`), the first of those that a term
/// begins with. The stemmers rewrite some endings, so the
/// start of such an ending begins no stem: `вартість` is `вартост`, `гравець` is `гравц`,
/// `placing` is `place`, and `вартіс`, `граве`, `placin` typed on the way there found
/// nothing, between results before and after. A term is the vocabulary's, numbers left out
/// (search.js `prefixFound`).
pub fn prefix_found(typed: &str, vocab: &[(String, u64)]) -> String {
    let begins = |p: &str| vocab.iter().any(|(v, _)| !is_number(v) && v.starts_with(p));
    let chars: Vec<char> = typed.chars().collect();
    if begins(typed) {
        return typed.to_string();
    }
    for back in 1..=PREFIX_BACK {
        // 3 letters left at least, and 4 when two are taken off, but of English `-ing` begun
        // (`timin`, stem `time`): `mus` of `music` found `must`, `mon` of `money` `monster`
        let ing = back == 2 && typed.ends_with("in");
        if chars.len() < back + if back == 1 || ing { 3 } else { 4 } {
            break;
        }
        let p: String = chars[..chars.len() - back].iter().collect();
        if begins(&p) {
            return p;
        }
    }
    typed.to_string()
}

/// The terms of `vocab` (every term of the index with the number of documents that have it)
/// that a query word stands for. `last` says whether it is the query's last word.
pub fn expand(term: &str, typed: &str, last: bool, vocab: &[(String, u64)]) -> Vec<(String, f64)> {
    // A number (`7.1.0`, `d6`) means itself: no completions, no typos. Numbers are most of a
    // large site's vocabulary (every section number), and leaving them out of expansion is
    // what keeps the browser's word list small.
    if is_number(term) {
        return match vocab.binary_search_by(|(v, _)| v.as_str().cmp(term)) {
            Ok(_) => vec![(term.to_string(), 1.0)],
            Err(_) => Vec::new(),
        };
    }
    let t: Vec<char> = term.chars().collect();
    let typed_chars: Vec<char> = typed.chars().collect();
    let typed_len = typed_chars.len();
    let max_d = typo_budget(typed_len, t.len());
    let prefix = last && typed_len >= MIN_PREFIX;
    let known = vocab
        .binary_search_by(|(v, _)| v.as_str().cmp(term))
        .is_ok();
    // a word the index has as typed is found; only one it lacks is looked for shorter
    let starts = if prefix && !known {
        prefix_found(typed, vocab)
    } else {
        typed.to_string()
    };
    // a word the index does not know may be a typo in its ending, which the stemmer then
    // could not take off (see [`ending_distance`])
    let unknown = max_d > 0 && !known;
    // (weight, document frequency, position in vocab)
    let mut found: Vec<(f64, u64, usize)> = Vec::new();
    for (i, (v, df)) in vocab.iter().enumerate() {
        if is_number(v) {
            continue;
        }
        let weight = if v == term {
            1.0
        } else if prefix && v.starts_with(&starts) {
            PREFIX_WEIGHT
        } else if max_d > 0 {
            let vc: Vec<char> = v.chars().collect();
            let mut d = distance(&t, &vc, max_d);
            if unknown && d > 1 {
                d = d.min(ending_distance(&typed_chars, &vc, max_d));
            }
            match d {
                1 => FUZZY_WEIGHT,
                2 if max_d >= 2 => FUZZY_WEIGHT / 2.0,
                _ => continue,
            }
        } else {
            continue;
        };
        found.push((weight, *df, i));
    }
    found.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
    found.truncate(MAX_EXPANSIONS);
    found
        .into_iter()
        .map(|(w, _, i)| (vocab[i].0.clone(), w))
        .collect()
}

/// The section numbers that a query of one number written short (digits and dots) stands
/// for. When the number with zeros added is a term (`7.1.0` for `7.1`, `7.0.0` for `7`),
/// that number, weight 1: `7.1` is how people write section 7.1.0, and it should come first, before the subsections whose shorter titles and
/// rarer numbers would outrank it. Otherwise every term that starts with the number and a dot
/// (`1042.1.0`, `1042.1.1`, … for `1042`), in the vocabulary's order, weighted
/// [`PREFIX_WEIGHT`]. Cut at a dot only: `7.1` is not the start of `7.10.0`. Typing a number
/// shows its section before the number is whole, as a word shows its matches from its first
/// two letters. A number beside other words (`тип 86`, `exhausted 7`) is only itself: there it
/// is more often a count or the number of a glossary entry of that name than a section. The
/// browser takes the same terms from the number shards they are in (`search.js`,
/// `numberCompletions`).
fn number_completions(term: &str, vocab: &[(String, u64)]) -> Vec<(String, f64)> {
    if !super::web::is_plain_number(term) {
        return Vec::new();
    }
    let prefix = format!("{term}.");
    let start = vocab.partition_point(|(v, _)| v.as_str() < prefix.as_str());
    let mut all: Vec<&str> = vocab[start..]
        .iter()
        .map(|(v, _)| v.as_str())
        .take_while(|v| v.starts_with(&prefix))
        .collect();
    // in the order of the rules, so the first MAX_EXPANSIONS are the first sections (`5.2.0`
    // before `5.10.0`), not the first strings
    all.sort_by(|a, b| by_number(a, b));
    let zeros: Vec<(String, f64)> = all
        .iter()
        .filter(|v| v[prefix.len()..].bytes().all(|b| b == b'0' || b == b'.'))
        .map(|v| (v.to_string(), 1.0))
        .collect();
    if !zeros.is_empty() {
        return zeros;
    }
    all.into_iter()
        .map(|v| (v.to_string(), PREFIX_WEIGHT))
        .collect()
}

/// Section numbers in the order of the rules: part by part, a part with fewer digits first,
/// then by its digits (no part is parsed, so no length overflows). search.js `byNumber`.
pub fn by_number(a: &str, b: &str) -> std::cmp::Ordering {
    let key = |s: &str| -> Vec<(usize, Vec<u8>)> {
        s.split('.')
            .map(|p| (p.len(), p.as_bytes().to_vec()))
            .collect()
    };
    key(a).cmp(&key(b)).then_with(|| a.cmp(b))
}

/// Whether a term has a digit: such terms are matched only exactly.
pub fn is_number(term: &str) -> bool {
    term.bytes().any(|b| b.is_ascii_digit())
}

/// A word as typed, as it is matched against terms ([`Word::typed`]): `ґ` → `г`, and in a
/// Ukrainian word no apostrophe, as its terms have none (stem_uk.rs, step 0). search.js
/// `typedForm`.
pub fn typed_form(exact: &str) -> String {
    let typed = exact.replace('ґ', "г");
    if super::analyzer::has_cyrillic(&typed) {
        typed.replace('\'', "")
    } else {
        typed
    }
}

/// Plans a query: its words with their expansions.
pub fn plan(query: &str, vocab: &[(String, u64)]) -> Vec<Word> {
    let words = query_words(query);
    let n = words.len();
    words
        .into_iter()
        .enumerate()
        .map(|(i, (term, exact))| {
            let typed = typed_form(&exact);
            let mut expansions = expand(&term, &typed, i + 1 == n, vocab);
            if n == 1 {
                expansions.extend(number_completions(&term, vocab));
                expansions.truncate(MAX_EXPANSIONS);
            }
            Word {
                expansions,
                spelling: spelling(&exact, &term),
                term,
                typed,
                exact,
            }
        })
        .collect()
}

/// BM25 of one term in one field of one document, as tantivy computes it.
pub fn bm25(tf: u32, fieldnorm: u32, doc_freq: u64, num_docs: u64, avg_fieldnorm: f64) -> f64 {
    let idf = (1.0 + (num_docs as f64 - doc_freq as f64 + 0.5) / (doc_freq as f64 + 0.5)).ln();
    let tf = tf as f64;
    idf * (K1 + 1.0) * tf / (tf + K1 * (1.0 - B + B * fieldnorm as f64 / avg_fieldnorm))
}

/// Rounds a final score (see step 4 of the module doc).
pub fn round(score: f64) -> f64 {
    (score * 1e6).round() / 1e6
}

/// The results step 5 looks at: the browser's first page of them.
pub const SHOWN: usize = 10;

/// The results of step 5 whose other names are looked at (`named_exact`): the first five,
/// whose details the browser loads to show them anyway (`EAGER` in search.js); a document
/// with other names further down is judged by its own name's length. (Looking at all ten
/// took the browser up to three more document chunks, 7 KB, for `жетон виснаження` at
/// 2,000 chapters, where the glossary has many entries of one name.)
pub const NAMED_CHECKED: usize = 5;

/// Step 5 for a glossary entry with other names (`docs::named`): whether one of its names
/// has every query word's own term (`terms`) and is one of the query's [`title_lengths`]
/// long. Its title's postings hold the words of all its names under the own name's length,
/// so they would take `поле бою` for the exact name of *Battlefield Value* (two words, and
/// `поле бою` in its other name *Ліміт поля бою*).
pub fn named_exact(names: &[crate::search::docs::Name], terms: &[&str], lengths: [u32; 2]) -> bool {
    names.iter().any(|(have, len)| {
        lengths.contains(len)
            && terms
                .iter()
                .all(|t| have.binary_search_by(|h| h.as_str().cmp(t)).is_ok())
    })
}

/// Step 5: among the first [`SHOWN`] results, those whose title is exactly the query come
/// first, in their order; the others keep theirs. `exact` says whether a document's title
/// has every query word's own term and is one of the query's [`title_lengths`] long (only
/// the document's own name counts in that length: `Doc::names`; one of the first
/// [`NAMED_CHECKED`] with other names is exact when one of its names is, [`named_exact`]).
/// A little word between two
/// of the query's words counts, so `line of sight` names *Line of Sight*; the little word
/// itself is not checked (that would need its postings, the largest of all, which the
/// browser does not load), so *Line to Sight* would pass too. A glossary entry named by the
/// query thus ranks above a longer entry that contains its name (`поле бою`: *Поле бою*
/// above *Ліміт поля бою*, whose text says `полі бою` again). Only the order within the first page changes,
/// so the browser's proof of that page (which documents are in it) holds as it is.
/// Returns how many came first.
pub fn exact_first(ranked: &mut [(u64, f64)], exact: impl Fn(u64) -> bool) -> usize {
    let n = ranked.len().min(SHOWN);
    let mut first: Vec<(u64, f64)> = ranked[..n].to_vec();
    // stable: each group keeps its order
    first.sort_by_key(|(ord, _)| !exact(*ord));
    ranked[..n].copy_from_slice(&first);
    first.iter().filter(|(ord, _)| exact(*ord)).count()
}

/// The results step 6 looks at: the first of those step 5 put first. The browser has their
/// titles at hand, as it loads the first results' details to show them (`EAGER` in
/// search.js), so step 6 costs it no byte.
pub const SPELLED_CHECKED: usize = 5;

/// Step 6: among the first [`SPELLED_CHECKED`] of the `exact` results step 5 put first (their
/// titles have the query's terms and length), those with a name spelled as the query, word
/// for word ([`as_typed`]), come first, in their order. `names` gives a document's title and
/// its other names (a glossary entry's aliases and other languages' terms). Word forms share
/// a term, so step 5 alone put *Attacking* before *Attack* for `attack`, *Exhaustion Tokens*
/// (a section) before the glossary's *Exhaustion Token* for `exhaustion token`, and on the
/// English side *Exhaust (when referring to a card)* before *Exhausted (…)* for the latter's
/// Ukrainian name `виснажена (карта)`.
pub fn spelled_first(
    ranked: &mut [(u64, f64)],
    exact: usize,
    query: &str,
    names: impl Fn(u64) -> Vec<String>,
) {
    let n = exact.min(SPELLED_CHECKED).min(ranked.len());
    if n < 2 {
        return;
    }
    let typed = as_typed(&section_commas(query));
    let mut first: Vec<(u64, f64)> = ranked[..n].to_vec();
    // stable: each group keeps its order
    first.sort_by_cached_key(|(ord, _)| !names(*ord).iter().any(|n| as_typed(n) == typed));
    ranked[..n].copy_from_slice(&first);
}

/// The words of `text` as written (each token's exact form: lowercase, apostrophes and
/// look-alike letters folded, `ґ` kept), what step 6 compares.
pub fn as_typed(text: &str) -> Vec<String> {
    tokenize(text).into_iter().map(|t| t.exact).collect()
}

/// Combines per-word scores of the candidate documents into the ranking: `scores[d][w]` is
/// document `ords[d]`'s score for word `w` (0 when it does not match it). Returns
/// (ord, score), best first.
pub fn combine(ords: &[u64], scores: &[Vec<f64>], words: usize) -> Vec<(u64, f64)> {
    let all: Vec<usize> = (0..ords.len())
        .filter(|&d| scores[d].iter().filter(|s| **s > 0.0).count() == words)
        .collect();
    let chosen: Vec<usize> = if all.is_empty() {
        (0..ords.len()).collect()
    } else {
        all
    };
    let mut out: Vec<(u64, f64)> = chosen
        .into_iter()
        .map(|d| (ords[d], round(scores[d].iter().sum())))
        .filter(|(_, s)| *s > 0.0)
        .collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocab(words: &[&str]) -> Vec<(String, u64)> {
        words.iter().map(|w| (w.to_string(), 1)).collect()
    }

    #[test]
    fn section_numbers_typed_with_commas_are_section_numbers() {
        for (q, want) in [
            ("7,1,0", "7.1.0"),
            ("див. 7,1,0 і 12,2,0", "див. 7.1.0 і 12.2.0"),
            ("розділ 7,1,0,", "розділ 7.1.0,"),
            ("1,5", "1,5"),
            ("7,,1,0", "7,,1,0"),
            ("a7,1,0", "a7,1,0"),
            ("7,1,0a", "7,1,0a"),
            ("кубик", "кубик"),
            ("7,1,0,,5", "7,1,0,,5"),
            ("ж7,1,0", "ж7.1.0"),
        ] {
            assert_eq!(section_commas(q), want, "{q}");
        }
    }

    #[test]
    fn stop_words_are_sorted_as_binary_search_needs() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(is_stop_word("на") && is_stop_word("і") && is_stop_word("the"));
        assert!(!is_stop_word("поле") && !is_stop_word("unit"));
    }

    #[test]
    fn the_title_spelled_as_typed_comes_first_among_the_first_exact_ones() {
        let titles = [
            "Attacking",
            "Attack",
            "Attacker",
            "Attack",
            "Attack",
            "Attack",
            "Attack",
        ];
        let title = |ord: u64| vec![titles[ord as usize].to_string()];
        let mut ranked: Vec<(u64, f64)> = (0..7).map(|o| (o, 10.0 - o as f64)).collect();
        // three exact ones: Attack (1) first, then Attacking (0) and Attacker (2) as they were
        spelled_first(&mut ranked, 3, "ATTACK", title);
        let order: Vec<u64> = ranked.iter().map(|(o, _)| *o).collect();
        assert_eq!(order, [1, 0, 2, 3, 4, 5, 6]);
        // only the first SPELLED_CHECKED of the exact ones are looked at
        let titles = [
            "Attacking",
            "Attacker",
            "Attacks",
            "Attacked",
            "Attacking",
            "Attack",
        ];
        let title = |ord: u64| vec![titles[ord as usize].to_string()];
        let mut ranked: Vec<(u64, f64)> = (0..6).map(|o| (o, 10.0 - o as f64)).collect();
        spelled_first(&mut ranked, 6, "attack", title);
        assert_eq!(ranked[0].0, 0);
        assert_eq!(ranked[5].0, 5);
    }

    #[test]
    fn one_of_a_documents_names_must_be_exactly_the_query() {
        // *Battlefield* and *Battlefield Value* on the English side, with their Ukrainian names
        let battlefield = crate::search::docs::named("Battlefield\nПоле бою").unwrap();
        let value = crate::search::docs::named("Battlefield Value\nЛіміт поля бою").unwrap();
        let exact = |names: &[crate::search::docs::Name], q: &str| {
            let words = query_words(q);
            let terms: Vec<&str> = words.iter().map(|(t, _)| t.as_str()).collect();
            named_exact(names, &terms, title_lengths(q))
        };
        assert!(exact(&battlefield, "поле бою"));
        assert!(exact(&battlefield, "полем бою"));
        assert!(exact(&battlefield, "battlefield"));
        // the words of one name under the length of another are not a name
        assert!(!exact(&value, "поле бою"));
        assert!(!exact(&value, "battlefield"));
        assert!(exact(&value, "battlefield value"));
        assert!(exact(&value, "ліміт поля бою"));
        // words of two names together are none of them
        assert!(!exact(&battlefield, "battlefield бою"));
        // a document without other names is left to its title's postings
        assert!(crate::search::docs::named("Battlefield").is_none());
        assert!(crate::search::docs::named("Battlefield\n").is_none());
        // a name's terms, once each, and its length in words
        let named = crate::search::docs::named("Line of Sight\nЛінія зору, лінія").unwrap();
        assert_eq!(named[1], (vec!["зор".to_string(), "лін".to_string()], 3));
    }

    #[test]
    fn a_little_word_between_two_words_counts_in_the_title_length() {
        for (q, n) in [
            ("line of sight", [2, 3]),
            ("winning and losing", [2, 3]),
            ("in play", [1, 1]),
            // `in` is the last word met (repeats are one word): it may be a word being typed
            ("play / in play", [3, 3]),
            ("на полі бою", [2, 2]),
            ("стос скиду і", [2, 2]),
            ("жетон виснаження на карті", [3, 4]),
            ("7,1,0 discarding", [2, 2]),
            // little words alone are the query's words
            ("in a", [2, 2]),
            ("", [0, 0]),
        ] {
            assert_eq!(title_lengths(q), n, "{q}");
        }
    }

    #[test]
    fn a_half_typed_word_that_begins_no_term_is_completed_from_a_letter_or_two_less() {
        let vocab: Vec<(String, u64)> = [("7.1.0", 1), ("бонус", 5), ("бонусн", 2), ("вартост", 3)]
            .iter()
            .map(|(t, n)| (t.to_string(), *n))
            .collect();
        assert_eq!(prefix_found("вартіс", &vocab), "варт");
        assert_eq!(prefix_found("варто", &vocab), "варто");
        // at most PREFIX_BACK letters off, and 3 letters left at least
        assert_eq!(prefix_found("вартіаа", &vocab), "вартіаа");
        assert_eq!(prefix_found("бок", &vocab), "бок");
        // two letters off leave 4, but of an English `-in`: `bonin` is `bon`, `bonis` is not
        let latin: Vec<(String, u64)> = vec![("bonu".into(), 1), ("bonx".into(), 1)];
        assert_eq!(prefix_found("bonin", &latin), "bon");
        assert_eq!(prefix_found("bonis", &latin), "bonis");
        let terms = |e: Vec<(String, f64)>| e.into_iter().map(|(t, _)| t).collect::<Vec<_>>();
        assert_eq!(
            expand("вартіс", "вартіс", true, &vocab),
            [("вартост".to_string(), PREFIX_WEIGHT)]
        );
        // not the last word: not completed at all
        assert!(terms(expand("вартіс", "вартіс", false, &vocab)).is_empty());
        // a whole word the index has is found as it is, not looked for shorter: `бонусу` is
        // `бонус`; `бонусн` is one typo from it, not a completion of `бонус`
        assert_eq!(
            expand("бонус", "бонусу", true, &vocab),
            [
                ("бонус".to_string(), 1.0),
                ("бонусн".to_string(), FUZZY_WEIGHT)
            ]
        );
    }

    #[test]
    fn little_words_are_left_out_of_a_query_with_other_words() {
        let words = |q: &str| -> Vec<String> {
            query_words(q).into_iter().map(|(_, exact)| exact).collect()
        };
        assert_eq!(words("на полі бою"), ["полі", "бою"]);
        assert_eq!(words("стос скиду і"), ["стос", "скиду"]);
        assert_eq!(words("attack a unit"), ["attack", "unit"]);
        // questions as people type them
        assert_eq!(words("що таке поле бою"), ["поле", "бою"]);
        assert_eq!(words("how do I attack a unit"), ["attack", "unit"]);
        assert_eq!(words("коли я можу медитувати"), ["можу", "медитувати"]);
        // a little word is one with a stray apostrophe too, as its term is (search.js
        // decides on the typed form)
        assert_eq!(words("з'а поле"), ["поле"]);
        // the last word may be the start of a longer one still being typed
        assert_eq!(words("стос скиду на"), ["стос", "скиду", "на"]);
        // little words alone are the query
        assert_eq!(words("на і"), ["на", "і"]);
        assert_eq!(words("the"), ["the"]);
        // at most MAX_QUERY_WORDS, the first ones, little words left out first
        let long: Vec<String> = (1..=20).map(|i| format!("w{i}x")).collect();
        let q = long.join(" the ");
        assert_eq!(words(&q), long[..MAX_QUERY_WORDS]);
        let little = STOP_WORDS[..MAX_QUERY_WORDS + 2].join(" ");
        assert_eq!(words(&little), STOP_WORDS[..MAX_QUERY_WORDS]);
    }

    #[test]
    fn a_typo_in_an_ending_the_stemmer_keeps_is_matched_on_the_rest() {
        let c = |s: &str| s.chars().collect::<Vec<_>>();
        // conjuraton: conjur + a misspelled ending
        assert_eq!(ending_distance(&c("conjuraton"), &c("conjur"), 2), 1);
        assert_eq!(ending_distance(&c("meditaton"), &c("medit"), 2), 1);
        assert_eq!(ending_distance(&c("destrucion"), &c("destruct"), 2), 2);
        // the part kept is at least half the word: no short stem matches a long word
        assert_eq!(ending_distance(&c("conjuraton"), &c("con"), 2), 3);
        // within its limit only
        assert_eq!(ending_distance(&c("conjuraton"), &c("conjur"), 0), 1);
        let v: Vec<(String, u64)> = ["con", "conjur", "conjurat", "medit"]
            .iter()
            .map(|t| (t.to_string(), 1))
            .collect();
        let terms =
            |w: &str| -> Vec<String> { expand(w, w, false, &v).into_iter().map(|e| e.0).collect() };
        // one edit (the ending) from `conjur` and from `conjurat` (which was two)
        assert_eq!(
            expand("conjuraton", "conjuraton", false, &v),
            [
                ("conjur".to_string(), FUZZY_WEIGHT),
                ("conjurat".to_string(), FUZZY_WEIGHT)
            ]
        );
        // a word the index knows keeps the expansions it had: `conjur` is two edits away
        assert_eq!(terms("conjurat"), ["conjurat"]);
    }

    #[test]
    fn distances() {
        let c = |s: &str| s.chars().collect::<Vec<_>>();
        assert_eq!(distance(&c("жетон"), &c("жетон"), 2), 0);
        assert_eq!(distance(&c("жетон"), &c("жетно"), 2), 1);
        assert_eq!(distance(&c("жетон"), &c("жтон"), 2), 1);
        assert_eq!(distance(&c("жетон"), &c("ж"), 1), 2);
        assert_eq!(distance(&c("жетон"), &c("жетно"), 0), 1);
        assert_eq!(distance(&c("жетон"), &c("жеотн"), 2), 1);
        assert_eq!(distance(&c(""), &c("аб"), 2), 2);
        assert_eq!(distance(&c("аб"), &c(""), 2), 2);
    }

    #[test]
    fn a_section_number_written_short_stands_for_its_section() {
        let v = vocab(&[
            "1042.1.0", "1042.1.1", "12", "12.0.0", "12.1.0", "7.0.0", "7.1.0", "7.1.1", "7.10.0",
            "damag",
        ]);
        let e = |q: &str| -> Vec<Vec<(String, f64)>> {
            plan(q, &v).into_iter().map(|w| w.expansions).collect()
        };
        let one = |t: &str, w: f64| vec![(t.to_string(), w)];
        // the number with zeros added, alone, when the index has it
        assert_eq!(e("7.1"), [one("7.1.0", 1.0)]);
        assert_eq!(e("7"), [one("7.0.0", 1.0)]);
        assert_eq!(e("12"), [[one("12", 1.0), one("12.0.0", 1.0)].concat()]);
        // else every number it begins, cut at a dot (not 7.10.0)
        assert_eq!(
            e("1042"),
            [[
                one("1042.1.0", PREFIX_WEIGHT),
                one("1042.1.1", PREFIX_WEIGHT)
            ]
            .concat()]
        );
        assert_eq!(e("7.1.1"), [one("7.1.1", 1.0)]);
        // a query of that number alone, digits and dots only
        assert_eq!(e("damage 7.1"), [one("damag", 1.0), vec![]]);
        assert_eq!(e("7.1 damage"), [vec![], one("damag", 1.0)]);
        assert_eq!(e("7.1a"), [vec![]]);
        // most numbers begin nothing
        assert_eq!(e("3.2"), [vec![]]);
        // in the order of the rules, and the first MAX_EXPANSIONS of them
        let many: Vec<String> = (1..=20).map(|i| format!("142.{i}.0")).collect();
        let mut v = vocab(&many.iter().map(String::as_str).collect::<Vec<_>>());
        v.sort();
        let got: Vec<String> = (plan("142", &v).into_iter())
            .flat_map(|w| w.expansions)
            .map(|(t, _)| t)
            .collect();
        assert_eq!(got, many[..MAX_EXPANSIONS]);
    }

    #[test]
    fn section_numbers_sort_in_the_order_of_the_rules() {
        let mut n = vec![
            "5.10.0", "5.2.0", "5.2", "10.1.0", "5.2.10", "5.2.9", "05.1.0",
        ];
        n.sort_by(|a, b| by_number(a, b));
        assert_eq!(
            n,
            ["5.2", "5.2.0", "5.2.9", "5.2.10", "5.10.0", "05.1.0", "10.1.0"]
        );
    }

    #[test]
    fn a_short_stem_of_a_long_word_gets_fewer_typos() {
        let stem = |w: &str| tokenize(w)[0].term.clone();
        assert_eq!(stem("медитувати"), "медит");
        assert_eq!(stem("малювати"), "мал");
        assert_eq!(typo_budget(10, 5), 1);
        assert_eq!(typo_budget(8, 3), 0);
        assert_eq!(typo_budget(5, 3), 1);
        assert_eq!(typo_budget(6, 3), 1);
        assert_eq!(typo_budget(5, 4), 1);
        assert_eq!(typo_budget(9, 6), 2);
        assert_eq!(typo_budget(9, 2), 0);
        // the word's own length still caps it
        assert_eq!(typo_budget(4, 4), 0);
        assert_eq!(typo_budget(8, 8), 1);
        let v = vocab(&["мет", "мусит", "мав", "медик", "карт", "маг"]);
        let terms = |w: &str| -> Vec<String> {
            let t = stem(w);
            expand(&t, w, false, &v).into_iter().map(|e| e.0).collect()
        };
        // two edits of `медит`, one of `мал`: not typos of these words
        assert_eq!(terms("медитувати"), ["медик"]);
        assert!(terms("малювати").is_empty());
        assert_eq!(terms("кврти"), ["карт"]);
        assert_eq!(stem("маоія"), "мао");
        assert!(terms("маоія").contains(&"маг".to_string()));
    }

    #[test]
    fn expansions_follow_the_length_rules() {
        let v = vocab(&[
            "атак",
            "атака",
            "жетон",
            "жетони",
            "пломенекровн",
            "пломенекров",
        ]);
        // four letters: no typos
        assert_eq!(expand("атк", "атк", false, &v), vec![]);
        // five letters: one typo
        let e = expand("жетн", "жетни", false, &v);
        assert!(e.iter().any(|(t, _)| t == "жетон"), "{e:?}");
        // last word: completion of the typed prefix
        let e = expand("пломен", "пломен", true, &v);
        assert!(e
            .iter()
            .any(|(t, w)| t == "пломенекровн" && *w == PREFIX_WEIGHT));
        // the word's own term comes first
        assert_eq!(
            expand("атак", "атака", true, &v)[0],
            ("атак".to_string(), 1.0)
        );
    }

    #[test]
    fn spelling_puts_g_with_upturn_back_into_the_term() {
        let sp = |w: &str| {
            let t = &tokenize(w)[0];
            spelling(&t.exact, &t.term)
        };
        assert_eq!(sp("ґанок"), "ґанк");
        assert_eq!(sp("Ґанку"), "ґанк");
        assert_eq!(sp("ганок"), "ганк");
        assert_eq!(sp("арґаєю"), "арґа");
        assert_eq!(sp("ґратами"), sp("ґрати"));
        // folding the spelling gives the term back
        for w in ["ґанок", "ґудзик", "аґрус", "ґґґ"] {
            let t = &tokenize(w)[0];
            assert_eq!(spelling(&t.exact, &t.term).replace('ґ', "г"), t.term);
        }
    }

    #[test]
    fn only_documents_without_the_typed_spelling_are_folded() {
        let v = vocab(&["ганк"]);
        let ganok = &plan("ганок", &v)[0];
        let gganok = &plan("ґанок", &v)[0];
        // documents 1 (г only), 2 (ґ only), 3 (both)
        let totals: HashMap<u32, u32> = [(1, 1), (2, 2), (3, 2)].into();
        let variants = vec![("ґанк".to_string(), [(2, 2), (3, 1)].into())];
        let set = |v: &[u32]| v.iter().copied().collect::<HashSet<u32>>();
        assert_eq!(
            folded_docs(gganok, "ганк", 1.0, &totals, &variants),
            set(&[1])
        );
        assert_eq!(
            folded_docs(ganok, "ганк", 1.0, &totals, &variants),
            set(&[2])
        );
        // typo expansions and terms with one spelling are left alone
        assert!(folded_docs(gganok, "ганк", FUZZY_WEIGHT, &totals, &variants).is_empty());
        assert!(folded_docs(gganok, "ганк", 1.0, &totals, &[]).is_empty());
        // no document has the typed spelling: nobody is demoted
        let only_g: HashMap<u32, u32> = [(2, 2)].into();
        let v2 = vec![("ґанк".to_string(), [(2, 2)].into())];
        assert!(folded_docs(ganok, "ганк", 1.0, &only_g, &v2).is_empty());
        // a completion agrees with the typed prefix
        let gan = &plan("ґан", &v)[0];
        assert_eq!(
            folded_docs(gan, "ганк", PREFIX_WEIGHT, &totals, &variants),
            set(&[1])
        );
        // also when typed with an apostrophe the spellings do not have
        let gan = &plan("ґ'ан", &v)[0];
        assert_eq!(
            folded_docs(gan, "ганк", PREFIX_WEIGHT, &totals, &variants),
            set(&[1])
        );
    }
}
