// SPDX-License-Identifier: MIT
// Bad input comes back as Err with skn's status and a message saying what
// was wrong; nothing panics and nothing is read outside a slice.
use skn::{Context, Error, Format, Gguf, GgufOptions, Imatrix, Order, Status, View};

fn expect(err: Error, status: Status, words: &[&str]) {
    assert_eq!(err.status(), status, "{}", err);
    assert!(!err.message().is_empty(), "{:?} without a message", status);
    for w in words {
        assert!(err.message().contains(w), "message {:?} lacks {:?}", err.message(), w);
    }
    assert!(err.to_string().starts_with(status.name()), "{}", err);
}

#[test]
fn unknown_formats_are_refused() {
    // Id 4 was Q4_2, removed from GGUF: not a format skn implements.
    expect(skn::quantized_size(Format(4), 1, 32).unwrap_err(), Status::UnknownFormat, &[]);
    expect(Format::from_name("q4_k_m").unwrap_err(), Status::UnknownFormat, &["llama.cpp file type"]);
    assert_eq!(Format::from_name("q4_k").unwrap(), Format::Q4_K);
    assert_eq!(Format(4).name(), "unknown(4)");
    expect(skn::fixture_bytes(Format(4), Order::RowMajor, 4, 3).unwrap_err(), Status::UnknownFormat, &[]);
}

#[test]
fn sizes_that_do_not_fit_are_refused() {
    let src = vec![0.5f32; 2 * 256];
    // cols not a multiple of the block size
    expect(skn::quantize(Format::Q4_K, &src, 4, 128).unwrap_err(), Status::InvalidArgument, &["256"]);
    // the slice disagrees with the shape: caught before C sees a pointer
    expect(skn::quantize(Format::Q4_K, &src, 3, 256).unwrap_err(), Status::InvalidArgument, &["512 floats"]);
    let packed = skn::quantize(Format::Q4_K, &src, 2, 256).unwrap();
    expect(
        skn::dequantize(Format::Q4_K, &packed[..packed.len() - 1], 2, 256).unwrap_err(),
        Status::BufferTooSmall,
        &[],
    );
    let mut small = vec![0f32; 511];
    expect(
        skn::dequantize_into(Format::Q4_K, &packed, 2, 256, &mut small).unwrap_err(),
        Status::BufferTooSmall,
        &["511"],
    );
    expect(
        View::from_bytes(&packed[..10], Format::Q4_K, &[2, 256], Order::RowMajor).unwrap_err(),
        Status::InvalidArgument,
        &[],
    );
    // [in, out] given as [out, in]
    expect(skn::require_out_in(256, 3, Format::Q4_K).unwrap_err(), Status::InvalidArgument, &["looks like [in, out]"]);
}

#[test]
fn bad_values_are_named() {
    let mut src = vec![0.25f32; 3 * 32];
    src[40] = f32::NAN;
    expect(skn::quantize(Format::Q8_0, &src, 3, 32).unwrap_err(), Status::InvalidArgument, &["[1, 8]", "nan"]);
    let w = vec![1.0f32; 31];
    let opts = skn::QuantizeOptions { importance: Some(&w), threads: 0 };
    expect(
        skn::quantize_with_options(Format::Q4_K, &vec![0.0; 256], 1, 256, &opts).unwrap_err(),
        Status::InvalidArgument,
        &[],
    );
    expect(skn::quantize(Format::IQ2_XXS, &vec![0.0; 256], 1, 256).unwrap_err(), Status::InvalidArgument, &[]);
    assert!(Format::IQ2_XXS.info().unwrap().needs_importance);
}

#[test]
fn out_of_range_is_refused() {
    let src: Vec<f32> = (0..4 * 96).map(|i| i as f32 / 100.0).collect();
    let packed = skn::quantize(Format::Q8_0, &src, 4, 96).unwrap();
    let v = View::from_bytes(&packed, Format::Q8_0, &[4, 96], Order::RowMajor).unwrap();
    expect(v.get(&[4, 0]).unwrap_err(), Status::InvalidArgument, &[]);
    expect(v.get(&[0]).unwrap_err(), Status::InvalidArgument, &[]);
    expect(v.narrow(1, 16, 32).unwrap_err(), Status::InvalidArgument, &["32"]);
    expect(v.select(1, 0).unwrap_err(), Status::InvalidArgument, &[]);
    // one row: both orders would agree, so the fixture refuses it
    expect(skn::fixture_bytes(Format::Q4_0, Order::RowMajor, 1, 3).unwrap_err(), Status::InvalidArgument, &[]);
    assert!(
        skn::fixture_disagreement(&packed, Format::Q4_0, Order::RowMajor, 4, 3).is_some(),
        "wrong size must be named"
    );
}

#[test]
fn matmul_checks_slices_and_strictness() {
    let src: Vec<f32> = (0..3 * 64).map(|i| (i as f32).cos()).collect();
    let packed = skn::quantize(Format::Q8_0, &src, 3, 64).unwrap();
    let w = View::from_bytes(&packed, Format::Q8_0, &[3, 64], Order::RowMajor).unwrap();
    let mut ctx = Context::new().unwrap();
    let mut y = vec![0f32; 3];
    expect(ctx.matmul_wt(&[1.0; 63], &w, None, &mut y).unwrap_err(), Status::InvalidArgument, &["in = 64"]);
    expect(ctx.matmul_wt(&[1.0; 128], &w, None, &mut y).unwrap_err(), Status::InvalidArgument, &["y holds 3"]);
    expect(ctx.matmul_wt(&[1.0; 64], &w, Some(&[0.0; 2]), &mut y).unwrap_err(), Status::InvalidArgument, &["bias"]);
    let mut x = vec![1.0f32; 64];
    x[5] = f32::INFINITY;
    expect(ctx.matmul_wt(&x, &w, None, &mut y).unwrap_err(), Status::InvalidArgument, &[]);
    expect(ctx.set_threads(0).unwrap_err(), Status::InvalidArgument, &[]);
    ctx.matmul_wt(&[1.0; 64], &w, Some(&[1.0, 2.0, 3.0]), &mut y).unwrap();
    assert!(y.iter().all(|v| v.is_finite()));
}

#[test]
fn malformed_and_missing_files_are_refused() {
    expect(Gguf::open_memory(b"GGUF\x03\0\0\0", &GgufOptions::default()).unwrap_err(), Status::Format, &[]);
    expect(Gguf::open_memory(b"not a gguf file at all", &GgufOptions::default()).unwrap_err(), Status::Format, &[]);
    let missing = std::env::temp_dir().join("skn-rust-no-such-file.gguf");
    expect(Gguf::open(&missing, &GgufOptions::default()).unwrap_err(), Status::NotFound, &[]);
    expect(Gguf::open("/", &GgufOptions::default()).unwrap_err(), Status::InvalidArgument, &[]);
    expect(Imatrix::open_memory(&[]).unwrap_err(), Status::Format, &["empty"]);
    expect(Imatrix::open(&missing).unwrap_err(), Status::NotFound, &[]);
    expect(Gguf::open("a\0b", &GgufOptions::default()).unwrap_err(), Status::InvalidArgument, &["NUL"]);
}

#[test]
fn status_values_round_trip() {
    for s in [
        Status::InvalidArgument,
        Status::UnknownFormat,
        Status::Unsupported,
        Status::BufferTooSmall,
        Status::OutOfMemory,
        Status::Format,
        Status::Io,
        Status::NotFound,
        Status::Internal,
    ] {
        assert_eq!(Status::from_raw(s.raw()), Some(s));
        assert!(s.name().starts_with("SKN_E_"), "{}", s.name());
    }
    assert_eq!(Status::from_raw(0), None);
    assert_eq!(Status::from_raw(1234), Some(Status::Other(1234)));
}
