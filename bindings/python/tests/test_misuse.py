# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Misuse found by review: each raises a clear Python exception before any C
call, never a crash (copying a handle freed it twice) or a silent wrong
answer (dtype=True was U8, a short topology tuple was padded with 1s), and
the README's examples print what it says."""
import copy
import os
import pickle
import re
import subprocess
import sys
import threading
import unittest

import eredu
from eredu import (MemberSharding, ModelDescription, ParameterGroupSpec, ParameterMemberSpec,
                   ParameterRole, expand_linear_format_group, expand_linear_format_model,
                   plan_rank)
from eredu import _library
from test_handles import counting

PACKAGE_PARENT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
REPOSITORY = os.path.abspath(os.path.join(PACKAGE_PARENT, "..", ".."))


def small_group():
    return ParameterGroupSpec.new("down", ParameterRole.ROW_PROJECTION, [
        ParameterMemberSpec("down.weight", [8, 16], MemberSharding.equal(1), "F32")])


def small_model():
    with small_group() as group:
        return ModelDescription.from_groups([group])


class Copies(unittest.TestCase):
    def test_copying_or_pickling_a_handle_is_refused(self):
        message = ("a ModelDescription cannot be copied or pickled: it owns a library handle "
                   "(share the object; models and layouts are immutable)")
        with counting("eredu_model_free") as calls:
            model = small_model()
            for duplicate in (copy.copy, copy.deepcopy, pickle.dumps):
                with self.assertRaises(TypeError) as caught:
                    duplicate(model)
                self.assertEqual(str(caught.exception), message)
            model.close()
        self.assertEqual(len(calls["eredu_model_free"]), 1)

    def test_a_copied_layout_would_have_crashed_the_interpreter(self):
        code = ("import copy, gc, eredu\n"
                "m = eredu.ModelDescription.from_groups([])\n"
                "l = eredu.plan_rank(m, (1, 1, 1, 1), 0)\n"
                "try:\n    copy.copy(l)\nexcept TypeError as e:\n    print(e)\n"
                "del l, m\ngc.collect()\nprint('alive')\n")
        result = subprocess.run([sys.executable, "-c", code], cwd=PACKAGE_PARENT,
                                capture_output=True, text=True, check=False)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.splitlines()[-1], "alive")

    def test_concurrent_closes_free_once(self):
        for _ in range(20):
            with counting("eredu_model_free") as calls:
                model = small_model()
                start = threading.Barrier(8)

                def close():
                    start.wait()
                    model.close()

                threads = [threading.Thread(target=close) for _ in range(8)]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
            self.assertEqual(len(calls["eredu_model_free"]), 1)


class WrongTypes(unittest.TestCase):
    def expect(self, error_type, message, function, *args, **kwargs):
        with self.assertRaises(error_type) as caught:
            function(*args, **kwargs)
        self.assertEqual(str(caught.exception), message)

    def test_handles_are_not_built_from_python_values(self):
        self.expect(TypeError, "a ModelDescription is not built from list: use its class methods "
                    "or the functions returning one (help(eredu.ModelDescription))",
                    ModelDescription, [])
        self.expect(TypeError, "a LocalModelLayout is not built from int: use its class methods "
                    "or the functions returning one (help(eredu.LocalModelLayout))",
                    eredu.LocalModelLayout, 3)

    def test_a_model_argument_must_be_a_model(self):
        with small_model() as model, plan_rank(model, (1, 1, 1, 1), 0) as layout:
            self.expect(TypeError, "model must be a ModelDescription, got NoneType",
                        plan_rank, None, (1, 1, 1, 1), 0)
            self.expect(TypeError, "model must be a ModelDescription, got str",
                        eredu.plan_world_json, "model.json", (1, 1, 1, 1))
            self.expect(TypeError, "model must be a ModelDescription, got LocalModelLayout",
                        eredu.check_json, layout, (1, 1, 1, 1))
            self.expect(TypeError, "model must be a ModelDescription, got LocalModelLayout",
                        eredu.fit_json, layout)
            self.expect(TypeError, "model must be a ModelDescription, got ParameterGroupSpec",
                        expand_linear_format_model, small_group(), [])
            self.expect(TypeError, "group must be a ParameterGroupSpec, got ModelDescription",
                        expand_linear_format_group, model, [])
            self.expect(TypeError, "groups[1] must be a ParameterGroupSpec, got NoneType",
                        ModelDescription.from_groups, [small_group(), None])

    def test_members_and_scopes_are_checked(self):
        self.expect(TypeError, "members[1] must be a ParameterMemberSpec, got tuple",
                    ParameterGroupSpec.new, "g", ParameterRole.REPLICATED,
                    [ParameterMemberSpec("w", [2], MemberSharding.replicated()),
                     ("v", [2], MemberSharding.replicated())])
        self.expect(TypeError, "scope must be a GroupScope, got str", ParameterGroupSpec.new,
                    "g", ParameterRole.REPLICATED,
                    [ParameterMemberSpec("w", [2], MemberSharding.replicated())],
                    scope="embedding")

    def test_bools_and_floats_are_not_enum_values(self):
        sharding = MemberSharding.replicated()
        self.expect(TypeError, "member 'w' dtype must be an integer, got True",
                    ParameterMemberSpec, "w", [2], sharding, True)
        self.expect(TypeError, "member 'w' dtype must be an integer, got 6.0",
                    ParameterMemberSpec, "w", [2], sharding, 6.0)
        self.expect(ValueError, "member 'w' dtype 99 is not a Dtype value",
                    ParameterMemberSpec, "w", [2], sharding, 99)
        self.expect(TypeError, "sharding kind must be an integer, got True", MemberSharding, True)
        self.assertIs(ParameterMemberSpec("w", [2], sharding, 6).dtype, eredu.Dtype.BF16)

    def test_topologies_are_four_sizes(self):
        with small_model() as model:
            for topology in (None, (2,), (2, 1, 1, 1, 1), "2111"):
                self.expect(TypeError, "topology must be a ParallelTopology or a (tensor, "
                            "pipeline, expert, data) sequence of four sizes, got "
                            f"{topology!r}", plan_rank, model, topology, 0)
            self.assertEqual(plan_rank(model, [2, 1, 1, 1], 1).local_shape("down.weight"),
                             (8, 8))

    def test_lone_surrogates_name_the_argument(self):
        with small_model() as model, plan_rank(model, (1, 1, 1, 1), 0) as layout:
            self.expect(ValueError, "target is not encodable as UTF-8: '\\udc80' at index 5 "
                        "(surrogates not allowed)", layout.index, "down.\udc80")
            self.expect(ValueError, "text is not encodable as UTF-8: '\\udcff' at index 0 "
                        "(surrogates not allowed)", ModelDescription.from_json, "\udcff")
            self.expect(ValueError, "residency_json is not encodable as UTF-8: '\\ud800' at "
                        "index 1 (surrogates not allowed)", eredu.check_json, model,
                        (1, 1, 1, 1), residency_json="{\ud800")
            self.expect(ValueError, "residency_json is not encodable as UTF-8: '\\ud800' at "
                        "index 1 (surrogates not allowed)", eredu.fit_json, model,
                        residency_json="{\ud800")


class LibraryPath(unittest.TestCase):
    @unittest.skipUnless(os.path.isabs(eredu.library_path()), "the library has no path")
    def test_a_relative_eredu_library_is_a_file_not_a_linker_name(self):
        folder, name = os.path.split(eredu.library_path())
        self.assertEqual(_library.candidates({"EREDU_LIBRARY": "liberedu.so.0"}),
                         [("EREDU_LIBRARY", os.path.join(os.getcwd(), "liberedu.so.0"))])
        environment = dict(os.environ, EREDU_LIBRARY=name, PYTHONPATH=PACKAGE_PARENT)
        result = subprocess.run([sys.executable, "-c",
                                 "import eredu; print(eredu.library_path())"], cwd=folder,
                                env=environment, capture_output=True, text=True, check=False)
        self.assertEqual(result.stdout, os.path.join(folder, name) + "\n", result.stderr)


class ReadmeExamples(unittest.TestCase):
    def test_each_example_prints_its_comment(self):
        with open(os.path.join(PACKAGE_PARENT, "README.md"), encoding="utf-8") as readme:
            blocks = re.findall(r"```python\n(.*?)```", readme.read(), re.S)
        self.assertEqual(len(blocks), 5)
        for block in blocks:
            expected = "".join(line[2:] + "\n" for line in block.splitlines()
                               if line.startswith("# "))
            result = subprocess.run([sys.executable, "-c", block], cwd=REPOSITORY,
                                    env=dict(os.environ, PYTHONPATH=PACKAGE_PARENT),
                                    capture_output=True, text=True, check=False)
            self.assertEqual(result.stdout, expected, result.stderr)


if __name__ == "__main__":
    unittest.main()
