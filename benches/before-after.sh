#!/usr/bin/env bash
# Times two builds of `steering-lab` against each other in one run, taking
# turns (before, after, before, ...) so both see the same machine, and
# prints the median ns per agent-step of each, as a Markdown table.
#
#   benches/before-after.sh BEFORE_BIN AFTER_BIN [ROUNDS] [-- extra bench flags]
#
# Build the two from two commits with `cargo build --release -p
# steering_lab` and copy `$CARGO_TARGET_DIR/release/steering-lab` aside.
set -euo pipefail
before=$1 after=$2 rounds=${3:-5}
shift $(( $# < 3 ? $# : 3 ))
[ "${1:-}" = "--" ] && shift
extra=("$@")

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ns() { "$1" bench --agents "$2" --steps "$3" "${extra[@]}" | sed -E 's/.*"ns_per_agent_step":([0-9.e+-]+).*/\1/'; }

echo "| agents | before (ns/agent-step) | after | after / before |"
echo "| ---: | ---: | ---: | ---: |"
for agents in 1000 10000 100000; do
    steps=$(( agents >= 100000 ? 50 : agents >= 10000 ? 200 : 1000 ))
    b=() a=()
    for _ in $(seq "$rounds"); do
        b+=("$(ns "$before" "$agents" "$steps")")
        a+=("$(ns "$after" "$agents" "$steps")")
    done
    mb=$(printf '%s\n' "${b[@]}" | median)
    ma=$(printf '%s\n' "${a[@]}" | median)
    printf '| %s | %.1f | %.1f | %.2f |\n' "$agents" "$mb" "$ma" "$(echo "$ma / $mb" | bc -l)"
done
