#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

# Writes the ABI of a built liberedu.so as abidw XML, restricted to the
# interfaces it exports and the types of the public headers (docs/abi.md).
# usage: abi_dump.sh LIBRARY HEADER_DIR OUT_FILE
set -euo pipefail
abidw --headers-dir "$2" --drop-private-types --exported-interfaces-only --no-show-locs \
  --no-corpus-path --no-comp-dir-path --no-elf-needed --type-id-style hash \
  --out-file "$3" "$1"
