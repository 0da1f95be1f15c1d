# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Which sizes work (eredu_fit_json, docs/interchange.md eredu.fit.v1)
through Python: the exact text for the two-layer model of
tests/capi/test_fit.cpp, the refusal of pipeline layers and of a largest
world of 0, cancellation through `progress`, and arguments checked before
any library call."""
import ctypes
import unittest

import eredu
from eredu import GeneralError, ModelDescription, ShardingPolicy, status
from eredu import _capi
from eredu._library import lib
from eredu.errors import call
from test_handles import counting

# Two layers of 64 F32 bytes each and an embedding of 32 bytes.
TWO_LAYERS = (
    '{"schema":"eredu.groups.v1","model":{"name":"two","layers":2},"groups":['
    '{"name":"embed","role":"vocabulary","scope":"embedding","members":['
    '{"target":"embed","shape":[8,1],"dtype":"F32","sharding":{"kind":"balanced","axis":0}}]},'
    '{"name":"l0","role":"replicated","scope":{"layer":0},"members":['
    '{"target":"l0","shape":[16],"dtype":"F32","sharding":{"kind":"replicated"}}]},'
    '{"name":"l1","role":"replicated","scope":{"layer":1},"members":['
    '{"target":"l1","shape":[16],"dtype":"F32","sharding":{"kind":"replicated"}}]}]}')

# Its eredu.fit.v1 text up to world 2 with a 100-byte device budget.
FIT_TWO_BUDGET_100 = (
    '{"schema":"eredu.fit.v1","model":{"name":"two","tensors":3,"global_bytes":160},'
    '"policy":"require","residency":{"kind":"fully_resident","device_budget_bytes":100,'
    '"host_budget_bytes":null,"prefetch_depth":1,"host_lookahead":0},"max_world":2,'
    '"topologies":['
    '{"tp":1,"pp":1,"ep":1,"world":1,"plans":true,"fits":false,"device_peak_bytes":160},'
    '{"tp":1,"pp":1,"ep":2,"world":2,"plans":false,"fits":false,'
    '"error":"EREDU_E_MISSING_EXPERT_COUNT",'
    '"message":"expert topology preflight requires the routed-expert count"},'
    '{"tp":1,"pp":2,"ep":1,"world":2,"plans":true,"fits":true,"device_peak_bytes":96},'
    '{"tp":2,"pp":1,"ep":1,"world":2,"plans":true,"fits":false,"device_peak_bytes":144}],'
    '"smallest_fitting_world":2}'
    '\n')


class Fit(unittest.TestCase):
    def setUp(self):
        self.model = ModelDescription.from_json(TWO_LAYERS)

    def tearDown(self):
        self.model.close()

    def test_every_topology_up_to_the_world(self):
        text = eredu.fit_json(self.model, device_budget_bytes=100, max_world=2)
        self.assertEqual(text, FIT_TWO_BUDGET_100)
        self.assertEqual(eredu.fit_json(self.model, ShardingPolicy.REQUIRE,
                                        device_budget_bytes=100, max_world=2, threads=1),
                         FIT_TWO_BUDGET_100)
        self.assertEqual(eredu.fit_json(self.model, device_budget_bytes=100, max_world=2,
                                        pipeline_layers=()), FIT_TWO_BUDGET_100)
        unbounded = eredu.fit_json(self.model, max_world=1)
        self.assertTrue(unbounded.endswith(
            '"topologies":[{"tp":1,"pp":1,"ep":1,"world":1,"plans":true,"fits":true,'
            '"device_peak_bytes":160}],"smallest_fitting_world":1}\n'), unbounded)

    def test_the_default_largest_world_is_the_library_default(self):
        self.assertEqual(eredu.DEFAULT_MAX_WORLD, 64)
        self.assertEqual(_capi.defaults(_capi.eredu_fit_options).max_world,
                         eredu.DEFAULT_MAX_WORLD)
        text = eredu.fit_json(self.model, threads=1)
        self.assertIn('"max_world":64,', text)

    def test_pipeline_layers_are_refused(self):
        with self.assertRaises(GeneralError) as caught:
            eredu.fit_json(self.model, pipeline_layers=(2,))
        self.assertEqual(caught.exception.code, status.EREDU_E_INVALID_ARGUMENT)
        self.assertEqual(caught.exception.name, "EREDU_E_INVALID_ARGUMENT")
        self.assertEqual(caught.exception.message,
                         "options->pipeline_layers must be empty: fit searches every pipeline "
                         "size")

    def test_a_largest_world_of_zero_is_refused(self):
        with self.assertRaises(GeneralError) as caught:
            eredu.fit_json(self.model, max_world=0)
        self.assertEqual(caught.exception.code, status.EREDU_E_INVALID_ARGUMENT)
        self.assertEqual(caught.exception.message,
                         "the largest world must be from 1 to 1024, got 0")
        with self.assertRaises(GeneralError) as caught:
            eredu.fit_json(self.model, max_world=1025)
        self.assertEqual(caught.exception.message,
                         "the largest world must be from 1 to 1024, got 1025")

    def test_the_check_options_are_those_of_check_json(self):
        with self.assertRaises(GeneralError) as caught:
            eredu.fit_json(self.model, residency_json="{")
        self.assertEqual(caught.exception.code, status.EREDU_E_PARSE)
        # A device budget flag other than 0 or 1, through the raw call.
        check = _capi.sized(_capi.eredu_check_options)
        check.has_device_budget = 2
        out = ctypes.c_void_p()
        with self.assertRaises(GeneralError) as caught:
            call(lib.eredu_fit_json, self.model._handle(), None, ctypes.byref(check), None,
                 ctypes.byref(out), None)
        self.assertEqual(caught.exception.message,
                         "flag check->has_device_budget is 2, expected 0 or 1")
        self.assertIsNone(out.value)

    def test_progress_cancels_after_two_topologies(self):
        seen = []

        def stop_after_two(done, total):
            seen.append((done, total))
            return done >= 2

        with self.assertRaises(GeneralError) as caught:
            eredu.fit_json(self.model, max_world=4, progress=stop_after_two)
        self.assertEqual(caught.exception.code, status.EREDU_E_CANCELLED)
        self.assertEqual(caught.exception.name, "EREDU_E_CANCELLED")
        self.assertEqual(caught.exception.message,
                         "cancelled by the progress callback after 2 of 13 topologies")
        self.assertEqual(seen, [(1, 1 + 3 + 3 + 6), (2, 13)])

    def test_arguments_are_checked_before_any_call(self):
        with counting("eredu_fit_json") as calls:
            for value, error in ((-1, ValueError), (2**64, ValueError), (True, TypeError),
                                 (2.0, TypeError), (None, TypeError)):
                with self.assertRaises(error, msg=repr(value)):
                    eredu.fit_json(self.model, max_world=value)
            with self.assertRaises(TypeError):
                eredu.fit_json(self.model, progress=3)
            with self.assertRaises(TypeError):
                eredu.fit_json("model.json")
            with self.assertRaises(TypeError):
                eredu.fit_json(self.model, (1, 1, 1, 1))  # no topology: a policy
        self.assertEqual(calls, {"eredu_fit_json": []})


if __name__ == "__main__":
    unittest.main()
