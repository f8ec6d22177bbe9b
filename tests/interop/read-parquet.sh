#!/usr/bin/env bash
# Interop: the Parquet frames read cleanly from Python with pyarrow, with
# the column names and types README.md documents, and the same values as
# the CSV files beside them. Writes a run with --trials-out and a sweep,
# then runs tests/interop/read_parquet.py on them. Installs pyarrow with pip
# if it is missing; skips (exit 0, saying so) when there is no Python.
#
#   tests/interop/read-parquet.sh [path/to/barsoom]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
barsoom="$(realpath "${1:-$root/target/release/barsoom}")"
log() { echo "interop: $*"; }
[[ -x "$barsoom" ]] || { echo "interop: no barsoom binary at $barsoom (cargo build --release)" >&2; exit 1; }

python="$(command -v python3 || command -v python || true)"
if [[ -z "$python" ]]; then
    log "SKIPPED: no Python on PATH, so the Parquet files were not read back"
    exit 0
fi
if ! "$python" -c 'import pyarrow' 2>/dev/null; then
    log "installing pyarrow"
    PIP_ROOT_USER_ACTION=ignore "$python" -m pip install --quiet pyarrow
fi

work="$(mktemp -d /tmp/barsoom-interop.XXXXXX)"
trap 'rm -rf "$work"' EXIT INT TERM
cd "$root"
"$barsoom" run scenarios/wom/padwar-vs-padwar.toml -n 40000 --seed 3 --trials-out --out "$work/run" -q >/dev/null
"$barsoom" sweep scenarios/wom/padwar-vs-padwar.toml --vary 'sides[0].figures[0].level=5..7' \
    -n 5000 --seed 3 --out "$work/sweep" >/dev/null
"$python" "$root/tests/interop/read_parquet.py" "$work/run" "$work/sweep"
log "ok"
