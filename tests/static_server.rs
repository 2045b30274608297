//! The browser tests' file server answers every connection of a burst while the others stay
//! open, as Chromium's parallel keep-alive connections do (a pool that queued the fifth one
//! behind four idle ones once hung a page load for 300 s).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use crate::common::*;

/// Sends one keep-alive GET and returns the connection, still open, with the response.
fn ask(addr: &str, path: &str) -> (TcpStream, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(s, "GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let response = read_response(&mut s)
        .unwrap_or_else(|e| panic!("no answer to {path} on a new connection: {e}"));
    (s, response)
}

/// Reads one response: the head, then as many bytes as its Content-Length says.
fn read_response(s: &mut TcpStream) -> std::io::Result<String> {
    let mut got = Vec::new();
    let mut byte = [0u8; 1];
    while !got.ends_with(b"\r\n\r\n") {
        if s.read(&mut byte)? == 0 {
            break;
        }
        got.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&got).into_owned();
    let length: usize = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length:")
                .map(|v| v.trim().parse().unwrap())
        })
        .unwrap_or(0);
    let mut body = vec![0u8; length];
    s.read_exact(&mut body)?;
    Ok(head + &String::from_utf8_lossy(&body))
}

#[test]
fn a_burst_of_keep_alive_connections_is_answered() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.html", b"<p>a</p>");
    let server = StaticServer::start(dir.path(), "/site/");
    let addr = http::addr_of(&server.url);
    for _ in 0..20 {
        // all connected at once, every one kept open until all are answered
        let asking: Vec<_> = (0..12)
            .map(|_| {
                let addr = addr.clone();
                std::thread::spawn(move || ask(&addr, "/site/a.html"))
            })
            .collect();
        let open: Vec<_> = asking.into_iter().map(|t| t.join().unwrap()).collect();
        for (_, head) in &open {
            assert!(head.starts_with("HTTP/1.1 200 "), "{head}");
            assert!(head.ends_with("<p>a</p>"), "{head}");
        }
    }
}

#[test]
fn a_keep_alive_connection_answers_each_request_in_turn() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.html", b"<p>a</p>");
    write(dir.path(), "404.html", b"<p>none</p>");
    let server = StaticServer::start(dir.path(), "/");
    let addr = http::addr_of(&server.url);
    let (mut s, first) = ask(&addr, "/a.html");
    assert!(first.starts_with("HTTP/1.1 200 "), "{first}");
    write!(
        s,
        "GET /b.html HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let rest = read_response(&mut s).unwrap();
    // and the server closes the connection, as asked
    assert_eq!(s.read(&mut [0u8; 1]).unwrap(), 0);
    assert!(rest.starts_with("HTTP/1.1 404 "), "{rest}");
    assert!(rest.ends_with("<p>none</p>"), "{rest}");
}
