//! What only a socket shows, on the library's service in this process, where hyper stands
//! between the client and the router: the limits on a request's head (past the server's
//! own, its router answers; past hyper's, hyper does, before any routing), the router's own
//! errors crossing hyper as they were made, and clients on connections of their own. The rest of the API is `api.rs`'s, through `oneshot`.

mod support;

use support::{Server, eight_clients, fetch_ids};

/// The router's 400s cross hyper as the router made them, each on a connection kept alive
/// for the next.
#[test]
fn the_routers_own_errors_cross_hyper_as_they_were_made() {
    let server = Server::unleased(1, 1);
    let answers = raw_request(
        &server.addr,
        b"GET /v1/compose?dc=32&machine=1 HTTP/1.1\r\nHost: x\r\n\r\n\
          GET /v1/ids?count=2&count=3 HTTP/1.1\r\nHost: x\r\n\r\n\
          GET /v1/compose?dc=1&machine=40 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(answers.matches("HTTP/1.1 400 ").count(), 3, "{answers}");
    for error in [
        r#"{"error":{"field":"dc","message":"datacenter 32 is out of range 0..=31 (5 bits)"#,
        r#"{"error":{"field":"count","message":"count is given 2 times; give it once""#,
        r#"{"error":{"field":"machine","message":"machine 40 is out of range 0..=31 (5 bits)"#,
    ] {
        assert!(answers.contains(error), "{error} in {answers}");
    }
}

/// Eight clients, each on connections of its own, never see an ID twice.
#[test]
fn many_clients_on_connections_of_their_own_never_see_a_duplicate() {
    let server = Server::unleased(1, 1);
    let addr = server.addr.clone();
    let ids = eight_clients(move |path| fetch_ids(&addr, path));
    // Each client: ten batches of 100 and 90 single IDs, every one answered.
    assert_eq!(ids, 8 * (10 * 100 + 90));
}

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

/// A URL past the server's own limit is a JSON error, counted by its endpoint; what hyper
/// refuses before routing (a malformed request line, a URL past its 64 KiB, more than 100
/// header fields) it answers itself, with an empty body, and the connection is counted.
#[test]
fn heads_past_the_limits_are_refused_and_counted() {
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
    // hyper's own answers: the status, no body.
    let refused = |answer: String, status: &str| {
        assert!(
            answer.starts_with(&format!("HTTP/1.1 {status} ")),
            "{answer}"
        );
        assert!(answer.ends_with("\r\n\r\n"), "{answer}");
        assert!(answer.contains("content-length: 0\r\n"), "{answer}");
    };
    // A head of `n` header fields. hyper's limit, which the server keeps: 100 are read,
    // 101 (or 202) are not.
    let fields = |n: usize| {
        let pad = (2..n)
            .map(|i| format!("X-Pad-{i}: {i}\r\n"))
            .collect::<Vec<_>>()
            .concat();
        format!("GET /healthz HTTP/1.1\r\nHost: x\r\n{pad}Connection: close\r\n\r\n")
    };
    let answer = raw_request(&server.addr, fields(100).as_bytes());
    assert!(answer.starts_with("HTTP/1.1 200 "), "{answer}");
    refused(raw_request(&server.addr, fields(101).as_bytes()), "431");
    refused(raw_request(&server.addr, fields(202).as_bytes()), "431");
    refused(
        raw_request(&server.addr, b"NOT A REQUEST LINE\r\n\r\n"),
        "400",
    );
    let huge = format!(
        "GET /v1/id?pad={} HTTP/1.1\r\nHost: x\r\n\r\n",
        "a".repeat(100 * 1024)
    );
    refused(raw_request(&server.addr, huge.as_bytes()), "414");
    // A connection is counted once it has ended, which may be a moment after its answer
    // was read: the counts are awaited, for five seconds at most.
    let lines = [
        "snowflake_http_requests_total{endpoint=\"/v1/ids\",status=\"414\"} 1",
        "snowflake_connections_closed_total{reason=\"malformed request\"} 1",
        "snowflake_connections_closed_total{reason=\"request head too large\"} 3",
    ];
    let counted = |metrics: &str| lines.iter().all(|&line| metrics.lines().any(|l| l == line));
    support::wait_until(
        std::time::Duration::from_secs(5),
        || Some(server.get("/metrics").body).filter(|metrics| counted(metrics)),
        || format!("{lines:?} in {}", server.get("/metrics").body),
    );
}
