//! A minimal HTTP/1.1 GET for tests: raw requests (so a test can send paths a client library
//! would normalise, such as `/../etc/passwd`), responses as status, headers and body.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

pub struct Response {
    pub status: u16,
    pub headers: String,
    pub body: Vec<u8>,
}

impl Response {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// Sends `GET {path}` exactly as given to `host:port` (`127.0.0.1:8080`).
pub fn get(addr: &str, path: &str) -> Response {
    get_timeout(addr, path, Duration::from_secs(30))
}

pub fn get_timeout(addr: &str, path: &str, timeout: Duration) -> Response {
    let mut s = TcpStream::connect(addr).unwrap_or_else(|e| panic!("connect {addr}: {e}"));
    s.set_read_timeout(Some(timeout)).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf)
        .unwrap_or_else(|e| panic!("read {path}: {e}"));
    let split = buf
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| {
            panic!(
                "no header end in response to {path}: {:?}",
                String::from_utf8_lossy(&buf)
            )
        });
    let headers = String::from_utf8_lossy(&buf[..split]).into_owned();
    let status = headers
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut body = buf[split + 4..].to_vec();
    if headers
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        body = dechunk(&body);
    }
    Response {
        status,
        headers,
        body,
    }
}

/// Decodes a chunked body: `size\r\n bytes\r\n` … `0\r\n\r\n`.
fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = b.windows(2).position(|w| w == b"\r\n") {
        let size_text = String::from_utf8_lossy(&b[..eol]);
        let size =
            usize::from_str_radix(size_text.split(';').next().unwrap().trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        let start = eol + 2;
        out.extend_from_slice(&b[start..(start + size).min(b.len())]);
        b = &b[(start + size + 2).min(b.len())..];
    }
    out
}

/// `host:port` of a URL such as `http://127.0.0.1:8080/repo/`.
pub fn addr_of(url: &str) -> String {
    url.trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap()
        .to_string()
}
