// SPDX-License-Identifier: MIT
//! Importance matrices (llama.cpp imatrix files), for quantize_with_options.
use std::os::raw::c_void;
use std::path::Path;
use std::ptr::{self, NonNull};

use skn_sys as sys;

use crate::error::{c_string, check, Error, Result};

/// An imatrix read whole into memory (`skn_imatrix`): it borrows nothing.
pub struct Imatrix {
    raw: NonNull<sys::skn_imatrix>,
}

// SAFETY: an open skn_imatrix is immutable and any number of threads may
// query it at once; skn_imatrix_close (Drop) cannot race with a borrow.
unsafe impl Send for Imatrix {}
unsafe impl Sync for Imatrix {}

/// One entry: a weight tensor's importance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImatrixEntry {
    /// The weight tensor's name.
    pub name: String,
    /// The weight's row length (its input dimension).
    pub values_per_row: i64,
    /// Matrices: experts of a 3-D weight, 1 for a 2-D one.
    pub matrices: i64,
}

impl Imatrix {
    /// Read the imatrix file at `path` (GGUF or legacy .dat form).
    pub fn open<P: AsRef<Path>>(path: P) -> Result<Imatrix> {
        use std::os::unix::ffi::OsStrExt;
        let c = std::ffi::CString::new(path.as_ref().as_os_str().as_bytes())
            .map_err(|_| Error::invalid(format!("path {:?} holds a NUL byte", path.as_ref())))?;
        let mut p = ptr::null_mut();
        // SAFETY: c is NUL-terminated; p a valid out pointer.
        check(unsafe { sys::skn_imatrix_open(c.as_ptr(), &mut p) })?;
        Ok(Imatrix { raw: NonNull::new(p).expect("skn_imatrix_open returned SKN_OK and NULL") })
    }

    /// Read an imatrix file held in `data` (read during the call only).
    pub fn open_memory(data: &[u8]) -> Result<Imatrix> {
        let mut p = ptr::null_mut();
        // SAFETY: data comes with its length.
        check(unsafe { sys::skn_imatrix_open_memory(data.as_ptr() as *const c_void, data.len(), &mut p) })?;
        Ok(Imatrix { raw: NonNull::new(p).expect("skn_imatrix_open_memory returned SKN_OK and NULL") })
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        // SAFETY: a live imatrix.
        unsafe { sys::skn_imatrix_count(self.raw.as_ptr()) }.max(0) as usize
    }

    /// True when the file has no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Entry `index`.
    pub fn entry(&self, index: i64) -> Result<ImatrixEntry> {
        // SAFETY: all-zero props are valid.
        let mut e: sys::skn_imatrix_entry_props = unsafe { std::mem::zeroed() };
        e.struct_size = std::mem::size_of::<sys::skn_imatrix_entry_props>();
        // SAFETY: e is valid with struct_size set.
        check(unsafe { sys::skn_imatrix_entry_info(self.raw.as_ptr(), index, &mut e) })?;
        // SAFETY: name is owned by the imatrix, name_len bytes (never empty
        // by the reader's checks; guarded anyway, as from_raw_parts needs a
        // non-NULL pointer).
        let name: &[u8] =
            if e.name.is_null() { &[] } else { unsafe { std::slice::from_raw_parts(e.name as *const u8, e.name_len) } };
        Ok(ImatrixEntry {
            name: String::from_utf8_lossy(name).into_owned(),
            values_per_row: e.values_per_row,
            matrices: e.matrices,
        })
    }

    /// The entry for weight tensor `name`, if there is one.
    pub fn find(&self, name: &str) -> Result<Option<i64>> {
        let c = c_string(name, "tensor name")?;
        let mut i = -1i64;
        // SAFETY: c is NUL-terminated.
        check(unsafe { sys::skn_imatrix_find(self.raw.as_ptr(), c.as_ptr(), &mut i) })?;
        Ok(if i < 0 { None } else { Some(i) })
    }

    /// The importance values of entry `index`: matrix `matrix`'s, or with
    /// `None` every matrix's, one after another (what llama-quantize passes
    /// for the whole tensor).
    pub fn values(&self, index: i64, matrix: Option<i64>) -> Result<&[f32]> {
        let mut p = ptr::null();
        let mut n = 0usize;
        let m = matrix.unwrap_or(sys::SKN_IMATRIX_ALL_MATRICES as i64);
        // SAFETY: valid out pointers; the floats live as long as the imatrix,
        // which the borrow of self enforces.
        check(unsafe { sys::skn_imatrix_values(self.raw.as_ptr(), index, m, &mut p, &mut n) })?;
        Ok(if n == 0 { &[] } else { unsafe { std::slice::from_raw_parts(p, n) } })
    }
}

impl std::fmt::Debug for Imatrix {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Imatrix({} entries)", self.len())
    }
}

impl Drop for Imatrix {
    fn drop(&mut self) {
        // SAFETY: closed once; no borrow of self remains.
        unsafe { sys::skn_imatrix_close(self.raw.as_ptr()) }
    }
}
