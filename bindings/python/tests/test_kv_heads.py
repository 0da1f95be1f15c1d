# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""KV-head replication through the Python API (docs/planning.md): a
grouped-query group of 2 KV heads and 8 query heads (head width 2), its
query units and per_kv_head member read back, planned at TP 4 (each KV head
held whole by 2 tensor ranks) and refused at TP 3, and the misuse the
library rejects."""
import ctypes
import unittest

from eredu import (GeneralError, MemberSharding, ModelDescription, ParallelPlanError,
                   ParameterGroupSpec, ParameterMemberSpec, ParameterRole, PlacementKind,
                   TensorPlacement, plan_rank, status)
from eredu import _capi
from eredu import group as group_module
from eredu._library import lib
from eredu.errors import call

Q = ParameterMemberSpec("q", [16, 4], MemberSharding.partitioned(0))
K = ParameterMemberSpec("k", [4, 4], MemberSharding.partitioned(0), per_kv_head=True)


def attention(**overrides):
    arguments = dict(partition_units=2, query_units=8)
    arguments.update(overrides)
    members = arguments.pop("members", [Q, K])
    return ParameterGroupSpec("attn", ParameterRole.ATTENTION_HEADS, members, **arguments)


class KvHeads(unittest.TestCase):
    def test_query_units_and_per_kv_head_read_back(self):
        with attention() as group:
            self.assertEqual(group.partition_units(), 2)
            self.assertEqual(group.query_units(), 8)
            members = group.members()
            self.assertEqual(members, [Q, K])
            self.assertEqual([member.per_kv_head for member in members], [False, True])
        with ParameterGroupSpec.partitioned("attn", ParameterRole.ATTENTION_HEADS, 2, [Q, K],
                                            query_units=8) as group:
            self.assertEqual(group.query_units(), 8)
        with ParameterGroupSpec.partitioned("attn", ParameterRole.ATTENTION_HEADS, 2,
                                            [Q]) as group:
            self.assertIsNone(group.query_units())
            self.assertFalse(group.members()[0].per_kv_head)

    def test_each_kv_head_is_held_whole_by_two_ranks_at_tp4(self):
        with attention() as group, ModelDescription.from_groups([group]) as model:
            for rank in (1, 2):
                head = rank // 2
                with plan_rank(model, (4, 1, 1, 1), rank) as layout:
                    k = layout.tensor("k")
                    self.assertEqual(k.placement, TensorPlacement(
                        PlacementKind.RANGE, axis=0, start=2 * head, end=2 * head + 2))
                    self.assertEqual(k.local_shape, (2, 4))
                    self.assertEqual(k.kv_head_copies, 2)
                    self.assertEqual(layout.kv_head_copies("k"), 2)
                    self.assertEqual(k.logical_units, 2)
                    self.assertEqual(k.logical_range, range(head, head + 1))
                    self.assertFalse(k.fell_back_to_replication)
                    q = layout.tensor("q")
                    self.assertEqual(q.placement, TensorPlacement(
                        PlacementKind.RANGE, axis=0, start=4 * rank, end=4 * rank + 4))
                    self.assertEqual(q.local_shape, (4, 4))
                    self.assertEqual(q.kv_head_copies, 1)
                    self.assertEqual(layout.kv_head_copies(layout.index("q")), 1)
                    text = layout.to_json()
                    self.assertIn('"fell_back_to_replication":false,"kv_head_copies":2', text)
                    self.assertEqual(text.count("kv_head_copies"), 1)
            with plan_rank(model, (2, 1, 1, 1), 1) as layout:
                self.assertEqual(layout.tensor("k").kv_head_copies, 1)
                self.assertEqual(layout.placement("k"), TensorPlacement(
                    PlacementKind.RANGE, axis=0, start=2, end=4))

    def test_tp3_cannot_replicate_the_kv_heads(self):
        with attention() as group, ModelDescription.from_groups([group]) as model:
            with self.assertRaises(ParallelPlanError) as caught:
                plan_rank(model, (3, 1, 1, 1), 0)
        self.assertEqual(caught.exception.code, status.EREDU_E_INVALID_TENSOR)
        self.assertEqual(caught.exception.message,
                         'logical parameter "attn": 2 KV heads and 8 query heads cannot be split '
                         "3 ways: KV heads are replicated only at a multiple of 2 that divides 8; "
                         "tensor sizes up to 64 that work for this group: 1, 2, 4, 8")

    def test_misuse(self):
        equal = [ParameterMemberSpec("q", [16, 4], MemberSharding.equal(0)),
                 ParameterMemberSpec("k", [4, 4], MemberSharding.equal(0))]
        with self.assertRaises(ParallelPlanError) as caught:
            attention(partition_units=None, members=equal)
        self.assertEqual(caught.exception.code, status.EREDU_E_INVALID_GROUP)
        self.assertEqual(caught.exception.message,
                         'parallel parameter group "attn": query_units needs partition_units')

        with self.assertRaises(ParallelPlanError) as caught:
            attention(query_units=None)
        self.assertEqual(caught.exception.code, status.EREDU_E_INVALID_GROUP)
        self.assertEqual(caught.exception.message,
                         'parallel parameter group "attn": per_kv_head member "k" needs the '
                         "group's query_units")

        with self.assertRaises(ValueError):
            attention(query_units=-1)

    def test_a_raw_flag_other_than_0_or_1_is_an_invalid_argument(self):
        # The Python API stores a bool; the C check is reached only through
        # the raw descriptor.
        array, count = group_module.member_array([Q, K])
        array[1].contents.per_kv_head = 2
        desc = _capi.sized(_capi.eredu_group_desc)
        desc.name, desc.role = b"attn", ParameterRole.ATTENTION_HEADS
        desc.has_partition_units, desc.partition_units = 1, 2
        desc.has_query_units, desc.query_units = 1, 8
        slot = ctypes.POINTER(_capi.eredu_group)()
        with self.assertRaises(GeneralError) as caught:
            call(lib.eredu_group_new, ctypes.byref(desc), array, count, ctypes.byref(slot))
        self.assertEqual(caught.exception.code, status.EREDU_E_INVALID_ARGUMENT)
        self.assertEqual(caught.exception.message,
                         "flag members[1]->per_kv_head is 2, expected 0 or 1")
        self.assertFalse(slot)


if __name__ == "__main__":
    unittest.main()
