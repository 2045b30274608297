//! Bad input never crashes and never loses work: a table of broken sites, each of which must fail
//! with the exact kind of error, the file and the line, a non-zero exit and no panic, while the
//! site built before it stays byte for byte as it was.
//!
//! Cases whose finding is a warning (a malformed section number, a link leaving the site) are
//! built with `--strict`, so the build fails on them and the same checks apply. Extreme but valid
//! Markdown (100,000-deep nesting, a 10 MB line) is paired with one deliberate broken reference
//! after it: the build must get through the extreme part and still count lines right.

use crate::common::*;
use std::path::Path;

const EN_A: &str = "---\nid: a\ntitle: A\nweight: 1\n---\n\n## 1.1.0 One\n\nSee 1.1.0.\n";
const UK_A: &str = "---\nid: a\ntitle: А\nweight: 1\n---\n\n## 1.1.0 Один\n\nДив. 1.1.0.\n";
const EN_GLOSSARY: &str = "{\n  \"guard\": \"Guard text.\"\n}\n";
const NEW: &str = "content/en/02-b.md";

/// One broken site: files to write over the base fixture, files to remove, extra arguments, and
/// the diagnostic that must be printed (`error[kind]: place`, where place is `file:line:`, or
/// `file: ` when the finding has no line).
struct Case {
    name: &'static str,
    write: Vec<(&'static str, Vec<u8>)>,
    remove: Vec<&'static str>,
    args: Vec<&'static str>,
    kind: &'static str,
    place: String,
}

fn case(name: &'static str, file: &'static str, text: impl Into<Vec<u8>>) -> Case {
    Case {
        name,
        write: vec![(file, text.into())],
        remove: vec![],
        args: vec![],
        kind: "",
        place: String::new(),
    }
}

impl Case {
    /// The error expected at `file:line` (line 0: no line).
    fn at(mut self, kind: &'static str, file: &str, line: usize) -> Self {
        self.kind = kind;
        self.place = if line == 0 {
            format!("{file}: ")
        } else {
            format!("{file}:{line}:")
        };
        self
    }
    /// The error expected at `file:line:column`.
    fn at_col(mut self, kind: &'static str, file: &str, line: usize, col: usize) -> Self {
        self.kind = kind;
        self.place = format!("{file}:{line}:{col}: ");
        self
    }
    fn strict(mut self) -> Self {
        self.args.push("--strict");
        self
    }
    fn also(mut self, file: &'static str, text: impl Into<Vec<u8>>) -> Self {
        self.write.push((file, text.into()));
        self
    }
    fn without(mut self, file: &'static str) -> Self {
        self.remove.push(file);
        self
    }
}

/// A chapter `b` with `body` after a four-line front matter (the body starts on line 5).
fn chapter(body: impl AsRef<[u8]>) -> Vec<u8> {
    let mut v = b"---\nid: b\ntitle: B\n---\n".to_vec();
    v.extend_from_slice(body.as_ref());
    v
}

fn site_yaml(text: &str) -> Vec<u8> {
    text.as_bytes().to_vec()
}

fn cases() -> Vec<Case> {
    let g = "content/en/glossary.json";
    let y = "content/site.yaml";
    let mut c = vec![
        // ---------------------------------------------------------------- front matter
        case("no front matter", NEW, "Just text.\n").at("front-matter", NEW, 1),
        case("blank line before the front matter", NEW, "\n---\nid: b\ntitle: B\n---\n").at(
            "front-matter",
            NEW,
            1,
        ),
        case(
            "a key given twice in a nested mapping",
            NEW,
            "---\nid: b\ntitle: B\ntranslated_from:\n  lang: en\n  lang: uk\n---\n",
        )
        .at("front-matter", NEW, 6),
        case("title with nothing after it", NEW, "---\nid: b\ntitle:\n---\n").at(
            "front-matter",
            NEW,
            3,
        ),
        case("unterminated front matter", NEW, "---\nid: b\ntitle: B\n\nBody.\n").at(
            "front-matter",
            NEW,
            1,
        ),
        case("front matter opened only", NEW, "---\n").at("front-matter", NEW, 1),
        case("front matter not YAML", NEW, "---\nid: b\ntitle: B\n: : :\n---\n").at(
            "front-matter",
            NEW,
            4,
        ),
        case("front matter is a plain string", NEW, "---\njust words\n---\n").at(
            "front-matter",
            NEW,
            2,
        ),
        case("front matter unclosed bracket", NEW, "---\nid: b\ntitle: [oops\n---\n").at(
            "front-matter",
            NEW,
            3,
        ),
        case("title is a list", NEW, "---\nid: b\ntitle: [1, 2]\n---\n").at(
            "front-matter",
            NEW,
            3,
        ),
        case(
            "description twice",
            NEW,
            "---\nid: b\ntitle: B\ndescription: x\ndescription: y\n---\n",
        )
        .at("front-matter", NEW, 5),
        case(
            "description is a list",
            NEW,
            "---\nid: b\ntitle: B\ndescription: [1, 2]\n---\n",
        )
        .at("front-matter", NEW, 4),
        case("draft twice", NEW, "---\nid: b\ntitle: B\ndraft: false\ndraft: true\n---\n").at(
            "front-matter",
            NEW,
            5,
        ),
        case(
            "translated_from twice, spelled two ways",
            NEW,
            "---\nid: b\ntitle: B\ntranslated_from:\n  lang: en\n\"translated_from\":\n  lang: en\n---\n",
        )
        .at("front-matter", NEW, 6),
        case("id is a list", NEW, "---\nid: [b]\ntitle: B\n---\n").at("front-matter", NEW, 2),
        case("id is a decimal", NEW, "---\nid: 1.5\ntitle: B\n---\n").at("front-matter", NEW, 2),
        case(
            "weight beyond 64 bits",
            NEW,
            "---\nid: b\ntitle: B\nweight: 99999999999999999999999\n---\n",
        )
        .at_col("front-matter", NEW, 4, 9),
        case("weight is a decimal", NEW, "---\nid: b\ntitle: B\nweight: 2.5\n---\n").at(
            "front-matter",
            NEW,
            4,
        ),
        case("weight is a word", NEW, "---\nid: b\ntitle: B\nweight: heavy\n---\n").at(
            "front-matter",
            NEW,
            4,
        ),
        case(
            "weight overflows",
            NEW,
            "---\nid: b\ntitle: B\nweight: 99999999999999999999999\n---\n",
        )
        .at("front-matter", NEW, 4),
        case("duplicate title key", NEW, "---\nid: b\ntitle: B\ntitle: C\n---\n").at(
            "front-matter",
            NEW,
            4,
        ),
        case("duplicate id key", NEW, "---\nid: b\ntitle: B\nid: c\n---\n").at(
            "front-matter",
            NEW,
            4,
        ),
        case("no id", NEW, "---\ntitle: B\n---\nBody.\n").at("front-matter", NEW, 1),
        case("no title", NEW, "---\nid: b\n---\nBody.\n").at("front-matter", NEW, 1),
        // at the misspelled key, and at an empty title
        case("title misspelled", NEW, "---\nid: b\ntitel: B\n---\nBody.\n").at("front-matter", NEW, 3),
        case("empty title", NEW, "---\nid: b\ntitle: \"\"\n---\nBody.\n").at("front-matter", NEW, 3),
        case("draft misspelled", NEW, "---\nid: b\ntitle: B\ndarft: true\n---\nBody.\n")
            .strict()
            .at("front-matter", NEW, 4),
        case("empty title", NEW, "---\nid: b\ntitle: \"\"\n---\n").at("front-matter", NEW, 3),
        case("empty front matter", NEW, "---\n---\nBody.\n").at("front-matter", NEW, 1),
        case("id with a slash", NEW, "---\ntitle: B\nid: a/b\n---\n").at("bad-id", NEW, 3),
        case("id is ..", NEW, "---\nid: ..\ntitle: B\n---\n").at("bad-id", NEW, 2),
        case("id climbs out", NEW, "---\nid: ../../etc\ntitle: B\n---\n").at("bad-id", NEW, 2),
        case("id with a space", NEW, "---\nid: a b\ntitle: B\n---\n").at("bad-id", NEW, 2),
        case("id reserved", NEW, "---\nid: glossary\ntitle: B\n---\n").at("bad-id", NEW, 2),
        // one folder with `glossary/` where case is ignored (a Mac's or Windows' disk)
        case("id reserved, in capitals", NEW, "---\nid: Glossary\ntitle: B\n---\n")
            .at("bad-id", NEW, 2),
        case("id reserved, all capitals", NEW, "---\nid: PRINT\ntitle: B\n---\n")
            .at("bad-id", NEW, 2),
        // `ſ` (long s) is `s` where case is ignored, though `to_lowercase` keeps it
        case("id reserved, with a long s", NEW, "---\nid: ſtatic\ntitle: B\n---\n")
            .at("bad-id", NEW, 2),
        case(
            "id too long",
            NEW,
            format!("---\nid: {}\ntitle: B\n---\n", "x".repeat(300)),
        )
        .at("bad-id", NEW, 2),
        case(
            "YAML alias bomb",
            NEW,
            "---\nid: b\ntitle: B\na: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n\
             c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n\
             e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n\
             g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\nh: [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n---\n",
        )
        .at("front-matter", NEW, 1),
        case(
            "YAML 100,000 levels deep",
            NEW,
            format!("---\nid: b\ntitle: B\ndescription: {}\n---\n", "[".repeat(100_000)),
        )
        .at("front-matter", NEW, 4),
        case("only whitespace", NEW, "   \n\n\t  \n").at("front-matter", NEW, 1),
        case("empty file", NEW, "").at("front-matter", NEW, 1),
        // ---------------------------------------------------------------- duplicate ids
        case("duplicate id, reported at the id line", NEW, "---\ntitle: B\n\nid: a\n---\n").at(
            "duplicate-id",
            NEW,
            4,
        ),
        // `A` and `a` would be one output folder on macOS and Windows
        case("id differing only in case", NEW, "---\nid: A\ntitle: B\n---\n").at(
            "duplicate-id",
            NEW,
            2,
        ),
        case(
            "duplicate id in Ukrainian",
            "content/uk/02-b.md",
            "---\nid: a\ntitle: Б\n---\n",
        )
        .at("duplicate-id", "content/uk/02-b.md", 2),
        case(
            "duplicate section number",
            NEW,
            chapter("\nText.\n\n## 1.1.0 Again\n"),
        )
        .at("duplicate-section", NEW, 8),
        case(
            "duplicate section number in a chapter title, reported at the title",
            NEW,
            "---\nid: b\nweight: 2\ntitle: \"1.1.0 Again\"\n---\nText.\n",
        )
        .at("duplicate-section", NEW, 4),
        // ---------------------------------------------------------------- glossary JSON
        case("glossary syntax error", g, "{\n  \"a\": \"x\",\n  \"b\" \"y\"\n}").at_col(
            "glossary-json",
            g,
            3,
            7,
        ),
        case("glossary trailing text", g, "{\"a\": \"x\"} x").at_col("glossary-json", g, 1, 12),
        case("glossary empty file", g, "").at("glossary-json", g, 1),
        case("glossary unclosed string", g, "{\n\"a\": \"x\n}").at("glossary-json", g, 2),
        case("glossary is an array", g, "[\"a\", \"b\"]").at("glossary-shape", g, 1),
        case("glossary is a string", g, "\"hello\"").at("glossary-shape", g, 1),
        case("glossary empty key", g, "{\n\"a\": \"x\",\n\"\": \"y\"\n}").at(
            "glossary-shape",
            g,
            3,
        ),
        case("glossary blank key", g, "{\n\"a\": \"x\",\n\"   \": \"y\"\n}").at(
            "glossary-shape",
            g,
            3,
        ),
        case(
            "glossary duplicate key",
            g,
            "{\n\"a\": \"x\",\n\"b\": \"y\",\n\"a\": \"z\"\n}",
        )
        .at("glossary-duplicate-key", g, 4),
        case("glossary value is a number", g, "{\n\"a\": \"x\",\n\"b\": 5\n}").at(
            "glossary-shape",
            g,
            3,
        ),
        case(
            "glossary entry without definition",
            g,
            "{\n\"a\": {\"term\": \"A\"}\n}",
        )
        .at("glossary-shape", g, 2),
        case(
            "glossary entry with unknown field",
            g,
            "{\n\"a\": {\"term\": \"A\", \"definition\": \"d\", \"colour\": 1}\n}",
        )
        .at("glossary-shape", g, 2),
        case(
            "glossary entry with empty term",
            g,
            "{\n\"a\": \"x\",\n\"b\": {\"term\": \" \", \"definition\": \"d\"}\n}",
        )
        .at("glossary-shape", g, 3),
        case(
            "glossary 100,000 levels deep",
            g,
            format!("{{\"a\": {}{}}}", "[".repeat(100_000), "]".repeat(100_000)),
        )
        .at("glossary-json", g, 1),
        case("glossary huge (over 16 MiB)", g, huge_glossary(17 << 20)).at("too-large", g, 0),
        case("glossary not UTF-8", g, b"{\n\"a\": \"caf\xe9\"\n}".to_vec()).at_col(
            "not-utf8", g, 2, 10,
        ),
        case("glossary NUL byte", g, b"{\n\"a\": \"x\x00\"\n}".to_vec()).at_col(
            "nul-byte", g, 2, 8,
        ),
        // ---------------------------------------------------------------- site.yaml
        case(
            "site.yaml key given twice in a mapping",
            y,
            site_yaml("title: {uk: a, en: b, uk: c}\nlanguages: [uk, en]\ndefault_language: uk\n"),
        )
        .at("bad-config", y, 1),
        case(
            "site.yaml key given twice",
            y,
            site_yaml("title: x\nlanguages: [uk, en]\ndefault_language: uk\nbase_url: \"/\"\nbase_url: \"/x/\"\n"),
        )
        .at("bad-config", y, 5),
        case("site.yaml missing", "content/en/02-b.md", chapter(""))
            .without(y)
            .at("missing-config", y, 0),
        case(
            "unknown default language",
            y,
            site_yaml("title: x\nlanguages: [uk, en]\ndefault_language: de\n"),
        )
        .at("unknown-language", y, 3),
        case(
            "title in an unknown language",
            y,
            site_yaml("title: {uk: a, de: b}\nlanguages: [uk, en]\ndefault_language: uk\n"),
        )
        .at("unknown-language", y, 1),
        case(
            "language code is not a code",
            y,
            site_yaml("title: x\nlanguages: [uk, EN]\ndefault_language: uk\n"),
        )
        .at("bad-config", y, 2),
        case(
            "language listed twice",
            y,
            site_yaml("title: x\nlanguages: [uk, en, uk]\ndefault_language: uk\n"),
        )
        .at("bad-config", y, 2),
        case(
            "no languages",
            y,
            site_yaml("title: x\nlanguages: []\ndefault_language: uk\n"),
        )
        .at("bad-config", y, 2),
        case(
            "base_url with another scheme",
            y,
            site_yaml("title: x\nlanguages: [uk, en]\ndefault_language: uk\nbase_url: ftp://x/\n"),
        )
        .at("bad-base-url", y, 4),
        case(
            "base_url javascript:",
            y,
            site_yaml("title: x\nlanguages: [uk, en]\ndefault_language: uk\nbase_url: \"javascript:alert(1)\"\n"),
        )
        .at("bad-base-url", y, 4),
        case(
            "base_url with a quote",
            y,
            site_yaml("title: x\nlanguages: [uk, en]\ndefault_language: uk\nbase_url: '/a\"><script>/'\n"),
        )
        .at("bad-base-url", y, 4),
        case(
            "site.yaml unknown key",
            y,
            site_yaml("title: x\nlanguages: [uk, en]\ndefault_language: uk\nbase_ur: /\n"),
        )
        .at_col("bad-config", y, 4, 1),
        case("site.yaml empty", y, site_yaml("")).at("bad-config", y, 1),
        case("site.yaml not YAML", y, site_yaml("title: [\n")).at("bad-config", y, 2),
        case(
            "site.yaml nested too deep",
            y,
            format!("title: x\nlanguages: [uk, en]\ndefault_language: uk\ncname: {}\n", "{".repeat(100_000)),
        )
        .at("bad-config", y, 4),
        case("site.yaml not UTF-8", y, b"title: \xff\n".to_vec()).at_col("not-utf8", y, 1, 8),
        // ---------------------------------------------------------------- Markdown extremes
        case(
            "50 MB chapter",
            NEW,
            chapter("Para 1.1.0 text.\n\n".repeat(50 << 20 >> 4)),
        )
        .at("too-large", NEW, 0),
        case("NUL byte in a chapter", NEW, chapter(b"ab\x00c\n")).at_col("nul-byte", NEW, 5, 3),
        case(
            "100,000-deep block quotes, then a broken reference",
            NEW,
            chapter(format!("{} x\n\nSee 9.9.9.\n", ">".repeat(100_000))),
        )
        .strict()
        .at("broken-ref", NEW, 7),
        case(
            "100,000-deep emphasis, then a broken reference",
            NEW,
            chapter(format!(
                "{}x{}\n\nSee 9.9.9.\n",
                "*".repeat(100_000),
                "*".repeat(100_000)
            )),
        )
        .strict()
        .at("broken-ref", NEW, 7),
        case(
            "100,000 nested brackets, then a broken reference",
            NEW,
            chapter(format!(
                "{}x{}\n\nSee 9.9.9.\n",
                "[".repeat(100_000),
                "](x)".repeat(100_000)
            )),
        )
        .strict()
        .at("broken-ref", NEW, 7),
        case(
            "3,000-deep list, then a broken reference",
            NEW,
            chapter(format!(
                "{}\nSee 9.9.9.\n",
                (0..3000)
                    .map(|i| format!("{}- x\n", "  ".repeat(i)))
                    .collect::<String>()
            )),
        )
        .strict()
        .at("broken-ref", NEW, 3006),
        case(
            "a 10 MB line of references, then a broken one",
            NEW,
            chapter(format!("{}\n\nSee 9.9.9.\n", "word 1.1.0 ".repeat(1_000_000))),
        )
        .strict()
        .at("broken-ref", NEW, 7),
        case(
            "a 10 MB line of emphasis, then a broken reference",
            NEW,
            chapter(format!("{}\n\nSee 9.9.9.\n", "*a* ".repeat(2_500_000))),
        )
        .strict()
        .at("broken-ref", NEW, 7),
        case(
            "only whitespace after the front matter, and a broken link in another chapter",
            NEW,
            chapter("  \n\t\n   \n"),
        )
        .also("content/en/03-c.md", "---\nid: c\ntitle: C\n---\n\n\nSee 9.9.9.\n")
        .strict()
        .at("broken-ref", "content/en/03-c.md", 7),
        // ---------------------------------------------------------------- encodings
        case("not UTF-8 (Latin-1)", NEW, chapter(b"caf\xe9\n")).at_col("not-utf8", NEW, 5, 4),
        case(
            "not UTF-8 in the title",
            NEW,
            b"---\nid: b\ntitle: \xc0\xaf\n---\n".to_vec(),
        )
        .at_col("not-utf8", NEW, 3, 8),
        case("UTF-16", NEW, utf16("---\nid: b\ntitle: B\n---\n")).at_col("not-utf8", NEW, 1, 1),
        case(
            "UTF-8 surrogate",
            NEW,
            b"---\nid: b\ntitle: B\xed\xa0\x80\n---\n".to_vec(),
        )
        .at_col("not-utf8", NEW, 3, 9),
        case(
            "BOM and CRLF keep line numbers",
            NEW,
            b"\xef\xbb\xbf---\r\nid: b\r\ntitle: B\r\n---\r\n\r\n\r\nSee 9.9.9.\r\n".to_vec(),
        )
        .strict()
        .at("broken-ref", NEW, 7),
        case(
            "lone CR line ends keep line numbers",
            NEW,
            b"---\rid: b\rtitle: B\r---\r\r\rSee 9.9.9.\r".to_vec(),
        )
        .strict()
        .at("broken-ref", NEW, 7),
        case(
            "CRLF duplicate id at the id line",
            NEW,
            b"---\r\ntitle: B\r\nid: a\r\n---\r\n".to_vec(),
        )
        .at("duplicate-id", NEW, 3),
        // ---------------------------------------------------------------- section numbers
        case(
            "heading number overflows",
            NEW,
            chapter("\n## 99999999999999999999.1 Big\n"),
        )
        .strict()
        .at("bad-section-number", NEW, 6),
        case("heading number 7..1", NEW, chapter("\n## 7..1 Twice\n"))
            .strict()
            .at("bad-section-number", NEW, 6),
        case(
            "trailing dots: 1.1. is 1.1.0's neighbour, 1.1.0. is 1.1.0",
            NEW,
            chapter("\n## 1.1. Fine\n\n## 1.1.0. Again\n"),
        )
        .at("duplicate-section", NEW, 8),
        case(
            "reference with a trailing dot is the number without it",
            NEW,
            chapter("\nSee 9.9.9.\n"),
        )
        .strict()
        .at("broken-ref", NEW, 6),
        case(
            "link to an overflowing section number",
            NEW,
            chapter("\n[99999999999999999999.1.0 Big](#)\n"),
        )
        .strict()
        .at("empty-link", NEW, 6),
        case("link to #7..1", NEW, chapter("\n[x](#7..1)\n"))
            .strict()
            .at("broken-anchor", NEW, 6),
        // ---------------------------------------------------------------- templates
        case("template syntax error", "templates/chapter.html", "{% if %}\n").at_col(
            "template",
            "templates/chapter.html",
            1,
            7,
        ),
        case(
            "template syntax error on line 3",
            "templates/chapter.html",
            "{% extends \"base.html\" %}\n{% block main %}\n{{ content | safe }\n{% endblock %}\n",
        )
        .at("template", "templates/chapter.html", 3),
        case(
            "template uses an unknown variable",
            "templates/chapter.html",
            "{% extends \"base.html\" %}\n{% block main %}\n<p>{{ nosuch.thing }}</p>\n{% endblock %}\n",
        )
        .at("template", "templates/chapter.html", 3),
        case(
            "template includes a missing template",
            "templates/chapter.html",
            "{% extends \"base.html\" %}\n{% block main %}\n\n{% include \"nope.html\" %}\n{% endblock %}\n",
        )
        .at("template", "templates/chapter.html", 4),
        // a chain this long overflowed the stack in Tera's parser and aborted the process
        case(
            "template with 10,000 operators in one expression",
            "templates/chapter.html",
            format!(
                "{{% extends \"base.html\" %}}\n{{% block main %}}\n{{{{ 1{} }}}}\n{{% endblock %}}\n",
                " + 1".repeat(10_000)
            ),
        )
        .at("template", "templates/chapter.html", 3),
        case(
            "a static file where the theme has a folder",
            "static/css",
            "body { color: red }\n",
        )
        // a name that sorts between the file and the folder's files hid the clash
        .also("static/css.txt", "notes\n")
        .at("static", "static/css", 0),
        // Tera names no line for these: the line is the one that uses the name it complains of
        case(
            "a parent template uses a name that begins another name",
            "templates/base.html",
            include_str!("../templates/base.html").replacen('\n', "\n<p>{{ titl }}</p>\n", 1),
        )
        .at("template", "templates/base.html", 2),
        case(
            "template uses an unknown filter",
            "templates/chapter.html",
            "{% extends \"base.html\" %}\n{% block main %}\n\n{{ content | nofilter }}\n{% endblock %}\n",
        )
        .at("template", "templates/chapter.html", 4),
        case(
            "template calls an unknown function",
            "templates/chapter.html",
            "{% extends \"base.html\" %}\n{% block main %}\n\n{{ nofunction() }}\n{% endblock %}\n",
        )
        .at("template", "templates/chapter.html", 4),
        case(
            "template throws",
            "templates/chapter.html",
            "{% extends \"base.html\" %}\n{% block main %}\n\n{{ throw(message=\"boom\") }}\n{% endblock %}\n",
        )
        .at("template", "templates/chapter.html", 4),
        case(
            "template reads an environment variable not its own",
            "templates/chapter.html",
            "{% extends \"base.html\" %}\n{% block main %}\n\n{{ get_env(name=\"HOME\") }}\n{% endblock %}\n",
        )
        .at("template", "templates/chapter.html", 4),
        case(
            "template extends a missing template",
            "templates/chapter.html",
            "\n{% extends \"nobase.html\" %}\n",
        )
        .at("template", "templates/chapter.html", 2),
        case(
            "template imports macros from a missing template",
            "templates/chapter.html",
            "{% extends \"base.html\" %}\n\n{% import \"nomacros.html\" as m %}\n{% block main %}{% endblock %}\n",
        )
        .at("template", "templates/chapter.html", 3),
        // Tera recurses without a limit: these overflowed the stack and aborted the process
        case(
            "template includes itself",
            "templates/chapter.html",
            "{% include \"chapter.html\" %}\n",
        )
        .at("template", "templates/chapter.html", 1),
        case(
            "templates include each other",
            "templates/chapter.html",
            "{% extends \"base.html\" %}\n{% block main %}{% include \"a.html\" %}{% endblock %}\n",
        )
        .also("templates/a.html", "{% include \"b.html\" %}\n")
        .also("templates/b.html", "<p>\n{% include \"a.html\" %}\n")
        .at("template", "templates/b.html", 2),
        case(
            "templates import each other's macros",
            "templates/m.html",
            "{% import \"n.html\" as n %}\n",
        )
        .also("templates/n.html", "\n\n{% import \"m.html\" as m %}\n")
        .at("template", "templates/n.html", 3),
        case(
            "macro calls itself without end",
            "templates/chapter.html",
            "{% extends \"base.html\" %}\n{% macro r() %}{{ self::r() }}{% endmacro %}\n{% block main %}{{ self::r() }}{% endblock %}\n",
        )
        .at("template", "templates/chapter.html", 2),
        case(
            "template nests 100,000 ifs",
            "templates/chapter.html",
            format!("\n{}", "{% if a %}".repeat(100_000)),
        )
        .at("template", "templates/chapter.html", 2),
        case(
            "template expression nests 100,000 brackets",
            "templates/chapter.html",
            format!("\n\n{{{{ {}1 }}}}", "(".repeat(100_000)),
        )
        .at("template", "templates/chapter.html", 3),
        case("UI strings not YAML", "i18n/en.yaml", "a: [\n").at("i18n", "i18n/en.yaml", 2),
        case(
            "UI string given twice",
            "i18n/en.yaml",
            "contents: Contents\nglossary: Glossary\ncontents: Index\n",
        )
        .at("i18n", "i18n/en.yaml", 3),
        case("UI string is a list", "i18n/en.yaml", "go: Go\ncontents: [1, 2]\n").at(
            "i18n",
            "i18n/en.yaml",
            2,
        ),
        case("UI string is a mapping", "i18n/uk.yaml", "language_name: {a: 1}\n").at(
            "i18n",
            "i18n/uk.yaml",
            1,
        ),
        case("alphabet is a list", "i18n/en.yaml", "\nalphabet: [z, y]\n").at(
            "i18n",
            "i18n/en.yaml",
            2,
        ),
        case("symbols is a number", "i18n/en.yaml", "symbols: 5\n").at(
            "i18n",
            "i18n/en.yaml",
            1,
        ),
        case(
            "a symbol's text is a list",
            "i18n/en.yaml",
            "symbols:\n  main: Main\n  other: [x]\n",
        )
        .at("i18n", "i18n/en.yaml", 3),
        // ---------------------------------------------------------------- leaving the site
        case(
            "image climbs out of the site",
            NEW,
            chapter("\n![x](../../../../../../etc/passwd)\n"),
        )
        .strict()
        .at("image-outside-site", NEW, 6),
        case(
            "image climbs out with percent-encoded dots",
            NEW,
            chapter("\n![x](%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd)\n"),
        )
        .strict()
        .at("image-outside-site", NEW, 6),
        case(
            "percent before a Cyrillic letter in an image path",
            NEW,
            chapter("\n![x](%aй.png)\n"),
        )
        .strict()
        .at("missing-image", NEW, 6),
        case(
            "heading id of the form of a section number",
            NEW,
            chapter("\n## C {#9.9.0}\n"),
        )
        .strict()
        .at("heading-id", NEW, 6),
        case(
            "heading id the theme uses for the main content",
            NEW,
            chapter("\n## E {#main}\n"),
        )
        .strict()
        .at("heading-id", NEW, 6),
        case(
            "heading id the theme uses, with a template whose tags trim white space",
            NEW,
            chapter("\n## E {#search-input}\n"),
        )
        .also(
            "templates/chapter.html",
            include_str!("../templates/chapter.html").replacen("{% extends", "{%- extends", 1),
        )
        .strict()
        .at("heading-id", NEW, 6),
        case(
            "heading id used twice",
            NEW,
            chapter("\n## G {#g}\n\n## H {#g}\n"),
        )
        .strict()
        .at("heading-id", NEW, 8),
        case(
            "javascript: link",
            NEW,
            chapter("\n\n[x](javascript:alert(1))\n"),
        )
        .strict()
        .at("unsafe-link", NEW, 7),
        case(
            "content folder of an unknown language",
            "content/de/01.md",
            "---\nid: a\ntitle: A\n---\n",
        )
        .strict()
        .at("unknown-language", "content/de", 0),
    ];
    c.push(Case {
        name: "no content folder",
        write: vec![],
        remove: vec!["content"],
        args: vec![],
        kind: "",
        place: String::new(),
    });
    let last = c.len() - 1;
    c[last].kind = "missing-content";
    // named with the --site folder given: "here" alone does not say where that is
    c[last].place = "{site}/content: ".into();
    c
}

fn utf16(s: &str) -> Vec<u8> {
    let mut v = vec![0xFF, 0xFE];
    for u in s.encode_utf16() {
        v.extend_from_slice(&u.to_le_bytes());
    }
    v
}

/// A valid glossary of about `bytes` bytes.
fn huge_glossary(bytes: usize) -> Vec<u8> {
    let mut s = String::with_capacity(bytes + 64);
    s.push('{');
    let mut i = 0;
    while s.len() < bytes {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&format!(
            "\"term {i}\": \"Definition number {i}, see 1.1.0.\"\n"
        ));
        i += 1;
    }
    s.push('}');
    s.into_bytes()
}

fn base() -> tempfile::TempDir {
    let dir = site(&[
        ("content/site.yaml", SITE_YAML),
        ("content/en/01-a.md", EN_A),
        ("content/uk/01-a.md", UK_A),
        ("content/en/glossary.json", EN_GLOSSARY),
    ]);
    build_ok(dir.path());
    dir
}

fn copy_tree(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// The name of a staging folder (`.public.rulebook-tmp-<pid>`) left in `site`, if any.
fn staging_left(site: &Path) -> Option<String> {
    std::fs::read_dir(site)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .find(|n| n.contains(".rulebook-tmp-"))
}

fn check(case: &Case, base: &Path, before: &[(std::path::PathBuf, Vec<u8>)]) -> Result<(), String> {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(base, dir.path());
    for (file, bytes) in &case.write {
        write(dir.path(), file, bytes);
    }
    for file in &case.remove {
        let p = dir.path().join(file);
        if p.is_dir() {
            std::fs::remove_dir_all(p).unwrap();
        } else {
            std::fs::remove_file(p).unwrap();
        }
    }
    let mut args = vec!["build", "--site", dir.path().to_str().unwrap()];
    args.extend(case.args.iter().copied());
    let r = run(&args);
    let place = case.place.replace("{site}", dir.path().to_str().unwrap());
    let want = format!("error[{}]: {place}", case.kind);
    let mut problems = Vec::new();
    if r.code == 0 {
        problems.push("the build succeeded".to_string());
    }
    if r.code == 101 || r.stderr.contains("panicked") {
        problems.push("the build panicked".to_string());
    }
    if r.code != 1 {
        problems.push(format!("exit code {} instead of 1", r.code));
    }
    if !r.stderr.contains(&want) {
        problems.push(format!("no `{want}`"));
    }
    if snapshot(&dir.path().join("public")) != before {
        problems.push("the previous public/ changed".to_string());
    }
    if let Some(left) = staging_left(dir.path()) {
        problems.push(format!("the build left {left} behind"));
    }
    // `check` reports what the build would: the template cases are what it used to miss
    if case.kind == "template" {
        let r = run(&["check", "--site", dir.path().to_str().unwrap()]);
        let out = format!("{}{}", r.stdout, r.stderr);
        if r.code != 1 {
            problems.push(format!("check: exit code {} instead of 1", r.code));
        }
        if !out.contains(&want) {
            problems.push(format!("check: no `{want}`"));
        }
        if snapshot(&dir.path().join("public")) != before || staging_left(dir.path()).is_some() {
            problems.push("check wrote files".to_string());
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        let err: String = r.stderr.chars().take(1500).collect();
        Err(format!(
            "{}: {}\n  stderr: {err}",
            case.name,
            problems.join("; ")
        ))
    }
}

#[test]
fn every_bad_input_names_kind_file_and_line_and_keeps_the_old_site() {
    let base = base();
    let before = snapshot(&base.path().join("public"));
    assert!(before.len() > 10);
    let cases = cases();
    assert!(cases.len() >= 70, "only {} cases", cases.len());
    // two at a time: the large cases are memory-heavy, and the suite runs beside others
    let (a, b): (Vec<_>, Vec<_>) = cases.iter().enumerate().partition(|(i, _)| i % 2 == 0);
    let run = |part: Vec<(usize, &Case)>| {
        part.into_iter()
            .filter_map(|(_, c)| check(c, base.path(), &before).err())
            .collect::<Vec<_>>()
    };
    let failures: Vec<String> = std::thread::scope(|s| {
        let ha = s.spawn(|| run(a));
        let mut f = run(b);
        f.extend(ha.join().unwrap());
        f
    });
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// `й` typed as `и` + U+0306 (NFD, as some editors and macOS file names produce it) is the same
/// letter as the precomposed `й`: the same anchor, the same title, the same search terms.
#[test]
fn nfd_ukrainian_anchors_and_searches_like_nfc() {
    let nfd = "---\nid: b\ntitle: Міи\u{0306} хід\n---\n\n## Біи\u{0306} і зброя\n\nГравець обирає сві\u{0438}\u{0306} бі\u{0438}\u{0306}.\n";
    let nfc = "---\nid: b\ntitle: Мій хід\n---\n\n## Бій і зброя\n\nГравець обирає свій бій.\n";
    let build = |text: &str| {
        let dir = site(&[
            ("content/site.yaml", SITE_YAML),
            ("content/uk/01-a.md", UK_A),
            ("content/uk/02-b.md", text),
        ]);
        build_ok(dir.path());
        dir
    };
    let a = build(nfd);
    let b = build(nfc);
    let pa = page(&a.path().join("public/uk/b/index.html"));
    let pb = page(&b.path().join("public/uk/b/index.html"));
    assert_eq!(attrs(&pa, "h2[id]", "id"), ["бій-і-зброя"]);
    assert_eq!(attrs(&pa, "h2[id]", "id"), attrs(&pb, "h2[id]", "id"));
    assert_eq!(texts(&pa, "h1"), texts(&pb, "h1"));
    assert_eq!(texts(&pa, "article p"), texts(&pb, "article p"));
    let text = texts(&pa, "article p").join(" ");
    assert!(!text.contains('\u{0306}'), "{text:?}");
    // every output file is the same, byte for byte (search data included)
    assert!(
        snapshot(&a.path().join("public")) == snapshot(&b.path().join("public")),
        "NFD and NFC sources built different sites"
    );
    // and the analyzer folds a query typed either way to the same terms
    use rulebook::search::analyzer::tokenize;
    let terms = |q: &str| tokenize(q).into_iter().map(|t| t.term).collect::<Vec<_>>();
    assert_eq!(
        terms("сві\u{0438}\u{0306} бі\u{0438}\u{0306}"),
        terms("свій бій")
    );
}

/// Input that is not what its name says is reported, never dropped without a word: a folder
/// link inside the site (not followed: a warning), a language folder that is a file, a
/// Messages about front matter speak of the site's words, not of the Rust types behind them
/// (they said "untagged enum IdValue", "as u128, expected i64", "expected struct Record").
#[test]
fn front_matter_messages_name_no_rust_types() {
    for (fm, want) in [
        ("id: 1.5\ntitle: B", "`id` must be a word"),
        (
            "id: b\ntitle: B\nweight: 99999999999999999999999",
            "`weight` is a number too large",
        ),
        (
            "id: b\ntitle: B\nweight: 2.5",
            "`weight` must be a whole number",
        ),
        (
            "id: b\ntitle: B\ntranslated_from: garbage",
            "`translated_from` is not the record",
        ),
        ("just words", "expected `key: value` lines"),
        ("- id\n- title", "expected `key: value` lines"),
        ("id: b\ntitle:", "`title` is empty"),
    ] {
        let s = site(&[
            ("content/site.yaml", SITE_YAML),
            ("content/en/01-a.md", EN_A),
            ("content/uk/01-a.md", UK_A),
            ("content/en/02-b.md", &format!("---\n{fm}\n---\n\nText.\n")),
        ]);
        let r = run(&["check", "--site", s.path().to_str().unwrap()]);
        let said = format!("{}{}", r.stdout, r.stderr);
        assert!(said.contains(want), "{fm}: {said}");
        for rust in ["enum", "u128", "i64", "struct"] {
            assert!(!said.contains(rust), "{fm}: {said}");
        }
    }
}

/// A bad `--base-url` is a usage error, exit 2 like any bad option value, saying what to give
/// instead; nothing is built. (In `site.yaml`, the same mistake is a content error at its line:
/// see the table.)
#[test]
fn a_bad_base_url_option_is_a_usage_error() {
    let s = site(&[
        ("content/site.yaml", SITE_YAML),
        ("content/en/01-a.md", EN_A),
        ("content/uk/01-a.md", UK_A),
    ]);
    for bad in ["not a url", "ftp://host/", "https://host//x/"] {
        let r = run(&[
            "build",
            "--site",
            s.path().to_str().unwrap(),
            "--base-url",
            bad,
        ]);
        assert_eq!(r.code, 2, "{bad}: {}", r.stderr);
        assert!(
            r.stderr.contains("--base-url") && r.stderr.contains("https://user.github.io/repo/"),
            "{bad}: {}",
            r.stderr
        );
        assert!(!s.path().join("public").exists());
    }
}

/// glossary that is a folder, and a site.yaml that links outside the site (refused like a
/// glossary or chapter that does).
#[cfg(unix)]
#[test]
fn links_files_and_folders_in_the_wrong_place_are_reported() {
    use std::os::unix::fs::symlink;
    let fresh = || {
        site(&[
            ("content/site.yaml", SITE_YAML),
            ("content/en/01-a.md", EN_A),
            ("content/uk/01-a.md", UK_A),
        ])
    };
    let expect = |dir: &Path, args: &[&str], want: &str| {
        let mut all = vec!["build", "--site", dir.to_str().unwrap()];
        all.extend_from_slice(args);
        let r = run(&all);
        assert_eq!(r.code, 1, "{want}: {}", r.stderr);
        assert!(r.stderr.contains(want), "no `{want}` in:\n{}", r.stderr);
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    };

    // a folder link that stays inside the site: a warning (an error with --strict)
    let s = fresh();
    write(
        s.path(),
        "shared/02-b.md",
        b"---\nid: b\ntitle: B\n---\n\nText.\n",
    );
    symlink("../../shared", s.path().join("content/en/linked")).unwrap();
    let r = build_ok(s.path());
    assert!(
        r.stderr
            .contains("warning[symlink]: content/en/linked: symbolic link to a folder"),
        "{}",
        r.stderr
    );
    expect(
        s.path(),
        &["--strict"],
        "error[symlink]: content/en/linked: ",
    );

    // content/en is a file
    let s = fresh();
    std::fs::remove_dir_all(s.path().join("content/en")).unwrap();
    write(s.path(), "content/en", b"oops");
    expect(s.path(), &[], "error[io]: content/en: this is a file");

    // glossary.json is a folder
    let s = fresh();
    std::fs::create_dir_all(s.path().join("content/en/glossary.json")).unwrap();
    expect(
        s.path(),
        &[],
        "error[io]: content/en/glossary.json: glossary.json is a folder",
    );

    // site.yaml links outside the site
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "site.yaml", SITE_YAML.as_bytes());
    let s = fresh();
    std::fs::remove_file(s.path().join("content/site.yaml")).unwrap();
    symlink(
        outside.path().join("site.yaml"),
        s.path().join("content/site.yaml"),
    )
    .unwrap();
    expect(
        s.path(),
        &[],
        "error[symlink]: content/site.yaml: symbolic link points outside the site",
    );
    // inside the site it is followed
    let s = fresh();
    write(s.path(), "settings/site.yaml", SITE_YAML.as_bytes());
    std::fs::remove_file(s.path().join("content/site.yaml")).unwrap();
    symlink("../settings/site.yaml", s.path().join("content/site.yaml")).unwrap();
    build_ok(s.path());
}

/// A site of one chapter per language and a glossary, for the tests of how a command ends.
fn small_site() -> tempfile::TempDir {
    site(&[
        ("content/site.yaml", SITE_YAML),
        ("content/en/01-a.md", EN_A),
        ("content/uk/01-a.md", UK_A),
        ("content/en/glossary.json", EN_GLOSSARY),
    ])
}

/// A stream every write to fails: a full disk.
fn dev_full() -> std::process::Stdio {
    std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap()
        .into()
}

/// A reader that stops reading (`rulebook search the | head -3`, a pager quit early) ends the
/// command as it ends `cat`: quietly, by SIGPIPE or with its work done, never with a panic
/// (exit 101, and a backtrace) for every line it could not print.
#[test]
fn a_closed_pipe_ends_a_command_quietly() {
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Command, Stdio};
    let s = small_site();
    let dir = s.path().to_str().unwrap();
    // a result per section: more than a pipe holds, so the writes meet the closed end
    let mut many = String::from("---\nid: b\ntitle: B\n---\n\n");
    for i in 1..=3000 {
        // and a finding of `check` per section
        many.push_str(&format!(
            "## 2.{i}.0 Guard {i}\n\nGuard the guard. See 9.{i}.9.\n\n"
        ));
    }
    write(s.path(), "content/en/02-b.md", many.as_bytes());
    for args in [
        &[
            "search", "guard", "--lang", "en", "--limit", "3000", "--site", dir,
        ][..],
        &[
            "search", "guard", "--lang", "en", "--limit", "3000", "--json", "--site", dir,
        ],
        &["check", "--site", dir],
        &["check", "--format", "json", "--site", dir],
    ] {
        let mut child = Command::new(bin())
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(
            out.status.success() || out.status.signal() == Some(libc::SIGPIPE),
            "{args:?}: {:?} {stderr}",
            out.status
        );
    }
}

/// A standard output that takes nothing (`> /dev/full`, a disk that filled up) is an error the
/// command names, with exit 1; `println!` panicked there (exit 101, and a backtrace).
#[test]
fn an_unwritable_output_is_an_error_not_a_panic() {
    use std::process::{Command, Stdio};
    let s = small_site();
    let dir = s.path().to_str().unwrap();
    for args in [
        &["search", "guard", "--lang", "en", "--site", dir][..],
        &["search", "guard", "--lang", "en", "--json", "--site", dir],
        &["check", "--site", dir],
        &["check", "--format", "json", "--site", dir],
    ] {
        let out = Command::new(bin())
            .args(args)
            .stdout(dev_full())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains("could not write the result to standard output"),
            "{args:?}: {stderr}"
        );
    }
}

/// A standard error that cannot be written (`2>/dev/full`) changes no exit code: a search
/// with no results still ends with 0 and a failed build with 1 (`eprintln!` panicked: 101).
#[test]
fn an_unwritable_standard_error_keeps_the_exit_code() {
    use std::process::{Command, Stdio};
    let s = small_site();
    let dir = s.path().to_str().unwrap();
    let missing = s.path().join("no-such-site");
    let missing = missing.to_str().unwrap();
    for (args, code) in [
        (&["search", "zzqxwv", "--site", dir][..], 0),
        (&["build", "--site", missing], 1),
        (&["check", "--site", missing], 1),
    ] {
        let out = Command::new(bin())
            .args(args)
            .stdout(Stdio::null())
            .stderr(dev_full())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(code), "{args:?}");
    }
}

/// The messages of a few mistakes say what the mistake is: a blank line before the front
/// matter, a site.yaml that is a list (it named a Rust type), and a chapter file whose `.MD`
/// the build does not read (it was silently left out).
#[test]
fn messages_say_what_the_mistake_is() {
    let s = site(&[
        ("content/site.yaml", SITE_YAML),
        ("content/en/01-a.md", EN_A),
        ("content/uk/01-a.md", UK_A),
        (
            "content/en/02-b.md",
            "\n---\nid: b\ntitle: B\n---\n\nText.\n",
        ),
    ]);
    let dir = s.path().to_str().unwrap();
    let r = run(&["check", "--site", dir]);
    assert!(
        r.stdout.contains("remove the blank lines before `---`"),
        "{}",
        r.stdout
    );
    std::fs::remove_file(s.path().join("content/en/02-b.md")).unwrap();
    write(
        s.path(),
        "content/en/03-c.MD",
        b"---\nid: c\ntitle: C\n---\n",
    );
    let r = run(&["build", "--site", dir]);
    assert!(
        r.stderr
            .contains("warning[not-a-chapter]: content/en/03-c.MD: not read as a chapter"),
        "{}",
        r.stderr
    );
    // a key given twice in site.yaml: one place, the repeat's, not also serde's
    write(
        s.path(),
        "content/site.yaml",
        b"# settings\ntitle: x\nlanguages: [uk, en]\ndefault_language: uk\nlanguages: [uk, en]\n",
    );
    let r = run(&["build", "--site", dir]);
    let line = r
        .stderr
        .lines()
        .find(|l| l.contains("duplicate field"))
        .unwrap_or_default();
    assert!(
        line.starts_with("error[bad-config]: content/site.yaml:5:"),
        "{}",
        r.stderr
    );
    assert!(!line.contains("at line"), "{line}");
    write(s.path(), "content/site.yaml", b"- uk\n- en\n");
    let r = run(&["build", "--site", dir]);
    assert!(
        r.stderr.contains("expected `key: value` lines"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("struct"), "{}", r.stderr);
    // a weight of `.nan` is named as written (JSON, which the message used, writes `null`)
    write(s.path(), "content/site.yaml", SITE_YAML.as_bytes());
    write(
        s.path(),
        "content/en/03-c.md",
        b"---\nid: c\ntitle: C\nweight: .nan\n---\n",
    );
    let r = run(&["build", "--site", dir]);
    assert!(r.stderr.contains(", not `.nan`"), "{}", r.stderr);
    // a record of a translation made from a language the site does not have says so (it said
    // the chapter "no longer exists")
    write(
        s.path(),
        "content/en/03-c.md",
        b"---\nid: c\ntitle: C\ntranslated_from:\n  lang: xx\n  hash: \"abc\"\n---\n",
    );
    let r = run(&["check", "--site", dir]);
    assert!(
        r.stdout.contains(
            "warning[stale-translation]: content/en/03-c.md:4: `translated_from` names the \
             language `xx`, which this site does not have (it has uk, en)"
        ),
        "{}",
        r.stdout
    );
}

/// A named pipe where the settings or a language's strings belong: opening one for reading
/// waits for a writer, and the build hung there for good. It is refused, naming the file. One
/// named as a chapter is left out with a warning (it was left out without a word).
#[test]
fn named_pipes_as_settings_strings_or_chapters_are_refused_or_skipped() {
    // bounded: the bug this guards against is a build that never ends
    let build = |site: &Path, pipe: &str| {
        let p = site.join(pipe);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        let _ = std::fs::remove_file(&p);
        let made = std::process::Command::new("mkfifo").arg(&p).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo {pipe}");
        let out = std::process::Command::new("timeout")
            .arg("60")
            .arg(bin())
            .args(["build", "--site"])
            .arg(site)
            .output()
            .expect("run rulebook");
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        (out.status.code(), err)
    };
    for rel in ["content/site.yaml", "i18n/en.yaml"] {
        let d = default_site();
        let (code, err) = build(d.path(), rel);
        assert_eq!(code, Some(1), "{rel}: {err}");
        assert!(
            err.contains(&format!("{rel}: this is not a plain file")),
            "{rel}: {err}"
        );
        assert!(!d.path().join("public").exists(), "{rel}");
    }
    // a chapter that is a pipe is not read (a plain read would wait for good), and said so
    let d = default_site();
    let (code, err) = build(d.path(), "content/en/99-pipe.md");
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("warning[io]: content/en/99-pipe.md: not a plain file"),
        "{err}"
    );
    // and so is a template or a static file that is a pipe
    for rel in ["templates/extra.html", "static/css/extra.css"] {
        let d = default_site();
        let (code, err) = build(d.path(), rel);
        assert_eq!(code, Some(0), "{rel}: {err}");
        assert!(
            err.contains(&format!("warning[io]: {rel}: not a plain file")),
            "{rel}: {err}"
        );
    }
}
