# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Stacked experts through the Python API (docs/planning.md, "Stacked
experts"): one layer's 4 experts stacked on axis 0 of `up` [4, 8, 2]
(partitioned on axis 1 by 8 units) and `bias` [4, 2] (replicated), planned
at T = 2, E = 2. The misuse the library rejects."""
import unittest

from eredu import (Dtype, ExpertRange, MemberSharding, ModelDescription, ParallelPlanError,
                   ParameterGroupSpec, ParameterMemberSpec, ParameterRole, PlacementKind,
                   TensorPlacement, plan_rank, status)


def members(up_axis=0):
    return [
        ParameterMemberSpec("experts.up", [4, 8, 2], MemberSharding.partitioned(1),
                            dtype=Dtype.F32, expert_axis=up_axis),
        ParameterMemberSpec("experts.bias", [4, 2], MemberSharding.replicated(),
                            dtype=Dtype.F32, expert_axis=0),
    ]


def experts(up_axis=0):
    return ParameterGroupSpec.partitioned("experts", ParameterRole.EXPERT_INTERMEDIATE, 8,
                                          members(up_axis))


class StackedExperts(unittest.TestCase):
    def test_the_expert_axis_reads_back(self):
        with experts() as group:
            self.assertEqual(group.members(), members())
            self.assertEqual(group.members()[0].expert_axis, 0)
        self.assertIsNone(ParameterMemberSpec("plain", [2], MemberSharding.replicated())
                          .expert_axis)

    def test_expert_rank_e_holds_experts_2e_to_2e_plus_2(self):
        with experts() as group, ModelDescription.from_groups([group], experts=4) as model:
            # rank = tensor * 2 + expert (docs/planning.md, "Rank and coordinates").
            for rank in range(4):
                tensor, expert = divmod(rank, 2)
                with self.subTest(rank=rank), plan_rank(model, (2, 1, 2, 1), rank) as layout:
                    up = layout.tensor("experts.up")
                    self.assertEqual(up.placement, TensorPlacement(
                        PlacementKind.RANGE, axis=1, start=4 * tensor, end=4 * tensor + 4))
                    self.assertEqual(up.expert_range, ExpertRange(0, 2 * expert, 2 * expert + 2))
                    self.assertEqual(layout.expert_range("experts.up"), up.expert_range)
                    self.assertEqual(up.local_shape, (2, 4, 2))
                    self.assertEqual(up.local_bytes, 64)
                    bias = layout.tensor("experts.bias")
                    self.assertEqual(bias.placement, TensorPlacement(
                        PlacementKind.RANGE, axis=0, start=2 * expert, end=2 * expert + 2))
                    self.assertEqual(bias.local_bytes, 16)

    def test_the_expert_axis_cannot_be_the_tensor_parallel_axis(self):
        with self.assertRaises(ParallelPlanError) as caught:
            experts(up_axis=1)
        self.assertEqual(caught.exception.code, status.EREDU_E_INVALID_GROUP)
        self.assertEqual(caught.exception.message,
                         'parallel parameter group "experts": member "experts.up" stacks experts '
                         "on axis 1, its tensor-parallel axis")

    def test_an_extent_other_than_the_model_experts_fails_at_planning(self):
        with experts() as group, ModelDescription.from_groups([group], experts=8) as model:
            with self.assertRaises(ParallelPlanError) as caught:
                plan_rank(model, (1, 1, 2, 1), 0)
            self.assertEqual(caught.exception.code, status.EREDU_E_INVALID_TENSOR)
            self.assertEqual(caught.exception.message,
                             'logical parameter "experts": tensor "experts.up" expert axis 0 '
                             "extent 4 does not match the model's 8 routed experts")


if __name__ == "__main__":
    unittest.main()
