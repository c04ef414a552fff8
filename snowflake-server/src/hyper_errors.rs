//! hyper answers a request head it cannot read (a malformed request line, a URL past its
//! 64 KiB, a head past its buffer) by itself, before routing, with an empty body. This
//! wrapper of a connection's IO turns those answers into the server's JSON error, so that
//! every error reads alike. It tells them apart as the answers that begin `HTTP/1.x 4`
//! while no answer of the router is waiting to be written: the router's are counted as
//! they leave it, before hyper writes them.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};

use hyper::rt::{Read, ReadBufCursor, Write};

use crate::error::Body;

/// A connection's IO, hyper's own error answers made JSON.
pub(crate) struct JsonErrors<T> {
    io: T,
    /// The router's answers not yet written.
    answered: Arc<AtomicUsize>,
    /// An answer of hyper's, rewritten, and how much of it is written.
    rewrite: Option<(Vec<u8>, usize)>,
}

impl<T> JsonErrors<T> {
    /// `io`, with `answered` counting the router's answers (incremented by the service).
    pub(crate) fn new(io: T, answered: Arc<AtomicUsize>) -> JsonErrors<T> {
        JsonErrors {
            io,
            answered,
            rewrite: None,
        }
    }
}

/// The JSON answer for hyper's status `code`, if it is one hyper answers by itself.
fn json_answer(code: &[u8]) -> Option<Vec<u8>> {
    let (status, message) = match code {
        b"400" => (
            "400 Bad Request",
            "the request's head could not be read: expected `METHOD /path HTTP/1.1`, then \
             header lines",
        ),
        b"414" => (
            "414 URI Too Long",
            "the URL is longer than the 64 KiB the server reads",
        ),
        b"431" => (
            "431 Request Header Fields Too Large",
            "the request's head is larger than the server reads",
        ),
        _ => return None,
    };
    // The body every error of the server has.
    let body = serde_json::to_string(&Body::plain(message.to_owned())).ok()?;
    Some(
        format!(
            "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
             connection: close\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )
}

impl<T: Read + Unpin> Read for JsonErrors<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: ReadBufCursor<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<T: Write + Unpin> Write for JsonErrors<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        // A response's first bytes: the router's (counted), or hyper's own.
        if this.rewrite.is_none() && buf.starts_with(b"HTTP/1.") && buf.len() >= 12 {
            let ours = this
                .answered
                .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1))
                .is_ok();
            if !ours {
                this.rewrite = json_answer(&buf[9..12]).map(|answer| (answer, 0));
            }
        }
        let Some((answer, written)) = &mut this.rewrite else {
            return Pin::new(&mut this.io).poll_write(cx, buf);
        };
        while *written < answer.len() {
            match Pin::new(&mut this.io).poll_write(cx, &answer[*written..]) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => *written += n,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        this.rewrite = None;
        // hyper's bytes stand for it: all written, as far as hyper knows.
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }

    /// Not vectored: hyper then writes each response's head (and a small body) in one
    /// buffer, whose first bytes this reads.
    fn is_write_vectored(&self) -> bool {
        false
    }
}
