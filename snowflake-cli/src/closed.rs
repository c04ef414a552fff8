//! Whether stdout was closed when the command started (`snowflake decode ... >&-`): then
//! nothing written can arrive anywhere, and the command says so instead of exiting 0.
//!
//! A write cannot tell: before `main`, Rust's runtime opens /dev/null on each closed
//! standard fd (strace shows poll(2) on fds 0 to 2, then `open("/dev/null", O_RDWR)`), so
//! that a file opened later cannot become fd 1 and take the output; writes to it succeed.
//! It opens /dev/null for reading and writing, where a shell's `> /dev/null` opens it for
//! writing only: that difference is what is checked. `1<>/dev/null`, or a stdout that
//! daemon(3) put on /dev/null, look the same and are refused too; `> /dev/null` is the way
//! to discard the output.

/// Whether fd 1 is /dev/null open for reading and writing, as the runtime leaves a
/// closed fd 1; `false` when that cannot be found out.
#[cfg(unix)]
pub(crate) fn stdout() -> bool {
    use rustix::fs::{FileType, OFlags};

    let stdout = std::io::stdout();
    let (Ok(fd_1), Ok(null)) = (rustix::fs::fstat(&stdout), rustix::fs::stat("/dev/null")) else {
        return false;
    };
    let read_write =
        rustix::fs::fcntl_getfl(&stdout).is_ok_and(|flags| flags & OFlags::RWMODE == OFlags::RDWR);
    FileType::from_raw_mode(fd_1.st_mode) == FileType::CharacterDevice
        && fd_1.st_rdev == null.st_rdev
        && read_write
}

/// Not checked elsewhere, with no machine here to test it on: Windows' std drops what is
/// written to a missing stdout handle, so such a run still exits 0.
#[cfg(not(unix))]
pub(crate) fn stdout() -> bool {
    false
}
