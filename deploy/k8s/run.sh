#!/usr/bin/env bash
# Runs the Indexed Job with SHARDS shards, waits for it, then the merge Job.
#   deploy/k8s/run.sh SHARDS [TIMEOUT]   (TIMEOUT as kubectl wants it, e.g. 2h)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
shards="${1:?usage: run.sh SHARDS [TIMEOUT]}"
timeout="${2:-6h}"
[[ "$shards" =~ ^[1-9][0-9]*$ ]] || { echo "SHARDS must be a positive whole number" >&2; exit 2; }
sed -e "s/^  completions: .*/  completions: $shards/" \
    -e "s/^  parallelism: .*/  parallelism: $shards/" \
    -e "/name: SHARDS/{n;s/value: .*/value: \"$shards\"/}" \
    "$here/shards-job.yaml" | kubectl apply -f -
kubectl wait --for=condition=complete job/barsoom-shards --timeout="$timeout"
kubectl apply -f "$here/merge-job.yaml"
kubectl wait --for=condition=complete job/barsoom-merge --timeout=10m
