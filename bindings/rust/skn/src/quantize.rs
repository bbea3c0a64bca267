// SPDX-License-Identifier: MIT
//! Floats to blocks and back (ROW_MAJOR bytes, as files hold them).
use std::os::raw::c_void;

use skn_sys as sys;

use crate::error::{check, Error, Result};
use crate::format::Format;

/// The element count rows * cols, refused when it overflows or a side is negative.
pub(crate) fn elements(rows: i64, cols: i64, what: &str) -> Result<usize> {
    if rows < 0 || cols < 0 {
        return Err(Error::invalid(format!("{}: negative shape [{}, {}]", what, rows, cols)));
    }
    (rows as u64)
        .checked_mul(cols as u64)
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| Error::invalid(format!("{}: [{}, {}] overflows", what, rows, cols)))
}

/// The bytes a row-major [rows, cols] tensor takes in `format`, trailer included.
pub fn quantized_size(format: Format, rows: i64, cols: i64) -> Result<usize> {
    let mut n = 0usize;
    // SAFETY: n is a valid out pointer.
    check(unsafe { sys::skn_quantized_size(format.0, rows, cols, &mut n) })?;
    Ok(n)
}

/// Options for [`quantize_with_options`].
#[derive(Debug, Clone, Copy, Default)]
pub struct QuantizeOptions<'a> {
    /// Importance weights (an imatrix entry): one per column, shared by every row.
    pub importance: Option<&'a [f32]>,
    /// Threads that share the rows, 1..1024; 0 means the library's default (one).
    pub threads: i32,
}

/// Quantize a row-major [rows, cols] float tensor (`src.len() == rows * cols`)
/// to `format`, as the GGUF ecosystem's reference quantizers do without an
/// importance matrix. Returns the ROW_MAJOR bytes.
pub fn quantize(format: Format, src: &[f32], rows: i64, cols: i64) -> Result<Vec<u8>> {
    quantize_with_options(format, src, rows, cols, &QuantizeOptions::default())
}

/// [`quantize`] with importance weights and threads.
pub fn quantize_with_options(
    format: Format,
    src: &[f32],
    rows: i64,
    cols: i64,
    options: &QuantizeOptions<'_>,
) -> Result<Vec<u8>> {
    let n = elements(rows, cols, "quantize")?;
    if src.len() != n {
        return Err(Error::invalid(format!(
            "quantize: src holds {} floats but [{}, {}] needs {}: pass rows and cols of the slice",
            src.len(),
            rows,
            cols,
            n
        )));
    }
    let size = quantized_size(format, rows, cols)?;
    let mut dst = vec![0u8; size];
    let (importance, importance_count) = match options.importance {
        Some(w) => (w.as_ptr(), w.len() as i64),
        None => (std::ptr::null(), 0),
    };
    let opts = sys::skn_quantize_options {
        struct_size: std::mem::size_of::<sys::skn_quantize_options>(),
        importance,
        importance_count,
        threads: options.threads,
    };
    // SAFETY: src holds rows * cols floats, dst holds size bytes, the
    // importance slice (if any) is passed with its own length.
    check(unsafe {
        sys::skn_quantize_with_options(
            format.0,
            src.as_ptr(),
            rows,
            cols,
            dst.as_mut_ptr() as *mut c_void,
            dst.len(),
            &opts,
        )
    })?;
    Ok(dst)
}

/// Decode ROW_MAJOR [rows, cols] bytes of `format` to floats.
pub fn dequantize(format: Format, src: &[u8], rows: i64, cols: i64) -> Result<Vec<f32>> {
    let mut dst = vec![0f32; elements(rows, cols, "dequantize")?];
    dequantize_into(format, src, rows, cols, &mut dst)?;
    Ok(dst)
}

/// [`dequantize`] into the caller's slice (at least rows * cols floats).
pub fn dequantize_into(format: Format, src: &[u8], rows: i64, cols: i64, dst: &mut [f32]) -> Result<()> {
    // SAFETY: both pointers come with their slice's length.
    check(unsafe {
        sys::skn_dequantize(format.0, src.as_ptr() as *const c_void, src.len(), rows, cols, dst.as_mut_ptr(), dst.len())
    })
}

/// Reorder a [rows, blocks_per_row] block grid from ROW_MAJOR to
/// INPUT_BLOCK_MAJOR (`to_kernel = true`) or back, into a new buffer.
pub fn relayout(format: Format, src: &[u8], rows: i64, blocks_per_row: i64, to_kernel: bool) -> Result<Vec<u8>> {
    let mut dst = vec![0u8; src.len()];
    let f = if to_kernel { sys::skn_packed_to_kernel_order } else { sys::skn_packed_to_canonical_order };
    // SAFETY: both pointers come with their buffer's length; the buffers are distinct.
    check(unsafe {
        f(
            format.0,
            src.as_ptr() as *const c_void,
            src.len(),
            dst.as_mut_ptr() as *mut c_void,
            dst.len(),
            rows,
            blocks_per_row,
        )
    })?;
    Ok(dst)
}
