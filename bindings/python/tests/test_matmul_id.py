# SPDX-License-Identifier: MIT
"""matmul_wt_id (expert-routed matmul_wt): every (row, slot) output has the
bits matmul_wt gives for that row on its expert's [out, in] slice, in either
block order and for any thread count; shapes and ids are checked."""
import unittest

import numpy as np

import skn

E, OUT, IN = 4, 5, 768  # 3 Q4_K blocks per row, out not a multiple of any tile


def rand(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape, dtype=np.float32)


class MatmulWtId(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.w = rand((E, OUT, IN), 1)
        cls.packed = skn.quantize(cls.w, "q4_k")
        cls.view = skn.View.from_bytes(cls.packed, "q4_k", (E, OUT, IN))
        cls.ids = np.array([[0, 3], [2, 2], [1, 0]], dtype=np.int64)  # a repeat within a row is computed twice
        cls.x = rand((3, IN), 2)

    def expected(self, x_of, gates=None, bias=None, precision="fast"):
        n, k = self.ids.shape
        y = np.empty((n, k, OUT), np.float32)
        for i in range(n):
            for s in range(k):
                e = int(self.ids[i, s])
                b = None if bias is None else bias[e]
                row = skn.matmul_wt(x_of(i, s)[None, :], self.view.select(0, e), bias=b, precision=precision)[0]
                y[i, s] = row if gates is None else np.float32(gates[i, s]) * row
        return y

    def test_shared_input_equals_matmul_wt_per_row(self):
        y = skn.matmul_wt_id(self.x, self.view, self.ids)
        self.assertEqual((y.shape, y.dtype), ((3, 2, OUT), np.float32))
        self.assertEqual(y.tobytes(), self.expected(lambda i, s: self.x[i]).tobytes())

    def test_per_slot_input_gates_and_bias(self):
        x3 = rand((3, 2, IN), 3)
        gates = rand((3, 2), 4)
        bias = rand((E, OUT), 5)
        y = skn.matmul_wt_id(x3, self.view, self.ids, gates=gates, bias=bias)
        self.assertEqual(y.tobytes(), self.expected(lambda i, s: x3[i, s], gates, bias).tobytes())
        exact = skn.matmul_wt_id(x3, self.view, self.ids, gates=gates, bias=bias, precision="exact")
        ref = np.einsum("nkc,nkoc->nko", x3.astype(np.float64),
                        self.view.to_float().astype(np.float64)[self.ids]) + bias[self.ids]
        ref *= gates[..., None]
        self.assertTrue(np.allclose(exact, ref, rtol=1e-4, atol=1e-4))

    def test_either_order_and_any_threads_give_the_same_bits(self):
        base = skn.matmul_wt_id(self.x, self.view, self.ids)
        kernel = self.view.prepack(skn.INPUT_BLOCK_MAJOR)
        for w in (kernel, skn.prepack_for_matmul(self.view)):
            for threads in (1, 3):
                with skn.Context(threads=threads) as ctx:
                    self.assertEqual(ctx.matmul_wt_id(self.x, w, self.ids).tobytes(), base.tobytes())
                    y = ctx.matmul_wt_id(self.x, w, self.ids, prepack_weights=True)  # a per-call scope
                    self.assertEqual(y.tobytes(), base.tobytes())

    def test_a_gguf_expert_tensor(self):
        with skn.GGUFWriter() as wr:
            wr.add_tensor("blk.0.ffn_up_exps.weight", self.packed, "q4_k")
            data = wr.to_bytes()
        with skn.GGUF.from_bytes(data) as g:
            self.assertEqual(g.tensor_info("blk.0.ffn_up_exps.weight").ne, (IN, OUT, E))
            y = skn.matmul_wt_id(self.x, g.view("blk.0.ffn_up_exps.weight"), self.ids)
        self.assertEqual(y.tobytes(), skn.matmul_wt_id(self.x, self.view, self.ids).tobytes())

    def test_out_and_trace(self):
        events = []
        out = np.full((3, 2, OUT), np.nan, np.float32)
        with skn.Context(trace=events.append) as ctx:
            y = ctx.matmul_wt_id(self.x, self.view, self.ids, out=out)
        self.assertIs(y, out)
        self.assertFalse(np.isnan(out).any())
        kernels = [e for e in events if e.kind == "kernel"]
        self.assertEqual([(e.n, e.out, e.in_) for e in kernels], [(6, OUT, IN)])

    def test_id_out_of_range_names_row_and_slot(self):
        ids = self.ids.copy()
        ids[2, 1] = E
        with self.assertRaises(skn.InvalidArgumentError) as cm:
            skn.matmul_wt_id(self.x, self.view, ids)
        self.assertIn("row 2", cm.exception.message)
        self.assertIn(str(E), cm.exception.message)
        with self.assertRaises(skn.InvalidArgumentError):
            skn.matmul_wt_id(self.x, self.view, self.ids - 1)  # -1

    def test_shape_errors(self):
        cases = [
            (self.x, self.view, self.ids.astype(np.float32)),  # float ids
            (self.x, self.view, self.ids[:, 0]),  # ids not [n, k]
            (self.x, self.view, [[0, 2**40]]),  # an id no int32 holds
            (self.x[:2], self.view, self.ids),  # x rows != ids rows
            (rand((3, 512), 6), self.view, self.ids),  # x columns != in
            (rand((3, 3, IN), 6), self.view, self.ids),  # per-slot x with the wrong k
            (self.x, self.view.select(0, 0), self.ids),  # a rank-2 weight
            (self.x, self.view, [[0, "1"]]),  # mixed ids
        ]
        for x, w, ids in cases:
            with self.subTest(x=np.shape(x), w=w.shape, ids=np.shape(ids)):
                with self.assertRaises(skn.InvalidArgumentError):
                    skn.matmul_wt_id(x, w, ids)
        with self.assertRaises(skn.InvalidArgumentError):
            skn.matmul_wt_id(self.x, self.view, self.ids, gates=np.ones(3, np.float32))
        with self.assertRaises(skn.InvalidArgumentError):
            skn.matmul_wt_id(self.x, self.view, self.ids, bias=np.ones((E, OUT + 1), np.float32))
        with self.assertRaises(skn.InvalidArgumentError):
            skn.Context().matmul_wt_id(self.x, self.view, self.ids, out=np.empty((3, 2), np.float32))
        with self.assertRaises(TypeError):
            skn.matmul_wt_id(self.x, self.packed, self.ids)


if __name__ == "__main__":
    unittest.main()
