//! Certificates for a service a test starts behind TLS, made with `openssl`.

use std::path::Path;
use std::process::Command;

/// A CA, a server certificate for 127.0.0.1 and the test's hosts (not for
/// 127.0.0.2, so that a test can ask for a name it does not cover), a client
/// certificate, and a second CA that signed none of them.
pub(crate) fn make_certificates(dir: &Path, hosts: &[String]) {
    let sans = std::iter::once("127.0.0.1")
        .chain(hosts.iter().map(String::as_str))
        .map(|host| format!("IP:{host}"))
        .collect::<Vec<_>>()
        .join(",");
    for ca in ["ca", "other-ca"] {
        openssl(
            dir,
            &[
                "req",
                "-x509",
                "-newkey",
                "ec",
                "-pkeyopt",
                "ec_paramgen_curve:P-256",
                "-nodes",
                "-days",
                "2",
                "-subj",
                &format!("/CN=snowflake-kit test {ca}"),
                "-keyout",
                &format!("{ca}-key.pem"),
                "-out",
                &format!("{ca}.pem"),
            ],
        );
    }
    for (name, extensions) in [
        (
            "server",
            format!("subjectAltName={sans}\nextendedKeyUsage=serverAuth"),
        ),
        ("client", "extendedKeyUsage=clientAuth".to_owned()),
    ] {
        std::fs::write(dir.join(format!("{name}.ext")), extensions).expect("write");
        openssl(
            dir,
            &[
                "req",
                "-newkey",
                "ec",
                "-pkeyopt",
                "ec_paramgen_curve:P-256",
                "-nodes",
                "-subj",
                &format!("/CN={name}"),
                "-keyout",
                &format!("{name}-key.pem"),
                "-out",
                &format!("{name}.csr"),
            ],
        );
        openssl(
            dir,
            &[
                "x509",
                "-req",
                "-in",
                &format!("{name}.csr"),
                "-CA",
                "ca.pem",
                "-CAkey",
                "ca-key.pem",
                "-CAcreateserial",
                "-days",
                "2",
                "-extfile",
                &format!("{name}.ext"),
                "-out",
                &format!("{name}.pem"),
            ],
        );
    }
}

/// Runs `openssl` in `dir`.
fn openssl(dir: &Path, args: &[&str]) {
    let output = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("openssl runs (`apt-get install openssl` on Debian, or `bash scripts/test.sh`)");
    assert!(
        output.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}
