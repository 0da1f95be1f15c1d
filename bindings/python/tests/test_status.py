# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""eredu/status.py is what generate_status.py makes of include/eredu/status.h,
and the library names every code as the module does."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import eredu  # noqa: E402
import cheader  # noqa: E402  (bindings/python/cheader.py)
import generate_status  # noqa: E402
from eredu import status  # noqa: E402

STATUS_H = os.path.join(cheader.INCLUDE, "status.h")


class StatusConstants(unittest.TestCase):
    def test_the_committed_module_is_current(self):
        with open(STATUS_H, encoding="utf-8") as handle:
            generated = generate_status.render(handle.read())
        with open(status.__file__, encoding="utf-8") as handle:
            self.assertEqual(handle.read(), generated,
                             "stale: run bindings/python/generate_status.py")

    def test_every_define_of_the_header_is_a_constant(self):
        defines = cheader.defines(STATUS_H)
        self.assertEqual(len(defines), len(status.NAMES))
        for name, value in defines:
            self.assertEqual(getattr(status, name), value, name)
            self.assertEqual(status.NAMES[value], name)

    def test_the_library_names_every_code_as_the_module(self):
        for value, name in status.NAMES.items():
            self.assertEqual(eredu.status_name(value), name)

    def test_an_unknown_code_is_named_unknown(self):
        self.assertEqual(eredu.status_name(12345), "EREDU_E_UNKNOWN")
        self.assertEqual(eredu.status_name(-1), "EREDU_E_UNKNOWN")

    def test_spot_values(self):
        self.assertEqual(status.EREDU_OK, 0)
        self.assertEqual(status.EREDU_E_INVALID_GROUP, 100)
        self.assertEqual(status.EREDU_E_ZERO_AXIS, 200)
        self.assertEqual(status.EREDU_E_INVALID_COMPLETION_POLICY, 900)
        self.assertEqual(status.NAMES[608], "EREDU_E_QUANTIZATION")

    def test_the_check_mode_accepts_the_committed_module(self):
        self.assertEqual(generate_status.main(["--check", STATUS_H, status.__file__]), 0)


class ErrorFamilies(unittest.TestCase):
    def test_each_block_has_its_class(self):
        cases = {
            1: eredu.GeneralError,
            6: eredu.GeneralError,
            99: eredu.GeneralError,
            100: eredu.ParallelPlanError,
            101: eredu.ParallelPlanError,
            202: eredu.TopologyError,
            305: eredu.OffloadError,
            405: eredu.WeightResidencyPolicyError,
            504: eredu.DenseTransferScheduleError,
            608: eredu.NormalizedLoadRequestError,
            700: eredu.LinearFormatError,
            802: eredu.WeightBindingError,
            900: eredu.CompletionPolicyError,
            1000: eredu.EreduError,
            -5: eredu.EreduError,
        }
        for code, expected in cases.items():
            self.assertIs(eredu.error_class(code), expected, code)

    def test_every_known_code_maps_to_a_family(self):
        for value in status.NAMES:
            if value:
                self.assertIsNot(eredu.error_class(value), eredu.EreduError, value)

    def test_the_error_carries_code_name_and_message(self):
        error = eredu.TopologyError(200, "EREDU_E_ZERO_AXIS", "axis sizes must be positive")
        self.assertEqual((error.code, error.name, error.message),
                         (200, "EREDU_E_ZERO_AXIS", "axis sizes must be positive"))
        self.assertEqual(str(error), "EREDU_E_ZERO_AXIS (200): axis sizes must be positive")
        self.assertIsInstance(error, eredu.EreduError)


if __name__ == "__main__":
    unittest.main()
