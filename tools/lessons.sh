#!/usr/bin/env bash
# The course commands behind `./poet lesson|start|check|solution|diff|progress N` (lessons/FORMAT.md).
# ./poet builds build/ first; PG_BUILD_DIR=/path/to/build runs these against another build directory.
# Leaves out: building the library itself (./poet does that) and editing the lessons.
# Portable: bash 3.2 (macOS's) and BSD sed, grep and awk as well as GNU's; no GNU timeout needed.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${PG_BUILD_DIR:-$ROOT/build}"
[ -d "$BUILD" ] && BUILD="$(cd "$BUILD" && pwd)"   # absolute: reports name the program by its full path
LESSONS="${PG_LESSONS:-$ROOT/lessons}"   # PG_LESSONS: another folder of lessons (the runner's fixture)
PROGRESS="${PG_PROGRESS:-$LESSONS/.progress}"   # PG_PROGRESS, PG_EXERCISE: for the runner's own test
JOBS="$(nproc 2>/dev/null || sysctl -n hw.ncpu 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)"
COMMON="$ROOT/lessons/common"

# The learner's language, decided here only: Chinese when POET_LANG (--lang zh) or, without it,
# LANG starts with zh. The programs are told (POET_LANG=zh or en, exported below); lesson.cpp reads that.
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
--lang zh 或 --lang en 选择语言（默认随 LANG）。实验把图画在 build/pictures 里；
维护者在仓库根目录运行 POET_PICTURES=. ./poet lesson N，重画课程文件夹里的图。
课程地图：lessons/README.zh.md
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
An experiment draws its pictures in build/pictures; a maintainer redraws the lesson folder's own
with POET_PICTURES=. ./poet lesson N from the repository root.
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
        head -1 "$1/README.zh.md" | sed -E 's/^#+ *第 *[0-9]+ *课(:|：) *//'   # (：is 3 bytes: no [...])
    else
        head -1 "$1/README.md" 2>/dev/null | sed -E 's/^#+ *Lesson [0-9]+: *//'
    fi
}

need_build() {
    [ -f "$BUILD/CMakeCache.txt" ] || die "$(t "no build in $BUILD; run ./poet build, or ./poet lesson 1 (or set PG_BUILD_DIR)" "$BUILD 里还没有构建；运行 ./poet build 或 ./poet lesson 1（或设置 PG_BUILD_DIR）")"
    [ -d "$BUILD/lessons" ] || die "$(t "the lessons are not configured in $BUILD (configure it with -DPOETGRAD_TESTS=ON)" "$BUILD 没有配置课程（用 -DPOETGRAD_TESTS=ON 配置）")"
}

# build_target TARGET...: builds the TARGETs and what they need, nothing else. Steps that take long
# (the library on a first build) are shown as they go; on failure prints the compiler's first error.
build_target() {
    local log="$BUILD/lessons/$1.build.log"
    need_build
    if [ ! -e "$BUILD/libpoetgrad.a" ]; then
        say "$(t "first build: the library, the lesson helpers and this lesson's program; a few minutes on 2 cores, later checks take seconds" "第一次构建：库、课程辅助代码和这一课的程序；在 2 核机器上要几分钟，之后每次检查只要几秒")"
    fi
    cmake --build "$BUILD" --target "$@" -j "$JOBS" 2>&1 | tee "$log" | awk -v b="$(t building 编译)" '
        /^\[ *[0-9]+(%|\/[0-9]+)\] Building/ && !/exercise_entry/ { match($0, /[0-9]+(%|\/[0-9]+)/); n = split($NF, p, "/"); printf "\033[2m  [%s] " b " %s\033[0m\n", substr($0, RSTART, RLENGTH), p[n]; fflush() }' >&2
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

# run_watched SECONDS PROGRAM: runs PROGRAM in this shell's foreground, sends it TERM after SECONDS
# and KILL 5 s later (what GNU `timeout --foreground -k 5` does, in bash, so that macOS needs no GNU
# coreutils). Returns PROGRAM's status, or 124 when it was stopped. PROGRAM's stderr is fd 3; the
# shell's own notices ("Segmentation fault") go to stderr.
run_watched() {
    local limit="$1" stopped pid watchdog code
    shift
    stopped="$(mktemp "${TMPDIR:-/tmp}/poet-stopped.XXXXXX")" && rm -f "$stopped"
    "$@" <&0 2>&3 3>&- &
    pid=$!
    (
        trap 'kill "$sleeper" 2>/dev/null; exit 0' TERM
        sleep "$limit" & sleeper=$!
        wait "$sleeper"
        kill -0 "$pid" 2>/dev/null || exit 0
        : >"$stopped"
        kill -TERM "$pid" 2>/dev/null
        sleep 5 & sleeper=$!
        wait "$sleeper"
        kill -KILL "$pid" 2>/dev/null
    ) </dev/null >/dev/null 2>&1 3>&- &
    watchdog=$!
    wait "$pid"
    code=$?
    kill -TERM "$watchdog" 2>/dev/null
    wait "$watchdog" 2>/dev/null
    if [ -e "$stopped" ]; then rm -f "$stopped"; code=124; fi
    return $code
}

# The exit code of a program the sanitizers stopped (1 means "checks failed", 128+N a signal).
SANITIZER_EXIT=66

# run_limited SECONDS LABEL PROGRAM [SOURCE]: runs PROGRAM, stops it after SECONDS, and turns a
# time-out, a crash or a sanitizer's report into one paragraph naming the check that was running
# (lesson.cpp writes it to PG_CHECK_STATE), what happened in words and, when it can be found, the
# line of SOURCE (or of a lesson file) it happened in.
run_limited() {
    local limit="$1" label="$2" program="$3" source="${4:-}" state code report
    state="$(mktemp "${TMPDIR:-/tmp}/poet-state.XXXXXX")"
    report="$(mktemp "${TMPDIR:-/tmp}/poet-sanitizer.XXXXXX")"
    # The sanitizers (in the learner's program, lesson_NN_exercise) exit with SANITIZER_EXIT after
    # their report, on stderr, which sanitizer_filter keeps out of sight for sanitizer_report; a crash
    # stays the crash handler's; stacks as module+offset, for the one symboliser. (Other programs
    # ignore these variables.) The program's stdout goes straight to fd 4, its stderr through the
    # filter; the shell's own "Segmentation fault" line goes to /dev/null.
    local common="exitcode=$SANITIZER_EXIT:abort_on_error=0:symbolize=0"
    {
        { PG_CHECK_STATE="$state" \
          ASAN_OPTIONS="$common:detect_leaks=0:detect_container_overflow=0:handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0:handle_abort=0" \
          UBSAN_OPTIONS="$common:print_stacktrace=1:halt_on_error=1" \
          run_watched "$limit" "$program" 4>&-; } 3>&1 1>&4 2>/dev/null | sanitizer_filter "$report" >&2
        code=${PIPESTATUS[0]}
    } 4>&1
    if [ $code -eq 124 ]; then
        say "$(t "stopped after ${limit} s: $(running_in "$state") was still running. An endless loop? A loop whose index never reaches its end, or a while whose condition never turns false. (--timeout S gives it longer)" "${limit} 秒后停止：$(running_in "$state") 还在运行。是死循环吗？循环变量永远到不了终点，或者 while 的条件永远不会变成 false。（--timeout S 可以给它更长时间）")"
    elif [ $code -eq $SANITIZER_EXIT ] && [ -s "$report" ]; then
        sanitizer_report "$state" "$program" "$label" "$source" "$report"
    elif [ $code -gt 128 ]; then
        crash_report "$state" "$program" "$label" $((code - 128)) "$source"
    fi
    rm -f "$state" "$report"
    return $code
}

# sanitizer_filter FILE: passes stderr through, except a sanitizer's report (AddressSanitizer's
# "=====" and "==PID==" lines, UBSan's "file:line:col: runtime error:") and all after it, kept in FILE.
# (Not the sanitizers' log_path: GCC 12's UBSan ignores it when AddressSanitizer is linked too.)
sanitizer_filter() {
    awk -v file="$1" 'report || /^=+$/ || /^==[0-9]+==/ || /: runtime error: / { report = 1; print > file; next }
                      { print; fflush() }'
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
    # shellcheck disable=SC2086
    [ -n "$offsets" ] && where="$(bash "$COMMON/symbolize.sh" --source "$source" "$program" $offsets)"
    say "$(t "$label crashed in $(running_in "$state"): " "$label 在$(running_in "$state")中崩溃：")$(signal_words "$sig" "$fault" "$recursive")$(t . 。)"
    if [ -n "$where" ]; then say "$(t "  at " "  位置：")$where"; else say "$(t "  (no line of a lesson file on the crashing stack)" "  （崩溃时的调用栈上没有课程文件的行）")"; fi
}

# What a sanitizer's report says happened, in words: the ASan error kind or UBSan's "runtime error:" text.
sanitizer_words() {  # sanitizer_words KIND_OR_TEXT
    case "$1" in
        heap-use-after-free*) t "a use after free: memory read or written after it was freed (a pointer, reference or iterator into a vector or tensor that is gone, or was resized)" "释放后使用：读写了已经释放的内存（指向一个已经不在、或者改变过大小的 vector 或张量的指针、引用或迭代器）" ;;
        heap-buffer-overflow*) t "a heap buffer overflow: an index past the end (or before the start) of a vector or an array made with new" "堆缓冲区溢出：下标越过了 vector 或 new 出来的数组的末尾（或开头）" ;;
        stack-buffer-overflow*|stack-buffer-underflow*) t "a stack buffer overflow: an index past the end of a local array" "栈缓冲区溢出：下标越过了局部数组的末尾" ;;
        stack-use-after-scope*|stack-use-after-return*) t "a use after scope: a pointer or reference to a local variable used after its block (or function) ended" "作用域外使用：局部变量所在的块（或函数）结束之后，还在用指向它的指针或引用" ;;
        global-buffer-overflow*) t "a global buffer overflow: an index past the end of a global or static array" "全局缓冲区溢出：下标越过了全局或 static 数组的末尾" ;;
        attempting\ double-free*|double-free*) t "a double free: the same memory freed twice" "重复释放：同一块内存释放了两次" ;;
        alloc-dealloc-mismatch*|new-delete-type-mismatch*) t "memory freed the wrong way (new with free, new[] with delete, or delete through the wrong type)" "释放内存的方式不对（new 配 free、new[] 配 delete，或者用错误的类型 delete）" ;;
        attempting\ free*|bad-free*) t "a free of memory that was never allocated" "释放了从未分配过的内存" ;;
        *"signed integer overflow"*) t "a signed integer overflow: an int (or long) went past its largest or smallest value; compute in a wider type (long long, size_t, double)" "有符号整数溢出：int（或 long）超出了它能表示的最大或最小值；换一个更宽的类型计算（long long、size_t、double）" ;;
        *"division by zero"*) t "an integer division by zero" "整数除以零" ;;
        *misaligned*) t "a misaligned access: a pointer to a type at an address that is not a multiple of its alignment" "未对齐访问：指针指向的地址不是该类型对齐要求的整数倍" ;;
        *"null pointer"*) t "a null pointer: memory read or written through a pointer (or reference) to nothing" "空指针：通过一个什么都不指向的指针（或引用）读写了内存" ;;
        *"out of bounds for type"*) t "an index out of bounds of a fixed-size array" "下标越过了定长数组的边界" ;;
        *"shift exponent"*|*"left shift"*) t "a shift by too many bits, or of a negative number" "移位的位数太多，或者对负数移位" ;;
        *"outside the range of representable values"*) t "a number converted to an integer type that cannot hold it" "把一个数转换成了装不下它的整数类型" ;;
        *"not a valid value for type"*) t "a bool or enum holding a value it cannot have (read before it was set?)" "bool 或 enum 里装着它不可能有的值（还没赋值就读了？）" ;;
        *"without returning a value"*) t "a function that must return a value reached its end without a return" "一个必须返回值的函数执行到了末尾却没有 return" ;;
        *"pointer overflow"*|*"applying non-zero offset"*) t "pointer arithmetic past the memory it points into" "指针运算越出了它指向的内存" ;;
        *) t "undefined behaviour: $1" "未定义行为：$1" ;;
    esac
}

# sanitizer_report STATE PROGRAM LABEL SOURCE REPORT: the report of AddressSanitizer or UBSan
# (as sanitizer_filter kept it) as one paragraph: the check, what happened, the learner's line;
# the full report is kept beside the program.
sanitizer_report() {
    local state="$1" program="$2" label="$3" source="$4" file="$5" kind offsets where="" kept
    # ASan: "ERROR: AddressSanitizer: heap-use-after-free on address ..."; UBSan: "file:line:col: runtime error: ..."
    kind="$(awk 'match($0, /ERROR: AddressSanitizer: /) { k = substr($0, RSTART + RLENGTH); sub(/ on .*/, "", k); print k; exit }
                 match($0, /runtime error: /) { print substr($0, RSTART + RLENGTH); exit }' "$file")"
    # the first stack (the access, or the undefined operation), frames "#N 0x... (MODULE+0xOFFSET)"
    offsets="$(awk -v p="$program" '
        /^ *#[0-9]+ / { started = 1
                        if (match($0, /\(.*\+0x[0-9a-fA-F]+\)/)) {
                            m = substr($0, RSTART + 1, RLENGTH - 2); o = m; sub(/\+0x[0-9a-fA-F]+$/, "", m); sub(/.*\+/, "", o)
                            if (m == p) print o }
                        next }
        started { exit }' "$file")"
    # shellcheck disable=SC2086
    [ -n "$offsets" ] && where="$(bash "$COMMON/symbolize.sh" --source "$source" "$program" $offsets)"
    if [ -z "$where" ]; then   # UBSan names the line itself
        where="$(sed -nE 's/^(.*):([0-9]+):[0-9]+: runtime error: .*/\1:\2/p' "$file" | head -1)"
        [ -n "$where" ] && where="${where#"$ROOT/"}"
    fi
    kept="$BUILD/lessons/$(basename "$program").sanitizer.log"
    cp "$file" "$kept" 2>/dev/null
    say "$(t "$label stopped in $(running_in "$state"): undefined behaviour, found by the sanitizers: " "$label 在$(running_in "$state")中停止：消毒器（sanitizer）发现了未定义行为：")$(sanitizer_words "$kind")$(t . 。)"
    if [ -n "$where" ]; then say "$(t "  at " "  位置：")$where"; else say "$(t "  (no line of a lesson file on its stack)" "  （它的调用栈上没有课程文件的行）")"; fi
    say "$(t "  (the sanitizer's full report: ${kept#"$ROOT/"})" "  （消毒器的完整报告：${kept#"$ROOT/"}）")"
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
    # Its pictures go under build/pictures (POET_PICTURES), as in the tests: the lesson folder's copies,
    # which the README shows, are tracked, and another CPU, compiler or Graphviz may print their last
    # digits otherwise. POET_PICTURES names another root; POET_PICTURES=. from the repository root
    # redraws the lesson folder's own (a maintainer's step, then commit them).
    local pictures="${POET_PICTURES:-$BUILD/pictures}" drawn
    case "$pictures" in /*) ;; *) pictures="$PWD/$pictures" ;; esac
    drawn="$pictures/lessons/$(basename "$dir")"
    POET_PICTURES="$pictures" run_limited "$LIMIT" "$(t "lesson $nn's experiment" "第 $nn 课的实验")" "$BUILD/lessons/lesson_${nn}_experiment"
    local code=$?
    if [ -d "$drawn" ]; then   # (the "wrote lessons/NN_name/..." lines name a picture inside this root)
        drawn="$(cd "$drawn" && pwd)"
        if [ "$drawn" = "$dir" ]; then
            say "$(t "its pictures were redrawn in the lesson folder, lessons/$(basename "$dir")/ (git diff shows what moved)" "它的图重画在了课程文件夹 lessons/$(basename "$dir")/ 里（git diff 显示改动了什么）")"
        else
            say "$(t "its pictures are in ${drawn#"$ROOT/"}/; the README shows the lesson folder's copies (POET_PICTURES=. ./poet lesson $((10#$nn)), run from the repository root, redraws those)" "它的图在 ${drawn#"$ROOT/"}/ 里；README 显示的是课程文件夹里的那几张（在仓库根目录运行 POET_PICTURES=. ./poet lesson $((10#$nn)) 会重画它们）")"
        fi
    fi
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
    # with a forbidden.txt, the same file compiled at -O0 for the functions it calls
    local targets="lesson_${nn}_exercise" forbidden="$dir/forbidden.txt"
    [ -f "$forbidden" ] && targets="$targets lesson_${nn}_symbols_exercise"
    # shellcheck disable=SC2086
    if ! build_target $targets; then
        record "$nn" failing
        exit 1
    fi
    sanitizer_note
    local calls="" code
    if [ -f "$forbidden" ]; then
        local nm
        nm="$(build_setting nm)"
        calls="$(mktemp "${TMPDIR:-/tmp}/poet-calls.XXXXXX")"
        if ! command -v "${nm:-nm}" >/dev/null 2>&1; then
            say "$(t "nm is not installed (binutils on Linux, the Xcode command line tools on macOS), so whether your code calls the library's version instead of its own is not checked" "没有安装 nm（Linux 上是 binutils，macOS 上是 Xcode 命令行工具），所以没有检查你的代码是否调用了库里现成的版本")"
        elif ! bash "$COMMON/forbidden_calls.sh" scan "$nm" "$forbidden" \
                 "$(head -1 "$BUILD/lessons/forbidden/lesson_${nn}_exercise.objects")" >"$calls"; then
            say "$(t "(so whether your code calls the library's version instead of its own is not checked)" "（所以没有检查你的代码是否调用了库里现成的版本）")"
            : >"$calls"
        fi
    fi
    PG_FORBIDDEN_CALLS="$calls" run_limited "$LIMIT" "$(t "your program" "你的程序")" "$BUILD/lessons/lesson_${nn}_exercise" "$src"
    code=$?
    [ -n "$calls" ] && rm -f "$calls"
    if [ $code -eq 0 ]; then record "$nn" passed; else record "$nn" failing; fi
    exit $code
}

# build_setting KEY: a line of the build's lessons/exercise_build.txt (lessons/CMakeLists.txt writes it)
build_setting() { sed -n "s/^$1 //p" "$BUILD/lessons/exercise_build.txt" 2>/dev/null | head -1; }

# Once per build: when the exercise could not be built with the sanitizers, say so (and why).
sanitizer_note() {
    local setting shown="$BUILD/lessons/.sanitizer_note_shown"
    setting="$(build_setting sanitizers)"
    case "$setting" in none*) ;; *) return 0 ;; esac
    [ -e "$shown" ] && return 0
    say "$(t "note: your program is built without the sanitizers (${setting#none }), so undefined behaviour (a use after free, a signed overflow) cannot be named here: it shows as a wrong value or a crash. Said once." "注意：你的程序没有用消毒器（sanitizer）构建（${setting#none }），所以这里无法指出未定义行为（释放后使用、有符号溢出）：它只会表现为错误的值或崩溃。只提示这一次。")"
    : >"$shown"
}

cmd_solution() {
    local dir nn
    dir="$(lesson_dir "${1:-}")" || exit 1
    nn="$(basename "$dir" | cut -c1-2)"
    build_target "lesson_${nn}_solution" || exit 1
    exec "$BUILD/lessons/lesson_${nn}_solution"
}

# pad TEXT WIDTH: TEXT and spaces up to WIDTH columns on screen. A Chinese character (3 bytes in
# UTF-8) takes two columns: ASCII bytes count 1, the first byte of any other character 2.
pad() {
    local ascii wide w
    ascii="$(printf '%s' "$1" | LC_ALL=C tr -d '\200-\377' | wc -c)"
    wide="$(printf '%s' "$1" | LC_ALL=C tr -cd '\300-\377' | wc -c)"
    w=$((ascii + 2 * wide))
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
    [ $written -lt 27 ] && t "($written of 27 lessons written; the rest are coming: lessons/README.md)" "（27 课已写好 $written 课；其余即将推出：lessons/README.zh.md）" && echo
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
if zh; then export POET_LANG=zh; else export POET_LANG=en; fi   # the programs are told the decision
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
