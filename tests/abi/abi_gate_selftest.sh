#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Prove the ABI gate (check_abi.sh) fails when it must and passes when it may:
#
#   abi_gate_selftest.sh <libskn.so.1.x.y> <mutant libskn without skn_version>
#                        <libskn with skn_selftest_added@@SKN_1.1>
#
# A baseline is made from the library under test (not the committed one, so
# this test does not depend on it), then compared with:
#   the library itself                          -> pass
#   a real copy linked without skn_version      -> FAIL, incompatible
#   a real copy with skn_selftest_added@@SKN_1.1 -> FAIL without, pass with a CHANGELOG entry
#   + a symbol added to SKN_1.0                 -> FAIL
#   + a symbol added in SKN_1.1, not in the CHANGELOG -> FAIL
#   + a symbol added in SKN_1.1, in the CHANGELOG     -> pass
#   skn_golden_info with two members swapped    -> FAIL
set -euo pipefail
lib="$1"
mutant="$2"
added="$3"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

abidw --no-corpus-path --no-comp-dir-path --no-show-locs --exported-interfaces-only \
      --headers-dir "$root/include/skn" --drop-private-types --type-id-style hash "$lib" > "$t/base.abi"
printf '# Changelog\n\n## 9.9.9\n\n- nothing\n' > "$t/CHANGELOG-without.md"
printf '# Changelog\n\n## 9.9.9\n\n- `skn_selftest_added`: new\n' > "$t/CHANGELOG-with.md"

python3 - "$t" <<'PY'
import re, sys
t = sys.argv[1]
s = open(t + "/base.abi").read()
sym = re.search(r"<elf-symbol name='skn_version' [^>]*/>", s).group(0)
def add(version):
    new = sym.replace("skn_version", "skn_selftest_added").replace("SKN_1.0", version)
    return s.replace(sym, sym + "\n    " + new, 1)
open(t + "/added-1.0.abi", "w").write(add("SKN_1.0"))
open(t + "/added-1.1.abi", "w").write(add("SKN_1.1"))
m = re.search(r"<class-decl name='skn_golden_info'.*?</class-decl>", s, re.S)
block = m.group(0)
swapped = block.replace("name='rows'", "name='@@'").replace("name='cols'", "name='rows'").replace("name='@@'", "name='cols'")
assert swapped != block
open(t + "/swapped.abi", "w").write(s.replace(block, swapped))
PY

GATE="$here/check_abi.sh"
# shellcheck source=selftest_lib.sh
source "$here/selftest_lib.sh"
expect pass "library against its own baseline" "" "$t/base.abi" "$lib"
expect fail "skn_version removed (a real library)" "incompatible" "$t/base.abi" "$mutant"
expect fail "skn_version removed (reported by name)" "skn_version" "$t/base.abi" "$mutant"
expect fail "SKN_1.1 symbol added (a real library), not in the CHANGELOG" "not mentioned" "$t/base.abi" "$added" "$t/CHANGELOG-without.md"
expect pass "SKN_1.1 symbol added (a real library), in the CHANGELOG" "skn_selftest_added@@SKN_1.1" "$t/base.abi" "$added" "$t/CHANGELOG-with.md"
expect fail "symbol added to SKN_1.0" "SKN_1.0" "$t/base.abi" "$t/added-1.0.abi" "$t/CHANGELOG-with.md"
expect fail "symbol added in SKN_1.1, not in the CHANGELOG" "not mentioned" "$t/base.abi" "$t/added-1.1.abi" "$t/CHANGELOG-without.md"
expect pass "symbol added in SKN_1.1 and in the CHANGELOG" "" "$t/base.abi" "$t/added-1.1.abi" "$t/CHANGELOG-with.md"
expect fail "struct members swapped" "existing interfaces changed" "$t/base.abi" "$t/swapped.abi"
selftest_summary "abi gate"
