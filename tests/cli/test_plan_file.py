#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Plan files through the `eredu` command (docs/plan-files.md): the exact
layout text of every rank, and the exact error of every cut or changed byte.
Usage: test_plan_file.py PATH_TO_EREDU (EREDU_SOURCE_ROOT set)."""

import json
import os
import struct
import subprocess
import sys
import tempfile
import unittest

EREDU = sys.argv[1] if len(sys.argv) > 1 else "eredu"
ROOT = os.environ.get("EREDU_SOURCE_ROOT", os.path.join(os.path.dirname(__file__), "..", ".."))
ATTENTION = os.path.join(ROOT, "tests", "data", "attention.groups.json")
MODELS = os.path.join(ROOT, "examples", "models")
FIXED_BYTES = 88
ENTRY_BYTES = 32


def run(*args):
    return subprocess.run([EREDU, *args], capture_output=True, text=True, check=False)


def index_end(data):
    """Where the header checksum starts, from the fixed header's counts."""
    world, = struct.unpack_from("<Q", data, 48)
    stages, version = struct.unpack_from("<II", data, 60)
    return FIXED_BYTES + 8 * stages + version + ENTRY_BYTES * world


def frames(data):
    """(offset, compressed, uncompressed) of every rank's frame."""
    world, = struct.unpack_from("<Q", data, 48)
    first = index_end(data) - ENTRY_BYTES * world
    return [struct.unpack_from("<QQQ", data, first + ENTRY_BYTES * rank) for rank in range(world)]


class PlanFiles(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory()
        cls.llama = os.path.join(cls.folder.name, "llama.groups.json")
        described = run("describe", os.path.join(MODELS, "reflection-llama-3.1-70b"))
        assert described.returncode == 0, described.stderr
        with open(cls.llama, "w", encoding="utf-8") as out:
            out.write(described.stdout)
        cls.small = os.path.join(cls.folder.name, "attention.eredu")
        written = run("plan", "--groups", ATTENTION, "--tp", "2", "--all-ranks", "--output",
                      cls.small)
        assert written.returncode == 0, written.stderr
        with open(cls.small, "rb") as f:
            cls.small_bytes = f.read()

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    def path(self, name):
        return os.path.join(self.folder.name, name)

    def write(self, name, data):
        path = self.path(name)
        with open(path, "wb") as out:
            out.write(data)
        return path

    def assert_error(self, result, exit_code, code, json_output=False):
        self.assertEqual(result.returncode, exit_code, result.stderr)
        self.assertRegex(result.stderr, r"^error\[" + code + r"\]: .+\n$")
        if json_output:
            self.assertEqual(json.loads(result.stdout)["error"]["code"], code)
        else:
            self.assertEqual(result.stdout, "")

    def test_every_rank_is_the_plan_commands_text(self):
        path = self.path("llama.eredu")
        flags = ["--tp", "4", "--pp", "2", "--dp", "2"]
        written = run("plan", "--groups", self.llama, *flags, "--all-ranks", "--output", path)
        self.assertEqual(written.returncode, 0, written.stderr)
        self.assertRegex(written.stdout, r"^wrote " + path +
                         r": 16 ranks, \d+ bytes \(\d+ bytes of layouts, \d+\.\dx smaller\)\n$")
        for rank in (0, 5, 10, 15):
            planned = run("plan", "--groups", self.llama, *flags, "--rank", str(rank),
                          "--format", "json")
            inspected = run("inspect", path, "--rank", str(rank), "--format", "json")
            self.assertEqual(inspected.returncode, 0, inspected.stderr)
            self.assertEqual(inspected.stdout, planned.stdout)
        verified = run("inspect", path, "--groups", self.llama, "--rank", "3", "--format", "json")
        self.assertEqual(verified.returncode, 0, verified.stderr)

    def test_pipeline_stages_and_policy_round_trip(self):
        path = self.path("stages.eredu")
        flags = ["--pp-layers", "50,30", "--policy", "require-even"]
        written = run("plan", "--groups", self.llama, *flags, "--all-ranks", "--output", path)
        self.assertEqual(written.returncode, 0, written.stderr)
        planned = run("plan", "--groups", self.llama, *flags, "--rank", "1", "--format", "json")
        inspected = run("inspect", path, "--rank", "1", "--format", "json")
        self.assertEqual(inspected.stdout, planned.stdout)
        header = run("inspect", path, "--format", "json")
        self.assertEqual(header.returncode, 0, header.stderr)
        self.assertIn('"topology":{"tensor":1,"pipeline":2,"expert":1,"data":1,'
                      '"pipeline_layers":[50,30]}', header.stdout)
        self.assertIn('"policy":"require_even"', header.stdout)

    def test_header_table(self):
        result = run("inspect", self.small)
        self.assertEqual(result.returncode, 0, result.stderr)
        lines = result.stdout.splitlines()
        self.assertEqual(lines[0], f"plan file {self.small}: format 1, written by eredu 0.1.0")
        self.assertRegex(lines[1], r"^fingerprint [0-9a-f]{32}$")
        self.assertEqual(lines[2], "topology tp 2 x pp 1 x ep 1 x dp 1, 2 ranks; policy require; "
                                   "coverage ok")
        for rank, (_, compressed, uncompressed) in enumerate(frames(self.small_bytes)):
            self.assertRegex(result.stdout, rf"\n +{rank} +{compressed} +{uncompressed}\n")

    def test_another_description_is_a_mismatch(self):
        result = run("inspect", self.small, "--groups", self.llama)
        self.assert_error(result, 2, "EREDU_E_PLAN_FILE_MISMATCH")
        self.assertIn("another description", result.stderr)

    def test_rank_out_of_range(self):
        self.assert_error(run("inspect", self.small, "--rank", "2"), 2, "EREDU_E_RANK_OUT_OF_RANGE")

    def test_output_needs_all_ranks(self):
        result = run("plan", "--groups", ATTENTION, "--rank", "0", "--output", self.path("x"))
        self.assert_error(result, 2, "EREDU_E_INVALID_ARGUMENT")

    def test_a_failed_write_leaves_the_old_file(self):
        path = self.write("kept.eredu", b"old")
        result = run("plan", "--groups", ATTENTION, "--tp", "0", "--all-ranks", "--output", path)
        self.assert_error(result, 2, "EREDU_E_ZERO_AXIS")
        with open(path, "rb") as f:
            self.assertEqual(f.read(), b"old")
        self.assertEqual([n for n in os.listdir(self.folder.name) if n.startswith("kept")],
                         ["kept.eredu"])
        missing = os.path.join(self.folder.name, "no-such-folder", "x.eredu")
        result = run("plan", "--groups", ATTENTION, "--all-ranks", "--output", missing)
        self.assert_error(result, 1, "EREDU_E_IO")

    def test_missing_file_is_io(self):
        self.assert_error(run("inspect", self.path("absent.eredu")), 1, "EREDU_E_IO")

    def test_every_cut_is_corrupt_data(self):
        data = self.small_bytes
        cuts = list(range(index_end(data) + 8))
        cuts += sorted({offset + size // 2 for offset, size, _ in frames(data)} | {len(data) - 1})
        for cut in cuts:
            with self.subTest(cut=cut):
                path = self.write("cut.eredu", data[:cut])
                self.assert_error(run("inspect", path), 2, "EREDU_E_CORRUPT_DATA")

    def test_every_changed_header_byte_is_caught(self):
        data = self.small_bytes
        for at in range(index_end(data) + 8):
            with self.subTest(at=at):
                changed = bytearray(data)
                changed[at] ^= 0xFF
                path = self.write("flipped.eredu", bytes(changed))
                # The format version's bytes make a larger version.
                code = "EREDU_E_UNSUPPORTED_VERSION" if 8 <= at < 12 else "EREDU_E_CORRUPT_DATA"
                self.assert_error(run("inspect", path), 2, code)

    def test_a_changed_frame_byte_fails_that_rank_only(self):
        data = self.small_bytes
        (first, first_size, _), (second, second_size, _) = frames(data)
        for at in (first, first + first_size // 2, first + first_size - 1):
            with self.subTest(at=at):
                changed = bytearray(data)
                changed[at] ^= 0x01
                path = self.write("frame.eredu", bytes(changed))
                result = run("inspect", path, "--rank", "0", "--format", "json")
                self.assert_error(result, 2, "EREDU_E_CORRUPT_DATA", json_output=True)
                self.assertIn(f"rank 0's frame at bytes [{first}, {first + first_size})",
                              result.stderr)
                other = run("inspect", path, "--rank", "1", "--format", "json")
                self.assertEqual(other.returncode, 0, other.stderr)
                self.assert_error(run("inspect", path), 2, "EREDU_E_CORRUPT_DATA")
        self.assertEqual(second, first + first_size)
        self.assertEqual(len(data), second + second_size)

    def test_a_newer_format_is_unsupported(self):
        changed = bytearray(self.small_bytes)
        changed[8:12] = struct.pack("<I", 2)
        result = run("inspect", self.write("v2.eredu", bytes(changed)))
        self.assert_error(result, 2, "EREDU_E_UNSUPPORTED_VERSION")
        self.assertIn("format version 2 at byte 8", result.stderr)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=1)
