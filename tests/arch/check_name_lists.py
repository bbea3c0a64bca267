#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The facts about formats live in one table (src/formats/facts.hpp) and the
# facts about ISA tiers in another (src/runtime/isa_table.def); everything
# else reads them (docs/architecture.md). This check fails when code keeps a
# list of its own instead, which a new format or tier would have to find and
# edit. In every source file of src/, capi/ and tools/ (comments left out)
# other than the two tables, it looks for
#
#   * a brace-enclosed list with no ';' inside (an initializer list) whose
#     top-level elements are, bare, three or more distinct names of one
#     table: FormatId::X, SKN_FORMAT_X, or a string literal that is a
#     format's name in any case; SKN_ISA_X, or a string literal that is a
#     tier's name;
#   * a switch statement whose case labels name three or more distinct
#     members of one table.
#
# A row that pairs a name with something else (a kernel family's
# {format, tier, function} registration rows, the format table's codec rows)
# is not a list of names. A list that is a choice rather than a restated
# fact (a policy copied from llama-quantize, a command's defaults) is named
# in ALLOWED with its reason and its exact names: when it changes, this
# check asks again.
#
#   check_name_lists.py ROOT          check the tree at ROOT
#   check_name_lists.py --self-test   made-up files: each kind of list must
#                                     be found, and rows and pairs must not
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import tree_check  # noqa: E402  (tests/arch/tree_check.py)

TABLES = ("src/formats/facts.hpp", "src/runtime/isa_table.def")
SOURCE_SUFFIXES = {".hpp", ".cpp", ".inc", ".def", ".h", ".c"}
ALLOWED = {
    ("tools/skn/bench.c", "format", ("BF16", "IQ4_NL", "MXFP4", "Q4_0", "Q4_K", "Q6_K", "Q8_0", "TQ2_0")):
        "skn bench's default formats: a choice of what to measure",
    ("tools/skn/quant_rules.c", "format", ("IQ1_M", "IQ1_S", "IQ2_S", "IQ2_XS", "IQ2_XXS", "IQ3_S", "IQ3_XXS",
                                           "IQ4_XS")):
        "llama-quantize's fallback when a row is not block-aligned (a policy skn follows)",
    ("tools/skn/quant_rules.c", "format", ("Q2_0", "Q2_K", "Q3_K", "TQ1_0", "TQ2_0")):
        "llama-quantize's fallback when a row is not block-aligned (a policy skn follows)",
    ("tools/skn/quant_rules.c", "format", ("IQ1_M", "IQ1_S", "IQ2_S", "IQ2_XS", "IQ2_XXS", "IQ3_XXS")):
        "the types llama-quantize refuses to write without an imatrix (a policy, wider than the formats "
        "whose quantizer needs importance)",
}


def table_names(root):
    facts = (root / TABLES[0]).read_text(encoding="utf-8")
    formats = {name.upper() for name in re.findall(r'\{FormatId::\w+,\s*"(\w+)"', facts)}
    rows = re.findall(r"^SKN_ISA_ROW\(\s*SKN_ISA_(\w+)\s*,\s*(\w+)\s*,", (root / TABLES[1]).read_text(encoding="utf-8"),
                      re.M)
    return formats, {e for e, _ in rows}, {w for _, w in rows}


def strip_comments(text):
    # Keeps line numbers and string literals (a "//" inside a string is rare
    # enough in these files to ignore).
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def top_level_elements(body):
    parts, depth, cur = [], 0, ""
    for ch in body:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [p.strip() for p in parts]


def name_of(element, names):
    formats, isa_enums, isa_words = names
    m = re.fullmatch(r"(?:FormatId::|SKN_FORMAT_)(\w+)", element)
    if m and m.group(1) in formats:
        return ("format", m.group(1))
    m = re.fullmatch(r"SKN_ISA_(\w+)", element)
    if m and m.group(1) in isa_enums:
        return ("ISA", m.group(1))
    m = re.fullmatch(r'"(\w+)"', element)
    if m and m.group(1).upper() in formats:
        return ("format", m.group(1).upper())
    if m and m.group(1) in isa_words:
        return ("ISA", m.group(1).upper())
    return None


def lists_in(text, names):
    """(line, 'list' or 'switch', 'format' or 'ISA', sorted names) of each
    hand-kept list in `text`."""
    found, open_at = [], []
    for m in re.finditer(r"[{}]", text):
        if m.group(0) == "{":
            open_at.append(m.start())
            continue
        if not open_at:
            continue
        start = open_at.pop()
        body = text[start + 1:m.start()]
        before = text[max(0, start - 400):start]
        if re.search(r"\bswitch\s*\((?:[^()]|\([^()]*\))*\)\s*$", before):
            kind, named = "switch", {name_of(c, names) for c in re.findall(r"\bcase\s+([\w:]+)\s*:", body)}
        elif ";" not in body:
            kind, named = "list", {name_of(e, names) for e in top_level_elements(body)}
        else:
            continue
        for what in ("format", "ISA"):
            members = tuple(sorted(n for w, n in named - {None} if w == what))
            if len(members) >= 3:
                found.append((text.count("\n", 0, start) + 1, kind, what, members))
    return found


def check(root):
    names = table_names(root)
    errors = []
    for folder in ("src", "capi", "tools"):
        for path in sorted(p for p in (root / folder).rglob("*") if p.is_file() and p.suffix in SOURCE_SUFFIXES):
            rel = path.relative_to(root).as_posix()
            if rel in TABLES:
                continue
            for line, kind, what, members in lists_in(strip_comments(path.read_text(encoding="utf-8")), names):
                if (rel, what, members) in ALLOWED:
                    continue
                table = TABLES[0] if what == "format" else TABLES[1]
                errors.append(f"{rel}:{line}: a {kind} of {len(members)} {what} names ({', '.join(members)}) "
                              f"restates {table}: derive it from the table (or, for a choice rather than a "
                              f"fact, name it in tests/arch/check_name_lists.py's ALLOWED with its reason)")
    return errors


SELF_TEST_FACTS = ('constexpr FormatFacts kFormatFacts[] = {\n  {FormatId::F32, "F32", 1},\n'
                   '  {FormatId::Q4_0, "Q4_0", 32},\n  {FormatId::Q8_0, "Q8_0", 32},\n'
                   '  {FormatId::Q4_K, "Q4_K", 256},\n};\n')
SELF_TEST_ISA = ('SKN_ISA_ROW(SKN_ISA_SCALAR, scalar, any, 0, "", true)\n'
                 'SKN_ISA_ROW(SKN_ISA_AVX2, avx2, x86_64, 1, "", f.avx2)\n'
                 'SKN_ISA_ROW(SKN_ISA_AVX512, avx512, x86_64, 2, "", f.avx512f)\n')
SELF_TEST_CASES = [
    ("constexpr FormatId kMine[] = {FormatId::Q4_0, FormatId::Q8_0, FormatId::Q4_K};", "list of 3 format"),
    ('static const char* fmts[] = {"q4_0", "Q8_0", "q4_k"};', "list of 3 format"),
    ("for (skn_format f : {SKN_FORMAT_F32, SKN_FORMAT_Q4_0, SKN_FORMAT_Q8_0}) use(f);", "list of 3 format"),
    ("static const skn_isa t[] = {SKN_ISA_SCALAR, SKN_ISA_AVX2, SKN_ISA_AVX512};", "list of 3 ISA"),
    ('const char* w[] = {"scalar", "avx2", "avx512"};', "list of 3 ISA"),
    ("int f(FormatId id) {\n switch (id) {\n  case FormatId::Q4_0: return 1;\n  case FormatId::Q8_0: return 2;\n"
     "  case FormatId::Q4_K: return 3;\n  default: return 0;\n }\n}", "switch of 3 format"),
    # Rows pairing a name with something else, and two names, pass.
    ("const Row rows[] = {\n {FormatId::Q4_0, f1},\n {FormatId::Q8_0, f2},\n {FormatId::Q4_K, f3},\n};", None),
    ("const Tier t[] = {{SKN_ISA_AVX2, a}, {SKN_ISA_AVX512, b}, {SKN_ISA_SCALAR, c}};", None),
    ("constexpr FormatId kTwo[] = {FormatId::Q4_0, FormatId::Q8_0};", None),
    ("void g() { use(FormatId::Q4_0); use(FormatId::Q8_0); use(FormatId::Q4_K); }", None),
    ("/* {FormatId::Q4_0, FormatId::Q8_0, FormatId::Q4_K} in a comment */", None),
]


def self_test_cases():
    return [({TABLES[0]: SELF_TEST_FACTS, TABLES[1]: SELF_TEST_ISA, "src/x/a.cpp": text}, want)
            for text, want in SELF_TEST_CASES]


if __name__ == "__main__":
    tree_check.main(check, self_test_cases(), "hand-kept name lists")
