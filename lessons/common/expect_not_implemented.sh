#!/usr/bin/env bash
# The test behind lesson_NN_starter: the untouched starter must run to the end and fail its checks
# with "not implemented" (exit code 1), never crash (a signal, a sanitizer report, or another code).
# usage: expect_not_implemented.sh PROGRAM
set -u
export POET_LANG=en  # the words it looks for are the English messages
out="$("$1" 2>&1)"
code=$?
printf '%s\n' "$out"
if [ "$code" -ne 1 ]; then
    echo "expect_not_implemented: $1 exited with $code; an untouched starter must exit with 1 (checks failed)" >&2
    exit 1
fi
if ! grep -q "not implemented" <<<"$out"; then
    echo "expect_not_implemented: $1 failed but never said \"not implemented\"" >&2
    exit 1
fi
echo "expect_not_implemented: ok (exit 1, says not implemented)"
