//! A static file server on loopback for a built site, one thread per connection.
//!
//! Why not a library server: Chromium opens up to six connections to a host at once (more
//! while a service worker fills its cache beside the page) and keeps them open, idle, for
//! minutes. tiny_http 0.12 hands each connection to a pool that starts new threads only when
//! it counts no idle one, and counts a just-woken thread as idle until that thread runs: in a
//! burst of more than four connections, the fifth waits in the pool's queue until an earlier
//! connection closes. Chromium sent its navigation on such a connection and waited 300 s for
//! the renderer. Here every accepted connection gets its own thread at once, so an idle
//! connection never keeps another from being answered.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::percent_decode;

/// Serves `dir` under `prefix` (e.g. `/` or `/repo/`); the threads end with the test process.
pub struct StaticServer {
    pub url: String,
    offline: Arc<AtomicBool>,
}

impl StaticServer {
    pub fn start(dir: &Path, prefix: &str) -> StaticServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let port = listener.local_addr().unwrap().port();
        let url = format!("http://127.0.0.1:{port}{prefix}");
        let offline = Arc::new(AtomicBool::new(false));
        let site = Site {
            dir: dir.to_path_buf(),
            prefix: prefix.to_string(),
            offline: offline.clone(),
        };
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let site = site.clone();
                std::thread::spawn(move || site.connection(stream));
            }
        });
        StaticServer { url, offline }
    }

    /// The network is gone, or back: while it is gone, every request (on a new connection or
    /// one kept open) is dropped unanswered, so the browser's `fetch` fails as it does offline.
    /// (A server that answers 404 is not offline: the site says the page does not exist.)
    pub fn set_offline(&self, gone: bool) {
        self.offline.store(gone, Ordering::SeqCst);
    }
}

#[derive(Clone)]
struct Site {
    dir: PathBuf,
    prefix: String,
    offline: Arc<AtomicBool>,
}

/// One request's head: the method, the target, and whether the client asked to close.
struct Head {
    method: String,
    target: String,
    close: bool,
}

impl Site {
    /// Answers the requests of one keep-alive connection until the client closes it.
    fn connection(&self, stream: TcpStream) {
        // Without this, each response's body waited for the client's acknowledgement of its
        // head (Nagle's algorithm), which a browser delays by up to 40 ms: every file of the
        // search index took about 50 ms on loopback, and the keystroke timings of
        // `measure_search` measured that wait, not the search. Static hosts answer without it.
        let _ = stream.set_nodelay(true);
        let Ok(mut out) = stream.try_clone() else {
            return;
        };
        let mut reader = BufReader::new(stream);
        while let Some(head) = read_head(&mut reader) {
            if self.offline.load(Ordering::SeqCst) {
                let _ = out.shutdown(std::net::Shutdown::Both);
                return;
            }
            let (status, ct, body) = self.answer(&head.target);
            let body: &[u8] = if head.method == "HEAD" { &[] } else { &body };
            let reply = format!(
                "HTTP/1.1 {status}\r\nContent-Type: {ct}\r\nContent-Length: {}\r\n{}\r\n",
                body.len(),
                if head.close {
                    "Connection: close\r\n"
                } else {
                    ""
                }
            );
            // head and body in one write: one segment for a small file
            let mut whole = reply.into_bytes();
            whole.extend_from_slice(body);
            if out.write_all(&whole).is_err() {
                return;
            }
            if head.close {
                return;
            }
        }
    }

    /// The status line's tail, content type and body for a request target.
    fn answer(&self, target: &str) -> (&'static str, &'static str, Vec<u8>) {
        let path = percent_decode(target.split(['?', '#']).next().unwrap_or("/"));
        let file = path
            .strip_prefix(self.prefix.as_str())
            .filter(|rel| !rel.split('/').any(|s| s == ".."))
            .map(|rel| {
                let f = self.dir.join(rel);
                if f.is_dir() {
                    f.join("index.html")
                } else {
                    f
                }
            })
            .and_then(|f| std::fs::read(&f).ok().map(|b| (f, b)));
        match file {
            Some((f, bytes)) => ("200 OK", content_type(&f), bytes),
            None => (
                "404 Not Found",
                "text/html; charset=utf-8",
                std::fs::read(self.dir.join("404.html")).unwrap_or_default(),
            ),
        }
    }
}

/// Reads a request line and headers (and skips a body, if one is declared); `None` when the
/// client closed the connection or sent something that is not HTTP.
fn read_head(r: &mut BufReader<TcpStream>) -> Option<Head> {
    let mut line = String::new();
    if r.read_line(&mut line).ok()? == 0 {
        return None;
    }
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_string();
    let target = parts.next()?.to_string();
    let mut close = parts.next() == Some("HTTP/1.0");
    let mut length = 0u64;
    loop {
        let mut h = String::new();
        if r.read_line(&mut h).ok()? == 0 {
            return None;
        }
        if h.trim_end().is_empty() {
            break;
        }
        let (name, value) = h.split_once(':')?;
        let value = value.trim().to_ascii_lowercase();
        match name.trim().to_ascii_lowercase().as_str() {
            "connection" => close = value.contains("close"),
            "content-length" => length = value.parse().ok()?,
            _ => {}
        }
    }
    std::io::copy(&mut r.by_ref().take(length), &mut std::io::sink()).ok()?;
    Some(Head {
        method,
        target,
        close,
    })
}

fn content_type(p: &Path) -> &'static str {
    match p.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "xml" => "application/xml",
        _ => "application/octet-stream",
    }
}
