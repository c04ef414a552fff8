//! A real `PostgreSQL` on loopback for the database tests and the SQL benchmark: its own
//! `initdb` data directory in a temporary directory, a free port, run as the unprivileged
//! `postgres` user when we are root (`PostgreSQL` refuses to run as root), waited for until
//! it accepts connections, and stopped when dropped, also when a test panics.

use std::os::unix::fs::MetadataExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex, PoisonError, Weak};

/// A `PostgreSQL` server started by a test.
pub(crate) struct Pg {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
    /// The uid and gid of `postgres`, when we are root.
    user: Option<(u32, u32)>,
}

/// The server the tests of this process share while any of them holds it.
static SHARED: Mutex<Weak<Pg>> = Mutex::new(Weak::new());

impl Pg {
    /// The server of this process, started if none runs; it stops when the last test
    /// holding it lets go.
    ///
    /// A test that needs it is marked `#[ignore = "needs PostgreSQL: ..."]` and run by the
    /// test command with `--include-ignored`; run, it fails without `PostgreSQL`.
    ///
    /// # Panics
    ///
    /// As [`Pg::start`].
    pub(crate) fn shared() -> Arc<Pg> {
        let mut shared = SHARED.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(pg) = shared.upgrade() {
            return pg;
        }
        let pg = Arc::new(Pg::start());
        *shared = Arc::downgrade(&pg);
        pg
    }

    /// Starts a server of its own.
    ///
    /// # Panics
    ///
    /// When `PostgreSQL` is not installed, saying what to install, or does not start.
    pub(crate) fn start() -> Pg {
        let bin = binaries().expect(
            "PostgreSQL is not installed (no initdb and pg_ctl on PATH or in \
             /usr/lib/postgresql/*/bin): `apt-get install postgresql` (Debian, Ubuntu), or run \
             `bash scripts/test.sh`, which installs it",
        );
        let port = free_port();
        let dir = std::env::temp_dir().join(format!("snowflake-pg-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        // Made by us, so its owner is who we are.
        let root = std::fs::metadata(&dir).expect("its metadata").uid() == 0;
        let user = root.then(|| {
            let user = postgres_user();
            std::os::unix::fs::chown(&dir, Some(user.0), Some(user.1))
                .expect("the temporary directory given to `postgres`");
            user
        });
        let pg = Pg {
            bin,
            dir,
            port,
            user,
        };
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
        let options = format!(
            "-p {port} -c listen_addresses=127.0.0.1 -k {} -F -c full_page_writes=off",
            pg.dir.display()
        );
        pg.run(
            "pg_ctl",
            &[
                "-D", "data", "-l", "log", "-w", "-t", "60", "-o", &options, "start",
            ],
        );
        pg
    }

    /// `postgres://postgres@127.0.0.1:PORT/postgres`.
    pub(crate) fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// Runs one of the server's programs in the temporary directory, as `postgres` when we
    /// are root, and panics with its output when it fails.
    fn run(&self, program: &str, args: &[&str]) {
        let mut command = Command::new(self.bin.join(program));
        command
            .args(args)
            .current_dir(&self.dir)
            .stdin(Stdio::null());
        if let Some((uid, gid)) = self.user {
            command.uid(uid).gid(gid);
        }
        let output = command
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
}

impl Drop for Pg {
    fn drop(&mut self) {
        if self.dir.join("data/postmaster.pid").exists() {
            // Not `run`: a panic while unwinding would abort the test process.
            let mut command = Command::new(self.bin.join("pg_ctl"));
            command
                .args(["-D", "data", "-m", "fast", "-w", "stop"])
                .current_dir(&self.dir)
                .stdout(Stdio::null());
            if let Some((uid, gid)) = self.user {
                command.uid(uid).gid(gid);
            }
            let _ = command.status();
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

/// A port that was free a moment ago.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .expect("a free port on loopback")
}
