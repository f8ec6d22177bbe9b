#!/usr/bin/env bash
# Submits a barsoom run as a Slurm job array of SHARDS shards plus a merge
# job that runs once every shard has succeeded. Prints the two job ids.
#
#   deploy/slurm/submit.sh SCENARIO TRIALS SHARDS OUT [SEED] [-- SBATCH_OPTIONS...]
#
# SCENARIO and OUT must be on a filesystem every node sees. BARSOOM (default:
# the barsoom on PATH, else target/release/barsoom of this checkout) names
# the binary; THREADS sets CPUs per shard (default 1).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if (( $# < 4 )); then
    sed -n '2,10p' "$0" >&2
    exit 2
fi
scenario="$(realpath "$1")"; trials="$2"; shards="$3"; out="$4"
shift 4
seed=1
if (( $# > 0 )) && [[ "$1" != "--" ]]; then seed="$1"; shift; fi
if (( $# > 0 )) && [[ "$1" == "--" ]]; then shift; fi
if ! [[ "$shards" =~ ^[1-9][0-9]*$ ]]; then
    echo "SHARDS must be a positive whole number, found $shards" >&2
    exit 2
fi
mkdir -p "$out/logs"
out="$(realpath "$out")"
barsoom="${BARSOOM:-$(command -v barsoom || echo "$here/../../target/release/barsoom")}"
barsoom="$(realpath "$barsoom")"
env="ALL,BARSOOM=$barsoom,SCENARIO=$scenario,TRIALS=$trials,SEED=$seed,SHARDS=$shards,OUT=$out"
array=$(sbatch --parsable --array="0-$((shards - 1))" --cpus-per-task="${THREADS:-1}" \
    --export="$env" --output="$out/logs/shard-%a.out" "$@" "$here/shard.sbatch")
array="${array%%;*}"
merge=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes \
    --export="$env" --output="$out/logs/merge.out" "$@" "$here/merge.sbatch")
merge="${merge%%;*}"
echo "$array $merge"
