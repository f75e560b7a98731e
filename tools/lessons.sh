#!/usr/bin/env bash
# The course commands behind `./poet lesson|start|check|solution|progress N` (lessons/FORMAT.md).
# ./poet builds build/ first; PG_BUILD_DIR=/path/to/build runs these against another build directory.
# Leaves out: building the library itself (./poet does that) and editing the lessons.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${PG_BUILD_DIR:-$ROOT/build}"
LESSONS="$ROOT/lessons"
PROGRESS="$LESSONS/.progress"
JOBS="$(nproc 2>/dev/null || echo 2)"

say() { printf '\033[1m[poet]\033[0m %s\n' "$*" >&2; }
die() { printf '\033[1;31m[poet] error:\033[0m %s\n' "$*" >&2; exit 1; }

usage() {
    cat >&2 <<'USAGE'
usage: ./poet lesson N          run lesson N's experiment
       ./poet start N [--force] copy the starter to lessons/NN_name/exercise.cpp for you to edit
       ./poet check N           build and check your exercise.cpp (the starter if there is none)
       ./poet solution N        check the reference solution
       ./poet progress          your status in every lesson
N may be written 1 or 01. The course map: lessons/README.md
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
    [ -f "$BUILD/CMakeCache.txt" ] || die "no build in $BUILD; run ./poet build (or set PG_BUILD_DIR)"
    [ -d "$BUILD/lessons" ] || die "the lessons are not configured in $BUILD (configure it with -DPOETGRAD_TESTS=ON)"
}

# build_target TARGET: builds quietly; on failure prints the compiler's first error and returns 1.
build_target() {
    local log="$BUILD/lessons/$1.build.log"
    need_build
    if cmake --build "$BUILD" --target "$1" -j "$JOBS" >"$log" 2>&1; then return 0; fi
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

record() {  # record NN STATUS: one line per lesson in lessons/.progress
    local tmp
    tmp="$(mktemp)"
    { grep -v "^$1 " "$PROGRESS" 2>/dev/null; printf '%s %s %s\n' "$1" "$2" "$(date +%Y-%m-%d)"; } | sort >"$tmp"
    mv "$tmp" "$PROGRESS"
}

cmd_lesson() {
    local dir nn
    dir="$(lesson_dir "${1:-}")" || exit 1
    nn="$(basename "$dir" | cut -c1-2)"
    build_target "lesson_${nn}_experiment" || exit 1
    "$BUILD/lessons/lesson_${nn}_experiment"
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
    dir="$(lesson_dir "${1:-}")" || exit 1
    nn="$(basename "$dir" | cut -c1-2)"
    need_build
    if [ -f "$dir/exercise.cpp" ]; then
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
    "$BUILD/lessons/lesson_${nn}_exercise"
    local code=$?
    if [ $code -eq 0 ]; then record "$nn" passed; else record "$nn" failing; fi
    if [ $code -gt 128 ]; then
        say "your program crashed (signal $((code - 128))) in the check after the last one reported; signal 11 is a bad memory access, often an index past the end"
    fi
    exit $code
}

cmd_solution() {
    local dir nn
    dir="$(lesson_dir "${1:-}")" || exit 1
    nn="$(basename "$dir" | cut -c1-2)"
    build_target "lesson_${nn}_solution" || exit 1
    exec "$BUILD/lessons/lesson_${nn}_solution"
}

cmd_progress() {
    local dir nn status written=0
    printf '%-7s %-40s %s\n' lesson title status
    for dir in "$LESSONS"/[0-9][0-9]_*/; do
        dir="${dir%/}"
        [ -f "$dir/README.md" ] || continue
        nn="$(basename "$dir" | cut -c1-2)"
        status="$(awk -v n="$nn" '$1 == n { print $2 " (" $3 ")" }' "$PROGRESS" 2>/dev/null)"
        if [ -z "$status" ]; then
            if [ -f "$dir/exercise.cpp" ]; then status="started, not checked"; else status="not started"; fi
        fi
        printf '%-7s %-40s %s\n' "$nn" "$(title_of "$dir")" "$status"
        written=$((written + 1))
    done
    [ $written -lt 26 ] && printf '(%d of 26 lessons written; the rest are coming: lessons/README.md)\n' "$written"
    return 0
}

cmd="${1:-}"
[ $# -gt 0 ] && shift
case "$cmd" in
    lesson) cmd_lesson "$@" ;;
    start) cmd_start "$@" ;;
    check) cmd_check "$@" ;;
    solution) cmd_solution "$@" ;;
    progress) cmd_progress ;;
    *) usage; die "unknown lesson command '${cmd}'" ;;
esac
