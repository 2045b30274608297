//! Deterministic output: the same input gives byte-identical output, whatever the number of
//! threads, the order the files were created in (which is the order many file systems list
//! them in), or the folder the site lives in.

use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Every file below `dir` (relative paths, sorted).
fn list(dir: &Path) -> Vec<PathBuf> {
    snapshot(dir).into_iter().map(|(p, _)| p).collect()
}

/// Copies the files of `from` into `to` in the given order (folders are created as needed).
fn copy_in_order(from: &Path, to: &Path, files: &[PathBuf]) {
    for f in files {
        let target = to.join(f);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(from.join(f), target).unwrap();
    }
}

fn build_with_threads(site: &Path, threads: &str) {
    let r = Command::new(bin())
        .args(["build", "--site", site.to_str().unwrap()])
        .env("RAYON_NUM_THREADS", threads)
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
}

fn assert_identical(a: &Path, b: &Path) {
    let (sa, sb) = (snapshot(a), snapshot(b));
    let (la, lb): (Vec<_>, Vec<_>) = (
        sa.iter().map(|x| &x.0).collect(),
        sb.iter().map(|x| &x.0).collect(),
    );
    assert_eq!(la, lb, "the two builds wrote different files");
    for ((p, x), (_, y)) in sa.iter().zip(&sb) {
        assert!(x == y, "{} differs between the two builds", p.display());
    }
}

/// The shipped site: copied twice, its files created in opposite orders, built with one thread
/// and with eight.
#[test]
fn default_content_builds_byte_identical_whatever_the_order_and_threads() {
    let src = repo().join("content");
    let files = list(&src);
    assert!(files.len() > 10);
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    copy_in_order(&src, &a.path().join("content"), &files);
    let mut reversed = files.clone();
    reversed.reverse();
    copy_in_order(&src, &b.path().join("content"), &reversed);
    build_with_threads(a.path(), "1");
    build_with_threads(b.path(), "8");
    assert_identical(&a.path().join("public"), &b.path().join("public"));
}

/// A generated corpus with hundreds of chapters, glossary and broken references (more chances
/// for a hash map's order or a thread's timing to leak into the output).
#[test]
fn generated_corpus_builds_byte_identical() {
    let dir = generated_corpus(150);
    let src = dir.path().join("rulebook");
    let mut files = list(&src);
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    copy_in_order(&src, a.path(), &files);
    // a different, scrambled order for the second copy
    files.sort_by_key(|p| {
        let s = p.to_string_lossy();
        s.bytes()
            .rev()
            .fold(0u64, |h, c| h.wrapping_mul(31).wrapping_add(c as u64))
    });
    copy_in_order(&src, b.path(), &files);
    build_with_threads(a.path(), "2");
    build_with_threads(b.path(), "1");
    assert_identical(&a.path().join("public"), &b.path().join("public"));
    // and a rebuild in place changes nothing
    let before = snapshot(&a.path().join("public"));
    build_with_threads(a.path(), "3");
    assert!(
        before == snapshot(&a.path().join("public")),
        "a rebuild changed the output"
    );
}
