//! The fuzz target of `decode` (scripts/fuzz.sh): arbitrary bytes as stdin, through the
//! same line decoder the command runs. Built by `cargo afl build` (`--cfg fuzzing`), the
//! binary is this target's loop instead of the command; the tests replay the kept corpus,
//! `fuzz/corpus/decode/`, through the same check.

use std::cell::RefCell;
use std::io::{self, Write};
use std::rc::Rc;

use snowflake_kit::Snowflake;

use crate::decode::lines;
use crate::messages::Messages;
use crate::output::{Format, Layout, Out};

/// The longest line read as an ID, as `decode` has it.
const MAX_LINE: usize = 256;

/// The writes so far, each with its stream.
type Writes = Rc<RefCell<Vec<(Stream, Vec<u8>)>>>;

/// stdout and stderr as one log of writes, each marked with its stream, so that the
/// order of the two is seen.
#[derive(Clone)]
struct Log {
    stream: Stream,
    writes: Writes,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stream {
    Out,
    Err,
}

impl Write for Log {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writes.borrow_mut().push((self.stream, buf.to_vec()));
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// What a line must give: nothing (blank), the ID's row, or an error naming the line.
fn expected(number: usize, line: &[u8]) -> Option<Result<Snowflake, usize>> {
    let text = line.trim_ascii();
    if line.len() <= MAX_LINE && text.is_empty() {
        return None;
    }
    if line.len() <= MAX_LINE && (text.len() == 13 || text.contains(&b'_')) {
        // A line that is not UTF-8 is no ID, whatever follows its last `_`.
        let utf8 = std::str::from_utf8(text).is_ok();
        return Some(base32(text).filter(|_| utf8).ok_or(number));
    }
    let digits = !text.is_empty() && text.iter().all(u8::is_ascii_digit);
    let significant = text.iter().skip_while(|&&b| b == b'0').count();
    let id = (line.len() <= MAX_LINE && digits && significant <= 19)
        .then(|| {
            let digits = std::str::from_utf8(text).expect("ASCII digits");
            digits
                .parse::<u64>()
                .ok()
                .and_then(|n| Snowflake::try_from_u64(n).ok())
        })
        .flatten();
    Some(id.ok_or(number))
}

/// The ID of 13 characters of Crockford's base32 after the last `_`, if any: a model of
/// its own, not the runtime's reader.
fn base32(text: &[u8]) -> Option<Snowflake> {
    let digits = text.rsplit(|&b| b == b'_').next()?;
    if digits.len() != 13 {
        return None;
    }
    let value = digits.iter().try_fold(0_u128, |value, &b| {
        let b = match b.to_ascii_uppercase() {
            b'O' => b'0',
            b'I' | b'L' => b'1',
            b => b,
        };
        let digit = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ"
            .iter()
            .position(|&a| a == b)?;
        Some(value * 32 + digit as u128)
    })?;
    Snowflake::try_from_u64(u64::try_from(value).ok()?).ok()
}

/// `decode` of `data` as stdin: every line that is not blank gives, in the order of the
/// lines, either the row of its ID (digits only, spaces around them, at most `i64::MAX`;
/// or 13 characters of base32, after a prefix if any) or one line on stderr naming it
/// (`error: line N: invalid ID "..."`), the bad ones counted; no I/O error, both streams written in whole lines only.
///
/// # Panics
///
/// When `decode` breaks one of those rules.
pub(crate) fn check(data: &[u8]) {
    let writes = Rc::new(RefCell::new(Vec::new()));
    let log = |stream| Log {
        stream,
        writes: Rc::clone(&writes),
    };
    let mut out = Out::new(log(Stream::Out), Format::Human, false).with_layout(Layout::Row);
    let mut err = Messages::new(log(Stream::Err));
    let mut bad = 0;
    assert!(
        lines(data, &mut out, &mut err, &mut bad).is_ok(),
        "an I/O error from memory"
    );
    out.flush().expect("into memory");
    err.flush().expect("into memory");
    drop((out, err));

    let mut got = Vec::new();
    for (stream, bytes) in writes.borrow().iter() {
        assert_eq!(
            bytes.last(),
            Some(&b'\n'),
            "{stream:?}: a write of part of a line"
        );
        for line in bytes[..bytes.len() - 1].split(|&b| b == b'\n') {
            got.push((
                *stream,
                String::from_utf8(line.to_vec()).expect("UTF-8 output"),
            ));
        }
    }

    let input = data.strip_suffix(b"\n").unwrap_or(data);
    let bom = "\u{feff}".as_bytes();
    let mut want = Vec::new();
    if !data.is_empty() {
        let mut first = true;
        for (i, line) in input.split(|&b| b == b'\n').enumerate() {
            let line = if first {
                line.strip_prefix(bom).unwrap_or(line)
            } else {
                line
            };
            first = false;
            want.extend(expected(i + 1, line));
        }
    }

    assert_eq!(
        got.len(),
        want.len(),
        "lines out: {got:#?}\nexpected: {want:?}"
    );
    for ((stream, line), want) in got.iter().zip(&want) {
        match want {
            Ok(id) => {
                let row = format!(
                    "{id}\t{}\t{}\t{}\t{}",
                    id.rfc3339(),
                    id.datacenter(),
                    id.machine(),
                    id.sequence()
                );
                assert_eq!((*stream, line.as_str()), (Stream::Out, row.as_str()));
            }
            Err(number) => {
                let head = format!("error: line {number}: invalid ID \"");
                assert!(
                    *stream == Stream::Err && line.starts_with(&head),
                    "{stream:?} {line:?}, expected an error for line {number}"
                );
                assert!(!line.chars().any(char::is_control), "{line:?}");
            }
        }
    }
    assert_eq!(bad, want.iter().filter(|w| w.is_err()).count());
}

/// The fuzzing binary's `main`: AFL++'s persistent loop over [`check`].
#[cfg(fuzzing)]
pub(crate) fn main() {
    afl::fuzz(true, check);
}

#[cfg(test)]
mod tests {
    /// Every file of `fuzz/corpus/decode/`, through [`super::check`].
    #[test]
    fn decode_corpus() {
        snowflake_kit_fuzz::replay("decode", super::check);
    }
}
