// SPDX-License-Identifier: MIT
//! Writing GGUF v3 files, whole (in memory) or streamed tensor by tensor.
use std::os::raw::c_void;
use std::path::Path;
use std::ptr::{self, NonNull};

use skn_sys as sys;

use crate::error::{c_string, check, Error, Result};
use crate::format::Format;

fn path_c_string(path: &Path) -> Result<std::ffi::CString> {
    use std::os::unix::ffi::OsStrExt;
    std::ffi::CString::new(path.as_os_str().as_bytes())
        .map_err(|_| Error::invalid(format!("path {:?} holds a NUL byte", path)))
}

/// A GGUF file being assembled (`skn_gguf_writer`). Every addition is
/// validated, so what it writes reads back with [`crate::Gguf`].
pub struct GgufWriter {
    raw: NonNull<sys::skn_gguf_writer>,
}

// SAFETY: a writer is used by one thread at a time: Send moves it, and every
// mutating call takes &mut self. Not Sync.
unsafe impl Send for GgufWriter {}

macro_rules! scalar_adders {
    ($($(#[$doc:meta])* $name:ident: $t:ty => $c:ident;)*) => {$(
        $(#[$doc])*
        pub fn $name(&mut self, key: &str, value: $t) -> Result<()> {
            let k = c_string(key, "key")?;
            // SAFETY: a live writer used by this thread only; k is NUL-terminated.
            check(unsafe { sys::$c(self.raw.as_ptr(), k.as_ptr(), value) })
        }
    )*};
}

impl GgufWriter {
    /// An empty writer (alignment 32).
    pub fn new() -> Result<GgufWriter> {
        let mut p = ptr::null_mut();
        // SAFETY: a valid out pointer.
        check(unsafe { sys::skn_gguf_writer_create(&mut p) })?;
        Ok(GgufWriter { raw: NonNull::new(p).expect("skn_gguf_writer_create returned SKN_OK and NULL") })
    }

    /// Set the alignment: a positive multiple of 8.
    pub fn set_alignment(&mut self, alignment: u32) -> Result<()> {
        // SAFETY: a live writer.
        check(unsafe { sys::skn_gguf_writer_set_alignment(self.raw.as_ptr(), alignment) })
    }

    scalar_adders! {
        /// Add a u8 pair.
        add_u8: u8 => skn_gguf_writer_add_u8;
        /// Add an i8 pair.
        add_i8: i8 => skn_gguf_writer_add_i8;
        /// Add a u16 pair.
        add_u16: u16 => skn_gguf_writer_add_u16;
        /// Add an i16 pair.
        add_i16: i16 => skn_gguf_writer_add_i16;
        /// Add a u32 pair.
        add_u32: u32 => skn_gguf_writer_add_u32;
        /// Add an i32 pair.
        add_i32: i32 => skn_gguf_writer_add_i32;
        /// Add a u64 pair.
        add_u64: u64 => skn_gguf_writer_add_u64;
        /// Add an i64 pair.
        add_i64: i64 => skn_gguf_writer_add_i64;
        /// Add an f32 pair.
        add_f32: f32 => skn_gguf_writer_add_f32;
        /// Add an f64 pair.
        add_f64: f64 => skn_gguf_writer_add_f64;
    }

    /// Add a bool pair.
    pub fn add_bool(&mut self, key: &str, value: bool) -> Result<()> {
        let k = c_string(key, "key")?;
        // SAFETY: as the scalar adders.
        check(unsafe { sys::skn_gguf_writer_add_bool(self.raw.as_ptr(), k.as_ptr(), value as i32) })
    }

    /// Add a string pair (any bytes; copied).
    pub fn add_string(&mut self, key: &str, value: &[u8]) -> Result<()> {
        let k = c_string(key, "key")?;
        // SAFETY: value comes with its length.
        check(unsafe {
            sys::skn_gguf_writer_add_string(self.raw.as_ptr(), k.as_ptr(), value.as_ptr() as *const _, value.len())
        })
    }

    /// Add an array of strings (copied).
    pub fn add_string_array<S: AsRef<[u8]>>(&mut self, key: &str, values: &[S]) -> Result<()> {
        let k = c_string(key, "key")?;
        let ptrs: Vec<*const std::os::raw::c_char> = values.iter().map(|s| s.as_ref().as_ptr() as *const _).collect();
        let lens: Vec<usize> = values.iter().map(|s| s.as_ref().len()).collect();
        // SAFETY: count pointers and lengths, each string lens[i] bytes long.
        check(unsafe {
            sys::skn_gguf_writer_add_string_array(
                self.raw.as_ptr(),
                k.as_ptr(),
                ptrs.as_ptr(),
                lens.as_ptr(),
                ptrs.len() as u64,
            )
        })
    }

    /// Add an array of f32 (copied).
    pub fn add_f32_array(&mut self, key: &str, values: &[f32]) -> Result<()> {
        self.add_array(key, sys::SKN_GGUF_TYPE_F32, values.as_ptr() as *const c_void, values.len())
    }

    /// Add an array of i32 (copied).
    pub fn add_i32_array(&mut self, key: &str, values: &[i32]) -> Result<()> {
        self.add_array(key, sys::SKN_GGUF_TYPE_I32, values.as_ptr() as *const c_void, values.len())
    }

    fn add_array(&mut self, key: &str, t: sys::skn_gguf_type, data: *const c_void, count: usize) -> Result<()> {
        // GGUF arrays are little-endian; so are the hosts skn builds for.
        let k = c_string(key, "key")?;
        // SAFETY: data holds count elements of type t.
        check(unsafe { sys::skn_gguf_writer_add_array(self.raw.as_ptr(), k.as_ptr(), t, data, count as u64) })
    }

    /// Add a tensor labelled `shape` = [out, in] (a stacked expert weight
    /// [E, out, in]): the block axis last, as every other call of this crate
    /// and [`Gguf`](crate::Gguf) (opened [`Orientation::OutIn`](crate::Orientation), the default) label it.
    /// The file stores ggml's `ne`, the reverse ([in, out]); this call
    /// reverses it. `data` holds the tensor's ROW_MAJOR bytes (copied), e.g.
    /// [`quantize`](fn@crate::quantize)'s output for the same `[rows, cols]`.
    pub fn add_tensor(&mut self, name: &str, format: Format, shape: &[i64], data: &[u8]) -> Result<()> {
        let n = c_string(name, "tensor name")?;
        let ne = file_order(shape);
        // SAFETY: ne and data come with their lengths.
        check(unsafe {
            sys::skn_gguf_writer_add_tensor(
                self.raw.as_ptr(),
                n.as_ptr(),
                format.0,
                ne.len() as i32,
                ne.as_ptr(),
                data.as_ptr() as *const c_void,
                data.len(),
            )
        })
        .map_err(|e| e.context(&shape_context(shape, &ne)))
    }

    /// Declare a tensor, labelled `shape` = [out, in] as in
    /// [`add_tensor`](Self::add_tensor), whose bytes a [`GgufStream`] will be
    /// given later.
    pub fn declare_tensor(&mut self, name: &str, format: Format, shape: &[i64]) -> Result<()> {
        let n = c_string(name, "tensor name")?;
        let ne = file_order(shape);
        // SAFETY: ne comes with its length.
        check(unsafe {
            sys::skn_gguf_writer_declare_tensor(self.raw.as_ptr(), n.as_ptr(), format.0, ne.len() as i32, ne.as_ptr())
        })
        .map_err(|e| e.context(&shape_context(shape, &ne)))
    }

    /// The size of the file the writer would write now.
    pub fn size(&self) -> Result<u64> {
        let mut n = 0u64;
        // SAFETY: a valid out pointer.
        check(unsafe { sys::skn_gguf_writer_size(self.raw.as_ptr(), &mut n) })?;
        Ok(n)
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let n = usize::try_from(self.size()?).map_err(|_| Error::invalid("the file is larger than memory".into()))?;
        let mut buf = vec![0u8; n];
        // SAFETY: buf holds n bytes.
        check(unsafe { sys::skn_gguf_writer_write_memory(self.raw.as_ptr(), buf.as_mut_ptr() as *mut c_void, n) })?;
        Ok(buf)
    }

    /// Write the file at `path` (atomically: via a temporary file and rename).
    pub fn write_file<P: AsRef<Path>>(&self, path: P) -> Result<()> {
        let c = path_c_string(path.as_ref())?;
        // SAFETY: c is NUL-terminated.
        check(unsafe { sys::skn_gguf_writer_write_file(self.raw.as_ptr(), c.as_ptr()) })
    }

    /// Start streaming the declared file to `path`; the writer may be
    /// changed or dropped afterwards.
    pub fn begin_stream<P: AsRef<Path>>(&self, path: P) -> Result<GgufStream> {
        let c = path_c_string(path.as_ref())?;
        let mut p = ptr::null_mut();
        // SAFETY: c is NUL-terminated; p a valid out pointer.
        check(unsafe { sys::skn_gguf_stream_begin(self.raw.as_ptr(), c.as_ptr(), &mut p) })?;
        Ok(GgufStream { raw: NonNull::new(p).expect("skn_gguf_stream_begin returned SKN_OK and NULL") })
    }
}

impl std::fmt::Debug for GgufWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GgufWriter({:?} bytes)", self.size().ok())
    }
}

impl Drop for GgufWriter {
    fn drop(&mut self) {
        // SAFETY: destroyed once, by its owner.
        unsafe { sys::skn_gguf_writer_destroy(self.raw.as_ptr()) }
    }
}

/// A GGUF file being written tensor by tensor (`skn_gguf_stream`). Dropping
/// an unfinished stream removes its temporary file.
pub struct GgufStream {
    raw: NonNull<sys::skn_gguf_stream>,
}

// SAFETY: one thread at a time, as a writer.
unsafe impl Send for GgufStream {}

impl GgufStream {
    /// Append `data` to tensor `name`, which must be the first declared
    /// tensor not yet written in full.
    pub fn write(&mut self, name: &str, data: &[u8]) -> Result<()> {
        let n = c_string(name, "tensor name")?;
        // SAFETY: data comes with its length.
        check(unsafe {
            sys::skn_gguf_stream_write(self.raw.as_ptr(), n.as_ptr(), data.as_ptr() as *const c_void, data.len())
        })
    }

    /// (index of the tensor the next bytes belong to, bytes of it written).
    pub fn position(&self) -> (i64, u64) {
        let (mut t, mut w) = (0i64, 0u64);
        // SAFETY: a live stream; cannot fail.
        unsafe { sys::skn_gguf_stream_position(self.raw.as_ptr(), &mut t, &mut w) };
        (t, w)
    }

    /// Check every tensor is complete and move the file into place. On an
    /// incomplete tensor the error names it and the stream is kept usable.
    pub fn finish(&mut self) -> Result<()> {
        // SAFETY: a live stream.
        check(unsafe { sys::skn_gguf_stream_finish(self.raw.as_ptr()) })
    }
}

impl std::fmt::Debug for GgufStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GgufStream(at {:?})", self.position())
    }
}

impl Drop for GgufStream {
    fn drop(&mut self) {
        // SAFETY: destroyed once, by its owner.
        unsafe { sys::skn_gguf_stream_destroy(self.raw.as_ptr()) }
    }
}

/// ggml's `ne` for a shape labelled [out, in]: the reverse.
fn file_order(shape: &[i64]) -> Vec<i64> {
    shape.iter().rev().copied().collect()
}

/// skn's messages speak of `ne`, the file's order; the caller gave `shape`.
fn shape_context(shape: &[i64], ne: &[i64]) -> String {
    format!("shape {:?} (labelled [out, in]; the file's ne is {:?})", shape, ne)
}
