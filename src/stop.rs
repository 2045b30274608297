//! Stopping on Ctrl-C (SIGINT), SIGTERM or SIGHUP (the terminal closed) without leaving
//! temporary folders behind.
//!
//! A build writes a whole site (tens of megabytes at 2,000 chapters) into a folder beside the
//! output, and `serve` builds into a folder of the system's temporary folder. Killed by a
//! signal's default action, the process left both behind: the first until the next build, the
//! second for ever, and Ctrl-C is how `serve` is meant to be stopped. So the two signals are
//! taken by a thread of their own (`sigwait`), which removes the folders registered here and
//! ends the process with the conventional code (128 + the signal: 130 for Ctrl-C).
//!
//! Why a thread rather than a handler: removing a folder tree is far from async-signal-safe,
//! while a thread may do anything. The signals are blocked in every thread (they inherit the
//! mask of `main`, which [`install`] sets before any other thread exists), so only that thread
//! receives them.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// Set once a signal arrived: no file is created after it (see [`stopping`]).
static STOPPING: AtomicBool = AtomicBool::new(false);

/// The temporary folders to remove if the process is stopped.
static TEMPORARY: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Held while a new site is swapped in for the old one: a stop waits for the swap to finish,
/// so it never leaves the output moved aside with nothing in its place.
static SWAP: Mutex<()> = Mutex::new(());

/// Whether the process is being stopped. Writers check it before creating a file, so the
/// folder being removed is not filled again behind the removal.
pub fn stopping() -> bool {
    STOPPING.load(Ordering::Relaxed)
}

/// Removes `dir` (with everything in it) if the process is stopped before [`keep`] is called.
pub fn remove_on_stop(dir: &Path) {
    TEMPORARY
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(dir.to_path_buf());
}

/// Forgets a folder given to [`remove_on_stop`]: it was removed, or is no longer temporary.
pub fn keep(dir: &Path) {
    TEMPORARY
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .retain(|d| d != dir);
}

/// Held by the swap of a new site for the old one (see [`SWAP`]).
pub fn swap_guard() -> MutexGuard<'static, ()> {
    SWAP.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Blocks for ever once a stop has begun: the thread that took the signal ends the process
/// (with 130 or 143). Called by the command line before it reports the result of a build that
/// a stop cut short, so it reports neither the write errors the stop caused nor a wrong code.
pub fn wait_if_stopping() {
    while stopping() {
        std::thread::park();
    }
}

/// Takes SIGINT, SIGTERM and SIGHUP on a thread of their own. Must be called first thing in `main`,
/// before any other thread is started. A signal ignored when the process started (a job started
/// in the background by a shell, `nohup`) stays ignored, as it would without this.
#[cfg(unix)]
pub fn install() {
    // SAFETY: plain libc calls on a local signal set and a local `sigaction`, which they fill
    // or read; no handler is installed, so nothing runs in signal context.
    let set = unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            let mut old: libc::sigaction = std::mem::zeroed();
            let ignored = libc::sigaction(sig, std::ptr::null(), &mut old) == 0
                && old.sa_sigaction == libc::SIG_IGN;
            if !ignored {
                libc::sigaddset(&mut set, sig);
            }
        }
        if libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) != 0 {
            return;
        }
        set
    };
    let spawned = std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || loop {
            let mut sig: libc::c_int = 0;
            // SAFETY: `set` is an initialised signal set and `sig` a live int to fill.
            if unsafe { libc::sigwait(&set, &mut sig) } == 0 {
                stop(sig);
            }
        });
    if spawned.is_err() {
        // no thread to take them: let the signals act as they would have
        // SAFETY: as above.
        unsafe {
            libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        }
    }
}

#[cfg(not(unix))]
pub fn install() {}

/// Lets a write to a closed pipe end the process, as it ends `cat` or `grep`: `rulebook search
/// the | head -3` or `rulebook check | less` quit early, and the Rust runtime, which ignores
/// SIGPIPE, would have every later `println!` panic (exit 101, and a backtrace on a closed
/// stream). Not for `serve`, which logs to standard error while it serves: its log lines
/// ignore a closed stream instead ([`crate::serve`]). A command's files are safe either way:
/// a build prints nothing until its new site is in place (but `RULEBOOK_TIMINGS` lines), and a
/// build stopped before that leaves only a temporary folder, which the next build removes.
#[cfg(unix)]
pub fn end_quietly_on_closed_pipe() {
    // SAFETY: sets the disposition of one signal to its default; no handler runs.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
pub fn end_quietly_on_closed_pipe() {}

/// Removes the temporary folders and ends the process with 128 + `sig`.
#[cfg(unix)]
fn stop(sig: libc::c_int) -> ! {
    STOPPING.store(true, Ordering::Relaxed);
    // never released: the process ends holding it, so no swap starts after this point
    let _swap = swap_guard();
    let dirs = TEMPORARY
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    for dir in &dirs {
        remove_settled(dir);
    }
    let name = match sig {
        libc::SIGINT => "interrupted",
        libc::SIGHUP => "hung up",
        _ => "terminated",
    };
    // a closed standard error must not keep the process from ending (`eprintln!` would panic
    // this thread, and the process would go on)
    use std::io::Write as _;
    let _ = if dirs.is_empty() {
        writeln!(std::io::stderr(), "{name}")
    } else {
        writeln!(
            std::io::stderr(),
            "{name}: removed its temporary folder; nothing else was changed"
        )
    };
    std::process::exit(128 + sig)
}

/// Removes `dir`, again while other threads still finish a file they had begun (they create no
/// new one once [`stopping`] is set), for at most about a second.
fn remove_settled(dir: &Path) {
    for _ in 0..100 {
        let _ = std::fs::remove_dir_all(dir);
        if std::fs::symlink_metadata(dir).is_err() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// Whether process `pid` is running (or cannot be told: then it is taken to be). A temporary
/// folder named after a process that is gone was left by one killed outright (SIGKILL, a
/// crash of the machine), which no signal thread could clean up after.
#[cfg(unix)]
pub fn running(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return true;
    };
    // SAFETY: signal 0 sends nothing; it only checks that the process exists.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

#[cfg(not(unix))]
pub fn running(_pid: u32) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_are_registered_and_forgotten() {
        let a = Path::new("/nonexistent/rulebook-stop-test-a");
        remove_on_stop(a);
        assert!(TEMPORARY.lock().unwrap().iter().any(|d| d == a));
        keep(a);
        assert!(!TEMPORARY.lock().unwrap().iter().any(|d| d == a));
        assert!(!stopping());
    }
}
