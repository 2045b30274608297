//! The Markdown-to-HTML pipeline with cross-links: a chapter body rendered once, its numbered
//! headings collected as sections, the placeholders filled for two reader languages, and the
//! references checked. The first byte picks safe mode; in safe mode no script may come out.
#![no_main]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use libfuzzer_sys::fuzz_target;
use rulebook::markdown::{prepare, Source};
use rulebook::sections::{SectionDef, SectionIndex};
use rulebook::symbols::Symbols;
use rulebook::xref::{ChapterMap, Page, Resolver};

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let safe = flags & 1 == 1;
    let text = rulebook::xref::scrub(text);
    let symbols = Symbols::new(
        ["main".to_string(), "side".to_string()],
        &BTreeMap::from([("main".to_string(), "Main <action>".to_string())]),
    );
    let root = Path::new("/nonexistent-site");
    let dir = root.join("content/en");
    let file = PathBuf::from("content/en/x.md");
    let src = Source {
        file: &file,
        first_line: 5,
        dir: &dir,
        site_root: root,
        root: "../../",
        safe,
        reserved_anchors: &[],
        sections: true,
    };
    let p = prepare(&text, &src, &symbols);
    let languages = vec!["uk".to_string(), "en".to_string()];
    let mut sections = SectionIndex::new(&languages);
    for h in &p.headings {
        if let Some(n) = &h.number {
            let _ = sections.insert(SectionDef {
                number: n.clone(),
                lang: "en".into(),
                chapter_id: "x".into(),
                title: h.title.clone(),
                file: file.clone(),
                line: h.line,
                level: h.level,
            });
        }
    }
    let mut chapters = ChapterMap::default();
    let key = ("en".to_string(), "x".to_string());
    chapters.present.insert(key.clone());
    chapters.files.insert(dir.join("x.md"), key.clone());
    chapters
        .anchors
        .insert(key, p.anchors().map(str::to_string).collect());
    let resolver = Resolver {
        sections: &sections,
        chapters: &chapters,
        languages: &languages,
    };
    for lang in ["en", "uk"] {
        let page = Page {
            lang,
            id: Some("x"),
            root: "../../",
        };
        let html = resolver.fill(&p.html, &p.pending, page);
        assert!(!html.contains(['\u{E000}', '\u{E001}', '\u{E002}', '\u{E003}']));
        if safe {
            // text escapes every `<`, so each `<` left starts a real tag; quotes inside
            // attribute values are escaped, so `href="javascript:` in a tag is a real link
            for tag in html.split('<').skip(1) {
                let tag = tag.split('>').next().unwrap_or("").to_ascii_lowercase();
                for bad in ["script", "iframe", "object", "embed", "style"] {
                    assert!(!tag.starts_with(bad), "<{tag}> in safe output: {html}");
                }
                for bad in ["href=\"javascript:", "src=\"javascript:"] {
                    assert!(!tag.contains(bad), "<{tag}> in safe output: {html}");
                }
                assert!(
                    !attribute_names(&tag).iter().any(|a| a.starts_with("on")),
                    "<{tag}> has an event handler in safe output: {html}"
                );
            }
        }
    }
    let _ = resolver.check(&p.pending, &file, "en", root);
});

/// Names of the attributes of a tag's inside (`a href="x" class="y"` → `[href, class]`),
/// skipping quoted values.
fn attribute_names(tag: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    for c in tag.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '=' => names.push(std::mem::take(&mut word)),
            None if c.is_whitespace() || c == '/' => word.clear(),
            None => word.push(c),
        }
    }
    names
}
