#!/usr/bin/env bash
# The test behind poet_op_times: PG_OP_TIMES=1 makes a program print, at exit, one row per op with
# its forward and backward time and calls, over the backward passes it ran; without it, nothing.
# usage: op_times.sh POET_BINARY
set -u
poet="$1"
args=(bench --layers 1 --width 32 --heads 2 --batch 8 --repeat 3 --warmup-steps 0 --threads 1)
fail() { echo "op_times: $*"; exit 1; }

out="$(PG_OP_TIMES=1 timeout 120 "$poet" "${args[@]}" 2>&1)" || fail "poet bench failed: $out"
echo "$out"
grep -q 'PG_OP_TIMES: wall ms per backward pass (3 passes)' <<<"$out" || fail "no table header for 3 passes"
# one block of the GPT per step: its two layer norms and the final one, 3 steps -> 9 layer_norm calls each way
grep -Eq '^layer_norm +[0-9.]+ +9 +[0-9.]+ +9 ' <<<"$out" || fail "layer_norm should show 9 forward and 9 backward calls"
grep -Eq '^linear +[0-9.]+ +[0-9]+ +[0-9.]+ +[0-9]+ ' <<<"$out" || fail "no linear row"
grep -Eq '^cross_entropy +[0-9.]+ +3 +[0-9.]+ +3 ' <<<"$out" || fail "cross_entropy should show 3 calls each way"
grep -Eq '^all ops +[0-9.]+' <<<"$out" || fail "no total"

quiet="$(timeout 120 "$poet" "${args[@]}" 2>&1)" || fail "poet bench failed without PG_OP_TIMES"
if grep -q 'PG_OP_TIMES' <<<"$quiet"; then fail "printed a table without PG_OP_TIMES"; fi
echo "op_times: ok"
