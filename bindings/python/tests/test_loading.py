# SPDX-License-Identifier: MIT
"""The package finds libskn.so.1 through the loader and says what to install
when it cannot; its version matches the library's."""
import os
import subprocess
import sys
import unittest

import skn


class Loading(unittest.TestCase):
    def test_version_matches_the_library(self):
        self.assertEqual(skn.version(), skn.__version__)
        self.assertEqual(skn.version_number() // 10000, 1)

    def test_missing_library_names_the_package(self):
        env = dict(os.environ, SKN_LIBRARY="/nonexistent/libskn.so.1")
        r = subprocess.run([sys.executable, "-c", "import skn"], env=env, capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("ImportError", r.stderr)
        self.assertIn("libskn1", r.stderr)
        self.assertIn("/nonexistent/libskn.so.1", r.stderr)

    def test_error_carries_status_and_message(self):
        try:
            skn.quantize([[1.0] * 10], "q4_0")
        except skn.Error as e:
            self.assertEqual((e.status, e.status_name), (1, "SKN_E_INVALID_ARGUMENT"))
            self.assertTrue(e.message)
            self.assertIn(e.message, str(e))
        else:
            self.fail("no error for 10 columns of Q4_0")


if __name__ == "__main__":
    unittest.main()
