#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Checks the manual page docs/man/eredu.1 against the command: a section
for every command and an entry for every flag `eredu --help` lists, and,
when groff is installed, that it renders without a warning.
Usage: test_man_page.py PATH_TO_EREDU PATH_TO_MAN_PAGE."""

import re
import shutil
import subprocess
import sys
import unittest

import cli_help

EREDU = sys.argv[1]
PAGE = sys.argv[2]


def page_lines():
    with open(PAGE, encoding="utf-8") as f:
        return [line.replace("\\-", "-") for line in f.read().splitlines()]


def sections():
    """The .SS titles."""
    return [m.group(1) for m in (re.match(r'^\.SS "?([^"]*)"?$', line) for line in page_lines()) if m]


def entries():
    """The flags named on the first line of each .TP entry."""
    lines = page_lines()
    named = set()
    for tag, line in zip(lines, lines[1:]):
        if tag == ".TP":
            named.update(re.findall(r"--[a-z][a-z-]*", line))
    return named


class ManPage(unittest.TestCase):
    def test_title_and_version(self):
        version = subprocess.run([EREDU, "--version"], capture_output=True, text=True, check=True)
        title = [line for line in page_lines() if line.startswith(".TH ")]
        self.assertEqual(len(title), 1)
        self.assertIn(f'"eredu {version.stdout.split()[1]}"', title[0])

    def test_a_section_for_every_command(self):
        for command in cli_help.commands(EREDU):
            with self.subTest(command=command):
                self.assertIn(command, sections())

    def test_an_entry_for_every_flag(self):
        named = entries()
        for command in [None, *cli_help.commands(EREDU)]:
            listed = cli_help.global_flags(EREDU) if command is None else cli_help.flags(EREDU, command)
            for flag in listed:
                with self.subTest(command=command, flag=flag):
                    self.assertIn(flag, named)

    def test_every_exit_status(self):
        lines = page_lines()
        start = lines.index(".SH EXIT STATUS")
        end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith(".SH "))
        codes = [lines[i + 1] for i in range(start, end) if lines[i] == ".TP"]
        self.assertEqual(codes, [".B 0", ".B 1", ".B 2", ".B 3", ".B 4"])

    @unittest.skipIf(shutil.which("groff") is None, "groff is not installed")
    def test_renders_without_warnings(self):
        result = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", PAGE], capture_output=True,
                                text=True, check=False)
        self.assertEqual((result.returncode, result.stderr), (0, ""))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
