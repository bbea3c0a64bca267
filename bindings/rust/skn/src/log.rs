// SPDX-License-Identifier: MIT
//! skn's log messages, to a Rust function.
use std::ffi::CStr;
use std::os::raw::{c_char, c_void};

use skn_sys as sys;

use crate::error::{check, Result};

/// A log level (`skn_log_level`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum LogLevel {
    /// Every step.
    Trace,
    /// Every error with its status, adapters, choices.
    Debug,
    /// Noteworthy events.
    Info,
    /// Something the caller should look at.
    Warn,
    /// A failure.
    Error,
    /// Nothing.
    Off,
}

impl LogLevel {
    fn raw(self) -> sys::skn_log_level {
        match self {
            LogLevel::Trace => sys::SKN_LOG_TRACE,
            LogLevel::Debug => sys::SKN_LOG_DEBUG,
            LogLevel::Info => sys::SKN_LOG_INFO,
            LogLevel::Warn => sys::SKN_LOG_WARN,
            LogLevel::Error => sys::SKN_LOG_ERROR,
            LogLevel::Off => sys::SKN_LOG_OFF,
        }
    }

    fn from_raw(raw: sys::skn_log_level) -> LogLevel {
        match raw {
            sys::SKN_LOG_TRACE => LogLevel::Trace,
            sys::SKN_LOG_DEBUG => LogLevel::Debug,
            sys::SKN_LOG_INFO => LogLevel::Info,
            sys::SKN_LOG_WARN => LogLevel::Warn,
            _ => LogLevel::Error,
        }
    }
}

type LogSink = Box<dyn Fn(LogLevel, &str) + Send + Sync>;

unsafe extern "C" fn trampoline(level: sys::skn_log_level, message: *const c_char, user: *mut c_void) {
    if message.is_null() || user.is_null() {
        return;
    }
    let sink = &*(user as *const LogSink);
    let text = CStr::from_ptr(message).to_string_lossy();
    // A panic must not unwind into C; the message is dropped instead.
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| sink(LogLevel::from_raw(level), &text)));
}

/// Send skn's log messages at `level` and above to `sink`, from whichever
/// thread skn runs on; `None` restores the default (stderr at the level the
/// `SKN_LOG` environment variable names, else nothing).
///
/// A message already being delivered on another thread may still reach the
/// previous sink after this returns, so a replaced sink is never freed: set
/// the sink once per program, not per call.
pub fn set_log_callback<F>(level: LogLevel, sink: Option<F>) -> Result<()>
where
    F: Fn(LogLevel, &str) + Send + Sync + 'static,
{
    match sink {
        None => {
            // SAFETY: no callback.
            check(unsafe { sys::skn_set_log_callback(level.raw(), None, std::ptr::null_mut()) })
        }
        Some(f) => {
            let user = Box::into_raw(Box::new(Box::new(f) as LogSink)) as *mut c_void;
            // SAFETY: user is leaked, so valid for as long as skn may call it.
            let status = unsafe { sys::skn_set_log_callback(level.raw(), Some(trampoline), user) };
            if status != sys::SKN_OK {
                // SAFETY: refused, so skn never saw user: reclaim it.
                drop(unsafe { Box::from_raw(user as *mut LogSink) });
            }
            check(status)
        }
    }
}
