//! Writing the site without ever losing work.
//!
//! A build writes into a fresh folder beside the output and only swaps it in when everything
//! succeeded, so a failed or interrupted build leaves the previous site exactly as it was. We
//! only ever replace a folder that carries our marker file: we never delete what is not ours.

use std::path::{Path, PathBuf};

/// Marks a folder as a rulebook build, so it may be replaced by the next build.
pub const MARKER: &str = ".rulebook-build";

#[derive(Debug)]
pub struct OutputError(pub String);

impl std::fmt::Display for OutputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn absolute(p: &Path) -> PathBuf {
    let abs = if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(p)
    };
    // resolve `.` and `..` lexically, then follow links for the parts that exist
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    resolve_existing(&out)
}

/// `path` with the links of its longest existing part followed, and the rest (folders a build
/// would create) appended as written. Why the longest part: a link anywhere above the output
/// (`link/content/out/x`, where only `link/content` exists) decides where the files land, and
/// resolving only the path or its parent let such an output slip into `content/`.
fn resolve_existing(path: &Path) -> PathBuf {
    let mut rest = Vec::new();
    let mut head = path;
    loop {
        if let Ok(c) = head.canonicalize() {
            let mut out = c;
            out.extend(rest.iter().rev());
            return out;
        }
        match (head.parent(), head.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                head = parent;
            }
            _ => return path.to_path_buf(),
        }
    }
}

/// Checks that `output` may be (re)placed by a build of the site at `site_root`.
pub fn check_output(output: &Path, site_root: &Path) -> Result<PathBuf, OutputError> {
    let out = absolute(output);
    let root = absolute(site_root);
    let refuse = |why: &str| {
        Err(OutputError(format!(
            "refusing to write the site to {}: {why}",
            output.display()
        )))
    };
    if out.parent().is_none() {
        return refuse("it is the file system root");
    }
    if let Some(home) = std::env::var_os("HOME").map(PathBuf::from) {
        if absolute(&home) == out {
            return refuse("it is the home folder");
        }
    }
    if root.starts_with(&out) {
        return refuse("it is the site folder or contains it; choose a folder such as public/");
    }
    for own in ["content", "templates", "static", "i18n"] {
        if out.starts_with(root.join(own)) {
            return refuse(&format!("it is inside the site's {own}/ folder"));
        }
    }
    if out.exists() {
        if !out.is_dir() {
            return refuse("it exists and is not a folder");
        }
        let empty = std::fs::read_dir(&out)
            .map(|mut d| d.next().is_none())
            .unwrap_or(false);
        if !empty && !out.join(MARKER).is_file() {
            return refuse(&format!("it holds files that were not written by rulebook (no {MARKER} marker); empty it or choose another folder"));
        }
    }
    Ok(out)
}

/// Marks `dir` as the top of a folder tree of its own (ext2/3/4's "top directory" flag,
/// `chattr +T`): the file system then puts a folder made in it in a block group of its choice
/// with many free inodes (chosen from the folder's name), not next to `dir`. Every error is
/// ignored: it is a hint, refused or ignored elsewhere (another file system) at no cost.
#[cfg(target_os = "linux")]
fn spread_subfolders(dir: &Path) {
    use std::os::fd::AsRawFd;
    /// `FS_TOPDIR_FL` of linux/fs.h (the libc crate names the ioctls, not the flags).
    const TOPDIR: libc::c_int = 0x0002_0000;
    let Ok(f) = std::fs::File::open(dir) else {
        return;
    };
    // The kernel reads and writes an int for these two, whatever their encoded size says.
    let mut flags: libc::c_int = 0;
    // SAFETY: both calls get an open descriptor and a pointer to a live int, which is all the
    // kernel reads or writes; a failure is only an error code.
    unsafe {
        if libc::ioctl(f.as_raw_fd(), libc::FS_IOC_GETFLAGS, &mut flags) == 0 && flags & TOPDIR == 0
        {
            flags |= TOPDIR;
            libc::ioctl(f.as_raw_fd(), libc::FS_IOC_SETFLAGS, &flags);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn spread_subfolders(_dir: &Path) {}

/// A build in progress: a temporary folder beside the output, removed unless committed. The
/// site is written one level down in it (`dir`), in a folder with a new name each build that
/// the file system places away from the last build (see [`spread_subfolders`]).
///
/// Why: a site is rebuilt over and over, and the previous output is often deleted first. On
/// ext4 without a journal, creating a file skips every inode of its block group deleted in the
/// last few minutes, one lookup each (`recently_deleted` in the kernel's ialloc.c): a build
/// written where the last one was just deleted spent 60 % of its samples there at 2,000
/// chapters, and got slower with every run. Placed elsewhere, it does not.
pub struct Staging {
    /// Where the site is written; renamed to the target on commit.
    pub dir: PathBuf,
    /// The temporary folder beside the output that holds `dir`.
    outer: PathBuf,
    target: PathBuf,
    committed: bool,
}

impl Staging {
    pub fn new(target: &Path) -> std::io::Result<Staging> {
        let parent = target.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(parent)?;
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "public".into());
        clean_stale(parent, &name);
        let outer = parent.join(format!(".{name}.rulebook-tmp-{}", std::process::id()));
        if outer.exists() {
            std::fs::remove_dir_all(&outer)?;
        }
        std::fs::create_dir_all(&outer)?;
        let marker = "This folder was written by `rulebook build`; the next build replaces it.\n";
        std::fs::write(outer.join(MARKER), marker)?;
        spread_subfolders(&outer);
        // a name of its own for each build: the file system places the folder by its name
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = outer.join(format!("site-{nanos}"));
        std::fs::create_dir(&dir)?;
        std::fs::write(dir.join(MARKER), marker)?;
        Ok(Staging {
            dir,
            outer,
            target: target.to_path_buf(),
            committed: false,
        })
    }

    /// Puts the new site in place of the old one.
    pub fn commit(mut self) -> std::io::Result<()> {
        let parent = self.target.parent().unwrap_or(Path::new("."));
        let name = self
            .target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let old = parent.join(format!(".{name}.rulebook-old-{}", std::process::id()));
        let had_old = self.target.exists();
        if had_old {
            std::fs::rename(&self.target, &old)?;
        }
        if let Err(e) = std::fs::rename(&self.dir, &self.target) {
            if had_old {
                let _ = std::fs::rename(&old, &self.target);
            }
            return Err(e);
        }
        self.committed = true;
        // holds only its marker now
        let _ = std::fs::remove_dir_all(&self.outer);
        if had_old {
            remove_tree(&old);
        }
        Ok(())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_dir_all(&self.outer);
        }
    }
}

/// Removes a folder of ours, its subfolders in parallel (a site is thousands of small files,
/// and unlinking them one by one on one core is most of the time a rebuild takes to swap in).
fn remove_tree(dir: &Path) {
    use rayon::prelude::*;
    let mut subdirs = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                if let Ok(inner) = std::fs::read_dir(e.path()) {
                    subdirs.extend(inner.flatten().map(|i| i.path()));
                }
            }
        }
    }
    subdirs.par_iter().for_each(|p| {
        if p.is_dir() {
            let _ = std::fs::remove_dir_all(p);
        } else {
            let _ = std::fs::remove_file(p);
        }
    });
    let _ = std::fs::remove_dir_all(dir);
}

/// Removes temporary folders left by builds that were killed (they carry our marker).
///
/// A build killed between its two renames (the old site moved aside, the new one not yet in
/// place) leaves no site at the target, only the old one beside it: that one is put back rather
/// than removed, so even that instant loses nothing.
fn clean_stale(parent: &Path, name: &str) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(|e| e.ok()).collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let n = e.file_name().to_string_lossy().into_owned();
        let ours = n.starts_with(&format!(".{name}.rulebook-tmp-"))
            || n.starts_with(&format!(".{name}.rulebook-old-"));
        if ours && e.path().join(MARKER).is_file() {
            let pid = n.rsplit('-').next().and_then(|p| p.parse::<u32>().ok());
            let alive = pid.is_some_and(|p| {
                Path::new(&format!("/proc/{p}")).exists() && p != std::process::id()
            });
            if !alive {
                let target = parent.join(name);
                let is_old = n.starts_with(&format!(".{name}.rulebook-old-"));
                if is_old && !target.exists() && std::fs::rename(e.path(), &target).is_ok() {
                    continue;
                }
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    }
}

/// Writes a file below `root`, creating folders as needed.
pub fn write_file(root: &Path, rel: &str, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write as _;
    create(&root.join(rel))?.write_all(bytes)
}

/// Creates (truncates) a file, and its folders only when the file cannot be created without
/// them. Most files of a build go into a folder made for an earlier file, and asking for every
/// parent folder again (`create_dir_all`) is a failing `mkdir` and a `stat` per file: three
/// quarters of the build's `mkdir` calls at 2,000 chapters.
fn create(path: &Path) -> std::io::Result<std::fs::File> {
    match std::fs::File::create(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if let Some(p) = path.parent() {
                std::fs::create_dir_all(p)?;
            }
            std::fs::File::create(path)
        }
        r => r,
    }
}

/// Writes `root/rel` through a buffer filled by `fill`, for a file too large to hold whole in
/// memory first (the print view).
pub fn write_with(
    root: &Path,
    rel: &str,
    fill: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()>,
) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut w = std::io::BufWriter::with_capacity(1 << 20, create(&root.join(rel))?);
    fill(&mut w)?;
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_folders_that_are_not_ours() {
        let t = tempfile::tempdir().unwrap();
        let site = t.path().join("site");
        std::fs::create_dir_all(site.join("content/en")).unwrap();
        assert!(check_output(&site, &site).is_err());
        assert!(check_output(&site.join("content"), &site).is_err());
        assert!(check_output(&site.join("content/en/out"), &site).is_err());
        assert!(check_output(t.path(), &site).is_err());
        assert!(check_output(Path::new("/"), &site).is_err());
        let foreign = t.path().join("foreign");
        std::fs::create_dir_all(&foreign).unwrap();
        std::fs::write(foreign.join("notes.txt"), "mine").unwrap();
        assert!(check_output(&foreign, &site).is_err());
        std::fs::write(foreign.join(MARKER), "").unwrap();
        assert!(check_output(&foreign, &site).is_ok());
        assert!(check_output(&site.join("public"), &site).is_ok());
    }

    #[cfg(unix)]
    #[test]
    fn an_output_reached_through_a_link_is_checked_where_it_lands() {
        let t = tempfile::tempdir().unwrap();
        let site = t.path().join("site");
        std::fs::create_dir_all(site.join("content")).unwrap();
        let link = t.path().join("link");
        std::os::unix::fs::symlink(&site, &link).unwrap();
        for out in ["content/x", "content/out/x", "content/a/b/c/x"] {
            assert!(check_output(&link.join(out), &link).is_err(), "{out}");
            assert!(check_output(&link.join(out), &site).is_err(), "{out}");
        }
        assert!(check_output(&link.join("public/a/b"), &site).is_ok());
    }

    #[test]
    fn a_build_killed_between_the_renames_gets_its_old_site_back() {
        let t = tempfile::tempdir().unwrap();
        let target = t.path().join("public");
        // what a kill right after `rename(public, old)` leaves behind (a pid above the kernel limit: never alive)
        let old = t.path().join(".public.rulebook-old-999999999");
        std::fs::create_dir_all(&old).unwrap();
        std::fs::write(old.join(MARKER), "").unwrap();
        std::fs::write(old.join("index.html"), "previous").unwrap();
        let s = Staging::new(&target).unwrap();
        assert_eq!(
            std::fs::read_to_string(target.join("index.html")).unwrap(),
            "previous"
        );
        assert!(!old.exists());
        drop(s);
    }

    /// On ext2/3/4 the staging folder is flagged so the kernel places the site's folder by
    /// itself (see [`Staging`]); elsewhere there is nothing to check.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_staging_folder_is_a_top_folder_on_ext4() {
        use std::os::fd::AsRawFd;
        let t = tempfile::tempdir().unwrap();
        let s = Staging::new(&t.path().join("public")).unwrap();
        let outer = std::fs::File::open(s.dir.parent().unwrap()).unwrap();
        // SAFETY: a live descriptor and pointers to live locals of the types the kernel fills.
        let (fs, flags) = unsafe {
            let mut st: libc::statfs = std::mem::zeroed();
            let mut flags: libc::c_int = 0;
            assert_eq!(libc::fstatfs(outer.as_raw_fd(), &mut st), 0);
            libc::ioctl(outer.as_raw_fd(), libc::FS_IOC_GETFLAGS, &mut flags);
            (st.f_type, flags)
        };
        const EXT_MAGIC: libc::c_long = 0xEF53;
        if fs as libc::c_long == EXT_MAGIC {
            assert_ne!(flags & 0x0002_0000, 0, "flags {flags:#x}");
        }
        // the site is written one level down, in the flagged folder beside the output
        assert_eq!(s.dir.parent().unwrap().parent(), Some(t.path()));
    }

    #[test]
    fn staging_is_removed_unless_committed() {
        let t = tempfile::tempdir().unwrap();
        let target = t.path().join("public");
        let left = || -> Vec<String> {
            let mut names: Vec<String> = std::fs::read_dir(t.path())
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        };
        let s = Staging::new(&target).unwrap();
        let dir = s.dir.clone();
        assert!(dir.exists());
        drop(s);
        assert!(!dir.exists() && !target.exists());
        assert!(left().is_empty(), "left behind: {:?}", left());
        let s = Staging::new(&target).unwrap();
        write_file(&s.dir, "a/index.html", b"x").unwrap();
        s.commit().unwrap();
        assert!(target.join("a/index.html").is_file() && target.join(MARKER).is_file());
        assert_eq!(left(), ["public"]);
    }
}
