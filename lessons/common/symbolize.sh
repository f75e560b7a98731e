#!/usr/bin/env bash
# The course's one symboliser: which line of a lesson file a crash, an exception or a sanitizer
# report came from. lesson.cpp runs it for an exception (the thrower's stack), tools/lessons.sh for
# a crash (the frames the crash handler wrote) and for a sanitizer report (its stack).
# usage: symbolize.sh [--source FILE] MODULE OFFSET...
#   OFFSET: hex addresses inside MODULE (a program built with line tables), innermost frame first,
#   return addresses already moved back onto their call. Prints the first frame, inlined calls
#   included, whose file is FILE or lies in a lesson folder (lessons/NN_name/, or the runner's
#   fixture lessons/common/runner_tests/), as "lessons/NN_name/file.cpp:LINE  (in FUNCTION)", the
#   path relative to the repository and the function left out for a lambda; nothing when no frame is
#   one, or when no symboliser is installed.
# Tools: GNU addr2line (binutils), llvm-symbolizer (first for a program clang built), atos (macOS;
# it names a file without its folder, so there only FILE and the basename of a lesson file can be
# told apart); the next one where one names no lesson line.
# Leaves out: frames of other modules (shared libraries); the caller picks the program's own.
set -u
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
source_file=""
if [ "${1:-}" = --source ]; then source_file="$2"; shift 2; fi
[ $# -ge 2 ] || exit 0
module="$1"
shift

# "0xADDRESS", then (function, file:line) pairs, innermost inlined call first: addr2line's -a -f -i.
# One function per tool; each fails when its tool is not installed.
gnu_frames() {
    command -v addr2line >/dev/null 2>&1 && addr2line --version 2>/dev/null | grep -q GNU || return 1
    addr2line -a -C -f -i -e "$module" "$@" 2>/dev/null
}
llvm_frames() {
    local symbolizer
    # the newest first (an older one may abort on a newer clang's line tables)
    for symbolizer in $(ls /usr/bin/llvm-symbolizer-* 2>/dev/null | sort -t- -k3 -rn) /opt/homebrew/opt/llvm/bin/llvm-symbolizer \
                      /usr/local/opt/llvm/bin/llvm-symbolizer llvm-symbolizer; do
        if command -v "$symbolizer" >/dev/null 2>&1; then
            local base=0 a addresses=""
            # a Mach-O program's addresses start at 0x100000000; the offsets count from its header
            [ "$(uname -s)" = Darwin ] && base=$((0x100000000))
            for a in "$@"; do addresses="$addresses $(printf '0x%x' $((a + base)))"; done
            # shellcheck disable=SC2086
            # (its own crash stays out of the learner's report, the shell's "Aborted" line too)
            { "$symbolizer" --obj="$module" --output-style=GNU --addresses --functions=linkage --inlines --demangle \
                $addresses 2>/dev/null; } 2>/dev/null
            return 0
        fi
    done
    return 1
}
atos_frames() {
    command -v atos >/dev/null 2>&1 || return 1
    # "function (in module) (file.cpp:6)", one line per frame and inlined call
    local a
    for a in "$@"; do
        printf '0x%x\n' "$a"
        atos -o "$module" -l 0x100000000 -i "$(printf '0x%x' $((a + 0x100000000)))" 2>/dev/null |
            awk 'match($0, / \(in [^)]*\) \(/) { f = substr($0, RSTART + RLENGTH); sub(/\)$/, "", f)
                                               print substr($0, 1, RSTART - 1); print f }'
    done
}

first_lesson_frame() {
    awk -v root="$ROOT/" -v src="$source_file" '
    function lesson_file(f,   b) {
        if (src != "" && f == src) return 1
        if (f ~ /(^|\/)lessons\/[0-9][0-9]_[^\/]+\// || f ~ /(^|\/)lessons\/common\/runner_tests\//) return 1
        if (f !~ /\//) { b = src; sub(/.*\//, "", b); return f == b }   # atos: the basename only
        return 0
    }
    /^0x[0-9a-fA-F]+$/ { want = "function"; next }
    want == "function" { fn = $0; want = "file"; next }
    want == "file" {
        want = "function"
        f = $0; sub(/ \(discriminator [0-9]+\)$/, "", f)
        file = f; sub(/:[0-9?]+$/, "", file)
        if (!lesson_file(file)) next
        if (index(f, root) == 1) f = substr(f, length(root) + 1)
        print f (fn ~ /lambda/ ? "" : "  (in " fn ")")
        exit
    }'
}

# GNU addr2line first for a GCC program, llvm-symbolizer first for a clang one (Debian 12's addr2line
# misreads clang 19's line tables); the next tool where the first names no lesson line.
tools="gnu_frames llvm_frames atos_frames"
LC_ALL=C grep -aq 'clang version' "$module" 2>/dev/null && tools="llvm_frames gnu_frames atos_frames"
for tool in $tools; do
    line="$("$tool" "$@" | first_lesson_frame)"
    if [ -n "$line" ]; then
        echo "$line"
        exit 0
    fi
done
