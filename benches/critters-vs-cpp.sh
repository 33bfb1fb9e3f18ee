#!/usr/bin/env bash
# The Critters mix through the plugin beside the chapter's own C++ update
# loop (../shared/bench/critters.cpp, one thread) and our plain Rust loop of
# the same math (one thread), taking turns so all see the same machine
# (issue 13, target 2). Prints each one's median over ROUNDS runs, in ns
# per agent-step, as a Markdown table.
#
#   cargo build --release -p steering_lab
#   benches/critters-vs-cpp.sh [AGENTS] [ROUNDS] [CPP_SOURCE]
set -euo pipefail
target=${CARGO_TARGET_DIR:-$HOME/.cache/bevy_steering-target}
lab=${LAB:-$target/release/steering-lab}
agents=${1:-100000} rounds=${2:-5}
source=${3:-$(dirname "$0")/../../shared/bench/critters.cpp}
cpp=$target/critters-cpp
# The chapter's build line (../shared/bench/README.md).
[ "$cpp" -nt "$source" ] || g++ -O3 -march=native -o "$cpp" "$source"
steps=$(( agents >= 100000 ? 50 : agents >= 10000 ? 200 : 1000 ))

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ns() { "$lab" bench --agents "$agents" --steps "$steps" "$@" | sed -E 's/.*"ns_per_agent_step":([0-9.e+-]+).*/\1/'; }

c=() p=() d=() r=()
for _ in $(seq "$rounds"); do
    c+=("$("$cpp" "$agents" $(( steps * 6 )) | sed -E 's/.*ns_per_agent_step=([0-9.]+).*/\1/')")
    p+=("$(ns)")
    d+=("$(ns --threads 0)")
    r+=("$(ns --plain)")
done
mc=$(printf '%s\n' "${c[@]}" | median)
mp=$(printf '%s\n' "${p[@]}" | median)
md=$(printf '%s\n' "${d[@]}" | median)
mr=$(printf '%s\n' "${r[@]}" | median)
echo "| $agents agents, ns/agent-step (median of $rounds) | | / C++ |"
echo "| --- | ---: | ---: |"
awk -v c="$mc" -v p="$mp" -v d="$md" -v r="$mr" 'BEGIN {
    printf "| chapter C++ loop, 1 thread | %.1f | 1.00 |\n", c
    printf "| plain Rust loop, 1 thread | %.1f | %.2f |\n", r, r / c
    printf "| plugin, both cores | %.1f | **%.2f** |\n", p, p / c
    printf "| plugin, Bevy default pools | %.1f | %.2f |\n", d, d / c }'
