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
# Needs valgrind (`apt-get install valgrind`); about ten minutes a build.
set -euo pipefail
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 1; }
target=${CARGO_TARGET_DIR:-$HOME/.cache/bevy_steering-target}
[ $# -gt 0 ] || set -- "$target/release/steering-lab"

# Name | agents | steps in one unit of the run's length (1 where it is
# counted in steps, 60 where in seconds of a crowd at 60 Hz, 2 for the
# routes, whose agents take `--steps` steps walking their first routes and
# as many again after all are sent somewhere new, eight routes asked a
# step) | the lab's command, `{}` standing for the length | the shorter
# run | the longer. Route searches hash with a seed from the clock (in
# Polyanya, through hashbrown), so the routes' count moves by about 3%
# from run to run (18,306 to 18,789 on one binary; BENCHMARKS.md, Routes).
workloads=(
    "critters|100000|1|bench --agents 100000 --steps {}|10|20"
    "flock|100000|1|bench --agents 100000 --steps {} --flock|2|4"
    "level|10000|1|bench --agents 10000 --steps {} --level|10|20"
    "crowd|1000|60|crowd --scene random-1000 --method avoid --seconds {}|2|4"
    "routes|1000|2|routes --routes 10 --builds 1 --agents 1000 --steps {}|10|60"
)

# The instructions of one run (`I refs` of valgrind's summary).
count() {
    local lab=$1 command=$2
    # shellcheck disable=SC2086 # the command is split into its words
    valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "$lab" $command --threads 1 2>&1 >/dev/null |
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
    IFS='|' read -r name agents per_unit command few more <<<"$workload"
    row="| $name, $agents agents |"
    for lab in "$@"; do
        a=$(count "$lab" "${command//\{\}/$few}")
        b=$(count "$lab" "${command//\{\}/$more}")
        row+=" $(( (b - a) / ((more - few) * per_unit * agents) )) |"
    done
    echo "$row"
done
