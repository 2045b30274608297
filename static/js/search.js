/* rulebook: search in the browser, offline. It matches and ranks exactly like
 * `rulebook search` (the rules and their reasons are in src/search/rank.rs; keep the two
 * together), over the index `rulebook build` writes into search/ (src/search/web.rs):
 * index.js (vocabulary, statistics, and each word's score bound per language: a typo
 * expansion of a word that has a closer match is loaded only when that bound could still
 * change the results), t/N.js (term shards: the best-scoring documents of
 * each term), r/N.js (tier files: the rest of common terms' postings, in tiers of falling
 * score, loaded one at a time only while the results are not proven), p/N.js (group heads:
 * the best documents for the words of a glossary term or section title together: two side
 * by side, or all three or four), d/N.js (document chunks).
 * Every file is a script, so it loads from file:// as well as from a server, and only the
 * shards a query needs are loaded. Results are built with textContent, never innerHTML. */
(function () {
  "use strict";
  var doc = document;
  var K1 = 1.2, B = 0.75, TITLE_BOOST = 3, PREFIX_WEIGHT = 0.6, FUZZY_WEIGHT = 0.5, FOLDED_WEIGHT = 0.7;
  var MAX_EXPANSIONS = 16, MIN_PREFIX = 2, MAX_WORDS = 12, PREFIX_BACK = 2, MAX_ENDING = 5, SHOWN = 10, SHOWN_OTHER = 3, SNIPPET_CHARS = 160;
  /* Results whose details (title, chapter, snippet: a document chunk each) are loaded before
     the list is shown. The others are placeholders until they scroll into view: about five
     results fill the panel (70vh), and a document chunk is most of a later search's bytes. */
  var EAGER = 5;
  /* rank.rs SPELLED_CHECKED; at most EAGER (see spelledFirst). */
  var SPELLED_CHECKED = 5;
  /* rank.rs NAMED_CHECKED; at most EAGER (see namedFirst). */
  var NAMED_CHECKED = 5;
  /* Tiers still out whose bounds are at least this share of the largest are loaded in the
     same round as its tier (a typo expansion's shard still comes alone, and only when its
     bound is the largest). The prefix expansions of a short word have bounds close together,
     and one at a time each took a round trip: `жетон ви`, typed at 2,000 chapters, waited
     870 ms for its 14 tier files one after the other, and 360 ms in batches; eight queries
     typed letter by letter load the same files either way. (At 0.8, with the typo shards
     batched too, 4% more bytes.) */
  var BATCH = 0.9;
  /* A term shard was about 0.2 of a tier file when tier files were 10 KB (SHARD_BYTES against
     TIER_BYTES in src/search/web.rs); with tier files of 2 KB, 0.1 to 0.6 move the bytes of
     the 100 test queries at 2,000 chapters by 2 % (837 to 820 KB), and it stays.
     `exhaustion token` at 2,000 chapters was proven by the shard of the
     typo expansion `dxhaust` (bound 12.6) after two tier files of `exhaust` and `token`
     (bounds 17.1 and 14.9, 14.5 KB) that did not prove it; the shard first proves it alone.
     Such shards come in one round (one at a time, `exhaustion to` typed waited 290 ms).
     S.tiersFirst (for tests) loads by bound alone. */
  var SHARD_FIRST = 0.2;
  /* A half-typed word's prefix expansions (up to MAX_EXPANSIONS) loaded at once: those with the
     largest bounds; the others only when their bound could still change the results. Each
     letter typed has its own expansions, so loading all of them made a query typed letter by
     letter load the shards of dozens of words it never showed. At 2,000 chapters (30 later
     searches a language, measure_search): English typed median 26.5 → 22.3 KB, typed searches
     over 30 KB 11 → 8 of 30, English typed slowly median 69.2 → 54.3 KB; the same results. */
  var PREFIX_FIRST = 4;

  var S = window.RulebookSearch = window.RulebookSearch || {};
  var root = "", meta = null, chars = null, stopWords = null;
  var shards = {}, tails = {}, chunks = {}, loading = {}, groupFiles = {};
  /* The index read now: one more each time `rulebook serve` writes it again (S.reset). */
  var gen = 0;

  /* ---- loading the index: script files, each calls back into RulebookSearch ---- */
  function script(src) {
    if (!loading[src]) {
      loading[src] = new Promise(function (ok, fail) {
        var s = doc.createElement("script");
        s.setAttribute("data-gen", gen);
        s.src = root + src;
        s.async = true;
        s.onload = function () { ok(); };
        s.onerror = function () {
          delete loading[src];
          var e = new Error("cannot load " + src);
          e.unavailable = true;
          fail(e);
        };
        doc.head.appendChild(s);
      });
    }
    return loading[src];
  }
  /* Whether the script calling back now was asked for by the index read now: one asked for
     before a reset must not mix the old index into the new. */
  function current() {
    var s = doc.currentScript;
    return !s || !s.hasAttribute("data-gen") || Number(s.getAttribute("data-gen")) === gen;
  }
  S.meta = function (m) {
    if (!current()) return;
    meta = m;
    meta.avg = [m.tokens[0] / m.n, m.tokens[1] / m.n];
    meta.at = new Map(m.terms.map(function (t, i) { return [t, i]; }));
    /* bm25's length part for each field and each of the 256 length ids, worked out once:
       score() meets it for every posting (bm25Part) */
    meta.lengthPart = meta.avg.map(function (avg) {
      return Float64Array.from(m.norms, function (norm) { return K1 * (1 - B + B * norm / avg); });
    });
  };
  /* S.shardsTaken counts the term shards loaded (for tests). */
  S.shard = function (k, data) { if (current()) { shards[k] = data; S.shardsTaken = (S.shardsTaken || 0) + 1; } };
  S.tail = function (k, data) { if (current()) tails[k] = data; };
  S.pair = function (k, data) { if (current()) groupFiles[k] = data; };
  /* Forgets the index read so far: `rulebook serve` calls it when it has written the index
     again (src/serve/live.js). A search shown or under way is run again on the new one (its
     results, and the placeholders still to fill, are documents of the old one). */
  S.reset = function () {
    gen++;
    meta = null; chars = null; stopWords = null;
    shards = {}; tails = {}; chunks = {}; loading = {}; groupFiles = {};
    runs++;
    if (input && !box.hidden && input.value.trim()) update();
    else seq++;
  };

  /* Postings come as strings of digits (src/search/web.rs DIGITS): the first 46 digits end
     a number, the other 46 continue it, low digits first. Decoded into (document, frequency,
     length id) triples with absolute document numbers. */
  var DIGITS = "!#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{|}~";
  var DIGIT = new Int8Array(128).fill(-1);
  for (var di = 0; di < DIGITS.length; di++) DIGIT[DIGITS.charCodeAt(di)] = di;
  function decode(s) {
    var out = new Int32Array((s.length >> 1) * 3 + 3), n = 0, v = 0, m = 1, i, c, k = 0, d = 0;
    /* k counts the numbers of the current posting: gap, length id × 8 + frequency, and the
       frequency on its own when the low bits are 0 (src/search/web.rs `encode_postings`). */
    for (i = 0; i < s.length; i++) {
      c = DIGIT[s.charCodeAt(i)];
      if (c >= 46) { v += (c - 46) * m; m *= 46; continue; }
      v += c * m;
      if (k === 0) { d += v; out[n] = d; k = 1; }
      else if (k === 1) {
        if (v & 7) { out[n + 1] = v & 7; out[n + 2] = v >> 3; n += 3; k = 0; }
        else { out[n + 2] = v >> 3; k = 2; }
      } else { out[n + 1] = v; n += 3; k = 0; }
      v = 0; m = 1;
    }
    return out.subarray(0, n);
  }
  /* A term's postings: {head: [title, body], df: [title, body], files, got, more, spellings}.
     title and body are (document, frequency, length id) triples. A common term has tiers
     (src/search/web.rs `Split`): files[l] are the tier files of its tiers in language l, in
     falling order of score; got[l] how many of them are taken in (each only after the ones
     before it, so the weakest document of the last one taken bounds every document still
     out); more the [title, body] of the tiers taken. files is null for a term without tiers.
     spellings: [[spelling with ґ, Map doc → frequency]…], present when the index has the
     term in more than one spelling (such a term has no tiers). */
  function postingsOf(term) {
    var k = shardOf(term), raw = shards[k][term], p, t, i, j, m, flat;
    if (!Array.isArray(raw)) return raw;
    t = typeof raw[2] === "number";
    p = {
      head: [decode(raw[0]), decode(raw[1])], more: [], spellings: [],
      df: t ? [raw[2], raw[3]] : null, files: t ? raw[4] : null, partners: t ? raw[5] || null : null,
      got: t ? raw[4].map(function () { return 0; }) : null
    };
    if (!t) {
      p.df = [p.head[0].length / 3, p.head[1].length / 3];
      for (i = 2; i < raw.length; i += 2) {
        flat = decode(raw[i + 1]); m = new Map();
        for (j = 0; j < flat.length; j += 3) m.set(flat[j], flat[j + 1]);
        p.spellings.push([raw[i], m]);
      }
    }
    shards[k][term] = p;
    return p;
  }
  /* Takes in the tiers of a term whose files are loaded, in order in each language. A tier
     file holds {term: [language, tier, "title", "body", …]}: one or more tiers of a term.
     S.tiersTaken counts the tiers taken in (for tests). */
  function take(term, p) {
    var l, raw, i;
    if (!p.files) return;
    for (l = 0; l < p.files.length; l++) {
      while (p.got[l] < p.files[l].length && tails[p.files[l][p.got[l]]]) {
        raw = tails[p.files[l][p.got[l]]][term];
        for (i = 0; i < raw.length; i += 4) {
          if (raw[i] === l && raw[i + 1] === p.got[l]) p.more.push([decode(raw[i + 2]), decode(raw[i + 3])]);
        }
        S.tiersTaken = (S.tiersTaken || 0) + 1;
        p.got[l]++;
      }
    }
  }
  /* The tier file to load next for a term in language l, or -1 when all are in. */
  function nextFile(p, l) {
    return p.files && p.got[l] < p.files[l].length ? p.files[l][p.got[l]] : -1;
  }
  S.docs = function (k, rows) { if (current()) chunks[k] = rows; };

  function ready() {
    var a = window.RulebookAnalyzer ? Promise.resolve() : script("static/js/analyzer.js");
    var m = meta ? Promise.resolve() : script("search/index.js");
    return Promise.all([a, m]);
  }
  /* The shard a term would be in: the last whose first term is not after it. */
  function shardOf(term) {
    var lo = 0, hi = meta.shards.length - 1, mid;
    while (lo < hi) {
      mid = (lo + hi + 1) >> 1;
      if (meta.shards[mid] <= term) lo = mid; else hi = mid - 1;
    }
    return lo;
  }
  function isNumber(t) { return /[0-9]/.test(t); }
  /* The most word `term` adds to one document's score in language l, weight 1 (src/search/
     web.rs `score_bounds`, `bound_digit`): its digit k stands for step^k - 1, the last for
     no bound. */
  function scoreBound(term, l) {
    var k = DIGIT[meta.bounds[l].charCodeAt(meta.at.get(term))];
    return k === DIGITS.length - 1 ? Infinity : Math.pow(meta.bound_step, k) - 1;
  }
  /* Whether an expansion's shard is in. A typo expansion of a word that also has a closer
     match starts out: its bound stands in for it (score()) until that bound could change
     the results (settle()). */
  function loaded(term) { return !!shards[shardOf(term)]; }


  /* ---- matching and ranking: src/search/rank.rs, step by step ---- */
  /* rank.rs `query_words`: a little word (meta.stop) is left out when another word is not
     one, unless it is the last word and long enough to be the start of a longer one. */
  /* rank.rs `section_commas`: 7,1,0 (three parts or more) is the section number 7.1.0 */
  function sectionCommas(q) {
    return q.replace(/(^|[^0-9A-Za-z,])([0-9]+(?:,[0-9]+){2,})(?!,*[0-9])(?![A-Za-z])/g, function (m, pre, num) {
      return pre + num.replace(/,/g, ".");
    });
  }
  /* rank.rs `query_words` (at most MAX_WORDS, rank.rs MAX_QUERY_WORDS); the array's `lengths`
     are rank.rs `title_lengths` (step 5). */
  function queryWords(q) {
    var out = [], seen = new Set(), stop, n, kept, tokens = window.RulebookAnalyzer.tokenize(sectionCommas(q));
    tokens.forEach(function (t) {
      if (!seen.has(t.term)) {
        seen.add(t.term);
        out.push({ term: t.term, typed: typedForm(t.exact), exact: t.exact, spelling: spelling(t.exact, t.term) });
      }
    });
    if (!stopWords) stopWords = new Set(meta.stop);
    stop = function (w) { return stopWords.has(w.typed); };
    n = out.length;
    kept = (out.every(stop) ? out : out.filter(function (w, i) {
      return !stop(w) || (i + 1 === n && Array.from(w.exact).length >= MIN_PREFIX);
    })).slice(0, MAX_WORDS);
    kept.lengths = titleLengths(tokens, kept);
    return kept;
  }
  /* rank.rs `title_lengths`: the words as typed without the little words left out, and with
     those of them between two kept words. */
  function titleLengths(tokens, kept) {
    var terms = new Set(kept.map(function (w) { return w.term; }));
    var flags = tokens.map(function (t) { return terms.has(t.term); });
    var short = flags.filter(Boolean).length, a = flags.indexOf(true), b = flags.lastIndexOf(true), inner = 0;
    for (var i = a; a >= 0 && i <= b; i++) if (!flags[i]) inner++;
    return [short, short + inner];
  }
  /* rank.rs `typed_form`: ґ → г, and no apostrophe in a Ukrainian word (its terms have none). */
  function typedForm(exact) {
    var typed = exact.replace(/ґ/g, "г");
    return window.RulebookAnalyzer.hasCyrillic(typed) ? typed.replace(/'/g, "") : typed;
  }
  /* rank.rs `spelling`: the term with ґ put back where the exact form has it (apostrophes
     skipped: the stemmer drops them). */
  function spelling(exact, term) {
    if (exact.indexOf("ґ") < 0) return term;
    var e = Array.from(exact).filter(function (c) { return c !== "'"; });
    return Array.from(term).map(function (c, i) { return e[i] === "ґ" && c === "г" ? "ґ" : c; }).join("");
  }
  /* rank.rs `folded_docs`: the documents that have the expansion only in another spelling
     than the query's. totals: Map doc → frequency (title + body); variants as postingsOf. */
  function foldedDocs(word, term, weight, totals, variants) {
    var own = weight === 1, out = [], any = false;
    if (!variants.length || !(own || weight === PREFIX_WEIGHT)) return out;
    var prefix = word.exact.replace(/'/g, ""); /* spellings have no apostrophe */
    function agrees(s) { return own ? s === word.spelling : s.startsWith(prefix); }
    var plain = agrees(term), agree = variants.map(function (v) { return agrees(v[0]); });
    totals.forEach(function (total, d) {
      var spelled = 0, ok = false;
      variants.forEach(function (v, i) {
        var tf = v[1].get(d);
        if (tf !== undefined) { spelled += tf; ok = ok || agree[i]; }
      });
      ok = ok || (plain && total > spelled);
      if (ok) any = true; else out.push(d);
    });
    return any ? out : [];
  }
  function maxDistance(n) { return n <= 4 ? 0 : n <= 8 ? 1 : 2; }
  /* rank.rs `typo_budget`: the word's typos, and no more than its stem allows */
  function typoBudget(typed, stem) {
    return Math.min(maxDistance(typed), stem <= 2 || (stem === 3 && typed >= 7) ? 0 : stem <= 5 ? 1 : 2);
  }
  /* rank.rs `osa_rows`: the optimal string alignment table of a[..rows] against b, a row at
     a time: row(i, distance(a[..i], b), the row's least) until it returns false. */
  function osaRows(a, b, rows, row) {
    var w = b.length + 1, d = new Array((rows + 1) * w), i, j, v, rowMin;
    for (j = 0; j < w; j++) d[j] = j;
    for (i = 1; i <= rows; i++) {
      d[i * w] = i; rowMin = i;
      for (j = 1; j < w; j++) {
        v = Math.min(d[(i - 1) * w + j] + 1, d[i * w + j - 1] + 1, d[(i - 1) * w + j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[(i - 2) * w + j - 2] + 1);
        d[i * w + j] = v;
        if (v < rowMin) rowMin = v;
      }
      if (!row(i, d[i * w + b.length], rowMin)) return;
    }
  }
  function distance(a, b, limit) {
    var last = limit + 1;
    if (Math.abs(a.length - b.length) > limit) return limit + 1;
    if (!a.length) return b.length;
    osaRows(a, b, a.length, function (i, atEnd, rowMin) {
      if (rowMin > limit) return false;
      if (i === a.length) last = atEnd;
      return true;
    });
    return last;
  }
  /* rank.rs `ending_distance`: the distance from the stem to the word without its last 1 to
     MAX_ENDING letters, plus one for a misspelled ending the stemmer could not take off. */
  function endingDistance(word, stem, limit) {
    var n = word.length, shortest = Math.max(Math.ceil(n / 2), 3, n - MAX_ENDING), best = limit + 1;
    if (limit === 0 || shortest >= n || stem.length + limit <= shortest || stem.length + 1 >= n + limit) return limit + 1;
    osaRows(word, stem, n - 1, function (i, atEnd, rowMin) {
      if (i >= shortest) best = Math.min(best, atEnd + 1);
      return rowMin < limit;
    });
    return Math.min(best, limit + 1);
  }
  /* rank.rs `prefix_found`: a half-typed word (no term itself) as typed when a term begins
     with it, else without its last letter or two (PREFIX_BACK; 3 letters left, 4 when two go
     but for an English `-in`), the first that a term begins with (`вартіс`: `варт`) */
  function prefixFound(typed) {
    var c = Array.from(typed), back, p;
    function begins(p) { return meta.terms.some(function (v) { return v.startsWith(p); }); }
    if (begins(typed)) return typed;
    for (back = 1; back <= PREFIX_BACK; back++) {
      if (c.length < back + (back === 1 || (back === 2 && typed.endsWith("in")) ? 3 : 4)) break;
      p = c.slice(0, c.length - back).join("");
      if (begins(p)) return p;
    }
    return typed;
  }
  function expand(term, typed, last) {
    if (isNumber(term)) return null; // decided once its shard is loaded: see run()
    var t = Array.from(term), typedChars = Array.from(typed), typedLen = typedChars.length, maxD = typoBudget(typedLen, t.length);
    var prefix = last && typedLen >= MIN_PREFIX, found = [], terms = meta.terms, i, v, w, dist;
    /* a word the index has as typed is found; only one it lacks is looked for shorter */
    var starts = prefix && !meta.at.has(term) ? prefixFound(typed) : typed;
    /* a word the index does not know may be a typo in its ending (endingDistance) */
    var unknown = maxD > 0 && !meta.at.has(term);
    if (!chars) chars = terms.map(function (x) { return Array.from(x); });
    for (i = 0; i < terms.length; i++) { // numbers are not in meta.terms
      v = terms[i];
      if (v === term) w = 1;
      else if (prefix && v.startsWith(starts)) w = PREFIX_WEIGHT;
      else if (maxD > 0) {
        dist = distance(t, chars[i], maxD);
        if (unknown && dist > 1) dist = Math.min(dist, endingDistance(typedChars, chars[i], maxD));
        if (dist === 1) w = FUZZY_WEIGHT;
        else if (dist === 2 && maxD >= 2) w = FUZZY_WEIGHT / 2;
        else continue;
      } else continue;
      found.push([w, meta.df[i], i]);
    }
    found.sort(function (a, b) { return b[0] - a[0] || b[1] - a[1] || a[2] - b[2]; });
    return found.slice(0, MAX_EXPANSIONS).map(function (f) { return [terms[f[2]], f[0]]; });
  }
  function plan(q) {
    var words = queryWords(q);
    words.forEach(function (w, i) {
      w.numberPrefix = words.length === 1 ? numberPrefix(w.term) : null;
      w.expansions = expand(w.term, w.typed, i + 1 === words.length);
    });
    return words;
  }
  /* rank.rs `number_completions`: a query of one number written short (digits and dots)
     stands for the number with zeros added when the index has it (7.1 for 7.1.0), else for
     every term that starts with it and a dot. They are in the number shards from `number.` on. */
  function numberPrefix(term) {
    return term.length <= 32 && /^[0-9]+(\.[0-9]+)*$/.test(term) ? term + "." : null;
  }
  function numberShards(p) {
    var out = [], k, end = shardOf(p + "\uffff");
    for (k = shardOf(p); k <= end; k++) out.push(k);
    return out;
  }
  /* rank.rs `by_number`: section numbers in the order of the rules (5.2.0 before 5.10.0). */
  function byNumber(a, b) {
    var x = a.split("."), y = b.split("."), i, n = Math.min(x.length, y.length);
    for (i = 0; i < n; i++) {
      if (x[i].length !== y[i].length) return x[i].length - y[i].length;
      if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    }
    if (x.length !== y.length) return x.length - y.length;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  function numberCompletions(p) {
    var all = [], zeros;
    numberShards(p).forEach(function (k) {
      Object.keys(shards[k]).forEach(function (t) { if (t.startsWith(p)) all.push(t); });
    });
    all.sort(byNumber);
    zeros = all.filter(function (t) { return /^[0.]*$/.test(t.slice(p.length)); });
    return zeros.length ? zeros.map(function (t) { return [t, 1]; }) : all.map(function (t) { return [t, PREFIX_WEIGHT]; });
  }
  /* BM25 (rank.rs `bm25`, as tantivy computes it) in two parts: bm25Shared(df, n), idf times
     (K1 + 1), what every posting of a term in a field shares; then bm25Part(a, tf, f, id) for
     one posting, with the length part of its field and length id worked out once (S.meta).
     The same operations in the same order as idf * (K1 + 1) * tf / (tf + K1 * (1 - B + B *
     norm / avg)), so the same bits, without a logarithm and two divisions per posting (about
     a tenth of the time of a search of common words at 2,000 chapters). */
  function bm25Shared(df, n) {
    return Math.log(1 + (n - df + 0.5) / (df + 0.5)) * (K1 + 1);
  }
  function bm25Part(a, tf, f, id) {
    return a * tf / (tf + meta.lengthPart[f][id]);
  }
  function langOf(d) {
    var l = 0;
    while (l + 1 < meta.langs.length && d >= meta.langs[l][2]) l++;
    return l;
  }
  /* ---- group heads (src/search/web.rs `group_entry`) ----
     Two words side by side in a glossary term or a section title, and the whole of such a
     name of three or four words, have a head of their own: per language, the documents with
     all the words that score best for them together, with each word's postings there, and a
     bound on every other document with all of them. Of the groups whose words are all exact
     matches of different words of the query, the one with the most words is used (the first
     found of those): pick() finds it, score() takes its documents in and rank() proves with
     its bound (groupPart). */
  function pick(words) {
    var best = null;
    words.forEach(function (w, i) {
      (w.expansions || []).forEach(function (a) {
        var pa, key, terms, idx, k;
        if (a[1] !== 1 || !loaded(a[0])) return;
        pa = postingsOf(a[0]);
        if (!pa.partners) return;
        for (key in pa.partners) {
          if (!pa.partners.hasOwnProperty(key)) continue;
          terms = key.split(" ");
          if (best && best.terms.length >= terms.length + 1) continue;
          idx = terms.map(function (t) { return exactWord(words, t, i); });
          if (idx.indexOf(-1) >= 0 || new Set(idx).size < idx.length) continue;
          k = pa.partners[key];
          terms = [a[0]].concat(terms);
          idx = [i].concat(idx);
          best = { idx: idx, terms: terms, k: k };
        }
      });
    });
    if (!best) return null;
    best.data = groupData(best.k, best.terms);
    // a file without the group (none the build writes): no head rather than a loop loading it
    return best.data || !groupFiles[best.k] ? best : null;
  }
  /* The query word other than `not` that has `term` as a loaded exact match, or -1. */
  function exactWord(words, term, not) {
    for (var n = 0; n < words.length; n++) {
      if (n === not || !words[n].expansions) continue;
      for (var x = 0; x < words[n].expansions.length; x++) {
        var e = words[n].expansions[x];
        if (e[1] === 1 && e[0] === term && loaded(term)) return n;
      }
    }
    return -1;
  }
  /* A loaded group head as {low: [bound per language], lists: {term: [title, body]}}. */
  function groupData(k, terms) {
    var f = groupFiles[k], key = terms.slice().sort().join(" "), raw, sorted, l, nl = meta.langs.length, out, per;
    if (!f || !f.hasOwnProperty(key)) return null;
    raw = f[key];
    if (!Array.isArray(raw)) return raw;
    sorted = key.split(" ");
    per = 2 + 2 * sorted.length;
    out = { low: [], lists: {} };
    sorted.forEach(function (t) { out.lists[t] = [[], []]; });
    for (l = 0; l < nl; l++) {
      out.low.push(raw[l * per + 1]);
      sorted.forEach(function (t, n) {
        out.lists[t][0].push(decode(raw[l * per + 2 + 2 * n]));
        out.lists[t][1].push(decode(raw[l * per + 3 + 2 * n]));
      });
    }
    sorted.forEach(function (t) { out.lists[t] = out.lists[t].map(join); });
    f[key] = out;
    return out;
  }
  function join(parts) {
    var n = 0, at = 0, out;
    parts.forEach(function (p) { n += p.length; });
    out = new Int32Array(n);
    parts.forEach(function (p) { out.set(p, at); at += p.length; });
    return out;
  }
  /* Whether a posting taken in names document d for a word of the group: otherwise its
     groupPart is that of d < 0. */
  function named(P, d, best) {
    for (var g = 0; g < P.idx.length; g++) {
      if (P.s[g][d] !== 0 || P.r[g][d] !== 0 || best[P.idx[g]][d] !== 0) return true;
    }
    return false;
  }
  /* What the group's words can add to document d of language L at most (d < 0: a document
     no posting taken in names), and whether their scores there are exact. For each word g
     of the group (query word P.idx[g]): s[g], its exact match's score (0: not among the
     postings taken in); r[g], the best of its other expansions; B[g], the bound of its exact
     match's tiers still out; O[g], of its other parts still out; best and bounds: the words'
     scores and bounds (score()). A document outside the head with all the words through
     their exact matches scores at most the head's bound for them, and one without all of
     them is bounded through its other parts. */
  function groupPart(P, d, L, anyMode, best, bounds, out) {
    var n = P.idx.length, g, w, sg, u, r, v, all = true, sum = 0, sumU = 0, minU = Infinity;
    var mixed = 0, above = false, gap = Infinity, exact = true;
    for (g = 0; g < n; g++) {
      w = P.idx[g];
      sg = d < 0 ? 0 : P.s[g][d];
      u = sg > 0 ? sg : P.B[g][L];
      r = Math.max(d < 0 ? 0 : P.r[g][d], P.O[g][L]);
      v = d < 0 ? 0 : best[w][d];
      if (sg > 0) sum += sg; else all = false;
      sumU += u;
      if (u < minU) minU = u;
      // the most with one word at least through another expansion
      mixed += Math.max(u, r);
      if (r > u) above = true; else if (u - r < gap) gap = u - r;
      if (!((sg > 0 || P.B[g][L] <= v) && P.O[g][L] <= v)) exact = false;
    }
    if (!above) mixed -= gap;
    var x = all ? sum : Math.min(sumU, anyMode ? Math.max(P.low[L], sumU - minU) : P.low[L]);
    out.u = Math.min(Math.max(x, mixed), groupCap(P, d, best, bounds));
    out.exact = exact;
    return out;
  }
  /* The most the group's words can add to document d (d < 0: one no posting taken in names),
     through their scores or their bounds: groupPart's part never exceeds it, so combine()
     skips a document this cap already leaves below the bound. */
  function groupCap(P, d, best, bounds) {
    var cap = 0, w;
    for (var g = 0; g < P.idx.length; g++) {
      w = P.idx[g];
      cap += Math.max(d < 0 ? 0 : best[w][d], bounds[w]);
    }
    return cap;
  }
  /* score()'s arrays of a number per document, kept from one ranking to the next: a keystroke
     ranks once per round of loading, and each ranking made (and left to the collector)
     several arrays the size of the site. One ranking runs at a time (rank() is synchronous),
     and nothing it returns holds them. */
  var perDoc = { f64: { make: Float64Array, list: [], used: 0 }, u8: { make: Uint8Array, list: [], used: 0 },
    i32: { make: Int32Array, list: [], used: 0 } };
  function zeroed(pool) {
    var a = pool.list[pool.used];
    if (a && a.length === meta.n) a.fill(0);
    else a = pool.list[pool.used] = new pool.make(meta.n);
    pool.used++;
    return a;
  }
  /* Scores the words over the postings taken in. best[w]: every document's best weighted
     score for word w over its expansions (typed arrays: a common word is thousands of
     documents); bound[w][l]: the most that a document of language l can score for w through
     tiers still out (src/search/web.rs `Split`: a tier scores at most as much as the weakest
     document of the tier before it, so the bound of an expansion is the weakest score among
     its documents of l taken in, and a word's the largest of its expansions'); seen: per
     language, the documents with any score; open: for each expansion with tiers still out,
     {p, bound} (bound per language, 0 where nothing is out), what run() picks the next file
     from. */
  function score(words, pr) {
    var n = meta.n, nl = meta.langs.length, boost = [TITLE_BOOST, 1];
    perDoc.f64.used = perDoc.u8.used = perDoc.i32.used = 0;
    var mine = zeroed(perDoc.f64), touched = zeroed(perDoc.i32), mark = zeroed(perDoc.u8);
    var seen = meta.langs.map(function () { return []; }), best = [], bound = [], opened = [], P = null, added = null;
    /* rank.rs step 5: per word, the documents with its own term in the title; and their
       title's length id */
    var titled = [], titleLen = zeroed(perDoc.u8);
    if (pr && pr.data) {
      P = { idx: pr.idx, low: pr.data.low, of: new Int8Array(words.length).fill(-1), s: [], r: [], B: [], O: [] };
      pr.idx.forEach(function (w, g) {
        P.of[w] = g;
        P.s.push(zeroed(perDoc.f64)); P.r.push(zeroed(perDoc.f64));
        P.B.push(new Float64Array(nl)); P.O.push(new Float64Array(nl));
      });
      added = zeroed(perDoc.u8);
    }
    words.forEach(function (word, wi) {
      var b = zeroed(perDoc.f64), bd = new Float64Array(nl), th = zeroed(perDoc.u8);
      titled.push(th);
      var side = P ? P.of[wi] : -1;
      word.expansions.forEach(function (e) {
        var p, lists, open = false, L, out;
        if (!loaded(e[0])) {
          out = new Float64Array(nl);
          for (L = 0; L < nl; L++) {
            out[L] = e[1] * scoreBound(e[0], L);
            if (out[L] > bd[L]) bd[L] = out[L];
            if (side >= 0 && out[L] > P.O[side][L]) P.O[side][L] = out[L];
          }
          opened.push({ term: e[0], bound: out });
          return;
        }
        p = postingsOf(e[0]);
        take(e[0], p);
        lists = [p.head].concat(p.more);
        for (L = 0; L < nl; L++) if (nextFile(p, L) >= 0) open = true;
        var nt = 0, low = open ? new Float64Array(nl).fill(Infinity) : null, f, flat, j, d, s, li;
        var own = e[1] === 1 && e[0] === word.term;
        var totals = p.spellings.length ? new Map() : null, folded = null;
        var shared = [bm25Shared(p.df[0], n), bm25Shared(p.df[1], n)];
        for (li = 0; li < lists.length; li++) {
          for (f = 0; f < 2; f++) {
            flat = lists[li][f];
            for (j = 0; j < flat.length; j += 3) {
              d = flat[j];
              if (mine[d] === 0) touched[nt++] = d;
              mine[d] += boost[f] * bm25Part(shared[f], flat[j + 1], f, flat[j + 2]);
              if (totals) totals.set(d, (totals.get(d) || 0) + flat[j + 1]);
              if (own && f === 0) { th[d] = 1; titleLen[d] = flat[j + 2]; }
            }
          }
        }
        // the group head's documents of this word that no list taken in has
        var mineOfPair = side >= 0 && e[0] === pr.terms[side], extra;
        if (mineOfPair) {
          extra = pr.data.lists[e[0]];
          for (f = 0; f < 2; f++) for (j = 0; j < extra[f].length; j += 3) if (mine[extra[f][j]] === 0) added[extra[f][j]] = 1;
          for (f = 0; f < 2; f++) {
            for (j = 0; j < extra[f].length; j += 3) {
              d = extra[f][j];
              if (!added[d]) continue;
              if (own && f === 0) { th[d] = 1; titleLen[d] = extra[f][j + 2]; }
              if (mine[d] === 0) touched[nt++] = d;
              mine[d] += boost[f] * bm25Part(shared[f], extra[f][j + 1], f, extra[f][j + 2]);
            }
          }
        }
        // a term with spellings has no tiers, so folding never meets a bound
        if (totals) folded = new Set(foldedDocs(word, e[0], e[1], totals, p.spellings));
        for (j = 0; j < nt; j++) {
          d = touched[j];
          s = e[1] * (folded && folded.has(d) ? mine[d] * FOLDED_WEIGHT : mine[d]);
          mine[d] = 0;
          if (s > b[d]) b[d] = s;
          if (!mark[d]) { mark[d] = 1; seen[langOf(d)].push(d); }
          // a tier's bound is the weakest of the tiers taken in: not of the group's documents
          if (open && !(mineOfPair && added[d])) { L = langOf(d); if (s < low[L]) low[L] = s; }
          if (side >= 0) {
            if (mineOfPair) P.s[side][d] = s;
            else if (s > P.r[side][d]) P.r[side][d] = s;
          }
        }
        if (mineOfPair) {
          for (f = 0; f < 2; f++) for (j = 0; j < extra[f].length; j += 3) added[extra[f][j]] = 0;
        }
        if (open) {
          for (L = 0; L < nl; L++) {
            if (nextFile(p, L) < 0 || low[L] === Infinity) low[L] = 0;
            else if (low[L] > bd[L]) bd[L] = low[L];
            if (side >= 0) {
              var Bo = mineOfPair ? P.B[side] : P.O[side];
              if (low[L] > Bo[L]) Bo[L] = low[L];
            }
          }
          opened.push({ p: p, bound: low });
        }
      });
      best.push(b);
      bound.push(bd);
    });
    return { best: best, bound: bound, seen: seen, open: opened, pair: P, titled: titled, titleLen: titleLen };
  }
  /* rank.rs `exact_first`, first half: for each of the first SHOWN, whether its title is
     exactly the query (every word's own term in it, and one of the query's title lengths):
     true, false, or null for one of the first NAMED_CHECKED that is a glossary entry with
     every word in its title: it may have other names (their words are in its title's
     postings, under its own name's length), and only its names can tell (namedFirst). */
  function exactOf(ranked, sc, nwords, lengths, li) {
    return ranked.slice(0, SHOWN).map(function (h, i) {
      var d = h[0], w;
      for (w = 0; w < nwords; w++) if (sc.titled[w][d] !== 1) return false;
      if (i < NAMED_CHECKED && d >= meta.glossary[li]) return null;
      return lengths.indexOf(meta.norms[sc.titleLen[d]]) >= 0;
    });
  }
  /* rank.rs `named_exact`: whether one of a glossary entry's names (its title, then its
     other names) has every word's own term and is one of the query's title lengths long. An
     entry without other names is left to its title's length, as on the command line. */
  function namedExact(h, words, titleLen) {
    var A = window.RulebookAnalyzer, names = [h.title].concat(h.names);
    if (!h.names.length) return words.lengths.indexOf(titleLen) >= 0;
    return names.some(function (name) {
      var tokens = A.tokenize(name), have = new Set(tokens.map(function (t) { return t.term; }));
      return words.lengths.indexOf(tokens.length) >= 0 && words.every(function (w) { return have.has(w.term); });
    });
  }
  /* rank.rs `exact_first`, second half: the first SHOWN whose title (or, for a glossary entry
     with other names, one of its names) is exactly the query come first, in order. Only the
     order within the first page changes, so the proof holds. The names of an entry are in
     its document chunk: one of the first EAGER, whose chunks show() loads anyway. */
  function namedFirst(r) {
    var page = r.page, states = page && page.states, ask = [];
    if (!states) return r;
    states.forEach(function (s, i) { if (s === null) ask.push(page[i]); });
    if (!ask.length) return order(r, states);
    // in the same round, the chunks of those of the first EAGER that are exact already:
    // they stay among the first EAGER, and show() needs them next
    var sure = page.slice(0, EAGER).filter(function (h, i) { return states[i] === true; });
    return docsOf(ask.concat(sure)).then(function (hits) {
      ask.forEach(function (d, i) {
        var at = page.indexOf(d);
        states[at] = namedExact(hits[i], r.words, page.lens[at]);
      });
      return order(r, states);
    });
  }
  /* The exact ones of the first states.length first, in order; the others after them. */
  function order(r, states) {
    var page = r.page, yes = [], no = [], n = states.length;
    page.slice(0, n).forEach(function (h, i) { (states[i] ? yes : no).push(h); });
    r.page = yes.concat(no, page.slice(n));
    r.page.exact = yes.length;
    return r;
  }
  /* rank.rs `spelled_first` (step 6): among the first SPELLED_CHECKED of the results step 5
     put first, the titles spelled as the query come first. Their details are the first that
     show() loads anyway (SPELLED_CHECKED ≤ EAGER), so this loads nothing more. */
  function asTyped(text) {
    return window.RulebookAnalyzer.tokenize(text).map(function (t) { return t.exact; }).join(" ");
  }
  function spelledFirst(r, q) {
    var n = Math.min(r.page.exact || 0, SPELLED_CHECKED, r.page.length);
    if (n < 2) return r;
    return docsOf(r.page.slice(0, n)).then(function (hits) {
      var typed = asTyped(sectionCommas(q)), yes = [], no = [];
      hits.forEach(function (h, i) {
        var spelled = [h.title].concat(h.names).some(function (n) { return asTyped(n) === typed; });
        (spelled ? yes : no).push(r.page[i]);
      });
      r.page = yes.concat(no, r.page.slice(n));
      return r;
    });
  }
  function round(s) { return Math.round(s * 1e6) / 1e6; }
  /* rank.rs `combine`, over the documents of language li, for its first `need` results.
     With tiers still out, it returns null unless those results are certain: each of them
     scored exactly (no word's score below what a tier still out could give it), and every
     other document that could still match scoring less, even with the most those tiers could
     add. */
  function combine(sc, nwords, li, need, anyMode) {
    var i, d, w, s, m, v, u, exact, maybe, pp, can;
    var P = sc.pair;
    // a typed array: to the engine, an array of whole numbers (nothing out: all 0) is another
    // kind than one with fractions, and the loop below was thrown out of its compiled form
    // when the kind changed
    var bounds = new Float64Array(nwords), open = false;
    for (w = 0; w < nwords; w++) {
      bounds[w] = sc.bound[w][li];
      if (bounds[w] > 0) open = true;
    }
    // with nothing out: the best documents with every word, else the best with any
    var all = open ? null : topOf(need), any = open ? null : topOf(need);
    var loose = 0, sure = topOf(need);
    /* what the group adds to a document none of its words' postings name: the same for all
       of them, and most documents are such (those of the query's other words only) */
    var unnamed = P ? groupPart(P, -1, li, anyMode, sc.best, bounds, {}) : null, part = {};
    var seen = sc.seen[li], best = sc.best, of = P ? P.of : null;
    for (i = 0; i < seen.length; i++) {
      d = seen[i];
      s = 0; m = 0; u = 0; exact = true; maybe = true;
      for (w = 0; w < nwords; w++) {
        v = best[w][d];
        s += v;
        if (v > 0) m++;
        if (v === 0 && bounds[w] === 0) maybe = false;
        if (of && of[w] >= 0) continue;
        if (v < bounds[w]) exact = false;
        u += Math.max(v, bounds[w]);
      }
      if (!open) {
        if (s > 0) {
          // below the last of full lists by more than rounding moves a score: changes neither
          if (any.under(s) && (m !== nwords || all.under(s))) continue;
          s = round(s);
          any.add(d, s);
          if (m === nwords) all.add(d, s);
        }
        continue;
      }
      can = anyMode ? m > 0 : m === nwords;
      // the group's part, where it can decide something: whether a document is sure, or how
      // much one that is not could score. A document that cannot be sure only raises `loose`,
      // and not when even the group's cap leaves it below: most documents of common words,
      // and working their part out was most of a keystroke's ranking.
      if (P && ((can && exact) || anyMode || maybe)) {
        if (!(can && exact) && u + groupCap(P, d, best, bounds) <= loose) continue;
        pp = named(P, d, best) ? groupPart(P, d, li, anyMode, best, bounds, part) : unnamed;
        u += pp.u;
        if (!pp.exact) exact = false;
      }
      if (can && exact) sure.add(d, round(s));
      else if (anyMode || maybe) loose = Math.max(loose, u);
    }
    if (!open) return all.items.length ? all.items : any.items;
    // documents no postings loaded name: they can have every word only through tails
    u = 0;
    for (w = 0; w < nwords; w++) {
      if (!anyMode && bounds[w] === 0) { u = -1; break; }
      if (!of || of[w] < 0) u += bounds[w];
    }
    if (u < 0) u = 0;
    else if (P) u += unnamed.u;
    loose = Math.max(loose, u);
    sure = sure.items;
    if (!sure.length) return null;
    if (sure.length < need ? loose > 0 : loose + 1e-6 >= sure[need - 1][1]) return null;
    return sure;
  }
  /* The k best [document, score] pairs of those added, best first: higher score, then lower
     document, the order of the whole list sorted. Only the first results of a list are ever
     shown; a list of every document of common words (tens of thousands at 2,000 chapters), a
     pair allocated for each, then sorted, was time and garbage for nothing. */
  function topOf(k) {
    var items = [];
    return {
      items: items,
      add: function (d, s) {
        var at = items.length;
        while (at > 0 && (items[at - 1][1] < s || (items[at - 1][1] === s && items[at - 1][0] > d))) at--;
        if (at === k) return;
        items.splice(at, 0, [d, s]);
        if (items.length > k) items.pop();
      },
      /* whether s, however round() moves it, would be kept by none */
      under: function (s) { return k > 0 && items.length === k && s + 1e-6 < items[k - 1][1]; }
    };
  }

  /* Ranks the words' documents in every language: {page, other} (only the first SHOWN of
     page and SHOWN_OTHER of other are certain), or {blocked: languages not proven, open}
     when tiers are needed. */
  function rank(words) {
    var pr = S.exhaustive || S.noPairs ? null : pick(words);
    var sc = score(words, pr), page = [], other = [], blocked = [], anyMode = words.some(function (w) { return !w.expansions.length; });
    for (var li = 0; li < meta.langs.length; li++) {
      var mineLang = meta.langs[li][0] === S.lang;
      var ranked = combine(sc, words.length, li, mineLang ? SHOWN : SHOWN_OTHER, anyMode);
      if (!ranked) blocked.push(li);
      else if (mineLang) {
        page = ranked.slice();
        page.states = exactOf(ranked, sc, words.length, words.lengths, li);
        page.lens = page.states.map(function (x, i) { return meta.norms[sc.titleLen[ranked[i][0]]]; });
      }
      else other = other.concat(ranked.slice(0, SHOWN_OTHER));
    }
    if (blocked.length) return { blocked: blocked, open: sc.open, groupFile: pr && !pr.data ? "search/p/" + pr.k + ".js" : null };
    other.sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; });
    return { page: page, other: other, words: words };
  }
  /* Ranks, loading tiers until the results are proven. In each language not proven yet, the
     next tier of the expansion with the largest bound is loaded (that bound is its word's,
     the one that keeps the most documents in doubt), together with the next tiers of the
     expansions whose bounds are within BATCH of it; then the proof runs again with the
     tighter bounds. It always ends, at the latest once every tier is in (then all is exact).
     With S.exhaustive set (for tests), every tier of every expansion is loaded first: the
     ranking must be the same. A run that a newer one has replaced (the next keystroke)
     stops loading and fails: its results would not be shown, and its tiers would only slow
     the newer run down. */
  function settle(words, ticket) {
    var want = new Set(), r;
    if (ticket !== runs) return Promise.reject(new Error("replaced by a newer search"));
    if (S.exhaustive) {
      words.forEach(function (w) {
        w.expansions.forEach(function (e) {
          var p = postingsOf(e[0]);
          if (p.files) p.files.forEach(function (fs) { fs.forEach(function (k) { if (!tails[k]) want.add("search/r/" + k + ".js"); }); });
        });
      });
    } else {
      r = rank(words);
      if (!r.blocked) return Promise.resolve(r);
      // a group head first: it proves most queries of common words without their tiers
      if (r.groupFile) want.add(r.groupFile);
      else r.blocked.forEach(function (li) {
        var top = null;
        r.open.forEach(function (o) {
          if (o.bound[li] > 0 && (!top || o.bound[li] > top.bound[li])) top = o;
        });
        if (!top) return;
        // the expansions' shards not loaded yet whose bounds are at least SHARD_FIRST of the
        // largest go before its tier, in one round: per byte they tighten the proof as much
        var small = top.p && !S.tiersFirst ? r.open.filter(function (o) { return !o.p && o.bound[li] >= top.bound[li] * SHARD_FIRST; }) : [];
        if (small.length) {
          small.forEach(function (o) { want.add("search/t/" + shardOf(o.term) + ".js"); });
          return;
        }
        r.open.forEach(function (o) {
          if (o === top || (top.p && o.p && o.bound[li] >= top.bound[li] * BATCH)) {
            want.add(o.p ? "search/r/" + nextFile(o.p, li) + ".js" : "search/t/" + shardOf(o.term) + ".js");
          }
        });
      });
    }
    if (!want.size) return Promise.resolve(rank(words));
    return Promise.all(Array.from(want).map(function (src) {
      return script(src);
    })).then(function () { return S.exhaustive ? rank(words) : settle(words, ticket); });
  }

  var runs = 0;
  /* Runs a query: resolves to {page: [[doc, score]…], other: […], words}. */
  function run(q) {
    var ticket = ++runs;
    return ready().then(function () {
      var words = plan(q), need = new Set();
      if (!words.length) return { page: [], other: [], words: words };
      words.forEach(function (w) {
        if (!w.expansions) {
          need.add(shardOf(w.term));
          if (w.numberPrefix) numberShards(w.numberPrefix).forEach(function (k) { need.add(k); });
          return;
        }
        // a word's exact matches and first prefix matches are loaded at once; its typo
        // expansions too when it has nothing closer; the others only when their bound could
        // change the results
        var close = w.expansions.some(function (e) { return e[1] > FUZZY_WEIGHT; }), first = firstPrefixes(w);
        w.expansions.forEach(function (e) {
          if (e[1] === PREFIX_WEIGHT && !S.exhaustive && !first.has(e[0])) return;
          if (S.exhaustive || !close || e[1] > FUZZY_WEIGHT) need.add(shardOf(e[0]));
        });
      });
      return Promise.all(Array.from(need).map(function (k) {
        return shards[k] ? null : script("search/t/" + k + ".js");
      })).then(function () {
        words.forEach(function (w) {
          if (w.expansions) return;
          w.expansions = shards[shardOf(w.term)].hasOwnProperty(w.term) ? [[w.term, 1]] : [];
          if (w.numberPrefix) w.expansions = w.expansions.concat(numberCompletions(w.numberPrefix)).slice(0, MAX_EXPANSIONS);
        });
        return settle(words, ticket);
      }).then(namedFirst).then(function (r) { return spelledFirst(r, q); });
    });
  }
  /* The PREFIX_FIRST prefix expansions of a word that could add the most to a document of
     the page's language: their shards are loaded with the word's own; the others' bounds
     stand in for them until they could change the results (settle(), as for typo
     expansions). */
  function firstPrefixes(w) {
    var li = 0;
    meta.langs.forEach(function (l, n) { if (l[0] === S.lang) li = n; });
    return new Set(w.expansions.filter(function (e) { return e[1] === PREFIX_WEIGHT; })
      .sort(function (a, b) { return scoreBound(b[0], li) - scoreBound(a[0], li) || (a[0] < b[0] ? -1 : 1); })
      .slice(0, PREFIX_FIRST).map(function (e) { return e[0]; }));
  }
  function docsOf(list) {
    var need = new Set();
    list.forEach(function (h) { need.add(Math.floor(h[0] / meta.chunk)); });
    return Promise.all(Array.from(need).map(function (k) {
      return chunks[k] ? null : script("search/d/" + k + ".js");
    })).then(function () {
      return list.map(function (h) {
        var row = chunks[Math.floor(h[0] / meta.chunk)][h[0] % meta.chunk];
        return { doc: h[0], score: h[1], glossary: row[0] === 1, section: row[1], title: row[2], chapter: row[3], url: row[4], text: row[5], shownIn: row[6] || [], names: row[7] || [] };
      });
    });
  }
  /* Public for tests and tools: the ranked documents of a query in a language. */
  S.query = function (q, lang) {
    var keep = S.lang;
    S.lang = lang || S.lang;
    return run(q).then(function (r) {
      S.lang = keep;
      return docsOf(r.page.slice(0, SHOWN)).then(function (hits) { return hits; });
    });
  };

  /* ---- the search box ---- */
  /* `entered`: the search (its `seq`) that Enter was pressed for before its results were on
     screen; they open its first result as soon as they are */
  var input, box, status, active = -1, seq = 0, entered = -1;
  /* What a screen reader is told of a search shown (a live region: the list itself is only
     read when the reader moves into it). */
  function tell(text) { if (status) status.textContent = text; }

  function href(url) {
    if (location.protocol === "file:") url = url.replace(/\/(#|$)/, "/index.html$1");
    return root + url;
  }
  function marked(el, text, terms) {
    var toks = window.RulebookAnalyzer.tokenize(text), at = 0;
    toks.forEach(function (t) {
      if (!terms.has(t.term)) return;
      el.appendChild(doc.createTextNode(text.slice(at, t.start)));
      var m = doc.createElement("mark");
      m.textContent = text.slice(t.start, t.end);
      el.appendChild(m);
      at = t.end;
    });
    el.appendChild(doc.createTextNode(text.slice(at)));
  }
  /* The passage of `text` around its first matched word, as src/search/snippet.rs cuts it
     for the command line: from four words before it, about SNIPPET_CHARS characters, never
     cutting a word; the matched words marked. */
  function snippet(el, text, terms) {
    var toks = window.RulebookAnalyzer.tokenize(text), first = -1, i, start = 0, end, n = 0, at;
    for (i = 0; i < toks.length; i++) if (terms.has(toks[i].term)) { first = i; break; }
    if (first >= 4) start = toks[first - 4].start;
    end = start;
    while (end < text.length && n < SNIPPET_CHARS) { end += text.codePointAt(end) > 0xffff ? 2 : 1; n++; }
    if (end < text.length) {
      for (i = 0; i < toks.length; i++) if (toks[i].start < end && toks[i].end > end) { end = toks[i].start; break; }
    }
    if (start > 0) el.appendChild(doc.createTextNode("…"));
    at = start;
    toks.forEach(function (t) {
      if (!terms.has(t.term) || t.start < start || t.end > end) return;
      el.appendChild(doc.createTextNode(text.slice(at, t.start)));
      var m = doc.createElement("mark");
      m.textContent = text.slice(t.start, t.end);
      el.appendChild(m);
      at = t.end;
    });
    el.appendChild(doc.createTextNode(text.slice(at, end) + (end < text.length ? "…" : "")));
  }
  /* Fills `li` with the result `h`: a link with its title, chapter and snippet. */
  function item(li, h, terms) {
    var a = doc.createElement("a"), t = doc.createElement("span");
    var c = doc.createElement("span"), s = doc.createElement("span");
    /* a chapter this page's language shows from another (not translated yet): its page in
       this language, where the reader stays in their language's site */
    var url = h.url, slash = url.indexOf("/");
    /* the result's text is in the language its address begins with: said so, for a screen
       reader to read it in that language's voice */
    var textLang = slash > 0 ? url.slice(0, slash) : S.lang;
    if (textLang !== S.lang) a.lang = textLang;
    if (h.shownIn.indexOf(S.lang) >= 0 && slash > 0) url = S.lang + url.slice(slash);
    a.href = href(url);
    /* out of the Tab order: the arrows choose a result (`aria-activedescendant`), and Tab
       leaves the box, which closes the panel; tabbing through it, only the results loaded so
       far were reached, and the open panel covered what the focus went to next */
    a.tabIndex = -1;
    a.className = "search-hit" + (h.glossary ? " search-glossary" : "");
    t.className = "search-title";
    if (h.section) {
      var n = doc.createElement("span");
      n.className = "secnum";
      n.textContent = h.section;
      t.appendChild(n);
      t.appendChild(doc.createTextNode(" "));
    }
    marked(t, h.title, terms);
    c.className = "search-chapter";
    c.textContent = h.chapter;
    s.className = "search-snippet";
    snippet(s, h.text, terms);
    a.appendChild(t); a.appendChild(c); a.appendChild(s);
    li.textContent = "";
    li.classList.remove("search-wait");
    li.removeAttribute("aria-busy");
    li.hit = null;
    li.appendChild(a);
    /* Enter was pressed on it while it loaded */
    if (li.go) follow(a);
    return li;
  }
  /* Goes to a result. One on this page is only a jump: the panel closes, or it would stay
     open over the section it jumped to. */
  function follow(a) {
    /* the side-by-side view goes on, as a click on the result keeps it (site.js) */
    if (window.Rulebook && Rulebook.withPair) Rulebook.withPair(a);
    if (a.pathname === location.pathname && a.search === location.search) close();
    location.href = a.href;
  }
  /* Loads the details of placeholders that came into view, then fills them. */
  function fill(lis, terms, mine) {
    busy(mine, 1);
    docsOf(lis.map(function (li) { return li.hit; })).then(function (hits) {
      if (mine !== seq) return;
      hits.forEach(function (h, i) { item(lis[i], h, terms); });
    }).catch(function () {}).then(function () { busy(mine, -1); });
  }
  /* Counts the loads in flight for the current query: the results box is aria-busy while
     any is (screen readers wait for it, and so can tests). */
  var inFlight = 0;
  function busy(mine, by) {
    if (mine !== seq) return;
    inFlight += by;
    if (inFlight > 0) box.setAttribute("aria-busy", "true");
    else box.removeAttribute("aria-busy");
  }
  var watcher = null;
  function unwatch() {
    if (watcher) watcher.disconnect();
    watcher = null;
    inFlight = 0;
    if (box) box.removeAttribute("aria-busy");
  }
  /* Shows the results: `first` are the details of the first of `page`; the rest of `page`
     and all of `other` ([doc, score] pairs) start as placeholders. */
  function show(page, other, first, words, mine) {
    var terms = new Set(), waiting = [];
    words.forEach(function (w) { w.expansions.forEach(function (e) { terms.add(e[0]); }); });
    unwatch();
    box.textContent = "";
    active = -1;
    input.removeAttribute("aria-activedescendant");
    var n = 0;
    if (!page.length && !other.length) {
      var p = doc.createElement("p");
      p.className = "search-empty";
      p.textContent = box.getAttribute("data-no-results");
      box.appendChild(p);
      tell(p.textContent);
    } else {
      tell((status && status.getAttribute("data-found") || "{n}").replace("{n}", page.length + other.length));
    }
    [[page, null], [other, box.getAttribute("data-other")]].forEach(function (part) {
      if (!part[0].length) return;
      if (part[1]) {
        var h = doc.createElement("p");
        h.className = "search-other";
        h.textContent = part[1];
        box.appendChild(h);
      }
      var ol = doc.createElement("ol");
      ol.className = "search-list";
      /* the combobox pattern: the arrows move aria-activedescendant over the options, so a
         screen reader announces the result the arrows reach (move()) */
      ol.setAttribute("role", "listbox");
      ol.setAttribute("aria-label", part[1] || input.getAttribute("aria-label") || "");
      part[0].forEach(function (hit, i) {
        var li = doc.createElement("li");
        li.id = "search-option-" + n++;
        li.setAttribute("role", "option");
        li.setAttribute("aria-selected", "false");
        if (part[0] === page && i < first.length) item(li, first[i], terms);
        else {
          li.className = "search-wait";
          li.setAttribute("aria-busy", "true");
          li.textContent = "…";
          li.hit = hit;
          waiting.push(li);
        }
        ol.appendChild(li);
      });
      box.appendChild(ol);
    });
    box.hidden = false;
    fitBox();
    input.setAttribute("aria-expanded", "true");
    if (!waiting.length) return;
    if (!window.IntersectionObserver) { fill(waiting, terms, mine); return; }
    // busy until the observer's first report, which says which placeholders are in view
    var first = true;
    busy(mine, 1);
    watcher = new IntersectionObserver(function (entries) {
      var due = [];
      entries.forEach(function (e) {
        if (e.isIntersecting && e.target.hit) { due.push(e.target); watcher.unobserve(e.target); }
      });
      if (due.length) fill(due, terms, mine);
      if (first) { first = false; busy(mine, -1); }
    }, { root: box, rootMargin: "0px 0px 48px 0px" });
    waiting.forEach(function (li) { watcher.observe(li); });
  }
  function update() {
    var q = input.value, mine = ++seq, t0 = performance.now();
    if (!q.trim()) { close(); return; }
    run(q).then(function (r) {
      if (mine !== seq) return null;
      var page = r.page.slice(0, SHOWN);
      return docsOf(page.slice(0, EAGER)).then(function (first) {
        if (mine !== seq) return;
        show(page, r.other.slice(0, SHOWN_OTHER), first, r.words, mine);
        S.lastMillis = performance.now() - t0;
        box.setAttribute("data-query", q);
        if (entered === mine) {
          entered = -1;
          var li = box.querySelector(".search-list > li"), a = li && li.querySelector("a.search-hit");
          if (a) follow(a);
          else if (li && li.hit) li.go = true;
        }
      });
    }).catch(function (e) {
      if (mine !== seq) return;
      /* a part of the index that cannot be loaded: offline, and not read before; anything
         else is no connection's fault, and saying so would send the reader looking for one */
      var p = doc.createElement("p"), lost = e && e.unavailable;
      if (!lost && window.console) console.error(e);
      p.className = "search-empty search-error";
      p.textContent = box.getAttribute(lost ? "data-unavailable" : "data-failed") || String(e && e.message || e);
      tell(p.textContent);
      box.textContent = "";
      box.appendChild(p);
      box.hidden = false;
      fitBox();
    });
  }
  /* The panel is wider than a narrow search box (search.css): moved left as far as it must
     to stay inside the window, which it overran on phones and mid-width windows. */
  function fitBox() {
    box.style.left = "";
    if (box.hidden) return;
    var r = box.getBoundingClientRect(), vw = doc.documentElement.clientWidth;
    var over = Math.min(r.right - (vw - 8), r.left - 8);
    if (over > 0) box.style.left = -Math.ceil(over) + "px";
  }
  function close() {
    seq++;
    unwatch();
    input.removeAttribute("aria-activedescendant");
    box.hidden = true;
    box.textContent = "";
    box.removeAttribute("data-query");
    input.setAttribute("aria-expanded", "false");
    tell("");
  }
  /* Arrows move over every result, placeholders included: bringing one into view loads it. */
  function move(by) {
    var items = box.querySelectorAll(".search-list > li");
    if (!items.length) return;
    if (active >= 0 && items[active]) {
      items[active].classList.remove("active");
      items[active].setAttribute("aria-selected", "false");
    }
    active = (active + by + items.length) % items.length;
    items[active].classList.add("active");
    items[active].setAttribute("aria-selected", "true");
    input.setAttribute("aria-activedescendant", items[active].id);
    items[active].scrollIntoView({ block: "nearest" });
  }
  function keys(e) {
    if (e.key === "ArrowDown") { e.preventDefault(); move(1); }
    else if (e.key === "ArrowUp") { e.preventDefault(); move(-1); }
    else if (e.key === "Enter") {
      /* typed and entered at once (a phone keyboard's "Go"): what is on screen is the last
         query's results, or none; the first result of this one opens once it is shown */
      if (active < 0 && input.value.trim() && box.getAttribute("data-query") !== input.value) {
        e.preventDefault();
        entered = seq;
        return;
      }
      var items = box.querySelectorAll(".search-list > li"), li = items[active >= 0 ? active : 0];
      var a = li && li.querySelector("a.search-hit");
      if (li) e.preventDefault();
      if (a) follow(a);
      /* a placeholder still loading: go once it is filled (see `item`) */
      else if (li && li.hit) li.go = true;
    } else if (e.key === "Escape" && !box.hidden) {
      /* the first Escape closes the results and keeps the query (a search box clears its
         text on Escape: that is the next one); the focus stays in the box */
      e.preventDefault();
      close();
    }
  }

  function init() {
    input = doc.getElementById("search-input");
    box = doc.getElementById("search-results");
    status = doc.getElementById("search-status");
    root = doc.body.getAttribute("data-root") || "";
    S.lang = doc.documentElement.lang;
    doc.addEventListener("keydown", function (e) {
      var t = e.target, tag = t && t.tagName;
      if (e.key === "/" && input && t !== input && !(tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (t && t.isContentEditable))) {
        e.preventDefault();
        /* without preventScroll, focusing the box in the sticky header scrolled the page up
           by about a screen, and the reader lost their place */
        input.focus({ preventScroll: true });
      }
    });
    if (input && box) {
      input.addEventListener("focus", function () { ready().catch(function () {}); });
      input.addEventListener("input", update);
      input.addEventListener("keydown", keys);
      window.addEventListener("resize", fitBox);
      doc.addEventListener("click", function (e) {
        if (!box.hidden && !box.contains(e.target) && e.target !== input) close();
      });
      /* a click on a result on this page: the panel closes once the jump is made */
      box.addEventListener("click", function (e) {
        var a = e.target.closest && e.target.closest("a.search-hit");
        if (a && a.pathname === location.pathname && a.search === location.search) setTimeout(close, 0);
      });
      /* the focus moved on from the search (Tab, a click on a link): the panel closes, or it
         stayed open over what the focus went to. A click on no control moves the focus to
         no element: the click handler above decides then. */
      input.parentNode.addEventListener("focusout", function (e) {
        var to = e.relatedTarget;
        if (to && !box.hidden && !input.parentNode.contains(to)) close();
      });
      /* Escape closes the results wherever the focus went (a click in the page, a jump) */
      doc.addEventListener("keydown", function (e) {
        if (e.key === "Escape" && !box.hidden && e.target !== input) close();
      });
    }
    if ("serviceWorker" in navigator && /^https?:$/.test(location.protocol)) {
      navigator.serviceWorker.register(root + "sw.js").catch(function () {});
      /* A new build's worker took over this page (sw.js claims open pages and drops the old
         cache): the index read so far is the old build's, and its words no longer match the
         new parts still to load. Read it again, as `rulebook serve` makes it do. The first
         worker of a first visit replaces none: the index read came from the network. */
      var had = navigator.serviceWorker.controller;
      navigator.serviceWorker.addEventListener("controllerchange", function () {
        if (had) S.reset();
        had = navigator.serviceWorker.controller;
      });
    }
  }
  if (doc.readyState === "loading") doc.addEventListener("DOMContentLoaded", init);
  else init();
})();
