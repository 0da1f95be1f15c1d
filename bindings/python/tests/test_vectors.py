# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""The shared test vectors (tests/vectors/README.md): every case of
tests/vectors/cases.txt is run through the library and its output compared
with expected/<name>.out byte for byte. One test method per case."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import eredu  # noqa: E402
from cheader import REPO  # noqa: E402  (bindings/python/cheader.py)

VECTORS = os.path.join(REPO, "tests", "vectors")
CASES = os.path.join(VECTORS, "cases.txt")
EXPECTED = os.path.join(VECTORS, "expected")

_KEYS = {"name", "op", "groups", "tp", "pp", "ep", "dp", "rank", "pp_layers", "policy",
         "residency", "device_budget"}
_POLICIES = {"require": eredu.ShardingPolicy.REQUIRE,
             "replicate-unsupported": eredu.ShardingPolicy.REPLICATE_UNSUPPORTED,
             "require-even": eredu.ShardingPolicy.REQUIRE_EVEN}


class CaseError(Exception):
    """cases.txt itself is malformed (an error of the runner, not a case)."""


def parse_cases(text):
    """[(line number, {key: value})] of the case lines."""
    cases = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        case = {}
        for token in line.split():
            key, sep, value = token.partition("=")
            if not sep or key not in _KEYS or key in case:
                raise CaseError(f"cases.txt:{number}: bad token {token!r}")
            case[key] = value
        if "name" not in case or "op" not in case or "groups" not in case:
            raise CaseError(f"cases.txt:{number}: name, op and groups are required")
        cases.append((number, case))
    return cases


def parse_counts(value):
    """pp_layers=19,21,21,19 as a tuple of ints: comma-separated decimal
    counts, at least one, none empty; ValueError otherwise."""
    counts = value.split(",")
    if not all(count.isascii() and count.isdigit() for count in counts):
        raise ValueError(f"pp_layers={value} is not comma-separated decimal counts")
    return tuple(int(count) for count in counts)


def _read(relative):
    with open(os.path.join(VECTORS, relative), "rb") as handle:
        return handle.read()


def run_case(case):
    """The output text of one case, as bytes (README "Running a case")."""
    try:
        topology = eredu.ParallelTopology(*(int(case.get(axis, "1"))
                                            for axis in ("tp", "pp", "ep", "dp")))
        policy = _POLICIES[case.get("policy", "require")]
        pipeline_layers = parse_counts(case["pp_layers"]) if "pp_layers" in case else None
    except (KeyError, ValueError) as error:
        raise CaseError(f"case {case['name']}: {error}") from None
    op = case["op"]
    if op not in ("layout", "world", "check"):
        raise CaseError(f"case {case['name']}: unknown op {op!r}")
    if op != "check" and ("residency" in case or "device_budget" in case):
        raise CaseError(f"case {case['name']}: residency/device_budget need op=check")
    if op != "layout" and "rank" in case:
        raise CaseError(f"case {case['name']}: rank needs op=layout")
    try:
        with eredu.ModelDescription.from_json(_read(case["groups"])) as model:
            if op == "layout":
                with eredu.plan_rank(model, topology, int(case.get("rank", "0")), policy,
                                     pipeline_layers=pipeline_layers) as layout:
                    text = layout.to_json()
            elif op == "world":
                text = eredu.plan_world_json(model, topology, policy, threads=0,
                                             pipeline_layers=pipeline_layers)
            else:
                residency = _read(case["residency"]) if "residency" in case else None
                budget = int(case["device_budget"]) if "device_budget" in case else None
                text = eredu.check_json(model, topology, policy, residency_json=residency,
                                        device_budget_bytes=budget,
                                        pipeline_layers=pipeline_layers)
    except eredu.EreduError as error:
        text = f"error[{error.name}] {error.code}: {error.message}\n"
        if len(error.problems) > 1:
            for index, problem in enumerate(error.problems):
                text += (f"problem {index}: error[{problem.name}] {problem.code} "
                         f"group {problem.group or '-'} tensor {problem.tensor or '-'}: "
                         f"{problem.message}\n")
    return text.encode("utf-8")


class SharedVectors(unittest.TestCase):
    """Filled with one test_<case> method per case below."""

    def test_pp_layers_parse(self):
        self.assertEqual(parse_counts("19,21,21,19"), (19, 21, 21, 19))
        self.assertEqual(parse_counts("4,0"), (4, 0))
        self.assertEqual(parse_counts("18446744073709551615,1"), (2**64 - 1, 1))
        for bad in ("", "1,,3", "1,3,", "1;3", "+1,3", " 1,3", "1_0,3", "\u0661,3"):
            with self.assertRaises(ValueError, msg=bad):
                parse_counts(bad)

    def test_cases_present(self):
        if not os.path.isdir(EXPECTED):
            self.skipTest(f"{EXPECTED} does not exist yet: no shared vectors to run")
        self.assertTrue(_CASES, "cases.txt has no case")


def _method(case):
    def test(self):
        if not os.path.isdir(EXPECTED):
            self.skipTest(f"{EXPECTED} does not exist yet")
        with open(os.path.join(EXPECTED, case["name"] + ".out"), "rb") as handle:
            expected = handle.read()
        self.assertEqual(run_case(case), expected)
    return test


def _load_cases():
    if not os.path.exists(CASES):
        return []
    with open(CASES, encoding="utf-8") as handle:
        cases = parse_cases(handle.read())
    for _, case in cases:
        name = "test_" + case["name"].replace("-", "_").replace(".", "_")
        if hasattr(SharedVectors, name):
            raise CaseError(f"case name {case['name']} repeats")
        setattr(SharedVectors, name, _method(case))
    return cases


_CASES = _load_cases()
