#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

# The ABI gate (docs/abi.md): the built library against the committed
# baseline abi/liberedu.abi. Added functions and fields appended to a sized
# struct (abi/appended_fields.abignore) pass; a removed or changed function,
# type or struct layout fails. Accept an intended change with
# scripts/update-abi-baseline.
# usage: check_abi.sh LIBRARY HEADER_DIR BASELINE
set -euo pipefail
here=$(dirname "$0")
current=$(mktemp)
trap 'rm -f "$current"' EXIT
"$here/abi_dump.sh" "$1" "$2" "$current"
status=0
# The dumps are already restricted to the public headers.
abidiff --no-added-syms --suppressions "$(dirname "$3")/appended_fields.abignore" "$3" \
  "$current" || status=$?
# abidiff's exit status is a bit field: 1 error, 2 usage error, 4 an ABI
# change, 8 an incompatible ABI change.
if (( status & 3 )); then
  echo "check_abi: abidiff failed (status $status)" >&2
  exit 1
fi
if (( status & 12 )); then
  echo "check_abi: ABI change against $3 (above)." >&2
  echo "If it is intended, run scripts/update-abi-baseline and commit the new baseline." >&2
  exit 1
fi
echo "check_abi: compatible with $3"
