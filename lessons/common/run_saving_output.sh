#!/usr/bin/env bash
# The test behind lesson_NN_experiment: runs the experiment, shows its output and keeps a copy in
# OUTPUT for the README numbers test, so the experiment runs once per test pass.
# usage: run_saving_output.sh OUTPUT PROGRAM
set -uo pipefail
out="$1"; shift
rm -f "$out"
"$@" >"$out.partial" 2>&1
code=$?
cat "$out.partial"
if [ $code -eq 0 ]; then mv "$out.partial" "$out"; else rm -f "$out.partial"; fi
exit $code
