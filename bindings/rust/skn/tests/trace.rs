// SPDX-License-Identifier: MIT
// Trace events reach a Rust sink: the kernel that ran, its shape and ISA;
// none after the sink is removed; a panicking sink does not unwind into C.
use std::sync::{Arc, Mutex};

use skn::{Context, Format, Order, TraceKind, View};

/// (kind, name, isa, n, out, in) of each event seen.
type Seen = Arc<Mutex<Vec<(TraceKind, String, String, i64, i64, i64)>>>;

#[test]
fn kernel_events_name_the_kernel_and_shape() {
    let (out, input) = (3i64, 96i64);
    let src: Vec<f32> = (0..out * input).map(|i| (i as f32 * 0.1).sin()).collect();
    let packed = skn::quantize(Format::Q8_0, &src, out, input).unwrap();
    let w = View::from_bytes(&packed, Format::Q8_0, &[out, input], Order::RowMajor).unwrap();
    let seen: Seen = Arc::default();
    let mut ctx = Context::new().unwrap();
    let sink = seen.clone();
    ctx.set_trace(Some(move |e: &skn::TraceEvent<'_>| {
        sink.lock().unwrap().push((e.kind, e.name.to_string(), e.isa.to_string(), e.n, e.out, e.input))
    }))
    .unwrap();
    let x = vec![0.5f32; 2 * input as usize];
    let mut y = vec![0f32; 2 * out as usize];
    ctx.matmul_wt(&x, &w, None, &mut y).unwrap();
    let events = seen.lock().unwrap().clone();
    let kernel = events.iter().find(|e| e.0 == TraceKind::Kernel || e.0 == TraceKind::Fallback).expect("no event");
    assert!(kernel.1.starts_with("matmul_wt_q8_0_"), "{:?}", kernel);
    assert!(!kernel.2.is_empty() && kernel.2 != "unknown", "{:?}", kernel);
    assert_eq!((kernel.3, kernel.4, kernel.5), (2, out, input));

    ctx.set_trace(None::<fn(&skn::TraceEvent<'_>)>).unwrap();
    let before = seen.lock().unwrap().len();
    ctx.matmul_wt(&x, &w, None, &mut y).unwrap();
    assert_eq!(seen.lock().unwrap().len(), before, "events after the sink was removed");

    ctx.set_trace(Some(|_: &skn::TraceEvent<'_>| panic!("a sink that panics"))).unwrap();
    ctx.matmul_wt(&x, &w, None, &mut y).unwrap();
}

#[test]
fn isa_cap_by_name_reaches_the_kernel_choice() {
    let (out, input) = (3i64, 64i64);
    let packed = skn::quantize(Format::Q8_0, &vec![0.5; (out * input) as usize], out, input).unwrap();
    let w = View::from_bytes(&packed, Format::Q8_0, &[out, input], Order::RowMajor).unwrap();
    let mut ctx = Context::new().unwrap();
    let isa: Arc<Mutex<String>> = Arc::default();
    let sink = isa.clone();
    ctx.set_trace(Some(move |e: &skn::TraceEvent<'_>| *sink.lock().unwrap() = e.isa.to_string())).unwrap();
    ctx.set_isa("scalar").unwrap();
    let mut y = vec![0f32; out as usize];
    ctx.matmul_wt(&vec![1.0; input as usize], &w, None, &mut y).unwrap();
    assert_eq!(*isa.lock().unwrap(), "scalar");
    let e = ctx.set_isa("avx9").unwrap_err();
    assert_eq!(e.status(), skn::Status::InvalidArgument);
    assert!(e.message().contains("avx9"), "{}", e);
}

#[test]
fn log_messages_reach_a_rust_sink() {
    // Every error is logged at DEBUG with its status and message.
    let seen: Arc<Mutex<Vec<(skn::LogLevel, String)>>> = Arc::default();
    let sink = seen.clone();
    skn::set_log_callback(skn::LogLevel::Debug, Some(move |l, m: &str| sink.lock().unwrap().push((l, m.to_string()))))
        .unwrap();
    let e = skn::quantized_size(Format(4), 1, 32).unwrap_err();
    skn::set_log_callback(skn::LogLevel::Off, None::<fn(skn::LogLevel, &str)>).unwrap();
    let seen = seen.lock().unwrap();
    assert!(
        seen.iter().any(|(l, m)| *l == skn::LogLevel::Debug && m.contains(e.message())),
        "{:?} lacks {:?}",
        seen,
        e.message()
    );
}
