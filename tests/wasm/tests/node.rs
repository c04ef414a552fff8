//! The runtime in WebAssembly: this crate built for `wasm32-unknown-unknown` (`no_std`),
//! run in Node's engine, gives the native answers for the reference vector, the tweet,
//! the edges of every field and every kind of error.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};
use snowflake_kit_wasm::{answer, compose, decode, parse, parse_field, put_input};

const TARGET: &str = "wasm32-unknown-unknown";
const EPOCH: u64 = 1_288_834_974_657;
const MAX_MS: u64 = 3_487_858_230_208;

/// One call of an export, as `run.mjs` reads it.
fn cases() -> Vec<Value> {
    let mut cases = Vec::new();
    let compose_case = |ts: u64, dc: u64, machine: u64, seq: u64| json!({"call": "compose", "args": [ts.to_string(), dc.to_string(), machine.to_string(), seq.to_string()]});
    // The reference vector, the tweet, then each field at its edges and one past them.
    cases.push(compose_case(1_288_834_975_657, 1, 1, 0));
    cases.push(compose_case(1_656_432_460_105, 11, 26, 0));
    for ts in [0, EPOCH - 1, EPOCH, EPOCH + 1, MAX_MS, MAX_MS + 1, u64::MAX] {
        cases.push(compose_case(ts, 0, 0, 0));
    }
    for value in [0, 31, 32, u64::MAX] {
        cases.push(compose_case(EPOCH, value, 0, 0));
        cases.push(compose_case(EPOCH, 0, value, 0));
    }
    for seq in [0, 4095, 4096, u64::MAX] {
        cases.push(compose_case(EPOCH, 0, 0, seq));
    }
    // Every field out of range at once: the first one named, as natively.
    cases.push(compose_case(u64::MAX, u64::MAX, u64::MAX, u64::MAX));

    for id in [
        0,
        1,
        4_194_439_168,
        1_541_815_603_606_036_480,
        i64::MAX as u64,
        1 << 63,
        u64::MAX,
    ] {
        cases.push(json!({"call": "decode", "args": [id.to_string()]}));
    }
    for text in [
        "4194439168",
        "0",
        "9223372036854775807",
        "9223372036854775808",
        "18446744073709551616",
        "",
        "+1",
        "-1",
        " 1",
        "1.5",
        "12a",
        "٣",
    ] {
        cases.push(json!({"call": "parse", "text": text}));
    }
    let fields = [
        (0, "2022-06-28T16:07:40.105Z"),
        (0, "2022-06-28T18:07:40.105+02:00"),
        (0, "1288834974657"),
        (0, "1288834974656"),
        (0, "3487858230208"),
        (0, "3487858230209"),
        (0, "2080-07-10T17:30:30.209Z"),
        (0, "2010-11-04T01:42:54.656Z"),
        (0, "2022-02-30T00:00:00Z"),
        (0, "2022-06-28T16:07:40.1051Z"),
        (0, "2022-06-28 16:07:40Z"),
        (0, "1969-12-31T23:59:59Z"),
        (0, ""),
        (0, "-1"),
        (1, "31"),
        (1, "32"),
        (1, "+3"),
        (1, "1e3"),
        (2, "0"),
        (2, "99999999999999999999"),
        (3, "4095"),
        (3, "4096"),
        (3, " "),
    ];
    for (field, text) in fields {
        cases.push(json!({"call": "parse_field", "field": field, "text": text}));
    }
    cases
}

/// The same call, run natively.
fn native(case: &Value) -> (i32, String) {
    let arg = |i: usize| case["args"][i].as_str().unwrap().parse::<u64>().unwrap();
    let text = || case["text"].as_str().unwrap();
    let len = match case["call"].as_str().unwrap() {
        "compose" => compose(arg(0), arg(1), arg(2), arg(3)),
        "decode" => decode(arg(0)),
        "parse" => parse(put_input(text())),
        "parse_field" => {
            let field = u32::try_from(case["field"].as_u64().unwrap()).unwrap();
            parse_field(field, put_input(text()))
        }
        other => panic!("unknown call {other}"),
    };
    let text = match answer(len) {
        Ok(text) | Err(text) => text,
    };
    (len, text)
}

#[test]
#[ignore = "needs node (Debian's nodejs) and the wasm32-unknown-unknown target: bash scripts/test.sh installs both"]
fn the_module_in_node_answers_as_the_native_runtime() {
    let module = build_module();
    let size = std::fs::metadata(&module).unwrap().len();
    println!("{} is {size} bytes", module.display());

    let cases = cases();
    let cases_file = module.with_extension("cases.json");
    std::fs::write(&cases_file, serde_json::to_vec(&cases).unwrap()).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/run.mjs");
    let output = Command::new(node())
        .arg(&script)
        .arg(&module)
        .arg(&cases_file)
        .output()
        .expect("node runs");
    assert!(
        output.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let answers: Vec<(i32, String)> = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(answers.len(), cases.len());

    let mut errors = 0;
    for (case, in_wasm) in cases.iter().zip(&answers) {
        assert_eq!(*in_wasm, native(case), "{case}");
        errors += usize::from(in_wasm.0 < 0);
    }
    // Both kinds of answer were compared: values and errors.
    assert!(
        errors >= 30 && errors < cases.len() - 20,
        "{errors} errors of {}",
        cases.len()
    );

    // Known answers, so that a module and a native side wrong together still fail.
    let answer_of = |i: usize| answers[i].1.as_str();
    assert_eq!(answer_of(0), "4194439168");
    assert_eq!(answer_of(1), "1541815603606036480");
    let decoded = |id: &str| {
        let i = cases
            .iter()
            .position(|c| c["call"] == "decode" && c["args"][0] == id)
            .unwrap();
        answers[i].clone()
    };
    assert_eq!(
        decoded("1541815603606036480").1,
        "1656432460105|11|26|0|2022-06-28T16:07:40.105Z|\
         0 00101010110010110100001000111110110001000 01011 11010 000000000000"
    );
    assert_eq!(
        decoded("4194439168").1,
        "1288834975657|1|1|0|2010-11-04T01:42:55.657Z|\
         0 00000000000000000000000000000001111101000 00001 00001 000000000000"
    );
    assert!(decoded(&(1u64 << 63).to_string()).0 < 0);
}

fn node() -> &'static str {
    for name in ["node", "nodejs"] {
        if Command::new(name)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
        {
            return name;
        }
    }
    panic!("needs node: `apt-get install nodejs` (bash scripts/test.sh installs it)");
}

/// Builds this crate for the target, in a target directory of its own (the outer cargo
/// holds the workspace's), and returns the module's path.
fn build_module() -> PathBuf {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let target_dir = workspace.join("target/wasm");
    let mut cargo = Command::new(env!("CARGO"));
    cargo
        .current_dir(&workspace)
        .args([
            "build",
            "--locked",
            "-p",
            "snowflake-kit-wasm",
            "--lib",
            "--profile",
            "wasm",
        ])
        .args(["--target", TARGET])
        .env("CARGO_TARGET_DIR", &target_dir);
    if !target_installed() {
        // Only how CI gets a target it cannot download: `core` built from the toolchain's
        // own source, which needs RUSTC_BOOTSTRAP on a stable compiler. Users add the target.
        assert!(
            sysroot().join("lib/rustlib/src/rust/library/core").is_dir(),
            "needs the {TARGET} target: `rustup target add {TARGET}`, or the `rust-src` \
             component to build `core` for it (bash scripts/targets.sh does either)"
        );
        cargo
            .args(["-Zbuild-std=core,panic_abort"])
            .env("RUSTC_BOOTSTRAP", "1");
    }
    let status = cargo.status().expect("cargo runs");
    assert!(status.success(), "the module did not build");
    target_dir.join(TARGET).join("wasm/snowflake_kit_wasm.wasm")
}

fn sysroot() -> PathBuf {
    let output = Command::new("rustc")
        .args(["--print", "sysroot"])
        .output()
        .expect("rustc runs");
    PathBuf::from(String::from_utf8(output.stdout).unwrap().trim())
}

fn target_installed() -> bool {
    sysroot()
        .join("lib/rustlib")
        .join(TARGET)
        .join("lib")
        .is_dir()
}
