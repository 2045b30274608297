//! `rulebook build`: load, resolve, render, and swap the new site in.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::diag::{Diagnostics, Severity};

#[derive(Debug, Clone, Default)]
pub struct BuildOptions {
    pub site: PathBuf,
    pub output: Option<PathBuf>,
    pub base_url: Option<String>,
    pub strict: bool,
    /// Strip raw HTML from Markdown whatever site.yaml says (content from strangers).
    pub safe: bool,
    /// The process ends right after the build (the command line): the loaded site is left for
    /// the system to take back with the rest of the process rather than freed piece by piece,
    /// which took 85 ms of a 1.6 s build at 2,000 chapters (millions of allocations).
    pub exit_after: bool,
}

/// What a finished build reports.
#[derive(Debug)]
pub struct BuildReport {
    pub output: PathBuf,
    pub files: usize,
    pub pages_per_language: usize,
    pub millis: u128,
    /// Chapters marked `draft: true` and left out (paths relative to the site).
    pub drafts: Vec<PathBuf>,
}

#[derive(Debug)]
pub enum BuildError {
    /// The content has errors (exit code 1); nothing was written.
    Content,
    /// The output folder may not be used (exit code 2); nothing was written.
    Output(String),
}

/// Builds the site. Every finding is in `diags`; on error the previous output is untouched.
/// Why the folder beside the output could not be made. A file where the output path needs a
/// folder (`--output notes.txt/site`) is the usual cause, and the system's "File exists" or
/// "Not a directory" does not say which file.
fn staging_error(target: &Path, e: std::io::Error) -> String {
    let file = (target.ancestors().skip(1))
        .find(|a| a.exists())
        .filter(|a| !a.is_dir());
    match file {
        Some(file) => format!(
            "cannot write the site to {}: {} is a file, not a folder; give --output a path \
             whose folders are folders",
            target.display(),
            file.display()
        ),
        None => format!("cannot create a folder beside {}: {e}", target.display()),
    }
}

pub fn build(opts: &BuildOptions, diags: &mut Diagnostics) -> Result<BuildReport, BuildError> {
    let start = Instant::now();
    let site_root = opts.site.as_path();
    let output = opts
        .output
        .clone()
        .unwrap_or_else(|| site_root.join("public"));
    let checked =
        crate::output::check_output(&output, site_root).map_err(|e| BuildError::Output(e.0))?;
    let target = checked.path.clone();
    if !site_root.join("content").is_dir() {
        diags.push(crate::diag::Diagnostic::missing_content(site_root));
        return Err(BuildError::Content);
    }
    let (site, compiled) = crate::site::load_beside(
        site_root,
        opts.base_url.as_deref(),
        opts.safe,
        crate::site::Sources::Release,
        diags,
        |theme| crate::render::compile(&theme.templates),
    );
    let tera = match (&site, compiled) {
        (Some(_), Some(Ok(t))) => Some(t),
        (Some(_), Some(Err(errs))) => {
            diags.extend(errs);
            None
        }
        _ => None,
    };
    hold_back_follow_ons(diags);
    if opts.strict {
        diags.make_strict();
    }
    let (Some(site), Some(tera)) = (site, tera) else {
        return Err(BuildError::Content);
    };
    if diags.has_errors() {
        return Err(BuildError::Content);
    }
    let mut sw = crate::timing::Stopwatch::start();
    let staging = crate::output::Staging::new(&target)
        .map_err(|e| BuildError::Output(staging_error(&target, e)))?;
    let mut render_diags = Diagnostics::default();
    // The previous site is searched for files of the user's beside the writing of the new one:
    // a walk of 4,000 folders at 2,000 chapters, which would otherwise add to the build.
    let ((files, _), unlisted) = rayon::join(
        || write_output(&site, tera, &staging.dir, &mut render_diags),
        || checked.check_unlisted(),
    );
    sw.lap("render, write, search index");
    // refused before anything is swapped; dropping `staging` removes the new site
    unlisted.map_err(|e| BuildError::Output(e.0))?;
    if checked.is_legacy() {
        checked
            .check_legacy(staging.written_so_far())
            .map_err(|e| BuildError::Output(e.0))?;
    }
    let failed = render_diags
        .items
        .iter()
        .any(|d| d.severity == Severity::Error);
    diags.extend(render_diags.items);
    if failed {
        return Err(BuildError::Content);
    }
    let left = staging
        .commit()
        .map_err(|e| BuildError::Output(commit_error(&target, &e)))?;
    if let Some(left) = left {
        diags.push(crate::diag::Diagnostic::warning(
            "output",
            &target,
            0,
            format!(
                "the previous site could not be deleted whole: {} is left beside it (something in it cannot be deleted: check its permissions); the next build tries again",
                left.display()
            ),
        ));
    }
    sw.lap("swap in");
    let report = BuildReport {
        output: target,
        files,
        pages_per_language: site.order.len(),
        millis: start.elapsed().as_millis(),
        drafts: site
            .drafts_left_out
            .iter()
            .map(|c| c.path.clone())
            .collect(),
    };
    if opts.exit_after {
        std::mem::forget(site);
    }
    Ok(report)
}

/// When a chapter file did not load, the references and links to what it defines are
/// "broken" only because of that: those warnings are held back (one line says how many) until
/// the errors are fixed, when any that are real come back. `check` does the same for what it
/// says across languages.
fn hold_back_follow_ons(diags: &mut Diagnostics) {
    let chapter_failed = diags.items.iter().any(|d| {
        d.severity == crate::diag::Severity::Error
            && d.file.starts_with("content")
            && d.file.extension().is_some_and(|e| e == "md")
    });
    if !chapter_failed {
        return;
    }
    let before = diags.items.len();
    diags.items.retain(|d| {
        d.severity == crate::diag::Severity::Error
            || !matches!(d.kind, "broken-ref" | "broken-link")
    });
    let held = before - diags.items.len();
    if held > 0 {
        diags.push(crate::diag::Diagnostic::warning(
            "held-back",
            "content",
            0,
            format!(
                "{held} warning{} about references and links held back: a chapter file with an error may define what they refer to (they come back once it loads, if they still hold)",
                if held == 1 { "" } else { "s" }
            ),
        ));
    }
}

/// Why the new site could not take the place of the old one, and what to do.
fn commit_error(target: &Path, e: &std::io::Error) -> String {
    #[cfg(unix)]
    if e.raw_os_error() == Some(libc::EBUSY) {
        // a mount point (a container's volume, say): a folder there cannot be renamed
        return format!(
            "cannot move the new site into {}: it is a mount point or otherwise in use, and a \
             build puts its new site in place by renaming it; build into a folder inside it \
             instead (--output {})",
            target.display(),
            target.join("site").display()
        );
    }
    format!("cannot move the new site into {}: {e}", target.display())
}

/// Writes every file of a resolved site into `dir`: pages, search index, exports. Shared by
/// `build` and `serve`, so a preview is the site that will be published.
/// Writes the whole site into `dir`. Returns the number of files, and the fingerprint of the
/// theme's files and images it wrote, which the service worker's version is made of with the
/// index's (`serve` keeps it, to give the worker its version when it writes the index again).
pub fn write_output(
    site: &crate::site::Site,
    tera: tera::Tera,
    dir: &Path,
    render_diags: &mut Diagnostics,
) -> (usize, u64) {
    // The search index is built beside the pages: writing pages waits on the disk, the
    // index on the processor. The exports go beside both: after them, they were the only
    // work left for one core (6% of a build's instructions).
    let cached = crate::offline::Fingerprint::default();
    let ((mut files, exports), search) = rayon::join(
        || {
            rayon::join(
                || crate::render::write_site(site, tera, dir, &cached, render_diags),
                || write_exports(site, dir),
            )
        },
        || crate::search::web::write_site(site, dir),
    );
    match search {
        Ok((n, index)) => {
            files += n;
            // last: its version is a fingerprint of the index and of the theme's files and
            // images, which the two threads counted as they wrote them
            match crate::offline::write_service_worker(site, dir, &index, &cached) {
                Ok(true) => files += 1,
                Ok(false) => {}
                Err(d) => render_diags.push(d),
            }
        }
        Err(d) => render_diags.push(d),
    }
    for r in exports {
        match r {
            Ok(()) => files += 1,
            Err(d) => render_diags.push(d),
        }
    }
    (files, cached.value())
}

/// Makes and writes the JSON exports, one file per thread.
fn write_exports(site: &crate::site::Site, dir: &Path) -> Vec<Result<(), crate::diag::Diagnostic>> {
    use rayon::prelude::*;
    crate::export::jobs(site)
        .into_par_iter()
        .map(|job| {
            let (rel, bytes) = job.make(site);
            crate::output::write_file(dir, &rel, &bytes).map_err(|e| {
                crate::diag::Diagnostic::error("io", rel, 0, format!("cannot write: {e}"))
            })
        })
        .collect()
}

/// Prints findings to stderr, sorted, with a summary line.
pub fn print_diagnostics(diags: &mut Diagnostics) {
    use std::io::Write as _;
    diags.sort();
    // Standard error is unbuffered, and a diagnostic is printed in about ten pieces: a
    // buffer makes it one write per 8 KiB rather than ten thousand at 2,000 chapters.
    let mut err = std::io::BufWriter::new(std::io::stderr().lock());
    for d in &diags.items {
        // nothing better to do when standard error is closed
        let _ = writeln!(err, "{d}");
    }
    let _ = err.flush();
}

pub fn summary(diags: &Diagnostics) -> String {
    format!(
        "{} error(s), {} warning(s)",
        diags.count(Severity::Error),
        diags.count(Severity::Warning)
    )
}

pub fn is_dir(p: &Path) -> bool {
    p.is_dir()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_mount_point_for_output_says_what_to_do() {
        let busy = std::io::Error::from_raw_os_error(libc::EBUSY);
        let m = commit_error(Path::new("/srv/public"), &busy);
        assert!(m.contains("mount point"), "{m}");
        assert!(m.contains("--output /srv/public/site"), "{m}");
        let other = std::io::Error::from_raw_os_error(libc::EACCES);
        assert!(!commit_error(Path::new("/srv/public"), &other).contains("mount point"));
    }
}
