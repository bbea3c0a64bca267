#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The skn program on row-interleaved formats (issue 34, "GGUF and tools"):
quantize into them (TYPE, --tensor-type, --output-tensor-type), --repack an
existing file and --canonical back, the fallback and the refusals when a
tensor's rows are not whole groups, and inspect, verify, dump, bench on the
files. Inputs are built and outputs read with tests/tools/gguf_files.py
(not libskn); the bytes of the formats whose layout is 4-byte chunks are
checked against a repack written here from docs/formats/interleaved.md.
    tool_interleaved.py SKN SKN_H WORKDIR SECTION
SECTION: formats | imatrix | refusals | inspect | bench"""
import json
import os
import random
import re
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gguf_files as G  # noqa: E402
from tooltest import Tool  # noqa: E402

SKN, SKN_H, WORK, SECTION = sys.argv[1:5]
T = Tool(SKN)
failures, run, check = T.failures, T.run, T.check

# Every row-interleaved format skn.h declares: name -> (id, block rows, canonical name).
INTERLEAVED = {m.group(1): (int(m.group(3)), int(m.group(2)), re.sub(r"_R\d+$", "", m.group(1)))
               for m in re.finditer(r"^\s+SKN_FORMAT_(\w+_R(\d+)) = (\d+)", open(SKN_H).read(), re.M)}
IDS = {name: ident for name, (ident, _, _) in INTERLEAVED.items()}
IDS.update({"F32": 0, "BF16": 30, "Q4_0": 2, "Q5_0": 6, "Q8_0": 8, "Q2_K": 10, "Q3_K": 11, "Q4_K": 12, "Q5_K": 13,
            "Q6_K": 14, "IQ4_NL": 20, "IQ4_XS": 23, "MXFP4": 39, "IQ2_XXS": 16, "IQ2_XS": 17, "IQ3_XXS": 18,
            "IQ3_S": 21, "IQ2_S": 22})
# The canonical formats llama-quantize (and skn quantize) converts to only
# with an importance matrix.
NEEDS_IMATRIX = {"IQ2_XXS", "IQ2_XS", "IQ2_S", "IQ3_XXS"}

# The test model: rows (ne[1]) chosen so that some tensors are whole groups
# of 4, 8 and 16 rows and some are not; a 3-D expert stack of 16 rows each.
TENSORS = [("token_embd.weight", [256, 40]), ("blk.0.attn_norm.weight", [256]), ("blk.0.attn_q.weight", [256, 24]),
           ("blk.0.attn_k.weight", [256, 12]), ("blk.0.ffn_down.weight", [256, 48]), ("blk.0.ffn_up.weight", [512, 6]),
           ("blk.0.ffn_up_exps.weight", [256, 16, 3]), ("output.weight", [256, 32])]


def err(p):
    return p.stderr.decode(errors="replace")


def path(name):
    return os.path.join(WORK, name)


def elements(ne):
    n = 1
    for d in ne:
        n *= d
    return n


def model():
    out = path("model.gguf")
    if not os.path.exists(out):
        rng = random.Random(34)
        G.write(out, [("general.architecture", G.STR, "llama"), ("llama.block_count", G.U32, 1)],
                [(name, G.T_F32, ne, struct.pack(f"<{elements(ne)}f", *[rng.gauss(0.0, 0.05) for _ in range(elements(ne))]))
                 for name, ne in TENSORS])
    return out


def quantize(*args, expect=0):
    return run("quantize", *args, expect=expect)


def types_of(p):
    return {n: t for n, t, _, _, _ in G.Reader(p).tensors}


def same_file(a, b):
    return open(a, "rb").read() == open(b, "rb").read()


def interleave_chunks(data, ne, rows_per_block, block_elems, scale_bytes, block_bytes):
    """The row-interleaved bytes of canonical ROW_MAJOR `data` for the formats
    whose codes move in 4-byte chunks (Q4_0_R8, Q8_0_R8, MXFP4_R8, and
    BF16_R16 as one chunk without a scale): per group of R rows and per
    input block, the R rows' scale fields, then chunk c of rows 0..R-1 for
    each c (docs/formats/interleaved.md, "Bytes")."""
    per_row = ne[0] // block_elems
    row_bytes = per_row * block_bytes
    rows = elements(ne[1:])
    out = bytearray()
    for g in range(rows // rows_per_block):
        for b in range(per_row):
            blocks = [data[(g * rows_per_block + k) * row_bytes + b * block_bytes:][:block_bytes]
                      for k in range(rows_per_block)]
            out += b"".join(block[:scale_bytes] for block in blocks)
            for c in range(scale_bytes, block_bytes, 4):
                out += b"".join(block[c:c + 4] for block in blocks)
    return bytes(out)


# Block elements, scale bytes and block bytes of the 4-byte-chunk formats.
CHUNKED = {"Q4_0_R8": (32, 2, 18), "Q8_0_R8": (32, 2, 34), "MXFP4_R8": (32, 1, 17), "BF16_R16": (2, 0, 4)}


def expected_type(name, ne, fmt, repack):
    """What a tensor of the model becomes under TYPE `fmt` quantized straight
    into it (repack False) or quantized canonically then --repack'ed."""
    _, rows_per_block, canonical = INTERLEAVED[fmt]
    if len(ne) < 2:
        return "F32"
    if repack and name == "token_embd.weight":
        return canonical
    return fmt if ne[1] % rows_per_block == 0 else canonical


def canonical_args(canonical):
    # llama-quantize reads Q4_0, Q5_0, Q8_0, Q6_K, IQ4_NL, IQ4_XS and the grid
    # formats as presets and Q2_K, Q3_K, Q4_K, Q5_K as their _M / _S presets:
    # --pure gives every weight the base type (IQ2_S's is IQ2_M's: the IQ2_S
    # preset's base is IQ2_XS); BF16 is a dense TYPE (no rules) and MXFP4 a
    # plain format.
    return ["--pure", "iq2_m" if canonical == "IQ2_S" else canonical.lower()]


def model_imatrix():
    """An importance matrix for every tensor of the model (the expert stack
    with one matrix per expert), for the formats that need one."""
    out = path("model-all.imatrix.gguf")
    if not os.path.exists(out):
        rng = random.Random(11)
        t = []
        for name, ne in TENSORS:
            if len(ne) < 2:
                continue
            matrices = ne[2] if len(ne) > 2 else 1
            t.append((name + ".in_sum2", G.T_F32, [ne[0], matrices],
                      struct.pack(f"<{ne[0] * matrices}f", *[rng.uniform(0.01, 4.0) for _ in range(ne[0] * matrices)])))
            t.append((name + ".counts", G.T_F32, [1, matrices], struct.pack(f"<{matrices}f", *[4.0] * matrices)))
        G.write(out, [("general.type", G.STR, "imatrix"), ("imatrix.datasets", G.ARR, (G.STR, ["calib.txt"])),
                      ("imatrix.chunk_count", G.U32, 4), ("imatrix.chunk_size", G.U32, 512)], t)
    return out


def test_formats():
    src = model()
    for fmt, (_, rows_per_block, canonical) in sorted(INTERLEAVED.items()):
        c_file, f_file, f1_file = path(f"{canonical}.gguf"), path(f"{fmt}.gguf"), path(f"{fmt}-t1.gguf")
        r_file, back = path(f"{canonical}-repacked.gguf"), path(f"{canonical}-back.gguf")
        im = ["--imatrix", model_imatrix()] if canonical in NEEDS_IMATRIX else []
        quantize(*im, src, c_file, *canonical_args(canonical))
        # Straight into the interleaved format, on 2 threads (shares of whole
        # groups) and on 1: the same file.
        quantize(*im, "--threads", "2", src, f_file, fmt.lower())
        quantize(*im, "--threads", "1", src, f1_file, fmt.lower())
        check(same_file(f_file, f1_file), f"{fmt}: 1 and 2 threads wrote different files")
        quantize("--repack", c_file, r_file, "COPY")
        direct, repacked, canon = G.Reader(f_file), G.Reader(r_file), G.Reader(c_file)
        dt, rt = types_of(f_file), types_of(r_file)
        for name, ne in TENSORS:
            want_d, want_r = expected_type(name, ne, fmt, False), expected_type(name, ne, fmt, True)
            check(dt[name] == IDS[want_d], f"{fmt}: {name} {ne} quantized straight is type {dt[name]}, not {want_d}")
            check(rt[name] == IDS[want_r], f"{fmt}: {name} {ne} after --repack is type {rt[name]}, not {want_r}")
            # Quantizing into the interleaved format is the canonical
            # quantizer followed by the repack: the same bytes.
            if want_d == want_r:
                check(direct.data(name) == repacked.data(name), f"{fmt}: {name}: quantized straight != repacked")
            if rt[name] == IDS[fmt] and fmt in CHUNKED:
                be, scale, block = CHUNKED[fmt]
                check(repacked.data(name) == interleave_chunks(canon.data(name), ne, rows_per_block, be, scale, block),
                      f"{fmt}: {name}: --repack bytes differ from docs/formats/interleaved.md's layout")
        # --canonical undoes --repack: the canonical file again, byte for byte
        # (general.file_type included), as a plain COPY writes it (COPY moves
        # general.quantization_version and general.file_type after the keys
        # that followed them, the quantize.imatrix.* ones, as llama-quantize
        # does).
        quantize("--canonical", r_file, back, "COPY")
        c_copy = path(f"{canonical}-copy.gguf")
        quantize(c_file, c_copy, "COPY")
        check(same_file(back, c_copy), f"{fmt}: --repack then --canonical is not the canonical file")

        out = run("verify", f_file, expect=0).stdout.decode()
        check(re.search(rf"^  ok +blk\.0\.ffn_up_exps\.weight +{fmt} *$", out, re.M) and ": OK: 8 tensors" in out,
              f"verify {fmt}:\n{out}")
        # dump decodes rows of whole groups and rows that cut a group: rows
        # 5..18 cross 8-row groups; the expert stack's rows 13..34 cross
        # experts. Same text as the canonical file's.
        for tensor, rows in (("blk.0.attn_q.weight", "5:19"), ("blk.0.ffn_up_exps.weight", "13:35"),
                             ("blk.0.ffn_down.weight", "-3:"), ("output.weight", "7")):
            a = run("dump", f_file, tensor, "--csv", "--rows", rows, "--cols", "0:40", expect=0).stdout
            b = run("dump", c_file, tensor, "--csv", "--rows", rows, "--cols", "0:40", expect=0).stdout
            check(a == b and len(a.splitlines()) > 1, f"{fmt}: dump {tensor} --rows {rows} differs from {canonical}'s")
        a = json.loads(run("dump", f_file, "blk.0.ffn_up_exps.weight", "--stats", "--json", expect=0).stdout)
        b = json.loads(run("dump", c_file, "blk.0.ffn_up_exps.weight", "--stats", "--json", expect=0).stdout)
        check({k: v for k, v in a.items() if k != "type"} == {k: v for k, v in b.items() if k != "type"}
              and a["count"] == 16 * 3 * 256, f"{fmt}: dump --stats {a} vs {b}")
        raw = run("dump", f_file, "blk.0.ffn_up_exps.weight", "--raw", expect=0).stdout
        check(raw == run("dump", c_file, "blk.0.ffn_up_exps.weight", "--raw", expect=0).stdout,
              f"{fmt}: dump --raw of the expert stack differs")


def test_imatrix():
    """With importance weights too, quantizing into the interleaved format is
    the canonical quantizer's bytes, repacked."""
    src = model()
    im = path("model.imatrix.gguf")
    rng = random.Random(7)
    t = []
    # The expert stack has one matrix per expert: each expert's rows are
    # quantized with their own (a thread's share of rows crosses experts).
    for name, matrices in (("blk.0.attn_q.weight", 1), ("blk.0.ffn_down.weight", 1), ("blk.0.ffn_up_exps.weight", 3)):
        t.append((name + ".in_sum2", G.T_F32, [256, matrices],
                  struct.pack(f"<{256 * matrices}f", *[rng.uniform(0.01, 4.0) for _ in range(256 * matrices)])))
        t.append((name + ".counts", G.T_F32, [1, matrices], struct.pack(f"<{matrices}f", *[4.0] * matrices)))
    G.write(im, [("general.type", G.STR, "imatrix"), ("imatrix.datasets", G.ARR, (G.STR, ["calib.txt"])),
                 ("imatrix.chunk_count", G.U32, 4), ("imatrix.chunk_size", G.U32, 512)], t)
    for fmt in ("Q4_K_R4", "Q6_K_R4", "IQ4_XS_R8", "IQ4_NL_R4", "Q4_0_R8"):
        canonical = INTERLEAVED[fmt][2]
        c_file, f_file, r_file = path(f"im-{canonical}.gguf"), path(f"im-{fmt}.gguf"), path(f"im-{fmt}-r.gguf")
        quantize("--imatrix", im, src, c_file, *canonical_args(canonical))
        p = quantize("--imatrix", im, "--json", "--threads", "2", src, f_file, fmt.lower())
        rows = {r["name"]: r for r in json.loads(p.stdout)["tensors"]}
        check(rows["blk.0.attn_q.weight"]["importance"] and rows["blk.0.attn_q.weight"]["to"] == fmt,
              f"{fmt} --imatrix: attn_q row {rows['blk.0.attn_q.weight']}")
        quantize("--repack", c_file, r_file, "COPY")
        plain = path(f"plain-{fmt}.gguf")
        quantize(src, plain, fmt.lower())
        a, b = G.Reader(f_file), G.Reader(r_file)
        for name in ("blk.0.attn_q.weight", "blk.0.ffn_down.weight", "blk.0.ffn_up_exps.weight"):
            check(a.data(name) == b.data(name), f"{fmt} --imatrix: {name} quantized straight != canonical + repack")
            # Each of these formats' quantizer reads importance weights.
            check(a.data(name) != G.Reader(plain).data(name), f"{fmt}: {name}: the importance weights changed nothing")


def test_refusals():
    src = model()
    # A forced type whose groups do not fit the tensor's rows is refused.
    p = quantize(src, path("x.gguf"), "q8_0", "--token-embedding-type", "bf16_r16", expect=1)
    check("token_embd.weight" in err(p) and "40 rows" in err(p) and "16" in err(p) and "BF16" in err(p),
          f"--token-embedding-type bf16_r16 on 40 rows: {err(p)}")
    check(not os.path.exists(path("x.gguf")), "a refused conversion left its output")
    # --output-tensor-type and --tensor-type name interleaved formats; a
    # --tensor-type whose groups do not fit falls back to the canonical
    # format, and the plan says why.
    p = quantize("--dry-run", "--json", src, "q8_0", "--pure", "--output-tensor-type", "q4_0_r8", "--tensor-type",
                 "attn_(q|k)=q4_k_r4", "--tensor-type", "ffn_up\\.=iq4_nl_r4")
    rows = {r["name"]: r for r in json.loads(p.stdout)["tensors"]}
    check(rows["output.weight"]["to"] == "Q4_0_R8", f"--output-tensor-type q4_0_r8: {rows['output.weight']}")
    check(rows["blk.0.attn_q.weight"]["to"] == "Q4_K_R4" and rows["blk.0.attn_k.weight"]["to"] == "Q4_K_R4",
          f"--tensor-type q4_k_r4: {rows['blk.0.attn_q.weight']}, {rows['blk.0.attn_k.weight']}")
    up = rows["blk.0.ffn_up.weight"]
    check(up["to"] == "IQ4_NL" and "6 rows not a multiple of IQ4_NL_R4's 4 -> IQ4_NL" in up["rule"],
          f"--tensor-type iq4_nl_r4 on 6 rows: {up}")
    # Contradictions are usage errors.
    p = quantize("--repack", "--canonical", src, path("x.gguf"), "q8_0", expect=2)
    check("--canonical" in err(p), f"--repack --canonical: {err(p)}")
    p = quantize("--canonical", src, path("x.gguf"), "q4_0_r8", expect=2)
    check("q4_0_r8" in err(p) and "row-interleaved" in err(p), f"--canonical with TYPE q4_0_r8: {err(p)}")
    # An interleaved file's tensors are quantized tensors: converting one to
    # another format is refused without --allow-requantize, while its
    # canonical format is a lossless conversion that needs nothing.
    r8, q40 = path("r8.gguf"), path("r8-q4_0.gguf")
    quantize(src, r8, "q4_0_r8")
    p = quantize(r8, path("x.gguf"), "q8_0", "--pure", expect=1)
    check("already Q4_0_R8" in err(p) and "--allow-requantize" in err(p), f"requantizing Q4_0_R8: {err(p)}")
    p = quantize("--json", r8, q40, "q4_0", "--pure")
    doc = json.loads(p.stdout)
    rows = {r["name"]: r for r in doc["tensors"]}
    check(rows["blk.0.attn_q.weight"]["action"] == "repack" and rows["blk.0.attn_q.weight"]["to"] == "Q4_0"
          and doc["totals"]["repacked"] == 5 and doc["totals"]["quantized"] == 0, f"Q4_0_R8 -> q4_0: {doc}")
    a = run("dump", r8, "blk.0.attn_q.weight", "--raw", expect=0).stdout
    check(a == run("dump", q40, "blk.0.attn_q.weight", "--raw", expect=0).stdout, "Q4_0_R8 -> Q4_0 changed values")
    p = quantize("--allow-requantize", r8, path("r8-q8.gguf"), "q8_0", "--pure")
    run("verify", path("r8-q8.gguf"), expect=0)
    # A file holding an interleaved tensor whose rows are not whole groups
    # is refused by every command that opens it, naming the block rows.
    bad = path("bad-rows.gguf")
    G.write(bad, [("general.architecture", G.STR, "llama")],
            [("blk.0.attn_k.weight", IDS["Q4_0_R8"], [256, 12], bytes(G.tensor_bytes(IDS["Q4_0_R8"], [256, 12])))])
    for cmd in (["verify", bad], ["inspect", bad], ["dump", bad, "blk.0.attn_k.weight"],
                ["quantize", bad, path("x.gguf"), "COPY"]):
        p = run(*cmd)
        out = err(p) + p.stdout.decode(errors="replace")
        check(p.returncode == 1 and "interleaves 8 rows per block" in out and "Q4_0" in out,
              f"{' '.join(cmd[:1])} of a Q4_0_R8 tensor of 12 rows: {p.returncode} {out}")


def test_inspect():
    src = model()
    f = path("mixed.gguf")
    quantize(src, f, "q8_0", "--pure", "--tensor-type", "attn_q=q4_0_r8", "--tensor-type", "ffn_down=bf16_r16",
             "--tensor-type", "exps=q6_k_r4")
    out = run("inspect", f, expect=0).stdout.decode()
    check(re.search(r"^  blk\.0\.attn_q\.weight +Q4_0_R8 +\[256, 24\] +\[24, 256\] +3456 +4\.500$", out, re.M),
          f"inspect: the Q4_0_R8 row:\n{out}")
    for fmt, canonical, rows in (("Q4_0_R8", "Q4_0", 8), ("BF16_R16", "BF16", 16), ("Q6_K_R4", "Q6_K", 4)):
        check(f"({fmt} is {canonical} row-interleaved: one block holds {rows} rows, so rows are stored in groups of "
              f"{rows})" in out, f"inspect: no note for {fmt}:\n{out}")
    check("Q8_0 is" not in out, f"inspect: a note for a format that is not interleaved:\n{out}")
    doc = json.loads(run("inspect", "--json", f, expect=0).stdout)
    by = {t["name"]: t for t in doc["tensors"]}
    # Types skn implements: the file opens without allow_unsupported.
    check(doc["unsupported_count"] == 0 and all(t["supported"] for t in doc["tensors"]), f"inspect --json: {doc}")
    check(by["blk.0.attn_q.weight"]["block_rows"] == 8 and by["blk.0.attn_q.weight"]["interleaves"] == "Q4_0"
          and by["blk.0.ffn_down.weight"]["block_rows"] == 16 and by["blk.0.attn_k.weight"]["block_rows"] == 1
          and by["blk.0.attn_k.weight"]["interleaves"] is None and by["blk.0.ffn_down.weight"]["bits_per_weight"] == 16,
          f"inspect --json: {by}")
    md = run("inspect", "--markdown", f, expect=0).stdout.decode()
    check("| Q6_K_R4 |" in md and "\nQ6_K_R4 is Q6_K row-interleaved: one block holds 4 rows" in md,
          f"inspect --markdown:\n{md}")


def test_bench():
    p = run("bench", "--formats", "q4_0_r8,bf16_r16", "--shapes", "64x256", "--n", "1", "--threads", "1", "--reps",
            "1", expect=0)
    out = p.stdout.decode()
    for fmt in ("Q4_0_R8", "BF16_R16"):
        for order in ("rm", "ibm"):
            check(re.search(rf"^{fmt} +{order} +\S+ +64x256 +1 +1 +matmul_wt_{fmt.lower()}_{order}_", out, re.M),
                  f"bench: no {fmt} {order} row:\n{out}")
    p = run("bench", "--formats", "q4_0_r8", "--shapes", "20x256", "--reps", "1", expect=2)
    check("OUT (20) must be a multiple of the 8 rows one Q4_0_R8 block spans (e.g. 24x256)" in err(p),
          f"bench 20x256 q4_0_r8: {err(p)}")
    # --formats all is every format, the interleaved ones (ids above 200) included.
    p = run("bench", "--formats", "all", "--shapes", "64x256", "--orders", "rm", "--n", "1", "--threads", "1",
            "--reps", "1", expect=0)
    listed = set(re.findall(r"^(\w+) +(?:rm|dense) ", p.stdout.decode(), re.M))
    check(set(INTERLEAVED) <= listed, f"bench --formats all lacks {sorted(set(INTERLEAVED) - listed)}")


def main():
    os.makedirs(WORK, exist_ok=True)
    check(len(INTERLEAVED) >= 8, f"skn.h declares {sorted(INTERLEAVED)}")
    {"formats": test_formats, "imatrix": test_imatrix, "refusals": test_refusals, "inspect": test_inspect,
     "bench": test_bench}[SECTION]()
    if failures:
        sys.exit("FAIL:\n" + "\n".join(failures))
    print(f"{SECTION}: ok")


if __name__ == "__main__":
    main()
