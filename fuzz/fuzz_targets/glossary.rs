//! The glossary parser: any text as `glossary.json`, then every definition through the
//! Markdown pipeline the way glossary pages render them.
#![no_main]

use std::collections::BTreeMap;
use std::path::Path;

use libfuzzer_sys::fuzz_target;
use rulebook::diag::Diagnostics;
use rulebook::markdown::{prepare, Source};
use rulebook::symbols::Symbols;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let text = rulebook::xref::scrub(text);
    let mut d = Diagnostics::default();
    let path = Path::new("content/en/glossary.json");
    let Some(g) = rulebook::glossary::parse(&text, "en", path, &mut d) else {
        assert!(d.has_errors());
        return;
    };
    let symbols = Symbols::new(["main".to_string()], &BTreeMap::new());
    let root = Path::new("/nonexistent-site");
    let dir = root.join("content/en");
    let mut anchors = std::collections::HashSet::new();
    for e in &g.entries {
        assert!(!e.key.trim().is_empty() && !e.term.trim().is_empty());
        assert!(anchors.insert(e.anchor.clone()), "anchor {} twice", e.anchor);
        let src = Source {
            file: path,
            first_line: e.line,
            dir: &dir,
            site_root: root,
            root: "../../",
            safe: true,
            reserved_anchors: &[],
            sections: false,
        };
        let p = prepare(&e.definition, &src, &symbols);
        assert!(!p.html.to_ascii_lowercase().contains("<script"));
    }
    for k in g.by_key.keys() {
        assert!(g.get(k).is_some());
    }
});
