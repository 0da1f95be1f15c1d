# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Every violation in one run: a planning failure lists each problem in
EreduError.problems (the groups in document order, then the topology
preflight), while code and message stay the first problem a stopping
planner reported; any other error holds one problem equal to itself.
Exact values on the seed model tests/vectors/inputs/seed/tiny_moe.groups.json."""
import gc
import os
import unittest

import eredu
from eredu import (EreduError, GeneralError, ModelDescription, Problem, TopologyError,
                   status)
from cheader import REPO

TINY_MOE = os.path.join(REPO, "tests", "vectors", "inputs", "seed", "tiny_moe.groups.json")
PREFLIGHT = ("4 decoder layers cannot be split over 8 pipeline stages; "
             "pipeline sizes from 1 to 4 work")


class Problems(unittest.TestCase):
    def setUp(self):
        with open(TINY_MOE, "rb") as handle:
            self.model = ModelDescription.from_json(handle.read())
        self.addCleanup(self.model.close)

    def test_a_planning_failure_lists_every_problem(self):
        with self.assertRaises(TopologyError) as caught:
            eredu.plan_rank(self.model, (16, 8, 1, 1), 0)
        error = caught.exception
        del caught
        gc.collect()  # the problems are copies, not borrowed from the freed object
        self.assertEqual(error.code, status.EREDU_E_EMPTY_PARTITION)
        self.assertEqual(error.name, "EREDU_E_EMPTY_PARTITION")
        self.assertEqual(error.message, PREFLIGHT)

        self.assertIsInstance(error.problems, tuple)
        self.assertEqual(len(error.problems), 21)
        self.assertEqual(error.problems[0], Problem(
            status.EREDU_E_INVALID_TENSOR, "EREDU_E_INVALID_TENSOR", "layers.0.self_attn", None,
            'logical parameter "layers.0.self_attn": 2 partition units — declared by the group '
            "— cannot be split 16 ways; tensor sizes up to 64 that work for this group: 1, 2"))
        self.assertEqual(error.problems[1].group, "layers.0.experts.0.mlp")
        for problem in error.problems[:20]:
            self.assertEqual(problem.code, 101)
            self.assertIsNotNone(problem.group)
            self.assertIsNone(problem.tensor)
        last = error.problems[-1]
        self.assertEqual(last, Problem(209, "EREDU_E_EMPTY_PARTITION", None, None, PREFLIGHT))
        self.assertEqual(last.message, error.message)
        self.assertEqual(last._fields, ("code", "name", "group", "tensor", "message"))

    def test_world_and_check_list_them_too(self):
        for function in (eredu.plan_world_json, eredu.check_json):
            with self.subTest(function=function.__name__):
                with self.assertRaises(TopologyError) as caught:
                    function(self.model, (16, 8, 1, 1))
                self.assertEqual(len(caught.exception.problems), 21)
                self.assertEqual(caught.exception.message, PREFLIGHT)

    def test_any_other_error_is_its_own_single_problem(self):
        with self.assertRaises(TopologyError) as caught:
            eredu.plan_rank(self.model, (2, 1, 1, 1), 2)
        error = caught.exception
        self.assertEqual(error.code, status.EREDU_E_RANK_OUT_OF_RANGE)
        self.assertEqual(error.problems, (
            Problem(error.code, error.name, None, None, error.message),))
        self.assertEqual(error.message, "rank 2 is outside world size 2")

        with self.assertRaises(GeneralError) as caught:
            ModelDescription.from_json(b"{")
        error = caught.exception
        self.assertEqual(error.problems, (
            Problem(error.code, error.name, None, None, error.message),))

    def test_an_error_built_by_hand_is_its_own_problem(self):
        error = EreduError(100, "EREDU_E_INVALID_GROUP", "bad")
        self.assertEqual(error.problems, (Problem(100, "EREDU_E_INVALID_GROUP", None, None, "bad"),))


if __name__ == "__main__":
    unittest.main()
