# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Pipeline stages of chosen sizes (eredu_plan_options.pipeline_layers,
docs/planning.md) through Python, with exact values on the seed model
tests/vectors/inputs/seed/tiny_moe.groups.json (4 decoder layers of 12
tensors each, 54 tensors): `pipeline_layers=(1, 3)` reaches plan_rank,
plan_world_json and check_json, the JSON topology carries the counts, and
counts that do not fit raise GeneralError EREDU_E_INVALID_ARGUMENT with the
library's message."""
import ctypes
import gc
import os
import unittest

import eredu
from eredu import (GeneralError, LayoutTotals, ModelDescription, PlacementKind, ShardingPolicy,
                   plan_rank, status)
from eredu import _capi
from eredu._library import lib
from eredu.errors import call
from eredu.plan import ParallelTopology, plan_options
from cheader import REPO
from test_handles import counting

TINY_MOE = os.path.join(REPO, "tests", "vectors", "inputs", "seed", "tiny_moe.groups.json")
PP2 = (1, 2, 1, 1)
PP3 = (1, 3, 1, 1)


def layer_of(target):
    """The decoder layer of a tiny_moe target (layers.<n>.…), or None."""
    if not target.startswith("layers."):
        return None
    return int(target.split(".")[1])


class PipelineLayers(unittest.TestCase):
    def setUp(self):
        with open(TINY_MOE, "rb") as handle:
            self.model = ModelDescription.from_json(handle.read())

    def tearDown(self):
        self.model.close()

    def test_a_world_of_chosen_stages_carries_the_counts(self):
        text = eredu.plan_world_json(self.model, PP2, pipeline_layers=(1, 3))
        self.assertTrue(text.startswith(
            '{"schema":"eredu.world.v1","topology":{"tensor":1,"pipeline":2,"expert":1,"data":1,'
            '"pipeline_layers":[1,3]},'), text)
        self.assertIn('{"rank":0,"coordinates":{"tensor":0,"pipeline":0,"expert":0,"data":0},'
                      '"totals":{"local_bytes":13504,"global_bytes":43712,'
                      '"materialized_tensors":17,"omitted_tensors":37}', text)
        self.assertIn('{"rank":1,"coordinates":{"tensor":0,"pipeline":1,"expert":0,"data":0},'
                      '"totals":{"local_bytes":33664,"global_bytes":43712,'
                      '"materialized_tensors":42,"omitted_tensors":12}', text)
        self.assertTrue(text.endswith('"coverage":{"ok":true,"tensors":54,"problems":[]}}\n'))
        # Any iterable of integers; the same bytes on the calling thread only.
        self.assertEqual(eredu.plan_world_json(self.model, PP2, pipeline_layers=[1, 3],
                                               threads=1), text)
        self.assertEqual(eredu.plan_world_json(self.model, PP2, pipeline_layers=iter((1, 3))),
                         text)
        # None and empty are the balanced split (2, 2), without counts.
        balanced = eredu.plan_world_json(self.model, PP2)
        self.assertTrue(balanced.startswith(
            '{"schema":"eredu.world.v1","topology":{"tensor":1,"pipeline":2,"expert":1,'
            '"data":1},'), balanced)
        self.assertEqual(eredu.plan_world_json(self.model, PP2, pipeline_layers=()), balanced)

    def test_a_check_of_chosen_stages_carries_the_counts(self):
        text = eredu.check_json(self.model, PP2, pipeline_layers=(3, 1))
        self.assertTrue(text.startswith('{"schema":"eredu.check.v1"'), text)
        self.assertIn('"topology":{"tensor":1,"pipeline":2,"expert":1,"data":1,'
                      '"pipeline_layers":[3,1]}', text)

    def test_rank_one_of_stages_one_and_three_holds_layers_one_to_three(self):
        with plan_rank(self.model, PP2, 1, pipeline_layers=(1, 3)) as layout, \
                self.model.plan_rank(PP2, 1, ShardingPolicy.REQUIRE,
                                     pipeline_layers=(1, 3)) as same:
            self.assertEqual(layout.coordinates().pipeline, 1)
            self.assertEqual(layout.totals(), LayoutTotals(33664, 43712, 42, 12, 0))
            per_layer = {layer: [0, 0] for layer in range(4)}  # omitted, held
            for target, tensor in layout.tensors():
                layer = layer_of(target)
                if layer is not None:
                    per_layer[layer][tensor.placement.kind != PlacementKind.OMIT] += 1
            self.assertEqual(per_layer, {0: [12, 0], 1: [0, 12], 2: [0, 12], 3: [0, 12]})
            q0 = layout.tensor("layers.0.self_attn.qkv_proj.weight")
            self.assertEqual(q0.placement.kind, PlacementKind.OMIT)
            self.assertEqual(q0.local_bytes, 0)
            q1 = layout.tensor("layers.1.self_attn.qkv_proj.weight")
            self.assertNotEqual(q1.placement.kind, PlacementKind.OMIT)
            self.assertEqual(q1.local_shape, (32, 16))
            self.assertEqual(q1.local_bytes, 32 * 16 * 2)
            text = layout.to_json()
            self.assertTrue(text.startswith(
                '{"schema":"eredu.layout.v1","topology":{"tensor":1,"pipeline":2,"expert":1,'
                '"data":1,"pipeline_layers":[1,3]},"rank":1,'), text[:200])
            self.assertEqual(same.to_json(), text)
        # Balanced, rank 1 is stage 1 of (2, 2): layer 1 is omitted.
        with plan_rank(self.model, PP2, 1) as balanced:
            self.assertEqual(balanced.tensor("layers.1.self_attn.qkv_proj.weight").placement.kind,
                             PlacementKind.OMIT)

    def refused(self, topology, counts, message):
        """Every planning call refuses `counts` at `topology` with `message`."""
        calls = (lambda: plan_rank(self.model, topology, 0, pipeline_layers=counts),
                 lambda: eredu.plan_world_json(self.model, topology, pipeline_layers=counts),
                 lambda: eredu.check_json(self.model, topology, pipeline_layers=counts))
        for planning in calls:
            with self.assertRaises(GeneralError) as caught:
                planning()
            self.assertEqual(caught.exception.code, status.EREDU_E_INVALID_ARGUMENT)
            self.assertEqual(caught.exception.code, 2)
            self.assertEqual(caught.exception.name, "EREDU_E_INVALID_ARGUMENT")
            self.assertEqual(caught.exception.message, message)

    def test_counts_that_do_not_sum_to_the_model_layers_are_refused(self):
        self.refused(PP2, (2, 3),
                     "pipeline layers 2, 3 sum to 5, not the model's 4 decoder layers")

    def test_one_count_per_stage_at_least_one_each_without_overflow(self):
        self.refused(PP3, (2, 2),
                     "pipeline layers: 2 counts for 3 pipeline stages; give one per stage")
        self.refused((1, 1, 1, 1), (2, 2),
                     "pipeline layers: 2 counts for 1 pipeline stage; give one per stage")
        self.refused(PP2, (4, 0),
                     "pipeline layers: stage 1 has 0 layers; every stage needs at least one")
        self.refused(PP2, (2**64 - 1, 1), "pipeline layers: the sum overflows 64 bits")

    def test_counts_are_checked_before_any_call(self):
        names = ("eredu_plan_rank", "eredu_plan_world_json", "eredu_check_json")
        with counting(*names) as calls:
            for counts, error in ((3, TypeError), ("13", TypeError), (b"\x01\x03", TypeError),
                                  ((1, -3), ValueError), ((1, 2**64), ValueError),
                                  ((1, 3.0), TypeError), ((True, 3), TypeError)):
                with self.assertRaises(error, msg=repr(counts)):
                    plan_rank(self.model, PP2, 0, pipeline_layers=counts)
                with self.assertRaises(error, msg=repr(counts)):
                    eredu.plan_world_json(self.model, PP2, pipeline_layers=counts)
                with self.assertRaises(error, msg=repr(counts)):
                    eredu.check_json(self.model, PP2, pipeline_layers=counts)
        self.assertEqual(calls, {name: [] for name in names})
        with self.assertRaises(ValueError) as caught:
            plan_rank(self.model, PP2, 0, pipeline_layers=(1, -3))
        self.assertIn("pipeline_layers[1]", str(caught.exception))

    def test_the_options_keep_their_counts_alive(self):
        options = plan_options(ShardingPolicy.REQUIRE, 0, pipeline_layers=[19, 21, 21, 19])
        gc.collect()
        self.assertEqual(options.pipeline_layer_count, 4)
        self.assertEqual(options.pipeline_layers[:4], [19, 21, 21, 19])
        for counts in (None, ()):
            options = plan_options(ShardingPolicy.REQUIRE, 0, pipeline_layers=counts)
            self.assertFalse(options.pipeline_layers)  # NULL
            self.assertEqual(options.pipeline_layer_count, 0)

    def test_the_binding_never_sends_null_with_a_count(self):
        # What the library says to NULL counts with a count: the binding
        # passes NULL only with 0 (above), so only a raw call reaches it.
        options = plan_options(ShardingPolicy.REQUIRE, 0)
        options.pipeline_layer_count = 2
        topology = ParallelTopology(*PP2).struct()
        text, length = ctypes.c_void_p(), ctypes.c_size_t()
        with self.assertRaises(eredu.EreduError) as caught:
            call(lib.eredu_plan_world_json, self.model._handle(), ctypes.byref(topology),
                 ctypes.byref(options), ctypes.byref(text), ctypes.byref(length))
        self.assertEqual(caught.exception.code, status.EREDU_E_NULL_ARGUMENT)
        self.assertEqual(caught.exception.message,
                         "argument options->pipeline_layers is NULL but its count is 2")
        self.assertFalse(text)
        self.assertIsInstance(options, _capi.eredu_plan_options)


if __name__ == "__main__":
    unittest.main()
