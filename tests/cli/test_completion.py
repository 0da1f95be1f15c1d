#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Runs the bash completion of `eredu` (src/cli/completion/eredu.bash) the
way bash does, without an interactive shell: it sets COMP_WORDS and
COMP_CWORD, calls the function `complete -p eredu` names and reads
COMPREPLY. Usage: test_completion.py PATH_TO_EREDU PATH_TO_COMPLETION."""

import os
import subprocess
import sys
import tempfile
import unittest

import cli_help

EREDU = sys.argv[1]
SCRIPT = sys.argv[2]

HARNESS = r"""
source "$1" || exit 1
shift
function=$(complete -p eredu) || exit 1
function=${function#complete -F }
function=${function% eredu}
COMP_WORDS=("$@")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_LINE="$*"
COMP_POINT=${#COMP_LINE}
COMPREPLY=()
"$function" eredu "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
printf '%s\n' "${COMPREPLY[@]}"
"""


def complete(*words):
    """The completions of the command line `words`, the last one being the
    word under the cursor, sorted."""
    result = subprocess.run(["bash", "--norc", "--noprofile", "-c", HARNESS, "harness", SCRIPT, *words],
                            capture_output=True, text=True, check=False)
    if result.returncode != 0 or result.stderr:
        raise AssertionError(f"completion of {words} failed: {result.stderr}")
    return sorted(line for line in result.stdout.splitlines() if line)


class Completion(unittest.TestCase):
    def test_registers_a_function_for_eredu(self):
        result = subprocess.run(["bash", "--norc", "-c", 'source "$1" && complete -p eredu', "x", SCRIPT],
                                capture_output=True, text=True, check=True)
        self.assertEqual(result.stdout, "complete -F _eredu eredu\n")

    def test_pl_completes_to_plan(self):
        self.assertEqual(complete("eredu", "pl"), ["plan"])

    def test_r_completes_to_the_commands_starting_with_r(self):
        self.assertEqual(complete("eredu", "r"), ["read-plan", "residency"])

    def test_every_command_of_help(self):
        self.assertEqual(complete("eredu", ""), sorted(cli_help.commands(EREDU)))

    def test_flags_before_a_command(self):
        self.assertEqual(complete("eredu", "--"), sorted(cli_help.global_flags(EREDU)))

    def test_every_flag_of_each_command_help(self):
        for command in cli_help.commands(EREDU):
            with self.subTest(command=command):
                self.assertEqual(complete("eredu", command, "--"), sorted(cli_help.flags(EREDU, command)))

    def test_flag_prefix(self):
        self.assertEqual(complete("eredu", "check", "--host-"), ["--host-budget", "--host-lookahead"])

    def test_flags_after_other_flags_and_values(self):
        self.assertEqual(complete("eredu", "plan", "--tp", "8", "--all-ranks", "--f"), ["--format"])

    def test_format_values(self):
        self.assertEqual(complete("eredu", "plan", "--format", ""), ["json", "table"])
        self.assertEqual(complete("eredu", "read-plan", "--format", "t"), ["table"])
        self.assertEqual(complete("eredu", "describe", "--format", ""), ["json"])

    def test_format_value_after_equals(self):
        self.assertEqual(complete("eredu", "fit", "--format", "=", "j"), ["json"])
        self.assertEqual(complete("eredu", "fit", "--format", "="), ["json", "table"])

    def test_policy_values(self):
        self.assertEqual(complete("eredu", "plan", "--policy", ""),
                         ["replicate-unsupported", "require", "require-even"])
        self.assertEqual(complete("eredu", "check", "--policy", "require-"), ["require-even"])

    def test_residency_values(self):
        self.assertEqual(complete("eredu", "fit", "--residency", ""),
                         ["dense-disk-stream", "fully-resident", "layerwise-host"])

    def test_numbers_are_not_completed(self):
        self.assertEqual(complete("eredu", "plan", "--tp", ""), [])
        self.assertEqual(complete("eredu", "check", "--device-budget", ""), [])

    def test_paths(self):
        with tempfile.TemporaryDirectory() as folder:
            for name in ("model.groups.json", "model.gguf", "policy.json", "other model.gguf"):
                open(os.path.join(folder, name), "w", encoding="utf-8").close()
            prefix = os.path.join(folder, "model")
            expected = [prefix + ".gguf", prefix + ".groups.json"]
            self.assertEqual(complete("eredu", "plan", "--groups", prefix), expected)
            self.assertEqual(complete("eredu", "describe", prefix), expected)
            self.assertEqual(complete("eredu", "read-plan", "--tp", "2", prefix), expected)
            self.assertEqual(complete("eredu", "residency", "--policy", os.path.join(folder, "p")),
                             [os.path.join(folder, "policy.json")])
            self.assertEqual(complete("eredu", "check", os.path.join(folder, "o")),
                             [os.path.join(folder, "other model.gguf")])

    def test_plan_takes_no_positional(self):
        self.assertEqual(complete("eredu", "plan", ""), [])


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
