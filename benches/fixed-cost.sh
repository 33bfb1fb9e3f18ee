#!/usr/bin/env bash
# The plugin's fixed cost (issue 13, target 1): one update of the headless
# app without the plugin beside the same app with 1, 10, 100 and 1,000
# agents of the Critters mix, and the plain loop at 1,000, taking turns so
# all see the same machine. Prints each one's median over ROUNDS runs as a
# Markdown table, in microseconds a step: wall time, and the CPU time of
# all the process's threads (Linux), which leaves out the time spent
# waiting for Bevy's threads to wake.
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
field() { sed -E "s/.*\"$1\":([0-9.e+-]+).*/\\1/"; }

declare -A wall cpu
run() {
    local key=$1 line
    shift
    line=$("$lab" bench "$@")
    wall[$key]+="$(field us_per_step <<< "$line") "
    cpu[$key]+="$(field cpu_us_per_step <<< "$line") "
}
for _ in $(seq "$rounds"); do
    run empty --empty --steps 3000 "${pools[@]}"
    for n in 1 10 100 1000; do
        run "$n" --agents "$n" --steps 3000 "${pools[@]}"
    done
    run plain --agents 1000 --steps 3000 --plain
done
m() { local -n runs=$1; printf '%s\n' ${runs[$2]} | median; }
we=$(m wall empty) ce=$(m cpu empty)
echo "| µs a step (median of $rounds) | wall | beyond the app without the plugin | CPU | beyond |"
echo "| --- | ---: | ---: | ---: | ---: |"
printf '| app without the plugin | %.1f | | %.1f | |\n' "$we" "$ce"
for n in 1 10 100 1000; do
    awk -v n="$n" -v w="$(m wall "$n")" -v we="$we" -v c="$(m cpu "$n")" -v ce="$ce" \
        'BEGIN { printf "| plugin, %s agents | %.1f | %+.1f | %.1f | %+.1f |\n", n, w, w - we, c, c - ce }'
done
awk -v p="$(m wall plain)" -v we="$we" -v w="$(m wall 1000)" 'BEGIN {
    printf "| plain loop, 1000 agents | %.1f | | | |\n", p
    printf "\n1,000 agents: %.2f x (plain loop + app without the plugin), wall time\n", w / (p + we) }'
