//! Where a symbolic link in a site leads, decided in one place for chapters, glossaries,
//! `site.yaml` and the theme's files. A site's files may link to one another, never out of
//! the site: a site from someone else's repository (a pull request built in CI, `--safe`)
//! must not read, render or publish files from elsewhere on the building machine.

use std::path::{Path, PathBuf};

use crate::diag::Diagnostic;

/// What a path leads to once its links are resolved.
pub enum Target {
    /// A file inside the site (its real path).
    File(PathBuf),
    /// Something inside the site that is not a file: a folder, mostly (its real path).
    Folder(PathBuf),
    /// Somewhere outside the site, or nowhere (a dangling link, a path that is not there).
    Outside,
}

/// Where `path` leads; `canon_root` is the site folder, canonical.
pub fn resolve(path: &Path, canon_root: &Path) -> Target {
    match path.canonicalize() {
        Ok(t) if t.starts_with(canon_root) && t.is_file() => Target::File(t),
        Ok(t) if t.starts_with(canon_root) => Target::Folder(t),
        _ => Target::Outside,
    }
}

/// The warning for a link that leads out of the site, or nowhere: `shown` is the path as the
/// user knows it.
pub fn not_followed(shown: impl Into<PathBuf>) -> Diagnostic {
    Diagnostic::warning(
        "symlink",
        shown,
        0,
        "symbolic link points outside the site (or nowhere) and is not followed",
    )
}
