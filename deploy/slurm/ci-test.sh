#!/usr/bin/env bash
# Proves deploy/slurm on a real Slurm: a single-node cluster on 127.0.0.1
# (non-default ports, config in a temp dir), a 4-task job array of real
# shards plus the dependent merge job from submit.sh, and the merged
# summary.csv compared byte for byte with a single-process run. Installs
# Debian's slurm and munge packages if missing; stops everything it started.
#
#   deploy/slurm/ci-test.sh [path/to/barsoom]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
barsoom="$(realpath "${1:-$root/target/release/barsoom}")"
[[ -x "$barsoom" ]] || { echo "no barsoom binary at $barsoom (cargo build --release)" >&2; exit 1; }
log() { echo "slurm-ci: $*"; }

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null \
    || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
    # apt-install keeps apt from starting the packaged daemons with the
    # default config.
    "$root/.ci/apt-install" slurmctld slurmd slurm-client munge
fi

work="$(mktemp -d /tmp/barsoom-slurm.XXXXXX)"
chmod 0755 "$work"
pids=()
cleanup() {
    local status=$?
    if [[ -n "${SLURM_CONF:-}" ]]; then
        scancel --quiet --full -u "$(id -un)" 2>/dev/null || true
    fi
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    if (( status != 0 )); then
        for f in "$work"/*.log "$work"/out/logs/*; do
            [[ -f "$f" ]] && { echo "--- $f"; tail -n 20 "$f"; }
        done
    fi
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT INT TERM

# munge: its own key and socket; the socket folder must be world-executable.
mkdir -p "$work/munge" && chmod 0711 "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 0400 "$work/munge/munge.key"
socket="$work/munge/munge.socket"
munged --foreground --force --socket="$socket" --key-file="$work/munge/munge.key" \
    --pid-file="$work/munge/munged.pid" --seed-file="$work/munge/munge.seed" \
    --log-file="$work/munged.log" >>"$work/munged.log" 2>&1 &
pids+=($!)

node="$(hostname -s)"
user="$(id -un)"
cpus="$(nproc)"
mkdir -p "$work/state" "$work/spool"
export SLURM_CONF="$work/slurm.conf"
cat > "$SLURM_CONF" <<CONF
ClusterName=barsoomci
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
# No cgroups here: with the defaults the node drains and jobs pend forever.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=ci Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF

slurmctld -D -c -f "$SLURM_CONF" >>"$work/slurmctld.log" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$node" >>"$work/slurmd.log" 2>&1 &
pids+=($!)

wait_until() { # seconds, description, command...
    local deadline=$((SECONDS + $1)) what="$2"; shift 2
    until "$@" >/dev/null 2>&1; do
        (( SECONDS < deadline )) || { log "timed out waiting for $what"; return 1; }
        sleep 0.5
    done
}
node_idle() { [[ "$(sinfo -h -N -o %t 2>/dev/null)" == idle* ]]; }
wait_until 60 "the node to come up idle" node_idle
log "cluster up: $(sinfo -h -o '%P %D %t %C')"

scenario="$root/scenarios/wom/three-green-warriors-vs-john-carter.toml"
trials=400000
seed=17
read -r array merge < <(BARSOOM="$barsoom" "$root/deploy/slurm/submit.sh" \
    "$scenario" "$trials" 4 "$work/out" "$seed")
log "submitted array $array and merge $merge"
jobs_done() { [[ -z "$(squeue -h -j "$array,$merge" -o %i 2>/dev/null)" ]]; }
# squeue is polled: `sbatch --wait` would also work but polls slowly.
wait_until 120 "the array and the merge job" jobs_done

for k in 0 1 2 3; do
    [[ -f "$work/out/shard-$k/state.json" ]] || { log "shard $k left no state.json"; exit 1; }
done
[[ -f "$work/out/merged/summary.csv" ]] || { log "the merge job wrote no summary"; exit 1; }
"$barsoom" run "$scenario" -n "$trials" --seed "$seed" --out "$work/single" -q >/dev/null
if ! cmp "$work/out/merged/summary.csv" "$work/single/summary.csv"; then
    log "merged summary differs from the single-process run"
    diff "$work/out/merged/summary.csv" "$work/single/summary.csv" || true
    exit 1
fi
log "ok: 4 shards on Slurm merged to the single-process summary, byte for byte"

# A search-player study: eight Talisman games with a search seat in four
# tasks (two games each), merged, against one process.
study="$root/scenarios/talisman/search-vs-sensible.toml"
read -r array merge < <(BARSOOM="$barsoom" "$root/deploy/slurm/submit.sh" \
    "$study" 8 4 "$work/study" 1)
log "submitted the search study: array $array and merge $merge"
wait_until 300 "the search study's array and merge job" jobs_done
for k in 0 1 2 3; do
    grep -q "\"range\":\[$((2 * k)),$((2 * k + 2))\]" "$work/study/shard-$k/state.json" \
        || { log "study shard $k did not run games $((2 * k)) and $((2 * k + 1))"; exit 1; }
done
"$barsoom" run "$study" -n 8 --seed 1 --out "$work/study-single" -q >/dev/null
cmp "$work/study/merged/summary.csv" "$work/study-single/summary.csv" \
    || { log "the merged search study differs from the single-process run"; exit 1; }
log "ok: a search study in 4 Slurm tasks merged to the single-process summary, byte for byte"
