#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Runs the `eredu` command: exit codes, error output and exact JSON
(docs/interchange.md). Usage: test_cli.py PATH_TO_EREDU (EREDU_SOURCE_ROOT set)."""

import json
import math
import os
import re
import struct
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


# What the command reads from the environment: the launchers' variables
# (--rank-from-env) and the table width. Tests start from none of them.
LAUNCH_VARIABLES = ("RANK", "WORLD_SIZE", "LOCAL_RANK", "OMPI_COMM_WORLD_RANK",
                    "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK", "PMI_RANK", "PMI_SIZE",
                    "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID")


def run(*args, stdin=None, env=None):
    environment = {k: v for k, v in os.environ.items()
                   if k not in LAUNCH_VARIABLES and k != "COLUMNS"}
    environment.update(env or {})
    return subprocess.run([EREDU, *args], input=stdin, capture_output=True, text=True, check=False,
                          env=environment)


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

    def test_a_mistyped_command_or_flag_is_named(self):
        for args, line in (
                (["chek", "x"], "unknown command `chek`; did you mean check?"),
                (["plan", "--groups", ATTENTION, "--rnak", "0"],
                 "The following arguments were not expected: 0 --rnak; did you mean --rank?"),
                (["fit", "--groups", ATTENTION, "--max-wrld=2"],
                 "The following argument was not expected: --max-wrld=2; did you mean "
                 "--max-world?"),
                (["xyz"], "unknown command `xyz`")):
            with self.subTest(args=args):
                result = run(*args)
                self.assertEqual((result.returncode, result.stdout), (2, ""))
                self.assertEqual(result.stderr, f"error[EREDU_E_INVALID_ARGUMENT]: {line}\n")

    def test_bad_flags_are_invalid_argument(self):
        for args in (["plan", "--groups", ATTENTION],
                     ["plan", "--groups", ATTENTION, "--rank", "0", "--all-ranks"],
                     ["plan", "--groups", ATTENTION, "--rank", "-1"],
                     ["plan", "--groups", ATTENTION, "--rank", "0", "--policy", "best"],
                     ["plan", "--groups", ATTENTION, "--rank", "0", "--format", "yaml"],
                     ["check"],
                     ["frobnicate"]):
            with self.subTest(args=args):
                self.assert_error(run(*args), 2, "EREDU_E_INVALID_ARGUMENT")
        result = run("plan", "--groups", ATTENTION, "--tp", "x", "--rank", "0", "--format", "json")
        self.assert_error(result, 2, "EREDU_E_INVALID_ARGUMENT", 2, json_output=True)

    def test_unsupported_models(self):
        result = run("describe", model("llama-3.1-8b-bnb-int8"))
        self.assert_error(result, 2, "EREDU_E_UNSUPPORTED_MODEL")
        self.assertIn("bitsandbytes int8", result.stderr)
        result = run("check", model("llama-3.1-8b-bnb-int8"), "--format", "json")
        self.assert_error(result, 2, "EREDU_E_UNSUPPORTED_MODEL", 10, json_output=True)
        self.assertIn("bitsandbytes int8", result.stderr)

    def test_deepseek_folders_refused(self):
        # Kimi K2 Mini's routers kept 384 rows and its total_size counts the
        # shard headers (docs/describe.md): 121696800 bytes more than its
        # config describes.
        result = run("check", model("kimi-k2-mini-deepseekv3-fp8"), "--tp", "4", "--ep", "4")
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stderr,
                         "error[EREDU_E_CHECKPOINT_MISMATCH]: described bytes 23738431680 differ "
                         "from model.safetensors.index.json metadata.total_size 23860128480 "
                         "(fewer by 121696800)\n")
        result = run("describe", model("deepseek-ocr2-deepseekv2"))
        self.assert_error(result, 2, "EREDU_E_UNSUPPORTED_MODEL")
        self.assertIn('model_type "deepseek_vl_v2" is not supported: config.json does not give the '
                      "shapes of its vision and projector tensors: model.projector.* (2 tensors), "
                      "model.qwen2_model.* (291 tensors), model.sam_model.* (179 tensors), "
                      "model.view_seperator (1 tensor)\n", result.stderr)

    def test_config_only(self):
        # Planned before a download: DeepSeek-R1's folder has config.json only.
        r1 = model("deepseek-r1")
        self.assert_error(run("describe", r1), 1, "EREDU_E_IO")
        note = (f"note: {r1} described from config.json alone (--config-only): shapes and bytes "
                "are not verified against a checkpoint\n")
        described = run("describe", r1, "--config-only")
        self.assertEqual(described.returncode, 0, described.stderr)
        self.assertEqual(described.stderr, note)
        self.assertEqual(json.loads(described.stdout)["model"],
                         {"name": "deepseek-r1", "layers": 61, "experts": 256})
        # 641 GiB of FP8 weights fit ten 80 GiB devices at TP 2 x PP 5, not nine.
        fits = run("check", r1, "--config-only", "--tp", "2", "--pp", "5", "--device-budget",
                   "80GiB")
        self.assertEqual(fits.returncode, 0, fits.stderr)
        self.assertEqual(fits.stderr, note)
        self.assertIn("\ncoverage: ok (91992 tensors)\nglobal bytes: 688472104000 (641.19 GiB)\n",
                      fits.stdout)
        self.assertIn("\nfits: all 10 ranks; device peak 77833040480 bytes (72.49 GiB) of a "
                      "85899345920-byte budget (80.00 GiB)", fits.stdout)
        nine = run("check", r1, "--config-only", "--tp", "3", "--pp", "3", "--device-budget",
                   "80GiB")
        self.assertEqual(nine.returncode, 3)
        self.assertIn("\ndoes not fit: 2 of 9 ranks\n", nine.stdout)
        # Kimi K2 Mini's index is refused; its config plans at TP 4 x EP 4.
        kimi = run("check", model("kimi-k2-mini-deepseekv3-fp8"), "--config-only", "--tp", "4",
                   "--ep", "4")
        self.assertEqual(kimi.returncode, 0, kimi.stderr)
        self.assertIn("\ncoverage: ok (2599 tensors)\n", kimi.stdout)
        self.assertEqual(run("fit", "--groups", ATTENTION, "--config-only").returncode, 2)

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

    def test_read_plan_json_is_exact(self):
        # The bindings compare their read plans with this file. The plan
        # names the file as given: run at the repository root.
        result = subprocess.run([EREDU, "read-plan", "examples/files/stories260K.gguf", "--tp", "2",
                                 "--rank", "1", "--format", "json"],
                                cwd=ROOT, capture_output=True, text=True, check=False)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, expected("stories260K.tp2.rank1.readplan.json"))

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

    def test_require_even_refuses_the_uneven_vocabulary(self):
        reflection = model("reflection-llama-3.1-70b")
        for spelling in ("require-even", "require_even"):
            result = run("check", reflection, "--tp", "8", "--policy", spelling)
            self.assertEqual((result.returncode, result.stdout), (2, ""))
            # Every violation in one run: the embedding and the output head.
            self.assertEqual(
                result.stderr,
                'error[EREDU_E_INVALID_TENSOR]: logical parameter "embed": tensor '
                '"model.embed_tokens.weight" axis 0 extent 128262 does not split evenly 8 ways '
                "under require_even; sizes up to 64 that divide it: 1, 2, 3, 6\n"
                'error[EREDU_E_INVALID_TENSOR]: logical parameter "head": tensor '
                '"lm_head.weight" axis 0 extent 128262 does not split evenly 8 ways '
                "under require_even; sizes up to 64 that divide it: 1, 2, 3, 6\n")
        result = run("check", reflection, "--tp", "8", "--policy", "require-even", "--format",
                     "json")
        error = json.loads(result.stdout)["error"]
        self.assertEqual(error["code"], "EREDU_E_INVALID_TENSOR")
        self.assertEqual([(e["group"], e["tensor"], e["status"]) for e in error["errors"]],
                         [("embed", "model.embed_tokens.weight", 101),
                          ("head", "lm_head.weight", 101)])
        self.assertEqual(error["message"], error["errors"][0]["message"])
        result = run("check", reflection, "--tp", "2", "--policy", "require-even", "--format", "json")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(json.loads(result.stdout)["policy"], "require_even")

    def test_rank_from_env_plans_the_launchers_rank(self):
        plan = ("plan", "--groups", ATTENTION, "--tp", "2", "--rank-from-env", "--format", "json")
        for env in ({"RANK": "1", "WORLD_SIZE": "2", "LOCAL_RANK": "1"},
                    {"OMPI_COMM_WORLD_RANK": "1", "OMPI_COMM_WORLD_SIZE": "2"},
                    {"PMI_RANK": "1", "PMI_SIZE": "2"},
                    {"SLURM_PROCID": "1", "SLURM_NTASKS": "2"},
                    # torchrun inside a Slurm allocation: torchrun's rank.
                    {"RANK": "1", "WORLD_SIZE": "2", "SLURM_PROCID": "0", "SLURM_NTASKS": "1"}):
            result = run(*plan, env=env)
            self.assertEqual(result.returncode, 0, (env, result.stderr))
            self.assertEqual(result.stdout, expected("attention.tp2.rank1.layout.json"))
            self.assertEqual(result.stderr, "")
        result = run("read-plan", os.path.join(ROOT, "examples", "files", "stories260K.gguf"),
                     "--tp", "2", "--rank-from-env", "--format", "json",
                     env={"RANK": "1", "WORLD_SIZE": "2"})
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(json.loads(result.stdout)["rank"], 1)

    def test_rank_from_env_refuses_another_world_size(self):
        result = run("plan", "--groups", ATTENTION, "--tp", "4", "--rank-from-env",
                     env={"RANK": "1", "WORLD_SIZE": "8"})
        self.assertEqual((result.returncode, result.stdout), (2, ""))
        self.assertEqual(
            result.stderr,
            "error[EREDU_E_WORLD_SIZE_MISMATCH]: WORLD_SIZE=8 from torchrun but the topology "
            "tensor 4 × pipeline 1 × expert 1 × data 1 has 4 ranks\n")
        result = run("plan", "--groups", ATTENTION, "--tp", "2", "--rank-from-env", "--format",
                     "json")
        self.assertEqual(result.returncode, 2)
        self.assertEqual(json.loads(result.stdout)["error"]["code"], "EREDU_E_NOT_FOUND")
        result = run("plan", "--groups", ATTENTION, "--tp", "2", "--rank-from-env", "--rank", "1")
        self.assertEqual(result.returncode, 2)
        self.assertIn("excludes", result.stderr)

    def test_explicit_rank_under_another_world_size_warns(self):
        result = run("plan", "--groups", ATTENTION, "--tp", "2", "--rank", "1", "--format", "json",
                     env={"OMPI_COMM_WORLD_RANK": "5", "OMPI_COMM_WORLD_SIZE": "8"})
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, expected("attention.tp2.rank1.layout.json"))
        self.assertEqual(
            result.stderr,
            "warning: OMPI_COMM_WORLD_SIZE=8 from Open MPI but the topology tensor 2 × pipeline 1 "
            "× expert 1 × data 1 has 2 ranks; planning --rank 1 as given (--rank-from-env takes "
            "the launcher's rank)\n")

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
        self.assertEqual(check.returncode, 0, check.stderr)
        world, checked = json.loads(plan.stdout), json.loads(check.stdout)
        self.assertEqual(world["coverage"], checked["coverage"])
        self.assertEqual([r["totals"]["local_bytes"] for r in world["ranks"]],
                         [r["local_bytes"] for r in checked["ranks"]])

    def check_reflection(self, *topology):
        result = run("check", model("reflection-llama-3.1-70b"), *topology)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("\ncoverage: ok (723 tensors)\n", result.stdout)
        self.assertIn("\nglobal bytes: 282215219200 (262.83 GiB)\n", result.stdout)
        return result.stdout

    def test_check_reflection_tp16_replicates_kv_heads(self):
        self.check_reflection("--tp", "16")
        reflection = model("reflection-llama-3.1-70b")
        tp8 = json.loads(run("check", reflection, "--tp", "8", "--format", "json").stdout)
        tp16 = json.loads(run("check", reflection, "--tp", "16", "--format", "json").stdout)
        self.assertTrue(tp16["coverage"]["ok"])
        self.assertLess(max(r["local_bytes"] for r in tp16["ranks"]),
                        min(r["local_bytes"] for r in tp8["ranks"]))
        groups = run("describe", reflection).stdout
        for rank in (0, 5, 15):
            result = run("plan", "--groups", "-", "--tp", "16", "--rank", str(rank), "--format",
                         "json", stdin=groups)
            self.assertEqual(result.returncode, 0, result.stderr)
            tensors = {t["target"]: t for t in json.loads(result.stdout)["tensors"]}
            for layer in (0, 79):
                attn = f"model.layers.{layer}.self_attn."
                head = 128 * (rank // 2)
                self.assertEqual(tensors[attn + "q_proj.weight"]["placement"],
                                 {"kind": "range", "axis": 0, "start": 512 * rank,
                                  "end": 512 * rank + 512})
                for kv in ("k_proj.weight", "v_proj.weight"):
                    self.assertEqual(tensors[attn + kv]["placement"],
                                     {"kind": "range", "axis": 0, "start": head, "end": head + 128})
                    self.assertEqual(tensors[attn + kv]["kv_head_copies"], 2)
                self.assertEqual(tensors[attn + "o_proj.weight"]["placement"],
                                 {"kind": "range", "axis": 1, "start": 512 * rank,
                                  "end": 512 * rank + 512})
        table = run("plan", "--groups", "-", "--tp", "16", "--rank", "5", stdin=groups).stdout
        self.assertRegex(table, r"\nmodel\.layers\.0\.self_attn\.k_proj\.weight +range axis 0 "
                                r"\[256, 384\) +\[128, 8192\] +4\.00 MiB +KV head on 2 ranks\n")

    def test_vocabulary_padding(self):
        reflection = model("reflection-llama-3.1-70b")
        result = run("check", reflection, "--tp", "8", "--pad-vocab", "128", "--format", "json")
        self.assertEqual(result.returncode, 0, result.stderr)
        report = json.loads(result.stdout)
        self.assertTrue(report["coverage"]["ok"])
        # 16128 F32 rows of embedding and head on every rank, 95 more than rank 0's 16033.
        self.assertEqual({r["local_bytes"] for r in report["ranks"]},
                         {35281534976 + 2 * 95 * 8192 * 4})
        groups = run("describe", reflection, "--pad-vocab", "128").stdout
        vocabulary = [(g["name"], g.get("vocab_pad_multiple"))
                      for g in json.loads(groups)["groups"] if g["role"] == "vocabulary"]
        self.assertEqual(vocabulary, [("embed", 128), ("head", 128)])
        # P = 129024: rank 7 reads [112896, 128262) and pads 762 rows.
        for rank, (start, end, padding) in ((0, (0, 16128, None)),
                                            (7, (112896, 128262, 762))):
            planned = run("plan", "--groups", "-", "--tp", "8", "--rank", str(rank), "--format",
                          "json", stdin=groups)
            self.assertEqual(planned.returncode, 0, planned.stderr)
            tensors = {t["target"]: t for t in json.loads(planned.stdout)["tensors"]}
            for target in ("model.embed_tokens.weight", "lm_head.weight"):
                tensor = tensors[target]
                self.assertEqual(tensor["placement"],
                                 {"kind": "range", "axis": 0, "start": start, "end": end})
                self.assertEqual(tensor["local_shape"], [16128, 8192])
                self.assertEqual(tensor["local_bytes"], 16128 * 8192 * 4)
                self.assertEqual(tensor.get("padding_rows"), padding)
        table = run("plan", "--groups", "-", "--tp", "8", "--rank", "7", stdin=groups).stdout
        self.assertRegex(table, r"\nlm_head\.weight +range axis 0 \[112896, 128262\) +"
                                r"\[16128, 8192\] +504\.00 MiB +762 padding rows\n")
        # fit pads at every size, from a folder or a description: 128384 rows at TP 1.
        padded_tp1 = 282215219200 + 2 * (128384 - 128262) * 8192 * 4
        for args, stdin in (([reflection], None), (["--groups", "-"], groups),
                            (["--groups", "-"], run("describe", reflection).stdout)):
            with self.subTest(args=args):
                fitted = run("fit", *args, "--pad-vocab", "128", "--max-world", "1", "--format",
                             "json", stdin=stdin)
                self.assertEqual(fitted.returncode, 0, fitted.stderr)
                self.assertEqual(json.loads(fitted.stdout)["topologies"][0]["device_peak_bytes"],
                                 padded_tp1)
        for command in (["describe", reflection], ["check", reflection],
                        ["fit", reflection, "--max-world", "1"]):
            with self.subTest(command=command[0]):
                failed = run(*command, "--pad-vocab", "0")
                self.assertEqual((failed.returncode, failed.stdout), (2, ""))
                self.assertEqual(failed.stderr, "error[EREDU_E_INVALID_ARGUMENT]: the vocabulary "
                                                "padding multiple must be at least 1\n")

    def test_pipeline_stages_of_chosen_sizes(self):
        reflection = model("reflection-llama-3.1-70b")
        result = run("check", reflection, "--tp", "8", "--pp-layers", "30,50", "--format", "json")
        self.assertEqual(result.returncode, 0, result.stderr)
        report = json.loads(result.stdout)
        self.assertEqual(report["topology"], {"tensor": 8, "pipeline": 2, "expert": 1, "data": 1,
                                              "pipeline_layers": [30, 50]})
        self.assertTrue(report["coverage"]["ok"])
        first, last = report["ranks"][0], report["ranks"][8]
        self.assertEqual((first["layer_units"], last["layer_units"]), (30, 50))
        # --pp, when given, must agree with the counts.
        same = run("check", reflection, "--tp", "8", "--pp", "2", "--pp-layers", "30,50",
                   "--format", "json")
        self.assertEqual(json.loads(same.stdout)["ranks"], report["ranks"])
        for args, message in (
                (["--pp-layers", "30,40"],
                 "pipeline layers 30, 40 sum to 70, not the model's 80 decoder layers"),
                (["--pp", "3", "--pp-layers", "30,50"],
                 "pipeline layers: 2 counts for 3 pipeline stages; give one per stage"),
                (["--pp-layers", "80,0"],
                 "pipeline layers: stage 1 has 0 layers; every stage needs at least one")):
            with self.subTest(args=args):
                failed = run("check", reflection, *args)
                self.assertEqual((failed.returncode, failed.stdout), (2, ""))
                self.assertEqual(failed.stderr, f"error[EREDU_E_INVALID_ARGUMENT]: {message}\n")

    def test_fit_finds_the_smallest_world(self):
        reflection = model("reflection-llama-3.1-70b")
        result = run("fit", reflection, "--device-budget", "80GiB", "--format", "json")
        self.assertEqual(result.returncode, 0, result.stderr)
        report = json.loads(result.stdout)
        self.assertEqual(report["schema"], "eredu.fit.v1")
        self.assertEqual(report["max_world"], 64)
        self.assertEqual(report["smallest_fitting_world"], 4)
        rows = {(t["tp"], t["pp"], t["ep"]): t for t in report["topologies"]}
        self.assertEqual(len(rows), len(report["topologies"]))
        self.assertTrue(all(t["world"] == t["tp"] * t["pp"] * t["ep"] <= 64
                            for t in report["topologies"]))
        self.assertEqual(rows[(1, 1, 1)], {"tp": 1, "pp": 1, "ep": 1, "world": 1, "plans": True,
                                           "fits": False, "device_peak_bytes": 282215219200})
        self.assertEqual(rows[(2, 1, 1)]["device_peak_bytes"], 141110247424)
        self.assertFalse(rows[(2, 1, 1)]["fits"])
        self.assertEqual(rows[(4, 1, 1)], {"tp": 4, "pp": 1, "ep": 1, "world": 4, "plans": True,
                                           "fits": True, "device_peak_bytes": 70557794304})
        self.assertEqual(rows[(1, 1, 2)]["error"], "EREDU_E_MISSING_EXPERT_COUNT")
        self.assertNotIn("device_peak_bytes", rows[(1, 1, 2)])
        self.assertEqual(rows[(16, 1, 1)]["plans"], True)  # KV heads replicated
        table = run("fit", reflection, "--device-budget", "80GiB", "--max-world", "4").stdout
        self.assertRegex(table, r"\n +4 +4 +1 +1 +yes +65\.71 GiB +yes\n")
        self.assertTrue(table.endswith(
            "\nsmallest fitting world: 4 (tp 1, pp 4, ep 1; tp 2, pp 2, ep 1; tp 4, pp 1, ep 1)\n"))
        nothing = run("fit", reflection, "--device-budget", "80GiB", "--max-world", "3")
        self.assertEqual(nothing.returncode, 3)
        self.assertTrue(nothing.stdout.endswith("\nnothing fits in a world of up to 3 ranks\n"))
        for args in (["fit"], ["fit", reflection, "--groups", "x.json"],
                     ["fit", reflection, "--max-world", "0"]):
            with self.subTest(args=args):
                self.assertEqual(run(*args).returncode, 2)

    def test_check_reflection_tp8(self):
        table = self.check_reflection("--tp", "8")
        self.assertRegex(table, r"\n +0 +0 +0 +0 +0 +723 +32\.86 GiB +-\n")

    def test_check_reflection_tp4_pp2(self):
        table = self.check_reflection("--tp", "4", "--pp", "2")
        self.assertRegex(table, r"\n +7 +3 +1 +0 +0 +362 +32\.86 GiB +-\n")

    def test_check_json_is_a_check_document(self):
        result = run("check", model("reflection-llama-3.1-70b"), "--tp", "8", "--format", "json")
        self.assertEqual(result.returncode, 0, result.stderr)
        checked = json.loads(result.stdout)
        self.assertEqual(list(checked), ["schema", "model", "topology", "policy", "residency", "coverage",
                                         "ranks", "fits"])
        self.assertEqual(checked["schema"], "eredu.check.v1")
        self.assertEqual(checked["model"], {"name": "reflection-llama-3.1-70b", "tensors": 723,
                                            "global_bytes": 282215219200})
        self.assertEqual(checked["residency"], {"kind": "fully_resident", "device_budget_bytes": None,
                                                "host_budget_bytes": None, "prefetch_depth": 1,
                                                "host_lookahead": 0})
        self.assertEqual(checked["coverage"], {"ok": True, "tensors": 723, "problems": []})
        self.assertEqual(checked["ranks"][0]["local_bytes"], 35281534976)
        self.assertTrue(checked["fits"])

    def test_check_other_models(self):
        for name, tp, pp in (("mistral-7b-v0.1", 4, 2), ("qwen2.5-14b-sakura", 8, 3), ("qwen3-1.7b", 2, 4)):
            with self.subTest(model=name):
                result = run("check", model(name), "--tp", str(tp), "--pp", str(pp))
                self.assertEqual(result.returncode, 0, result.stderr)
                self.assertIn("coverage: ok", result.stdout)

    def test_check_mixtral_with_expert_parallelism(self):
        mixtral = model("mixtral-8x7b-dolphin-2.5")
        result = run("check", mixtral, "--tp", "2", "--ep", "4")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("\ncoverage: ok (995 tensors)\n", result.stdout)
        self.assertIn("\nglobal bytes: 93405618176 (86.99 GiB)\n", result.stdout)
        groups = run("describe", mixtral).stdout
        self.assertEqual(json.loads(groups)["model"], {"name": "mixtral-8x7b-dolphin-2.5",
                                                       "layers": 32, "experts": 8})
        for rank in range(8):
            planned = run("plan", "--groups", "-", "--tp", "2", "--ep", "4", "--rank", str(rank),
                          "--format", "json", stdin=groups)
            self.assertEqual(planned.returncode, 0, planned.stderr)
            layout = json.loads(planned.stdout)
            expert_rank = layout["coordinates"]["expert"]
            held = {(int(t["target"].split(".")[2]), int(t["target"].split(".")[5]))
                    for t in layout["tensors"]
                    if ".experts." in t["target"] and t["placement"]["kind"] != "omit"}
            self.assertEqual(held, {(layer, expert) for layer in range(32)
                                    for expert in (2 * expert_rank, 2 * expert_rank + 1)})
        refused = run("check", mixtral, "--ep", "16")
        self.assertEqual(refused.returncode, 2)
        self.assertEqual(refused.stderr, "error[EREDU_E_EMPTY_PARTITION]: 8 routed experts cannot "
                                         "be split over 16 expert ranks; expert sizes from 1 to 8 "
                                         "work\n")

    def test_check_gpt_oss_stacked_experts_with_expert_parallelism(self):
        gpt_oss = model("gpt-oss-20b")
        result = run("check", gpt_oss, "--ep", "4")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("\ncoverage: ok (459 tensors)\n", result.stdout)
        self.assertIn("\nglobal bytes: 13761264768 (12.82 GiB)\n", result.stdout)
        groups = run("describe", gpt_oss).stdout
        self.assertEqual(json.loads(groups)["model"], {"name": "gpt-oss-20b", "layers": 24,
                                                       "experts": 32})
        # Expert rank e holds experts [8e, 8e + 8) of every stacked tensor: a
        # range of axis 0 for the replicated down bias, an expert range on top
        # of the tensor-parallel split for the others.
        for tp, rank in ((1, 2), (2, 5)):
            planned = run("plan", "--groups", "-", "--tp", str(tp), "--ep", "4", "--rank",
                          str(rank), "--format", "json", stdin=groups)
            self.assertEqual(planned.returncode, 0, planned.stderr)
            layout = json.loads(planned.stdout)
            expert = layout["coordinates"]["expert"]
            tensor = layout["coordinates"]["tensor"]
            stacked = [t for t in layout["tensors"] if ".mlp.experts." in t["target"]]
            self.assertEqual(len(stacked), 24 * 6)
            for t in stacked:
                self.assertEqual(t["expert_range"], {"axis": 0, "start": 8 * expert,
                                                     "end": 8 * expert + 8}, t["target"])
                self.assertEqual(t["local_shape"][0], 8)
            by_name = {t["target"]: t for t in stacked}
            bias = by_name["model.layers.11.mlp.experts.down_proj_bias"]
            self.assertEqual(bias["placement"], {"kind": "range", "axis": 0,
                                                 "start": 8 * expert, "end": 8 * expert + 8})
            self.assertEqual(bias["local_bytes"], 8 * 2880 * 2)
            blocks = by_name["model.layers.11.mlp.experts.gate_up_proj_blocks"]
            rows = 5760 // tp
            self.assertEqual(blocks["local_shape"], [8, rows, 90, 16])
            self.assertEqual(blocks["local_bytes"], 8 * rows * 90 * 16)
            self.assertEqual(blocks["placement"], {"kind": "range", "axis": 1,
                                                   "start": rows * tensor,
                                                   "end": rows * tensor + rows})

    def test_check_granitemoe_stacked_experts(self):
        granite = model("granite-3.1-1b-a400m-granitemoe")
        for tp, pp, ep in ((8, 1, 1), (2, 2, 1), (2, 1, 8)):
            with self.subTest(tp=tp, pp=pp, ep=ep):
                result = run("check", granite, "--tp", str(tp), "--pp", str(pp), "--ep", str(ep))
                self.assertEqual(result.returncode, 0, result.stderr)
                self.assertIn("\ncoverage: ok (218 tensors)\n", result.stdout)
                self.assertIn("\nglobal bytes: 5338513408 (4.97 GiB)\n", result.stdout)
        groups = run("describe", granite).stdout
        self.assertEqual(json.loads(groups)["model"], {"name": "granite-3.1-1b-a400m-granitemoe",
                                                       "layers": 24, "experts": 32})
        # Rank 5 at TP 2 x EP 4: tensor rank 1, expert rank 1 (experts [8, 16)).
        planned = run("plan", "--groups", "-", "--tp", "2", "--ep", "4", "--rank", "5",
                      stdin=groups)
        self.assertEqual(planned.returncode, 0, planned.stderr)
        line = next(line for line in planned.stdout.splitlines()
                    if line.startswith("model.layers.3.block_sparse_moe.output_linear.weight "))
        self.assertEqual(line.split()[1:], ["range", "axis", "2", "[256,", "512)", "[8,", "1024,",
                                            "256]", "8.00", "MiB", "experts", "[8,", "16)"])
        self.assertIn("\nrouted experts [8, 16) of every layer: 192 units of up to 3.00 MiB; "
                      "routed bytes 603979776 (576.00 MiB), other bytes 255008768 (243.20 MiB)\n",
                      planned.stdout)
        # An expert cache of 100 MiB holds 33 of the 192 units of 3 MiB; the
        # ordinary units are the other bytes.
        cached = run("check", granite, "--tp", "2", "--ep", "4", "--expert-cache", "100MiB",
                     "--format", "json")
        self.assertEqual(cached.returncode, 0, cached.stderr)
        report = json.loads(cached.stdout)
        self.assertEqual(report["residency"]["expert_cache"], {"device_budget_bytes": 104857600})
        rank = report["ranks"][5]
        self.assertEqual(rank["experts"], {"start": 8, "end": 16, "routed_bytes": 603979776,
                                           "other_bytes": 255008768, "units": 192,
                                           "largest_unit_bytes": 3145728, "cached_units": 33})
        self.assertEqual(rank["local_bytes"], 255008768)
        table = run("check", granite, "--tp", "2", "--ep", "4", "--expert-cache", "100MiB")
        self.assertIn("\nexperts: 32 routed per layer; held apart in an expert cache, device "
                      "budget 100.00 MiB\n", table.stdout)
        self.assertIn("\n   5  [8, 16)   576.00 MiB  243.20 MiB    192  3.00 MiB  33 of 192\n",
                      table.stdout)
        refused = run("check", granite, "--ep", "64")
        self.assertEqual(refused.returncode, 2)
        self.assertEqual(refused.stderr, "error[EREDU_E_EMPTY_PARTITION]: 32 routed experts cannot "
                                         "be split over 64 expert ranks; expert sizes from 1 to "
                                         "32 work\n")

    def test_check_qwen3_5_moe_with_expert_parallelism(self):
        qwen = model("qwen3.5-25b-reap-a3b-moe")
        for tp, pp, ep in ((8, 1, 1), (2, 2, 1), (2, 1, 8)):
            with self.subTest(tp=tp, pp=pp, ep=ep):
                result = run("check", qwen, "--tp", str(tp), "--pp", str(pp), "--ep", str(ep))
                self.assertEqual(result.returncode, 0, result.stderr)
                self.assertIn("\ncoverage: ok (22213 tensors)\n", result.stdout)
                self.assertIn("\nglobal bytes: 50182743296 (46.74 GiB)\n", result.stdout)
        groups = run("describe", qwen).stdout
        self.assertEqual(json.loads(groups)["model"], {"name": "qwen3.5-25b-reap-a3b-moe",
                                                       "layers": 40, "experts": 180})
        # Expert ranks 0-3 hold 23 of the 180 experts of every layer, 4-7 hold 22
        # (rank 12: tensor rank 1 of expert rank 4).
        for rank in (0, 12):
            planned = run("plan", "--groups", "-", "--tp", "2", "--ep", "8", "--rank", str(rank),
                          "--format", "json", stdin=groups)
            self.assertEqual(planned.returncode, 0, planned.stderr)
            layout = json.loads(planned.stdout)
            expert_rank = layout["coordinates"]["expert"]
            tensor_rank = layout["coordinates"]["tensor"]
            first = 22 * expert_rank + min(expert_rank, 4)
            last = first + (23 if expert_rank < 4 else 22)
            held = {(int(t["target"].split(".")[3]), int(t["target"].split(".")[6]))
                    for t in layout["tensors"]
                    if ".experts." in t["target"] and t["placement"]["kind"] != "omit"}
            self.assertEqual(held, {(layer, expert) for layer in range(40)
                                    for expert in range(first, last)})
            down = next(t for t in layout["tensors"] if t["target"] ==
                        f"model.language_model.layers.7.mlp.experts.{first}.down_proj.weight")
            self.assertEqual(down["local_shape"], [2048, 256])
            self.assertEqual(down["placement"], {"kind": "range", "axis": 1,
                                                 "start": 256 * tensor_rank,
                                                 "end": 256 * tensor_rank + 256})
            self.assertEqual(down["local_bytes"], 1048576)
        refused = run("check", qwen, "--ep", "256")
        self.assertEqual(refused.returncode, 2)
        self.assertEqual(refused.stderr, "error[EREDU_E_EMPTY_PARTITION]: 180 routed experts cannot "
                                         "be split over 256 expert ranks; expert sizes from 1 to "
                                         "180 work\n")

    def test_check_gpt_neox_reward_model(self):
        pythia = model("pythia-1.4b-oasst-rm-gptneox")
        result = run("check", pythia, "--tp", "4", "--pp", "2")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("\ncoverage: ok (293 tensors)\n", result.stdout)
        self.assertIn("\nglobal bytes: 5246377988 (4.89 GiB)\n", result.stdout)
        groups = run("describe", pythia).stdout
        self.assertEqual(json.loads(groups)["model"], {"name": "pythia-1.4b-oasst-rm-gptneox",
                                                       "layers": 24})
        planned = run("plan", "--groups", "-", "--tp", "4", "--rank", "1", "--format", "json",
                      stdin=groups)
        self.assertEqual(planned.returncode, 0, planned.stderr)
        tensors = {t["target"]: t for t in json.loads(planned.stdout)["tensors"]}
        qkv = tensors["gpt_neox.layers.0.attention.query_key_value.weight"]
        # Heads 4..7, each its query, key and value rows: rows [1536, 3072).
        self.assertEqual(qkv["placement"], {"kind": "range", "axis": 0, "start": 1536, "end": 3072})
        self.assertEqual((qkv["local_shape"], qkv["local_bytes"]), ([1536, 2048], 12582912))
        self.assertEqual(tensors["out_proj.weight"]["placement"], {"kind": "replicated"})
        refused = run("check", pythia, "--tp", "32")
        self.assertEqual((refused.returncode, refused.stdout), (2, ""))
        self.assertTrue(refused.stderr.startswith(
            "error[EREDU_E_INVALID_TENSOR]: logical parameter \"gpt_neox.layers.0.attention\": 16 "
            "partition units — declared by the group — cannot be split 32 ways; tensor sizes up "
            "to 64 that work for this group: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, "
            "16\n"), refused.stderr)

    def test_check_qwen1(self):
        qwen = model("qwen1-72b")
        result = run("check", qwen, "--tp", "8", "--pp", "2")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("\ncoverage: ok (643 tensors)\n", result.stdout)
        self.assertIn("\nglobal bytes: 144575840256 (134.65 GiB)\n", result.stdout)
        groups = run("describe", qwen).stdout
        self.assertEqual(json.loads(groups)["model"], {"name": "qwen1-72b", "layers": 80})
        planned = run("plan", "--groups", "-", "--tp", "8", "--rank", "3", "--format", "json",
                      stdin=groups)
        self.assertEqual(planned.returncode, 0, planned.stderr)
        tensors = {t["target"]: t for t in json.loads(planned.stdout)["tensors"]}
        c_attn = tensors["transformer.h.0.attn.c_attn.weight"]
        # Heads 24..31 of each of the q, k and v segments (8192 rows each).
        self.assertEqual(c_attn["placement"], {"kind": "indices", "axis": 0, "count": 3072,
                                               "runs": [[3072, 4096], [11264, 12288],
                                                        [19456, 20480]]})
        self.assertEqual((c_attn["local_shape"], c_attn["local_bytes"]), ([3072, 8192], 50331648))
        self.assertEqual(tensors["transformer.wte.weight"]["global_shape"], [152064, 8192])

    def test_check_qwen2_vl(self):
        olmocr = model("olmocr-7b-qwen2-vl")
        result = run("check", olmocr, "--tp", "4", "--pp", "2")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("\ncoverage: ok (730 tensors)\n", result.stdout)
        self.assertIn("\nglobal bytes: 16582751232 (15.44 GiB)\n", result.stdout)
        groups = run("describe", olmocr).stdout
        planned = run("plan", "--groups", "-", "--tp", "4", "--rank", "1", "--format", "json",
                      stdin=groups)
        self.assertEqual(planned.returncode, 0, planned.stderr)
        tensors = {t["target"]: t for t in json.loads(planned.stdout)["tensors"]}
        qkv = tensors["visual.blocks.0.attn.qkv.weight"]
        # Vision heads 4..7 of each of the q, k and v segments (1280 rows each).
        self.assertEqual(qkv["placement"], {"kind": "indices", "axis": 0, "count": 960,
                                            "runs": [[320, 640], [1600, 1920], [2880, 3200]]})
        self.assertEqual((qkv["local_shape"], qkv["local_bytes"]), ([960, 1280], 2457600))
        # On the second pipeline stage the vision tower is omitted.
        later = run("plan", "--groups", "-", "--tp", "4", "--pp", "2", "--rank", "4",
                    "--format", "json", stdin=groups)
        tensors = {t["target"]: t for t in json.loads(later.stdout)["tensors"]}
        self.assertEqual(tensors["visual.blocks.0.attn.qkv.weight"]["placement"], {"kind": "omit"})
        refused = run("check", olmocr, "--tp", "8")
        self.assertEqual((refused.returncode, refused.stdout), (2, ""))
        self.assertTrue(refused.stderr.startswith(
            "error[EREDU_E_INVALID_TENSOR]: logical parameter \"model.layers.0.self_attn\": 4 KV "
            "heads and 28 query heads cannot be split 8 ways"), refused.stderr)

    def test_check_gemma3(self):
        gemma = model("medgemma-27b-gemma3")
        result = run("check", gemma, "--tp", "8", "--pp", "2")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("\ncoverage: ok (1247 tensors)\n", result.stdout)
        self.assertIn("\nglobal bytes: 54864813280 (51.10 GiB)\n", result.stdout)
        groups = run("describe", gemma).stdout
        described = json.loads(groups)
        self.assertEqual(described["model"], {"name": "medgemma-27b-gemma3", "layers": 62})
        self.assertEqual(described["groups"][0]["scope"], "tied_embedding")
        planned = run("plan", "--groups", "-", "--tp", "8", "--rank", "5", "--format", "json",
                      stdin=groups)
        self.assertEqual(planned.returncode, 0, planned.stderr)
        tensors = {t["target"]: t for t in json.loads(planned.stdout)["tensors"]}
        vision_q = tensors["vision_tower.vision_model.encoder.layers.0.self_attn.q_proj.weight"]
        # SigLIP heads 10 and 11 (72 rows each).
        self.assertEqual(vision_q["placement"], {"kind": "range", "axis": 0, "start": 720,
                                                 "end": 864})
        self.assertEqual((vision_q["local_shape"], vision_q["local_bytes"]), ([144, 1152], 331776))
        k_proj = tensors["language_model.model.layers.0.self_attn.k_proj.weight"]
        self.assertEqual(k_proj["placement"], {"kind": "range", "axis": 0, "start": 1280,
                                               "end": 1536})
        refused = run("check", gemma, "--tp", "32")
        self.assertEqual((refused.returncode, refused.stdout), (2, ""))
        self.assertTrue(refused.stderr.startswith(
            "error[EREDU_E_INVALID_TENSOR]: logical parameter "
            "\"vision_tower.vision_model.encoder.layers.0.self_attn\": 16 partition units"),
            refused.stderr)

    def test_help_and_version(self):
        self.assertEqual(run("--help").returncode, 0)
        version = run("--version")
        self.assertEqual(version.returncode, 0)
        self.assertRegex(
            version.stdout,
            r"^eredu (\d+\.\d+\.\d+)\nliberedu \1 \(fmt \d+\.\d+\.\d+, simdjson \d+\.\d+\.\d+, "
            r"nlohmann_json \d+\.\d+\.\d+, boost \d+\.\d+\.\d+, zstd \d+\.\d+\.\d+, "
            r"xxhash \d+\.\d+\.\d+\)\nCLI11 \d+\.\d+\.\d+\n$")

    def test_an_index_without_total_size_is_described_with_a_warning(self):
        with tempfile.TemporaryDirectory() as folder:
            source = model("qwen3-1.7b")
            with open(os.path.join(source, "config.json"), encoding="utf-8") as handle:
                config = handle.read()
            with open(os.path.join(source, "model.safetensors.index.json"), encoding="utf-8") as handle:
                index = json.load(handle)
            total = index["metadata"].pop("total_size")
            with open(os.path.join(folder, "config.json"), "w", encoding="utf-8") as handle:
                handle.write(config)
            with open(os.path.join(folder, "model.safetensors.index.json"), "w",
                      encoding="utf-8") as handle:
                json.dump(index, handle)
            described = run("describe", folder)
            self.assertEqual(described.returncode, 0, described.stderr)
            self.assertEqual(described.stderr,
                             f"warning: {folder}/model.safetensors.index.json gives no "
                             f"metadata.total_size: the tensors are checked, their bytes "
                             f"({total}) are not\n")
            self.assertEqual(json.loads(described.stdout)["model"]["name"], os.path.basename(folder))

    def test_describe_help_lists_the_model_types(self):
        described = run("describe", "--help")
        self.assertEqual(described.returncode, 0)
        types = re.search(r"Model types \(config.json model_type\): (.*)\n", described.stdout)
        self.assertIsNotNone(types, described.stdout)
        self.assertTrue(types.group(1).startswith("llama, mistral, qwen2, qwen3, phi3, "))
        self.assertIn(", falcon, gpt_oss, qwen2_moe, ", types.group(1))
        self.assertIn(", qwen2_vl, ", types.group(1))
        self.assertNotIn("deepseek_vl_v2", types.group(1))

    def test_bare_command_prints_its_usage(self):
        bare = run()
        self.assertEqual((bare.returncode, bare.stderr), (0, ""))
        self.assertEqual(bare.stdout, run("--help").stdout)
        self.assertIn("Subcommands:", bare.stdout)

    def test_targets_sort_naturally_in_tables(self):
        qwen = os.path.join(ROOT, "tests", "vectors", "inputs", "models", "qwen3-1.7b.groups.json")
        table = run("plan", "--groups", qwen, "--tp", "2", "--rank", "1").stdout
        targets = [line.split()[0] for line in table.splitlines() if line.startswith("model.")]
        self.assertEqual(len(targets), 310)
        self.assertLess(targets.index("model.layers.2.mlp.down_proj.weight"),
                        targets.index("model.layers.10.mlp.down_proj.weight"))
        self.assertEqual(targets[0], "model.embed_tokens.weight")
        self.assertEqual(targets[-1], "model.norm.weight")
        # JSON keeps the document's byte order.
        layout = json.loads(run("plan", "--groups", qwen, "--tp", "2", "--rank", "1", "--format",
                                "json").stdout)
        names = [tensor["target"] for tensor in layout["tensors"]]
        self.assertEqual(names, sorted(names))

    def test_tables_fit_columns(self):
        qwen = os.path.join(ROOT, "tests", "vectors", "inputs", "models", "qwen3-1.7b.groups.json")
        wide = run("plan", "--groups", qwen, "--tp", "2", "--rank", "1").stdout
        narrow = run("plan", "--groups", qwen, "--tp", "2", "--rank", "1",
                     env={"COLUMNS": "80"}).stdout
        self.assertGreater(max(len(line) for line in wide.splitlines()), 80)
        lines = narrow.splitlines()
        header = lines.index(next(line for line in lines if line.startswith("TARGET")))
        rows = lines[header:lines.index("", header)]
        self.assertEqual(len(rows), 311)
        self.assertLessEqual(max(len(line) for line in rows), 80)
        # The middle of a long target gives way (16 characters: the narrowest
        # a target gets); its head and, longer, its tail stay.
        self.assertEqual(rows[1].split()[0], "model…kens.weight")
        self.assertEqual(len(narrow.splitlines()), len(wide.splitlines()))


FILES = os.path.join(ROOT, "examples", "files")
STORIES = os.path.join(FILES, "stories260K.gguf")
LORA = os.path.join(FILES, "gpt2-lora")


class ReadPlans(unittest.TestCase):
    def test_describe_gguf(self):
        result = run("describe", STORIES)
        self.assertEqual(result.returncode, 0, result.stderr)
        described = json.loads(result.stdout)
        self.assertEqual(described["model"], {"name": "stories260K", "layers": 5})
        attention = next(g for g in described["groups"] if g["name"] == "blk.0.attn")
        self.assertEqual((attention["partition_units"], attention["query_units"]), (4, 8))
        self.assertEqual(sum(len(g["members"]) for g in described["groups"]), 48)

    def test_read_plan_json_rank_1_of_2(self):
        result = run("read-plan", STORIES, "--tp", "2", "--rank", "1", "--format", "json")
        self.assertEqual(result.returncode, 0, result.stderr)
        plan = json.loads(result.stdout)
        self.assertEqual(list(plan), ["format", "model", "rank", "files", "tensors", "totals"])
        self.assertEqual((plan["format"], plan["model"], plan["rank"]),
                         ("eredu.readplan.v1", "stories260K", 1))
        self.assertEqual(plan["files"], [STORIES])
        self.assertEqual(plan["totals"], {"tensors": 48, "extents": 48, "read_bytes": 587008,
                                          "local_bytes": 587008})
        output = next(t for t in plan["tensors"] if t["target"] == "blk.0.attn_output.weight")
        self.assertEqual(output, {
            "target": "blk.0.attn_output.weight", "dtype": "F32", "local_shape": [64, 32],
            "local_bytes": 8192, "read_bytes": 8192, "padding_rows": 0,
            "extents": [{"file": 0, "offset": 309472, "length": 128, "count": 64, "stride": 256,
                         "dest": 0, "dest_stride": 128}]})
        self.assertTrue(result.stdout.endswith("}\n"))

    def test_read_plan_all_ranks_is_an_array(self):
        result = run("read-plan", STORIES, "--tp", "4", "--all-ranks", "--format", "json")
        self.assertEqual(result.returncode, 0, result.stderr)
        plans = json.loads(result.stdout)
        self.assertEqual([p["rank"] for p in plans], [0, 1, 2, 3])
        self.assertEqual([p["totals"]["read_bytes"] for p in plans], [294912] * 4)

    def test_read_plan_table(self):
        result = run("read-plan", STORIES, "--tp", "2", "--rank", "0")
        self.assertEqual(result.returncode, 0, result.stderr)
        lines = result.stdout.splitlines()
        self.assertEqual(lines[0], "rank 0 of 2: 48 tensors, 48 extents, reads 573.25 KiB into "
                                   "573.25 KiB from 1 file")
        row = next(line for line in lines if line.startswith("blk.0.attn_output.weight"))
        self.assertTrue(row.endswith("0@309344+128x64/256"), row)

    def test_read_plan_with_groups_for_the_lora_adapter(self):
        result = run("read-plan", os.path.join(LORA, "adapter_model.safetensors"),
                     "--groups", os.path.join(LORA, "adapter.groups.json"),
                     "--tp", "4", "--rank", "1", "--format", "json")
        self.assertEqual(result.returncode, 0, result.stderr)
        plan = json.loads(result.stdout)
        lora_b = next(t for t in plan["tensors"]
                      if t["target"] == "base_model.model.transformer.h.0.attn.c_attn.lora_B.weight")
        # Heads 3-5 of each of q, k and v: three runs of 192 rows.
        self.assertEqual([(e["offset"], e["length"]) for e in lora_b["extents"]],
                         [(39792, 6144), (64368, 6144), (88944, 6144)])

    def test_read_plan_errors(self):
        self.assertEqual(run("read-plan", STORIES, "--tp", "2").returncode, 2)
        mismatch = run("read-plan", os.path.join(LORA, "adapter_model.safetensors"),
                       "--groups", os.path.join(DATA, "attention.groups.json"), "--rank", "0")
        self.assertEqual(mismatch.returncode, 2)
        self.assertRegex(mismatch.stderr, r"^error\[EREDU_E_CHECKPOINT_MISMATCH\]: rank 0 "
                                          r"materializes tensor .*, which the checkpoint does not hold\n$")
        missing = run("read-plan", "/nonexistent.gguf", "--rank", "0")
        self.assertEqual(missing.returncode, 1)

    def test_load_rank_1_of_2(self):
        plan = json.loads(run("read-plan", STORIES, "--tp", "2", "--rank", "1",
                              "--format", "json").stdout)
        self.assertEqual(plan["totals"]["read_bytes"], 587008)
        # By default strided rows are copied from a mapping: the disk gives
        # exactly the bytes kept.
        result = run("load", STORIES, "--tp", "2", "--rank", "1", "--threads", "2")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stderr, "")  # no progress bar on a pipe
        lines = result.stdout.splitlines()
        self.assertEqual(lines[:3], [
            "rank 1 of 2: 48 tensors from 1 file, 2 threads",
            "kept: 587008 bytes (573.25 KiB)",
            "read: 587008 bytes (573.25 KiB), 0 more than kept"])
        self.assertRegex(lines[3], r"^time: \d+\.\d{3} s, \d+\.\d{2} GB/s$")
        self.assertEqual(len(lines), 4)
        # Rows 64 KiB apart or less read as one span: the gaps of
        # attn_output (63 x 128 bytes) and ffn_down (63 x 344) of 5 layers
        # are read too.
        result = run("load", STORIES, "--tp", "2", "--rank", "1", "--threads", "1", "--cold",
                     "--max-gap", "65536")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.splitlines()[:3], [
            "rank 1 of 2: 48 tensors from 1 file, 1 thread",
            "kept: 587008 bytes (573.25 KiB)",
            "read: 735688 bytes (718.45 KiB), 148680 more than kept"])
        direct = run("load", STORIES, "--tp", "2", "--rank", "1", "--direct")
        self.assertEqual(direct.returncode, 0, direct.stderr)
        self.assertEqual(direct.stdout.splitlines()[1], "kept: 587008 bytes (573.25 KiB)")

    def test_load_errors(self):
        result = run("load", STORIES, "--tp", "2")
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stderr,
                         "error[EREDU_E_INVALID_ARGUMENT]: load needs --rank R or --rank-from-env\n")
        self.assertEqual(run("load", STORIES, "--rank", "0", "--threads", "-1").returncode, 2)
        self.assertEqual(run("load", STORIES, "--tp", "2", "--rank", "2").returncode, 2)
        self.assertEqual(run("load", "/nonexistent.gguf", "--rank", "0").returncode, 1)

    def test_describe_a_folder_with_config_and_model_safetensors(self):
        config = {"model_type": "llama", "hidden_size": 64, "intermediate_size": 172,
                  "num_attention_heads": 8, "num_key_value_heads": 4, "num_hidden_layers": 5,
                  "vocab_size": 512, "tie_word_embeddings": False, "torch_dtype": "float32"}
        with tempfile.TemporaryDirectory() as folder:
            with open(os.path.join(folder, "config.json"), "w", encoding="utf-8") as f:
                json.dump(config, f)
            self.assertEqual(run("describe", folder).returncode, 1)  # no checkpoint yet
            groups = json.loads(run("describe", folder, "--config-only").stdout)["groups"]
            members = [m for g in groups for m in g["members"]]
            header, offset = {}, 0
            for member in members:
                size = 4 * math.prod(member["shape"])
                header[member["target"]] = {"dtype": "F32", "shape": member["shape"],
                                            "data_offsets": [offset, offset + size]}
                offset += size
            text = json.dumps(header).encode()
            with open(os.path.join(folder, "model.safetensors"), "wb") as f:
                f.write(struct.pack("<Q", len(text)) + text + bytes(offset))
            result = run("describe", folder)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertEqual(sum(len(g["members"]) for g in json.loads(result.stdout)["groups"]),
                             48)
            self.assertEqual(result.stderr, "")
            plan = json.loads(run("read-plan", folder, "--tp", "2", "--rank", "0",
                                  "--format", "json").stdout)
            self.assertEqual(plan["files"], ["model.safetensors"])
            self.assertEqual(plan["totals"]["read_bytes"], 587008)


class Admission(unittest.TestCase):
    """`eredu check --residency ...` on reflection-llama-3.1-70b (docs/residency.md)."""

    def check(self, *args, exit_code=0):
        result = run("check", model("reflection-llama-3.1-70b"), *args)
        self.assertEqual(result.returncode, exit_code, result.stderr)
        self.assertEqual(result.stderr, "")
        return result.stdout

    def test_fully_resident_on_one_80gib_device_does_not_fit(self):
        table = self.check("--device-budget", "80GiB", exit_code=3)
        self.assertIn("\nresidency: fully_resident; device budget 80.00 GiB, host budget unbounded, "
                      "prefetch depth 1, host lookahead 0\n", table)
        self.assertRegex(table, r"\n +0 +262\.83 GiB +7\.83 GiB +80 +80 +262\.83 GiB +0 B +0 B +no\n")
        self.assertTrue(table.endswith(
            "\ndoes not fit: 1 of 1 ranks\n"
            "  rank 0: planned 282215219200 bytes for the Device tier exceed its 85899345920-byte budget "
            "(262.83 GiB > 80.00 GiB)\n"), table)
        checked = json.loads(self.check("--device-budget", "80GiB", "--format", "json", exit_code=3))
        self.assertFalse(checked["fits"])
        rank = checked["ranks"][0]
        self.assertEqual((rank["local_bytes"], rank["static_bytes"], rank["device_bytes"], rank["fits"]),
                         (282215219200, 8405811200, 282215219200, False))
        self.assertEqual(rank["error"], {
            "code": "EREDU_E_BUDGET_EXCEEDED", "status": 305,
            "message": "planned 282215219200 bytes for the Device tier exceed its 85899345920-byte budget"})

    def test_tp4_check_json_is_exact(self):
        text = self.check("--tp", "4", "--device-budget", "80GiB", "--format", "json")
        self.assertEqual(text, expected("reflection.tp4.check.json"))
        # 85899345920 bytes written plainly is the same budget.
        self.assertEqual(self.check("--tp", "4", "--device-budget", "85899345920", "--format", "json"), text)

    def test_tp4_table_fits(self):
        table = self.check("--tp", "4", "--device-budget", "80GiB")
        self.assertRegex(table, r"\n +0 +65\.71 GiB +1\.96 GiB +80 +80 +65\.71 GiB +0 B +0 B +yes\n")
        self.assertIn("\nfits: all 4 ranks; device peak 70557794304 bytes (65.71 GiB) of a 85899345920-byte "
                      "budget (80.00 GiB); host peak 0 bytes (0 B), unbounded\n", table)
        self.assertIn("\ncoverage: ok (723 tensors)\n", table)

    def test_dense_disk_stream_fits_one_80gib_device(self):
        checked = json.loads(self.check("--residency", "dense-disk-stream", "--device-budget", "80GiB",
                                        "--format", "json"))
        self.assertEqual(checked["residency"], {"kind": "dense_disk_stream", "device_budget_bytes": 85899345920,
                                                "host_budget_bytes": 17179869184, "prefetch_depth": 2,
                                                "host_lookahead": 2})
        rank = checked["ranks"][0]
        self.assertEqual((rank["layer_units"], rank["device_window_units"], rank["device_bytes"],
                          rank["host_bytes"], rank["disk_bytes"], rank["fits"]),
                         (80, 2, 15251046400, 6845235200, 273809408000, True))
        table = self.check("--residency", "dense_disk_stream", "--device-budget", "80GiB")
        self.assertIn("\nfits: all 1 ranks; device peak 15251046400 bytes (14.20 GiB) of a 85899345920-byte "
                      "budget (80.00 GiB); host peak 6845235200 bytes (6.38 GiB) of a 17179869184-byte "
                      "budget (16.00 GiB)\n", table)
        # The default 4 GiB device budget is too small.
        table = self.check("--residency", "dense-disk-stream", exit_code=3)
        self.assertIn("rank 0: planned 15251046400 bytes for the Device tier exceed its 4294967296-byte budget",
                      table)

    def test_dense_direct_disk_to_device(self):
        checked = json.loads(self.check("--residency", "dense-disk-stream", "--device-budget", "16GB",
                                        "--host-budget", "0", "--format", "json"))
        self.assertEqual(checked["residency"], {"kind": "dense_disk_stream", "device_budget_bytes": 16000000000,
                                                "host_budget_bytes": 0, "prefetch_depth": 2,
                                                "host_lookahead": 0})
        self.assertEqual(checked["ranks"][0]["host_bytes"], 0)
        self.assertTrue(checked["fits"])

    def test_layerwise_host(self):
        checked = json.loads(self.check("--residency", "layerwise-host", "--format", "json"))
        self.assertEqual(checked["residency"], {"kind": "layerwise_host", "device_budget_bytes": None,
                                                "host_budget_bytes": None, "prefetch_depth": 1,
                                                "host_lookahead": 0})
        rank = checked["ranks"][0]
        self.assertEqual((rank["device_window_units"], rank["device_bytes"], rank["host_bytes"], rank["disk_bytes"]),
                         (1, 11828428800, 273809408000, 0))
        checked = json.loads(self.check("--residency", "layerwise-host", "--prefetch-depth", "100",
                                        "--host-budget", "255GiB", "--format", "json", exit_code=3))
        rank = checked["ranks"][0]
        self.assertEqual((rank["device_window_units"], rank["device_bytes"]), (100, 282215219200))
        self.assertEqual(rank["error"]["message"],
                         "planned 273809408000 bytes for the Host tier exceed its 273804165120-byte budget")
        self.check("--residency", "layerwise-host", "--host-budget", "256GiB", "--device-budget", "11828428800")
        self.check("--residency", "layerwise-host", "--device-budget", "11828428799", exit_code=3)

    def test_bad_residency_flags(self):
        for args, code, status, message in (
                (["--residency", "dense-disk-stream", "--host-budget", "0", "--host-lookahead", "2"],
                 "EREDU_E_HOST_DISABLED_CONTROLS", 402,
                 "dense disk streaming with a zero host budget requires zero host lookahead and queue capacity"),
                (["--residency", "dense-disk-stream", "--host-budget", "0", "--queue-capacity", "1"],
                 "EREDU_E_HOST_DISABLED_CONTROLS", 402, None),
                (["--residency", "dense-disk-stream", "--host-lookahead", "0"], "EREDU_E_ZERO_HOST_LOOKAHEAD", 400,
                 "dense disk streaming host lookahead must be nonzero when the host budget is enabled"),
                (["--residency", "dense-disk-stream", "--queue-capacity", "0"], "EREDU_E_ZERO_QUEUE_CAPACITY", 401,
                 "dense disk streaming background queue capacity must be nonzero when host caching is enabled"),
                (["--residency", "layerwise-host", "--prefetch-depth", "0"], "EREDU_E_ZERO_PREFETCH_DEPTH", 307,
                 "offload prefetch depth must be nonzero"),
                (["--residency", "resident"], "EREDU_E_INVALID_ARGUMENT", 2,
                 '--residency "resident" is not a residency; use fully-resident, layerwise-host or '
                 'dense-disk-stream'),
                (["--host-budget", "1GiB"], "EREDU_E_INVALID_ARGUMENT", 2,
                 "--host-budget applies to --residency layerwise-host or dense-disk-stream only"),
                (["--residency", "dense-disk-stream", "--prefetch-depth", "2"], "EREDU_E_INVALID_ARGUMENT", 2,
                 "--prefetch-depth applies to --residency layerwise-host only"),
                (["--residency", "layerwise-host", "--host-lookahead", "2"], "EREDU_E_INVALID_ARGUMENT", 2,
                 "--host-lookahead applies to --residency dense-disk-stream only"),
                (["--residency", "layerwise-host", "--queue-capacity", "2"], "EREDU_E_INVALID_ARGUMENT", 2,
                 "--queue-capacity applies to --residency dense-disk-stream only"),
                (["--device-budget", "1.5GiB"], "EREDU_E_INVALID_ARGUMENT", 2, None),
                (["--device-budget", "80 GiB"], "EREDU_E_INVALID_ARGUMENT", 2, None),
                (["--device-budget", "GiB"], "EREDU_E_INVALID_ARGUMENT", 2, None),
                (["--device-budget", "80gib"], "EREDU_E_INVALID_ARGUMENT", 2, None),
                (["--device-budget", "16777216TiB"], "EREDU_E_INVALID_ARGUMENT", 2,
                 '--device-budget "16777216TiB" is more than 18446744073709551615 bytes'),
                (["--prefetch-depth", "-1"], "EREDU_E_INVALID_ARGUMENT", 2, None)):
            with self.subTest(args=args):
                # Flags are judged before the model folder is read.
                result = run("check", "/nonexistent/model", *args, "--format", "json")
                Failures.assert_error(self, result, 2, code, status, json_output=True)
                if message is not None:
                    self.assertEqual(json.loads(result.stdout)["error"]["message"], message)

    def test_size_units(self):
        for size, budget in (("1KB", 1000), ("1KiB", 1024), ("3MB", 3000000), ("3MiB", 3145728),
                             ("2GB", 2000000000), ("2TB", 2000000000000), ("1TiB", 1099511627776),
                             ("16777215TiB", 18446742974197923840)):
            with self.subTest(size=size):
                result = run("check", model("qwen3-1.7b"), "--residency", "layerwise-host", "--device-budget", size,
                             "--format", "json")
                self.assertIn(result.returncode, (0, 3), result.stderr)
                self.assertEqual(json.loads(result.stdout)["residency"]["device_budget_bytes"], budget)


class Residency(unittest.TestCase):
    """`eredu residency --policy FILE|-` (docs/residency.md)."""

    def residency(self, policy, exit_code=0):
        result = run("residency", "--policy", "-", stdin=json.dumps(policy))
        self.assertEqual(result.returncode, exit_code, result.stderr)
        return result

    def test_fully_resident(self):
        result = self.residency({"schema": "eredu.residency.v1", "kind": "fully_resident"})
        self.assertEqual(result.stdout,
                         "execution residency: fully_resident\n"
                         "offload config: device budget unbounded, host budget unbounded, prefetch depth 1, "
                         "eviction least_recently_used\n"
                         "device depth: K of K layer units (every unit stays on the device)\n"
                         "max cached shards: 4\n"
                         "memory sampling: backend off, process off\n"
                         "parameter banks: with layer\n"
                         "preparation residency: fully_resident\n")

    def test_layerwise_host(self):
        result = self.residency({"schema": "eredu.residency.v1", "kind": "layerwise_host", "prefetch_depth": 3,
                                 "host_budget_bytes": 17179869184, "eviction_policy": "least_frequently_used",
                                 "max_cached_shards": 8, "sample_process_memory": True})
        self.assertEqual(result.stdout,
                         "execution residency: layerwise_host\n"
                         "offload config: device budget unbounded, host budget 17179869184 bytes (16.00 GiB), "
                         "prefetch depth 3, eviction least_frequently_used\n"
                         "device depth: 3 layer units whatever K (the prefetch depth)\n"
                         "max cached shards: 8\n"
                         "memory sampling: backend off, process on\n"
                         "parameter banks: with layer\n"
                         "preparation residency: layerwise_host\n")

    def test_dense_disk_stream_from_a_file(self):
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump({"schema": "eredu.residency.v1", "kind": "dense_disk_stream", "host_lookahead": 3}, f)
        try:
            result = run("residency", "--policy", f.name)
        finally:
            os.unlink(f.name)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout,
                         "execution residency: dense_disk_stream\n"
                         "offload config: device budget 4294967296 bytes (4.00 GiB), host budget 17179869184 bytes "
                         "(16.00 GiB), prefetch depth 3, eviction least_recently_used\n"
                         "device depth: min(K, 2) of K layer units (the dense transfer window)\n"
                         "dense stream: host lookahead 3, background queue capacity 2\n"
                         "max cached shards: 4\n"
                         "memory sampling: backend off, process off\n"
                         "parameter banks: with layer\n"
                         "preparation residency: dense_disk_stream\n")

    def test_parameter_bank_cache(self):
        result = self.residency({"schema": "eredu.residency.v1", "kind": "dense_disk_stream", "host_budget_bytes": 0,
                                 "parameter_bank_cache": {"device_budget_bytes": 1073741824,
                                                          "compact_bank_scratch_bytes": 268435456,
                                                          "prefill_compact_bank_target_bytes": 67108864}})
        self.assertIn("\ndense stream: host lookahead 0, background queue capacity 0\n", result.stdout)
        self.assertIn("\nparameter banks: independent cache; offload config: device budget 1073741824 bytes "
                      "(1.00 GiB), host budget unbounded, prefetch depth 1, eviction least_recently_used; "
                      "compact bank scratch 268435456 bytes (256.00 MiB); prefill target 67108864 bytes "
                      "(64.00 MiB)\n", result.stdout)
        self.assertTrue(result.stdout.endswith("\npreparation residency: addressable_parameter_banks\n"))

    def test_errors(self):
        for policy, code, message in (
                ({"kind": "fully_resident"}, "EREDU_E_PARSE",
                 "/schema: required string field is missing or not a string"),
                ({"schema": "eredu.residency.v9", "kind": "fully_resident"}, "EREDU_E_UNSUPPORTED_VERSION", None),
                ({"schema": "eredu.residency.v1", "kind": "fully_resident", "prefetch_dept": 1}, "EREDU_E_PARSE",
                 "/prefetch_dept: unknown field"),
                ({"schema": "eredu.residency.v1", "kind": "fully_resident", "host_budget_bytes": 1}, "EREDU_E_PARSE",
                 "/host_budget_bytes: not allowed for a fully_resident policy"),
                ({"schema": "eredu.residency.v1", "kind": "layerwise_host", "prefetch_depth": 0},
                 "EREDU_E_ZERO_PREFETCH_DEPTH", "offload prefetch depth must be nonzero"),
                ({"schema": "eredu.residency.v1", "kind": "dense_disk_stream", "host_budget_bytes": 0,
                  "background_queue_capacity": 1}, "EREDU_E_HOST_DISABLED_CONTROLS", None),
                ({"schema": "eredu.residency.v1", "kind": "fully_resident",
                  "parameter_bank_cache": {"compact_bank_scratch_bytes": 1, "prefill_compact_bank_target_bytes": 2}},
                 "EREDU_E_PARAMETER_BANK_PREFILL_TARGET_EXCEEDS_SCRATCH",
                 "parameter-bank prefill target 2 exceeds scratch limit 1")):
            with self.subTest(policy=policy):
                result = self.residency(policy, exit_code=2)
                self.assertEqual(result.stdout, "")
                self.assertRegex(result.stderr, r"^error\[" + code + r"\]: .+\n$")
                if message is not None:
                    self.assertEqual(result.stderr, f"error[{code}]: {message}\n")
        duplicate = run("residency", "--policy", "-",
                        stdin='{"schema": "eredu.residency.v1", "kind": "fully_resident", "kind": "layerwise_host"}')
        self.assertEqual(duplicate.returncode, 2)
        self.assertEqual(duplicate.stderr, 'error[EREDU_E_PARSE]: invalid JSON: repeated key "kind"\n')
        invalid = subprocess.run([EREDU, "residency", "--policy", "-"], capture_output=True, check=False,
                                 input=b'{"schema": "eredu.residency.v1", "kind": "\xff"}')
        self.assertEqual(invalid.returncode, 2)
        self.assertEqual(invalid.stderr,
                         b"error[EREDU_E_PARSE]: invalid JSON: line 1, column 43: byte 0xFF is not UTF-8\n")
        missing = run("residency", "--policy", "/nonexistent/policy.json")
        self.assertEqual(missing.returncode, 1)
        self.assertRegex(missing.stderr, r"^error\[EREDU_E_IO\]: cannot read \"/nonexistent/policy.json\": ")
        self.assertEqual(run("residency").returncode, 2)


    def test_inputs_are_bounded(self):
        # A device that never ends is cut off at the documented 256 MiB, from
        # a path and from standard input.
        limit = ": it holds more than 268435456 bytes, the most eredu reads there\n"
        device = run("residency", "--policy", "/dev/zero")
        self.assertEqual(device.returncode, 2)
        self.assertEqual(device.stderr,
                         'error[EREDU_E_INVALID_ARGUMENT]: cannot read "/dev/zero"' + limit)
        with open("/dev/zero", "rb") as zeros:
            piped = subprocess.run([EREDU, "residency", "--policy", "-"], stdin=zeros,
                                   capture_output=True, text=True, check=False)
        self.assertEqual(piped.returncode, 2)
        self.assertEqual(piped.stderr,
                         "error[EREDU_E_INVALID_ARGUMENT]: cannot read standard input" + limit)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
