//! Translation coverage: for every chapter and language, how many text units are in that
//! language. A unit of a chapter still written in another script (an English paragraph left in
//! the Ukrainian chapter) is untranslated; a chapter a language lacks counts all of its units as
//! missing, measured on the version the reader is shown instead.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::units::{untranslated, Unit};

/// The figures of one chapter in one language.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Figures {
    pub translated: usize,
    pub total: usize,
    /// The language has no file for this chapter (or only a draft); never with `not_loaded`.
    pub missing: bool,
    /// The language's file is a draft (`draft: true`, left out of the site): how far its
    /// translation is, for the translator. Readers are shown another language, so the
    /// chapter still counts as missing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draft: Option<Draft>,
    /// The language's file for this chapter is there but did not load (an error says why):
    /// the chapter is missing from the site until it is fixed, not untranslated.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub not_loaded: bool,
}

/// The figures of a draft translation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Draft {
    pub translated: usize,
    pub total: usize,
}

/// Units of `us` written in `lang`'s own script (all of them for a Latin-script language).
fn in_own_script(lang: &str, us: &[Unit]) -> usize {
    us.len() - untranslated(lang, us).len()
}

/// One cell of a coverage table.
fn cell(f: &Figures) -> String {
    if f.not_loaded {
        return format!("not loaded (0/{})", f.total);
    }
    match (f.missing, f.draft) {
        (true, Some(d)) => format!(
            "missing (0/{}); draft {}% ({}/{})",
            f.total,
            percent(d.translated, d.total, 0),
            d.translated,
            d.total
        ),
        (true, None) => format!("missing (0/{})", f.total),
        _ => format!(
            "{}% ({}/{})",
            percent(f.translated, f.total, 0),
            f.translated,
            f.total
        ),
    }
}

/// `part` of `whole` in per cent with `decimals` decimals, rounded down while anything is
/// left: a chapter with one paragraph of 251 untranslated is 99 %, not a finished 100 %.
fn percent(part: usize, whole: usize, decimals: usize) -> String {
    if whole == 0 || part >= whole {
        return format!("{:.*}", decimals, 100.0);
    }
    let scale = 10f64.powi(decimals as i32);
    let p = (100.0 * part as f64 / whole as f64 * scale).floor() / scale;
    format!("{p:.decimals$}")
}

#[derive(Debug, Clone, Serialize)]
pub struct ChapterRow {
    pub id: String,
    /// Language → figures.
    pub languages: BTreeMap<String, Figures>,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct Coverage {
    /// Languages in site order.
    pub languages: Vec<String>,
    pub chapters: Vec<ChapterRow>,
    pub total: BTreeMap<String, Figures>,
    /// Languages with a chapter file that did not load and whose id could not be read
    /// either: one of their chapters shown missing is that file.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unreadable: Vec<String>,
}

/// Per language, the ids of its chapter files that did not load; `None` when the id of
/// such a file could not be read.
pub type NotLoaded = BTreeMap<String, Option<BTreeSet<String>>>;

/// `units[lang][id]`: the units of every chapter that exists in `lang`; `order` is the reading
/// order of chapter ids; `drafts[lang][id]`: the units of the draft chapters left out;
/// `not_loaded`: the chapter files that are there but did not load (shown as such, not as
/// missing: the translator's file is there, it needs fixing).
pub fn measure(
    languages: &[String],
    order: &[String],
    units: &BTreeMap<String, BTreeMap<String, Vec<Unit>>>,
    drafts: &BTreeMap<String, BTreeMap<String, Vec<Unit>>>,
    not_loaded: &NotLoaded,
) -> Coverage {
    let mut cov = Coverage {
        languages: languages.to_vec(),
        unreadable: languages
            .iter()
            .filter(|l| matches!(not_loaded.get(*l), Some(None)))
            .cloned()
            .collect(),
        ..Default::default()
    };
    for lang in languages {
        cov.total.insert(lang.clone(), Figures::default());
    }
    for id in order {
        let mut row = ChapterRow {
            id: id.clone(),
            languages: BTreeMap::new(),
        };
        for lang in languages {
            let own = units.get(lang).and_then(|m| m.get(id));
            let f = match own {
                Some(us) => Figures {
                    translated: in_own_script(lang, us),
                    total: us.len(),
                    missing: false,
                    draft: None,
                    not_loaded: false,
                },
                None => {
                    let shown = languages
                        .iter()
                        .find_map(|l| units.get(l).and_then(|m| m.get(id)));
                    let draft = drafts.get(lang).and_then(|m| m.get(id)).map(|us| Draft {
                        translated: in_own_script(lang, us),
                        total: us.len(),
                    });
                    let broken = matches!(
                        not_loaded.get(lang),
                        Some(Some(ids)) if ids.contains(id)
                    );
                    Figures {
                        translated: 0,
                        total: shown.map_or(0, Vec::len),
                        // a file that is there but did not load is not a missing translation
                        // (a JSON reader counted it as one)
                        missing: !broken,
                        draft,
                        not_loaded: broken,
                    }
                }
            };
            let t = cov.total.get_mut(lang).expect("every language has a total");
            t.translated += f.translated;
            t.total += f.total;
            row.languages.insert(lang.clone(), f);
        }
        cov.chapters.push(row);
    }
    cov
}

/// The coverage as a plain-text table (one row per chapter, then the total).
pub fn table(cov: &Coverage) -> String {
    let mut rows: Vec<Vec<String>> = vec![std::iter::once("chapter".to_string())
        .chain(cov.languages.iter().cloned())
        .collect()];
    for r in &cov.chapters {
        rows.push(
            std::iter::once(r.id.clone())
                .chain(cov.languages.iter().map(|l| cell(&r.languages[l])))
                .collect(),
        );
    }
    rows.push(
        std::iter::once("total".to_string())
            .chain(cov.languages.iter().map(|l| {
                let f = &cov.total[l];
                format!(
                    "{}% ({}/{})",
                    percent(f.translated, f.total, 1),
                    f.translated,
                    f.total
                )
            }))
            .collect(),
    );
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for (n, r) in rows.iter().enumerate() {
        let line: Vec<String> = r
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (c, w))| {
                let pad = w - c.chars().count();
                if i == 0 {
                    format!("{c}{}", " ".repeat(pad))
                } else {
                    format!("{}{c}", " ".repeat(pad))
                }
            })
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
        if n == 0 || n == rows.len() - 2 {
            let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
            out.push_str(&rule.join("  "));
            out.push('\n');
        }
    }
    out.push_str(&unreadable_note(cov));
    out
}

/// What the tables say below themselves of [`Coverage::unreadable`].
fn unreadable_note(cov: &Coverage) -> String {
    if cov.unreadable.is_empty() {
        return String::new();
    }
    format!(
        "\n{}: a chapter file did not load and its id could not be read (see the errors \
         above); it is one of the chapters shown missing.\n",
        cov.unreadable.join(", ")
    )
}

/// The coverage as a Markdown table, for README-style reports.
pub fn markdown_table(cov: &Coverage) -> String {
    let mut out = format!(
        "| chapter | {} |\n|---|{}\n",
        cov.languages.join(" | "),
        "---:|".repeat(cov.languages.len())
    );
    for r in &cov.chapters {
        out.push_str(&format!(
            "| {} | {} |\n",
            r.id,
            cov.languages
                .iter()
                .map(|l| cell(&r.languages[l]))
                .collect::<Vec<_>>()
                .join(" | ")
        ));
    }
    out.push_str(&format!(
        "| **total** | {} |\n",
        cov.languages
            .iter()
            .map(|l| {
                let f = &cov.total[l];
                format!(
                    "**{}%** ({}/{})",
                    percent(f.translated, f.total, 1),
                    f.translated,
                    f.total
                )
            })
            .collect::<Vec<_>>()
            .join(" | ")
    ));
    out.push_str(&unreadable_note(cov));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(text: &str) -> Unit {
        Unit {
            line: 1,
            text: text.into(),
            section: String::new(),
            heading: false,
            original: false,
            targets: String::new(),
        }
    }

    #[test]
    fn english_left_in_ukrainian_and_missing_chapters() {
        let langs = vec!["uk".to_string(), "en".to_string()];
        let order = vec!["a".to_string(), "b".to_string()];
        let mut units: BTreeMap<String, BTreeMap<String, Vec<Unit>>> = BTreeMap::new();
        units.entry("en".into()).or_default().insert(
            "a".into(),
            vec![unit("One"), unit("Two"), unit("Three"), unit("Four")],
        );
        units
            .entry("en".into())
            .or_default()
            .insert("b".into(), vec![unit("Five"), unit("Six")]);
        units.entry("uk".into()).or_default().insert(
            "a".into(),
            vec![unit("Один"), unit("Два"), unit("Three"), unit("Чотири")],
        );
        let mut drafts: BTreeMap<String, BTreeMap<String, Vec<Unit>>> = BTreeMap::new();
        drafts
            .entry("uk".into())
            .or_default()
            .insert("b".into(), vec![unit("П'ять"), unit("Six")]);
        let c = measure(&langs, &order, &units, &BTreeMap::new(), &NotLoaded::new());
        let with_draft = measure(&langs, &order, &units, &drafts, &NotLoaded::new());
        assert_eq!(
            c.chapters[0].languages["uk"],
            Figures {
                translated: 3,
                total: 4,
                missing: false,
                draft: None,
                not_loaded: false,
            }
        );
        assert_eq!(
            c.chapters[1].languages["uk"],
            Figures {
                translated: 0,
                total: 2,
                missing: true,
                draft: None,
                not_loaded: false,
            }
        );
        // a draft translation is still missing for readers, with its own progress beside
        assert_eq!(
            with_draft.chapters[1].languages["uk"].draft,
            Some(Draft {
                translated: 1,
                total: 2
            })
        );
        assert_eq!(with_draft.total["uk"], c.total["uk"]);
        assert!(table(&with_draft).contains("missing (0/2); draft 50% (1/2)"));
        assert_eq!((c.total["uk"].translated, c.total["uk"].total), (3, 6));
        assert_eq!((c.total["en"].translated, c.total["en"].total), (6, 6));
        assert!(table(&c).contains("missing (0/2)"));
        assert!(!table(&c).contains("could not be read"));

        // a file that is there but did not load is not a missing translation
        let failed: NotLoaded =
            [("uk".to_string(), Some(BTreeSet::from(["b".to_string()])))].into();
        let f = measure(&langs, &order, &units, &BTreeMap::new(), &failed);
        assert!(f.chapters[1].languages["uk"].not_loaded);
        assert!(!f.chapters[1].languages["uk"].missing);
        assert!(!f.chapters[0].languages["uk"].not_loaded);
        assert!(table(&f).contains("not loaded (0/2)"), "{}", table(&f));
        assert_eq!(f.total["uk"], c.total["uk"]);
        // one whose id could not be read: a note under the table
        let unknown: NotLoaded = [("uk".to_string(), None)].into();
        let u = measure(&langs, &order, &units, &BTreeMap::new(), &unknown);
        assert!(table(&u).contains("missing (0/2)"));
        assert!(table(&u).contains("uk: a chapter file did not load"));
        assert!(markdown_table(&u).contains("uk: a chapter file did not load"));
    }

    #[test]
    fn a_chapter_with_anything_left_is_not_shown_finished() {
        assert_eq!(percent(250, 251, 0), "99");
        assert_eq!(percent(1999, 2000, 1), "99.9");
        assert_eq!(percent(251, 251, 0), "100");
        assert_eq!(percent(0, 0, 1), "100.0");
        assert_eq!(percent(1, 3, 1), "33.3");
        assert_eq!(percent(2, 3, 0), "66");
    }
}
