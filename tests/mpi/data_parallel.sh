#!/usr/bin/env bash
# The test behind poet_mpi_data_parallel (ctest label mpi, MPI build only): data-parallel training
# over Open MPI takes the steps one process takes. With the global batch held fixed, the per-step
# training losses of 2 and 4 ranks agree with the single process within 1e-5 for 50 steps (train
# itself compares a hash of every rank's parameters every 10 steps and stops the run if they ever
# differ); a run whose rank is killed ends with a message and keeps its checkpoint, and resuming it
# on 2 ranks gives the uninterrupted run's losses; a rank that hangs ends the run within its
# --step-timeout. 4 ranks on 2 cores: --oversubscribe.
# usage: data_parallel.sh POET_BINARY
set -u
poet="$1"
root="$(cd "$(dirname "$0")/../.." && pwd)"
tag="mpi-test-$$"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1   # CI machines run as root
export OMPI_MCA_btl_vader_single_copy_mechanism=none                # containers without CMA
trap 'rm -rf "$root/runs/$tag"-*' EXIT
# the validation loss once, at step 50 (the runs are compared by their training losses; each
# evaluation of the 854 validation poems cost 0.55 s a rank)
tiny=(--corpus jueju --layers 1 --heads 2 --width 32 --batch 8 --steps 50 --eval-every 50 --save-every 25 --threads 1)
status=0
fail() { echo "data_parallel: $*"; status=1; }

ranks() {  # ranks N NAME [ARGS...]: poet train on N ranks into runs/NAME
    local n="$1" name="$2"
    shift 2
    timeout 300 mpirun -np "$n" --oversubscribe "$poet" train --data-parallel --out "$name" "$@" 2>&1
}

losses() { cut -d, -f3 "$root/runs/$1/metrics.csv" | tail -n +2; }

# wait_rows NAME N: until runs/NAME/metrics.csv has N lines (the header and N - 1 steps; 30 s at most)
wait_rows() {
    local rows
    for _ in $(seq 600); do
        rows="$( (wc -l <"$root/runs/$1/metrics.csv") 2>/dev/null || echo 0)"
        [ "$rows" -ge "$2" ] && return
        sleep 0.05
    done
}

# a_rank NAME: the process id of one poet rank of the run into runs/NAME (empty if none runs)
a_rank() { pgrep -f -- "--out $1" | while read -r p; do [ "$(cat /proc/$p/comm)" = poet ] && echo "$p"; done | tail -1; }

# agree A B TOL: every row of the two loss columns within TOL
agree() {
    paste -d' ' <(losses "$1") <(losses "$2") | awk -v tol="$3" -v a="$1" -v b="$2" '
        { n++; d = $1 - $2; if (d < 0) d = -d; if (d > worst) worst = d }
        END { if (n != 50) { print "data_parallel: " a " vs " b ": " n " steps, expected 50"; exit 1 }
              if (worst > tol) { print "data_parallel: " a " vs " b ": losses differ by " worst " > " tol; exit 1 }
              print "data_parallel: ok: " b " matches " a " for 50 steps (largest difference " worst ")" }'
}

timeout 300 "$poet" train --out "$tag-1" "${tiny[@]}" >/dev/null 2>&1 || fail "the single-process run failed"
for n in 2 4; do
    out="$(ranks "$n" "$tag-$n" "${tiny[@]}")" || { printf '%s\n' "$out"; fail "the $n-rank run failed"; continue; }
    agree "$tag-1" "$tag-$n" 1e-5 || status=1
done

# the batch must split evenly over the ranks
out="$(ranks 3 "$tag-3" "${tiny[@]}")"
grep -q "does not split evenly over 3 ranks" <<<"$out" || { printf '%s\n' "$out"; fail "--batch 8 on 3 ranks was not refused"; }

# a rank killed after the checkpoint at step 25: the run ends with a message, the checkpoint stays,
# and 2 ranks resume it to the uninterrupted 2-rank run's losses
(ranks 2 "$tag-killed" "${tiny[@]}" >"$root/runs/$tag-killed.log") &
mpirun_job=$!
wait_rows "$tag-killed" 28
victim="$(a_rank "$tag-killed")"
[ -n "$victim" ] && kill -9 "$victim"
wait "$mpirun_job"
code=$?
if [ -z "$victim" ]; then
    fail "could not find a rank to kill (the run ended first?)"
elif [ "$code" -eq 0 ]; then
    fail "killing a rank did not end the run with an error"
else
    echo "data_parallel: ok: a killed rank ended the run (exit $code)"
    ranks 2 "$tag-killed" --resume >/dev/null || fail "resuming the killed run on 2 ranks failed"
    paste -d' ' <(losses "$tag-2") <(losses "$tag-killed") | awk '
        { n++; if ($1 != $2) bad++ }
        END { if (n != 50 || bad) { print "data_parallel: the resumed run differs from the uninterrupted one (" bad " of " n " steps)"; exit 1 }
              print "data_parallel: ok: resumed on 2 ranks, the same 50 losses as the uninterrupted run" }' || status=1
fi

# a rank that hangs (stopped by SIGSTOP): the others end the run within --step-timeout
(ranks 2 "$tag-hung" "${tiny[@]}" --steps 400 --step-timeout 2 >"$root/runs/$tag-hung.log") &
mpirun_job=$!
wait_rows "$tag-hung" 3   # the run is stepping
victim="$(a_rank "$tag-hung")"
[ -n "$victim" ] && kill -STOP "$victim"
start=$SECONDS
wait "$mpirun_job"
code=$?
[ -n "$victim" ] && kill -9 "$victim" 2>/dev/null
if [ "$code" -eq 0 ] || ! grep -q "no step finished for 2 s" "$root/runs/$tag-hung.log"; then
    cat "$root/runs/$tag-hung.log"; fail "a hung rank did not end the run with its message (exit $code)"
else
    echo "data_parallel: ok: a hung rank ended the run after $((SECONDS - start)) s with: $(grep -o 'no step finished[^(]*' "$root/runs/$tag-hung.log" | head -1)"
fi
exit $status
