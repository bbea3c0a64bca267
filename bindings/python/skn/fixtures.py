# SPDX-License-Identifier: MIT
"""Fixtures shipped in libskn (skn.h section 7): tagged bytes to check a
converter's block order against, and golden weights for decode fidelity."""
from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from ._buffers import as_bytes, ptr
from ._lib import GoldenInfo, lib
from .errors import check
from .formats import FormatLike, format_id, format_name

DEFAULT_ROWS = 4
DEFAULT_BLOCKS_PER_ROW = 3


def fixture_bytes(fmt: FormatLike, kernel_order: bool = False, rows: int = DEFAULT_ROWS,
                  blocks_per_row: int = DEFAULT_BLOCKS_PER_ROW) -> np.ndarray:
    """The tagged fixture of `fmt`: a [rows, blocks_per_row] block grid whose every block
    is derived from its (row, block), ROW_MAJOR (kernel_order False) or INPUT_BLOCK_MAJOR.
    Raises InvalidArgumentError (a grid under 2 x 3, a dense format), UnknownFormatError."""
    fid = format_id(fmt)
    need = ctypes.c_size_t()
    check(lib.skn_fixture_bytes(fid, int(bool(kernel_order)), rows, blocks_per_row, None, 0, ctypes.byref(need)))
    out = np.empty(need.value, dtype=np.uint8)
    check(lib.skn_fixture_bytes(fid, int(bool(kernel_order)), rows, blocks_per_row, ptr(out), out.size,
                                ctypes.byref(need)))
    return out


def disagreement(buf: Any, fmt: FormatLike, kernel_order: bool = False, rows: int = DEFAULT_ROWS,
                 blocks_per_row: int = DEFAULT_BLOCKS_PER_ROW) -> Optional[str]:
    """None when `buf` is exactly the tagged fixture of that format, order and grid; else
    a message naming the first block found in the wrong place (and whether the bytes are
    the other order's fixture). The consumer contract check of docs/packaging.md."""
    data = as_bytes(buf, "buf")
    addr = ptr(data) if data.size else ptr(np.zeros(1, dtype=np.uint8))
    msg = lib.skn_fixture_disagreement(addr, data.size, format_id(fmt), int(bool(kernel_order)), rows,
                                       blocks_per_row)
    return None if msg is None else msg.decode("utf-8", "replace")


@dataclass(frozen=True)
class Golden:
    """The golden fixture of one format: W [rows, cols] (source), its quantized bytes in
    both orders, their decoded floats, an activation x [x_rows, cols] and
    y = x . decoded(W)^T [x_rows, rows]."""
    format: str
    source: np.ndarray
    packed: np.ndarray
    packed_kernel_order: np.ndarray
    decoded: np.ndarray
    x: np.ndarray
    y: np.ndarray


def golden(fmt: FormatLike) -> Golden:
    """The golden fixture of a block format (skn_fixture_golden)."""
    fid = format_id(fmt)
    info = GoldenInfo(ctypes.sizeof(GoldenInfo), 0, 0, 0)
    check(lib.skn_fixture_golden_info(fid, ctypes.byref(info)))

    def part(index: int, dtype: Any, shape: Any) -> np.ndarray:
        need = ctypes.c_size_t()
        check(lib.skn_fixture_golden(fid, index, None, 0, ctypes.byref(need)))
        out = np.empty(need.value, dtype=np.uint8)
        check(lib.skn_fixture_golden(fid, index, ptr(out), out.size, ctypes.byref(need)))
        arr = out.view(dtype)
        return arr.reshape(shape) if shape is not None else arr

    r, c, xr = info.rows, info.cols, info.x_rows
    return Golden(format_name(fid), part(0, np.float32, (r, c)), part(1, np.uint8, None), part(2, np.uint8, None),
                  part(3, np.float32, (r, c)), part(4, np.float32, (xr, c)), part(5, np.float32, (xr, r)))
