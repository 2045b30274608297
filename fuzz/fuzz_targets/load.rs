//! The content loader: bytes of a chapter file (any bytes) through decoding, normalisation and
//! front matter; the same bytes as `site.yaml`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rulebook::diag::Diagnostics;

fuzz_target!(|data: &[u8]| {
    let mut d = Diagnostics::default();
    if let Some(text) = rulebook::load::decode(data.to_vec(), "content/en/x.md", &mut d) {
        // decoding leaves one form of the text: no CR, no BOM, NFC, no NUL
        assert!(!text.contains('\r') && !text.starts_with('\u{feff}') && !text.contains('\0'));
        let _ = rulebook::config::SiteConfig::parse(&text, &mut d);
        let chapter = rulebook::load::parse_chapter(
            text.clone(),
            "en",
            "content/en/x.md".into(),
            "/nonexistent/content/en".into(),
            &mut d,
        );
        if let Some(c) = chapter {
            assert!(rulebook::load::check_id(&c.id).is_ok());
            assert!(c.body_line >= 1 && c.id_line >= 1);
        }
    }
    for item in &d.items {
        let _ = item.to_string();
    }
});
