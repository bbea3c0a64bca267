#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""skn tune and the tuning listing of skn doctor (issue 35). No timing is
asserted: a run's file must carry this CPU's cpu line (what skn doctor says
skn_cpu_id is), every line must have the form the library parses, and the
library must read it back (skn doctor lists the file as read and its rows);
the file lands where asked (--output, or the default path under
XDG_CONFIG_HOME, directory created); bad input is refused with exit 2.
    tool_tune.py SKN WORKDIR"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tooltest import Tool  # noqa: E402

SKN, WORK = sys.argv[1:3]
# The user's own tuning settings must not leak into the runs.
for name in ("SKN_TUNING_FILE", "XDG_CONFIG_HOME", "SKN_STREAM"):
    os.environ.pop(name, None)
T = Tool(SKN)
failures, run, check = T.failures, T.run, T.check

LINE = re.compile(r"^(variant|prefer) (\*|[a-z0-9]+) (\S+) (\S+)  # \S.*$")


def err(p):
    return p.stderr.decode(errors="replace")


def doctor(tuning_file=None):
    env = {"SKN_TUNING_FILE": tuning_file} if tuning_file else {"XDG_CONFIG_HOME": os.path.join(WORK, "none")}
    return json.loads(run("doctor", "--json", expect=0, env=env).stdout)


def check_file_text(text, cpu_id, what):
    """The cpu line first, then comments and choice lines of the parsed form."""
    lines = text.splitlines()
    check(lines and lines[0] == f"cpu {cpu_id}", f"{what}: first line {lines[:1]}, expected 'cpu {cpu_id}'")
    choices = [line for line in lines[1:] if not line.startswith("#")]
    for line in choices:
        check(LINE.match(line), f"{what}: a line not of the form 'CHOICE TIER SUBJECT VALUE  # evidence': {line}")
        check(cpu_id in line, f"{what}: the evidence does not name the CPU: {line}")
    return choices


def test_dry_run(cpu_id):
    p = run("tune", "--seconds", "2", "--formats", "q4_0,q8_0", "--dry-run", expect=0)
    text, table = p.stdout.decode(), err(p)
    choices = check_file_text(text, cpu_id, "--dry-run")
    # Both formats have a row-interleaved twin everywhere, so both prefer choices are planned.
    for subject in ("prefer Q4_0:gemv", "prefer Q8_0:gemv"):
        check(subject in table, f"--dry-run summary lacks '{subject}':\n{table}")
    check("Q4_K" not in table and "q4_k" not in table, f"--formats q4_0,q8_0 tuned another format:\n{table}")
    check("\r" not in table, "a progress line was written although stderr is not a terminal")
    check(re.search(r"elapsed [0-9.]+ s; \d+ choices? beat", table), f"no closing line in the summary:\n{table}")
    # The library reads it back: doctor lists it as the file read, with its rows.
    path = os.path.join(WORK, "dry_run.tuning")
    with open(path, "w") as f:
        f.write(text)
    doc = doctor(path)
    check(doc["tuning"]["file"] == path and doc["tuning"]["why"] == "",
          f"doctor does not list {path} as read: {doc['tuning']}")
    from_file = [r for r in doc["tuning"]["rows"] if r["source"] == path]
    check(len(from_file) == len(choices), f"doctor lists {len(from_file)} rows from the file, it has {len(choices)}")
    # A line added by hand shows with its evidence, so the listing is checked even when no choice won.
    with open(path, "a") as f:
        f.write("variant * matmul_wt_q4_0_ibm_* far  # added by tool_tune.py\n")
    doc = doctor(path)
    rows = [r for r in doc["tuning"]["rows"] if r["source"] == path]
    check(any(r["choice"] == "variant" and r["subject"] == "matmul_wt_q4_0_ibm_*" and r["value"] == "far"
              and r["evidence"] == "added by tool_tune.py" for r in rows), f"doctor lacks the added row: {rows}")
    text_out = run("doctor", expect=0, env={"SKN_TUNING_FILE": path}).stdout.decode()
    check(f"file             {path}" in text_out and "added by tool_tune.py" in text_out,
          f"doctor's text does not show the file and its row:\n{text_out}")
    # A file for another CPU is ignored, and doctor says why.
    other = os.path.join(WORK, "other_cpu.tuning")
    with open(other, "w") as f:
        f.write("cpu SomeOtherVendor 0x1 0x2\nvariant * matmul_wt_q4_0_ibm_* far  # elsewhere\n")
    doc = doctor(other)
    check(doc["tuning"]["file"] == "" and "not this one" in doc["tuning"]["why"]
          and all(r["source"] != other for r in doc["tuning"]["rows"]), f"another CPU's file: {doc['tuning']}")


def test_needs_importance():
    # IQ2_XXS quantizes only with importance weights: tune makes its weight
    # with unit ones and plans its one-token choice like any other format's.
    p = run("tune", "--seconds", "1", "--formats", "iq2_xxs", "--dry-run", expect=0)
    table = err(p)
    check("prefer IQ2_XXS:gemv" in table and "IQ2_XXS_R4/rm" in table,
          f"--formats iq2_xxs planned no IQ2_XXS choice:\n{table}")


def test_output(cpu_id):
    out = os.path.join(WORK, "written.tuning")
    if os.path.exists(out):
        os.remove(out)
    p = run("tune", "--seconds", "1", "--formats", "q4_0", "--output", out, expect=0)
    check(os.path.isfile(out) and f"wrote {out}" in p.stdout.decode(), f"--output: {p.stdout.decode()}{err(p)}")
    if os.path.isfile(out):
        check_file_text(open(out).read(), cpu_id, "--output")
    check(not [n for n in os.listdir(WORK) if "skn-partial" in n], "a temporary file was left beside the output")
    # The default path: $XDG_CONFIG_HOME/skn/tuning, its directory created.
    xdg = os.path.join(WORK, "xdg")
    default = os.path.join(xdg, "skn", "tuning")
    if os.path.exists(default):
        os.remove(default)
    run("tune", "--seconds", "0.5", "--formats", "q8_0_r8", expect=0, env={"XDG_CONFIG_HOME": xdg})
    check(os.path.isfile(default), f"no file at the default path {default}")
    if os.path.isfile(default):
        check_file_text(open(default).read(), cpu_id, "default path")
        doc = json.loads(run("doctor", "--json", expect=0, env={"XDG_CONFIG_HOME": xdg}).stdout)
        check(doc["tuning"]["file"] == default, f"doctor did not read the default path: {doc['tuning']}")


def test_refusals():
    for seconds in ("0", "-1", "abc", "nan", ""):
        p = run("tune", "--seconds", seconds, "--dry-run", expect=2)
        check("--seconds" in err(p) and "above 0" in err(p), f"--seconds {seconds!r}: {err(p)}")
    p = run("tune", "--formats", "q4_0,q9_9", "--dry-run", expect=2)
    check('unknown format "q9_9"' in err(p), f"--formats q9_9: {err(p)}")
    p = run("tune", "--output", WORK, "--seconds", "1", expect=2)
    check(WORK in err(p) and "directory" in err(p), f"--output a directory: {err(p)}")
    p = run("tune", "--output", os.path.join(WORK, "missing", "dir", "tuning"), "--seconds", "1", expect=2)
    check("missing" in err(p), f"--output in a missing directory: {err(p)}")
    p = run("tune", "--threads", "0", "--dry-run", expect=2)
    check("--threads" in err(p), f"--threads 0: {err(p)}")
    p = run("tune", "--bogus", expect=2)
    check('unknown option "--bogus"' in err(p), f"--bogus: {err(p)}")


def main():
    os.makedirs(WORK, exist_ok=True)
    cpu_id = doctor()["cpu"]["id"]
    check(re.match(r"^\S+ 0x[0-9a-f]+ 0x[0-9a-f]+$", cpu_id), f"skn_cpu_id says {cpu_id!r}")
    test_refusals()
    test_dry_run(cpu_id)
    test_needs_importance()
    test_output(cpu_id)
    if failures:
        sys.exit("FAIL:\n" + "\n".join(failures))
    print("tune: ok")


if __name__ == "__main__":
    main()
