//! Writing the site without ever losing work.
//!
//! A build writes into a fresh folder beside the output and only swaps it in when everything
//! succeeded, so a failed or interrupted build leaves the previous site exactly as it was. We
//! only ever replace a folder whose marker file lists everything in it: we never delete what is
//! not ours, even a file dropped into a previous site.

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

/// The first line of a marker: what wrote the folder, and the version of the list below it.
const MARKER_HEAD: &str = "rulebook-build 2: this folder was written by `rulebook build`, which replaces it only while it holds nothing but the files listed below (JSON strings, one a line)";

/// The strays named in a refusal; the rest are counted.
const STRAYS_SHOWN: usize = 5;

/// An output folder that passed [`check_output`], with what the previous build in it wrote.
#[derive(Debug)]
pub struct Output {
    /// The folder, absolute, with links followed.
    pub path: PathBuf,
    /// The shown path, for messages.
    shown: PathBuf,
    /// What the previous build listed in its marker; `None` when there is no previous site.
    listed: Option<Listed>,
    /// The previous site's marker is an earlier rulebook's, which lists no files.
    legacy: bool,
}

/// The whole marker of a site built before markers listed their files.
const LEGACY_MARKER: &str =
    "This folder was written by `rulebook build`; the next build replaces it.\n";

/// The files a build wrote, as its marker lists them, and the folders that hold them.
#[derive(Debug, Default)]
struct Listed {
    files: std::collections::HashSet<String>,
    dirs: std::collections::HashSet<String>,
}

impl Listed {
    /// Reads a marker; `None` unless it is one written by this version of the format.
    fn parse(text: &str) -> Option<Listed> {
        let mut lines = text.lines();
        if lines.next()? != MARKER_HEAD {
            return None;
        }
        let files = lines
            .map(|line| serde_json::from_str::<String>(line).ok())
            .collect::<Option<Vec<String>>>()?;
        Some(Listed::of(files))
    }

    /// The files `files` (relative paths, `/` between folders) and their folders.
    fn of(files: impl IntoIterator<Item = String>) -> Listed {
        let mut listed = Listed::default();
        for file in files {
            let mut dir = file.as_str();
            while let Some((parent, _)) = dir.rsplit_once('/') {
                if !listed.dirs.insert(parent.to_string()) {
                    break;
                }
                dir = parent;
            }
            listed.files.insert(file);
        }
        listed
    }

    /// Whether the previous build wrote `rel`, a file: itself, or the temporary file `serve`
    /// writes beside it to replace it (left by a preview stopped mid-write).
    fn has_file(&self, rel: &str) -> bool {
        self.files.contains(rel)
            || rel
                .strip_suffix(".rulebook-tmp")
                .is_some_and(|f| self.files.contains(f))
    }
}

/// The marker of a site whose files are `files` (relative paths, `/` between folders).
fn marker_text(mut files: Vec<String>) -> String {
    files.sort_unstable();
    files.dedup();
    let mut text = String::with_capacity(MARKER_HEAD.len() + files.len() * 48);
    text.push_str(MARKER_HEAD);
    text.push('\n');
    for f in &files {
        // a String always serialises
        text.push_str(&serde_json::to_string(f).unwrap_or_default());
        text.push('\n');
    }
    text
}

/// `rel` with `/` between its parts, as markers list files.
fn rel_string(rel: &Path) -> String {
    let mut s = String::new();
    for c in rel.components() {
        if !s.is_empty() {
            s.push('/');
        }
        s.push_str(&c.as_os_str().to_string_lossy());
    }
    s
}

/// Checks that `output` may be (re)placed by a build of the site at `site_root`: not a folder
/// of the site's sources, nor one that holds anything but a previous build. The last part (a
/// walk of the whole previous site) is left to [`Output::check_unlisted`], which a build runs
/// beside its own work.
pub fn check_output(output: &Path, site_root: &Path) -> Result<Output, OutputError> {
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
        // a source folder may be a link to elsewhere (a content/ kept in another repository):
        // the output must not land where it leads either, unless it leads to a folder that
        // holds the site itself (then every output of the site is in it)
        let real = absolute(&root.join(own));
        if out.starts_with(root.join(own)) || (out.starts_with(&real) && !root.starts_with(&real)) {
            return refuse(&format!("it is inside the site's {own}/ folder"));
        }
    }
    let mut listed = None;
    let mut legacy = false;
    if out.exists() {
        if !out.is_dir() {
            return refuse("it exists and is not a folder");
        }
        let empty = std::fs::read_dir(&out)
            .map(|mut d| d.next().is_none())
            .unwrap_or(false);
        if !empty {
            let marker = out.join(MARKER);
            if !marker.is_file() {
                return refuse(&format!("it holds files that were not written by rulebook (no {MARKER} marker); empty it or choose another folder"));
            }
            let text = std::fs::read_to_string(&marker).unwrap_or_default();
            listed = Listed::parse(&text);
            // A site built before markers listed their files: the build checks it against
            // what it writes itself ([`Output::check_legacy`]), so an existing site's next
            // build goes on unless something unknown is in it.
            legacy = listed.is_none() && text == LEGACY_MARKER;
            if listed.is_none() && !legacy {
                return refuse(&format!(
                    "its {MARKER} marker does not list the files rulebook wrote (it is damaged, \
                     from an older rulebook, or not rulebook's), so your files cannot be told \
                     from its own; move anything of yours out of the folder, delete it and build \
                     again, or choose another folder"
                ));
            }
        }
    }
    Ok(Output {
        path: out,
        shown: output.to_path_buf(),
        listed,
        legacy,
    })
}

impl Output {
    /// Refuses a previous site that holds a file or folder its marker does not list: something
    /// put there by hand, which replacing the folder would delete. Reads only folder listings
    /// (no file), and a build runs it beside its own writing, so it costs no time of its own.
    pub fn check_unlisted(&self) -> Result<(), OutputError> {
        // an earlier rulebook's site lists nothing: see `check_legacy`
        let Some(listed) = &self.listed else {
            return Ok(());
        };
        self.refuse_strays(unlisted(&self.path, listed), "the last build did not write")
    }

    /// Whether the previous site is an earlier rulebook's, which the build checks with
    /// [`Self::check_legacy`] once it knows what it writes.
    pub fn is_legacy(&self) -> bool {
        self.legacy
    }

    /// The refusal for a previous site of an earlier rulebook where no new site's file list
    /// is at hand to check it against (`serve` writing into it).
    pub fn legacy_refusal(&self) -> OutputError {
        OutputError(format!(
            "refusing to replace {}: it was built by an earlier rulebook, whose {MARKER} marker \
             lists no files; run `rulebook build` once (it checks that nothing of yours is in \
             it), or move anything of yours out, delete it and try again",
            self.shown.display()
        ))
    }

    /// Refuses a previous site of an earlier rulebook (its marker lists nothing) that holds a
    /// file or folder the new build did not write (`written`, relative paths with `/`): the
    /// site's own files are the same from one build to the next, so anything else is either
    /// the user's or a page that no longer exists, and the message names it either way.
    pub fn check_legacy(&self, written: Vec<String>) -> Result<(), OutputError> {
        if !self.legacy {
            return Ok(());
        }
        self.refuse_strays(
            unlisted(&self.path, &Listed::of(written)),
            "this build does not write",
        )
    }

    fn refuse_strays(&self, strays: Vec<String>, what: &str) -> Result<(), OutputError> {
        if strays.is_empty() {
            return Ok(());
        }
        let mut named = strays
            .iter()
            .take(STRAYS_SHOWN)
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join(", ");
        if strays.len() > STRAYS_SHOWN {
            named.push_str(&format!(" and {} more", strays.len() - STRAYS_SHOWN));
        }
        Err(OutputError(format!(
            "refusing to replace {}: it holds what {what}, which replacing \
             it would delete: {named}. Move them out of the folder (files to publish with the \
             site belong in the site's static/ folder, which is published as static/; a CNAME \
             file comes from `cname` in site.yaml; nothing else can be published at the \
             site's root), or choose another --output",
            self.shown.display()
        )))
    }
}

/// What is below `root` and not in `listed` (folders end in `/`, their content is not listed),
/// sorted. A folder that cannot be read counts: what is in it is unknown.
fn unlisted(root: &Path, listed: &Listed) -> Vec<String> {
    unlisted_below(root, "", listed)
}

/// [`unlisted`] in the folder `sub` of `root` only (`""`: all of it), named from `root`.
fn unlisted_below(root: &Path, sub: &str, listed: &Listed) -> Vec<String> {
    let mut found = Vec::new();
    let start = if sub.is_empty() {
        root.to_path_buf()
    } else {
        root.join(sub)
    };
    if !start.exists() {
        return found;
    }
    let mut stack = vec![(start, sub.to_string())];
    while let Some((dir, rel)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            found.push(format!("{rel}/"));
            continue;
        };
        for e in entries {
            let Ok(e) = e else {
                found.push(format!("{rel}/"));
                continue;
            };
            let name = e.file_name();
            let name = name.to_string_lossy();
            let r = if rel.is_empty() {
                name.into_owned()
            } else {
                format!("{rel}/{name}")
            };
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                if listed.dirs.contains(&r) {
                    stack.push((e.path(), r));
                } else {
                    found.push(r + "/");
                }
            } else {
                // the marker is the one file a build writes without listing it
                let ours = listed.has_file(&r) || (rel.is_empty() && r == MARKER);
                if !ours {
                    found.push(r);
                }
            }
        }
    }
    found.sort_unstable();
    found
}

/// The files created so far below each staging folder in progress ([`Staging::dir`]), recorded
/// as [`create`] makes them: the marker lists them without a second walk of the new site.
static WRITTEN: std::sync::Mutex<Vec<(PathBuf, Vec<String>)>> = std::sync::Mutex::new(Vec::new());

fn written() -> std::sync::MutexGuard<'static, Vec<(PathBuf, Vec<String>)>> {
    WRITTEN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Records that `path` was created, for the staging folder that holds it.
fn record(path: &Path) {
    let mut w = written();
    for (dir, files) in w.iter_mut() {
        if let Ok(rel) = path.strip_prefix(dir) {
            files.push(rel_string(rel));
        }
    }
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
        crate::stop::remove_on_stop(&outer);
        // only marks the folder as ours for `clean_stale`; the site's own marker, listing its
        // files, is written by `commit`
        let marker = "This folder was written by `rulebook build`; the next build removes it.\n";
        std::fs::write(outer.join(MARKER), marker)?;
        spread_subfolders(&outer);
        // a name of its own for each build: the file system places the folder by its name
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = outer.join(format!("site-{nanos}"));
        std::fs::create_dir(&dir)?;
        written().push((dir.clone(), Vec::new()));
        Ok(Staging {
            dir,
            outer,
            target: target.to_path_buf(),
            committed: false,
        })
    }

    /// Puts the new site in place of the old one, with a marker that lists every file it holds.
    /// Returns the old site's folder when it could not be removed whole (a folder in it the
    /// user made read-only): it keeps its marker, so the next build removes it if it can.
    pub fn commit(mut self) -> std::io::Result<Option<PathBuf>> {
        let files = self.take_written();
        std::fs::write(self.dir.join(MARKER), marker_text(files))?;
        let parent = self.target.parent().unwrap_or(Path::new("."));
        let name = self
            .target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let old = parent.join(format!(".{name}.rulebook-old-{}", std::process::id()));
        {
            // a stop waits for the swap to finish, and none begins once a stop has
            let _swap = crate::stop::swap_guard();
            if crate::stop::stopping() {
                return Err(std::io::ErrorKind::Interrupted.into());
            }
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
            crate::stop::keep(&self.outer);
            if had_old {
                crate::stop::remove_on_stop(&old);
            }
        }
        // holds only its marker now
        let _ = std::fs::remove_dir_all(&self.outer);
        if old.exists() {
            let gone = remove_tree(&old);
            crate::stop::keep(&old);
            if !gone {
                // set aside under a name of its own: an old site's name says "put me back if
                // the output is missing" ([`clean_stale`]), which a part of one must not be,
                // and `serve`, whose old sites all have its one pid in their name, needs the
                // name free for its next swap
                let trash = (0..)
                    .map(|n| {
                        parent.join(format!(".{name}.rulebook-trash-{n}-{}", std::process::id()))
                    })
                    .find(|t| !t.exists())
                    .expect("a free name");
                return Ok(Some(if std::fs::rename(&old, &trash).is_ok() {
                    trash
                } else {
                    old
                }));
            }
        }
        Ok(None)
    }

    /// Puts the folder `sub` of the new site (one name, such as `search`) in place of the
    /// target site's own, and lists its files in the target's marker instead of the old
    /// ones. For `serve`, which writes the search index of the site it serves again: a folder
    /// written whole and swapped in leaves no file of the old index behind (their number
    /// changes with the text), and a request never finds it half-written. The old folder goes
    /// with this staging folder.
    pub fn replace_folder(self, sub: &str) -> std::io::Result<()> {
        let prefix = format!("{sub}/");
        let mut files = self.take_written();
        files.retain(|f| f.starts_with(&prefix));
        let marker = self.target.join(MARKER);
        // A site without a marker keeps none; one this rulebook cannot read is not touched.
        let listed = match std::fs::read_to_string(&marker) {
            Ok(text) => Some(Listed::parse(&text).ok_or_else(|| {
                std::io::Error::other(format!(
                    "{} is not a marker this rulebook reads",
                    marker.display()
                ))
            })?),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(e),
        };
        // files of the user's put into the folder since (replacing it would delete them)
        if let Some(l) = &listed {
            let strays = unlisted_below(&self.target, sub, l);
            if !strays.is_empty() {
                return Err(std::io::Error::other(format!(
                    "refusing to replace {}: it holds what the last build did not write, which \
                     replacing it would delete: {}; move them out of the folder",
                    self.target.join(sub).display(),
                    strays.join(", ")
                )));
            }
        }
        let write_marker = |names: Vec<String>| -> std::io::Result<()> {
            let tmp = self.outer.join("marker-new");
            std::fs::write(&tmp, marker_text(names))?;
            std::fs::rename(&tmp, &marker)
        };
        // a stop waits for the swap to finish, and none begins once a stop has
        let _swap = crate::stop::swap_guard();
        if crate::stop::stopping() {
            return Err(std::io::ErrorKind::Interrupted.into());
        }
        // The marker lists the old files and the new ones first: whatever stops this half
        // way (a full disk, a kill), the folder holds nothing its marker does not list, so the
        // next build still replaces it (a listed file that is not there does no harm).
        if let Some(l) = &listed {
            write_marker(
                l.files
                    .iter()
                    .cloned()
                    .chain(files.iter().cloned())
                    .collect(),
            )?;
        }
        // the old folder takes the new one's place in the staging folder, removed with it
        exchange(&self.dir.join(sub), &self.target.join(sub))?;
        if let Some(l) = listed {
            let kept = l.files.into_iter().filter(|f| !f.starts_with(&prefix));
            write_marker(kept.chain(files).collect())?;
        }
        Ok(())
    }

    /// The files written into the new site so far, relative to it.
    pub fn written_so_far(&self) -> Vec<String> {
        written()
            .iter()
            .find(|(d, _)| *d == self.dir)
            .map(|(_, f)| f.clone())
            .unwrap_or_default()
    }

    /// The files created below `dir`, no longer recorded.
    fn take_written(&self) -> Vec<String> {
        let mut w = written();
        match w.iter().position(|(d, _)| *d == self.dir) {
            Some(i) => w.swap_remove(i).1,
            None => Vec::new(),
        }
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        self.take_written();
        if !self.committed {
            let _ = std::fs::remove_dir_all(&self.outer);
            crate::stop::keep(&self.outer);
        }
    }
}

/// Puts the folder `new` at `live`, and what was at `live` (if anything) at `new`. On Linux in
/// one step (`RENAME_EXCHANGE`), so a request never finds `live` missing; elsewhere, or on a
/// file system without it, in two renames.
fn exchange(new: &Path, live: &Path) -> std::io::Result<()> {
    if !live.exists() {
        return std::fs::rename(new, live);
    }
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        use std::os::unix::ffi::OsStrExt as _;
        let c = |p: &Path| std::ffi::CString::new(p.as_os_str().as_bytes());
        if let (Ok(a), Ok(b)) = (c(new), c(live)) {
            // SAFETY: two NUL-terminated paths that live through the call
            let r = unsafe {
                libc::renameat2(
                    libc::AT_FDCWD,
                    a.as_ptr(),
                    libc::AT_FDCWD,
                    b.as_ptr(),
                    libc::RENAME_EXCHANGE,
                )
            };
            if r == 0 {
                return Ok(());
            }
        }
    }
    let aside = new.with_extension("old");
    std::fs::rename(live, &aside)?;
    if let Err(e) = std::fs::rename(new, live) {
        let _ = std::fs::rename(&aside, live);
        return Err(e);
    }
    std::fs::rename(&aside, new)
}

/// Removes a folder of ours, its subfolders in parallel (a site is thousands of small files,
/// and unlinking them one by one on one core is most of the time a rebuild takes to swap in).
/// Its marker goes last, so a folder that could not be removed whole is still known as ours
/// (see [`clean_stale`]). Returns whether it is gone. A link is removed, never followed.
fn remove_tree(dir: &Path) -> bool {
    if !std::fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir()) {
        let _ = std::fs::remove_file(dir);
        return !dir.exists();
    }
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
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            if e.file_name() == MARKER {
                continue;
            }
            let p = e.path();
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                let _ = std::fs::remove_dir_all(&p);
            } else {
                let _ = std::fs::remove_file(&p);
            }
        }
    }
    let only_marker = std::fs::read_dir(dir)
        .map(|mut d| d.all(|e| e.is_ok_and(|e| e.file_name() == MARKER)))
        .unwrap_or(false);
    if only_marker {
        let _ = std::fs::remove_file(dir.join(MARKER));
        let _ = std::fs::remove_dir(dir);
    }
    !dir.exists()
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
            || n.starts_with(&format!(".{name}.rulebook-old-"))
            || n.starts_with(&format!(".{name}.rulebook-trash-"));
        // a folder, not a link to one: what a link leads to is not ours to empty
        let folder = e.file_type().is_ok_and(|t| t.is_dir());
        if ours && folder && e.path().join(MARKER).is_file() {
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
                remove_tree(&e.path());
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
///
/// Every file created is recorded for the marker of the staging folder that holds it
/// ([`record`]); none is created once the process is being stopped ([`crate::stop`]).
fn create(path: &Path) -> std::io::Result<std::fs::File> {
    if crate::stop::stopping() {
        return Err(std::io::ErrorKind::Interrupted.into());
    }
    let file = match std::fs::File::create(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if let Some(p) = path.parent() {
                std::fs::create_dir_all(p)?;
            }
            std::fs::File::create(path)
        }
        r => r,
    }?;
    record(path);
    Ok(file)
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
        // an empty (or hand-made) marker does not make a folder ours
        std::fs::write(foreign.join(MARKER), "").unwrap();
        assert!(check_output(&foreign, &site).is_err());
        std::fs::write(foreign.join(MARKER), "rulebook-build\n").unwrap();
        assert!(check_output(&foreign, &site).is_err());
        assert!(check_output(&site.join("public"), &site).is_ok());
        // a site of an earlier rulebook, whose marker lists nothing, is still replaced
        let old = t.path().join("old");
        std::fs::create_dir_all(old.join("en")).unwrap();
        std::fs::write(old.join("en/index.html"), "x").unwrap();
        std::fs::write(old.join(MARKER), LEGACY_MARKER).unwrap();
        assert!(check_output(&old, &site).is_ok());
    }

    /// A site whose content/ is a link to a folder elsewhere (kept in another repository, say):
    /// an output inside that folder, named by its real path, is inside content/ all the same.
    #[test]
    fn refuses_the_real_folder_of_a_linked_content_folder() {
        let t = tempfile::tempdir().unwrap();
        let real = t.path().join("real/content");
        std::fs::create_dir_all(real.join("en")).unwrap();
        let site = t.path().join("site");
        std::fs::create_dir_all(&site).unwrap();
        std::os::unix::fs::symlink(&real, site.join("content")).unwrap();
        let Err(err) = check_output(&real.join("en/site"), &site) else {
            panic!("an output inside the linked content/ was accepted");
        };
        assert!(err.0.contains("inside the site's content/"), "{}", err.0);
        assert!(check_output(&site.join("content/en/site"), &site).is_err());
        assert!(check_output(&site.join("public"), &site).is_ok());
        // a content/ that is the folder above the site holds every output of the site
        let inner = t.path().join("repo/site");
        std::fs::create_dir_all(&inner).unwrap();
        std::os::unix::fs::symlink("..", inner.join("content")).unwrap();
        assert!(check_output(&inner.join("public"), &inner).is_ok());
    }

    /// A site written by a build, with the given files.
    fn built(target: &Path, files: &[&str]) {
        let s = Staging::new(target).unwrap();
        for f in files {
            write_file(&s.dir, f, b"x").unwrap();
        }
        s.commit().unwrap();
    }

    /// `serve` writing the search index again: the new folder replaces the old one whole, the
    /// marker lists its files and no others, and nothing of the staging folder stays.
    #[test]
    fn a_folder_replaced_in_a_built_site_is_listed_in_its_marker() {
        let t = tempfile::tempdir().unwrap();
        let site = t.path().join("site");
        std::fs::create_dir_all(site.join("content")).unwrap();
        let out = site.join("public");
        built(
            &out,
            &[
                "index.html",
                "search/t/0.js",
                "search/t/1.js",
                "searches/x.js",
            ],
        );
        let s = Staging::new(&out).unwrap();
        write_file(&s.dir, "search/t/0.js", b"new").unwrap();
        write_file(&s.dir, "search/d/0.js", b"new").unwrap();
        s.replace_folder("search").unwrap();
        let mut found: Vec<String> = walkdir::WalkDir::new(&out)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .map(|e| rel_string(e.path().strip_prefix(&out).unwrap()))
            .collect();
        found.sort();
        assert_eq!(
            found,
            [
                MARKER,
                "index.html",
                "search/d/0.js",
                "search/t/0.js",
                "searches/x.js"
            ]
        );
        assert_eq!(std::fs::read(out.join("search/t/0.js")).unwrap(), b"new");
        let listed = Listed::parse(&std::fs::read_to_string(out.join(MARKER)).unwrap()).unwrap();
        let mut listed: Vec<String> = listed.files.into_iter().collect();
        listed.sort();
        assert_eq!(listed, found[1..]);
        assert!(check_output(&out, &site)
            .and_then(|o| o.check_unlisted())
            .is_ok());
        // only the site is left beside the staging folder's parent
        let beside: Vec<_> = std::fs::read_dir(&site)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(beside.len(), 2, "{beside:?}");
        // the same when the site had no such folder yet
        let s = Staging::new(&out).unwrap();
        write_file(&s.dir, "extra/a.js", b"a").unwrap();
        s.replace_folder("extra").unwrap();
        assert!(out.join("extra/a.js").is_file());
        assert!(check_output(&out, &site)
            .and_then(|o| o.check_unlisted())
            .is_ok());
    }

    #[test]
    fn exchange_swaps_two_folders_or_moves_one_to_an_empty_place() {
        let t = tempfile::tempdir().unwrap();
        let (a, b) = (t.path().join("a"), t.path().join("b"));
        std::fs::create_dir_all(&a).unwrap();
        std::fs::create_dir_all(&b).unwrap();
        std::fs::write(a.join("new"), "").unwrap();
        std::fs::write(b.join("old"), "").unwrap();
        exchange(&a, &b).unwrap();
        assert!(b.join("new").is_file() && a.join("old").is_file());
        // no folder at the place yet: a plain rename
        let c = t.path().join("c");
        exchange(&a, &c).unwrap();
        assert!(c.join("old").is_file() && !a.exists());
    }

    #[test]
    fn a_previous_site_with_files_it_did_not_write_is_refused() {
        let t = tempfile::tempdir().unwrap();
        let site = t.path().join("site");
        std::fs::create_dir_all(site.join("content")).unwrap();
        let out = site.join("public");
        built(&out, &["index.html", "en/a/index.html", "en/b/index.html"]);
        let marker = std::fs::read_to_string(out.join(MARKER)).unwrap();
        assert!(marker.starts_with(MARKER_HEAD), "{marker}");
        assert!(marker.ends_with("\"en/a/index.html\"\n\"en/b/index.html\"\n\"index.html\"\n"));
        let ok = |out: &Path| check_output(out, &site).and_then(|o| o.check_unlisted());
        assert!(ok(&out).is_ok());
        // serve's temporary file beside a page it replaces is its own
        std::fs::write(out.join("en/a/index.html.rulebook-tmp"), "x").unwrap();
        assert!(ok(&out).is_ok());
        std::fs::write(out.join("mine.txt"), "mine").unwrap();
        std::fs::create_dir_all(out.join("en/d")).unwrap();
        std::fs::write(out.join("en/d/x"), "x").unwrap();
        std::fs::write(out.join("en/a/notes.txt"), "x").unwrap();
        let e = ok(&out).unwrap_err().0;
        assert!(
            e.contains("en/a/notes.txt, en/d/, mine.txt.") && e.contains("static/"),
            "{e}"
        );
        for i in 0..7 {
            std::fs::write(out.join(format!("z{i}")), "x").unwrap();
        }
        let e = ok(&out).unwrap_err().0;
        assert!(e.contains("z1 and 5 more"), "{e}");
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

    /// An old site with a folder that cannot be emptied (here an immutable one, which even
    /// root cannot empty): the swap says so, the leftover keeps its marker under a name that
    /// is never put back as the site, and once the folder can be emptied the next build
    /// removes it. It used to lose its marker first, and stay.
    #[test]
    fn an_old_site_that_cannot_be_deleted_whole_is_reported_and_removed_later() {
        /// Takes the flag off every immutable folder below the test's folder, however the test
        /// ends: one left behind could not be deleted by anyone but root.
        struct Unstick(PathBuf);
        impl Drop for Unstick {
            fn drop(&mut self) {
                let _ = std::process::Command::new("chattr")
                    .args(["-R", "-i"])
                    .arg(&self.0)
                    .status();
            }
        }
        let t = tempfile::tempdir().unwrap();
        let target = t.path().join("public");
        built(
            &target,
            &["en/a/index.html", "en/b/index.html", "index.html"],
        );
        let stuck = target.join("en/a");
        let immutable = std::process::Command::new("chattr")
            .arg("+i")
            .arg(&stuck)
            .status()
            .is_ok_and(|s| s.success());
        let guard = Unstick(t.path().to_path_buf());
        if !immutable {
            // a file system without the flag (tmpfs), or no right to set it: nothing to test
            eprintln!(
                "skipped: chattr +i is not available for {}",
                stuck.display()
            );
            return;
        }
        let s = Staging::new(&target).unwrap();
        write_file(&s.dir, "index.html", b"new").unwrap();
        let left = s
            .commit()
            .unwrap()
            .expect("the old site is reported as left");
        assert!(left.join(MARKER).is_file(), "the leftover keeps its marker");
        assert!(
            left.to_string_lossy().contains(".public.rulebook-trash-"),
            "{}",
            left.display()
        );
        assert_eq!(std::fs::read(target.join("index.html")).unwrap(), b"new");
        // with the output gone, a part of an old site is not put back as the site
        std::fs::remove_dir_all(&target).unwrap();
        drop(Staging::new(&target).unwrap());
        assert!(!target.exists(), "a leftover was put back as the site");
        drop(guard);
        // the next build's staging sweeps it away
        drop(Staging::new(&target).unwrap());
        assert!(!left.exists(), "{} is still there", left.display());
    }

    /// A link named like a leftover of ours, to a folder with a marker (another site's
    /// output): the sweep removes the link and leaves the folder it leads to as it was.
    #[cfg(unix)]
    #[test]
    fn a_link_named_like_a_leftover_is_not_followed() {
        let t = tempfile::tempdir().unwrap();
        let other = t.path().join("other/public");
        built(&other, &["en/a/index.html"]);
        let target = t.path().join("site/public");
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        for kind in ["tmp", "old", "trash-0"] {
            let link = t
                .path()
                .join(format!("site/.public.rulebook-{kind}-999999999"));
            std::os::unix::fs::symlink(&other, &link).unwrap();
            drop(Staging::new(&target).unwrap());
            assert!(other.join("en/a/index.html").is_file(), "{kind}");
            assert!(other.join(MARKER).is_file(), "{kind}");
            let _ = std::fs::remove_file(&link);
        }
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
