#!/usr/bin/env python3
"""The ABI symbol gate: liberedu exports eredu_* only, exactly the functions
the public headers declare with EREDU_API.

usage: check_symbols.py NM LIBRARY HEADER_DIR
"""
import pathlib
import re
import subprocess
import sys

REQUIRED = {"eredu_group_new", "eredu_plan_rank"}
VERSION_NODE = re.compile(r"EREDU_\d+")


def exported(nm: str, library: str) -> tuple[set[str], list[str]]:
    """Defined dynamic symbols: (eredu_* names, offending others)."""
    output = subprocess.run(
        [nm, "-D", "--defined-only", library], check=True, capture_output=True, text=True
    ).stdout
    names, others = set(), []
    for line in output.splitlines():
        fields = line.split()
        if len(fields) < 2:
            continue
        kind, name = fields[-2], fields[-1].split("@")[0]
        if kind == "A" and VERSION_NODE.fullmatch(name):
            continue
        if name.startswith("eredu_"):
            names.add(name)
        else:
            others.append(line)
    return names, others


def declared(header_dir: str) -> set[str]:
    """Names of the functions declared with EREDU_API in the headers."""
    names = set()
    for header in sorted(pathlib.Path(header_dir).glob("*.h")):
        text = header.read_text()
        for declaration in re.findall(r"EREDU_API\b[^;]*;", text):
            match = re.search(r"\b(eredu_\w+)\s*\(", declaration)
            if match:
                names.add(match.group(1))
    return names


def main() -> int:
    nm, library, header_dir = sys.argv[1:4]
    names, others = exported(nm, library)
    expected = declared(header_dir)
    problems = []
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
