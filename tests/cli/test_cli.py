#!/usr/bin/env python3
"""Runs the `eredu` command: exit codes, error output and exact JSON
(interchange §2-5). Usage: test_cli.py PATH_TO_EREDU (EREDU_SOURCE_ROOT set)."""

import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

EREDU = sys.argv[1] if len(sys.argv) > 1 else "eredu"
ROOT = os.environ.get("EREDU_SOURCE_ROOT", os.path.join(os.path.dirname(__file__), "..", ".."))
DATA = os.path.join(ROOT, "tests", "data")
MODELS = os.path.join(ROOT, "examples", "models")
ATTENTION = os.path.join(DATA, "attention.groups.json")
ERROR_JSON = re.compile(r'^\{"error":\{"code":"(EREDU_E_[A-Z_]+)","status":(\d+),"message":"(.*)"\}\}\n$')


def run(*args, stdin=None):
    return subprocess.run([EREDU, *args], input=stdin, capture_output=True, text=True, check=False)


def model(name):
    return os.path.join(MODELS, name)


def expected(name):
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        return f.read()


class Failures(unittest.TestCase):
    def assert_error(self, result, exit_code, code, status=None, json_output=False):
        self.assertEqual(result.returncode, exit_code, result.stderr)
        self.assertRegex(result.stderr, r"^error\[" + code + r"\]: .+\n$")
        if not json_output:
            self.assertEqual(result.stdout, "")
            return
        match = ERROR_JSON.match(result.stdout)
        self.assertIsNotNone(match, result.stdout)
        self.assertEqual(match.group(1), code)
        if status is not None:
            self.assertEqual(int(match.group(2)), status)
        parsed = json.loads(result.stdout)["error"]
        self.assertEqual(result.stderr, f"error[{code}]: {parsed['message']}\n")

    def test_unsupported_version_is_exit_2_with_json(self):
        text = expected("attention.groups.json").replace("eredu.groups.v1", "eredu.groups.v2")
        result = run("plan", "--groups", "-", "--rank", "0", "--format", "json", stdin=text)
        self.assert_error(result, 2, "EREDU_E_UNSUPPORTED_VERSION", 8, json_output=True)

    def test_parse_error_names_the_pointer(self):
        text = expected("attention.groups.json").replace('"partitioned", "axis": 0', '"sliced", "axis": 0', 1)
        result = run("plan", "--groups", "-", "--rank", "0", "--format=json", stdin=text)
        self.assert_error(result, 2, "EREDU_E_PARSE", 6, json_output=True)
        self.assertIn("/groups/0/members/0/sharding/kind", result.stderr)

    def test_missing_file_is_exit_1(self):
        result = run("plan", "--groups", "/nonexistent/groups.json", "--rank", "0")
        self.assert_error(result, 1, "EREDU_E_IO")

    def test_rank_out_of_range(self):
        result = run("plan", "--groups", ATTENTION, "--tp", "2", "--rank", "2", "--format", "json")
        self.assert_error(result, 2, "EREDU_E_RANK_OUT_OF_RANGE", 202, json_output=True)

    def test_zero_axis(self):
        result = run("plan", "--groups", ATTENTION, "--tp", "0", "--all-ranks")
        self.assert_error(result, 2, "EREDU_E_ZERO_AXIS")

    def test_bad_flags_are_invalid_argument(self):
        for args in (["plan", "--groups", ATTENTION],
                     ["plan", "--groups", ATTENTION, "--rank", "0", "--all-ranks"],
                     ["plan", "--groups", ATTENTION, "--rank", "-1"],
                     ["plan", "--groups", ATTENTION, "--rank", "0", "--policy", "best"],
                     ["plan", "--groups", ATTENTION, "--rank", "0", "--format", "yaml"],
                     ["check"],
                     ["frobnicate"],
                     []):
            with self.subTest(args=args):
                self.assert_error(run(*args), 2, "EREDU_E_INVALID_ARGUMENT")
        result = run("plan", "--groups", ATTENTION, "--tp", "x", "--rank", "0", "--format", "json")
        self.assert_error(result, 2, "EREDU_E_INVALID_ARGUMENT", 2, json_output=True)

    def test_unsupported_models(self):
        result = run("describe", model("llama-3.1-8b-bnb-int8"))
        self.assert_error(result, 2, "EREDU_E_UNSUPPORTED_MODEL")
        self.assertIn("bitsandbytes int8", result.stderr)
        result = run("check", model("qwen3-14b-mlx-4bit"), "--format", "json")
        self.assert_error(result, 2, "EREDU_E_UNSUPPORTED_MODEL", 10, json_output=True)
        self.assertIn("MLX", result.stderr)

    def test_missing_model_folder_is_exit_1(self):
        self.assert_error(run("check", "/nonexistent/model"), 1, "EREDU_E_IO")

    def test_checkpoint_mismatch(self):
        with tempfile.TemporaryDirectory() as folder:
            with open(os.path.join(model("qwen3-1.7b"), "config.json"), encoding="utf-8") as f:
                config = f.read()
            with open(os.path.join(model("qwen3-1.7b"), "model.safetensors.index.json"), encoding="utf-8") as f:
                index = json.load(f)
            del index["weight_map"]["model.layers.5.mlp.up_proj.weight"]
            with open(os.path.join(folder, "config.json"), "w", encoding="utf-8") as f:
                f.write(config)
            with open(os.path.join(folder, "model.safetensors.index.json"), "w", encoding="utf-8") as f:
                json.dump(index, f)
            result = run("describe", folder, "--format", "json")
            self.assert_error(result, 2, "EREDU_E_CHECKPOINT_MISMATCH", 11, json_output=True)
            self.assertIn('"model.layers.5.mlp.up_proj.weight"', result.stderr)


class Plans(unittest.TestCase):
    def test_plan_rank_json_is_exact(self):
        result = run("plan", "--groups", ATTENTION, "--tp", "2", "--rank", "1", "--format", "json")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, expected("attention.tp2.rank1.layout.json"))
        self.assertEqual(result.stderr, "")

    def test_plan_from_stdin(self):
        result = run("plan", "--groups", "-", "--tp", "2", "--rank", "1", "--format", "json",
                     stdin=expected("attention.groups.json"))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, expected("attention.tp2.rank1.layout.json"))

    def test_plan_all_ranks_json_is_exact(self):
        result = run("plan", "--groups", ATTENTION, "--tp", "2", "--all-ranks", "--format", "json")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, expected("attention.tp2.world.json"))

    def test_policy_spellings(self):
        for policy in ("replicate-unsupported", "replicate_unsupported"):
            result = run("plan", "--groups", ATTENTION, "--tp", "16", "--rank", "3", "--format", "json",
                         "--policy", policy)
            self.assertEqual(result.returncode, 0, result.stderr)
            layout = json.loads(result.stdout)
            self.assertEqual(layout["policy"], "replicate_unsupported")
            self.assertTrue(layout["tensors"][0]["fell_back_to_replication"])

    def test_plan_rank_table(self):
        result = run("plan", "--groups", ATTENTION, "--tp", "2", "--pp", "2", "--rank", "2")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("rank 2 of 4: tensor 0, pipeline 1, expert 0, data 0; policy require", result.stdout)
        self.assertRegex(result.stdout, r"model\.layers\.0\.self_attn\.q_proj\.weight +omit +\[\] +0 B")
        self.assertIn("0 tensors materialized, 2 omitted; local bytes 0 (0 B) of global 67108864 (64.00 MiB)",
                      result.stdout)


class Models(unittest.TestCase):
    def test_describe_writes_groups_v1(self):
        result = run("describe", model("qwen3-1.7b"))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertTrue(result.stdout.endswith("}\n"))
        groups = json.loads(result.stdout)
        self.assertEqual(groups["schema"], "eredu.groups.v1")
        self.assertEqual(groups["model"], {"name": "qwen3-1.7b", "layers": 28})
        self.assertEqual(len(groups["groups"]), 1 + 3 * 28 + 1)
        self.assertEqual(groups["groups"][0]["scope"], "tied_embedding")
        # The description plans like the folder it came from.
        plan = run("plan", "--groups", "-", "--tp", "2", "--all-ranks", "--format", "json", stdin=result.stdout)
        check = run("check", model("qwen3-1.7b"), "--tp", "2", "--format", "json")
        self.assertEqual(plan.returncode, 0, plan.stderr)
        self.assertEqual(plan.stdout, check.stdout)

    def check_reflection(self, *topology):
        result = run("check", model("reflection-llama-3.1-70b"), *topology)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("\ncoverage: ok (723 tensors)\n", result.stdout)
        self.assertIn("\nglobal bytes: 282215219200 (262.83 GiB)\n", result.stdout)
        return result.stdout

    def test_check_reflection_tp8(self):
        table = self.check_reflection("--tp", "8")
        self.assertRegex(table, r"\n +0 +0 +0 +0 +0 +723 +32\.86 GiB +-\n")

    def test_check_reflection_tp4_pp2(self):
        table = self.check_reflection("--tp", "4", "--pp", "2")
        self.assertRegex(table, r"\n +7 +3 +1 +0 +0 +362 +32\.86 GiB +-\n")

    def test_check_json_is_a_world_document(self):
        result = run("check", model("reflection-llama-3.1-70b"), "--tp", "8", "--format", "json")
        self.assertEqual(result.returncode, 0, result.stderr)
        world = json.loads(result.stdout)
        self.assertEqual(list(world), ["schema", "topology", "policy", "global_bytes", "ranks", "coverage"])
        self.assertEqual(world["schema"], "eredu.world.v1")
        self.assertEqual(world["global_bytes"], 282215219200)
        self.assertEqual(world["coverage"], {"ok": True, "tensors": 723, "problems": []})
        self.assertEqual(world["ranks"][0]["totals"]["local_bytes"], 35281534976)

    def test_check_other_models(self):
        for name, tp, pp in (("mistral-7b-v0.1", 4, 2), ("qwen2.5-14b-sakura", 8, 3), ("qwen3-1.7b", 2, 4)):
            with self.subTest(model=name):
                result = run("check", model(name), "--tp", str(tp), "--pp", str(pp))
                self.assertEqual(result.returncode, 0, result.stderr)
                self.assertIn("coverage: ok", result.stdout)

    def test_help_and_version(self):
        self.assertEqual(run("--help").returncode, 0)
        version = run("--version")
        self.assertEqual(version.returncode, 0)
        self.assertRegex(version.stdout, r"^\d+\.\d+\.\d+\n$")


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
