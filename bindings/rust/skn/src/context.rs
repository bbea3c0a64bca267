// SPDX-License-Identifier: MIT
//! Contexts and matmul_wt: y[n, out] = x[n, in] * W[out, in]^T (+ bias).
use std::ptr::{self, NonNull};

use skn_sys as sys;

use crate::error::{check, Result};
use crate::trace::{trampoline, TraceEvent, TraceSink};
use crate::view::{too_short, Scope, View};

/// How activations meet the weight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Precision {
    /// Activations quantized per block as the GGUF ecosystem does; integer kernels.
    #[default]
    Fast,
    /// Float32 activations against decoded weights.
    Exact,
}

/// Options for [`Context::matmul_wt_with`].
#[derive(Debug, Clone, Copy, Default)]
pub struct MatmulOptions<'s> {
    /// Fast (default) or exact.
    pub precision: Precision,
    /// When only the other block order has a kernel here: prepack the weight
    /// into this scope for the call (`Some`), or run the reference kernel (`None`).
    pub prepack_into: Option<&'s Scope>,
    /// Any fallback is an error (`Status::Unsupported`) instead of an event.
    pub strict: bool,
}

/// Threads, ISA cap and scratch memory reused from call to call (`skn_context`).
pub struct Context {
    raw: NonNull<sys::skn_context>,
    // The registered trace sink; boxed twice so the C side holds a thin
    // pointer that stays put while the Context moves.
    trace: Option<Box<TraceSink>>,
}

// SAFETY: a context may be used by one thread at a time, from any thread:
// Send moves it, and every call takes &mut self, so no two threads use it at
// once. It is not Sync.
unsafe impl Send for Context {}

impl Context {
    /// One thread, the ISA cap from `SKN_ISA` or the best this CPU has.
    pub fn new() -> Result<Context> {
        let mut p = ptr::null_mut();
        // SAFETY: p is a valid out pointer.
        check(unsafe { sys::skn_context_create(&mut p) })?;
        Ok(Context { raw: NonNull::new(p).expect("skn_context_create returned SKN_OK and NULL"), trace: None })
    }

    /// Use `threads` (1..1024) threads of the context's own pool.
    pub fn set_threads(&mut self, threads: i32) -> Result<()> {
        // SAFETY: a live context used by this thread only (&mut).
        check(unsafe { sys::skn_context_set_threads(self.raw.as_ptr(), threads) })
    }

    /// Cap the ISA tier kernels may use, by the names `SKN_ISA` takes
    /// ("scalar", "avx2", "avx512vnni", "neon", ...).
    pub fn set_isa(&mut self, name: &str) -> Result<()> {
        // The tiers' values are names, not ranks; ask the library for each
        // value's name rather than restate the table here.
        let isa = (0..64).find(|&v| {
            // SAFETY: static storage for any value.
            unsafe { crate::error::static_str(sys::skn_isa_name(v)) }.eq_ignore_ascii_case(name)
        });
        match isa {
            // SAFETY: a live context used by this thread only (&mut).
            Some(v) => check(unsafe { sys::skn_context_set_isa(self.raw.as_ptr(), v) }),
            None => Err(crate::error::Error::invalid(format!(
                "no ISA tier is named {:?}: use a name SKN_ISA takes (scalar, avx2, avxvnni, avx512, avx512vnni, \
                 neon, neondotprod, neoni8mm, sve, sve2)",
                name
            ))),
        }
    }

    /// Send this context's ADAPTER, KERNEL and FALLBACK events to `sink`
    /// (`None`: none). Kernel events may come from the pool's threads.
    pub fn set_trace<F>(&mut self, sink: Option<F>) -> Result<()>
    where
        F: Fn(&TraceEvent<'_>) + Send + Sync + 'static,
    {
        // SAFETY: unregister first, so the old sink is never called after it is freed.
        check(unsafe { sys::skn_context_set_trace(self.raw.as_ptr(), None, ptr::null_mut()) })?;
        self.trace = None;
        if let Some(f) = sink {
            let boxed: Box<TraceSink> = Box::new(Box::new(f));
            let user = &*boxed as *const TraceSink as *mut std::os::raw::c_void;
            // SAFETY: user stays valid while registered: it is freed only
            // after being unregistered here or in Drop (after destroy).
            check(unsafe { sys::skn_context_set_trace(self.raw.as_ptr(), Some(trampoline), user) })?;
            self.trace = Some(boxed);
        }
        Ok(())
    }

    /// y = x * W^T (+ bias), with `x` holding `x.len() / in` rows of `in`
    /// floats and `y` room for as many rows of `out`. The bits are the same
    /// for a weight in either block order and any thread count.
    pub fn matmul_wt(&mut self, x: &[f32], w: &View<'_>, bias: Option<&[f32]>, y: &mut [f32]) -> Result<()> {
        self.matmul_wt_with(x, w, bias, y, &MatmulOptions::default())
    }

    /// [`Context::matmul_wt`] with options.
    pub fn matmul_wt_with(
        &mut self,
        x: &[f32],
        w: &View<'_>,
        bias: Option<&[f32]>,
        y: &mut [f32],
        options: &MatmulOptions<'_>,
    ) -> Result<()> {
        // The C call trusts the sizes it is given; slices carry theirs, so
        // they are checked here before any pointer crosses.
        let shape = w.shape();
        if shape.len() != 2 {
            return Err(crate::error::Error::invalid(format!(
                "matmul_wt: the weight must be [out, in], got {:?}: select an expert of a stacked weight first",
                shape
            )));
        }
        let (out, input) = (shape[0] as usize, shape[1] as usize);
        let rows = x.len() / input;
        if rows == 0 || x.len() % input != 0 {
            return Err(crate::error::Error::invalid(format!(
                "matmul_wt: x holds {} floats, not a positive multiple of in = {}",
                x.len(),
                input
            )));
        }
        if y.len() < rows * out {
            return Err(too_short("matmul_wt: y", y.len(), rows * out));
        }
        if let Some(b) = bias {
            if b.len() != out {
                return Err(crate::error::Error::invalid(format!(
                    "matmul_wt: bias holds {} floats, the weight has out = {}",
                    b.len(),
                    out
                )));
            }
        }
        let opts = raw_options(options);
        // SAFETY: sizes checked above; y is exclusive (&mut) so cannot overlap x.
        check(unsafe {
            sys::skn_matmul_wt(
                self.raw.as_ptr(),
                x.as_ptr(),
                rows as i64,
                input as i64,
                w.as_ptr(),
                bias.map_or(ptr::null(), |b| b.as_ptr()),
                y.as_mut_ptr(),
                out as i64,
                &opts,
            )
        })
    }

    /// Expert-routed matmul_wt (llama.cpp's mul_mat_id) over a stacked
    /// weight `w` [E, out, in]: row i, slot s is multiplied by expert
    /// `ids[i * k + s]` and, with `gates`, scaled by `gates[i * k + s]`.
    /// `x` is [n, in] (every slot of a row reads the row) or, with
    /// `x_per_slot`, [n, k, in]; `bias` is E * out floats; `y` is [n, k, out].
    /// The ids are checked (0..E-1) before anything is written.
    #[allow(clippy::too_many_arguments)]
    pub fn matmul_wt_id(
        &mut self,
        x: &[f32],
        x_per_slot: bool,
        ids: &[i32],
        k: usize,
        gates: Option<&[f32]>,
        w: &View<'_>,
        bias: Option<&[f32]>,
        y: &mut [f32],
        options: &MatmulOptions<'_>,
    ) -> Result<()> {
        let shape = w.shape();
        if shape.len() != 3 {
            return Err(crate::error::Error::invalid(format!(
                "matmul_wt_id: the weight must be a stacked [E, out, in], got {:?}",
                shape
            )));
        }
        let (experts, out, input) = (shape[0] as usize, shape[1] as usize, shape[2] as usize);
        if k == 0 || ids.is_empty() || ids.len() % k != 0 {
            return Err(crate::error::Error::invalid(format!(
                "matmul_wt_id: ids holds {} ids, not a positive multiple of k = {}",
                ids.len(),
                k
            )));
        }
        let rows = ids.len() / k;
        let x_need = if x_per_slot { rows * k * input } else { rows * input };
        if x.len() != x_need {
            return Err(crate::error::Error::invalid(format!(
                "matmul_wt_id: x holds {} floats, {} rows of {}in = {} need {}",
                x.len(),
                rows,
                if x_per_slot { "k slots of " } else { "" },
                input,
                x_need
            )));
        }
        if let Some(g) = gates {
            if g.len() != ids.len() {
                return Err(crate::error::Error::invalid(format!(
                    "matmul_wt_id: gates holds {} floats, one per id ({}) is needed",
                    g.len(),
                    ids.len()
                )));
            }
        }
        if let Some(b) = bias {
            if b.len() != experts * out {
                return Err(crate::error::Error::invalid(format!(
                    "matmul_wt_id: bias holds {} floats, E * out = {} are needed",
                    b.len(),
                    experts * out
                )));
            }
        }
        if y.len() < rows * k * out {
            return Err(too_short("matmul_wt_id: y", y.len(), rows * k * out));
        }
        let opts = raw_options(options);
        // SAFETY: every size checked above; y is exclusive (&mut).
        check(unsafe {
            sys::skn_matmul_wt_id(
                self.raw.as_ptr(),
                x.as_ptr(),
                rows as i64,
                if x_per_slot { (k * input) as i64 } else { input as i64 },
                if x_per_slot { input as i64 } else { 0 },
                ids.as_ptr(),
                k as i64,
                k as i64,
                gates.map_or(ptr::null(), |g| g.as_ptr()),
                k as i64,
                w.as_ptr(),
                bias.map_or(ptr::null(), |b| b.as_ptr()),
                y.as_mut_ptr(),
                (k * out) as i64,
                out as i64,
                &opts,
            )
        })
    }

    /// `w` in the block order fastest for this context's ISA (the same view
    /// when it already is, else a copy in `scope`). Call once per weight at load.
    pub fn prepack_for_matmul<'a>(&mut self, w: &View<'a>, scope: &Scope) -> Result<View<'a>> {
        let mut p = ptr::null_mut();
        // SAFETY: live context, view and scope; valid out pointer.
        check(unsafe { sys::skn_prepack_for_matmul(self.raw.as_ptr(), w.as_ptr(), scope.as_ptr(), &mut p) })?;
        Ok(unsafe { View::from_raw(p) })
    }
}

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Context")
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        // SAFETY: destroyed once, by its owner; the trace sink (a field)
        // is dropped after this, when nothing can call it any more.
        unsafe { sys::skn_context_destroy(self.raw.as_ptr()) }
    }
}

fn raw_options(options: &MatmulOptions<'_>) -> sys::skn_matmul_options {
    sys::skn_matmul_options {
        struct_size: std::mem::size_of::<sys::skn_matmul_options>(),
        precision: match options.precision {
            Precision::Fast => sys::SKN_PRECISION_FAST,
            Precision::Exact => sys::SKN_PRECISION_EXACT,
        },
        prepack_weights: options.prepack_into.is_some() as i32,
        strict: options.strict as i32,
        scope: options.prepack_into.map_or(ptr::null_mut(), |s| s.as_ptr()),
    }
}
