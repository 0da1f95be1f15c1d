#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""The ABI symbol gate: liberedu exports eredu_* only, exactly the functions
the public headers declare with EREDU_API, each under the version node of
capi/eredu.map that lists it (docs/abi.md: one node per release, each name in
exactly one node).

usage: check_symbols.py NM LIBRARY HEADER_DIR MAP
"""
import pathlib
import re
import subprocess
import sys

REQUIRED = {"eredu_group_new", "eredu_plan_rank"}
VERSION_NODE = re.compile(r"EREDU_\d+\.\d+")
MAP_NODE = re.compile(r"(EREDU_\d+\.\d+)\s*\{(.*?)\}", re.S)


def exported(nm: str, library: str) -> tuple[dict[str, str], list[str]]:
    """Defined dynamic symbols: ({eredu_* name: version node}, offending others)."""
    output = subprocess.run(
        [nm, "-D", "--defined-only", "--with-symbol-versions", library],
        check=True, capture_output=True, text=True
    ).stdout
    names, others = {}, []
    for line in output.splitlines():
        fields = line.split()
        if len(fields) < 2:
            continue
        kind, symbol = fields[-2], fields[-1]
        name, _, version = symbol.partition("@")
        version = version.lstrip("@")
        if kind == "A" and VERSION_NODE.fullmatch(name):
            continue
        if name.startswith("eredu_"):
            names[name] = version
        else:
            others.append(line)
    return names, others


def mapped(map_path: str) -> tuple[dict[str, str], list[str]]:
    """The names each version node of the map lists: ({name: node}, problems)."""
    text = re.sub(r"/\*.*?\*/", "", pathlib.Path(map_path).read_text(), flags=re.S)
    nodes, problems = {}, []
    for node, body in MAP_NODE.findall(text):
        global_part = body.split("local:")[0].replace("global:", "")
        for name in re.findall(r"[A-Za-z_][A-Za-z0-9_*]*", global_part):
            if "*" in name:
                problems.append(f"{node} lists a wildcard {name}: every name is listed")
            elif name in nodes:
                problems.append(f"{name} is in {nodes[name]} and in {node}")
            else:
                nodes[name] = node
    return nodes, problems


def declared(header_dir: str) -> set[str]:
    """Names of the functions declared with EREDU_API in the headers."""
    names = set()
    for header in sorted(pathlib.Path(header_dir).rglob("*.h")):
        text = header.read_text()
        for declaration in re.findall(r"EREDU_API\b[^;]*;", text):
            match = re.search(r"\b(eredu_\w+)\s*\(", declaration)
            if match:
                names.add(match.group(1))
    return names


def main() -> int:
    nm, library, header_dir, map_path = sys.argv[1:5]
    versions, others = exported(nm, library)
    names = set(versions)
    expected = declared(header_dir)
    nodes, problems = mapped(map_path)
    if set(nodes) != expected:
        if expected - set(nodes):
            problems.append(f"declared but in no version node: {sorted(expected - set(nodes))}")
        if set(nodes) - expected:
            problems.append(f"in a version node but not declared: {sorted(set(nodes) - expected)}")
    wrong = sorted(f"{name}@{versions[name]} (map: {nodes[name]})" for name in names
                   if name in nodes and versions[name] != nodes[name])
    if wrong:
        problems.append("exported under another version node: " + ", ".join(wrong))
    if others:
        problems.append("exported symbols without the eredu_ prefix:\n  " + "\n  ".join(others))
    if not REQUIRED <= names:
        problems.append(f"missing required symbols: {sorted(REQUIRED - names)}")
    if names - expected:
        problems.append(f"exported but not declared in a header: {sorted(names - expected)}")
    if expected - names:
        problems.append(f"declared in a header but not exported: {sorted(expected - names)}")
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"{len(names)} eredu_* symbols exported, {len(expected)} declared")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
