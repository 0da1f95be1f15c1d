# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""The commands and flags the `eredu` command itself lists in its --help
output: the reference the man page and the bash completion are checked
against."""

import re
import subprocess

_OPTION = re.compile(r"^  (?:-[a-z],)?(--[a-z][a-z-]*)")
_COMMAND = re.compile(r"^  ([a-z][a-z-]*)\s")


def _help(eredu, *command):
    result = subprocess.run([eredu, *command, "--help"], capture_output=True, text=True, check=True)
    return result.stdout.splitlines()


def _section(lines, title):
    """The lines of the section that starts with the line `title`."""
    inside = False
    for line in lines:
        if line == title:
            inside = True
        elif inside and line and not line.startswith(" "):
            return
        elif inside:
            yield line


def commands(eredu):
    """The commands of `eredu --help`, in its order."""
    return [m.group(1) for m in map(_COMMAND.match, _section(_help(eredu), "Subcommands:")) if m]


def global_flags(eredu):
    """The long flags of `eredu --help`."""
    return _flags(_help(eredu))


def flags(eredu, command):
    """The long flags of `eredu COMMAND --help`, in its order."""
    return _flags(_help(eredu, command))


def _flags(lines):
    return [m.group(1) for m in map(_OPTION.match, _section(lines, "Options:")) if m]
