//! The command-line index and the browser index must cut and fold text alike,
//! or a word found by one is missed by the other. This test runs the
//! JavaScript analyzer (`static/js/analyzer.js`) under `node` and the Rust
//! analyzer on the same inputs and requires identical tokens: term, exact
//! form and offsets, plus identical `fold` output.
//!
//! Offsets: Rust gives byte offsets, JavaScript gives UTF-16 indexes (what its
//! strings are indexed by). The Rust offsets are converted to UTF-16 here.
//!
//! Inputs (all deterministic):
//! * every line and every whitespace-separated word of every file in
//!   `../shared/seeds` (beside the repository);
//! * a fixed table of tricky inputs;
//! * Ukrainian words with every ending of the stemmer and the reflexive
//!   endings added, so every rule runs on both sides;
//! * English words with Porter2's suffixes added, so every step runs;
//! * pseudo-random strings over the characters the rules care about.

use rulebook::search::analyzer::{fold, tokenize};
use rulebook::search::stem_uk::ENDINGS;
use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// Reads the seed texts as lines and words.
fn seed_inputs(out: &mut BTreeSet<String>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/seeds");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| {
            panic!("the seed texts must be in ../shared/seeds beside the repository: {e}")
        })
        .map(|e| e.expect("readable directory entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no seed texts in ../shared/seeds");
    for f in files {
        let bytes = std::fs::read(&f).expect("readable seed file");
        let text = String::from_utf8_lossy(&bytes);
        for line in text.lines() {
            if !line.trim().is_empty() {
                out.insert(line.to_string());
            }
            for w in line.split_whitespace() {
                out.insert(w.to_string());
            }
        }
    }
}

const TRICKY: &[&str] = &[
    "",
    " ",
    "\u{AD}",
    "\u{301}",
    "\u{301}а",
    "\u{306}",
    "и\u{306}",
    "И\u{306}",
    "знаи\u{306}ти и\u{306}ого",
    "ї і\u{308} Ї І\u{308} ï ï\u{301}х",
    "ро\u{301}зум РО\u{301}ЗУМ ро́зум",
    "пломе\u{AD}некровний пломенекровний\u{AD} \u{AD}пломенекровний",
    "ім'я ім’я імʼя ім‘я ім`я ім´я ім′я",
    "ім''я ім' 'ім ’я ʼ ʼʼ",
    "з'являється п’ятірка пам'ятки",
    "вiдповiдь ВIДПОВIДЬ кapтa KAPTA кaрта ЖETOH Y\u{306}і",
    "Арґаєю ҐАНОК ґ Ґ г\u{301}",
    "Phoenixbornа Ashesу мікс-mix mixед",
    "7.1.0 12.2.0 1.0.0. v2.0 3-х 1.a a.1 7..1 .5 5. 1,000 3.14",
    "😀 🔥x 👍🏽 ☃️ 🇺🇦 a😀b",
    "<:main:408070378204954629> <:side:123>",
    "player's players' 'quoted' rock'n'roll don't it’s",
    "İstanbul ΣΑΣ ß ẞ Ǆ ǅ ǆ ﬁ ﬀ",
    "λόγος Ελλάδα 日本語 한국어 ᄀ\u{1161} عربى",
    "café naïve résumé Ångström",
    "a\u{AD}\u{308}b А\u{AD}\u{308}m",
    "\u{200B}\u{200D}\u{FEFF}зона\u{200B}зона",
    "tab\tnew\nline\r\nend",
    "generously communication arsenal generate",
    "succeed proceeding exceeded canning innings earring herring outing",
    "skis skies dying lying tying idly gently ugly early only singly sky news howe atlas cosmos bias andes",
    "yelling sayyy Yoyo eyes by cry say",
    // around the longest English word that is stemmed (analyzer.rs `MAX_STEMMED_CHARS`)
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaing aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaing",
    "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy",
    "боєць бійця бійцем гравець гравця",
    "бій бою боєм бої боїв боям боями боях атаці атака імені іменем імена імен іменам іменами іменах",
    "пять п'ять пʼяти пяти імя ім'я пам'ять памяти",
];

/// Ukrainian words with every ending of the stemmer added.
fn ukrainian_inputs(seeds: &BTreeSet<String>, out: &mut BTreeSet<String>) {
    let mut stems = BTreeSet::new();
    for s in seeds {
        for t in tokenize(s) {
            if t.term.chars().any(|c| ('а'..='я').contains(&c)) {
                stems.insert(t.term);
            }
        }
    }
    for stem in stems.iter().take(120) {
        for (ending, _) in ENDINGS {
            out.insert(format!("{stem}{ending}"));
            out.insert(format!("{stem}{ending}ся"));
        }
        out.insert(format!("{stem}ься"));
        out.insert(format!("{stem}ець"));
        out.insert(format!("{stem}ок"));
        out.insert(format!("{stem}ість"));
        out.insert(format!("{stem}ннь"));
        out.insert(format!("{stem}'я"));
    }
}

/// English words with Porter2's suffixes added.
fn english_inputs(seeds: &BTreeSet<String>, out: &mut BTreeSet<String>) {
    const SUFFIXES: &[&str] = &[
        "", "s", "es", "ies", "ied", "sses", "us", "ss", "'s", "s'", "ed", "eed", "edly", "eedly",
        "ing", "ingly", "y", "ly", "li", "ational", "tional", "enci", "anci", "abli", "entli",
        "izer", "ization", "ation", "ator", "alism", "aliti", "alli", "fulness", "ousli",
        "ousness", "iveness", "iviti", "biliti", "bli", "ogi", "fulli", "lessli", "alize", "icate",
        "iciti", "ical", "ful", "ness", "ative", "al", "ance", "ence", "er", "ic", "able", "ible",
        "ant", "ement", "ment", "ent", "ism", "ate", "iti", "ous", "ive", "ize", "sion", "tion",
        "e", "ll", "at", "bl", "iz", "bb", "tt",
    ];
    let mut words = BTreeSet::new();
    for s in seeds {
        for t in tokenize(s) {
            if t.exact.chars().all(|c| c.is_ascii_lowercase()) {
                words.insert(t.exact);
            }
        }
    }
    for w in words.iter().step_by(7).take(150) {
        for suffix in SUFFIXES {
            out.insert(format!("{w}{suffix}"));
        }
    }
}

/// Pseudo-random strings over the characters the rules care about.
fn random_inputs(out: &mut BTreeSet<String>) {
    let alphabet: Vec<char> =
        "aeiouybcdglnrstwxyYаеиіїоуюяєґгйкнрсьцв'’ʼ`´.-0179 \u{301}\u{306}\u{308}\u{AD}😀ßİΣé"
            .chars()
            .collect();
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize
    };
    for _ in 0..4000 {
        let len = next() % 16;
        let s: String = (0..len)
            .map(|_| alphabet[next() % alphabet.len()])
            .collect();
        out.insert(s);
    }
}

/// A token as (term, exact, UTF-16 start, UTF-16 end).
type Tok = (String, String, usize, usize);

/// Rust tokens with their offsets converted to UTF-16.
fn rust_tokens(text: &str) -> Vec<Tok> {
    let utf16 = |b: usize| text[..b].encode_utf16().count();
    tokenize(text)
        .into_iter()
        .map(|t| (t.term, t.exact, utf16(t.start), utf16(t.end)))
        .collect()
}

const NODE_SCRIPT: &str = r#"
const A = require(process.env.RULEBOOK_ANALYZER_JS);
let data = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', d => { data += d; });
process.stdin.on('end', () => {
  const out = JSON.parse(data).map(t => [
    A.tokenize(t).map(k => [k.term, k.exact, k.start, k.end]),
    A.fold(t),
  ]);
  process.stdout.write(JSON.stringify(out));
});
"#;

/// The tokens and fold of every input by the JavaScript analyzer in file `js`.
fn run_node(js: &Path, inputs: &[String]) -> Vec<(Vec<Tok>, String)> {
    assert!(js.is_file(), "missing {}", js.display());
    let mut child = Command::new("node")
        .arg("-e")
        .arg(NODE_SCRIPT)
        .env("RULEBOOK_ANALYZER_JS", js)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "`node` (Node.js) could not be started ({e}): this test needs it on PATH to run \
                 static/js/analyzer.js and compare it with the Rust analyzer"
            )
        });
    let payload = serde_json::to_vec(inputs).expect("inputs serialise");
    let mut stdin = child.stdin.take().expect("node stdin");
    let writer = std::thread::spawn(move || stdin.write_all(&payload));
    let output = child.wait_with_output().expect("node ran");
    writer
        .join()
        .expect("writer thread")
        .expect("inputs written to node");
    assert!(
        output.status.success(),
        "node failed on {}: {}",
        js.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("node printed JSON")
}

#[test]
fn javascript_and_rust_analyzers_agree() {
    let mut seeds = BTreeSet::new();
    seed_inputs(&mut seeds);
    let mut inputs = seeds.clone();
    inputs.extend(TRICKY.iter().map(|s| s.to_string()));
    ukrainian_inputs(&seeds, &mut inputs);
    english_inputs(&seeds, &mut inputs);
    random_inputs(&mut inputs);
    let inputs: Vec<String> = inputs.into_iter().collect();
    assert!(inputs.len() >= 5000, "only {} inputs", inputs.len());

    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("static/js/analyzer.js");
    let js = run_node(&source, &inputs);
    assert_eq!(
        js.len(),
        inputs.len(),
        "node answered for a different number of inputs"
    );
    // the script as a site serves it, without its comment lines (src/lean.rs), answers alike
    let dir = tempfile::tempdir().unwrap();
    let served = dir.path().join("analyzer.js");
    let text = std::fs::read_to_string(&source).unwrap();
    let lean = rulebook::lean::lean(&text, rulebook::lean::Kind::Script);
    assert!(lean.len() < text.len(), "nothing was left out");
    std::fs::write(&served, lean).unwrap();
    assert!(
        run_node(&served, &inputs) == js,
        "the served analyzer.js answers otherwise than static/js/analyzer.js"
    );
    let mut diffs = Vec::new();
    let mut tokens = 0;
    for (input, (js_tokens, js_fold)) in inputs.iter().zip(&js) {
        let rs_tokens = rust_tokens(input);
        tokens += rs_tokens.len();
        if &rs_tokens != js_tokens {
            diffs.push(format!(
                "tokenize({input:?})\n    rust: {rs_tokens:?}\n    js:   {js_tokens:?}"
            ));
        }
        let rs_fold = fold(input);
        if &rs_fold != js_fold {
            diffs.push(format!(
                "fold({input:?})\n    rust: {rs_fold:?}\n    js:   {js_fold:?}"
            ));
        }
    }
    println!(
        "{} inputs, {tokens} tokens compared, {} differences",
        inputs.len(),
        diffs.len()
    );
    assert!(
        diffs.is_empty(),
        "{} differences between the Rust and JavaScript analyzers; first ones:\n{}",
        diffs.len(),
        diffs
            .iter()
            .take(25)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
