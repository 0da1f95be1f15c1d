#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Fails when a status code of include/eredu/status.h is asserted by no test.

A check-list guard: a code counts once some test source compares a result
with it (`== EREDU_E_X` or `== Status::X` in the C and C++ suites, an
assert* call naming "EREDU_E_X" in the Python ones). It checks that the
assertion exists, not that the call before it really produces the code: the
proof is the test it points to (tests/capi/test_status_codes.cpp holds those
no other suite provokes). UNREACHABLE lists the codes no test can produce,
with the reason; each must still be defined by the header.

usage: status_coverage.py SOURCE_ROOT [--list]   (--list: where each is asserted)
"""
import pathlib
import re
import sys

# Codes the library defines but no call can return: documented in
# docs/status.md, kept because the numbers mirror the reference runtime's
# error enums.
UNREACHABLE = {
    "EREDU_E_INTERNAL": "a bug: an exception or a failed invariant at the C boundary",
    "EREDU_E_SUBGROUP_IDENTITY": "subgroup members are built from the rank's own coordinates",
    "EREDU_E_PARTITION_OVERFLOW": "a balanced range never ends past its 64-bit total",
    "EREDU_E_COMPLETION": "the default completion policy (30000 ms) is valid; only its "
                          "error's constructor is tested",
}

DEFINE = re.compile(r"^#define (EREDU_E_[A-Z0-9_]+) \d+$", re.M)
SUFFIXES = {".c", ".cpp", ".hpp", ".py"}


def enumerator(name):
    """EREDU_E_NULL_ARGUMENT -> NullArgument (src/core/status_codes.py)."""
    return "".join(word[0] + word[1:].lower() for word in name.removeprefix("EREDU_E_").split("_"))


def asserted(name, text, python):
    if python:
        return re.search(rf'assert\w*\([^\n]*"{name}"', text) is not None
    spelled = rf"(?:{name}|Status::{enumerator(name)})\b"
    return re.search(rf"==\s*{spelled}|\b{spelled}\s*==", text) is not None


def main():
    root = pathlib.Path(sys.argv[1])
    codes = DEFINE.findall((root / "include" / "eredu" / "status.h").read_text(encoding="utf-8"))
    sources = {path: path.read_text(encoding="utf-8")
               for path in sorted((root / "tests").rglob("*")) if path.suffix in SUFFIXES}
    failed = False
    for name in UNREACHABLE:
        if name not in codes:
            print(f"status_coverage: {name} is listed as unreachable but not defined")
            failed = True
    for name in codes:
        where = [str(path.relative_to(root)) for path, text in sources.items()
                 if asserted(name, text, path.suffix == ".py")]
        if "--list" in sys.argv[2:]:
            print(f"{name}: {', '.join(where) or 'unreachable: ' + UNREACHABLE.get(name, '-')}")
        if not where and name not in UNREACHABLE:
            print(f"status_coverage: no test asserts {name}")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
