# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Formats, expansion and projection helpers through Python (the seed's
format and projection tests, exact shapes and messages)."""
import unittest

from eredu import (BlockFp8ScaleEncoding, Dtype, GeneralError, LinearFormat, LinearFormatError,
                   LinearFormatSpec, MemberSharding, ModelDescription, ModuleParameter,
                   ParallelModelInfo, ParallelPlanError, ParallelTopology, ParameterGroupSpec,
                   ParameterMemberSpec, ParameterRole, ProjectionSharding,
                   expand_linear_format_group, expand_linear_format_member,
                   expand_linear_format_model, ggml_type_by_code, ggml_type_by_name,
                   partitioned_projection_group, projection_parameter_group,
                   segmented_projection_group, status)
from test_handles import library_calls

Member = ParameterMemberSpec
Sharding = MemberSharding


class Formats(unittest.TestCase):
    def test_fp8_expansion_uses_architecture_declared_companion_identity(self):
        fp8 = LinearFormat.block_fp8(128, 128, BlockFp8ScaleEncoding.UE8M0)
        with ParameterGroupSpec.partitioned("query", ParameterRole.ATTENTION_HEADS, 8, [
                Member("opaque_matrix", [256, 256], Sharding.partitioned(0))]) as group:
            with expand_linear_format_group(group, [LinearFormatSpec.scaled(fp8, "opaque_scale")]
                                            ) as expanded:
                self.assertEqual(expanded.partition_units(), 2)
                members = expanded.members()
        self.assertEqual([member.target for member in members], ["opaque_matrix", "opaque_scale"])
        self.assertEqual(members[1].global_shape, (2, 2))
        self.assertEqual(members[1].sharding, Sharding.partitioned(0))
        self.assertEqual(members[1].dtype, Dtype.F8_E8M0)

    def test_affine_member_expansion(self):
        members = expand_linear_format_member(
            Member("w", [8, 64], Sharding.equal(0), "BF16"),
            LinearFormatSpec.affine(LinearFormat.affine(32, 4), "w.scales", "w.biases"))
        self.assertEqual([(m.target, m.global_shape, m.dtype) for m in members],
                         [("w", (8, 8), Dtype.U32), ("w.scales", (8, 2), Dtype.BF16),
                          ("w.biases", (8, 2), Dtype.BF16)])

    def test_model_expansion_keeps_unspecified_tensors(self):
        text = ('{"schema":"eredu.groups.v1","groups":[{"name":"down","role":"row_projection",'
                '"members":[{"target":"down.weight","shape":[8,256],"dtype":"BF16",'
                '"sharding":{"kind":"equal","axis":1}},{"target":"down.bias","shape":[8],'
                '"dtype":"BF16","sharding":{"kind":"replicated"}}]}]}')
        spec = LinearFormatSpec.unscaled(LinearFormat.gguf("Q4_K"))
        with ModelDescription.from_json(text) as model, \
                expand_linear_format_model(model, [spec, None]) as expanded:
            self.assertEqual(expanded.tensor_count(), 2)
            self.assertEqual(expanded.global_bytes(), 8 * 144 + 16)

    def test_format_validation_messages(self):
        cases = [
            (LinearFormat.affine(10, 4),
             "group_size must be 16 or a positive multiple of 32, got 10"),
            (LinearFormat.affine(64, 7), "bits must be one of 2, 3, 4, 5, 6, or 8, got 7"),
            (LinearFormat.gguf(4), "unsupported GGML tensor type 4"),
            (LinearFormat.block_fp8(0, 128), "block-FP8 geometry must be positive, got [0, 128]"),
        ]
        for format, message in cases:
            with self.assertRaises(LinearFormatError) as caught:
                format.validate()
            self.assertEqual((caught.exception.code, caught.exception.message),
                             (status.EREDU_E_INVALID_FORMAT, message))
        LinearFormat.mxfp4().validate()
        with self.assertRaises(LinearFormatError) as caught:
            LinearFormatSpec.unscaled(LinearFormat.mxfp4()).validate()
        self.assertEqual(caught.exception.message,
                         "linear format MxFp4 requires scale/bias companions (true, false), "
                         "got (false, false)")

    def test_ggml_lookups(self):
        q4k = ggml_type_by_name("Q4_K")
        self.assertEqual((q4k.code, q4k.name, q4k.block_values, q4k.block_bytes),
                         (12, "Q4_K", 256, 144))
        self.assertEqual(ggml_type_by_code(12), q4k)
        with self.assertRaises(GeneralError) as caught:
            ggml_type_by_name("NOPE")
        self.assertEqual(caught.exception.code, status.EREDU_E_NOT_FOUND)
        with self.assertRaises(LinearFormatError):
            ggml_type_by_code(4)


class Projections(unittest.TestCase):
    def test_segmented_projection_applies_identical_ranges_to_every_fused_companion(self):
        fused = [ModuleParameter("gate_up.weight", [12, 8]),
                 ModuleParameter("gate_up.scales", [12, 2]),
                 ModuleParameter("gate_up.biases", [12, 2])]
        row = [ModuleParameter("down.weight", [8, 6]), ModuleParameter("down.scales", [8, 2]),
               ModuleParameter("down.bias", [8])]
        segments = [(0, 4), (4, 8), (8, 12)]
        with segmented_projection_group("mlp.projections", ParameterRole.FEED_FORWARD_INTERMEDIATE,
                                        fused, row, segments, 2) as group:
            self.assertEqual(group.partition_units(), 2)
            members = group.members()
        for member in members[:3]:
            self.assertEqual(member.sharding, Sharding.partitioned_segments(0, segments))
        self.assertEqual(members[3].sharding, Sharding.partitioned(1))
        self.assertEqual(members[4].sharding, Sharding.partitioned(1))
        self.assertEqual(members[5].sharding, Sharding.replicated())

    def test_segmented_projection_rejects_one_misaligned_companion_atomically(self):
        with self.assertRaises(ParallelPlanError) as caught:
            segmented_projection_group(
                "attention.projections", ParameterRole.ATTENTION_HEADS,
                [ModuleParameter("qkv.weight", [12, 8]), ModuleParameter("qkv.scales", [11, 2])],
                [ModuleParameter("output.weight", [8, 4])], [(0, 4), (4, 8), (8, 12)], 2)
        self.assertEqual(caught.exception.code, status.EREDU_E_INVALID_TENSOR)
        self.assertEqual(caught.exception.message,
                         "segmented projection parameter qkv.scales has output dimension 11, "
                         "expected 12")

    def test_projection_groups(self):
        with projection_parameter_group("o", ParameterRole.ROW_PROJECTION, [
                ModuleParameter("o.weight", [8, 8], "F16"), ModuleParameter("o.bias", [8], "F16")],
                ProjectionSharding.ROW) as group:
            self.assertEqual([m.sharding for m in group.members()],
                             [Sharding.equal(1), Sharding.replicated()])
        with partitioned_projection_group("mlp", ParameterRole.FEED_FORWARD_INTERMEDIATE, [
                ([ModuleParameter("up", [16, 8])], ProjectionSharding.COLUMN),
                ([ModuleParameter("down", [8, 12])], ProjectionSharding.ROW)], 8) as group:
            self.assertEqual(group.partition_units(), 4)
            self.assertEqual([m.sharding for m in group.members()],
                             [Sharding.partitioned(0), Sharding.partitioned(1)])
        with self.assertRaises(ParallelPlanError) as caught:
            projection_parameter_group("c", ParameterRole.COLUMN_PROJECTION,
                                       [ModuleParameter("c.scalar", [])], ProjectionSharding.COLUMN)
        self.assertEqual(caught.exception.message, "column projection parameter c.scalar is scalar")

    def test_parallel_model_info_preserves_opaque_topology_and_accounting(self):
        with ParallelModelInfo((2, 1, 1, 1), "generic", ["layer.weight"], 10, 20, 4, 8) as info:
            self.assertEqual(info.topology(), ParallelTopology(2, 1, 1, 1))
            self.assertEqual(info.effective_model_type(), "generic")
            self.assertEqual(info.owned_tensors(), ["layer.weight"])
            self.assertEqual(info.local_parameter_bytes(), 10)
            self.assertEqual(info.global_parameter_bytes(), 20)
            self.assertEqual(info.pinned_device_parameter_bytes(), 4)
            self.assertEqual(info.maximum_device_parameter_bytes(), 8)
            self.assertEqual(library_calls(info.effective_model_type),
                             {"eredu_parallel_model_info_get_summary": 1})
            self.assertEqual(library_calls(info.owned_tensors),
                             {"eredu_parallel_model_info_owned_tensor_count": 1,
                              "eredu_parallel_model_info_owned_tensor": 1})


if __name__ == "__main__":
    unittest.main()
