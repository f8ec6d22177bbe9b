#!/usr/bin/env bash
# Mutation fuzzing through the binary: every bundled scenario and every data
# file, each mutated MUTATIONS times (a line deleted or duplicated, a number
# replaced by an extreme, a byte changed), then `validate` and a short `run`
# of an affected scenario. Only exit codes 0 and 2 are allowed, with no
# panic or backtrace on stderr. Seeded (SEED), so a failure replays.
#
#   tests/fuzz/mutate.sh target/release/barsoom [MUTATIONS] [SEED]
#
# CI runs it with 1 mutation per file (about a minute on two cores).
set -euo pipefail
bin=$(realpath "${1:?usage: mutate.sh BARSOOM [MUTATIONS] [SEED]}")
mutations=${2:-3}
RANDOM=${3:-1}
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
extremes=(-9223372036854775808 9223372036854775807 4294967296 65536 256 -129 -1 0 1e308 nan)
tried=0 failed=0

mutate() { # file: one random mutation in place
  local file=$1 lines n kind
  lines=$(wc -l < "$file")
  [ "$lines" -gt 0 ] || return 0
  n=$(( RANDOM % lines + 1 ))
  kind=$(( RANDOM % 4 ))
  case $kind in
    0) sed -i "${n}d" "$file" ;;
    1) sed -i "${n}p" "$file" ;;
    2) sed -i -E "${n}s/[0-9]+/${extremes[RANDOM % ${#extremes[@]}]}/" "$file" ;;
    3) sed -i -E "${n}s/[=,\"]/]/" "$file" ;;
  esac
}

check() { # label, args...: exit 0 or 2, no panic
  local label=$1 rc=0; shift
  timeout 60 "$bin" "$@" > "$work/out" 2> "$work/err" || rc=$?
  tried=$((tried + 1))
  if { [ "$rc" != 0 ] && [ "$rc" != 2 ]; } || grep -qiE 'panicked|backtrace' "$work/err"; then
    failed=$((failed + 1))
    echo "FAIL ($label): exit $rc: barsoom $*" >&2
    head -c 600 "$work/err" >&2
  fi
}

mapfile -t scenarios < <(find scenarios -name '*.toml' -not -path '*/data/*' | sort)
mapfile -t datafiles < <(find scenarios -path '*/data/*' -type f | sort)
for i in $(seq "$mutations"); do
  for file in "${scenarios[@]}" "${datafiles[@]}"; do
    rm -rf "$work/s" && cp -r scenarios "$work/s"
    mutate "$work/s/${file#scenarios/}"
    # The mutated scenario itself, or a scenario of the data file's rulebook.
    if [[ $file == */data/* ]]; then
      book=${file#scenarios/}; book=${book%%/*}
      mapfile -t mine < <(printf '%s\n' "${scenarios[@]}" | grep "^scenarios/$book/")
      [ "${#mine[@]}" -gt 0 ] || continue
      target=${mine[RANDOM % ${#mine[@]}]}
    else
      target=$file
    fi
    target="$work/s/${target#scenarios/}"
    check "$file #$i" validate "$target"
    # --force: one folder takes every scenario in turn.
    check "$file #$i" run "$target" -n 5 --threads 1 --out "$work/r" --force
  done
done
echo "mutate.sh: $tried runs of $(( ${#scenarios[@]} + ${#datafiles[@]} )) files x $mutations mutations, $failed failures"
[ "$failed" = 0 ]
