// SPDX-License-Identifier: MIT
// Send and Sync are what the C contract allows; shared views and readers
// give the same answers from several threads.
use skn::{Context, Format, Gguf, GgufStream, GgufWriter, Imatrix, Order, Scope, View};

fn send_sync<T: Send + Sync>() {}
fn send<T: Send>() {}

#[test]
fn marker_traits_follow_the_contract() {
    send_sync::<View<'static>>();
    send_sync::<Scope>();
    send_sync::<Gguf<'static>>();
    send_sync::<Imatrix>();
    send_sync::<skn::Error>();
    send::<Context>();
    send::<GgufWriter>();
    send::<GgufStream>();
}

#[test]
fn one_view_many_threads() {
    let (rows, cols) = (8i64, 512i64);
    let src: Vec<f32> = (0..rows * cols).map(|i| (i as f32 * 0.01).sin()).collect();
    let packed = skn::quantize(Format::Q4_0, &src, rows, cols).unwrap();
    let scope = Scope::new().unwrap();
    let w = View::from_bytes(&packed, Format::Q4_0, &[rows, cols], Order::RowMajor).unwrap();
    let x: Vec<f32> = (0..2 * cols).map(|i| (i as f32 * 0.03).cos()).collect();
    let mut want = vec![0f32; 2 * rows as usize];
    Context::new().unwrap().matmul_wt(&x, &w, None, &mut want).unwrap();
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..3)
            .map(|t| {
                let (w, x, scope) = (&w, &x, &scope);
                s.spawn(move || {
                    let mut ctx = Context::new().unwrap();
                    ctx.set_threads(1 + t).unwrap();
                    let w = if t == 1 { w.prepack(Order::InputBlockMajor, scope).unwrap() } else { w.clone() };
                    let mut y = vec![0f32; 2 * rows as usize];
                    ctx.matmul_wt(x, &w, None, &mut y).unwrap();
                    y
                })
            })
            .collect();
        for h in handles {
            let y = h.join().unwrap();
            assert_eq!(
                y.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                want.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
            );
        }
    });
}

#[test]
fn errors_are_per_thread() {
    // skn_last_error is per OS thread: an error on one thread leaves another's message alone.
    let e = std::thread::spawn(|| skn::quantize(Format(4), &[0.0; 32], 1, 32).unwrap_err()).join().unwrap();
    assert_eq!(e.status(), skn::Status::UnknownFormat);
    skn::quantize(Format::Q8_0, &[0.0; 32], 1, 32).unwrap();
}
