//! `rulebook search`: results as JSON and text, the index kept out of public/, built on a fresh
//! checkout and rebuilt when the content changes, and clear errors.

use crate::common::*;
use serde_json::Value;

fn field<'a>(v: &'a Value, k: &str) -> &'a str {
    v[k].as_str()
        .unwrap_or_else(|| panic!("no string field {k} in {v}"))
}

#[test]
fn json_results_have_the_documented_fields() {
    let d = default_site();
    let hits = search_json(d.path(), &["закляття", "--limit", "5"]);
    assert!(!hits.is_empty() && hits.len() <= 5, "{hits:?}");
    for h in &hits {
        for k in ["lang", "title", "section", "url", "snippet"] {
            field(h, k);
        }
        assert!(h["score"].as_f64().unwrap() > 0.0);
    }
    // best first: the results whose title is exactly the query (`exact`), then the others
    let exact: Vec<bool> = hits.iter().map(|h| h["exact"].as_bool().unwrap()).collect();
    assert!(exact.windows(2).all(|w| w[0] >= w[1]), "{exact:?}");
    for group in [true, false] {
        let scores: Vec<f64> = (hits.iter())
            .filter(|h| h["exact"] == group)
            .map(|h| h["score"].as_f64().unwrap())
            .collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    }
    assert!(exact[0], "{hits:?}");
    // a term ranks its glossary entry first
    assert_eq!(field(&hits[0], "title"), "Закляття");
    assert!(field(&hits[0], "url").starts_with("uk/glossary/#"));
}

#[test]
fn a_query_in_one_language_finds_the_glossary_entry_of_the_other() {
    let d = default_site();
    let hits = search_json(d.path(), &["exhaustion token", "--lang", "uk"]);
    assert_eq!(field(&hits[0], "title"), "Жетон виснаження", "{hits:#?}");
    assert!(hits.iter().all(|h| field(h, "lang") == "uk"));
    let hits = search_json(d.path(), &["жетон виснаження", "--lang", "en"]);
    assert_eq!(
        field(&hits[0], "title").to_lowercase(),
        "exhaustion token",
        "{hits:#?}"
    );
}

#[test]
fn snippets_mark_the_matches_and_sections_carry_their_numbers() {
    let d = default_site();
    let hits = search_json(d.path(), &["damage", "--lang", "en", "--limit", "20"]);
    assert!(
        hits.iter().any(|h| field(h, "snippet").contains("**damage")
            || field(h, "snippet").contains("**Damage")),
        "{hits:#?}"
    );
    let numbered = hits
        .iter()
        .find(|h| !field(h, "section").is_empty())
        .expect("a numbered section among the results");
    let sec = field(numbered, "section");
    assert!(
        field(numbered, "url").ends_with(&format!("#{sec}")),
        "{numbered}"
    );
}

#[test]
fn works_on_a_fresh_checkout_and_keeps_the_index_out_of_public() {
    let d = default_site();
    // no build yet
    let hits = search_json(d.path(), &["phoenixborn", "--lang", "en"]);
    assert!(!hits.is_empty());
    assert!(d.path().join(".rulebook-cache/search/index").is_dir());
    assert!(
        !d.path().join("public").exists(),
        "search must not build the site"
    );
    // a build does not put the command line's index into the site
    build_ok(d.path());
    assert!(!d.path().join("public/.rulebook-cache").exists());
    assert!(files_with_ext(&d.path().join("public"), "idx").is_empty());
    // and the search still works after the build
    assert_eq!(
        search_json(d.path(), &["phoenixborn", "--lang", "en"]).len(),
        hits.len()
    );
}

#[test]
fn the_index_follows_the_content() {
    let d = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: 1.0.0 Alpha\n---\n\n## 1.1.0 Griffins\n\nGriffins fly.\n",
        ),
        (
            "content/uk/a.md",
            "---\nid: a\ntitle: 1.0.0 Альфа\n---\n\n## 1.1.0 Грифони\n\nГрифони літають.\n",
        ),
    ]);
    assert!(search_json(d.path(), &["basilisk"]).is_empty());
    std::thread::sleep(std::time::Duration::from_millis(20));
    write(
        d.path(),
        "content/en/a.md",
        b"---\nid: a\ntitle: 1.0.0 Alpha\n---\n\n## 1.1.0 Basilisks\n\nBasilisks stare.\n",
    );
    let hits = search_json(d.path(), &["basilisk"]);
    assert_eq!(hits.len(), 1, "{hits:#?}");
    assert_eq!(field(&hits[0], "section"), "1.1.0");
    assert_eq!(field(&hits[0], "url"), "en/a/#1.1.0");
    // Ukrainian word forms meet
    for q in ["грифон", "грифонів", "грифонами", "ГРИФОНИ"] {
        let hits = search_json(d.path(), &[q, "--lang", "uk"]);
        assert_eq!(hits.len(), 1, "{q}: {hits:#?}");
        assert_eq!(field(&hits[0], "section"), "1.1.0", "{q}");
    }
}

#[test]
fn text_output_lists_number_title_chapter_and_url() {
    let d = default_site();
    let r = run(&[
        "search",
        "--site",
        d.path().to_str().unwrap(),
        "--lang",
        "uk",
        "пломенекровний",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let first = r.stdout.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("1. ") && first.contains("Пломенекровний"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("uk/glossary/#"), "{}", r.stdout);
}

#[test]
fn bad_input_is_a_clear_error() {
    let d = default_site();
    let r = run(&[
        "search",
        "--site",
        d.path().to_str().unwrap(),
        "--lang",
        "de",
        "x",
    ]);
    assert_eq!(r.code, 2, "a usage error: {}", r.stderr);
    assert!(
        r.stderr.contains("--lang de") && r.stderr.contains("uk"),
        "{}",
        r.stderr
    );
    let empty = tempfile::tempdir().unwrap();
    let r = run(&["search", "--site", empty.path().to_str().unwrap(), "x"]);
    assert_eq!(r.code, 1, "no site to search, as for build: {}", r.stderr);
    assert!(r.stderr.contains("content/"), "{}", r.stderr);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    // broken content: the error names the file
    let broken = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: [unclosed\n---\n\nText.\n",
        ),
    ]);
    let r = run(&["search", "--site", broken.path().to_str().unwrap(), "text"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("content/en/a.md"), "{}", r.stderr);
    // a query with no words finds nothing, without failing
    assert!(search_json(d.path(), &["—?!"]).is_empty());
}

#[test]
fn a_section_number_finds_its_section_first() {
    let d = default_site();
    for (q, title) in [("7.1.0", "Discarding Cards"), ("2.1.0", "")] {
        let hits = search_json(d.path(), &[q, "--lang", "en", "--limit", "3"]);
        assert_eq!(field(&hits[0], "section"), q, "{hits:#?}");
        assert!(
            field(&hits[0], "url").ends_with(&format!("#{q}")),
            "{hits:#?}"
        );
        if !title.is_empty() {
            assert_eq!(field(&hits[0], "title"), title, "{hits:#?}");
        }
    }
}

/// A query of a section number written short (`7.1` for 7.1.0) finds its section first,
/// before the subsections whose shorter titles and rarer numbers score higher (`11.2.3 Draft`
/// against `11.2.0 [AOP] Drafting with a Large Group`).
#[test]
fn a_section_number_written_short_finds_its_section_first() {
    let d = default_site();
    for (q, want) in [
        ("7.1", "7.1.0"),
        ("11.2", "11.2.0"),
        ("1.1", "1.1.0"),
        ("12", "12.0.0"),
        ("7", "7.0.0"),
    ] {
        let hits = search_json(d.path(), &[q, "--lang", "en", "--limit", "3"]);
        assert_eq!(field(&hits[0], "section"), want, "{q}: {hits:#?}");
    }
}

/// Folders that a search killed outright (SIGKILL, a power cut) left in the cache are removed
/// by the next search that builds the index; a running process's are not touched.
#[test]
fn leftovers_of_killed_searches_are_swept() {
    let d = default_site();
    let cache = d.path().join(".rulebook-cache/search");
    // no process has a number this large (Linux allows at most 2^22)
    let dead = [
        cache.join("tmp-999999999"),
        cache.join("old-999999998"),
        cache.join("old-999999997"),
    ];
    let alive = cache.join(format!("tmp-{}", std::process::id()));
    for dir in dead[..2].iter().chain([&alive]) {
        std::fs::create_dir_all(dir.join("x")).unwrap();
    }
    // an `index` that was a file once moved aside is a file
    std::fs::write(&dead[2], "x").unwrap();
    // a change to the content makes the next search build the index
    std::fs::write(
        d.path().join("content/en/zz.md"),
        "---\nid: zz\ntitle: Zz\n---\nText.\n",
    )
    .unwrap();
    assert!(!search_json(d.path(), &["закляття"]).is_empty());
    for dir in &dead {
        assert!(!dir.exists(), "{} left", dir.display());
    }
    assert!(
        alive.is_dir(),
        "the folder of a running process was removed"
    );
}

/// An empty query and `--limit 0` are mistakes in the command (exit 2, saying what to give),
/// not searches that found nothing.
#[test]
fn an_empty_query_or_a_zero_limit_is_a_usage_error() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path().to_str().unwrap();
    for (args, says) in [
        (vec!["search", "--site", site, "  "], "the query is empty"),
        (
            vec!["search", "--site", site, "\u{1}\u{2} \t"],
            "the query is empty",
        ),
        (
            vec!["search", "--site", site, "\u{200b} \u{feff}\u{ad}"],
            "the query is empty",
        ),
        (
            vec!["search", "--site", site, "--limit", "0", "attack"],
            "a whole number from 1",
        ),
    ] {
        let r = run(&args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
    }
}

/// A stamp that does not describe the index beside it (damaged: no languages, or ranges that
/// miss documents) gets the index built again, not "the site has no such language".
#[test]
fn a_damaged_stamp_gets_the_index_built_again() {
    let d = default_site();
    let hits = search_json(d.path(), &["phoenixborn", "--lang", "en"]);
    assert!(!hits.is_empty());
    let stamp = d.path().join(".rulebook-cache/search/stamp.json");
    let text = std::fs::read_to_string(&stamp).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let fp = v["fingerprint"].as_str().unwrap();
    for langs in ["[]", "[[\"uk\",0,1],[\"en\",1,2]]"] {
        std::fs::write(
            &stamp,
            format!("{{\"fingerprint\":\"{fp}\",\"langs\":{langs}}}"),
        )
        .unwrap();
        assert_eq!(
            search_json(d.path(), &["phoenixborn", "--lang", "en"]).len(),
            hits.len(),
            "{langs}"
        );
    }
}

/// A language without documents (a translation not begun: no chapter, an empty glossary) has
/// an empty range in the stamp; wherever it is in the list, the stamp is whole, and the index
/// is reused, not built again on every search.
#[test]
fn a_language_without_documents_does_not_rebuild_the_index_each_time() {
    let d = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/01-a.md",
            "---\nid: a\ntitle: Alpha\n---\n\n## 1.1.0 Basics\n\nThe basics of play.\n",
        ),
    ]);
    assert!(!search_json(d.path(), &["basics", "--lang", "en"]).is_empty());
    let stamp = d.path().join(".rulebook-cache/search/stamp.json");
    let text = std::fs::read_to_string(&stamp).unwrap();
    assert!(text.contains("[\"uk\","), "{text}");
    let written = std::fs::metadata(&stamp).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert!(!search_json(d.path(), &["basics", "--lang", "en"]).is_empty());
    assert_eq!(
        std::fs::metadata(&stamp).unwrap().modified().unwrap(),
        written,
        "the index was built again: {text}"
    );
}

/// The index's vocabulary is kept in a file beside it, so a search need not work it out from
/// the index each time. Without that file, or with a damaged one, every search gives the
/// same results as with it (prefixes and typos too, which are found in the vocabulary), and
/// the index is not built again for it.
#[test]
fn a_missing_or_damaged_vocabulary_file_changes_no_result() {
    let d = default_site();
    let queries: [&[&str]; 7] = [
        &["phoenixborn", "--lang", "en"],
        &["phoenixbor", "--lang", "en"],
        &["phonixborn", "--lang", "en"],
        &["пломенекровного", "--lang", "uk"],
        &["жетон вис", "--lang", "uk"],
        &["7.1", "--lang", "en"],
        &["7", "--lang", "en"],
    ];
    let want: Vec<Vec<Value>> = queries.iter().map(|q| search_json(d.path(), q)).collect();
    assert!(want.iter().all(|h| !h.is_empty()), "{want:#?}");
    let file = d.path().join(".rulebook-cache/search/index/vocabulary.tsv");
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0].parse::<usize>().unwrap(), lines.len() - 1);
    let terms = &lines[1..];
    assert!(terms.len() > 100, "{} terms", terms.len());
    assert!(terms.windows(2).all(|w| w[0] < w[1]), "not sorted");
    assert!(terms.iter().any(|l| l.starts_with("phoenixborn\t")));
    let stamp = d.path().join(".rulebook-cache/search/stamp.json");
    let built = std::fs::metadata(&stamp).unwrap().modified().unwrap();
    let kept = |ls: &[&str]| ls.iter().map(|l| format!("{l}\n")).collect::<String>();
    let unsorted = lines[..1].iter().chain(terms.iter().rev()).copied();
    let damaged = [
        None,
        Some("1\nphoenixborn\tmany\n".to_string()),
        Some(kept(&unsorted.collect::<Vec<_>>())),
        // cut short: what is left is well formed, but most words are missing
        Some(kept(&lines[..lines.len() / 4])),
    ];
    for damage in damaged {
        match &damage {
            None => std::fs::remove_file(&file).unwrap(),
            Some(t) => std::fs::write(&file, t).unwrap(),
        }
        let got: Vec<Vec<Value>> = queries.iter().map(|q| search_json(d.path(), q)).collect();
        assert_eq!(got, want, "{damage:?}");
    }
    assert_eq!(
        std::fs::metadata(&stamp).unwrap().modified().unwrap(),
        built,
        "the index was built again"
    );
}

/// Searches started together on a site without an index each build one and swap it into
/// place; every one of them must answer. (One in about thirty failed: a search reopened its
/// index by name after the swap, when another had already moved it aside and deleted it, or
/// found another's index in the place it was renaming its own to.)
#[test]
fn searches_building_the_index_at_once_all_answer() {
    let d = default_site();
    let site = d.path().to_str().unwrap();
    for round in 0..12 {
        let _ = std::fs::remove_dir_all(d.path().join(".rulebook-cache"));
        let runs: Vec<_> = (0..6)
            .map(|_| {
                std::process::Command::new(bin())
                    .args(["search", "exhaustion", "--site", site, "--json"])
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for r in runs {
            let out = r.wait_with_output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "round {round}: {err}");
            let hits: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(field(&hits[0], "title"), "Exhausted", "round {round}");
        }
    }
    // the index left in place is whole, and reused
    let before = search_json(d.path(), &["exhaustion"]);
    let stamp = d.path().join(".rulebook-cache/search/stamp.json");
    let built = std::fs::metadata(&stamp).unwrap().modified().unwrap();
    assert_eq!(search_json(d.path(), &["exhaustion"]), before);
    assert_eq!(
        std::fs::metadata(&stamp).unwrap().modified().unwrap(),
        built
    );
}

/// An index in the cache that opens but fails to read (a disk error, a file edited by hand)
/// is built again and the search answers, rather than every search failing until the
/// content changes.
#[test]
fn a_damaged_index_file_gets_the_index_built_again() {
    let d = default_site();
    let want = search_json(d.path(), &["exhaustion token", "--limit", "5"]);
    assert!(!want.is_empty());
    let index = d.path().join(".rulebook-cache/search/index");
    let stores: Vec<_> = std::fs::read_dir(&index)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "store"))
        .collect();
    assert!(
        !stores.is_empty(),
        "no document store in {}",
        index.display()
    );
    for p in &stores {
        // the first half: the compressed documents, not the index of blocks at the end
        // (damage there is found when the index is opened, and it was built again then)
        let mut b = std::fs::read(p).unwrap();
        let half = b.len() / 2;
        for i in (64..half).step_by(97) {
            b[i] ^= 0x5a;
        }
        std::fs::write(p, b).unwrap();
    }
    assert_eq!(
        search_json(d.path(), &["exhaustion token", "--limit", "5"]),
        want
    );
}

/// Text from the content reaches the terminal with its control characters escaped: an escape
/// sequence in a title or a snippet is shown, not run by the terminal.
#[test]
fn text_output_escapes_control_characters_from_the_content() {
    let d = default_site();
    std::fs::write(
        d.path().join("content/en/zz.md"),
        "---\nid: zz\ntitle: \"Zebra \\e]0;pwned\\a\\e[2J\"\n---\n\nZebra body \u{1b}[41m x\n",
    )
    .unwrap();
    let r = run(&["search", "zebra", "--site", d.path().to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        !r.stdout.contains('\u{1b}') && !r.stdout.contains('\u{7}'),
        "{:?}",
        r.stdout
    );
    assert!(
        r.stdout.contains("Zebra \\u{1b}]0;pwned\\u{7}\\u{1b}[2J"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("\\u{1b}[41m"), "{}", r.stdout);
}

/// A query may begin with `-` (a word pasted with a dash before it): it is searched, not
/// refused as an unknown option.
#[test]
fn a_query_beginning_with_a_dash_is_searched() {
    let d = default_site();
    for q in ["-token", "- token"] {
        let hits = search_json(d.path(), &[q, "--lang", "en", "--limit", "3"]);
        assert_eq!(field(&hits[0], "title"), "Tokens", "{q}");
    }
    // the options around it are still options
    let hits = search_json(d.path(), &["--limit", "1", "-token"]);
    assert_eq!(hits.len(), 1);
}

/// A word typed half way, past the start of an ending the stemmer rewrites (`вартіс` on the
/// way to `вартість`, stem `вартост`; `placin` to `placing`, stem `place`), still finds its
/// word: typing showed results, then none, then results again. Each finds what the whole word
/// finds first.
#[test]
fn a_word_typed_half_way_past_a_rewritten_ending_finds_its_word() {
    let d = default_site();
    let first = |q: &str, lang: &str| -> String {
        let hits = search_json(d.path(), &[q, "--lang", lang, "--limit", "1"]);
        assert!(!hits.is_empty(), "{q} finds nothing");
        field(&hits[0], "title").to_string()
    };
    for (half, whole, lang) in [
        ("вартіс", "вартість", "uk"),
        ("властиві", "властивість", "uk"),
        ("здібніс", "здібність", "uk"),
        ("timin", "timing", "en"),
    ] {
        assert_eq!(first(half, lang), first(whole, lang), "{half}");
    }
    assert!(!first("placin", "en").is_empty());
}

/// A site that cannot be written (a checkout mounted read only, another user's folder) is
/// searched with its current index, and nothing is written: tantivy's reader created a lock
/// file in the index, that failed, and the search tried to build the index again ("Permission
/// denied"). As root, who may write anywhere, the search runs as the user `nobody`.
#[cfg(unix)]
#[test]
fn a_read_only_site_is_searched_with_its_current_index() {
    use std::os::unix::fs::PermissionsExt;
    let d = default_site();
    let expected = search_json(d.path(), &["phoenixborn", "--lang", "en"]);
    assert!(!expected.is_empty());
    // the program too, where `nobody` may run it
    let program = d.path().join("rulebook");
    std::fs::copy(bin(), &program).unwrap();
    for e in walkdir::WalkDir::new(d.path()) {
        let e = e.unwrap();
        let mode = if e.file_type().is_dir() || e.path() == program {
            0o555
        } else {
            0o444
        };
        std::fs::set_permissions(e.path(), std::fs::Permissions::from_mode(mode)).unwrap();
    }
    let before = snapshot(d.path());
    let site = d.path().to_str().unwrap();
    let args = [
        "search",
        "phoenixborn",
        "--lang",
        "en",
        "--json",
        "--site",
        site,
    ];
    let root = unsafe { libc::geteuid() } == 0;
    let search = || {
        if root {
            std::process::Command::new("setpriv")
                .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
                .arg(&program)
                .args(args)
                .output()
                .expect("setpriv (util-linux) runs the search as nobody")
        } else {
            std::process::Command::new(&program)
                .args(args)
                .output()
                .unwrap()
        }
    };
    let out = search();
    let after = snapshot(d.path());
    // an index older than the content cannot be built again here: the error says why
    let chapter = d.path().join("content/en/01-introduction.md");
    let mode = |m| std::fs::Permissions::from_mode(m);
    std::fs::set_permissions(&chapter, mode(0o644)).unwrap();
    let mut text = std::fs::read_to_string(&chapter).unwrap();
    text.push_str("\nOne more line.\n");
    std::fs::write(&chapter, text).unwrap();
    std::fs::set_permissions(&chapter, mode(0o444)).unwrap();
    let stale = search();
    // writable again, so the folder can be removed
    for e in walkdir::WalkDir::new(d.path()) {
        let e = e.unwrap();
        std::fs::set_permissions(e.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let hits: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(hits, expected);
    assert!(after == before, "the search wrote in the site");
    let stderr = String::from_utf8_lossy(&stale.stderr);
    assert_eq!(stale.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("must be writable"), "{stderr}");
}

/// On a read-only file system (a checkout mounted read-only, EROFS rather than the EACCES of
/// the test above) a site is searched with its current index, and a site without one is told
/// that its folder must be writable (only a permission error had that hint). The mount is a
/// read-only bind mount of the site in a mount namespace of the search's own (`unshare`, of
/// util-linux like `setpriv`), so nothing outside the test sees it.
#[cfg(target_os = "linux")]
#[test]
fn a_site_on_a_read_only_file_system_is_searched_or_told_why_not() {
    let read_only =
        |site: &std::path::Path| {
            let s = site.to_str().unwrap();
            std::process::Command::new("unshare")
            .args(["--map-root-user", "--mount", "sh", "-c"])
            .arg(r#"mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@""#)
            .args(["sh", s])
            .arg(bin())
            .args(["search", "phoenixborn", "--lang", "en", "--json", "--site", s])
            .output()
            .expect("unshare (util-linux) runs the search in a mount namespace")
        };
    let d = default_site();
    let expected = search_json(d.path(), &["phoenixborn", "--lang", "en"]);
    assert!(!expected.is_empty());
    let before = snapshot(d.path());
    let out = read_only(d.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let hits: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(hits, expected);
    assert!(snapshot(d.path()) == before, "the search wrote in the site");
    // never searched: no index, and none can be made there
    let fresh = default_site();
    let out = read_only(fresh.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("Read-only file system"), "{stderr}");
    assert!(stderr.contains("must be writable"), "{stderr}");
}

/// A number written short that begins more sections than a word's expansions finds the
/// first of them in the order of the rules: `142.2.0` before `142.10.0` (string order kept
/// `142.10.0` to `142.19.0` and dropped `142.5.0` to `142.9.0`).
#[test]
fn a_short_number_finds_the_first_sections_in_the_order_of_the_rules() {
    let numbers: String = (1..=20)
        .map(|i| format!("## 142.{i}.0 Tally {i}\n\nCount the tally.\n\n"))
        .collect();
    let en = format!("---\nid: a\ntitle: Tallies\n---\n\n{numbers}");
    let d = site(&[("content/site.yaml", SITE_YAML), ("content/en/a.md", &en)]);
    let hits = search_json(d.path(), &["142", "--lang", "en", "--limit", "16"]);
    let got: Vec<&str> = hits.iter().map(|h| field(h, "section")).collect();
    let want: Vec<String> = (1..=16).map(|i| format!("142.{i}.0")).collect();
    assert_eq!(got, want);
}

/// A question typed as it is asked finds what it asks about: its question words and
/// pronouns are little words, left out (every word of a query must match, and no glossary
/// entry has `що таке` or `how do I`).
#[test]
fn a_question_finds_what_it_asks_about() {
    let d = default_site();
    for (lang, q, title) in [
        ("uk", "що таке поле бою", "Поле бою"),
        ("uk", "що таке жетон виснаження", "Жетон виснаження"),
        ("en", "what is a phoenixborn", "Phoenixborn"),
        ("en", "how do I meditate", "Meditate"),
    ] {
        let hits = search_json(d.path(), &[q, "--lang", lang, "--limit", "3"]);
        assert!(!hits.is_empty(), "{q}: no results");
        assert_eq!(field(&hits[0], "title"), title, "{q}: {hits:#?}");
    }
}

/// A word typed without its apostrophe, or with a look-alike of it (`ʹ`, `ʻ`), finds what
/// the word with it finds; a half-typed word with its apostrophe is completed; the forms of
/// `бій` meet (`поле бою`).
#[test]
fn words_without_their_apostrophe_and_irregular_forms_meet() {
    let d = default_site();
    let urls = |q: &str| -> Vec<String> {
        (search_json(d.path(), &[q, "--lang", "uk"]).iter())
            .map(|h| field(h, "url").to_string())
            .collect()
    };
    let with = urls("п'ять");
    assert!(!with.is_empty());
    for q in ["пять", "пяти", "пʹять", "пʻять"] {
        assert_eq!(urls(q), with, "{q}");
    }
    // half typed, with the apostrophe: completed from `зявил…`, as the terms have none
    assert!(!urls("з'яв").is_empty(), "з'яв");
    let hits = search_json(d.path(), &["бій", "--lang", "uk", "--limit", "3"]);
    assert!(
        hits.iter().any(|h| field(h, "title") == "Поле бою"),
        "{hits:#?}"
    );
}

/// The content's fingerprint is the same whatever number of files a process may open: it
/// once held every folder open until the walk ended, so on a site of more folders than that
/// (here 200 folders under a limit of 64) the folders past it were left out, silently, and
/// edits there did not rebuild the index. Seen from outside: an index built under the low
/// limit was built again under the normal one.
#[test]
fn the_fingerprint_sees_every_folder_under_a_low_limit_of_open_files() {
    let d = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/a.md",
            "---\nid: a\ntitle: 1.0.0 Alpha\n---\n\nGriffins fly.\n",
        ),
        (
            "content/uk/a.md",
            "---\nid: a\ntitle: 1.0.0 Альфа\n---\n\nГрифони літають.\n",
        ),
    ]);
    for n in 0..200 {
        write(
            d.path(),
            &format!("content/en/res/d{n:03}/note.txt"),
            b"a note",
        );
    }
    let search = |limit: Option<u32>| {
        let mut cmd = std::process::Command::new("sh");
        let ulimit = limit.map_or(String::new(), |n| format!("ulimit -n {n} && "));
        cmd.args(["-c", &format!("{ulimit}exec \"$0\" \"$@\"")]);
        cmd.arg(bin())
            .args(["search", "--json", "--site"])
            .arg(d.path())
            .arg("griffins");
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let hits: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(hits.len(), 1, "{hits:#?}");
        std::fs::read_to_string(d.path().join(".rulebook-cache/search/stamp.json")).unwrap()
    };
    let low = search(Some(64));
    assert_eq!(search(None), low, "the index was built again");
}
