//! A site large enough for the browser index to split common words into tiers (more
//! documents than a term shard keeps, in both languages, and more than the first tier in
//! English), made of many short sections over a small vocabulary, with the words' frequencies
//! and the sections' lengths varied so that scores differ. Deterministic (a fixed
//! pseudo-random sequence), so a failure can be replayed.

use super::{site, SITE_YAML};

/// English words, commonest first: the first ones end up in most sections.
const EN: &[&str] = &[
    "token",
    "player",
    "first",
    "exhaustion",
    "dice",
    "power",
    "spell",
    "guard",
    "attack",
    "unit",
    "ember",
    "shield",
    "rune",
    "river",
    "tower",
    "stone",
    "flame",
    "ash",
    "lantern",
    "meadow",
    // rare words one letter from common ones: typo expansions of `token` and `power`
    "taken",
    "cower",
];
/// Ukrainian words, commonest first.
const UK: &[&str] = &[
    "жетон",
    "гравець",
    "перший",
    "виснаження",
    "кубик",
    "сили",
    "закляття",
    "варта",
    "атака",
    "бієць",
    "жарина",
    "щит",
    "руна",
    "ріка",
    "вежа",
    "камінь",
];

/// Chapters and sections per chapter, per language.
const EN_CHAPTERS: usize = 20;
const UK_CHAPTERS: usize = 3;
const SECTIONS: usize = 200;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    /// An index below `n`, small ones likelier (roughly Zipf).
    fn skewed(&mut self, n: usize) -> usize {
        let r = (self.next() % 10_000) as f64 / 10_000.0;
        ((r * r * r) * n as f64) as usize
    }
}

fn chapter(rng: &mut Rng, words: &[&str], lang: &str, c: usize) -> (String, String) {
    let mut md = format!("---\nid: ch{c}\ntitle: Chapter {c}\n---\n\n");
    for s in 1..=SECTIONS {
        let t1 = words[rng.skewed(words.len())];
        let t2 = words[rng.skewed(words.len())];
        md.push_str(&format!("## {c}.{s} {t1} {t2}\n\n"));
        let len = 4 + rng.next() % 40;
        let mut text: Vec<&str> = Vec::new();
        for _ in 0..len {
            text.push(words[rng.skewed(words.len())]);
        }
        md.push_str(&text.join(" "));
        md.push_str(".\n\n");
    }
    (format!("content/{lang}/{c:02}-ch.md"), md)
}

/// The site (not built).
pub fn tiers_site() -> tempfile::TempDir {
    let mut rng = Rng(7);
    let mut files = vec![("content/site.yaml".to_string(), SITE_YAML.to_string())];
    for c in 1..=EN_CHAPTERS {
        files.push(chapter(&mut rng, EN, "en", c));
    }
    for c in 1..=UK_CHAPTERS {
        files.push(chapter(&mut rng, UK, "uk", c));
    }
    // glossary terms of two and three common words: the build gives each such pair, and the
    // whole of a longer term, a head of its own
    files.push((
        "content/en/glossary.json".to_string(),
        r#"{"exhaustion-token": {"term": "Exhaustion token", "definition": "A token that exhausts."},
            "first-player": {"term": "First player", "definition": "The player who goes first."},
            "power-dice": {"term": "Dice power", "definition": "The power of a die."},
            "rune-river": {"term": "River rune", "definition": "A rune by the river."},
            "first-player-token": {"term": "First player token", "definition": "Who goes first."}}"#
            .to_string(),
    ));
    files.push((
        "content/uk/glossary.json".to_string(),
        r#"{"exhaustion-token": {"term": "Жетон виснаження", "definition": "Жетон, що виснажує."},
            "first-player": {"term": "Перший гравець", "definition": "Гравець, що ходить першим."},
            "power-dice": {"term": "Кубик сили", "definition": "Сила кубика."},
            "rune-river": {"term": "Руна ріки", "definition": "Руна біля ріки."},
            "first-player-token": {"term": "Жетон першого гравця", "definition": "Хто ходить першим."}}"#
            .to_string(),
    ));
    // one section with a word found nowhere else, one letter from common words: its top ten
    // is mostly their sections, so their shards must be loaded
    files.push((
        "content/en/99-rare.md".to_string(),
        "---\nid: rare\ntitle: Rare\n---\n\n## 99.1 Bower\n\nA bower of stone.\n".to_string(),
    ));
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    site(&refs)
}

/// (language, query): common words alone and together, half typed, with a typo, and words
/// with rare typo neighbours.
pub const TIER_QUERIES: &[(&str, &str)] = &[
    ("en", "exhaustion token"),
    ("en", "first player"),
    ("en", "token"),
    ("en", "dice power"),
    ("en", "ember shield rune"),
    ("en", "first pl"),
    ("en", "to"),
    ("en", "exhaustoin"),
    ("en", "lantern meadow"),
    ("en", "power"),
    ("en", "tower"),
    ("en", "token power"),
    ("en", "taken"),
    ("en", "bower"),
    ("en", "power dice"),
    ("en", "river rune"),
    ("en", "token exhaustion"),
    ("en", "exhaustion token rune"),
    ("en", "first player lantern"),
    ("en", "dice power meadow"),
    ("en", "first player token"),
    ("en", "token first player"),
    ("en", "first player tok"),
    ("uk", "жетон першого гравця"),
    ("uk", "перший гравець"),
    ("uk", "сили кубик"),
    ("uk", "жетон виснаження"),
    ("uk", "кубик сили"),
    ("uk", "жет"),
    ("uk", "гравець"),
];
