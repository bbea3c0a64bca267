#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The skn program's converter commands on GGUF files libskn's streaming
writer made (tests/tools/make_tool_fixtures.c): every check reads the output,
not only the exit status.
    tool_commands.py SKN MAKE_FIXTURES WORKDIR SKN_H SECTION
SECTION: verify | dump | inspect_json | doctor | quantize | quantize_presets | imatrix | quantize_imatrix |
         i2s_layout."""
import hashlib
import json
import math
import os
import re
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tooltest import Tool  # noqa: E402

SKN, MAKE, WORK, SKN_H, SECTION = sys.argv[1:6]
T = Tool(SKN)
EMULATOR, failures, run, check = T.emulator, T.failures, T.run, T.check


def text(p):
    return p.stdout.decode("utf-8", errors="replace")


def fixtures():
    os.makedirs(WORK, exist_ok=True)
    p = subprocess.run([*EMULATOR, MAKE, WORK], stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.exit(f"make_tool_fixtures failed: {p.stderr.decode(errors='replace')}")
    return os.path.join(WORK, "good.gguf"), os.path.join(WORK, "bad.gguf")


def tensors_of(path):
    """name -> (offset, bytes) from skn verify --json."""
    p = run("verify", "--json", path, expect=0)
    return {t["name"]: (t["offset"], t["size"]) for t in json.loads(p.stdout)["tensors"]}


def test_verify(good, bad):
    p = run("verify", good, expect=0)
    out = text(p)
    for name in ("values.f32", "q8.weight", "q4k.weight", "ternary.weight", "odd.f32"):
        check(re.search(rf"^  ok +{re.escape(name)} ", out, re.M), f"verify good: no ok line for {name}:\n{out}")
    check(out.rstrip().endswith("finite"), f"verify good: no OK summary:\n{out}")

    # --hash: SHA-256 of each tensor's bytes as stored, as hashlib computes it.
    p = run("verify", "--hash", good, expect=0)
    data = open(good, "rb").read()
    for name, (offset, size) in tensors_of(good).items():
        digest = hashlib.sha256(data[offset:offset + size]).hexdigest()
        check(f"sha256:{digest}" in text(p), f"verify --hash: {name} is not sha256:{digest}:\n{text(p)}")
    p = run("verify", "--hash", "--json", good, expect=0)
    doc = json.loads(p.stdout)
    check(doc["ok"] is True and doc["bad"] == 0 and doc["hash"] == "sha256" and len(doc["tensors"]) == 5,
          f"verify --json good: {doc}")
    for t in doc["tensors"]:
        offset, size = t["offset"], t["size"]
        check(t["sha256"] == hashlib.sha256(data[offset:offset + size]).hexdigest(), f"verify --json hash of {t}")

    # A NaN in an F32 tensor and a NaN block scale in a Q8_0 tensor.
    p = run("verify", bad, expect=1)
    out = text(p)
    check(re.search(r"BAD +values\.f32 .*element 13 \(row 1, column 5\) is NaN", out),
          f"verify bad: values.f32's NaN at element 13 not named:\n{out}")
    check(re.search(r"BAD +bad\.q8 .*element 32 \(row 0, column 32\) is NaN", out),
          f"verify bad: bad.q8's NaN scale (element 32) not named:\n{out}")
    check(re.search(r"ok +q8\.weight", out) and "BAD: 2 of 5 tensors" in out, f"verify bad: summary:\n{out}")
    doc = json.loads(run("verify", "--json", bad, expect=1).stdout)
    by_name = {t["name"]: t for t in doc["tensors"]}
    check(doc["ok"] is False and doc["bad"] == 2 and not by_name["values.f32"]["ok"]
          and "element 13" in by_name["values.f32"]["problem"] and by_name["q8.weight"]["ok"],
          f"verify --json bad: {doc}")

    # Truncated: the last tensor's bytes run past the end of the file.
    truncated = os.path.join(WORK, "truncated.gguf")
    with open(truncated, "wb") as f:
        f.write(data[:len(data) - 40])
    p = run("verify", truncated, expect=1)
    check('"odd.f32"' in text(p) and "BAD" in text(p), f"verify truncated: tensor not named:\n{text(p)}")
    doc = json.loads(run("verify", "--json", truncated, expect=1).stdout)
    check(doc["ok"] is False and '"odd.f32"' in doc["error"]["message"], f"verify --json truncated: {doc}")

    # A tensor offset moved off the alignment (patched in the header).
    offsets = tensors_of(good)
    header_end = min(o for o, _ in offsets.values())
    at = data.find(b"q4k.weight", 0, header_end)
    # name, u32 rank, 2 x u64 ne, u32 type, then the u64 relative offset
    field = at + len(b"q4k.weight") + 4 + 16 + 4
    rel = struct.unpack_from("<Q", data, field)[0]
    misaligned = bytearray(data)
    struct.pack_into("<Q", misaligned, field, rel + 8)
    path = os.path.join(WORK, "misaligned.gguf")
    open(path, "wb").write(misaligned)
    p = run("verify", path, expect=1)
    check("q4k.weight" in text(p) and "alignment" in text(p), f"verify misaligned: not named:\n{text(p)}")

    # Usage.
    check(run("verify").returncode == 2, "verify without FILE must exit 2")
    check(run("verify", "--bogus", good).returncode == 2, "verify --bogus must exit 2")
    check(run("verify", good, good).returncode == 2, "verify with two files must exit 2")
    check(run("verify", os.path.join(WORK, "missing.gguf")).returncode == 1, "verify of a missing file must exit 1")


def test_dump(good, bad):
    # values.f32 holds (8 r + c) / 4.
    p = run("dump", good, "values.f32", "--rows", "1:3", "--cols", "2:5", expect=0)
    lines = text(p).splitlines()
    check(lines[0].startswith("tensor values.f32 F32 [3, 8], rows 1:3, columns 2:5"), f"dump header: {lines[0]}")
    rows = [[float(v) for v in l.split(":")[1].split()] for l in lines[1:]]
    check(rows == [[(8 * r + c) / 4 for c in range(2, 5)] for r in (1, 2)], f"dump text values: {rows}")

    p = run("dump", good, "values.f32", "--csv", "--rows", "-1", expect=0)
    lines = text(p).splitlines()
    check(lines[0] == "row," + ",".join(str(c) for c in range(8)), f"dump --csv header: {lines[0]}")
    check(len(lines) == 2 and lines[1].split(",")[0] == "2"
          and [float(v) for v in lines[1].split(",")[1:]] == [(16 + c) / 4 for c in range(8)],
          f"dump --csv last row: {lines[1:]}")

    expected = open(os.path.join(WORK, "q8.expected.f32"), "rb").read()
    p = run("dump", good, "q8.weight", "--raw", "--rows", "1:3", "--cols", "32:64", expect=0)
    want = b"".join(expected[(r * 96 + 32) * 4:(r * 96 + 64) * 4] for r in (1, 2))
    check(p.stdout == want, f"dump --raw q8.weight: {len(p.stdout)} bytes differ from skn_dequantize's")
    p = run("dump", good, "q8.weight", "--csv", expect=0)
    # 9 significant digits give back the same float32.
    got = [struct.unpack("<f", struct.pack("<f", float(v)))[0] for l in text(p).splitlines()[1:] for v in l.split(",")[1:]]
    check(got == list(struct.unpack("<384f", expected)), "dump --csv q8.weight differs from skn_dequantize")

    # I2_S (a per-tensor trailer): rows come from the whole decode.
    p = run("dump", good, "ternary.weight", "--csv", "--rows", "1:2", "--cols", "0:6", expect=0)
    vals = [float(v) for v in text(p).splitlines()[1].split(",")[1:]]
    want = [((i * 5) % 3 - 1) * 0.75 for i in range(128, 134)]
    check(vals == want, f"dump ternary.weight row 1: {vals}, expected {want}")

    # Statistics of 0, 0.25, ..., 5.75.
    p = run("dump", good, "values.f32", "--stats", "--bins", "4", expect=0)
    out = text(p)
    v = [i / 4 for i in range(24)]
    mean, rms = sum(v) / 24, math.sqrt(sum(x * x for x in v) / 24)
    check(re.search(r"^min +0$", out, re.M) and re.search(r"^max +5\.75$", out, re.M), f"dump --stats min/max:\n{out}")
    got_mean = float(re.search(r"^mean +(\S+)", out, re.M).group(1))
    got_rms = float(re.search(r"^rms +(\S+)", out, re.M).group(1))
    check(abs(got_mean - mean) < 1e-7 and abs(got_rms - rms) < 1e-7, f"dump --stats mean/rms: {got_mean}, {got_rms}")
    counts = [int(m) for m in re.findall(r"^  \[.*?[\])] +(\d+)", out, re.M)]
    check(counts == [6, 6, 6, 6], f"dump --stats histogram counts {counts}:\n{out}")
    doc = json.loads(run("dump", good, "values.f32", "--stats", "--json", "--bins", "3", expect=0).stdout)
    check(doc["count"] == 24 and doc["min"] == 0 and doc["max"] == 5.75 and abs(doc["mean"] - mean) < 1e-7
          and [b["count"] for b in doc["histogram"]] == [8, 8, 8], f"dump --stats --json: {doc}")
    doc = json.loads(run("dump", bad, "values.f32", "--stats", "--json", expect=0).stdout)
    check(doc["nan"] == 1 and doc["finite"] == 23, f"dump --stats counts NaN: {doc}")

    # Refusals.
    p = run("dump", good, "nope", expect=1)
    check('no tensor "nope"' in p.stderr.decode() and "values.f32" in p.stderr.decode(),
          f"dump of an unknown tensor: {p.stderr.decode()}")
    p = run("dump", good, "values.f32", "--rows", "3:9", expect=2)
    check("selects nothing inside 0:3" in p.stderr.decode(), f"dump bad --rows: {p.stderr.decode()}")
    check(run("dump", good, "values.f32", "--rows", "x").returncode == 2, "dump --rows x must exit 2")
    check(run("dump", good).returncode == 2, "dump without TENSOR must exit 2")
    check(run("dump", good, "values.f32", "--stats", "--raw").returncode == 2, "--stats --raw must exit 2")


def test_inspect_json(good, bad):
    doc = json.loads(run("inspect", "--json", good, expect=0).stdout)
    md = {m["key"]: m for m in doc["metadata"]}
    check([m["key"] for m in doc["metadata"]][:3] == ["general.architecture", "general.name", "general.file_type"],
          "inspect --json: metadata not in file order")
    check(md["general.name"]["value"] == 'He said "hi"\n\tGrüße 日本 bad:\ufffd!',
          f"inspect --json: string not UTF-8/escaped right: {md['general.name']['value']!r}")
    check(md["general.file_type"] == {"key": "general.file_type", "type": "u32", "value": 7}, f"{md['general.file_type']}")
    check(md["test.f32"]["value"] == 0.5 and md["test.nan"]["value"] is None, "inspect --json: floats")
    check(md["test.u64"]["value"] == 2 ** 64 - 1 and md["test.bool"]["value"] is True, "inspect --json: u64/bool")
    check(md["tokenizer.ggml.tokens"]["value"] == ["<unk>", "\u2581the", 'quote"back\\slash', "tab\there"]
          and md["tokenizer.ggml.tokens"]["element_type"] == "string" and md["tokenizer.ggml.tokens"]["count"] == 4,
          f"inspect --json: string array {md['tokenizer.ggml.tokens']}")
    check(md["test.nested"]["value"] == [[7, -1, 42], ["a b", "c d"]] and md["test.nested"]["element_type"] == "array",
          f"inspect --json: nested array {md['test.nested']}")
    ts = {t["name"]: t for t in doc["tensors"]}
    q8 = ts["q8.weight"]
    check(q8["type"] == "Q8_0" and q8["shape_as_stored"] == [96, 4] and q8["shape_out_in"] == [4, 96]
          and q8["bytes"] == 4 * 3 * 34 and q8["bits_per_weight"] == 8.5 and q8["supported"] is True
          and q8["name_too_long"] is False, f"inspect --json: {q8}")
    check(doc["total_bytes"] == sum(t["bytes"] for t in doc["tensors"]) and doc["version"] == 3
          and doc["file_size"] == os.path.getsize(good) and doc["unsupported_count"] == 0, f"inspect --json: {doc}")
    # The same content as the table: every key and tensor the table lists.
    table = text(run("inspect", good, expect=0, env={"LC_ALL": "C.UTF-8"}))
    for m in doc["metadata"]:
        check(re.search(rf"^  {re.escape(m['key'])} +{m['type']} ", table, re.M), f"table lacks key {m['key']}")
    for t in doc["tensors"]:
        check(re.search(rf"^  {re.escape(t['name'])} +{t['type']} +\[{t['shape_as_stored'][0]}, ", table, re.M),
              f"table lacks tensor {t['name']}")
    # The embedded sample too, and a bad option.
    sample = json.loads(run("inspect", "--json", expect=0).stdout)
    check(sample["file"] == "embedded sample" and len(sample["tensors"]) == 7, "inspect --json of the sample")
    check(run("inspect", "--bogus").returncode == 2, "inspect --bogus must exit 2")


def test_doctor(good, bad):
    formats = re.findall(r"^\s+SKN_FORMAT_(\w+) = \d+", open(SKN_H).read(), re.M)
    p = run("doctor", expect=0)
    out = text(p)
    for f in formats:
        check(re.search(rf"^  {f} +(ROW_MAJOR|dense) +matmul_wt_{f.lower()}_", out, re.M),
              f"doctor lists no kernel for {f}")
    for section in ("best ISA tier", "online CPUs", "threads", "environment (SKN_*)"):
        check(section in out, f"doctor lacks '{section}'")
    p = run("doctor", "--json", expect=0, env={"SKN_ISA": "scalar", "SKN_SOMETHING": "x", "SKN_LIBRARY": "/x.so"})
    doc = json.loads(p.stdout)
    check(doc["isa_cap"] == "scalar" and doc["default_threads"] == 1, f"doctor --json: {doc}")
    env = {e["name"]: e for e in doc["environment"]}
    check(env["SKN_ISA"]["value"] == "scalar" and "caps" in env["SKN_ISA"]["use"]
          and "not read" in env["SKN_SOMETHING"]["use"], f"doctor --json environment: {env}")
    # SKN_LIBRARY is the Python binding's: doctor must not call it unread.
    check("Python binding" in env["SKN_LIBRARY"]["use"] and "not read" not in env["SKN_LIBRARY"]["use"],
          f"doctor --json on SKN_LIBRARY: {env['SKN_LIBRARY']}")
    kernels = doc["kernels"]
    check({k["format"] for k in kernels} == set(formats), "doctor --json: not every format")
    failed = [f'{k["format"]} {k["order"]}' for k in kernels if k["fast"] is None or k["exact"] is None]
    check(not failed, f"doctor --json: probes failed for {failed}")
    check(all(k["fast"].endswith("_scalar") and k["exact"].endswith("_scalar") for k in kernels),
          "doctor under SKN_ISA=scalar must list scalar kernels only")
    check(sum(k["order"] == "INPUT_BLOCK_MAJOR" for k in kernels) == sum(k["order"] == "ROW_MAJOR" for k in kernels),
          "doctor --json: every block format in both orders")
    p = run("doctor", env={"SKN_ISA": "nonsense"})
    check(p.returncode == 1 and "SKN_ISA" in p.stderr.decode(), f"doctor with a bad SKN_ISA: {p.stderr.decode()}")


def test_quantize(good, bad):
    src = os.path.join(WORK, "float.gguf")
    outs = [os.path.join(WORK, f"q4k_{t}.gguf") for t in (1, 2)]
    for f in outs:
        if os.path.exists(f):
            os.remove(f)
    # q4_k is llama-quantize's alias of the Q4_K_M preset (token_embd, tied
    # to the output here, gets Q6_K); with --pure every converted weight is
    # Q4_K, token_embd included.
    p = run("quantize", "--dry-run", src, outs[0], "q4_k", expect=0)
    out = text(p)
    check("as q4_k (preset, base type Q4_K, general.file_type 15)" in out
          and re.search(r"token_embd\.weight +F32 +Q6_K ", out), f"quantize --dry-run q4_k:\n{out}")
    p = run("quantize", "--dry-run", "--pure", src, outs[0], "q4_k", expect=0)
    out = text(p)
    check("as q4_k (preset with --pure, base type Q4_K, general.file_type 15)" in out
          and not os.path.exists(outs[0]), f"quantize --dry-run --pure:\n{out}")
    check(re.search(r"blk\.0\.attn_q\.weight +F32 +Q4_K +8192 +1152 +--pure: Q4_K$", out, re.M)
          and re.search(r"blk\.0\.ffn_up\.weight +F16 +Q4_K +4096 +1152", out)
          and re.search(r"token_embd\.weight +F32 +Q4_K +16384 +2304", out)
          and re.search(r"blk\.0\.attn_norm\.weight +F32 +F32 +1024 +1024 +1-D: kept", out)
          and re.search(r"total tensor bytes +29696 +5632", out), f"quantize --dry-run plan:\n{out}")

    run("quantize", "--pure", "--threads", "1", src, outs[0], "q4_k", expect=0)
    run("quantize", "--pure", "--threads", "2", src, outs[1], "Q4_K", expect=0)
    a, b = open(outs[0], "rb").read(), open(outs[1], "rb").read()
    check(a == b, "quantize: 1 and 2 threads give different bytes")
    check(run("verify", outs[0], expect=0).returncode == 0, "quantize output does not verify")

    # Each converted tensor's bytes are skn_quantize's for the values in the
    # file (float.q4_k holds attn_q, ffn_up, token_embd in that order).
    expected = open(os.path.join(WORK, "float.q4_k"), "rb").read()
    placed = tensors_of(outs[0])
    got = b"".join(a[placed[n][0]:placed[n][0] + placed[n][1]]
                   for n in ("blk.0.attn_q.weight", "blk.0.ffn_up.weight", "token_embd.weight"))
    check(got == expected, "quantize: Q4_K bytes differ from skn_quantize's")
    # llama.cpp's order: tensors without a layer first, then by layer and name.
    check(list(placed) == ["token_embd.weight", "blk.0.attn_norm.weight", "blk.0.attn_q.weight", "blk.0.ffn_up.weight"],
          f"quantize: tensor order {list(placed)}")
    src_bytes, src_placed = open(src, "rb").read(), tensors_of(src)
    o, n = src_placed["blk.0.attn_norm.weight"]
    o2, n2 = placed["blk.0.attn_norm.weight"]
    check(src_bytes[o:o + n] == a[o2:o2 + n2], "quantize: the 1-D norm was not copied unchanged")

    # Metadata: copied in order, then llama.cpp's two keys.
    keys_in = [m["key"] for m in json.loads(run("inspect", "--json", src, expect=0).stdout)["metadata"]]
    md_out = json.loads(run("inspect", "--json", outs[0], expect=0).stdout)["metadata"]
    want = [k for k in keys_in if k != "general.file_type"] + ["general.quantization_version", "general.file_type"]
    check([m["key"] for m in md_out] == want, f"quantize: key order {[m['key'] for m in md_out]}")
    check(md_out[-2] == {"key": "general.quantization_version", "type": "u32", "value": 2}
          and md_out[-1] == {"key": "general.file_type", "type": "u32", "value": 15}, f"quantize: {md_out[-2:]}")

    # Refusals: requantizing without leave, unknown types.
    refused = os.path.join(WORK, "requant.gguf")
    if os.path.exists(refused):
        os.remove(refused)  # from an earlier run
    p = run("quantize", good, refused, "q8_0", expect=1)
    err = p.stderr.decode()
    check('"q4k.weight" is already Q4_K' in err and "--allow-requantize" in err and not os.path.exists(refused),
          f"quantize without --allow-requantize: {err}")
    run("quantize", "--allow-requantize", good, refused, "q8_0", expect=0)
    check(run("verify", refused).returncode == 0, "requantized file does not verify")
    p = run("quantize", src, refused, "q4_k_x", expect=2)
    check("Q4_K_M (15)" in p.stderr.decode() and "COPY" in p.stderr.decode(), f"quantize q4_k_x: {p.stderr.decode()}")
    check(run("quantize", src, refused).returncode == 2, "quantize without TYPE must exit 2")
    check(run("quantize", "--threads", "0", src, refused, "q4_0").returncode == 2, "--threads 0 must exit 2")
    check(not [f for f in os.listdir(WORK) if "skn-partial" in f], "quantize left a partial file")


def use_more_bits(i, n):
    return i < n // 8 or i >= 7 * n // 8 or (i - n // 8) % 3 == 2


def plan_types_of(path, *args):
    """(tensor name -> planned type, the --dry-run --json object)."""
    d = json.loads(run("quantize", "--dry-run", "--json", path, *args, expect=0).stdout)
    return {t["name"]: t["to"] for t in d["tensors"]}, d


def test_quantize_presets(good, bad):
    """Presets on layers.gguf (8 layers, n_gqa 1, blk.7.ffn_down rows of 288)
    and moe.gguf (4 layers, 8 experts, n_gqa 4, tied embeddings)."""
    src = os.path.join(WORK, "layers.gguf")
    out = os.path.join(WORK, "layers-q4_k_m.gguf")
    doc = json.loads(run("quantize", "--dry-run", "--json", src, "Q4_K_M", expect=0).stdout)
    check(doc["preset"] is True and doc["base_type"] == "Q4_K" and doc["file_type"] == 15 and doc["dry_run"] is True
          and doc["quantization_version"] == 2, f"--json header: { {k: v for k, v in doc.items() if k != 'tensors'} }")
    check(doc["model"] == {"arch": "llama", "n_layer": 8, "n_layer_from_key": True, "n_expert": 0, "n_head": 8,
                           "n_head_kv": 8, "n_gqa": 1}, f"--json model: {doc['model']}")
    types = {t["name"]: t["to"] for t in doc["tensors"]}
    rules = {t["name"]: t["rule"] for t in doc["tensors"]}
    # The types llama.cpp's Q4_K_M gives each tensor of this model.
    want = {"output.weight": "Q6_K", "output_norm.weight": "F32", "token_embd.weight": "Q4_K"}
    for layer in range(8):
        more = use_more_bits(layer, 8)
        for role in ("attn_q", "attn_k", "attn_output", "ffn_gate", "ffn_up"):
            want[f"blk.{layer}.{role}.weight"] = "Q4_K"
        want[f"blk.{layer}.attn_v.weight"] = "Q6_K" if more else "Q4_K"
        want[f"blk.{layer}.ffn_down.weight"] = ("Q8_0" if layer == 7 else "Q6_K") if more else "Q4_K"
        want[f"blk.{layer}.attn_norm.weight"] = want[f"blk.{layer}.ffn_norm.weight"] = "F32"
    check(types == want, "Q4_K_M types differ: " + str({k: (types.get(k), v) for k, v in want.items() if types.get(k) != v}))
    check(sorted(l for l in range(8) if use_more_bits(l, 8)) == [0, 3, 6, 7], "use_more_bits(i, 8)")
    check(rules["blk.3.attn_v.weight"] == "Q4_K_M attn_v: Q6_K, use_more_bits (attn_v #3 of 8)"
          and rules["blk.6.ffn_down.weight"] == "Q4_K_M ffn_down: Q6_K, use_more_bits (layer 6 of 8)"
          and rules["output.weight"] == "Q4_K_M output: Q6_K"
          and "fallback: ne0 288 not a multiple of Q6_K's 256 -> Q8_0" in rules["blk.7.ffn_down.weight"],
          f"--json rules: {rules}")
    names = [t["name"] for t in doc["tensors"]]
    check(names[:3] == ["output.weight", "output_norm.weight", "token_embd.weight"]
          and names[3:12] == [f"blk.0.{r}.weight" for r in ("attn_k", "attn_norm", "attn_output", "attn_q", "attn_v",
                                                            "ffn_down", "ffn_gate", "ffn_norm", "ffn_up")],
          f"plan order: {names[:12]}")
    tot = doc["totals"]
    check(tot["tensors"] == 75 and tot["quantized"] == 58 and tot["copied"] == 17
          and tot["bytes_out"] == sum(t["bytes_out"] for t in doc["tensors"])
          and tot["bytes_in"] == sum(t["bytes_in"] for t in doc["tensors"]), f"--json totals: {tot}")
    check(all(t["seconds"] is None for t in doc["tensors"]), "--dry-run --json: seconds must be null")

    # The text plan says the same.
    plan = text(run("quantize", "--dry-run", src, "q4_k_m", expect=0))
    check("as q4_k_m (preset, base type Q4_K, general.file_type 15)" in plan
          and "model: arch llama, 8 layers (block_count), 0 experts, n_head 8, n_head_kv 8, n_gqa 1" in plan
          and re.search(r"^  blk\.0\.attn_v\.weight +F16 +Q6_K +2048 +840 +Q4_K_M attn_v: Q6_K, use_more_bits "
                        r"\(attn_v #0 of 8\)$", plan, re.M)
          and re.search(r"^  blk\.1\.attn_v\.weight +F16 +Q4_K +2048 +576 +Q4_K_M preset base type", plan, re.M)
          and re.search(r"^  blk\.0\.ffn_norm\.weight +F32 +F32 +1024 +1024 +1-D: kept$", plan, re.M),
          f"--dry-run plan:\n{plan}")

    # Other presets' rules on the same model.
    def plan_types(*args):
        return plan_types_of(src, *args)
    t, d = plan_types("Q4_K_S")
    check([t[f"blk.{l}.attn_v.weight"] for l in range(8)] == ["Q5_K"] * 4 + ["Q4_K"] * 4
          and [t[f"blk.{l}.ffn_down.weight"] for l in range(7)] == ["Q5_K"] + ["Q4_K"] * 6
          and d["file_type"] == 14, f"Q4_K_S: {t}")
    t, d = plan_types("Q3_K_M")
    check([t[f"blk.{l}.attn_v.weight"] for l in range(8)] == ["Q5_K"] * 2 + ["Q4_K"] * 6
          and t["blk.2.attn_output.weight"] == "Q4_K" and t["blk.2.ffn_down.weight"] == "Q4_K"
          and t["blk.2.attn_q.weight"] == "Q3_K" and t["output.weight"] == "Q6_K" and d["file_type"] == 12, f"Q3_K_M: {t}")
    t, d = plan_types("Q8_0")
    check(t["output.weight"] == "Q8_0" and t["blk.7.ffn_down.weight"] == "Q8_0" and d["file_type"] == 7, f"Q8_0: {t}")
    t, d = plan_types("Q4_0")
    check(t["output.weight"] == "Q6_K" and t["blk.0.attn_v.weight"] == "Q4_0" and d["file_type"] == 2, f"Q4_0: {t}")
    t, d = plan_types("--pure", "Q4_K_M")
    check(set(v for k, v in t.items() if "norm" not in k) == {"Q4_K", "Q5_0"} and t["blk.7.ffn_down.weight"] == "Q5_0"
          and d["file_type"] == 15 and d["pure"] is True, f"--pure Q4_K_M: {t}")

    # --tensor-type: a regex searched in the name, first match wins, fallback still applies.
    t, d = plan_types("Q4_K_M", "--tensor-type", r"blk\.[0-3]\.attn_(q|k)=q8_0", "--tensor-type", "attn=q5_0",
                      "--tensor-type", "ffn_down=q5_k")
    rules = {x["name"]: x["rule"] for x in d["tensors"]}
    check(t["blk.2.attn_q.weight"] == "Q8_0" and t["blk.5.attn_q.weight"] == "Q5_0" and t["blk.0.attn_v.weight"] == "Q5_0"
          and t["blk.0.ffn_down.weight"] == "Q5_K" and t["blk.7.ffn_down.weight"] == "Q5_1"
          and t["output.weight"] == "Q6_K" and t["blk.0.attn_norm.weight"] == "F32"
          and rules["blk.2.attn_q.weight"] == r"--tensor-type blk\.[0-3]\.attn_(q|k)=q8_0"
          and rules["blk.7.ffn_down.weight"].startswith("--tensor-type ffn_down=q5_k; fallback: ne0 288")
          and d["overrides"] == [{"pattern": r"blk\.[0-3]\.attn_(q|k)", "type": "Q8_0"},
                                 {"pattern": "attn", "type": "Q5_0"}, {"pattern": "ffn_down", "type": "Q5_K"}],
          f"--tensor-type: {t}")
    p = run("quantize", "--dry-run", src, "Q4_K_M", "--tensor-type", "attn(=q8_0", expect=2)
    check("not a POSIX extended regular expression" in p.stderr.decode(), f"bad pattern: {p.stderr.decode()}")
    p = run("quantize", "--dry-run", src, "Q4_K_M", "--tensor-type", "attn=q9_9", expect=2)
    check("q9_9" in p.stderr.decode(), f"bad override type: {p.stderr.decode()}")
    p = run("quantize", "--dry-run", src, "Q4_K_M", "--tensor-type", "attn", expect=2)
    check("PATTERN=TYPE" in p.stderr.decode(), f"override without '=': {p.stderr.decode()}")

    # Importance-matrix presets are refused (no --imatrix yet); the plan marks them.
    p = run("quantize", src, os.path.join(WORK, "q2ks.gguf"), "Q2_K_S", expect=1)
    check("needs an importance matrix" in p.stderr.decode(), f"Q2_K_S: {p.stderr.decode()}")
    plan = text(run("quantize", "--dry-run", src, "Q2_K_S", expect=0))
    check(re.search(r"blk\.1\.attn_q\.weight +F16 +Q2_K .*\[needs imatrix\]", plan), f"Q2_K_S plan:\n{plan}")
    # A grid preset: refused while its formats are unknown, else planned.
    p = run("quantize", "--dry-run", src, "IQ2_M")
    if p.returncode == 2:
        check(re.search(r"preset IQ2_M needs format \w+, which this libskn .* does not implement", p.stderr.decode()),
              f"IQ2_M refusal: {p.stderr.decode()}")
    else:
        check(p.returncode == 0 and "IQ2_S" in text(p) and "[needs imatrix]" in text(p), f"IQ2_M plan: {text(p)}")

    # The conversion: the same bytes for 1, 2 and 3 threads; the chosen types;
    # bytes as skn_quantize writes them; metadata in order with the preset's
    # general.file_type.
    files = []
    for threads in (1, 2, 3):
        f = os.path.join(WORK, f"layers-q4_k_m-t{threads}.gguf")
        p = run("quantize", "--threads", str(threads), "--json", src, f, "Q4_K_M", expect=0)
        files.append(open(f, "rb").read())
        check(p.stderr == b"", f"progress must be quiet when stderr is not a terminal: {p.stderr[:200]!r}")
        if threads == 2:
            res = json.loads(p.stdout)
            check(res["dry_run"] is False and res["threads"] == 2 and res["elapsed_seconds"] >= 0
                  and all(isinstance(x["seconds"], float) and x["seconds"] >= 0 for x in res["tensors"])
                  and res["totals"]["file_bytes"] == os.path.getsize(f), f"--json result: {res['totals']}")
    check(files[0] == files[1] == files[2], "Q4_K_M: 1, 2 and 3 threads give different bytes")
    out = os.path.join(WORK, "layers-q4_k_m-t1.gguf")
    check(run("verify", out, expect=0).returncode == 0, "Q4_K_M output does not verify")
    info = json.loads(run("inspect", "--json", out, expect=0).stdout)
    check({t["name"]: t["type"] for t in info["tensors"]} == want, "Q4_K_M output's tensor types differ from the plan")
    placed = {t["name"]: (t["offset"], t["bytes"]) for t in info["tensors"]}
    data = files[0]
    for name, ref in (("blk.0.attn_v.weight", "layers.attn_v0.q6_k"), ("blk.7.ffn_down.weight", "layers.ffn_down7.q8_0")):
        o, n = placed[name]
        check(data[o:o + n] == open(os.path.join(WORK, ref), "rb").read(), f"{name}: bytes differ from skn_quantize's")
    md_in = json.loads(run("inspect", "--json", src, expect=0).stdout)["metadata"]
    md_out = info["metadata"]
    drop = ("general.file_type", "general.quantization_version")
    check([m for m in md_out[:-2]] == [m for m in md_in if m["key"] not in drop],
          f"metadata not copied unchanged in order: {[m['key'] for m in md_out]}")
    check(md_out[-2:] == [{"key": "general.quantization_version", "type": "u32", "value": 2},
                          {"key": "general.file_type", "type": "u32", "value": 15}], f"last keys: {md_out[-2:]}")

    # A MoE model (8 experts, n_gqa 4, tied embeddings, layers stored last
    # to first): the 8-expert, GQA and tied rules; ffn layers from the names.
    moe = os.path.join(WORK, "moe.gguf")
    t, d = plan_types_of(moe, "Q4_K_M")
    rules = {x["name"]: x["rule"] for x in d["tensors"]}
    check(d["model"] == {"arch": "llama", "n_layer": 4, "n_layer_from_key": True, "n_expert": 8, "n_head": 32,
                         "n_head_kv": 8, "n_gqa": 4}, f"moe model: {d['model']}")
    check(t["token_embd.weight"] == "Q6_K" and "tied" in rules["token_embd.weight"]
          and all(t[f"blk.{l}.attn_v.weight"] == "Q8_0" and t[f"blk.{l}.attn_k.weight"] == "Q8_0"
                  and t[f"blk.{l}.attn_output.weight"] == "Q5_K" and t[f"blk.{l}.attn_q.weight"] == "Q4_K"
                  and t[f"blk.{l}.ffn_gate_inp.weight"] == "F32" and t[f"blk.{l}.ffn_up_exps.weight"] == "Q4_K"
                  for l in range(4))
          and [t[f"blk.{l}.ffn_down_exps.weight"] for l in range(4)]
          == ["Q6_K" if use_more_bits(l, 4) else "Q4_K" for l in range(4)] == ["Q4_K", "Q4_K", "Q6_K", "Q6_K"]
          and [x["name"] for x in d["tensors"]][2] == "blk.0.attn_k.weight", f"moe Q4_K_M: {t}")
    t, d = plan_types_of(moe, "MXFP4_MOE")
    check(d["file_type"] == 38 and t["token_embd.weight"] == "Q8_0" and t["blk.1.attn_q.weight"] == "Q8_0"
          and t["blk.1.ffn_down_exps.weight"] == "MXFP4" and t["blk.3.ffn_gate_exps.weight"] == "MXFP4"
          and t["blk.1.ffn_gate_inp.weight"] == "F32", f"moe MXFP4_MOE: {t}")
    t, d = plan_types_of(moe, "Q2_K")
    check(t["blk.0.attn_v.weight"] == "Q8_0" and t["blk.0.ffn_down_exps.weight"] == "Q3_K"
          and t["blk.0.attn_output.weight"] == "Q5_K" and t["blk.0.attn_q.weight"] == "Q2_K", f"moe Q2_K: {t}")
    moe_out = os.path.join(WORK, "moe-q4_k_m.gguf")
    run("quantize", "--threads", "2", moe, moe_out, "Q4_K_M", expect=0)
    info = json.loads(run("inspect", "--json", moe_out, expect=0).stdout)
    got = {x["name"]: (x["type"], x["shape_as_stored"]) for x in info["tensors"]}
    check(got["blk.2.ffn_down_exps.weight"] == ("Q6_K", [512, 4, 8]) and run("verify", moe_out).returncode == 0,
          f"moe Q4_K_M output: {got['blk.2.ffn_down_exps.weight']}")
    # No block_count: n taken from the highest blk.N.
    d = json.loads(run("quantize", "--dry-run", "--json", os.path.join(WORK, "float.gguf"), "Q4_K_M", expect=0).stdout)
    check(d["model"]["n_layer"] == 1 and d["model"]["n_layer_from_key"] is False, f"no block_count: {d['model']}")
    plan = text(run("quantize", "--dry-run", os.path.join(WORK, "float.gguf"), "Q4_K_M", expect=0))
    check("1 layers (no block_count: from blk.N)" in plan, f"no block_count plan:\n{plan}")

    # Progress on a terminal: one line redrawn with \r on stderr.
    try:
        import pty
        master, slave = pty.openpty()
        f = os.path.join(WORK, "layers-tty.gguf")
        proc = subprocess.Popen([*EMULATOR, SKN, "quantize", src, f, "Q4_K_M"], stdout=subprocess.PIPE, stderr=slave)
        os.close(slave)
        chunks = []
        while True:
            try:
                got = os.read(master, 4096)
            except OSError:
                break
            if not got:
                break
            chunks.append(got)
        proc.wait()
        os.close(master)
        err = b"".join(chunks).decode(errors="replace")
        check(proc.returncode == 0 and re.search(r"\r\[\d+/75\] \S+ .*/s  ETA \d+:\d\d:\d\d", err)
              and err.endswith("\r\x1b[K") and "\n" not in err, f"progress on a terminal: {err!r}")
    except ImportError:
        pass
def imatrix_gguf(entries, datasets=("calib.txt",), chunk_count=10, chunk_size=512):
    """A GGUF-form imatrix as llama-imatrix lays it out: per entry
    (name, per_row, counts, sums) the F32 tensors NAME.in_sum2 [per_row,
    matrices] and NAME.counts [1, matrices], and the imatrix.* metadata."""
    def s(x):
        x = x.encode()
        return struct.pack("<Q", len(x)) + x
    kvs = [("general.type", 8, s("imatrix")),
           ("imatrix.datasets", 9, struct.pack("<IQ", 8, len(datasets)) + b"".join(s(d) for d in datasets)),
           ("imatrix.chunk_count", 4, struct.pack("<I", chunk_count)),
           ("imatrix.chunk_size", 4, struct.pack("<I", chunk_size))]
    tensors = []
    for name, per_row, counts, sums in entries:
        tensors.append((name + ".in_sum2", [per_row, len(counts)], struct.pack(f"<{len(sums)}f", *sums)))
        tensors.append((name + ".counts", [1, len(counts)], struct.pack(f"<{len(counts)}f", *counts)))
    head = b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(kvs))
    for k, t, payload in kvs:
        head += s(k) + struct.pack("<I", t) + payload
    offset, body = 0, b""
    for name, ne, data in tensors:
        head += s(name) + struct.pack("<I", len(ne)) + b"".join(struct.pack("<Q", n) for n in ne)
        head += struct.pack("<IQ", 0, offset)
        pad = (-len(data)) % 32
        body += data + b"\0" * pad
        offset += len(data) + pad
    head += b"\0" * ((-len(head)) % 32)
    return head + body


def imatrix_legacy(entries, chunk_count=7, dataset="wiki.train.raw"):
    """The legacy .dat form, byte by byte: (name, ncall, values) entries."""
    b = struct.pack("<i", len(entries))
    for name, ncall, values in entries:
        n = name.encode()
        b += struct.pack("<i", len(n)) + n + struct.pack("<ii", ncall, len(values))
        b += struct.pack(f"<{len(values)}f", *values)
    return b + struct.pack("<ii", chunk_count, len(dataset)) + dataset.encode()


def test_imatrix(good, bad):
    os.makedirs(WORK, exist_ok=True)
    dense = [float(i % 9) * 4.0 for i in range(96)]
    experts = [float((i * 5) % 17) for i in range(64 * 3)]
    g = os.path.join(WORK, "imatrix.gguf")
    with open(g, "wb") as f:
        f.write(imatrix_gguf([("blk.1.ffn_up_exps.weight", 64, [8.0, 0.0, 2.0], experts),
                              ("blk.0.attn_q.weight", 96, [4.0], dense)]))
    doc = json.loads(run("imatrix", "--json", g, expect=0).stdout)
    check(doc["form"] == "gguf" and doc["chunk_count"] == 10 and doc["chunk_size"] == 512
          and doc["datasets"] == ["calib.txt"], f"imatrix --json (gguf): {doc}")
    names = [e["name"] for e in doc["entries"]]
    check(names == ["blk.0.attn_q.weight", "blk.1.ffn_up_exps.weight"], f"imatrix --json: entries not sorted: {names}")
    q, x = doc["entries"]
    check(q["values"] == 96 and q["matrices"] == 1 and q["count"] == 4 and q["unused_matrices"] == 0,
          f"imatrix --json: dense entry {q}")
    check(math.isclose(q["mean"], sum(dense) / 4.0 / 96, rel_tol=1e-6), f"imatrix --json: dense mean {q}")
    # Expert 1 saw no input: its 64 values are 1.0, as llama-quantize sets them.
    want = (sum(experts[:64]) / 8.0 + 64.0 + sum(experts[128:]) / 2.0) / 192
    check(x["values"] == 64 and x["matrices"] == 3 and x["count"] == 8 and x["unused_matrices"] == 1
          and math.isclose(x["mean"], want, rel_tol=1e-6), f"imatrix --json: expert entry {x}, mean {want}")
    table = text(run("imatrix", g, expect=0))
    check(re.search(r"gguf form, 2 entries", table) and re.search(r"^  blk\.1\.ffn_up_exps\.weight +64 +3 +8 +1 ",
          table, re.M), f"imatrix table:\n{table}")

    d = os.path.join(WORK, "imatrix.dat")
    with open(d, "wb") as f:
        f.write(imatrix_legacy([("blk.0.attn_q.weight", 4, dense), ("output.weight", 2, experts)]))
    doc = json.loads(run("imatrix", "--json", d, expect=0).stdout)
    check(doc["form"] == "legacy" and doc["chunk_count"] == 7 and doc["chunk_size"] is None
          and doc["datasets"] == ["wiki.train.raw"], f"imatrix --json (legacy): {doc}")
    o = doc["entries"][1]
    check(o["name"] == "output.weight" and o["values"] == 192 and o["matrices"] == 1 and o["count"] == 2
          and math.isclose(o["mean"], sum(experts) / 2.0 / 192, rel_tol=1e-6), f"imatrix --json legacy entry {o}")

    # Refusals name the fault; usage errors exit 2.
    with open(d, "rb") as f:
        data = f.read()
    cut = os.path.join(WORK, "cut.dat")
    with open(cut, "wb") as f:
        f.write(data[:40])
    p = run("imatrix", cut, expect=1)
    check(b"truncated at byte" in p.stderr, f"imatrix of a truncated file: {p.stderr!r}")
    nan = os.path.join(WORK, "nan.dat")
    with open(nan, "wb") as f:
        f.write(imatrix_legacy([("w", 1, [1.0, float("nan"), 2.0])]))
    p = run("imatrix", nan, expect=1)
    check(b"\"w\" value 1 is nan" in p.stderr, f"imatrix of a NaN value: {p.stderr!r}")
    check(run("imatrix").returncode == 2 and run("imatrix", "--bogus", g).returncode == 2,
          "imatrix usage errors must exit 2")


def test_quantize_imatrix(good, bad):
    """skn quantize --imatrix: the entry's tensor (and only it) is quantized
    with importance weights, each expert of a 3-D weight with its own, the
    same bytes for any thread count; a wrong-sized entry is refused."""
    src = os.path.join(WORK, "float.gguf")
    plan = json.loads(run("quantize", "--dry-run", "--json", src, "q4_k", expect=0).stdout)
    shape = {t["name"]: t["shape"] for t in plan["tensors"]}
    per_row = shape["blk.0.attn_q.weight"][0]
    sums = [float(1 + (c * 7) % 13) ** 3 for c in range(per_row)]  # uneven: weights matter
    im = os.path.join(WORK, "q-imatrix.gguf")
    with open(im, "wb") as f:
        f.write(imatrix_gguf([("blk.0.attn_q.weight", per_row, [3.0], sums)]))
    plain, weighted, weighted2 = (os.path.join(WORK, f"imx-{n}.gguf") for n in ("plain", "w1", "w2"))
    run("quantize", src, plain, "q4_k", expect=0)
    doc = json.loads(run("quantize", "--json", "--imatrix", im, src, weighted, "q4_k", expect=0).stdout)
    run("quantize", "--threads", "2", "--imatrix", im, src, weighted2, "q4_k", expect=0)
    check(doc["imatrix"] == im and [t["name"] for t in doc["tensors"] if t["importance"]] == ["blk.0.attn_q.weight"],
          f"quantize --imatrix --json: imatrix {doc['imatrix']}, "
          f"with importance {[t['name'] for t in doc['tensors'] if t['importance']]}")
    check(open(weighted, "rb").read() == open(weighted2, "rb").read(), "--imatrix: 1 and 2 threads differ")
    a, b = open(plain, "rb").read(), open(weighted, "rb").read()
    ta, tb = tensors_of(plain), tensors_of(weighted)
    for name, (off, size) in ta.items():
        same = a[off:off + size] == b[tb[name][0]:tb[name][0] + tb[name][1]]
        check(same == (name != "blk.0.attn_q.weight"),
              f"--imatrix: {name} {'unchanged' if same else 'changed'} by an imatrix with "
              f"{'an' if name == 'blk.0.attn_q.weight' else 'no'} entry for it")
    check(run("verify", weighted).returncode == 0, "--imatrix output does not verify")
    dry = text(run("quantize", "--dry-run", "--imatrix", im, src, "q4_k", expect=0))
    check(re.search(r"blk\.0\.attn_q\.weight .*\[imatrix\]$", dry, re.M), f"--dry-run --imatrix plan:\n{dry}")

    # The legacy form gives the same weights (value / ncall) as the GGUF form.
    dat = os.path.join(WORK, "q-imatrix.dat")
    with open(dat, "wb") as f:
        f.write(imatrix_legacy([("blk.0.attn_q.weight", 3, sums)]))
    legacy_out = os.path.join(WORK, "imx-legacy.gguf")
    run("quantize", "--imatrix", dat, src, legacy_out, "q4_k", expect=0)
    legacy_bytes, tl = open(legacy_out, "rb").read(), tensors_of(legacy_out)
    check(all(legacy_bytes[tl[n][0]:tl[n][0] + tl[n][1]] == b[tb[n][0]:tb[n][0] + tb[n][1]] for n in tb),
          "--imatrix: the legacy form of the same imatrix gives other tensor bytes")

    # A 3-D expert weight: one matrix of weights per expert.
    moe = os.path.join(WORK, "moe.gguf")
    t, d = plan_types_of(moe, "Q4_K_M")
    up = {x["name"]: x["shape"] for x in d["tensors"]}["blk.0.ffn_up_exps.weight"]
    experts = up[2]
    ex_sums = [float(1 + (c * 5 + e * 3) % 11) ** 2 for e in range(experts) for c in range(up[0])]
    moe_im = os.path.join(WORK, "moe-imatrix.gguf")
    with open(moe_im, "wb") as f:
        f.write(imatrix_gguf([("blk.0.ffn_up_exps.weight", up[0], [2.0] * experts, ex_sums)]))
    outs = [os.path.join(WORK, f"moe-imx-{n}.gguf") for n in (1, 2, 0)]
    run("quantize", "--imatrix", moe_im, moe, outs[0], "Q4_K_M", expect=0)
    run("quantize", "--threads", "2", "--imatrix", moe_im, moe, outs[1], "Q4_K_M", expect=0)
    run("quantize", moe, outs[2], "Q4_K_M", expect=0)
    m1, m0 = open(outs[0], "rb").read(), open(outs[2], "rb").read()
    o1, s1 = tensors_of(outs[0])["blk.0.ffn_up_exps.weight"]
    o0, s0 = tensors_of(outs[2])["blk.0.ffn_up_exps.weight"]
    per_expert = s1 // experts
    changed = [m1[o1 + e * per_expert:o1 + (e + 1) * per_expert] != m0[o0 + e * per_expert:o0 + (e + 1) * per_expert]
               for e in range(experts)]
    check(m1 == open(outs[1], "rb").read() and all(changed),
          f"--imatrix on experts: threads agree {m1 == open(outs[1], 'rb').read()}, experts changed {changed}")

    # A grid preset end to end: IQ2_M needs importance data for its IQ2_S
    # tensors; with an entry for every converted tensor the file is written,
    # verifies, and holds the grid formats the plan chose.
    layers = os.path.join(WORK, "layers.gguf")
    t, d = plan_types_of(layers, "IQ2_M")
    conv = [x for x in d["tensors"] if x["action"] == "quantize"]
    full = os.path.join(WORK, "layers-imatrix.dat")
    with open(full, "wb") as f:
        f.write(imatrix_legacy([(x["name"], 1, [1.0 + (c % 5) for c in range(x["shape"][0])]) for x in conv]))
    iq2m = os.path.join(WORK, "layers-iq2_m.gguf")
    doc = json.loads(run("quantize", "--json", "--imatrix", full, layers, iq2m, "IQ2_M", expect=0).stdout)
    got = json.loads(run("inspect", "--json", iq2m, expect=0).stdout)
    types = {x["name"]: x["type"] for x in got["tensors"]}
    check(all(x["importance"] for x in doc["tensors"] if x["action"] == "quantize")
          and types == {x["name"]: x["to"] for x in doc["tensors"]} and "IQ2_S" in types.values()
          and "IQ3_S" in types.values() and run("verify", iq2m).returncode == 0,
          f"IQ2_M with an imatrix: types {types}")
    check(run("quantize", layers, os.path.join(WORK, "iq2m-none.gguf"), "IQ2_M").returncode == 1,
          "IQ2_M without an imatrix must be refused")

    # An entry of another size: refused, naming the tensor and both sizes.
    wrong = os.path.join(WORK, "wrong-imatrix.gguf")
    with open(wrong, "wb") as f:
        f.write(imatrix_gguf([("blk.0.attn_q.weight", per_row * 2, [1.0], sums + sums)]))
    p = run("quantize", "--imatrix", wrong, src, os.path.join(WORK, "imx-wrong.gguf"), "q4_k", expect=1)
    check(f'{per_row * 2} importance values for tensor "blk.0.attn_q.weight", which needs {per_row}'
          in p.stderr.decode() and not os.path.exists(os.path.join(WORK, "imx-wrong.gguf")),
          f"wrong-size imatrix: {p.stderr.decode()}")
    p = run("quantize", "--imatrix", os.path.join(WORK, "missing.dat"), src, plain, "q4_k", expect=1)
    check("missing.dat" in p.stderr.decode(), f"missing imatrix file: {p.stderr.decode()}")
    check(run("quantize", src, plain, "q4_k", "--imatrix").returncode == 2, "--imatrix without FILE must exit 2")


def test_i2s_layout(good, bad):
    # A file without the "skn.i2_s_layout" key (the writer always adds it: the
    # key is renamed in place, so every offset stays): its I2_S tensor cannot
    # be decoded until --i2s-layout says which bitnet.cpp build wrote it.
    data = open(good, "rb").read()
    check(data.count(b"skn.i2_s_layout") == 1, "good.gguf should hold the skn.i2_s_layout key once")
    keyless = os.path.join(WORK, "keyless.gguf")
    with open(keyless, "wb") as f:
        f.write(data.replace(b"skn.i2_s_layout", b"xyz.i2_s_layout"))
    advice = "pass --i2s-layout x86 if an x86 build of bitnet.cpp wrote it, --i2s-layout arm64 if an arm64 build did"

    out = text(run("verify", keyless, expect=0))
    check(re.search(r"^  skip ternary\.weight .*no \"skn\.i2_s_layout\" key", out, re.M) and advice in out,
          f"verify of a keyless I2_S file: no skip line with the advice:\n{out}")
    out = text(run("verify", "--i2s-layout", "x86", keyless, expect=0))
    check(re.search(r"^  ok   ternary\.weight ", out, re.M), f"verify --i2s-layout x86: ternary.weight not ok:\n{out}")

    p = run("dump", keyless, "ternary.weight", expect=1)
    check(advice in p.stderr.decode(), f"dump of a keyless I2_S tensor: {p.stderr.decode()}")
    # The two layouts place element j of a 64-value group in different bytes:
    # columns 16..21 differ, and x86 gives what the file with its key gives.
    def row0(*args):
        p = run("dump", *args, "ternary.weight", "--csv", "--rows", "0", "--cols", "16:22", expect=0)
        return [float(v) for v in text(p).splitlines()[1].split(",")[1:]]
    want = [((i * 5) % 3 - 1) * 0.75 for i in range(16, 22)]
    check(row0(good) == want, f"dump good.gguf ternary.weight: {row0(good)}, expected {want}")
    check(row0("--i2s-layout", "x86", keyless) == want, "dump --i2s-layout x86 of the keyless file differs from the file with its key")
    arm = row0("--i2s-layout", "arm64", keyless)
    check(arm != want and len(arm) == 6, f"dump --i2s-layout arm64 should decode the other layout: {arm}")

    out = text(run("inspect", keyless, expect=0))
    check("I2_S(36)*" in out and advice in out, f"inspect of a keyless I2_S file: no marker or advice:\n{out}")
    doc = json.loads(run("inspect", "--json", "--i2s-layout", "x86", keyless, expect=0).stdout)
    check([t["supported"] for t in doc["tensors"] if t["name"] == "ternary.weight"] == [True],
          f"inspect --i2s-layout x86: ternary.weight not supported: {doc['tensors']}")

    # An option the file's key contradicts is refused at open; a bad value is a usage error.
    p = run("verify", "--i2s-layout", "arm64", good, expect=1)
    check("says its I2_S tensors are in the x86 layout" in p.stderr.decode() + p.stdout.decode(),
          f"verify --i2s-layout arm64 of an x86 file: {p.stderr.decode()}")
    for cmd in (["verify"], ["dump"], ["inspect"], ["quantize"]):
        p = run(*cmd, "--i2s-layout", "sparc", good, expect=2)
        check("--i2s-layout needs x86 or arm64" in p.stderr.decode(), f"{cmd[0]} --i2s-layout sparc: {p.stderr.decode()}")


def main():
    good, bad = fixtures()
    {"verify": test_verify, "dump": test_dump, "inspect_json": test_inspect_json, "doctor": test_doctor,
     "quantize": test_quantize, "quantize_presets": test_quantize_presets,
     "imatrix": test_imatrix, "quantize_imatrix": test_quantize_imatrix, "i2s_layout": test_i2s_layout}[SECTION](
        good, bad)
    if failures:
        sys.exit("FAIL:\n" + "\n".join(failures))
    print(f"{SECTION}: ok")


if __name__ == "__main__":
    main()
