//! A real PostgreSQL on loopback: its own `initdb` data
//! directory, a free port, run as the unprivileged `postgres` user when we are root
//! (PostgreSQL refuses to run as root), waited for, stopped when dropped.

use std::os::unix::fs::MetadataExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::free_port;

/// A PostgreSQL server started by a test. Its superuser `postgres` is trusted on
/// loopback; the user `ids` (password [`Postgres::PASSWORD`]) must give its password.
///
/// ```no_run
/// use snowflake_test_support::Postgres;
///
/// let pg = Postgres::start();
/// println!("PostgreSQL at {}", pg.url());
/// let with_tls = Postgres::start_with(&[], true);
/// println!("its CA in {}", with_tls.ca().display());
/// ```
#[derive(Debug)]
pub struct Postgres {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
    /// The uid and gid of `postgres`, when we are root.
    user: Option<(u32, u32)>,
    hosts: Vec<String>,
    tls: bool,
    /// libfaketime's timestamp file, when the server's wall clock is faked.
    faked: Option<PathBuf>,
    /// Whether each process reads that file at most once a second rather than at every
    /// reading of the clock.
    cached: bool,
}

impl Postgres {
    /// The password of the user `ids`.
    pub const PASSWORD: &str = "ids-test-password";

    /// Starts a server on 127.0.0.1, without TLS.
    ///
    /// A test that needs it is marked `#[ignore = "needs PostgreSQL: ..."]` and run by the
    /// test command with `--include-ignored`; run, it fails without PostgreSQL.
    ///
    /// # Panics
    ///
    /// When PostgreSQL is not installed, saying what to install, or does not start.
    pub fn start() -> Postgres {
        Postgres::start_with(&[], false)
    }

    /// Starts a server that listens on `hosts` too (a test's own hosts), and with `tls`
    /// demands TLS, its certificate signed by [`ca`](Postgres::ca) for 127.0.0.1 and the
    /// hosts.
    ///
    /// # Panics
    ///
    /// As [`Postgres::start`].
    pub fn start_with(hosts: &[&str], tls: bool) -> Postgres {
        let bin = binaries().expect(
            "PostgreSQL is not installed (no initdb and pg_ctl on PATH or in \
             /usr/lib/postgresql/*/bin): `apt-get install postgresql` (Debian, Ubuntu), or run \
             `bash scripts/test.sh`, which installs it",
        );
        let port = free_port();
        let dir =
            std::env::temp_dir().join(format!("snowflake-lease-pg-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        // Made by us, so its owner is who we are.
        let root = std::fs::metadata(&dir).expect("its metadata").uid() == 0;
        let user = root.then(postgres_user);
        let pg = Postgres {
            bin,
            dir,
            port,
            user,
            hosts: hosts.iter().map(|&host| host.to_owned()).collect(),
            tls,
            faked: None,
            cached: false,
        };
        if tls {
            crate::certificates::make_certificates(&pg.dir, &pg.hosts);
        }
        pg.give_to_postgres(&pg.dir);
        pg.run(
            "initdb",
            &[
                "-D",
                "data",
                "-U",
                "postgres",
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
            ],
        );
        // `ids` gives its password; with TLS, nobody connects without it.
        let plain = if tls {
            "hostnossl all all all reject\n"
        } else {
            ""
        };
        pg.write(
            "data/pg_hba.conf",
            &format!(
                "local all all trust\n{plain}host all ids all scram-sha-256\nhost all all all trust\n"
            ),
        );
        pg.start_again();
        pg.psql(&format!(
            "CREATE ROLE ids LOGIN PASSWORD '{}'; GRANT CREATE ON DATABASE postgres TO ids;",
            Postgres::PASSWORD
        ));
        pg
    }

    /// Starts a server on 127.0.0.1 whose wall clock is libfaketime's, moved by
    /// [`move_clock`](Postgres::move_clock) under the running server (its monotonic clock
    /// left alone), and kept across [`stop`](Postgres::stop) and
    /// [`start_again`](Postgres::start_again).
    ///
    /// # Panics
    ///
    /// As [`Postgres::start`], and when libfaketime is not installed, saying what to install.
    pub fn start_faked() -> Postgres {
        let mut pg = Postgres::start();
        pg.stop_cleanly();
        let file = pg.dir.join("faketime");
        pg.faked = Some(file);
        pg.move_clock(0);
        pg.start_again();
        pg
    }

    /// As [`start_faked`](Postgres::start_faked), but each process of the server reads the
    /// faked clock's file at most once a second (libfaketime counts whole seconds, so a step
    /// reaches a process within two seconds: after more than one second, at times), so
    /// that no reading of the clock opens a file inside a signal handler while the process
    /// is opening it: with a file read at every reading, a backend whose timeout signal
    /// (`statement_timeout`, `deadlock_timeout`) lands in that read can deadlock.
    ///
    /// # Panics
    ///
    /// As [`Postgres::start_faked`].
    pub fn start_faked_cached() -> Postgres {
        let mut pg = Postgres::start();
        pg.stop_cleanly();
        pg.faked = Some(pg.dir.join("faketime"));
        pg.cached = true;
        pg.move_clock(0);
        pg.start_again();
        pg
    }

    /// Sets the faked wall clock `ms` from the real one (behind if negative), read by the
    /// server at its next reading of the time.
    ///
    /// # Panics
    ///
    /// When the server's clock is not faked.
    #[expect(
        clippy::cast_precision_loss,
        reason = "a test's offsets are far below 2^53 ms"
    )]
    pub fn move_clock(&self, ms: i64) {
        self.fake_clock(&format!("{:+.3}", ms as f64 / 1000.0));
    }

    /// Stops the faked wall clock at `at` (`2026-12-05 10:00:00`, UTC): every reading the
    /// same, until the clock is moved.
    ///
    /// # Panics
    ///
    /// When the server's clock is not faked.
    pub fn freeze_clock(&self, at: &str) {
        self.fake_clock(at);
    }

    fn fake_clock(&self, line: &str) {
        let file = self
            .faked
            .as_ref()
            .expect("a server started by start_faked");
        self.write_file(file, &format!("{line}\n"));
    }

    /// `postgres://postgres@127.0.0.1:PORT/postgres`: the superuser, trusted.
    pub fn url(&self) -> String {
        self.url_on("127.0.0.1")
    }

    /// The same on one of the test's hosts.
    pub fn url_on(&self, host: &str) -> String {
        format!("postgres://postgres@{host}:{}/postgres", self.port)
    }

    /// `postgres://ids@127.0.0.1:PORT/postgres`, without the password it needs.
    pub fn ids_url(&self) -> String {
        format!("postgres://ids@127.0.0.1:{}/postgres", self.port)
    }

    /// The CA that signed the server's certificate (with TLS).
    pub fn ca(&self) -> PathBuf {
        self.dir.join("ca.pem")
    }

    /// A CA that signed nothing here.
    pub fn other_ca(&self) -> PathBuf {
        self.dir.join("other-ca.pem")
    }

    /// Runs SQL as the superuser with `psql`, and returns what it printed (tuples only,
    /// unaligned).
    ///
    /// # Panics
    ///
    /// When it fails.
    pub fn psql(&self, sql: &str) -> String {
        self.try_psql(sql)
            .unwrap_or_else(|e| panic!("psql {sql:?}: {e}"))
    }

    /// As [`psql`](Postgres::psql), its error (what psql said) returned.
    ///
    /// # Errors
    ///
    /// What psql wrote to stderr, when it fails.
    ///
    /// # Panics
    ///
    /// When psql cannot be run.
    pub fn try_psql(&self, sql: &str) -> Result<String, String> {
        let output = self
            .command("psql")
            .args(["-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1"])
            // Through the socket: no TLS, whatever the server demands on TCP.
            .arg("-h")
            .arg(&self.dir)
            .args(["-p", &self.port.to_string(), "-U", "postgres"])
            .args(["-d", "postgres", "-c", sql])
            .output()
            .expect("psql runs");
        if output.status.success() {
            Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
        } else {
            Err(String::from_utf8_lossy(&output.stderr).into_owned())
        }
    }

    /// Copies the database `from` into a new database `to` of `into` as an operator does
    /// with `pg_dump` and `psql`, its sequences where the dump read them: on this server, a
    /// copy with another oid; on another (another cluster, its own system identifier), with
    /// the same oid, as a database restored into a new cluster may have it, and as
    /// `pg_upgrade` keeps it.
    ///
    /// # Panics
    ///
    /// When `pg_dump` or `psql` fails.
    pub fn copy_database(&self, from: &str, into: &Postgres, to: &str) {
        let oid = if std::ptr::eq(self, into) {
            String::new()
        } else {
            format!(
                " OID = {}",
                self.psql(&format!(
                    "SELECT oid FROM pg_database WHERE datname = '{from}'"
                ))
            )
        };
        into.psql(&format!("CREATE DATABASE {to}{oid}"));
        let dump = self.dir.join(format!("dump-{from}-{to}.sql"));
        let dump = dump.display().to_string();
        self.run(
            "pg_dump",
            &[
                "--no-owner",
                "-f",
                &dump,
                "-d",
                from,
                "-h",
                &self.socket(),
                "-p",
                &self.port.to_string(),
                "-U",
                "postgres",
            ],
        );
        into.run(
            "psql",
            &[
                "-X",
                "-q",
                "-v",
                "ON_ERROR_STOP=1",
                "-f",
                &dump,
                "-d",
                to,
                "-h",
                &into.socket(),
                "-p",
                &into.port.to_string(),
                "-U",
                "postgres",
            ],
        );
        let _ = std::fs::remove_file(&dump);
    }

    fn socket(&self) -> String {
        self.dir.display().to_string()
    }

    /// Stops the server at once (`pg_ctl stop -m immediate`), as a crash would: every
    /// connection is cut.
    ///
    /// # Panics
    ///
    /// When `pg_ctl` fails.
    pub fn stop(&self) {
        self.run("pg_ctl", &["-D", "data", "-m", "immediate", "-w", "stop"]);
    }

    /// Stops the server as an administrator does (`pg_ctl stop -m fast`): a checkpoint
    /// first, nothing lost.
    ///
    /// # Panics
    ///
    /// When `pg_ctl` fails.
    pub fn stop_cleanly(&self) {
        self.run("pg_ctl", &["-D", "data", "-m", "fast", "-w", "stop"]);
    }

    /// Starts it again, on the same data and port, and waits until it accepts connections.
    ///
    /// # Panics
    ///
    /// When it does not start.
    pub fn start_again(&self) {
        let listen = std::iter::once("127.0.0.1")
            .chain(self.hosts.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(",");
        let dir = self.dir.display();
        let tls = if self.tls {
            format!(
                " -c ssl=on -c ssl_cert_file={dir}/server.pem -c ssl_key_file={dir}/server-key.pem"
            )
        } else {
            String::new()
        };
        let options = format!(
            "-p {} -c listen_addresses={listen} -k {dir} -F -c full_page_writes=off{tls}",
            self.port
        );
        self.run(
            "pg_ctl",
            &[
                "-D", "data", "-l", "log", "-w", "-t", "60", "-o", &options, "start",
            ],
        );
    }

    fn command(&self, program: &str) -> Command {
        let mut command = Command::new(self.bin.join(program));
        command.current_dir(&self.dir).stdin(Stdio::null());
        if let (Some(file), "pg_ctl") = (&self.faked, program) {
            // Inherited by the server and every backend: the timestamp file read at each
            // reading of the wall clock, the monotonic clock untouched.
            let lib = libfaketime().expect(
                "libfaketime is not installed: `apt-get install faketime` (Debian), or run \
                 `bash scripts/test.sh`, which installs it",
            );
            command
                .env("LD_PRELOAD", lib)
                .env("FAKETIME_TIMESTAMP_FILE", file)
                .env(
                    if self.cached {
                        "FAKETIME_CACHE_DURATION"
                    } else {
                        "FAKETIME_NO_CACHE"
                    },
                    "1",
                )
                .env("DONT_FAKE_MONOTONIC", "1");
        }
        if let Some((uid, gid)) = self.user {
            command.uid(uid).gid(gid);
        }
        command
    }

    /// Runs one of the server's programs in its directory, as `postgres` when we are root,
    /// and panics with its output when it fails.
    fn run(&self, program: &str, args: &[&str]) {
        let output = self
            .command(program)
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("{program} runs: {e}"));
        assert!(
            output.status.success(),
            "{program} {args:?} failed: {}{}\nlog: {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr),
            std::fs::read_to_string(self.dir.join("log")).unwrap_or_default()
        );
    }

    fn write(&self, path: &str, text: &str) {
        self.write_file(&self.dir.join(path), text);
    }

    fn write_file(&self, path: &Path, text: &str) {
        std::fs::write(path, text).expect("write");
        self.give_to_postgres(path);
    }

    /// Owned by `postgres` when we are root, the key file readable by it alone, as
    /// PostgreSQL demands.
    fn give_to_postgres(&self, path: &Path) {
        let key = self.dir.join("server-key.pem");
        if key.exists() {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600))
                .expect("chmod 600");
        }
        let Some((uid, gid)) = self.user else {
            return;
        };
        std::os::unix::fs::chown(path, Some(uid), Some(gid)).expect("chown to `postgres`");
        if path == self.dir {
            for entry in std::fs::read_dir(path).expect("its files").flatten() {
                std::os::unix::fs::chown(entry.path(), Some(uid), Some(gid))
                    .expect("chown to `postgres`");
            }
        }
    }
}

impl crate::StoreServer for Postgres {
    fn start() -> Postgres {
        Postgres::start()
    }

    fn start_on(host: &str) -> Postgres {
        Postgres::start_with(&[host], false)
    }

    fn url_on(&self, host: &str) -> String {
        Postgres::url_on(self, host)
    }

    /// `pg_ctl -m immediate`.
    fn crash(&mut self) {
        self.stop();
    }

    fn recover(&mut self) {
        self.start_again();
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        if self.dir.join("data/postmaster.pid").exists() {
            // Not `run`: a panic while unwinding would abort the test process.
            let _ = self
                .command("pg_ctl")
                .args(["-D", "data", "-m", "immediate", "-w", "stop"])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The directory of `initdb` and `pg_ctl`: Debian's `/usr/lib/postgresql/<newest>/bin`,
/// else the first on PATH that has both.
fn binaries() -> Option<PathBuf> {
    let mut debian: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .map(|version| version.path().join("bin"))
        .collect();
    debian.sort_by_key(|bin| {
        let version = bin
            .parent()
            .and_then(Path::file_name)
            .and_then(|v| v.to_str());
        version.and_then(|v| v.parse::<u32>().ok()).unwrap_or(0)
    });
    let path = std::env::var_os("PATH").unwrap_or_default();
    debian
        .into_iter()
        .rev()
        .chain(std::env::split_paths(&path))
        .find(|bin| bin.join("initdb").is_file() && bin.join("pg_ctl").is_file())
}

/// The uid and gid of the `postgres` user, which Debian's package creates.
fn postgres_user() -> (u32, u32) {
    let passwd = std::fs::read_to_string("/etc/passwd").expect("/etc/passwd");
    passwd
        .lines()
        .find_map(|line| {
            let fields: Vec<&str> = line.split(':').collect();
            (fields.first() == Some(&"postgres") && fields.len() > 3)
                .then(|| Some((fields[2].parse().ok()?, fields[3].parse().ok()?)))
                .flatten()
        })
        .expect("a `postgres` user to run PostgreSQL as (it refuses to run as root)")
}

/// Debian's libfaketime, for this machine's architecture.
fn libfaketime() -> Option<PathBuf> {
    let dirs = std::fs::read_dir("/usr/lib").ok()?;
    dirs.flatten()
        .map(|dir| dir.path().join("faketime/libfaketime.so.1"))
        .find(|lib| lib.exists())
}
