# SPDX-License-Identifier: MIT
"""skn for Python: block-quantized (GGUF) weights and the CPU matrix products
over them, through the installed libskn.so.1 (ctypes; no compiled extension).

    import numpy as np, skn
    w = np.random.default_rng(0).standard_normal((64, 768), dtype=np.float32)
    packed = skn.quantize(w, "q4_k")                   # uint8 (64, 432) bytes, ROW_MAJOR
    back = skn.dequantize(packed, "q4_k")              # float32 [64, 768]
    view = skn.View.from_bytes(packed, "q4_k", w.shape)
    y = skn.matmul_wt(np.ones((2, 768), np.float32), skn.prepack_for_matmul(view))

Errors raise skn.Error subclasses carrying `status` and `message`
(docs/bindings/python.md). `python -m skn dump FILE` prints a GGUF file."""
from __future__ import annotations

from ._lib import lib as _lib
from .errors import (BufferTooSmallError, ClosedError, Error, FileIOError, FormatError, InternalError,
                     InvalidArgumentError, NotFoundError, OutOfMemoryError, UnknownFormatError, UnsupportedError)
from .fixtures import DEFAULT_BLOCKS_PER_ROW, DEFAULT_ROWS, Golden, disagreement, fixture_bytes, golden
from .formats import FormatInfo, format_id, format_info, format_name, formats
from .gguf import GGUF, Metadata, Tensor, TensorInfo
from .gguf_keys import llama_key_type
from .gguf_stream import GGUFStream
from .gguf_writer import GGUFWriter
from .imatrix import Imatrix, ImatrixEntry
from .logs import set_log_callback
from .matmul import Context, cpu_features, cpu_isa, kernel_names, matmul_wt, matmul_wt_id, prepack_for_matmul
from .quant import dequantize, quantize, quantized_size
from .trace import TraceEvent
from .views import INPUT_BLOCK_MAJOR, ROW_MAJOR, View, require_out_in, to_canonical_order, to_kernel_order

__version__ = "1.0.0"


def version() -> str:
    """The loaded library's version, "MAJOR.MINOR.PATCH"."""
    return _lib.skn_version_string().decode()


def version_number() -> int:
    """The loaded library's version as MAJOR*10000 + MINOR*100 + PATCH."""
    return int(_lib.skn_version())


def _check_library_version() -> None:
    # The package is built against one libskn1 (the Debian package depends on
    # that version): a major version it does not know may have moved bytes.
    major = version_number() // 10000
    if major != int(__version__.split(".")[0]):
        raise ImportError("skn %s for Python needs libskn.so.1 of major version %s, but loaded %s"
                          % (__version__, __version__.split(".")[0], version()))


_check_library_version()

__all__ = [
    "BufferTooSmallError", "ClosedError", "Context", "DEFAULT_BLOCKS_PER_ROW", "DEFAULT_ROWS", "Error",
    "FileIOError", "FormatError", "FormatInfo", "GGUF", "GGUFStream", "GGUFWriter", "Golden", "INPUT_BLOCK_MAJOR",
    "Imatrix", "ImatrixEntry", "InternalError", "InvalidArgumentError", "Metadata", "NotFoundError",
    "OutOfMemoryError", "ROW_MAJOR", "Tensor", "TensorInfo", "TraceEvent", "UnknownFormatError",
    "UnsupportedError", "View", "cpu_features", "cpu_isa", "dequantize", "disagreement", "fixture_bytes",
    "format_id", "format_info", "format_name", "formats", "golden", "kernel_names", "llama_key_type",
    "matmul_wt", "matmul_wt_id", "prepack_for_matmul", "quantize", "quantized_size", "require_out_in",
    "set_log_callback", "to_canonical_order", "to_kernel_order", "version", "version_number",
]
