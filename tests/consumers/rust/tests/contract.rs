// SPDX-License-Identifier: MIT
// The consumer contract check (docs/packaging.md), run by `cargo test --offline`.
use skn_consumer::*;
use std::ffi::CStr;

#[test]
fn links_the_installed_major_version() {
    let v = unsafe { skn_version() };
    assert_eq!(v / 10000, 1, "libskn major version");
    let s = unsafe { CStr::from_ptr(skn_version_string()) }.to_string_lossy().into_owned();
    assert!(s.starts_with("1."), "version string {}", s);
}

#[test]
fn kernel_order_fixture_passes_and_canonical_is_named() {
    let kernel = fixture(SKN_FORMAT_Q4_K, 1, 4, 3).unwrap();
    let canonical = fixture(SKN_FORMAT_Q4_K, 0, 4, 3).unwrap();
    assert_eq!(kernel.len(), canonical.len());
    assert_eq!(disagreement(&kernel, SKN_FORMAT_Q4_K, 1, 4, 3), None);
    let msg = disagreement(&canonical, SKN_FORMAT_Q4_K, 1, 4, 3);
    assert!(msg.map(|m| !m.is_empty()).unwrap_or(false), "canonical bytes read as kernel order must be named");
}

#[test]
fn golden_decoded_equals_dequantize_of_packed() {
    let info = golden_info(SKN_FORMAT_Q4_K).unwrap();
    let packed = golden(SKN_FORMAT_Q4_K, SKN_GOLDEN_PACKED).unwrap();
    let decoded = golden(SKN_FORMAT_Q4_K, SKN_GOLDEN_DECODED).unwrap();
    let mine = dequantize(SKN_FORMAT_Q4_K, &packed, info.rows, info.cols).unwrap();
    let mine_bytes: Vec<u8> = mine.iter().flat_map(|f| f.to_le_bytes()).collect();
    assert_eq!(mine_bytes, decoded);
}

#[test]
fn errors_come_with_a_message() {
    let mut n = 0usize;
    let status = unsafe { skn_fixture_bytes(4, 0, 4, 3, std::ptr::null_mut(), 0, &mut n) };
    assert_ne!(status, SKN_OK);
    assert!(!last_error().is_empty());
}
