// SPDX-License-Identifier: MIT
//! Metadata by key: `gguf.get::<u32>("llama.block_count")`.
use skn_sys as sys;

use crate::error::{check, Error, Result};
use crate::gguf::Gguf;

mod sealed {
    pub trait Sealed {}
}

/// A type [`Gguf::get`] reads a metadata value as: the GGUF scalar types
/// (`u8`, `i8`, `u16`, `i16`, `u32`, `i32`, `u64`, `i64`, `f32`, `f64`,
/// `bool`), `&[u8]` (a string's bytes, zero-copy) and `&str` (a string that
/// must be UTF-8). The value's type in the file must be exactly this one: no
/// conversion, not even a lossless widening (as `skn_gguf_get_*`).
pub trait MetadataValue<'r>: Sized + sealed::Sealed {
    /// Read pair `index` of `gguf` as this type.
    #[doc(hidden)]
    fn read(gguf: &'r Gguf<'_>, index: i64) -> Result<Self>;
}

macro_rules! scalar_values {
    ($($t:ty => $c:ident, $zero:expr;)*) => {$(
        impl sealed::Sealed for $t {}
        impl<'r> MetadataValue<'r> for $t {
            fn read(gguf: &'r Gguf<'_>, index: i64) -> Result<$t> {
                let mut v = $zero;
                // SAFETY: a live reader and a valid out pointer.
                check(unsafe { sys::$c(gguf.ptr(), index, &mut v) })?;
                Ok(v)
            }
        }
    )*};
}

scalar_values! {
    u8 => skn_gguf_get_u8, 0u8;
    i8 => skn_gguf_get_i8, 0i8;
    u16 => skn_gguf_get_u16, 0u16;
    i16 => skn_gguf_get_i16, 0i16;
    u32 => skn_gguf_get_u32, 0u32;
    i32 => skn_gguf_get_i32, 0i32;
    u64 => skn_gguf_get_u64, 0u64;
    i64 => skn_gguf_get_i64, 0i64;
    f32 => skn_gguf_get_f32, 0f32;
    f64 => skn_gguf_get_f64, 0f64;
}

impl sealed::Sealed for bool {}
impl<'r> MetadataValue<'r> for bool {
    fn read(gguf: &'r Gguf<'_>, index: i64) -> Result<bool> {
        gguf.get_bool(index)
    }
}

impl sealed::Sealed for &[u8] {}
impl<'r> MetadataValue<'r> for &'r [u8] {
    fn read(gguf: &'r Gguf<'_>, index: i64) -> Result<&'r [u8]> {
        gguf.get_string(index)
    }
}

impl sealed::Sealed for &str {}
impl<'r> MetadataValue<'r> for &'r str {
    fn read(gguf: &'r Gguf<'_>, index: i64) -> Result<&'r str> {
        std::str::from_utf8(gguf.get_string(index)?)
            .map_err(|e| Error::invalid(format!("the string is not UTF-8 ({}): read it as &[u8] to get its bytes", e)))
    }
}

impl<'a> Gguf<'a> {
    /// The metadata value whose key is `key`, read as `T` (a [`MetadataValue`]):
    /// `Ok(None)` when the file has no such key.
    ///
    /// ```no_run
    /// # let model = skn::Gguf::open("sample.gguf", &Default::default())?;
    /// let layers: u32 = model.get("llama.block_count")?.unwrap_or(1);
    /// let arch = model.get::<&str>("general.architecture")?;
    /// # Ok::<(), skn::Error>(())
    /// ```
    ///
    /// Errors: `Status::InvalidArgument` when the value has another type (the
    /// message names the key and the type the file has), a string read as
    /// `&str` is not UTF-8, or `key` holds a NUL byte.
    pub fn get<'r, T: MetadataValue<'r>>(&'r self, key: &str) -> Result<Option<T>> {
        match self.find_key(key)? {
            None => Ok(None),
            Some(index) => T::read(self, index).map(Some).map_err(|e| e.context(&format!("key {:?}", key))),
        }
    }
}
