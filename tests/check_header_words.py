#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Fails when an installed header names a source outside this repository.

Every header under include/eredu/ (the planner's and include/eredu/runtime/,
and version.h.in) states its rules in its own words, or cites this
repository's docs/*.md; none leans on the reference code the library was
ported from. The guard is a word list: a header that contains one of WORDS,
in any case, fails, and each occurrence is printed as path:line: text.

usage: check_header_words.py SOURCE_ROOT
"""
import pathlib
import re
import sys

# Words no installed header may contain (matched case-insensitively,
# anywhere in a word: "seeds" and "Seed" count too).
WORDS = ["seed"]


def main() -> int:
    root = pathlib.Path(sys.argv[1])
    include = root / "include" / "eredu"
    headers = sorted(path for path in include.rglob("*")
                     if path.is_file() and (path.suffix == ".h" or path.name.endswith(".h.in")))
    if not headers:
        print(f"check_header_words: no headers under {include}", file=sys.stderr)
        return 1
    pattern = re.compile("|".join(re.escape(word) for word in WORDS), re.IGNORECASE)
    found = 0
    for header in headers:
        for number, line in enumerate(header.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                found += 1
                print(f"{header.relative_to(root)}:{number}: {line.strip()}")
    if found:
        print(f"check_header_words: {found} line(s) of include/eredu name one of {WORDS}; "
              "state the rule itself or cite docs/*.md", file=sys.stderr)
        return 1
    print(f"check_header_words: {len(headers)} headers, none names one of {WORDS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
