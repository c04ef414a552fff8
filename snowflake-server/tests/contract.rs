//! The HTTP contract, written down (`GET /v1/openapi.json`) and tested by a client we did
//! not write: schemathesis (from PyPI), on every operation, with all of its checks.

mod support;

use std::process::Command;

use support::Server;

/// The description is OpenAPI 3, and names every route the server answers.
#[test]
fn the_description_names_every_route() {
    let server = Server::start(&["--dc", "1", "--machine", "1"]);
    let answer = server.get("/v1/openapi.json");
    assert_eq!(answer.status, 200);
    assert_eq!(answer.header("content-type"), Some("application/json"));
    let doc = answer.json();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."), "{doc}");
    let paths: Vec<&str> = doc["paths"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    for route in [
        "/",
        "/v1/id",
        "/v1/ids",
        "/v1/compose",
        "/v1/decode/{id}",
        "/v1/identity",
        "/healthz",
        "/readyz",
        "/metrics",
        "/v1/openapi.json",
    ] {
        assert!(
            paths.contains(&route),
            "{route} is not described: {paths:?}"
        );
    }
    // The ranges are the runtime's.
    let count = &doc["paths"]["/v1/ids"]["get"]["parameters"][0]["schema"];
    assert_eq!(
        (count["minimum"].as_u64(), count["maximum"].as_u64()),
        (Some(1), Some(4096))
    );
    // `ts` and `seq` in compose: the format's range, or blank, as the form reads them.
    let compose = &doc["paths"]["/v1/compose"]["get"]["parameters"];
    for (i, key, min, max) in [
        (
            0,
            "ts",
            snowflake_kit::TWITTER_EPOCH_MS,
            snowflake_kit::MAX_TIMESTAMP_MS,
        ),
        (3, "seq", 0, snowflake_kit::MAX_SEQUENCE.into()),
    ] {
        let param = &compose[i];
        assert_eq!(param["name"], key);
        let [number, blank] = [&param["schema"]["oneOf"][0], &param["schema"]["oneOf"][1]];
        assert_eq!(
            (number["minimum"].as_u64(), number["maximum"].as_u64()),
            (Some(min), Some(max)),
            "{param}"
        );
        assert_eq!(
            (blank["type"].as_str(), blank["maxLength"].as_u64()),
            (Some("string"), Some(0))
        );
    }
    let body = &doc["components"]["schemas"]["Body"];
    assert!(body["properties"]["error"].is_object(), "{body}");
}

/// schemathesis, every operation, every check: no 5xx, every answer as described.
#[test]
fn schemathesis_finds_nothing() {
    if Command::new("st").arg("--version").output().is_err() {
        let message = "schemathesis is not installed: `pip install schemathesis`, or run the \
                       README's test command, which installs it";
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{message}");
        eprintln!("skipped schemathesis_finds_nothing: {message}");
        return;
    }
    // With an identity: no 5xx at all. Without one, the ID endpoints answer the 503 the
    // description gives them, so there every check but "no server error" runs.
    for (args, exclude) in [
        (&["--dc", "1", "--machine", "1"][..], None),
        (&[][..], Some("not_a_server_error")),
    ] {
        let server = Server::start(args);
        let url = format!("http://{}/v1/openapi.json", server.addr);
        let mut st = Command::new("st");
        // Its cache of crashes goes in its working directory: not the source tree.
        st.current_dir(std::env::temp_dir())
            .args(["run", &url, "--checks", "all", "--max-examples", "100"])
            .args(["--seed", "1", "--no-color"]);
        if let Some(check) = exclude {
            st.args(["--exclude-checks", check]);
        }
        let out = st.output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let summary = stdout
            .lines()
            .find(|line| line.contains(" generated, "))
            .unwrap_or("no summary")
            .trim();
        println!("schemathesis, server {args:?}: {summary}");
        assert!(
            out.status.success(),
            "{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            summary.ends_with(" passed") && !summary.contains("failed"),
            "{summary}"
        );
    }
}
