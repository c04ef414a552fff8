//! `SystemClock` under a wall clock moved for real, under a running process: this test
//! runs itself again as a child with libfaketime preloaded (the wall clock faked, the
//! monotonic clock left alone), moves the child's wall clock through libfaketime's
//! timestamp file, and reads the child's `SystemClock` after each move.
#![cfg(feature = "std")]

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use snowflake_runtime::{Clock, SystemClock};

/// Set in the child: it answers each line on its stdin with its clocks' readings.
const CHILD: &str = "SNOWFLAKE_WALL_CLOCK_CHILD";
const HOUR: i64 = 3_600_000;

fn wall_ms() -> i64 {
    let since = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    i64::try_from(since.as_millis()).unwrap()
}

/// Debian's libfaketime, for this machine's architecture.
fn libfaketime() -> Option<PathBuf> {
    let dirs = std::fs::read_dir("/usr/lib").ok()?;
    dirs.flatten()
        .map(|dir| dir.path().join("faketime/libfaketime.so.1"))
        .find(|lib| lib.exists())
}

/// The child's side: its `SystemClock`, and the wall clock as libfaketime fakes it.
fn answer() {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout();
    for line in stdin.lock().lines() {
        if line.is_err() {
            return;
        }
        writeln!(stdout, "{} {}", SystemClock.now_ms(), wall_ms()).unwrap();
        stdout.flush().unwrap();
    }
}

struct Faked {
    child: Child,
    ask: ChildStdin,
    answers: BufReader<ChildStdout>,
    offset_file: PathBuf,
}

impl Faked {
    fn start(lib: &PathBuf) -> Faked {
        let offset_file =
            std::env::temp_dir().join(format!("snowflake-faketime-{}", std::process::id()));
        std::fs::write(&offset_file, "+0\n").unwrap();
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "the_system_clock_follows_the_wall_clock_forward_never_back",
                "--include-ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD, "1")
            .env("LD_PRELOAD", lib)
            .env("FAKETIME_TIMESTAMP_FILE", &offset_file)
            // Read the file at every call, not every 10 s; the monotonic clock untouched.
            .env("FAKETIME_NO_CACHE", "1")
            .env("DONT_FAKE_MONOTONIC", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let ask = child.stdin.take().unwrap();
        let answers = BufReader::new(child.stdout.take().unwrap());
        Faked {
            child,
            ask,
            answers,
            offset_file,
        }
    }

    /// Sets the child's wall clock `ms` ahead of the real one (behind if negative).
    fn move_wall(&self, ms: i64) {
        std::fs::write(&self.offset_file, format!("{:+}\n", ms / 1000)).unwrap();
    }

    /// The child's `SystemClock` and faked wall clock, each less the real wall clock's
    /// reading (read just after): how far ahead of real time each is.
    fn ahead(&mut self) -> (i64, i64) {
        // A millisecond for the child's monotonic clock to turn, after which it looks.
        std::thread::sleep(Duration::from_millis(2));
        writeln!(self.ask).unwrap();
        let mut line = String::new();
        loop {
            line.clear();
            assert!(
                self.answers.read_line(&mut line).unwrap() > 0,
                "the child ended"
            );
            // libtest's own words come first ("running 1 test", and "test NAME ... "
            // on the line of the first answer): the answer is the last two words.
            let mut words = line.split_whitespace().rev().map(str::parse::<i64>);
            if let (Some(Ok(wall)), Some(Ok(clock))) = (words.next(), words.next()) {
                let real = wall_ms();
                return (clock - real, wall - real);
            }
        }
    }
}

impl Drop for Faked {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.offset_file);
    }
}

/// Within a moment below `expected`: the child's reading is taken just before the real
/// one, and a busy machine may take that long to answer.
fn near(ahead: i64, expected: i64) -> bool {
    (expected - 200..=expected + 5).contains(&ahead)
}

#[test]
#[ignore = "needs libfaketime: Debian's faketime (scripts/test.sh installs it)"]
fn the_system_clock_follows_the_wall_clock_forward_never_back() {
    if std::env::var_os(CHILD).is_some() {
        return answer();
    }
    let lib = libfaketime().expect("libfaketime: install Debian's faketime");
    let mut child = Faked::start(&lib);

    let (clock, wall) = child.ahead();
    assert!(
        near(wall, 0) && near(clock, 0),
        "at the start: {clock} {wall}"
    );

    // Forward an hour (a suspend, a clock set late): followed.
    child.move_wall(HOUR);
    let (clock, wall) = child.ahead();
    assert!(
        near(wall, HOUR),
        "libfaketime moved the child's wall clock: {wall}"
    );
    assert!(near(clock, HOUR), "an hour forward is followed: {clock}");

    // Back an hour: not followed, and the time goes on from where it was.
    child.move_wall(0);
    let (before, wall) = child.ahead();
    assert!(near(wall, 0), "{wall}");
    assert!(near(before, HOUR), "an hour back is not followed: {before}");
    std::thread::sleep(Duration::from_millis(50));
    let (after, _) = child.ahead();
    assert!(near(after, HOUR), "{after}");
    // At the real pace: 50 ms on, still as far ahead (a frozen clock would be 50 behind).
    assert!(
        (after - before).abs() < 20,
        "the time went on at the real pace: {before} then {after}"
    );

    // Two hours forward from the real time: past the timeline, followed again.
    child.move_wall(2 * HOUR);
    let (clock, _) = child.ahead();
    assert!(
        near(clock, 2 * HOUR),
        "forward past the timeline is followed: {clock}"
    );
}
