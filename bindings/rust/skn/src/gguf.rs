// SPDX-License-Identifier: MIT
//! Reading GGUF files: metadata and zero-copy tensors.
use std::marker::PhantomData;
use std::os::raw::{c_char, c_void};
use std::path::Path;
use std::ptr::{self, NonNull};

use skn_sys as sys;

use crate::error::{c_string, check, Error, Result};
use crate::format::Format;
use crate::view::View;

/// How tensor shapes are labelled; the bytes never move either way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Orientation {
    /// A matrix stored as ne = [in, out] reads [out, in]: what matmul_wt expects.
    #[default]
    OutIn,
    /// The file's (ggml's) order [ne0, ne1, ...].
    AsStored,
}

/// The layout of GGUF type 36 (BitNet I2_S) in a file without the
/// `skn.i2_s_layout` key (`skn_i2_s_layout`): bitnet.cpp's x86 and arm64
/// builds write the same type id and byte count in different layouts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum I2sLayout {
    /// The file's key decides; without it type-36 tensors are listed but
    /// their data and views are refused.
    #[default]
    FromFile,
    /// An x86 build of bitnet.cpp wrote it (`Format::I2_S`).
    X86,
    /// An arm64 build wrote it (`Format::I2_S_G64`).
    Arm64,
}

/// Options for opening a GGUF file.
#[derive(Debug, Clone, Copy, Default)]
pub struct GgufOptions {
    /// How shapes are labelled.
    pub orientation: Orientation,
    /// Open files holding tensors of types skn does not implement (listed
    /// with `supported == false`) instead of refusing them.
    pub allow_unsupported: bool,
    /// Read the file into memory instead of mapping it, so that the file may
    /// change or vanish while the reader is open.
    pub read_into_memory: bool,
    /// Type 36's layout where the file does not say it.
    pub i2_s_layout: I2sLayout,
}

impl GgufOptions {
    fn raw(&self) -> sys::skn_gguf_options {
        sys::skn_gguf_options {
            struct_size: std::mem::size_of::<sys::skn_gguf_options>(),
            orientation: match self.orientation {
                Orientation::OutIn => sys::SKN_GGUF_OUT_IN,
                Orientation::AsStored => sys::SKN_GGUF_AS_STORED,
            },
            allow_unsupported: self.allow_unsupported as i32,
            read_into_memory: self.read_into_memory as i32,
            i2_s_layout: match self.i2_s_layout {
                I2sLayout::FromFile => sys::SKN_I2_S_LAYOUT_FROM_FILE,
                I2sLayout::X86 => sys::SKN_I2_S_LAYOUT_X86,
                I2sLayout::Arm64 => sys::SKN_I2_S_LAYOUT_ARM64,
            },
        }
    }
}

/// A metadata value's type (`skn_gguf_type`), the file format's own numbers.
pub type GgufType = sys::skn_gguf_type;

/// One tensor as the file describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TensorInfo {
    /// The tensor's name.
    pub name: String,
    /// The GGUF type id as stored.
    pub type_id: i32,
    /// The type's name ("Q4_K", "unknown").
    pub type_name: &'static str,
    /// True when skn implements the type; then `format` is valid.
    pub supported: bool,
    /// The format (== type_id).
    pub format: Format,
    /// The shape, labelled per the orientation.
    pub shape: Vec<i64>,
    /// The file's order (ggml's ne).
    pub ne: Vec<i64>,
    /// File offset of the first byte.
    pub offset: u64,
    /// Bytes (I2_S trailer included); 0 when the type's size is unknown.
    pub size: u64,
}

/// An open GGUF file (`skn_gguf`). `'a` is the lifetime of the buffer it
/// reads ([`Gguf::open_memory`]); a file opened by path is `Gguf<'static>`.
/// Strings, arrays and tensor bytes borrow the reader (`&self`); tensor
/// views keep the mapping alive by themselves and borrow only `'a`.
pub struct Gguf<'a> {
    raw: NonNull<sys::skn_gguf>,
    bytes: PhantomData<&'a [u8]>,
}

// SAFETY: an open skn_gguf is immutable and any number of threads may read
// it at once; skn_gguf_close (Drop) cannot race with a borrow of it.
unsafe impl Send for Gguf<'_> {}
unsafe impl Sync for Gguf<'_> {}

fn path_c_string(path: &Path) -> Result<std::ffi::CString> {
    use std::os::unix::ffi::OsStrExt;
    std::ffi::CString::new(path.as_os_str().as_bytes())
        .map_err(|_| Error::invalid(format!("path {:?} holds a NUL byte", path)))
}

/// A (pointer, length) pair from skn as a slice borrowed for 'b.
///
/// # Safety
/// `p` must point at `len` readable bytes valid for 'b (or len be 0).
unsafe fn bytes<'b>(p: *const c_void, len: usize) -> &'b [u8] {
    if len == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(p as *const u8, len)
    }
}

impl Gguf<'static> {
    /// Open and validate the file at `path` (mapped read-only unless
    /// `options.read_into_memory`).
    pub fn open<P: AsRef<Path>>(path: P, options: &GgufOptions) -> Result<Gguf<'static>> {
        let c = path_c_string(path.as_ref())?;
        let opts = options.raw();
        let mut p = ptr::null_mut();
        // SAFETY: c is NUL-terminated; opts and p are valid.
        check(unsafe { sys::skn_gguf_open(c.as_ptr(), &opts, &mut p) })?;
        Ok(Gguf { raw: NonNull::new(p).expect("skn_gguf_open returned SKN_OK and NULL"), bytes: PhantomData })
    }
}

impl<'a> Gguf<'a> {
    /// Open and validate a GGUF file held in `data`, which the reader, its
    /// tensor views and everything they return borrow.
    pub fn open_memory(data: &'a [u8], options: &GgufOptions) -> Result<Gguf<'a>> {
        let opts = options.raw();
        let mut p = ptr::null_mut();
        // SAFETY: data comes with its length and is borrowed for 'a.
        check(unsafe { sys::skn_gguf_open_memory(data.as_ptr() as *const c_void, data.len(), &opts, &mut p) })?;
        Ok(Gguf { raw: NonNull::new(p).expect("skn_gguf_open_memory returned SKN_OK and NULL"), bytes: PhantomData })
    }

    pub(crate) fn ptr(&self) -> *const sys::skn_gguf {
        self.raw.as_ptr()
    }

    /// The GGUF version (2 or 3).
    pub fn version(&self) -> u32 {
        // SAFETY: a live reader.
        unsafe { sys::skn_gguf_version(self.ptr()) }
    }

    /// The data section's alignment.
    pub fn alignment(&self) -> u32 {
        // SAFETY: a live reader.
        unsafe { sys::skn_gguf_alignment(self.ptr()) }
    }

    /// The number of tensors.
    pub fn tensor_count(&self) -> i64 {
        // SAFETY: a live reader.
        unsafe { sys::skn_gguf_tensor_count(self.ptr()) }
    }

    /// The number of metadata pairs.
    pub fn kv_count(&self) -> i64 {
        // SAFETY: a live reader.
        unsafe { sys::skn_gguf_kv_count(self.ptr()) }
    }

    /// What the file says about tensor `index`.
    pub fn tensor_info(&self, index: i64) -> Result<TensorInfo> {
        // SAFETY: all-zero props are valid (NULL pointers, zero numbers).
        let mut t: sys::skn_gguf_tensor_props = unsafe { std::mem::zeroed() };
        t.struct_size = std::mem::size_of::<sys::skn_gguf_tensor_props>();
        // SAFETY: t is valid with struct_size set.
        check(unsafe { sys::skn_gguf_tensor_info(self.ptr(), index, &mut t) })?;
        let rank = t.rank.clamp(0, 4) as usize;
        Ok(TensorInfo {
            // SAFETY: name is owned by the reader, name_len bytes long.
            name: String::from_utf8_lossy(unsafe { bytes(t.name as *const c_void, t.name_len) }).into_owned(),
            type_id: t.type_id,
            // SAFETY: static storage.
            type_name: unsafe { crate::error::static_str(t.type_name) },
            supported: t.supported != 0,
            format: Format(t.format),
            shape: t.shape[..rank].to_vec(),
            ne: t.ne[..rank].to_vec(),
            offset: t.offset,
            size: t.size,
        })
    }

    fn find(
        &self,
        name: &str,
        what: &str,
        f: unsafe extern "C" fn(*const sys::skn_gguf, *const c_char, *mut i64) -> sys::skn_status,
    ) -> Result<Option<i64>> {
        let c = c_string(name, what)?;
        let mut i = -1i64;
        // SAFETY: c is NUL-terminated; i is a valid out pointer.
        check(unsafe { f(self.ptr(), c.as_ptr(), &mut i) })?;
        Ok(if i < 0 { None } else { Some(i) })
    }

    /// The index of the tensor named `name`, if there is one.
    pub fn find_tensor(&self, name: &str) -> Result<Option<i64>> {
        self.find(name, "tensor name", sys::skn_gguf_find_tensor)
    }

    /// The index of the metadata pair whose key is `key`, if there is one.
    pub fn find_key(&self, key: &str) -> Result<Option<i64>> {
        self.find(key, "key", sys::skn_gguf_find_key)
    }

    /// The bytes of tensor `index`, zero-copy: they point into the file.
    pub fn tensor_data(&self, index: i64) -> Result<&[u8]> {
        let mut p = ptr::null();
        let mut n = 0usize;
        // SAFETY: valid out pointers; the bytes live as long as the reader,
        // which the returned borrow of self enforces.
        check(unsafe { sys::skn_gguf_tensor_data(self.ptr(), index, &mut p, &mut n) })?;
        Ok(unsafe { bytes(p, n) })
    }

    /// Tensor `index` as a zero-copy ROW_MAJOR view. The view keeps the file
    /// mapping alive on its own (it may outlive the reader); for a reader
    /// over memory it borrows that memory.
    pub fn tensor_view(&self, index: i64) -> Result<View<'a>> {
        let mut p = ptr::null_mut();
        // SAFETY: a valid out pointer; the view holds the mapping, or borrows 'a.
        check(unsafe { sys::skn_gguf_tensor_view(self.ptr(), index, &mut p) })?;
        Ok(unsafe { View::from_raw(p) })
    }

    /// The key of pair `key`.
    pub fn key(&self, key: i64) -> Result<&str> {
        let mut p = ptr::null();
        let mut n = 0usize;
        // SAFETY: valid out pointers; the key is owned by the reader.
        check(unsafe { sys::skn_gguf_kv_key(self.ptr(), key, &mut p, &mut n) })?;
        let b = unsafe { bytes(p as *const c_void, n) };
        std::str::from_utf8(b).map_err(|_| Error::invalid(format!("key {} is not UTF-8", key)))
    }

    /// The value type of pair `key`.
    pub fn kv_type(&self, key: i64) -> Result<GgufType> {
        let mut t: GgufType = 0;
        // SAFETY: a valid out pointer.
        check(unsafe { sys::skn_gguf_kv_type(self.ptr(), key, &mut t) })?;
        Ok(t)
    }

    /// A u32 value (the pair's type must be exactly u32).
    pub fn get_u32(&self, key: i64) -> Result<u32> {
        let mut v = 0u32;
        // SAFETY: a valid out pointer.
        check(unsafe { sys::skn_gguf_get_u32(self.ptr(), key, &mut v) })?;
        Ok(v)
    }

    /// A u64 value.
    pub fn get_u64(&self, key: i64) -> Result<u64> {
        let mut v = 0u64;
        // SAFETY: a valid out pointer.
        check(unsafe { sys::skn_gguf_get_u64(self.ptr(), key, &mut v) })?;
        Ok(v)
    }

    /// An i32 value.
    pub fn get_i32(&self, key: i64) -> Result<i32> {
        let mut v = 0i32;
        // SAFETY: a valid out pointer.
        check(unsafe { sys::skn_gguf_get_i32(self.ptr(), key, &mut v) })?;
        Ok(v)
    }

    /// An i64 value.
    pub fn get_i64(&self, key: i64) -> Result<i64> {
        let mut v = 0i64;
        // SAFETY: a valid out pointer.
        check(unsafe { sys::skn_gguf_get_i64(self.ptr(), key, &mut v) })?;
        Ok(v)
    }

    /// An f32 value.
    pub fn get_f32(&self, key: i64) -> Result<f32> {
        let mut v = 0f32;
        // SAFETY: a valid out pointer.
        check(unsafe { sys::skn_gguf_get_f32(self.ptr(), key, &mut v) })?;
        Ok(v)
    }

    /// A bool value.
    pub fn get_bool(&self, key: i64) -> Result<bool> {
        let mut v = 0;
        // SAFETY: a valid out pointer.
        check(unsafe { sys::skn_gguf_get_bool(self.ptr(), key, &mut v) })?;
        Ok(v != 0)
    }

    /// A string value's bytes, zero-copy (GGUF does not promise UTF-8).
    pub fn get_string(&self, key: i64) -> Result<&[u8]> {
        let mut p = ptr::null();
        let mut n = 0usize;
        // SAFETY: valid out pointers; the bytes live as long as the reader.
        check(unsafe { sys::skn_gguf_get_string(self.ptr(), key, &mut p, &mut n) })?;
        Ok(unsafe { bytes(p as *const c_void, n) })
    }

    /// The element type and count of array `array` (a key's index, or an id
    /// from [`Gguf::array_nested`]).
    pub fn array_info(&self, array: u64) -> Result<(GgufType, u64)> {
        let mut t: GgufType = 0;
        let mut n = 0u64;
        // SAFETY: valid out pointers.
        check(unsafe { sys::skn_gguf_array_info(self.ptr(), array, &mut t, &mut n) })?;
        Ok((t, n))
    }

    /// The raw little-endian elements of a numeric or bool array, zero-copy
    /// (possibly unaligned: read them with `from_le_bytes`).
    pub fn array_bytes(&self, array: u64) -> Result<&[u8]> {
        let (t, _) = self.array_info(array)?;
        let width = match t {
            sys::SKN_GGUF_TYPE_U8 | sys::SKN_GGUF_TYPE_I8 | sys::SKN_GGUF_TYPE_BOOL => 1,
            sys::SKN_GGUF_TYPE_U16 | sys::SKN_GGUF_TYPE_I16 => 2,
            sys::SKN_GGUF_TYPE_U32 | sys::SKN_GGUF_TYPE_I32 | sys::SKN_GGUF_TYPE_F32 => 4,
            _ => 8,
        };
        let mut p = ptr::null();
        let mut n = 0u64;
        // SAFETY: valid out pointers; skn refuses string and array elements.
        check(unsafe { sys::skn_gguf_array_data(self.ptr(), array, &mut p, &mut n) })?;
        Ok(unsafe { bytes(p, n as usize * width) })
    }

    /// String `i` of a string array, zero-copy.
    pub fn array_string(&self, array: u64, i: u64) -> Result<&[u8]> {
        let mut p = ptr::null();
        let mut n = 0usize;
        // SAFETY: valid out pointers; the bytes live as long as the reader.
        check(unsafe { sys::skn_gguf_array_string(self.ptr(), array, i, &mut p, &mut n) })?;
        Ok(unsafe { bytes(p as *const c_void, n) })
    }

    /// The array id of element `i` of an array of arrays.
    pub fn array_nested(&self, array: u64, i: u64) -> Result<u64> {
        let mut id = 0u64;
        // SAFETY: a valid out pointer.
        check(unsafe { sys::skn_gguf_array_nested(self.ptr(), array, i, &mut id) })?;
        Ok(id)
    }
}

impl std::fmt::Debug for Gguf<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Gguf(v{}, {} tensors, {} pairs)", self.version(), self.tensor_count(), self.kv_count())
    }
}

impl Drop for Gguf<'_> {
    fn drop(&mut self) {
        // SAFETY: closed once; every borrow of self has ended.
        unsafe { sys::skn_gguf_close(self.raw.as_ptr()) }
    }
}

/// The lower-case name of a value type ("u32", "string").
pub fn gguf_type_name(t: GgufType) -> &'static str {
    // SAFETY: static storage for any value.
    unsafe { crate::error::static_str(sys::skn_gguf_type_name(t)) }
}
