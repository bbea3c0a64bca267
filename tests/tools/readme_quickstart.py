#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Run README.md's quickstart as written and compare every output with the
transcript shown there, so that the README cannot drift from what the
commands print.

    readme_quickstart.py README.md BUILD_DIR WORK_DIR [--no-python] [--record]

The quickstart's ```console blocks hold commands ("$ " lines, a heredoc's
lines belong to its command) each followed by its output. They run in one
bash, in order, from WORK_DIR/checkout: a stand-in for the newcomer's
checkout in which build/release is BUILD_DIR and bindings/ is the source
tree's, so the commands run exactly as printed whatever the build
directory. The expected output may elide: a line "..." stands for any number
of lines, "..." inside a line for any text; times ("0.2 s") may differ.
Every command must exit 0.

--no-python skips the commands that run python3 (a cross or sanitizer build's
library cannot be loaded by this machine's interpreter); --record prints what
each command printed instead of comparing. SKN_EMULATOR (qemu) runs the skn
program of a cross build.
"""
import os
import re
import secrets
import shutil
import subprocess
import sys


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def quickstart_blocks(readme):
    """The console blocks of the '## Quickstart' section, as (command, expected) pairs."""
    text = open(readme, encoding="utf-8").read()
    m = re.search(r"^## Quickstart.*?$(.*?)(?=^## )", text, re.M | re.S)
    if not m:
        fail(f"{readme} has no '## Quickstart' section")
    steps = []
    for block in re.findall(r"^```console\n(.*?)^```", m.group(1), re.M | re.S):
        lines = block.split("\n")[:-1]
        i = 0
        while i < len(lines):
            if not lines[i].startswith("$ "):
                fail(f"quickstart: output before any command: {lines[i]!r}")
            command = [lines[i][2:]]
            heredoc = re.search(r"<<-?'?(\w+)'?", lines[i])
            i += 1
            if heredoc:
                while i < len(lines) and lines[i] != heredoc.group(1):
                    command.append(lines[i])
                    i += 1
                if i == len(lines):
                    fail(f"quickstart: heredoc {heredoc.group(1)} is not closed")
                command.append(lines[i])
                i += 1
            expected = []
            while i < len(lines) and not lines[i].startswith("$ "):
                expected.append(lines[i])
                i += 1
            steps.append(("\n".join(command), expected))
    if not steps:
        fail("the quickstart has no ```console block")
    return steps


def normalise(text):
    return re.sub(r"\b\d+(\.\d+)? s\b", "N s", text)


def matches(expected, actual):
    parts = []
    for line in expected:
        if line == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*".join(re.escape(p) for p in normalise(line).split("...")) + r"\n")
    return re.fullmatch("".join(parts), normalise(actual), re.S) is not None


def python_with_numpy():
    """A python3 that imports numpy: the first on PATH, else Debian's."""
    for py in (shutil.which("python3"), "/usr/bin/python3"):
        if py and subprocess.run([py, "-c", "import numpy"], capture_output=True).returncode == 0:
            return py
    return None


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    no_python = "--no-python" in sys.argv
    record = "--record" in sys.argv
    if len(args) != 3:
        fail(__doc__)
    readme, build, work = (os.path.abspath(a) for a in args)
    source = os.path.dirname(readme)
    steps = quickstart_blocks(readme)

    shutil.rmtree(work, ignore_errors=True)
    checkout = os.path.join(work, "checkout")
    tools = os.path.join(checkout, "build", "release", "tools")
    os.makedirs(tools)
    os.makedirs(os.path.join(checkout, "build", "release", "capi"))
    os.makedirs(os.path.join(work, "tmp"))
    os.symlink(os.path.join(source, "bindings"), os.path.join(checkout, "bindings"))
    os.symlink(os.path.join(build, "capi", "libskn.so.1"), os.path.join(checkout, "build", "release", "capi", "libskn.so.1"))
    emulator = os.environ.get("SKN_EMULATOR", "")
    with open(os.path.join(tools, "skn"), "w") as f:
        f.write(f"#!/bin/sh\nexec {emulator} {os.path.join(build, 'tools', 'skn')} \"$@\"\n")
    os.chmod(os.path.join(tools, "skn"), 0o755)

    env = dict(os.environ, TMPDIR=os.path.join(work, "tmp"), LC_ALL="C.UTF-8")
    env.pop("PYTHONPATH", None)
    env.pop("SKN_LIBRARY", None)
    shims = os.path.join(work, "shims")
    py = python_with_numpy()
    if py is None and not no_python:
        print("quickstart: no python3 with numpy here; the Python steps are skipped")
        no_python = True
    if py:
        os.makedirs(shims)
        os.symlink(py, os.path.join(shims, "python3"))
        env["PATH"] = shims + os.pathsep + env["PATH"]

    marker = "@@quickstart-" + secrets.token_hex(8)
    script = []
    ran = []
    for command, expected in steps:
        if no_python and re.search(r"\bpython3\b", command.split("\n")[0]):
            print(f"quickstart: skipped (--no-python): {command.splitlines()[0]}")
            continue
        ran.append((command, expected))
        # A heredoc's terminator must end its line: the redirection goes
        # on the group around it.
        script.append("{\n" + command + "\n} 2>&1\nprintf '" + marker + " %d\\n' \"$?\"")
    out = subprocess.run(["bash", "-c", "\n".join(script)], cwd=checkout, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT).stdout.decode("utf-8", "replace")
    pieces = re.split(re.escape(marker) + r" (\d+)\n", out)
    results = list(zip(pieces[0:-1:2], pieces[1::2]))
    if len(results) != len(ran):
        fail(f"ran {len(ran)} commands, {len(results)} finished:\n{out}")
    failures = 0
    for (command, expected), (actual, status) in zip(ran, results):
        first = command.splitlines()[0]
        if record:
            print(f"$ {command}\n{actual}", end="" if actual.endswith("\n") or not actual else "\n")
            continue
        if status != "0":
            print(f"FAIL: exit status {status}: $ {first}\n{actual}")
            failures += 1
        elif not matches(expected, actual):
            print(f"FAIL: output differs from README's transcript: $ {first}\n--- README\n"
                  + "\n".join(expected) + f"\n--- actual\n{actual}")
            failures += 1
        else:
            print(f"ok: $ {first}")
    if failures:
        sys.exit(1)
    shutil.rmtree(work, ignore_errors=True)
    if not record:
        print(f"quickstart: {len(ran)} commands ran as README shows them")


if __name__ == "__main__":
    main()
