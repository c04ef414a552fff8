//! `decode`: IDs from the arguments or from stdin, one per line; a bad one is reported
//! on stderr with its place, and decoding goes on.
//!
//! Messages are buffered as the output is ([`Messages`]): a file of bad lines costs a
//! write(2) per 64 KiB of messages, not several per line. Only one of the two buffers
//! holds bytes at a time, the other written out before it takes any, so that stdout and
//! stderr, shown together, keep the order of the lines.

use std::ffi::OsString;
use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};

use snowflake_kit::{ParseSnowflakeError, Snowflake};

use crate::args::FormatArgs;
use crate::failure::Failure;
use crate::messages::Messages;
use crate::output::{self, Layout, Out};

/// Split IDs into their fields; reads one ID per line from stdin when none are given.
///
/// On a terminal each ID gets a card: its time, the `snowflake!` call that bakes it,
/// and its 64 bits in labelled segments. Into a file or a pipe each ID gets a row,
/// one line of tab-separated fields (id, time, datacenter, machine, sequence) that
/// `sort`, `cut` and `awk` read; --layout chooses either anywhere.
///
/// Spaces and tabs around an ID are ignored, in arguments and in stdin lines alike;
/// blank lines are skipped, and a UTF-8 byte-order mark at the start. A bad ID is
/// reported on stderr with its place (`argument 2: ...`, `line 7: ...`), the others
/// are still decoded, and the exit status is then 2.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// IDs in decimal, or in base32: 13 characters, after a typed ID's prefix if any
    /// (user_0000003X04400). A decimal ID of 13 digits takes a leading zero.
    #[expect(clippy::doc_markdown, reason = "--help shows it as written")]
    // OsString: an argument that is not UTF-8 is a bad ID, reported with its place
    // while the others are decoded, not a usage error that stops everything.
    #[arg(value_name = "ID")]
    ids: Vec<OsString>,
    /// How each ID is shown without --json [default: card on a terminal, row into a
    /// file or a pipe]
    #[arg(long, value_enum, value_name = "LAYOUT", conflicts_with = "json")]
    layout: Option<Layout>,
    #[command(flatten)]
    format: FormatArgs,
}

/// Runs `snowflake decode`: the IDs of the arguments, or else of stdin's lines.
pub(crate) fn run(args: Args) -> Result<(), Failure> {
    let Args {
        ids,
        layout,
        format,
    } = args;
    let mut out = output::stdout(format.format(), layout);
    let mut stderr = Messages::new(io::stderr().lock());
    let mut bad = 0;
    let decoded = if ids.is_empty() {
        lines(io::stdin().lock(), &mut out, &mut stderr, &mut bad)
    } else {
        arguments(&ids, &mut out, &mut stderr, &mut bad)
    };
    // Only one of the two holds bytes; either way, before a failure is reported.
    let flushed = out.flush().and_then(|()| stderr.flush());
    match decoded.and_then(|()| Ok(flushed?)) {
        // `| head`: the reader left, but a bad ID it was told about still counts.
        Err(Failure::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe && bad > 0 => {
            Err(Failure::BadIds)
        }
        Err(failure) => Err(failure),
        Ok(()) if bad > 0 => Err(Failure::BadIds),
        Ok(()) => Ok(()),
    }
}

/// Where an ID came from, for its error.
#[derive(Clone, Copy)]
enum Place {
    /// The n-th ID argument, from 1.
    Argument(usize),
    /// The n-th line of stdin, from 1, blank lines counted.
    Line(usize),
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Argument(n) => write!(f, "argument {n}"),
            Place::Line(n) => write!(f, "line {n}"),
        }
    }
}

/// The longest line (or argument) read as an ID: 19 digits, and room for the spaces
/// around them. Past it a line is only counted, not kept, so that a stream without
/// newlines cannot fill the memory.
const MAX_LINE: usize = 256;

/// How much of a bad ID its error quotes.
const QUOTED: usize = 40;

/// Decodes the ID arguments, counting the bad ones in `bad`.
fn arguments<W: Write, E: Write>(
    ids: &[OsString],
    out: &mut Out<W>,
    err: &mut Messages<E>,
    bad: &mut usize,
) -> Result<(), Failure> {
    for (i, text) in ids.iter().enumerate() {
        // Bytes, not `str`: invalid UTF-8 is a bad ID like any other, named by its place.
        let text = text.as_encoded_bytes();
        if !one(text, text.len(), Place::Argument(i + 1), out, err)? {
            *bad += 1;
        }
    }
    Ok(())
}

/// Decodes one ID per line of `input`, blank lines skipped, counting the bad ones in
/// `bad`.
pub(crate) fn lines<W: Write, E: Write>(
    input: impl Read,
    out: &mut Out<W>,
    err: &mut Messages<E>,
    bad: &mut usize,
) -> Result<(), Failure> {
    // As large as the output's buffer: fewer read(2)s, and fewer flushes below.
    let mut input = BufReader::with_capacity(64 * 1024, input);
    let mut lines = Lines { number: 0, bad };
    // A line that one read cut in two, until its end comes: its first bytes (at most
    // MAX_LINE + 1 of them, enough to tell it is too long) and its length.
    let mut split = Vec::new();
    let mut split_len = 0;
    loop {
        // Answers wait in the buffer only while more input is at hand: a person typing
        // IDs, or `tail -f` upstream, sees each answer before the next read blocks, and a
        // file or a fast pipe gets large writes.
        if input.buffer().is_empty() {
            out.flush()?;
            err.flush()?;
        }
        let buffer = input.fill_buf().map_err(Failure::Read)?;
        if buffer.is_empty() {
            // The last line may lack its `\n`.
            if split_len > 0 {
                lines.line(&split, split_len, out, err)?;
            }
            return Ok(());
        }
        // Lines are read in place, not copied out one by one.
        let mut rest = buffer;
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            if split_len == 0 {
                lines.line(&rest[..end], end, out, err)?;
            } else {
                keep(&mut split, &rest[..end]);
                lines.line(&split, split_len + end, out, err)?;
                split.clear();
                split_len = 0;
            }
            rest = &rest[end + 1..];
        }
        keep(&mut split, rest);
        split_len += rest.len();
        let read = buffer.len();
        input.consume(read);
    }
}

/// Adds `bytes` to a split line, up to one byte more than a line may have.
fn keep(split: &mut Vec<u8>, bytes: &[u8]) {
    let room = (MAX_LINE + 1).saturating_sub(split.len());
    split.extend_from_slice(&bytes[..bytes.len().min(room)]);
}

/// The lines of stdin so far.
struct Lines<'a> {
    number: usize,
    bad: &'a mut usize,
}

impl Lines<'_> {
    /// Decodes the next line, without its `\n`: `text` is its first bytes, `len` its
    /// whole length.
    fn line<W: Write, E: Write>(
        &mut self,
        mut text: &[u8],
        mut len: usize,
        out: &mut Out<W>,
        err: &mut Messages<E>,
    ) -> Result<(), Failure> {
        self.number += 1;
        if self.number == 1 {
            // Editors on Windows start UTF-8 files with a byte-order mark.
            if let Some(rest) = text.strip_prefix("\u{feff}".as_bytes()) {
                (text, len) = (rest, len - 3);
            }
        }
        let blank = len <= MAX_LINE && text.trim_ascii().is_empty();
        if !blank && !one(text, len, Place::Line(self.number), out, err)? {
            *self.bad += 1;
        }
        Ok(())
    }
}

/// Decodes one ID and writes it, or reports it on `err`; returns whether it was good.
/// `text` is the ID's first bytes (all of them up to [`MAX_LINE`]), `len` its length.
///
/// Leading and trailing whitespace (spaces, tabs, a `\r` before the `\n`) is ignored,
/// in arguments and lines alike.
fn one<W: Write, E: Write>(
    text: &[u8],
    len: usize,
    place: Place,
    out: &mut Out<W>,
    err: &mut Messages<E>,
) -> Result<bool, Failure> {
    let id = if len > MAX_LINE {
        Err(Problem::TooLong(text, len))
    } else {
        let text = text.trim_ascii();
        match std::str::from_utf8(text) {
            Ok(id) => Snowflake::read_decimal_or_base32(id).map_err(|e| Problem::Refused(text, e)),
            Err(e) => Err(Problem::NotUtf8(text, e.valid_up_to())),
        }
    };
    match id {
        Ok(id) => {
            // The messages before it first, so that a terminal shows both in order.
            if !err.is_empty() {
                err.flush()?;
            }
            out.decoded(id)?;
            Ok(true)
        }
        Err(problem) => {
            // Whatever stdout holds first, for the same reason.
            out.flush()?;
            err.line(format_args!("error: {place}: invalid ID {problem}"))?;
            Ok(false)
        }
    }
}

/// Why an ID is bad, with its text: written straight into the messages, where a `String`
/// per message made the allocator the larger part of a bad line's cost.
enum Problem<'a> {
    /// Longer than [`MAX_LINE`]: its first bytes, and its length.
    TooLong(&'a [u8], usize),
    /// Not UTF-8: its bytes, and how far they are.
    NotUtf8(&'a [u8], usize),
    /// Refused by the runtime's rule.
    Refused(&'a [u8], ParseSnowflakeError),
}

impl fmt::Display for Problem<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::TooLong(text, len) => write!(
                f,
                "{}: {len} bytes, too long for an ID (at most {MAX_LINE} bytes with the \
                 spaces around its digits)",
                quote(text)
            ),
            Problem::NotUtf8(text, valid) => write!(
                f,
                "{}: invalid UTF-8 at byte {valid}: an ID is decimal digits only",
                quote(text)
            ),
            Problem::Refused(text, e) => write!(f, "{}: {e}", quote(text)),
        }
    }
}

/// `text` in double quotes, its bytes outside printable ASCII escaped, cut after
/// [`QUOTED`] bytes with `...`.
fn quote(text: &[u8]) -> String {
    let shown = &text[..text.len().min(QUOTED)];
    // Characters shown as they are, where the text is UTF-8 that far.
    let quoted = match std::str::from_utf8(shown) {
        Ok(shown) => format!("{shown:?}"),
        Err(e) if e.error_len().is_none() && !shown.is_empty() => {
            // Cut inside a character: up to it.
            format!(
                "{:?}",
                std::str::from_utf8(&shown[..e.valid_up_to()]).unwrap_or_default()
            )
        }
        Err(_) => format!("\"{}\"", shown.escape_ascii()),
    };
    if text.len() > QUOTED {
        format!("{}...\"", &quoted[..quoted.len() - 1])
    } else {
        quoted
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::io::{self, Read, Write};
    use std::rc::Rc;

    use super::*;
    use crate::output::{Format, Layout};

    /// Counts the calls that would be write(2)s, and those that end mid-line.
    #[derive(Default)]
    struct Counting {
        writes: usize,
        bytes: usize,
        cut: usize,
    }

    impl Write for Counting {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.writes += 1;
            self.bytes += buf.len();
            self.cut += usize::from(buf.last() != Some(&b'\n'));
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn bytes_per_write(format: Format, layout: Layout, colour: bool) -> usize {
        let mut ids = Vec::new();
        for n in 0..20_000u64 {
            writeln!(ids, "{}", 1_541_815_603_606_036_480 + n * 4097).expect("into a Vec");
        }
        let mut counting = Counting::default();
        let mut out = Out::new(&mut counting, format, colour).with_layout(layout);
        let mut bad = 0;
        let mut err = Messages::new(io::sink());
        lines(ids.as_slice(), &mut out, &mut err, &mut bad).expect("no I/O error");
        out.flush().expect("flushed");
        drop(out);
        assert_eq!(bad, 0);
        // Whole lines only: stdout's line buffer passes them through in one write.
        assert_eq!(counting.cut, 0, "{format:?} {layout:?}");
        counting.bytes / counting.writes
    }

    /// Hands out its bytes a few at a time, as a slow pipe does.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(self.0.len()).min(3);
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    /// JSON lines, errors and the bad count of `input` decoded.
    fn decode(input: impl Read) -> (Vec<u8>, String, usize) {
        let (mut out, mut err, mut bad) = (Vec::new(), Vec::new(), 0);
        let mut to = Out::new(&mut out, Format::Json, false);
        let mut messages = Messages::new(&mut err);
        assert!(
            lines(input, &mut to, &mut messages, &mut bad).is_ok(),
            "no I/O error"
        );
        drop((to, messages));
        (out, String::from_utf8(err).expect("UTF-8"), bad)
    }

    #[test]
    fn lines_cut_by_reads_decode_as_whole_lines() {
        let input = b"\xef\xbb\xbf4194439168\r\n\n  1541815603606036480 \nx\n4194439169";
        let (whole, errors, bad) = decode(&input[..]);
        assert_eq!(String::from_utf8_lossy(&whole).lines().count(), 3);
        assert_eq!(
            errors,
            "error: line 4: invalid ID \"x\": invalid character `x` at byte 0: \
             an ID is decimal digits only\n"
        );
        assert_eq!(bad, 1);
        assert_eq!(decode(Trickle(input)), (whole, errors, bad));
    }

    #[test]
    fn a_line_too_long_for_an_id_is_one_bad_line_not_kept_whole() {
        let spaces = format!("{}4194439168\n", " ".repeat(MAX_LINE - 10));
        let long = format!("{}4194439168\n", " ".repeat(MAX_LINE - 9));
        let input = format!("{spaces}{long}4194439169\n");
        let expected = format!(
            "error: line 2: invalid ID \"{}...\": {} bytes, too long for an ID (at most 256 \
             bytes with the spaces around its digits)\n",
            " ".repeat(QUOTED),
            MAX_LINE + 1
        );
        for (out, errors, bad) in [decode(input.as_bytes()), decode(Trickle(input.as_bytes()))] {
            assert_eq!(String::from_utf8_lossy(&out).lines().count(), 2);
            assert_eq!(errors, expected);
            assert_eq!(bad, 1);
        }
        // A stream without a newline: counted, not kept, and reported with its length.
        let (out, errors, bad) = decode(io::repeat(b'1').take(10_000_000));
        assert!(out.is_empty());
        assert_eq!(bad, 1);
        assert!(
            errors.starts_with(&format!(
                "error: line 1: invalid ID \"{}...\": 10000000 bytes,",
                "1".repeat(QUOTED)
            )),
            "{errors}"
        );
    }

    #[test]
    fn quotes_are_escaped_and_cut() {
        assert_eq!(quote(b"12a"), "\"12a\"");
        assert_eq!(quote(b"1\t\"2"), "\"1\\t\\\"2\"");
        assert_eq!(quote(b"12\xff3"), "\"12\\xff3\"");
        assert_eq!(quote(&[b'7'; 41]), format!("\"{}...\"", "7".repeat(40)));
        // Cut inside a character: up to it.
        let text = format!("{}é", "1".repeat(39));
        assert_eq!(quote(text.as_bytes()), format!("\"{}...\"", "1".repeat(39)));
        assert_eq!(quote(b""), "\"\"");
    }

    #[test]
    fn decode_of_many_ids_writes_at_least_4_kib_at_a_time() {
        for (format, layout) in [
            (Format::Human, Layout::Row),
            (Format::Human, Layout::Card),
            (Format::Json, Layout::Row),
        ] {
            for colour in [false, true] {
                let average = bytes_per_write(format, layout, colour);
                assert!(
                    average >= 4096,
                    "{format:?} {layout:?} colour {colour}: {average}"
                );
            }
        }
    }

    #[test]
    fn messages_go_out_in_blocks_of_whole_lines() {
        let mut input = Vec::new();
        for n in 0..20_000u64 {
            writeln!(input, "{}x", 1_541_815_603_606_036_480 + n).expect("into a Vec");
        }
        let mut out = Out::new(Vec::new(), Format::Human, false);
        let mut counting = Counting::default();
        let mut err = Messages::new(&mut counting);
        let mut bad = 0;
        lines(input.as_slice(), &mut out, &mut err, &mut bad).expect("no I/O error");
        err.flush().expect("flushed");
        drop(err);
        assert_eq!(bad, 20_000);
        // Every message went out: some 100 bytes each, at least.
        assert!(counting.bytes >= 20_000 * 100, "{} bytes", counting.bytes);
        assert_eq!(counting.cut, 0, "a write ended mid-line");
        // About 125 bytes a message: some 40 writes of 64 KiB.
        assert!(
            counting.writes <= 20_000 / 100,
            "{} writes",
            counting.writes
        );
    }

    /// One of the two streams, writing into a log both share, as a terminal shows them.
    struct Shared(Rc<RefCell<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn ids_and_messages_keep_the_order_of_the_lines() {
        let log = Rc::new(RefCell::new(Vec::new()));
        let mut out =
            Out::new(Shared(Rc::clone(&log)), Format::Human, false).with_layout(Layout::Row);
        let mut err = Messages::new(Shared(Rc::clone(&log)));
        let mut bad = 0;
        let input = "x\ny\n4194439168\nz\n4194439168\n4194439168\n";
        lines(input.as_bytes(), &mut out, &mut err, &mut bad).expect("no I/O error");
        out.flush().expect("flushed");
        err.flush().expect("flushed");
        let log = String::from_utf8(log.take()).expect("UTF-8");
        let shown: Vec<&str> = log
            .lines()
            .map(|line| {
                if line.starts_with("error:") {
                    "error"
                } else {
                    "id"
                }
            })
            .collect();
        assert_eq!(
            shown,
            ["error", "error", "id", "error", "id", "id"],
            "{log}"
        );
    }
}
