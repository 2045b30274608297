//! `rulebook init DIR`: the new site builds at once, checks clean, and init never overwrites.

use crate::common::*;

#[test]
fn init_output_builds_and_checks_clean() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("my-rules");
    let r = run(&["init", dir.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for f in [
        "content/site.yaml",
        "content/en/01-basics.md",
        "content/uk/01-basics.md",
        "content/en/glossary.json",
        "content/uk/glossary.json",
        ".github/workflows/pages.yml",
    ] {
        assert!(dir.join(f).is_file(), "{f} missing");
    }
    build_ok(&dir);
    let out = dir.join("public");
    // a paired chapter with a numbered section and a cross-link, in both languages
    for lang in ["uk", "en"] {
        let doc = page(&out.join(format!("{lang}/basics/index.html")));
        assert_eq!(attrs(&doc, "h2[id='1.1.0']", "id").len(), 1, "{lang}");
        let xrefs = attrs(&doc, "a.xref", "href");
        assert!(xrefs.iter().any(|h| h == "#1.1.0"), "{lang}: {xrefs:?}");
        let g = page(&out.join(format!("{lang}/glossary/index.html")));
        assert!(!texts(&g, "main").join(" ").is_empty());
    }
    assert_links_resolve(&out);
    // what rulebook writes into the site is not source: git leaves it alone
    let ignore = std::fs::read_to_string(dir.join(".gitignore")).unwrap();
    for line in [
        "/public/",
        "/.rulebook-cache/",
        ".*.rulebook-tmp-*",
        ".*.rulebook-old-*",
    ] {
        assert!(ignore.lines().any(|l| l == line), "{line} not in {ignore}");
    }
    // the translation records its source, so check is clean even with --strict
    let r = run(&["check", "--site", dir.to_str().unwrap(), "--strict"]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("0 error(s), 0 warning(s)"),
        "{}",
        r.stdout
    );
    // the workflow uses the official Pages actions
    let wf = std::fs::read_to_string(dir.join(".github/workflows/pages.yml")).unwrap();
    for a in [
        "actions/configure-pages@",
        "actions/upload-pages-artifact@",
        "actions/deploy-pages@",
    ] {
        assert!(wf.contains(a), "{a}");
    }
    // it is YAML, and its install step stops at once, saying what to set, when the variable
    // naming the tool is not set (it ran `cargo install --git ""`, which failed on its URL)
    let y: serde_yaml::Value = serde_yaml::from_str(&wf).unwrap();
    let steps = y["jobs"]["build"]["steps"].as_sequence().unwrap();
    let install = steps
        .iter()
        .find(|s| s["name"] == "Install rulebook")
        .expect("an install step");
    assert_eq!(install["env"]["RULEBOOK_GIT"], "${{ vars.RULEBOOK_GIT }}");
    let script = install["run"].as_str().unwrap();
    assert!(
        !script.contains("${{"),
        "expressions go through env, not into the shell: {script}"
    );
    let out = std::process::Command::new("bash")
        .args(["-c", script])
        .env("RULEBOOK_GIT", "")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("::error::Set the repository variable RULEBOOK_GIT"),
        "{out:?}"
    );
}

#[test]
fn init_refuses_an_existing_site() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "content/site.yaml", b"mine");
    let r = run(&["init", t.path().to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("content"), "{}", r.stderr);
    assert_eq!(
        std::fs::read(t.path().join("content/site.yaml")).unwrap(),
        b"mine"
    );
}

/// What would stop init half way is refused before anything is written: a file where a folder
/// goes (`.github`), and a link, even a dangling one, where a file goes (init wrote through
/// it, outside the folder). Nothing is left behind, so init runs once the cause is gone.
#[test]
fn init_writes_nothing_when_it_cannot_write_everything() {
    let t = tempfile::tempdir().unwrap();
    let site = t.path().join("site");
    std::fs::create_dir(&site).unwrap();
    std::fs::write(site.join(".github"), b"mine").unwrap();
    let s = site.to_str().unwrap();
    let r = run(&["init", s]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains(".github is a file"), "{}", r.stderr);
    let left: Vec<_> = std::fs::read_dir(&site)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, [".github"], "init left files behind");
    std::fs::remove_file(site.join(".github")).unwrap();
    // a dangling link where .gitignore goes: refused, and nothing made at its target
    let victim = t.path().join("victim");
    std::os::unix::fs::symlink(&victim, site.join(".gitignore")).unwrap();
    let r = run(&["init", s]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(!victim.exists(), "init wrote through a link");
    assert!(!site.join("content").exists());
    std::fs::remove_file(site.join(".gitignore")).unwrap();
    assert_eq!(run(&["init", s]).code, 0);
    assert!(site.join("content/site.yaml").is_file());
}

/// A repository made on GitHub has a `.gitignore` (and may have a Pages workflow): init makes
/// the site beside them, leaves them as they are, and says what to add to the `.gitignore`.
/// It refused the whole folder ("already exists").
#[test]
fn init_keeps_a_gitignore_and_a_workflow_that_are_there() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("my rules");
    write(&dir, ".gitignore", b"/target/\n/public/\n");
    write(&dir, ".github/workflows/pages.yml", b"name: mine\n");
    let r = run(&["init", dir.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(dir.join("content/site.yaml").is_file());
    assert_eq!(
        std::fs::read(dir.join(".gitignore")).unwrap(),
        b"/target/\n/public/\n"
    );
    assert_eq!(
        std::fs::read(dir.join(".github/workflows/pages.yml")).unwrap(),
        b"name: mine\n"
    );
    let out = format!("{}{}", r.stdout, r.stderr);
    assert!(
        out.contains("add these lines to it, so that git leaves out what rulebook writes: /.rulebook-cache/ .*.rulebook-tmp-* .*.rulebook-old-*"),
        "{out}"
    );
    assert!(
        out.contains("workflows/pages.yml; init's workflow"),
        "{out}"
    );
    assert!(
        !out.contains(&format!("created {}", dir.join(".gitignore").display())),
        "{out}"
    );
    // the command it suggests reads back as the folder, space and all
    let suggested = out
        .split("build it with `")
        .nth(1)
        .and_then(|s| s.split('`').next())
        .unwrap();
    assert!(
        suggested.ends_with(&format!("'{}'", dir.display())),
        "{suggested}"
    );
}

/// The home folder is refused, as `build --output` refuses it: a site there would scatter
/// `content/`, `.github/` and a `.gitignore` among the user's files. (The file system root is
/// refused by the same check; a test that got it wrong would write into `/`.)
#[test]
fn init_refuses_the_home_folder() {
    let home = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(bin())
        .args(["init", home.path().to_str().unwrap()])
        .env("HOME", home.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("it is the home folder"), "{stderr}");
    assert_eq!(
        std::fs::read_dir(home.path()).unwrap().count(),
        0,
        "wrote nothing"
    );
    // a folder inside it is fine
    let out = std::process::Command::new(bin())
        .args(["init", home.path().join("rules").to_str().unwrap()])
        .env("HOME", home.path())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
