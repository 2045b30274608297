//! Never lose work: a build that fails, is interrupted (Ctrl-C) or killed leaves the previous
//! site exactly as it was; `--output` refuses folders that are not ours; links out of the site
//! are not followed.

use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A generated site large enough that a build takes a while (so a signal lands mid-build).
fn big_site(chapters: usize) -> tempfile::TempDir {
    generated_corpus(chapters)
}

fn staging_exists(site: &Path) -> bool {
    std::fs::read_dir(site).unwrap().flatten().any(|e| {
        e.file_name()
            .to_string_lossy()
            .starts_with(".public.rulebook-tmp-")
    })
}

/// The staging folder of the build with process id `pid`.
fn staging_of(site: &Path, pid: u32) -> PathBuf {
    site.join(format!(".public.rulebook-tmp-{pid}"))
}

/// Starts a build, waits until it is writing its staging folder, then sends `signal`. Returns
/// the build's exit code (`None`: killed by the signal) and its staging folder, or `Err(())`
/// when the build finished before the signal reached it (a busy machine): the caller tries
/// again.
fn interrupt_mid_build(site: &Path, signal: &str) -> Result<(Option<i32>, PathBuf), ()> {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(bin());
    cmd.args(["build", "--site", site.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // As from a terminal, where Ctrl-C reaches the build: a shell's background job starts with
    // SIGINT ignored, and an ignored signal stays ignored across exec, so a test suite run in
    // the background would otherwise see the build finish instead of stop.
    // SAFETY: `signal` is async-signal-safe, and nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            libc::signal(libc::SIGTERM, libc::SIG_DFL);
            Ok(())
        });
    }
    let mut child = cmd.spawn().unwrap();
    // its own: one a killed build left is there from the start
    let staging = staging_of(site, child.id());
    let start = Instant::now();
    while !staging.exists() {
        if child.try_wait().unwrap().is_some() {
            return Err(());
        }
        assert!(start.elapsed() < Duration::from_secs(60));
        std::thread::sleep(Duration::from_millis(1));
    }
    // let it write some files, then stop it
    std::thread::sleep(Duration::from_millis(20));
    let st = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    let status = child.wait().unwrap();
    if status.success() {
        return Err(());
    }
    Ok((status.code(), staging))
}

/// Appends a paragraph to a chapter, so a build that got through would change public/.
fn change_content(site: &Path) {
    let ch = std::fs::read_dir(site.join("content/en"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "md"))
        .unwrap();
    let mut text = std::fs::read_to_string(&ch).unwrap();
    text.push_str("\nA new closing paragraph.\n");
    std::fs::write(&ch, text).unwrap();
}

#[test]
fn a_killed_or_interrupted_build_leaves_the_previous_site_as_it_was() {
    let corpus = big_site(400);
    let site = corpus.path().join("rulebook");
    build_ok(&site);
    let mut before = snapshot(&site.join("public"));
    assert!(before.len() > 800);
    change_content(&site);
    // (signal, exit code): SIGKILL cannot be caught; Ctrl-C and SIGTERM end the build with the
    // conventional code after removing its temporary folder
    for (signal, code) in [("-KILL", None), ("-INT", Some(130)), ("-TERM", Some(143))] {
        let mut tries = 0;
        let got = loop {
            match interrupt_mid_build(&site, signal) {
                Ok(got) => break got,
                Err(()) => {
                    // it finished first: what it built is the site to keep, and another
                    // change gives the next try something to lose
                    tries += 1;
                    assert!(tries < 5, "every build finished before {signal} reached it");
                    before = snapshot(&site.join("public"));
                    change_content(&site);
                }
            }
        };
        let (got, staging) = got;
        assert_eq!(got, code, "exit code after {signal}");
        assert!(
            snapshot(&site.join("public")) == before,
            "public/ changed after kill {signal}"
        );
        if code.is_some() {
            assert!(!staging.exists(), "{signal} left the temporary folder");
        }
    }
    // the next build cleans up what the stopped ones left and succeeds
    build_ok(&site);
    assert!(!staging_exists(&site), "a stale staging folder was left");
    assert!(snapshot(&site.join("public")) != before);
}

/// The names in `dir` that hold `part`.
fn names_with(dir: &Path, part: &str) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(part))
        .collect()
}

#[test]
fn files_put_into_a_previous_site_are_never_deleted() {
    let t = tempfile::tempdir().unwrap();
    let s = t.path().join("S");
    let st = s.to_str().unwrap();
    assert_eq!(run(&["init", st]).code, 0);
    build_ok(&s);
    let out = s.join("public");
    write(&out, "mine.txt", b"mine");
    write(&out, "en/d/x", b"x");
    let before = snapshot(&out);
    let r = run(&["build", "--site", st]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("refusing")
            && r.stderr.contains("en/d/, mine.txt")
            && r.stderr.contains("static/"),
        "{}",
        r.stderr
    );
    assert!(snapshot(&out) == before, "public/ changed");
    assert!(
        names_with(&s, "rulebook-").is_empty(),
        "{:?}",
        names_with(&s, "rulebook-")
    );
    // moved away, they no longer stop the build
    std::fs::remove_file(out.join("mine.txt")).unwrap();
    std::fs::remove_dir_all(out.join("en/d")).unwrap();
    build_ok(&s);
    // a marker dropped into a folder of one's own does not make it rulebook's
    let docs = t.path().join("docs");
    write(&docs, "important.doc", b"keep");
    // (the second is the whole marker of an earlier rulebook, which lists no files: such a
    // folder is checked against what the build writes, and names what it would delete)
    for (marker, said) in [
        ("", ".rulebook-build marker"),
        (
            LEGACY_MARKER,
            "does not write, which replacing it would delete: important.doc",
        ),
    ] {
        write(&docs, ".rulebook-build", marker.as_bytes());
        let r = run(&["build", "--site", st, "--output", docs.to_str().unwrap()]);
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(r.stderr.contains(said), "{}", r.stderr);
        assert_eq!(std::fs::read(docs.join("important.doc")).unwrap(), b"keep");
    }
    // a site an earlier rulebook built, with nothing else in it, is replaced as before
    std::fs::remove_file(docs.join("important.doc")).unwrap();
    write(&docs, "en/index.html", b"old page");
    let r = run(&["build", "--site", st, "--output", docs.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_ne!(
        std::fs::read(docs.join("en/index.html")).unwrap(),
        b"old page"
    );
    assert!(std::fs::read_to_string(docs.join(".rulebook-build"))
        .unwrap()
        .starts_with("rulebook-build 2"));
}

/// The whole marker that rulebook wrote before markers listed their files.
const LEGACY_MARKER: &str =
    "This folder was written by `rulebook build`; the next build replaces it.\n";

#[test]
fn an_output_reached_through_a_link_is_checked_where_it_lands() {
    let t = tempfile::tempdir().unwrap();
    let s = t.path().join("S");
    assert_eq!(run(&["init", s.to_str().unwrap()]).code, 0);
    let link = t.path().join("link");
    std::os::unix::fs::symlink(&s, &link).unwrap();
    for out in ["content/x", "content/out/x", "content/a/b/out"] {
        let r = run(&[
            "build",
            "--site",
            link.to_str().unwrap(),
            "--output",
            link.join(out).to_str().unwrap(),
        ]);
        assert_eq!(r.code, 2, "{out}: {}", r.stderr);
        assert!(
            r.stderr.contains("inside the site's content/"),
            "{out}: {}",
            r.stderr
        );
    }
    let mut left: Vec<_> = walkdir::WalkDir::new(s.join("content"))
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_dir())
        .map(|e| e.path().strip_prefix(&s).unwrap().to_path_buf())
        .collect();
    left.sort();
    assert_eq!(
        left,
        ["content", "content/en", "content/uk"].map(PathBuf::from)
    );
}

#[test]
fn output_folders_that_are_not_ours_are_refused() {
    let dir = site(&[
        ("content/site.yaml", SITE_YAML),
        ("content/en/01-a.md", "---\nid: a\ntitle: A\n---\nText.\n"),
    ]);
    let home = tempfile::tempdir().unwrap();
    write(home.path(), "diary.txt", b"mine");
    let foreign = dir.path().join("notes");
    write(&foreign, "todo.txt", b"mine");
    let s = dir.path().to_str().unwrap();
    let cases: Vec<(PathBuf, &str)> = vec![
        (PathBuf::from("/"), "file system root"),
        (home.path().to_path_buf(), "home folder"),
        (dir.path().to_path_buf(), "site folder"),
        (dir.path().join("content"), "content/"),
        (dir.path().join("content/en/out"), "content/"),
        (dir.path().join("static"), "static/"),
        (dir.path().join("templates/x"), "templates/"),
        (foreign.clone(), "not written by rulebook"),
        (dir.path().join("content/en/01-a.md"), "content/"),
        // the site folder reached through `..`
        (dir.path().join("content/.."), "site folder"),
    ];
    for (out, why) in cases {
        let r = Command::new(bin())
            .args(["build", "--site", s, "--output", out.to_str().unwrap()])
            .env("HOME", home.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(2), "{}: {stderr}", out.display());
        assert!(
            stderr.contains("refusing") && stderr.contains(why),
            "{}: expected a refusal naming `{why}`: {stderr}",
            out.display()
        );
    }
    assert_eq!(
        std::fs::read(home.path().join("diary.txt")).unwrap(),
        b"mine"
    );
    assert_eq!(std::fs::read(foreign.join("todo.txt")).unwrap(), b"mine");
    assert!(dir.path().join("content/en/01-a.md").is_file());
    // an empty folder, or a previous build, is fine
    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    for _ in 0..2 {
        let r = run(&["build", "--site", s, "--output", empty.to_str().unwrap()]);
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
}

/// An output path through a file (`--output notes.txt/site`) names the file; the system's
/// own words were "File exists", which did not say which.
#[test]
fn an_output_path_through_a_file_names_the_file() {
    let dir = site(&[
        ("content/site.yaml", SITE_YAML),
        ("content/en/01-a.md", "---\nid: a\ntitle: A\n---\nText.\n"),
    ]);
    write(dir.path(), "notes.txt", b"mine");
    let s = dir.path().to_str().unwrap();
    for out in ["notes.txt/site", "notes.txt/a/site"] {
        let out = dir.path().join(out);
        let r = run(&["build", "--site", s, "--output", out.to_str().unwrap()]);
        assert_eq!(r.code, 2, "{}", r.stderr);
        let named = format!(
            "{} is a file, not a folder",
            dir.path().join("notes.txt").display()
        );
        assert!(r.stderr.contains(&named), "{}", r.stderr);
    }
    assert_eq!(
        std::fs::read(dir.path().join("notes.txt")).unwrap(),
        b"mine"
    );
}

#[cfg(unix)]
#[test]
fn links_out_of_the_site_are_not_followed() {
    use std::os::unix::fs::symlink;
    let outside = tempfile::tempdir().unwrap();
    write(
        outside.path(),
        "secret.md",
        b"---\nid: secret\ntitle: Secret\n---\nTOP-SECRET-TEXT\n",
    );
    write(outside.path(), "secret.txt", b"TOP-SECRET-TEXT");
    write(outside.path(), "base.html", b"TOP-SECRET-TEXT");
    write(
        outside.path(),
        "i18n/en.yaml",
        b"contents: TOP-SECRET-TEXT\n",
    );
    write(
        outside.path(),
        "dir/inner.md",
        b"---\nid: inner\ntitle: Inner\n---\nTOP-SECRET-TEXT\n",
    );
    let dir = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/01-a.md",
            "---\nid: a\ntitle: A\n---\nText.\n\n![x](../../../secret.png)\n",
        ),
        (
            "content/en/02-inside.md",
            "---\nid: inside\ntitle: Inside\n---\nInside text.\n",
        ),
    ]);
    let d = dir.path();
    symlink(
        outside.path().join("secret.md"),
        d.join("content/en/03-secret.md"),
    )
    .unwrap();
    symlink(outside.path().join("dir"), d.join("content/en/more")).unwrap();
    symlink(
        outside.path().join("secret.txt"),
        d.join("content/en/pic.png"),
    )
    .unwrap();
    std::fs::create_dir_all(d.join("static")).unwrap();
    symlink(outside.path().join("secret.txt"), d.join("static/leak.txt")).unwrap();
    symlink(outside.path(), d.join("static/everything")).unwrap();
    // the theme's files and folders too: a template, and the folder of UI strings
    std::fs::create_dir_all(d.join("templates")).unwrap();
    symlink(
        outside.path().join("base.html"),
        d.join("templates/base.html"),
    )
    .unwrap();
    symlink(outside.path().join("i18n"), d.join("i18n")).unwrap();
    // a link that stays inside the site is fine
    symlink(
        d.join("content/en/02-inside.md"),
        d.join("content/en/04-alias.md"),
    )
    .unwrap();
    write(
        d,
        "content/en/05-b.md",
        b"---\nid: b\ntitle: B\n---\n![p](pic.png)\n",
    );
    let r = run(&["build", "--site", d.to_str().unwrap()]);
    assert_eq!(
        r.code, 1,
        "the in-site alias duplicates id `inside`:\n{}",
        r.stderr
    );
    std::fs::remove_file(d.join("content/en/04-alias.md")).unwrap();
    let r = build_ok(d);
    for link in [
        "content/en/03-secret.md",
        "content/en/more",
        "static/leak.txt",
        "static/everything",
        "templates/base.html",
        "i18n",
    ] {
        assert!(
            r.stderr.contains(&format!("warning[symlink]: {link}: ")),
            "no warning for {link}:\n{}",
            r.stderr
        );
    }
    assert!(
        r.stderr
            .contains("warning[image-outside-site]: content/en/01-a.md:"),
        "{}",
        r.stderr
    );
    let out = d.join("public");
    for (path, bytes) in snapshot(&out) {
        assert!(
            !String::from_utf8_lossy(&bytes).contains("TOP-SECRET-TEXT"),
            "{} holds text from outside the site",
            path.display()
        );
    }
    assert!(!out.join("en/secret").exists() && !out.join("en/inner").exists());
    assert!(out.join("en/inside/index.html").is_file());
}

/// Images may come from `content/` and `static/` only: the site's other files (`.env`,
/// `.git/`) are the user's, and a chapter that points at them must not publish them, nor the
/// absolute path of the machine that built it.
#[test]
fn images_elsewhere_in_the_site_are_not_published() {
    let dir = site(&[
        ("content/site.yaml", SITE_YAML),
        (
            "content/en/01-a.md",
            "---\nid: a\ntitle: A\n---\nText.\n\n![env](../../.env)\n\n![git](../../.git/config.png)\n\n![hidden](.hidden/p.png)\n\n![text](notes.txt)\n\n![ok](pic.png) ![shared](../../static/img/s.png) ![abs](/img/s.png)\n",
        ),
        (".env", "API_KEY=TOP-SECRET-TEXT\n"),
        (".git/config.png", "TOP-SECRET-TEXT"),
        ("content/en/.hidden/p.png", "TOP-SECRET-TEXT"),
        ("content/en/notes.txt", "TOP-SECRET-TEXT"),
        ("content/en/pic.png", "PNG"),
        ("static/img/s.png", "PNG"),
    ]);
    let d = dir.path();
    let r = build_ok(d);
    for (code, line) in [
        ("image-outside-content", 7),
        ("image-outside-content", 9),
        ("image-not-copied", 11),
        ("image-not-copied", 13),
    ] {
        let want = format!("warning[{code}]: content/en/01-a.md:{line}:");
        assert!(r.stderr.contains(&want), "no {want}:\n{}", r.stderr);
    }
    let out = d.join("public");
    let machine = d.to_string_lossy().into_owned();
    for (path, bytes) in snapshot(&out) {
        let text = String::from_utf8_lossy(&bytes);
        assert!(
            !text.contains("TOP-SECRET-TEXT"),
            "{} holds a file that is not an image of the site",
            path.display()
        );
        assert!(
            !path
                .to_string_lossy()
                .contains(machine.trim_start_matches('/'))
                && !text.contains(&machine),
            "{} names the folder the site was built in",
            path.display()
        );
    }
    let srcs = attrs(&page(&out.join("en/a/index.html")), "main img[src]", "src");
    assert_eq!(
        srcs,
        [
            "../../media/en/pic.png",
            "../../static/img/s.png",
            "../../static/img/s.png"
        ],
        "{srcs:?}"
    );
    assert_eq!(std::fs::read(out.join("media/en/pic.png")).unwrap(), b"PNG");
    assert_eq!(std::fs::read(out.join("static/img/s.png")).unwrap(), b"PNG");
}
