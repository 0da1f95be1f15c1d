#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""The ABI baseline covers every exported function (docs/abi.md): each
eredu_* function liberedu exports, and each name capi/eredu.map lists, is in
abi/liberedu.abi both as an ELF function symbol under the same version node
and as a function declaration with its types. abi_compatible cannot see a
function missing from the baseline (abidiff passes added functions), so
without this test a function added without regenerating the baseline would
never be checked for later changes.

usage: baseline_covers_exports.py NM LIBRARY MAP BASELINE
"""
import pathlib
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

MAP_NODE = re.compile(r"(EREDU_\d+\.\d+)\s*\{(.*?)\}", re.S)


def exported(nm: str, library: str) -> dict[str, str]:
    """The defined eredu_* functions of the library's dynamic symbol table:
    {name: version node}."""
    output = subprocess.run(
        [nm, "-D", "--defined-only", "--with-symbol-versions", library],
        check=True, capture_output=True, text=True
    ).stdout
    functions = {}
    for line in output.splitlines():
        fields = line.split()
        if len(fields) < 2 or fields[-2] not in ("T", "t", "W", "i"):
            continue
        name, _, version = fields[-1].partition("@")
        if name.startswith("eredu_"):
            functions[name] = version.lstrip("@")
    return functions


def mapped(map_path: str) -> dict[str, str]:
    """The names the version nodes of the map export: {name: version node}."""
    text = re.sub(r"/\*.*?\*/", "", pathlib.Path(map_path).read_text(), flags=re.S)
    names = {}
    for node, body in MAP_NODE.findall(text):
        global_part = body.split("local:")[0].replace("global:", "")
        for name in re.findall(r"\beredu_\w+", global_part):
            names[name] = node
    return names


def baseline(path: str) -> tuple[dict[str, str], set[str]]:
    """The baseline's ELF function symbols ({name: version node}) and the
    symbols its function declarations describe ({"name@@node", ...})."""
    root = ElementTree.parse(path).getroot()
    symbols = {
        symbol.get("name"): symbol.get("version", "")
        for table in root.iter("elf-function-symbols")
        for symbol in table.iter("elf-symbol")
    }
    declared = {decl.get("elf-symbol-id") for decl in root.iter("function-decl")
                if decl.get("elf-symbol-id")}
    return symbols, declared


def main() -> int:
    nm, library, map_path, baseline_path = sys.argv[1:5]
    library_functions = exported(nm, library)
    map_functions = mapped(map_path)
    if not library_functions:
        print(f"no eredu_* function found in {library}", file=sys.stderr)
        return 1
    symbols, declared = baseline(baseline_path)

    problems = []
    # The library's version node first; the map's for a name it does not
    # export (capi_symbols fails on that disagreement too).
    expected = {**map_functions, **library_functions}
    for name, node in sorted(expected.items()):
        if name not in symbols:
            problems.append(f"{name}@{node}: no ELF symbol")
        elif symbols[name] != node:
            problems.append(f"{name}@{node}: ELF symbol under {symbols[name] or 'no version'}")
        elif f"{name}@@{node}" not in declared and f"{name}@{node}" not in declared:
            problems.append(f"{name}@{node}: no function declaration")
    if problems:
        print(f"{len(problems)} of {len(expected)} exported functions are missing from "
              f"{baseline_path}:", file=sys.stderr)
        for problem in problems:
            print(f"  {problem}", file=sys.stderr)
        print("Regenerate it with scripts/update-abi-baseline and commit it with the "
              "change that added them (docs/abi.md).", file=sys.stderr)
        return 1
    print(f"all {len(expected)} exported functions are in {baseline_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
