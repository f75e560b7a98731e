#!/usr/bin/env bash
# The test behind lessons_runner: `./poet check` on programs that crash or hang must end within its
# time limit and say, in one paragraph, which check was running, what happened in words and (for a
# crash) the learner's file and line; an exception names the side that threw it (the learner's code
# or the check) and its line; LANG=zh_CN.UTF-8 gives the messages in Chinese. Uses lessons 02, 03
# and the planted files in runner_tests/,
# through PG_EXERCISE, so no learner's exercise.cpp or progress is touched.
# usage: test_runner.sh BUILD_DIR
set -u
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BUILD="$1"
progress="$(mktemp)"
trap 'rm -f "$progress"' EXIT
status=0

expect() {  # expect [LESSON] FILE TIMEOUT WORDS...: ./poet check LESSON (3) on FILE prints every one of WORDS
    local lesson=3 file limit out word
    if [[ "$1" =~ ^[0-9]+$ ]]; then lesson="$1"; shift; fi
    file="$1" limit="$2"
    shift 2
    out="$(PG_BUILD_DIR="$BUILD" PG_EXERCISE="$ROOT/lessons/common/runner_tests/$file" PG_PROGRESS="$progress" \
           bash "$ROOT/tools/lessons.sh" check "$lesson" --timeout "$limit" 2>&1)"
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

expect null_pointer.cpp 60 'crashed in the check "' 'a null pointer' 'runner_tests/null_pointer.cpp:6' 'exercise::matmul_shape'
expect endless_recursion.cpp 60 'crashed in the check "' 'endless recursion' 'runner_tests/endless_recursion.cpp:' 'in depth('
expect endless_loop.cpp 3 'stopped after 3 s: the check "' 'An endless loop?'
expect 2 throws_in_exercise.cpp 60 'thrown by your code, at lessons/common/runner_tests/throws_in_exercise.cpp:7' \
    'exercise::stable_softmax' 'look at that line'
expect check_side/exercise.cpp 60 'thrown by the check itself, at lessons/common/runner_tests/check_side/check.hpp:17' \
    'could not read what your code returned'
LANG=zh_CN.UTF-8 expect check_side/exercise.cpp 60 '抛出错误的是检查本身' '失败' '未通过'
POET_LANG=zh expect endless_loop.cpp 3 '检查' '死循环'
grep -q '^03 failing failing ' "$progress" || { cat "$progress"; echo "test_runner: the failures were not recorded"; status=1; }
# the lesson's own exercise program is left as the learner had it: the starter or exercise.cpp
exit $status
