// SPDX-License-Identifier: MIT
//! The few libskn functions this consumer needs, declared by hand from skn.h.
#![allow(non_camel_case_types)]

use std::ffi::CStr;
use std::os::raw::{c_char, c_int, c_uint, c_void};

pub type skn_status = c_int;
pub const SKN_OK: skn_status = 0;
pub const SKN_FORMAT_Q4_K: c_int = 12;
pub const SKN_GOLDEN_PACKED: c_int = 1;
pub const SKN_GOLDEN_DECODED: c_int = 3;

#[repr(C)]
#[derive(Default)]
pub struct skn_golden_info {
    pub struct_size: usize,
    pub rows: i64,
    pub cols: i64,
    pub x_rows: i64,
}

extern "C" {
    pub fn skn_version() -> c_uint;
    pub fn skn_version_string() -> *const c_char;
    pub fn skn_last_error() -> *const c_char;
    pub fn skn_fixture_bytes(
        format: c_int,
        kernel_order: c_int,
        rows: i64,
        blocks_per_row: i64,
        buf: *mut c_void,
        cap: usize,
        needed: *mut usize,
    ) -> skn_status;
    pub fn skn_fixture_disagreement(
        bytes: *const c_void,
        n: usize,
        format: c_int,
        kernel_order: c_int,
        rows: i64,
        blocks_per_row: i64,
    ) -> *const c_char;
    pub fn skn_fixture_golden_info(format: c_int, info: *mut skn_golden_info) -> skn_status;
    pub fn skn_fixture_golden(format: c_int, part: c_int, buf: *mut c_void, cap: usize, needed: *mut usize)
        -> skn_status;
    pub fn skn_dequantize(
        format: c_int,
        src: *const c_void,
        src_size: usize,
        n_rows: i64,
        n_per_row: i64,
        dst: *mut f32,
        dst_count: usize,
    ) -> skn_status;
}

/// skn_last_error() as a String.
pub fn last_error() -> String {
    unsafe { CStr::from_ptr(skn_last_error()).to_string_lossy().into_owned() }
}

fn ok(status: skn_status, what: &str) -> Result<(), String> {
    if status == SKN_OK {
        Ok(())
    } else {
        Err(format!("{}: status {}: {}", what, status, last_error()))
    }
}

/// The tagged fixture grid in one order (0 = ROW_MAJOR, 1 = INPUT_BLOCK_MAJOR).
pub fn fixture(format: c_int, kernel_order: c_int, rows: i64, blocks: i64) -> Result<Vec<u8>, String> {
    let mut n = 0usize;
    ok(
        unsafe { skn_fixture_bytes(format, kernel_order, rows, blocks, std::ptr::null_mut(), 0, &mut n) },
        "skn_fixture_bytes size",
    )?;
    let mut buf = vec![0u8; n];
    ok(
        unsafe { skn_fixture_bytes(format, kernel_order, rows, blocks, buf.as_mut_ptr() as *mut c_void, n, &mut n) },
        "skn_fixture_bytes",
    )?;
    Ok(buf)
}

/// None when `bytes` is exactly the fixture, else skn's message.
pub fn disagreement(bytes: &[u8], format: c_int, kernel_order: c_int, rows: i64, blocks: i64) -> Option<String> {
    let p = unsafe {
        skn_fixture_disagreement(bytes.as_ptr() as *const c_void, bytes.len(), format, kernel_order, rows, blocks)
    };
    if p.is_null() {
        None
    } else {
        Some(unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
    }
}

/// One part of the golden fixture as raw bytes.
pub fn golden(format: c_int, part: c_int) -> Result<Vec<u8>, String> {
    let mut n = 0usize;
    ok(unsafe { skn_fixture_golden(format, part, std::ptr::null_mut(), 0, &mut n) }, "skn_fixture_golden size")?;
    let mut buf = vec![0u8; n];
    ok(
        unsafe { skn_fixture_golden(format, part, buf.as_mut_ptr() as *mut c_void, n, &mut n) },
        "skn_fixture_golden",
    )?;
    Ok(buf)
}

pub fn golden_info(format: c_int) -> Result<skn_golden_info, String> {
    let mut info = skn_golden_info { struct_size: std::mem::size_of::<skn_golden_info>(), ..Default::default() };
    ok(unsafe { skn_fixture_golden_info(format, &mut info) }, "skn_fixture_golden_info")?;
    Ok(info)
}

pub fn dequantize(format: c_int, src: &[u8], rows: i64, cols: i64) -> Result<Vec<f32>, String> {
    let mut out = vec![0f32; (rows * cols) as usize];
    ok(
        unsafe {
            skn_dequantize(format, src.as_ptr() as *const c_void, src.len(), rows, cols, out.as_mut_ptr(), out.len())
        },
        "skn_dequantize",
    )?;
    Ok(out)
}
