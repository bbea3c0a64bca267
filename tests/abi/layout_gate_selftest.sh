#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Prove the layout gate (check_layout.sh) fails when it must and passes when
# it may, on a copy of this library's own fingerprints edited in a temp dir:
#
#   layout_gate_selftest.sh <layout_fingerprints program>
set -euo pipefail
program="$1"
here="$(cd "$(dirname "$0")" && pwd)"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# SKN_EMULATOR: a command to run the program with (a cross build's qemu);
# check_layout.sh reads it too.
read -r -a emulator <<< "${SKN_EMULATOR:-}"
"${emulator[@]}" "$program" > "$t/recorded.txt"
version=$(awk '$1 == "version" {print $2}' "$t/recorded.txt")
# The recorded file with one hash changed (Q4_K, kernel order, golden bytes).
sed 's/^\(Q4_K INPUT_BLOCK_MAJOR golden_packed fnv1a64:\).*/\10123456789abcdef/' "$t/recorded.txt" > "$t/mutated.txt"
cmp -s "$t/recorded.txt" "$t/mutated.txt" && { echo "SELFTEST FAIL: could not mutate"; exit 1; }
# A row-interleaved format's bytes are guarded the same way (Q4_0_R8, its tagged grid).
sed 's/^\(Q4_0_R8 ROW_MAJOR tagged_4x3 fnv1a64:\).*/\10123456789abcdef/' "$t/recorded.txt" > "$t/mutated-r8.txt"
cmp -s "$t/recorded.txt" "$t/mutated-r8.txt" && { echo "SELFTEST FAIL: no Q4_0_R8 line to mutate"; exit 1; }
# ... recorded with an older version (0.0.0: another major.minor); and with a
# line missing, as if Q8_0's fingerprints were new.
sed 's/^version .*/version 0.0.0/' "$t/mutated.txt" > "$t/mutated-old.txt"
grep -v '^Q8_0 ROW_MAJOR tagged_4x3 ' "$t/recorded.txt" > "$t/missing.txt"
grep -v '^Q8_0 ROW_MAJOR tagged_4x3 ' "$t/mutated-old.txt" > "$t/mutated-old-missing.txt"
printf '# Changelog\n\n## %s\n\n- Q4_K INPUT_BLOCK_MAJOR: blocks regrouped\n- Q8_0: added, ROW_MAJOR and INPUT_BLOCK_MAJOR\n' \
  "$version" > "$t/CHANGELOG-names.md"
printf '# Changelog\n\n## %s\n\n- Q4_K changed\n' "$version" > "$t/CHANGELOG-vague.md"

GATE="$here/check_layout.sh"
# shellcheck source=selftest_lib.sh
source "$here/selftest_lib.sh"
expect pass "unchanged fingerprints" "" "$t/recorded.txt" "$program" "$t/CHANGELOG-names.md"
expect fail "one hash changed, same version" "Q4_K INPUT_BLOCK_MAJOR golden_packed" \
  "$t/mutated.txt" "$program" "$t/CHANGELOG-names.md"
expect fail "an interleaved format's hash changed, same version" "Q4_0_R8 ROW_MAJOR tagged_4x3" \
  "$t/mutated-r8.txt" "$program" "$t/CHANGELOG-names.md"
expect fail "one hash changed, older minor, CHANGELOG silent on the order" "does not name Q4_K" \
  "$t/mutated-old.txt" "$program" "$t/CHANGELOG-vague.md"
expect pass "one hash changed, older minor, CHANGELOG names format and order" "" \
  "$t/mutated-old.txt" "$program" "$t/CHANGELOG-names.md"
expect fail "a line missing (a new format), same version" "MISSING" "$t/missing.txt" "$program" "$t/CHANGELOG-names.md"
expect pass "a line missing and one changed, older minor, CHANGELOG names both" "" \
  "$t/mutated-old-missing.txt" "$program" "$t/CHANGELOG-names.md"
selftest_summary "layout gate"
