// SPDX-License-Identifier: MIT
// The consumer contract check (docs/packaging.md) through the skn crate, run
// by `cargo test --offline`: what tests/consumers/c/consumer.c checks.
use skn::{Format, GoldenPart, Order, Status};

#[test]
fn links_the_installed_major_version() {
    let (s, v) = skn::version();
    assert_eq!(v / 10000, skn::sys::SKN_VERSION_MAJOR as u32, "libskn major version");
    assert!(v >= skn::sys::SKN_VERSION_NUMBER as u32, "library {} older than its header", v);
    assert!(s.starts_with("1."), "version string {}", s);
}

#[test]
fn kernel_order_fixture_passes_and_canonical_is_named() {
    let kernel = skn::fixture_bytes(Format::Q4_K, Order::InputBlockMajor, 4, 3).unwrap();
    let canonical = skn::fixture_bytes(Format::Q4_K, Order::RowMajor, 4, 3).unwrap();
    assert_eq!(kernel.len(), canonical.len());
    assert_eq!(skn::fixture_disagreement(&kernel, Format::Q4_K, Order::InputBlockMajor, 4, 3), None);
    let msg = skn::fixture_disagreement(&canonical, Format::Q4_K, Order::InputBlockMajor, 4, 3);
    assert!(msg.map(|m| !m.is_empty()).unwrap_or(false), "canonical bytes read as kernel order must be named");
}

#[test]
fn golden_decoded_equals_dequantize_of_packed() {
    for f in [Format::Q4_K, Format::Q8_0] {
        let shape = skn::golden_shape(f).unwrap();
        let packed = skn::golden_bytes(f, GoldenPart::Packed).unwrap();
        let decoded = skn::golden_bytes(f, GoldenPart::Decoded).unwrap();
        let mine = skn::dequantize(f, &packed, shape.rows, shape.cols).unwrap();
        let mine_bytes: Vec<u8> = mine.iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(mine_bytes, decoded, "{}", f);
    }
}

#[test]
fn errors_come_with_a_message() {
    let e = skn::fixture_bytes(Format(4), Order::RowMajor, 4, 3).unwrap_err();
    assert_eq!(e.status(), Status::UnknownFormat);
    assert!(!e.message().is_empty());
}
