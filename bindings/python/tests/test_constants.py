# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Every integer #define of the headers (but the status codes, checked by
test_status) is bound in Python with the header's value: the enum classes
member for member, and the plain constants."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import eredu  # noqa: E402
import cheader  # noqa: E402  (bindings/python/cheader.py)
from eredu import group  # noqa: E402

ENUMS = [
    ("EREDU_ROLE_", eredu.ParameterRole),
    ("EREDU_SHARDING_", eredu.ShardingKind),
    ("EREDU_DTYPE_", eredu.Dtype),
    ("EREDU_SCOPE_", eredu.ScopeKind),
    ("EREDU_PLACEMENT_", eredu.PlacementKind),
    ("EREDU_POLICY_", eredu.ShardingPolicy),
    ("EREDU_LINEAR_FORMAT_", eredu.LinearFormatKind),
    ("EREDU_BLOCK_FP8_SCALE_", eredu.BlockFp8ScaleEncoding),
    ("EREDU_PROJECTION_", eredu.ProjectionSharding),
    ("EREDU_MEMORY_TIER_", eredu.MemoryTier),
    ("EREDU_RESIDENCY_POLICY_", eredu.ResidencyPolicy),
    ("EREDU_EVICTION_", eredu.CacheEvictionPolicy),
    ("EREDU_SELECTION_", eredu.SelectionKind),
    ("EREDU_EXPERT_PASS_", eredu.ExpertPass),
    ("EREDU_PARAMETER_BANK_ACCESS_", eredu.ParameterBankAccess),
    ("EREDU_EXECUTION_RESIDENCY_", eredu.ExecutionResidency),
    ("EREDU_RESIDENCY_REQUEST_", eredu.ResidencyRequest),
    ("EREDU_CANCELLATION_", eredu.CompletionCancellationMode),
    ("EREDU_ACTIVATION_DTYPE_", eredu.PipelineActivationDtype),
    ("EREDU_QUANTIZATION_", eredu.QuantizationKind),
    ("EREDU_DRAFTING_PLAN_", eredu.DraftingPlanKind),
    ("EREDU_DRAFTING_", eredu.DraftingKind),
    ("EREDU_CACHE_RESIDENCY_", eredu.CacheResidency),
    ("EREDU_LAUNCHER_", eredu.Launcher),
]

CONSTANTS = {
    "EREDU_MAX_NDIM": group.MAX_NDIM,
    "EREDU_DENSE_TRANSFER_WINDOW": eredu.DENSE_TRANSFER_WINDOW,
    "EREDU_DEFAULT_MAX_CACHED_SHARDS": eredu.DEFAULT_MAX_CACHED_SHARDS,
    "EREDU_SESSION_CAPABILITIES_MASK": eredu.SESSION_CAPABILITIES_MASK,
}


def header_defines():
    """{name: value} of every integer #define outside status.h."""
    found = {}
    for path in cheader.header_paths():
        if not path.endswith("status.h"):
            found.update(cheader.defines(path))
    return found


def owner(name):
    """The longest enum prefix of a #define name, or None."""
    prefixes = [prefix for prefix, _ in ENUMS if name.startswith(prefix)]
    return max(prefixes, key=len) if prefixes else None


class Constants(unittest.TestCase):
    def test_every_enum_matches_its_defines(self):
        defines = header_defines()
        for prefix, enum_class in ENUMS:
            with self.subTest(enum=enum_class.__name__):
                expected = {name[len(prefix):]: value for name, value in defines.items()
                            if owner(name) == prefix}
                actual = {member.name: member.value for member in enum_class}
                self.assertEqual(actual, expected)

    def test_every_define_is_bound(self):
        for name, value in header_defines().items():
            if owner(name) is None:
                self.assertIn(name, CONSTANTS, "a new constant: bind it in Python")
                self.assertEqual(CONSTANTS[name], value, name)


if __name__ == "__main__":
    unittest.main()
