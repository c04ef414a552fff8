//! The API's contract in this process: the library's router, each request through tower's
//! `oneshot` ([`App`]), no socket. What needs one is elsewhere: the limits on a request's
//! head and what else crosses hyper (`sockets.rs`); the binary's flags, exit statuses and
//! signals (`process.rs`); the page (`page.rs`, `browser.rs`).

mod support;

use std::sync::Arc;

use support::{App, eight_clients};

const REFERENCE_BINARY: &str =
    "0 00000000000000000000000000000001111101000 00001 00001 000000000000";

#[test]
fn compose_and_decode_known_answers() {
    let app = App::without_identity();
    let answer = app.get("/v1/compose?ts=1288834975657&dc=1&machine=1&seq=0");
    assert_eq!(answer.status, 200);
    assert_eq!(
        answer.json(),
        serde_json::json!({
            "id": "4194439168", "base32": "0000003X04400", "timestamp_ms": 1288834975657_u64,
            "time": "2010-11-04T01:42:55.657Z", "near_epoch": true, "datacenter": 1, "machine": 1, "sequence": 0, "binary": REFERENCE_BINARY,
            "segments": [
                {"name": "sign", "key": "sign", "bits": "0", "value": 0},
                {"name": "timestamp", "key": "ts", "bits": "00000000000000000000000000000001111101000", "value": 1000},
                {"name": "datacenter", "key": "dc", "bits": "00001", "value": 1},
                {"name": "machine", "key": "machine", "bits": "00001", "value": 1},
                {"name": "sequence", "key": "seq", "bits": "000000000000", "value": 0}
            ]
        })
    );
    let tweet = app.get("/v1/decode/1541815603606036480").json();
    assert_eq!(tweet, app.get("/v1/decode/user_1asd13xh1f8oo").json());
    let fields = ["time", "datacenter", "machine", "base32", "near_epoch"].map(|f| &tweet[f]);
    let expected = serde_json::json!(["2022-06-28T16:07:40.105Z", 11, 26, "1ASD13XH1F800", false]);
    assert_eq!(serde_json::json!(fields), expected);
    let dated = app.get("/v1/compose?ts=2022-06-28T16:07:40.105Z&dc=11&machine=26");
    assert_eq!(dated.json()["id"], "1541815603606036480");
    // Whole seconds still have three fraction digits.
    let whole = app.get("/v1/compose?ts=1656432460000&dc=0&machine=0");
    assert_eq!(whole.json()["time"], "2022-06-28T16:07:40.000Z");
    // Blank timestamp: now.
    let now = app.get("/v1/compose?ts=&dc=1&machine=1").json();
    assert!(now["timestamp_ms"].as_u64().unwrap() > 1_700_000_000_000);
    // The known answers every front end shares, and real tweets from before Snowflake.
    let rows = include_str!("../../tests/vectors/base32.txt").lines();
    for (id, base32) in rows.skip(3).filter_map(|line| line.split_once(' ')) {
        let answer = app.get(&format!("/v1/decode/{}", &base32[..13])).json();
        assert_eq!([&answer["id"], &answer["base32"]], [id, &base32[..13]]);
    }
    let tweets = include_str!("../../tests/vectors/pre-snowflake-tweets.txt").lines();
    for id in tweets.skip(3).filter_map(|line| line.split(' ').next()) {
        assert_eq!(
            app.get(&format!("/v1/decode/{id}")).json()["near_epoch"],
            true
        );
    }
}

#[test]
fn bad_input_is_a_400_naming_the_field() {
    let app = App::without_identity();
    for (path, field, message) in [
        (
            "/v1/compose?ts=1288834975657&dc=32&machine=1",
            "dc",
            "datacenter 32 is out of range 0..=31 (5 bits)",
        ),
        (
            "/v1/compose?ts=1288834975657&dc=1&machine=32",
            "machine",
            "machine 32 is out of range 0..=31 (5 bits)",
        ),
        (
            "/v1/compose?ts=1288834975657&dc=1&machine=1&seq=4096",
            "seq",
            "sequence 4096 is out of range 0..=4095 (12 bits)",
        ),
        (
            "/v1/compose?ts=1&dc=1&machine=1",
            "ts",
            "timestamp 1 ms is out of range 1288834974657..=3487858230208 ms",
        ),
        (
            "/v1/compose?ts=2022-06-28716:07:40Z&dc=1&machine=1",
            "ts",
            "expected `T` between the date and the time at byte 10",
        ),
        (
            "/v1/compose?dc=-1&machine=1",
            "dc",
            "datacenter \"-1\" is negative; expected a whole number in 0..=31",
        ),
        (
            "/v1/compose?dc=1",
            "machine",
            "machine is empty; expected a whole number in 0..=31",
        ),
        ("/v1/decode/abc", "id", "invalid character `a` at byte 0"),
        (
            "/v1/decode/user_000000000000U",
            "id",
            "`U` at byte 17: base32",
        ),
        (
            "/v1/decode/8000000000000",
            "id",
            "first digit `8` too large",
        ),
        ("/v1/decode/18446744073709551615", "id", "number too large"),
        ("/v1/decode/9223372036854775808", "id", "number too large"),
        (
            "/v1/ids?count=0",
            "count",
            "count 0 is out of range 1..=4096",
        ),
        (
            "/v1/ids?count=4097",
            "count",
            "count 4097 is out of range 1..=4096",
        ),
        ("/v1/ids?count=x", "count", "not a whole number"),
        ("/v1/decode/%FF%FE", "id", "not valid UTF-8"),
    ] {
        let answer = app.get(path);
        assert_eq!(answer.status, 400, "{path}: {}", answer.body);
        let error = &answer.json()["error"];
        assert_eq!(error["field"], field, "{path}");
        assert!(
            error["message"].as_str().unwrap().contains(message),
            "{path}: {error}"
        );
    }
    // Every bad field at once.
    let errors = app.get("/v1/compose?ts=x&dc=32&machine=40&seq=5000").json();
    let fields: Vec<&str> = errors["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["ts", "dc", "machine", "seq"]);
}

#[test]
fn without_an_identity_ids_are_503_with_retry_after() {
    let app = App::without_identity();
    for path in ["/v1/id", "/v1/ids?count=3", "/readyz"] {
        let answer = app.get(path);
        assert_eq!(answer.status, 503, "{path}");
        assert_eq!(answer.header("retry-after"), Some("1"));
        assert!(
            answer.json()["error"]["message"]
                .as_str()
                .unwrap()
                .contains("--dc N --machine N")
        );
    }
    assert_eq!(app.get("/healthz").status, 200);
    assert_eq!(app.get("/v1/identity").json()["kind"], "none");
    let metrics = app.get("/metrics").body;
    assert!(
        metrics.lines().any(|l| l == "snowflake_refusals_total 2"),
        "{metrics}"
    );
}

#[test]
fn ids_are_distinct_increasing_strings() {
    let app = App::unleased(3, 4);
    let one = app.get("/v1/id").json();
    let id: u64 = one["id"].as_str().unwrap().parse().unwrap();
    let batch = app.get("/v1/ids?count=4096").json();
    let ids: Vec<u64> = batch["ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().parse().unwrap())
        .collect();
    assert_eq!(ids.len(), 4096);
    assert!(ids.windows(2).all(|w| w[0] < w[1]));
    assert!(ids[0] > id);
    let decoded = snowflake_kit::Snowflake::try_from_u64(ids[0]).unwrap();
    assert_eq!((decoded.datacenter(), decoded.machine()), (3, 4));
    assert_eq!(
        app.get("/v1/ids").json()["ids"].as_array().unwrap().len(),
        1
    );
    let identity = app.get("/v1/identity").json();
    assert_eq!(
        identity,
        serde_json::json!({"kind": "unleased", "datacenter": 3, "machine": 4})
    );
    // The same word in the metrics: an identity nobody leases.
    let metrics = app.get("/metrics").body;
    assert!(
        metrics
            .contains(r#"snowflake_identity_info{datacenter="3",kind="unleased",machine="4"} 1"#),
        "{metrics}"
    );
    assert_eq!(app.get("/readyz").status, 200);
}

/// `form` asks for decimal, base32 or both (left out: both, as before it was asked), each
/// the same IDs; anything else is a 400 naming it.
#[test]
fn the_answers_write_the_form_asked_for() {
    let app = App::unleased(3, 4);
    let keys = |answer: &serde_json::Value| {
        let mut keys: Vec<String> = answer.as_object().unwrap().keys().cloned().collect();
        keys.sort();
        keys
    };
    for (query, expected) in [
        ("", &["base32", "id"][..]),
        ("?form=both", &["base32", "id"]),
        ("?form=decimal", &["id"]),
        ("?form=base32", &["base32"]),
    ] {
        let answer = app.get(&format!("/v1/id{query}")).json();
        assert_eq!(keys(&answer), expected, "/v1/id{query}");
    }
    let read = |text: &serde_json::Value| {
        snowflake_kit::Snowflake::read_decimal_or_base32(text.as_str().unwrap()).unwrap()
    };
    let both = app.get("/v1/ids?count=3").json();
    let [decimal, base32] = [&both["ids"], &both["base32"]].map(|list| {
        list.as_array()
            .unwrap()
            .iter()
            .map(read)
            .collect::<Vec<_>>()
    });
    assert_eq!(decimal.len(), 3);
    assert_eq!(decimal, base32, "the same IDs in both forms");
    for (form, expected) in [
        ("decimal", &["ids"][..]),
        ("base32", &["base32"]),
        ("both", &["base32", "ids"]),
    ] {
        let batch = app.get(&format!("/v1/ids?count=5&form={form}")).json();
        assert_eq!(keys(&batch), expected, "form={form}");
        for list in expected {
            let texts = batch[list].as_array().unwrap();
            assert_eq!(texts.len(), 5);
            let ids: Vec<_> = texts.iter().map(read).collect();
            assert!(ids.windows(2).all(|w| w[0] < w[1]), "{list}: {ids:?}");
            assert_eq!((ids[0].datacenter(), ids[0].machine()), (3, 4));
        }
    }
    for path in [
        "/v1/id?form=xml",
        "/v1/ids?count=2&form=Base32",
        "/v1/ids?form=",
    ] {
        let answer = app.get(path);
        assert_eq!(answer.status, 400, "{path}");
        let error = &answer.json()["error"];
        assert_eq!(error["field"], "form", "{path}");
        assert!(
            error["message"]
                .as_str()
                .unwrap()
                .ends_with("is not one of decimal, base32 and both (left out: both)"),
            "{path}: {error}"
        );
    }
    let repeated = app.get("/v1/id?form=decimal&form=base32");
    assert_eq!(repeated.status, 400);
    assert_eq!(repeated.json()["error"]["field"], "form");
}

#[test]
fn many_concurrent_clients_never_see_a_duplicate() {
    let app = Arc::new(App::unleased(1, 1));
    let ids = eight_clients(move |path| app.fetch_ids(path));
    // Each client: ten batches of 100 and 90 single IDs, every one answered.
    assert_eq!(ids, 8 * (10 * 100 + 90));
}

#[test]
fn unknown_paths_are_404_and_metrics_count_them() {
    let app = App::unleased(1, 1);
    let answer = app.get("/nope");
    assert_eq!(answer.status, 404);
    assert!(answer.json()["error"]["message"].is_string());
    app.get("/v1/id");
    app.get("/v1/ids?count=10");
    app.get("/v1/compose?dc=99&machine=1");
    let metrics = app.get("/metrics");
    assert_eq!(metrics.status, 200);
    for line in [
        "snowflake_ids_issued_total 11",
        "snowflake_http_requests_total{endpoint=\"/v1/id\",status=\"200\"} 1",
        "snowflake_http_requests_total{endpoint=\"/v1/compose\",status=\"400\"} 1",
        "snowflake_http_requests_total{endpoint=\"unmatched\",status=\"404\"} 1",
        "snowflake_lease_losses_total 0",
        "snowflake_refusals_total 0",
    ] {
        assert!(
            metrics.body.lines().any(|l| l == line),
            "{line} in\n{}",
            metrics.body
        );
    }
}

#[test]
fn other_methods_are_405_and_head_issues_nothing() {
    let app = App::unleased(1, 1);
    for (method, path) in [
        ("POST", "/v1/id"),
        ("DELETE", "/"),
        ("PUT", "/v1/ids"),
        ("HEAD", "/v1/ids?count=4096"),
        ("HEAD", "/v1/id"),
    ] {
        let answer = app.request(method, path);
        assert_eq!(answer.status, 405, "{method} {path}");
        // What is allowed there, exactly: a HEAD of an ID endpoint is not.
        let allow = if path == "/" { "GET, HEAD" } else { "GET" };
        assert_eq!(answer.header("allow"), Some(allow), "{method} {path}");
        if method != "HEAD" {
            assert!(
                answer.json()["error"]["message"].is_string(),
                "{method} {path}"
            );
        }
    }
    let metrics = app.get("/metrics").body;
    assert!(
        metrics.lines().any(|l| l == "snowflake_ids_issued_total 0"),
        "{metrics}"
    );
    let answer = app.get("/v1/id");
    assert_eq!(answer.header("cache-control"), Some("no-store"));
    assert_eq!(
        app.get("/v1/ids?count=2").header("cache-control"),
        Some("no-store")
    );
    // The counter that stood at 0 counts: the GETs' three IDs.
    let metrics = app.get("/metrics").body;
    assert!(
        metrics.lines().any(|l| l == "snowflake_ids_issued_total 3"),
        "{metrics}"
    );
}

/// A repeated parameter is a 400 naming it, whichever of its values comes first.
#[test]
fn a_repeated_parameter_is_a_400_naming_it() {
    let app = App::unleased(1, 1);
    for (path, field, times) in [
        ("/v1/ids?count=4097&count=2", "count", 2),
        ("/v1/ids?count=2&count=4097", "count", 2),
        ("/v1/compose?dc=1&dc=2&machine=1", "dc", 2),
        ("/v1/compose?dc=1&machine=1&seq=1&seq=2&seq=3", "seq", 3),
    ] {
        let answer = app.get(path);
        assert_eq!(answer.status, 400, "{path}");
        let error = &answer.json()["error"];
        assert_eq!(error["field"], field, "{path}");
        assert_eq!(
            error["message"],
            format!("{field} is given {times} times; give it once"),
            "{path}"
        );
    }
    assert_eq!(app.get("/v1/ids?count=2").status, 200);
}

#[test]
fn odd_requests_never_get_a_500() {
    let app = App::unleased(1, 1);
    for path in [
        "/v1/decode/",
        "/v1/decode/%FF%FE",
        "/v1/decode/1%202",
        "/v1/compose?ts=%E2%80%8B&dc=1&machine=1",
        "/v1/compose?dc=1&dc=2&machine=1",
        "/v1/ids?count=99999999999999999999999",
        "/?ts=%3Cscript%3E&dc=1&machine=1",
        "/?id=%3Cb%3E",
        "/?dc=%22%3E%3Cb%3E&machine=1",
        "/v1/id/extra",
    ] {
        let answer = app.get(path);
        assert!(
            answer.status < 500,
            "{path}: {} {}",
            answer.status,
            answer.body
        );
        // The page's own script, and nothing the request brought.
        assert!(
            answer.body.matches("<script>").count() <= 1,
            "{path} echoed markup"
        );
        assert!(!answer.body.contains("<b>"), "{path} echoed markup");
        // What each did answer: the page, whatever its fields say, or an error of the API.
        if path.starts_with("/?") {
            assert_eq!(answer.status, 200, "{path}");
            assert_eq!(answer.body.matches("<script>").count(), 1, "{path}");
        } else {
            assert!(
                (400..500).contains(&answer.status),
                "{path}: {}",
                answer.status
            );
            assert!(answer.json()["error"]["message"].is_string(), "{path}");
        }
    }
}
