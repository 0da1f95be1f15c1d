#!/usr/bin/env bash
# Fails when a C or C++ source is not formatted as .clang-format says.
set -euo pipefail
cd "$1"
status=0
while IFS= read -r -d '' file; do
  if ! clang-format --dry-run -Werror "$file" >/dev/null 2>&1; then
    echo "not clang-format clean: $file"
    status=1
  fi
done < <(find include src capi tests bench examples -type f \
  \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.hpp' \) -print0)
exit "$status"
