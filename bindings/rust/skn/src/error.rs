// SPDX-License-Identifier: MIT
//! skn's status codes and messages as a Rust error.
use std::ffi::CStr;
use std::fmt;

use skn_sys as sys;

/// Why a call failed: the C status (`skn_status`), by kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Status {
    /// A bad size, shape or value in the input (`SKN_E_INVALID_ARGUMENT`).
    InvalidArgument,
    /// A format id skn does not know (`SKN_E_UNKNOWN_FORMAT`).
    UnknownFormat,
    /// A known format or option the operation does not support (`SKN_E_UNSUPPORTED`).
    Unsupported,
    /// A destination smaller than the result (`SKN_E_BUFFER_TOO_SMALL`).
    BufferTooSmall,
    /// `SKN_E_OUT_OF_MEMORY`.
    OutOfMemory,
    /// Malformed bytes: a file, a block (`SKN_E_FORMAT`).
    Format,
    /// The system failed to read or write a file (`SKN_E_IO`).
    Io,
    /// A path names no file (`SKN_E_NOT_FOUND`).
    NotFound,
    /// A bug in skn (`SKN_E_INTERNAL`): please report the message.
    Internal,
    /// A status this crate does not know (from a newer library).
    Other(i32),
}

impl Status {
    /// The status for a C value; `None` for `SKN_OK`.
    pub fn from_raw(raw: sys::skn_status) -> Option<Status> {
        Some(match raw {
            sys::SKN_OK => return None,
            sys::SKN_E_INVALID_ARGUMENT => Status::InvalidArgument,
            sys::SKN_E_UNKNOWN_FORMAT => Status::UnknownFormat,
            sys::SKN_E_UNSUPPORTED => Status::Unsupported,
            sys::SKN_E_BUFFER_TOO_SMALL => Status::BufferTooSmall,
            sys::SKN_E_OUT_OF_MEMORY => Status::OutOfMemory,
            sys::SKN_E_FORMAT => Status::Format,
            sys::SKN_E_IO => Status::Io,
            sys::SKN_E_NOT_FOUND => Status::NotFound,
            sys::SKN_E_INTERNAL => Status::Internal,
            other => Status::Other(other),
        })
    }

    /// The C value.
    pub fn raw(self) -> sys::skn_status {
        match self {
            Status::InvalidArgument => sys::SKN_E_INVALID_ARGUMENT,
            Status::UnknownFormat => sys::SKN_E_UNKNOWN_FORMAT,
            Status::Unsupported => sys::SKN_E_UNSUPPORTED,
            Status::BufferTooSmall => sys::SKN_E_BUFFER_TOO_SMALL,
            Status::OutOfMemory => sys::SKN_E_OUT_OF_MEMORY,
            Status::Format => sys::SKN_E_FORMAT,
            Status::Io => sys::SKN_E_IO,
            Status::NotFound => sys::SKN_E_NOT_FOUND,
            Status::Internal => sys::SKN_E_INTERNAL,
            Status::Other(v) => v,
        }
    }

    /// The C name, e.g. `"SKN_E_INVALID_ARGUMENT"`.
    pub fn name(self) -> &'static str {
        // SAFETY: skn_status_name returns static storage for any value.
        unsafe { static_str(sys::skn_status_name(self.raw())) }
    }
}

/// A failed skn call: its status and skn's message saying what was wrong
/// and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    status: Status,
    message: String,
}

impl Error {
    /// An error raised by this crate itself, before calling skn (a slice
    /// shorter than the sizes given with it, a string holding a NUL byte).
    pub(crate) fn invalid(message: String) -> Error {
        Error { status: Status::InvalidArgument, message }
    }

    /// The same error with `context` (what the caller asked for, which skn's
    /// message cannot know, such as a metadata key's name) in front.
    pub(crate) fn context(self, context: &str) -> Error {
        Error { status: self.status, message: format!("{}: {}", context, self.message) }
    }

    /// The status.
    pub fn status(&self) -> Status {
        self.status
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.status.name(), self.message)
    }
}

impl std::error::Error for Error {}

/// A `Result` whose error is an skn [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

/// Turn a status into a Result, reading skn_last_error() on this thread
/// (the message is per OS thread, so it must be read right after the call).
pub(crate) fn check(status: sys::skn_status) -> Result<()> {
    match Status::from_raw(status) {
        None => Ok(()),
        Some(s) => Err(Error { status: s, message: last_error() }),
    }
}

/// skn_last_error() of the calling thread, copied.
pub(crate) fn last_error() -> String {
    // SAFETY: never NULL, valid until the next skn call on this thread.
    unsafe { CStr::from_ptr(sys::skn_last_error()) }.to_string_lossy().into_owned()
}

/// A string in skn's static storage.
///
/// # Safety
/// `p` must be NULL or a NUL-terminated string that is never freed.
pub(crate) unsafe fn static_str(p: *const std::os::raw::c_char) -> &'static str {
    if p.is_null() {
        return "";
    }
    CStr::from_ptr(p).to_str().unwrap_or("")
}

/// `s` as a C string, or an InvalidArgument error naming `what`.
pub(crate) fn c_string(s: &str, what: &str) -> Result<std::ffi::CString> {
    std::ffi::CString::new(s).map_err(|_| Error::invalid(format!("{} {:?} holds a NUL byte", what, s)))
}
