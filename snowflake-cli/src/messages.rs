//! `decode`'s messages on stderr, gathered in whole lines and written out in blocks, as
//! the IDs are on stdout. std leaves stderr unbuffered: `writeln!` to it is a write(2) per
//! piece of the line, six for a bad ID's message.

use std::fmt;
use std::io::{self, Write};

use crate::blocks::Blocks;

/// Messages on their way to `E`, one per line, in [`Blocks`].
pub(crate) struct Messages<E: Write> {
    buf: Blocks<E>,
}

impl<E: Write> Messages<E> {
    /// No room taken until the first message: most runs have none.
    pub(crate) fn new(sink: E) -> Self {
        Messages {
            buf: Blocks::new(sink, 0),
        }
    }

    /// `message` and a newline; the buffer is written out once it holds a block's worth.
    pub(crate) fn line(&mut self, message: fmt::Arguments<'_>) -> io::Result<()> {
        self.buf.write_fmt(message)?;
        self.buf.write_all(b"\n")?;
        self.buf.spill()
    }

    /// Whether nothing waits to be written out.
    pub(crate) fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// Writes out what the buffer holds.
    pub(crate) fn flush(&mut self) -> io::Result<()> {
        self.buf.flush()
    }
}
