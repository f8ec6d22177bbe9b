#!/usr/bin/env bash
# Renders a `barsoom report` in headless Chromium and checks the screenshot:
# real runs (a run, a one-parameter sweep and a tournament) are reported
# into one HTML file, Chromium takes a 1280x2000 screenshot and dumps the
# DOM, and tests/report_screenshot.py checks that the page is not blank,
# that every chart of the folders is an <svg> in the DOM and that the chart
# colours are on screen. Installs Debian's chromium package if missing
# (as root, with .ci/apt-install).
#
#   tests/report-chromium.sh [path/to/barsoom] [SCREENSHOT.png to keep]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
barsoom="$(realpath "${1:-$root/target/release/barsoom}")"
keep="${2:-}"
log() { echo "report-chromium: $*"; }

command -v python3 >/dev/null || { echo "report-chromium: python3 is needed to check the screenshot" >&2; exit 1; }

work=""
cleanup() {
    local status=$?
    if [[ -n "$work" ]]; then
        if (( status != 0 )) && [[ -f "$work/chromium.log" ]]; then
            echo "--- chromium's stderr"; tail -n 20 "$work/chromium.log"
        fi
        rm -rf "$work"
    fi
    exit "$status"
}
trap cleanup EXIT INT TERM

command -v chromium >/dev/null || "$root/.ci/apt-install" chromium
[[ -x "$barsoom" ]] || { echo "report-chromium: no barsoom binary at $barsoom (cargo build --release)" >&2; exit 1; }

work="$(mktemp -d /tmp/barsoom-report.XXXXXX)"
cd "$root"
log "running a scenario, a sweep and a tournament"
"$barsoom" run scenarios/wom/padwar-vs-padwar.toml -n 50000 --seed 7 --out "$work/run" -q >/dev/null
"$barsoom" sweep scenarios/wom/padwar-vs-padwar.toml --vary 'sides[0].figures[0].level=3..9' \
    -n 5000 --seed 7 --out "$work/sweep" >/dev/null
"$barsoom" tournament scenarios/wom/carthoris-vs-tars-tarkas.toml \
    --seat 'sides[0].figures[0].character' --seat 'sides[1].figures[0].character' \
    --entrants john-carter,tars-tarkas,padwar -n 2000 --out "$work/tournament" >/dev/null
"$barsoom" report "$work/run" "$work/sweep" "$work/tournament" --out "$work/report.html" >/dev/null
charts=$(find "$work/run" "$work/sweep" "$work/tournament" -name '*.svg' | wc -l)

browse() {
    timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --user-data-dir="$work/profile" --window-size=1280,2000 "$@" "file://$work/report.html" \
        2>>"$work/chromium.log"
}
log "rendering in $(chromium --version 2>/dev/null || echo chromium)"
browse --screenshot="$work/screenshot.png" >/dev/null
browse --dump-dom > "$work/dom.html"
[[ -n "$keep" ]] && cp "$work/screenshot.png" "$keep"
python3 "$root/tests/report_screenshot.py" "$work/screenshot.png" "$work/dom.html" "$charts"
log "ok"
