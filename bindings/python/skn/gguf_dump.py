# SPDX-License-Identifier: MIT
"""What `python -m skn dump` and skn-gguf-dump print: a GGUF file's header,
metadata (types as stored) and tensors, as text or JSON."""
from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, TextIO

import numpy as np

from .gguf import GGUF


def _plain(value: Any) -> Any:
    """A metadata value as JSON-ready Python (arrays as lists, bytes as text)."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, bytes):
        return value.decode("utf-8", "backslashreplace")
    return value


def _shown(value: Any, count: Optional[int]) -> str:
    text = repr(_plain(value)) if not isinstance(value, str) else repr(value)
    if len(text) > 100:
        text = text[:97] + "..."
    if count is not None and isinstance(value, (list, np.ndarray)) and len(value) < count:
        text += " (%d more)" % (count - len(value))
    return text


def describe(g: GGUF, limit: Optional[int], tensors: bool) -> Dict[str, Any]:
    """The file as a dict: header facts, metadata {key: {type, count?, value}}, tensors."""
    meta: Dict[str, Any] = {}
    for key in g.metadata:
        t = g.metadata.type_of(key)
        entry: Dict[str, Any] = {"type": t}
        if t == "array":
            elem, count = g.metadata.array_info(key)
            entry.update(type="array[%s]" % elem, count=count)
        entry["value"] = g.metadata.value(key, limit)
        meta[key] = entry
    out: Dict[str, Any] = {"version": g.version, "alignment": g.alignment, "data_offset": g.data_offset,
                           "file_size": g.file_size, "tensor_count": len(g), "metadata": meta}
    if tensors:
        out["tensors"] = [{"name": t.name, "type": t.type_name, "supported": t.supported, "shape": list(t.shape),
                           "ne": list(t.ne), "offset": t.offset, "size": t.size} for t in g.tensors]
    return out


def print_text(name: str, d: Dict[str, Any], out: TextIO, orientation: str = "out_in") -> None:
    print("%s: GGUF v%d, %d tensors, %d metadata keys, alignment %d, tensor data at byte %d, %d bytes"
          % (name, d["version"], d["tensor_count"], len(d["metadata"]), d["alignment"], d["data_offset"],
             d["file_size"]), file=out)
    print("metadata:", file=out)
    width = max([len(m["type"]) for m in d["metadata"].values()] + [4])
    for i, (key, m) in enumerate(d["metadata"].items(), 1):
        count = m.get("count")
        shown = _shown(m["value"], count)
        print("  %4d  %-*s  %s%s = %s" % (i, width, m["type"], key, "" if count is None else " [%d]" % count, shown),
              file=out)
    if "tensors" in d:
        print("tensors (type, shape %s, name, file offset, bytes):"
              % ("[out, in]" if orientation == "out_in" else "as stored (ggml ne)"), file=out)
        for i, t in enumerate(d["tensors"], 1):
            print("  %4d  %-8s %-22s %s  at %d, %d bytes%s" % (
                i, t["type"], str(t["shape"]), t["name"], t["offset"], t["size"],
                "" if t["supported"] else "  (not supported by skn)"), file=out)


def print_json(d: Dict[str, Any], out: TextIO) -> None:
    plain = dict(d, metadata={k: dict(m, value=_plain(m["value"])) for k, m in d["metadata"].items()})
    json.dump(plain, out, indent=1, ensure_ascii=False)
    out.write("\n")


def dump(path: str, out: TextIO, as_json: bool = False, limit: Optional[int] = 8, tensors: bool = True,
         orientation: str = "out_in") -> None:
    """Print GGUF file `path` to `out` (arrays cut to `limit` elements; None: whole)."""
    with GGUF(path, orientation=orientation, allow_unsupported=True) as g:
        d = describe(g, limit, tensors)
    if as_json:
        print_json(d, out)
    else:
        print_text(path, d, out, orientation)


__all__: List[str] = ["dump", "describe"]
