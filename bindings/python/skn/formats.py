# SPDX-License-Identifier: MIT
"""Formats by name or id, and what skn knows about each (skn.h section 2)."""
from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import List, Union

from ._lib import FormatProps, lib
from .errors import check

FormatLike = Union[str, int]


@dataclass(frozen=True)
class FormatInfo:
    """skn_format_props of one format."""
    id: int
    name: str
    block_elems: int
    block_bytes: int
    tensor_trailer_bytes: int
    is_block_quantized: bool
    activation_format: int
    bits_per_weight: float
    needs_importance: bool


def format_id(fmt: FormatLike) -> int:
    """The skn_format id of a name ("q4_k", "Q4_K": case-insensitive) or of an id.
    Raises UnknownFormatError naming the known formats."""
    if isinstance(fmt, bool):
        raise TypeError("a format is a name such as 'q4_k' or an int id, not a bool")
    if isinstance(fmt, int):
        format_info(fmt)  # refuses ids skn does not implement
        return fmt
    if not isinstance(fmt, str):
        raise TypeError("a format is a name such as 'q4_k' or an int id, not %s" % type(fmt).__name__)
    out = ctypes.c_int()
    check(lib.skn_format_from_name(fmt.encode(), ctypes.byref(out)))
    return out.value


def format_info(fmt: FormatLike) -> FormatInfo:
    """What skn knows about a format (skn_format_info)."""
    fid = format_id(fmt) if isinstance(fmt, str) else fmt
    p = FormatProps()
    p.struct_size = ctypes.sizeof(FormatProps)
    check(lib.skn_format_info(fid, ctypes.byref(p)))
    return FormatInfo(fid, p.name.decode(), p.block_elems, p.block_bytes, p.tensor_trailer_bytes,
                      bool(p.is_block_quantized), p.activation_format, p.bits_per_weight,
                      bool(p.needs_importance))


def formats() -> List[FormatInfo]:
    """Every format skn implements, in increasing id order."""
    return [format_info(lib.skn_format_at(i)) for i in range(lib.skn_format_count())]


def format_name(fid: int) -> str:
    """The GGUF name of a format id ("Q4_K")."""
    return format_info(fid).name
