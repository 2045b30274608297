//! Small HTML helpers shared by the renderer and the pages.

/// Escapes text for an HTML text node or a double-quoted attribute value.
pub fn escape_into(s: &str, out: &mut String) {
    // writing into a String cannot fail
    let _ = pulldown_cmark_escape::escape_html(out, s);
}

/// Escapes text for an HTML text node: only `&`, `<` and `>` need it there, and leaving quotes
/// alone keeps prose (full of apostrophes) small.
pub fn escape_text_into(s: &str, out: &mut String) {
    let _ = pulldown_cmark_escape::escape_html_body_text(out, s);
}

/// The escaper of the templates. Tera's own also escapes `/` (as `&#x2F;`), which no context
/// needs and which adds five bytes to every URL of every page; this one escapes what can end
/// a text node or an attribute value, single- or double-quoted: `& < > " '`.
pub fn escape_template(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    escape_template_into(s, &mut out);
    out
}

/// [`escape_template`] into `out`: for markup written in Rust that must read exactly as the
/// templates would write it.
pub fn escape_template_into(s: &str, out: &mut String) {
    let mut last = 0;
    for (i, b) in s.bytes().enumerate() {
        let rep = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\'' => "&#39;",
            _ => continue,
        };
        out.push_str(&s[last..i]);
        out.push_str(rep);
        last = i + 1;
    }
    out.push_str(&s[last..]);
}

pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    escape_into(s, &mut out);
    out
}

/// Whether a link target may be followed by a reader: no `javascript:`, `vbscript:` or `data:`
/// (browsers ignore case, whitespace and control characters in the scheme, so we do too).
pub fn is_safe_url(url: &str, allow_data_image: bool) -> bool {
    let cleaned: String = url
        .chars()
        .filter(|c| !c.is_whitespace() && !c.is_control())
        .take(16)
        .collect::<String>()
        .to_ascii_lowercase();
    if cleaned.starts_with("javascript:") || cleaned.starts_with("vbscript:") {
        return false;
    }
    if cleaned.starts_with("data:") {
        return allow_data_image && cleaned.starts_with("data:image/");
    }
    true
}

/// Whether a URL names another site or scheme (left untouched by the build).
pub fn has_scheme(url: &str) -> bool {
    let Some(colon) = url.find(':') else {
        return false;
    };
    let scheme = &url[..colon];
    !scheme.is_empty()
        && scheme
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
}

/// A slug for a heading anchor or glossary entry: lowercase letters and digits of any script,
/// words joined by `-`. Cyrillic stays Cyrillic (browsers show it fine in the address bar).
pub fn slugify(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut dash = false;
    for c in text.chars() {
        if c.is_alphanumeric() {
            if dash && !out.is_empty() {
                out.push('-');
            }
            dash = false;
            out.extend(c.to_lowercase());
        } else if c == '\'' || c == '’' || c == 'ʼ' {
            // apostrophes are part of Ukrainian words: `ім'я` → `імя`
        } else {
            dash = true;
        }
    }
    if out.is_empty() {
        out.push_str("section");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_everything_that_matters() {
        assert_eq!(
            escape(r#"<a href="x">'&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn unsafe_urls() {
        for u in [
            "javascript:alert(1)",
            " JaVa\tScRiPt:x",
            "vbscript:x",
            "data:text/html,x",
        ] {
            assert!(!is_safe_url(u, true), "{u}");
        }
        assert!(is_safe_url("data:image/png;base64,xx", true));
        assert!(!is_safe_url("data:image/png;base64,xx", false));
        assert!(is_safe_url("https://x", false) && is_safe_url("../a/", false));
    }

    #[test]
    fn slugs() {
        assert_eq!(slugify("Фаза підготовки"), "фаза-підготовки");
        assert_eq!(
            slugify("Active dice pool / active pool"),
            "active-dice-pool-active-pool"
        );
        assert_eq!(slugify("Ім'я"), "імя");
        assert_eq!(slugify("!!"), "section");
    }

    #[test]
    fn schemes() {
        assert!(has_scheme("https://x") && has_scheme("mailto:a@b"));
        assert!(!has_scheme("a.md") && !has_scheme("#x") && !has_scheme("../x:y"));
    }

    #[test]
    fn template_escape_covers_both_quote_styles_and_leaves_slashes() {
        assert_eq!(
            escape_template(r#"<a href='x'>"Ж" & /uk/</a>"#),
            "&lt;a href=&#39;x&#39;&gt;&quot;Ж&quot; &amp; /uk/&lt;/a&gt;"
        );
        assert_eq!(escape_template("простий текст"), "простий текст");
    }
}
