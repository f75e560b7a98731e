#!/usr/bin/env bash
# The test behind run_cases_selftest: run_cases.sh must fail, naming the reason, when a program
# lists a name Catch2 reads as a pattern, lists nothing for its filter, or runs fewer cases than it
# listed; and pass a program that runs what it lists. The programs are small stand-ins that answer
# Catch2 2's command line (the real one, pg_tests, runs through run_cases.sh in every build).
# usage: run_cases_selftest.sh
set -u
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
status=0

# fake NAME... : prints the path of a program that lists NAME... and runs them all but DROP
fake() {
    local file="$work/prog$#${DROP:-0}" names
    names="$(printf '%s\n' "$@")"
    cat >"$file" <<EOF
#!/usr/bin/env bash
case "\$1" in
    --list-test-names-only) printf '%s\n' "$names"; exit ${#} ;;
    --input-file) n=\$(grep -c . "\$2"); ran=\$((n - ${DROP:-0})); echo "All tests passed (\$((ran * 2)) assertions in \$ran test cases)"; exit 0 ;;
esac
exit 3
EOF
    chmod +x "$file"
    printf '%s\n' "$file"
}

expect() {  # expect pass|fail WORDS PROGRAM
    local want="$1" words="$2" program="$3" out code
    out="$(bash "$here/run_cases.sh" "$program" 0 1 2>&1)"
    code=$?
    if { [ "$want" = pass ] && [ $code -ne 0 ]; } || { [ "$want" = fail ] && [ $code -eq 0 ]; } || ! grep -qF -- "$words" <<<"$out"; then
        printf '%s\n' "$out"
        echo "run_cases_selftest: expected $want saying \"$words\""
        status=1
    else
        echo "run_cases_selftest: ok: $want, \"$words\""
    fi
}

expect pass "2 of 2 cases listed, 2 ran" "$(fake "a plain name" "commas, and [brackets] are escaped")"
expect fail "rename these test cases" "$(fake "a plain name" "*a wildcard")"
expect fail "rename these test cases" "$(fake "~an exclusion")"
expect fail "lists no test case" "$(fake)"
expect fail "3 cases listed for this shard, 2 ran" "$(DROP=1 fake one two three)"
expect fail "no program" "$work/missing"
exit $status
