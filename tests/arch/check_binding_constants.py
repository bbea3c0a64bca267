#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The Go and Rust bindings name each format and ISA tier as a constant (Go's
# FormatQ4_K = C.SKN_FORMAT_Q4_K, Rust's Format::Q4_K =
# sys::SKN_FORMAT_Q4_K): a named constant per enumerator is what a user of
# those languages expects, so those lists are kept by hand. The compilers
# check each constant's value against skn.h; this checks the set: every
# SKN_FORMAT_* and SKN_ISA_* enumerator of include/skn/skn.h (but the
# SKN_FORMAT_INVALID sentinel) has its constant in each binding that lists
# that enum, and no binding lists one skn.h lacks. Python reads the names
# from the library (skn_format_at, skn_isa_name) and keeps no list.
#
#   check_binding_constants.py ROOT
#   check_binding_constants.py --self-test   a made-up header and bindings:
#                                            a missing and an extra constant
#                                            must be found, a match must pass
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import tree_check  # noqa: E402  (tests/arch/tree_check.py)

# (enum prefix, binding file, how the file names an enumerator)
BINDINGS = [
    ("SKN_FORMAT_", "bindings/go/skn/formats.go", r"\bC\.(SKN_FORMAT_\w+)"),
    ("SKN_ISA_", "bindings/go/skn/cpu.go", r"\bC\.(SKN_ISA_\w+)"),
    ("SKN_FORMAT_", "bindings/rust/skn/src/format.rs", r"\bsys::(SKN_FORMAT_\w+)"),
]
SENTINELS = {"SKN_FORMAT_INVALID"}


def enumerators(header, prefix):
    return set(re.findall(r"^\s*(" + prefix + r"\w+)\s*=", header, re.M)) - SENTINELS


def check(root):
    header = (root / "include/skn/skn.h").read_text(encoding="utf-8")
    errors = []
    for prefix, rel, pattern in BINDINGS:
        want = enumerators(header, prefix)
        if not want:
            errors.append(f"include/skn/skn.h: no {prefix}* enumerator found (has the enum moved?)")
            continue
        have = set(re.findall(pattern, (root / rel).read_text(encoding="utf-8"))) - SENTINELS
        for name in sorted(want - have):
            errors.append(f"{rel}: no constant for {name} (skn.h has it): add one beside the others")
        for name in sorted(have - want):
            errors.append(f"{rel}: {name} is not an enumerator of skn.h")
    return errors


SELF_TEST_HEADER = ("typedef enum skn_format {\n SKN_FORMAT_INVALID = -1,\n SKN_FORMAT_F32 = 0,\n SKN_FORMAT_Q4_0 = 2\n} f;\n"
                    "typedef enum skn_isa {\n SKN_ISA_SCALAR = 0,\n SKN_ISA_AVX2 = 1\n} i;\n")
SELF_TEST_GO_FORMATS = "FormatF32 Format = C.SKN_FORMAT_F32\nFormatQ4_0 Format = C.SKN_FORMAT_Q4_0\n"
SELF_TEST_GO_ISA = "ISAScalar ISA = C.SKN_ISA_SCALAR\nISAAVX2 ISA = C.SKN_ISA_AVX2\n"
SELF_TEST_RUST = "F32 = Format(sys::SKN_FORMAT_F32);\nQ4_0 = Format(sys::SKN_FORMAT_Q4_0);\nsys::SKN_FORMAT_INVALID\n"


def self_test_cases():
    def tree(formats=SELF_TEST_GO_FORMATS, isas=SELF_TEST_GO_ISA, rust=SELF_TEST_RUST):
        return {"include/skn/skn.h": SELF_TEST_HEADER, BINDINGS[0][1]: formats, BINDINGS[1][1]: isas,
                BINDINGS[2][1]: rust}
    return [
        (tree(), None),
        (tree(isas="ISAScalar ISA = C.SKN_ISA_SCALAR\n"), "cpu.go: no constant for SKN_ISA_AVX2"),
        (tree(rust="F32 = Format(sys::SKN_FORMAT_F32);\n"), "format.rs: no constant for SKN_FORMAT_Q4_0"),
        (tree(formats=SELF_TEST_GO_FORMATS + "X Format = C.SKN_FORMAT_Q9_9\n"), "SKN_FORMAT_Q9_9 is not an enumerator"),
    ]


if __name__ == "__main__":
    tree_check.main(check, self_test_cases(), "binding constants")
