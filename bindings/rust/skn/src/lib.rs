// SPDX-License-Identifier: MIT
//! Safe Rust bindings to libskn: block-quantized (GGUF-style) weights and
//! the CPU matrix products over them.
//!
//! ```no_run
//! use skn::{Context, Format, Order, View};
//!
//! let (rows, cols) = (4, 256);
//! let w: Vec<f32> = (0..rows * cols).map(|i| (i as f32 * 0.37).sin()).collect();
//! let packed = skn::quantize(Format::Q4_K, &w, rows as i64, cols as i64)?;
//! let view = View::from_bytes(&packed, Format::Q4_K, &[rows as i64, cols as i64], Order::RowMajor)?;
//! let x = vec![1.0f32; cols];
//! let mut y = vec![0.0f32; rows];
//! Context::new()?.matmul_wt(&x, &view, None, &mut y)?;
//! # Ok::<(), skn::Error>(())
//! ```
//!
//! Every fallible call returns [`Result`]; its [`Error`] carries skn's
//! status and the message saying what was wrong and how to fix it.
//!
//! Ownership follows the C API (`skn/skn.h`): handles are released on
//! `Drop`; a [`View`] borrows the bytes it was made over (its lifetime
//! parameter), or keeps a file mapping or a [`Scope`]'s copy alive by itself.
//! Threads follow the header's contract: views, scopes, GGUF readers and
//! imatrices are `Send + Sync`; contexts, GGUF writers and streams are
//! `Send` only (one thread at a time).
//!
//! The compiler enforces both. A view cannot outlive the bytes it borrows:
//!
//! ```compile_fail
//! # use skn::{Format, Order, View};
//! let view = {
//!     let bytes = vec![0u8; 3 * 34];
//!     View::from_bytes(&bytes, Format::Q8_0, &[3, 32], Order::RowMajor).unwrap()
//! };
//! ```
//!
//! nor a reader's tensor bytes the reader (a tensor view may: it holds the
//! mapping):
//!
//! ```compile_fail
//! # use skn::{Gguf, GgufOptions};
//! let data = {
//!     let g = Gguf::open("model.gguf", &GgufOptions::default()).unwrap();
//!     g.tensor_data(0).unwrap()
//! };
//! ```
//!
//! and a context cannot be shared between threads:
//!
//! ```compile_fail
//! fn shared<T: Sync>(_: &T) {}
//! shared(&skn::Context::new().unwrap());
//! ```
#![warn(missing_docs)]

mod context;
mod error;
mod fixture;
mod format;
mod gguf;
mod gguf_metadata;
mod gguf_writer;
mod imatrix;
mod log;
mod quantize;
mod trace;
mod view;

pub use context::{Context, MatmulOptions, Precision};
pub use error::{Error, Result, Status};
pub use fixture::{
    fixture_bytes, fixture_disagreement, golden_bytes, golden_floats, golden_shape, GoldenPart, GoldenShape,
};
pub use format::{cpu, version, Format, FormatInfo};
pub use gguf::{gguf_type_name, Gguf, GgufOptions, GgufType, I2sLayout, Orientation, TensorInfo};
pub use gguf_metadata::MetadataValue;
pub use gguf_writer::{GgufStream, GgufWriter};
pub use imatrix::{Imatrix, ImatrixEntry};
pub use log::{set_log_callback, LogLevel};
pub use quantize::{
    dequantize, dequantize_into, quantize, quantize_with_options, quantized_size, relayout, QuantizeOptions,
};
pub use trace::{TraceEvent, TraceKind};
pub use view::{require_out_in, Order, Scope, View};

/// The raw C declarations this crate is built on.
pub use skn_sys as sys;
