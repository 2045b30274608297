//! Inputs that once crashed or misbehaved (found by the fuzz targets in `fuzz/` or by hand), kept
//! here so the normal suite proves they stay fixed. The pipeline functions are called directly,
//! the way the fuzz targets call them.

use std::collections::BTreeMap;
use std::path::Path;

use rulebook::diag::Diagnostics;
use rulebook::markdown::{prepare, Prepared, Source};
use rulebook::symbols::Symbols;

fn render(text: &str, safe: bool) -> Prepared {
    let symbols = Symbols::new(["main".to_string()], &BTreeMap::new());
    let root = Path::new("/nonexistent-site");
    let src = Source {
        file: Path::new("content/en/x.md"),
        first_line: 1,
        dir: &root.join("content/en"),
        site_root: root,
        root: "../../",
        safe,
        reserved_anchors: &[],
        sections: true,
    };
    prepare(text, &src, &symbols)
}

fn parse_html(html: &str) -> scraper::Html {
    scraper::Html::parse_fragment(html)
}

fn count(doc: &scraper::Html, css: &str) -> usize {
    doc.select(&scraper::Selector::parse(css).unwrap()).count()
}

/// `%` before a Cyrillic letter in an image path: the percent decoder sliced the text at a byte
/// that is not a character boundary, and panicked.
#[test]
fn percent_before_cyrillic_in_an_image_path() {
    for dest in ["%aй.png", "%й", "a%йй", "%%й", "%2й", "%d0%b9.png"] {
        let p = render(&format!("![x]({dest})\n"), false);
        assert!(p.html.contains("img-missing"), "{dest}: {}", p.html);
    }
}

/// Raw HTML inside the text of a link whose start tag the renderer replaces (a cross-link, an
/// empty link, a `javascript:` link) bypassed safe mode.
#[test]
fn raw_html_in_link_text_is_stripped_in_safe_mode() {
    for md in [
        "[7.1.0 <script>alert(1)</script>](#)",
        "[<script>alert(1)</script>](#7.1.0)",
        "[<img src=x onerror=alert(1)>](other.md)",
        "[<script>alert(1)</script>](javascript:alert(1))",
        "[<b onmouseover=alert(1)>x</b>]()",
        "[![x](javascript:alert(1))](#7.1.0)",
    ] {
        let p = render(&format!("{md}\n"), true);
        let doc = parse_html(&p.html);
        assert_eq!(count(&doc, "script"), 0, "{md}: {}", p.html);
        assert_eq!(
            count(&doc, "[onerror], [onmouseover], [src^='javascript']"),
            0,
            "{md}: {}",
            p.html
        );
    }
}

/// Without safe mode raw HTML is the author's choice and stays.
#[test]
fn raw_html_stays_for_trusted_sites() {
    let p = render("<b>bold</b> and [7.1.0 <i>x</i>](#)\n", false);
    let doc = parse_html(&p.html);
    assert_eq!(count(&doc, "b"), 1);
    assert_eq!(count(&doc, "i"), 1);
}

/// A 10 MB line full of references: each reference used to rescan the text before it to count
/// lines (quadratic; minutes). Now it is linear; this just has to finish and count right.
#[test]
fn many_references_on_one_long_line() {
    let line = "word 1.1.0 ".repeat(50_000);
    let p = render(&format!("{line}\n\nSee 9.9.9.\n"), false);
    assert_eq!(p.pending.len(), 50_001);
    match p.pending.last() {
        Some(rulebook::xref::Pending::Bare { number, line, .. }) => {
            assert_eq!((number.as_str(), *line), ("9.9.9", 3u32))
        }
        other => panic!("{other:?}"),
    }
}

/// A NUL byte is refused with its line and column, before anything else looks at the text.
#[test]
fn nul_bytes_are_refused() {
    let mut d = Diagnostics::default();
    assert!(rulebook::load::decode(b"ok\nab\0".to_vec(), "x.md", &mut d).is_none());
    assert_eq!(
        (d.items[0].kind, d.items[0].line, d.items[0].column),
        ("nul-byte", 2, 3)
    );
}

/// Two byte-order marks at the start (fuzzing, load target): the second one survived decoding
/// and stood before the front matter's `---`.
#[test]
fn every_leading_bom_is_dropped() {
    let mut d = Diagnostics::default();
    let text = rulebook::load::decode(
        b"\xef\xbb\xbf\xef\xbb\xbf---\nid: a\ntitle: A\n---\n".to_vec(),
        "x.md",
        &mut d,
    )
    .unwrap();
    assert!(text.starts_with("---\n"), "{text:?}");
}
