//! Helpers shared by the end-to-end tests: fixture sites, running the binary, parsing output,
//! a loopback HTTP server for built sites, and a headless Chromium driven over WebDriver.

pub mod browser;
pub mod http;
pub mod spelling;
mod static_server;
pub mod tiers;

use std::path::{Path, PathBuf};
use std::process::Command;

pub use scraper::{Html, Selector};
pub use static_server::StaticServer;

/// The default content built once per test run, into `site-default` under the build's own
/// temporary folder (`target/tmp`): what the browser tests of the layout, the reading aids,
/// the print view and search open, none of which changes it. Each run's build replaces the
/// last one's: a folder named after the process in the system's temporary folder was never
/// removed, and a process id coming round again met an earlier rulebook's site there.
pub fn built_default_site() -> &'static PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT.get_or_init(|| {
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("site-default");
        let r = run(&[
            "build",
            "--site",
            repo().to_str().unwrap(),
            "--output",
            out.to_str().unwrap(),
        ]);
        assert_eq!(r.code, 0, "build failed: {}", r.stderr);
        out
    })
}

/// [`built_default_site`] served over loopback HTTP, once per test run.
pub fn served_default_site() -> &'static StaticServer {
    static SERVER: std::sync::OnceLock<StaticServer> = std::sync::OnceLock::new();
    SERVER.get_or_init(|| StaticServer::start(built_default_site(), "/"))
}

/// Where browser tests write their screenshots (named in the closing notes and the README).
pub fn shots() -> PathBuf {
    repo().join("target/screenshots")
}

/// Every file below `dir` with its bytes, sorted by path: what "the site is exactly as it
/// was" and "two builds are identical" compare.
pub fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            if e.path().is_dir() {
                stack.push(e.path());
            } else {
                files.push((
                    e.path().strip_prefix(dir).unwrap().to_path_buf(),
                    std::fs::read(e.path()).unwrap(),
                ));
            }
        }
    }
    files.sort();
    files
}

/// A copy of the repository's default content in a temporary site folder.
pub fn default_site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&repo().join("content"), &dir.path().join("content"));
    dir
}

/// Copies the folder `from`, and everything below it, to `to`.
pub fn copy_tree(from: &Path, to: &Path) {
    for e in walkdir::WalkDir::new(from) {
        let e = e.unwrap();
        let dest = to.join(e.path().strip_prefix(from).unwrap());
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
        } else {
            std::fs::copy(e.path(), &dest).unwrap();
        }
    }
}

/// A corpus written by `../shared/bench/gen_corpus.py` (8 sections a chapter, its default seed, our
/// format only): the site is in `rulebook/`, the list of its broken references in
/// `manifest.json`.
pub fn generated_corpus(chapters: usize) -> tempfile::TempDir {
    let gen = repo().join("../shared/bench/gen_corpus.py");
    assert!(
        gen.exists(),
        "the corpus generator is expected at {}",
        gen.display()
    );
    let dir = tempfile::tempdir().unwrap();
    let st = Command::new("python3")
        .args([
            gen.to_str().unwrap(),
            "--chapters",
            &chapters.to_string(),
            "--sections-per-chapter",
            "8",
            "--out",
            dir.path().to_str().unwrap(),
            "--formats",
            "rulebook",
        ])
        .output()
        .expect("python3");
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    dir
}

/// Path of the `rulebook` binary built for these tests.
pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_rulebook"))
}

/// Folder of this repository (the default site lives here).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A site made of the given files, in a temporary folder.
pub fn site(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (path, text) in files {
        write(dir.path(), path, text.as_bytes());
    }
    dir
}

pub fn write(root: &Path, rel: &str, bytes: &[u8]) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, bytes).unwrap();
}

/// The smallest valid `site.yaml` for a uk + en site.
pub const SITE_YAML: &str =
    "title: {uk: Правила, en: Rules}\nlanguages: [uk, en]\ndefault_language: uk\nbase_url: \"/\"\n";

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs the binary with `args`.
pub fn run(args: &[&str]) -> Run {
    let out = Command::new(bin())
        .args(args)
        .output()
        .expect("run rulebook");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Builds the site in `dir` into `dir/public`; panics with the output if the build fails.
pub fn build_ok(dir: &Path) -> Run {
    let r = run(&["build", "--site", dir.to_str().unwrap()]);
    assert_eq!(r.code, 0, "build failed:\n{}", r.stderr);
    r
}

pub fn page(path: &Path) -> Html {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    Html::parse_document(&text)
}

pub fn sel(s: &str) -> Selector {
    Selector::parse(s).unwrap_or_else(|e| panic!("selector {s}: {e:?}"))
}

/// Text of every element matching `s`.
pub fn texts(doc: &Html, s: &str) -> Vec<String> {
    doc.select(&sel(s))
        .map(|e| e.text().collect::<String>().trim().to_string())
        .collect()
}

pub fn attrs(doc: &Html, s: &str, attr: &str) -> Vec<String> {
    doc.select(&sel(s))
        .filter_map(|e| e.value().attr(attr).map(str::to_string))
        .collect()
}

/// Every file below `dir` with the given extension, sorted.
pub fn files_with_ext(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == ext) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Resolves a relative href found on the page at `page` (a file below `out`) to the file it
/// names and its fragment. `None` for external links.
pub fn resolve_href(out: &Path, page: &Path, href: &str) -> Option<(PathBuf, Option<String>)> {
    if href.contains("://") || href.starts_with("mailto:") || href.starts_with("//") {
        return None;
    }
    let (path, frag) = match href.split_once('#') {
        Some((p, f)) => (p, Some(f.to_string())),
        None => (href, None),
    };
    let path = path.split('?').next().unwrap_or("");
    let mut target = if path.is_empty() {
        page.to_path_buf()
    } else if let Some(abs) = path.strip_prefix('/') {
        out.join(abs)
    } else {
        let mut t = page.parent().unwrap().to_path_buf();
        for part in path.split('/') {
            match part {
                "" | "." => {}
                ".." => {
                    t.pop();
                }
                p => t.push(p),
            }
        }
        t
    };
    if path.ends_with('/') || target.is_dir() {
        target = target.join("index.html");
    }
    Some((target, frag))
}

/// Checks that every internal link and anchor of every page below `out` resolves. Returns the
/// number of links checked.
pub fn assert_links_resolve(out: &Path) -> usize {
    use std::collections::HashMap;
    let pages = files_with_ext(out, "html");
    let mut ids: HashMap<PathBuf, std::collections::HashSet<String>> = HashMap::new();
    let mut docs = Vec::new();
    for p in &pages {
        let doc = page(p);
        ids.insert(p.clone(), attrs(&doc, "[id]", "id").into_iter().collect());
        docs.push((p.clone(), doc));
    }
    let mut checked = 0;
    let mut broken = Vec::new();
    for (p, doc) in &docs {
        if p.ends_with("404.html") {
            continue; // its links are absolute from base_url
        }
        for attr in ["href", "src"] {
            for href in attrs(doc, &format!("[{attr}]"), attr) {
                if attr == "href"
                    && doc
                        .select(&sel(&format!("link[href=\"{href}\"]")))
                        .next()
                        .is_some()
                    && !href.ends_with(".css")
                {
                    continue; // canonical and alternates are absolute from base_url
                }
                let Some((file, frag)) = resolve_href(out, p, &href) else {
                    continue;
                };
                checked += 1;
                if !file.exists() {
                    broken.push(format!(
                        "{}: {href} (no file {})",
                        p.display(),
                        file.display()
                    ));
                    continue;
                }
                if let Some(f) = frag.filter(|f| !f.is_empty()) {
                    let f = percent_decode(&f);
                    if !ids.get(&file).is_some_and(|s| s.contains(&f)) {
                        broken.push(format!(
                            "{}: {href} (no #{f} in {})",
                            p.display(),
                            file.display()
                        ));
                    }
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "{} broken links, first ones:\n{}",
        broken.len(),
        broken
            .iter()
            .take(15)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    checked
}

pub fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `rulebook search --site SITE --json ARGS…`, which must succeed: its results.
pub fn search_json(site: &Path, args: &[&str]) -> Vec<serde_json::Value> {
    let mut all = vec!["search", "--site", site.to_str().unwrap(), "--json"];
    all.extend_from_slice(args);
    let r = run(&all);
    assert_eq!(r.code, 0, "search {args:?} failed:\n{}", r.stderr);
    serde_json::from_str::<serde_json::Value>(&r.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", r.stdout))
        .as_array()
        .expect("an array")
        .clone()
}

/// Which of `files` files the build puts what is filed under `key` in (a glossary entry's
/// tooltip, a number's short address): FNV-1a over the key's UTF-16 code units, as
/// `reading.js` computes it, written again here so a test checks both against a third.
pub fn hashed_file(key: &str, files: usize) -> usize {
    let mut h: u32 = 0x811c_9dc5;
    for u in key.encode_utf16() {
        h ^= u32::from(u);
        h = h.wrapping_mul(0x0100_0193);
    }
    h as usize % files
}
