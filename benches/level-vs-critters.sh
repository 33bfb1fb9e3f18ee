#!/usr/bin/env bash
# The level workload beside the critters mix, in one run, taking turns so
# both see the same machine: the median ns per agent-step of each, and
# their ratio, as a Markdown row.
#
#   cargo build --release -p steering_lab
#   benches/level-vs-critters.sh [AGENTS] [ROUNDS]
set -euo pipefail
lab=${LAB:-${CARGO_TARGET_DIR:-$HOME/.cache/bevy_steering-target}/release/steering-lab}
agents=${1:-10000} rounds=${2:-5}
steps=$(( agents >= 100000 ? 30 : agents >= 10000 ? 100 : 500 ))

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ns() { "$lab" bench --agents "$agents" --steps "$steps" "$@" | sed -E 's/.*"ns_per_agent_step":([0-9.e+-]+).*/\1/'; }

level=() critters=()
for _ in $(seq "$rounds"); do
    level+=("$(ns --level --obstacles 1000)")
    critters+=("$(ns)")
done
ml=$(printf '%s\n' "${level[@]}" | median)
mc=$(printf '%s\n' "${critters[@]}" | median)
echo "| agents | level, 1,000 obstacles (ns/agent-step) | critters mix | level / critters |"
echo "| ---: | ---: | ---: | ---: |"
awk -v a="$agents" -v l="$ml" -v c="$mc" 'BEGIN { printf "| %s | %.1f | %.1f | %.2f |\n", a, l, c, l / c }'
