//! How `rulebook check` shows its report: text for people, JSON for tools.

use serde::Serialize;

use super::Report;
use crate::diag::Severity;

#[derive(Serialize)]
struct JsonFinding<'a> {
    file: String,
    line: usize,
    column: usize,
    kind: &'a str,
    severity: Severity,
    message: &'a str,
}

#[derive(Serialize)]
struct JsonReport<'a> {
    findings: Vec<JsonFinding<'a>>,
    errors: usize,
    warnings: usize,
    coverage: &'a Option<super::coverage::Coverage>,
    /// Chapter files left out as drafts, as `file` of a finding is written.
    drafts: Vec<String>,
    /// With `--untranslated`: the text units still in another language.
    #[serde(skip_serializing_if = "Option::is_none")]
    untranslated: Option<Vec<JsonUntranslated<'a>>>,
    /// Translations that record no source yet (`translated_from`), as `file` is written.
    unrecorded: Vec<String>,
}

#[derive(Serialize)]
struct JsonUntranslated<'a> {
    file: String,
    line: usize,
    text: &'a str,
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// A path as the report shows it: with `/` on every system, so a tool reads the same JSON.
fn shown(p: &std::path::Path) -> String {
    p.to_string_lossy().replace('\\', "/")
}

/// A file name or a text of the content as the terminal shows it: control characters
/// escaped, so none from the content is run by the terminal (as in diagnostics).
fn plain(text: &str) -> std::borrow::Cow<'_, str> {
    crate::diag::plain(text, false)
}

/// The report as it is printed, and the exit code: 1 when there are errors, else 0.
/// `untranslated`: list the text units still in another language, with their lines. The caller
/// writes the text, so a standard output that cannot be written (a full disk, `> /dev/full`)
/// is an error it reports, not a panic of `println!`.
pub fn render(report: &Report, json: bool, untranslated: bool) -> (String, u8) {
    use std::fmt::Write as _;
    let mut out = String::new();
    let errors = report.diags.count(Severity::Error);
    let warnings = report.diags.count(Severity::Warning);
    if json {
        let r = JsonReport {
            findings: report
                .diags
                .items
                .iter()
                .map(|d| JsonFinding {
                    file: shown(&d.file),
                    line: d.line,
                    column: d.column,
                    kind: d.kind,
                    severity: d.severity,
                    message: &d.message,
                })
                .collect(),
            errors,
            warnings,
            coverage: &report.coverage,
            drafts: report.drafts.iter().map(|p| shown(p)).collect(),
            unrecorded: report.unrecorded.iter().map(|p| shown(p)).collect(),
            untranslated: untranslated.then(|| {
                (report.untranslated.iter())
                    .map(|u| JsonUntranslated {
                        file: shown(&u.file),
                        line: u.line,
                        text: &u.text,
                    })
                    .collect()
            }),
        };
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&r).unwrap_or_default()
        );
    } else {
        for d in &report.diags.items {
            let _ = writeln!(out, "{d}");
        }
        if !report.drafts.is_empty() {
            let files: Vec<String> = (report.drafts.iter())
                .map(|p| plain(&shown(p)).into_owned())
                .collect();
            let _ = writeln!(
                out,
                "\nleft out {} draft chapter file{} (`draft: true`; not checked, and counted \
                 as missing in the coverage below): {}",
                files.len(),
                if files.len() == 1 { "" } else { "s" },
                files.join(", ")
            );
        }
        if !report.unrecorded.is_empty() {
            let files: Vec<String> = (report.unrecorded.iter())
                .map(|p| plain(&shown(p)).into_owned())
                .collect();
            let _ =
                writeln!(
                out,
                "\n{} translation{} record{} no source yet, so a change to the text {} translated \
                 from goes unnoticed (`rulebook translated` records the source of each, once \
                 it is up to date): {}",
                files.len(),
                plural(files.len()),
                if files.len() == 1 { "s" } else { "" },
                if files.len() == 1 { "it is" } else { "they are" },
                files.join(", ")
            );
        }
        if let Some(c) = &report.coverage {
            let _ = writeln!(
                out,
                "\ntranslation coverage (text units in the page's own language):\n"
            );
            out.push_str(&super::coverage::table(c));
        }
        let n = report.untranslated.len();
        if untranslated {
            let _ = writeln!(
                out,
                "\nstill in another language ({n} text unit{}):",
                plural(n)
            );
            for u in &report.untranslated {
                let _ = writeln!(
                    out,
                    "{}:{}: {}",
                    plain(&shown(&u.file)),
                    u.line,
                    plain(&u.text)
                );
            }
        } else if n > 0 {
            let _ = writeln!(
                out,
                "\n{n} text unit{} still in another language: `rulebook check --untranslated` lists them with their lines",
                plural(n)
            );
        }
        let _ = writeln!(out, "\ncheck: {errors} error(s), {warnings} warning(s)");
    }
    (out, u8::from(errors > 0))
}
