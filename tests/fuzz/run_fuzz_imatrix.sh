#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build the imatrix fuzz target with clang (ASan + UBSan + libFuzzer) in its
# own build directory, write the seeds, replay the committed corpus
# (tests/fuzz/imatrix_corpus) and fuzz for a while.
#
#   tests/fuzz/run_fuzz_imatrix.sh [SECONDS]        (default 60)
#
# Environment as for run_fuzz_gguf.sh: SKN_FUZZ_BUILD_DIR (default
# build/fuzz), SKN_FUZZ_ARGS. The grown corpus is kept in
# $SKN_FUZZ_BUILD_DIR/imatrix_corpus; reproducers go to
# $SKN_FUZZ_BUILD_DIR/imatrix_artifacts. To refresh the committed corpus:
#   build/fuzz/tests/fuzz/fuzz_imatrix -merge=1 tests/fuzz/imatrix_corpus build/fuzz/imatrix_corpus
set -euo pipefail
seconds="${1:-60}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${SKN_FUZZ_BUILD_DIR:-$root/build/fuzz}"
sanitize="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"

cmake -S "$root" -B "$build" -G Ninja \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSKN_BUILD_FUZZ=ON -DSKN_BUILD_BENCH=OFF -DSKN_BUILD_TOOLS=OFF \
  -DCMAKE_C_FLAGS="$sanitize" -DCMAKE_CXX_FLAGS="$sanitize" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build "$build" --target fuzz_imatrix make_imatrix_seeds

seeds="$build/imatrix_seeds"
corpus="$build/imatrix_corpus"
artifacts="$build/imatrix_artifacts"
mkdir -p "$seeds" "$corpus" "$artifacts"
"$build/tests/fuzz/make_imatrix_seeds" "$seeds"

limits=(-max_len=16384 -timeout=10 -rss_limit_mb=1024 -malloc_limit_mb=512)
"$build/tests/fuzz/fuzz_imatrix" "${limits[@]}" -runs=0 -artifact_prefix="$artifacts/" "$root/tests/fuzz/imatrix_corpus"
exec "$build/tests/fuzz/fuzz_imatrix" "${limits[@]}" -max_total_time="$seconds" \
  -artifact_prefix="$artifacts/" -print_final_stats=1 ${SKN_FUZZ_ARGS:-} \
  "$corpus" "$root/tests/fuzz/imatrix_corpus" "$seeds"
