//! `rulebook serve`: live reload (an edit shows in the served page and reloads an open page,
//! keeping its scroll position), the error overlay (and the last good site served meanwhile),
//! and requests for files outside the output folder refused in every encoding.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::browser::Browser;
use crate::common::http::{get, get_timeout};
use crate::common::*;

/// A running `rulebook serve`, stopped when dropped.
struct Serve {
    child: Child,
    addr: String,
}

impl Serve {
    fn start(dir: &std::path::Path) -> Serve {
        Serve::start_with(dir, &[])
    }

    /// [`Serve::start`] with more arguments (`--output DIR`).
    fn start_with(dir: &std::path::Path, more: &[&str]) -> Serve {
        let mut cmd = Command::new(bin());
        cmd.args(["serve", "--site", dir.to_str().unwrap(), "--port", "0"])
            .args(more);
        let (child, addr) = announced(cmd);
        assert!(
            addr.starts_with("127.0.0.1:"),
            "binds loopback by default: {addr}"
        );
        Serve { child, addr }
    }

    /// The server's status now: version, errors, print views' version, index writes.
    fn status(&self) -> serde_json::Value {
        serde_json::from_slice(&get(&self.addr, "/__rulebook/wait?now=1").body).unwrap()
    }

    fn version(&self) -> u64 {
        self.status()["version"].as_u64().unwrap()
    }

    /// Asks for the status every 50 ms until `ok`, for at most a minute: for news that makes
    /// no new version (the print views and the index written after the pages).
    fn poll_until(&self, what: &str, ok: impl Fn(&serde_json::Value) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let st = self.status();
            if ok(&st) {
                return;
            }
            assert!(Instant::now() < deadline, "{what}: {st}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits until the search index has been written again `n` times since the start.
    fn wait_for_search(&self, n: u64) {
        self.poll_until("the search index was not written again", |st| {
            st["search"].as_u64().unwrap() >= n
        });
    }

    /// Waits (long-poll) for a status newer than `v` that satisfies `ok`. One save can reach
    /// the server as more than one burst of file events (so more than one rebuild) on a busy
    /// machine: wait for the state that matters, not for the first rebuild.
    fn wait_for(&self, mut v: u64, ok: impl Fn(&serde_json::Value) -> bool) -> serde_json::Value {
        let deadline = Instant::now() + Duration::from_secs(90);
        loop {
            let r = get_timeout(
                &self.addr,
                &format!("/__rulebook/wait?v={v}"),
                Duration::from_secs(40),
            );
            let st: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
            let now = st["version"].as_u64().unwrap();
            if now > v && ok(&st) {
                return st;
            }
            v = now;
            assert!(
                Instant::now() < deadline,
                "no rebuild to the expected state: {st}"
            );
        }
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `cmd` (a `rulebook serve`) and reads the address it announces on its first line of
/// stdout. Its stderr is kept, so that a preview that stops before serving (an error, a panic)
/// fails the test with what it said and how it ended, not with an empty line.
fn announced(mut cmd: Command) -> (Child, String) {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start rulebook serve");
    let mut err = child.stderr.take().unwrap();
    let said = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut err, &mut text);
        text
    });
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .expect("serve prints its address");
    match line.trim().strip_prefix("serving http://") {
        Some(addr) => (child, addr.trim_end_matches('/').to_string()),
        None => {
            let _ = child.kill();
            let status = child.wait();
            let stderr = said.join().unwrap_or_default();
            panic!("serve did not announce its address: first line {line:?}, {status:?}, stderr:\n{stderr}")
        }
    }
}

fn fixture() -> tempfile::TempDir {
    let mut en = String::from("---\nid: rules\ntitle: Rules\n---\n\nIntro text.\n\n");
    let mut uk = String::from("---\nid: rules\ntitle: Правила\n---\n\nВступ.\n\n");
    for i in 1..=6 {
        en.push_str(&format!(
            "## 1.{i}.0 Part {i}\n\n{}\n\n",
            "Words of the rules. ".repeat(150)
        ));
        uk.push_str(&format!(
            "## 1.{i}.0 Частина {i}\n\n{}\n\n",
            "Слова правил. ".repeat(150)
        ));
    }
    site(&[
        ("content/site.yaml", SITE_YAML),
        ("content/en/rules.md", &en),
        ("content/uk/rules.md", &uk),
        (
            "content/en/other.md",
            "---\nid: other\ntitle: Other\n---\n\nSee 1.2.0.\n",
        ),
    ])
}

fn no_errors(st: &serde_json::Value) -> bool {
    st["errors"].as_array().is_some_and(|e| e.is_empty())
}

fn edit(dir: &std::path::Path, rel: &str, from: &str, to: &str) {
    let p = dir.join(rel);
    let text = std::fs::read_to_string(&p).unwrap();
    assert!(text.contains(from), "{rel} lacks {from:?}");
    std::fs::write(&p, text.replacen(from, to, 1)).unwrap();
}

fn article_text(addr: &str, path: &str) -> String {
    let r = get(addr, path);
    assert_eq!(r.status, 200, "{path}");
    let doc = Html::parse_document(&r.text());
    texts(&doc, "article").join(" ")
}

#[test]
fn an_edit_shows_in_the_served_page() {
    let dir = fixture();
    let s = Serve::start(dir.path());
    assert!(article_text(&s.addr, "/en/rules/").contains("Intro text."));
    let v = s.version();
    edit(
        dir.path(),
        "content/en/rules.md",
        "Intro text.",
        "Intro text, edited while serving.",
    );
    let st = s.wait_for(v, no_errors);
    assert_eq!(st["errors"].as_array().unwrap().len(), 0, "{st}");
    assert!(article_text(&s.addr, "/en/rules/").contains("edited while serving"));
    // the Ukrainian reader of an untranslated chapter sees the edit too
    let v = s.version();
    edit(
        dir.path(),
        "content/en/other.md",
        "See 1.2.0.",
        "See 1.2.0, now edited.",
    );
    s.wait_for(v, no_errors);
    assert!(article_text(&s.addr, "/uk/other/").contains("now edited"));
    // a new section number appears: a page that referred to it as plain text now links it
    let v = s.version();
    edit(
        dir.path(),
        "content/en/other.md",
        "See 1.2.0, now edited.",
        "See 1.2.0 and 1.9.0.",
    );
    s.wait_for(v, no_errors);
    let doc = Html::parse_document(&get(&s.addr, "/en/other/").text());
    assert!(!attrs(&doc, "a.xref", "href")
        .iter()
        .any(|h| h.contains("1.9.0")));
    let v = s.version();
    edit(
        dir.path(),
        "content/en/rules.md",
        "## 1.6.0 Part 6",
        "## 1.9.0 Part 9",
    );
    s.wait_for(v, no_errors);
    let doc = Html::parse_document(&get(&s.addr, "/en/other/").text());
    let hrefs = attrs(&doc, "a.xref", "href");
    assert!(
        hrefs.iter().any(|h| h.ends_with("rules/#1.9.0")),
        "{hrefs:?}"
    );
    // and its preview is there for the link, in the file the page names (one for a small site)
    let doc = Html::parse_document(&get(&s.addr, "/en/other/").text());
    assert_eq!(attrs(&doc, "article", "data-previews"), ["1"]);
    let script = get(&s.addr, "/en/s/p0-of-1.js").text();
    let json = script
        .split_once("]=")
        .and_then(|(_, j)| j.trim_end().strip_suffix(';'))
        .unwrap_or_else(|| panic!("{script}"));
    let previews: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(previews["1.9.0"][0], "Part 9", "{previews}");
    // 1.6.0 is now only in the Ukrainian text: the English reader is sent there
    assert_eq!(previews["1.6.0"][0], "Частина 6", "{previews}");
    // the live-reload script is served into pages, but never written into the site
    let page = get(&s.addr, "/en/rules/").text();
    assert!(page.contains("/__rulebook/live.js"));
    let built = files_with_ext(dir.path(), "html");
    for f in built {
        assert!(
            !std::fs::read_to_string(&f).unwrap().contains("__rulebook"),
            "{}",
            f.display()
        );
    }
    // a folder without its slash is redirected (its relative links need the slash)
    let r = get(&s.addr, "/en/rules");
    assert_eq!(r.status, 301);
    assert!(r.headers.contains("Location: /en/rules/"), "{}", r.headers);
}

#[test]
fn an_edited_chapter_keeps_its_glossary_links() {
    let dir = fixture();
    write(
        dir.path(),
        "content/en/glossary.json",
        br#"{"wound token": "A token that counts damage."}"#,
    );
    edit(
        dir.path(),
        "content/en/other.md",
        "See 1.2.0.",
        "See 1.2.0. Place a wound token.",
    );
    let s = Serve::start(dir.path());
    let term_links = |s: &Serve| {
        let doc = Html::parse_document(&get(&s.addr, "/en/other/").text());
        attrs(&doc, "article a.gl", "href")
    };
    assert_eq!(term_links(&s).len(), 1, "the full build links the term");
    let v = s.version();
    edit(
        dir.path(),
        "content/en/other.md",
        "Place a wound token.",
        "Place one wound token.",
    );
    s.wait_for(v, no_errors);
    assert!(article_text(&s.addr, "/en/other/").contains("one wound token"));
    assert_eq!(
        term_links(&s).len(),
        1,
        "the incremental rebuild links the term as the full build did"
    );
}

#[test]
fn a_build_error_shows_as_an_overlay_and_the_last_good_site_stays() {
    let dir = fixture();
    let s = Serve::start(dir.path());
    let v = s.version();
    // break the front matter of one chapter
    edit(
        dir.path(),
        "content/en/rules.md",
        "title: Rules\n",
        "title: [Rules\n",
    );
    let st = s.wait_for(v, |st| st["errors"][0]["line"] == 3);
    let errors = st["errors"].as_array().unwrap();
    assert!(!errors.is_empty(), "{st}");
    assert_eq!(errors[0]["file"], "content/en/rules.md");
    assert_eq!(errors[0]["line"], 3);
    // the last good page is still served
    assert!(article_text(&s.addr, "/en/rules/").contains("Intro text."));
    // in the browser: the overlay names file and line; fixing the file clears it
    let b = Browser::start(1000, 700);
    b.goto(&format!("http://{}/en/rules/", s.addr));
    let shown = b.wait_until(
        "var o = document.getElementById('rulebook-error-overlay'); return o && o.textContent",
        15,
        "the error overlay",
    );
    assert!(
        shown.as_str().unwrap().contains("content/en/rules.md:3"),
        "{shown}"
    );
    let v = s.version();
    edit(
        dir.path(),
        "content/en/rules.md",
        "title: [Rules\n",
        "title: Rules fixed\n",
    );
    let st = s.wait_for(v, |st| st["errors"].as_array().unwrap().is_empty());
    assert_eq!(st["errors"].as_array().unwrap().len(), 0, "{st}");
    b.wait_until(
        "return !document.getElementById('rulebook-error-overlay') && document.querySelector('h1').textContent.indexOf('Rules fixed') >= 0",
        15,
        "the page reloads without the overlay",
    );
}

/// A section number written twice in one chapter is the error `build` reports, not a page with
/// two sections of one id (the served model compared the chapter's numbers as a set).
#[test]
fn a_section_number_repeated_within_a_chapter_is_an_error() {
    let dir = fixture();
    let s = Serve::start(dir.path());
    let v = s.version();
    edit(
        dir.path(),
        "content/uk/rules.md",
        "## 1.6.0 Частина 6\n",
        "## 1.6.0 Частина 6\n\nТекст.\n\n## 1.2.0 Дубль\n",
    );
    let st = s.wait_for(v, |st| !no_errors(st));
    let errors = st["errors"].as_array().unwrap();
    assert_eq!(errors[0]["kind"], "duplicate-section", "{st}");
    assert_eq!(errors[0]["file"], "content/uk/rules.md", "{st}");
    // the last good page is still served, with one section 1.2.0
    let r = get(&s.addr, "/uk/rules/");
    let doc = Html::parse_document(&r.text());
    let sel = Selector::parse("[id='1.2.0']").unwrap();
    assert_eq!(doc.select(&sel).count(), 1);
}

#[test]
fn an_open_page_reloads_and_keeps_its_scroll_position() {
    let dir = fixture();
    let s = Serve::start(dir.path());
    let b = Browser::start(1000, 600);
    b.goto(&format!("http://{}/en/rules/", s.addr));
    b.wait_until("return document.readyState === 'complete'", 10, "page load");
    b.js("window.scrollTo(0, 1500); window.__marker = 1; return null;");
    // let the page's long-poll reach the server before the edit
    std::thread::sleep(Duration::from_millis(500));
    edit(
        dir.path(),
        "content/en/rules.md",
        "## 1.3.0 Part 3",
        "## 1.3.0 Part three",
    );
    b.wait_until(
        "return !window.__marker && document.readyState === 'complete' && document.getElementById('1.3.0') && document.getElementById('1.3.0').textContent.indexOf('three') >= 0",
        15,
        "the page reloads with the edit",
    );
    let y = b.wait_until(
        "return window.scrollY > 1000 ? window.scrollY : null",
        5,
        "the scroll position",
    );
    assert!(
        (y.as_f64().unwrap() - 1500.0).abs() < 50.0,
        "scrolled to {y}"
    );
}

/// The print views hold every chapter, so after an edit they are written after the edited
/// page is announced: an open print view reloads when they hold the edit, not before (when it
/// would show the old text and stay so).
#[test]
fn an_open_print_view_reloads_once_it_holds_the_edit() {
    let dir = fixture();
    let s = Serve::start(dir.path());
    let b = Browser::start(1000, 600);
    b.goto(&format!("http://{}/en/print/", s.addr));
    b.wait_until("return document.readyState === 'complete'", 10, "page load");
    b.js("window.__marker = 1; return null;");
    let v0 = s.version();
    // let the page's long-poll reach the server before the edit
    std::thread::sleep(Duration::from_millis(500));
    edit(
        dir.path(),
        "content/en/rules.md",
        "Intro text.",
        "Intro text, edited.",
    );
    // the status says when the print views hold a version past the edit
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut v = v0;
    let st = loop {
        let r = get_timeout(
            &s.addr,
            &format!("/__rulebook/wait?v={v}"),
            Duration::from_secs(40),
        );
        let st: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
        if no_errors(&st) && st["print"].as_u64().is_some_and(|p| p > v0) {
            break st;
        }
        v = st["version"].as_u64().unwrap();
        assert!(
            Instant::now() < deadline,
            "the print views were never announced: {st}"
        );
    };
    let r = get(&s.addr, "/en/print/");
    let doc = Html::parse_document(&r.text());
    assert!(texts(&doc, "main")
        .join(" ")
        .contains("Intro text, edited."));
    // a print view served says it shows the print views' version
    let script = doc
        .select(&sel("script[src='/__rulebook/live.js']"))
        .next()
        .expect("the live-reload script");
    assert!(script.value().attr("data-print").is_some());
    assert_eq!(
        script.value().attr("data-version"),
        Some(st["print"].to_string().as_str())
    );
    // and the open one reloaded to the edit
    b.wait_until(
        "return !window.__marker && document.readyState === 'complete' && document.body.textContent.indexOf('Intro text, edited.') >= 0",
        15,
        "the print view reloads with the edit",
    );
}

#[test]
fn files_outside_the_output_are_refused() {
    let dir = fixture();
    std::fs::write(dir.path().join("secret.txt"), "do not serve").unwrap();
    let s = Serve::start(dir.path());
    let paths = [
        "/../../etc/passwd",
        "/../secret.txt",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
        "/..%2f..%2fetc%2fpasswd",
        "/%252e%252e%252f%252e%252e%252fetc%252fpasswd",
        "/..%5c..%5cetc%5cpasswd",
        "/..\\..\\etc\\passwd",
        "/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd",
        "/en/../../../etc/passwd",
        "/en/%2e%2e/%2e%2e/secret.txt",
        "/./../etc/passwd",
        "/.rulebook-build",
        "/%00../etc/passwd",
        "//etc/passwd",
        "/etc/passwd",
        "/%2fetc%2fpasswd",
        "/en/rules/%2e%2e%2f%2e%2e%2f%2e%2e%2fsecret.txt",
    ];
    for p in paths {
        let r = get(&s.addr, p);
        assert_eq!(r.status, 404, "{p} gave {}", r.status);
        let body = r.text();
        assert!(
            !body.contains("root:") && !body.contains("do not serve"),
            "{p} leaked"
        );
    }
    // and the site itself is served
    assert_eq!(get(&s.addr, "/en/rules/").status, 200);
    assert_eq!(get(&s.addr, "/static/css/style.css").status, 200);
}

#[test]
fn idle_connections_do_not_hold_up_a_request() {
    // A browser opens connections ahead of need and may leave them silent for seconds. The
    // server once answered from a pool of eight workers, and eight silent connections made the
    // next page wait out the 10 s read timeout. Here twelve stay open and silent while a page
    // is asked for: it must be answered before they give up (well under that timeout).
    let dir = fixture();
    let s = Serve::start(dir.path());
    assert_eq!(get(&s.addr, "/en/rules/").status, 200);
    let idle: Vec<std::net::TcpStream> = (0..12)
        .map(|_| std::net::TcpStream::connect(&s.addr).expect("connect"))
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let r = get_timeout(&s.addr, "/en/rules/", Duration::from_secs(6));
    assert_eq!(r.status, 200);
    drop(idle);
}

/// A preview of `dir` on a free port, as started from a terminal, once it serves: the process
/// and its temporary output folder.
fn start_preview(dir: &Path) -> (Child, PathBuf) {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(bin());
    cmd.args(["serve", "--site", dir.to_str().unwrap(), "--port", "0"]);
    // as from a terminal (a background job starts with SIGINT ignored)
    // SAFETY: `signal` is async-signal-safe, and nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            libc::signal(libc::SIGHUP, libc::SIG_DFL);
            Ok(())
        });
    }
    let (child, _) = announced(cmd);
    let folder = preview_folder_of(child.id());
    assert!(folder.join("en/rules/index.html").is_file());
    (child, folder)
}

/// The temporary folder of the preview with process id `pid`: `rulebook-serve-PID`, or
/// `rulebook-serve-PID-N` when a leftover of a process gone long ago had that name (process
/// ids come round again). Of those, the one this preview built: its marker is the newest.
fn preview_folder_of(pid: u32) -> PathBuf {
    let name = format!("rulebook-serve-{pid}");
    std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .flatten()
        .filter(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n == name
                || n.strip_prefix(&format!("{name}-"))
                    .is_some_and(|k| k.parse::<u32>().is_ok())
        })
        .filter_map(|e| {
            let built = e
                .path()
                .join(".rulebook-build")
                .metadata()
                .ok()?
                .modified()
                .ok()?;
            Some((built, e.path()))
        })
        .max()
        .map(|(_, dir)| dir)
        .unwrap_or_else(|| panic!("no preview folder for process {pid}"))
}

/// Ctrl-C is how a preview is stopped, and closing its terminal (SIGHUP) another: either ends
/// it with the conventional code and takes its temporary folder (a whole built site) with it.
#[test]
fn ctrl_c_stops_the_preview_and_removes_its_folder() {
    let dir = fixture();
    for (signal, code) in [(libc::SIGINT, 130), (libc::SIGHUP, 129)] {
        let (mut child, folder) = start_preview(dir.path());
        // SAFETY: a signal to the child this test started and has not waited for yet.
        assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(code));
        assert!(!folder.exists(), "{} was left", folder.display());
        let staging = format!(
            ".{}.rulebook-",
            folder.file_name().unwrap().to_string_lossy()
        );
        let left: Vec<_> = std::fs::read_dir(std::env::temp_dir())
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with(&staging))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }
}

/// A preview killed outright cannot clean up: the next preview removes its folder, but only
/// while the folder holds nothing that preview did not write.
#[test]
fn a_killed_previews_folder_is_removed_by_the_next_one() {
    let dir = fixture();
    let (mut killed, folder) = start_preview(dir.path());
    killed.kill().unwrap();
    killed.wait().unwrap();
    assert!(folder.is_dir());
    // a file of someone's in it: left alone
    std::fs::write(folder.join("notes.txt"), "mine").unwrap();
    let (mut next, own) = start_preview(dir.path());
    next.kill().unwrap();
    next.wait().unwrap();
    assert!(folder.join("notes.txt").is_file());
    std::fs::remove_file(folder.join("notes.txt")).unwrap();
    let (mut last, last_own) = start_preview(dir.path());
    assert!(!folder.exists(), "{} was left", folder.display());
    assert!(!own.exists(), "{} was left", own.display());
    last.kill().unwrap();
    last.wait().unwrap();
    let _ = std::fs::remove_dir_all(last_own);
}

/// A folder without content/ is the same mistake for `serve` as for `build`: the same
/// message, and exit 1 (the command itself is fine).
#[test]
fn serving_a_folder_without_content_fails_as_build_does() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path().to_str().unwrap();
    let build = run(&["build", "--site", site]);
    let serve = run(&["serve", "--site", site, "--port", "0"]);
    assert_eq!(
        (build.code, serve.code),
        (1, 1),
        "{}\n{}",
        build.stderr,
        serve.stderr
    );
    let said = |r: &Run| {
        r.stderr
            .lines()
            .find(|l| l.starts_with("error[missing-content]"))
            .map(str::to_string)
    };
    assert!(said(&serve).is_some(), "{}", serve.stderr);
    assert_eq!(said(&build), said(&serve));
    // and `translated` (it said "cannot read the site settings")
    let translated = run(&["translated", "--site", site]);
    assert_eq!(translated.code, 1, "{}", translated.stderr);
    assert_eq!(said(&build), said(&translated), "{}", translated.stderr);
}

/// The files of `dir/search/` (paths from `dir`, sorted) and the text of its document chunks.
fn search_files(dir: &Path) -> (Vec<String>, String) {
    let mut files = Vec::new();
    let mut chunks = String::new();
    for e in walkdir::WalkDir::new(dir.join("search")).sort_by_file_name() {
        let e = e.unwrap();
        if e.file_type().is_file() {
            let rel = e
                .path()
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if rel.starts_with("search/d/") {
                chunks.push_str(&std::fs::read_to_string(e.path()).unwrap());
            }
            files.push(rel);
        }
    }
    (files, chunks)
}

/// The search index and `sections.json` hold every chapter's text, which an incremental
/// rebuild leaves as it was: `serve` writes them again once edits pause, and an open page then
/// finds the new text. The new index's files (more of them here) are what the folder's marker
/// lists, so a build may still replace the folder. The preview has no service worker: it
/// would serve the index and the theme's files of the first visit from its cache.
#[test]
fn an_edit_reaches_the_search_index_once_edits_pause() {
    let dir = fixture();
    let out = dir.path().join("preview");
    let s = Serve::start_with(dir.path(), &["--output", out.to_str().unwrap()]);
    let (before, chunks) = search_files(&out);
    assert!(!chunks.contains("zanzibarite"));
    let b = Browser::start(1000, 600);
    b.goto(&format!("http://{}/en/other/", s.addr));
    b.wait_until("return document.readyState === 'complete'", 10, "page load");
    assert!(b.search("zanzibarite").is_empty());
    // let the page's long-poll reach the server before the edit
    std::thread::sleep(Duration::from_millis(500));
    let v = s.version();
    // enough new sections for a new document chunk (12 documents each)
    let mut more = String::new();
    for i in 1..=13 {
        more.push_str(&format!(
            "\n\n## Appendix {i}\n\nThe zanzibarite rule, part {i}.\n"
        ));
    }
    edit(
        dir.path(),
        "content/en/rules.md",
        "Intro text.",
        &format!("Intro text.{more}"),
    );
    s.wait_for(v, no_errors);
    s.wait_for_search(1);
    let (after, chunks) = search_files(&out);
    assert!(
        chunks.contains("zanzibarite"),
        "the edit is not in the index"
    );
    assert!(
        after.len() > before.len(),
        "{} files, {} before",
        after.len(),
        before.len()
    );
    let sections = std::fs::read_to_string(out.join("en/sections.json")).unwrap();
    assert!(
        sections.contains("Appendix 13"),
        "sections.json was not written again"
    );
    let marker = std::fs::read_to_string(out.join(".rulebook-build")).unwrap();
    let listed: Vec<String> = marker
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str::<String>(l).unwrap())
        .filter(|f| f.starts_with("search/"))
        .collect();
    assert_eq!(listed, after, "the marker does not list the new index");
    // the open page (reloaded by the edit) finds the new text
    b.wait_until(
        "return document.readyState === 'complete' && window.RulebookSearch",
        10,
        "the page after the edit",
    );
    let titles = b.search("zanzibarite");
    assert!(titles.iter().any(|t| t.contains("Appendix")), "{titles:?}");
    // what live.js does when the index is written again with the page open: the page drops
    // the index it read and runs the open search again on the new one
    b.js("document.getElementById('search-results').removeAttribute('data-query'); window.RulebookSearch.reset(); return null;");
    let again = b.wait_until(
        "var r = document.getElementById('search-results'); return !r.hidden && r.getAttribute('data-query') === 'zanzibarite' && !r.hasAttribute('aria-busy') && Array.from(r.querySelectorAll('.search-title')).map(e => e.textContent);",
        20,
        "the search run again after a reset",
    );
    assert_eq!(again, serde_json::json!(titles));
    let reads = b.js("return performance.getEntriesByType('resource').filter(e => e.name.endsWith('/search/index.js')).length");
    assert_eq!(reads, serde_json::json!(2), "the index is read again");
    let sw = get(&s.addr, "/sw.js").text();
    assert!(
        sw.contains("unregister") && !sw.contains("RULEBOOK_VERSION"),
        "{sw}"
    );
    drop(s);
    let r = run(&[
        "build",
        "--site",
        dir.path().to_str().unwrap(),
        "--output",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        r.code, 0,
        "a build refuses the preview's folder:\n{}",
        r.stderr
    );
}

/// A save through a temporary file renamed over the chapter (`sed -i`, JetBrains' safe write,
/// many editors) rebuilds that chapter, as a save in place does: the temporary file, gone by
/// the end of the burst, made every such save a rebuild of the whole site. Only an incremental
/// rebuild writes the search index afterwards, once edits pause, which is what is waited for.
#[test]
fn a_save_through_a_renamed_temporary_file_rebuilds_the_chapter_only() {
    let dir = fixture();
    let out = dir.path().join("preview");
    let s = Serve::start_with(dir.path(), &["--output", out.to_str().unwrap()]);
    let v = s.version();
    let chapter = dir.path().join("content/en/other.md");
    let text = std::fs::read_to_string(&chapter).unwrap();
    let temp = dir.path().join("content/en/sedq7XbZ2");
    std::fs::write(&temp, text.replace("See 1.2.0.", "See 1.2.0 first.")).unwrap();
    std::fs::rename(&temp, &chapter).unwrap();
    s.wait_for(v, no_errors);
    assert!(article_text(&s.addr, "/en/other/").contains("See 1.2.0 first."));
    s.wait_for_search(1);
}

/// The preview shows drafts, which the build leaves out: a draft's page says it is one, in the
/// reader's language, and a published chapter's page does not.
#[test]
fn a_draft_says_it_is_one_in_the_preview() {
    let dir = fixture();
    write(
        dir.path(),
        "content/en/later.md",
        b"---\nid: later\ntitle: Later\ndraft: true\n---\n\nNot ready.\n",
    );
    let s = Serve::start(dir.path());
    let banner = |path: &str| {
        let doc = Html::parse_document(&get(&s.addr, path).text());
        texts(&doc, "aside.banner.draft strong")
    };
    assert_eq!(banner("/en/later/"), ["Draft."]);
    // the Ukrainian reader gets the English draft, with both banners
    assert_eq!(banner("/uk/later/"), ["Чернетка."]);
    let doc = Html::parse_document(&get(&s.addr, "/uk/later/").text());
    assert_eq!(texts(&doc, "aside.banner.untranslated").len(), 1);
    assert!(banner("/en/rules/").is_empty());
}

/// A preview's log on standard error is for the person watching it: once that stream is
/// closed (the terminal gone, a script that reads only the address), the preview goes on
/// serving and rebuilding, rather than ending at its next log line.
#[test]
fn a_preview_whose_log_is_closed_keeps_serving() {
    let dir = fixture();
    let mut child = Command::new(bin())
        .args([
            "serve",
            "--site",
            dir.path().to_str().unwrap(),
            "--port",
            "0",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start rulebook serve");
    drop(child.stderr.take());
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("serving http://")
        .unwrap_or_else(|| panic!("no address: {line:?} {:?}", child.try_wait()))
        .trim_end_matches('/')
        .to_string();
    let s = Serve { child, addr };
    let v = s.version();
    edit(
        dir.path(),
        "content/en/rules.md",
        "Intro text.",
        "Intro text, edited with the log closed.",
    );
    s.wait_for(v, no_errors);
    assert!(article_text(&s.addr, "/en/rules/").contains("edited with the log closed"));
}

/// A full rebuild (a chapter added) never deletes what was put into the output folder since
/// `serve` started: it is refused with an error naming the file, as `build` refuses it, and
/// the file stays; the search index is not replaced over a file put into its folder either.
/// (A full rebuild deleted both, with the rest of the old site.)
#[test]
fn files_put_into_the_output_folder_survive_rebuilds() {
    let dir = fixture();
    let out = tempfile::tempdir().unwrap();
    let site_out = out.path().join("site");
    let s = Serve::start_with(dir.path(), &["--output", site_out.to_str().unwrap()]);
    let v = s.version();
    std::fs::write(site_out.join("notes.txt"), "mine").unwrap();
    write(
        dir.path(),
        "content/en/extra.md",
        b"---\nid: extra\ntitle: Extra\n---\n\nMore words.\n",
    );
    let st = s.wait_for(v, |st| !no_errors(st));
    assert!(
        st["errors"][0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("notes.txt")),
        "{st}"
    );
    assert_eq!(std::fs::read(site_out.join("notes.txt")).unwrap(), b"mine");
    // moved out: the next rebuild goes through
    std::fs::rename(site_out.join("notes.txt"), out.path().join("notes.txt")).unwrap();
    let v = s.version();
    edit(
        dir.path(),
        "content/en/extra.md",
        "More words.",
        "More words, again.",
    );
    s.wait_for(v, no_errors);
    assert!(article_text(&s.addr, "/en/extra/").contains("again"));
    // a file in the search index's folder: the index written once edits pause is refused,
    // with an error in the open pages, and the file stays
    let searched = s.status()["search"].as_u64().unwrap();
    std::fs::write(site_out.join("search/mine.txt"), "mine").unwrap();
    let v = s.version();
    edit(
        dir.path(),
        "content/en/rules.md",
        "Intro text.",
        "Intro text, edited.",
    );
    let st = s.wait_for(v, |st| {
        !no_errors(st) || st["search"].as_u64().is_some_and(|n| n > searched)
    });
    assert_eq!(
        std::fs::read(site_out.join("search/mine.txt")).unwrap(),
        b"mine",
        "{st}"
    );
    assert!(
        st["errors"][0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("search/mine.txt")),
        "{st}"
    );
}

/// After edits, what `serve` wrote is what `build` writes from the same content (but `sw.js`,
/// which the preview never serves). Edits that change other chapters' pages rebuild them: a
/// reference made (the "Referenced by" list under the section it names, on its chapter's page
/// and the print view), a section added (its address, the links to it), a chapter's title
/// (how those lists name a reference made outside numbered sections). Only the edited
/// chapter was written again, and those pages stayed as they were.
#[test]
fn after_edits_the_served_site_is_what_a_build_writes() {
    let d = default_site();
    let out = tempfile::tempdir().unwrap();
    let served = out.path().join("served");
    let s = Serve::start_with(d.path(), &["--output", served.to_str().unwrap()]);
    let append = |rel: &str, text: &str| {
        let p = d.path().join(rel);
        let mut body = std::fs::read_to_string(&p).unwrap();
        body.push_str(text);
        std::fs::write(&p, body).unwrap();
    };
    let v = s.version();
    append(
        "content/en/rr-08-meditation.md",
        "\nSee 7.1.0 for details.\n",
    );
    s.wait_for(v, no_errors);
    let v = s.version();
    append(
        "content/en/rr-08-meditation.md",
        "\n## 8.5.0 New Section\n\nNew words.\n",
    );
    s.wait_for(v, no_errors);
    // a chapter's title: how other chapters' "Referenced by" lists name its references made
    // outside numbered sections
    let v = s.version();
    edit(
        d.path(),
        "content/en/rr-00-about.md",
        "title: \"About this reference\"",
        "title: \"About this rules reference\"",
    );
    s.wait_for(v, no_errors);
    // a heading's title: the contents pages list it (its chapter's neighbours do not)
    let v = s.version();
    edit(
        d.path(),
        "content/en/rr-07-damage.md",
        "## 7.2.0 Example Effect Triggers",
        "## 7.2.0 Examples of Effect Triggers",
    );
    s.wait_for(v, no_errors);
    // a plain edit, rebuilt in place; then the print views and the search index catch up
    let searched = s.status()["search"].as_u64().unwrap();
    let v = s.version();
    append("content/uk/02-setup.md", "\nЩе один абзац.\n");
    s.wait_for(v, no_errors);
    // the print views are written after the pages (their news does not make a new version)
    s.poll_until("the print views were not written", |st| {
        st["print"] == st["version"]
    });
    s.wait_for_search(searched + 1);
    drop(s);
    assert_served_as_built(d.path(), &served);
}

/// Builds the site at `site` beside `served` (what `serve` wrote from it) and fails on any
/// file that differs, `sw.js` included: the preview serves a stub in its place, but the
/// folder may be published (its version stayed that of the first build).
fn assert_served_as_built(site: &Path, served: &Path) {
    let built = served.with_file_name("built");
    let r = run(&[
        "build",
        "--site",
        site.to_str().unwrap(),
        "--output",
        built.to_str().unwrap(),
        "--base-url",
        "/",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let files = |dir: &Path| -> Vec<(PathBuf, Vec<u8>)> { snapshot(dir) };
    let (a, b) = (files(served), files(&built));
    let names = |v: &[(PathBuf, Vec<u8>)]| v.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>();
    assert_eq!(names(&a), names(&b));
    let differ: Vec<&PathBuf> = a
        .iter()
        .zip(&b)
        .filter(|(x, y)| x.1 != y.1)
        .map(|(x, _)| &x.0)
        .collect();
    assert!(differ.is_empty(), "served and built differ: {differ:?}");
}

/// A term used in more than a fifth of the sections is too common to link, on every page: an
/// edit that makes it so (or no longer so) rebuilds every page, as `build` would write them.
#[test]
fn an_edit_that_makes_a_term_too_common_to_link_rebuilds_every_page() {
    // 5 chapters of 8 sections: 45 sections, "guard" in 9 (not more than a fifth)
    let mut files = vec![
        ("content/site.yaml".to_string(), SITE_YAML.to_string()),
        (
            "content/en/glossary.json".to_string(),
            "{\"guard\": \"Guard text.\"}".to_string(),
        ),
    ];
    let mut uses = 0;
    for c in 1..=5 {
        let mut text = format!("---\nid: c{c}\ntitle: Chapter {c}\n---\n\nOpening.\n\n");
        for n in 1..=8 {
            let word = if uses < 9 && n % 4 == 1 {
                "guard"
            } else {
                "ward"
            };
            if word == "guard" {
                uses += 1;
            }
            text.push_str(&format!(
                "## {c}.{n}.0 Part {n}\n\nA {word} stands here.\n\n"
            ));
        }
        files.push((format!("content/en/c{c}.md"), text));
    }
    assert_eq!(uses, 9);
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let d = site(&refs);
    let out = tempfile::tempdir().unwrap();
    let served = out.path().join("served");
    let s = Serve::start_with(d.path(), &["--output", served.to_str().unwrap()]);
    let linked = |addr: &str| {
        get(addr, "/en/c1/")
            .body
            .windows(10)
            .any(|w| w == b"#guard\">gu")
    };
    assert!(linked(&s.addr), "guard is linked while it is not common");
    let v = s.version();
    edit(
        d.path(),
        "content/en/c5.md",
        "A ward stands here.",
        "A guard stands here.",
    );
    s.wait_for(v, no_errors);
    assert!(
        !linked(&s.addr),
        "guard, now common, is still linked on another page"
    );
    drop(s);
    assert_served_as_built(d.path(), &served);
}

/// A site folder made while `serve` runs (a first static/) is watched from then on, and so is
/// a content/ made anew (moved away and copied back): later edits in them are rebuilt. (Only
/// the folders there at the start were watched.)
#[test]
fn folders_made_while_serving_are_watched() {
    let dir = fixture();
    let s = Serve::start(dir.path());
    let v = s.version();
    std::fs::create_dir(dir.path().join("static")).unwrap();
    s.wait_for(v, no_errors);
    let v = s.version();
    std::fs::write(dir.path().join("static/hello.txt"), "hello 1").unwrap();
    s.wait_for(v, |_| get(&s.addr, "/static/hello.txt").body == b"hello 1");
    let v = s.version();
    std::fs::write(dir.path().join("static/hello.txt"), "hello 2").unwrap();
    s.wait_for(v, |_| get(&s.addr, "/static/hello.txt").body == b"hello 2");
    // content/ moved away and copied back: edits in the copy are rebuilt
    let content = dir.path().join("content");
    let old = dir.path().join("content-old");
    std::fs::rename(&content, &old).unwrap();
    let v = s.version();
    copy_tree(&old, &content);
    s.wait_for(v, no_errors);
    let v = s.version();
    edit(
        dir.path(),
        "content/en/rules.md",
        "Intro text.",
        "Intro text, copied.",
    );
    s.wait_for(v, |_| {
        article_text(&s.addr, "/en/rules/").contains("copied")
    });
}

/// Sends `request` as written and returns what the server answers, whole.
fn raw(addr: &str, request: &[u8]) -> Vec<u8> {
    use std::io::{Read, Write};
    let mut c = std::net::TcpStream::connect(addr).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    c.write_all(request).unwrap();
    let mut out = Vec::new();
    let _ = c.read_to_end(&mut out);
    out
}

/// The header line `name` of a raw answer, if any.
fn header(answer: &[u8], name: &str) -> Option<String> {
    let text = String::from_utf8_lossy(answer);
    let head = text.split("\r\n\r\n").next().unwrap_or("").to_string();
    head.lines()
        .find_map(|l| l.strip_prefix(&format!("{name}: ")).map(str::to_string))
}

/// HEAD is answered with GET's head and no body (a page said `Content-Length: 0`, a missing
/// one sent its body); a folder asked for with a doubled slash is redirected within the site
/// (`//en/rules` was sent to `//en/rules/`, which a browser reads as the host `en`).
#[test]
fn head_requests_and_redirects_are_answered_as_http_asks() {
    let dir = fixture();
    let s = Serve::start(dir.path());
    for path in ["/en/rules/", "/en/nothing-here/", "/sw.js"] {
        let got = raw(
            &s.addr,
            format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes(),
        );
        let head = raw(
            &s.addr,
            format!("HEAD {path} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes(),
        );
        let body = |a: &[u8]| {
            let at = a.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
            a[at..].to_vec()
        };
        assert!(body(&head).is_empty(), "{path}: HEAD sent a body");
        let length = header(&head, "Content-Length").unwrap();
        // a page's live-reload script names the version: the same length either way
        assert_eq!(length, body(&got).len().to_string(), "{path}");
        assert_eq!(length, header(&got, "Content-Length").unwrap(), "{path}");
    }
    let moved = raw(&s.addr, b"GET //en/rules HTTP/1.1\r\nHost: x\r\n\r\n");
    assert_eq!(header(&moved, "Location").as_deref(), Some("/en/rules/"));
}

/// A request's head must arrive whole within the read timeout: a client sending a header
/// line every few seconds is cut off, not kept for as long as it goes on.
#[test]
fn a_request_head_sent_slowly_is_cut_off() {
    use std::io::{Read, Write};
    let dir = fixture();
    let s = Serve::start(dir.path());
    let mut c = std::net::TcpStream::connect(&s.addr).unwrap();
    c.set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    c.write_all(b"GET /en/rules/ HTTP/1.1\r\n").unwrap();
    let start = Instant::now();
    let mut answered = false;
    while start.elapsed() < Duration::from_secs(20) {
        if c.write_all(b"X-Slow: y\r\n").is_err() {
            answered = true;
            break;
        }
        let mut buf = [0u8; 64];
        match c.read(&mut buf) {
            Ok(0) | Ok(_) => {
                answered = true;
                break;
            }
            Err(_) => std::thread::sleep(Duration::from_millis(2000)),
        }
    }
    assert!(answered, "a head sent slowly held its connection for 20 s");
    assert!(
        start.elapsed() < Duration::from_secs(15),
        "{:?}",
        start.elapsed()
    );
}
