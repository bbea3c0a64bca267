# SPDX-License-Identifier: MIT
"""What the tool test scripts share: running skn (under SKN_EMULATOR, the
command a cross build runs programs with) and collecting failed checks."""
import os
import resource
import subprocess


class Tool:
    def __init__(self, skn):
        self.skn = skn
        self.emulator = os.environ.get("SKN_EMULATOR", "").split()
        self.failures = []

    def run(self, *args, expect=None, env=None, limit_fsize=None):
        """Run `skn ARGS`; with `expect`, a different exit status is a failure.
        `limit_fsize`: the file size limit (ulimit -f) in bytes for the child."""
        def limit():
            if limit_fsize is not None:
                resource.setrlimit(resource.RLIMIT_FSIZE, (limit_fsize, limit_fsize))
        p = subprocess.run([*self.emulator, self.skn, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           env=dict(os.environ, **(env or {})), preexec_fn=limit if limit_fsize else None)
        if expect is not None and p.returncode != expect:
            self.failures.append(f"skn {' '.join(args)} exited {p.returncode}, expected {expect}: "
                                 f"{p.stderr.decode(errors='replace')}")
        return p

    def check(self, cond, what):
        if not cond:
            self.failures.append(what)
