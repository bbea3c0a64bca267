#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# libskn may need the C/C++ runtime and libm, nothing else: fmt and spdlog are
# compiled in header-only, cpu_features and libxsmm are static.
set -euo pipefail
lib="$1"
needed=$(readelf -d "$lib" | awk '/NEEDED/ {gsub(/[\[\]]/, "", $5); print $5}')
bad=0
for n in $needed; do
  case "$n" in
    libstdc++.so.*|libm.so.*|libgcc_s.so.*|libc.so.*|libpthread.so.*|libdl.so.*|librt.so.*|ld-linux*) ;;
    libasan.so.*|libubsan.so.*|libtsan.so.*) ;;  # sanitizer builds only
    *) echo "FAIL: unexpected run-time dependency $n"; bad=1 ;;
  esac
done
soname=$(readelf -d "$lib" | awk '/SONAME/ {print $5}')
case "$soname" in "[libskn.so.1]") ;; *) echo "FAIL: SONAME is $soname, expected libskn.so.1"; bad=1 ;; esac
[ "$bad" -eq 0 ] && echo "OK: needs only: $needed"
exit $bad
