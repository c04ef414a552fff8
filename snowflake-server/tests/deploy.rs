//! What operators deploy, each file checked against the server itself: the container
//! image (`deploy/container/`, built and run with Debian's podman), the Kubernetes
//! manifests (`deploy/kubernetes/`, against the Kubernetes schemas by kubernetes-validate,
//! offline) and the systemd unit (`deploy/systemd/`, by `systemd-analyze verify`). Each
//! names only variables the server's `--help` lists and paths its router answers.

mod support;

use std::collections::BTreeSet;
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use support::{Server, get, wait_until};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_owned()
}

fn read(path: &str) -> String {
    std::fs::read_to_string(repo().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

const MANIFEST: &str = "deploy/kubernetes/snowflake-server.yaml";
const POSTGRES_MANIFEST: &str = "deploy/kubernetes/snowflake-server-postgres.yaml";
const UNIT: &str = "deploy/systemd/snowflake-server.service";
const CONTAINERFILE: &str = "deploy/container/Containerfile";

fn help() -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_snowflake-server"))
        .arg("--help")
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

/// Every `SNOWFLAKE_...` name in `text`.
fn variables(text: &str) -> BTreeSet<String> {
    text.match_indices("SNOWFLAKE_")
        .map(|(at, _)| {
            let name: String = text[at..]
                .chars()
                .take_while(|c| c.is_ascii_uppercase() || *c == '_')
                .collect();
            name.trim_end_matches('_').to_owned()
        })
        .collect()
}

/// The value of the manifest's environment variable `name` (`- name: X` then
/// `value: Y`).
fn manifest_value(manifest: &str, name: &str) -> String {
    let mut lines = manifest.lines();
    lines
        .by_ref()
        .find(|line| line.trim() == format!("- name: {name}"))
        .unwrap_or_else(|| panic!("{name} is not in the manifest"));
    let value = lines.next().unwrap().trim();
    value
        .strip_prefix("value: ")
        .unwrap_or_else(|| panic!("{name}: {value}"))
        .trim_matches('"')
        .to_owned()
}

/// The number after `key:` on the first line that has it.
fn manifest_number(manifest: &str, key: &str) -> u64 {
    manifest
        .lines()
        .find_map(|line| line.trim().strip_prefix(&format!("{key}: ")))
        .unwrap_or_else(|| panic!("no {key}"))
        .parse()
        .unwrap()
}

/// The files name only what the server has: each variable is one `--help` shows, each
/// probe's path answers 200 on a server with an identity, the certificate files lie
/// under the Secret's mount, ports agree, and the grace period outlasts the drain.
#[test]
fn the_deployment_files_name_only_what_the_server_has() {
    let help = help();
    // Read from the environment by the server, not a flag of its own.
    let not_flags = ["SNOWFLAKE_ETCD_PASSWORD"];
    for file in [MANIFEST, POSTGRES_MANIFEST, UNIT, CONTAINERFILE] {
        let text = read(file);
        let names = variables(&text);
        assert!(!names.is_empty(), "{file}");
        for name in names {
            assert!(
                help.contains(&format!("[env: {name}")) || not_flags.contains(&name.as_str()),
                "{file}: {name} is not a variable of the server's:\n{help}"
            );
        }
    }

    let manifest = read(MANIFEST);
    let server = Server::start(&["--dc", "1", "--machine", "1"]);
    let paths: Vec<&str> = manifest
        .lines()
        .filter_map(|line| line.trim().strip_prefix("path: "))
        .collect();
    assert_eq!(paths, ["/healthz", "/readyz"]);
    for path in paths {
        assert_eq!(server.get(path).status, 200, "{path}");
    }

    // The certificates the flags name come from the Secret's volume.
    let mount = manifest
        .lines()
        .find_map(|line| line.trim().strip_prefix("mountPath: "))
        .expect("a mount");
    for name in [
        "SNOWFLAKE_ETCD_CA",
        "SNOWFLAKE_ETCD_CERT",
        "SNOWFLAKE_ETCD_KEY",
    ] {
        let path = manifest_value(&manifest, name);
        assert!(path.starts_with(&format!("{mount}/")), "{name}={path}");
    }
    assert!(manifest_value(&manifest, "SNOWFLAKE_ETCD").starts_with("https://"));
    assert_eq!(manifest_value(&manifest, "SNOWFLAKE_AUTO"), "true");
    assert!(
        manifest_value(&manifest, "SNOWFLAKE_DC")
            .parse::<u8>()
            .unwrap()
            <= 31
    );

    // The port the server listens on is the container's, the probes' and the image's.
    let port = manifest_value(&manifest, "SNOWFLAKE_LISTEN")
        .rsplit(':')
        .next()
        .unwrap()
        .parse::<u64>()
        .unwrap();
    assert_eq!(manifest_number(&manifest, "containerPort"), port);
    let containerfile = read(CONTAINERFILE);
    assert!(containerfile.contains(&format!("SNOWFLAKE_LISTEN=0.0.0.0:{port}")));
    assert!(containerfile.contains(&format!("EXPOSE {port}")));

    // SIGTERM: a 10 s drain, then up to max_clock_wait + 1 s (6 s) for a claim in
    // flight, then the release; the pod and the unit wait longer before SIGKILL.
    assert!(manifest_number(&manifest, "terminationGracePeriodSeconds") > 16);
    let unit = read(UNIT);
    let stop: u64 = unit
        .lines()
        .find_map(|line| line.strip_prefix("TimeoutStopSec="))
        .unwrap()
        .parse()
        .unwrap();
    assert!(stop > 16, "TimeoutStopSec={stop}");

    // Not root, in the image and in the pod.
    let user = containerfile
        .lines()
        .find_map(|line| line.strip_prefix("USER "))
        .expect("a USER");
    assert!(!user.starts_with("0:") && user != "0", "{user}");
    let uid = user.split(':').next().unwrap();
    assert!(
        read("deploy/container/etc/passwd").contains(&format!(":x:{uid}:")),
        "{uid} is not in the image's /etc/passwd"
    );
    assert_eq!(manifest_number(&manifest, "runAsUser").to_string(), uid);
}

/// The PostgreSQL twin: its CA and password file come from the Secret's volume, its URL has
/// no password, and the rest is the etcd manifest's, line for line.
#[test]
fn the_postgres_manifest_is_the_etcd_one_leasing_from_postgres() {
    let manifest = read(POSTGRES_MANIFEST);
    let mount = manifest
        .lines()
        .find_map(|line| line.trim().strip_prefix("mountPath: "))
        .expect("a mount");
    for name in ["SNOWFLAKE_POSTGRES_CA", "SNOWFLAKE_POSTGRES_PASSWORD_FILE"] {
        let path = manifest_value(&manifest, name);
        assert!(path.starts_with(&format!("{mount}/")), "{name}={path}");
    }
    let url = manifest_value(&manifest, "SNOWFLAKE_POSTGRES");
    let config = snowflake_lease::PgConfig::new(&url).unwrap();
    assert!(!config.has_password(), "{url}");
    assert!(!manifest.contains("SNOWFLAKE_ETCD"));
    // Beyond the comments, the store's variables and the Secret, the two are one.
    let body = |text: &str| -> Vec<String> {
        let mut lines = Vec::new();
        let mut skip_value = false;
        for line in text.lines().filter(|line| !line.starts_with('#')) {
            let name = line.trim().strip_prefix("- name: ").unwrap_or_default();
            if name.starts_with("SNOWFLAKE_ETCD") || name.starts_with("SNOWFLAKE_POSTGRES") {
                skip_value = true;
            } else if std::mem::take(&mut skip_value) && line.trim().starts_with("value: ") {
            } else {
                let line = line
                    .replace("snowflake-etcd-client", "SECRET")
                    .replace("snowflake-postgres", "SECRET")
                    .replace("etcd-client", "VOLUME")
                    .replace("name: postgres", "name: VOLUME")
                    .replace("/etc/snowflake/etcd", "/etc/snowflake/VOLUME")
                    .replace("/etc/snowflake/postgres", "/etc/snowflake/VOLUME");
                lines.push(line);
            }
        }
        lines
    };
    assert_eq!(body(&manifest), body(&read(MANIFEST)));
}

/// The manifests pass the Kubernetes schemas, strictly (no field the schema does not
/// have); a misspelt field fails them, so that this check can fail.
#[test]
#[ignore = "needs kubernetes-validate: bash scripts/test.sh installs it (pip install kubernetes-validate)"]
fn the_kubernetes_manifests_pass_the_schemas() {
    let validate = |path: &Path| -> Output {
        Command::new("kubernetes-validate")
            .args(["--strict", "--quiet"])
            .arg(path)
            .output()
            .unwrap_or_else(|e| {
                panic!(
                    "kubernetes-validate: {e}; `pip install kubernetes-validate`, or run \
                     `bash scripts/test.sh`, which installs it"
                )
            })
    };
    let manifests: Vec<PathBuf> = std::fs::read_dir(repo().join("deploy/kubernetes"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "yaml"))
        .collect();
    assert!(!manifests.is_empty());
    for path in &manifests {
        let out = validate(path);
        assert!(
            out.status.success(),
            "{}: {}{}",
            path.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let broken = tempfile::Builder::new().suffix(".yaml").tempfile().unwrap();
    std::fs::write(
        &broken,
        read(MANIFEST).replacen("  replicas: 3", "  replica: 3", 1),
    )
    .unwrap();
    let out = validate(broken.path());
    assert!(!out.status.success(), "a misspelt field passed");
}

/// The unit verifies without a warning (with the binary this build made in its
/// `ExecStart`); a misspelt setting makes one, so that this check can fail.
#[test]
#[ignore = "needs systemd-analyze: apt-get install systemd (bash scripts/test.sh installs it)"]
fn the_systemd_unit_verifies() {
    let verify = |unit: &str| -> Output {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("snowflake-server.service");
        std::fs::write(&path, unit).unwrap();
        Command::new("systemd-analyze")
            .arg("verify")
            .arg(&path)
            .output()
            .unwrap_or_else(|e| panic!("systemd-analyze: {e}; apt-get install systemd"))
    };
    let unit = read(UNIT).replace(
        "ExecStart=/usr/local/bin/snowflake-server",
        &format!("ExecStart={}", env!("CARGO_BIN_EXE_snowflake-server")),
    );
    let out = verify(&unit);
    assert!(
        out.status.success() && out.stderr.is_empty() && out.stdout.is_empty(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let out = verify(&unit.replacen("NoNewPrivileges=yes", "NoNewPrivilege=yes", 1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("Unknown key"),
        "a misspelt setting passed"
    );
}

/// podman rm and rmi when the test ends, however it ends.
struct Podman {
    container: String,
    image: String,
}

impl Drop for Podman {
    fn drop(&mut self) {
        let _ = Command::new("podman")
            .args(["rm", "-f", "-t", "0", &self.container])
            .output();
        let _ = Command::new("podman")
            .args(["rmi", "-f", &self.image])
            .output();
    }
}

fn podman(args: &[&str]) -> Output {
    let out = Command::new("podman")
        .args(args)
        .output()
        .unwrap_or_else(|e| {
            panic!("podman: {e}; apt-get install podman runc (bash scripts/test.sh installs them)")
        });
    assert!(
        out.status.success(),
        "podman {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The image: built from the workspace (the static release binary, `FROM scratch`), run
/// by podman with runc, as a user who is not root; from outside the container,
/// `/healthz`, `/readyz` and `/v1/id` answer, and its log is JSON lines.
#[test]
#[ignore = "needs podman and runc: bash scripts/test.sh installs them"]
fn the_container_image_serves_from_outside() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    // The binary the Containerfile copies, from its place under target/.
    let built = Command::new(cargo)
        .current_dir(repo())
        // In the profile made for this test's build time (the workspace's Cargo.toml says
        // why); the Containerfile copies it when told, and a release binary by default.
        .args([
            "build",
            "--profile",
            "image-test",
            "--locked",
            "-p",
            "snowflake-server",
            "--target",
            "x86_64-unknown-linux-gnu",
        ])
        // The environment of a person's shell, not the test's (whose CARGO_* variables
        // would make build scripts run again): the build a person makes is this one.
        .env_clear()
        .envs(
            [
                "PATH",
                "HOME",
                "CARGO_HOME",
                "RUSTUP_HOME",
                "RUSTUP_TOOLCHAIN",
            ]
            .iter()
            .filter_map(|name| std::env::var_os(name).map(|value| (name, value))),
        )
        .env("RUSTFLAGS", "-C target-feature=+crt-static")
        .status()
        .unwrap();
    assert!(built.success(), "the static build");

    let id = std::process::id();
    let guard = Podman {
        container: format!("snowflake-server-test-{id}"),
        image: format!("localhost/snowflake-server:test-{id}"),
    };
    let root = repo();
    podman(&[
        "build",
        "--pull=never",
        "--build-arg",
        "PROFILE=image-test",
        "-f",
        CONTAINERFILE,
        "-t",
        &guard.image,
        root.to_str().unwrap(),
    ]);
    let user = podman(&[
        "image",
        "inspect",
        "--format",
        "{{.Config.User}}",
        &guard.image,
    ]);
    assert_eq!(String::from_utf8_lossy(&user.stdout).trim(), "65532:65532");

    let port = snowflake_test_support::free_port();
    // runc, with limits it can set here (crun cannot set them on our machines).
    podman(&[
        "--runtime",
        "runc",
        "run",
        "-d",
        "--name",
        &guard.container,
        "--ulimit",
        "nofile=1024:1024",
        "--ulimit",
        "nproc=1024:1024",
        "--read-only",
        "--cap-drop",
        "ALL",
        "-p",
        &format!("127.0.0.1:{port}:8080"),
        &guard.image,
        "--dc",
        "1",
        "--machine",
        "2",
    ]);
    let addr = format!("127.0.0.1:{port}");
    let answers = || {
        let up = TcpStream::connect(&addr).is_ok() && get(&addr, "/healthz").status == 200;
        up.then_some(())
    };
    wait_until(Duration::from_secs(30), answers, || {
        let logs = podman(&["logs", &guard.container]).stderr;
        format!("no answer in 30 s: {}", String::from_utf8_lossy(&logs))
    });
    assert_eq!(get(&addr, "/readyz").status, 200);
    let answer = get(&addr, "/v1/id");
    assert_eq!(answer.status, 200, "{}", answer.body);
    let id: snowflake_kit::Snowflake = answer.json()["id"].as_str().unwrap().parse().unwrap();
    assert_eq!((id.datacenter(), id.machine()), (1, 2));

    let logs = podman(&["logs", &guard.container]);
    let text = String::from_utf8_lossy(&logs.stderr);
    let first: serde_json::Value =
        serde_json::from_str(text.lines().next().expect("a start-up event")).unwrap();
    assert_eq!(first["message"], "listening", "{text}");
    assert_eq!(first["address"], "0.0.0.0:8080", "{text}");
}
