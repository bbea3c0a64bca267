// SPDX-License-Identifier: MIT
// Expert-routed matmul_wt over a stacked [E, out, in] weight: each routed
// row equals matmul_wt of that row against the expert's slice, in either
// block order; bad ids and sizes are refused before anything is written.
use skn::{Context, Format, MatmulOptions, Order, Scope, Status, View};

#[test]
fn routed_rows_equal_the_expert_slices_product() {
    let (experts, out, input, rows, k) = (3i64, 5i64, 96i64, 2usize, 2usize);
    let src: Vec<f32> = (0..experts * out * input).map(|i| ((i * 31 % 97) as f32 / 48.0) - 1.0).collect();
    let packed = skn::quantize(Format::Q8_0, &src, experts * out, input).unwrap();
    let w = View::from_bytes(&packed, Format::Q8_0, &[experts, out, input], Order::RowMajor).unwrap();
    let scope = Scope::new().unwrap();
    let w_ibm = w.prepack(Order::InputBlockMajor, &scope).unwrap();
    let x: Vec<f32> = (0..rows * input as usize).map(|i| (i as f32 * 0.05).sin()).collect();
    let ids = [2, 0, 1, 2];
    let gates = [0.5f32, 2.0, 1.0, -1.0];
    let bias: Vec<f32> = (0..experts * out).map(|i| i as f32 * 0.01).collect();
    let mut ctx = Context::new().unwrap();
    let opts = MatmulOptions::default();
    let mut y = vec![0f32; rows * k * out as usize];
    let mut y_ibm = vec![0f32; y.len()];
    ctx.matmul_wt_id(&x, false, &ids, k, Some(&gates), &w, Some(&bias), &mut y, &opts).unwrap();
    ctx.matmul_wt_id(&x, false, &ids, k, Some(&gates), &w_ibm, Some(&bias), &mut y_ibm, &opts).unwrap();
    assert_eq!(
        y.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        y_ibm.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
    );
    for i in 0..rows {
        for s in 0..k {
            let e = ids[i * k + s] as usize;
            let slice = w.select(0, e as i64).unwrap();
            assert_eq!(slice.shape(), vec![out, input]);
            let b = &bias[e * out as usize..(e + 1) * out as usize];
            let mut want = vec![0f32; out as usize];
            ctx.matmul_wt(&x[i * input as usize..(i + 1) * input as usize], &slice, Some(b), &mut want).unwrap();
            for o in 0..out as usize {
                let got = y[(i * k + s) * out as usize + o];
                assert_eq!(got.to_bits(), (gates[i * k + s] * want[o]).to_bits(), "row {} slot {} out {}", i, s, o);
            }
        }
    }
}

#[test]
fn bad_routes_are_refused_and_nothing_written() {
    let (experts, out, input) = (2i64, 3i64, 32i64);
    let packed =
        skn::quantize(Format::Q8_0, &vec![0.25; (experts * out * input) as usize], experts * out, input).unwrap();
    let w = View::from_bytes(&packed, Format::Q8_0, &[experts, out, input], Order::RowMajor).unwrap();
    let mut ctx = Context::new().unwrap();
    let opts = MatmulOptions::default();
    let x = vec![1.0f32; input as usize];
    let mut y = vec![7.0f32; 2 * out as usize];
    let e = ctx.matmul_wt_id(&x, false, &[0, 2], 2, None, &w, None, &mut y, &opts).unwrap_err();
    assert_eq!(e.status(), Status::InvalidArgument);
    assert!(e.message().contains('2'), "{}", e);
    assert!(y.iter().all(|&v| v == 7.0), "y written on error");
    let e = ctx.matmul_wt_id(&x, false, &[0, 1, 1], 2, None, &w, None, &mut y, &opts).unwrap_err();
    assert!(e.message().contains("k = 2"), "{}", e);
    let e = ctx.matmul_wt_id(&x, true, &[0, 1], 2, None, &w, None, &mut y, &opts).unwrap_err();
    assert!(e.message().contains("need 64"), "{}", e);
    let flat = w.select(0, 0).unwrap();
    let e = ctx.matmul_wt_id(&x, false, &[0, 1], 2, None, &flat, None, &mut y, &opts).unwrap_err();
    assert!(e.message().contains("[E, out, in]"), "{}", e);
}
