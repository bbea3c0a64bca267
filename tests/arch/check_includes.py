#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The include graph of docs/architecture.md, checked over every #include "..."
# line: dependencies point one way, so that dispatch knows no kernel family,
# no kernel knows the C API, and adding a format or a tier touches only the
# folders that implement it. Prints every violation; exits 1 if there is one.
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
src = root / "src"
include_re = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
LOW_FOLDERS = ("formats", "layout", "runtime", "trace", "gguf", "imatrix", "fixtures")
ISA_FACING_ALLOWED = ("formats/facts.hpp", "skn/skn.h")
TIER_SOURCE = re.compile(r"^(avx|neon|sve)[a-z0-9]*\.cpp$|\.inc$")


def includes(path):
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        m = include_re.match(line)
        if m:
            yield n, m.group(1)


def kernel_parts(rel):
    """('x86_64', 'q32') for src/kernels/x86_64/q32/..., else None (kernels/ref, kernels/common too)."""
    p = rel.parts
    if len(p) >= 4 and p[0] == "kernels" and p[1] not in ("ref", "common"):
        return p[1], p[2]
    return None


def shared_kernel_header(rel):
    """Whether rel is an ISA-facing header of src/kernels/common/, which every
    architecture's tier sources may include (its registration.hpp is not)."""
    return rel.parts[:2] == ("kernels", "common") and rel.suffix == ".hpp" and rel.name != "registration.hpp"


errors = []
for path in sorted(list(src.rglob("*.hpp")) + list(src.rglob("*.cpp")) + list(src.rglob("*.inc"))):
    rel = path.relative_to(src)
    top = rel.parts[0]
    kp = kernel_parts(rel)
    # Headers an ISA translation unit reads: its tier sources, bodies, family
    # interface and the architecture's common helpers.
    isa_facing = kp is not None and (TIER_SOURCE.search(rel.name) or rel.name == "kernels.hpp" or (kp[1] == "common" and rel.suffix == ".hpp"
                                                                                                    and rel.name != "registration.hpp")
                                     or rel.name == "decode.hpp")
    for n, inc in includes(path):
        where = f"src/{rel}:{n}: #include \"{inc}\""
        if top == "dispatch" and inc.startswith("kernels/"):
            errors.append(f"{where}: dispatch must not know a kernel provider or family")
        if top in LOW_FOLDERS and (inc.startswith("dispatch/") or inc.startswith("kernels/")):
            errors.append(f"{where}: {top}/ sits below dispatch and the kernels")
        if top == "kernels" and inc.startswith("capi/"):
            errors.append(f"{where}: a kernel must not include the C API")
        if rel.parts[:2] == ("kernels", "ref") and inc.startswith("kernels/") and not inc.startswith("kernels/ref/"):
            errors.append(f"{where}: the reference provider must not know an architecture")
        if kp is not None and inc.startswith("kernels/"):
            arch, family = kp
            own = (f"kernels/{arch}/{family}/", f"kernels/{arch}/common/", "kernels/common/")
            if not inc.startswith(own) and family != "common":
                errors.append(f"{where}: family {arch}/{family} may include only its own folder, {arch}/common "
                              "and kernels/common")
        shared = rel.parts[:2] == ("kernels", "common")
        if shared and inc.startswith("kernels/") and not inc.startswith("kernels/common/"):
            errors.append(f"{where}: kernels/common is shared by every architecture and knows none")
        if shared_kernel_header(rel) and not (inc.startswith("kernels/common/") or inc in ISA_FACING_ALLOWED):
            errors.append(f"{where}: code built with ISA flags reads only kernels/common "
                          f"and {', '.join(ISA_FACING_ALLOWED)}")
        if (isa_facing or shared_kernel_header(rel)) and inc.endswith("/common/registration.hpp"):
            errors.append(f"{where}: the registration helpers (dispatch) are for register.cpp, built without ISA flags")
        if isa_facing and not (inc.startswith((f"kernels/{kp[0]}/", "kernels/common/")) or inc in ISA_FACING_ALLOWED):
            errors.append(f"{where}: code built with ISA flags reads only its family, {kp[0]}/common, "
                          f"kernels/common and {', '.join(ISA_FACING_ALLOWED)}")

for path in sorted((root / "capi").rglob("*.[ch]pp")):
    for n, inc in includes(path):
        if inc.startswith("kernels/"):
            errors.append(f"capi/{path.relative_to(root / 'capi')}:{n}: #include \"{inc}\": the C API reaches kernels through dispatch")

for path in sorted((root / "tools").rglob("*.[ch]")):
    for n, inc in includes(path):
        if not inc.startswith("skn/") and "/" in inc:
            errors.append(f"tools/{path.relative_to(root / 'tools')}:{n}: #include \"{inc}\": tools use the public C API only")

for e in errors:
    print(e)
print(f"include graph: {len(errors)} violation(s)")
sys.exit(1 if errors else 0)
