#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""skn inspect on a hand-made GGUF file (the writer refuses to make it): a
70-byte tensor name (flagged: llama.cpp cannot load it), a tensor of a type
skn does not implement (shown with its numeric id), and a UTF-8 string
(printed as UTF-8 under a UTF-8 locale, as \\x escapes under the C locale).
    inspect_flags.py SKN WORKDIR"""
import json
import os
import struct
import subprocess
import sys


def gguf_string(s: bytes) -> bytes:
    return struct.pack("<Q", len(s)) + s


def make_file(path: str) -> None:
    long_name = b"blk.0." + b"x" * 57 + b".weight"  # 70 bytes
    assert len(long_name) == 70
    # Then an ASCII control, a C1 control (U+0085: valid UTF-8 that is not
    # sent to a terminal) and a byte that is no UTF-8.
    text = "Gewichte größer – 日本語".encode("utf-8") + b"\x01\xc2\x85\xff"
    kv = gguf_string(b"general.name") + struct.pack("<I", 8) + gguf_string(text)
    infos = b""
    # F32 [4] at offset 0; I8 (type 24, 64 elements, 64 bytes) at 32.
    infos += gguf_string(long_name) + struct.pack("<I", 1) + struct.pack("<Q", 4) + struct.pack("<IQ", 0, 0)
    infos += gguf_string(b"ints.weight") + struct.pack("<I", 1) + struct.pack("<Q", 64) + struct.pack("<IQ", 24, 32)
    head = b"GGUF" + struct.pack("<IQQ", 3, 2, 1) + kv + infos
    head += b"\0" * ((-len(head)) % 32)
    data = struct.pack("<4f", 1, 2, 3, 4) + b"\0" * 16 + bytes(64)
    data += b"\0" * ((-len(data)) % 32)
    with open(path, "wb") as f:
        f.write(head + data)


def run(skn: str, path: str, lc: str) -> str:
    env = dict(os.environ, LC_ALL=lc)
    # SKN_EMULATOR: the command a cross build runs programs with (qemu).
    emulator = os.environ.get("SKN_EMULATOR", "").split()
    p = subprocess.run([*emulator, skn, "inspect", path], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.exit(f"skn inspect ({lc}) exited {p.returncode}: {p.stderr.decode(errors='replace')}")
    return p.stdout.decode("utf-8", errors="replace")


def main() -> None:
    skn, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    path = os.path.join(work, "inspect_flags.gguf")
    make_file(path)
    failures = []
    utf8 = run(skn, path, "C.UTF-8")
    plain = run(skn, path, "C")
    if "Gewichte größer – 日本語" not in utf8:
        failures.append("UTF-8 locale: the string is not printed as UTF-8")
    if "\\xc3\\xb6" not in plain or "größer" in plain:
        failures.append("C locale: non-ASCII bytes are not escaped")
    for out, locale in ((utf8, "UTF-8"), (plain, "C")):
        if '\\x01\\xc2\\x85\\xff"' not in out:
            failures.append(f"{locale} locale: the controls and the invalid byte are not escaped as \\xNN")
    if "I8(24)*" not in utf8:
        failures.append("the unimplemented type is not shown with its id (I8(24)*)")
    long_line = [l for l in utf8.splitlines() if "blk.0.xxx" in l]
    if not long_line or not long_line[0].rstrip().endswith("!"):
        failures.append("the 70-byte tensor name is not flagged with !")
    if "llama.cpp cannot load this file" not in utf8:
        failures.append("no note that llama.cpp cannot load the file")
    # --json: the same facts, UTF-8 whatever the locale.
    env = dict(os.environ, LC_ALL="C")
    emulator = os.environ.get("SKN_EMULATOR", "").split()
    p = subprocess.run([*emulator, skn, "inspect", "--json", path], env=env, stdout=subprocess.PIPE)
    doc = json.loads(p.stdout.decode("utf-8"))
    tensors = {t["name"]: t for t in doc["tensors"]}
    # JSON text is UTF-8: the controls escaped (they decode back), U+0085 as
    # is, the invalid byte as U+FFFD.
    if doc["metadata"][0]["value"] != "Gewichte größer – 日本語\x01\u0085\ufffd":
        failures.append("--json under the C locale: the string is not UTF-8")
    ints = tensors.get("ints.weight", {})
    if ints.get("type") != "I8" or ints.get("type_id") != 24 or ints.get("supported") is not False:
        failures.append(f"--json: the unimplemented type is not described: {ints}")
    if not any(t["name_too_long"] for t in doc["tensors"] if t["name"].startswith("blk.0.xxx")):
        failures.append("--json: the 70-byte name is not flagged name_too_long")
    if doc["unsupported_count"] != 1:
        failures.append("--json: unsupported_count is not 1")
    if failures:
        print(utf8)
        sys.exit("FAIL: " + "; ".join(failures))
    print("inspect flags: ok")


if __name__ == "__main__":
    main()
