#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

# Fails when a C or C++ source is not formatted as .clang-format says. One
# clang-format run over every file: its diagnostics name each file and line.
set -euo pipefail
cd "$1"
find include src capi tests bench examples fuzz -type f \
  \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.hpp' \) -print0 |
  sort -z | xargs -0 clang-format --dry-run -Werror
