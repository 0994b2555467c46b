#!/usr/bin/env bash
# The layering the build enforces (src/CMakeLists.txt): every target's view
# of src/ resolves the headers of its own module and those it declares, and
# nothing else. Checked the way the compiler resolves an include: for each
# target and each folder of src/ with headers, __has_include of one of its
# headers must be true exactly when the folder is in the target's view. Then
# the table's intent, spelled out: lower modules cannot see higher ones.
# Usage: tests/layering.sh CXX SOURCE_DIR VIEWS_DIR
set -euo pipefail
cxx=$1
src=$2/src
views=$3
fail() { echo "FAIL: $*" >&2; exit 1; }

# One preprocessor run per view: for each folder of src/ with headers, does
# an include of one of its headers resolve in the view?
headers=()
for folder in "$src"/*/; do
  name=$(basename "$folder")
  header=$(cd "$folder" && find . -name '*.hpp' | sort | head -n 1)
  [ -n "$header" ] && headers+=("$name/${header#./}")
done
probe=$(for header in "${headers[@]}"; do
  printf '#if __has_include("%s")\nresolves %s\n#else\nmissing %s\n#endif\n' "$header" "${header%%/*}" "${header%%/*}"
done)

checked=0
for view in "$views"/*/; do
  target=$(basename "$view")
  answers=$("$cxx" -std=c++20 -E -P -I "$src/../include" -I "$view" -x c++ - <<< "$probe" 2> /dev/null) ||
    fail "$target: the preprocessor failed on the probe"
  for header in "${headers[@]}"; do
    name=${header%%/*}
    if [ -e "$view/$name" ]; then
      grep -qx "resolves $name" <<< "$answers" || fail "$target cannot include $header, though its view has $name"
    else
      grep -qx "missing $name" <<< "$answers" || fail "$target includes $header, outside its layer"
    fi
    checked=$((checked + 1))
  done
done
[ "$checked" -ge 100 ] || fail "only $checked target/folder pairs checked"

# refused TARGET FOLDER...: the target's layer does not reach these folders.
refused() {
  local target=$1
  shift
  [ -d "$views/$target" ] || fail "no view for $target"
  for folder in "$@"; do
    [ ! -e "$views/$target/$folder" ] || fail "$target sees src/$folder"
  done
}
refused tmap_util core routing topology io gen refine strategies config capi sim distributed mpi
refused tmap_core routing topology io refine strategies config
refused tmap_topology io refine strategies config job
refused tmap_refine topology strategies config
refused tmap_strategies config capi io distributed mpi report
refused tmap_report capi distributed mpi job
refused tmap_capi distributed mpi sim
refused tmap_cli core topology refine strategies config sched
refused tm-map core topology refine strategies config distributed sched

# No include climbs out of a view with a relative path.
if grep -rnE '#include "\.\./' "$src" "$2/tools"; then fail "relative includes bypass the layering"; fi
echo "layering: $checked target/folder pairs resolve as declared"
