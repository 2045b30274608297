//! The `rulebook` command line.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use rulebook::build::{build, print_diagnostics, summary, BuildError, BuildOptions};
use rulebook::diag::Diagnostics;

/// A build allocates and frees many small strings on every thread; mimalloc's per-thread heaps
/// made the whole build about a tenth cheaper in instructions than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc commits each arena it reserves (1 GiB) at once on a system that overcommits, so
/// pages the build never touches still count in its resident memory and cost page-table work.
/// Committed on demand instead, the 2,000-chapter build peaked about 75 MiB lower and spent
/// about a third less system time (user time the same; alternating runs).
///
/// The option must be set before the first allocation, which reserves the first arena and
/// happens before `main` (the runtime allocates while setting up): so it is set by a process
/// constructor, from `.init_array`.
///
/// Freed memory is given back to the system after 10 ms, not mimalloc 3's default of a second
/// (a build is over within two): analysis tables, rendered pages and the print views are freed
/// while the rest of the build still runs, and were held to the end. The 2,000-chapter build
/// peaked about 80 MiB lower (590 → 510 MiB, medians of 5), in the same wall time within the
/// noise (tmpfs and ext4, 200 and 2,000 chapters, alternating runs); 10 ms is mimalloc 2's
/// default. `MIMALLOC_PURGE_DELAY` in the environment still decides when it is set.
#[cfg(target_os = "linux")]
mod allocator {
    /// `mi_option_arena_eager_commit` and `mi_option_purge_delay` in mimalloc 3's
    /// `mi_option_e` (the crate names no constants for them).
    const ARENA_EAGER_COMMIT: libmimalloc_sys::mi_option_t = 4;
    const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

    extern "C" fn tune() {
        // SAFETY: sets plain integer options and reads the environment through libc, which
        // is ready before constructors run; allocates nothing and touches no Rust state.
        unsafe {
            libmimalloc_sys::mi_option_set(ARENA_EAGER_COMMIT, 0);
            if libc::getenv(c"MIMALLOC_PURGE_DELAY".as_ptr()).is_null() {
                libmimalloc_sys::mi_option_set(PURGE_DELAY, 10);
            }
        }
    }

    #[used]
    #[link_section = ".init_array"]
    static TUNE: extern "C" fn() = tune;
}

#[derive(Parser)]
#[command(
    name = "rulebook",
    version,
    about = "Builds a fast static website from a bilingual game rules reference"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build the site from content/ into public/
    Build {
        /// The site folder: holds content/ and optionally templates/, static/, i18n/
        #[arg(long, default_value = ".")]
        site: PathBuf,
        /// Where to write the site (default: SITE/public)
        #[arg(long)]
        output: Option<PathBuf>,
        /// Override base_url from site.yaml (e.g. https://user.github.io/repo/)
        #[arg(long, value_parser = base_url_arg)]
        base_url: Option<String>,
        /// Treat every warning as an error
        #[arg(long)]
        strict: bool,
        /// Strip raw HTML from the Markdown (for content from people you do not know);
        /// the same as `safe: true` in site.yaml
        #[arg(long)]
        safe: bool,
    },
    /// Search the rules from the command line (builds or reuses an index outside public/)
    Search {
        /// What to look for (a query may begin with `-`: `-token`, `- 7.1`)
        #[arg(value_parser = query_arg, allow_hyphen_values = true)]
        query: String,
        /// The site folder: holds content/
        #[arg(long, default_value = ".")]
        site: PathBuf,
        /// Only results in this language (uk, en, …)
        #[arg(long)]
        lang: Option<String>,
        /// How many results to print
        #[arg(long, default_value_t = 10, value_parser = limit_arg)]
        limit: usize,
        /// Print a JSON array instead of text
        #[arg(long)]
        json: bool,
    },
    /// Check the content without writing anything: broken references and links, missing
    /// translations, translation coverage, stale translations, terminology
    Check {
        #[arg(long, default_value = ".")]
        site: PathBuf,
        /// `text` for people, `json` for tools
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Exit 1 on warnings too
        #[arg(long)]
        strict: bool,
        /// List the text still in another language (a paragraph of a translation left in
        /// English), with its file and line
        #[arg(long)]
        untranslated: bool,
    },
    /// Record that translations are up to date with their source chapters (all, or the ids given)
    Translated {
        #[arg(long, default_value = ".")]
        site: PathBuf,
        /// Chapter ids, or their files (default: every translated chapter)
        chapters: Vec<String>,
    },
    /// Create a new bilingual site in DIR that builds at once
    Init { dir: PathBuf },
    /// Build, serve on this machine, rebuild on every change and reload open pages
    Serve {
        #[arg(long, default_value = ".")]
        site: PathBuf,
        #[arg(long, default_value_t = 8000)]
        port: u16,
        /// Address to listen on; the default is reachable from this machine only
        #[arg(long, default_value = "127.0.0.1")]
        bind: String,
        /// Where to build the preview (default: a temporary folder)
        #[arg(long)]
        output: Option<PathBuf>,
    },
    /// Times the incremental rebuild after editing one chapter (for bench/report.py)
    #[command(hide = true)]
    BenchIncremental {
        #[arg(long, default_value = ".")]
        site: PathBuf,
        #[arg(long, default_value_t = 7)]
        runs: usize,
    },
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Format {
    Text,
    Json,
}

fn main() -> ExitCode {
    // before any thread is started: they all inherit the blocked signals
    rulebook::stop::install();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    if !matches!(cli.command, Command::Serve { .. }) {
        rulebook::stop::end_quietly_on_closed_pipe();
    }
    match cli.command {
        Command::Search {
            query,
            site,
            lang,
            limit,
            json,
        } => search(query, site, lang, limit, json),
        Command::Check {
            site,
            format,
            strict,
            untranslated,
        } => {
            let report = rulebook::check::check(&site, strict);
            let (text, code) = rulebook::check::output::render(
                &report,
                matches!(format, Format::Json),
                untranslated,
            );
            match write_out(&text) {
                Ok(()) => ExitCode::from(code),
                Err(e) => e,
            }
        }
        Command::Translated { site, chapters } => {
            let mut diags = Diagnostics::default();
            let result = rulebook::check::mark_translated(&site, &chapters, &mut diags);
            // the site's own warnings are `check`'s to show; these are about what was recorded
            diags.items.retain(|d| {
                d.severity == rulebook::diag::Severity::Error
                    || matches!(d.kind, "unfinished-translation" | "stale-recorded")
            });
            print_diagnostics(&mut diags);
            match result {
                Ok(files) => {
                    for f in &files {
                        rulebook::say!("recorded the source of {}", f.display());
                    }
                    if files.is_empty() {
                        rulebook::say!("every translation already records its current source");
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    rulebook::say!("error: {e}");
                    ExitCode::from(1)
                }
            }
        }
        Command::Serve { site, .. } if !site.join("content").is_dir() => {
            // as `build` and `check` say it, with their exit code: the site is missing, the
            // command is fine
            let mut diags = Diagnostics::default();
            diags.push(rulebook::diag::Diagnostic::missing_content(&site));
            print_diagnostics(&mut diags);
            ExitCode::from(1)
        }
        Command::Serve {
            site,
            port,
            bind,
            output,
        } => match rulebook::serve::serve(rulebook::serve::ServeOptions {
            site,
            bind,
            port,
            output,
        }) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                // serve leaves SIGPIPE ignored: a closed stream must not turn this into a panic
                use std::io::Write as _;
                let _ = writeln!(std::io::stderr(), "error: {e}");
                ExitCode::from(2)
            }
        },
        Command::BenchIncremental { site, runs } => {
            match rulebook::serve::bench_incremental(&site, runs) {
                Ok(ms) => match write_out(&format!(
                    "{ms:.1} ms (median of {runs} incremental rebuilds after editing one chapter)\n"
                )) {
                    Ok(()) => ExitCode::SUCCESS,
                    Err(e) => e,
                },
                Err(e) => {
                    rulebook::say!("error: {e}");
                    ExitCode::from(1)
                }
            }
        }
        Command::Init { dir } => match rulebook::init::init(&dir) {
            Ok(made) => {
                for f in &made.written {
                    rulebook::say!("created {}", f.display());
                }
                for n in &made.notes {
                    rulebook::say!("note: {n}");
                }
                rulebook::say!(
                    "a new site is in {0}; build it with `rulebook build --site {1}`, or work on it with `rulebook serve --site {1}`",
                    dir.display(),
                    rulebook::init::shell_word(&dir.to_string_lossy())
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                rulebook::say!("error: {e}");
                ExitCode::from(2)
            }
        },
        Command::Build {
            site,
            output,
            base_url,
            strict,
            safe,
        } => {
            let opts = BuildOptions {
                site,
                output,
                base_url,
                strict,
                safe,
                exit_after: true,
            };
            let mut diags = Diagnostics::default();
            let result = build(&opts, &mut diags);
            // a build cut short by Ctrl-C ends with the signal's code, not its write errors
            rulebook::stop::wait_if_stopping();
            print_diagnostics(&mut diags);
            match result {
                Ok(r) => {
                    rulebook::say!(
                        "built {} {} per language, {} files in {} ms into {} ({})",
                        r.pages_per_language,
                        if r.pages_per_language == 1 {
                            "chapter"
                        } else {
                            "chapters"
                        },
                        r.files,
                        r.millis,
                        r.output.display(),
                        summary(&diags)
                    );
                    if !r.drafts.is_empty() {
                        let shown: Vec<String> =
                            r.drafts.iter().map(|p| p.display().to_string()).collect();
                        rulebook::say!(
                            "left out {} draft chapter file{} (`draft: true`; `rulebook serve` shows them): {}",
                            shown.len(),
                            if shown.len() == 1 { "" } else { "s" },
                            shown.join(", ")
                        );
                    }
                    ExitCode::SUCCESS
                }
                Err(BuildError::Content) => {
                    rulebook::say!(
                        "build failed: {}; the previous site, if any, was left as it was",
                        summary(&diags)
                    );
                    ExitCode::from(1)
                }
                Err(BuildError::Output(msg)) => {
                    rulebook::say!("error: {msg}");
                    ExitCode::from(2)
                }
            }
        }
    }
}

/// Writes a command's result to standard output. `println!` panics when the stream cannot be
/// written (`> /dev/full`, a disk that filled up): exit 101 and a backtrace instead of a
/// message. A closed pipe never gets here; it ends the process ([`rulebook::stop`]).
fn write_out(text: &str) -> Result<(), ExitCode> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) => {
            // standard error may be as unwritable; nothing is left to tell then
            let _ = writeln!(
                std::io::stderr(),
                "error: could not write the result to standard output: {e}"
            );
            Err(ExitCode::from(1))
        }
    }
}

/// A query with something to look for: an empty one (or one of white space, control
/// characters and invisible ones only, such as a zero-width space pasted from a page) is a
/// mistake in the command, not a search that found nothing.
fn query_arg(q: &str) -> Result<String, String> {
    let invisible = |c: char| {
        matches!(c, '\u{AD}' | '\u{34F}' | '\u{180E}' | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}')
    };
    if q.chars()
        .all(|c| c.is_whitespace() || c.is_control() || invisible(c))
    {
        return Err("the query is empty; give a word, a term or a section number".into());
    }
    Ok(q.to_string())
}

/// How many results to print: one at least (`--limit 0` printed "no results").
fn limit_arg(n: &str) -> Result<usize, String> {
    match n.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("give how many results to print, a whole number from 1".into()),
    }
}

/// `--base-url` is checked as it is read, so a bad one is a usage error (exit 2) like any bad
/// option value; in `site.yaml` the same check is a content error at its line.
fn base_url_arg(url: &str) -> Result<String, String> {
    rulebook::config::normalize_base_url(url)
}

fn search(
    query: String,
    site: PathBuf,
    lang: Option<String>,
    limit: usize,
    json: bool,
) -> ExitCode {
    use rulebook::search::cli::{format_text, search, SearchError, SearchOptions};
    let opts = SearchOptions {
        site,
        query,
        lang,
        limit,
    };
    let mut diags = Diagnostics::default();
    let result = search(&opts, &mut diags);
    // Warnings about the content are the build's business; a search shows them only when
    // the content is too broken to index.
    if matches!(result, Err(SearchError::Content)) {
        print_diagnostics(&mut diags);
    }
    match result {
        Ok(hits) if json => match serde_json::to_string_pretty(&hits) {
            Ok(s) => match write_out(&(s + "\n")) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => e,
            },
            Err(e) => {
                rulebook::say!("error: {e}");
                ExitCode::from(2)
            }
        },
        Ok(hits) => {
            if hits.is_empty() {
                rulebook::say!("no results");
            }
            match write_out(&format_text(&hits)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => e,
            }
        }
        Err(SearchError::Content) => {
            rulebook::say!(
                "search failed: the content has errors ({})",
                summary(&diags)
            );
            ExitCode::from(1)
        }
        Err(SearchError::Usage(msg)) => {
            rulebook::say!("error: {msg}");
            ExitCode::from(2)
        }
        // as `build` and `check` exit for a site they cannot read
        Err(SearchError::Other(msg)) => {
            rulebook::say!("error: {msg}");
            ExitCode::from(1)
        }
    }
}
