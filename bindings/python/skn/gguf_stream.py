# SPDX-License-Identifier: MIT
"""A GGUF file being written tensor by tensor (skn.h section 8, "streaming a
file"): the header first, then each declared tensor's bytes in order, whole
or in chunks, so no more than one chunk is ever in memory."""
from __future__ import annotations

import ctypes
from typing import Any, Optional, Tuple

import numpy as np

from ._buffers import as_bytes, ptr
from ._lib import lib
from .errors import ClosedError, check


class GGUFStream:
    """Made by GGUFWriter.stream(path). write() each declared tensor's bytes in the
    order declared, then finish() (renames the finished file over `path`); close()
    without finishing removes the temporary file, leaving `path` untouched. As a
    context manager it finishes on a normal exit and abandons on an exception."""

    def __init__(self, handle: ctypes.c_void_p) -> None:
        self._handle: Optional[ctypes.c_void_p] = handle
        self._finished = False

    def _h(self) -> ctypes.c_void_p:
        if self._handle is None:
            raise ClosedError("the skn.GGUFStream is closed")
        return self._handle

    def write(self, name: str, data: Any) -> None:
        """Append `data` (bytes-like: a chunk of, or all of, tensor `name`'s ROW_MAJOR
        bytes; a float32/float16 array for an F32/F16 tensor) to the file. `name` must be
        the first declared tensor not yet written in full.
        Raises InvalidArgumentError (a tensor out of order, a chunk past its end: the
        message names the tensor expected and its byte counts), FileIOError (the write
        failed: the stream is broken and its temporary file removed)."""
        if isinstance(data, np.ndarray) and data.dtype.kind == "f":
            data = np.ascontiguousarray(data, dtype=data.dtype.newbyteorder("<"))
        raw = as_bytes(data, "data")
        check(lib.skn_gguf_stream_write(self._h(), name.encode(), ptr(raw) if raw.size else None, raw.size))

    @property
    def position(self) -> Tuple[int, int]:
        """(index of the tensor the next bytes belong to, bytes of it written); the index
        is the tensor count once every tensor is written."""
        tensor = ctypes.c_int64()
        written = ctypes.c_uint64()
        check(lib.skn_gguf_stream_position(self._h(), ctypes.byref(tensor), ctypes.byref(written)))
        return tensor.value, written.value

    def finish(self) -> None:
        """Check every tensor is written in full, sync the file and rename it over the
        path. Raises InvalidArgumentError naming a tensor not written in full (the stream
        is unchanged: write the rest and finish again), FileIOError."""
        check(lib.skn_gguf_stream_finish(self._h()))
        self._finished = True
        self.close()

    def close(self) -> None:
        """Release the stream; an unfinished file is removed."""
        if self._handle is not None:
            lib.skn_gguf_stream_destroy(self._handle)
            self._handle = None

    @property
    def finished(self) -> bool:
        return self._finished

    def __del__(self) -> None:
        if getattr(self, "_handle", None) is not None and lib is not None:  # None late in shutdown
            self.close()

    def __enter__(self) -> "GGUFStream":
        return self

    def __exit__(self, exc_type: Any, *exc: Any) -> None:
        if exc_type is None and self._handle is not None:
            try:
                self.finish()
            finally:
                self.close()
        else:
            self.close()
