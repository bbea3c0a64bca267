#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""skn demo --write-model: the sample model file and the refusals.

    demo_model.py SKN_PROGRAM WORK_DIR

The file must be what the quickstart needs: a llama-style GGUF whose
metadata skn quantize's preset rules read, whose matrices are F16 with
whole 256-element super-blocks per row (so Q4_K_M converts every one), the
same bytes on every run; bad usage exits 2 and an unwritable PATH exits 1,
each with a message. SKN_EMULATOR (qemu) runs a cross-built program.
"""
import json
import os
import shutil
import subprocess
import sys

SKN = sys.argv[1]
WORK = sys.argv[2]
EMULATOR = os.environ.get("SKN_EMULATOR", "").split()
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def run(*args, expect=None):
    p = subprocess.run(EMULATOR + [SKN] + list(args), capture_output=True, cwd=WORK)
    if expect is not None:
        check(p.returncode == expect, f"skn {' '.join(args)}: exit {p.returncode}, expected {expect}\n"
              f"{p.stdout.decode()}{p.stderr.decode()}")
    return p


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)

p = run("demo", "--write-model", "sample.gguf", expect=0)
check(b"wrote sample.gguf" in p.stdout and b"21 tensors" in p.stdout, f"demo --write-model says: {p.stdout!r}")
first = open(os.path.join(WORK, "sample.gguf"), "rb").read()
run("demo", "--write-model", "again.gguf", expect=0)
check(open(os.path.join(WORK, "again.gguf"), "rb").read() == first, "two runs wrote different bytes")

doc = json.loads(run("inspect", "--json", "sample.gguf", expect=0).stdout)
meta = {m["key"]: m for m in doc["metadata"]}
for key, typ, value in (("general.architecture", "string", "llama"), ("llama.block_count", "u32", 2),
                        ("llama.embedding_length", "u32", 256), ("llama.attention.head_count", "u32", 4),
                        ("llama.attention.head_count_kv", "u32", 2), ("general.file_type", "u32", 1)):
    got = meta.get(key)
    check(got is not None and got["type"] == typ and got["value"] == value, f"{key}: {got}, expected {typ} {value}")
check(meta.get("tokenizer.ggml.tokens", {}).get("count") == 64, "a 64-token vocabulary")
tensors = {t["name"]: t for t in doc["tensors"]}
check(len(tensors) == 21, f"{len(tensors)} tensors, expected 21")
for layer in range(2):
    for part in ("attn_q", "attn_k", "attn_v", "attn_output", "ffn_gate", "ffn_up", "ffn_down"):
        t = tensors.get(f"blk.{layer}.{part}.weight")
        check(t is not None and t["type"] == "F16" and len(t["shape_as_stored"]) == 2
              and t["shape_as_stored"][0] % 256 == 0, f"blk.{layer}.{part}.weight: {t}")
    norm = tensors.get(f"blk.{layer}.attn_norm.weight")
    check(norm is not None and norm["type"] == "F32" and norm["shape_as_stored"] == [256], f"attn_norm: {norm}")
check(tensors.get("blk.0.ffn_down.weight", {}).get("shape_out_in") == [256, 512], "ffn_down is [out, in] = [256, 512]")

# Every matrix converts under Q4_K_M: none falls back for a partial block.
run("quantize", "sample.gguf", "q.gguf", "Q4_K_M", expect=0)
q = {t["name"]: t["type"] for t in json.loads(run("inspect", "--json", "q.gguf", expect=0).stdout)["tensors"]}
check(sorted(set(q.values())) == ["F32", "Q4_K", "Q6_K"], f"Q4_K_M gave the types {sorted(set(q.values()))}")
run("verify", "q.gguf", expect=0)

p = run("demo", "--write-model", expect=2)
check(b"needs a PATH" in p.stderr, f"--write-model without PATH: {p.stderr!r}")
p = run("demo", "--write-model", "a.gguf", "b.gguf", expect=2)
check(b"one PATH" in p.stderr, f"--write-model with two paths: {p.stderr!r}")
p = run("demo", "--bogus", expect=2)
check(b"unknown option" in p.stderr, f"demo --bogus: {p.stderr!r}")
p = run("demo", "--write-model", "no/such/dir/sample.gguf", expect=1)
check(b"cannot write no/such/dir/sample.gguf" in p.stderr, f"an unwritable PATH: {p.stderr!r}")
check(not os.path.exists(os.path.join(WORK, "no")), "an unwritable PATH left something behind")

if failures:
    sys.exit(1)
shutil.rmtree(WORK, ignore_errors=True)
print("demo --write-model: ok")
