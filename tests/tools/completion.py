#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tools/skn/completion/skn.bash, run in bash: every command completes,
every command's options are exactly those its --help lists, and values
complete where the program knows them (TYPE, --i2s-layout, tensor types:
every format skn.h declares).
    completion.py SKN COMPLETION_SCRIPT SKN_H"""
import os
import re
import subprocess
import sys

SKN, SCRIPT, SKN_H = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
EMULATOR = os.environ.get("SKN_EMULATOR", "").split()
COMMANDS = ["demo", "inspect", "imatrix", "verify", "dump", "doctor", "quantize", "edit", "split", "merge", "bench",
            "version"]
failures = []


def complete(*words):
    """COMPREPLY for the command line `words` (the last one being completed)."""
    line = " ".join(f"'{w}'" for w in words)
    script = f'source "{SCRIPT}"; COMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; _skn; printf "%s\\n" "${{COMPREPLY[@]}}"'
    p = subprocess.run(["bash", "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=os.path.dirname(SCRIPT))
    if p.returncode != 0:
        failures.append(f"completing {words}: {p.stderr.decode()}")
    return [w for w in p.stdout.decode().splitlines() if w]


def help_options(cmd):
    """The options the command's --help lists in its options: section."""
    text = subprocess.run([*EMULATOR, SKN, cmd, "--help"], stdout=subprocess.PIPE).stdout.decode()
    block = text.split("\noptions:\n", 1)[1].split("\nexit status:\n", 1)[0]
    found = set()
    for line in block.splitlines():
        m = re.match(r"^  (-[-\w]+)(?:, (-[-\w]+))?", line)
        if m:
            found.update(x for x in m.groups() if x)
    return found


def check(cond, what):
    if not cond:
        failures.append(what)


got = complete("skn", "")
check(set(COMMANDS) <= set(got), f"commands: {got}")
check(complete("skn", "qu") == ["quantize"], "skn qu")
for cmd in COMMANDS:
    want, have = help_options(cmd), set(complete("skn", cmd, "-"))
    check(want == have, f"skn {cmd}: --help lists {sorted(want - have)} that completion lacks, completion offers "
                        f"{sorted(have - want)} that --help does not list")
check(complete("skn", "quantize", "--i2s-layout", "") == ["x86", "arm64"], "--i2s-layout values")
check("Q4_K_M" in complete("skn", "quantize", "model.gguf", "out.gguf", ""), "quantize TYPE after IN OUT")
check("COPY" in complete("skn", "quantize", "--threads", "4", "model.gguf", ""), "quantize TYPE after IN")
check(complete("skn", "quantize", "--output-tensor-type", "iq4_n") == ["iq4_nl", "iq4_nl_r4"],
      "--output-tensor-type values")
check(complete("skn", "inspect", "--m") == ["--markdown"], "skn inspect --m")
# Every format is a tensor type (I2_S_G64 is I2_S in a GGUF file), and the
# row-interleaved ones are TYPEs too.
formats = {f.lower() for f in re.findall(r"^\s+SKN_FORMAT_(\w+) = \d+", open(SKN_H).read(), re.M)} - {"i2_s_g64"}
offered = set(complete("skn", "quantize", "--output-tensor-type", ""))
check(formats == offered, f"--output-tensor-type offers {sorted(offered - formats)} that skn.h lacks and lacks "
                          f"{sorted(formats - offered)}")
interleaved = {f.upper() for f in formats if re.search(r"_r\d+$", f)}
types = set(complete("skn", "quantize", "model.gguf", "out.gguf", ""))
check(interleaved and interleaved <= types, f"quantize TYPE lacks {sorted(interleaved - types)}")
if failures:
    sys.exit("FAIL:\n" + "\n".join(failures))
print("completion: ok")
