//! A site where words are written both with `ґ` and with `г`, and the table of queries whose
//! exact spelling must rank first (the command line and the browser are checked against the
//! same table). In each pair of sections the one that should win for one of the spellings
//! comes later in site order, so plain folding (ties go to the earlier section) fails it.

use super::{site, SITE_YAML};

/// Sections in site order: 1.1 `ганку`, 1.2 `ґанку`, 1.3 `ґрати`, 1.4 `грати`, all alike
/// otherwise (same length, same other words), so only the spelling tells them apart.
pub fn spelling_site() -> tempfile::TempDir {
    site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/uk/01-home.md",
            "---\nid: home\ntitle: Дім\n---\n\n\
             ## 1.1 Вхід\n\nГравець стоїть на ганку біля дверей і чекає.\n\n\
             ## 1.2 Двір\n\nГравець стоїть на ґанку біля хвіртки і чекає.\n\n\
             ## 1.3 Вікна\n\nНа вікнах ґрати з заліза, вони старі.\n\n\
             ## 1.4 Гра\n\nДіти будуть грати з м'ячем, вони малі.\n\n\
             ## 1.5 Світ\n\nДощі прокотились Арґаєю.\n",
        ),
        (
            "content/en/01-home.md",
            "---\nid: home\ntitle: Home\n---\n\n## 1.1 Entry\n\nThe porch.\n",
        ),
    ])
}

/// (query, the Ukrainian sections it must list, best first). The exact spelling ranks first
/// both ways, for a whole word, another form of it, a half-typed word (completion) and
/// beside another word; a word written one way only is found by either spelling.
pub const SPELLING_CASES: &[(&str, &[&str])] = &[
    ("ґанок", &["1.2", "1.1"]),
    ("ганок", &["1.1", "1.2"]),
    ("ҐАНОК", &["1.2", "1.1"]),
    ("ґанку", &["1.2", "1.1"]),
    ("ґрати", &["1.3", "1.4"]),
    ("грати", &["1.4", "1.3"]),
    ("ґратами", &["1.3", "1.4"]),
    ("ґан", &["1.2", "1.1"]),
    ("ган", &["1.1", "1.2"]),
    ("гравець ґанок", &["1.2", "1.1"]),
    ("гравець ганок", &["1.1", "1.2"]),
    ("аргаєю", &["1.5"]),
    ("арґаєю", &["1.5"]),
];
