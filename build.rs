//! Embeds the default theme (`templates/`, `static/`, `i18n/`) in the binary, so a new site
//! needs nothing but `content/`. The list of files is generated, so adding a file to the theme
//! needs no code change.

use std::fmt::Write;
use std::path::Path;

fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            walk(&p, root, out);
        } else if p.is_file()
            && !p
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        {
            out.push(
                p.strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/"),
            );
        }
    }
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for d in ["templates", "static", "i18n"] {
        println!("cargo:rerun-if-changed={d}");
        walk(&root.join(d), root, &mut files);
    }
    let mut code = String::from("/// Files of the default theme: (path relative to the theme root, bytes).\npub static EMBEDDED: &[(&str, &[u8])] = &[\n");
    for f in &files {
        writeln!(
            code,
            "    ({f:?}, include_bytes!({:?})),",
            root.join(f).to_string_lossy()
        )
        .unwrap();
    }
    code.push_str("];\n");
    // A directory in rerun-if-changed is scanned for changes, but naming each file too makes
    // an edit to any of them rebuild the embedded theme on every platform.
    for f in &files {
        println!("cargo:rerun-if-changed={f}");
    }
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("embedded.rs");
    std::fs::write(out, code).unwrap();
}
