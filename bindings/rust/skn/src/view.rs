// SPDX-License-Identifier: MIT
//! Views over packed weights, their block order, and the scopes prepacked
//! copies live in.
use std::ffi::CStr;
use std::marker::PhantomData;
use std::os::raw::c_void;
use std::ptr::{self, NonNull};

use skn_sys as sys;

use crate::error::{check, Error, Result};
use crate::format::Format;

/// Where block (o, b) of an [out, in] weight sits (`skn_block_order`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Order {
    /// Canonical, what files hold: block (o, b) at o * blocks_per_row + b.
    RowMajor,
    /// Kernel order: block (o, b) at b * out + o.
    InputBlockMajor,
}

impl Order {
    pub(crate) fn raw(self) -> sys::skn_block_order {
        match self {
            Order::RowMajor => sys::SKN_ORDER_ROW_MAJOR,
            Order::InputBlockMajor => sys::SKN_ORDER_INPUT_BLOCK_MAJOR,
        }
    }

    fn from_raw(raw: sys::skn_block_order) -> Order {
        if raw == sys::SKN_ORDER_INPUT_BLOCK_MAJOR {
            Order::InputBlockMajor
        } else {
            Order::RowMajor
        }
    }
}

/// An arena for prepacked copies (`skn_scope`). Views allocated in it keep
/// their bytes alive after the scope is dropped.
pub struct Scope {
    raw: NonNull<sys::skn_scope>,
}

// SAFETY: the C contract lets any number of threads allocate in one scope at
// once, and skn_scope_destroy (Drop, which takes the scope by value) cannot
// race with a call borrowing it.
unsafe impl Send for Scope {}
unsafe impl Sync for Scope {}

impl Scope {
    /// An empty scope.
    pub fn new() -> Result<Scope> {
        let mut p = ptr::null_mut();
        // SAFETY: p is a valid out pointer.
        check(unsafe { sys::skn_scope_create(&mut p) })?;
        Ok(Scope { raw: NonNull::new(p).expect("skn_scope_create returned SKN_OK and NULL") })
    }

    /// Total bytes ever allocated in the scope.
    pub fn allocated(&self) -> u64 {
        let mut n = 0u64;
        // SAFETY: a live scope and a valid out pointer: cannot fail.
        unsafe { sys::skn_scope_allocated(self.raw.as_ptr(), &mut n) };
        n
    }

    pub(crate) fn as_ptr(&self) -> *mut sys::skn_scope {
        self.raw.as_ptr()
    }
}

impl std::fmt::Debug for Scope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Scope({} bytes allocated)", self.allocated())
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        // SAFETY: the scope's own hold, released once.
        unsafe { sys::skn_scope_destroy(self.raw.as_ptr()) }
    }
}

/// A layout (format, shape, block order) over packed bytes (`skn_view`).
///
/// `'a` is the lifetime of the bytes the view borrows: the caller's slice
/// ([`View::from_bytes`]) or the buffer a GGUF reader was opened on. A view
/// over a file mapping or a scope's copy is `View<'static>`. Cloning takes
/// one more reference to the same immutable view.
pub struct View<'a> {
    raw: NonNull<sys::skn_view>,
    bytes: PhantomData<&'a [u8]>,
}

// SAFETY: views are immutable; the C contract lets any number of threads use
// one view at once and retain/release it from any thread. The bytes borrowed
// for 'a are shared ([u8] is Sync).
unsafe impl Send for View<'_> {}
unsafe impl Sync for View<'_> {}

impl<'a> View<'a> {
    /// Take ownership of a reference skn returned.
    ///
    /// # Safety
    /// `p` must be a view reference the caller owns, valid for 'a.
    pub(crate) unsafe fn from_raw(p: *mut sys::skn_view) -> View<'a> {
        View { raw: NonNull::new(p).expect("skn returned SKN_OK and a NULL view"), bytes: PhantomData }
    }

    pub(crate) fn as_ptr(&self) -> *const sys::skn_view {
        self.raw.as_ptr()
    }

    /// Wrap `bytes` as a view of `shape` (1 to 4 dimensions, the block axis
    /// last: a weight is [out, in]) in block order `order`. Nothing is
    /// copied; the view borrows `bytes`.
    pub fn from_bytes(bytes: &'a [u8], format: Format, shape: &[i64], order: Order) -> Result<View<'a>> {
        let mut p = ptr::null_mut();
        // SAFETY: bytes and shape come with their lengths; the view borrows
        // bytes for 'a, which the returned View's lifetime enforces.
        check(unsafe {
            sys::skn_view_from_bytes(
                bytes.as_ptr() as *const c_void,
                bytes.len(),
                format.0,
                shape.as_ptr(),
                shape.len() as i32,
                order.raw(),
                &mut p,
            )
        })?;
        Ok(unsafe { View::from_raw(p) })
    }

    /// The format.
    pub fn format(&self) -> Format {
        // SAFETY: a live view.
        Format(unsafe { sys::skn_view_format(self.as_ptr()) })
    }

    /// The block order.
    pub fn order(&self) -> Order {
        // SAFETY: a live view.
        Order::from_raw(unsafe { sys::skn_view_order(self.as_ptr()) })
    }

    /// The shape, as labelled (a weight is [out, in]).
    pub fn shape(&self) -> Vec<i64> {
        let mut shape = [0i64; 4];
        // SAFETY: a live view and room for 4 values.
        unsafe {
            sys::skn_view_shape(self.as_ptr(), shape.as_mut_ptr());
            shape[..sys::skn_view_rank(self.as_ptr()) as usize].to_vec()
        }
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.shape().iter().product::<i64>() as usize
    }

    /// Never true: a view has at least one element per dimension.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// A one-line description of the layout.
    pub fn describe(&self) -> String {
        // SAFETY: owned by the view, copied at once.
        unsafe { CStr::from_ptr(sys::skn_view_describe(self.as_ptr())) }.to_string_lossy().into_owned()
    }

    /// The element at `indices` (one per dimension), decoded.
    pub fn get(&self, indices: &[i64]) -> Result<f32> {
        let mut v = 0f32;
        // SAFETY: indices comes with its length.
        check(unsafe { sys::skn_view_get(self.as_ptr(), indices.as_ptr(), indices.len() as i32, &mut v) })?;
        Ok(v)
    }

    /// Decode the whole view to row-major floats: the same in either order.
    pub fn to_f32(&self) -> Result<Vec<f32>> {
        let mut out = vec![0f32; self.len()];
        // SAFETY: out comes with its length.
        check(unsafe { sys::skn_view_to_float(self.as_ptr(), out.as_mut_ptr(), out.len()) })?;
        Ok(out)
    }

    /// Indices [start, start + length) along `dim`, sharing the bytes.
    pub fn narrow(&self, dim: i32, start: i64, length: i64) -> Result<View<'a>> {
        let mut p = ptr::null_mut();
        // SAFETY: a live view and a valid out pointer; the result borrows what self does.
        check(unsafe { sys::skn_view_narrow(self.as_ptr(), dim, start, length, &mut p) })?;
        Ok(unsafe { View::from_raw(p) })
    }

    /// The slice at `index` of dimension `dim`, that dimension dropped
    /// (expert e of a stacked [E, out, in] weight: `select(0, e)`).
    pub fn select(&self, dim: i32, index: i64) -> Result<View<'a>> {
        let mut p = ptr::null_mut();
        // SAFETY: as narrow.
        check(unsafe { sys::skn_view_select(self.as_ptr(), dim, index, &mut p) })?;
        Ok(unsafe { View::from_raw(p) })
    }

    /// Swap two dimensions (dense views only: a packed weight's blocks run
    /// along its input axis; use matmul_wt to compute x * W^T).
    pub fn transpose(&self, dim0: i32, dim1: i32) -> Result<View<'a>> {
        let mut p = ptr::null_mut();
        // SAFETY: as narrow.
        check(unsafe { sys::skn_view_transpose(self.as_ptr(), dim0, dim1, &mut p) })?;
        Ok(unsafe { View::from_raw(p) })
    }

    /// Insert a dimension of extent 1 before `dim`.
    pub fn unsqueeze(&self, dim: i32) -> Result<View<'a>> {
        let mut p = ptr::null_mut();
        // SAFETY: as narrow.
        check(unsafe { sys::skn_view_unsqueeze(self.as_ptr(), dim, &mut p) })?;
        Ok(unsafe { View::from_raw(p) })
    }

    /// This view in block order `order`: the same view when it already is,
    /// else a copy allocated in `scope` (which outlives nothing: the copy
    /// keeps its bytes alive).
    pub fn prepack(&self, order: Order, scope: &Scope) -> Result<View<'a>> {
        let mut p = ptr::null_mut();
        // SAFETY: live view and scope; no trace callback.
        check(unsafe {
            sys::skn_view_prepack(self.as_ptr(), order.raw(), scope.as_ptr(), None, ptr::null_mut(), &mut p)
        })?;
        Ok(unsafe { View::from_raw(p) })
    }
}

impl Clone for View<'_> {
    fn clone(&self) -> Self {
        // SAFETY: one more reference to a live view, released by its Drop.
        unsafe { View::from_raw(sys::skn_view_retain(self.raw.as_ptr())) }
    }
}

impl Drop for View<'_> {
    fn drop(&mut self) {
        // SAFETY: gives back the one reference this View owns.
        unsafe { sys::skn_view_release(self.raw.as_ptr()) }
    }
}

impl std::fmt::Debug for View<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

/// Check that [rows, in] is an [out, in] weight of `format` (blocks along
/// `in`), refusing a shape that looks like [in, out].
pub fn require_out_in(rows: i64, input: i64, format: Format) -> Result<()> {
    // SAFETY: no pointers.
    check(unsafe { sys::skn_require_out_in(rows, input, format.0) })
}

pub(crate) fn too_short(what: &str, have: usize, need: usize) -> Error {
    Error::invalid(format!("{} holds {} floats, {} are needed", what, have, need))
}
