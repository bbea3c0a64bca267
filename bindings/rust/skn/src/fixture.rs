// SPDX-License-Identifier: MIT
//! Fixtures shipped in the library: bytes to check converters and kernels against.
use std::ffi::CStr;
use std::os::raw::c_void;

use skn_sys as sys;

use crate::error::{check, Result};
use crate::format::Format;
use crate::view::Order;

/// The tagged fixture: a [rows, blocks_per_row] grid of `format` in `order`
/// in which every block's bytes say where the block belongs.
pub fn fixture_bytes(format: Format, order: Order, rows: i64, blocks_per_row: i64) -> Result<Vec<u8>> {
    let mut n = 0usize;
    // SAFETY: buf NULL is a size query; n is a valid out pointer.
    check(unsafe {
        sys::skn_fixture_bytes(format.0, order.raw(), rows, blocks_per_row, std::ptr::null_mut(), 0, &mut n)
    })?;
    let mut buf = vec![0u8; n];
    // SAFETY: buf holds n bytes.
    check(unsafe {
        sys::skn_fixture_bytes(format.0, order.raw(), rows, blocks_per_row, buf.as_mut_ptr() as *mut c_void, n, &mut n)
    })?;
    Ok(buf)
}

/// `None` when `bytes` is exactly the tagged fixture of that format, order
/// and grid; otherwise skn's description of the first misplaced block.
pub fn fixture_disagreement(
    bytes: &[u8],
    format: Format,
    order: Order,
    rows: i64,
    blocks_per_row: i64,
) -> Option<String> {
    // SAFETY: bytes comes with its length; the message is copied before any other skn call.
    let p = unsafe {
        sys::skn_fixture_disagreement(
            bytes.as_ptr() as *const c_void,
            bytes.len(),
            format.0,
            order.raw(),
            rows,
            blocks_per_row,
        )
    };
    if p.is_null() {
        None
    } else {
        Some(unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
    }
}

/// One part of a golden fixture (`skn_golden_part`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GoldenPart {
    /// float32 W before quantization, [rows, cols].
    Source,
    /// The quantized bytes, ROW_MAJOR.
    Packed,
    /// The same bytes in INPUT_BLOCK_MAJOR order.
    PackedKernelOrder,
    /// float32 decode of the packed bytes, [rows, cols].
    Decoded,
    /// float32 activation, [x_rows, cols].
    X,
    /// float32 x * decoded(W)^T, [x_rows, rows].
    Y,
}

impl GoldenPart {
    fn raw(self) -> sys::skn_golden_part {
        match self {
            GoldenPart::Source => sys::SKN_GOLDEN_SOURCE,
            GoldenPart::Packed => sys::SKN_GOLDEN_PACKED,
            GoldenPart::PackedKernelOrder => sys::SKN_GOLDEN_PACKED_KERNEL_ORDER,
            GoldenPart::Decoded => sys::SKN_GOLDEN_DECODED,
            GoldenPart::X => sys::SKN_GOLDEN_X,
            GoldenPart::Y => sys::SKN_GOLDEN_Y,
        }
    }
}

/// The golden fixture's shape: W is [rows, cols], x is [x_rows, cols].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GoldenShape {
    /// Rows of W (outputs).
    pub rows: i64,
    /// Columns of W (inputs).
    pub cols: i64,
    /// Rows of the activation x.
    pub x_rows: i64,
}

/// The golden fixture's shape for `format`.
pub fn golden_shape(format: Format) -> Result<GoldenShape> {
    let mut info =
        sys::skn_golden_info { struct_size: std::mem::size_of::<sys::skn_golden_info>(), rows: 0, cols: 0, x_rows: 0 };
    // SAFETY: info is valid with struct_size set.
    check(unsafe { sys::skn_fixture_golden_info(format.0, &mut info) })?;
    Ok(GoldenShape { rows: info.rows, cols: info.cols, x_rows: info.x_rows })
}

/// The bytes of one golden part (little-endian floats for the float parts).
pub fn golden_bytes(format: Format, part: GoldenPart) -> Result<Vec<u8>> {
    let mut n = 0usize;
    // SAFETY: buf NULL is a size query.
    check(unsafe { sys::skn_fixture_golden(format.0, part.raw(), std::ptr::null_mut(), 0, &mut n) })?;
    let mut buf = vec![0u8; n];
    // SAFETY: buf holds n bytes.
    check(unsafe { sys::skn_fixture_golden(format.0, part.raw(), buf.as_mut_ptr() as *mut c_void, n, &mut n) })?;
    Ok(buf)
}

/// A float golden part (Source, Decoded, X, Y) as floats.
pub fn golden_floats(format: Format, part: GoldenPart) -> Result<Vec<f32>> {
    let bytes = golden_bytes(format, part)?;
    Ok(bytes.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
}
