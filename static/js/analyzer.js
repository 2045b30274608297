/* The site's text analyzer for the browser: the same rules as
 * src/search/analyzer.rs and src/search/stem_uk.rs (read their docs for the
 * why), so the offline search finds what the command-line index finds.
 * tests/analyzer_agreement.rs compares the two on thousands of inputs: change
 * both together. Offsets are UTF-16 indexes (what JavaScript strings use);
 * the Rust side gives byte offsets. Classic script, no modules: defines
 * window.RulebookAnalyzer = { tokenize, fold, stemWord, hasCyrillic } (and module.exports
 * under node). */
(function () {
  'use strict';
  var APOS = "'\u2019\u02BC\u2018`\u00B4\u2032\u02B9\u02BB";
  var LOOK = { a: 'а', c: 'с', e: 'е', i: 'і', o: 'о', p: 'р', x: 'х', y: 'у', k: 'к', m: 'м', t: 'т', h: 'н', b: 'в', 'ï': 'ї' };
  var MARK = /^\p{M}/u, ALNUM = /^[\p{Alphabetic}\p{N}]/u, ALPHA = /^\p{Alphabetic}/u;

  var memo = new Map();
  function lower(raw) {
    var c = raw.charCodeAt(0), s = memo.get(raw), ch;
    if (raw.length === 1 && c < 128) return c >= 65 && c <= 90 ? String.fromCharCode(c + 32) : raw;
    if (s !== undefined) return s;
    s = '';
    for (ch of raw.normalize('NFD')) if (ch !== '\u0301' && ch !== '\u00AD') s += ch.toLowerCase();
    s = s.normalize('NFC');
    if (memo.size > 5000) memo.clear();
    memo.set(raw, s);
    return s;
  }

  // Clusters: a non-mark character plus the marks and soft hyphens after it.
  function clusters(text) {
    var out = [], start = 0, i = 0, n = text.length, cp;
    function push(s, e) {
      var t = lower(text.slice(s, e)), f, k;
      if (!t) return;
      f = String.fromCodePoint(t.codePointAt(0));
      if (APOS.indexOf(f) >= 0) k = f.length === t.length ? 'A' : 'O';
      else k = t === '.' ? 'D' : ALNUM.test(f) ? 'W' : 'O';
      out.push({ t: t, k: k, s: s, e: e });
    }
    while (i < n) {
      cp = text.codePointAt(i);
      if (i > 0 && cp !== 0xAD && (cp < 0x300 || !MARK.test(String.fromCodePoint(cp)))) { push(start, i); start = i; }
      i += cp > 0xFFFF ? 2 : 1;
    }
    if (n) push(start, n);
    return out;
  }

  function isCyr(ch) {
    var c = ch.codePointAt(0);
    return ((c >= 0x400 && c <= 0x52F) || (c >= 0x1C80 && c <= 0x1C8F) || (c >= 0x2DE0 && c <= 0x2DFF) ||
      (c >= 0xA640 && c <= 0xA69F) || (c >= 0x1E030 && c <= 0x1E08F)) && ALPHA.test(ch);
  }
  function isLatin(ch) {
    var c = ch.codePointAt(0);
    return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ||
      (((c >= 0xC0 && c <= 0x24F) || (c >= 0x1E00 && c <= 0x1EFF)) && ALPHA.test(ch));
  }
  function hasCyr(w) { for (var ch of w) if (isCyr(ch)) return true; return false; }

  function mapLookAlikes(w) {
    var out = '', hit = false, ch;
    if (!hasCyr(w)) return w;
    for (ch of w) { if (LOOK.hasOwnProperty(ch)) { out += LOOK[ch]; hit = true; } else out += ch; }
    return hit ? out.normalize('NFC') : w;
  }

  // Word runs over the clusters: [first, last, folded text].
  function words(cl) {
    var out = [], i = 0, j, t, n = cl.length;
    function W(k) { return k < n && cl[k].k === 'W'; }
    function L(k) { return W(k) && ALPHA.test(cl[k].t); }
    while (i < n) {
      if (cl[i].k !== 'W') { i++; continue; }
      t = cl[i].t; j = i;
      for (;;) {
        if (W(j + 1)) { j++; t += cl[j].t; }
        else if (W(j + 2) && cl[j + 1].k === 'A' && L(j) && L(j + 2)) { t += "'" + cl[j + 2].t; j += 2; }
        else if (W(j + 2) && cl[j + 1].k === 'D' && /[0-9]$/.test(cl[j].t) && /^[0-9]/.test(cl[j + 2].t)) { t += '.' + cl[j + 2].t; j += 2; }
        else break;
      }
      out.push([i, j, mapLookAlikes(t)]);
      i = j + 1;
    }
    return out;
  }

  function tokenize(text) {
    var cl = clusters(String(text));
    return words(cl).map(function (w) {
      return { term: stemWord(w[2]), exact: w[2], start: cl[w[0]].s, end: cl[w[1]].e };
    });
  }

  function fold(text) {
    var cl = clusters(String(text)), out = '', k = 0;
    function rest(to) { for (; k < to; k++) out += cl[k].k === 'A' ? "'" : cl[k].t; }
    words(cl).forEach(function (w) { rest(w[0]); out += w[2]; k = w[1] + 1; });
    rest(cl.length);
    return out;
  }

  /* Longest English word that is stemmed (src/search/analyzer.rs MAX_STEMMED_CHARS): the
     English stemmer is quadratic in a word's length on some words (`yyyy…`). */
  var MAX_STEMMED = 64;
  var stems = new Map();
  function stemWord(w) {
    var latin = false, other = false, ch, n = 0, s = stems.get(w);
    if (s !== undefined) return s;
    if (hasCyr(w)) s = stemUk(w);
    else {
      for (ch of w) { n++; if (isLatin(ch)) latin = true; else if (ch !== "'") other = true; }
      s = latin && !other && n <= MAX_STEMMED ? stemEn(w) : w;
    }
    if (stems.size > 20000) stems.clear();
    stems.set(w, s);
    return s;
  }

  /* ---- Ukrainian: see the tables and reasons in src/search/stem_uk.rs ---- */
  var UK_END = {};
  ('а2 я2 о2 е2 є2 и2 і2 ї2 у2 ю2 й2 ам2 ям2 ах2 ях2 ами2 ями2 ою2 ею2 єю2 ом2 ем2 єм2 ів2 їв2 ей2 ові2 ' +
    'еві2 єві2 ьми2 ий2 ій2 ого2 ього2 ому2 ьому2 им2 ім2 их2 іх2 ими2 іми2 ої2 ьої2 ьою2 увати2 ювати2 ував2 ював2 ' +
    'увала2 ювала2 увало2 ювало2 ували2 ювали2 ую3 уєш3 ує3 уємо3 уєте3 ують3 уй3 уйте3 юю3 юєш3 ює3 юємо3 юєте3 ' +
    'юють3 юй3 юйте3 єш3 еш3 иш3 їш3 ємо3 емо3 имо3 імо3 їмо3 єте3 ете3 ите3 іте3 їте3 ють3 уть3 ати4 яти4 ити4 іти4 ' +
    'їти4 ути4 оти4 аю4 аєш4 ає4 аємо4 аєте4 ають4 айте4 яю4 яєш4 яє4 яємо4 яєте4 яють4 яйте4 ить4 іть4 їть4 йте4 ' +
    'ійте4 ьте4 ивши4 івши4 авши4 явши4 увши4 ять5 ать5').split(' ').forEach(function (e) { UK_END[e.slice(0, -1)] = +e.slice(-1); });
  var UK_IRR = { 'атаці': 'атак', 'бій': 'бій', 'боєм': 'бій', 'боєць': 'бійц', 'бої': 'бій', 'боїв': 'бій',
    'бою': 'бій', 'боям': 'бій', 'боями': 'бій', 'боях': 'бій', 'імен': 'ім', 'імена': 'ім', 'іменам': 'ім',
    'іменами': 'ім', 'іменах': 'ім', 'іменем': 'ім', 'імені': 'ім', 'хід': 'ход' }, UK_PART = ['уюч', 'ююч', 'юч', 'уч', 'ач', 'яч'];

  function endsA(a, suf) {
    var s = Array.from(suf), n = a.length - s.length, i;
    if (n < 0) return false;
    for (i = 0; i < s.length; i++) if (a[n + i] !== s[i]) return false;
    return true;
  }
  function stripA(a, suf, min) {
    var n = a.length - Array.from(suf).length;
    if (endsA(a, suf) && n >= min) { a.length = n; return true; }
    return false;
  }
  function replaceEnd(a, from, to, min) {
    if (endsA(a, from) && a.length >= min) { a.length -= Array.from(from).length; a.push.apply(a, Array.from(to)); }
  }

  function stemUk(word) {
    var a = Array.from(word).filter(function (c) { return c !== "'"; }).map(function (c) { return c === 'ґ' ? 'г' : c; }), i, e, n;
    if (UK_IRR.hasOwnProperty(a.join(''))) return UK_IRR[a.join('')];
    if (stripA(a, 'ся', 3) || stripA(a, 'сь', 3)) { if (endsA(a, 'еть') || endsA(a, 'єть')) a.length -= 2; }
    for (n = Math.min(5, a.length); n > 0; n--) { // longest first; no ending is longer than 5
      e = a.slice(a.length - n).join('');
      if (UK_END.hasOwnProperty(e) && a.length - n >= UK_END[e]) { a.length -= n; break; }
    }
    for (i = 0; i < UK_PART.length; i++) if (stripA(a, UK_PART[i], 4)) break;
    replaceEnd(a, 'ець', 'ц', 5);
    stripA(a, 'ь', 2);
    n = a.length;
    if (n >= 2 && a[n - 1] === a[n - 2] && 'бвгджзклмнпрстфхцчшщ'.indexOf(a[n - 1]) >= 0 && n >= 4) a.pop();
    replaceEnd(a, 'ок', 'к', 5);
    replaceEnd(a, 'іст', 'ост', 5);
    stripA(a, 'і', 3);
    return a.join('');
  }

  /* ---- English: Snowball English (Porter2) as in rust-stemmers 1.x ---- */
  var EN_EXC1 = { skis: 'ski', skies: 'sky', dying: 'die', lying: 'lie', tying: 'tie', idly: 'idl', gently: 'gentl',
    ugly: 'ugli', early: 'earli', only: 'onli', singly: 'singl', sky: 'sky', news: 'news', howe: 'howe',
    atlas: 'atlas', cosmos: 'cosmos', bias: 'bias', andes: 'andes' };
  var EN_EXC2 = ' succeed proceed exceed canning inning earring herring outing ';
  var EN_S2 = [['ational', 'ate'], ['tional', 'tion'], ['enci', 'ence'], ['anci', 'ance'], ['abli', 'able'],
    ['entli', 'ent'], ['izer', 'ize'], ['ization', 'ize'], ['ation', 'ate'], ['ator', 'ate'], ['alism', 'al'],
    ['aliti', 'al'], ['alli', 'al'], ['fulness', 'ful'], ['ousli', 'ous'], ['ousness', 'ous'], ['iveness', 'ive'],
    ['iviti', 'ive'], ['biliti', 'ble'], ['bli', 'ble'], ['fulli', 'ful'], ['lessli', 'less'], ['ogi', 'og'], ['li', '']];
  var EN_S3 = [['ational', 'ate'], ['tional', 'tion'], ['alize', 'al'], ['icate', 'ic'], ['iciti', 'ic'],
    ['ical', 'ic'], ['ful', ''], ['ness', ''], ['ative', '']];
  var EN_S4 = 'al ance ence er ic able ible ant ement ment ent ism ate iti ous ive ize ion'.split(' ').map(function (x) { return [x, '']; });
  [EN_S2, EN_S3, EN_S4].forEach(function (l) { l.sort(function (x, y) { return y[0].length - x[0].length; }); });

  function isV(c) { return c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u' || c === 'y'; }
  function shortV(a, e) {
    return (e >= 3 && !isV(a[e - 1]) && a[e - 1] !== 'w' && a[e - 1] !== 'x' && a[e - 1] !== 'Y' &&
      isV(a[e - 2]) && !isV(a[e - 3])) || (e === 2 && !isV(a[1]) && isV(a[0]));
  }
  // Index just past the first non-vowel that follows a vowel, from i on; -1 if none.
  function pastVC(a, i) {
    while (i < a.length && !isV(a[i])) i++;
    if (i >= a.length) return -1;
    while (i < a.length && isV(a[i])) i++;
    return i < a.length ? i + 1 : -1;
  }
  function ends(a, s) {
    var n = a.length - s.length, i;
    if (n < 0) return false;
    for (i = 0; i < s.length; i++) if (a[n + i] !== s[i]) return false;
    return true;
  }
  // The longest suffix of the list (sorted longest first) that ends `a`.
  function longest(a, list) { for (var i = 0; i < list.length; i++) if (ends(a, list[i][0])) return list[i]; return null; }
  function vowelBefore(a, end) { for (var i = 0; i < end; i++) if (isV(a[i])) return true; return false; }

  function stemEn(word) {
    var a, Y = false, i, n, p1, p2, m, L, b, x;
    if (EN_EXC1.hasOwnProperty(word)) return EN_EXC1[word];
    a = Array.from(word);
    if (a.length < 3) return word;
    if (a[0] === "'") a.shift();
    if (a[0] === 'y') { a[0] = 'Y'; Y = true; }
    for (i = 1; i < a.length; i++) if (a[i] === 'y' && isV(a[i - 1])) { a[i] = 'Y'; Y = true; }
    n = a.length; p1 = p2 = n;
    m = /^(gener|commun|arsen)/.exec(a.join(''));
    i = m ? m[1].length : pastVC(a, 0);
    if (i >= 0) { p1 = i; i = pastVC(a, i); if (i >= 0) p2 = i; }
    // Step 1a
    if (ends(a, "'s'")) a.length -= 3; else if (ends(a, "'s")) a.length -= 2; else if (ends(a, "'")) a.length -= 1;
    n = a.length;
    if (ends(a, 'sses')) a.length -= 2;
    else if (ends(a, 'ied') || ends(a, 'ies')) { a.length = n - 3; a.push.apply(a, n - 3 >= 2 ? ['i'] : ['i', 'e']); }
    else if (ends(a, 'ss') || ends(a, 'us')) { /* unchanged */ }
    else if (ends(a, 's') && vowelBefore(a, n - 2)) a.length = n - 1;
    if (EN_EXC2.indexOf(' ' + a.join('') + ' ') < 0) {
      // Step 1b
      if (ends(a, 'eedly') || ends(a, 'eed')) {
        L = ends(a, 'eedly') ? 5 : 3;
        if (a.length - L >= p1) { a.length -= L; a.push('e', 'e'); }
      } else {
        L = ends(a, 'ingly') ? 5 : ends(a, 'edly') ? 4 : ends(a, 'ing') ? 3 : ends(a, 'ed') ? 2 : 0;
        if (L && vowelBefore(a, a.length - L)) {
          a.length -= L; n = a.length;
          if (ends(a, 'at') || ends(a, 'bl') || ends(a, 'iz')) a.push('e');
          else if (n >= 2 && a[n - 1] === a[n - 2] && 'bdfgmnprt'.indexOf(a[n - 1]) >= 0) a.pop();
          else if (n === p1 && shortV(a, n)) a.push('e');
        }
      }
      // Step 1c
      n = a.length;
      if (n >= 3 && (a[n - 1] === 'y' || a[n - 1] === 'Y') && !isV(a[n - 2])) a[n - 1] = 'i';
      // Step 2
      x = longest(a, EN_S2);
      if (x && (b = a.length - x[0].length) >= p1) {
        if (x[0] === 'ogi') { if (a[b - 1] === 'l') { a.length = b; a.push('o', 'g'); } }
        else if (x[0] === 'li') { if ('cdeghkmnrt'.indexOf(a[b - 1]) >= 0 && b > 0) a.length = b; }
        else { a.length = b; a.push.apply(a, x[1].split('')); }
      }
      // Step 3
      x = longest(a, EN_S3);
      if (x && (b = a.length - x[0].length) >= p1 && (x[0] !== 'ative' || b >= p2)) { a.length = b; a.push.apply(a, x[1].split('')); }
      // Step 4
      x = longest(a, EN_S4);
      if (x && (b = a.length - x[0].length) >= p2 && (x[0] !== 'ion' || a[b - 1] === 's' || a[b - 1] === 't')) a.length = b;
      // Step 5
      n = a.length;
      if (a[n - 1] === 'e' && (n - 1 >= p2 || (n - 1 >= p1 && !shortV(a, n - 1)))) a.length = n - 1;
      else if (a[n - 1] === 'l' && n - 1 >= p2 && a[n - 2] === 'l') a.length = n - 1;
    }
    if (Y) for (i = 0; i < a.length; i++) if (a[i] === 'Y') a[i] = 'y';
    return a.join('');
  }

  var api = { tokenize: tokenize, fold: fold, stemWord: stemWord, hasCyrillic: hasCyr };
  if (typeof window !== 'undefined') window.RulebookAnalyzer = api;
  if (typeof module !== 'undefined' && module.exports) module.exports = api;
})();
