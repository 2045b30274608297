//! The development server: a small HTTP/1.1 server, one thread per connection.
//!
//! Every connection is answered and closed (`Connection: close`). A browser opens connections
//! ahead of need and may send nothing on them for seconds; with a fixed pool of workers, eight
//! such idle connections held every worker and the next real request waited out the read
//! timeout (10 s). A thread per connection cannot be starved that way; [`MAX_CONNECTIONS`]
//! bounds the threads. Long-polls (`/__rulebook/wait`) hold no thread at all:
//! the connection is parked in a list and answered when the site changes, so any number of open
//! pages costs no workers.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use super::paths::{resolve, Found};
use crate::diag::Diagnostic;

/// Connections answered at once; past this the acceptor waits for one to finish (the OS
/// queues the rest), so a flood of connections cannot start unbounded threads.
pub const MAX_CONNECTIONS: usize = 256;
/// A long-poll is answered (unchanged) after this long, so proxies and browsers never time out.
const POLL_TIMEOUT: Duration = Duration::from_secs(25);
const READ_TIMEOUT: Duration = Duration::from_secs(10);

const LIVE_JS: &str = include_str!("live.js");

/// Served for `/sw.js` in place of the site's worker. A worker serves the theme's files and the
/// search index from its cache first: in a preview, where they change with every edit, the page
/// would show the ones of the first visit. This one clears what an earlier worker of this
/// address (another site served on the same port, or the site built and served elsewhere)
/// kept, then unregisters itself, and answers no request.
const NO_WORKER_JS: &str = "/* rulebook serve: no service worker while previewing */\n\
self.addEventListener(\"install\", function () { self.skipWaiting(); });\n\
self.addEventListener(\"activate\", function (e) {\n\
  e.waitUntil(caches.keys().then(function (keys) {\n\
    return Promise.all(keys.filter(function (k) { return k.indexOf(\"rulebook-\") === 0; }).map(function (k) { return caches.delete(k); }));\n\
  }).then(function () { return self.registration.unregister(); }));\n\
});\n";

/// What the browser is told: the site's version (one more per rebuild), the version whose
/// print views are on disk, the number of times the search index was written since the start,
/// and current errors. An edit to one chapter is announced before the print views (every
/// chapter on one page) are written again, so the edited page reloads at once; an open print
/// view waits for `print` instead, or it would reload to the old text. The search index is
/// written once edits pause; an open page then drops the index it has read (live.js).
#[derive(Default)]
pub struct Status {
    pub version: u64,
    pub print: u64,
    pub search: u64,
    pub errors: Vec<Diagnostic>,
}

pub struct Shared {
    /// The output folder, canonical.
    pub root: PathBuf,
    pub status: Mutex<Status>,
    waiters: Mutex<Vec<(TcpStream, Instant)>>,
}

impl Shared {
    pub fn new(root: PathBuf) -> Arc<Shared> {
        Arc::new(Shared {
            root,
            status: Mutex::new(Status::default()),
            waiters: Mutex::new(Vec::new()),
        })
    }

    /// Records a new state of the site and answers every parked long-poll. `print`: the print
    /// views were written for it too.
    pub fn publish(&self, errors: Vec<Diagnostic>, print: bool) {
        let body = {
            let mut st = self.status.lock().unwrap_or_else(|e| e.into_inner());
            st.version += 1;
            if print {
                st.print = st.version;
            }
            st.errors = errors;
            status_json(&st)
        };
        self.answer_all(&body);
    }

    /// Records that the print views now hold the current version, and tells the open ones.
    pub fn publish_print(&self) {
        let body = {
            let mut st = self.status.lock().unwrap_or_else(|e| e.into_inner());
            st.print = st.version;
            status_json(&st)
        };
        self.answer_all(&body);
    }

    /// Records that the search index was written again, and tells the open pages.
    pub fn publish_search(&self) {
        let body = {
            let mut st = self.status.lock().unwrap_or_else(|e| e.into_inner());
            st.search += 1;
            status_json(&st)
        };
        self.answer_all(&body);
    }

    fn answer_all(&self, body: &str) {
        let waiting = std::mem::take(&mut *self.waiters.lock().unwrap_or_else(|e| e.into_inner()));
        for (mut s, _) in waiting {
            let _ = respond(&mut s, 200, "application/json", body.as_bytes(), &[]);
        }
    }

    fn search_count(&self) -> u64 {
        self.status.lock().unwrap_or_else(|e| e.into_inner()).search
    }

    fn version(&self) -> u64 {
        self.status
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .version
    }

    /// The version a served page says it shows: the print views' for a print view.
    fn served_version(&self, print_view: bool) -> u64 {
        let st = self.status.lock().unwrap_or_else(|e| e.into_inner());
        if print_view {
            st.print
        } else {
            st.version
        }
    }

    fn status_body(&self) -> String {
        status_json(&self.status.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Answers long-polls that have waited too long.
    fn expire(&self) {
        let body = self.status_body();
        let mut w = self.waiters.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        let (old, keep): (Vec<_>, Vec<_>) = w
            .drain(..)
            .partition(|(_, t)| now.duration_since(*t) >= POLL_TIMEOUT);
        *w = keep;
        drop(w);
        for (mut s, _) in old {
            let _ = respond(&mut s, 200, "application/json", body.as_bytes(), &[]);
        }
    }
}

fn status_json(st: &Status) -> String {
    let errors: Vec<serde_json::Value> = st
        .errors
        .iter()
        .map(|d| {
            serde_json::json!({
                "file": d.file.to_string_lossy().replace('\\', "/"),
                "line": d.line,
                "column": d.column,
                "kind": d.kind,
                "message": d.message,
            })
        })
        .collect();
    serde_json::json!({"version": st.version, "print": st.print, "search": st.search, "errors": errors})
        .to_string()
}

/// Starts the acceptor and the long-poll sweeper; returns at once.
pub fn start(listener: TcpListener, shared: Arc<Shared>) {
    let live = Arc::new((Mutex::new(0usize), Condvar::new()));
    let accept_shared = Arc::clone(&shared);
    let _ = std::thread::Builder::new()
        .name("serve-accept".into())
        .spawn(move || {
            for s in listener.incoming().flatten() {
                {
                    let (count, freed) = &*live;
                    let mut n = count.lock().unwrap_or_else(|e| e.into_inner());
                    while *n >= MAX_CONNECTIONS {
                        n = freed.wait(n).unwrap_or_else(|e| e.into_inner());
                    }
                    *n += 1;
                }
                let slot = Arc::clone(&live);
                let shared = Arc::clone(&accept_shared);
                let spawned =
                    std::thread::Builder::new()
                        .name("serve-conn".into())
                        .spawn(move || {
                            handle(s, &shared);
                            let (count, freed) = &*slot;
                            *count.lock().unwrap_or_else(|e| e.into_inner()) -= 1;
                            freed.notify_one();
                        });
                if spawned.is_err() {
                    // The thread never ran, so nothing else gives its place back.
                    let (count, freed) = &*live;
                    *count.lock().unwrap_or_else(|e| e.into_inner()) -= 1;
                    freed.notify_one();
                }
            }
        });
    let _ = std::thread::Builder::new()
        .name("serve-sweep".into())
        .spawn(move || loop {
            std::thread::sleep(Duration::from_secs(1));
            shared.expire();
        });
}

fn respond(
    s: &mut TcpStream,
    status: u16,
    content_type: &str,
    body: &[u8],
    extra: &[(&str, &str)],
) -> std::io::Result<()> {
    respond_to(s, false, status, content_type, body, extra)
}

/// [`respond`], or for a HEAD request (`head_only`) the same head without the body: its length is
/// the body's, as HTTP asks.
fn respond_to(
    s: &mut TcpStream,
    head_only: bool,
    status: u16,
    content_type: &str,
    body: &[u8],
    extra: &[(&str, &str)],
) -> std::io::Result<()> {
    let reason = match status {
        200 => "OK",
        301 => "Moved Permanently",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        _ => "Error",
    };
    let mut head = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n",
        body.len()
    );
    for (k, v) in extra {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes())?;
    if !head_only {
        s.write_all(body)?;
    }
    s.flush()
}

/// Reads the request line and headers; returns (method, target). The whole head must come
/// within [`READ_TIMEOUT`]: a client sending a header line every few seconds held its
/// connection (and one of the [`MAX_CONNECTIONS`]) for as long as it liked.
fn read_request(s: &TcpStream) -> Option<(String, String)> {
    let deadline = Instant::now() + READ_TIMEOUT;
    let left = || {
        let d = deadline.saturating_duration_since(Instant::now());
        (!d.is_zero() && s.set_read_timeout(Some(d)).is_ok()).then_some(())
    };
    let mut r = BufReader::new(s.try_clone().ok()?).take(16 * 1024);
    let mut line = String::new();
    left()?;
    r.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_string();
    let target = parts.next()?.to_string();
    loop {
        let mut h = String::new();
        left()?;
        if r.read_line(&mut h).ok()? == 0 || h == "\r\n" || h == "\n" {
            break;
        }
    }
    // the answer may take its time again (a long-poll is answered by another thread)
    let _ = s.set_read_timeout(Some(READ_TIMEOUT));
    Some((method, target))
}

use std::io::Read as _;

fn handle(mut s: TcpStream, shared: &Shared) {
    let _ = s.set_read_timeout(Some(READ_TIMEOUT));
    let _ = s.set_write_timeout(Some(READ_TIMEOUT));
    let Some((method, target)) = read_request(&s) else {
        let _ = respond(&mut s, 400, "text/plain", b"bad request", &[]);
        return;
    };
    if method != "GET" && method != "HEAD" {
        let _ = respond(
            &mut s,
            405,
            "text/plain",
            b"only GET and HEAD",
            &[("Allow", "GET, HEAD")],
        );
        return;
    }
    let head_only = method == "HEAD";
    let path = target.split('?').next().unwrap_or("");
    if path == "/sw.js" {
        let _ = respond_to(
            &mut s,
            head_only,
            200,
            "text/javascript; charset=utf-8",
            NO_WORKER_JS.as_bytes(),
            &[],
        );
        return;
    }
    if path == "/__rulebook/live.js" {
        let _ = respond_to(
            &mut s,
            head_only,
            200,
            "text/javascript; charset=utf-8",
            LIVE_JS.as_bytes(),
            &[],
        );
        return;
    }
    if path == "/__rulebook/wait" {
        let query = target.split_once('?').map(|x| x.1).unwrap_or("");
        let mut seen = None;
        let mut print = None;
        let mut search = None;
        let mut now = false;
        for kv in query.split('&') {
            match kv.split_once('=') {
                Some(("v", v)) => seen = v.parse::<u64>().ok(),
                // a print view's: the print views' version it shows
                Some(("print", v)) => print = v.parse::<u64>().ok(),
                // the times the page knows the index was written again
                Some(("s", v)) => search = v.parse::<u64>().ok(),
                Some(("now", _)) => now = true,
                _ => {}
            }
        }
        let mut waiters = shared.waiters.lock().unwrap_or_else(|e| e.into_inner());
        // checked under the waiters' lock, so a rebuild cannot slip between check and park
        if now
            || seen != Some(shared.version())
            || print.is_some_and(|p| p < shared.served_version(true))
            || search.is_some_and(|n| n != shared.search_count())
        {
            drop(waiters);
            let body = shared.status_body();
            let _ = respond(&mut s, 200, "application/json", body.as_bytes(), &[]);
        } else {
            waiters.push((s, Instant::now()));
        }
        return;
    }
    match resolve(&shared.root, &target) {
        Found::File(f) => match std::fs::read(&f) {
            Ok(bytes) => {
                let ct = content_type(&f);
                let body = if ct.starts_with("text/html") {
                    let print_view = is_print_view(&shared.root, &f);
                    inject(bytes, shared.served_version(print_view), print_view)
                } else {
                    bytes
                };
                let _ = respond_to(&mut s, head_only, 200, ct, &body, &[]);
            }
            Err(_) => not_found(&mut s, shared, head_only),
        },
        Found::AddSlash(to) => {
            let _ = respond(&mut s, 301, "text/plain", b"", &[("Location", &to)]);
        }
        Found::NotFound => not_found(&mut s, shared, head_only),
    }
}

fn not_found(s: &mut TcpStream, shared: &Shared, head_only: bool) {
    let page =
        std::fs::read(shared.root.join("404.html")).unwrap_or_else(|_| b"not found".to_vec());
    let _ = respond_to(
        s,
        head_only,
        404,
        "text/html; charset=utf-8",
        &inject(page, shared.version(), false),
        &[],
    );
}

/// Whether `file` (below `root`) is a print view, `<lang>/print/index.html`.
fn is_print_view(root: &std::path::Path, file: &std::path::Path) -> bool {
    let Ok(rel) = file.strip_prefix(root) else {
        return false;
    };
    let parts: Vec<_> = rel.components().collect();
    parts.len() == 3 && parts[1].as_os_str() == "print" && parts[2].as_os_str() == "index.html"
}

/// Adds the live-reload script to an HTML page, before `</body>` (or at the end). A print
/// view's script waits for the print views to be written (see [`Status`]).
pub fn inject(mut html: Vec<u8>, version: u64, print_view: bool) -> Vec<u8> {
    let tag = format!(
        "<script src=\"/__rulebook/live.js\" data-version=\"{version}\"{}></script>",
        if print_view { " data-print" } else { "" }
    );
    let at = html
        .windows(7)
        .rposition(|w| w.eq_ignore_ascii_case(b"</body>"))
        .unwrap_or(html.len());
    html.splice(at..at, tag.into_bytes());
    html
}

pub fn content_type(p: &std::path::Path) -> &'static str {
    match p.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "xml" => "application/xml",
        "txt" => "text/plain; charset=utf-8",
        "woff2" => "font/woff2",
        "webmanifest" => "application/manifest+json",
        _ => "application/octet-stream",
    }
}
