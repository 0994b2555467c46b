#!/usr/bin/env bash
# clang-tidy with the committed .clang-tidy on every source of the library
# (src/) and the tools (tools/), from a build folder's compile_commands.json
# (cmake -DCMAKE_EXPORT_COMPILE_COMMANDS=ON). Fails on any finding: the
# config's WarningsAsErrors is '*'. Usage: tools/run-clang-tidy.sh BUILD_DIR [--all]
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
# Clang's static analyzer (clang-analyzer-*) is 60 % of the time: it runs
# on the sources the last 15 commits touched (a session's work; every file
# had its turn when last changed) and on all of them with --all or without
# the git history; the other checks run on every file.
analyzed=("${files[@]}")
if [ "${2:-}" != --all ] && git rev-parse --verify -q HEAD~15 > /dev/null; then
  mapfile -t changed < <(git diff --name-only HEAD~15 -- src tools | sort)
  mapfile -t analyzed < <(comm -12 <(printf '%s\n' "${files[@]}") <(printf '%s\n' "${changed[@]}"))
  mapfile -t rest < <(comm -23 <(printf '%s\n' "${files[@]}") <(printf '%s\n' "${analyzed[@]}"))
  echo "clang-tidy: ${#rest[@]} files without the analyzer (unchanged in 15 commits)"
  if ((${#rest[@]})); then
    printf '%s\n' "${rest[@]}" | xargs -P "$(nproc)" -n 4 "$tidy" -p "$build" --quiet --checks='-clang-analyzer-*' 2>/dev/null
  fi
fi
echo "clang-tidy: ${#analyzed[@]} files with every check"
if ((${#analyzed[@]})); then
  printf '%s\n' "${analyzed[@]}" | xargs -P "$(nproc)" -n 4 "$tidy" -p "$build" --quiet 2>/dev/null
fi
