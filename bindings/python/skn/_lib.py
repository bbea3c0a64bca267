# SPDX-License-Identifier: MIT
"""Loading libskn.so.1 and declaring the C functions the package calls.

The library is found the way any program finds it: ctypes.CDLL("libskn.so.1")
goes through the dynamic loader (ld.so.cache, LD_LIBRARY_PATH). SKN_LIBRARY
names a file to load instead, for working against a build tree. Every
prototype is declared here, once, so that a wrong argument type is a
ctypes.ArgumentError instead of a silently truncated pointer.
"""
from __future__ import annotations

import ctypes
import os

_NAME = "libskn.so.1"


def _load() -> ctypes.CDLL:
    path = os.environ.get("SKN_LIBRARY") or _NAME
    try:
        return ctypes.CDLL(path)
    except OSError as e:
        hint = ("install the Debian package libskn1 (apt install libskn1), or put the directory "
                "holding libskn.so.1 on LD_LIBRARY_PATH, or set SKN_LIBRARY to its path")
        raise ImportError("skn: cannot load %s (%s): %s" % (path, e, hint)) from e


lib = _load()

P = ctypes.c_void_p
PP = ctypes.POINTER(ctypes.c_void_p)
I32 = ctypes.c_int32
I64 = ctypes.c_int64
U64 = ctypes.c_uint64
SZ = ctypes.c_size_t
INT = ctypes.c_int
STATUS = ctypes.c_int
CSTR = ctypes.c_char_p


class FormatProps(ctypes.Structure):
    _fields_ = [("struct_size", SZ), ("name", CSTR), ("block_elems", I32), ("block_bytes", I32),
                ("tensor_trailer_bytes", I32), ("is_block_quantized", I32), ("activation_format", INT),
                ("bits_per_weight", ctypes.c_double), ("needs_importance", I32), ("block_rows", I32),
                ("interleaves", INT)]


class QuantizeOptions(ctypes.Structure):
    _fields_ = [("struct_size", SZ), ("importance", P), ("importance_count", I64), ("threads", I32)]


class MatmulOptions(ctypes.Structure):
    _fields_ = [("struct_size", SZ), ("precision", INT), ("prepack_weights", INT), ("strict", INT),
                ("scope", P)]


class GoldenInfo(ctypes.Structure):
    _fields_ = [("struct_size", SZ), ("rows", I64), ("cols", I64), ("x_rows", I64)]


class GgufOptions(ctypes.Structure):
    _fields_ = [("struct_size", SZ), ("orientation", INT), ("allow_unsupported", I32),
                ("read_into_memory", I32), ("i2_s_layout", I32)]


class GgufArrayValue(ctypes.Structure):
    pass


GgufArrayValue._fields_ = [("struct_size", SZ), ("element_type", INT), ("count", U64), ("data", P),
                           ("strings", P), ("lengths", P), ("arrays", ctypes.POINTER(ctypes.POINTER(GgufArrayValue)))]


class TraceEvent(ctypes.Structure):
    _fields_ = [("struct_size", SZ), ("kind", INT), ("name", CSTR), ("detail", CSTR), ("format", INT),
                ("from_order", INT), ("to_order", INT), ("bytes", U64), ("nanoseconds", I64), ("isa", INT),
                ("layout_class", I32), ("n", I64), ("out", I64), ("in_", I64)]


class ImatrixProps(ctypes.Structure):
    _fields_ = [("struct_size", SZ), ("form", INT), ("entry_count", I64), ("dataset_count", I64),
                ("chunk_count", I64), ("chunk_size", I64)]


class ImatrixEntryProps(ctypes.Structure):
    _fields_ = [("struct_size", SZ), ("name", P), ("name_len", SZ), ("values_per_row", I64), ("matrices", I64),
                ("count", I64), ("unused_matrices", I64)]


# Callbacks into Python (skn.h sections 6 and 11). ctypes takes the GIL
# around each call, from whichever thread skn makes it on.
TRACE_FN = ctypes.CFUNCTYPE(None, ctypes.POINTER(TraceEvent), P)
LOG_FN = ctypes.CFUNCTYPE(None, INT, CSTR, P)
NO_TRACE = TRACE_FN()  # NULL: ctypes takes no None where a function pointer is declared
NO_LOG = LOG_FN()


class GgufTensorProps(ctypes.Structure):
    _fields_ = [("struct_size", SZ), ("name", P), ("name_len", SZ), ("type_id", I32), ("type_name", CSTR),
                ("supported", I32), ("format", INT), ("rank", I32), ("shape", I64 * 4), ("ne", I64 * 4),
                ("offset", U64), ("size", U64)]


def _fn(name: str, restype, *argtypes) -> None:
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)


_POUT = ctypes.POINTER
for _name, _res, _args in [
    # errors and version
    ("skn_last_error", CSTR, ()),
    ("skn_status_name", CSTR, (INT,)),
    ("skn_version", ctypes.c_uint, ()),
    ("skn_version_string", CSTR, ()),
    # formats
    ("skn_format_info", STATUS, (INT, _POUT(FormatProps))),
    ("skn_format_count", I32, ()),
    ("skn_format_at", I32, (I32,)),
    ("skn_format_from_name", STATUS, (CSTR, _POUT(INT))),
    # quantize
    ("skn_quantized_size", STATUS, (INT, I64, I64, _POUT(SZ))),
    ("skn_quantize", STATUS, (INT, P, I64, I64, P, SZ)),
    ("skn_quantize_with_options", STATUS, (INT, P, I64, I64, P, SZ, _POUT(QuantizeOptions))),
    ("skn_dequantize", STATUS, (INT, P, SZ, I64, I64, P, SZ)),
    # cpu
    ("skn_cpu_isa", INT, ()),
    ("skn_cpu_features", CSTR, ()),
    ("skn_isa_name", CSTR, (INT,)),
    # scopes and views
    ("skn_scope_create", STATUS, (PP,)),
    ("skn_scope_destroy", None, (P,)),
    ("skn_view_from_bytes", STATUS, (P, SZ, INT, _POUT(I64), INT, INT, PP)),
    ("skn_view_retain", P, (P,)),
    ("skn_view_release", None, (P,)),
    ("skn_view_describe", CSTR, (P,)),
    ("skn_view_order", INT, (P,)),
    ("skn_view_layout_class", INT, (P,)),
    ("skn_view_format", INT, (P,)),
    ("skn_view_rank", INT, (P,)),
    ("skn_view_shape", STATUS, (P, _POUT(I64))),
    ("skn_view_narrow", STATUS, (P, INT, I64, I64, PP)),
    ("skn_view_select", STATUS, (P, INT, I64, PP)),
    ("skn_view_transpose", STATUS, (P, INT, INT, PP)),
    ("skn_view_unsqueeze", STATUS, (P, INT, PP)),
    ("skn_view_get", STATUS, (P, _POUT(I64), INT, _POUT(ctypes.c_float))),
    ("skn_view_to_float", STATUS, (P, P, SZ)),
    ("skn_view_prepack", STATUS, (P, INT, P, TRACE_FN, P, PP)),
    ("skn_packed_to_kernel_order", STATUS, (INT, P, SZ, P, SZ, I64, I64)),
    ("skn_packed_to_canonical_order", STATUS, (INT, P, SZ, P, SZ, I64, I64)),
    ("skn_require_out_in", STATUS, (I64, I64, INT)),
    # fixtures
    ("skn_fixture_bytes", STATUS, (INT, INT, I64, I64, P, SZ, _POUT(SZ))),
    ("skn_fixture_disagreement", CSTR, (P, SZ, INT, INT, I64, I64)),
    ("skn_fixture_golden_info", STATUS, (INT, _POUT(GoldenInfo))),
    ("skn_fixture_golden", STATUS, (INT, INT, P, SZ, _POUT(SZ))),
    # gguf reader
    ("skn_gguf_type_name", CSTR, (INT,)),
    ("skn_gguf_open", STATUS, (CSTR, _POUT(GgufOptions), PP)),
    ("skn_gguf_open_memory", STATUS, (P, SZ, _POUT(GgufOptions), PP)),
    ("skn_gguf_close", None, (P,)),
    ("skn_gguf_version", ctypes.c_uint32, (P,)),
    ("skn_gguf_alignment", ctypes.c_uint32, (P,)),
    ("skn_gguf_data_offset", U64, (P,)),
    ("skn_gguf_file_size", U64, (P,)),
    ("skn_gguf_tensor_count", I64, (P,)),
    ("skn_gguf_unsupported_count", I64, (P,)),
    ("skn_gguf_tensor_info", STATUS, (P, I64, _POUT(GgufTensorProps))),
    ("skn_gguf_find_tensor", STATUS, (P, CSTR, _POUT(I64))),
    ("skn_gguf_tensor_data", STATUS, (P, I64, PP, _POUT(SZ))),
    ("skn_gguf_tensor_view", STATUS, (P, I64, PP)),
    ("skn_gguf_kv_count", I64, (P,)),
    ("skn_gguf_kv_key", STATUS, (P, I64, PP, _POUT(SZ))),
    ("skn_gguf_find_key", STATUS, (P, CSTR, _POUT(I64))),
    ("skn_gguf_kv_type", STATUS, (P, I64, _POUT(INT))),
    ("skn_gguf_get_string", STATUS, (P, I64, PP, _POUT(SZ))),
    ("skn_gguf_array_info", STATUS, (P, U64, _POUT(INT), _POUT(U64))),
    ("skn_gguf_array_data", STATUS, (P, U64, PP, _POUT(U64))),
    ("skn_gguf_array_string", STATUS, (P, U64, U64, PP, _POUT(SZ))),
    ("skn_gguf_array_nested", STATUS, (P, U64, U64, _POUT(U64))),
    # gguf writer
    ("skn_gguf_writer_create", STATUS, (PP,)),
    ("skn_gguf_writer_destroy", None, (P,)),
    ("skn_gguf_writer_set_alignment", STATUS, (P, ctypes.c_uint32)),
    ("skn_gguf_writer_add_string", STATUS, (P, CSTR, P, SZ)),
    ("skn_gguf_writer_add_array", STATUS, (P, CSTR, INT, P, U64)),
    ("skn_gguf_writer_add_string_array", STATUS, (P, CSTR, P, P, U64)),
    ("skn_gguf_writer_add_tensor", STATUS, (P, CSTR, INT, I32, _POUT(I64), P, SZ)),
    ("skn_gguf_writer_size", STATUS, (P, _POUT(U64))),
    ("skn_gguf_writer_write_memory", STATUS, (P, P, SZ)),
    ("skn_gguf_writer_write_file", STATUS, (P, CSTR)),
    ("skn_gguf_writer_add_array_value", STATUS, (P, CSTR, _POUT(GgufArrayValue))),
    ("skn_gguf_writer_declare_tensor", STATUS, (P, CSTR, INT, I32, _POUT(I64))),
    # gguf streams
    ("skn_gguf_stream_begin", STATUS, (P, CSTR, PP)),
    ("skn_gguf_stream_write", STATUS, (P, CSTR, P, SZ)),
    ("skn_gguf_stream_position", STATUS, (P, _POUT(I64), _POUT(U64))),
    ("skn_gguf_stream_finish", STATUS, (P,)),
    ("skn_gguf_stream_destroy", None, (P,)),
    # importance matrices
    ("skn_imatrix_open", STATUS, (CSTR, PP)),
    ("skn_imatrix_open_memory", STATUS, (P, SZ, PP)),
    ("skn_imatrix_close", None, (P,)),
    ("skn_imatrix_info", STATUS, (P, _POUT(ImatrixProps))),
    ("skn_imatrix_count", I64, (P,)),
    ("skn_imatrix_entry_info", STATUS, (P, I64, _POUT(ImatrixEntryProps))),
    ("skn_imatrix_find", STATUS, (P, CSTR, _POUT(I64))),
    ("skn_imatrix_values", STATUS, (P, I64, I64, PP, _POUT(SZ))),
    ("skn_imatrix_matrix_count", STATUS, (P, I64, I64, _POUT(I64))),
    ("skn_imatrix_dataset", STATUS, (P, I64, PP, _POUT(SZ))),
    # context and matmul
    ("skn_context_create", STATUS, (PP,)),
    ("skn_context_destroy", None, (P,)),
    ("skn_context_set_threads", STATUS, (P, INT)),
    ("skn_context_set_isa", STATUS, (P, INT)),
    ("skn_context_set_trace", STATUS, (P, TRACE_FN, P)),
    ("skn_matmul_wt", STATUS, (P, P, I64, I64, P, P, P, I64, _POUT(MatmulOptions))),
    ("skn_matmul_wt_id", STATUS, (P, P, I64, I64, I64, P, I64, I64, P, I64, P, P, P, I64, I64,
                                  _POUT(MatmulOptions))),
    ("skn_prepack_for_matmul", STATUS, (P, P, P, PP)),
    ("skn_kernel_count", I32, ()),
    ("skn_kernel_name", CSTR, (I32,)),
    # logging
    ("skn_set_log_callback", STATUS, (INT, LOG_FN, P)),
]:
    _fn(_name, _res, *_args)

# The typed scalar getters and adders share one shape each.
SCALAR_CTYPES = {
    0: ("u8", ctypes.c_uint8), 1: ("i8", ctypes.c_int8), 2: ("u16", ctypes.c_uint16), 3: ("i16", ctypes.c_int16),
    4: ("u32", ctypes.c_uint32), 5: ("i32", ctypes.c_int32), 6: ("f32", ctypes.c_float), 7: ("bool", INT),
    10: ("u64", ctypes.c_uint64), 11: ("i64", ctypes.c_int64), 12: ("f64", ctypes.c_double),
}
for _tid, (_suffix, _ct) in SCALAR_CTYPES.items():
    _fn("skn_gguf_get_" + _suffix, STATUS, P, I64, _POUT(_ct))
    _fn("skn_gguf_writer_add_" + _suffix, STATUS, P, CSTR, _ct)
