//! Property tests of the section-reference scanner: whatever the text, it never panics, and
//! what it finds is exactly the stand-alone numbers a reader would take for sections.

use proptest::prelude::*;
use rulebook::sections::{malformed_heading_number, scan_refs, split_heading_number};

/// A section number of 2 to 5 components, each 1 to 9 digits.
fn number() -> impl Strategy<Value = String> {
    prop::collection::vec(0u32..1_000_000_000, 2..=5).prop_map(|parts| {
        parts
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(".")
    })
}

fn is_date(n: &str) -> bool {
    let p: Vec<&str> = n.split('.').collect();
    p.len() == 3 && (p[0].len() == 4 || p[2].len() == 4)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Any text at all: no panic, and every match is a well-formed, in-bounds, ordered number.
    #[test]
    fn any_text_gives_well_formed_matches(text in "\\PC{0,200}|[0-9. a-zA-Zй-]{0,200}") {
        let refs = scan_refs(&text);
        let mut last_end = 0;
        for m in &refs {
            prop_assert!(m.start >= last_end && m.start < m.end && m.end <= text.len());
            prop_assert!(text.is_char_boundary(m.start) && text.is_char_boundary(m.end));
            prop_assert_eq!(&text[m.start..m.end], m.number.as_str());
            let comps: Vec<&str> = m.number.split('.').collect();
            prop_assert_eq!(comps.len(), m.parts);
            prop_assert!(m.parts >= 2);
            for c in comps {
                prop_assert!((1..=9).contains(&c.len()) && c.bytes().all(|b| b.is_ascii_digit()));
            }
            last_end = m.end;
        }
    }

    /// A number standing alone in prose is found, exactly, with a sentence dot after it or not.
    #[test]
    fn a_number_in_prose_is_found(
        n in number(),
        before in prop::sample::select(vec!["see ", "(", "див. ", "", "rule\n", "«", "— "]),
        after in prop::sample::select(vec!["", ".", ")", ", then", " and more", "».", ":\n"]),
    ) {
        prop_assume!(!is_date(&n));
        let text = format!("{before}{n}{after}");
        let refs = scan_refs(&text);
        prop_assert_eq!(refs.len(), 1, "{:?}", text);
        prop_assert_eq!(&refs[0].number, &n);
        prop_assert_eq!(refs[0].start, before.len());
    }

    /// Glued to a word, a version, a path or a negative sign, it is not a reference.
    #[test]
    fn a_number_glued_to_something_is_not_found(
        n in number(),
        glue in prop::sample::select(vec!["v", "x-", "a_", "/", "x.", "й", "\\"]),
        tail in prop::sample::select(vec!["", "a", "й", "-b", "_c"]),
    ) {
        let text = format!("{glue}{n}{tail}");
        prop_assert!(scan_refs(&text).is_empty(), "{:?}", text);
    }

    /// A component of ten or more digits (an overflowing integer) or a doubled dot is never a
    /// section number, in text or in a heading, and a heading that tries is flagged.
    #[test]
    fn overflow_and_doubled_dots_are_not_numbers(
        n in number(),
        big in "[1-9][0-9]{9,30}",
        at in 0usize..5,
    ) {
        let mut parts: Vec<String> = n.split('.').map(str::to_string).collect();
        let i = at % parts.len();
        parts[i] = big;
        let overflow = parts.join(".");
        let doubled = n.replacen('.', "..", 1);
        for bad in [&overflow, &doubled] {
            let text = format!("see {bad} now");
            prop_assert!(scan_refs(&text).is_empty(), "{:?}", text);
            let heading = format!("{bad} Title");
            prop_assert!(split_heading_number(&heading).is_none());
            prop_assert!(malformed_heading_number(&heading));
        }
    }

    /// A heading that starts with a number splits into that number and its title; a trailing
    /// dot after the number is the writer's style, not part of the number.
    #[test]
    fn headings_split_into_number_and_title(
        n in number(),
        dot in prop::bool::ANY,
        title in "[A-Za-zА-Яа-яґєіїй][A-Za-zА-Яа-яґєіїй ]{0,30}",
    ) {
        let heading = format!("{n}{} {title}", if dot { "." } else { "" });
        let (got, rest) = split_heading_number(&heading).unwrap();
        prop_assert_eq!(got, n);
        prop_assert_eq!(rest, title.trim());
    }
}
