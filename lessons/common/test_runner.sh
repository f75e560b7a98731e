#!/usr/bin/env bash
# The test behind lessons_runner: `./poet check` on programs that crash or hang must end within its
# time limit and say, in one paragraph, which check was running, what happened in words and (for a
# crash) the learner's file and line; an exception names the side that threw it (the learner's code
# or the check) and its line; LANG=zh_CN.UTF-8 gives the messages in Chinese. The programs are the
# answers of the runner's own fixture lesson, runner_tests/00_runner (PG_LESSONS points the course
# commands there), so no real lesson, learner's exercise.cpp or progress is touched.
# usage: test_runner.sh BUILD_DIR
set -u
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BUILD="$1"
FIXTURES="$ROOT/lessons/common/runner_tests"
progress="$(mktemp)"
trap 'rm -f "$progress"' EXIT
status=0

expect() {  # expect FILE TIMEOUT WORDS...: ./poet check 0 on 00_runner/FILE prints every one of WORDS
    local file="$1" limit="$2" out word
    shift 2
    out="$(PG_BUILD_DIR="$BUILD" PG_LESSONS="$FIXTURES" PG_EXERCISE="$FIXTURES/00_runner/$file" PG_PROGRESS="$progress" \
           bash "$ROOT/tools/lessons.sh" check 0 --timeout "$limit" 2>&1)"
    for word in "$@"; do
        if ! grep -qF -- "$word" <<<"$out"; then
            printf '%s\n' "$out"
            echo "test_runner: $file: the report never says \"$word\""
            status=1
            return
        fi
    done
    if grep -q "Segmentation fault\|Aborted\|line [0-9]*:" <<<"$out"; then
        printf '%s\n' "$out"; echo "test_runner: $file: the shell's own crash noise is shown"; status=1; return
    fi
    echo "test_runner: ok: $file"
}

F=lessons/common/runner_tests/00_runner
expect null_pointer.cpp 60 'crashed in the check "' 'a null pointer' "$F/null_pointer.cpp:6" 'exercise::doubled'
expect endless_recursion.cpp 60 'crashed in the check "' 'endless recursion' "$F/endless_recursion.cpp:" 'in depth('
expect endless_loop.cpp 3 'stopped after 3 s: the check "' 'An endless loop?'
expect throws_in_exercise.cpp 60 "thrown by your code, at $F/throws_in_exercise.cpp:6" 'exercise::doubled' 'look at that line'
expect check_side.cpp 60 "thrown by the check itself, at $F/checks.cpp:11" 'could not read what your code returned'
LANG=zh_CN.UTF-8 expect check_side.cpp 60 '抛出错误的是检查本身' '失败' '未通过'
POET_LANG=zh expect endless_loop.cpp 3 '检查' '死循环'
grep -q '^00 failing failing ' "$progress" || { cat "$progress"; echo "test_runner: the failures were not recorded"; status=1; }
exit $status
