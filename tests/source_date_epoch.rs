//! An omitted `ts` follows `SOURCE_DATE_EPOCH`: changing the variable rebuilds the
//! calling crate, so the old time does not stay until a file changes. Builds a
//! small crate twice with Cargo, as a user's build would.
#![cfg(feature = "macros")]

use std::path::Path;
use std::process::Command;

#[test]
fn changing_source_date_epoch_rebuilds_the_caller() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("target/tests/source-date-epoch");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"sde-probe\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n\
             [dependencies]\nsnowflake-kit = {{ path = {:?} }}\n\n[workspace]\n",
            root.display()
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("src/main.rs"),
        "fn main() {\n    let id = snowflake_kit::snowflake!(dc = 1, machine = 1);\n    \
         println!(\"{}\", id.snowflake().timestamp_ms());\n}\n",
    )
    .unwrap();
    // The workspace's versions, so that the probe builds what the tests build.
    if root.join("Cargo.lock").exists() {
        std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    }
    let run = |seconds: &str| {
        let out = Command::new(env!("CARGO"))
            .args(["run", "--quiet", "--manifest-path"])
            .arg(dir.join("Cargo.toml"))
            .env("SOURCE_DATE_EPOCH", seconds)
            .env("CARGO_TARGET_DIR", dir.join("target"))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap().trim().to_owned()
    };
    assert_eq!(run("1656432460"), "1656432460000");
    assert_eq!(run("1700000000"), "1700000000000");
    assert_eq!(run("1656432460"), "1656432460000");
}
