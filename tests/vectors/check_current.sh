#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

# vectors_current: regenerates the vectors into a temporary folder and fails,
# listing the stale files, when the committed inputs/models/ or expected/
# differ from what the C++ core produces now.
# usage: check_current.sh GENERATOR VECTORS_DIR MODELS_DIR
set -euo pipefail
generator=$1
vectors=$2
models=$3
fresh=$(mktemp -d)
trap 'rm -rf "$fresh"' EXIT

"$generator" "$vectors" "$models" "$fresh" >/dev/null

stale=0
for folder in inputs/models expected; do
  mkdir -p "$fresh/$folder"
  if [[ ! -d "$vectors/$folder" ]]; then
    echo "stale: $folder/ is missing"
    stale=1
    continue
  fi
  while IFS= read -r file; do
    if [[ ! -f "$vectors/$folder/$file" ]]; then
      echo "stale: $folder/$file is missing"
      stale=1
    elif ! cmp -s "$fresh/$folder/$file" "$vectors/$folder/$file"; then
      echo "stale: $folder/$file differs"
      stale=1
    fi
  done < <(cd "$fresh/$folder" && find . -type f | sed 's|^\./||' | sort)
  while IFS= read -r file; do
    if [[ ! -f "$fresh/$folder/$file" ]]; then
      echo "stale: $folder/$file is no longer generated"
      stale=1
    fi
  done < <(cd "$vectors/$folder" && find . -type f | sed 's|^\./||' | sort)
done

if [[ $stale -ne 0 ]]; then
  echo "the test vectors are stale: run scripts/regenerate-vectors"
  exit 1
fi
echo "the test vectors are current"
