//! `rulebook init DIR`: a new bilingual site that builds at once with the embedded theme.
//!
//! It holds the least a real site has: `site.yaml`, one chapter in both languages with
//! numbered sections and a cross-link, a glossary with one term per language, and a GitHub
//! Pages workflow. The Ukrainian chapter already records the English text it translates, so
//! `rulebook check` on a fresh site is clean and turns stale the day the English changes.

use std::path::{Path, PathBuf};

const SITE_YAML: &str = "\
# The site's settings. base_url is where it is published: \"/\" for the root of a domain,
# \"https://<owner>.github.io/<repository>/\" for GitHub Pages (the workflow sets it for you).
title:
  uk: \"Правила гри\"
  en: \"Rules of the Game\"
languages: [uk, en]
default_language: uk
base_url: \"/\"
";

const EN_CHAPTER: &str = "\
---
id: basics
title: \"1.0.0 Basics\"
weight: 10
---

This chapter exists in every language: files with the same `id` are one chapter.

## 1.1.0 Turns

Players take turns in clockwise order. On your turn, draw a card, then play one.

## 1.2.0 Winning

The first player with no cards left in hand wins. Turns end as described in 1.1.0.
";

const UK_CHAPTER: &str = "\
---
id: basics
title: \"1.0.0 Основи\"
weight: 10
---

Цей розділ є кожною мовою: файли з однаковим `id` — це один розділ.

## 1.1.0 Ходи

Гравці ходять по черзі за годинниковою стрілкою. Ваш хід: візьміть карту, а тоді зіграйте одну.

## 1.2.0 Перемога

Перемагає той, у кого першим не залишилося карт у руці. Хід закінчується, як описано в 1.1.0.
";

const EN_GLOSSARY: &str = "{\n  \"turn\": \"One player's part of the game: draw a card, then play one (see 1.1.0).\"\n}\n";

const UK_GLOSSARY: &str = "{\n  \"turn\": {\n    \"term\": \"Хід\",\n    \"definition\": \"Частина гри одного гравця: візьміть карту, а тоді зіграйте одну (див. 1.1.0).\"\n  }\n}\n";

const WORKFLOW: &str = "\
# Builds the site and publishes it on GitHub Pages with the official Pages actions.
# 1. In the repository's Settings → Pages, set \"Source\" to \"GitHub Actions\".
# 2. In Settings → Secrets and variables → Actions → Variables, set RULEBOOK_GIT to the git
#    address of the rulebook tool (the repository you got it from). Optionally set
#    RULEBOOK_REV to one of its commits: every run then builds with that version, and the
#    tool, compiled once (several minutes), is kept between runs.
# Every push to main then publishes the site at https://<owner>.github.io/<repository>/
# (or at the custom domain entered in Settings → Pages).
name: Publish the site

on:
  push:
    branches: [main]
  workflow_dispatch:

permissions:
  contents: read
  pages: write
  id-token: write

concurrency:
  group: pages
  cancel-in-progress: false

jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - id: pages
        uses: actions/configure-pages@v5
      - name: Restore rulebook
        id: tool
        if: ${{ vars.RULEBOOK_REV != '' }}
        uses: actions/cache@v4
        with:
          path: ~/.cargo/bin/rulebook
          key: rulebook-${{ runner.os }}-${{ vars.RULEBOOK_REV }}
      - name: Install rulebook
        if: steps.tool.outputs.cache-hit != 'true'
        env:
          RULEBOOK_GIT: ${{ vars.RULEBOOK_GIT }}
          RULEBOOK_REV: ${{ vars.RULEBOOK_REV }}
        run: |
          if [ -z \"$RULEBOOK_GIT\" ]; then
            echo \"::error::Set the repository variable RULEBOOK_GIT (Settings → Secrets and variables → Actions → Variables) to the git address of the rulebook tool\"
            exit 1
          fi
          if ! command -v cargo >/dev/null; then
            curl --proto '=https' -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
            echo \"$HOME/.cargo/bin\" >> \"$GITHUB_PATH\"
            export PATH=\"$HOME/.cargo/bin:$PATH\"
          fi
          cargo install --locked --git \"$RULEBOOK_GIT\" ${RULEBOOK_REV:+--rev \"$RULEBOOK_REV\"} rulebook
      - name: Check the content
        run: rulebook check
      - name: Build the site
        run: rulebook build --base-url \"${{ steps.pages.outputs.base_url }}/\"
      - uses: actions/upload-pages-artifact@v3
        with:
          path: public

  deploy:
    needs: build
    runs-on: ubuntu-latest
    environment:
      name: github-pages
      url: ${{ steps.deployment.outputs.page_url }}
    steps:
      - id: deployment
        uses: actions/deploy-pages@v4
";

/// What rulebook writes into a site that is not source: the built site, the command line's
/// search index, and the folders a build writes beside its output (left by a killed build,
/// removed by the next one).
const GITIGNORE: &str = "\
/public/
/.rulebook-cache/
.*.rulebook-tmp-*
.*.rulebook-old-*
";

/// What [`init`] did: the files it wrote, and what to tell the user about the files it left
/// as they were.
#[derive(Debug, Default)]
pub struct Made {
    pub written: Vec<PathBuf>,
    pub notes: Vec<String>,
}

/// Files init writes only where the folder has none: a repository made on GitHub comes with a
/// `.gitignore`, and one may have a Pages workflow of its own; neither keeps a site from being
/// made beside it.
const KEPT_IF_THERE: [&str; 2] = [".gitignore", ".github/workflows/pages.yml"];

/// What to tell the user about their own `rel`, kept as it is.
fn kept_note(dir: &Path, rel: &str) -> Option<String> {
    let path = dir.join(rel);
    if rel == ".gitignore" {
        let theirs = std::fs::read_to_string(&path).unwrap_or_default();
        let has: Vec<&str> = theirs.lines().map(str::trim).collect();
        let missing: Vec<&str> = (GITIGNORE.lines()).filter(|l| !has.contains(l)).collect();
        return (!missing.is_empty()).then(|| {
            format!(
                "kept your {}; add these lines to it, so that git leaves out what rulebook \
                 writes: {}",
                path.display(),
                missing.join(" ")
            )
        });
    }
    Some(format!(
        "kept your {}; init's workflow, which builds the site and publishes it on GitHub \
         Pages, was not written (README: Publishing on GitHub Pages)",
        path.display()
    ))
}

/// Writes a new site into `dir` (created if needed). Refuses a folder that already has a
/// `content/` folder or any of the files it would write, but for a plain `.gitignore` or Pages
/// workflow, which it leaves as they are: init never overwrites work.
pub fn init(dir: &Path) -> Result<Made, String> {
    let uk_chapter = with_translation_record(UK_CHAPTER)?;
    let files: Vec<(&str, String)> = vec![
        ("content/site.yaml", SITE_YAML.to_string()),
        ("content/en/01-basics.md", EN_CHAPTER.to_string()),
        ("content/uk/01-basics.md", uk_chapter),
        ("content/en/glossary.json", EN_GLOSSARY.to_string()),
        ("content/uk/glossary.json", UK_GLOSSARY.to_string()),
        (".github/workflows/pages.yml", WORKFLOW.to_string()),
        (".gitignore", GITIGNORE.to_string()),
    ];
    refuse_shared_folder(dir)?;
    if dir.join("content").exists() {
        return Err(format!(
            "{} already has a content/ folder, so it is a site already: init leaves it as it is; give init another folder (a new one, or one without content/)",
            dir.display()
        ));
    }
    // Everything that could stop the writing half way is found first: a file where a folder
    // goes (a `.github` file), or anything at all, a dangling link included, where a file
    // goes (written through, a link made init write outside the folder).
    let there = |p: &Path| std::fs::symlink_metadata(p).ok();
    let mut made = Made::default();
    let mut kept = Vec::new();
    for (rel, _) in &files {
        let path = dir.join(rel);
        let plain = there(&path).is_some_and(|m| m.file_type().is_file());
        if plain && KEPT_IF_THERE.contains(rel) {
            kept.push(*rel);
            made.notes.extend(kept_note(dir, rel));
            continue;
        }
        if there(&path).is_some() {
            return Err(format!(
                "{} already exists; init never overwrites a file",
                path.display()
            ));
        }
        let mut folder = path.parent();
        while let Some(f) = folder.filter(|f| f.starts_with(dir) && *f != dir) {
            if there(f).is_some_and(|m| !m.is_dir()) {
                return Err(format!(
                    "{} is a file, where init makes a folder; move it away and run init again",
                    f.display()
                ));
            }
            folder = f.parent();
        }
    }
    let files: Vec<_> = files
        .into_iter()
        .filter(|(r, _)| !kept.contains(r))
        .collect();
    // the folders init makes, deepest last: removed again if it cannot finish
    let mut folders: Vec<PathBuf> = Vec::new();
    for (rel, _) in &files {
        let mut folder = dir.join(rel).parent().map(Path::to_path_buf);
        let mut chain = Vec::new();
        while let Some(f) = folder.filter(|f| f.starts_with(dir) && f != dir) {
            if there(&f).is_none() && !folders.contains(&f) {
                chain.push(f.clone());
            }
            folder = f.parent().map(Path::to_path_buf);
        }
        folders.extend(chain.into_iter().rev());
    }
    let written = &mut made.written;
    for (rel, text) in files {
        let path = dir.join(rel);
        let wrote = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| {
                // never through a link, never over a file made meanwhile
                let mut f = std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(&path)?;
                std::io::Write::write_all(&mut f, text.as_bytes())
            });
        if let Err(e) = wrote {
            // no half-made site: a second init would refuse the content/ folder it left
            for p in written.iter() {
                let _ = std::fs::remove_file(p);
            }
            for f in folders.iter().rev() {
                let _ = std::fs::remove_dir(f);
            }
            return Err(format!("cannot write {}: {e}", path.display()));
        }
        written.push(path);
    }
    Ok(made)
}

/// `word` as the shell reads it back: as it is when it has nothing the shell would take
/// apart, else in single quotes (the command init suggests is pasted as it is printed).
pub fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_alphanumeric() || "_./-+,:@%=".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        return word.to_string();
    }
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// Refuses the file system root and the home folder, as `build --output` does: a site there
/// puts `content/`, `.github/` and `.gitignore` among everything else the folder holds (a
/// `.gitignore` at the root of the home folder then applies to every repository below it).
fn refuse_shared_folder(dir: &Path) -> Result<(), String> {
    let resolved = |p: &Path| {
        std::path::absolute(p)
            .ok()
            .map(|a| a.canonicalize().unwrap_or(a))
    };
    let Some(at) = resolved(dir) else {
        return Ok(());
    };
    let why = if at.parent().is_none() {
        "it is the file system root"
    } else if std::env::var_os("HOME").is_some_and(|h| resolved(Path::new(&h)) == Some(at.clone()))
    {
        "it is the home folder"
    } else {
        return Ok(());
    };
    Err(format!(
        "refusing to make a site in {}: {why}; give init a folder of its own, such as rules/",
        dir.display()
    ))
}

/// The Ukrainian chapter with the fingerprint of the English one it translates.
fn with_translation_record(uk: &str) -> Result<String, String> {
    let mut diags = crate::diag::Diagnostics::default();
    let en = crate::load::parse_chapter(
        EN_CHAPTER.to_string(),
        "en",
        "content/en/01-basics.md".into(),
        PathBuf::new(),
        &mut diags,
    )
    .ok_or("the built-in English chapter does not parse")?;
    let units = crate::check::units::units(&en.body, en.body_line);
    let rec = crate::check::stale::record("en", &en.title, &units);
    crate::check::stale::rewrite_front_matter(
        uk,
        &crate::check::stale::to_yaml(&rec),
        Path::new("content/uk/01-basics.md"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_root_is_refused_however_it_is_written() {
        for root in ["/", "/..", "//", "/tmp/.."] {
            let e = refuse_shared_folder(Path::new(root)).unwrap_err();
            assert!(e.contains("file system root"), "{root}: {e}");
        }
        assert!(refuse_shared_folder(Path::new("/tmp/rules")).is_ok());
    }

    #[test]
    fn shell_words_read_back_as_given() {
        for (given, shown) in [
            ("rules", "rules"),
            ("/tmp/мої правила", "'/tmp/мої правила'"),
            ("it's", r"'it'\''s'"),
            ("$HOME", "'$HOME'"),
            ("", "''"),
        ] {
            assert_eq!(shell_word(given), shown);
            let back = std::process::Command::new("sh")
                .args(["-c", &format!("printf %s {shown}")])
                .output()
                .unwrap();
            assert_eq!(String::from_utf8_lossy(&back.stdout), given);
        }
    }
}
