//! `decode`: IDs from the arguments or from stdin, one per line; a bad one is reported
//! on stderr with its place, and decoding goes on.

use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};

use sf::Snowflake;

use crate::output::Out;

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

/// Decodes the ID arguments; returns how many were bad.
pub(crate) fn arguments<W: Write>(
    ids: &[String],
    out: &mut Out<W>,
    err: &mut impl Write,
) -> io::Result<usize> {
    let mut bad = 0;
    for (i, text) in ids.iter().enumerate() {
        bad += usize::from(!one(text.as_bytes(), Place::Argument(i + 1), out, err)?);
    }
    Ok(bad)
}

/// Decodes one ID per line of `input`, blank lines skipped; returns how many were bad.
pub(crate) fn lines<W: Write>(
    input: impl Read,
    out: &mut Out<W>,
    err: &mut impl Write,
) -> io::Result<usize> {
    // As large as the output's buffer: fewer read(2)s, and fewer flushes below.
    let mut input = BufReader::with_capacity(64 * 1024, input);
    let mut lines = Lines::default();
    // A line that one read cut in two, until its end comes.
    let mut split = Vec::new();
    loop {
        // Answers wait in the buffer only while more input is at hand: a person typing
        // IDs, or `tail -f` upstream, sees each answer before the next read blocks, and a
        // file or a fast pipe gets large writes.
        if input.buffer().is_empty() {
            out.flush()?;
        }
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            // The last line may lack its `\n`.
            if !split.is_empty() {
                lines.line(&split, out, err)?;
            }
            return Ok(lines.bad);
        }
        // Lines are read in place, not copied out one by one.
        let mut rest = buffer;
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            if split.is_empty() {
                lines.line(&rest[..end], out, err)?;
            } else {
                split.extend_from_slice(&rest[..end]);
                lines.line(&split, out, err)?;
                split.clear();
            }
            rest = &rest[end + 1..];
        }
        split.extend_from_slice(rest);
        let read = buffer.len();
        input.consume(read);
    }
}

/// The lines of stdin so far.
#[derive(Default)]
struct Lines {
    number: usize,
    bad: usize,
}

impl Lines {
    /// Decodes the next line, without its `\n`.
    fn line<W: Write>(
        &mut self,
        mut text: &[u8],
        out: &mut Out<W>,
        err: &mut impl Write,
    ) -> io::Result<()> {
        self.number += 1;
        if self.number == 1 {
            // Editors on Windows start UTF-8 files with a byte-order mark.
            text = text.strip_prefix("\u{feff}".as_bytes()).unwrap_or(text);
        }
        if !text.trim_ascii().is_empty() && !one(text, Place::Line(self.number), out, err)? {
            self.bad += 1;
        }
        Ok(())
    }
}

/// Decodes one ID and writes it, or reports it on `err`; returns whether it was good.
///
/// Leading and trailing whitespace (spaces, tabs, a `\r` before the `\n`) is ignored,
/// in arguments and lines alike.
fn one<W: Write>(
    text: &[u8],
    place: Place,
    out: &mut Out<W>,
    err: &mut impl Write,
) -> io::Result<bool> {
    let text = text.trim_ascii();
    let id = match std::str::from_utf8(text) {
        Ok(text) => text
            .parse::<Snowflake>()
            .map_err(|e| format!("{text:?}: {e}")),
        Err(e) => Err(format!(
            "\"{}\": invalid UTF-8 at byte {}: a snowflake id is decimal digits only",
            text.escape_ascii(),
            e.valid_up_to()
        )),
    };
    match id {
        Ok(id) => {
            out.decoded(id)?;
            Ok(true)
        }
        Err(message) => {
            // Whatever stdout holds first, so that a terminal shows both in order.
            out.flush()?;
            writeln!(err, "error: {place}: invalid ID {message}")?;
            Ok(false)
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::{self, Read, Write};

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
        let bad = lines(ids.as_slice(), &mut out, &mut io::sink()).expect("no I/O error");
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

    #[test]
    fn lines_cut_by_reads_decode_as_whole_lines() {
        let input = b"\xef\xbb\xbf4194439168\r\n\n  1541815603606036480 \nx\n4194439169";
        let decode = |input: &mut dyn Read| {
            let (mut out, mut err) = (Vec::new(), Vec::new());
            let mut to = Out::new(&mut out, Format::Json, false);
            let bad = lines(input, &mut to, &mut err).expect("no I/O error");
            drop(to);
            (out, String::from_utf8(err).expect("UTF-8"), bad)
        };
        let (whole, errors, bad) = decode(&mut &input[..]);
        assert_eq!(String::from_utf8_lossy(&whole).lines().count(), 3);
        assert_eq!(
            errors,
            "error: line 4: invalid ID \"x\": invalid character `x` at byte 0: \
             a snowflake id is decimal digits only\n"
        );
        assert_eq!(bad, 1);
        assert_eq!(decode(&mut Trickle(input)), (whole, errors, bad));
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
}
