#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every dynamic symbol libskn defines must be skn_* and carry @@SKN_1.x: a
# leaked libxsmm_/cpu_features/C++ symbol would become ABI we never meant to
# promise, and an unversioned one would defeat dlvsym-based consumers.
set -euo pipefail
lib="$1"
syms=$(nm -D --defined-only "$lib" | awk '{print $3}')
if [ -z "$syms" ]; then echo "FAIL: $lib defines no dynamic symbols"; exit 1; fi
bad=0
count=0
while read -r s; do
  case "$s" in
    SKN_1.*) ;;  # the version-node definitions themselves
    skn_*@@SKN_1.[0-9]*) count=$((count + 1)) ;;
    *) echo "FAIL: unexpected exported symbol: $s"; bad=1 ;;
  esac
done <<< "$syms"
if [ "$count" -lt 10 ]; then echo "FAIL: only $count versioned skn_* symbols found"; bad=1; fi
[ "$bad" -eq 0 ] && echo "OK: $count skn_* symbols, all versioned"
exit $bad
