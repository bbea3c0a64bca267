# SPDX-License-Identifier: MIT
# What the tree checks of tests/arch share: the command line
#   <check>.py ROOT          check the source tree at ROOT (default .)
#   <check>.py --self-test   run the check on small made-up trees: each case
#                            must draw its message, or pass
# so that a check which could never fail is itself a failure.
import pathlib
import sys
import tempfile


def self_test(check, cases, title):
    """cases: (files, want): files maps a path under the tree to its text;
    want is a part of a message check(root) must return, or None when the
    tree must pass. Returns the exit status."""
    failures = 0
    for files, want in cases:
        with tempfile.TemporaryDirectory() as d:
            root = pathlib.Path(d)
            for rel, text in files.items():
                (root / rel).parent.mkdir(parents=True, exist_ok=True)
                (root / rel).write_text(text + "\n", encoding="utf-8")
            errors = check(root)
            if (want is None and errors) or (want is not None and not any(want in e for e in errors)):
                print(f"self-test: {files!r} should {'pass' if want is None else 'draw ' + repr(want)}, "
                      f"drew: {errors}")
                failures += 1
    print(f"{title} self-test: {len(cases)} case(s), {failures} failure(s)")
    return 1 if failures else 0


def main(check, cases, title):
    if len(sys.argv) > 1 and sys.argv[1] == "--self-test":
        sys.exit(self_test(check, cases, title))
    errors = check(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve())
    for e in errors:
        print(e)
    print(f"{title}: {len(errors)} problem(s)")
    sys.exit(1 if errors else 0)
