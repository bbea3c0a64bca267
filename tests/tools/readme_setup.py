#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""README's two set-up commands and scripts/bootstrap's purposes.

    readme_setup.py SOURCE_DIR

README's "## Set up" holds exactly two commands: the first installs what
the build needs (scripts/bootstrap) and runs the demo, the second installs
what the tests need (scripts/bootstrap --for test) and runs them all;
.ci/run runs exactly the second. scripts/bootstrap --dry-run lists each
purpose's packages (the test set holds the build set, and the build set none
of the test tools) and refuses an unknown purpose with exit status 2.
"""
import os
import re
import subprocess
import sys

src = sys.argv[1]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


readme = open(os.path.join(src, "README.md"), encoding="utf-8").read()
setup = re.search(r"^## Set up\n(.*?)(?=^## )", readme, re.M | re.S)
check(setup is not None, "README has no '## Set up' section")
commands = re.findall(r"^    (\S.*)$", setup.group(1), re.M) if setup else []
check(len(commands) == 2, f"README's set-up has {len(commands)} commands, not two: {commands}")
if len(commands) == 2:
    build, test = commands
    check(build.startswith("scripts/bootstrap && ") and build.endswith(" demo"),
          f"the first command installs the build's packages and runs the demo: {build}")
    check(test.startswith("scripts/bootstrap --for test && "), f"the second installs the tests' packages: {test}")
    ci = open(os.path.join(src, ".ci", "run")).read()
    ci_commands = [line for line in ci.splitlines() if line.startswith("scripts/")]
    check(ci_commands == [test], f".ci/run runs {ci_commands}, README's test command is {test!r}")

bootstrap = os.path.join(src, "scripts", "bootstrap")


def listed(*args):
    p = subprocess.run([bootstrap, *args, "--dry-run"], capture_output=True, text=True)
    check(p.returncode == 0, f"bootstrap {' '.join(args)} --dry-run: exit {p.returncode}: {p.stderr}")
    m = re.search(r"packages: (.*)", p.stdout)
    check(m is not None, f"bootstrap {' '.join(args)} --dry-run lists no packages: {p.stdout}")
    return set(m.group(1).split()) if m else set()


for_build = listed()
check(for_build == listed("--for", "build"), "bootstrap without --for is --for build")
for_test = listed("--for", "test")
check(for_build < for_test, "the test set must hold the build set and more")
check("python3-numpy" in for_build and "libxsmm-dev" in for_build, f"the build set: {sorted(for_build)}")
for tool in ("lintian", "cargo", "golang-go", "qemu-user", "crossbuild-essential-arm64", "clang"):
    check(tool in for_test - for_build, f"{tool} belongs to --for test only")
p = subprocess.run([bootstrap, "--for", "everything", "--dry-run"], capture_output=True, text=True)
check(p.returncode == 2 and "build or test" in p.stderr, f"an unknown purpose: exit {p.returncode}, {p.stderr!r}")

if failures:
    sys.exit(1)
print("README set-up commands and scripts/bootstrap: ok")
