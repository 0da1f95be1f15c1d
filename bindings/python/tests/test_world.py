# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Plan options through Python: `threads` (1 plans on the calling thread
only; results never depend on it) and the progress callable of the bulk
calls (called after each planned rank; a true result or an exception
cancels with EREDU_E_CANCELLED, the exception propagating from the call)."""
import gc
import threading
import unittest

import eredu
from eredu import GeneralError, ModelDescription, ShardingPolicy, plan_rank, status
from test_handles import counting
from test_plan import GQA_JSON

TP4 = (4, 1, 1, 1)


class Failure(Exception):
    """Raised by a progress callable."""


class Threads(unittest.TestCase):
    def setUp(self):
        self.model = ModelDescription.from_json(GQA_JSON)

    def tearDown(self):
        self.model.close()

    def test_one_thread_plans_a_rank_as_the_default(self):
        with plan_rank(self.model, TP4, 2) as default, \
                plan_rank(self.model, TP4, 2, threads=1) as single, \
                self.model.plan_rank(TP4, 2, ShardingPolicy.REQUIRE, threads=3) as three:
            self.assertEqual(single.to_json(), default.to_json())
            self.assertEqual(three.to_json(), default.to_json())
            self.assertEqual(single.tensor("q_proj.weight").local_shape, (16, 64))

    def test_the_world_does_not_depend_on_threads(self):
        expected = eredu.plan_world_json(self.model, TP4)
        self.assertTrue(expected.startswith('{"schema":"eredu.world.v1"'))
        for threads in (1, 2, 4, 64):
            self.assertEqual(eredu.plan_world_json(self.model, TP4, threads=threads), expected,
                             threads)
        check = eredu.check_json(self.model, TP4, device_budget_bytes=4096)
        self.assertTrue(check.startswith('{"schema":"eredu.check.v1"'))
        self.assertEqual(eredu.check_json(self.model, TP4, device_budget_bytes=4096, threads=1),
                         check)

    def test_threads_are_checked_before_any_call(self):
        with counting("eredu_plan_rank", "eredu_plan_world_json") as calls:
            for threads, error in ((-1, ValueError), (2**32, ValueError), (True, TypeError),
                                   (1.0, TypeError)):
                with self.assertRaises(error):
                    plan_rank(self.model, TP4, 0, threads=threads)
                with self.assertRaises(error):
                    eredu.plan_world_json(self.model, TP4, threads=threads)
        self.assertEqual(calls, {"eredu_plan_rank": [], "eredu_plan_world_json": []})
        with self.assertRaises(ValueError) as caught:
            plan_rank(self.model, TP4, 0, threads=-1)
        self.assertEqual(str(caught.exception), "threads must be in [0, 4294967295], got -1")


class Progress(unittest.TestCase):
    def setUp(self):
        self.model = ModelDescription.from_json(GQA_JSON)

    def tearDown(self):
        self.model.close()

    def test_called_after_each_rank_in_order(self):
        expected = eredu.plan_world_json(self.model, TP4)
        for threads in (1, 4, 0):
            calls = []
            text = eredu.plan_world_json(self.model, TP4, threads=threads,
                                         progress=lambda done, total: calls.append((done, total)))
            self.assertEqual(text, expected)
            self.assertEqual(calls, [(1, 4), (2, 4), (3, 4), (4, 4)], threads)

    def test_check_json_reports_progress_too(self):
        calls = []
        text = eredu.check_json(self.model, (2, 1, 1, 1), threads=1,
                                progress=lambda done, total: calls.append(done))
        self.assertEqual(text, eredu.check_json(self.model, (2, 1, 1, 1)))
        self.assertEqual(calls, [1, 2])

    def test_a_false_result_goes_on(self):
        for result in (None, False, 0, "", []):
            self.assertEqual(eredu.plan_world_json(self.model, TP4,
                                                   progress=lambda done, total: result),
                             eredu.plan_world_json(self.model, TP4))

    def test_a_true_result_cancels(self):
        calls = []

        def stop_after_two(done, total):
            calls.append(done)
            return done == 2

        for function in (eredu.plan_world_json, eredu.check_json):
            calls.clear()
            with self.assertRaises(GeneralError) as caught:
                function(self.model, TP4, threads=1, progress=stop_after_two)
            error = caught.exception
            self.assertEqual((error.code, error.name, error.message),
                             (status.EREDU_E_CANCELLED, "EREDU_E_CANCELLED",
                              "cancelled by the progress callback after 2 of 4 ranks"))
            self.assertIs(type(error), eredu.error_class(status.EREDU_E_CANCELLED))
            self.assertEqual(calls, [1, 2])
        with self.assertRaises(GeneralError) as caught:
            eredu.plan_world_json(self.model, TP4, threads=4, progress=lambda done, total: 1)
        self.assertEqual(caught.exception.code, status.EREDU_E_CANCELLED)

    def test_an_exception_cancels_and_propagates(self):
        calls = []
        failure = Failure("stop")

        def fail_at_three(done, total):
            calls.append(done)
            if done == 3:
                raise failure

        try:
            eredu.plan_world_json(self.model, TP4, threads=1, progress=fail_at_three)
        except Failure as error:
            caught = error
        else:
            self.fail("the exception did not propagate")
        self.assertIs(caught, failure)
        self.assertEqual(calls, [1, 2, 3])
        cancelled = caught.__context__
        self.assertIsInstance(cancelled, GeneralError)
        self.assertEqual((cancelled.code, cancelled.message),
                         (status.EREDU_E_CANCELLED,
                          "cancelled by the progress callback after 3 of 4 ranks"))
        # The traceback still reaches into the callable.
        self.assertIn("fail_at_three", [frame.f_code.co_name for frame in _frames(caught)])

    def test_an_exception_on_the_last_rank_or_from_any_thread_propagates(self):
        def fail_at_last(done, total):
            if done == total:
                raise Failure("last")

        for threads in (1, 4):
            with self.assertRaises(Failure):
                eredu.plan_world_json(self.model, TP4, threads=threads, progress=fail_at_last)
            with self.assertRaises(Failure):
                eredu.check_json(self.model, TP4, threads=threads, progress=fail_at_last)

    def test_keyboard_interrupt_cancels_too(self):
        def interrupt(done, total):
            raise KeyboardInterrupt

        with self.assertRaises(KeyboardInterrupt):
            eredu.plan_world_json(self.model, TP4, threads=1, progress=interrupt)

    def test_not_called_again_after_an_exception(self):
        calls = []

        def fail(done, total):
            calls.append(done)
            raise Failure

        with self.assertRaises(Failure):
            eredu.plan_world_json(self.model, (64, 1, 1, 1),
                                  policy=ShardingPolicy.REPLICATE_UNSUPPORTED, threads=8,
                                  progress=fail)
        self.assertEqual(calls, [1])

    def test_the_callable_stays_alive_for_the_call(self):
        seen = []

        def collect(done, total):
            gc.collect()
            seen.append(threading.current_thread().name)

        text = eredu.plan_world_json(self.model, TP4, threads=4, progress=collect)
        self.assertEqual(len(seen), 4)
        self.assertEqual(text, eredu.plan_world_json(self.model, TP4))

    def test_a_non_callable_is_refused_before_any_call(self):
        with counting("eredu_plan_world_json", "eredu_check_json") as calls:
            with self.assertRaises(TypeError) as caught:
                eredu.plan_world_json(self.model, TP4, progress=3)
            self.assertEqual(str(caught.exception), "progress must be callable, got int")
            with self.assertRaises(TypeError):
                eredu.check_json(self.model, TP4, progress="bar")
        self.assertEqual(calls, {"eredu_plan_world_json": [], "eredu_check_json": []})

    def test_planning_errors_are_raised_as_without_progress(self):
        calls = []
        with self.assertRaises(eredu.ParallelPlanError) as caught:
            eredu.plan_world_json(self.model, (8, 1, 1, 1), threads=1,
                                  progress=lambda done, total: calls.append(done))
        self.assertEqual(caught.exception.code, status.EREDU_E_INVALID_TENSOR)
        self.assertEqual(calls, [])


def _frames(error):
    traceback = error.__traceback__
    while traceback is not None:
        yield traceback.tb_frame
        traceback = traceback.tb_next


if __name__ == "__main__":
    unittest.main()
