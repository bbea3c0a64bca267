// SPDX-License-Identifier: MIT
//! Trace events: every block-order conversion, kernel choice and fallback.
use std::os::raw::c_void;

use skn_sys as sys;

use crate::error::static_str;
use crate::format::Format;
use crate::view::Order;

/// What a trace event reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TraceKind {
    /// Bytes were converted from one block order to another.
    Adapter,
    /// A kernel ran.
    Kernel,
    /// The reference kernel ran although the ISA cap allowed SIMD.
    Fallback,
    /// A kind this crate does not know (from a newer library).
    Other(i32),
}

/// One trace event (`skn_trace_event`); its strings live for the callback only.
#[derive(Debug, Clone)]
pub struct TraceEvent<'e> {
    /// The kind.
    pub kind: TraceKind,
    /// ADAPTER: "prepack"; KERNEL/FALLBACK: a kernel name.
    pub name: &'e str,
    /// What moved, or why a fallback happened.
    pub detail: &'e str,
    /// The weight's format.
    pub format: Format,
    /// ADAPTER: the order converted from.
    pub from_order: Order,
    /// ADAPTER: the order converted to.
    pub to_order: Order,
    /// ADAPTER: bytes copied.
    pub bytes: u64,
    /// Time the work took.
    pub nanoseconds: i64,
    /// KERNEL/FALLBACK: the ISA tier of the kernel that ran ("avx2", "scalar").
    pub isa: &'static str,
    /// KERNEL/FALLBACK: x is [n, in], W is [out, in].
    pub n: i64,
    /// KERNEL/FALLBACK: output rows of W.
    pub out: i64,
    /// KERNEL/FALLBACK: the input dimension.
    pub input: i64,
}

/// A trace sink. Kernel events may come from the context's pool threads,
/// several at once: hence `Fn + Send + Sync`.
pub(crate) type TraceSink = Box<dyn Fn(&TraceEvent<'_>) + Send + Sync>;

fn text<'e>(p: *const std::os::raw::c_char) -> &'e str {
    if p.is_null() {
        ""
    } else {
        // SAFETY: NUL-terminated, valid during the callback.
        unsafe { std::ffi::CStr::from_ptr(p) }.to_str().unwrap_or("")
    }
}

/// The C callback: `user` is a `*const TraceSink` kept alive by its owner
/// for as long as it is registered.
pub(crate) unsafe extern "C" fn trampoline(event: *const sys::skn_trace_event, user: *mut c_void) {
    if event.is_null() || user.is_null() {
        return;
    }
    // An emitting library older than this crate fills a shorter struct:
    // copy what it has, leave the rest zero.
    let mut e: sys::skn_trace_event = std::mem::zeroed();
    let n = (*event).struct_size.min(std::mem::size_of::<sys::skn_trace_event>());
    std::ptr::copy_nonoverlapping(event as *const u8, &mut e as *mut _ as *mut u8, n);
    let order = |o| if o == sys::SKN_ORDER_INPUT_BLOCK_MAJOR { Order::InputBlockMajor } else { Order::RowMajor };
    let ev = TraceEvent {
        kind: match e.kind {
            sys::SKN_TRACE_ADAPTER => TraceKind::Adapter,
            sys::SKN_TRACE_KERNEL => TraceKind::Kernel,
            sys::SKN_TRACE_FALLBACK => TraceKind::Fallback,
            other => TraceKind::Other(other),
        },
        name: text(e.name),
        detail: text(e.detail),
        format: Format(e.format),
        from_order: order(e.from_order),
        to_order: order(e.to_order),
        bytes: e.bytes,
        nanoseconds: e.nanoseconds,
        isa: static_str(sys::skn_isa_name(e.isa)),
        n: e.n,
        out: e.out,
        input: e.r#in,
    };
    let sink = &*(user as *const TraceSink);
    // A panic must not unwind into C; the event is dropped instead.
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| sink(&ev)));
}
