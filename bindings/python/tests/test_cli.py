# SPDX-License-Identifier: MIT
"""python -m skn and the console scripts: what they print for a file written
here, their exit status on errors, and the entry points the package declares."""
import contextlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

import numpy as np

import skn
from skn import cli

from test_imatrix import gguf_form as imatrix_bytes

PYPROJECT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pyproject.toml")


def run_module(*args):
    # From a directory holding no skn/, so the package under test is the one imported.
    return subprocess.run([sys.executable, "-m", "skn", *args], capture_output=True, text=True,
                          cwd=tempfile.gettempdir())


def run_main(fn, args):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = fn(args)
    return status, out.getvalue(), err.getvalue()


class Cli(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.model = os.path.join(cls.tmp.name, "model.gguf")
        with skn.GGUFWriter() as w:
            w.add("general.architecture", "llama")
            w.add("llama.block_count", 2)
            w.add("tokenizer.ggml.tokens", ["t%d" % i for i in range(20)])
            w.add("nested", [[1, 2], ["a"]])
            w.add_tensor("blk.0.ffn_up.weight", skn.quantize(np.ones((4, 768), np.float32), "q4_k"), "q4_k")
            w.write(cls.model)
        cls.imatrix = os.path.join(cls.tmp.name, "imatrix.gguf")
        with open(cls.imatrix, "wb") as f:
            f.write(imatrix_bytes())

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_python_m_skn_dump(self):
        r = run_module("dump", self.model)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("GGUF v3, 1 tensors, 4 metadata keys", r.stdout)
        self.assertRegex(r.stdout, r"u32 +llama\.block_count = 2")
        self.assertIn("tokenizer.ggml.tokens [20] = ['t0', 't1', 't2', 't3', 't4', 't5', 't6', 't7'] (12 more)",
                      r.stdout)
        self.assertRegex(r.stdout, r"Q4_K +\[4, 768\] +blk\.0\.ffn_up\.weight")

    def test_dump_json(self):
        status, out, _ = run_main(cli.gguf_dump_main, [self.model, "--json", "--all", "--no-tensors"])
        self.assertEqual(status, 0)
        d = json.loads(out)
        self.assertEqual(d["metadata"]["llama.block_count"], {"type": "u32", "value": 2})
        tokens = d["metadata"]["tokenizer.ggml.tokens"]
        self.assertEqual((tokens["type"], tokens["count"], len(tokens["value"])), ("array[string]", 20, 20))
        self.assertEqual(d["metadata"]["nested"]["value"], [[1, 2], ["a"]])
        self.assertNotIn("tensors", d)

    def test_dump_as_stored(self):
        status, out, _ = run_main(cli.gguf_dump_main, [self.model, "--as-stored"])
        self.assertEqual(status, 0)
        self.assertRegex(out, r"Q4_K +\[768, 4\] +blk\.0\.ffn_up\.weight")

    def test_imatrix(self):
        status, out, _ = run_main(cli.imatrix_dump_main, [self.imatrix])
        self.assertEqual(status, 0)
        self.assertIn("gguf imatrix, 2 entries, chunks 12 of 512 tokens, datasets calib.txt, more.txt", out)
        self.assertIn("blk.3.ffn_gate_exps.weight", out)
        status, out, _ = run_main(cli.imatrix_dump_main, [self.imatrix, "--json"])
        d = json.loads(out)
        self.assertEqual([(e["name"], e["matrices"], e["unused_matrices"]) for e in d["entries"]],
                         [("blk.0.attn_k.weight", 1, 0), ("blk.3.ffn_gate_exps.weight", 3, 1)])

    def test_formats_and_version(self):
        r = run_module("formats")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertRegex(r.stdout, r"12 +Q4_K +256 +144")
        r = run_module("version")
        self.assertIn("libskn " + skn.version(), r.stdout)

    def test_errors_exit_1_with_the_reason(self):
        r = run_module("dump", os.path.join(self.tmp.name, "absent.gguf"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("python -m skn dump: SKN_E_NOT_FOUND", r.stderr)
        status, _, err = run_main(cli.imatrix_dump_main, [self.model])  # a model is no imatrix
        self.assertEqual(status, 1)
        self.assertIn("skn-imatrix-dump: SKN_E_FORMAT", err)
        r = run_module()
        self.assertEqual(r.returncode, 2)
        self.assertIn("dump", r.stdout)
        with self.assertRaises(SystemExit) as cm, contextlib.redirect_stderr(io.StringIO()):
            cli.gguf_dump_main([])
        self.assertEqual(cm.exception.code, 2)

    @unittest.skipUnless(os.path.exists(PYPROJECT), "the source tree's pyproject.toml is not next to the tests")
    def test_declared_console_scripts_exist(self):
        with open(PYPROJECT) as f:
            text = f.read()
        section = text.split("[project.scripts]", 1)[1].split("\n[", 1)[0]
        scripts = dict(re.findall(r'^([\w-]+) = "([\w.:]+)"', section, re.M))
        self.assertEqual(set(scripts), {"skn-gguf-dump", "skn-imatrix-dump"})
        for target in scripts.values():
            module, _, attr = target.partition(":")
            self.assertTrue(callable(getattr(__import__(module, fromlist=[attr]), attr)), target)
        # An installed package (pip, python3-skn) declares the same ones in its dist-info.
        try:
            from importlib.metadata import PackageNotFoundError, distribution
            installed = {e.name: e.value for e in distribution("skn").entry_points if e.group == "console_scripts"}
            where = os.path.realpath(str(distribution("skn").locate_file("skn")))
        except (ImportError, PackageNotFoundError):
            return
        if where == os.path.realpath(os.path.dirname(skn.__file__)):  # the dist-info of the skn imported
            self.assertEqual(installed, scripts)


if __name__ == "__main__":
    unittest.main()
