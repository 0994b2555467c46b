#!/usr/bin/env bash
# clang-tidy with the committed .clang-tidy on every source of the library
# (src/) and the tools (tools/), from a build folder's compile_commands.json
# (cmake -DCMAKE_EXPORT_COMPILE_COMMANDS=ON). Fails on any finding: the
# config's WarningsAsErrors is '*'. Usage: tools/run-clang-tidy.sh BUILD_DIR
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: tools/run-clang-tidy.sh BUILD_DIR}
test -f "$build/compile_commands.json" || { echo "no $build/compile_commands.json" >&2; exit 2; }
tidy=$(command -v clang-tidy || command -v clang-tidy-14)
# The sources the build compiles (a file left out of the build is not checked).
mapfile -t files < <(python3 -c '
import json, os, sys
root = os.getcwd()
seen = set()
for entry in json.load(open(sys.argv[1])):
    path = os.path.realpath(os.path.join(entry["directory"], entry["file"]))
    rel = os.path.relpath(path, root)
    if rel.startswith(("src/", "tools/")) and rel not in seen:
        seen.add(rel)
        print(rel)
' "$build/compile_commands.json" | sort)
echo "clang-tidy: ${#files[@]} files"
printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -n 4 "$tidy" -p "$build" --quiet 2>/dev/null
