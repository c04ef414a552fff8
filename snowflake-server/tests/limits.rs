//! The limits on a request's head, over a socket to the library's service in this process:
//! a head past the server's own limits is answered by its router, one past hyper's by hyper,
//! before any routing, which only a real connection reaches.

mod support;

use support::Server;

/// Sends `raw` as it is, and reads the answer until the server closes.
fn raw_request(addr: &str, raw: &[u8]) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    stream.write_all(raw).unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

/// A request head past the server's own limits is a JSON error, counted; one that hyper
/// refuses before routing (a malformed request line) is counted too.
#[test]
fn heads_past_the_limits_are_json_errors_and_counted() {
    use std::fmt::Write;
    let server = Server::unleased(1, 1);
    let long = format!("/v1/ids?count=1&pad={}", "a".repeat(20 * 1024));
    let answer = raw_request(
        &server.addr,
        format!("GET {long} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes(),
    );
    assert!(answer.starts_with("HTTP/1.1 414 "), "{answer}");
    assert!(
        answer.contains(r#"{"error":{"field":null,"message":"the path and query are 20500 bytes long; at most 8192 are read"}}"#),
        "{answer}"
    );
    let headers = (0..200).fold(String::new(), |mut headers, i| {
        let _ = write!(headers, "X-Pad-{i}: {i}\r\n");
        headers
    });
    let answer = raw_request(
        &server.addr,
        format!("GET /healthz HTTP/1.1\r\nHost: x\r\n{headers}Connection: close\r\n\r\n")
            .as_bytes(),
    );
    assert!(answer.starts_with("HTTP/1.1 431 "), "{answer}");
    assert!(
        answer.contains("the request has 202 header fields; at most 100 are read"),
        "{answer}"
    );
    // What hyper answers before routing is JSON too.
    let answer = raw_request(&server.addr, b"NOT A REQUEST LINE\r\n\r\n");
    assert!(answer.starts_with("HTTP/1.1 400 "), "{answer}");
    assert!(
        answer.ends_with(r#"{"error":{"field":null,"message":"the request's head could not be read: expected `METHOD /path HTTP/1.1`, then header lines"}}"#),
        "{answer}"
    );
    let huge = format!(
        "GET /v1/id?pad={} HTTP/1.1\r\nHost: x\r\n\r\n",
        "a".repeat(100 * 1024)
    );
    let answer = raw_request(&server.addr, huge.as_bytes());
    assert!(answer.starts_with("HTTP/1.1 414 "), "{answer}");
    assert!(answer.contains("application/json"), "{answer}");
    assert!(
        answer.ends_with(r#""the URL is longer than the 64 KiB the server reads"}}"#),
        "{answer}"
    );
    // A connection is counted once it has ended, which may be a moment after its answer
    // was read: the counts are awaited, for five seconds at most.
    let lines = [
        "snowflake_http_requests_total{endpoint=\"/v1/ids\",status=\"414\"} 1",
        "snowflake_http_requests_total{endpoint=\"/healthz\",status=\"431\"} 1",
        "snowflake_connections_closed_total{reason=\"malformed request\"} 1",
        "snowflake_connections_closed_total{reason=\"request head too large\"} 1",
    ];
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        let metrics = server.get("/metrics").body;
        let missing = lines
            .iter()
            .find(|&&line| !metrics.lines().any(|l| l == line));
        match missing {
            None => break,
            Some(line) if std::time::Instant::now() > deadline => {
                panic!("{line} in {metrics}")
            }
            Some(_) => std::thread::sleep(std::time::Duration::from_millis(10)),
        }
    }
}
