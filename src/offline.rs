//! The service worker, `sw.js` at the site root: what a visitor's browser keeps so that the
//! site and its search work offline after the first visit, and the version that tells the
//! browser to drop what it kept.
//!
//! The worker serves the theme's files (`static/`), the images (`media/`) and the search index
//! (`search/`) from its cache first, without asking the server. So its version must change
//! whenever any byte of those files does: a worker with the same version keeps serving the old
//! files to every returning visitor, for good. The version is therefore a fingerprint of those
//! files as written, not of the text alone (a fix to the CSS, a new image under the same name
//! or a new rulebook's `search.js` changes no text).

use std::hash::{Hash, Hasher};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::diag::Diagnostic;
use crate::output::write_file;

/// The largest search index the service worker downloads whole on the first visit, so that
/// every search works offline afterwards (the default content's is about 0.2 MB). A larger
/// index (a few MB from a few hundred chapters on) is kept as it is read: the searches made
/// online work offline.
pub const OFFLINE_INDEX_BYTES: u64 = 2 * 1024 * 1024;

/// The most the reading aids' files of a site (glossary tooltips and section previews, every
/// language's) may come to for the worker to keep them all on the first visit, so that cards
/// open offline too; the default content's are about 0.2 MB. Of a larger site, those a reader
/// opened online are kept.
pub const OFFLINE_AIDS_BYTES: u64 = 1024 * 1024;

/// The most a site's pages (every language's contents, chapters and glossary; not the print
/// views) may come to for the worker to keep them all on the first visit, so that the whole
/// book reads offline, not only the pages opened online: a player looks a rule up mid-game,
/// often without a connection. The default content's are about 0.7 MB. Of a larger site, the
/// pages a reader opened online are kept, and one never opened says it was not saved.
pub const OFFLINE_PAGES_BYTES: u64 = 2 * 1024 * 1024;

/// The most the theme's files and the images (`static/`, `media/`) may come to for the worker
/// to keep them all on the first visit (the default content's are about 0.1 MB): the icons of
/// a page were missing offline when it was the first page read. Past it, the few files every
/// page needs are kept (`SHELL` in `sw.js`), and the rest as they are read.
pub const OFFLINE_FILES_BYTES: u64 = 2 * 1024 * 1024;

/// The folders whose files the worker serves from its cache first (`static/js/sw.js`).
const CACHED_FIRST: [&str; 2] = ["static", "media"];

/// A fingerprint of a set of files: the sum of one hash per file (of its path and bytes), so
/// files written on several threads, in any order, give the same fingerprint, and adding one
/// costs no lock.
#[derive(Default)]
pub struct Fingerprint(AtomicU64);

impl Fingerprint {
    /// Counts in the file `rel` (path from the site root) with content `bytes`.
    pub fn add(&self, rel: &str, bytes: &[u8]) {
        // FxHash rather than SipHash: nothing here is chosen by an attacker, and the index is
        // tens of megabytes at 2,000 chapters (SipHash was 0.5 % of that build)
        let mut h = rustc_hash::FxHasher::default();
        rel.hash(&mut h);
        bytes.hash(&mut h);
        self.0.fetch_add(h.finish(), Ordering::Relaxed);
    }

    pub fn value(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// Whether the worker keeps the file `rel` (path from the site root) in the build's cache,
/// outside the search index: the files it serves from that cache first, and `404.html`, its
/// answer offline for a page not kept. A change to any of them must give the worker a new
/// version, or returning readers keep the old file.
pub fn cached_first(rel: &str) -> bool {
    rel == "404.html"
        || CACHED_FIRST
            .iter()
            .any(|f| rel.strip_prefix(f).is_some_and(|r| r.starts_with('/')))
}

/// Writes `sw.js` into the site at `dir`, whose search index has the fingerprint `index` and
/// whose other files served from the cache first ([`cached_first`]) have `files`. Returns
/// whether the theme has a worker to write.
pub fn write_service_worker(
    site: &crate::site::Site,
    dir: &Path,
    index: &Fingerprint,
    files: &Fingerprint,
) -> Result<bool, Diagnostic> {
    let io = |e: std::io::Error| {
        Diagnostic::error(
            "io",
            dir.display().to_string(),
            0,
            format!("cannot write the service worker: {e}"),
        )
    };
    match worker_of(site, dir, index.value(), files.value()).map_err(io)? {
        Some(bytes) => write_file(dir, "sw.js", &bytes).map_err(io).map(|()| true),
        None => Ok(false),
    }
}

/// The bytes of `sw.js` of the site written in `dir` ([`service_worker`]), whose index and
/// other files served from the cache first have the fingerprints `index` and `files`; `None`
/// when the theme has no worker.
pub fn worker_of(
    site: &crate::site::Site,
    dir: &Path,
    index: u64,
    files: u64,
) -> std::io::Result<Option<Vec<u8>>> {
    let Some(f) = site.theme.static_files.get("js/sw.js") else {
        return Ok(None);
    };
    let template = site.theme.read_static("js/sw.js", f)?;
    let version = format!("{:016x}", index.wrapping_add(files));
    let keep = Kept {
        search: offline_index(dir),
        aids: offline_aids(site, dir),
        pages: offline_pages(dir),
        files: offline_files(dir),
        top: top_names(dir),
    };
    Ok(Some(service_worker(&template, &version, &keep)))
}

/// `path` below `dir`, with `/` between its parts.
fn rel_path(dir: &Path, path: &Path) -> String {
    path.strip_prefix(dir)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

/// What the worker keeps on the first visit, each list when its files are few enough (paths
/// from the site root; pages as their folders' addresses, `en/combat/`).
#[derive(Default)]
pub struct Kept {
    pub search: Vec<String>,
    pub aids: Vec<String>,
    pub pages: Vec<String>,
    pub files: Vec<String>,
    /// The names at the top of the site (`en`, `static`, `404.html` …): the worker answers
    /// for these only. A site at a domain's root has in its scope every other site of the
    /// origin (`/<repository>/` of a GitHub user), whose files it kept in its cache.
    pub top: Vec<String>,
}

/// The names of the files and folders at the top of `dir` that a reader's browser asks for,
/// sorted: not the hidden ones (`.nojekyll`, the build's list of its files) nor the worker
/// itself, which a build writes after this list and `serve` before it (they differed).
fn top_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.') && n != "sw.js")
        .collect();
    names.sort();
    names
}

/// The service worker: the theme's `js/sw.js` with the version on top, so a rebuilt site whose
/// cached files changed has a new worker, which drops the old caches; and the files it keeps
/// on the first visit ([`Kept`]).
pub fn service_worker(template: &[u8], version: &str, keep: &Kept) -> Vec<u8> {
    let mut out = format!("var RULEBOOK_VERSION = {version:?};\n").into_bytes();
    // lists of plain relative paths: serialising them cannot fail
    for (name, list) in [
        ("RULEBOOK_SEARCH_FILES", &keep.search),
        ("RULEBOOK_AID_FILES", &keep.aids),
        ("RULEBOOK_PAGE_FILES", &keep.pages),
        ("RULEBOOK_THEME_FILES", &keep.files),
        ("RULEBOOK_TOP", &keep.top),
    ] {
        out.extend_from_slice(format!("var {name} = ").as_bytes());
        let _ = serde_json::to_writer(&mut out, list);
        out.extend_from_slice(b";\n");
    }
    out.extend_from_slice(template);
    out
}

/// The files below the folders `subs` of `dir` for which `take` holds (paths from `dir`,
/// sorted within each folder), when together they come to at most `budget` bytes; `None`
/// otherwise (or when a walk fails). The walk stops at the budget: at thousands of chapters it
/// reads a few hundred entries, not the whole output.
fn files_within<S: AsRef<str>>(
    dir: &Path,
    subs: &[S],
    budget: u64,
    take: impl Fn(&walkdir::DirEntry) -> bool,
) -> Option<Vec<String>> {
    let mut files = Vec::new();
    let mut bytes = 0;
    for sub in subs {
        let root = dir.join(sub.as_ref());
        if !root.is_dir() {
            continue;
        }
        for e in walkdir::WalkDir::new(root).sort_by_file_name() {
            let e = e.ok()?;
            if !e.file_type().is_file() || !take(&e) {
                continue;
            }
            bytes += e.metadata().map(|m| m.len()).unwrap_or(u64::MAX / 2);
            if bytes > budget {
                return None;
            }
            files.push(rel_path(dir, e.path()));
        }
    }
    Some(files)
}

/// Every page of the site but the print views, the root page (kept anyway) and `404.html`
/// (in the theme's files), as its folder's address, when they come to at most
/// [`OFFLINE_PAGES_BYTES`]; empty otherwise.
fn offline_pages(dir: &Path) -> Vec<String> {
    let page = |e: &walkdir::DirEntry| {
        // not `en/print/index.html`: the print view repeats every chapter
        e.file_name() == "index.html"
            && e.depth() > 0
            && !rel_path(dir, e.path()).ends_with("/print/index.html")
    };
    let Ok(top) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    // the languages' folders (and whatever else holds pages), not the index, theme or media
    let mut folders: Vec<String> = top
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| !matches!(n.as_str(), "search" | "static" | "media") && !n.starts_with('.'))
        .collect();
    folders.sort();
    let pages = files_within(dir, &folders, OFFLINE_PAGES_BYTES, page).unwrap_or_default();
    (pages.into_iter())
        .map(|p| p.trim_end_matches("index.html").to_string())
        .collect()
}

/// Every file of the theme and every image (`static/`, `media/`), when they come to at most
/// [`OFFLINE_FILES_BYTES`]; empty otherwise.
fn offline_files(dir: &Path) -> Vec<String> {
    files_within(dir, &["static", "media"], OFFLINE_FILES_BYTES, |_| true).unwrap_or_default()
}

/// Every file of the index in `dir/search/` (paths from the site root, sorted), when they come
/// to at most [`OFFLINE_INDEX_BYTES`]; empty otherwise.
fn offline_index(dir: &Path) -> Vec<String> {
    files_within(dir, &["search"], OFFLINE_INDEX_BYTES, |_| true).unwrap_or_default()
}

/// Every tooltip, preview and short-address file of the site (paths from the site root), when
/// they come to at most [`OFFLINE_AIDS_BYTES`]; empty otherwise.
fn offline_aids(site: &crate::site::Site, dir: &Path) -> Vec<String> {
    use crate::reading_pages as rp;
    let mut files = Vec::new();
    for lang in &site.config.languages {
        let (terms, previews) = (rp::terms_file_count(site), rp::preview_file_count(site));
        let short = rp::short_file_count(site);
        files.extend((0..terms).map(|k| rp::terms_file_path(lang, k, terms)));
        files.extend((0..previews).map(|k| rp::preview_file_path(lang, k, previews)));
        files.extend((0..short).map(|k| rp::short_file_path(lang, k, short)));
    }
    let mut bytes = 0;
    files.retain(|f| match std::fs::metadata(dir.join(f)) {
        Ok(m) => {
            bytes += m.len();
            true
        }
        Err(_) => false,
    });
    if bytes > OFFLINE_AIDS_BYTES {
        files.clear();
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_folders_served_from_the_cache_first() {
        assert!(cached_first("static/css/style.css"));
        assert!(cached_first("media/board.png"));
        assert!(!cached_first("statics/x.css"));
        assert!(!cached_first("static"));
        assert!(!cached_first("en/static/index.html"));
        assert!(cached_first("404.html"));
        assert!(!cached_first("en/404.html"));
    }

    #[test]
    fn the_pages_kept_are_every_page_but_the_print_views_within_the_budget() {
        let d = tempfile::tempdir().unwrap();
        let put = |rel: &str, bytes: usize| {
            let p = d.path().join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, vec![b'x'; bytes]).unwrap();
        };
        for rel in [
            "index.html",
            "404.html",
            "en/index.html",
            "en/reprint/index.html",
            "en/print/index.html",
            "en/sections.json",
            "uk/glossary/index.html",
            "static/css/style.css",
            "search/index.js",
        ] {
            put(rel, 10);
        }
        assert_eq!(
            offline_pages(d.path()),
            ["en/", "en/reprint/", "uk/glossary/"]
        );
        assert_eq!(offline_files(d.path()), ["static/css/style.css"]);
        // past the budget, none: the pages read are kept instead
        put("uk/big/index.html", OFFLINE_PAGES_BYTES as usize);
        assert!(offline_pages(d.path()).is_empty());
        put("media/big.png", OFFLINE_FILES_BYTES as usize);
        assert!(offline_files(d.path()).is_empty());
    }

    #[test]
    fn a_fingerprint_is_the_same_in_any_order_and_moves_with_any_byte() {
        let a = Fingerprint::default();
        a.add("search/t/0.js", b"one");
        a.add("search/d/0.js", b"two");
        let b = Fingerprint::default();
        b.add("search/d/0.js", b"two");
        b.add("search/t/0.js", b"one");
        assert_eq!(a.value(), b.value());
        let c = Fingerprint::default();
        c.add("search/t/0.js", b"one");
        c.add("search/d/0.js", b"twO");
        assert_ne!(a.value(), c.value());
        // the same bytes under another name are another file
        let d = Fingerprint::default();
        d.add("search/t/1.js", b"one");
        d.add("search/d/0.js", b"two");
        assert_ne!(a.value(), d.value());
    }
}
