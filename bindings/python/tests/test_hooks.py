# SPDX-License-Identifier: MIT
"""Trace sinks and the log callback: Python callables skn calls back. Events
carry what happened; an exception a callback raises comes out of the call
that made it, never through skn's C frames, and is not raised twice."""
import threading
import unittest

import numpy as np

import skn

ROWS, COLS = 5, 768  # 3 Q4_K blocks per row


def weight(seed=1):
    w = np.random.default_rng(seed).standard_normal((ROWS, COLS), dtype=np.float32)
    packed = skn.quantize(w, "q4_k")
    return packed, skn.View.from_bytes(packed, "q4_k", (ROWS, COLS))


class Trace(unittest.TestCase):
    def setUp(self):
        self.packed, self.view = weight()
        self.x = np.ones((2, COLS), np.float32)

    def test_kernel_event_names_the_kernel_and_shape(self):
        events = []
        with skn.Context(trace=events.append) as ctx:
            ctx.matmul_wt(self.x, self.view)
        kernels = [e for e in events if e.kind == "kernel"]
        self.assertEqual(len(kernels), 1)
        e = kernels[0]
        self.assertIsInstance(e, skn.TraceEvent)
        self.assertIn(e.name, skn.kernel_names())
        self.assertIn("q4_k", e.name)
        self.assertEqual((e.format, e.layout_class, e.n, e.out, e.in_), ("Q4_K", "blocked_row_major", 2, ROWS, COLS))
        self.assertIn(e.isa, e.name)
        self.assertIsNone(e.bytes)
        self.assertGreaterEqual(e.nanoseconds, 0)

    def test_adapter_event_of_a_copy(self):
        events = []
        kernel = self.view.prepack(skn.INPUT_BLOCK_MAJOR, trace=events.append)
        self.assertEqual(len(events), 1)
        e = events[0]
        self.assertEqual((e.kind, e.format, e.from_order, e.to_order, e.bytes),
                         ("adapter", "Q4_K", skn.ROW_MAJOR, skn.INPUT_BLOCK_MAJOR, self.packed.size))
        self.assertIsNone(e.n)
        # The same order again: no copy, no event (rule 3).
        kernel.prepack(skn.INPUT_BLOCK_MAJOR, trace=events.append)
        self.assertEqual(len(events), 1)

    def test_context_prepack_reports_to_its_sink(self):
        events = []
        changed = 0
        with skn.Context(trace=events.append) as ctx:
            for source in (self.view, self.view.prepack(skn.INPUT_BLOCK_MAJOR)):
                ready = ctx.prepack_for_matmul(source)
                changed += ready.order != source.order
        # One ADAPTER event per copy into the order this CPU prefers, none otherwise.
        adapters = [e for e in events if e.kind == "adapter"]
        self.assertEqual(len(adapters), changed)
        for e in adapters:
            self.assertEqual(e.bytes, self.packed.size)

    def test_exception_is_raised_after_the_call_once(self):
        seen = []

        def sink(event):
            seen.append(event)
            if len(seen) == 1:
                raise RuntimeError("sink failed")

        with skn.Context(trace=sink) as ctx:
            with self.assertRaises(RuntimeError) as cm:
                ctx.matmul_wt(self.x, self.view)
            self.assertEqual(str(cm.exception), "sink failed")
            # The call itself completed, and the next one is clean.
            y = ctx.matmul_wt(self.x, self.view)
        self.assertEqual(y.tobytes(), skn.matmul_wt(self.x, self.view).tobytes())
        self.assertGreaterEqual(len(seen), 2)

    def test_exception_from_a_prepack_sink(self):
        with self.assertRaises(KeyError):
            self.view.prepack(skn.INPUT_BLOCK_MAJOR, trace=lambda e: {}["missing"])

    def test_set_trace_none_and_bad_sinks(self):
        events = []
        with skn.Context() as ctx:
            ctx.set_trace(events.append)
            ctx.matmul_wt(self.x, self.view)
            n = len(events)
            self.assertGreater(n, 0)
            ctx.set_trace(None)
            ctx.matmul_wt(self.x, self.view)
            self.assertEqual(len(events), n)
            with self.assertRaises(TypeError):
                ctx.set_trace("not callable")

    def test_threads_deliver_to_one_sink(self):
        lock = threading.Lock()
        events = []

        def sink(event):
            with lock:
                events.append(event)

        with skn.Context(threads=3, trace=sink) as ctx:
            for _ in range(3):
                ctx.matmul_wt(np.ones((9, COLS), np.float32), self.view)
        self.assertEqual(len([e for e in events if e.kind == "kernel"]), 3)


class Log(unittest.TestCase):
    def tearDown(self):
        skn.set_log_callback(None)

    def test_errors_are_logged_at_debug(self):
        got = []
        skn.set_log_callback(lambda level, message: got.append((level, message)), "debug")
        with self.assertRaises(skn.InvalidArgumentError):
            skn.quantize(np.ones((2, 100), np.float32), "q4_0")
        self.assertTrue(any(level == "debug" and "100" in message for level, message in got), got)

    def test_level_filters(self):
        got = []
        skn.set_log_callback(lambda level, message: got.append(level), "error")
        with self.assertRaises(skn.InvalidArgumentError):
            skn.quantize(np.ones((2, 100), np.float32), "q4_0")
        self.assertEqual(got, [])

    def test_exception_is_raised_by_the_logging_call(self):
        skn.set_log_callback(lambda level, message: 1 / 0, "debug")
        with self.assertRaises(ZeroDivisionError) as cm:
            skn.quantize(np.ones((2, 100), np.float32), "q4_0")
        self.assertIsInstance(cm.exception.__context__, skn.InvalidArgumentError)
        skn.set_log_callback(None)
        # Nothing left over for the next call.
        self.assertEqual(skn.quantize(np.ones((2, 32), np.float32), "q4_0").shape, (2, 18))

    def test_bad_arguments(self):
        with self.assertRaises(skn.InvalidArgumentError):
            skn.set_log_callback(print, "loud")
        with self.assertRaises(TypeError):
            skn.set_log_callback(42)


if __name__ == "__main__":
    unittest.main()
