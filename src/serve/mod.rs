//! `rulebook serve`: builds the site, serves it on loopback, watches the sources, rebuilds what
//! a change touches and reloads open pages ([`http`] injects a small script into every page it
//! serves; the built files never contain it).
//!
//! The site is built with `base_url` `/`, into a temporary folder, so a preview never
//! overwrites `public/` and its links work on the local address whatever site.yaml says.

pub mod http;
pub mod incremental;
pub mod paths;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use incremental::Live;

pub struct ServeOptions {
    pub site: PathBuf,
    pub bind: String,
    pub port: u16,
    /// Where to build (default: a temporary folder, removed on exit).
    pub output: Option<PathBuf>,
}

/// How long edits must pause before the search index is written again after an incremental
/// rebuild: it holds every chapter (most of a second at 2,000 chapters), and writing it after
/// each save of a burst would hold up the rebuild of the next one.
const SEARCH_PAUSE: Duration = Duration::from_millis(300);

/// Folders whose changes trigger a rebuild.
pub const WATCHED: &[&str] = &["content", "templates", "static", "i18n"];

/// Editors' temporary files, which must not trigger rebuilds.
fn ignored(p: &Path) -> bool {
    let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.starts_with('.')
        || name.ends_with('~')
        || name.ends_with(".swp")
        || name.ends_with(".tmp")
        || name.starts_with("#")
}

/// Whether the `i`-th path of an event of `kind` is a file that has just appeared: made, or
/// renamed to.
fn appeared(kind: &notify::EventKind, i: usize) -> bool {
    use notify::event::{ModifyKind, RenameMode};
    match kind {
        notify::EventKind::Create(_) => true,
        notify::EventKind::Modify(ModifyKind::Name(RenameMode::To)) => true,
        notify::EventKind::Modify(ModifyKind::Name(RenameMode::Both)) => i == 1,
        _ => false,
    }
}

/// The paths of a burst of events, less the files that appeared in it and are gone by its
/// end: an editor's temporary file, written and renamed over the chapter (`sed -i`'s
/// `sedXXXXXX`, JetBrains' `___jb_tmp___`). Such a file is not the site's, and it made every
/// such save a rebuild of the whole site rather than of the chapter.
fn without_passing_files(burst: Vec<(PathBuf, bool)>) -> Vec<PathBuf> {
    let passing: std::collections::BTreeSet<PathBuf> = (burst.iter())
        .filter(|(p, new)| *new && std::fs::symlink_metadata(p).is_err())
        .map(|(p, _)| p.clone())
        .collect();
    (burst.into_iter())
        .map(|(p, _)| p)
        .filter(|p| !passing.contains(p))
        .collect()
}

fn print_findings(items: &[crate::diag::Diagnostic]) {
    let mut d = crate::diag::Diagnostics {
        items: items.to_vec(),
    };
    d.sort();
    for x in &d.items {
        say!("{x}");
    }
}

/// The name of a preview's temporary output folder, before the server's process id (and, when
/// a folder of that name was left by a process gone long ago, a number: see [`preview_folder`]).
const PREVIEW_PREFIX: &str = "rulebook-serve-";

/// The process id in the name of a preview folder, `PID` or `PID-N`.
fn preview_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix(PREVIEW_PREFIX)?;
    let (pid, n) = rest.split_once('-').unwrap_or((rest, "1"));
    n.parse::<u32>().ok()?;
    pid.parse().ok()
}

/// Removes the preview folders of `serve` processes that are gone: one stopped by a signal
/// removes its own, one killed outright (SIGKILL, the machine going down) cannot. A folder is
/// removed only when its marker lists everything in it, as a build checks before replacing
/// its output, so nothing but the preview's own files is ever deleted.
fn sweep_previews(root: &Path) {
    let temp = std::env::temp_dir();
    let Ok(entries) = std::fs::read_dir(&temp) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        // a killed preview's unfinished build beside its folder: `.rulebook-serve-PID.rulebook-…`
        // (the name the build gives its staging folder; only a build makes one)
        if let Some(pid) = name
            .strip_prefix('.')
            .and_then(|n| n.split_once(".rulebook-"))
            .and_then(|(folder, _)| preview_pid(folder))
        {
            let dir = e.file_type().is_ok_and(|t| t.is_dir());
            if pid != std::process::id() && !crate::stop::running(pid) && dir {
                let _ = std::fs::remove_dir_all(e.path());
            }
            continue;
        }
        let Some(pid) = preview_pid(name) else {
            continue;
        };
        if pid == std::process::id() || crate::stop::running(pid) {
            continue;
        }
        let dir = e.path();
        if replaceable(&dir, root) && dir.join(crate::output::MARKER).is_file() {
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

/// Whether a build of the site at `root` may replace `dir`: its marker lists everything in it.
fn replaceable(dir: &Path, root: &Path) -> bool {
    crate::output::check_output(dir, root)
        .is_ok_and(|o| !o.is_legacy() && o.check_unlisted().is_ok())
}

/// The temporary folder this preview builds into: `rulebook-serve-PID`, or `rulebook-serve-PID-N`
/// when a folder of that name is in the way. Process ids come round again, and a folder named
/// after this one's can only be a leftover of a process gone long ago that the sweep may not
/// remove (one of an earlier rulebook, or holding a file of someone's): it is left alone, not
/// refused, since the user asked for no folder in particular.
fn preview_folder(root: &Path) -> Result<PathBuf, String> {
    preview_folder_in(&std::env::temp_dir(), root)
}

/// [`preview_folder`] in `temp`.
fn preview_folder_in(temp: &Path, root: &Path) -> Result<PathBuf, String> {
    let pid = std::process::id();
    for n in 1..=100 {
        let name = match n {
            1 => format!("{PREVIEW_PREFIX}{pid}"),
            n => format!("{PREVIEW_PREFIX}{pid}-{n}"),
        };
        let dir = temp.join(name);
        if !dir.exists() || replaceable(&dir, root) {
            return Ok(dir);
        }
    }
    Err(format!(
        "cannot find a free name for the preview's folder in {}: a hundred rulebook-serve-{pid} \
         folders are in the way; remove the ones you do not need, or pass --output",
        temp.display()
    ))
}

/// Runs the server until the process is stopped.
pub fn serve(opts: ServeOptions) -> Result<(), String> {
    let root = opts
        .site
        .canonicalize()
        .map_err(|e| format!("cannot open the site folder {}: {e}", opts.site.display()))?;
    if !root.join("content").is_dir() {
        return Err(format!(
            "no content/ folder in {}; point --site at the folder that holds content/ (or create one with `rulebook init`)",
            root.display()
        ));
    }
    let temp = opts.output.is_none();
    if temp {
        sweep_previews(&root);
    }
    let output = match &opts.output {
        Some(dir) => dir.clone(),
        None => preview_folder(&root)?,
    };
    let checked = crate::output::check_output(&output, &root).map_err(|e| e.0)?;
    if checked.is_legacy() {
        return Err(checked.legacy_refusal().0);
    }
    checked.check_unlisted().map_err(|e| e.0)?;
    if temp {
        // Ctrl-C is how a preview is stopped: its folder goes with it
        crate::stop::remove_on_stop(&output);
    }
    let listener = TcpListener::bind((opts.bind.as_str(), opts.port))
        .map_err(|e| format!("cannot listen on {}:{}: {e}", opts.bind, opts.port))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;

    let (mut live, first_errors) = match Live::full(&root, &output) {
        Ok((live, r)) => {
            print_findings(&r.warnings);
            say!("built {} files in {:.0} ms", r.pages, r.millis);
            (Some(live), Vec::new())
        }
        Err(errors) => {
            print_findings(&errors);
            say!("the build failed; fix the errors above and the page reloads");
            std::fs::create_dir_all(&output).map_err(|e| e.to_string())?;
            (None, errors)
        }
    };
    let served = output.canonicalize().map_err(|e| e.to_string())?;
    let shared = http::Shared::new(served);
    shared.publish(first_errors, true);
    http::start(listener, std::sync::Arc::clone(&shared));
    let (tx, rx) = mpsc::channel::<(PathBuf, bool)>();
    let mut watcher = notify::recommended_watcher(move |ev: notify::Result<notify::Event>| {
        if let Ok(ev) = ev {
            if matches!(ev.kind, notify::EventKind::Access(_)) {
                return;
            }
            for (i, p) in ev.paths.into_iter().enumerate() {
                let _ = tx.send((p, appeared(&ev.kind, i)));
            }
        }
    })
    .map_err(|e| format!("cannot watch the site: {e}"))?;
    use notify::Watcher as _;
    for dir in WATCHED {
        let d = root.join(dir);
        if d.is_dir() {
            watcher
                .watch(&d, notify::RecursiveMode::Recursive)
                .map_err(|e| format!("cannot watch {}: {e}", d.display()))?;
        }
    }
    // site folders created later (a first template override) are picked up from the root
    watcher
        .watch(&root, notify::RecursiveMode::NonRecursive)
        .map_err(|e| format!("cannot watch {}: {e}", root.display()))?;

    // announced only once the watches are in place: an edit made right after the address is
    // printed must not be missed
    // the address goes to stdout, alone on its line, for scripts and tests
    {
        use std::io::Write as _;
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "serving http://{addr}/").and_then(|()| out.flush());
    }
    let watched: Vec<String> = WATCHED.iter().map(|w| format!("{w}/")).collect();
    say!("watching {} for changes; Ctrl-C stops", watched.join(", "));

    let mut file_errors: Vec<crate::diag::Diagnostic> = Vec::new();
    // an incremental rebuild left the search index and the exports behind the pages
    let mut search_behind = false;
    loop {
        let first = if search_behind {
            match rx.recv_timeout(SEARCH_PAUSE) {
                Ok(p) => p,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    search_behind = false;
                    let start = Instant::now();
                    match live.as_ref().map(|l| l.write_search()) {
                        Some(Ok(n)) => {
                            say!(
                                "wrote the search index again ({n} files) in {:.0} ms",
                                start.elapsed().as_secs_f64() * 1000.0
                            );
                            shared.publish_search()
                        }
                        // a stop interrupts the writing: nothing to report
                        Some(Err(_)) if crate::stop::stopping() => {}
                        // shown in the open pages too, as a rebuild's errors are
                        Some(Err(e)) => {
                            print_findings(&e);
                            shared.publish(e, false);
                        }
                        None => {}
                    }
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        } else {
            match rx.recv() {
                Ok(p) => p,
                Err(_) => break,
            }
        };
        // gather the burst of events one save makes (editors write, rename, touch)
        let mut burst = vec![first];
        let until = Instant::now() + Duration::from_millis(25);
        while let Ok(e) = rx.recv_timeout(until.saturating_duration_since(Instant::now())) {
            burst.push(e);
        }
        let mut changed = without_passing_files(burst);
        changed.retain(|p| !ignored(p) && !p.starts_with(&output));
        changed.retain(|p| {
            p.strip_prefix(&root)
                .ok()
                .and_then(|r| r.components().next())
                .and_then(|c| c.as_os_str().to_str())
                .is_some_and(|c| WATCHED.contains(&c))
        });
        changed.sort();
        changed.dedup();
        if changed.is_empty() {
            continue;
        }
        // A site folder made since the start (a first static/ or templates/), or made anew (a
        // content/ moved away and copied back): watched from now on. The root's watch saw it
        // appear, and this rebuild, a full one, reads what it already holds.
        for p in &changed {
            if p.parent() == Some(root.as_path()) && p.is_dir() {
                if let Err(e) = watcher.watch(p, notify::RecursiveMode::Recursive) {
                    say!("cannot watch {}: {e}", p.display());
                }
            }
        }
        let result = match live.as_mut() {
            Some(l) if l.can_update(&changed) && file_errors.is_empty() => match l.update(&changed)
            {
                Ok(Some(r)) => Ok(r),
                Ok(None) => full(&root, &output, &mut live),
                Err(e) => Err(e),
            },
            _ => full(&root, &output, &mut live),
        };
        match result {
            Ok(r) => {
                print_findings(&r.warnings);
                say!(
                    "{} {} page(s) in {:.1} ms",
                    if r.full {
                        "rebuilt the site:"
                    } else {
                        "rebuilt"
                    },
                    r.pages,
                    r.millis
                );
                file_errors.clear();
                shared.publish(Vec::new(), r.full);
                // a full rebuild writes the index with the rest
                search_behind = !r.full;
                if !r.full {
                    match live.as_ref().map(|l| l.write_print()) {
                        Some(Ok(_)) => shared.publish_print(),
                        // shown in the open pages too, as a rebuild's errors are
                        Some(Err(e)) => {
                            print_findings(&e);
                            shared.publish(e, false);
                        }
                        None => {}
                    }
                }
            }
            Err(errors) => {
                print_findings(&errors);
                say!("the build failed; the last good site is still served");
                file_errors = errors.clone();
                shared.publish(errors, false);
            }
        }
    }
    if temp {
        let _ = std::fs::remove_dir_all(&output);
    }
    Ok(())
}

fn full(
    root: &Path,
    output: &Path,
    live: &mut Option<Live>,
) -> Result<incremental::Rebuilt, Vec<crate::diag::Diagnostic>> {
    // on failure the model in memory is dropped too: an update that asked for this rebuild
    // may have changed it half way, and the next change is then built in full again
    let (l, r) = Live::full(root, output).inspect_err(|_| *live = None)?;
    *live = Some(l);
    Ok(r)
}

/// `rulebook bench-incremental`: builds once, then edits one chapter `runs` times through the
/// incremental path and returns the median time of the rebuild, in milliseconds. The chapter is
/// restored afterwards.
pub fn bench_incremental(site: &Path, runs: usize) -> Result<f64, String> {
    let root = site.canonicalize().map_err(|e| e.to_string())?;
    let output =
        std::env::temp_dir().join(format!("rulebook-bench-incremental-{}", std::process::id()));
    let (mut live, _) = Live::full(&root, &output).map_err(|e| {
        e.first()
            .map(|d| d.to_string())
            .unwrap_or_else(|| "the build failed".into())
    })?;
    let lang = live.site.config.languages[0].clone();
    let pages = &live.site.pages[&lang];
    let page = pages
        .get(pages.len() / 2)
        .ok_or("the site has no chapters")?;
    let file = root.join(&page.chapter.path);
    let original = std::fs::read(&file).map_err(|e| e.to_string())?;
    let mut times = Vec::with_capacity(runs);
    let result = (|| -> Result<(), String> {
        for i in 0..runs.max(1) {
            let mut text = original.clone();
            text.extend_from_slice(format!("\nEdited paragraph number {i}.\n").as_bytes());
            std::fs::write(&file, &text).map_err(|e| e.to_string())?;
            let start = Instant::now();
            match live.update(std::slice::from_ref(&file)) {
                Ok(Some(_)) => {}
                Ok(None) => return Err("the edit needed a full rebuild".into()),
                Err(e) => return Err(e.first().map(|d| d.to_string()).unwrap_or_default()),
            }
            times.push(start.elapsed().as_secs_f64() * 1000.0);
        }
        Ok(())
    })();
    let _ = std::fs::write(&file, &original);
    let _ = std::fs::remove_dir_all(&output);
    result?;
    times.sort_by(|a, b| a.total_cmp(b));
    Ok(times[times.len() / 2])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_made_and_gone_within_a_burst_are_left_out() {
        let d = tempfile::tempdir().unwrap();
        let chapter = d.path().join("a.md");
        std::fs::write(&chapter, "x").unwrap();
        let (temp, gone) = (d.path().join("sedX1"), d.path().join("b.md"));
        let burst = vec![
            (temp.clone(), true),
            (temp.clone(), false),
            (chapter.clone(), true),
            // a chapter removed: not new, so it stays (the rebuild finds it gone)
            (gone.clone(), false),
        ];
        assert_eq!(without_passing_files(burst), vec![chapter, gone]);
    }

    #[test]
    fn preview_folders_are_named_after_their_process() {
        assert_eq!(preview_pid("rulebook-serve-123"), Some(123));
        assert_eq!(preview_pid("rulebook-serve-123-2"), Some(123));
        assert_eq!(preview_pid("rulebook-serve-123-x"), None);
        assert_eq!(preview_pid("rulebook-serve-"), None);
        assert_eq!(preview_pid("rulebook-build"), None);
    }

    /// Folders named after this process can only be leftovers of one gone long ago with the
    /// same id: the preview builds beside them, into the first it may replace. (In a private
    /// folder standing for the system's temporary one: the real one may hold such folders.)
    #[test]
    fn a_leftover_named_after_this_process_is_stepped_round() {
        let site = tempfile::tempdir().unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let temp = tmp.path();
        let pid = std::process::id();
        let named = |suffix: &str| temp.join(format!("{PREVIEW_PREFIX}{pid}{suffix}"));
        let (legacy, foreign, empty) = (named(""), named("-2"), named("-3"));
        for d in [&legacy, &foreign, &empty] {
            std::fs::create_dir_all(d).unwrap();
        }
        // an earlier rulebook's preview, whose marker lists nothing
        std::fs::write(
            legacy.join(crate::output::MARKER),
            "This folder was written by `rulebook build`; the next build replaces it.\n",
        )
        .unwrap();
        std::fs::write(legacy.join("index.html"), "old").unwrap();
        // someone's folder
        std::fs::write(foreign.join("notes.txt"), "mine").unwrap();
        assert_eq!(preview_folder_in(temp, site.path()), Ok(empty));
    }
}
