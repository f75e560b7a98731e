#!/usr/bin/env bash
# Runs one shard of a Catch2 test program and proves how many cases ran: the cases the program
# lists for SPEC are dealt into NSHARDS shards (case i goes to shard i mod NSHARDS), shard SHARD is
# run by name, and the run passes only when Catch2 reports exactly that many cases run and passed.
# So a name Catch2 would read as a pattern, a filter that matches nothing or a case that is listed
# but never runs fails the test instead of passing it. Works with Catch2 2 and 3, and under an
# emulator (qemu) or a sanitizer's runtime.
# usage: run_cases.sh [--emulator "CMD ARGS"] PROGRAM SHARD NSHARDS [SPEC]
# Leaves out: timing (ctest's timeout bounds each shard).
set -uo pipefail
emulator=()
if [ "${1:-}" = "--emulator" ]; then read -r -a emulator <<<"$2"; shift 2; fi
program="$1" shard="$2" shards="$3" spec="${4:-}"
name="$(basename "$program") shard $((shard + 1))/$shards${spec:+ $spec}${PG_KERNELS:+ on the $PG_KERNELS kernels}"
fail() { echo "run_cases: $name: $*" >&2; exit 1; }
[ -x "$program" ] || fail "no program $program (was it built?)"
run() { "${emulator[@]+"${emulator[@]}"}" "$program" "$@"; }

# Catch2 2 lists names with --list-test-names-only (its exit code is the count), Catch2 3 with
# --list-tests --verbosity quiet (it refuses the older flag as an unrecognised token).
# (Only what it prints on stdout is the list: an emulator may warn on stderr.)
errors="$(mktemp)"
trap 'rm -f "$errors"' EXIT
listing="$(run --list-test-names-only ${spec:+"$spec"} 2>"$errors")"
if grep -q "Unrecognised token" "$errors" || grep -q "Unrecognised token" <<<"$listing"; then
    listing="$(run --list-tests --verbosity quiet ${spec:+"$spec"} 2>"$errors")" ||
        fail "could not list its test cases: $(cat "$errors")"
fi
all=()
while IFS= read -r line; do [ -n "$line" ] && all+=("$line"); done <<<"$listing"   # (bash 3.2 has no mapfile)
[ ${#all[@]} -gt 0 ] || fail "lists no test case${spec:+ for '$spec'}: an empty filter or an empty program runs nothing"

# Names Catch2 would read as a pattern even when escaped, or that ctest and IDEs split, are refused
# with their names; the count below catches any other way a name runs the wrong cases.
bad=()
for n in "${all[@]}"; do
    case "$n" in
        '*'*|*'*'|*';'*|'~'*|' '*|*' '|*'"'*) bad+=("\"$n\"") ;;
    esac
done
[ ${#bad[@]} -eq 0 ] || fail "rename these test cases (a leading or trailing '*', a ';' or '\"', a leading '~' or an outer space make Catch2 read a name as a pattern): ${bad[*]}"

mine=()
for i in "${!all[@]}"; do [ $((i % shards)) -eq "$shard" ] && mine+=("${all[$i]}"); done
[ ${#mine[@]} -gt 0 ] || { echo "run_cases: $name: 0 of ${#all[@]} cases fall in this shard"; exit 0; }
list="$(mktemp)"
trap 'rm -f "$list" "$errors"' EXIT
# one name a line; , [ ] and \\ would be read as a list, a tag and an escape: each gets a backslash
for n in "${mine[@]}"; do printf '%s\n' "$n" | sed -e 's/[][\\,]/\\&/g'; done >"$list"
out="$(run --input-file "$list" 2>&1)"
code=$?
printf '%s\n' "$out"
# "All tests passed (N assertions in M test cases)", or "test cases: M | P passed | F failed"
ran="$(sed -nE 's/^All tests passed \([0-9]+ assertions? in ([0-9]+) test cases?\)$/\1/p; s/^test cases: *([0-9]+) .*/\1/p' <<<"$out" | tail -1)"
[ "$code" -eq 0 ] || fail "failed (exit $code)"
[ -n "$ran" ] || fail "Catch2 never said how many cases ran"
[ "$ran" -eq ${#mine[@]} ] || fail "${#mine[@]} cases listed for this shard, $ran ran"
echo "run_cases: $name: ${#mine[@]} of ${#all[@]} cases listed, $ran ran, all passed"
