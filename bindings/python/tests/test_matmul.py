# SPDX-License-Identifier: MIT
"""matmul_wt against a float64 NumPy product of the decoded weight; the same
bits in either block order and for any thread count."""
import threading
import unittest

import numpy as np

import skn


def rand(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape, dtype=np.float32)


class MatmulWt(unittest.TestCase):
    def setUp(self):
        self.rows, self.cols = 7, 768  # out not a multiple of any tile; 3 blocks per row
        self.w = rand((self.rows, self.cols), 1)
        self.packed = skn.quantize(self.w, "q4_k")
        self.view = skn.View.from_bytes(self.packed, "q4_k", (self.rows, self.cols))
        self.decoded = self.view.to_float().astype(np.float64)
        self.x = rand((3, self.cols), 2)

    def reference(self, x):
        return x.astype(np.float64) @ self.decoded.T, np.abs(x.astype(np.float64)) @ np.abs(self.decoded).T

    def test_exact_and_fast_against_numpy(self):
        ref, scale = self.reference(self.x)
        exact = skn.matmul_wt(self.x, self.view, precision="exact")
        self.assertEqual((exact.shape, exact.dtype), ((3, self.rows), np.float32))
        self.assertTrue(np.all(np.abs(exact - ref) <= 1e-5 * scale + 1e-6))
        fast = skn.matmul_wt(self.x, self.view)
        self.assertTrue(np.all(np.abs(fast - ref) <= 2e-2 * scale))

    def test_same_bits_in_either_order_and_any_threads(self):
        kernel = self.view.prepack("input_block_major")
        prepared = skn.prepack_for_matmul(self.view)
        for precision in ("exact", "fast"):
            base = skn.matmul_wt(self.x, self.view, precision=precision)
            for w in (kernel, prepared):
                for threads in (1, 2, 3):
                    y = skn.matmul_wt(self.x, w, threads=threads, precision=precision)
                    self.assertEqual(y.tobytes(), base.tobytes())

    def test_one_row_and_bias(self):
        bias = rand(self.rows, 9)
        y = skn.matmul_wt(self.x[1], self.view, bias=bias, precision="exact")
        self.assertEqual(y.shape, (self.rows,))
        ref, scale = self.reference(self.x[1:2])
        self.assertTrue(np.all(np.abs(y - (ref[0] + bias)) <= 1e-5 * (scale[0] + np.abs(bias)) + 1e-6))

    def test_context_and_threads(self):
        with skn.Context(threads=2) as ctx:
            a = ctx.matmul_wt(self.x, ctx.prepack_for_matmul(self.view))
        self.assertEqual(a.tobytes(), skn.matmul_wt(self.x, self.view).tobytes())
        with self.assertRaises(skn.ClosedError) as cm:
            ctx.matmul_wt(self.x, self.view)
        self.assertEqual(cm.exception.status, 1)
        with skn.Context(isa="scalar") as ctx:
            ctx.matmul_wt(self.x, self.view)

    def test_threads_of_python_each_get_a_context(self):
        results = {}

        def work(i):
            results[i] = skn.matmul_wt(self.x, self.view).tobytes()

        ts = [threading.Thread(target=work, args=(i,)) for i in range(3)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        self.assertEqual(len(set(results.values())), 1)

    def test_errors(self):
        with self.assertRaises(skn.InvalidArgumentError) as cm:
            skn.matmul_wt(rand((2, 512), 3), self.view)
        self.assertIn("768", cm.exception.message)
        with self.assertRaises(skn.InvalidArgumentError):
            skn.matmul_wt(self.x, self.view, bias=np.zeros(3, np.float32))
        x = self.x.copy()
        x[0, 5] = np.inf
        with self.assertRaises(skn.InvalidArgumentError):
            skn.matmul_wt(x, self.view)
        with self.assertRaises(skn.InvalidArgumentError):
            skn.matmul_wt(self.x, self.view, precision="double")
        with self.assertRaises(skn.InvalidArgumentError):
            skn.Context(threads=0)
        with self.assertRaises(skn.InvalidArgumentError):
            skn.Context(isa="mmx")
        with self.assertRaises(TypeError):
            skn.matmul_wt(self.x, self.packed)

    def test_cpu_and_kernels(self):
        self.assertIn(skn.cpu_isa(), {"scalar", "avx2", "avxvnni", "avx512", "avx512vnni", "neon", "neondotprod",
                                      "neoni8mm", "sve", "sve2"})
        self.assertTrue(skn.cpu_features())
        self.assertTrue(any("q4_k" in k for k in skn.kernel_names()))


if __name__ == "__main__":
    unittest.main()
