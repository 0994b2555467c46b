#!/usr/bin/env bash
# Looks at a tm-report page in a real browser: headless Chromium (Debian's
# chromium package; not needed to build or test tmap) renders OUTDIR/index.html
# to a PNG screenshot.
# Usage: tools/tm-report/screenshot.sh OUTDIR [SHOT.png] [WIDTHxHEIGHT]
set -euo pipefail
page="$(cd "$1" && pwd)/index.html"
shot=${2:-$1/screenshot.png}
size=${3:-1100x2600}
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="${size/x/,}" \
  --screenshot="$shot" "file://$page" 2> /dev/null
echo "$shot"
