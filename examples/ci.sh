#!/usr/bin/env bash
# CI: runs examples/plot_sweep.py on a fresh sweep (the example must keep
# working as the files change). Needs Python with pyarrow, polars or
# pandas; skips (exit 0, saying so) when there is no Python.
#
#   examples/ci.sh [path/to/barsoom]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
barsoom="$(realpath "${1:-$root/target/release/barsoom}")"
python="$(command -v python3 || true)"
if [[ -z "$python" ]]; then
    echo "examples: SKIPPED: no Python on PATH"
    exit 0
fi
if ! "$python" -c 'import pyarrow' 2>/dev/null && ! "$python" -c 'import polars' 2>/dev/null \
    && ! "$python" -c 'import pandas' 2>/dev/null; then
    PIP_ROOT_USER_ACTION=ignore "$python" -m pip install --quiet pyarrow
fi
work="$(mktemp -d /tmp/barsoom-examples.XXXXXX)"
trap 'rm -rf "$work"' EXIT INT TERM
cd "$root"
"$barsoom" sweep scenarios/wom/padwar-vs-padwar.toml --vary 'sides[0].figures[0].level=3..9' \
    -n 5000 --out "$work/sweep" >/dev/null
"$python" examples/plot_sweep.py "$work/sweep" "$work/rates.svg"
ls "$work"/rates.* >/dev/null
echo "examples: ok"
