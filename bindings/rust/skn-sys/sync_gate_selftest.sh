#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Proves the rust_sys_in_sync gate can fail: a header with one more struct
# field, one more function or a changed constant must make
# `gen_sys.py --check` report the checked-in files stale (exit 1), and a
# declaration the generator cannot read must stop it (exit 2), never be
# skipped.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
header="$here/../../../include/skn/skn.h"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

expect() {  # expect <exit code> <what> <sed expression>
  sed -e "$3" "$header" > "$tmp/skn.h"
  if cmp -s "$tmp/skn.h" "$header"; then echo "FAIL: the edit '$2' changed nothing"; exit 1; fi
  set +e
  python3 "$here/gen_sys.py" --check --header "$tmp/skn.h" > "$tmp/out" 2>&1
  rc=$?
  set -e
  if [ "$rc" -ne "$1" ]; then echo "FAIL: $2: exit $rc, expected $1"; cat "$tmp/out"; exit 1; fi
  echo "ok: $2 -> exit $rc"
}

python3 "$here/gen_sys.py" --check --header "$header"
expect 1 "a field appended to skn_matmul_options" 's/^    skn_scope\* scope;         \/\* where prepack_weights allocates \*\//&\n    int32_t added;/'
expect 1 "a new function" 's/^SKN_API int32_t skn_kernel_count(void);/&\nSKN_API int32_t skn_added(void);/'
expect 1 "a changed enum value" 's/SKN_E_NOT_FOUND = 8,/SKN_E_NOT_FOUND = 18,/'
expect 1 "a changed parameter type" 's/SKN_API unsigned skn_version(void);/SKN_API int skn_version(void);/'
expect 2 "an unreadable declaration" 's/^SKN_API int32_t skn_kernel_count(void);/&\nSKN_API int (*skn_weird(void))(int);/'
