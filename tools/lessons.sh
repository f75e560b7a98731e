#!/usr/bin/env bash
# The course commands behind `./poet lesson|start|check|solution|diff|progress N` (lessons/FORMAT.md).
# ./poet builds build/ first; PG_BUILD_DIR=/path/to/build runs these against another build directory.
# Leaves out: building the library itself (./poet does that) and editing the lessons.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${PG_BUILD_DIR:-$ROOT/build}"
LESSONS="${PG_LESSONS:-$ROOT/lessons}"   # PG_LESSONS: another folder of lessons (the runner's fixture)
PROGRESS="${PG_PROGRESS:-$LESSONS/.progress}"   # PG_PROGRESS, PG_EXERCISE: for the runner's own test
JOBS="$(nproc 2>/dev/null || echo 2)"

# The learner's language: Chinese when POET_LANG (--lang zh) or, without it, LANG starts with zh.
zh() { case "${POET_LANG:-${LANG:-}}" in zh*) return 0 ;; *) return 1 ;; esac; }
t() { if zh; then printf '%s' "$2"; else printf '%s' "$1"; fi; }  # t ENGLISH CHINESE

say() { printf '\033[1m[poet]\033[0m %s\n' "$*" >&2; }
die() { printf '\033[1;31m[poet] %s\033[0m %s\n' "$(t error: 错误：)" "$*" >&2; exit 1; }

usage() {
    if zh; then cat >&2 <<'USAGE'
用法：./poet lesson N [--timeout S]   运行第 N 课的实验
      ./poet start N [--force]        把起始代码复制到 lessons/NN_name/exercise.cpp，供你编辑；
                                      --force 从起始代码重新开始（你的修改会丢失）
      ./poet check N [--timeout S]    编译并检查你的 exercise.cpp（还没有时检查起始代码）
      ./poet solution N               检查参考答案
      ./poet diff N                   对照你的 exercise.cpp 和答案（试过之后）
      ./poet progress                 每一课你最好的和最近的结果
N 可以写成 1 或 01。程序运行超过 S 秒会被停止（检查 60 秒，实验 300 秒）。
--lang zh 或 --lang en 选择语言（默认随 LANG）。课程地图：lessons/README.zh.md
USAGE
        return
    fi
    cat >&2 <<'USAGE'
usage: ./poet lesson N [--timeout S]   run lesson N's experiment
       ./poet start N [--force]        copy the starter to lessons/NN_name/exercise.cpp for you to edit;
                                       --force starts again from the starter (your edits are lost)
       ./poet check N [--timeout S]    build and check your exercise.cpp (the starter if there is none)
       ./poet solution N               check the reference solution
       ./poet diff N                   your exercise.cpp beside the solution (once you have tried)
       ./poet progress                 your best and last result in every lesson
N may be written 1 or 01. A program still running after S seconds is stopped (checks: 60 s,
experiments: 300 s). --lang zh or --lang en picks the language (LANG by default).
The course map: lessons/README.md
USAGE
}

# lesson_dir N: prints lessons/NN_name for N (1 or 01), or dies saying why there is none.
lesson_dir() {
    local n="${1:-}" nn dir name
    [ -n "$n" ] || { usage; die "$(t "which lesson? give its number, e.g. 1" "哪一课？请给出课号，例如 1")"; }
    [[ "$n" =~ ^[0-9]{1,2}$ ]] || die "$(t "'$n' is not a lesson number; write it as 1 or 01 (lessons/README.md lists them)" "'$n' 不是课号；请写成 1 或 01（lessons/README.zh.md 列出了所有课）")"
    nn="$(printf '%02d' "$((10#$n))")"
    for dir in "$LESSONS/${nn}"_*/; do
        [ -d "$dir" ] && { printf '%s\n' "${dir%/}"; return 0; }
    done
    # the course map's table rows read "| NN | name | ... |"
    name="$(awk -F'|' -v nn="$nn" '{ gsub(/ /, "", $2) } $2 == nn { gsub(/ /, "", $3); print $3; exit }' \
        "$LESSONS/README.md" 2>/dev/null)"
    [ -n "$name" ] && die "$(t "lesson $nn $name is not written yet (coming; see lessons/README.md)" "第 $nn 课 $name 还没有写好（即将推出；见 lessons/README.zh.md）")"
    die "$(t "there is no lesson $n; the course map is lessons/README.md" "没有第 $n 课；课程地图见 lessons/README.zh.md")"
}

title_of() {  # the README's first line "# Lesson 01: Attention by hand" -> "Attention by hand"
    if zh && [ -f "$1/README.zh.md" ]; then
        head -1 "$1/README.zh.md" | sed -E 's/^#+ *第 *[0-9]+ *课[:：] *//'
    else
        head -1 "$1/README.md" 2>/dev/null | sed -E 's/^#+ *Lesson [0-9]+: *//'
    fi
}

need_build() {
    [ -f "$BUILD/CMakeCache.txt" ] || die "$(t "no build in $BUILD; run ./poet build, or ./poet lesson 1 (or set PG_BUILD_DIR)" "$BUILD 里还没有构建；运行 ./poet build 或 ./poet lesson 1（或设置 PG_BUILD_DIR）")"
    [ -d "$BUILD/lessons" ] || die "$(t "the lessons are not configured in $BUILD (configure it with -DPOETGRAD_TESTS=ON)" "$BUILD 没有配置课程（用 -DPOETGRAD_TESTS=ON 配置）")"
}

# build_target TARGET: builds TARGET and what it needs, nothing else. Steps that take long (the
# library on a first build) are shown as they go; on failure prints the compiler's first error.
build_target() {
    local log="$BUILD/lessons/$1.build.log"
    need_build
    if [ ! -e "$BUILD/libpoetgrad.a" ]; then
        say "$(t "first build: the library, the lesson helpers and this lesson's program; a few minutes on 2 cores, later checks take seconds" "第一次构建：库、课程辅助代码和这一课的程序；在 2 核机器上要几分钟，之后每次检查只要几秒")"
    fi
    cmake --build "$BUILD" --target "$1" -j "$JOBS" 2>&1 | tee "$log" | awk -v b="$(t building 编译)" '
        /^\[ *[0-9]+%\] Building/ && !/exercise_entry/ { match($0, /[0-9]+%/); n = split($NF, p, "/"); printf "\033[2m  [%s] " b " %s\033[0m\n", substr($0, RSTART, RLENGTH), p[n]; fflush() }' >&2
    [ "${PIPESTATUS[0]}" -eq 0 ] && return 0
    say "$(t "$1 does not compile. The first error:" "$1 编译不通过。第一个错误：")"
    first_error "$log" >&2
    say "$(t "(full log: $log)" "（完整日志：$log）")"
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
        t "(a function check.hpp declares is missing from your file: keep every exercise:: function, even unfinished)" "（你的文件里缺少 check.hpp 声明的某个函数：保留每一个 exercise:: 函数，即使还没写完）"; echo
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
        say "$(t "stopped after ${limit} s: $(running_in "$state") was still running. An endless loop? A loop whose index never reaches its end, or a while whose condition never turns false. (--timeout S gives it longer)" "${limit} 秒后停止：$(running_in "$state") 还在运行。是死循环吗？循环变量永远到不了终点，或者 while 的条件永远不会变成 false。（--timeout S 可以给它更长时间）")"
    elif [ $code -gt 128 ]; then
        crash_report "$state" "$program" "$label" $((code - 128)) "$source"
    fi
    rm -f "$state"
    return $code
}

running_in() {  # the check named in the state file, or "the program"
    local name
    name="$(sed -n 's/^running //p' "$1" 2>/dev/null | head -1)"
    if [ -z "$name" ]; then t "the program" "程序"; elif [ "$name" = "the experiment" ]; then t "the experiment" "实验"; else t "the check \"$name\"" "检查“$name”"; fi
}

signal_words() {  # signal_words NUMBER FAULT_ADDRESS RECURSIVE
    case "$1" in
        11|7) if [ "$3" = yes ]; then t "a stack overflow: a function that calls itself without end (endless recursion)" "栈溢出：一个函数无休止地调用自己（无限递归）"
              elif [[ "$2" =~ ^0x0*[0-9a-f]{1,3}$ ]] || [ "$2" = "(nil)" ]; then t "a null pointer: memory read or written through a pointer (or reference) to nothing" "空指针：通过一个什么都不指向的指针（或引用）读写了内存"
              else t "a bad memory access: an index past the end of a vector or array, or a dangling pointer or reference" "非法内存访问：下标越过了 vector 或数组的末尾，或者指针、引用悬空"; fi ;;
        6) t "an abort: an uncaught exception outside the checks, or a failed assertion" "abort：检查之外有未捕获的异常，或者断言失败" ;;
        8) t "an arithmetic error: an integer division by zero" "算术错误：整数除以零" ;;
        4) t "an illegal instruction" "非法指令" ;;
        9) t "killed (out of memory?)" "被杀掉了（内存不够？）" ;;
        *) t "signal $1" "信号 $1" ;;
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
    say "$(t "$label crashed in $(running_in "$state"): " "$label 在$(running_in "$state")中崩溃：")$(signal_words "$sig" "$fault" "$recursive")$(t . 。)"
    if [ -n "$where" ]; then say "$(t "  at " "  位置：")$where"; else say "$(t "  (no line of a lesson file on the crashing stack)" "  （崩溃时的调用栈上没有课程文件的行）")"; fi
}

# parse_timeout DEFAULT ARGS...: sets N (the lesson number) and LIMIT (seconds) from N [--timeout S]
parse_timeout() {
    LIMIT="$1"; shift; N=""
    while [ $# -gt 0 ]; do
        case "$1" in
            --timeout) [[ "${2:-}" =~ ^[0-9]+$ ]] && [ "$2" -gt 0 ] || die "$(t "--timeout needs a number of seconds, e.g. --timeout 120" "--timeout 需要一个秒数，例如 --timeout 120")"; LIMIT="$2"; shift 2 ;;
            --timeout=*) LIMIT="${1#--timeout=}"; [[ "$LIMIT" =~ ^[0-9]+$ ]] && [ "$LIMIT" -gt 0 ] || die "$(t "--timeout needs a number of seconds" "--timeout 需要一个秒数")"; shift ;;
            -*) die "$(t "unknown option $1 (./poet help)" "未知选项 $1（./poet help）")" ;;
            *) [ -z "$N" ] || die "$(t "one lesson at a time" "一次一课")"; N="$1"; shift ;;
        esac
    done
}

cmd_lesson() {
    local dir nn
    parse_timeout 300 "$@"
    dir="$(lesson_dir "$N")" || exit 1
    nn="$(basename "$dir" | cut -c1-2)"
    build_target "lesson_${nn}_experiment" || exit 1
    run_limited "$LIMIT" "$(t "lesson $nn's experiment" "第 $nn 课的实验")" "$BUILD/lessons/lesson_${nn}_experiment"
    local code=$?
    say "$(t "read along: lessons/$(basename "$dir")/README.md; the exercise: ./poet start $((10#$nn))" "对照阅读：lessons/$(basename "$dir")/README.zh.md；练习：./poet start $((10#$nn))")"
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
        die "$(t "$rel already exists; ./poet start $n --force replaces it with the starter (your edits are lost)" "$rel 已经存在；./poet start $n --force 会用起始代码替换它（你的修改会丢失）")"
    fi
    cp "$dir/starter.cpp" "$dir/exercise.cpp" || die "$(t "could not write $rel" "无法写入 $rel")"
    say "$(t "wrote $rel: edit it, then ./poet check $n (lessons/$(basename "$dir")/README.md explains the exercise)" "已写入 $rel：编辑它，然后运行 ./poet check $n（lessons/$(basename "$dir")/README.zh.md 讲解了这个练习）")"
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
        say "$(t "no lessons/$(basename "$dir")/exercise.cpp yet: checking the untouched starter (./poet start $((10#$nn)) makes your copy)" "还没有 lessons/$(basename "$dir")/exercise.cpp：检查未改动的起始代码（./poet start $((10#$nn)) 会为你复制一份）")"
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
    run_limited "$LIMIT" "$(t "your program" "你的程序")" "$BUILD/lessons/lesson_${nn}_exercise" "$src"
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

word() { case "$1" in passed) t passed 通过 ;; failing) t failing 未通过 ;; *) printf '%s' "$1" ;; esac; }

cmd_progress() {
    local dir nn status written=0 best last day
    printf '%s %s %s\n' "$(pad "$(t lesson 课)" 7)" "$(pad "$(t title 标题)" 50)" "$(t status 状态)"
    for dir in "$LESSONS"/[0-9][0-9]_*/; do
        dir="${dir%/}"
        [ -f "$dir/README.md" ] || continue
        nn="$(basename "$dir" | cut -c1-2)"
        read -r best last day < <(awk -v n="$nn" '$1 == n { if (NF == 3) print $2, $2, $3; else print $2, $3, $4 }' "$PROGRESS" 2>/dev/null)
        if [ -n "${best:-}" ]; then
            status="$(t "best: $(word "$best"), last: $(word "$last") ($day)" "最好：$(word "$best")，最近：$(word "$last")（$day）")"
        elif [ -f "$dir/exercise.cpp" ]; then status="$(t "started, not checked" "已开始，未检查")"
        else status="$(t "not started" "未开始")"; fi
        printf '%s %s %s\n' "$(pad "$nn" 7)" "$(pad "$(title_of "$dir")" 50)" "$status"
        best=""
        written=$((written + 1))
    done
    [ $written -lt 26 ] && t "($written of 26 lessons written; the rest are coming: lessons/README.md)" "（26 课已写好 $written 课；其余即将推出：lessons/README.zh.md）" && echo
    return 0
}

cmd_diff() {
    local dir nn rel
    dir="$(lesson_dir "${1:-}")" || exit 1
    nn="$(basename "$dir" | cut -c1-2)"
    rel="lessons/$(basename "$dir")"
    [ -f "$dir/exercise.cpp" ] || die "$(t "no $rel/exercise.cpp yet: ./poet start $((10#$nn)) makes it" "还没有 $rel/exercise.cpp：./poet start $((10#$nn)) 会创建它")"
    grep -q "^$nn " "$PROGRESS" 2>/dev/null || die "$(t "try it first: ./poet check $((10#$nn)); the solution is there once you have" "先试一试：./poet check $((10#$nn))；试过之后就能看答案")"
    say "$(t "your $rel/exercise.cpp (+) against the solution (-):" "你的 $rel/exercise.cpp（+）对照答案（-）：")"
    diff -u --label "solution.cpp" --label "exercise.cpp" "$dir/solution.cpp" "$dir/exercise.cpp" \
        $( [ -t 1 ] && diff --color=auto /dev/null /dev/null 2>/dev/null && echo --color=always )
    [ $? -le 1 ]
}

# --lang zh|en anywhere on the line sets the language for this command and the programs it runs
args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --lang) [ $# -ge 2 ] || die "--lang needs zh or en"; export POET_LANG="$2"; shift 2 ;;
        --lang=*) export POET_LANG="${1#--lang=}"; shift ;;
        *) args+=("$1"); shift ;;
    esac
done
case "${POET_LANG:-}" in ""|zh*|en*) ;; *) die "--lang takes zh or en, not '$POET_LANG'" ;; esac
set -- "${args[@]+"${args[@]}"}"
cmd="${1:-}"
[ $# -gt 0 ] && shift
case "$cmd" in
    lesson) cmd_lesson "$@" ;;
    start) cmd_start "$@" ;;
    check) cmd_check "$@" ;;
    solution) cmd_solution "$@" ;;
    progress) cmd_progress ;;
    diff) cmd_diff "$@" ;;
    *) usage; die "$(t "unknown lesson command '${cmd}'" "未知的课程命令 '${cmd}'")" ;;
esac
