//! `rulebook check`: every kind of finding on a fixture, JSON output, `--strict`, coverage
//! figures on a fixture whose numbers are known, and the stale-translation flow.

use crate::common::*;

fn check_json(dir: &std::path::Path, extra: &[&str]) -> (i32, serde_json::Value) {
    let mut args = vec!["check", "--site", dir.to_str().unwrap(), "--format", "json"];
    args.extend_from_slice(extra);
    let r = run(&args);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap_or_else(|e| {
        panic!(
            "check output is not JSON ({e}):\n{}\n{}",
            r.stdout, r.stderr
        )
    });
    (r.code, v)
}

fn findings(v: &serde_json::Value) -> Vec<(String, String, u64)> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["kind"].as_str().unwrap().to_string(),
                f["file"].as_str().unwrap().to_string(),
                f["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

const EN_GLOSSARY: &str = r#"{
  "exhausted pool": "Where spent dice go.",
  "discard": "To put a card on the discard pile.",
  "lonely": "An entry only English has.",
  "drp": "Damage resolution.",
  "damage resolution": "Damage resolution."
}
"#;

const UK_GLOSSARY: &str = r#"{
  "exhausted pool": {"term": "Виснажений резерв", "definition": "Куди йдуть витрачені кубики."},
  "discard": {"term": "Скинути", "definition": "Покласти карту до стосу скиду."},
  "damage resolution": {"term": "Розподіл шкоди", "definition": "Розподіл шкоди."}
}
"#;

/// The messages of `check`'s findings of one kind.
fn messages_of(site: &std::path::Path, kind: &str) -> Vec<String> {
    let (_, v) = check_json(site, &[]);
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"] == kind)
        .map(|f| f["message"].as_str().unwrap().to_string())
        .collect()
}

/// A site with one of every finding kind; each sits on a known line.
fn everything() -> tempfile::TempDir {
    site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: \"1.0.0 Alpha\"\n---\n\nIntro. See 9.9.9 for nothing.\n\n## 1.1.0 Dice\n\nMove the dice to your exhausted pool.\n\n## 1.2.0 Cards\n\nDiscard a card. Read [1.1.0 Wrong Title](#).\n\nGo to [b](b.md#no-such-anchor) or [c](missing.md) or [d](../nowhere/) or [e](../glossary/#nope).\n\n![pic](nope.png)\n",
        ),
        (
            "content/en/b.md",
            "---\nid: b\ntitle: Beta\n---\n\nText.\n",
        ),
        (
            "content/en/c.md",
            "---\nid: only-en\ntitle: Only English\n---\n\nUntranslated.\n",
        ),
        (
            "content/en/d.md",
            "---\nid: b\ntitle: Beta again\n---\n\nSame id.\n",
        ),
        ("content/en/glossary.json", EN_GLOSSARY),
        (
            "content/uk/a.md",
            "---\nid: a\ntitle: \"1.0.0 Альфа\"\ntranslated_from:\n  lang: en\n  hash: \"0000000000000000\"\n  sections:\n    \"1.1.0\": \"0000000000000000\"\n---\n\nВступ.\n\n## 1.1.0 Кубики\n\nПокладіть кубики у ваш exhausted pool.\n\n## 1.2.0 Карти\n\nВикиньте одну карту.\n",
        ),
        (
            "content/uk/b.md",
            "---\nid: b\ntitle: Бета\n---\n\nТекст.\n",
        ),
        ("content/uk/glossary.json", UK_GLOSSARY),
    ])
}

#[test]
fn every_finding_kind_with_file_and_line() {
    let s = everything();
    let (code, v) = check_json(s.path(), &[]);
    assert_eq!(code, 1, "a duplicate id is an error: {v:#}");
    let f = findings(&v);
    let has = |kind: &str, file: &str, line: u64| {
        assert!(
            f.iter()
                .any(|(k, fl, l)| k == kind && fl == file && *l == line),
            "no {kind} at {file}:{line} in {f:#?}"
        );
    };
    has("broken-ref", "content/en/a.md", 6);
    has("ref-title", "content/en/a.md", 14);
    has("broken-anchor", "content/en/a.md", 16);
    has("broken-link", "content/en/a.md", 16);
    assert_eq!(
        f.iter()
            .filter(|(k, fl, l)| (k == "broken-link" || k == "broken-anchor")
                && fl == "content/en/a.md"
                && *l == 16)
            .count(),
        4,
        "b.md#no-such-anchor, missing.md, ../nowhere/ and ../glossary/#nope: {f:#?}"
    );
    has("missing-image", "content/en/a.md", 18);
    has("duplicate-id", "content/en/d.md", 2);
    has("chapter-one-language", "content/en/c.md", 1);
    has("glossary-one-language", "content/en/glossary.json", 4);
    has("glossary-duplicate", "content/en/glossary.json", 6);
    has("untranslated-term", "content/uk/a.md", 15);
    has("inconsistent-term", "content/uk/a.md", 17);
    // the English term left in 1.1.0 is reported once, as untranslated, not also as inconsistent
    assert!(
        !f.iter()
            .any(|(k, _, l)| k == "inconsistent-term" && *l == 13),
        "{f:#?}"
    );
    has("stale-translation", "content/uk/a.md", 4);
    // every finding has the five fields
    for x in v["findings"].as_array().unwrap() {
        for key in ["file", "line", "column", "kind", "message"] {
            assert!(x.get(key).is_some(), "{key} missing in {x}");
        }
        assert!(!x["message"].as_str().unwrap().is_empty());
    }
    // the text format says the same, one finding per line with file:line
    let r = run(&["check", "--site", s.path().to_str().unwrap()]);
    assert_eq!(r.code, 1);
    assert!(
        r.stdout
            .contains("warning[untranslated-term]: content/uk/a.md:15:"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("error[duplicate-id]: content/en/d.md:2:"),
        "{}",
        r.stdout
    );
    // and nothing was written
    assert!(!s.path().join("public").exists());
}

#[test]
fn strict_fails_on_warnings_only_when_asked() {
    let s = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: A\n---\n\nSee 9.9.9.\n",
        ),
        (
            "content/uk/a.md",
            "---\nid: a\ntitle: А\n---\n\nДив. 9.9.9.\n",
        ),
    ]);
    let (code, v) = check_json(s.path(), &[]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["errors"], 0);
    assert!(v["warnings"].as_u64().unwrap() >= 2);
    let (code, v) = check_json(s.path(), &["--strict"]);
    assert_eq!(code, 1);
    assert!(v["errors"].as_u64().unwrap() >= 2);
}

#[test]
fn coverage_figures_on_a_known_fixture() {
    // uk `a`: title + 3 paragraphs, one of them still English → 3 of 4 translated.
    // uk lacks `b` (title + 2 paragraphs in English) → 0 of 3, missing.
    let s = site(&[
        ("content/site.yaml", SITE_YAML),
        ("content/en/a.md", "---\nid: a\ntitle: Alpha\nweight: 1\n---\n\nOne.\n\nTwo.\n\nThree.\n"),
        ("content/en/b.md", "---\nid: b\ntitle: Beta\nweight: 2\n---\n\nFour.\n\nFive.\n"),
        (
            "content/uk/a.md",
            "---\nid: a\ntitle: Альфа\nweight: 1\n---\n\nОдин.\n\nThis paragraph was not translated yet.\n\nТри.\n",
        ),
    ]);
    let (_, v) = check_json(s.path(), &[]);
    let c = &v["coverage"];
    let row = |id: &str| {
        c["chapters"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .unwrap_or_else(|| panic!("no row {id}: {c:#}"))
            .clone()
    };
    let a = row("a");
    assert_eq!(
        (
            a["languages"]["uk"]["translated"].as_u64(),
            a["languages"]["uk"]["total"].as_u64()
        ),
        (Some(3), Some(4))
    );
    assert_eq!(a["languages"]["uk"]["missing"], false);
    assert_eq!(
        (
            a["languages"]["en"]["translated"].as_u64(),
            a["languages"]["en"]["total"].as_u64()
        ),
        (Some(4), Some(4))
    );
    let b = row("b");
    assert_eq!(
        (
            b["languages"]["uk"]["translated"].as_u64(),
            b["languages"]["uk"]["total"].as_u64()
        ),
        (Some(0), Some(3))
    );
    assert_eq!(b["languages"]["uk"]["missing"], true);
    assert_eq!(
        (
            c["total"]["uk"]["translated"].as_u64(),
            c["total"]["uk"]["total"].as_u64()
        ),
        (Some(3), Some(7))
    );
    assert_eq!(
        (
            c["total"]["en"]["translated"].as_u64(),
            c["total"]["en"]["total"].as_u64()
        ),
        (Some(7), Some(7))
    );
    // the text report shows the same as a table
    let r = run(&["check", "--site", s.path().to_str().unwrap()]);
    let table: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("a ") || l.starts_with("b ") || l.starts_with("total"))
        .collect();
    assert_eq!(table.len(), 3, "{}", r.stdout);
    assert!(
        table[0].contains("75% (3/4)") && table[0].contains("100% (4/4)"),
        "{table:?}"
    );
    assert!(table[1].contains("missing (0/3)"), "{table:?}");
    // rounded down while anything is left (42.857…)
    assert!(table[2].contains("42.8% (3/7)"), "{table:?}");
    assert!(!table[1].contains("draft"), "{table:?}");
    assert!(b["languages"]["uk"].get("draft").is_none(), "{b:#}");
    // a translation under way as a draft: still missing for readers (the totals do not
    // move), with how far it is beside: title and one of its two paragraphs in Ukrainian
    write(
        s.path(),
        "content/uk/b.md",
        "---\nid: b\ntitle: Бета\nweight: 2\ndraft: true\n---\n\nЧотири.\n\nFive.\n".as_bytes(),
    );
    let (_, v) = check_json(s.path(), &[]);
    let c = &v["coverage"];
    let b = c["chapters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "b")
        .unwrap();
    assert_eq!(b["languages"]["uk"]["missing"], true);
    assert_eq!(
        b["languages"]["uk"]["draft"],
        serde_json::json!({"translated": 2, "total": 3}),
        "{b:#}"
    );
    assert_eq!(c["total"]["uk"]["translated"].as_u64(), Some(3));
    let r = run(&["check", "--site", s.path().to_str().unwrap()]);
    assert!(
        r.stdout.contains("missing (0/3); draft 66% (2/3)"),
        "{}",
        r.stdout
    );
    // the pairing finding names the draft rather than saying there is no translation at all
    assert!(
        r.stdout.contains("has no uk version yet (the draft content/uk/b.md is left out until its `draft: true` goes)"),
        "{}",
        r.stdout
    );
}

#[test]
fn stale_translation_flow() {
    let s = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: Alpha\n---\n\nIntro.\n\n## 1.1.0 One\n\nFirst rule.\n\n## 1.2.0 Two\n\nSecond rule.\n",
        ),
        (
            "content/uk/a.md",
            "---\nid: a\ntitle: Альфа\n---\n\nВступ.\n\n## 1.1.0 Один\n\nПерше правило.\n\n## 1.2.0 Два\n\nДруге правило.\n",
        ),
    ]);
    let stale = |s: &tempfile::TempDir| messages_of(s.path(), "stale-translation");
    assert!(stale(&s).is_empty(), "no record yet, nothing to compare");
    // but the report says the translation records no source, so changes would go unnoticed
    let (_, v) = check_json(s.path(), &[]);
    assert_eq!(v["unrecorded"], serde_json::json!(["content/uk/a.md"]));
    let plain = run(&["check", "--site", s.path().to_str().unwrap()]);
    assert!(
        plain.stdout.contains("1 translation records no source yet"),
        "{}",
        plain.stdout
    );
    let r = run(&["translated", "--site", s.path().to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let uk = std::fs::read_to_string(s.path().join("content/uk/a.md")).unwrap();
    assert!(uk.contains("translated_from:\n  lang: en\n"), "{uk}");
    assert!(
        uk.ends_with("## 1.2.0 Два\n\nДруге правило.\n"),
        "the body is untouched: {uk}"
    );
    assert!(stale(&s).is_empty(), "just recorded: {:?}", stale(&s));
    let (_, v) = check_json(s.path(), &[]);
    assert_eq!(v["unrecorded"], serde_json::json!([]));
    // reformatting the source is not a change of text
    write(
        s.path(),
        "content/en/a.md",
        b"---\nid: a\ntitle: Alpha\n---\n\nIntro.\n\n## 1.1.0 One\n\nFirst\nrule.\n\n## 1.2.0 Two\n\nSecond rule.\n",
    );
    assert!(stale(&s).is_empty(), "{:?}", stale(&s));
    // changing a word of section 1.2.0 makes the translation stale, naming that section only
    write(
        s.path(),
        "content/en/a.md",
        b"---\nid: a\ntitle: Alpha\n---\n\nIntro.\n\n## 1.1.0 One\n\nFirst rule.\n\n## 1.2.0 Two\n\nSecond rule, amended.\n",
    );
    let msgs = stale(&s);
    assert_eq!(msgs.len(), 1, "{msgs:?}");
    assert!(
        msgs[0].contains("1.2.0") && !msgs[0].contains("1.1.0"),
        "{msgs:?}"
    );
    // said at the heading of that section in the translation, where the work is (it was the
    // line of the record)
    let uk = std::fs::read_to_string(s.path().join("content/uk/a.md")).unwrap();
    let heading = uk.lines().position(|l| l == "## 1.2.0 Два").unwrap() + 1;
    let (_, v) = check_json(s.path(), &[]);
    let lines: Vec<u64> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"] == "stale-translation")
        .map(|f| f["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [heading as u64]);
    // recording every chapter at once (no ids) says which changes it took as followed:
    // nothing said so after it (the stale chapter was recorded without a word)
    let r = run(&["translated", "--site", s.path().to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let said = format!("{}{}", r.stdout, r.stderr);
    assert!(
        said.contains("warning[stale-recorded]: content/uk/a.md:4:")
            && said.contains("changed since: 1.2.0"),
        "{said}"
    );
    assert!(stale(&s).is_empty());
    // the translator records one chapter by its id: no such warning
    write(
        s.path(),
        "content/en/a.md",
        b"---\nid: a\ntitle: Alpha\n---\n\nIntro.\n\n## 1.1.0 One\n\nFirst rule, amended.\n\n## 1.2.0 Two\n\nSecond rule, amended.\n",
    );
    let r = run(&["translated", "--site", s.path().to_str().unwrap(), "a"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!format!("{}{}", r.stdout, r.stderr).contains("stale-recorded"));
    assert!(stale(&s).is_empty());
    // unknown ids are refused, each named, with the id likely meant
    let r = run(&[
        "translated",
        "--site",
        s.path().to_str().unwrap(),
        "nope",
        "other",
    ]);
    assert_ne!(r.code, 0);
    assert!(
        r.stderr.contains("`nope`, `other` (nothing was written")
            && r.stderr.contains("the en chapters' ids: a)"),
        "{}",
        r.stderr
    );
    // a chapter's file stands for its id
    write(
        s.path(),
        "content/en/a.md",
        b"---\nid: a\ntitle: Alpha\n---\n\nIntro.\n\n## 1.1.0 One\n\nFirst rule, amended again.\n\n## 1.2.0 Two\n\nSecond rule, amended.\n",
    );
    assert_eq!(stale(&s).len(), 1);
    let r = run(&[
        "translated",
        "--site",
        s.path().to_str().unwrap(),
        "content/uk/a.md",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(stale(&s).is_empty(), "{:?}", stale(&s));
    let d = default_site();
    let r = run(&[
        "translated",
        "--site",
        d.path().to_str().unwrap(),
        "damage-and-destructio",
    ]);
    assert!(
        r.stderr
            .contains("`damage-and-destructio` (did you mean `damage-and-destruction`?)"),
        "{}",
        r.stderr
    );
}

/// Where a reference leads is part of what a rule says: the English text pointing at another
/// section makes the translation stale, though not a word of it changed (it went unnoticed).
/// A link whose text shows its number, the Rules Reference's own way, is its text already.
#[test]
fn a_reference_that_leads_elsewhere_makes_the_translation_stale() {
    let en = |to: &str| {
        format!("---\nid: a\ntitle: Alpha\n---\n\n## 1.1.0 One\n\nSee [the meditation rules]({to}).\n\n## 1.2.0 Two\n\nSee [9.0.0 Meditation](#).\n")
    };
    let s = site(&[
        ("content/site.yaml", SITE_YAML),
        ("content/en/a.md", &en("#9.0.0")),
        (
            "content/uk/a.md",
            "---\nid: a\ntitle: Альфа\n---\n\n## 1.1.0 Один\n\nДив. [правила медитації](#9.0.0).\n\n## 1.2.0 Два\n\nДив. [9.0.0 Медитація](#).\n",
        ),
        (
            "content/en/b.md",
            "---\nid: b\ntitle: Beta\n---\n\n## 8.0.0 Eight\n\nText.\n\n## 9.0.0 Nine\n\nText.\n",
        ),
    ]);
    let r = run(&["translated", "--site", s.path().to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let stale = |s: &tempfile::TempDir| messages_of(s.path(), "stale-translation");
    assert!(stale(&s).is_empty(), "{:?}", stale(&s));
    write(s.path(), "content/en/a.md", en("#8.0.0").as_bytes());
    let msgs = stale(&s);
    assert!(
        msgs.len() == 1 && msgs[0].contains("changed since: 1.1.0."),
        "{msgs:?}"
    );
}

/// A chapter that fails to load is not "up to date": `translated` stops as it does for a broken
/// site.yaml, writes nothing, and exits 1.
#[test]
fn translated_refuses_a_site_with_errors_and_writes_nothing() {
    let en = "---\nid: a\ntitle: Alpha\n---\n\nIntro.\n";
    let uk_ok = "---\nid: b\ntitle: Бета\n---\n\nВступ.\n";
    let uk_bad = "---\nid: a\ntitle: Альфа\nweight: heavy\n---\n\nВступ.\n";
    let s = site(&[
        ("content/site.yaml", SITE_YAML),
        ("content/en/a.md", en),
        (
            "content/en/b.md",
            "---\nid: b\ntitle: Beta\n---\n\nIntro.\n",
        ),
        ("content/uk/a.md", uk_bad),
        ("content/uk/b.md", uk_ok),
    ]);
    let r = run(&["translated", "--site", s.path().to_str().unwrap()]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("error[front-matter]: content/uk/a.md:4:"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("fix them first"), "{}", r.stderr);
    assert!(!r.stderr.contains("already records"), "{}", r.stderr);
    let read = |f: &str| std::fs::read_to_string(s.path().join(f)).unwrap();
    assert_eq!(read("content/uk/a.md"), uk_bad);
    assert_eq!(read("content/uk/b.md"), uk_ok, "nothing is written");
}

/// `translated ID` of a chapter no other language has says so and fails, rather than
/// "every translation already records its current source"; and a translation whose source
/// is a draft for now is not "translated from a chapter which no longer exists".
#[test]
fn translated_needs_a_translation_and_a_draft_source_is_not_gone() {
    let en = "---\nid: a\ntitle: Alpha\n---\n\nIntro.\n";
    let s = site(&[
        ("content/site.yaml", SITE_YAML),
        ("content/en/a.md", en),
        (
            "content/uk/a.md",
            "---\nid: a\ntitle: Альфа\n---\n\nВступ.\n",
        ),
        (
            "content/en/b.md",
            "---\nid: b\ntitle: Beta\n---\n\nIntro.\n",
        ),
    ]);
    let dir = s.path().to_str().unwrap();
    let r = run(&["translated", "--site", dir, "b"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("`b` has no translation yet"),
        "{}",
        r.stderr
    );
    let r = run(&["translated", "--site", dir, "a"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    write(
        s.path(),
        "content/en/a.md",
        en.replace("title: Alpha", "title: Alpha\ndraft: true")
            .as_bytes(),
    );
    let (_, v) = check_json(s.path(), &[]);
    let kinds = findings(&v);
    assert!(
        !kinds.iter().any(|(k, _, _)| k == "stale-translation"),
        "{kinds:?}"
    );
}

/// `translated_from :` and `"translated_from":` are the key `translated` replaces: a second
/// block would make the chapter a duplicate-key error.
#[test]
fn translated_replaces_the_key_however_it_is_spelled() {
    for key in ["translated_from :", "\"translated_from\":"] {
        let uk = format!(
            "---\nid: a\ntitle: Альфа\n{key}\n  lang: en\n  hash: \"0000000000000000\"\n---\n\nВступ.\n"
        );
        let s = site(&[
            ("content/site.yaml", SITE_YAML),
            (
                "content/en/a.md",
                "---\nid: a\ntitle: Alpha\n---\n\nIntro.\n",
            ),
            ("content/uk/a.md", &uk),
        ]);
        let r = run(&["translated", "--site", s.path().to_str().unwrap()]);
        assert_eq!(r.code, 0, "{key}: {}", r.stderr);
        let new = std::fs::read_to_string(s.path().join("content/uk/a.md")).unwrap();
        assert_eq!(new.matches("translated_from").count(), 1, "{key}: {new}");
        assert!(!new.contains("0000000000000000"), "{key}: {new}");
        let r = run(&["check", "--site", s.path().to_str().unwrap()]);
        assert_eq!(r.code, 0, "{key}: {}{}", r.stdout, r.stderr);
    }
}

/// `translated` replaces an old record of any shape YAML allows (a list at the key's column,
/// a mapping in braces over two lines) and keeps old Mac line ends (`\r` alone); a stale
/// warning points at the record's line however the key is spelled. It left parts of such
/// records behind (the file no longer loaded, after `check` had said to run it), refused a
/// `\r` file as having no front matter, and pointed at line 1.
#[test]
fn translated_rewrites_records_of_every_shape_and_line_end() {
    let en = "---\nid: a\ntitle: Alpha\n---\n\nIntro.\n";
    for (name, uk) in [
        ("a list", "---\nid: a\ntitle: Альфа\ntranslated_from:\n- en\n- \"0000000000000000\"\nweight: 1\n---\n\nВступ.\n".to_string()),
        ("braces over two lines", "---\nid: a\ntitle: Альфа\ntranslated_from: {lang: en,\nhash: \"0000000000000000\"}\nweight: 1\n---\n\nВступ.\n".to_string()),
        ("old Mac line ends", "---\nid: a\ntitle: Альфа\n\"translated_from\" :\n  lang: en\n  hash: \"0000000000000000\"\n---\n\nВступ.\n".replace('\n', "\r")),
    ] {
        let s = site(&[
            ("content/site.yaml", SITE_YAML),
            ("content/en/a.md", en),
            ("content/uk/a.md", &uk),
        ]);
        let path = s.path().to_str().unwrap();
        // the record is read, and found stale (or not a record), at its own line
        let (_, v) = check_json(s.path(), &[]);
        assert!(
            findings(&v).contains(&("stale-translation".into(), "content/uk/a.md".into(), 4)),
            "{name}: {v}"
        );
        let r = run(&["translated", "--site", path]);
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        let new = std::fs::read_to_string(s.path().join("content/uk/a.md")).unwrap();
        assert!(!new.contains("0000000000000000"), "{name}: {new}");
        assert_eq!(new.contains('\n'), uk.contains('\n'), "{name}: line ends kept");
        let (code, v) = check_json(s.path(), &[]);
        assert_eq!(code, 0, "{name}: {v}");
        assert_eq!(findings(&v), vec![], "{name}");
    }
}

#[test]
fn missing_content_is_an_error_not_a_panic() {
    let s = site(&[]);
    let r = run(&["check", "--site", s.path().to_str().unwrap()]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("missing-content"), "{}", r.stdout);
}

/// `check` renders the pages that use a site's own templates, as the build does, and finds
/// what only rendering finds; a macro that recurses and ends is fine. (The crash cases, each
/// for both `build` and `check`, are in tests/bad_input.rs.)
#[test]
fn site_templates_are_rendered_by_check() {
    let toc = "{% extends \"base.html\" %}\n{% macro toc(d) %}{% if d > 0 %}<ul><li>{{ self::toc(d=d - 1) }}</li></ul>{% endif %}{% endmacro %}\n{% block main %}{{ self::toc(d=6) }}{{ content | safe }}{% endblock %}\n";
    let files = |base: &'static str| {
        site(&[
            ("content/site.yaml", SITE_YAML),
            ("content/en/a.md", "---\nid: a\ntitle: A\n---\n\nText.\n"),
            ("content/uk/a.md", "---\nid: a\ntitle: А\n---\n\nТекст.\n"),
            ("templates/chapter.html", toc),
            ("templates/base.html", base),
        ])
    };
    let good = files(include_str!("../templates/base.html"));
    let (code, v) = check_json(good.path(), &[]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(findings(&v), vec![]);
    // every page but the print view extends base.html: each reports the unknown variable at its line
    let bad = files(
        "<!doctype html>\n<p>{{ nonexistent.var }}</p>\n{% block main %}{% endblock main %}\n",
    );
    let (code, v) = check_json(bad.path(), &[]);
    assert_eq!(code, 1, "{v}");
    let f = findings(&v);
    assert!(
        f.iter()
            .all(|x| *x == ("template".to_string(), "templates/base.html".to_string(), 2)),
        "{f:?}"
    );
    assert!(!f.is_empty());
    assert!(!bad.path().join("public").exists());
}

/// A file that does not load is reported once, as the error it is: a chapter whose front
/// matter is broken is not also "missing" from its language (nor its translation "stale",
/// nor made from a source that "no longer exists"), and a glossary that does not parse
/// does not make every entry of the other language "have no entry" there.
#[test]
fn a_file_that_does_not_load_brings_no_follow_on_findings() {
    let en = "---\nid: a\ntitle: Alpha\n---\n\nIntro.\n\n## 1.1.0 One\n\nFirst rule.\n";
    let s = site(&[
        ("content/site.yaml", SITE_YAML),
        ("content/en/a.md", en),
        (
            "content/uk/a.md",
            "---\nid: a\ntitle: Альфа\n---\n\nВступ.\n\n## 1.1.0 Один\n\nПерше правило.\n",
        ),
        ("content/en/glossary.json", "{\"discard\": \"To discard.\"}"),
        (
            "content/uk/glossary.json",
            "{\"discard\": {\"term\": \"Скид\", \"definition\": \"Скинути.\"}}",
        ),
    ]);
    let r = run(&["translated", "--site", s.path().to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (code, v) = check_json(s.path(), &[]);
    assert_eq!(code, 0, "{v}");
    // the English chapter's front matter and the Ukrainian glossary break
    write(
        s.path(),
        "content/en/a.md",
        en.replace("id: a", "id: [a").as_bytes(),
    );
    write(s.path(), "content/uk/glossary.json", b"{\"discard\": ");
    let (code, v) = check_json(s.path(), &[]);
    assert_eq!(code, 1, "{v}");
    let kinds: Vec<(String, String, u64)> = findings(&v);
    let errors: Vec<&(String, String, u64)> = kinds
        .iter()
        .filter(|(k, _, _)| k == "front-matter" || k == "glossary-json")
        .collect();
    assert_eq!(errors.len(), 2, "{kinds:?}");
    for (k, _, _) in &kinds {
        assert!(
            ![
                "chapter-one-language",
                "glossary-one-language",
                "stale-translation"
            ]
            .contains(&k.as_str()),
            "{kinds:?}"
        );
    }
    // its id could not be read: the coverage says one of the chapters shown missing is it
    assert_eq!(
        v["coverage"]["unreadable"],
        serde_json::json!(["en"]),
        "{v}"
    );
    // with a readable id, the coverage shows that chapter as not loaded, not as missing:
    // the translator's file is there and needs fixing
    write(
        s.path(),
        "content/en/a.md",
        en.replace("title: Alpha", "title: \"Alpha").as_bytes(),
    );
    let (code, v) = check_json(s.path(), &[]);
    assert_eq!(code, 1, "{v}");
    let en_a = &v["coverage"]["chapters"][0]["languages"]["en"];
    assert_eq!(en_a["not_loaded"], true, "{v}");
    assert_eq!(en_a["missing"], false, "{v}");
    assert!(v["coverage"].get("unreadable").is_none(), "{v}");
    let text = run(&["check", "--site", s.path().to_str().unwrap()]);
    let row = text
        .stdout
        .lines()
        .find(|l| l.starts_with("a "))
        .unwrap_or_default();
    assert!(row.contains("not loaded (0/"), "{}", text.stdout);
}

/// A file with an error that still loaded (a glossary with a key twice, a chapter with a
/// section number twice) is still checked against the other languages: only what did not
/// load is spared the follow-on findings.
#[test]
fn a_file_with_an_error_that_loaded_is_still_paired() {
    let en = "---\nid: a\ntitle: Alpha\n---\n\nIntro.\n\n## 1.1.0 One\n\nFirst rule.\n";
    let s = site(&[
        ("content/site.yaml", SITE_YAML),
        ("content/en/a.md", en),
        (
            "content/uk/a.md",
            "---\nid: a\ntitle: Альфа\n---\n\nВступ.\n\n## 1.1.0 Один\n\nПерше правило.\n",
        ),
        (
            "content/en/glossary.json",
            "{\"discard\": \"To discard.\", \"beta\": \"Only English.\"}",
        ),
        (
            "content/uk/glossary.json",
            "{\"discard\": \"Скинути.\", \"discard\": \"Скинути ще раз.\"}",
        ),
    ]);
    let r = run(&["translated", "--site", s.path().to_str().unwrap()]);
    assert_eq!(r.code, 1, "the uk glossary has an error: {}", r.stderr);
    // record by hand what `translated` would, then change the source
    let (_, v) = check_json(s.path(), &[]);
    let f = findings(&v);
    assert!(
        f.iter()
            .any(|(k, file, _)| k == "glossary-one-language" && file == "content/en/glossary.json"),
        "{f:?}"
    );
    // a section number twice in the English source: an error, but the chapter loaded, so
    // its changed text still makes the Ukrainian translation stale
    let s = site(&[
        ("content/site.yaml", SITE_YAML),
        ("content/en/a.md", en),
        (
            "content/uk/a.md",
            "---\nid: a\ntitle: Альфа\n---\n\nВступ.\n\n## 1.1.0 Один\n\nПерше правило.\n",
        ),
    ]);
    let r = run(&["translated", "--site", s.path().to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    write(
        s.path(),
        "content/en/a.md",
        en.replace(
            "First rule.",
            "First rule, changed.\n\n## 1.1.0 Again\n\nText.",
        )
        .as_bytes(),
    );
    let (code, v) = check_json(s.path(), &[]);
    let f = findings(&v);
    assert_eq!(code, 1, "{f:?}");
    assert!(
        f.iter()
            .any(|(k, file, _)| k == "stale-translation" && file == "content/uk/a.md"),
        "{f:?}"
    );
}

/// A numbered section the source chapter has and its translation lacks, and one only in the
/// translation (a typo in its number), are found at the translation's lines: section
/// numbers are the same in every language, and a link to a missing one leads silently to
/// the other language's page.
#[test]
fn sections_one_translation_lacks_or_adds_are_found() {
    let s = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: Alpha\n---\n\n## 1.1.0 One\n\nFirst.\n\n## 1.2.0 Two\n\nSecond.\n\n## 1.3.0 Three\n\nThird.\n",
        ),
        (
            "content/uk/a.md",
            "---\nid: a\ntitle: Альфа\n---\n\n## 1.1.0 Один\n\nПерше.\n\n## 1.4.0 Три\n\nТретє.\n",
        ),
    ]);
    let (code, v) = check_json(s.path(), &[]);
    assert_eq!(code, 0, "{v}");
    let mut found: Vec<(String, String, u64)> = findings(&v)
        .into_iter()
        .filter(|(k, _, _)| k == "section-one-language")
        .collect();
    found.sort();
    assert_eq!(
        found,
        [
            // 1.2.0 and 1.3.0 missing: shown after 1.1.0, the section they would follow
            (
                "section-one-language".to_string(),
                "content/uk/a.md".to_string(),
                6
            ),
            (
                "section-one-language".to_string(),
                "content/uk/a.md".to_string(),
                6
            ),
            // 1.4.0 is not in the English chapter
            (
                "section-one-language".to_string(),
                "content/uk/a.md".to_string(),
                10
            ),
        ]
    );
    let text = run(&["check", "--site", s.path().to_str().unwrap()]);
    assert!(
        text.stdout
            .contains("section 1.3.0 of the en chapter is not in this translation"),
        "{}",
        text.stdout
    );
    // the line is the heading of the section it would follow, and the message says so
    assert!(
        text.stdout.contains(
            "content/uk/a.md:6: section 1.2.0 of the en chapter is not in this translation; a link to it from uk text leads to the en page (add its heading, `1.2.0 …`, after section 1.1.0, whose heading is on this line)"
        ),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout
            .contains("section 1.4.0 is not in the en chapter `a`"),
        "{}",
        text.stdout
    );
}

/// A finding in a chapter's title is at the title's line of the front matter, not line 1
/// (the `---`).
#[test]
fn a_finding_in_a_title_is_at_the_title_line() {
    let s = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: Discard pile\n---\n\n## 1.1.0 One\n\nDiscard a card.\n",
        ),
        (
            "content/uk/a.md",
            "---\nid: a\nweight: 1\ntitle: Правила для карт, що йдуть у discard pile\n---\n\n## 1.1.0 Один\n\nСкиньте карту.\n",
        ),
        (
            "content/en/glossary.json",
            "{\"discard pile\": \"Where cards go.\"}",
        ),
        (
            "content/uk/glossary.json",
            "{\"discard pile\": {\"term\": \"Стос скиду\", \"definition\": \"Куди йдуть карти.\"}}",
        ),
    ]);
    let (_, v) = check_json(s.path(), &[]);
    let in_title: Vec<(String, String, u64)> = findings(&v)
        .into_iter()
        .filter(|(k, f, _)| k == "untranslated-term" && f == "content/uk/a.md")
        .collect();
    assert_eq!(
        in_title,
        [(
            "untranslated-term".to_string(),
            "content/uk/a.md".to_string(),
            4
        )],
        "{v:#}"
    );
}

/// `--untranslated` lists the text units of a translation still in the source's language,
/// with their files and lines (the coverage only counts them); without it, a line says how
/// many there are and how to list them.
#[test]
fn untranslated_text_is_listed_with_its_lines() {
    let s = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: Alpha\n---\n\nIntro words here.\n\n## 1.1.0 One\n\nFirst rule of the game.\n",
        ),
        (
            "content/uk/a.md",
            "---\nid: a\ntitle: Альфа\n---\n\nВступні слова.\n\n## 1.1.0 Один\n\nFirst rule of the game.\n",
        ),
    ]);
    let dir = s.path().to_str().unwrap();
    let plain = run(&["check", "--site", dir]);
    assert!(
        plain
            .stdout
            .contains("1 text unit still in another language: `rulebook check --untranslated`"),
        "{}",
        plain.stdout
    );
    let listed = run(&["check", "--site", dir, "--untranslated"]);
    assert!(
        listed
            .stdout
            .contains("content/uk/a.md:10: First rule of the game."),
        "{}",
        listed.stdout
    );
    let (_, v) = check_json(s.path(), &["--untranslated"]);
    assert_eq!(
        v["untranslated"],
        serde_json::json!([{"file": "content/uk/a.md", "line": 10, "text": "First rule of the game."}]),
        "{v:#}"
    );
    let (_, v) = check_json(s.path(), &[]);
    assert!(v.get("untranslated").is_none(), "{v:#}");
}

/// The text units `--untranslated` lists reach the terminal with their control characters
/// escaped: an escape sequence in the content is shown, not run by the terminal.
#[test]
fn untranslated_text_is_listed_with_control_characters_escaped() {
    let rule = "First rule \u{1b}]0;pwned\u{7} of the game.";
    let s = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            &format!("---\nid: a\ntitle: Alpha\n---\n\nIntro words here.\n\n{rule}\n"),
        ),
        (
            "content/uk/a.md",
            &format!("---\nid: a\ntitle: Альфа\n---\n\nВступні слова.\n\n{rule}\n"),
        ),
    ]);
    let listed = run(&[
        "check",
        "--site",
        s.path().to_str().unwrap(),
        "--untranslated",
    ]);
    assert!(
        !listed.stdout.contains(['\u{1b}', '\u{7}']),
        "{:?}",
        listed.stdout
    );
    assert!(
        listed
            .stdout
            .contains("content/uk/a.md:8: First rule \\u{1b}]0;pwned\\u{7} of the game."),
        "{}",
        listed.stdout
    );
}

/// `translated` records a chapter with text still in English, and says so: the record is not
/// a sign that the translation is done. The line it names is the line in the file as written
/// (the record added above it moved it: it named the line before).
#[test]
fn translated_says_when_text_is_left_in_another_language() {
    let s = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: Alpha\n---\n\nIntro words.\n\nMore words here.\n",
        ),
        (
            "content/uk/a.md",
            "---\nid: a\ntitle: Альфа\n---\n\nВступ.\n\nMore words here.\n",
        ),
    ]);
    let r = run(&["translated", "--site", s.path().to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains("warning[unfinished-translation]: content/uk/a.md:13: recorded as up to date with its en source, though 1 of its 3 text units is still in another language"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("recorded the source of content/uk/a.md"),
        "{}",
        r.stderr
    );
}

/// Text meant to stay in the original language (card names, a quoted card) is marked with
/// A marker at the start of a line of text (where a translator types it): Markdown made the
/// line raw HTML, shown with its `**` and dropped by `--safe`, and coverage counted it neither
/// way. It marks its paragraph or item as one at the line's end does.
#[test]
fn a_marker_that_begins_a_line_of_text_marks_it() {
    let s = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: Alpha\n---\n\nThe **Coal** rule.\n\n1. Deal **damage** now.\n\nThe last rule of the game.\n",
        ),
        (
            "content/uk/a.md",
            "---\nid: a\ntitle: Альфа\n---\n\n<!-- keep original --> The **Coal** rule.\n\n1. <!-- keep original --> Deal **damage** now.\n\nThe last rule of the game.\n",
        ),
    ]);
    let (_, v) = check_json(s.path(), &["--untranslated"]);
    assert_eq!(
        v["untranslated"],
        serde_json::json!([{"file": "content/uk/a.md", "line": 10, "text": "The last rule of the game."}]),
        "{v:#}"
    );
    for safe in [false, true] {
        let mut args = vec!["build", "--site", s.path().to_str().unwrap()];
        if safe {
            args.push("--safe");
        }
        let r = run(&args);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let uk = page(&s.path().join("public/uk/a/index.html"));
        assert_eq!(
            texts(&uk, "article p strong, article li strong"),
            ["Coal", "damage"]
        );
        assert_eq!(texts(&uk, "article p.untr"), ["The last rule of the game."]);
        assert!(!texts(&uk, "article").join(" ").contains("keep original"));
    }
}

/// `<!-- keep original -->`: it is no untranslated text for `check`, and the build does not
/// mark its paragraph as not translated yet. Unmarked text still is.
#[test]
fn text_marked_to_keep_its_original_language_is_not_untranslated() {
    let s = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: Alpha\n---\n\nCard names.\n\nAradel Summergaard and Coal Roarkwin lead.\n\n- Maeoni Viper\n- Saria Guideman\n\nThe last rule of the game.\n",
        ),
        (
            "content/uk/a.md",
            "---\nid: a\ntitle: Альфа\n---\n\nНазви карт.\n\n<!-- keep original -->\nAradel Summergaard and Coal Roarkwin lead.\n\n<!-- keep original -->\n- Maeoni Viper\n- Saria Guideman <!-- keep original -->\n\nThe last rule of the game.\n",
        ),
    ]);
    let dir = s.path().to_str().unwrap();
    let (_, v) = check_json(s.path(), &["--untranslated"]);
    assert_eq!(
        v["untranslated"],
        serde_json::json!([{"file": "content/uk/a.md", "line": 15, "text": "The last rule of the game."}]),
        "{v:#}"
    );
    build_ok(s.path());
    let uk = page(&s.path().join("public/uk/a/index.html"));
    assert_eq!(
        texts(&uk, "article p.untr"),
        ["The last rule of the game."],
        "only the unmarked paragraph is marked as not translated"
    );
    // the comment is no text of the page
    assert!(!texts(&uk, "article").join(" ").contains("keep original"));
    let plain = run(&["check", "--site", dir]);
    assert!(
        plain
            .stdout
            .contains("1 text unit still in another language"),
        "{}",
        plain.stdout
    );
}

/// What `check --untranslated` lists and what the build marks agree around markers: after a
/// marked paragraph with a link, in nested list items, in headings and in table cells. Kept
/// text keeps its language (`lang`) for screen readers; only the mark goes.
#[test]
fn build_and_check_agree_on_marked_text() {
    let uk = "---\nid: a\ntitle: Альфа\n---\n\nВступ.\n\n\
<!-- keep original -->\nCoal Roarkwin see [the card](a.md) here.\n\n\
This paragraph is still English, not translated.\n\n\
- Parent English text here <!-- keep original -->\n  - Child English text here, long\n\n\
Ще список:\n\n\
- Parent English item text\n  - Дочірній пункт українською\n\n\
<!-- keep original -->\n## Coal Roarkwin Phoenixborn\n\nТекст.\n\n\
## Heading English Inline <!-- keep original -->\n\nТекст.\n\n\
| a | b |\n|---|---|\n| <!-- keep original --> | English cell long text |\n";
    let s = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: Alpha\n---\n\nIntro.\n",
        ),
        ("content/uk/a.md", uk),
    ]);
    let (_, v) = check_json(s.path(), &["--untranslated"]);
    let listed: Vec<&str> = v["untranslated"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        listed,
        [
            "This paragraph is still English, not translated.",
            "Child English text here, long",
            "Parent English item text",
            "a",
            "b",
            "English cell long text",
        ],
        "{v:#}"
    );
    build_ok(s.path());
    let page = page(&s.path().join("public/uk/a/index.html"));
    assert_eq!(
        texts(&page, "article p.untr"),
        ["This paragraph is still English, not translated."]
    );
    // the kept paragraph: its language, no mark
    assert_eq!(
        texts(&page, "article p[lang=\"en\"]:not(.untr)"),
        ["Coal Roarkwin see the card here."]
    );
    // an item that holds a list is not marked (its language would be its children's)
    let items: Vec<String> = page
        .select(&sel("article li.untr-item"))
        .map(|li| li.text().collect::<String>().trim().to_string())
        .collect();
    assert_eq!(items, ["Child English text here, long"]);
    assert_eq!(
        attrs(&page, "article h2[lang=\"en\"]", "id"),
        ["coal-roarkwin-phoenixborn", "heading-english-inline"]
    );
}

/// A section translated in part: the glossary's term is looked for in the units translated,
/// beside the source units they stand for. The section was passed over until every unit was
/// translated, so a wrong term went unnoticed all the while a chapter was being translated.
#[test]
fn a_wrong_term_is_found_in_a_section_translated_in_part() {
    let s = site(&[
        ("content/site.yaml", SITE_YAML),
        ("content/en/glossary.json", EN_GLOSSARY),
        ("content/uk/glossary.json", UK_GLOSSARY),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: Alpha\n---\n\n## 1.1.0 One\n\nDiscard a card now.\n\nThen the round goes on as before.\n",
        ),
        (
            "content/uk/a.md",
            "---\nid: a\ntitle: Альфа\n---\n\n## 1.1.0 Один\n\nВідкладіть одну карту.\n\nThen the round goes on as before.\n",
        ),
    ]);
    let terms = |s: &tempfile::TempDir| -> Vec<(String, u64)> {
        let (_, v) = check_json(s.path(), &[]);
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["kind"] == "inconsistent-term")
            .map(|f| {
                (
                    f["message"].as_str().unwrap().to_string(),
                    f["line"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    let found = terms(&s);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].0.contains("\"discard\" in section 1.1.0") && found[0].0.contains("\"Скинути\""),
        "{found:?}"
    );
    // the glossary's word used: nothing to say, though the section is still not all translated
    write(
        s.path(),
        "content/uk/a.md",
        "---\nid: a\ntitle: Альфа\n---\n\n## 1.1.0 Один\n\nСкиньте одну карту.\n\nThen the round goes on as before.\n".as_bytes(),
    );
    assert!(terms(&s).is_empty(), "{:?}", terms(&s));
    // units that do not pair one for one: the section waits until it is all translated
    write(
        s.path(),
        "content/uk/a.md",
        "---\nid: a\ntitle: Альфа\n---\n\n## 1.1.0 Один\n\nВідкладіть\n\nодну карту.\n\nThen the round goes on as before.\n".as_bytes(),
    );
    assert!(terms(&s).is_empty(), "{:?}", terms(&s));
}

/// A chapter without numbered sections is compared whole: its findings say "this chapter" and
/// "its text", not "the opening text", which names the text before a first numbered section.
#[test]
fn a_chapter_without_numbered_sections_is_named_as_a_whole() {
    let s = site(&[
        ("content/site.yaml", SITE_YAML),
        ("content/en/glossary.json", EN_GLOSSARY),
        ("content/uk/glossary.json", UK_GLOSSARY),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: Alpha\n---\n\nIntro.\n\n## Goal\n\nDiscard a card.\n",
        ),
        (
            "content/uk/a.md",
            "---\nid: a\ntitle: Альфа\n---\n\nВступ.\n\n## Мета\n\nВикиньте одну карту.\n",
        ),
        (
            "content/en/b.md",
            "---\nid: b\ntitle: Beta\n---\n\nDiscard a card.\n\n## 1.1.0 One\n\nFirst rule.\n",
        ),
        (
            "content/uk/b.md",
            "---\nid: b\ntitle: Бета\n---\n\nВикиньте одну карту.\n\n## 1.1.0 Один\n\nПерше правило.\n",
        ),
    ]);
    let messages = |kind: &str, file: &str| -> Vec<String> {
        let (_, v) = check_json(s.path(), &[]);
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["kind"] == kind && f["file"] == file)
            .map(|f| f["message"].as_str().unwrap().to_string())
            .collect()
    };
    let a = messages("inconsistent-term", "content/uk/a.md");
    assert!(
        a.len() == 1 && a[0].contains("\"discard\" in this chapter"),
        "{a:?}"
    );
    let b = messages("inconsistent-term", "content/uk/b.md");
    assert!(
        b.len() == 1 && b[0].contains("\"discard\" in the opening text"),
        "{b:?}"
    );
    let r = run(&["translated", "--site", s.path().to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    write(
        s.path(),
        "content/en/a.md",
        b"---\nid: a\ntitle: Alpha\n---\n\nIntro.\n\n## Goal\n\nDiscard two cards.\n",
    );
    write(
        s.path(),
        "content/en/b.md",
        b"---\nid: b\ntitle: Beta\n---\n\nDiscard two cards.\n\n## 1.1.0 One\n\nFirst rule.\n",
    );
    let a = messages("stale-translation", "content/uk/a.md");
    assert!(
        a.len() == 1 && a[0].contains("its text changed") && !a[0].contains("opening"),
        "{a:?}"
    );
    let b = messages("stale-translation", "content/uk/b.md");
    assert!(
        b.len() == 1 && b[0].contains("changed since: the opening text"),
        "{b:?}"
    );
}

/// Links to what the build writes besides chapters and glossaries (the print view, the short
/// addresses' page, the exports, the sitemap) are not reported as broken; a link to a file it
/// does not write still is. They were all "the site has no page".
#[test]
fn links_to_the_builds_own_pages_and_files_are_not_broken() {
    let links = [
        "/en/print/",
        "/en/print/#1.1.0",
        "/uk/s/?1.1.0",
        "/en/glossary.json",
        "/uk/sections.json",
        "/sitemap.xml",
        "/robots.txt",
        "/404.html",
        "../print/",
    ];
    let body: String = links.iter().map(|l| format!("[x]({l})\n\n")).collect();
    let dir = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            &format!("---\nid: a\ntitle: A\n---\n\n## 1.1.0 S\n\n{body}[y](/en/nothing.json)\n"),
        ),
        (
            "content/uk/a.md",
            "---\nid: a\ntitle: А\n---\n\n## 1.1.0 С\n\nТекст.\n",
        ),
        ("content/en/glossary.json", r#"{"a": "A."}"#),
    ]);
    let (_, v) = check_json(dir.path(), &[]);
    let broken: Vec<u64> = findings(&v)
        .into_iter()
        .filter(|(k, _, _)| k == "broken-link" || k == "broken-anchor")
        .map(|(_, _, l)| l)
        .collect();
    // the one link to a file the build does not write, on the line after the others
    assert_eq!(broken, [8 + 2 * links.len() as u64], "{v}");
}

/// `check` renders every chapter with the site's own chapter template, as the build does: a
/// mistake in a branch that the first chapter does not take (it has no previous chapter) fails
/// the build, so it fails `check` too. Only the first chapter was rendered, and `check` passed.
#[test]
fn check_finds_a_template_mistake_only_a_later_chapter_meets() {
    let chapter = include_str!("../templates/chapter.html").replacen(
        "{% block main %}",
        "{% block main %}\n{% if prev %}<p>{{ prev.titel }}</p>{% endif %}",
        1,
    );
    let line = chapter
        .lines()
        .position(|l| l.contains("prev.titel"))
        .unwrap()
        + 1;
    let dir = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: A\nweight: 1\n---\n\nText.\n",
        ),
        (
            "content/en/b.md",
            "---\nid: b\ntitle: B\nweight: 2\n---\n\nText.\n",
        ),
        ("templates/chapter.html", &chapter),
    ]);
    let (code, v) = check_json(dir.path(), &[]);
    assert_eq!(code, 1, "{v}");
    let templates: Vec<_> = findings(&v)
        .into_iter()
        .filter(|(k, _, _)| k == "template")
        .collect();
    assert_eq!(
        templates,
        [(
            "template".to_string(),
            "templates/chapter.html".to_string(),
            line as u64
        )]
    );
    let built = run(&["build", "--site", dir.path().to_str().unwrap()]);
    assert_eq!(built.code, 1, "{}", built.stderr);
    assert!(
        built
            .stderr
            .contains(&format!("templates/chapter.html:{line}:")),
        "{}",
        built.stderr
    );
}

/// On a site whose readers' first language is the source (`default_language: en`, translated
/// into `uk`), `translated` records the English source in the Ukrainian translation, as the
/// stale warning asks: it wrote records into the English files, and the warning never cleared.
#[test]
fn translated_writes_into_the_translation_when_the_source_comes_first() {
    let dir = tempfile::tempdir().unwrap();
    let s = dir.path().join("s");
    let r = run(&["init", s.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let yaml = s.join("content/site.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    std::fs::write(
        &yaml,
        text.replace("default_language: uk", "default_language: en"),
    )
    .unwrap();
    let en = s.join("content/en/01-basics.md");
    let text = std::fs::read_to_string(&en).unwrap();
    let edited = text.replace("draw a card", "draw two cards");
    assert_ne!(edited, text);
    std::fs::write(&en, &edited).unwrap();
    let (_, v) = check_json(&s, &[]);
    let stale: Vec<_> = findings(&v)
        .into_iter()
        .filter(|f| f.0 == "stale-translation")
        .collect();
    assert_eq!(stale.len(), 1, "{v}");
    assert_eq!(stale[0].1, "content/uk/01-basics.md");
    let r = run(&["translated", "--site", s.to_str().unwrap(), "basics"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        std::fs::read_to_string(&en).unwrap(),
        edited,
        "the source is left alone"
    );
    let (code, v) = check_json(&s, &[]);
    assert_eq!(code, 0, "{v}");
    assert!(
        !findings(&v).iter().any(|f| f.0 == "stale-translation"),
        "{v}"
    );
}

/// The glossary's `Хід` (turn) in its other forms (`ходу`, `ходів`) is the term, not a
/// translation that never uses it: `хід` / `ходу` is an і/о alternation the stemmer now knows.
#[test]
fn a_term_in_its_other_forms_is_the_term() {
    let dir = tempfile::tempdir().unwrap();
    let s = dir.path().join("s");
    assert_eq!(run(&["init", s.to_str().unwrap()]).code, 0);
    let uk = s.join("content/uk/01-basics.md");
    let text = std::fs::read_to_string(&uk).unwrap();
    let edited = text
        .replace("Ваш хід:", "Під час вашого ходу:")
        .replace("Хід закінчується", "Кожен з ходів закінчується");
    assert_ne!(edited, text);
    std::fs::write(&uk, edited).unwrap();
    let (_, v) = check_json(&s, &[]);
    let terms: Vec<_> = findings(&v)
        .into_iter()
        .filter(|f| f.0.ends_with("-term"))
        .collect();
    assert_eq!(terms, vec![], "{v}");
}

/// Entries whose terms are the same words (`Exhaust (when referring to a card)` and `… to a
/// die`) are one term where the text has them: a translation that uses either entry's
/// translation is consistent (each entry's translation was required, and the other one
/// reported as never used).
#[test]
fn entries_of_the_same_words_are_one_term_where_the_text_has_them() {
    let dir = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/glossary.json",
            r#"{"exhaust a card": {"term": "Exhaust (when referring to a card)", "definition": "a"},
               "exhaust a die": {"term": "Exhaust (when referring to a die)", "definition": "b"},
               "phoenixborn": "c"}"#,
        ),
        (
            "content/uk/glossary.json",
            r#"{"exhaust a card": {"term": "Виснаження (карта)", "definition": "а"},
               "exhaust a die": {"term": "Використання (кубик)", "definition": "б"},
               "phoenixborn": {"term": "Пломенекровний", "definition": "в"}}"#,
        ),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: A\n---\n\n## 1.1.0 One\n\nExhaust a card to turn it sideways.\n\n## 1.2.0 Two\n\nThe Phoenixborn plays first.\n",
        ),
        (
            "content/uk/a.md",
            "---\nid: a\ntitle: А\n---\n\n## 1.1.0 Один\n\nВиснаження карти повертає її боком.\n\n## 1.2.0 Два\n\nПломенекровний грає першим.\n",
        ),
    ]);
    let (_, v) = check_json(dir.path(), &[]);
    let terms: Vec<String> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"].as_str().unwrap().ends_with("-term"))
        .map(|f| format!("{} {}", f["kind"], f["message"]))
        .collect();
    assert_eq!(terms, Vec::<String>::new());
}
