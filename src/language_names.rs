//! What a language is called in itself (`pl` → `Polski`), for a language the theme has no UI
//! strings for. Such a site borrows the English strings until it has an `i18n/<lang>.yaml`
//! (README, Theme), which is readable; but it would also borrow `English` as the language's
//! name, and then the language switch and the root page's chooser offered three links all
//! called English, and an untranslated chapter's banner called its Polish original English.

/// Names of the languages a rules community is likeliest to translate into, by their codes
/// (the part before any `-`), each in its own language.
const NAMES: &[(&str, &str)] = &[
    ("ar", "العربية"),
    ("be", "Беларуская"),
    ("bg", "Български"),
    ("ca", "Català"),
    ("cs", "Čeština"),
    ("da", "Dansk"),
    ("de", "Deutsch"),
    ("el", "Ελληνικά"),
    ("en", "English"),
    ("eo", "Esperanto"),
    ("es", "Español"),
    ("et", "Eesti"),
    ("fi", "Suomi"),
    ("fr", "Français"),
    ("he", "עברית"),
    ("hr", "Hrvatski"),
    ("hu", "Magyar"),
    ("id", "Bahasa Indonesia"),
    ("it", "Italiano"),
    ("ja", "日本語"),
    ("ka", "ქართული"),
    ("kk", "Қазақ тілі"),
    ("ko", "한국어"),
    ("lt", "Lietuvių"),
    ("lv", "Latviešu"),
    ("nb", "Norsk bokmål"),
    ("nl", "Nederlands"),
    ("nn", "Norsk nynorsk"),
    ("no", "Norsk"),
    ("pl", "Polski"),
    ("pt", "Português"),
    ("ro", "Română"),
    ("ru", "Русский"),
    ("sk", "Slovenčina"),
    ("sl", "Slovenščina"),
    ("sr", "Српски"),
    ("sv", "Svenska"),
    ("tr", "Türkçe"),
    ("uk", "Українська"),
    ("vi", "Tiếng Việt"),
    ("zh", "中文"),
];

/// The language's own name, or its code when it is not one of [`NAMES`]: a code is at least
/// told apart from the other languages, where a borrowed name was not.
pub fn own_name(code: &str) -> &str {
    let base = code.split(['-', '_']).next().unwrap_or(code);
    NAMES
        .binary_search_by(|(c, _)| c.cmp(&base))
        .map_or(code, |i| NAMES[i].1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_sorted_by_code_for_the_search() {
        assert!(NAMES.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn a_language_is_named_in_itself_or_by_its_code() {
        assert_eq!(own_name("pl"), "Polski");
        assert_eq!(own_name("de"), "Deutsch");
        assert_eq!(own_name("pt-BR"), "Português");
        assert_eq!(own_name("tlh"), "tlh");
    }
}
