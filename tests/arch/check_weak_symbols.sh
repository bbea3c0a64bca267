#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# No object compiled with ISA flags may define a weak symbol. An inline
# function or template instantiated in such an object is emitted weak (COMDAT);
# the linker keeps one copy of each, and if it keeps the AVX-512 one, code that
# runs on every CPU calls AVX-512 instructions. Helpers in ISA objects must be
# static, in an anonymous namespace, or always inlined.
# Usage: check_weak_symbols.sh <nm> <object>...
set -euo pipefail
nm_tool=$1
shift
bad=0
for obj in "$@"; do
    if [[ ! -f $obj ]]; then
        echo "missing object: $obj"
        bad=1
        continue
    fi
    # W/V: weak function/object defined here; u: GNU unique global (also merged
    # by the linker). DW.ref.__gxx_personality_v0 is exempt: a data word
    # holding the address of the C++ personality routine, identical in every
    # object that has unwind tables (sanitizer builds give kernels some), no code.
    weak=$("$nm_tool" --defined-only -C "$obj" | awk '$2 ~ /^[WVu]$/ && $3 != "DW.ref.__gxx_personality_v0" { $1 = ""; print }')
    if [[ -n $weak ]]; then
        echo "$obj defines weak symbols:"
        echo "$weak" | sed 's/^/    /'
        bad=1
    fi
done
echo "checked $# ISA object(s)"
exit $bad
