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
    let Some(f) = site.theme.static_files.get("js/sw.js") else {
        return Ok(false);
    };
    let template = site.theme.read_static("js/sw.js", f).map_err(io)?;
    let version = format!("{:016x}", index.value().wrapping_add(files.value()));
    let offline = offline_index(dir);
    let aids = offline_aids(site, dir);
    write_file(
        dir,
        "sw.js",
        &service_worker(&template, &version, &offline, &aids),
    )
    .map_err(io)?;
    Ok(true)
}

/// `path` below `dir`, with `/` between its parts.
fn rel_path(dir: &Path, path: &Path) -> String {
    path.strip_prefix(dir)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

/// The service worker: the theme's `js/sw.js` with the version on top, so a rebuilt site whose
/// cached files changed has a new worker, which drops the old caches; and the files it keeps
/// on the first visit: the search index's and the reading aids', when they are small enough.
pub fn service_worker(
    template: &[u8],
    version: &str,
    search_files: &[String],
    aid_files: &[String],
) -> Vec<u8> {
    let mut out = format!("var RULEBOOK_VERSION = {version:?};\n").into_bytes();
    // lists of plain relative paths: serialising them cannot fail
    out.extend_from_slice(b"var RULEBOOK_SEARCH_FILES = ");
    let _ = serde_json::to_writer(&mut out, search_files);
    out.extend_from_slice(b";\nvar RULEBOOK_AID_FILES = ");
    let _ = serde_json::to_writer(&mut out, aid_files);
    out.extend_from_slice(b";\n");
    out.extend_from_slice(template);
    out
}

/// Every file of the index in `dir/search/` (paths from the site root, sorted), when they come
/// to at most [`OFFLINE_INDEX_BYTES`]; empty otherwise.
fn offline_index(dir: &Path) -> Vec<String> {
    let mut files = Vec::new();
    let mut bytes = 0;
    for e in walkdir::WalkDir::new(dir.join("search")).sort_by_file_name() {
        let Ok(e) = e else { return Vec::new() };
        if !e.file_type().is_file() {
            continue;
        }
        bytes += e.metadata().map(|m| m.len()).unwrap_or(u64::MAX / 2);
        if bytes > OFFLINE_INDEX_BYTES {
            return Vec::new();
        }
        files.push(rel_path(dir, e.path()));
    }
    files
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
