# SPDX-License-Identifier: MIT
"""skn.Imatrix: llama-imatrix's GGUF and legacy files (written here the way
llama-imatrix writes them), their values as llama-quantize computes them,
lifetimes and errors."""
import gc
import os
import struct
import tempfile
import unittest

import numpy as np

import skn

ROW = 768  # the row length of the weights the entries are for: 3 Q4_K blocks
COUNTS = np.array([40.0, 0.0, 3.0], dtype=np.float32)  # expert 1 never routed to


def dense_sums():
    return ((np.arange(ROW) * 5) % 11 + 2).astype(np.float32)


def expert_sums():
    return np.stack([((np.arange(ROW) * 7 + e) % 13 + 1).astype(np.float32) for e in range(3)])


def gguf_form():
    w = skn.GGUFWriter()
    w.add("general.type", "imatrix")
    w.add("imatrix.datasets", ["calib.txt", "more.txt"])
    w.add("imatrix.chunk_count", 12)  # u32, as llama.cpp's table says
    w.add("imatrix.chunk_size", 512)
    # Shapes are [out, in] labels: ne = [values_per_row, matrices] as the file has them.
    w.add_tensor("blk.3.ffn_gate_exps.weight.in_sum2", expert_sums())
    w.add_tensor("blk.3.ffn_gate_exps.weight.counts", COUNTS.reshape(3, 1))
    w.add_tensor("blk.0.attn_k.weight.in_sum2", dense_sums().reshape(1, ROW))
    w.add_tensor("blk.0.attn_k.weight.counts", np.array([[6144.0]], dtype=np.float32))
    return w.to_bytes()


def legacy_form(trailer=True):
    out = struct.pack("<i", 2)
    entries = (("blk.1.ffn_up.weight", 4, dense_sums()), ("blk.0.attn_q.weight", 0, dense_sums() + 1))
    for name, ncall, values in entries:
        raw = name.encode()
        out += struct.pack("<i", len(raw)) + raw + struct.pack("<ii", ncall, values.size)
        out += values.astype("<f4").tobytes()
    if trailer:
        out += struct.pack("<ii", 9, 5) + b"c.txt"
    return out


class GgufImatrix(unittest.TestCase):
    def setUp(self):
        self.im = skn.Imatrix.from_bytes(gguf_form())

    def test_file_facts(self):
        im = self.im
        self.assertEqual((im.form, im.chunk_count, im.chunk_size), ("gguf", 12, 512))
        self.assertEqual(im.datasets, ["calib.txt", "more.txt"])
        self.assertEqual(list(im), ["blk.0.attn_k.weight", "blk.3.ffn_gate_exps.weight"])  # sorted by name
        self.assertEqual(len(im), 2)
        self.assertIn("blk.0.attn_k.weight", im)
        self.assertIn("2 entries", repr(im))

    def test_values_are_llama_quantize_s(self):
        dense = self.im.entry("blk.0.attn_k.weight")
        self.assertEqual((dense.values_per_row, dense.matrices, dense.count, dense.unused_matrices), (ROW, 1, 6144, 0))
        v = self.im["blk.0.attn_k.weight"]
        self.assertEqual((v.shape, v.dtype), ((1, ROW), np.float32))
        self.assertEqual(v.tobytes(), (dense_sums() / np.float32(6144.0)).tobytes())

        e = self.im.entry("blk.3.ffn_gate_exps.weight")
        self.assertEqual((e.matrices, e.count, e.unused_matrices), (3, 40, 1))
        self.assertEqual(self.im.counts(e.name).tolist(), [40, 0, 3])
        want = np.ones((3, ROW), np.float32)  # a matrix no token reached (1): importance 1.0 everywhere
        want[[0, 2]] = expert_sums()[[0, 2]] / COUNTS[[0, 2], None]
        np.testing.assert_array_equal(self.im.values(e.name), want)
        np.testing.assert_array_equal(self.im.values(e.name, matrix=2), want[2])
        with self.assertRaises(skn.InvalidArgumentError):
            self.im.values(e.name, matrix=3)

    def test_missing_entry(self):
        self.assertIsNone(self.im.get("output.weight"))
        with self.assertRaises(KeyError):
            self.im["output.weight"]

    def test_values_feed_quantize(self):
        w = np.random.default_rng(4).standard_normal((4, ROW), dtype=np.float32)
        importance = self.im["blk.0.attn_k.weight"]
        got = skn.quantize(w, "iq2_xs", imatrix=importance)
        self.assertEqual(got.tobytes(), skn.quantize(w, "iq2_xs", imatrix=importance.copy().reshape(-1)).tobytes())
        # Different importance, different bytes: the weights are really used.
        self.assertNotEqual(got.tobytes(), skn.quantize(w, "iq2_xs", imatrix=np.ones(ROW, np.float32)).tobytes())

    def test_arrays_outlive_close(self):
        v = self.im.values("blk.0.attn_k.weight")
        self.assertFalse(v.flags.writeable)
        self.im.close()
        self.assertTrue(self.im.closed)
        with self.assertRaises(skn.ClosedError):
            self.im.values("blk.0.attn_k.weight")
        self.im = None
        gc.collect()
        self.assertEqual(v.tobytes(), (dense_sums() / np.float32(6144.0)).reshape(1, ROW).tobytes())

    def test_from_a_file(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "imatrix.gguf")
            with open(path, "wb") as f:
                f.write(gguf_form())
            with skn.Imatrix(path) as im:
                os.remove(path)  # read whole at open
                self.assertEqual(im.values("blk.0.attn_k.weight").tobytes(),
                                 self.im.values("blk.0.attn_k.weight").tobytes())


class LegacyImatrix(unittest.TestCase):
    def test_values_divided_by_ncall(self):
        with skn.Imatrix.from_bytes(legacy_form()) as im:
            self.assertEqual((im.form, im.chunk_count, im.chunk_size, im.datasets), ("legacy", 9, None, ["c.txt"]))
            self.assertEqual(list(im), ["blk.1.ffn_up.weight", "blk.0.attn_q.weight"])  # file order
            self.assertEqual(im["blk.1.ffn_up.weight"].tobytes(), (dense_sums() / np.float32(4)).tobytes())
            self.assertEqual(im.entry("blk.1.ffn_up.weight").count, 4)
            # ncall 0: the values as stored.
            self.assertEqual(im["blk.0.attn_q.weight"].tobytes(), (dense_sums() + 1).tobytes())

    def test_without_trailer(self):
        with skn.Imatrix.from_bytes(legacy_form(trailer=False)) as im:
            self.assertEqual((im.chunk_count, im.datasets), (None, []))


class ImatrixErrors(unittest.TestCase):
    def test_malformed_names_the_place(self):
        with self.assertRaises(skn.FormatError) as cm:
            skn.Imatrix.from_bytes(legacy_form()[:-3])  # the dataset name cut short
        self.assertIn("at byte", cm.exception.message)
        with self.assertRaises(skn.FormatError):
            skn.Imatrix.from_bytes(b"")

    def test_gguf_without_imatrix_metadata(self):
        w = skn.GGUFWriter()
        w.add_tensor("blk.0.attn_k.weight.in_sum2", dense_sums().reshape(1, ROW))
        w.add_tensor("blk.0.attn_k.weight.counts", np.array([[1.0]], dtype=np.float32))
        with self.assertRaises(skn.FormatError) as cm:
            skn.Imatrix.from_bytes(w.to_bytes())
        self.assertIn("imatrix.", cm.exception.message)

    def test_missing_file(self):
        with self.assertRaises(skn.NotFoundError):
            skn.Imatrix("/nonexistent/imatrix.gguf")


if __name__ == "__main__":
    unittest.main()
