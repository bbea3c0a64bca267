# SPDX-License-Identifier: MIT
# Sourced by the gate self-tests: `expect` runs a gate script and checks its
# verdict and output; `selftest_summary` reports and sets the exit status.
#   GATE=<script> expect <pass|fail> <description> <must-contain> <gate args...>
failures=0
passes=0
expect() {
  local want="$1" what="$2" needle="$3"
  shift 3
  set +e
  out=$(bash "$GATE" "$@" 2>&1)
  rc=$?
  set -e
  if { [ "$want" = pass ] && [ "$rc" -ne 0 ]; } || { [ "$want" = fail ] && [ "$rc" -eq 0 ]; }; then
    echo "SELFTEST FAIL: $what: expected $want, $(basename "$GATE") returned $rc"; echo "$out" | sed 's/^/    /'
    failures=$((failures + 1))
  elif [ -n "$needle" ] && ! grep -q -- "$needle" <<< "$out"; then
    echo "SELFTEST FAIL: $what: output lacks '$needle'"; echo "$out" | sed 's/^/    /'
    failures=$((failures + 1))
  else
    echo "ok: $what ($want)"
    passes=$((passes + 1))
  fi
}
selftest_summary() {  # selftest_summary <name>
  echo "$1 self-test: $passes passed, $failures failed"
  [ "$failures" -eq 0 ]
}
