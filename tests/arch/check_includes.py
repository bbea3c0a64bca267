#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The include graph of docs/architecture.md, checked over every #include "..."
# line of src/, capi/ and tools/: dependencies point one way, so that
# dispatch knows no kernel family, no kernel knows the C API, and adding a
# format or a tier touches only the folders that implement it. Prints every
# violation; exits 1 if there is one.
#
#   check_includes.py ROOT          check the tree at ROOT
#   check_includes.py --self-test   check small made-up trees, one per rule:
#                                   each must fail with its message, and a
#                                   clean one must pass
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import tree_check  # noqa: E402  (tests/arch/tree_check.py)

# The folders of src/, bottom to top: the one list the arrows are derived
# from. A file may include its own folder and the folders of lower layers;
# the folders of one layer include neither each other nor anything above.
LAYERS = [
    ("runtime",),            # threads, logging, errors, CPU detection, the ISA table
    ("formats",),            # format facts, codecs, the format table, the orientation guard
    ("trace",),              # the trace sink (knows no format, layout or kernel)
    ("layout",),             # shapes, block orders, views, scopes, prepack
    ("gguf", "fixtures"),    # the GGUF reader and writer; fixtures over layout
    ("imatrix",),            # importance matrices, read over gguf
    ("dispatch",),           # the kernel interface, the registry, matmul_wt
    ("kernels",),            # the providers that implement the interface
]
LAYER_OF = {folder: i for i, layer in enumerate(LAYERS) for folder in layer}
PUBLIC = "skn/"                                     # include/skn: anyone may include it
ISA_FACING_ALLOWED = ("formats/facts.hpp", "skn/skn.h")
SHARED_KERNELS = "kernels/common/"                  # plain structs and drivers shared by every arch
include_re = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SOURCE_SUFFIXES = {".hpp", ".cpp", ".inc", ".def", ".h", ".c"}


def isa_names(root):
    """The tier names of src/runtime/isa_table.def (avx2, neondotprod, ...)."""
    table = (root / "src" / "runtime" / "isa_table.def").read_text(encoding="utf-8")
    return [m.group(1) for m in re.finditer(r"^SKN_ISA_ROW\(\s*\w+\s*,\s*(\w+)\s*,", table, re.M)
            if m.group(1) != "scalar"]


def includes(path):
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        m = include_re.match(line)
        if m:
            yield n, m.group(1)


def kernel_place(rel):
    """Where a file under src/kernels sits: ('shared',) for kernels/common/,
    ('ref',), ('arch', arch) for kernels/<arch>/<file>, ('family', arch,
    family) for kernels/<arch>/<family>/... (family 'common' included)."""
    p = rel.parts
    if p[1] == "common":
        return ("shared",)
    if p[1] == "ref":
        return ("ref",)
    if len(p) == 3:
        return ("arch", p[1])
    return ("family", p[1], p[2])


def is_tier_source(name, tiers):
    stem = name.rsplit(".", 1)[0]
    return name.endswith(".inc") or (name.endswith(".cpp") and any(stem == t or stem.startswith(t + "_")
                                                                   for t in tiers))


def check_src(src, tiers):
    errors = []
    for path in sorted(p for p in src.rglob("*") if p.is_file() and p.suffix in SOURCE_SUFFIXES):
        rel = path.relative_to(src)
        top = rel.parts[0]
        if top not in LAYER_OF:
            errors.append(f"src/{rel}: folder src/{top}/ is not in tests/arch/check_includes.py's LAYERS "
                          f"(add it where docs/architecture.md puts it)")
            continue
        place = kernel_place(rel) if top == "kernels" else None
        # What an ISA translation unit reads: tier sources, bodies, a family's
        # interface, the shared and per-arch common headers (not the
        # registration helpers, which are for register.cpp).
        isa_facing = place is not None and place[0] in ("shared", "family") and (
            is_tier_source(rel.name, tiers) or rel.name in ("kernels.hpp", "decode.hpp")
            or (place[0] in ("shared", "family") and (place[0] == "shared" or place[2] == "common")
                and rel.suffix == ".hpp" and rel.name != "registration.hpp"))
        for n, inc in includes(path):
            where = f"src/{rel}:{n}: #include \"{inc}\""
            if inc.startswith(PUBLIC):
                continue
            target = inc.split("/", 1)[0]
            if target not in LAYER_OF:
                if "/" not in inc and (path.parent / inc).exists():
                    errors.append(f"{where}: name the folder (\"{top}/...\"), as every include does")
                else:
                    errors.append(f"{where}: {target}/ is no folder of src/ (LAYERS) nor skn/")
                continue
            if target != top and LAYER_OF[target] >= LAYER_OF[top]:
                if LAYER_OF[target] == LAYER_OF[top]:
                    errors.append(f"{where}: {top}/ and {target}/ are one layer (docs/architecture.md): "
                                  f"neither includes the other")
                else:
                    errors.append(f"{where}: {top}/ sits below {target}/ (docs/architecture.md: "
                                  f"{' <- '.join('/'.join(l) for l in LAYERS)})")
            if place is None or not inc.startswith("kernels/"):
                pass
            elif place[0] == "shared" and not inc.startswith(SHARED_KERNELS):
                errors.append(f"{where}: kernels/common/ is shared by every architecture: it includes no provider")
            elif place[0] == "ref" and not inc.startswith(("kernels/ref/", SHARED_KERNELS)):
                errors.append(f"{where}: the reference provider must not know an architecture")
            elif place[0] == "arch" and not inc.startswith((f"kernels/{place[1]}/", SHARED_KERNELS)):
                errors.append(f"{where}: provider {place[1]} includes no other architecture")
            elif place[0] == "family":
                arch, family = place[1], place[2]
                own = (f"kernels/{arch}/{family}/", f"kernels/{arch}/common/", SHARED_KERNELS)
                if not inc.startswith(own):
                    errors.append(f"{where}: family {arch}/{family} may include only its own folder, "
                                  f"{arch}/common and kernels/common")
            if isa_facing and inc.endswith("/common/registration.hpp"):
                errors.append(f"{where}: the registration helpers (dispatch) are for register.cpp, "
                              f"built without ISA flags")
            elif isa_facing:
                arch_prefix = f"kernels/{place[1]}/" if place[0] == "family" else SHARED_KERNELS
                if not (inc.startswith((arch_prefix, SHARED_KERNELS)) or inc in ISA_FACING_ALLOWED):
                    errors.append(f"{where}: code built with ISA flags reads only its family, its "
                                  f"architecture's common/, kernels/common/ and {', '.join(ISA_FACING_ALLOWED)}")
    return errors


def check(root):
    errors = check_src(root / "src", isa_names(root))
    for path in sorted((root / "capi").rglob("*.[ch]pp")):
        for n, inc in includes(path):
            if inc.startswith("kernels/"):
                errors.append(f"capi/{path.relative_to(root / 'capi')}:{n}: #include \"{inc}\": "
                              f"the C API reaches kernels through dispatch")
    for path in sorted((root / "tools").rglob("*.[ch]")):
        for n, inc in includes(path):
            if not inc.startswith(PUBLIC) and "/" in inc:
                errors.append(f"tools/{path.relative_to(root / 'tools')}:{n}: #include \"{inc}\": "
                              f"tools use the public C API only")
    return errors


# The self-test: (file, its text, the message it must draw, or None for a
# file that must pass). Each case is checked in a tree of its own, beside a
# small ISA table.
ISA_TABLE = ('SKN_ISA_ROW(SKN_ISA_SCALAR, scalar, any, 0, "", true)\n'
             'SKN_ISA_ROW(SKN_ISA_AVX2, avx2, x86_64, 1, "-mavx2", f.avx2)\n'
             'SKN_ISA_ROW(SKN_ISA_NEON, neon, aarch64, 1, "-march=armv8-a", f.neon)\n')
SELF_TEST_CASES = [
    ("src/trace/trace.hpp", '#include "layout/block_order.hpp"', "trace/ sits below layout/"),
    ("src/formats/tensor_codec.cpp", '#include "layout/orientation.hpp"', "formats/ sits below layout/"),
    ("src/runtime/log.cpp", '#include "formats/facts.hpp"', "runtime/ sits below formats/"),
    ("src/gguf/reader.cpp", '#include "fixtures/golden.hpp"', "gguf/ and fixtures/ are one layer"),
    ("src/layout/view.cpp", '#include "dispatch/kernel.hpp"', "layout/ sits below dispatch/"),
    ("src/dispatch/registry.cpp", '#include "kernels/x86_64/q32/kernels.hpp"', "dispatch/ sits below kernels/"),
    ("src/newfolder/a.cpp", '#include "runtime/log.hpp"', "is not in tests/arch/check_includes.py's LAYERS"),
    ("src/layout/view.cpp", '#include "elsewhere/x.hpp"', "elsewhere/ is no folder of src/"),
    ("src/kernels/ref/matmul_wt_ref.cpp", '#include "kernels/x86_64/common/int8_dot.hpp"',
     "the reference provider must not know an architecture"),
    ("src/kernels/x86_64/q32/register.cpp", '#include "kernels/x86_64/superblock/kernels.hpp"',
     "family x86_64/q32 may include only"),
    ("src/kernels/x86_64/common/int8_dot.hpp", '#include "kernels/x86_64/q32/kernels.hpp"',
     "family x86_64/common may include only"),
    ("src/kernels/x86_64/register.cpp", '#include "kernels/aarch64/q32/kernels.hpp"',
     "provider x86_64 includes no other architecture"),
    ("src/kernels/common/row_tiles.hpp", '#include "kernels/x86_64/common/int8_dot.hpp"',
     "kernels/common/ is shared by every architecture"),
    ("src/kernels/common/row_tiles.hpp", '#include "runtime/log.hpp"', "code built with ISA flags reads only"),
    ("src/kernels/x86_64/q32/avx2.cpp", '#include "dispatch/kernel.hpp"', "code built with ISA flags reads only"),
    ("src/kernels/aarch64/q32/neon.cpp", '#include "layout/view.hpp"', "code built with ISA flags reads only"),
    ("src/kernels/x86_64/q32/body.inc", '#include "runtime/log.hpp"', "code built with ISA flags reads only"),
    ("src/kernels/x86_64/q32/avx2.cpp", '#include "kernels/common/registration.hpp"',
     "the registration helpers (dispatch) are for register.cpp"),
    ("src/kernels/x86_64/q32/kernels.hpp", '#include "kernels/common/packed_args.hpp"\n'
     '#include "kernels/common/row_tiles.hpp"\n#include "formats/facts.hpp"\n#include "skn/skn.h"', None),
    ("src/kernels/aarch64/grid/neondotprod.cpp", '#include "kernels/common/row_tiles.hpp"\n'
     '#include "kernels/aarch64/grid/kernels.hpp"', None),
    ("src/kernels/x86_64/q32/register.cpp", '#include "dispatch/registry.hpp"\n'
     '#include "kernels/common/registration.hpp"\n#include "kernels/common/row_tiles.hpp"', None),
    ("src/kernels/common/registration.hpp", '#include "dispatch/registry.hpp"\n'
     '#include "kernels/common/packed_args.hpp"', None),
    ("src/kernels/common/packed_args.hpp", '#include "dispatch/kernel.hpp"', "code built with ISA flags reads only"),
    ("src/layout/prepack.hpp", '#include "trace/trace.hpp"\n#include "formats/format.hpp"', None),
    ("capi/api_matmul.cpp", '#include "kernels/x86_64/q32/kernels.hpp"', "the C API reaches kernels through dispatch"),
    ("tools/skn/main.c", '#include "runtime/log.hpp"', "tools use the public C API only"),
]


def self_test_cases():
    base = {"src/runtime/isa_table.def": ISA_TABLE}
    return [(dict(base, **{path: text}), want) for path, text, want in SELF_TEST_CASES]


if __name__ == "__main__":
    tree_check.main(check, self_test_cases(), "include graph")
