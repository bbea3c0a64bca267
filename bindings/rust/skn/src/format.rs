// SPDX-License-Identifier: MIT
//! Weight formats: GGUF tensor type ids and what skn knows about them.
use std::ffi::CStr;
use std::fmt;

use skn_sys as sys;

use crate::error::{c_string, check, static_str, Result};

/// A weight format. Its value is the GGUF tensor type id (`skn_format`), so
/// an id read from a file converts with `Format(id)`; ids skn does not
/// implement are refused by the calls that take them (`UnknownFormat`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Format(pub i32);

#[allow(missing_docs)]
impl Format {
    pub const F32: Format = Format(sys::SKN_FORMAT_F32);
    pub const F16: Format = Format(sys::SKN_FORMAT_F16);
    pub const Q4_0: Format = Format(sys::SKN_FORMAT_Q4_0);
    pub const Q4_1: Format = Format(sys::SKN_FORMAT_Q4_1);
    pub const Q5_0: Format = Format(sys::SKN_FORMAT_Q5_0);
    pub const Q5_1: Format = Format(sys::SKN_FORMAT_Q5_1);
    pub const Q8_0: Format = Format(sys::SKN_FORMAT_Q8_0);
    pub const Q8_1: Format = Format(sys::SKN_FORMAT_Q8_1);
    pub const Q2_K: Format = Format(sys::SKN_FORMAT_Q2_K);
    pub const Q3_K: Format = Format(sys::SKN_FORMAT_Q3_K);
    pub const Q4_K: Format = Format(sys::SKN_FORMAT_Q4_K);
    pub const Q5_K: Format = Format(sys::SKN_FORMAT_Q5_K);
    pub const Q6_K: Format = Format(sys::SKN_FORMAT_Q6_K);
    pub const Q8_K: Format = Format(sys::SKN_FORMAT_Q8_K);
    pub const IQ2_XXS: Format = Format(sys::SKN_FORMAT_IQ2_XXS);
    pub const IQ2_XS: Format = Format(sys::SKN_FORMAT_IQ2_XS);
    pub const IQ3_XXS: Format = Format(sys::SKN_FORMAT_IQ3_XXS);
    pub const IQ1_S: Format = Format(sys::SKN_FORMAT_IQ1_S);
    pub const IQ4_NL: Format = Format(sys::SKN_FORMAT_IQ4_NL);
    pub const IQ3_S: Format = Format(sys::SKN_FORMAT_IQ3_S);
    pub const IQ2_S: Format = Format(sys::SKN_FORMAT_IQ2_S);
    pub const IQ4_XS: Format = Format(sys::SKN_FORMAT_IQ4_XS);
    pub const IQ1_M: Format = Format(sys::SKN_FORMAT_IQ1_M);
    pub const BF16: Format = Format(sys::SKN_FORMAT_BF16);
    pub const TQ1_0: Format = Format(sys::SKN_FORMAT_TQ1_0);
    pub const TQ2_0: Format = Format(sys::SKN_FORMAT_TQ2_0);
    pub const I2_S: Format = Format(sys::SKN_FORMAT_I2_S);
    pub const MXFP4: Format = Format(sys::SKN_FORMAT_MXFP4);
    pub const NVFP4: Format = Format(sys::SKN_FORMAT_NVFP4);
    pub const Q1_0: Format = Format(sys::SKN_FORMAT_Q1_0);
    pub const Q2_0: Format = Format(sys::SKN_FORMAT_Q2_0);
    // Row-interleaved re-encodings (ik_llama.cpp's _R4 / _R8 / _R16 types).
    pub const Q4_0_R8: Format = Format(sys::SKN_FORMAT_Q4_0_R8);
    pub const Q5_0_R4: Format = Format(sys::SKN_FORMAT_Q5_0_R4);
    pub const Q8_0_R8: Format = Format(sys::SKN_FORMAT_Q8_0_R8);
    pub const Q2_K_R4: Format = Format(sys::SKN_FORMAT_Q2_K_R4);
    pub const Q3_K_R4: Format = Format(sys::SKN_FORMAT_Q3_K_R4);
    pub const Q4_K_R4: Format = Format(sys::SKN_FORMAT_Q4_K_R4);
    pub const Q5_K_R4: Format = Format(sys::SKN_FORMAT_Q5_K_R4);
    pub const Q6_K_R4: Format = Format(sys::SKN_FORMAT_Q6_K_R4);
    pub const IQ2_XXS_R4: Format = Format(sys::SKN_FORMAT_IQ2_XXS_R4);
    pub const IQ2_XS_R4: Format = Format(sys::SKN_FORMAT_IQ2_XS_R4);
    pub const IQ3_XXS_R4: Format = Format(sys::SKN_FORMAT_IQ3_XXS_R4);
    pub const IQ4_NL_R4: Format = Format(sys::SKN_FORMAT_IQ4_NL_R4);
    pub const IQ3_S_R4: Format = Format(sys::SKN_FORMAT_IQ3_S_R4);
    pub const IQ2_S_R4: Format = Format(sys::SKN_FORMAT_IQ2_S_R4);
    pub const IQ4_XS_R8: Format = Format(sys::SKN_FORMAT_IQ4_XS_R8);
    pub const BF16_R16: Format = Format(sys::SKN_FORMAT_BF16_R16);
    pub const MXFP4_R8: Format = Format(sys::SKN_FORMAT_MXFP4_R8);
    /// I2_S in bitnet.cpp's arm64 layout (skn-only id; GGUF stores it as type 36).
    pub const I2_S_G64: Format = Format(sys::SKN_FORMAT_I2_S_G64);
}

/// What skn knows about a format (`skn_format_props`).
#[derive(Debug, Clone, PartialEq)]
pub struct FormatInfo {
    /// The GGUF name, e.g. `"Q4_K"`.
    pub name: &'static str,
    /// Elements per block (1 for F32, F16, BF16).
    pub block_elems: usize,
    /// Bytes per block.
    pub block_bytes: usize,
    /// Bytes after the last block of a whole tensor (I2_S: its scale), else 0.
    pub tensor_trailer_bytes: usize,
    /// False for the dense formats F32, F16, BF16.
    pub is_block_quantized: bool,
    /// The format activations are quantized to for the integer kernels.
    pub activation_format: Format,
    /// block_bytes * 8 / block_elems, trailer not counted.
    pub bits_per_weight: f64,
    /// True when quantizing needs importance weights (IQ2_XXS, IQ2_XS, IQ1_S).
    pub needs_importance: bool,
    /// Rows one block spans: R for a row-interleaved format (`Q4_0_R8`: 8), else 1.
    /// `block_bytes` stays one row's share, so a whole block is `block_rows * block_bytes`.
    pub block_rows: usize,
    /// The canonical format a row-interleaved format re-encodes (`Q4_0` for `Q4_0_R8`);
    /// the format itself for every other.
    pub interleaves: Format,
}

impl Format {
    /// Look a format up by name, case-insensitively (`"q4_k"`).
    pub fn from_name(name: &str) -> Result<Format> {
        let c = c_string(name, "format name")?;
        let mut f: sys::skn_format = sys::SKN_FORMAT_INVALID;
        // SAFETY: c is NUL-terminated; f is a valid out pointer.
        check(unsafe { sys::skn_format_from_name(c.as_ptr(), &mut f) })?;
        Ok(Format(f))
    }

    /// Every format skn implements, in increasing id order.
    pub fn all() -> Vec<Format> {
        // SAFETY: plain queries without pointers.
        let n = unsafe { sys::skn_format_count() };
        (0..n).map(|i| Format(unsafe { sys::skn_format_at(i) })).collect()
    }

    /// What skn knows about this format.
    pub fn info(self) -> Result<FormatInfo> {
        // SAFETY: an all-zero skn_format_props is valid (NULL name, zero numbers).
        let mut p: sys::skn_format_props = unsafe { std::mem::zeroed() };
        p.struct_size = std::mem::size_of::<sys::skn_format_props>();
        // SAFETY: p is a valid props struct with struct_size set.
        check(unsafe { sys::skn_format_info(self.0, &mut p) })?;
        Ok(FormatInfo {
            // SAFETY: the name is static storage.
            name: unsafe { static_str(p.name) },
            block_elems: p.block_elems as usize,
            block_bytes: p.block_bytes as usize,
            tensor_trailer_bytes: p.tensor_trailer_bytes as usize,
            is_block_quantized: p.is_block_quantized != 0,
            activation_format: Format(p.activation_format),
            bits_per_weight: p.bits_per_weight,
            needs_importance: p.needs_importance != 0,
            block_rows: p.block_rows as usize,
            interleaves: Format(p.interleaves),
        })
    }

    /// The GGUF name, or `"unknown(<id>)"` for an id skn does not implement.
    pub fn name(self) -> String {
        match self.info() {
            Ok(i) => i.name.to_string(),
            Err(_) => format!("unknown({})", self.0),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// The library's version, e.g. `"1.0.0"`, and as MAJOR*10000 + MINOR*100 + PATCH.
pub fn version() -> (&'static str, u32) {
    // SAFETY: both are plain queries; the string is static.
    unsafe { (static_str(sys::skn_version_string()), sys::skn_version()) }
}

/// The best instruction-set tier this CPU supports, by name (`"avx512vnni"`),
/// and the CPU features skn detected, as one line.
pub fn cpu() -> (&'static str, String) {
    // SAFETY: static strings; never fail.
    unsafe {
        let isa = static_str(sys::skn_isa_name(sys::skn_cpu_isa()));
        let features = CStr::from_ptr(sys::skn_cpu_features()).to_string_lossy().into_owned();
        (isa, features)
    }
}
