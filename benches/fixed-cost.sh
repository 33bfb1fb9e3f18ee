#!/usr/bin/env bash
# The plugin's fixed cost (issue 13, target 1): one update of the headless
# app without the plugin beside the same app with 1, 10, 100 and 1,000
# agents of the Critters mix, and the plain loop at 1,000, taking turns so
# all see the same machine. Prints each one's median over ROUNDS runs as a
# Markdown table, in microseconds a step.
#
#   cargo build --release -p steering_lab
#   benches/fixed-cost.sh [ROUNDS] [THREADS]
#
# THREADS sizes Bevy's compute pool (one a core if not given); `default`
# keeps Bevy's own default pools, as a game has them.
set -euo pipefail
lab=${LAB:-${CARGO_TARGET_DIR:-$HOME/.cache/bevy_steering-target}/release/steering-lab}
rounds=${1:-7} threads=${2:-}
pools=()
[ -n "$threads" ] && pools=(--threads "$threads")

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
us() { "$lab" bench "$@" | sed -E 's/.*"us_per_step":([0-9.e+-]+).*/\1/'; }

declare -A runs
for _ in $(seq "$rounds"); do
    runs[empty]+="$(us --empty --steps 2000 "${pools[@]}") "
    for n in 1 10 100 1000; do
        runs[$n]+="$(us --agents "$n" --steps 2000 "${pools[@]}") "
    done
    runs[plain]+="$(us --agents 1000 --steps 2000 --plain) "
done
m() { printf '%s\n' ${runs[$1]} | median; }
empty=$(m empty)
echo "| | µs a step (median of $rounds) | beyond the empty app |"
echo "| --- | ---: | ---: |"
printf '| app without the plugin | %.1f | |\n' "$empty"
for n in 1 10 100 1000; do
    awk -v n="$n" -v t="$(m "$n")" -v e="$empty" 'BEGIN { printf "| plugin, %s agents | %.1f | %.1f |\n", n, t, t - e }'
done
awk -v p="$(m plain)" -v e="$empty" -v t="$(m 1000)" 'BEGIN {
    printf "| plain loop, 1000 agents | %.1f | |\n", p
    printf "\n1,000 agents: %.2f x (plain loop + empty app)\n", t / (p + e) }'
