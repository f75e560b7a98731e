#!/usr/bin/env bash
# The test behind lesson_NN_mistake_M: a planted learner's mistake (lesson_NN_mistakes run with
# PG_MISTAKE=M) must fail the checks (exit 1, not "not implemented", not a crash) and print the hint
# that names it: the words after "=>" on the file's line "// mistake M: what it does => hint words".
# With SAVE, the output is kept in SAVE.en, and the run again in Chinese in SAVE.zh (it must fail the
# same way): the READMEs' quoted hints are held to them (check_language.py hints).
# usage: expect_mistake_caught.sh PROGRAM MISTAKES.cpp M [SAVE]
set -u
export POET_LANG=en  # the words it looks for are the English messages
program="$1" file="$2" m="$3" save="${4:-}"
hint="$(sed -nE "s|^// mistake $m: .* => (.+)$|\1|p" "$file" | head -1)"
fail() { echo "expect_mistake_caught: mistake $m of $file: $1" >&2; exit 1; }
[ -n "$hint" ] || fail "no line '// mistake $m: what => hint words'"
grep -qE "mistake\\($m\\)" "$file" || fail "no line of the file asks for mistake($m): it would run as the correct answer"
out="$(PG_MISTAKE="$m" "$program" 2>&1)"
code=$?
printf '%s\n' "$out"
[ "$code" -eq 0 ] && fail "it passed every check: a check must catch it"
[ "$code" -ne 1 ] && fail "it exited with $code; a caught mistake fails its checks with exit 1, never a crash"
grep -q "not implemented" <<<"$out" && fail "it says \"not implemented\": a mistake file defines every function"
grep -qF -- "$hint" <<<"$out" || fail "no message says \"$hint\": the failing check must name this mistake"
if [ -n "$save" ]; then
    mkdir -p "$(dirname "$save")"
    printf '%s\n' "$out" >"$save.en"
    zh="$(PG_MISTAKE="$m" POET_LANG=zh "$program" 2>&1)"
    code=$?
    printf '%s\n' "$zh" >"$save.zh"
    [ "$code" -eq 1 ] || fail "in Chinese (POET_LANG=zh) it exited with $code, not 1"
fi
echo "expect_mistake_caught: ok (fails, and says \"$hint\")"
