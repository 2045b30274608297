//! Which file a request path names, if any: only files below the output folder, ever.
//!
//! The path is percent-decoded exactly once. After that, anything that could climb out or
//! smuggle a second decoding is refused rather than cleaned up: `..` and `.` segments, dot
//! files, backslashes, NUL, a `%` still left, invalid UTF-8. Then the file is resolved through
//! the file system (symbolic links included) and must still lie below the output folder.

use std::path::{Path, PathBuf};

/// Decodes `%XX` escapes; `None` for a malformed escape.
pub fn percent_decode(s: &str) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = b.get(i + 1..i + 3)?;
            let hex = std::str::from_utf8(hex).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Some(out)
}

/// What a request for `target` (`/uk/setup/?x#y`) maps to below `root` (canonical).
#[derive(Debug, PartialEq, Eq)]
pub enum Found {
    File(PathBuf),
    /// A folder asked for without its trailing slash: redirect there, or its relative links break.
    AddSlash(String),
    NotFound,
}

pub fn resolve(root: &Path, target: &str) -> Found {
    let path = target.split(['?', '#']).next().unwrap_or("");
    if !path.starts_with('/') {
        return Found::NotFound;
    }
    let Some(bytes) = percent_decode(path) else {
        return Found::NotFound;
    };
    let Ok(decoded) = String::from_utf8(bytes) else {
        return Found::NotFound;
    };
    if decoded.contains(['\\', '\0', '%', ':']) {
        return Found::NotFound;
    }
    let mut file = root.to_path_buf();
    for seg in decoded.split('/').filter(|s| !s.is_empty()) {
        if seg.starts_with('.') {
            return Found::NotFound; // `..`, `.`, and dot files such as the build marker
        }
        file.push(seg);
    }
    let Ok(real) = file.canonicalize() else {
        return Found::NotFound;
    };
    if !real.starts_with(root) {
        return Found::NotFound;
    }
    if real.is_dir() {
        if !decoded.ends_with('/') {
            // one leading slash: `//en/x/` would send the browser to the host `en`
            return Found::AddSlash(format!("/{}/", path.trim_start_matches('/')));
        }
        let index = real.join("index.html");
        return if index.is_file() {
            Found::File(index)
        } else {
            Found::NotFound
        };
    }
    if real.is_file() {
        Found::File(real)
    } else {
        Found::NotFound
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traversal_in_every_spelling_is_refused() {
        let t = tempfile::tempdir().unwrap();
        let out = t.path().join("out");
        std::fs::create_dir_all(out.join("uk/a")).unwrap();
        std::fs::write(out.join("uk/a/index.html"), "ok").unwrap();
        std::fs::write(out.join(".rulebook-build"), "").unwrap();
        std::fs::write(t.path().join("secret"), "no").unwrap();
        let root = out.canonicalize().unwrap();
        assert!(matches!(resolve(&root, "/uk/a/"), Found::File(_)));
        assert_eq!(resolve(&root, "/uk/a"), Found::AddSlash("/uk/a/".into()));
        assert_eq!(resolve(&root, "//uk/a"), Found::AddSlash("/uk/a/".into()));
        for bad in [
            "/../secret",
            "/uk/../../secret",
            "/%2e%2e/secret",
            "/%2E%2E%2Fsecret",
            "/%252e%252e%252fsecret",
            "/..%2fsecret",
            "/..%5csecret",
            "/..\\secret",
            "/uk/a/..%00/secret",
            "/%c0%ae%c0%ae/secret",
            "/.rulebook-build",
            "/./uk/a/",
            "//../secret",
            "/%",
            "/%zz",
            "secret",
            "/C:/secret",
        ] {
            assert_eq!(resolve(&root, bad), Found::NotFound, "{bad}");
        }
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(t.path().join("secret"), out.join("link")).unwrap();
            assert_eq!(resolve(&root, "/link"), Found::NotFound);
        }
    }
}
