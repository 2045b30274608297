//! Snippets for the command line: a short stretch of a section's text around the first word
//! that matched, with the matched words marked `**like this**`.

use super::analyzer::tokenize;

/// Characters of text a snippet shows.
pub const SNIPPET_CHARS: usize = 160;

/// The stretch of `text` around the first word whose term is in `terms`, at most about
/// `chars` characters, the matching words between `**`.
pub fn snippet(text: &str, terms: &[String], chars: usize) -> String {
    let text = text.trim();
    let tokens = tokenize(text);
    let hits: Vec<(usize, usize)> = tokens
        .iter()
        .filter(|t| terms.contains(&t.term))
        .map(|t| (t.start, t.end))
        .collect();
    // Start a few words before the first match, at a word boundary.
    let first = hits.first().map_or(0, |h| h.0);
    let mut start = 0;
    if let Some(i) = tokens.iter().position(|t| t.start == first) {
        start = tokens[i.saturating_sub(4)].start;
        if i < 4 {
            start = 0;
        }
    }
    let end = text[start..]
        .char_indices()
        .nth(chars)
        .map_or(text.len(), |(i, _)| start + i);
    let end = if end < text.len() {
        // do not cut a word in two
        tokens
            .iter()
            .find(|t| t.start < end && t.end > end)
            .map_or(end, |t| t.start)
    } else {
        end
    };
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    let mut at = start;
    for &(s, e) in hits.iter().filter(|(s, e)| *s >= start && *e <= end) {
        out.push_str(&text[at..s]);
        out.push_str("**");
        out.push_str(&text[s..e]);
        out.push_str("**");
        at = e;
    }
    out.push_str(&text[at..end]);
    if end < text.len() {
        out.push('…');
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_the_matching_words() {
        let s = snippet(
            "Гравець бере жетон виснаження.",
            &["жетон".to_string()],
            160,
        );
        assert_eq!(s, "Гравець бере **жетон** виснаження.");
    }

    #[test]
    fn cuts_around_the_first_match() {
        let text = format!("{} кінець жетона тут", "слово ".repeat(100));
        let s = snippet(&text, &["жетон".to_string()], 40);
        assert!(s.starts_with('…') && s.contains("**жетона**"), "{s}");
    }
}
