//! Search quality on the default content, as tables: word forms of one word find the same
//! top 5, spelling variants find identical results, and a one-letter typo still finds the
//! intended section in the top 3. Each table prints its score; the targets are the issue's.

use std::path::Path;

use crate::common::*;

/// URLs of the top `n` Ukrainian results.
fn top(site: &Path, q: &str, n: usize) -> Vec<String> {
    top_in(site, "uk", q, n)
}

/// URLs of the top `n` results in `lang`.
fn top_in(site: &Path, lang: &str, q: &str, n: usize) -> Vec<String> {
    let n = n.to_string();
    search_json(site, &["--lang", lang, "--limit", &n, q])
        .iter()
        .map(|h| h["url"].as_str().unwrap().to_string())
        .collect()
}

/// Forms of one Ukrainian word. Target: the same top 5 for ≥ 90 % of the groups.
const FORMS: &[&[&str]] = &[
    &[
        "пломенекровний",
        "пломенекровного",
        "пломенекровним",
        "пломенекровних",
        "пломенекровні",
    ],
    &["кубик", "кубика", "кубиків", "кубики", "кубиками"],
    &["гравець", "гравця", "гравців", "гравцю", "гравцем"],
    &["карта", "карти", "карту", "картою", "карт"],
    &["жетон", "жетони", "жетонів", "жетона", "жетонами"],
    &["боєць", "бійця", "бійців", "бійцю"],
    &["резерв", "резерві", "резерву"],
    &["виснаження", "виснаженням", "виснаженню"],
    &["здібність", "здібності", "здібністю"],
    &["властивість", "властивості", "властивостей"],
    &["колода", "колоди", "колоду", "колодою"],
    &["химера", "химери", "химері", "химеру"],
    &["ритуал", "ритуалу", "ритуалом"],
    &["раунд", "раунду", "раунди", "раундів"],
    &["відновлення", "відновленням"],
    &["атака", "атаки", "атаку", "атакою"],
    &["союзник", "союзника", "союзники", "союзників"],
    &["активація", "активації", "активацію"],
    &["вартість", "вартості", "вартістю"],
    &["ефект", "ефекту", "ефекти", "ефектів"],
    &["символ", "символи", "символів", "символом"],
    &["значення", "значень"],
    &["зачарування", "зачаруванням"],
    &["природа", "природи", "природою"],
    &["магія", "магії", "магією"],
    &["знищення", "знищенням"],
    &["виклик", "виклику", "викликом"],
    &["закляття", "заклять", "закляттям", "закляттях"],
    &["сила", "сили", "силою", "силу"],
    &["пам'ятка", "пам'ятки", "пам'ятку"],
];

/// Spellings of one query. Target: identical results (all of them) for 100 %.
const VARIANTS: &[&[&str]] = &[
    &["ім'я", "ім’я", "імʼя", "ім‘я", "ім`я"],
    &["пам'ятки", "пам’ятки", "памʼятки"],
    &["п'ятірку", "п’ятірку", "пʼятірку"],
    &["закляття", "закля\u{301}ття", "ЗАКЛЯТТЯ", "зaкляття"],
    &["кубик", "кyбик", "КУБИК", "кубiк"],
    &[
        "жетон виснаження",
        "жeтoн виснаження",
        "Жетон Висна\u{301}ження",
    ],
    &["пломенекровний", "пломе\u{AD}некровний", "плoменекрoвний"],
    &["арґаєю", "АРҐАЄЮ", "арґ\u{301}аєю"],
    &["й", "и\u{306}"],
    &["відновлення", "вiдновлення", "ВIДНОВЛЕННЯ"],
];

/// Words of 5+ letters; each is typed with several one-letter typos.
const TYPO_WORDS: &[&str] = &[
    "закляття",
    "пломенекровний",
    "виснаження",
    "кубиків",
    "гравець",
    "резерв",
    "химера",
    "союзник",
    "ритуалу",
    "зачарування",
    "властивість",
    "здібність",
    "відновлення",
    "колода",
    "вартість",
    "символ",
    "жетони",
    "активації",
    "природи",
    "знищення",
    "підготовки",
    "бонусу",
];

fn typos(word: &str) -> Vec<String> {
    let w: Vec<char> = word.chars().collect();
    let mid = w.len() / 2;
    let mut sub = w.clone();
    sub[mid] = if sub[mid] == 'о' { 'а' } else { 'о' };
    let mut del = w.clone();
    del.remove(mid + 1);
    let mut swap = w.clone();
    swap.swap(1, 2);
    let mut ins = w.clone();
    ins.insert(w.len() - 1, 'і');
    [sub, del, swap, ins]
        .iter()
        .map(|v| v.iter().collect())
        .collect()
}

#[test]
fn word_forms_find_the_same_top_five() {
    let d = default_site();
    let mut same = 0;
    let mut differ = Vec::new();
    for group in FORMS {
        let first = top(d.path(), group[0], 5);
        assert!(!first.is_empty(), "{} finds nothing", group[0]);
        let odd: Vec<&str> = group[1..]
            .iter()
            .copied()
            .filter(|f| top(d.path(), f, 5) != first)
            .collect();
        if odd.is_empty() {
            same += 1;
        } else {
            differ.push(format!("{}: {odd:?}", group[0]));
        }
    }
    let pct = same as f64 * 100.0 / FORMS.len() as f64;
    println!(
        "word forms: {same}/{} groups with the same top 5 ({pct:.1} %)",
        FORMS.len()
    );
    for d in &differ {
        println!("  differs: {d}");
    }
    assert!(pct >= 90.0, "{differ:#?}");
}

#[test]
fn spelling_variants_find_identical_results() {
    let d = default_site();
    let mut failed = Vec::new();
    let mut total = 0;
    for row in VARIANTS {
        let first = top(d.path(), row[0], 50);
        for v in &row[1..] {
            total += 1;
            if top(d.path(), v, 50) != first {
                failed.push(format!("{v} vs {}", row[0]));
            }
        }
    }
    println!(
        "spelling variants: {}/{total} identical",
        total - failed.len()
    );
    assert!(failed.is_empty(), "{failed:#?}");
}

#[test]
fn one_letter_typos_still_find_the_section() {
    let d = default_site();
    let mut found = 0;
    let mut total = 0;
    let mut missed = Vec::new();
    for w in TYPO_WORDS {
        let want = top(d.path(), w, 1);
        assert_eq!(want.len(), 1, "{w} finds nothing");
        for t in typos(w) {
            total += 1;
            if top(d.path(), &t, 3).contains(&want[0]) {
                found += 1;
            } else {
                missed.push(format!("{t} (for {w})"));
            }
        }
    }
    let pct = found as f64 * 100.0 / total as f64;
    println!("typos: {found}/{total} find the intended section in the top 3 ({pct:.1} %)");
    for m in &missed {
        println!("  missed: {m}");
    }
    assert!(pct >= 90.0, "{missed:#?}");
}

/// English words of 5+ letters with one-letter typos, several in the ending, where the
/// stemmer finds no ending it knows and keeps the whole word (`conjuraton`).
const EN_TYPOS: &[(&str, &[&str])] = &[
    (
        "conjuration",
        &["conjuraton", "conjuratoin", "conjurationn", "cinjuration"],
    ),
    ("meditation", &["meditaton", "meditatoin", "medtation"]),
    ("destruction", &["destrucion", "destructoin", "desrtuction"]),
    ("alteration", &["alteraton", "altreation", "alterationn"]),
    (
        "exhaustion",
        &["exhaustiin", "exhaustionn", "exhastion", "exhuastion"],
    ),
    ("discarding", &["discradng", "discardnig", "discaring"]),
    (
        "phoenixborn",
        &["phoenixbron", "pheonixborn", "phoenixborns"],
    ),
    ("spellboard", &["spelboard", "spellbaord", "spellboardd"]),
    (
        "battlefield",
        &["battlefeild", "batlefield", "battlefieldd"],
    ),
    ("reaction", &["reacton", "raection", "reactoin"]),
];

/// The English side: the same target as [`one_letter_typos_still_find_the_section`].
#[test]
fn english_typos_still_find_the_section() {
    let d = default_site();
    let (mut found, mut total, mut missed) = (0, 0, Vec::new());
    for (w, typos) in EN_TYPOS {
        let want = top_in(d.path(), "en", w, 1);
        assert_eq!(want.len(), 1, "{w} finds nothing");
        for t in *typos {
            total += 1;
            if top_in(d.path(), "en", t, 3).contains(&want[0]) {
                found += 1;
            } else {
                missed.push(format!("{t} (for {w})"));
            }
        }
    }
    let pct = found as f64 * 100.0 / total as f64;
    println!("English typos: {found}/{total} find the intended section in the top 3 ({pct:.1} %)");
    assert!(pct >= 90.0, "{missed:#?}");
}

/// Everyday words the book does not have, nor one typo away from one of its words. Typos are
/// matched on stems, and the stems of long words can be short (`медитувати` → `медит`,
/// `працювати` → `прац`): such a word must not find unrelated sections through a typo of
/// its stem. Target: each finds nothing.
const ABSENT: &[(&str, &str)] = &[
    ("uk", "медитувати"),
    ("uk", "малювати"),
    ("uk", "танцювати"),
    ("uk", "готувати"),
    ("uk", "працювати"),
    ("uk", "подорожувати"),
    ("uk", "фотографувати"),
    ("uk", "телефонувати"),
    ("uk", "читати"),
    ("uk", "співати"),
    ("uk", "снідати"),
    ("uk", "велосипед"),
    ("uk", "парасолька"),
    ("uk", "університет"),
    ("en", "telephone"),
    ("en", "umbrella"),
    ("en", "bicycle"),
    ("en", "kitchen"),
    ("en", "hospital"),
    ("en", "coffee"),
];

#[test]
fn words_the_book_does_not_have_find_nothing() {
    let d = default_site();
    let found: Vec<String> = ABSENT
        .iter()
        .filter_map(|(lang, w)| {
            let hits = top_in(d.path(), lang, w, 10);
            (!hits.is_empty()).then(|| format!("{lang} {w}: {hits:?}"))
        })
        .collect();
    println!(
        "absent words: {}/{} find nothing",
        ABSENT.len() - found.len(),
        ABSENT.len()
    );
    assert!(found.is_empty(), "{found:#?}");
}

/// Queries with little words (`на`, `і`, `a`) find what the same query without them finds
/// first: every word must match, and a little word is not what the user looks for.
#[test]
fn little_words_do_not_lose_the_entry() {
    let d = default_site();
    for (lang, q, without) in [
        ("uk", "на полі бою", "полі бою"),
        ("uk", "стос скиду і", "стос скиду"),
        ("uk", "жетон виснаження на карті", "жетон виснаження карті"),
        ("en", "attack a unit", "attack unit"),
        ("en", "the first player", "first player"),
    ] {
        let want = top_in(d.path(), lang, without, 1);
        assert_eq!(want.len(), 1, "{without} finds nothing");
        assert_eq!(top_in(d.path(), lang, q, 1), want, "{q}");
    }
}

/// A glossary entry searched by its name (as the glossary writes it) comes first: rank.rs
/// step 5 puts the results whose title is exactly the query before longer titles that
/// contain it. Target: ≥ 90 % of the default glossaries' names (before step 5: 188 of 218;
/// 200 with it; 203 since a little word between two words counts in the length; 214 with
/// step 6, the title spelled as typed first).
#[test]
fn a_glossary_entry_searched_by_its_name_comes_first() {
    let d = default_site();
    let (mut first, mut total, mut missed) = (0, 0, Vec::new());
    for lang in ["uk", "en"] {
        let path = d.path().join(format!("content/{lang}/glossary.json"));
        let g: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        for (key, v) in &g {
            let name = v["term"].as_str().unwrap_or(key);
            total += 1;
            let hits = search_json(d.path(), &["--lang", lang, "--limit", "1", name]);
            let top = hits.first().and_then(|h| h["title"].as_str()).unwrap_or("");
            if top.to_lowercase() == name.to_lowercase() {
                first += 1;
            } else {
                missed.push(format!("{lang} {name}: {top}"));
            }
        }
    }
    let pct = first as f64 * 100.0 / total as f64;
    println!("glossary names: {first}/{total} find their entry first ({pct:.1} %)");
    assert!(pct >= 90.0, "{missed:#?}");
    // the cases a review found: a longer entry that contains the name came first; and names
    // with a little word between two words, which counts in the query's length though it is
    // left out of its words
    for (lang, q, want) in [
        ("uk", "поле бою", "Поле бою"),
        ("uk", "полем бою", "Поле бою"),
        ("uk", "ПОЛЕ ЗАКЛЯТЬ", "Поле заклять"),
        ("uk", "значення життя", "Значення життя"),
        ("en", "winning and losing", "Winning and losing"),
        ("en", "play / in play", "Play / in play"),
        // word forms of one term: the title spelled as typed first (rank.rs step 6)
        ("en", "attack", "Attack"),
        ("en", "attacker", "Attacker"),
        ("en", "exhaust", "Exhaust"),
        ("en", "exhaustion token", "Exhaustion Token"),
        ("uk", "виснаження (карта)", "Виснаження (карта)"),
    ] {
        let hits = search_json(d.path(), &["--lang", lang, "--limit", "1", q]);
        assert_eq!(hits[0]["title"].as_str(), Some(want), "{q}");
    }
}

/// A glossary entry searched on one side by its name on the other side (a Ukrainian player on
/// the English pages types `поле бою`) comes first: one of its names is exactly the query
/// (rank.rs `named_exact`, step 5) and spelled as typed (step 6). Before, the words of every
/// name were weighed against the own name's length, and *Battlefield Value* (two words, with
/// `поля бою` in its Ukrainian name) came before *Battlefield*: 103 of the 110 first.
#[test]
fn a_glossary_entry_searched_by_its_other_languages_name_comes_first() {
    let d = default_site();
    let glossary = |lang: &str| -> serde_json::Map<String, serde_json::Value> {
        let path = d.path().join(format!("content/{lang}/glossary.json"));
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    let (uk, en) = (glossary("uk"), glossary("en"));
    let name = |key: &str, v: &serde_json::Value| v["term"].as_str().unwrap_or(key).to_string();
    let (mut first, mut total, mut missed) = (0, 0, Vec::new());
    for (key, u) in &uk {
        let Some(e) = en.get(key) else { continue };
        for (side, q, want) in [
            ("uk", name(key, e), name(key, u)),
            ("en", name(key, u), name(key, e)),
        ] {
            total += 1;
            let hits = search_json(d.path(), &["--lang", side, "--limit", "1", &q]);
            let top = hits.first().and_then(|h| h["title"].as_str()).unwrap_or("");
            if top.to_lowercase() == want.to_lowercase() {
                first += 1;
            } else {
                missed.push(format!("{side} {q}: {top}, want {want}"));
            }
        }
    }
    println!("other languages' names: {first}/{total} find their entry first");
    assert!(total >= 100, "{total} entries in both glossaries");
    // `Використаний (кубик)` is also the Ukrainian name of *Exhausted Dice*, word for word
    assert!(missed.len() <= 1, "{missed:#?}");
    for (lang, q, want) in [
        ("en", "поле бою", "Battlefield"),
        ("en", "поле заклять", "Spellboard"),
        (
            "en",
            "виснажена (карта)",
            "Exhausted (when referring to a card)",
        ),
        (
            "uk",
            "exhausted (when referring to a card)",
            "Виснажена (карта)",
        ),
        // an alias, shorter than the name it stands for
        (
            "en",
            "exhausted pool",
            "Exhausted Dice Pool (aka Exhausted Pool)",
        ),
    ] {
        let hits = search_json(d.path(), &["--lang", lang, "--limit", "1", q]);
        assert_eq!(hits[0]["title"].as_str(), Some(want), "{q}");
    }
}

/// Sections of the Ukrainian results (all of them).
fn sections(site: &Path, q: &str) -> Vec<String> {
    search_json(site, &["--lang", "uk", q])
        .iter()
        .map(|h| h["section"].as_str().unwrap().to_string())
        .collect()
}

/// `ґ` and `г` match each other, and the spelling typed ranks first (both ways).
#[test]
fn the_exact_spelling_with_or_without_g_ranks_first() {
    let d = spelling::spelling_site();
    let mut failed = Vec::new();
    for (q, want) in spelling::SPELLING_CASES {
        let got = sections(d.path(), q);
        if got != *want {
            failed.push(format!("{q}: {got:?}, want {want:?}"));
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
}
