#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# An object built for one ISA tier holds no instruction of a later tier: the
# registry runs a tier's kernels on every CPU that has that tier, so a
# dot-product instruction in a `neon` object, an AVX-512 one in an `avx2`
# object (or one from inline assembly, a target attribute, a stray flag)
# would kill the program with SIGILL on a CPU that has the tier and no more.
# A test run finds that only on such a CPU, and only on the code paths it
# takes; this reads every instruction of every tier object (objdump -d).
#
# The extensions an object may use come from the flags it was compiled with
# (its tier's row in src/runtime/isa_table.def plus its OPTIONS in
# kernels/<arch>/kernels.cmake: dense/neoni8mm.cpp adds +bf16); every other
# extension below is forbidden in it.
#
#   check_tier_instructions.py OBJDUMP 'FLAGS|OBJECT'...
#   check_tier_instructions.py --self-test
import re
import subprocess
import sys

# extension: (enabled by a flag matching, found in an instruction line by)
# An instruction line is objdump's "addr:<TAB>raw bytes<TAB>mnemonic operands".
EXTENSIONS = {
    # x86-64. Any EVEX-encoded instruction (first opcode byte 0x62; in
    # 64-bit mode it is nothing else) or a zmm / mask register is AVX-512.
    "avx512": (r"^-mavx512f$", lambda raw, ins: re.match(r"(67 )?62 ", raw) is not None
               or re.search(r"%zmm|%k[1-7]\b", ins) is not None),
    "avx512vnni": (r"^-mavx512vnni$", lambda raw, ins: re.match(r"(67 )?62 ", raw) is not None
                   and re.match(r"vpdp(bus|ws)ds?\b", ins) is not None),
    "avxvnni": (r"^-mavxvnni$", lambda raw, ins: re.match(r"(67 )?62 ", raw) is None
                and re.match(r"(\{vex\} )?vpdp(bus|ws)ds?\b", ins) is not None),
    "avx512bf16": (r"^-mavx512bf16$", lambda raw, ins: re.match(r"vdpbf16ps|vcvtne2?ps2bf16", ins) is not None),
    # aarch64. SVE is any z or p register, or an SVE-only mnemonic.
    "dotprod": (r"\+dotprod\b|armv8\.[4-9]-a|armv9", lambda raw, ins: re.match(r"[su]dot\s+v", ins) is not None),
    "i8mm": (r"\+i8mm\b|armv8\.[6-9]-a", lambda raw, ins: re.match(r"(smmla|ummla|usmmla|usdot|sudot)\b", ins)
             is not None),
    "bf16": (r"\+bf16\b|armv8\.[6-9]-a", lambda raw, ins: re.match(r"bf(dot|mmla|mlal[bt]|cvtn2?|cvt)\b", ins)
             is not None),
    "sve": (r"\+sve", lambda raw, ins: re.search(r"\bz([12]?[0-9]|3[01])\.[bhsdq]\b|\bp(1[0-5]|[0-9])(/[zm]|\.[bhsdq])",
                                                  ins) is not None
            or re.match(r"(ptrues?|while(lo|lt|le|ls)|cnt[bhwd]|inc[bhwd]|rdvl|addvl|addpl)\b", ins) is not None),
}
# x86 objdump shows the bytes in pairs ("62 f2 7d 48"), aarch64 one word each.
line_re = re.compile(r"^\s*[0-9a-f]+:\t([0-9a-f]{2}(?: [0-9a-f]{2})*|[0-9a-f]{8})\s*\t(.*)$")


def allowed(flags):
    words = flags.split()
    return {ext for ext, (flag, _) in EXTENSIONS.items() if any(re.search(flag, w) for w in words)}


def violations(disassembly, flags):
    """(extension, instruction) for each instruction of `disassembly` that
    needs an extension `flags` do not enable; the first three of each."""
    ok = allowed(flags)
    found = {}
    for line in disassembly.splitlines():
        m = line_re.match(line)
        if not m:
            continue
        raw, ins = m.group(1), re.sub(r"\s+", " ", m.group(2).split("//")[0].strip())
        for ext, (_, needs) in EXTENSIONS.items():
            if ext not in ok and needs(raw, ins):
                found.setdefault(ext, [])
                if len(found[ext]) < 3:
                    found[ext].append(ins)
    return found


def check(objdump, items):
    bad = 0
    for item in items:
        flags, _, obj = item.rpartition("|")
        dis = subprocess.run([objdump, "-d", "-w", obj], check=True, capture_output=True, text=True).stdout
        for ext, examples in violations(dis, flags).items():
            print(f"{obj}: {ext} instructions, which its flags ({flags}) do not enable: {'; '.join(examples)}")
            bad = 1
    print(f"checked {len(items)} tier object(s)")
    return bad


SELF_TEST = [  # (flags, one objdump line, extensions it must draw)
    ("-mavx2 -mfma -mf16c", "  81:\t62 f2 7d 48 5a 05 00 00 00 00 \tvbroadcasti32x4 0x0(%rip),%zmm0", {"avx512"}),
    ("-mavx2 -mfma -mf16c", "  90:\t62 e2 75 28 50 c2    \tvpdpbusd %ymm2,%ymm1,%ymm16", {"avx512", "avx512vnni"}),
    ("-mavx2 -mfma -mf16c", "  95:\tc4 e2 75 50 c2       \t{vex} vpdpbusd %ymm2,%ymm1,%ymm0", {"avxvnni"}),
    ("-mavx2 -mfma -mf16c", "  9a:\tc5 fd fe c1          \tvpaddd %ymm1,%ymm0,%ymm0", set()),
    ("-mavx2 -mfma -mf16c -mavx512f -mavx512bw -mavx512vl -mavx512dq",
     "  a0:\t62 f2 7d 48 50 c1    \tvpdpbusd %zmm1,%zmm0,%zmm0", {"avx512vnni"}),
    ("-mavx2 -mfma -mf16c -mavx512f -mavx512bw -mavx512vl -mavx512dq -mavx512vnni -mavx512bf16",
     "  a6:\t62 f2 7d 48 50 c1    \tvpdpbusd %zmm1,%zmm0,%zmm0", set()),
    ("-march=armv8-a", "  10:\t4e829420 \tsdot\tv0.4s, v1.16b, v2.16b", {"dotprod"}),
    ("-march=armv8-a", "  14:\t4e80a420 \tsmmla\tv0.4s, v1.16b, v0.16b", {"i8mm"}),
    ("-march=armv8-a", "  18:\t6e40fc20 \tbfdot\tv0.4s, v1.8h, v0.8h", {"bf16"}),
    ("-march=armv8-a", "  1c:\t04a00000 \tadd\tz0.s, z0.s, z0.s", {"sve"}),
    ("-march=armv8-a", "  20:\t4e208420 \tadd\tv0.16b, v1.16b, v0.16b", set()),
    ("-march=armv8.2-a+dotprod", "  24:\t4e829420 \tsdot\tv0.4s, v1.16b, v2.16b", set()),
    ("-march=armv8.2-a+dotprod+i8mm", "  28:\t4e80a420 \tsmmla\tv0.4s, v1.16b, v0.16b", set()),
    ("-march=armv8.2-a+dotprod+i8mm", "  2c:\t6e40fc20 \tbfdot\tv0.4s, v1.8h, v0.8h", {"bf16"}),
    ("-march=armv8.2-a+dotprod+i8mm+bf16", "  30:\t6e40fc20 \tbfdot\tv0.4s, v1.8h, v0.8h", set()),
]


def self_test():
    failures = 0
    for flags, line, want in SELF_TEST:
        got = set(violations(line, flags))
        if got != want:
            print(f"self-test: {line.strip()!r} with {flags!r}: expected {sorted(want)}, got {sorted(got)}")
            failures += 1
    print(f"tier instructions self-test: {len(SELF_TEST)} case(s), {failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--self-test":
        sys.exit(self_test())
    sys.exit(check(sys.argv[1], sys.argv[2:]))
