# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""The seed's NormalizedLoadRequest tests through Python, with exact codes
and messages."""
import unittest

from eredu import (CacheResidency, CommunicationCompletionPolicy, CompletionCancellationMode,
                   CompletionPolicyError, DenseDiskStreamLoadOptions, DraftingKind, DraftingPlan,
                   DraftingPlanKind, NormalizedLoadRequest, NormalizedLoadRequestError,
                   ParallelLoadRequest, ParallelTopology, QuantizationRequest, ResidencyRequest,
                   TopologyError, WeightResidency, status)
from test_handles import library_calls

COMPLETION = CommunicationCompletionPolicy(1000,
                                           CompletionCancellationMode.QUARANTINE_UNTIL_COMPLETE)


def parallel(tensor=2, rank=1, batch=2, sequence=128):
    return ParallelLoadRequest(ParallelTopology(tensor), rank, batch, sequence,
                               completion=COMPLETION)


class Seed002(unittest.TestCase):
    def expect(self, code, message, function, *args):
        with self.assertRaises(NormalizedLoadRequestError) as caught:
            function(*args)
        self.assertEqual((caught.exception.code, caught.exception.message), (code, message))

    def test_parallel_policy_is_atomic_and_exact(self):
        with NormalizedLoadRequest.with_quantization(QuantizationRequest.mxfp4()) as request:
            request.with_parallel_execution(parallel()).with_required_session_capabilities(0b101)
            policy = request.validate_model_preparation()
            self.assertEqual(request.parallel_execution(), parallel())
            self.assertEqual(request.communication_completion_policy(), COMPLETION)
        self.assertEqual(policy.topology, ParallelTopology(2, 1, 1, 1))
        self.assertEqual(policy.quantization, QuantizationRequest.mxfp4())
        self.assertEqual(policy.residency, ResidencyRequest.FULLY_RESIDENT)
        self.assertEqual(policy.required_session_capabilities, 0b101)

    def test_invalid_parallel_geometry_fails_at_parallel_construction(self):
        with NormalizedLoadRequest() as request:
            self.expect(status.EREDU_E_INVALID_INVOCATION_LIMITS,
                        "partitioned invocation limits must be positive, got batch 0 and "
                        "sequence 128", request.with_parallel_execution, parallel(rank=0, batch=0))
            self.expect(status.EREDU_E_INVALID_INVOCATION_LIMITS,
                        "partitioned invocation limits must be positive, got batch 1 and "
                        "sequence -1", request.with_parallel_execution,
                        parallel(rank=0, batch=1, sequence=-1))
            self.assertIsNone(request.parallel_execution())  # failures change nothing

    def test_replicated_topology_is_rejected_at_parallel_construction(self):
        with NormalizedLoadRequest() as request:
            self.expect(status.EREDU_E_REPLICATED_PARALLEL_TOPOLOGY,
                        "explicit parallel execution requires a non-replicated topology",
                        request.with_parallel_execution, parallel(tensor=1, rank=0, batch=1))
            with self.assertRaises(TopologyError) as caught:
                request.with_parallel_execution(parallel(tensor=2, rank=2))
            self.assertEqual(caught.exception.code, status.EREDU_E_RANK_OUT_OF_RANGE)

    def test_local_completion_cannot_be_reinterpreted_as_parallel_completion(self):
        with NormalizedLoadRequest().with_communication_completion_policy(COMPLETION) as request:
            self.expect(status.EREDU_E_CONFLICTING_COMPLETION_POLICY,
                        "parallel execution cannot replace an existing local completion policy",
                        request.with_parallel_execution, parallel(rank=0, batch=1))

    def test_embedded_drafting_capacity_is_positive_by_construction(self):
        with NormalizedLoadRequest() as request:
            self.expect(status.EREDU_E_ZERO_EMBEDDED_DRAFT_CAPACITY,
                        "embedded draft capacity must be positive", request.with_drafting,
                        DraftingKind.EMBEDDED, 0)
            request.with_drafting(DraftingKind.EMBEDDED, 4)
            self.assertEqual(request.drafting(), (DraftingKind.EMBEDDED, 4))
            request.with_drafting_plan(DraftingPlan(DraftingPlanKind.EXTERNAL))
            self.assertEqual(request.drafting(), (DraftingKind.EXTERNAL_TARGET, 0))
            self.expect(status.EREDU_E_UNSUPPORTED_DRAFTING_PLAN,
                        "unsupported speculative drafting plan", request.with_drafting_plan,
                        DraftingPlan(9))

    def test_local_realtime_completion_does_not_become_valid_model_communication(self):
        with NormalizedLoadRequest().with_communication_completion_policy(COMPLETION) as request:
            self.assertEqual(request.realtime_completion_policy(), COMPLETION)
            self.expect(status.EREDU_E_ORPHANED_MODEL_COMPLETION,
                        "a communication completion policy requires a parallel topology",
                        request.validate_model_preparation)


class Request(unittest.TestCase):
    def test_defaults(self):
        with NormalizedLoadRequest() as request:
            self.assertIsNone(request.quantization())
            self.assertIsNone(request.parallel_execution())
            self.assertIsNone(request.communication_completion_policy())
            self.assertEqual(request.realtime_completion_policy(),
                             CommunicationCompletionPolicy(30000))
            self.assertEqual(request.drafting(), (DraftingKind.ARCHITECTURE_DEFAULT, 0))
            self.assertEqual(request.max_cached_shards(), 4)
            self.assertEqual(request.state_residency(), CacheResidency.DEVICE)
            self.assertEqual(request.required_session_capabilities(), 0)
            self.assertFalse(request.prompt_cache_persistence())
            self.assertTrue(request.weight_residency(3).is_fully_resident)

    def test_setters_and_validation(self):
        with NormalizedLoadRequest(QuantizationRequest.affine(32, 3)) as request:
            request.with_weight_residency(WeightResidency.dense_disk_stream(
                DenseDiskStreamLoadOptions(64, 128, 2, 2))).with_max_cached_shards(8) \
                .with_state_residency(CacheResidency.PAGED).with_prompt_cache_persistence(True)
            policy = request.validate_model_preparation()
            self.assertEqual(policy.quantization, QuantizationRequest.affine(32, 3))
            self.assertEqual(policy.residency, ResidencyRequest.DENSE_DISK_STREAM)
            self.assertIsNone(policy.topology)
            self.assertEqual(request.max_cached_shards(), 8)
            self.assertEqual(request.state_residency(), CacheResidency.PAGED)
            self.assertTrue(request.prompt_cache_persistence())
            self.assertEqual(request.weight_residency(10).device_depth, 2)
            self.expect_quantization("group_size must be 16 or a positive multiple of 32, got 40",
                                     QuantizationRequest.affine(40, 4))
            self.expect_quantization("bits must be one of 2, 3, 4, 5, 6, or 8, got 7",
                                     QuantizationRequest.affine(32, 7))
            self.expect_quantization("unknown load-time transformation request",
                                     QuantizationRequest(7, 0, 0))

    def expect_quantization(self, message, quantization):
        with NormalizedLoadRequest(quantization) as request:
            with self.assertRaises(NormalizedLoadRequestError) as caught:
                request.validate_model_preparation()
        self.assertEqual((caught.exception.code, caught.exception.message),
                         (status.EREDU_E_QUANTIZATION, message))

    def test_plain_fields_in_one_call_and_the_topology_copied_out(self):
        with NormalizedLoadRequest() as request:
            self.assertEqual(library_calls(request.realtime_completion_policy),
                             {"eredu_load_request_get_info": 1})
            request.with_parallel_execution(parallel(tensor=4, rank=3))
            read = request.parallel_execution()
            policy = request.validate_model_preparation()
            request.with_max_cached_shards(2)  # replaces the request's borrowed topology
        self.assertEqual(read, parallel(tensor=4, rank=3))
        self.assertEqual(policy.topology, ParallelTopology(4, 1, 1, 1))

    def test_completion_policy(self):
        COMPLETION.validate()
        with self.assertRaises(CompletionPolicyError) as caught:
            CommunicationCompletionPolicy(0).validate()
        self.assertEqual(caught.exception.message,
                         "communication completion policy must have a positive millisecond "
                         "deadline")


if __name__ == "__main__":
    unittest.main()
