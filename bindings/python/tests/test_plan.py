# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Groups, descriptions and rank plans through the Python API, with exact
values: a GQA attention group at TP 2 and 4 (ranges, shapes, bytes), the
seed's planner tests, and the error codes and messages of each step."""
import copy
import dataclasses
import pickle
import unittest

from eredu import (Dtype, EreduError, GeneralError, GroupScope, LocalTensorLayout, MemberSharding,
                   ModelDescription, ParallelCoordinates, ParallelPlanError, ParallelTopology,
                   ParameterGroupSpec, ParameterMemberSpec, ParameterRole, PlacementKind,
                   ShardingKind, ShardingPolicy, TensorPlacement, TopologyError,
                   aligned_partition_units, partitioned_group_with_preferred_units, plan_rank,
                   status)
from test_handles import library_calls

Member = ParameterMemberSpec
Sharding = MemberSharding
Role = ParameterRole


def gqa_group():
    """8 query heads of 8 channels in 4 KV groups (the logical units), a
    hidden size of 64, BF16 projections and a fused F32 qkv bias."""
    return ParameterGroupSpec.partitioned("model.layers.0.self_attn", Role.ATTENTION_HEADS, 4, [
        Member("q_proj.weight", [64, 64], Sharding.partitioned(0), Dtype.BF16),
        Member("k_proj.weight", [32, 64], Sharding.partitioned(0), Dtype.BF16),
        Member("v_proj.weight", [32, 64], Sharding.partitioned(0), Dtype.BF16),
        Member("o_proj.weight", [64, 64], Sharding.partitioned(1), "BF16"),
        Member("qkv_proj.bias", [128],
               Sharding.partitioned_segments(0, [(0, 64), (64, 96), range(96, 128)]), "F32"),
    ])


def model_of(*groups, **info):
    model = ModelDescription.from_groups(groups, **info)
    for group in groups:
        group.close()
    return model


def ranged(axis, start, end):
    return TensorPlacement(PlacementKind.RANGE, axis=axis, start=start, end=end)


class GqaAttention(unittest.TestCase):
    def setUp(self):
        self.model = model_of(gqa_group())

    def tearDown(self):
        self.model.close()

    def test_the_group_reads_back(self):
        with gqa_group() as group:
            self.assertEqual(group.logical_name(), "model.layers.0.self_attn")
            self.assertEqual(group.role(), Role.ATTENTION_HEADS)
            self.assertEqual(group.partition_units(), 4)
            self.assertEqual(group.member_count(), 5)
            self.assertEqual(group.member_target(3), "o_proj.weight")
            members = group.members()
        self.assertEqual(members[0], Member("q_proj.weight", (64, 64), Sharding.partitioned(0),
                                            Dtype.BF16))
        self.assertEqual(members[4].sharding.kind, ShardingKind.PARTITIONED_SEGMENTS)
        self.assertEqual(members[4].sharding.segments,
                         (range(0, 64), range(64, 96), range(96, 128)))

    def test_the_description(self):
        self.assertEqual(self.model.group_count(), 1)
        self.assertEqual(self.model.tensor_count(), 5)
        self.assertEqual(self.model.global_bytes(), 25088)

    def test_tp2_rank1_owns_kv_groups_2_to_4(self):
        with plan_rank(self.model, ParallelTopology(tensor=2), 1) as layout:
            self.assertEqual(layout.len(), 5)
            self.assertEqual(layout.rank(), 1)
            self.assertEqual(layout.topology(), ParallelTopology(2, 1, 1, 1))
            self.assertEqual(layout.coordinates(), ParallelCoordinates(1, 0, 0, 0))
            self.assertEqual(layout.policy(), ShardingPolicy.REQUIRE)
            self.assertEqual([target for target, _ in layout.tensors()],
                             ["k_proj.weight", "o_proj.weight", "q_proj.weight", "qkv_proj.bias",
                              "v_proj.weight"])
            self.assertEqual(layout.placement("q_proj.weight"), ranged(0, 32, 64))
            self.assertEqual(layout.local_shape("q_proj.weight"), (32, 64))
            self.assertEqual(layout.local_bytes("q_proj.weight"), 4096)
            self.assertEqual(layout.placement("k_proj.weight"), ranged(0, 16, 32))
            self.assertEqual(layout.local_shape("k_proj.weight"), (16, 64))
            self.assertEqual(layout.local_bytes("v_proj.weight"), 2048)
            self.assertEqual(layout.placement("o_proj.weight"), ranged(1, 32, 64))
            self.assertEqual(layout.local_shape("o_proj.weight"), (64, 32))
            self.assertEqual(layout.global_shape("o_proj.weight"), (64, 64))
            bias = layout.tensor("qkv_proj.bias")
            self.assertEqual(bias.placement.runs, (range(32, 64), range(80, 96), range(112, 128)))
            self.assertEqual(bias.placement.count, 64)
            self.assertEqual(bias.placement.indices(),
                             list(range(32, 64)) + list(range(80, 96)) + list(range(112, 128)))
            self.assertEqual(bias.local_shape, (64,))
            self.assertEqual(bias.local_bytes, 256)
            self.assertEqual(bias.dtype, Dtype.F32)
            self.assertEqual(bias.logical_units, 4)
            self.assertEqual(bias.logical_range, range(2, 4))
            self.assertFalse(bias.fell_back_to_replication)
            totals = layout.totals()
            self.assertEqual((totals.local_bytes, totals.global_bytes,
                              totals.materialized_tensors, totals.omitted_tensors,
                              totals.unknown_bytes_tensors), (12544, 25088, 5, 0, 0))

    def test_tp4_rank2_owns_kv_group_2(self):
        with self.model.plan_rank((4, 1, 1, 1), 2) as layout:
            expected = {
                "q_proj.weight": (ranged(0, 32, 48), (16, 64), 2048),
                "k_proj.weight": (ranged(0, 16, 24), (8, 64), 1024),
                "v_proj.weight": (ranged(0, 16, 24), (8, 64), 1024),
                "o_proj.weight": (ranged(1, 32, 48), (64, 16), 2048),
                "qkv_proj.bias": (TensorPlacement(PlacementKind.INDICES, axis=0, runs=(
                    range(32, 48), range(80, 88), range(112, 120)), count=32), (32,), 128),
            }
            for target, (placement, shape, size) in expected.items():
                tensor = layout.tensor(target)
                self.assertEqual((tensor.placement, tensor.local_shape, tensor.local_bytes),
                                 (placement, shape, size), target)
                self.assertEqual(tensor.logical_range, range(2, 3))
                self.assertEqual(tensor.logical_name, "model.layers.0.self_attn")
                self.assertEqual(tensor.role, Role.ATTENTION_HEADS)
            self.assertEqual(layout.totals().local_bytes, 6272)

    def test_tp8_has_more_ranks_than_kv_groups(self):
        with self.assertRaises(ParallelPlanError) as caught:
            plan_rank(self.model, (8, 1, 1, 1), 5)
        self.assertEqual(caught.exception.code, status.EREDU_E_INVALID_TENSOR)
        self.assertEqual(caught.exception.name, "EREDU_E_INVALID_TENSOR")
        self.assertEqual(caught.exception.message,
                         'logical parameter "model.layers.0.self_attn": 4 partition units — '
                         "declared by the group — cannot be split 8 ways; tensor sizes up to 64 "
                         "that work for this group: 1, 2, 3, 4")
        with plan_rank(self.model, (8, 1, 1, 1), 5, ShardingPolicy.REPLICATE_UNSUPPORTED) as layout:
            query = layout.tensor("q_proj.weight")
            self.assertEqual(query.placement, TensorPlacement(PlacementKind.REPLICATED))
            self.assertEqual(query.local_shape, (64, 64))
            self.assertEqual(query.logical_range, range(0, 4))
            self.assertTrue(query.fell_back_to_replication)
            self.assertEqual(layout.totals().local_bytes, 25088)

    def test_require_even_refuses_the_uneven_split_require_plans(self):
        with plan_rank(self.model, (3, 1, 1, 1), 0) as layout:
            self.assertEqual(layout.tensor("q_proj.weight").logical_range, range(0, 2))
        with self.assertRaises(ParallelPlanError) as caught:
            plan_rank(self.model, (3, 1, 1, 1), 0, ShardingPolicy.REQUIRE_EVEN)
        self.assertEqual(caught.exception.code, status.EREDU_E_INVALID_TENSOR)
        self.assertEqual(caught.exception.message,
                         'logical parameter "model.layers.0.self_attn": the group\'s 4 partition '
                         "units do not split evenly 3 ways under require_even; sizes up to 64 "
                         "that divide it: 1, 2, 4")
        with plan_rank(self.model, (2, 1, 1, 1), 1, ShardingPolicy.REQUIRE_EVEN) as layout:
            self.assertEqual(layout.policy(), ShardingPolicy.REQUIRE_EVEN)
            self.assertEqual(layout.tensor("q_proj.weight").logical_range, range(2, 4))

    def test_the_json_text(self):
        with plan_rank(self.model, (2, 1, 1, 1), 0) as layout:
            text = layout.to_json()
        self.assertTrue(text.startswith(
            '{"schema":"eredu.layout.v1","topology":{"tensor":2,"pipeline":1,"expert":1,'
            '"data":1},"rank":0,"coordinates":{"tensor":0,"pipeline":0,"expert":0,"data":0},'
            '"policy":"require","tensors":[{"target":"k_proj.weight",'))
        self.assertIn('"placement":{"kind":"indices","axis":0,"runs":[[0,32],[64,80],[96,112]],'
                      '"count":64}', text)
        self.assertTrue(text.endswith('"totals":{"local_bytes":12544,"global_bytes":25088,'
                                      '"materialized_tensors":5,"omitted_tensors":0}}\n'))

    def test_the_same_model_from_json_plans_the_same(self):
        with plan_rank(self.model, (4, 1, 1, 1), 3) as layout:
            expected = layout.to_json()
        with ModelDescription.from_json(GQA_JSON) as model:
            with plan_rank(model, (4, 1, 1, 1), 3) as layout:
                self.assertEqual(layout.to_json(), expected)

    def test_missing_targets(self):
        with plan_rank(self.model, (2, 1, 1, 1), 0) as layout:
            self.assertIsNone(layout.tensor("missing"))
            self.assertFalse(layout.contains("missing"))
            self.assertTrue(layout.contains("q_proj.weight"))
            with self.assertRaises(GeneralError) as caught:
                layout.placement("missing")
            self.assertEqual(caught.exception.code, status.EREDU_E_NOT_FOUND)
            self.assertEqual(caught.exception.message, 'the layout has no tensor "missing"')
            with self.assertRaises(GeneralError) as caught:
                layout.tensor_at(5)
            self.assertEqual(caught.exception.code, status.EREDU_E_INVALID_ARGUMENT)


GQA_JSON = """{"schema": "eredu.groups.v1", "groups": [
 {"name": "model.layers.0.self_attn", "role": "attention_heads", "partition_units": 4,
  "members": [
   {"target": "q_proj.weight", "shape": [64, 64], "dtype": "BF16",
    "sharding": {"kind": "partitioned", "axis": 0}},
   {"target": "k_proj.weight", "shape": [32, 64], "dtype": "BF16",
    "sharding": {"kind": "partitioned", "axis": 0}},
   {"target": "v_proj.weight", "shape": [32, 64], "dtype": "BF16",
    "sharding": {"kind": "partitioned", "axis": 0}},
   {"target": "o_proj.weight", "shape": [64, 64], "dtype": "BF16",
    "sharding": {"kind": "partitioned", "axis": 1}},
   {"target": "qkv_proj.bias", "shape": [128], "dtype": "F32",
    "sharding": {"kind": "partitioned_segments", "axis": 0,
                 "segments": [[0, 64], [64, 96], [96, 128]]}}]}]}"""


class SeedPlannerTests(unittest.TestCase):
    """The seed's planner tests (docs/planning.md), through Python."""

    def test_plans_atomic_quantized_row_projection(self):
        with model_of(ParameterGroupSpec.new("decoder.mlp.down", Role.ROW_PROJECTION, [
            Member("down.weight", [8, 16], Sharding.equal(1)),
            Member("down.scales", [8, 4], Sharding.equal(1)),
            Member("down.bias", [8], Sharding.replicated()),
        ])) as model, plan_rank(model, (2, 1, 1, 1), 1) as layout:
            self.assertEqual(layout.local_shape("down.weight"), (8, 8))
            self.assertEqual(layout.local_shape("down.scales"), (8, 2))
            self.assertEqual(layout.local_shape("down.bias"), (8,))
            self.assertEqual(layout.placement("down.bias"),
                             TensorPlacement(PlacementKind.REPLICATED))
            self.assertEqual(layout.placement("down.weight"),
                             TensorPlacement(PlacementKind.SHARD, axis=1, index=1, parts=2))
            self.assertIsNone(layout.local_bytes("down.weight"))  # no dtype: unknown bytes
            self.assertEqual(layout.totals().unknown_bytes_tensors, 3)

    def test_segmented_qkv_preserves_segment_order(self):
        with model_of(ParameterGroupSpec.new("qkv", Role.SEGMENTED, [
            Member("qkv.weight", [16, 8], Sharding.segmented(0, [(0, 8), (8, 12), (12, 16)])),
        ])) as model, plan_rank(model, (2, 1, 1, 1), 1) as layout:
            placement = layout.placement("qkv.weight")
            self.assertEqual(placement.indices(), [4, 5, 6, 7, 10, 11, 14, 15])
            self.assertEqual(layout.local_shape(0), (8, 8))

    def test_aligned_members_share_an_uneven_logical_range(self):
        with model_of(ParameterGroupSpec.partitioned("aligned.quantized", Role.ATTENTION_HEADS, 5, [
            Member("weight", [8, 20], Sharding.partitioned(1)),
            Member("scales", [8, 10], Sharding.partitioned(1)),
        ])) as model:
            expected = [(range(0, 2), (0, 8), (0, 4)), (range(2, 4), (8, 16), (4, 8)),
                        (range(4, 5), (16, 20), (8, 10))]
            for rank, (logical, weight, scales) in enumerate(expected):
                with plan_rank(model, (3, 1, 1, 1), rank) as layout:
                    self.assertEqual(layout.logical_range("weight"), logical)
                    self.assertEqual(layout.logical_units("weight"), 5)
                    self.assertEqual(layout.placement("weight"), ranged(1, *weight))
                    self.assertEqual(layout.placement("scales"), ranged(1, *scales))

    def test_groups_reject_duplicate_physical_targets(self):
        with self.assertRaises(ParallelPlanError) as caught:
            ParameterGroupSpec.new("attention", Role.ATTENTION_HEADS, [
                Member("q.weight", [8, 8], Sharding.replicated()),
                Member("q.weight", [8, 8], Sharding.replicated()),
            ])
        self.assertEqual(caught.exception.code, status.EREDU_E_INVALID_GROUP)
        self.assertEqual(caught.exception.message,
                         'parallel parameter group "attention" repeats tensor target "q.weight"')

    def test_group_partition_contract_is_explicit(self):
        member = Member("q.weight", [8, 8], Sharding.partitioned(0))
        with self.assertRaises(ParallelPlanError) as caught:
            ParameterGroupSpec.new("query", Role.ATTENTION_HEADS, [member])
        self.assertEqual(caught.exception.message,
                         'parallel parameter group "query" must declare exactly one group-level '
                         "logical partition for its partitioned members")
        ParameterGroupSpec.partitioned("query", Role.ATTENTION_HEADS, 4, [member]).close()

    def test_preferred_partition_units_follow_every_physical_companion(self):
        with partitioned_group_with_preferred_units(
                "experts.intermediate", Role.EXPERT_INTERMEDIATE, 64, [
                    Member("experts.up_proj", [4, 64, 16], Sharding.partitioned(1)),
                    Member("experts.down_proj", [4, 16, 8], Sharding.partitioned(2)),
                    Member("experts.down_proj_scales", [4, 16, 2], Sharding.partitioned(2)),
                ]) as group:
            self.assertEqual(group.partition_units(), 2)

    def test_quantized_alignment_combines_complete_semantic_units(self):
        self.assertEqual(aligned_partition_units("GQA", 6, 16, 32), 3)
        self.assertEqual(aligned_partition_units("SwiGLU", 96, 1, 32), 3)
        with self.assertRaises(ParallelPlanError) as caught:
            aligned_partition_units("GQA", 3, 16, 32)
        self.assertIn("cannot form complete", caught.exception.message)

    def test_scopes_omit_other_stages(self):
        embed = ParameterGroupSpec.new("embed", Role.VOCABULARY, [
            Member("embed.weight", [16, 4], Sharding.equal(0), "F16")],
            scope=GroupScope.embedding())
        layer = ParameterGroupSpec.new("layer1", Role.REPLICATED, [
            Member("norm.weight", [4], Sharding.replicated(), "F16")],
            scope=GroupScope.indexed(layer=1))
        with model_of(embed, layer, layers=2) as model, plan_rank(model, (1, 2, 1, 1), 1) as last:
            self.assertEqual(last.placement("embed.weight"), TensorPlacement(PlacementKind.OMIT))
            self.assertEqual(last.local_shape("embed.weight"), ())
            self.assertEqual(last.local_bytes("embed.weight"), 0)
            self.assertEqual(last.placement("norm.weight"),
                             TensorPlacement(PlacementKind.REPLICATED))
            self.assertEqual(last.totals().omitted_tensors, 1)


class Errors(unittest.TestCase):
    def setUp(self):
        self.model = model_of(gqa_group())

    def tearDown(self):
        self.model.close()

    def expect(self, error_type, code, message, function, *args, **kwargs):
        with self.assertRaises(error_type) as caught:
            function(*args, **kwargs)
        self.assertEqual((caught.exception.code, caught.exception.name,
                          caught.exception.message),
                         (code, status.NAMES[code], message))

    def test_topology_and_rank_errors(self):
        self.expect(TopologyError, 200, "parallel topology axis sizes must be positive",
                    plan_rank, self.model, (0, 1, 1, 1), 0)
        self.expect(TopologyError, 201, "parallel topology world size overflows usize",
                    plan_rank, self.model, (2**63, 2, 1, 1), 0)
        self.expect(TopologyError, 202, "rank 4 is outside world size 4",
                    plan_rank, self.model, (4, 1, 1, 1), 4)
        self.expect(TopologyError, 205,
                    "pipeline topology preflight requires the decoder-layer count",
                    plan_rank, self.model, (1, 2, 1, 1), 0)
        self.expect(TopologyError, 206,
                    "expert topology preflight requires the routed-expert count",
                    plan_rank, self.model, (1, 1, 2, 1), 0)

    def test_argument_errors(self):
        # The library names the struct field: eredu_plan_options.policy,
        # eredu_group_desc.role.
        self.expect(GeneralError, 2, "unknown options->policy value 7", plan_rank, self.model,
                    (1, 1, 1, 1), 0, 7)
        self.expect(GeneralError, 2, "unknown desc->role value 99", ParameterGroupSpec.new, "query",
                    99, [Member("q.weight", [8, 8], Sharding.replicated())])

    def test_group_rules(self):
        member = Member("q.weight", [8, 8], Sharding.replicated())
        self.expect(ParallelPlanError, 100, "parallel parameter logical name must not be empty",
                    ParameterGroupSpec.new, "  ", Role.REPLICATED, [member])
        self.expect(ParallelPlanError, 100,
                    "parallel logical partition must contain at least one unit",
                    ParameterGroupSpec.partitioned, "q", Role.REPLICATED, 0, [member])
        self.expect(ParallelPlanError, 100,
                    'parallel parameter group "query" must contain at least one tensor',
                    ParameterGroupSpec.new, "query", Role.REPLICATED, [])

    def test_strict_policy_rejects_indivisible_groups(self):
        with model_of(ParameterGroupSpec.new("indivisible", Role.ROW_PROJECTION, [
            Member("weight", [10, 4], Sharding.equal(0), "F32"),
            Member("bias", [10], Sharding.equal(0), "F32"),
        ])) as model:
            self.expect(ParallelPlanError, 101,
                        'logical parameter "indivisible": tensor "weight" dimension 10 on axis 0 '
                        "is not divisible by TP size 3", plan_rank, model, (3, 1, 1, 1), 0)
            with plan_rank(model, (3, 1, 1, 1), 0, ShardingPolicy.REPLICATE_UNSUPPORTED) as layout:
                weight = layout.tensor("weight")
                self.assertTrue(weight.fell_back_to_replication)
                self.assertEqual(weight.local_shape, (10, 4))
                self.assertIsNone(weight.logical_units)
                self.assertIsNone(weight.logical_range)

    def test_a_target_in_two_groups(self):
        weight = Member("w", [2], Sharding.replicated())
        first = ParameterGroupSpec.new("a", Role.REPLICATED, [weight])
        second = ParameterGroupSpec.new("b", Role.REPLICATED, [weight])
        with first, second:
            self.expect(ParallelPlanError, 100,
                        'parallel placement target "w" was registered more than once',
                        ModelDescription.from_groups, [first, second])

    def test_load_errors(self):
        self.expect(GeneralError, 6, '/groups/0/role: unknown role "bogus"',
                    ModelDescription.from_json,
                    '{"schema":"eredu.groups.v1","groups":[{"name":"a","role":"bogus",'
                    '"members":[]}]}')
        self.expect(GeneralError, 8,
                    'unsupported schema "eredu.groups.v2"; this version reads "eredu.groups.v1"',
                    ModelDescription.from_json, b'{"schema":"eredu.groups.v2","groups":[]}')

    def test_every_failure_is_an_eredu_error(self):
        with self.assertRaises(EreduError):
            plan_rank(self.model, (1, 1, 1, 1), 1)


class OneCallPerRecord(unittest.TestCase):
    """Each record is read with one library call (its info struct); counts
    are plain values."""

    calls = staticmethod(library_calls)

    def test_layout_records(self):
        with model_of(gqa_group()) as model, plan_rank(model, (2, 1, 1, 1), 1) as layout:
            get = "eredu_layout_get_tensor_info"
            self.assertEqual(self.calls(layout.tensor_at, 3), {get: 1})
            self.assertEqual(self.calls(layout.placement, 3), {get: 1})
            self.assertEqual(self.calls(layout.tensor, "q_proj.weight"),
                             {"eredu_layout_find_tensor": 1, get: 1})
            self.assertEqual(self.calls(layout.totals), {"eredu_layout_get_info": 1})
            self.assertEqual(self.calls(layout.coordinates), {"eredu_layout_get_info": 1})
            self.assertEqual(self.calls(layout.topology), {"eredu_layout_topology": 1})
            self.assertEqual(self.calls(len, layout), {"eredu_layout_tensor_count": 1})
            self.assertEqual(self.calls(list, layout.tensors()),
                             {"eredu_layout_tensor_count": 1, get: 5})
            self.assertIs(type(layout.len()), int)

    def test_snapshots_equal_what_their_constructors_make(self):
        with model_of(gqa_group()) as model, plan_rank(model, (4, 1, 1, 1), 2) as layout:
            for _, tensor in layout.tensors():
                fields = {field.name: getattr(tensor, field.name)
                          for field in dataclasses.fields(tensor)}
                placement = tensor.placement
                built = TensorPlacement(**{field.name: getattr(placement, field.name)
                                           for field in dataclasses.fields(placement)})
                fields["placement"] = built
                rebuilt = LocalTensorLayout(**fields)
                self.assertEqual(rebuilt, tensor)
                self.assertEqual(hash(rebuilt), hash(tensor))
                self.assertEqual(repr(rebuilt), repr(tensor))
                self.assertEqual(repr(built), repr(placement))
                self.assertEqual(copy.copy(tensor), tensor)
                self.assertEqual(pickle.loads(pickle.dumps(tensor)), tensor)
                with self.assertRaises(dataclasses.FrozenInstanceError):
                    tensor.target = "changed"
                with self.assertRaises(dataclasses.FrozenInstanceError):
                    placement.axis = 3
            self.assertEqual(dataclasses.replace(layout.tensor("q_proj.weight"), local_bytes=1)
                             .local_bytes, 1)

    def test_group_and_model_records(self):
        with gqa_group() as group, ModelDescription.from_groups([group]) as model:
            self.assertEqual(self.calls(group.partition_units), {"eredu_group_get_info": 1})
            self.assertEqual(self.calls(group.member_target, 1), {"eredu_group_member": 1})
            self.assertEqual(self.calls(group.members),
                             {"eredu_group_get_info": 1, "eredu_group_member": 5})
            for getter, name in ((model.tensor_count, "eredu_model_tensor_count"),
                                 (model.group_count, "eredu_model_group_count"),
                                 (model.global_bytes, "eredu_model_global_bytes")):
                self.assertEqual(self.calls(getter), {name: 1})
                self.assertIs(type(getter()), int)

    def test_a_group_reads_back_its_scope(self):
        member = Member("w", [4], Sharding.replicated())
        for scope in (GroupScope.all(), GroupScope.embedding(), GroupScope.indexed(layer=3),
                      GroupScope.indexed(expert=2), GroupScope.indexed(1, 5)):
            with ParameterGroupSpec.new("g", Role.REPLICATED, [member], scope=scope) as group:
                self.assertEqual(group.scope(), scope)
        with ParameterGroupSpec.new("g", Role.REPLICATED, [member]) as group:
            self.assertEqual(group.scope(), GroupScope())

    def test_names_holding_a_nul_are_refused(self):
        # A C caller reads names as NUL-terminated strings, so the library
        # refuses what would read back shorter, as eredu_group_new does.
        text = ('{"schema":"eredu.groups.v1","groups":[{"name":"g","role":"replicated",'
                '"members":[{"target":"x\\u0000y","shape":[2],"sharding":{"kind":"replicated"}}]'
                '}]}')
        with self.assertRaises(ParallelPlanError) as caught:
            ModelDescription.from_json(text)
        self.assertEqual(caught.exception.code, status.EREDU_E_INVALID_GROUP)
        self.assertEqual(caught.exception.message,
                         'parallel parameter group "g": tensor target "x\\0y" contains a NUL character')


class PythonSideChecks(unittest.TestCase):
    """Values ctypes would silently wrap or truncate are refused before any
    call."""

    def test_negative_and_oversized_integers(self):
        with self.assertRaises(ValueError):
            ParallelTopology(-1)
        with self.assertRaises(ValueError):
            ParallelTopology(2**64)
        with self.assertRaises(ValueError):
            ParameterGroupSpec.new("q", Role.REPLICATED, [Member("w", [-1], Sharding.replicated())])
        with self.assertRaises(TypeError):
            ParallelTopology(1.5)

    def test_nul_characters(self):
        with self.assertRaises(ValueError):
            ParameterGroupSpec.new("q\0x", Role.REPLICATED,
                                   [Member("w", [2], Sharding.replicated())])

    def test_dtype_names(self):
        self.assertIs(Member("w", [2], Sharding.replicated(), "F8_E4M3").dtype, Dtype.F8_E4M3)
        with self.assertRaises(ValueError) as caught:
            Member("w", [2], Sharding.replicated(), "F12")
        self.assertEqual(str(caught.exception),
                         "member 'w' dtype must be one of BOOL, U8, I8, I16, U16, F16, BF16, I32, "
                         "U32, F32, F64, I64, U64, F8_E4M3, F8_E5M2, F8_E8M0; got 'F12'")


if __name__ == "__main__":
    unittest.main()
