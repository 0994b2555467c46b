#!/usr/bin/env bash
# Fails when a C or C++ source differs from what clang-format (.clang-format)
# makes of it. Run by .ci/run; `tools/check-format.sh --fix` rewrites them.
set -euo pipefail
cd "$(dirname "$0")/.."
if git rev-parse --git-dir > /dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h' '*.c' | grep -v '^tests/fuzz/\(crashes\|corpus\)/')
else  # an exported tree without git
  mapfile -t files < <(find src include tools tests benchmarks examples -name '*.[ch]pp' -o -name '*.[ch]' |
                       grep -v '^tests/fuzz/\(crashes\|corpus\)/' | sort)
fi
if [ "${1:-}" = "--fix" ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
bad=0
for f in "${files[@]}"; do
  if ! clang-format --dry-run --Werror "$f" > /dev/null 2>&1; then
    echo "format: $f differs from clang-format's layout (tools/check-format.sh --fix)" >&2
    bad=1
  fi
done
exit $bad
