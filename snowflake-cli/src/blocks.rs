//! A buffer in front of a writer, written out in blocks of whole lines: the IDs on stdout
//! and `decode`'s messages on stderr both go out this way.

use std::io::{self, Write};

/// Bytes gathered before a write(2): many IDs per call into a file or a pipe (and many of
/// `decode`'s messages per call to stderr). 64 KiB is what a Linux pipe holds.
pub(crate) const BUFFER: usize = 64 * 1024;

/// What is written to it is gathered, and goes out to `W` once it holds [`BUFFER`] bytes,
/// at the next [`Blocks::spill`], which its owner calls between records only: every
/// write(2) then ends with a whole line, so a reader taking lines, stdout's own line
/// buffer, or another process writing to the same file never sees one cut.
pub(crate) struct Blocks<W: Write> {
    buf: Vec<u8>,
    sink: W,
}

impl<W: Write> Blocks<W> {
    /// A buffer of `capacity` bytes to begin with, in front of `sink`.
    pub(crate) fn new(sink: W, capacity: usize) -> Self {
        Blocks {
            buf: Vec::with_capacity(capacity),
            sink,
        }
    }

    /// Whether nothing waits to be written out.
    pub(crate) fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// Writes out the buffer once it holds a block's worth; called after each record.
    pub(crate) fn spill(&mut self) -> io::Result<()> {
        if self.buf.len() >= BUFFER {
            self.write_out()?;
        }
        Ok(())
    }

    fn write_out(&mut self) -> io::Result<()> {
        if !self.buf.is_empty() {
            // Cleared even when the write fails: nothing is written twice.
            let written = self.sink.write_all(&self.buf);
            self.buf.clear();
            written?;
        }
        Ok(())
    }
}

impl<W: Write> Write for Blocks<W> {
    /// Gathers `bytes`; never fails.
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.buf.extend_from_slice(bytes);
        Ok(())
    }

    /// Writes out what the buffer holds, then flushes `W`.
    fn flush(&mut self) -> io::Result<()> {
        self.write_out()?;
        self.sink.flush()
    }
}

/// Whatever is still buffered goes out, as `BufWriter` does; errors are for `flush` to
/// report.
impl<W: Write> Drop for Blocks<W> {
    fn drop(&mut self) {
        let _ = self.write_out();
    }
}
