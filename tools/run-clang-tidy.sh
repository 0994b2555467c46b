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
# The sources the build compiles (a file left out of the build is not
# checked), and which of them to check: with --all or without the git
# history, every one with every check. Otherwise the sources the last 15
# commits (a session's work) touched, each with every check, and the
# sources that include a file those commits touched (from the compiler's
# dependency files), without Clang's static analyzer (clang-analyzer-*, 60 %
# of the time); the others are as CI last checked them (every file had its
# turn when it or a header it includes last changed). A change to
# .clang-tidy checks every file. Every check on every file took 16 minutes
# on a slow host, the longest CI step but the builds.
all=0
if [ "${2:-}" = --all ] || ! git rev-parse --verify -q HEAD~15 > /dev/null; then
  all=1
fi
changed=()
if ((!all)); then
  mapfile -t changed < <(git diff --name-only HEAD~15 --)
  if printf '%s\n' "${changed[@]}" | grep -qx '\.clang-tidy'; then all=1; fi
fi
# (a command substitution, not <(...): a failure here stops the script.)
picked_text=$(printf '%s\n' "${changed[@]}" | python3 -c '
import json, os, shlex, sys
root = os.getcwd()
check_all = sys.argv[2] == "1"
changed = {os.path.realpath(line.strip()) for line in sys.stdin if line.strip()}
seen = set()
for entry in json.load(open(sys.argv[1])):
    path = os.path.realpath(os.path.join(entry["directory"], entry["file"]))
    rel = os.path.relpath(path, root)
    if not rel.startswith(("src/", "tools/")) or rel in seen:
        continue
    seen.add(rel)
    if check_all or path in changed:
        print("every", rel)
        continue
    # What it includes: the dependency file beside its object (-MD).
    args = shlex.split(entry["command"])
    output = args[args.index("-o") + 1] if "-o" in args else None
    depends = os.path.join(entry["directory"], output + ".d") if output else None
    if depends is None or not os.path.exists(depends):
        print("every", rel)  # not built yet: checked whole
        continue
    text = open(depends).read().replace("\\\n", " ")
    paths = text.split(":", 1)[1].split() if ":" in text else []
    if any(os.path.realpath(p) in changed for p in paths):
        print("includes", rel)
' "$build/compile_commands.json" "$all" | sort)
mapfile -t picked <<< "$picked_text"
analyzed=()
rest=()
for line in "${picked[@]}"; do
  case $line in
    "every "*) analyzed+=("${line#every }") ;;
    "includes "*) rest+=("${line#includes }") ;;
  esac
done
echo "clang-tidy: ${#rest[@]} files that include a changed file, without the analyzer"
if ((${#rest[@]})); then
  printf '%s\n' "${rest[@]}" | xargs -P "$(nproc)" -n 4 "$tidy" -p "$build" --quiet --checks='-clang-analyzer-*' 2>/dev/null
fi
echo "clang-tidy: ${#analyzed[@]} files with every check"
if ((${#analyzed[@]})); then
  printf '%s\n' "${analyzed[@]}" | xargs -P "$(nproc)" -n 4 "$tidy" -p "$build" --quiet 2>/dev/null
fi
