#!/usr/bin/env bash
# Runs run_cases.sh with PG_KERNELS=NAME, so the library's cases run on that kernel table (one
# instruction set) instead of the widest: every table this CPU runs is tested, not only the one a
# program picks. A table this CPU cannot run is reported as skipped (exit 77, which ctest shows as
# "Skipped"), never passed.
# usage: run_with_kernels.sh [--emulator "CMD ARGS"] NAME PROGRAM [run_cases.sh arguments after PROGRAM...]
set -uo pipefail
emulator=()
if [ "${1:-}" = "--emulator" ]; then read -r -a emulator <<<"$2"; shift 2; fi
name="$1" program="$2"
shift 2
here="$(cd "$(dirname "$0")" && pwd)"
probe="$(PG_KERNELS="$name" "${emulator[@]+"${emulator[@]}"}" "$program" "the kernel tables*" 2>&1)"
if grep -q "no such kernel table runs on this CPU" <<<"$probe"; then
    echo "run_with_kernels: skipped: this CPU does not run the $name table ($probe)"
    exit 77
fi
PG_KERNELS="$name" exec bash "$here/run_cases.sh" --emulator "${emulator[*]+"${emulator[*]}"}" "$program" "$@"
