# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Residency through Python: the seed's weight-residency tests, offload
plans, weight bindings and the layerwise metadata, with exact values and
messages."""
import unittest

from eredu import (DENSE_TRANSFER_WINDOW, CacheEvictionPolicy, ClosedError,
                   DenseDiskStreamLoadOptions, DenseTransferSchedule, DenseTransferScheduleError,
                   ExecutionResidency, ExpertPass, LayerwiseLoadOptions, LayerwiseModelMetadata,
                   LinearFormat, LinearFormatError, MemoryTier, OffloadConfig, OffloadError,
                   OffloadPlan, OffloadUnitSpec, ParameterBankAccess, ParameterBankLoadOptions,
                   ResidencyPolicy, ResidencyRequest, StaticUnitBindings, TensorSelection,
                   WeightBinding, WeightBindingError, WeightResidency, WeightResidencyPolicyError,
                   parameter_bank_access, parameter_bank_unit_id, residency_from_json, status)
from test_handles import library_calls


class Seed003(unittest.TestCase):
    def test_static_unit_bindings_are_runtime_owned_and_decomposable(self):
        binding = WeightBinding("embedding", "model.embedding.weight", TensorSelection.full(), 16)
        with StaticUnitBindings("static.embedding", [binding]) as unit:
            self.assertEqual(unit.id(), "static.embedding")
            self.assertEqual(unit.bindings(), [binding])

    def test_dense_stream_controls_fail_closed_without_a_backend(self):
        cases = [((1, 1, 0, 1), status.EREDU_E_ZERO_HOST_LOOKAHEAD),
                 ((1, 1, 1, 0), status.EREDU_E_ZERO_QUEUE_CAPACITY),
                 ((1, 0, 1, 0), status.EREDU_E_HOST_DISABLED_CONTROLS)]
        for options, code in cases:
            with self.assertRaises(WeightResidencyPolicyError) as caught:
                WeightResidency.dense_disk_stream(DenseDiskStreamLoadOptions(*options)).validate()
            self.assertEqual(caught.exception.code, code)
        WeightResidency.dense_disk_stream(DenseDiskStreamLoadOptions(1, 0, 0, 0)).validate()

    def test_residency_policy_derives_finite_dense_windows(self):
        summary = WeightResidency.dense_disk_stream(
            DenseDiskStreamLoadOptions(32, 64, 3, 2)).validate(8)
        self.assertEqual(summary.device_depth, DENSE_TRANSFER_WINDOW)
        self.assertEqual(summary.offload, OffloadConfig(32, 64, 3))
        self.assertEqual(summary.preparation_residency, ResidencyRequest.DENSE_DISK_STREAM)
        self.assertEqual((summary.dense_host_lookahead, summary.dense_background_queue_capacity),
                         (3, 2))

    def test_dense_transfer_schedule_preserves_order_and_bounded_lookahead(self):
        with DenseTransferSchedule(range(3, 7), 2) as schedule:
            self.assertEqual(schedule.desired_indices(3), [3, 4, 5])
            with self.assertRaises(DenseTransferScheduleError) as caught:
                schedule.admit(4, 40)
            self.assertEqual((caught.exception.code, caught.exception.message),
                             (status.EREDU_E_OUT_OF_ORDER,
                              "dense transfer schedule expected unit 3, received 4"))
            schedule.admit(3, 30)
            schedule.admit(4, 40)
            self.assertFalse(schedule.can_admit())
            self.assertEqual(schedule.desired_indices(3), [3, 4, 5])
            self.assertEqual(schedule.pop_ready(), (3, 30))
            schedule.admit(5, 50)
            self.assertEqual(schedule.desired_indices(4), [4, 5, 6])
            self.assertEqual(schedule.pop_ready(), (4, 40))
            self.assertEqual(schedule.pop_ready(), (5, 50))
            schedule.admit(6, 60)
            self.assertEqual(schedule.pop_ready(), (6, 60))
            self.assertTrue(schedule.is_exhausted())
            self.assertIsNone(schedule.pop_ready())
            self.assertIsNone(schedule.next_pending())
        with self.assertRaises(ClosedError):
            schedule.admit(7)

    def test_schedule_errors(self):
        with self.assertRaises(DenseTransferScheduleError) as caught:
            DenseTransferSchedule([5, 3], 2)
        self.assertEqual(caught.exception.message,
                         "dense transfer pending unit 3 does not follow 5")
        with self.assertRaises(DenseTransferScheduleError) as caught:
            DenseTransferSchedule([], 0)
        self.assertEqual(caught.exception.code, status.EREDU_E_ZERO_CAPACITY)
        with DenseTransferSchedule([1, 4, 9], 1) as schedule:
            self.assertEqual(schedule.next_pending(), 1)
            self.assertTrue(schedule.can_admit())
            schedule.admit(1)
            with self.assertRaises(DenseTransferScheduleError) as caught:
                schedule.admit(4)
            self.assertEqual(caught.exception.message,
                             "dense transfer window exceeds its capacity of 1")

    def test_expert_cache_controls_and_composite_placement_are_backend_neutral(self):
        experts = ParameterBankLoadOptions(OffloadConfig(), 64, 32)
        summary = WeightResidency.fully_resident().with_independent_parameter_banks(
            experts).validate(4)
        self.assertEqual(summary.parameter_bank_cache, experts)
        self.assertTrue(summary.ordinary_is_fully_resident)
        self.assertFalse(summary.is_fully_resident)
        self.assertEqual(summary.preparation_residency,
                         ResidencyRequest.ADDRESSABLE_PARAMETER_BANKS)
        with self.assertRaises(WeightResidencyPolicyError) as caught:
            WeightResidency().with_independent_parameter_banks(
                ParameterBankLoadOptions(OffloadConfig(), 64, 0)).validate()
        self.assertEqual(caught.exception.code, status.EREDU_E_ZERO_PARAMETER_BANK_PREFILL_TARGET)
        self.assertEqual(parameter_bank_unit_id(3, 7), "bank.unit.00003.member.00007")
        self.assertEqual(parameter_bank_access(ExpertPass.PREFILL), ParameterBankAccess.BULK)
        self.assertEqual(parameter_bank_access(ExpertPass.DECODE), ParameterBankAccess.INCREMENTAL)

    def test_layerwise_metadata_is_runtime_owned_and_updateable(self):
        with LayerwiseModelMetadata("generic", None, 4, 10, ExecutionResidency.LAYERWISE_HOST,
                                    20, 8, 6, 2) as metadata:
            self.assertIsNone(metadata.quantization())
            metadata.set_effective_model_type("llama")
            metadata.set_quantization(LinearFormat.affine())
            self.assertEqual(metadata.effective_model_type(), "llama")
            self.assertEqual(metadata.quantization(), LinearFormat.affine(64, 4))
            self.assertEqual(metadata.layer_count(), 4)
            self.assertEqual(metadata.static_device_bytes(), 10)
            self.assertEqual(metadata.residency(), ExecutionResidency.LAYERWISE_HOST)
            self.assertEqual(metadata.layer_parameter_bytes(), 20)
            self.assertEqual(metadata.maximum_device_layer_bytes(), 8)
            self.assertEqual(metadata.maximum_host_layer_bytes(), 6)
            self.assertEqual(metadata.device_layer_capacity(), 2)
            with self.assertRaises(LinearFormatError):
                metadata.set_quantization(LinearFormat.affine(10, 4))
            self.assertEqual(metadata.quantization(), LinearFormat.affine(64, 4))


class Residency(unittest.TestCase):
    def test_from_json(self):
        summary = residency_from_json(
            '{"schema":"eredu.residency.v1","kind":"dense_disk_stream","host_lookahead":3}', 8)
        self.assertEqual(summary.execution_residency, ExecutionResidency.DENSE_DISK_STREAM)
        self.assertEqual(summary.offload.device_budget_bytes, 4294967296)
        self.assertEqual(summary.offload.prefetch_depth, 3)
        self.assertEqual(summary.device_depth, 2)
        with self.assertRaises(OffloadError) as caught:
            residency_from_json(
                b'{"schema":"eredu.residency.v1","kind":"layerwise_host","prefetch_depth":0}')
        self.assertEqual(caught.exception.message, "offload prefetch depth must be nonzero")

    def test_defaults(self):
        summary = WeightResidency().validate(5)
        self.assertEqual(summary.execution_residency, ExecutionResidency.FULLY_RESIDENT)
        self.assertEqual(summary.offload, OffloadConfig())
        self.assertEqual((summary.device_depth, summary.max_cached_shards), (5, 4))
        self.assertTrue(summary.is_fully_resident)
        layerwise = WeightResidency.layerwise_host(LayerwiseLoadOptions(
            OffloadConfig(device_budget_bytes=100, prefetch_depth=3), max_cached_shards=2,
            sample_process_memory=True)).validate(10)
        self.assertEqual(layerwise.offload.device_budget_bytes, 100)
        self.assertEqual((layerwise.device_depth, layerwise.max_cached_shards), (3, 2))
        self.assertEqual((layerwise.sample_backend_memory, layerwise.sample_process_memory),
                         (False, True))
        dense = WeightResidency.dense_disk_stream().validate(10)
        self.assertEqual(dense.offload, OffloadConfig(4294967296, 17179869184, 2))

    def test_a_zero_prefetch_depth(self):
        with self.assertRaises(OffloadError) as caught:
            WeightResidency.layerwise_host(LayerwiseLoadOptions(OffloadConfig(prefetch_depth=0))
                                           ).validate()
        self.assertEqual((caught.exception.code, caught.exception.message),
                         (status.EREDU_E_ZERO_PREFETCH_DEPTH,
                          "offload prefetch depth must be nonzero"))

    def test_offload_plans(self):
        units = [OffloadUnitSpec("b", 4), OffloadUnitSpec("a", 5, ResidencyPolicy.CACHEABLE,
                                                          MemoryTier.HOST)]
        with OffloadPlan(OffloadConfig(device_budget_bytes=10), units) as plan:
            plan.validate()
            self.assertEqual([unit.id for unit in plan.units()], ["a", "b"])
            self.assertEqual(plan.unit("a"), units[1])
            self.assertEqual(plan.config(), OffloadConfig(device_budget_bytes=10))
            self.assertEqual(plan.planned_bytes(MemoryTier.DEVICE), 4)
            self.assertEqual(plan.planned_bytes(MemoryTier.HOST), 5)
        cases = [
            ([OffloadUnitSpec("b", 10)], OffloadConfig(device_budget_bytes=9),
             status.EREDU_E_BUDGET_EXCEEDED, "planned 10 bytes for the Device tier exceed its "
                                             "9-byte budget"),
            ([OffloadUnitSpec(" ", 1)], None, status.EREDU_E_EMPTY_UNIT_ID,
             "offload unit identifiers must not be empty"),
            ([OffloadUnitSpec("x", 1), OffloadUnitSpec("x", 2)], None,
             status.EREDU_E_DUPLICATE_UNIT_ID, "duplicate offload unit identifier: x"),
        ]
        for units, config, code, message in cases:
            with self.assertRaises(OffloadError) as caught:
                OffloadPlan(config, units)
            self.assertEqual((caught.exception.code, caught.exception.message), (code, message))

    def test_weight_bindings(self):
        WeightBinding("w", "k", TensorSelection.range(0, 2, 4), 8, "t").validate()
        with self.assertRaises(WeightBindingError) as caught:
            WeightBinding("w", "k", None, 0).validate()
        self.assertEqual((caught.exception.code, caught.exception.message),
                         (status.EREDU_E_ZERO_SIZED_BINDING,
                          'weight binding "w" must contain at least one byte'))
        selection = TensorSelection.index_list(1, [5, 2, 9])
        with StaticUnitBindings("unit", [WeightBinding("w", "k", selection, 8, "t")]) as unit:
            self.assertEqual(unit.bindings(), [WeightBinding("w", "k", selection, 8, "t")])

    def test_planned_bytes_of_every_tier_in_one_call(self):
        units = [OffloadUnitSpec("a", 4), OffloadUnitSpec("b", 5, tier=MemoryTier.HOST),
                 OffloadUnitSpec("c", 6, ResidencyPolicy.WINDOWED, MemoryTier.DISK)]
        with OffloadPlan(OffloadConfig(host_budget_bytes=5), units) as plan:
            self.assertEqual([plan.planned_bytes(tier) for tier in MemoryTier], [4, 5, 6])
            self.assertEqual(plan.planned_bytes(2), 6)
            self.assertEqual(library_calls(plan.planned_bytes, MemoryTier.DISK),
                             {"eredu_offload_plan_get_info": 1})
            self.assertEqual(library_calls(plan.config), {"eredu_offload_plan_get_info": 1})
            self.assertEqual(plan.config(), OffloadConfig(host_budget_bytes=5))
            self.assertEqual(library_calls(plan.units),
                             {"eredu_offload_plan_unit_count": 1, "eredu_offload_plan_unit": 3})
            with self.assertRaises(ValueError) as caught:
                plan.planned_bytes(7)
            self.assertEqual(str(caught.exception), "tier 7 is not a MemoryTier value")

    def test_snapshot_and_schedule_reads(self):
        with LayerwiseModelMetadata("generic", None, 4, 10, ExecutionResidency.LAYERWISE_HOST,
                                    20, 8, 6, 2) as metadata:
            self.assertEqual(library_calls(metadata.device_layer_capacity),
                             {"eredu_layerwise_model_metadata_get_info": 1})
        with DenseTransferSchedule(range(2), 1) as schedule:
            self.assertIs(schedule.can_admit(), True)
            self.assertIs(schedule.has_ready(), False)
            self.assertIs(schedule.is_exhausted(), False)
            self.assertEqual(library_calls(schedule.has_ready),
                             {"eredu_dense_transfer_schedule_has_ready": 1})
        with self.assertRaises(ClosedError):
            schedule.can_admit()

    def test_eviction_round_trip(self):
        config = OffloadConfig(prefetch_depth=2,
                               eviction_policy=CacheEvictionPolicy.LEAST_FREQUENTLY_USED)
        with OffloadPlan(config, []) as plan:
            self.assertEqual(plan.config(), config)
            self.assertEqual(plan.units(), [])


if __name__ == "__main__":
    unittest.main()
