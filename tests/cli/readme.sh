#!/usr/bin/env bash
# The README tells the truth: its example output is what `tm-map --example`
# prints (the time masked), and every page it and docs/ link to exists.
# Usage: tests/cli/readme.sh BIN_DIR SOURCE_DIR
set -euo pipefail
bin=$1
src=$2
mask() { sed -E 's/time [0-9.]+ s/time T s/'; }
shown=$(sed -n '/<!-- example-output: begin -->/,/<!-- example-output: end -->/p' "$src/README.md" | grep '^tm-map:' | mask)
printed=$("$bin/tm-map" --example 2>&1 > /dev/null | mask)
if [ "$shown" != "$printed" ]; then
  echo "README example output differs from tm-map --example:"
  diff <(echo "$shown") <(echo "$printed")
  exit 1
fi
# Relative links of README.md and docs/*.md point at files that exist.
for page in "$src/README.md" "$src"/docs/*.md; do
  dir=$(dirname "$page")
  grep -oE '\]\([^)#:]+(#[^)]*)?\)' "$page" | sed -E 's/^\]\(([^)#]+).*/\1/' | while read -r target; do
    test -e "$dir/$target" || { echo "$page links to a missing $target"; exit 1; }
  done
done
echo "README: OK"
