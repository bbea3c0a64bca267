#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The ABI gate: compare the committed baseline (capi/abi/libskn.abi, abidw's
# description of the released 1.x ABI) with a built libskn.
#
#   check_abi.sh <baseline.abi> <libskn.so.1 | other.abi> [CHANGELOG.md]
#
# abidiff's exit status is a bit mask:
#   1 tool error, 2 usage error                  -> FAIL (the check could not run)
#   8 incompatible change (a symbol removed, ...) -> FAIL
#   4 ABI change                                  -> PASS only if it consists
#     of added symbols alone, and every added symbol
#       - carries a version node newer than SKN_1.0 (@@SKN_1.1 or later, as
#         nm -D shows it for a built library: a symbol added to SKN_1.0 would
#         let a binary needing it pass the loader's version check on 1.0), and
#       - is named in CHANGELOG.md.
#     Any change to an existing function's or variable's types (a struct
#     reordered, a parameter changed) fails: libskn.so.1 keeps the 1.0 ABI.
#   0 no change                                   -> PASS
set -euo pipefail
export LC_ALL=C
baseline="$1"
lib="$2"
root="$(cd "$(dirname "$0")/../.." && pwd)"
changelog="${3:-$root/CHANGELOG.md}"
headers="$root/include/skn"

command -v abidiff > /dev/null || { echo "FAIL: abidiff not found (apt-get install abigail-tools)"; exit 1; }
[ -f "$baseline" ] || { echo "FAIL: no baseline at $baseline (scripts/update-abi-baseline writes it)"; exit 1; }
[ -f "$lib" ] || { echo "FAIL: no library at $lib"; exit 1; }

hd2=()
case "$lib" in *.abi) ;; *) hd2=(--headers-dir2 "$headers" --drop-private-types --exported-interfaces-only) ;; esac
report=$(mktemp)
trap 'rm -f "$report"' EXIT
set +e
abidiff "${hd2[@]}" "$baseline" "$lib" > "$report" 2>&1
status=$?
set -e

if [ "$status" -eq 0 ]; then
  echo "OK: the ABI of $(basename "$lib") equals the baseline $(basename "$baseline")"
  exit 0
fi
cat "$report"
if (( status & 3 )); then
  echo "FAIL: abidiff could not compare (exit status $status: bit 1 = tool error, bit 2 = usage error)"
  exit 1
fi
if (( status & 8 )); then
  echo "FAIL: incompatible ABI change (abidiff exit status $status): libskn.so.1 must keep every 1.0 symbol and type"
  exit 1
fi
if (( status != 4 )); then
  echo "FAIL: unexpected abidiff exit status $status"
  exit 1
fi

# Status 4: only additions are acceptable.
changed=$(awk '/changes summary:/ {
    for (i = 1; i <= NF; ++i) if ($i ~ /^(Changed|Removed)/ && $(i-1) + 0 > 0) print $0 }' "$report")
if [ -n "$changed" ]; then
  echo "FAIL: existing interfaces changed:"
  echo "$changed" | sed 's/^/  /'
  echo "      An existing function's or type's ABI may not change within libskn.so.1. If this is a"
  echo "      deliberate, compatible change (a field appended to a struct_size struct), review the"
  echo "      report above and regenerate the baseline: scripts/update-abi-baseline (docs/c-api.md)."
  exit 1
fi

# Added symbols appear as "[A] 'function ...'    {name@@VERSION}" (with debug
# info) or "[A] name@@VERSION" (symbols only).
added=$(grep -E '^\s*\[A\]' "$report" | grep -oE '[A-Za-z_][A-Za-z0-9_]*@@?[A-Za-z0-9_.]+' | sort -u || true)
if [ -z "$added" ]; then
  echo "FAIL: abidiff reports an ABI change (status 4) that is neither an addition nor a listed change"
  exit 1
fi
bad=0
while read -r entry; do
  name="${entry%%@*}"
  version="${entry##*@}"
  if [ "${#hd2[@]}" -gt 0 ]; then
    # A built library: its dynamic symbol table is the authority on the node.
    dyn=$(nm -D --defined-only "$lib" | awk -v n="$name" '{split($3, a, "@"); if (a[1] == n) print $3}')
    case "$dyn" in
      "$name"@@*) version="${dyn##*@}" ;;
      *) echo "FAIL: $name is not a default-versioned dynamic symbol of $(basename "$lib") ('$dyn')"; bad=1 ;;
    esac
  fi
  case "$version" in
    SKN_1.0) echo "FAIL: $name was added to version node SKN_1.0: new symbols go into a new node"
             echo "      (SKN_1.1 { global: $name; } SKN_1.0; in capi/libskn.map)"
             bad=1 ;;
    SKN_[0-9]*.[0-9]*) ;;
    *) echo "FAIL: $name carries version '$version', not an SKN_1.x node"; bad=1 ;;
  esac
  if ! grep -qw -- "$name" "$changelog"; then
    echo "FAIL: $name is not mentioned in $(basename "$changelog")"
    bad=1
  fi
done <<< "$added"
if [ "$bad" -eq 0 ]; then
  echo "OK: additions only, each in a new version node and in the CHANGELOG: $(echo "$added" | tr '\n' ' ')"
fi
exit $bad
