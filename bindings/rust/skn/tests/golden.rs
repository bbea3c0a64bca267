// SPDX-License-Identifier: MIT
// The golden decode and fixture checks of the C consumer
// (tests/consumers/c/consumer.c), through the safe API, over every block
// format that has a golden fixture.
use skn::{Context, Format, GoldenPart, MatmulOptions, Order, Precision, Scope, View};

fn block_formats() -> Vec<Format> {
    Format::all().into_iter().filter(|f| f.info().unwrap().is_block_quantized).collect()
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|f| f.to_bits()).collect()
}

#[test]
fn golden_decoded_equals_dequantize_of_packed() {
    let formats = block_formats();
    assert!(formats.contains(&Format::Q4_K) && formats.contains(&Format::Q8_0), "{:?}", formats);
    for f in formats {
        let shape = skn::golden_shape(f).unwrap();
        assert!(shape.cols >= 3 * f.info().unwrap().block_elems as i64, "{} golden under 3 blocks wide", f);
        let packed = skn::golden_bytes(f, GoldenPart::Packed).unwrap();
        let decoded = skn::golden_floats(f, GoldenPart::Decoded).unwrap();
        assert_eq!(decoded.len() as i64, shape.rows * shape.cols, "{}", f);
        let mine = skn::dequantize(f, &packed, shape.rows, shape.cols).unwrap();
        assert_eq!(bits(&mine), bits(&decoded), "{}: dequantize(PACKED) != DECODED", f);
    }
}

#[test]
fn golden_views_decode_the_same_in_either_order() {
    for f in block_formats() {
        let shape = skn::golden_shape(f).unwrap();
        let dims = [shape.rows, shape.cols];
        let decoded = skn::golden_floats(f, GoldenPart::Decoded).unwrap();
        let rm = skn::golden_bytes(f, GoldenPart::Packed).unwrap();
        let ibm = skn::golden_bytes(f, GoldenPart::PackedKernelOrder).unwrap();
        let v_rm = View::from_bytes(&rm, f, &dims, Order::RowMajor).unwrap();
        let v_ibm = View::from_bytes(&ibm, f, &dims, Order::InputBlockMajor).unwrap();
        assert_eq!(v_ibm.order(), Order::InputBlockMajor);
        assert_eq!(v_rm.shape(), dims.to_vec());
        assert_eq!(bits(&v_rm.to_f32().unwrap()), bits(&decoded), "{} ROW_MAJOR view", f);
        assert_eq!(bits(&v_ibm.to_f32().unwrap()), bits(&decoded), "{} INPUT_BLOCK_MAJOR view", f);
        let last = [shape.rows - 1, shape.cols - 1];
        assert_eq!(v_ibm.get(&last).unwrap().to_bits(), decoded[decoded.len() - 1].to_bits());
        // The byte relayout agrees with the shipped kernel-order bytes.
        let blocks = shape.cols / f.info().unwrap().block_elems as i64;
        assert_eq!(skn::relayout(f, &rm, shape.rows, blocks, true).unwrap(), ibm, "{}", f);
        assert_eq!(skn::relayout(f, &ibm, shape.rows, blocks, false).unwrap(), rm, "{}", f);
    }
}

#[test]
fn golden_matmul_matches_y_in_either_order() {
    let mut ctx = Context::new().unwrap();
    let scope = Scope::new().unwrap();
    for f in [Format::Q4_0, Format::Q8_0, Format::Q4_K, Format::Q6_K, Format::IQ4_NL] {
        let shape = skn::golden_shape(f).unwrap();
        let packed = skn::golden_bytes(f, GoldenPart::Packed).unwrap();
        let x = skn::golden_floats(f, GoldenPart::X).unwrap();
        let y_golden = skn::golden_floats(f, GoldenPart::Y).unwrap();
        let decoded = skn::golden_floats(f, GoldenPart::Decoded).unwrap();
        let w = View::from_bytes(&packed, f, &[shape.rows, shape.cols], Order::RowMajor).unwrap();
        let w_ibm = w.prepack(Order::InputBlockMajor, &scope).unwrap();
        let exact = MatmulOptions { precision: Precision::Exact, ..Default::default() };
        let mut y = vec![0f32; (shape.x_rows * shape.rows) as usize];
        let mut y_ibm = vec![0f32; y.len()];
        ctx.matmul_wt_with(&x, &w, None, &mut y, &exact).unwrap();
        ctx.matmul_wt_with(&x, &w_ibm, None, &mut y_ibm, &exact).unwrap();
        assert_eq!(bits(&y), bits(&y_ibm), "{}: the block order changed the bits", f);
        // Exact precision sums in float in its own order; the golden sums in
        // double and rounds once. The bound is docs/kernels.md's float
        // accumulation bound, (in + 2) * 2^-23 * sum |w x|, plus that rounding.
        let cols = shape.cols as usize;
        for i in 0..shape.x_rows as usize {
            for o in 0..shape.rows as usize {
                let mag: f32 = (0..cols).map(|c| (x[i * cols + c] * decoded[o * cols + c]).abs()).sum();
                let got = y[i * shape.rows as usize + o];
                let want = y_golden[i * shape.rows as usize + o];
                let bound = (cols as f32 + 2.0) * f32::EPSILON * mag + want.abs() * f32::EPSILON / 2.0;
                assert!((got - want).abs() <= bound, "{} y[{}, {}] = {} want {} (bound {})", f, i, o, got, want, bound);
            }
        }
    }
    assert!(scope.allocated() > 0, "the prepacks copied into the scope");
}

#[test]
fn kernel_order_fixture_passes_and_canonical_is_named() {
    let (default_rows, blocks) =
        (skn::sys::SKN_FIXTURE_DEFAULT_ROWS as i64, skn::sys::SKN_FIXTURE_DEFAULT_BLOCKS_PER_ROW as i64);
    for f in block_formats() {
        // A row-interleaved format's fixture is at least two blocks tall (2 R rows).
        let rows = default_rows.max(2 * f.info().unwrap().block_rows as i64);
        let kernel = skn::fixture_bytes(f, Order::InputBlockMajor, rows, blocks).unwrap();
        let canonical = skn::fixture_bytes(f, Order::RowMajor, rows, blocks).unwrap();
        assert_eq!(kernel.len(), canonical.len());
        assert_eq!(skn::fixture_disagreement(&kernel, f, Order::InputBlockMajor, rows, blocks), None, "{}", f);
        let msg = skn::fixture_disagreement(&canonical, f, Order::InputBlockMajor, rows, blocks)
            .unwrap_or_else(|| panic!("{}: canonical bytes read as kernel order passed", f));
        assert!(msg.contains("ROW_MAJOR"), "{}: {}", f, msg);
        // A converter's relayout of the canonical fixture is the kernel fixture.
        assert_eq!(skn::relayout(f, &canonical, rows, blocks, true).unwrap(), kernel, "{}", f);
    }
}

#[test]
fn quantize_round_trips_through_its_own_decode() {
    // Odd shapes: one row; three blocks per row.
    for &(rows, cols) in &[(1i64, 256i64), (3, 768)] {
        let src: Vec<f32> = (0..rows * cols).map(|i| ((i * 7919 % 1000) as f32 / 500.0) - 1.0).collect();
        for f in [Format::Q8_0, Format::Q4_K, Format::Q6_K] {
            let packed = skn::quantize(f, &src, rows, cols).unwrap();
            assert_eq!(packed.len(), skn::quantized_size(f, rows, cols).unwrap());
            let back = skn::dequantize(f, &packed, rows, cols).unwrap();
            let worst = src.iter().zip(&back).map(|(a, b)| (a - b).abs()).fold(0f32, f32::max);
            assert!(worst < 0.1, "{} [{}, {}] worst error {}", f, rows, cols, worst);
            let threaded = skn::quantize_with_options(
                f,
                &src,
                rows,
                cols,
                &skn::QuantizeOptions { threads: 2, ..Default::default() },
            )
            .unwrap();
            assert_eq!(threaded, packed, "{}: the thread count changed the bytes", f);
        }
    }
}

#[test]
fn interleaved_formats_name_their_rows_and_canonical_format() {
    let q4 = Format::from_name("q4_0_r8").unwrap().info().unwrap();
    assert_eq!((q4.block_rows, q4.interleaves, q4.block_bytes), (8, Format::Q4_0, 18));
    assert_eq!(Format::Q4_K.info().unwrap().block_rows, 1);
    assert_eq!(Format::Q4_K.info().unwrap().interleaves, Format::Q4_K);
    for f in Format::all() {
        let i = f.info().unwrap();
        assert_eq!(i.block_rows > 1, i.interleaves != f, "{}", f);
    }
}
