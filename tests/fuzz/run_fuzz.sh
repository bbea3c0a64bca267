#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fuzz one of skn's readers with libFuzzer for a while: build the target
# with clang (ASan + UBSan, coverage on the readers' slice of the core:
# tests/fuzz/CMakeLists.txt; -g1, line tables, enough for a report's stack)
# in its own build directory, write the seeds, replay the committed corpus
# once, then fuzz. (The ASan build cannot hold the targets: it is gcc's, and
# libFuzzer and its coverage instrumentation are clang's.)
#
#   tests/fuzz/run_fuzz.sh TARGET [SECONDS]      TARGET: gguf or imatrix; SECONDS default 60
#
# Environment: SKN_FUZZ_BUILD_DIR (default build/fuzz; one build serves both
# targets), SKN_FUZZ_JOBS (parallel fuzzing processes, default 1),
# SKN_FUZZ_ARGS (extra libFuzzer flags). The corpus grown by earlier runs is
# kept in $SKN_FUZZ_BUILD_DIR/runs/TARGET/corpus and reused. Exits non-zero
# when the fuzzer finds a crash, leak or timeout; the reproducer is left in
# $SKN_FUZZ_BUILD_DIR/runs/TARGET/artifacts.
#
# The committed corpora (tests/fuzz/corpus for gguf, tests/fuzz/imatrix_corpus
# for imatrix; minimized) are replayed by ctest in every build too
# (tests/fuzz/replay_corpus.cpp). To refresh one after a long run, merge what
# the run found into it, e.g.
#   build/fuzz/tests/fuzz/fuzz_gguf -merge=1 tests/fuzz/corpus build/fuzz/runs/gguf/corpus
set -euo pipefail
target="${1:-}"
seconds="${2:-60}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${SKN_FUZZ_BUILD_DIR:-$root/build/fuzz}"
jobs="${SKN_FUZZ_JOBS:-1}"

case "$target" in
  gguf)    committed="$root/tests/fuzz/corpus";         max_len=65536; dict=(-dict="$root/tests/fuzz/gguf.dict") ;;
  imatrix) committed="$root/tests/fuzz/imatrix_corpus"; max_len=16384; dict=() ;;
  *) echo "usage: $0 gguf|imatrix [SECONDS]" >&2; exit 2 ;;
esac

sanitize="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
cmake -S "$root" -B "$build" -G Ninja \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
  -DSKN_BUILD_FUZZ=ON -DSKN_BUILD_BENCH=OFF -DSKN_BUILD_TOOLS=OFF \
  -DCMAKE_C_FLAGS="$sanitize" -DCMAKE_CXX_FLAGS="$sanitize" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build "$build" --target "fuzz_$target" "make_${target}_seeds"

work="$build/runs/$target"
mkdir -p "$work/seeds" "$work/corpus" "$work/artifacts"
"$build/tests/fuzz/make_${target}_seeds" "$work/seeds"

# -rss_limit_mb/-malloc_limit_mb: a hostile count must fail fast, never turn
# into a large allocation, so a modest limit is itself a check.
limits=(-max_len="$max_len" -timeout=10 -rss_limit_mb=1024 -malloc_limit_mb=512 -artifact_prefix="$work/artifacts/")
replay_start=$(date +%s)
"$build/tests/fuzz/fuzz_$target" "${limits[@]}" -runs=0 "$committed"
echo "run_fuzz $target: committed corpus replayed in $(( $(date +%s) - replay_start )) s"

parallel=()
if [ "$jobs" -gt 1 ]; then parallel=(-jobs="$jobs" -workers="$jobs"); fi
exec "$build/tests/fuzz/fuzz_$target" "${limits[@]}" -max_total_time="$seconds" "${dict[@]}" \
  "${parallel[@]}" -print_final_stats=1 ${SKN_FUZZ_ARGS:-} \
  "$work/corpus" "$committed" "$work/seeds"
