# SPDX-License-Identifier: MIT
"""Command-line entry points: `python -m skn <command>` and the console
scripts skn-gguf-dump and skn-imatrix-dump (declared in pyproject.toml).

    python -m skn dump model.gguf [--json] [--no-tensors] [--all]
    python -m skn imatrix imatrix.gguf [--json]
    python -m skn formats
    python -m skn version

Errors are printed as "<program>: <message>" with exit status 1; usage errors
exit with 2."""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Callable, List, Optional

from .errors import Error
from .gguf_dump import dump


def _add_dump_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a GGUF file")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.add_argument("--no-tensors", action="store_true", help="leave the tensor list out")
    p.add_argument("--all", action="store_true", help="print arrays whole (default: their first 8 elements)")
    p.add_argument("--as-stored", action="store_true",
                   help="label shapes in the file's own (ggml ne) order instead of [out, in]")


def _run_dump(a: argparse.Namespace) -> None:
    dump(a.file, sys.stdout, as_json=a.json, limit=None if a.all else 8, tensors=not a.no_tensors,
         orientation="as_stored" if a.as_stored else "out_in")


def _add_imatrix_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="an imatrix file (llama-imatrix's GGUF or legacy .dat output)")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")


def _run_imatrix(a: argparse.Namespace) -> None:
    from .imatrix import Imatrix  # noqa: PLC0415 - only this command needs it
    with Imatrix(a.file) as im:
        rows = []
        for e in im.entries:
            v = im.values(e.name)
            rows.append({"name": e.name, "values_per_row": e.values_per_row, "matrices": e.matrices,
                         "count": e.count, "unused_matrices": e.unused_matrices,
                         "mean": float(v.mean()) if v.size else 0.0, "max": float(v.max()) if v.size else 0.0})
        head = {"form": im.form, "chunk_count": im.chunk_count, "chunk_size": im.chunk_size,
                "datasets": im.datasets, "entries": rows}
    if a.json:
        json.dump(head, sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
        return
    print("%s: %s imatrix, %d entries, chunks %s of %s tokens, datasets %s" % (
        a.file, head["form"], len(rows), head["chunk_count"] if head["chunk_count"] is not None else "?",
        head["chunk_size"] if head["chunk_size"] is not None else "?", ", ".join(head["datasets"]) or "-"))
    print("  %4s  %-40s %8s %8s %10s %6s %10s %10s" % ("#", "weight", "per row", "matrices", "count", "unused",
                                                      "mean", "max"))
    for i, r in enumerate(rows, 1):
        print("  %4d  %-40s %8d %8d %10d %6d %10.4g %10.4g" % (
            i, r["name"], r["values_per_row"], r["matrices"], r["count"], r["unused_matrices"], r["mean"], r["max"]))


def _run_formats(a: argparse.Namespace) -> None:
    from .formats import formats  # noqa: PLC0415
    print("  %4s  %-9s %6s %6s %8s  %s" % ("id", "name", "block", "bytes", "bits/w", "needs imatrix"))
    for f in formats():
        print("  %4d  %-9s %6d %6d %8.4g  %s" % (f.id, f.name, f.block_elems, f.block_bytes, f.bits_per_weight,
                                                "yes" if f.needs_importance else "no"))


def _run_version(a: argparse.Namespace) -> None:
    from . import __version__, version  # noqa: PLC0415
    from .matmul import cpu_isa  # noqa: PLC0415
    print("skn for Python %s, libskn %s, CPU tier %s" % (__version__, version(), cpu_isa()))


_COMMANDS = {
    "dump": ("print a GGUF file's header, metadata and tensors", _add_dump_arguments, _run_dump),
    "imatrix": ("print an imatrix file's entries", _add_imatrix_arguments, _run_imatrix),
    "formats": ("list the formats skn implements", None, _run_formats),
    "version": ("print the binding's and the library's versions", None, _run_version),
}


def _run(prog: str, parse: Callable[[], argparse.Namespace], run: Callable[[argparse.Namespace], None]) -> int:
    a = parse()
    try:
        run(a)
        sys.stdout.flush()
    except BrokenPipeError:  # `... | head`: stop quietly, as other tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (Error, OSError) as e:
        print("%s: %s" % (prog, e), file=sys.stderr)
        return 1
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    """python -m skn <command> ..."""
    parser = argparse.ArgumentParser(prog="python -m skn", description="skn's Python tools over libskn.so.1")
    sub = parser.add_subparsers(dest="command", metavar="command")
    for name, (summary, add, run) in _COMMANDS.items():
        p = sub.add_parser(name, help=summary, description=summary)
        if add is not None:
            add(p)
        p.set_defaults(run=run)
    a = parser.parse_args(argv)
    if a.command is None:
        parser.print_help()
        return 2
    return _run("python -m skn " + a.command, lambda: a, a.run)


def _single(prog: str, name: str, argv: Optional[List[str]]) -> int:
    summary, add, run = _COMMANDS[name]
    parser = argparse.ArgumentParser(prog=prog, description=summary)
    if add is not None:
        add(parser)
    return _run(prog, lambda: parser.parse_args(argv), run)


def gguf_dump_main(argv: Optional[List[str]] = None) -> int:
    """skn-gguf-dump FILE [--json] [--no-tensors] [--all] [--as-stored]"""
    return _single("skn-gguf-dump", "dump", argv)


def imatrix_dump_main(argv: Optional[List[str]] = None) -> int:
    """skn-imatrix-dump FILE [--json]"""
    return _single("skn-imatrix-dump", "imatrix", argv)


__all__: List[str] = ["main", "gguf_dump_main", "imatrix_dump_main"]
