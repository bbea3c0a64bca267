#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The layout gate (rule 5 of docs/packed-weight-layout.md: packed byte
# semantics are public API).
#
#   check_layout.sh <recorded fingerprints> <layout_fingerprints program> [CHANGELOG.md]
#
# Runs the program (it prints this library's fingerprints and its version)
# and compares every "<FORMAT> <ORDER> <item> <hash>" line with the recorded
# file. Passes when nothing differs. When lines differ (changed, added or
# removed), it passes only if BOTH
#   1. the library's MAJOR.MINOR differs from the "version" the recorded file
#      was generated with (a byte change is never a patch release), and
#   2. the CHANGELOG section of the library's version ("## X.Y.Z ...") names,
#      on one line, the format and the order of every pair that changed
#      (e.g. "- Q4_K INPUT_BLOCK_MAJOR: ...").
# After such a release, regenerate the file: scripts/update-layout-fingerprints.
set -euo pipefail
export LC_ALL=C
recorded="$1"
program="$2"
changelog="${3:-$(cd "$(dirname "$0")/../.." && pwd)/CHANGELOG.md}"

[ -f "$recorded" ] || { echo "FAIL: no recorded fingerprints at $recorded (run scripts/update-layout-fingerprints)"; exit 1; }
current=$(mktemp)
trap 'rm -f "$current"' EXIT
# SKN_EMULATOR: a command to run the program with (a cross build's qemu).
read -r -a emulator <<< "${SKN_EMULATOR:-}"
if ! "${emulator[@]}" "$program" > "$current"; then echo "FAIL: $program failed"; exit 1; fi

version_of() { awk '$1 == "version" {print $2; exit}' "$1"; }
rec_version=$(version_of "$recorded")
cur_version=$(version_of "$current")
[ -n "$rec_version" ] || { echo "FAIL: $recorded has no 'version' line"; exit 1; }
[ -n "$cur_version" ] || { echo "FAIL: $program printed no 'version' line"; exit 1; }

# Fingerprint lines only, keyed by "FORMAT ORDER item".
entries() { grep -Ev '^(#|version |$)' "$1" | sort; }
changed_pairs=$(join -a1 -a2 -e MISSING -o 0,1.2,2.2 \
    <(entries "$recorded" | awk '{print $1"|"$2"|"$3, $4}' | sort -k1,1) \
    <(entries "$current" | awk '{print $1"|"$2"|"$3, $4}' | sort -k1,1) |
  awk '$2 != $3 {split($1, k, "|"); print k[1], k[2], k[3], $2, "->", $3}')

if [ -z "$changed_pairs" ]; then
  echo "OK: layout fingerprints match ($(entries "$current" | wc -l) lines; recorded with $rec_version, library $cur_version)"
  exit 0
fi

echo "Layout fingerprints differ from $recorded (recorded with $rec_version, library $cur_version):"
echo "$changed_pairs" | sed 's/^/  /'
pairs=$(echo "$changed_pairs" | awk '{print $1, $2}' | sort -u)

mm() { echo "$1" | cut -d. -f1,2; }
bad=0
if [ "$(mm "$rec_version")" = "$(mm "$cur_version")" ]; then
  echo "FAIL: the bytes of the formats/orders above changed, but the version is still $(mm "$cur_version").x."
  echo "      Changing what bytes a format and order hold needs a minor or major version"
  echo "      (rule 5, docs/packed-weight-layout.md). If the change is unintended, it is a bug."
  bad=1
fi

# The CHANGELOG section of the library's version.
section=$(awk -v v="$cur_version" '
  /^## / { insec = (index($0, "## " v) == 1); next }
  insec { print }' "$changelog")
if [ -z "$section" ]; then
  echo "FAIL: $changelog has no section '## $cur_version'"
  bad=1
fi
while read -r fmt order; do
  [ -n "$fmt" ] || continue
  if ! grep -E "(^|[^A-Za-z0-9_])${fmt}([^A-Za-z0-9_]|$)" <<< "$section" | grep -qw -- "$order"; then
    echo "FAIL: CHANGELOG.md section $cur_version does not name $fmt and $order on one line"
    bad=1
  fi
done <<< "$pairs"

if [ "$bad" -eq 0 ]; then
  echo "OK: version $rec_version -> $cur_version and CHANGELOG.md names every changed format and order."
  echo "    Regenerate the recorded file for the release: scripts/update-layout-fingerprints"
fi
exit $bad
