#!/usr/bin/env bash
# Instructions an agent-step, counted by valgrind's callgrind (one thread),
# for one or more builds of `steering-lab` and each workload: the steady
# measure beside the wall-time scripts, which this machine's load moves by
# tens of percent from run to run. Each count is the difference between
# two runs that differ only in how many steps they time, so the app's
# setup and warm-up cancel. Prints a Markdown table.
#
#   cargo build --release -p steering_lab
#   benches/instructions.sh [LAB_BIN...]        # default: the release build
#
# Needs valgrind (`apt-get install valgrind`); a few minutes a build.
set -euo pipefail
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 1; }
target=${CARGO_TARGET_DIR:-$HOME/.cache/bevy_steering-target}
[ $# -gt 0 ] || set -- "$target/release/steering-lab"

# Name, agents, fewer steps, more steps, extra flags.
workloads=(
    "critters 100000 10 20"
    "flock 100000 2 4 --flock"
    "level 10000 10 20 --level"
)

# The instructions of one run (`I refs` of valgrind's summary).
count() {
    local lab=$1 agents=$2 steps=$3
    shift 3
    valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "$lab" bench --agents "$agents" --steps "$steps" --threads 1 "$@" 2>&1 >/dev/null |
        sed -nE 's/.*I +refs: +([0-9,]+).*/\1/p' | tr -d ,
}

header="| instructions an agent-step |"
rule="| --- |"
for lab in "$@"; do
    header+=" $(basename "$lab") |"
    rule+=" ---: |"
done
echo "$header"
echo "$rule"
for workload in "${workloads[@]}"; do
    read -r name agents few more flags <<<"$workload"
    row="| $name, $agents agents |"
    for lab in "$@"; do
        a=$(count "$lab" "$agents" "$few" $flags)
        b=$(count "$lab" "$agents" "$more" $flags)
        row+=" $(( (b - a) / ((more - few) * agents) )) |"
    done
    echo "$row"
done
