//! `decode`'s messages on stderr, gathered in whole lines and written out in blocks, as
//! the IDs are on stdout. std leaves stderr unbuffered: `writeln!` to it is a write(2) per
//! piece of the line, six for a bad ID's message.

use std::fmt;
use std::io::{self, Write};

use crate::output::BUFFER;

/// Messages on their way to `E`, one per line.
///
/// Written out only between lines, so every write holds whole lines: two processes'
/// messages in one file, or a reader taking them a line at a time, never see one cut.
pub(crate) struct Messages<E: Write> {
    buf: Vec<u8>,
    sink: E,
}

impl<E: Write> Messages<E> {
    /// No room taken until the first message: most runs have none.
    pub(crate) fn new(sink: E) -> Self {
        Messages {
            buf: Vec::new(),
            sink,
        }
    }

    /// `message` and a newline; the buffer is written out once it holds a block's worth.
    pub(crate) fn line(&mut self, message: fmt::Arguments<'_>) -> io::Result<()> {
        self.buf.write_fmt(message)?;
        self.buf.push(b'\n');
        if self.buf.len() >= BUFFER {
            self.write_out()?;
        }
        Ok(())
    }

    /// Whether nothing waits to be written out.
    pub(crate) fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// Writes out what the buffer holds.
    pub(crate) fn flush(&mut self) -> io::Result<()> {
        self.write_out()?;
        self.sink.flush()
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

/// Whatever is still buffered goes out, as `BufWriter` does; errors are for
/// [`Messages::flush`] to report.
impl<E: Write> Drop for Messages<E> {
    fn drop(&mut self) {
        let _ = self.write_out();
    }
}
