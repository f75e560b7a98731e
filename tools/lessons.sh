#!/usr/bin/env bash
# The course commands behind `./poet lesson|start|check|solution|diff|progress N` (lessons/FORMAT.md).
# ./poet builds build/ first; PG_BUILD_DIR=/path/to/build runs these against another build directory.
# Leaves out: building the library itself (./poet does that) and editing the lessons.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${PG_BUILD_DIR:-$ROOT/build}"
LESSONS="$ROOT/lessons"
PROGRESS="${PG_PROGRESS:-$LESSONS/.progress}"   # PG_PROGRESS, PG_EXERCISE: for the runner's own test
JOBS="$(nproc 2>/dev/null || echo 2)"

say() { printf '\033[1m[poet]\033[0m %s\n' "$*" >&2; }
die() { printf '\033[1;31m[poet] error:\033[0m %s\n' "$*" >&2; exit 1; }

usage() {
    cat >&2 <<'USAGE'
usage: ./poet lesson N [--timeout S]   run lesson N's experiment
       ./poet start N [--force]        copy the starter to lessons/NN_name/exercise.cpp for you to edit;
                                       --force starts again from the starter (your edits are lost)
       ./poet check N [--timeout S]    build and check your exercise.cpp (the starter if there is none)
       ./poet solution N               check the reference solution
       ./poet diff N                   your exercise.cpp beside the solution (once you have tried)
       ./poet progress                 your best and last result in every lesson
N may be written 1 or 01. A program still running after S seconds is stopped (checks: 60 s,
experiments: 300 s). The course map: lessons/README.md
USAGE
}

# lesson_dir N: prints lessons/NN_name for N (1 or 01), or dies saying why there is none.
lesson_dir() {
    local n="${1:-}" nn dir name
    [ -n "$n" ] || { usage; die "which lesson? give its number, e.g. 1"; }
    [[ "$n" =~ ^[0-9]{1,2}$ ]] || die "'$n' is not a lesson number; write it as 1 or 01 (lessons/README.md lists them)"
    nn="$(printf '%02d' "$((10#$n))")"
    for dir in "$LESSONS/${nn}"_*/; do
        [ -d "$dir" ] && { printf '%s\n' "${dir%/}"; return 0; }
    done
    # the course map's table rows read "| NN | name | ... |"
    name="$(awk -F'|' -v nn="$nn" '{ gsub(/ /, "", $2) } $2 == nn { gsub(/ /, "", $3); print $3; exit }' \
        "$LESSONS/README.md" 2>/dev/null)"
    [ -n "$name" ] && die "lesson $nn $name is not written yet (coming; see lessons/README.md)"
    die "there is no lesson $n; the course map is lessons/README.md"
}

title_of() {  # the README's first line "# Lesson 01: Attention by hand" -> "Attention by hand"
    head -1 "$1/README.md" 2>/dev/null | sed -E 's/^#+ *Lesson [0-9]+: *//'
}

need_build() {
    [ -f "$BUILD/CMakeCache.txt" ] || die "no build in $BUILD; run ./poet build, or ./poet lesson 1 (or set PG_BUILD_DIR)"
    [ -d "$BUILD/lessons" ] || die "the lessons are not configured in $BUILD (configure it with -DPOETGRAD_TESTS=ON)"
}

# build_target TARGET: builds TARGET and what it needs, nothing else. Steps that take long (the
# library on a first build) are shown as they go; on failure prints the compiler's first error.
build_target() {
    local log="$BUILD/lessons/$1.build.log"
    need_build
    if [ ! -e "$BUILD/libpoetgrad.a" ]; then
        say "first build: the library, the lesson helpers and this lesson's program; a few minutes on 2 cores, later checks take seconds"
    fi
    cmake --build "$BUILD" --target "$1" -j "$JOBS" 2>&1 | tee "$log" | awk '
        /^\[ *[0-9]+%\] Building/ && !/exercise_entry/ { n = split($NF, p, "/"); printf "\033[2m  [%s] building %s\033[0m\n", substr($1, 2) substr($2, 1, length($2) - 1), p[n]; fflush() }' >&2
    [ "${PIPESTATUS[0]}" -eq 0 ] && return 0
    say "$1 does not compile. The first error:"
    first_error "$log" >&2
    say "(full log: $log)"
    return 1
}

# The first compiler or linker error with its file:line and the source lines GCC shows under it.
first_error() {
    awk -v root="$ROOT/" '
        !found && (/error:/ || /undefined reference/) {
            found = 1
            while ((i = index($0, root)) > 0) $0 = substr($0, 1, i - 1) substr($0, i + length(root))
            print; next
        }
        found && /^ +[0-9]* *\|/ { print; next }
        found { exit }
    ' "$1"
    grep -qE 'error:|undefined reference' "$1" || tail -20 "$1"
    if grep -q 'undefined reference to .exercise::' "$1"; then
        echo "(a function check.hpp declares is missing from your file: keep every exercise:: function, even unfinished)"
    fi
}

# lessons/.progress holds a line per lesson: "NN BEST LAST DATE", BEST and LAST each passed or
# failing; a lesson passed once stays passed at its best.
record() {  # record NN STATUS
    local tmp best
    best="$(awk -v n="$1" '$1 == n { print $2 }' "$PROGRESS" 2>/dev/null)"
    [ "$best" = passed ] || best="$2"
    tmp="$(mktemp)"
    { grep -v "^$1 " "$PROGRESS" 2>/dev/null; printf '%s %s %s %s\n' "$1" "$best" "$2" "$(date +%Y-%m-%d)"; } | sort >"$tmp"
    mv "$tmp" "$PROGRESS"
}

# run_limited SECONDS LABEL PROGRAM [SOURCE]: runs PROGRAM, stops it after SECONDS, and turns a
# time-out or a crash into one paragraph naming the check that was running (lesson.cpp writes it to
# PG_CHECK_STATE), the signal in words and, when it can be found, the line of SOURCE (or of a
# lesson file) it crashed in.
run_limited() {
    local limit="$1" label="$2" program="$3" source="${4:-}" state code
    state="$(mktemp)"
    # (the program's stderr goes to fd 3; the shell's own "Segmentation fault" line to /dev/null)
    { PG_CHECK_STATE="$state" timeout --foreground -k 5 "$limit" "$program" 2>&3 3>&-; } 3>&2 2>/dev/null
    code=$?
    if [ $code -eq 124 ] || [ $code -eq 137 ]; then
        say "stopped after ${limit} s: $(running_in "$state") was still running. An endless loop? A loop whose index never reaches its end, or a while whose condition never turns false. (--timeout S gives it longer)"
    elif [ $code -gt 128 ]; then
        crash_report "$state" "$program" "$label" $((code - 128)) "$source"
    fi
    rm -f "$state"
    return $code
}

running_in() {  # the check named in the state file, or "the program"
    local name
    name="$(sed -n 's/^running //p' "$1" 2>/dev/null | head -1)"
    if [ -z "$name" ]; then echo "the program"; elif [ "$name" = "the experiment" ]; then echo "the experiment"; else echo "the check \"$name\""; fi
}

signal_words() {  # signal_words NUMBER FAULT_ADDRESS RECURSIVE
    case "$1" in
        11|7) if [ "$3" = yes ]; then echo "a stack overflow: a function that calls itself without end (endless recursion)"
              elif [[ "$2" =~ ^0x0*[0-9a-f]{1,3}$ ]] || [ "$2" = "(nil)" ]; then echo "a null pointer: memory read or written through a pointer (or reference) to nothing"
              else echo "a bad memory access: an index past the end of a vector or array, or a dangling pointer or reference"; fi ;;
        6) echo "an abort: an uncaught exception outside the checks, or a failed assertion" ;;
        8) echo "an arithmetic error: an integer division by zero" ;;
        4) echo "an illegal instruction" ;;
        9) echo "killed (out of memory?)" ;;
        *) echo "signal $1" ;;
    esac
}

crash_report() {  # crash_report STATE PROGRAM LABEL SIGNAL [SOURCE]
    local state="$1" program="$2" label="$3" sig="$4" source="${5:-}" fault recursive=no where=""
    fault="$(sed -n 's/^fault //p' "$state" | head -1)"
    # the same return address many times over: recursion that overflowed the stack
    if [ "$(awk '$1 == "frame" { print $2 }' "$state" | sort | uniq -c | sort -rn | awk 'NR == 1 { print $1 }')" -gt 8 ] 2>/dev/null; then
        recursive=yes
    fi
    # the first frame in the program itself whose line lies in SOURCE or a lesson folder (not the
    # shared helpers)
    local offsets
    offsets="$(awk -v p="$program" '$1 == "frame" && $3 == p { print "0x" $2 }' "$state")"
    if [ -n "$offsets" ] && command -v addr2line >/dev/null; then
        # -a prints each address, then (function, file:line) pairs, innermost inlined call first
        where="$(addr2line -a -C -f -i -e "$program" $offsets 2>/dev/null |
                 awk -v root="$ROOT/" -v src="$source" '
                     /^0x[0-9a-f]+$/ { odd = 1; next }
                     odd { fn = $0; odd = 0; next }
                     { odd = 1; f = $1
                       if ((src != "" && index(f, src) == 1) || f ~ "/lessons/[0-9][0-9]_") {
                           sub(root, "", f); print f "  (in " fn ")"; exit } }')"
    fi
    say "$label crashed in $(running_in "$state"): $(signal_words "$sig" "$fault" "$recursive")."
    if [ -n "$where" ]; then say "  at $where"; else say "  (no line of a lesson file on the crashing stack)"; fi
}

# parse_timeout DEFAULT ARGS...: sets N (the lesson number) and LIMIT (seconds) from N [--timeout S]
parse_timeout() {
    LIMIT="$1"; shift; N=""
    while [ $# -gt 0 ]; do
        case "$1" in
            --timeout) [[ "${2:-}" =~ ^[0-9]+$ ]] && [ "$2" -gt 0 ] || die "--timeout needs a number of seconds, e.g. --timeout 120"; LIMIT="$2"; shift 2 ;;
            --timeout=*) LIMIT="${1#--timeout=}"; [[ "$LIMIT" =~ ^[0-9]+$ ]] && [ "$LIMIT" -gt 0 ] || die "--timeout needs a number of seconds"; shift ;;
            -*) die "unknown option $1 (./poet help)" ;;
            *) [ -z "$N" ] || die "one lesson at a time"; N="$1"; shift ;;
        esac
    done
}

cmd_lesson() {
    local dir nn
    parse_timeout 300 "$@"
    dir="$(lesson_dir "$N")" || exit 1
    nn="$(basename "$dir" | cut -c1-2)"
    build_target "lesson_${nn}_experiment" || exit 1
    run_limited "$LIMIT" "lesson $nn's experiment" "$BUILD/lessons/lesson_${nn}_experiment"
    local code=$?
    say "read along: lessons/$(basename "$dir")/README.md; the exercise: ./poet start $((10#$nn))"
    exit $code
}

cmd_start() {
    local n="" force=0 arg dir
    for arg in "$@"; do
        case "$arg" in --force) force=1 ;; *) n="$arg" ;; esac
    done
    dir="$(lesson_dir "$n")" || exit 1
    local rel="lessons/$(basename "$dir")/exercise.cpp"
    if [ -e "$dir/exercise.cpp" ] && [ $force -eq 0 ]; then
        die "$rel already exists; ./poet start $n --force replaces it with the starter (your edits are lost)"
    fi
    cp "$dir/starter.cpp" "$dir/exercise.cpp" || die "could not write $rel"
    say "wrote $rel: edit it, then ./poet check $n (lessons/$(basename "$dir")/README.md explains the exercise)"
}

cmd_check() {
    local dir nn src entry
    parse_timeout 60 "$@"
    dir="$(lesson_dir "$N")" || exit 1
    nn="$(basename "$dir" | cut -c1-2)"
    need_build
    if [ -n "${PG_EXERCISE:-}" ]; then
        src="$PG_EXERCISE"
    elif [ -f "$dir/exercise.cpp" ]; then
        src="$dir/exercise.cpp"
    else
        src="$dir/starter.cpp"
        say "no lessons/$(basename "$dir")/exercise.cpp yet: checking the untouched starter (./poet start $((10#$nn)) makes your copy)"
    fi
    # lesson_NN_exercise compiles this one-line file; rewrite it only when the source changes
    entry="$BUILD/lessons/exercise_entry/lesson_${nn}.cpp"
    mkdir -p "$(dirname "$entry")"
    local line="#include \"$src\""
    [ "$(cat "$entry" 2>/dev/null)" = "$line" ] || printf '%s\n' "$line" >"$entry"
    if ! build_target "lesson_${nn}_exercise"; then
        record "$nn" failing
        exit 1
    fi
    run_limited "$LIMIT" "your program" "$BUILD/lessons/lesson_${nn}_exercise" "$src"
    local code=$?
    if [ $code -eq 0 ]; then record "$nn" passed; else record "$nn" failing; fi
    exit $code
}

cmd_solution() {
    local dir nn
    dir="$(lesson_dir "${1:-}")" || exit 1
    nn="$(basename "$dir" | cut -c1-2)"
    build_target "lesson_${nn}_solution" || exit 1
    exec "$BUILD/lessons/lesson_${nn}_solution"
}

# pad TEXT WIDTH: TEXT and spaces up to WIDTH columns on screen (a Chinese character takes two)
pad() {
    local w
    w="$(printf '%s' "$1" | wc -L)"
    printf '%s%*s' "$1" $(($2 > w ? $2 - w : 0)) ""
}

cmd_progress() {
    local dir nn status written=0 best last day
    printf '%s %s %s\n' "$(pad lesson 7)" "$(pad title 50)" "status"
    for dir in "$LESSONS"/[0-9][0-9]_*/; do
        dir="${dir%/}"
        [ -f "$dir/README.md" ] || continue
        nn="$(basename "$dir" | cut -c1-2)"
        read -r best last day < <(awk -v n="$nn" '$1 == n { if (NF == 3) print $2, $2, $3; else print $2, $3, $4 }' "$PROGRESS" 2>/dev/null)
        if [ -n "${best:-}" ]; then
            status="best: $best, last: $last ($day)"
        elif [ -f "$dir/exercise.cpp" ]; then status="started, not checked"
        else status="not started"; fi
        printf '%s %s %s\n' "$(pad "$nn" 7)" "$(pad "$(title_of "$dir")" 50)" "$status"
        best=""
        written=$((written + 1))
    done
    [ $written -lt 26 ] && printf '(%d of 26 lessons written; the rest are coming: lessons/README.md)\n' "$written"
    return 0
}

cmd_diff() {
    local dir nn rel
    dir="$(lesson_dir "${1:-}")" || exit 1
    nn="$(basename "$dir" | cut -c1-2)"
    rel="lessons/$(basename "$dir")"
    [ -f "$dir/exercise.cpp" ] || die "no $rel/exercise.cpp yet: ./poet start $((10#$nn)) makes it"
    grep -q "^$nn " "$PROGRESS" 2>/dev/null || die "try it first: ./poet check $((10#$nn)); the solution is there once you have"
    say "your $rel/exercise.cpp (+) against the solution (-):"
    diff -u --label "solution.cpp" --label "exercise.cpp" "$dir/solution.cpp" "$dir/exercise.cpp" \
        $( [ -t 1 ] && diff --color=auto /dev/null /dev/null 2>/dev/null && echo --color=always )
    [ $? -le 1 ]
}

cmd="${1:-}"
[ $# -gt 0 ] && shift
case "$cmd" in
    lesson) cmd_lesson "$@" ;;
    start) cmd_start "$@" ;;
    check) cmd_check "$@" ;;
    solution) cmd_solution "$@" ;;
    progress) cmd_progress ;;
    diff) cmd_diff "$@" ;;
    *) usage; die "unknown lesson command '${cmd}'" ;;
esac
