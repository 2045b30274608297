//! `content/site.yaml`: the site's titles, languages and address.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::diag::{Diagnostic, Diagnostics};

/// The settings of one site, checked: every language code is valid, the default language is one
/// of them, and `base_url` ends with `/`.
#[derive(Debug, Clone)]
pub struct SiteConfig {
    /// Site title per language code.
    pub title: BTreeMap<String, String>,
    /// Languages in the order the site lists them (the order of the language switcher).
    pub languages: Vec<String>,
    pub default_language: String,
    /// Where the site is published, always ending in `/`: `/`, `/repo/` or `https://host/repo/`.
    pub base_url: String,
    /// Strip raw HTML from Markdown (for content from people the site does not trust).
    pub safe: bool,
    /// Custom domain for GitHub Pages; written to `CNAME` when set.
    pub cname: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    title: TitleField,
    languages: Vec<String>,
    default_language: String,
    #[serde(default)]
    base_url: Option<String>,
    #[serde(default)]
    safe: bool,
    #[serde(default)]
    cname: Option<String>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum TitleField {
    One(String),
    PerLanguage(BTreeMap<String, String>),
}

pub const CONFIG_PATH: &str = "content/site.yaml";

/// The host (without its port) and the path of a base URL: an address gives both
/// (`https://host:443/rules/` → `host`, `/rules/`; the path is `/` when nothing follows the
/// host), a path only its path.
fn base_parts(base_url: &str) -> (Option<&str>, Option<&str>) {
    match base_url
        .strip_prefix("https://")
        .or_else(|| base_url.strip_prefix("http://"))
    {
        Some(rest) => (
            rest.split(['/', ':']).next(),
            Some(rest.find('/').map_or("/", |i| &rest[i..])),
        ),
        None => (None, base_url.starts_with('/').then_some(base_url)),
    }
}

impl SiteConfig {
    /// The site's full address, ending in `/`: `base_url` when it is one, else the custom
    /// domain's (`https://<cname><base_url>`), else `None`. What a sitemap and `robots.txt`
    /// need: a search engine takes no relative address there.
    pub fn absolute_base(&self) -> Option<String> {
        if self.base_url.starts_with("http://") || self.base_url.starts_with("https://") {
            return Some(self.base_url.clone());
        }
        self.cname
            .as_ref()
            .map(|c| format!("https://{c}{}", self.base_url))
    }

    /// Reads and checks `content/site.yaml` below `root`. Problems are pushed to `diags`; `None`
    /// means the file could not be used at all.
    pub fn load(root: &Path, diags: &mut Diagnostics) -> Option<SiteConfig> {
        let path = root.join(CONFIG_PATH);
        // A link that leaves the site is refused, as it is for a glossary or a chapter: a site
        // folder from someone else must not read files elsewhere on this machine.
        if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
            let canon_root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
            if matches!(
                crate::symlinks::resolve(&path, &canon_root),
                crate::symlinks::Target::Outside
            ) {
                diags.push(Diagnostic::error(
                    "symlink",
                    CONFIG_PATH,
                    0,
                    "symbolic link points outside the site (or nowhere) and is not followed; \
                     put the settings file itself in content/",
                ));
                return None;
            }
        }
        let text = match std::fs::metadata(&path) {
            Ok(_) => {
                let bytes = crate::limits::read_limited(&path, Path::new(CONFIG_PATH), diags)?;
                crate::load::decode(bytes, CONFIG_PATH, diags)?
            }
            Err(e) => {
                diags.push(Diagnostic::error(
                    "missing-config",
                    CONFIG_PATH,
                    0,
                    format!(
                        "cannot read the site settings ({e}); a site needs content/site.yaml with \
                         `title`, `languages` and `default_language` (see `rulebook init`)"
                    ),
                ));
                return None;
            }
        };
        Self::parse(&text, diags)
    }

    pub fn parse(text: &str, diags: &mut Diagnostics) -> Option<SiteConfig> {
        if let Some(at) = crate::limits::yaml_too_deep(text) {
            diags.push(crate::limits::too_deep_diagnostic(
                "bad-config",
                Path::new(CONFIG_PATH),
                text,
                at,
                1,
            ));
            return None;
        }
        let raw: RawConfig = match serde_yaml::from_str(text) {
            Ok(r) => r,
            Err(e) => {
                let mut msg = e.to_string();
                let (line, col) = match crate::load::duplicate_key_line(text, &msg) {
                    Some(i) => {
                        // serde_yaml's own place (the mapping's start) would contradict ours
                        msg = crate::load::strip_location(&msg).to_string();
                        (i + 1, 0)
                    }
                    None => e
                        .location()
                        .map(|l| (l.line(), l.column()))
                        .unwrap_or((1, 0)),
                };
                diags.push(
                    Diagnostic::error(
                        "bad-config",
                        CONFIG_PATH,
                        line,
                        format!(
                            "site.yaml is not valid: {}",
                            crate::load::readable_yaml_error(&msg)
                        ),
                    )
                    .at_column(col),
                );
                return None;
            }
        };
        if let Some((line, msg)) = crate::load::nested_duplicate(text) {
            diags.push(Diagnostic::error(
                "bad-config",
                CONFIG_PATH,
                line,
                format!("site.yaml is not valid: {msg}"),
            ));
            return None;
        }
        let line_of = |key: &str| -> usize {
            text.lines()
                .position(|l| l.trim_start().starts_with(&format!("{key}:")))
                .map(|i| i + 1)
                .unwrap_or(1)
        };
        let mut ok = true;
        if raw.languages.is_empty() {
            diags.push(Diagnostic::error(
                "bad-config",
                CONFIG_PATH,
                line_of("languages"),
                "`languages` is empty; list at least one language code, e.g. [uk, en]",
            ));
            ok = false;
        }
        let mut seen = Vec::new();
        for lang in &raw.languages {
            if !valid_language_code(lang) {
                diags.push(Diagnostic::error(
                    "bad-config",
                    CONFIG_PATH,
                    line_of("languages"),
                    format!("`{lang}` is not a language code; use a BCP 47 code such as `uk`, `en` or `pt-BR`"),
                ));
                ok = false;
            }
            if seen.contains(lang) {
                diags.push(Diagnostic::error(
                    "bad-config",
                    CONFIG_PATH,
                    line_of("languages"),
                    format!("language `{lang}` is listed twice"),
                ));
                ok = false;
            }
            seen.push(lang.clone());
        }
        if !raw.languages.contains(&raw.default_language) {
            diags.push(Diagnostic::error(
                "unknown-language",
                CONFIG_PATH,
                line_of("default_language"),
                format!(
                    "default_language `{}` is not one of the site's languages [{}]",
                    raw.default_language,
                    raw.languages.join(", ")
                ),
            ));
            ok = false;
        }
        let base_url = match normalize_base_url(raw.base_url.as_deref().unwrap_or("/")) {
            Ok(u) => u,
            Err(msg) => {
                diags.push(Diagnostic::error(
                    "bad-base-url",
                    CONFIG_PATH,
                    line_of("base_url"),
                    msg,
                ));
                ok = false;
                "/".to_string()
            }
        };
        let title = match raw.title {
            TitleField::One(t) => raw
                .languages
                .iter()
                .map(|l| (l.clone(), t.clone()))
                .collect(),
            TitleField::PerLanguage(map) => {
                for key in map.keys() {
                    if !raw.languages.contains(key) {
                        diags.push(Diagnostic::error(
                            "unknown-language",
                            CONFIG_PATH,
                            line_of("title"),
                            format!("title is given for `{key}`, which is not one of the site's languages"),
                        ));
                        ok = false;
                    }
                }
                map
            }
        };
        if let Some(c) = &raw.cname {
            if !valid_host_name(c) {
                diags.push(Diagnostic::error(
                    "bad-config",
                    CONFIG_PATH,
                    line_of("cname"),
                    format!(
                        "cname `{c}` is not a host name; write the custom domain alone, \
                         such as `rules.example.org` (no scheme, path or port)"
                    ),
                ));
                ok = false;
            } else if let Some(msg) = cname_mismatch(&base_url, c, "base_url") {
                diags.push(Diagnostic::warning(
                    "bad-config",
                    CONFIG_PATH,
                    line_of("base_url"),
                    msg,
                ));
            }
        }
        ok.then_some(SiteConfig {
            title,
            languages: raw.languages,
            default_language: raw.default_language,
            base_url,
            safe: raw.safe,
            cname: raw.cname,
        })
    }

    /// The title in `lang`, or in the first language that has one.
    pub fn title_in(&self, lang: &str) -> &str {
        self.title
            .get(lang)
            .or_else(|| self.languages.iter().find_map(|l| self.title.get(l)))
            .map(String::as_str)
            .unwrap_or("")
    }

    /// The other languages of the site, in site order.
    pub fn others<'a>(&'a self, lang: &'a str) -> impl Iterator<Item = &'a String> + 'a {
        self.languages.iter().filter(move |l| l.as_str() != lang)
    }
}

/// A BCP 47-like code: 2–3 lowercase letters, then optional `-` subtags of 2–8 letters or digits.
pub fn valid_language_code(code: &str) -> bool {
    let mut parts = code.split('-');
    let first = parts.next().unwrap_or("");
    (2..=3).contains(&first.len())
        && first.chars().all(|c| c.is_ascii_lowercase())
        && parts.all(|p| (2..=8).contains(&p.len()) && p.chars().all(|c| c.is_ascii_alphanumeric()))
}

/// A domain name as GitHub Pages takes for `CNAME`: at least two labels separated by dots,
/// each 1–63 letters, digits or inner hyphens, 253 characters at most. `rules..org`, a
/// trailing dot or `https://…` would give a `CNAME` file that Pages rejects only after the
/// site is published.
pub fn valid_host_name(host: &str) -> bool {
    let label = |l: &str| {
        (1..=63).contains(&l.len())
            && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            && !l.starts_with('-')
            && !l.ends_with('-')
    };
    host.len() <= 253 && host.split('.').count() >= 2 && host.split('.').all(label)
}

/// The host of an http(s) `base_url`, with an optional `:port`: a domain name, `localhost`
/// or an IPv4 address. `https://a..b/` would be written into every canonical address and the
/// sitemap of the site, and noticed only once it is published.
fn valid_url_host(host: &str) -> bool {
    let (name, port) = match host.rsplit_once(':') {
        Some((n, p)) => (n, Some(p)),
        None => (host, None),
    };
    let port_ok = port.is_none_or(|p| {
        (1..=5).contains(&p.len())
            && p.bytes().all(|b| b.is_ascii_digit())
            && p.parse::<u16>().is_ok_and(|n| n > 0)
    });
    let ipv4 = name.split('.').count() == 4 && name.split('.').all(|o| o.parse::<u8>().is_ok());
    port_ok && (name.eq_ignore_ascii_case("localhost") || ipv4 || valid_host_name(name))
}

/// What is wrong with publishing at `base_url` a site whose custom domain is `cname`, if
/// anything. `what` names where the base URL was given (`base_url`, or `--base-url`, which the
/// Pages workflow passes and which replaces the settings' value after they were checked).
pub fn cname_mismatch(base_url: &str, cname: &str, what: &str) -> Option<String> {
    let (host, path) = base_parts(base_url);
    if let Some(host) = host.filter(|h| !h.eq_ignore_ascii_case(cname)) {
        // Pages serves the site at the custom domain: addresses built on another host send
        // readers and search engines away from it
        return Some(format!(
            "{what} is on `{host}` but the site's custom domain (cname) is `{cname}`; links, \
             canonical addresses and the sitemap use {what}: set it to \"/\" (or \
             \"https://{cname}/\"). Published with a GitHub Actions workflow, the domain is \
             also entered in the repository's Settings → Pages"
        ));
    }
    // Pages serves a site with a custom domain at the domain's root, whatever the
    // repository's name: a project path is where nothing is
    path.filter(|p| *p != "/").map(|path| {
        format!(
            "{what} has the path `{path}`, but a site with a custom domain (cname) is served at \
             the domain's root, https://{cname}/; canonical addresses and the sitemap would \
             point below it, where nothing is: set {what} to \"/\" (or \"https://{cname}/\")"
        )
    })
}

/// Checks a base URL and makes it end with `/`. Accepts a path (`/`, `/repo/`) or an http(s) URL.
pub fn normalize_base_url(url: &str) -> Result<String, String> {
    let bad = |why: &str| {
        Err(format!("base_url `{url}` {why}; use `/`, a path such as `/repo/`, or `https://user.github.io/repo/`"))
    };
    if url
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || "\"'<>\\`{}|^".contains(c))
    {
        return bad("contains characters that cannot appear in a URL");
    }
    let rest = if let Some(r) = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
    {
        let host = r.split('/').next().unwrap_or("");
        if host.is_empty() {
            return bad("has no host");
        }
        if !valid_url_host(host) {
            return bad("has a host that is not a domain name (`a..b`, `-a.org` and a name without a dot are not; `localhost` and a port are fine)");
        }
        r
    } else if url.starts_with('/') {
        url
    } else {
        return bad("is neither a path starting with `/` nor an http(s) URL");
    };
    // (`rest` is past the scheme's `//`, so any `//` left is an empty path segment)
    if rest.contains("//") || rest.contains('?') || rest.contains('#') {
        return bad("has a query, fragment or empty path segment");
    }
    let mut u = url.to_string();
    if !u.ends_with('/') {
        u.push('/');
    }
    Ok(u)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> (Option<SiteConfig>, Diagnostics) {
        let mut d = Diagnostics::default();
        (SiteConfig::parse(text, &mut d), d)
    }

    #[test]
    fn reads_the_contract_format() {
        let (c, d) = parse("title: {uk: Правила, en: Rules}\nlanguages: [uk, en]\ndefault_language: uk\nbase_url: \"/repo\"\n");
        assert!(d.items.is_empty(), "{:?}", d.items);
        let c = c.unwrap();
        assert_eq!(c.base_url, "/repo/");
        assert_eq!(c.title_in("en"), "Rules");
        assert_eq!(c.others("uk").collect::<Vec<_>>(), vec!["en"]);
    }

    #[test]
    fn unknown_default_language_names_the_line() {
        let (c, d) = parse("title: x\nlanguages: [uk, en]\ndefault_language: de\n");
        assert!(c.is_none());
        assert_eq!(d.items[0].kind, "unknown-language");
        assert_eq!(d.items[0].line, 3);
    }

    #[test]
    fn a_base_url_on_another_host_than_the_cname_is_a_warning() {
        let yaml = |base: &str| {
            format!("title: T\nlanguages: [en]\ndefault_language: en\nbase_url: \"{base}\"\ncname: rules.example.org\n")
        };
        let (c, d) = parse(&yaml("https://someone.github.io/rules/"));
        assert!(c.is_some());
        assert_eq!(d.items.len(), 1, "{:?}", d.items);
        assert!(d.items[0].message.contains("`someone.github.io`"));
        assert_eq!(d.items[0].line, 4);
        for fine in [
            "/",
            "https://rules.example.org/",
            "https://RULES.example.org:443/",
            "https://rules.example.org",
        ] {
            let (_, d) = parse(&yaml(fine));
            assert!(d.items.is_empty(), "{fine}: {:?}", d.items);
        }
        // the domain serves the site at its root: a project path is a mistake
        for path in ["/ashes-rules/", "https://rules.example.org/ashes-rules/"] {
            let (c, d) = parse(&yaml(path));
            assert!(c.is_some());
            assert_eq!(d.items.len(), 1, "{path}: {:?}", d.items);
            assert!(
                d.items[0].message.contains("`/ashes-rules/`")
                    && d.items[0].message.contains("https://rules.example.org/;"),
                "{}",
                d.items[0].message
            );
            assert_eq!(d.items[0].line, 4);
        }
    }

    #[test]
    fn host_names_for_cname() {
        for ok in [
            "rules.example.org",
            "a.b",
            "xn--80aswg.xn--j1amh",
            "my-site.github.io",
        ] {
            assert!(valid_host_name(ok), "{ok}");
        }
        let long = format!("{}.org", "a".repeat(64));
        for bad in [
            "",
            "localhost",
            "rules..org",
            ".rules.org",
            "rules.org.",
            "-a.org",
            "a-.org",
            "https://rules.org",
            "rules.org/x",
            "rules.org:8080",
            "правила.укр",
            long.as_str(),
        ] {
            assert!(!valid_host_name(bad), "{bad}");
        }
    }

    #[test]
    fn bad_base_urls_are_refused() {
        for u in [
            "javascript:alert(1)",
            "repo/",
            "/a b/",
            "https:///x",
            "/x?y=1",
            "https://u.github.io/r//x",
            "//evil.example/",
            "https://a..b/",
            "https://-a.org/",
            "https://rules/",
            "http://localhost:0/",
            "http://localhost:99999/",
            "https://u.github.io:/r/",
        ] {
            assert!(normalize_base_url(u).is_err(), "{u}");
        }
        for u in [
            "http://localhost:1111/",
            "http://127.0.0.1:8000/",
            "https://Rules.Example.org/r/",
        ] {
            assert_eq!(normalize_base_url(u).as_deref(), Ok(u), "{u}");
        }
        assert_eq!(
            normalize_base_url("https://u.github.io/r").unwrap(),
            "https://u.github.io/r/"
        );
    }

    #[test]
    fn language_codes() {
        assert!(valid_language_code("uk") && valid_language_code("pt-BR"));
        assert!(
            !valid_language_code("UK") && !valid_language_code("u") && !valid_language_code("../x")
        );
    }
}
