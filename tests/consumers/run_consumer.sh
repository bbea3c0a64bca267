#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build and run one downstream consumer of the INSTALLED skn, the way a user
# of that language would (docs/packaging.md shows the same commands).
#
#   run_consumer.sh <c|cpp|python|rust|go|dlopen|tool> <work-dir>
#
# By default skn is looked up where the Debian packages put it (/usr). With
# SKN_PREFIX set (a `cmake --install --prefix` tree), pkg-config, CMake and
# the dynamic loader are pointed there instead. Nothing is written to the
# source tree: every build product goes to <work-dir>.
#
# Cross consumers (scripts/package-arm64, for c, cpp, dlopen and tool): SKN_CC
# is the C compiler, SKN_CMAKE_TOOLCHAIN_FILE the CMake toolchain of the cpp
# consumer, and SKN_EMULATOR the command that runs what they built (qemu).
set -euo pipefail
lang="$1"
work="$2"
here="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$work"
cc="${SKN_CC:-cc}"
read -r -a emulator <<< "${SKN_EMULATOR:-}"
if [ "${#emulator[@]}" -gt 0 ]; then
  case "$lang" in
    c|cpp|dlopen|tool) ;;
    *) echo "consumer $lang: not supported with SKN_EMULATOR (needs that language's cross toolchain)"; exit 2 ;;
  esac
fi

if [ -n "${SKN_PREFIX:-}" ]; then
  multiarch=$("$cc" -print-multiarch 2>/dev/null || true)
  libdir=""
  for d in "$SKN_PREFIX/lib/$multiarch" "$SKN_PREFIX/lib64" "$SKN_PREFIX/lib"; do
    if [ -e "$d/libskn.so.1" ]; then libdir="$d"; break; fi
  done
  [ -n "$libdir" ] || { echo "no libskn.so.1 under $SKN_PREFIX"; exit 1; }
  export PKG_CONFIG_PATH="$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
  export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export CMAKE_PREFIX_PATH="$SKN_PREFIX${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
  export PATH="$SKN_PREFIX/bin:$PATH"
fi

pkg-config --exists skn || { echo "pkg-config cannot find skn (is libskn-dev installed?)"; exit 1; }
echo "consumer $lang: skn $(pkg-config --modversion skn), libdir $(pkg-config --variable=libdir skn)"

case "$lang" in
  c)
    # Linked by the C driver: no C++ runtime is named by the consumer itself.
    # shellcheck disable=SC2046
    "$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror -o "$work/consumer_c" "$here/c/consumer.c" \
      $(pkg-config --cflags --libs skn)
    needed=$(readelf -d "$work/consumer_c" | awk '/NEEDED/ {print $5}')
    echo "consumer_c needs: $needed"
    grep -q 'libskn.so.1' <<< "$needed" || { echo "FAIL: consumer_c does not need libskn.so.1"; exit 1; }
    if grep -q 'libstdc++' <<< "$needed"; then echo "FAIL: consumer_c links libstdc++ itself"; exit 1; fi
    "${emulator[@]}" "$work/consumer_c"
    ;;
  dlopen)
    # No -lskn: the library is found by dlopen and bound by symbol version.
    # shellcheck disable=SC2046
    "$cc" -std=c11 -Wall -Wextra -Werror -o "$work/consumer_dlopen" "$here/dlopen/consumer_dlopen.c" \
      $(pkg-config --cflags skn) -ldl
    dynamic=$(readelf -d "$work/consumer_dlopen")  # whole output first: grep -q under pipefail can SIGPIPE readelf
    if grep -q 'libskn' <<< "$dynamic"; then
      echo "FAIL: consumer_dlopen is linked against libskn"; exit 1
    fi
    "${emulator[@]}" "$work/consumer_dlopen"
    ;;
  cpp)
    rm -rf "$work/build"
    toolchain=()
    if [ -n "${SKN_CMAKE_TOOLCHAIN_FILE:-}" ]; then toolchain=("-DCMAKE_TOOLCHAIN_FILE=$SKN_CMAKE_TOOLCHAIN_FILE"); fi
    cmake -S "$here/cpp" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${toolchain[@]}"
    cmake --build "$work/build"
    "${emulator[@]}" "$work/build/app"
    ;;
  python)
    # Debian's interpreter, which has python3-numpy (a python3 first on PATH,
    # such as a pyenv shim, may not); SKN_PYTHON overrides. The package comes
    # from python3-skn (/usr/lib/python3/dist-packages) or the prefix's copy;
    # run from the work dir so nothing is imported from the source tree.
    py="${SKN_PYTHON:-/usr/bin/python3}"
    bindings="$(cd "$here/../../bindings/python" && pwd)"
    if [ -n "${SKN_PREFIX:-}" ]; then
      export PYTHONPATH="$SKN_PREFIX/lib/python3/dist-packages${PYTHONPATH:+:$PYTHONPATH}"
    fi
    # Byte code goes to the work dir too, not next to the tests' sources.
    export PYTHONPYCACHEPREFIX="$work/pycache"
    cd "$work"
    where=$("$py" -c 'import skn; print(skn.__file__)')
    echo "skn package: $where"
    case "$where" in
      "$bindings"/*) echo "FAIL: skn was imported from the source tree, not the installed package"; exit 1 ;;
    esac
    "$py" "$here/python/consumer.py"
    # The binding's own suite (goldens, errors, GGUF, lifetimes) against the
    # installed package; -t = -s keeps bindings/python off sys.path.
    "$py" -m unittest discover -s "$bindings/tests" -t "$bindings/tests" -p 'test_*.py'
    # pip installs the source package too (Debian's setuptools, no PyPI):
    # built from a copy so that setuptools writes nothing into the tree.
    rm -rf "$work/pip-src" "$work/pip-target"
    cp -r "$bindings" "$work/pip-src"
    rm -rf "$work/pip-src/tests"
    "$py" -m pip install --quiet --root-user-action=ignore --no-build-isolation --no-deps --no-index --target "$work/pip-target" "$work/pip-src"
    PYTHONPATH="$work/pip-target" "$py" -c 'import skn, sys; assert skn.__file__.startswith(sys.argv[1]), skn.__file__; print("pip-installed skn", skn.__version__, "imports")' "$work/pip-target"
    ;;
  rust)
    # Debian's cargo and rustc (bookworm: 1.63) when installed, else whatever
    # cargo is on PATH; SKN_CARGO overrides. The bindings (bindings/rust:
    # skn-sys and skn) are tested and documented first, then the consumer
    # that depends on them by path. Both are copied, keeping their relative
    # places, so that Cargo.lock and target/ land in the work dir, not the
    # source tree.
    cargo="${SKN_CARGO:-}"
    if [ -z "$cargo" ]; then
      if [ -x /usr/bin/cargo ]; then cargo=/usr/bin/cargo; else cargo=cargo; fi
    fi
    cargo_dir=$(dirname "$(command -v "$cargo")")
    if [ -x "$cargo_dir/rustc" ]; then export RUSTC="$cargo_dir/rustc"; fi
    if [ -x "$cargo_dir/rustdoc" ]; then export RUSTDOC="$cargo_dir/rustdoc"; fi
    export CARGO_HOME="$work/cargo-home" CARGO_TARGET_DIR="$work/target"
    repo="$(cd "$here/../.." && pwd)"
    rm -rf "$work/src"
    mkdir -p "$work/src/bindings" "$work/src/tests/consumers"
    cp -r "$repo/bindings/rust" "$work/src/bindings/rust"
    cp -r "$here/rust" "$work/src/tests/consumers/rust"
    rm -rf "$work/src/bindings/rust/target" "$work/src/bindings/rust/Cargo.lock"
    "$cargo" --version
    "${RUSTC:-rustc}" --version
    "$cargo" test --offline --workspace --manifest-path "$work/src/bindings/rust/Cargo.toml"
    RUSTDOCFLAGS="-D warnings" "$cargo" doc --offline --no-deps --workspace \
      --manifest-path "$work/src/bindings/rust/Cargo.toml"
    "$cargo" test --offline --manifest-path "$work/src/tests/consumers/rust/Cargo.toml"
    ;;
  go)
    export GOPROXY=off GOFLAGS=-buildvcs=false GO111MODULE=on GOTOOLCHAIN=local
    export GOCACHE="$work/gocache" GOPATH="$work/gopath" GOENV=off CGO_ENABLED=1
    go version
    # The binding's own tests (bindings/go/skn, from the source tree); both it
    # and the consumer build against the installed library through pkg-config.
    binding="$here/../../bindings/go/skn"
    (cd "$binding" && go vet ./... && go test -count=1 -v ./...)
    # The consumer requires the binding as a user would, by module path and
    # version (no replace line), from the module proxy golang-skn-dev
    # installs: GOPROXY=file://..., nothing downloaded. GONOSUMDB: the
    # checksum database has never seen this module; go.sum is written from
    # the proxy's zip (-mod=mod), in a copy of the consumer, not the tree.
    proxy="${SKN_PREFIX:-/usr}/share/skn/goproxy"
    [ -d "$proxy" ] || { echo "no Go module proxy at $proxy (is golang-skn-dev installed?)"; exit 1; }
    module=$(awk '/^require / {print $2}' "$here/go/go.mod")
    version=$(awk '/^require / {print $3}' "$here/go/go.mod")
    # A module cache from an earlier run would hold an older build of the
    # same version: the proxy's files are the ones to test.
    go clean -modcache
    rm -rf "$work/consumer"
    cp -r "$here/go" "$work/consumer"
    (
      cd "$work/consumer"
      export GOPROXY="file://$proxy" GONOSUMDB="$module" GOFLAGS="-mod=mod -buildvcs=false"
      go mod download "$module"
      got=$(go list -m -f '{{.Path}} {{.Version}} {{.Dir}}' "$module")
      echo "module: $got"
      case "$got" in
        "$module $version $GOPATH/pkg/mod/"*) ;;
        *) echo "FAIL: $module did not come from $proxy at $version"; exit 1 ;;
      esac
      go vet ./... && go test -count=1 -v ./...
    )
    ;;
  tool)
    # skn-tools: the skn program on PATH runs against the installed library.
    skn_bin=$(command -v skn)
    echo "skn program: $skn_bin"
    if [ -z "${SKN_PREFIX:-}" ]; then
      # Capture first: with pipefail, grep -q quitting at its match can kill
      # ldd with SIGPIPE and fail a pipeline that matched.
      deps=$(ldd "$skn_bin")
      grep -Eq "libskn.so.1 => (/usr)?/lib/" <<< "$deps" || { echo "FAIL: $skn_bin does not load /usr's libskn"; echo "$deps"; exit 1; }
    fi
    "${emulator[@]}" "$skn_bin" version
    "${emulator[@]}" "$skn_bin" demo | grep -E 'Q4_K .*%'
    # The package's manual pages (with sections) and bash completion.
    share="${SKN_PREFIX:-/usr}/share"
    for page in skn skn-quantize skn-edit skn-split skn-merge; do
      man_text=$(zcat "$share/man/man1/$page.1.gz") # captured: grep -q must not SIGPIPE zcat under pipefail
      grep -q '^\.SH EXIT STATUS' <<< "$man_text" || { echo "FAIL: no $page(1) with sections"; exit 1; }
    done
    completion=$(bash -c "source '$share/bash-completion/completions/skn' && complete -p skn")
    grep -q _skn <<< "$completion" || { echo "FAIL: no bash completion for skn in $share/bash-completion/completions"; exit 1; }
    ;;
  *)
    echo "unknown consumer $lang"; exit 2 ;;
esac
