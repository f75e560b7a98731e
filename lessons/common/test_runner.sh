#!/usr/bin/env bash
# The test behind lessons_runner: `./poet check` on programs that crash, hang, overstep the
# language's rules or call the library's version must end within its time limit and say, in one
# paragraph, which check was running, what happened in words and the learner's file and line
# (a crash, undefined behaviour that the sanitizers find: a use after free, a signed overflow, a null
# pointer); an exception names the side that threw it (the learner's code or the check) and its
# line; a call of a function the lesson's forbidden.txt lists fails a check that names it; Chinese
# under LANG=zh_CN.UTF-8 or POET_LANG=zh. The programs are the answers of the runner's own fixture
# lesson, runner_tests/00_runner (PG_LESSONS points the course commands there), so no real lesson,
# learner's exercise.cpp or progress is touched.
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
    if grep -qE 'Segmentation fault|Aborted|line [0-9]+:|runtime error|AddressSanitizer' <<<"$out"; then
        printf '%s\n' "$out"; echo "test_runner: $file: the shell's or the sanitizer's own report is shown"; status=1; return
    fi
    echo "test_runner: ok: $file"
}

F=lessons/common/runner_tests/00_runner
# Each file's Chinese report right after its English one: the program is built once for both.
# An endless loop is stopped after 2 s (the first check starts within milliseconds).
expect null_pointer.cpp 60 'in the check "' 'a null pointer' "$F/null_pointer.cpp:6" 'exercise::doubled'
expect endless_recursion.cpp 60 'crashed in the check "' 'endless recursion' "$F/endless_recursion.cpp:" 'in depth('
expect endless_loop.cpp 2 'stopped after 2 s: the check "' 'An endless loop?'
POET_LANG=zh expect endless_loop.cpp 2 '检查' '死循环'
expect endless_pure_loop.cpp 2 'stopped after 2 s: the check "' 'An endless loop?'
expect throws_in_exercise.cpp 60 "thrown by your code, at $F/throws_in_exercise.cpp:6" 'exercise::doubled' 'look at that line'
expect check_side.cpp 60 "thrown by the check itself, at $F/checks.cpp:11" 'could not read what your code returned'
LANG=zh_CN.UTF-8 expect check_side.cpp 60 '抛出错误的是检查本身' '失败' '未通过'
expect calls_library.cpp 60 'FAIL  your own code, not the library' 'it calls pg::mul(pg::Tensor const&, pg::Tensor const&)' \
       'build 2w from an addition' 'NOT YET'
POET_LANG=zh expect calls_library.cpp 60 '你自己的代码，不是库里现成的' '你调用了库里现成的版本；用加法得到 2w：w + w'
# undefined behaviour, named where the compiler has the sanitizers (else said to be unnameable, once)
if grep -q '^sanitizers address' "$BUILD/lessons/exercise_build.txt"; then
    expect use_after_free.cpp 60 'stopped in the check "' 'a use after free' "$F/use_after_free.cpp:10" 'exercise::doubled'
    POET_LANG=zh expect use_after_free.cpp 60 '检查' '释放后使用' "位置：$F/use_after_free.cpp:10"
    expect signed_overflow.cpp 60 'stopped in the check "' 'a signed integer overflow' "$F/signed_overflow.cpp:6"
else
    rm -f "$BUILD/lessons/.sanitizer_note_shown"
    expect use_after_free.cpp 60 'cannot be named here'
fi
grep -q '^00 failing failing ' "$progress" || { cat "$progress"; echo "test_runner: the failures were not recorded"; status=1; }
exit $status
