#!/usr/bin/env bash
# Throughput of the default model's training step: 1 process x 2 threads against 2 MPI ranks x 1
# thread (docs/PERFORMANCE.md, "Data-parallel"). Alternates the two ROUNDS times so a noisy
# neighbour hits both; prints each run's median tokens/s (steps 6.., from metrics.csv) and the
# allreduce's share of a step that rank 0 reports.
# usage: bench/data_parallel.sh [ROUNDS (3)] [STEPS (40)]   (needs build-mpi: ./poet train --ranks 1 --help builds it)
set -eu
root="$(cd "$(dirname "$0")/.." && pwd)"
poet="$root/build-mpi/tools/poet"
rounds="${1:-3}" steps="${2:-40}"
[ -x "$poet" ] || { echo "no $poet: build it with ./poet train --ranks 2 --steps 1 (or cmake -DPOETGRAD_MPI=ON)"; exit 1; }
[ "$(id -u)" -eq 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
flags=(--steps "$steps" --eval-every 100000 --save-every 100000 --overwrite)
median() { cut -d, -f6 "$root/runs/$1/metrics.csv" | tail -n +7 | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
trap 'rm -rf "$root"/runs/bench-dp-*' EXIT
for r in $(seq "$rounds"); do
    "$poet" train --out bench-dp-1x2 --threads 2 "${flags[@]}" 2>/dev/null
    share="$(mpirun -np 2 --oversubscribe "$poet" train --data-parallel --out bench-dp-2x1 --threads 1 "${flags[@]}" 2>&1 |
             grep -o 'allreduce took.*')"
    a="$(median bench-dp-1x2)" b="$(median bench-dp-2x1)"
    printf 'round %d: 1 process x 2 threads %s tok/s, 2 ranks x 1 thread %s tok/s, ratio %s; %s\n' \
        "$r" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", b / a }')" "$share"
done
