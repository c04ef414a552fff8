//! The `no_std` runtime's compose, decode and parse, exported from a WebAssembly module.
//!
//! `tests/node.rs` builds this crate for `wasm32-unknown-unknown`, runs the module in
//! Node's WebAssembly engine and compares every answer with the same functions run
//! natively. Each export writes its answer as text into [`buffer`] and returns the
//! answer's length in bytes: positive for a value, negative for an error's message.
//!
//! ```
//! use snowflake_kit_wasm::{answer, compose};
//!
//! let len = compose(1_288_834_975_657, 1, 1, 0);
//! assert_eq!(answer(len), Ok("4194439168".to_owned()));
//! ```
#![cfg_attr(target_arch = "wasm32", no_std)]

use core::fmt::{self, Write as _};
use core::sync::atomic::{AtomicU8, Ordering};

use snowflake_runtime::{Field, Snowflake, compose as compose_id};

/// Size of the buffer that carries the input text in and every answer out.
pub const BUFFER_LEN: usize = 256;

// Atomics, not a `static mut`: the crate has no unsafe code, and the host reads and writes
// the same bytes through the module's memory.
static BUFFER: [AtomicU8; BUFFER_LEN] = [const { AtomicU8::new(0) }; BUFFER_LEN];

/// Where the buffer starts in the module's memory: the host writes the text to parse
/// there, and reads each answer from there.
#[cfg_attr(
    target_arch = "wasm32",
    allow(unsafe_code, reason = "an export needs a fixed name")
)]
#[cfg_attr(target_arch = "wasm32", unsafe(no_mangle))]
pub extern "C" fn buffer() -> *const AtomicU8 {
    BUFFER.as_ptr()
}

/// [`compose`](snowflake_runtime::compose): the ID in decimal, or the error.
#[cfg_attr(
    target_arch = "wasm32",
    allow(unsafe_code, reason = "an export needs a fixed name")
)]
#[cfg_attr(target_arch = "wasm32", unsafe(no_mangle))]
pub extern "C" fn compose(timestamp_ms: u64, datacenter: u64, machine: u64, sequence: u64) -> i32 {
    respond(compose_id(timestamp_ms, datacenter, machine, sequence).map(Snowflake::as_u64))
}

/// An ID from a `u64`, decoded: its time in Unix ms, datacenter, machine, sequence, the
/// time in RFC 3339 and the segmented binary, separated by `|`; or the error.
#[cfg_attr(
    target_arch = "wasm32",
    allow(unsafe_code, reason = "an export needs a fixed name")
)]
#[cfg_attr(target_arch = "wasm32", unsafe(no_mangle))]
pub extern "C" fn decode(id: u64) -> i32 {
    respond(Snowflake::try_from(id).map(Decoded))
}

/// The first `len` bytes of the buffer parsed as an ID (`FromStr`): the ID, or the error.
#[cfg_attr(
    target_arch = "wasm32",
    allow(unsafe_code, reason = "an export needs a fixed name")
)]
#[cfg_attr(target_arch = "wasm32", unsafe(no_mangle))]
pub extern "C" fn parse(len: usize) -> i32 {
    with_input(len, |text| {
        respond(text.parse::<Snowflake>().map(Snowflake::as_u64))
    })
}

/// The first `len` bytes of the buffer read as a field typed by a person (`Field::parse`;
/// `field` 0 to 3: timestamp, datacenter, machine, sequence): the value, or the error
/// quoting the text.
#[cfg_attr(
    target_arch = "wasm32",
    allow(unsafe_code, reason = "an export needs a fixed name")
)]
#[cfg_attr(target_arch = "wasm32", unsafe(no_mangle))]
pub extern "C" fn parse_field(field: u32, len: usize) -> i32 {
    let field = match field {
        0 => Field::Timestamp,
        1 => Field::Datacenter,
        2 => Field::Machine,
        _ => Field::Sequence,
    };
    with_input(len, |text| match field.parse(text) {
        Ok(value) => respond::<u64, u8>(Ok(value)),
        Err(error) => respond::<u8, _>(Err(error.with_input(text))),
    })
}

/// Writes `text` into the buffer, as the host does before [`parse`] and [`parse_field`];
/// for the native side of the test. Returns the length written.
pub fn put_input(text: &str) -> usize {
    let len = text.len().min(BUFFER_LEN);
    for (cell, &byte) in BUFFER.iter().zip(&text.as_bytes()[..len]) {
        cell.store(byte, Ordering::Relaxed);
    }
    len
}

/// An export's return value read back as the host does: the answer's text, `Ok` for a
/// value and `Err` for an error's message.
///
/// # Errors
///
/// The error's message, when the export answered with an error.
///
/// # Panics
///
/// If the answer is not UTF-8, which no export writes.
#[cfg(not(target_arch = "wasm32"))]
pub fn answer(len: i32) -> Result<String, String> {
    let bytes: Vec<u8> = BUFFER[..len.unsigned_abs() as usize]
        .iter()
        .map(|cell| cell.load(Ordering::Relaxed))
        .collect();
    let text = String::from_utf8(bytes).expect("answers are UTF-8");
    if len >= 0 { Ok(text) } else { Err(text) }
}

struct Decoded(Snowflake);

impl fmt::Display for Decoded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let id = self.0;
        write!(
            f,
            "{}|{}|{}|{}|{}|{}",
            id.timestamp_ms(),
            id.datacenter(),
            id.machine(),
            id.sequence(),
            id.rfc3339(),
            id.segmented_binary()
        )
    }
}

fn with_input(len: usize, answer: impl FnOnce(&str) -> i32) -> i32 {
    let mut bytes = [0u8; BUFFER_LEN];
    let len = len.min(BUFFER_LEN);
    for (byte, cell) in bytes.iter_mut().zip(&BUFFER[..len]) {
        *byte = cell.load(Ordering::Relaxed);
    }
    match core::str::from_utf8(&bytes[..len]) {
        Ok(text) => answer(text),
        Err(_) => respond::<u8, _>(Err("the input is not UTF-8")),
    }
}

fn respond<T: fmt::Display, E: fmt::Display>(result: Result<T, E>) -> i32 {
    let mut out = Out {
        bytes: [0; BUFFER_LEN],
        len: 0,
    };
    // An answer longer than the buffer is cut at its end; none of ours is near it.
    let sign = match result {
        Ok(value) => {
            let _ = write!(out, "{value}");
            1
        }
        Err(error) => {
            let _ = write!(out, "{error}");
            -1
        }
    };
    for (cell, &byte) in BUFFER.iter().zip(&out.bytes[..out.len]) {
        cell.store(byte, Ordering::Relaxed);
    }
    // At most BUFFER_LEN (256): it fits.
    sign * i32::try_from(out.len).unwrap_or(i32::MAX)
}

struct Out {
    bytes: [u8; BUFFER_LEN],
    len: usize,
}

impl fmt::Write for Out {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        let room = BUFFER_LEN - self.len;
        let take = text.len().min(room);
        self.bytes[self.len..self.len + take].copy_from_slice(&text.as_bytes()[..take]);
        self.len += take;
        if take < text.len() {
            Err(fmt::Error)
        } else {
            Ok(())
        }
    }
}

#[cfg(target_arch = "wasm32")]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    core::arch::wasm32::unreachable()
}
