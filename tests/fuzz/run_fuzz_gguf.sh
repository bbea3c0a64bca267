#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build the GGUF fuzz target with clang (ASan + UBSan + libFuzzer) in its own
# build directory, write the seed corpus, and fuzz for a while.
#
#   tests/fuzz/run_fuzz_gguf.sh [SECONDS]        (default 60)
#
# Environment: SKN_FUZZ_BUILD_DIR (default build/fuzz), SKN_FUZZ_JOBS
# (parallel fuzzing processes, default 1), SKN_FUZZ_ARGS (extra libFuzzer
# flags). The corpus grown by earlier runs is kept in $SKN_FUZZ_BUILD_DIR/corpus
# and reused. Exits non-zero when the fuzzer finds a crash, leak or timeout;
# the reproducer is left in $SKN_FUZZ_BUILD_DIR/artifacts.
#
# The committed corpus, tests/fuzz/corpus (minimized), is replayed first
# (-runs=0: every input once, no mutation) and then seeds the bounded run;
# ctest replays it too, in every build, through tests/fuzz/replay_corpus.cpp.
# To refresh it after a long run, merge what that run found into it:
#   build/fuzz/tests/fuzz/fuzz_gguf -merge=1 tests/fuzz/corpus build/fuzz/corpus
set -euo pipefail
seconds="${1:-60}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${SKN_FUZZ_BUILD_DIR:-$root/build/fuzz}"
jobs="${SKN_FUZZ_JOBS:-1}"
sanitize="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"

cmake -S "$root" -B "$build" -G Ninja \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSKN_BUILD_FUZZ=ON -DSKN_BUILD_BENCH=OFF -DSKN_BUILD_TOOLS=OFF \
  -DCMAKE_C_FLAGS="$sanitize" -DCMAKE_CXX_FLAGS="$sanitize" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build "$build" --target fuzz_gguf make_gguf_seeds

seeds="$build/seeds"
corpus="$build/corpus"
artifacts="$build/artifacts"
mkdir -p "$seeds" "$corpus" "$artifacts"
"$build/tests/fuzz/make_gguf_seeds" "$seeds"

common=(-max_len=65536 -timeout=10 -rss_limit_mb=1024 -malloc_limit_mb=512)
replay_start=$(date +%s)
"$build/tests/fuzz/fuzz_gguf" "${common[@]}" -runs=0 -artifact_prefix="$artifacts/" "$root/tests/fuzz/corpus"
echo "run_fuzz_gguf: committed corpus replayed in $(( $(date +%s) - replay_start )) s"

parallel=()
if [ "$jobs" -gt 1 ]; then parallel=(-jobs="$jobs" -workers="$jobs"); fi

# -rss_limit_mb/-malloc_limit_mb: a hostile count must fail fast, never turn
# into a large allocation, so a modest limit is itself a check.
exec "$build/tests/fuzz/fuzz_gguf" \
  -max_total_time="$seconds" \
  -max_len=65536 \
  -timeout=10 \
  -rss_limit_mb=1024 \
  -malloc_limit_mb=512 \
  -dict="$root/tests/fuzz/gguf.dict" \
  -artifact_prefix="$artifacts/" \
  "${parallel[@]}" \
  -print_final_stats=1 \
  ${SKN_FUZZ_ARGS:-} \
  "$corpus" "$root/tests/fuzz/corpus" "$seeds"
