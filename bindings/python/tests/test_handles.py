# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Handle lifetime: close() is idempotent, context managers and the garbage
collector free each handle exactly once, use after close raises
ClosedError without reaching the library, and every error object is freed."""
import contextlib
import gc
import unittest

import eredu
from eredu import (ClosedError, MemberSharding, ModelDescription, ParameterGroupSpec,
                   ParameterMemberSpec, ParameterRole, plan_rank)
from eredu import _capi_gen
from eredu._library import lib


def small_group():
    return ParameterGroupSpec.new("down", ParameterRole.ROW_PROJECTION, [
        ParameterMemberSpec("down.weight", [8, 16], MemberSharding.equal(1), "F32")])


@contextlib.contextmanager
def counting(*names):
    """Wraps library functions to count their calls (and the arguments)."""
    calls = {name: [] for name in names}
    originals = {name: getattr(lib, name) for name in names}

    def wrap(name):
        def counted(*args):
            calls[name].append(args)
            return originals[name](*args)
        return counted

    for name in names:
        setattr(lib, name, wrap(name))
    try:
        yield calls
    finally:
        for name, function in originals.items():
            setattr(lib, name, function)


def library_calls(function, *args):
    """{C function: number of calls} of every library function that
    function(*args) calls."""
    with counting(*_capi_gen.FUNCTIONS) as calls:
        function(*args)
    return {name: len(made) for name, made in calls.items() if made}


class Lifetime(unittest.TestCase):
    def test_close_frees_once_and_is_idempotent(self):
        with counting("eredu_group_free") as calls:
            group = small_group()
            self.assertFalse(group.closed)
            group.close()
            group.close()
            self.assertTrue(group.closed)
        self.assertEqual(len(calls["eredu_group_free"]), 1)

    def test_the_context_manager_frees(self):
        with counting("eredu_model_free", "eredu_layout_free") as calls:
            with small_group() as group, ModelDescription.from_groups([group]) as model:
                with plan_rank(model, (2, 1, 1, 1), 0) as layout:
                    self.assertEqual(layout.len(), 1)
                self.assertTrue(layout.closed)
            self.assertTrue(model.closed and group.closed)
        self.assertEqual(len(calls["eredu_model_free"]), 1)
        self.assertEqual(len(calls["eredu_layout_free"]), 1)

    def test_the_garbage_collector_frees(self):
        with counting("eredu_layout_free", "eredu_model_free") as calls:
            with small_group() as group:
                model = ModelDescription.from_groups([group])
            layout = plan_rank(model, (2, 1, 1, 1), 1)
            del model
            gc.collect()
            self.assertEqual(len(calls["eredu_model_free"]), 1)
            self.assertEqual(layout.len(), 1)  # the layout keeps the description alive
            del layout
            gc.collect()
        self.assertEqual(len(calls["eredu_layout_free"]), 1)

    def test_use_after_close_raises_without_calling_the_library(self):
        with small_group() as group:
            model = ModelDescription.from_groups([group])
        layout = plan_rank(model, (2, 1, 1, 1), 1)
        layout.close()
        model.close()
        with counting("eredu_layout_tensor_count", "eredu_plan_rank",
                      "eredu_model_new") as calls:
            with self.assertRaises(ClosedError) as caught:
                layout.len()
            self.assertEqual(str(caught.exception), "LocalModelLayout is closed")
            with self.assertRaises(ClosedError):
                layout.to_json()
            with self.assertRaises(ClosedError):
                plan_rank(model, (2, 1, 1, 1), 0)
            with self.assertRaises(ClosedError):
                ModelDescription.from_groups([group])
            with self.assertRaises(ClosedError):
                with model:
                    pass
        self.assertEqual(calls, {"eredu_layout_tensor_count": [], "eredu_plan_rank": [],
                                 "eredu_model_new": []})
        self.assertEqual(repr(layout), "<LocalModelLayout closed>")

    def test_a_failed_constructor_leaves_nothing_to_free(self):
        with counting("eredu_group_free") as calls:
            with self.assertRaises(eredu.ParallelPlanError):
                ParameterGroupSpec.new(" ", ParameterRole.REPLICATED, [])
            gc.collect()
        self.assertEqual(calls["eredu_group_free"], [])


class ErrorObjects(unittest.TestCase):
    def test_each_error_object_is_freed_once(self):
        with counting("eredu_error_free", "eredu_error_message") as calls:
            for _ in range(3):
                with self.assertRaises(eredu.ParallelPlanError):
                    ParameterGroupSpec.new(" ", ParameterRole.REPLICATED, [])
        freed = [args[0] for args in calls["eredu_error_free"]]
        self.assertEqual(len(freed), 3)
        self.assertTrue(all(freed))  # real error objects, not NULL
        self.assertEqual(len(calls["eredu_error_message"]), 3)

    def test_success_frees_nothing(self):
        with counting("eredu_error_free") as calls:
            small_group().close()
        self.assertEqual(calls["eredu_error_free"], [])


if __name__ == "__main__":
    unittest.main()
