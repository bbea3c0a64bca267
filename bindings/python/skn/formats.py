# SPDX-License-Identifier: MIT
"""Formats by name or id, and what skn knows about each (skn.h section 2)."""
from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any, Dict, List, Union

import numpy as np

from ._lib import FormatProps, lib
from .errors import UnknownFormatError, check

FormatLike = Union[str, int, "FormatInfo"]


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
    # Rows one block spans: R for a row-interleaved format (Q4_0_R8: 8), else 1;
    # block_bytes stays one row's share, so a whole block is block_rows * block_bytes.
    block_rows: int = 1
    # The canonical format a row-interleaved format re-encodes (Q4_0 for Q4_0_R8); itself otherwise.
    interleaves: int = -1


_KINDS = "a name such as 'q4_k', an int id (a Python or NumPy integer) or an skn.FormatInfo"


def _as_id(fmt: Any) -> int:
    """The id `fmt` names, unchecked: strings are looked up, ints taken as they are."""
    if isinstance(fmt, (bool, np.bool_)):
        raise TypeError("a format is %s, not a bool" % _KINDS)
    if isinstance(fmt, FormatInfo):
        return fmt.id
    if isinstance(fmt, (int, np.integer)):
        if not -2**31 <= int(fmt) < 2**31:  # a C int would wrap it onto another format's id
            raise UnknownFormatError("format id %d is not one skn implements (skn.formats() lists those it does)"
                                     % int(fmt))
        return int(fmt)
    if not isinstance(fmt, str):
        raise TypeError("a format is %s, not %s" % (_KINDS, type(fmt).__name__))
    fid = _BY_NAME.get(fmt)
    if fid is None:
        out = ctypes.c_int()
        check(lib.skn_format_from_name(fmt.encode(), ctypes.byref(out)))
        fid = _BY_NAME[fmt] = out.value
    return fid


# What skn says about a format never changes while the library is loaded:
# looked up once, so that a small call does not pay two more C calls.
_BY_NAME: Dict[str, int] = {}
_INFOS: Dict[int, FormatInfo] = {}


def format_id(fmt: FormatLike) -> int:
    """The skn_format id of a name ("q4_k", "Q4_K": case-insensitive), an id (int or
    NumPy integer) or a FormatInfo. Raises UnknownFormatError naming the known formats."""
    fid = _as_id(fmt)
    if not isinstance(fmt, str):
        format_info(fid)  # refuses ids skn does not implement
    return fid


def format_info(fmt: FormatLike) -> FormatInfo:
    """What skn knows about a format (skn_format_info), by name, id or FormatInfo."""
    fid = _as_id(fmt)
    info = _INFOS.get(fid)
    if info is not None:
        return info
    p = FormatProps()
    p.struct_size = ctypes.sizeof(FormatProps)
    check(lib.skn_format_info(fid, ctypes.byref(p)))
    info = _INFOS[fid] = FormatInfo(fid, p.name.decode(), p.block_elems, p.block_bytes, p.tensor_trailer_bytes,
                                    bool(p.is_block_quantized), p.activation_format, p.bits_per_weight,
                                    bool(p.needs_importance), p.block_rows, p.interleaves)
    return info


def formats() -> List[FormatInfo]:
    """Every format skn implements, in increasing id order."""
    return [format_info(lib.skn_format_at(i)) for i in range(lib.skn_format_count())]


def format_name(fid: int) -> str:
    """The GGUF name of a format id ("Q4_K")."""
    return format_info(fid).name
