#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The skn commands that write files (quantize, edit, split, merge) as a new
user tries them (issue 37): safety (IN = OUT, links, a directory as OUT, a
missing directory, signals, `ulimit -f`), llama-quantize's options and keys
as its source (tools/quantize/quantize.cpp, src/llama-quant.cpp, v0.5.0)
defines them, and memory bounds. Inputs are built and outputs read with
tests/tools/gguf_files.py, which does not use libskn.
    tool_files.py SKN WORKDIR SECTION"""
import hashlib
import json
import os
import random
import re
import signal
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gguf_files as G  # noqa: E402
from tooltest import Tool  # noqa: E402

SKN, WORK, SECTION = sys.argv[1:4]
T = Tool(SKN)
EMULATOR, failures, run, check = T.emulator, T.failures, T.run, T.check


def err(p):
    return p.stderr.decode(errors="replace")


def leftovers(d):
    return [f for f in os.listdir(d) if "skn-partial" in f]


def fresh_dir(name):
    d = os.path.join(WORK, name)
    if os.path.isdir(d):
        for f in os.listdir(d):
            p = os.path.join(d, f)
            if os.path.isdir(p) and not os.path.islink(p):
                os.chmod(p, 0o755)
                for g in os.listdir(p):
                    os.remove(os.path.join(p, g))
                os.rmdir(p)
            else:
                os.remove(p)
    os.makedirs(d, exist_ok=True)
    return d


_FLOAT_BLOCK = {}


def floats(n, seed):
    """n float32 values in [-1, 1): a seeded block of 4096, tiled (fast for
    large tensors, and rows still differ)."""
    if seed not in _FLOAT_BLOCK:
        rng = random.Random(seed)
        _FLOAT_BLOCK[seed] = struct.pack("<4096f", *[rng.uniform(-1.0, 1.0) for _ in range(4096)])
    block = _FLOAT_BLOCK[seed]
    reps = (4 * n + len(block) - 1) // len(block)
    return (block * reps)[:4 * n]


def positive(n, seed):
    rng = random.Random(seed)
    return struct.pack(f"<{n}f", *[rng.uniform(0.01, 4.0) for _ in range(n)])


def ints(fmt, n, seed):
    rng = random.Random(seed)
    size = struct.calcsize(fmt)
    lo, hi = -(1 << (8 * size - 1)), (1 << (8 * size - 1)) - 1
    return struct.pack(f"<{n}{fmt}", *[rng.randint(lo, hi) for _ in range(n)])


INTEGER_TENSORS = [("token_types.i8", G.T_I8, [48], "b"), ("rope.positions.i16", G.T_I16, [48], "h"),
                   ("vocab.ids.i32", G.T_I32, [16, 3], "i"), ("expert.map.i64", G.T_I64, [8, 3], "q")]


def llama_model(path, layers=2, n_embd=256, n_ff=512, n_vocab=64, with_output=True, extra_kvs=(), integers=True,
                file_type=None):
    """A llama-shaped F32 model llama.cpp's quantizer rules apply to, with
    integer and F64 tensors beside the weights."""
    kvs = [("general.architecture", G.STR, "llama"), ("general.name", G.STR, "tiny"),
           ("llama.block_count", G.U32, layers), ("llama.context_length", G.U32, 256),
           ("llama.embedding_length", G.U32, n_embd), ("llama.attention.head_count", G.U32, 4),
           ("llama.attention.head_count_kv", G.U32, 4),
           ("tokenizer.ggml.tokens", G.ARR, (G.STR, [f"t{i}" for i in range(n_vocab)]))]
    if file_type is not None:
        kvs.append(("general.file_type", G.U32, file_type))
    kvs += list(extra_kvs)
    t = [("token_embd.weight", G.T_F32, [n_embd, n_vocab], floats(n_embd * n_vocab, 1))]
    seed = 10
    for b in range(layers):
        for name, ne in (("attn_norm", [n_embd]), ("attn_q", [n_embd, n_embd]), ("attn_k", [n_embd, n_embd]),
                         ("attn_v", [n_embd, n_embd]), ("attn_output", [n_embd, n_embd]), ("ffn_norm", [n_embd]),
                         ("ffn_gate", [n_embd, n_ff]), ("ffn_up", [n_embd, n_ff]), ("ffn_down", [n_ff, n_embd])):
            n = 1
            for d in ne:
                n *= d
            seed += 1
            t.append((f"blk.{b}.{name}.weight", G.T_F32, ne, floats(n, seed)))
    t.append(("output_norm.weight", G.T_F32, [n_embd], floats(n_embd, 2)))
    if with_output:
        t.append(("output.weight", G.T_F32, [n_embd, n_vocab], floats(n_embd * n_vocab, 3)))
    if integers:
        for name, type_id, ne, fmt in INTEGER_TENSORS:
            n = 1
            for d in ne:
                n *= d
            t.append((name, type_id, ne, ints(fmt, n, len(name))))
        t.append(("rope.freqs.f64", G.T_F64, [32], struct.pack("<32d", *[1.0 / (i + 1) for i in range(32)])))
    G.write(path, kvs, t)
    return path


def imatrix_gguf(path, entries, datasets=("calib.txt", "extra.txt"), chunk_count=10, chunk_size=512):
    """llama-imatrix's GGUF form: NAME.in_sum2 [per_row, matrices] and
    NAME.counts [1, matrices] per entry, and the imatrix.* keys."""
    kvs = [("general.type", G.STR, "imatrix"), ("imatrix.datasets", G.ARR, (G.STR, list(datasets))),
           ("imatrix.chunk_count", G.U32, chunk_count), ("imatrix.chunk_size", G.U32, chunk_size)]
    t = []
    for name, per_row in entries:  # in_sum2 holds sums of squares: positive
        t.append((name + ".in_sum2", G.T_F32, [per_row, 1], positive(per_row, len(name))))
        t.append((name + ".counts", G.T_F32, [1, 1], struct.pack("<f", 4.0)))
    G.write(path, kvs, t)
    return path


def imatrix_legacy(path, entries, trailer=None):
    """The legacy .dat form: (name, ncall, values) entries, then an optional
    trailer (chunk count, dataset)."""
    b = struct.pack("<i", len(entries))
    for name, per_row in entries:
        n = name.encode()
        b += struct.pack("<i", len(n)) + n + struct.pack("<ii", 3, per_row)
        b += struct.pack(f"<{per_row}f", *[1.0 + (i % 7) for i in range(per_row)])
    if trailer is not None:
        chunks, dataset = trailer
        b += struct.pack("<ii", chunks, len(dataset)) + dataset.encode()
    with open(path, "wb") as f:
        f.write(b)
    return path


def types_of(path):
    return {n: t for n, t, _, _, _ in G.Reader(path).tensors}


# ---- safety ------------------------------------------------------------------

def test_quantize_safety():
    d = fresh_dir("safety")
    model = llama_model(os.path.join(d, "m.gguf"))
    before = open(model, "rb").read()
    # IN = OUT, through a symbolic link, through a hard link: refused before any work.
    os.symlink("m.gguf", os.path.join(d, "sym.gguf"))
    os.link(model, os.path.join(d, "hard.gguf"))
    for out in ("m.gguf", "sym.gguf", "hard.gguf", "./m.gguf"):
        p = run("quantize", model, os.path.join(d, out), "Q4_K_M", expect=1)
        check("is the input" in err(p) and "--force-overwrite" in err(p), f"IN = OUT ({out}): {err(p)}")
    check(open(model, "rb").read() == before and not leftovers(d), "IN = OUT changed the input or left a file")
    # --force-overwrite replaces it once complete; the hard link keeps the old file.
    run("quantize", "--force-overwrite", model, model, "Q8_0", expect=0)
    check(types_of(model)["blk.0.attn_q.weight"] == G.T_Q8_0, "--force-overwrite did not replace IN")
    check(open(os.path.join(d, "hard.gguf"), "rb").read() == before, "the hard link to IN changed")
    model = llama_model(os.path.join(d, "m2.gguf"))
    # A directory as OUT, a missing directory, an unwritable one: the user's path named, nothing written.
    os.mkdir(os.path.join(d, "adir"))
    p = run("quantize", model, os.path.join(d, "adir"), "Q8_0", expect=1)
    check(re.search(r"adir is a directory: give the output file's name", err(p)), f"directory as OUT: {err(p)}")
    missing = os.path.join(d, "no", "such", "out.gguf")
    p = run("quantize", model, missing, "Q8_0", expect=1)
    check(f"cannot write {missing}: its directory" in err(p) and "does not exist" in err(p), f"missing dir: {err(p)}")
    if os.geteuid() != 0:  # root writes anywhere
        ro = os.path.join(d, "ro")
        os.mkdir(ro, 0o555)
        p = run("quantize", model, os.path.join(ro, "out.gguf"), "Q8_0", expect=1)
        check("no permission to create files in" in err(p), f"read-only dir: {err(p)}")
    p = run("quantize", model, "/dev/null", "Q8_0", expect=1)
    check("/dev/null is not a regular file" in err(p), f"device as OUT: {err(p)}")
    os.symlink(os.path.join(d, "nowhere", "x.gguf"), os.path.join(d, "dangling.gguf"))
    p = run("quantize", model, os.path.join(d, "dangling.gguf"), "Q8_0", expect=1)
    check("symbolic link to a missing file" in err(p), f"dangling link as OUT: {err(p)}")
    # A symbolic link to another file: that file is replaced, the link stays.
    other = os.path.join(d, "other.gguf")
    open(other, "wb").write(b"old")
    os.symlink("other.gguf", os.path.join(d, "to-other.gguf"))
    run("quantize", model, os.path.join(d, "to-other.gguf"), "Q8_0", expect=0)
    check(os.path.islink(os.path.join(d, "to-other.gguf")) and G.Reader(other).get("general.file_type") == 7,
          "a symbolic link OUT: its file is not the new one")
    check(not leftovers(d), f"safety: partial files left: {leftovers(d)}")
    # An unknown option: the usage line and "see --help", not the manual.
    p = run("quantize", "--frobnicate", model, "x.gguf", "Q8_0", expect=2)
    e = err(p)
    check(e.startswith('skn quantize: unknown option "--frobnicate"\nusage: skn quantize')
          and e.rstrip().endswith("see `skn quantize --help` for the options") and len(e.splitlines()) < 10,
          f"unknown option: {e}")
    # --threads defaults to the online CPUs.
    doc = json.loads(run("quantize", "--dry-run", "--json", model, "Q8_0", expect=0).stdout)
    check(doc["threads"] == min(256, os.sysconf("SC_NPROCESSORS_ONLN")), f"default threads {doc['threads']}")


def test_quantize_ulimit():
    """Under `ulimit -f` the write fails with EFBIG: reported, exit 1, no file."""
    d = fresh_dir("ulimit")
    model = llama_model(os.path.join(d, "m.gguf"))
    for mode in ("unnamed", "named"):
        out = os.path.join(d, f"out-{mode}.gguf")
        p = run("quantize", model, out, "Q8_0", expect=1, limit_fsize=64 * 1024,
                env={"SKN_TOOL_TMPFILE": mode})
        check("File too large" in err(p) and p.returncode == 1, f"ulimit -f ({mode}): {p.returncode} {err(p)}")
        check(not os.path.exists(out) and not leftovers(d), f"ulimit -f ({mode}): left {os.listdir(d)}")


def big_model(path):
    """About 24 MiB of F32 weights: long enough to interrupt."""
    if os.path.exists(path):
        return path
    return llama_model(path, layers=4, n_embd=512, n_ff=1536, n_vocab=256, integers=False)


def has_output_open(pid, d):
    """Whether process pid holds a file in d open for writing (named or O_TMPFILE)."""
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if target.startswith(d) and ("skn-partial" in target or "(deleted)" in target or "/#" in target):
                return True
    except OSError:
        pass
    return False


def test_quantize_signals():
    """Fork the tool, wait until it writes, send the signal: it dies of it
    and leaves nothing; unnamed (O_TMPFILE) outputs survive even SIGKILL."""
    if EMULATOR:
        return  # /proc/PID/fd of qemu-user shows the emulator's descriptors
    d = fresh_dir("signals")
    model = big_model(os.path.join(WORK, "big.gguf"))
    cases = [(signal.SIGINT, "named"), (signal.SIGTERM, "named"), (signal.SIGHUP, "named"),
             (signal.SIGINT, "unnamed"), (signal.SIGTERM, "unnamed"), (signal.SIGKILL, "unnamed")]
    for sig, mode in cases:
        out = os.path.join(d, f"out-{sig.name}-{mode}.gguf")
        proc = subprocess.Popen([SKN, "quantize", "--threads", "1", model, out, "Q6_K"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, env=dict(os.environ, SKN_TOOL_TMPFILE=mode))
        deadline = time.monotonic() + 60
        while not has_output_open(proc.pid, d) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.2)
        if proc.poll() is not None:
            check(False, f"{sig.name} ({mode}): skn quantize finished before it could be interrupted")
            continue
        if mode == "named":
            check(leftovers(d), f"{sig.name} ({mode}): no named temporary file while writing")
        proc.send_signal(sig)
        proc.wait(timeout=60)
        proc.stderr.close()
        check(proc.returncode == -sig, f"{sig.name} ({mode}): exit {proc.returncode}, expected death by the signal")
        check(not os.path.exists(out) and not leftovers(d), f"{sig.name} ({mode}): left {os.listdir(d)}")


# ---- llama-quantize parity ---------------------------------------------------

def test_quantize_imatrix_keys():
    """End to end: a model with integer and F64 tensors and an imatrix, a
    K-quant preset; the keys as llama-quantize writes them."""
    d = fresh_dir("imatrix_keys")
    model = llama_model(os.path.join(d, "m.gguf"), file_type=0, extra_kvs=[("split.count", G.U16, 1)])
    entries = [("blk.0.attn_q.weight", 256), ("blk.1.ffn_down.weight", 512), ("blk.0.ffn_up.weight", 256),
               ("not.in.model.weight", 64)]
    im = imatrix_gguf(os.path.join(d, "m.imatrix.gguf"), entries)
    out = os.path.join(d, "q4km.gguf")
    run("quantize", "--imatrix", im, "--override-kv", "general.name=str:renamed", "--override-kv",
        "llama.context_length=int:-4096", "--override-kv", "tiny.scale=float:0.5", "--override-kv",
        "tiny.flag=bool:true", model, out, "Q4_K_M", expect=0)
    r, src = G.Reader(out), G.Reader(model)
    # src/llama-quant.cpp: gguf_set_kv copies the input's pairs; general.quantization_version
    # and general.file_type are set (removed, appended); split.* removed; then every
    # kv override (quantize.cpp: the user's, then quantize.imatrix.file, .dataset,
    # .entries_count, .chunks_count), each set the same way.
    copied = [k for k in src.keys() if k not in ("general.file_type", "split.count", "general.name",
                                                  "llama.context_length")]
    want = copied + ["general.quantization_version", "general.file_type", "general.name", "llama.context_length",
                     "tiny.scale", "tiny.flag", "quantize.imatrix.file", "quantize.imatrix.dataset",
                     "quantize.imatrix.entries_count", "quantize.imatrix.chunks_count"]
    check(r.keys() == want, f"imatrix keys: order {r.keys()}\nwant {want}")
    check(r.kv("general.quantization_version") == ("general.quantization_version", G.U32, 2)
          and r.kv("general.file_type") == ("general.file_type", G.U32, 15), "quantization_version / file_type")
    # An int override is written as u32 of its absolute value, a float as f32.
    check(r.kv("llama.context_length") == ("llama.context_length", G.U32, 4096), r.kv("llama.context_length"))
    check(r.kv("tiny.scale") == ("tiny.scale", G.F32, 0.5) and r.kv("tiny.flag") == ("tiny.flag", G.BOOL, True)
          and r.kv("general.name") == ("general.name", G.STR, "renamed"), "overrides' types")
    check(r.kv("quantize.imatrix.file") == ("quantize.imatrix.file", G.STR, im)
          and r.kv("quantize.imatrix.dataset") == ("quantize.imatrix.dataset", G.STR, "calib.txt")
          and r.kv("quantize.imatrix.entries_count") == ("quantize.imatrix.entries_count", G.U32, 4)
          and r.kv("quantize.imatrix.chunks_count") == ("quantize.imatrix.chunks_count", G.U32, 10),
          f"imatrix keys: {[r.kv(k) for k in want[-4:]]}")
    # Integer and F64 tensors: copied as stored, type and bytes.
    for name, type_id, _, _ in INTEGER_TENSORS + [("rope.freqs.f64", G.T_F64, None, None)]:
        check(r.tensor(name)[1] == type_id and r.data(name) == src.data(name), f"{name} not copied as stored")
    types = types_of(out)
    check(types["blk.0.attn_q.weight"] == 12 and types["output.weight"] == 14 and types["blk.1.attn_v.weight"] == 14,
          f"Q4_K_M types: {types}")
    check(run("verify", out).returncode == 0, "the Q4_K_M output does not verify")
    # --dry-run of a file with integer tensors works too (it was refused before).
    run("quantize", "--dry-run", model, "Q4_K_M", expect=0)
    # A legacy imatrix: no trailer, no chunks_count; a trailer: its count and dataset.
    # A path longer than 127 bytes is cut to 127, as llama-quantize's buffer cuts it.
    long_dir = os.path.join(d, "x" * 100)
    os.makedirs(long_dir, exist_ok=True)
    for trailer in (None, (7, "wiki.train.raw")):
        dat = imatrix_legacy(os.path.join(long_dir, "legacy.dat"), entries[:2], trailer)
        out2 = os.path.join(d, "legacy.gguf")
        run("quantize", "--imatrix", dat, model, out2, "Q4_K_M", expect=0)
        r2 = G.Reader(out2)
        tail = [k for k in r2.keys() if k.startswith("quantize.")]
        if trailer is None:
            check(tail == ["quantize.imatrix.file", "quantize.imatrix.entries_count"], f"legacy keys {tail}")
        else:
            check(tail == ["quantize.imatrix.file", "quantize.imatrix.dataset", "quantize.imatrix.entries_count",
                           "quantize.imatrix.chunks_count"] and r2.get("quantize.imatrix.chunks_count") == 7
                  and r2.get("quantize.imatrix.dataset") == "wiki.train.raw", f"legacy trailer keys {r2.kvs[-4:]}")
        check(r2.get("quantize.imatrix.file") == dat[:127] and r2.get("quantize.imatrix.entries_count") == 2,
              f"legacy file key {r2.get('quantize.imatrix.file')!r}")
    # Without an imatrix no quantize.* key.
    run("quantize", model, os.path.join(d, "plain.gguf"), "Q4_K_M", expect=0)
    check(not [k for k in G.Reader(os.path.join(d, "plain.gguf")).keys() if k.startswith("quantize.")],
          "quantize.* keys without an imatrix")
    # Malformed overrides are usage errors.
    for bad in ("noequals", "k=int:12x", "k=long:3", "k=bool:yes", "k=str:" + "s" * 128, "=int:1"):
        p = run("quantize", "--override-kv", bad, model, os.path.join(d, "bad.gguf"), "Q8_0", expect=2)
        check("--override-kv" in err(p), f"--override-kv {bad}: {err(p)}")


def test_quantize_options():
    """--output-tensor-type, --token-embedding-type, --leave-output-tensor,
    --tensor-type-file, numeric types, COPY, the IN TYPE form."""
    d = fresh_dir("options")
    model = llama_model(os.path.join(d, "m.gguf"))
    base = os.path.join(d, "base.gguf")
    run("quantize", model, base, "Q4_K_M", expect=0)
    tb = types_of(base)
    check(tb["token_embd.weight"] == 12 and tb["output.weight"] == 14, f"Q4_K_M base types {tb}")

    out = os.path.join(d, "typed.gguf")
    run("quantize", "--output-tensor-type", "q8_0", "--token-embedding-type", "q6_k", model, out, "Q4_K_M", expect=0)
    t = types_of(out)
    check(t["output.weight"] == G.T_Q8_0 and t["token_embd.weight"] == 14, f"forced types {t}")
    check({k: v for k, v in t.items() if k not in ("output.weight", "token_embd.weight")}
          == {k: v for k, v in tb.items() if k not in ("output.weight", "token_embd.weight")},
          "forced output/token types changed other tensors")
    # Tied embeddings (no output.weight): token_embd takes the output's rules and type.
    tied = llama_model(os.path.join(d, "tied.gguf"), with_output=False)
    run("quantize", "--output-tensor-type", "q8_0", tied, out, "Q4_K_M", expect=0)
    check(types_of(out)["token_embd.weight"] == G.T_Q8_0, f"tied token_embd {types_of(out)}")

    run("quantize", "--leave-output-tensor", model, out, "Q4_K_M", expect=0)
    r = G.Reader(out)
    check(r.tensor("output.weight")[1] == G.T_F32 and r.data("output.weight") == G.Reader(model).data("output.weight"),
          "--leave-output-tensor: output.weight not kept")

    tt = os.path.join(d, "types.txt")
    open(tt, "w").write("attn_v=q8_0\n  blk\\.1\\.ffn_down=q5_k   ATTN_K=Q5_0\n")
    run("quantize", "--tensor-type-file", tt, model, out, "Q4_K_M", expect=0)
    t = types_of(out)
    check(t["blk.0.attn_v.weight"] == G.T_Q8_0 and t["blk.1.attn_v.weight"] == G.T_Q8_0
          and t["blk.1.ffn_down.weight"] == 13 and t["blk.0.ffn_down.weight"] == tb["blk.0.ffn_down.weight"]
          and t["blk.0.attn_k.weight"] == 6, f"--tensor-type-file types {t}")
    open(tt, "w").write("attn_v=q8_0 attn_k\n")
    p = run("quantize", "--tensor-type-file", tt, model, out, "Q4_K_M", expect=2)
    check("--tensor-type-file" in err(p) and "attn_k" in err(p), f"bad --tensor-type-file: {err(p)}")

    # Numbers are llama_ftype values: 15 is Q4_K_M, 7 Q8_0.
    run("quantize", model, out, "15", expect=0)
    check(open(out, "rb").read() == open(base, "rb").read(), "TYPE 15 differs from Q4_K_M")
    run("quantize", model, out, "7", expect=0)
    check(G.Reader(out).get("general.file_type") == 7 and types_of(out)["blk.0.attn_q.weight"] == G.T_Q8_0, "TYPE 7")
    p = run("quantize", model, out, "99", expect=2)
    check("Q4_K_M (15)" in err(p), f"TYPE 99: {err(p)}")
    # COPY: every tensor as stored; general.file_type the input's, or the
    # loader's guess (the most common type, + 1024).
    run("quantize", model, out, "COPY", expect=0)
    r, src = G.Reader(out), G.Reader(model)
    check(all(r.data(n) == src.data(n) and r.tensor(n)[1] == ty for n, ty, _, _, _ in src.tensors),
          "COPY changed a tensor")
    check(r.get("general.file_type") == 1024 and r.get("general.quantization_version") == 2,
          f"COPY file type {r.get('general.file_type')}")
    run("quantize", base, out, "copy", expect=0)
    check(G.Reader(out).get("general.file_type") == 15, "COPY of a Q4_K_M file keeps file type 15")
    # IN TYPE [NTHREADS]: OUT is IN's directory/ggml-model-TYPE.gguf.
    default = os.path.join(d, "ggml-model-Q8_0.gguf")
    run("quantize", model, "q8_0", "2", expect=0)
    check(os.path.exists(default) and G.Reader(default).get("general.file_type") == 7, "IN TYPE NTHREADS form")
    p = run("quantize", model, "q8_0", "0", expect=2)
    check("NTHREADS" in err(p), f"NTHREADS 0: {err(p)}")


# ---- edit ----------------------------------------------------------------------

def out_text(p):
    return p.stdout.decode(errors="replace")


def test_edit():
    d = fresh_dir("edit")
    model = llama_model(os.path.join(d, "m.gguf"), extra_kvs=[("tiny.pipe", G.STR, "a|b"), ("tiny.arr", G.ARR,
                                                                                            (G.I32, [1, 2, 3]))])
    src = G.Reader(model)
    tensors_before = {n: src.data(n) for n, _, _, _, _ in src.tensors}

    def same_tensors(path):
        r = G.Reader(path)
        return [t[0] for t in r.tensors] == [t[0] for t in src.tensors] and all(
            r.data(n) == b for n, b in tensors_before.items())

    # The same size: the header is patched in place (same inode, same size).
    ino, size = os.stat(model).st_ino, os.path.getsize(model)
    p = run("edit", "--set", "general.name=tinz", "--set", "llama.context_length=4096", model, expect=0)
    check("patched in place" in out_text(p), f"edit same size: {out_text(p)}")
    r = G.Reader(model)
    check(os.stat(model).st_ino == ino and os.path.getsize(model) == size and r.get("general.name") == "tinz"
          and r.kv("llama.context_length") == ("llama.context_length", G.U32, 4096) and r.keys() == src.keys()
          and same_tensors(model), "edit in place: wrong result")
    # Another size: rewritten beside itself and renamed over it.
    longer = "a much longer name" * 8  # past the header's alignment padding
    p = run("edit", "--set", f"general.name={longer}", model, expect=0)
    r = G.Reader(model)
    check("rewritten" in out_text(p) and os.stat(model).st_ino != ino and r.get("general.name") == longer
          and r.keys() == src.keys() and same_tensors(model) and not leftovers(d), f"edit rewrite: {out_text(p)}")
    # --rewrite even when the size stays.
    ino = os.stat(model).st_ino
    p = run("edit", "--rewrite", "--set", f"general.name={longer[:-1]}3", model, expect=0)
    check("rewritten" in out_text(p) and os.stat(model).st_ino != ino, "--rewrite did not rewrite")
    # --add (new: appended; existing: in place, type changed), --remove, --rename, to OUT.
    before = open(model, "rb").read()
    out = os.path.join(d, "out.gguf")
    run("edit", "--add", "tiny.new=f64:2.5", "--add", "llama.context_length=u64:8192", "--remove", "tiny.arr",
        "--rename", "general.name=general.title", model, out, expect=0)
    r, rin = G.Reader(out), G.Reader(model)
    want = [k if k != "general.name" else "general.title" for k in rin.keys() if k != "tiny.arr"] + ["tiny.new"]
    check(r.keys() == want and r.kv("tiny.new") == ("tiny.new", G.F64, 2.5)
          and r.kv("llama.context_length") == ("llama.context_length", G.U64, 8192)
          and r.get("general.title") == longer[:-1] + "3" and same_tensors(out), f"edit to OUT: {r.kvs}")
    check(open(model, "rb").read() == before, "edit to OUT changed IN")
    # Integer and F64 tensors survive a rewrite; so does a new alignment.
    aligned = os.path.join(d, "aligned.gguf")
    run("edit", "--add", "general.alignment=u32:64", model, aligned, expect=0)
    r = G.Reader(aligned)
    check(r.get("general.alignment") == 64 and all((off - r.data_offset) % 64 == 0 for _, _, _, off, _ in r.tensors)
          and same_tensors(aligned), "edit general.alignment: tensors not realigned")
    # --dry-run writes nothing.
    p = run("edit", "--dry-run", "--set", "general.name=x", model, expect=0)
    check(open(model, "rb").read() == before and "would rewrite" in out_text(p), f"--dry-run: {out_text(p)}")
    # Refusals.
    for args, code, what in ((["--set", "llama.block_count=-1"], 2, "is not a u32"),
                             (["--set", "llama.block_count=99999999999"], 2, "is not a u32"),
                             (["--set", "nope=1"], 1, 'has no key "nope"'),
                             (["--remove", "nope"], 1, 'has no key "nope"'),
                             (["--set", "tokenizer.ggml.tokens=1"], 1, "holds an array"),
                             (["--add", "x=int:1"], 2, "give TYPE:VALUE"),
                             (["--rename", "general.title=llama.block_count"], 1, "already has a key"),
                             (["--set", "skn.i2_s_layout=x86"], 1, "not edited by hand"),
                             (["--set", "general.name"], 2, "give KEY=VALUE"),
                             ([], 2, "give at least one")):
        p = run("edit", *args, out, expect=code)
        check(what in err(p), f"edit {args}: {err(p)}")
    p = run("edit", "--set", "general.title=x", out, out, expect=1)
    check("is the input" in err(p), f"edit OUT = IN: {err(p)}")
    p = run("edit", "--set", "general.title=x", out, d, expect=1)
    check("is a directory" in err(p), f"edit OUT a directory: {err(p)}")
    # A '|' in a value and a markdown table stay intact (inspect --markdown).
    md = out_text(run("inspect", "--markdown", out, expect=0))
    check("| tiny.pipe | string | `\"a\\|b\"` |" in md, f"inspect --markdown escaping:\n{md}")


def test_split_merge():
    d = fresh_dir("split")
    model = llama_model(os.path.join(d, "m.gguf"))
    src = G.Reader(model)
    names = [t[0] for t in src.tensors]
    prefix = os.path.join(d, "m")
    p = run("split", "--split-max-tensors", "8", model, prefix, expect=0)
    n = (len(names) + 7) // 8
    files = [f"{prefix}-{i:05d}-of-{n:05d}.gguf" for i in range(1, n + 1)]
    check(all(os.path.exists(f) for f in files) and f"n_split: {n}" in out_text(p), f"split files: {os.listdir(d)}")
    seen = []
    for i, f in enumerate(files):
        r = G.Reader(f)
        tail = [("split.no", G.U16, i), ("split.tensors.count", G.I32, len(names)), ("split.count", G.U16, n)]
        # llama-gguf-split: every pair of IN in the first file only; split.no,
        # split.count (placeholder), split.tensors.count, then split.count set
        # again (ggml moves a key it sets to the end).
        want = ([kv for kv in src.kvs] if i == 0 else []) + tail
        check(r.kvs == want, f"split file {i + 1} keys {r.kvs[-3:]}")
        check(len(r.tensors) == (8 if i < n - 1 else len(names) - 8 * (n - 1)), f"split file {i + 1} tensor count")
        seen += [t[0] for t in r.tensors]
        check(all(r.data(t[0]) == src.data(t[0]) for t in r.tensors), f"split file {i + 1} tensor bytes")
    check(seen == names, "split: tensor order")
    merged = os.path.join(d, "merged.gguf")
    run("merge", files[0], merged, expect=0)
    r = G.Reader(merged)
    # llama-gguf-split --merge: the first file's pairs, split.count set to 0 (moved to the end).
    first = G.Reader(files[0])
    want = [kv for kv in first.kvs if kv[0] != "split.count"] + [("split.count", G.U16, 0)]
    check(r.kvs == want, f"merged keys {r.kvs[-3:]}")
    check([t[0] for t in r.tensors] == names and all(r.data(nm) == src.data(nm) for nm in names), "merged tensors")
    check(run("verify", merged).returncode == 0, "merged file does not verify")
    p = run("quantize", files[0], os.path.join(d, "q.gguf"), "Q8_0", expect=1)
    check("one of" in err(p) and "skn merge" in err(p) and not os.path.exists(os.path.join(d, "q.gguf")),
          f"quantize of a split file: {err(p)}")
    p = run("merge", merged, os.path.join(d, "again.gguf"), expect=1)
    check("not the first file of a split model" in err(p), f"merge a merged file: {err(p)}")
    p = run("merge", files[0], merged, expect=1)
    check("exists" in err(p), f"merge onto an existing OUT: {err(p)}")
    run("merge", "--force-overwrite", files[0], merged, expect=0)
    # Inconsistent splits: a wrong split.no, a missing file, a name that is not the first.
    bad = os.path.join(d, "bad")
    run("split", "--split-max-tensors", "10", model, bad, expect=0)
    nb = (len(names) + 9) // 10
    bad_files = [f"{bad}-{i:05d}-of-{nb:05d}.gguf" for i in range(1, nb + 1)]
    run("edit", "--set", "split.no=7", bad_files[1], expect=0)
    p = run("merge", bad_files[0], os.path.join(d, "x.gguf"), expect=1)
    check("split.no 7" in err(p), f"merge with a wrong split.no: {err(p)}")
    os.remove(bad_files[1])
    p = run("merge", bad_files[0], os.path.join(d, "x.gguf"), expect=1)
    check("split 2 of" in err(p) and "SKN_E_NOT_FOUND" in err(p), f"merge with a missing file: {err(p)}")
    p = run("merge", bad_files[2], os.path.join(d, "x.gguf"), expect=1)
    check("must end in" in err(p), f"merge from the last file: {err(p)}")
    # By size (M = 10^6 bytes, tensors padded to 32), and the first file without tensors.
    sized = os.path.join(d, "sized")
    run("split", "--split-max-size", "1M", "--no-tensor-first-split", model, sized, expect=0)
    sfiles = sorted(f for f in os.listdir(d) if f.startswith("sized-"))
    check(G.Reader(os.path.join(d, sfiles[0])).tensors == [], "--no-tensor-first-split: tensors in file 1")
    for f in sfiles:
        r = G.Reader(os.path.join(d, f))
        check(sum(sz + (-sz) % 32 for _, _, _, _, sz in r.tensors) <= 1000000, f"{f} holds more than 1M")
    run("merge", os.path.join(d, sfiles[0]), os.path.join(d, "sized.gguf"), expect=0)
    check([t[0] for t in G.Reader(os.path.join(d, "sized.gguf")).tensors] == names, "sized split: merge order")
    p = run("split", "--split-max-size", "100M", "--split-max-tensors", "3", model, sized, expect=2)
    p = run("split", "--split-max-size", "1K", model, os.path.join(d, "k"), expect=2)
    # A tensor larger than the size is a file of its own, except first (as
    # llama-gguf-split: the first file would be empty).
    big = os.path.join(d, "onebig")
    p = run("split", "--split-max-size", "1M", llama_model(os.path.join(d, "wide.gguf"), n_embd=1024, n_ff=1024,
                                                           layers=1, n_vocab=1024), big, expect=1)
    check("alone passes --split-max-size" in err(p) and not [f for f in os.listdir(d) if f.startswith("onebig")],
          f"a tensor larger than the split size: {err(p)}")
    # I2_S tensors (the writer records their layout): copy, split and merge keep them.
    i2s = os.path.join(d, "i2s.gguf")
    run("quantize", "--pure", model, i2s, "i2_s", expect=0)
    run("quantize", i2s, os.path.join(d, "i2s-copy.gguf"), "COPY", expect=0)
    run("split", "--split-max-tensors", "6", i2s, os.path.join(d, "i2s"), expect=0)
    ni = (len(names) + 5) // 6
    run("merge", os.path.join(d, f"i2s-00001-of-{ni:05d}.gguf"), os.path.join(d, "i2s-merged.gguf"), expect=0)
    for f in ("i2s-copy.gguf", "i2s-merged.gguf"):
        r, ri = G.Reader(os.path.join(d, f)), G.Reader(i2s)
        check(r.get("skn.i2_s_layout") == "x86" and [t[:3] for t in r.tensors] == [t[:3] for t in ri.tensors]
              and run("verify", os.path.join(d, f)).returncode == 0, f"{f}: I2_S not kept")
    check(not leftovers(d), f"split/merge left {leftovers(d)}")


def test_model_hash():
    d = fresh_dir("hash")
    model = llama_model(os.path.join(d, "m.gguf"))
    # A tensor gguf_hash.py skips by its name's ending.
    r0 = G.Reader(model)
    G.write(os.path.join(d, "h.gguf"), r0.kvs,
            [(n, t, ne, r0.data(n)) for n, t, ne, _, _ in r0.tensors]
            + [("blk.0.attention.bias", G.T_F32, [4], floats(4, 9))])
    model = os.path.join(d, "h.gguf")
    r = G.Reader(model)
    import uuid
    sha1, sha256 = hashlib.sha1(), hashlib.sha256()
    u = hashlib.sha1(uuid.UUID("ef001206-dadc-5f6d-a15f-3359e577d4e5").bytes)
    for name, _, _, _, _ in r.tensors:
        if name.endswith((".attention.masked_bias", ".attention.bias", ".rotary_emb.inv_freq")):
            continue
        for h in (sha1, sha256, u):
            h.update(r.data(name))
    want_uuid = str(uuid.UUID(bytes=u.digest()[:16], version=5))
    p = run("verify", "--model-hash", model, expect=0)
    lines = out_text(p).splitlines()[-3:]
    check(lines == [f"sha1      {sha1.hexdigest()}  {model}", f"sha256    {sha256.hexdigest()}  {model}",
                    f"uuid      {want_uuid}  {model}"], f"--model-hash lines {lines}")
    doc = json.loads(run("verify", "--model-hash", "--json", model, expect=0).stdout)
    check(doc["model_hash"]["sha256"] == sha256.hexdigest() and doc["model_hash"]["uuid"] == want_uuid
          and doc["model_hash"]["tensors"] == len(r.tensors) - 1, f"--model-hash --json {doc['model_hash']}")
    # Metadata is not hashed: an edited file hashes alike.
    run("edit", "--set", "general.name=other", model, os.path.join(d, "e.gguf"), expect=0)
    doc2 = json.loads(run("verify", "--model-hash", "--json", os.path.join(d, "e.gguf"), expect=0).stdout)
    check(doc2["model_hash"] == doc["model_hash"], "metadata changed the model hash")


def test_inspect_forms():
    d = fresh_dir("inspect")
    model = llama_model(os.path.join(d, "m.gguf"))
    r = G.Reader(model)
    text = out_text(run("inspect", "--no-tensors", model, expect=0))
    check(f"tensors ({len(r.tensors)}, {len(INTEGER_TENSORS) + 1} of types skn does not implement)" in text
          and "blk.0.attn_q.weight" not in text
          and "general.architecture" in text, f"inspect --no-tensors:\n{text}")
    doc = json.loads(run("inspect", "--no-tensors", "--json", model, expect=0).stdout)
    check("tensors" not in doc and doc["tensor_count"] == len(r.tensors) and len(doc["metadata"]) == len(r.kvs),
          f"inspect --no-tensors --json keys {list(doc)}")
    md = out_text(run("inspect", "--markdown", model, expect=0))
    rows = [line for line in md.splitlines() if re.match(r"^\| \d+ \| ", line)]
    check(len(rows) == len(r.kvs) + len(r.tensors) and md.startswith(f"# {model}\n"), f"inspect --markdown:\n{md}")
    check(f"| {len(r.kvs)} | tokenizer.ggml.tokens | array | `string[64]" in md, "markdown array row")
    check(re.search(r"^\| \d+ \| vocab\.ids\.i32 \| I32 \(type 26, not decodable\) \| \[16, 3\] \| \[3, 16\] \| \d+ \| 192 "
                    r"\| 32\.000 \|$", md, re.M), "markdown integer tensor row")
    md2 = out_text(run("inspect", "--markdown", "--no-tensors", model, expect=0))
    check("| name |" not in md2 and "## Tensors" in md2, "inspect --markdown --no-tensors")
    run("inspect", "--markdown", "--json", model, expect=2)


def peak_rss_kib(args):
    """Exit status and peak RSS (KiB) of one run of the tool."""
    proc = subprocess.Popen([SKN, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    e = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    return os.waitstatus_to_exitcode(status), usage.ru_maxrss, e


def test_memory():
    """Peak RSS stays bounded on a 96 MiB model: what the tools hold is the
    metadata and one chunk, never the model (docs/tools.md, "Memory"; the
    1 GiB measurement is scripts/bench-quantize-memory)."""
    if EMULATOR:
        return
    d = fresh_dir("memory")
    model = os.path.join(d, "m.gguf")
    # Made by another process: a child's peak RSS counts what it inherited
    # from this one before exec, so this process must stay small.
    subprocess.run([sys.executable, os.path.abspath(__file__), SKN, WORK, "make_memory_model", model], check=True)
    size_mib = os.path.getsize(model) / 2**20
    code, base, e = peak_rss_kib(["quantize", "--dry-run", model, "Q8_0"])
    check(code == 0, f"memory: dry run failed: {e}")
    bound_mib = 24 + 48  # a dry run's peak is well under 24 MiB; + one chunk's floats, output and mapped input
    for args in (["quantize", "--threads", "2", model, os.path.join(d, "q8.gguf"), "Q8_0"],
                 ["edit", "--rewrite", "--set", "llama.block_count=2", model, os.path.join(d, "edited.gguf")],
                 ["split", "--split-max-tensors", "2", model, os.path.join(d, "part")],
                 ["merge", os.path.join(d, "part-00001-of-00003.gguf"), os.path.join(d, "merged.gguf")]):
        code, rss, e = peak_rss_kib(args)
        print(f"skn {args[0]}: peak RSS {rss / 1024:.1f} MiB on a {size_mib:.0f} MiB model (dry run {base / 1024:.1f} MiB)")
        check(code == 0 and rss / 1024 < bound_mib,
              f"skn {args[0]} on a {size_mib:.0f} MiB model: exit {code}, peak RSS {rss / 1024:.1f} MiB "
              f"(bound {bound_mib} MiB, dry run {base / 1024:.1f} MiB) {e}")


def make_memory_model(path):
    """96 MiB of F32 weights in six 16 MiB tensors."""
    G.write(path, [("general.architecture", G.STR, "llama"), ("llama.block_count", G.U32, 1)],
            [(f"blk.0.w{i}.weight", G.T_F32, [2048, 2048], floats(2048 * 2048, 20 + i)) for i in range(6)])


def main():
    if SECTION == "make_memory_model":
        make_memory_model(sys.argv[4])
        return
    os.makedirs(WORK, exist_ok=True)
    {"quantize_safety": test_quantize_safety, "quantize_ulimit": test_quantize_ulimit,
     "quantize_signals": test_quantize_signals, "quantize_imatrix_keys": test_quantize_imatrix_keys,
     "quantize_options": test_quantize_options, "edit": test_edit, "split_merge": test_split_merge,
     "model_hash": test_model_hash, "inspect_forms": test_inspect_forms, "memory": test_memory}[SECTION]()
    if failures:
        sys.exit("FAIL:\n" + "\n".join(failures))
    print(f"{SECTION}: ok")


if __name__ == "__main__":
    main()
