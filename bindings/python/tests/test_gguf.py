# SPDX-License-Identifier: MIT
"""GGUF: write with GGUFWriter, read back with GGUF: metadata as Python
values, zero-copy tensors and their lifetime, errors."""
import gc
import os
import tempfile
import unittest

import numpy as np

import skn


class GgufRoundTrip(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.tmp.name, "model.gguf")
        rng = np.random.default_rng(5)
        cls.up = rng.standard_normal((5, 768), dtype=np.float32)
        cls.norm = rng.standard_normal((3, 4), dtype=np.float32)
        cls.packed = skn.quantize(cls.up, "q4_k")
        with skn.GGUFWriter() as w:
            w.add("general.architecture", "llama")
            w.add("general.name", "tiny ü")
            w.add("llama.block_count", 2, type="u32")
            w.add("big", 2**40)
            w.add("neg", -3, type="i8")
            w.add("ratio", 0.5)
            w.add("precise", 0.1, type="f64")
            w.add("flag", True)
            w.add("tokens", ["a", "bc", ""])
            w.add("scores", np.array([0.5, -1.0], dtype=np.float32))
            w.add("ids", [1, 2, 3])
            w.add("bits", [True, False])
            w.add("u64s", [7, 8], type="u64")
            w.add_tensor("blk.0.ffn_up.weight", cls.packed, "q4_k", cls.up.shape)
            w.add_tensor("norm", cls.norm)
            cls.size = w.size
            cls.file_bytes = w.to_bytes()
            w.write(cls.path)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_file(self):
        self.assertEqual(os.path.getsize(self.path), self.size)
        with open(self.path, "rb") as f:
            self.assertEqual(f.read(), self.file_bytes)
        with skn.GGUF(self.path) as g:
            self.assertEqual((g.version, g.alignment, g.file_size, len(g)), (3, 32, self.size, 2))
            self.assertIn("norm", g)
            self.assertIn("v3", repr(g))

    def test_metadata_values(self):
        with skn.GGUF(self.path) as g:
            m = g.metadata
            self.assertEqual(m["general.architecture"], "llama")
            self.assertEqual(m["general.name"], "tiny ü")
            self.assertEqual(m["llama.block_count"], 2)
            self.assertEqual(m.type_of("llama.block_count"), "u32")
            self.assertEqual((m["big"], m.type_of("big")), (2**40, "i64"))
            self.assertEqual((m["neg"], m.type_of("neg")), (-3, "i8"))
            self.assertEqual((m["ratio"], m.type_of("ratio")), (0.5, "f32"))
            self.assertEqual(m["precise"], 0.1)
            self.assertIs(m["flag"], True)
            self.assertEqual(m["tokens"], ["a", "bc", ""])
            np.testing.assert_array_equal(m["scores"], [0.5, -1.0])
            self.assertEqual(m["scores"].dtype, np.float32)
            self.assertEqual(m["ids"].tolist(), [1, 2, 3])
            self.assertEqual(m["bits"].tolist(), [True, False])
            self.assertEqual((m["u64s"].dtype, m["u64s"].tolist()), (np.uint64, [7, 8]))
            self.assertEqual(list(m)[:2], ["general.architecture", "general.name"])
            self.assertEqual(len(m), 13)
            self.assertNotIn("missing", m)
            with self.assertRaises(KeyError):
                m["missing"]

    def test_tensors_zero_copy(self):
        with skn.GGUF(self.path) as g:
            t = g.tensor_info("blk.0.ffn_up.weight")
            self.assertEqual((t.type_name, t.shape, t.ne, t.supported), ("Q4_K", (5, 768), (768, 5), True))
            data = g.data("blk.0.ffn_up.weight")
            self.assertEqual(data.shape, (5, 3 * 144))  # (rows, row_bytes), as gguf-py gives quantized data
            self.assertEqual(g.data("norm").shape, (3, 4 * 4))
            np.testing.assert_array_equal(skn.dequantize(data, "q4_k"), g.to_float("blk.0.ffn_up.weight"))
            self.assertFalse(data.flags.writeable)
            self.assertFalse(data.flags.owndata)
            self.assertEqual(data.tobytes(), self.packed.tobytes())
            self.assertEqual(bytes(memoryview(data)), self.packed.tobytes())
            np.testing.assert_array_equal(g.to_float("blk.0.ffn_up.weight"),
                                          skn.dequantize(self.packed, "q4_k", self.up.shape))
            np.testing.assert_array_equal(g.array("norm"), self.norm)
            np.testing.assert_array_equal(g.to_float(1), self.norm)
            y = skn.matmul_wt(np.ones((1, 768), np.float32), g.view("blk.0.ffn_up.weight"), precision="exact")
            self.assertEqual(y.shape, (1, 5))
            with self.assertRaises(skn.UnsupportedError):
                g.array("blk.0.ffn_up.weight")
            t = g["norm"]
            self.assertEqual((t.name, t.type_name, t.shape), ("norm", "F32", (3, 4)))
            self.assertEqual(bytes(t.memoryview()), self.norm.tobytes())
            np.testing.assert_array_equal(t.to_float(), t.array())
            self.assertEqual([x.name for x in g], ["blk.0.ffn_up.weight", "norm"])

    def test_as_stored_orientation(self):
        with skn.GGUF(self.path, orientation="as_stored") as g:
            self.assertEqual(g.tensor_info("norm").shape, (4, 3))
            np.testing.assert_array_equal(g.array("norm"), self.norm.T)
            np.testing.assert_array_equal(g.to_float("norm"), self.norm.T)
            with self.assertRaises(skn.InvalidArgumentError) as cm:
                g.view("blk.0.ffn_up.weight")
            self.assertIn("looks like [in, out]", cm.exception.message)

    def test_arrays_and_views_outlive_close(self):
        # Documented: close() ends the GGUF's use; what it handed out keeps the mapping.
        g = skn.GGUF(self.path)
        data = g.data("blk.0.ffn_up.weight")
        mv = memoryview(g.data("norm"))
        view = g.view("blk.0.ffn_up.weight")
        norm = g.array("norm")
        g.close()
        self.assertTrue(g.closed)
        for use in (lambda closed=g: closed.data(0), lambda closed=g: closed.metadata["general.name"],
                    lambda closed=g: closed.version, lambda closed=g: closed.tensors, lambda closed=g: closed["norm"]):
            with self.assertRaises(skn.ClosedError):
                use()
        del g
        gc.collect()
        self.assertEqual(data.tobytes(), self.packed.tobytes())
        self.assertEqual(bytes(mv), self.norm.tobytes())
        np.testing.assert_array_equal(norm, self.norm)
        np.testing.assert_array_equal(view.to_float(), skn.dequantize(self.packed, "q4_k", self.up.shape))

    def test_from_bytes_keeps_the_buffer(self):
        g = skn.GGUF.from_bytes(bytearray(self.file_bytes))
        data = g.data("norm")
        del g
        gc.collect()
        self.assertEqual(data.tobytes(), self.norm.tobytes())

    def test_read_into_memory(self):
        with skn.GGUF(self.path, read_into_memory=True) as g:
            self.assertEqual(g.data(0).tobytes(), self.packed.tobytes())

    def test_reader_errors(self):
        with self.assertRaises(skn.NotFoundError) as cm:
            skn.GGUF(os.path.join(self.tmp.name, "absent.gguf"))
        self.assertEqual(cm.exception.status, 8)
        with self.assertRaises(skn.FormatError):
            skn.GGUF.from_bytes(self.file_bytes[:40])
        with self.assertRaises(skn.InvalidArgumentError):
            skn.GGUF(self.tmp.name)  # a directory
        with skn.GGUF(self.path) as g:
            with self.assertRaises(KeyError):
                g.data("absent")
            with self.assertRaises(IndexError):
                g.view(2)
        with self.assertRaises(ValueError):
            skn.GGUF(self.path, orientation="sideways")

    def test_i2_s_layout(self):
        # GGUF type 36 has two byte layouts; the writer names its own in the
        # "skn.i2_s_layout" key. Renamed in place (same length, so every
        # offset stays), the file no longer says which.
        x = np.tile(np.array([-1.0, 0.0, 1.0, 1.0], dtype=np.float32), (2, 32))
        packed = skn.quantize(x, "i2_s")
        with skn.GGUFWriter() as w:
            w.add_tensor("t", packed, "i2_s", x.shape)
            keyed = w.to_bytes()
        self.assertEqual(keyed.count(b"skn.i2_s_layout"), 1)
        keyless = keyed.replace(b"skn.i2_s_layout", b"xyz.i2_s_layout")
        with skn.GGUF.from_bytes(keyless) as g:
            self.assertFalse(g.tensor_info("t").supported)
            with self.assertRaisesRegex(skn.FormatError, "i2_s_layout"):
                g.data("t")
        for layout in ("x86", "arm64"):
            with skn.GGUF.from_bytes(keyless, i2_s_layout=layout) as g:
                self.assertTrue(g.tensor_info("t").supported)
                self.assertEqual(g.data("t").tobytes(), packed.tobytes())
                self.assertEqual(g.data("t").shape, (packed.size,))  # the trailer keeps I2_S flat
                self.assertEqual(g.view("t").format, "I2_S" if layout == "x86" else "I2_S_G64")
        with skn.GGUF.from_bytes(keyed, i2_s_layout="x86") as g:
            self.assertEqual(g.data("t").tobytes(), packed.tobytes())
        with self.assertRaises(skn.InvalidArgumentError):
            skn.GGUF.from_bytes(keyed, i2_s_layout="arm64")
        with self.assertRaises(ValueError):
            skn.GGUF.from_bytes(keyed, i2_s_layout="sparc")

    def test_writer_errors(self):
        with skn.GGUFWriter() as w:
            w.add("k", 1)
            with self.assertRaises(skn.InvalidArgumentError):
                w.add("k", 2)  # repeated key
            with self.assertRaises(ValueError):
                w.add("small", 300, type="u8")
            with self.assertRaises(skn.InvalidArgumentError) as cm:
                w.add_tensor("t", self.packed.reshape(-1)[:-1], "q4_k", self.up.shape)
            self.assertIn(str(self.packed.size), cm.exception.message)
            with self.assertRaises(skn.InvalidArgumentError):
                w.add_tensor("t", self.packed, "q4_k", (768, 5))  # [in, out]
            with self.assertRaises(skn.InvalidArgumentError):
                w.set_alignment(12)
            with self.assertRaises(skn.FileIOError):
                w.write(os.path.join(self.tmp.name, "no-such-dir", "x.gguf"))
        with self.assertRaises(skn.ClosedError):
            w.add("after", 1)


if __name__ == "__main__":
    unittest.main()
