//! Connections that misbehave: 1,100 that sit idle or half-sent, against a server limited
//! to 1,024 file descriptors, must not shut out `/healthz`; a request head that never
//! ends is cut off by the header-read timeout.

mod support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use support::{Server, get};

/// The test's own limit on open files raised to the hard one: it holds 1,100 sockets.
#[cfg(target_os = "linux")]
fn raise_own_limit() {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let mut limit = getrlimit(Resource::Nofile);
    limit.current = limit.maximum;
    setrlimit(Resource::Nofile, limit).expect("the test's file limit raised to the hard one");
}

#[cfg(target_os = "linux")]
#[test]
fn eleven_hundred_idle_connections_do_not_shut_out_healthz() {
    raise_own_limit();
    // The server under a limit of 1,024 open files, soft and hard: it cannot raise it.
    let server = Server::start_with_open_files(1024, &["--dc", "1", "--machine", "1"]);
    let addr = &server.addr;
    let limit = std::fs::read_to_string(format!("/proc/{}/limits", server.pid())).unwrap();
    assert!(
        limit
            .lines()
            .any(|l| l.starts_with("Max open files") && l.contains(" 1024 ")),
        "{limit}"
    );

    let mut held = Vec::new();
    for i in 0..1100 {
        let mut stream = TcpStream::connect(addr).unwrap();
        if i % 2 == 1 {
            // Half a request: a head that never ends.
            stream
                .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
                .unwrap();
        }
        held.push(stream);
    }
    // The timeout runs from when the server began to read the last of them.
    let opened = Instant::now();
    for _ in 0..5 {
        let started = Instant::now();
        let response = get(addr, "/healthz");
        let took = started.elapsed();
        assert_eq!(response.status, 200);
        assert!(took < Duration::from_secs(1), "/healthz took {took:?}");
        std::thread::sleep(Duration::from_millis(200));
    }
    let metrics = get(addr, "/metrics").body;
    assert!(
        metrics.contains("snowflake_connections_closed_total{reason=\"to make room\"}"),
        "{metrics}"
    );

    // The newest half-sent head is cut off once the header-read timeout (10 s) passes.
    let mut last = held.pop().unwrap();
    last.set_read_timeout(Some(Duration::from_secs(15)))
        .unwrap();
    let mut buffer = [0; 64];
    let read = last.read(&mut buffer);
    let waited = opened.elapsed();
    assert!(
        matches!(read, Ok(0) | Err(_)) || buffer.starts_with(b"HTTP/1.1 408"),
        "{read:?}"
    );
    assert!(
        (Duration::from_secs(8)..Duration::from_secs(12)).contains(&waited),
        "cut off after {waited:?}"
    );
    let metrics = get(addr, "/metrics").body;
    assert!(
        metrics.contains("snowflake_connections_closed_total{reason=\"header read timeout\"}"),
        "{metrics}"
    );
}
