#!/usr/bin/env bash
# The rows of docs/PORTABILITY.md that ./poet test does not run on every change: other compilers
# and other dependency versions, each configured, built (library, tests, poet) and tested in
# build-matrix/ROW. ./poet test runs the other rows (Debian's GCC, clang 19 + libc++ on the newest
# upstream releases, aarch64 and older x86-64 CPUs under qemu).
# usage: tools/portability_matrix.sh [ROW...]   (no ROW: all of them; needs ./poet test's packages,
#        clang-14, clang-16 and libc++-16-dev, and the snapshots in POETGRAD_DEPS or ../shared/deps)
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$ROOT/build-matrix"
DEPS="${POETGRAD_DEPS:-$ROOT/../shared/deps}"
JOBS="$(nproc 2>/dev/null || echo 2)"
mkdir -p "$OUT"

# prefix NAME COMPILER-ARGS...: upstream dependencies built with that compiler (tools/upstream_deps.sh),
# with xsimd VERSION from XSIMD (default 14.3.0)
prefix() {
    local name="$1"
    shift
    XSIMD="${XSIMD:-14.3.0}" bash "$ROOT/tools/upstream_deps.sh" "$DEPS" "$OUT/$name-prefix" "$@" >&2 || return 1
    echo "$OUT/$name-prefix"
}

# row NAME CMAKE-ARGS...: configure, build and test one row; prints "NAME: ok" or what failed
row() {
    local name="$1" dir="$OUT/$1"
    shift
    rm -rf "$dir"
    if ! cmake -S "$ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DPOETGRAD_LESSONS=OFF "$@" >"$dir.configure.log" 2>&1; then
        echo "$name: configure failed ($dir.configure.log)"; return 1
    fi
    grep -E "poetgrad: (xtensor|Catch2)" "$dir.configure.log" | sed "s/^/$name: /"
    if ! cmake --build "$dir" -j "$JOBS" --target pg_tests poet >"$dir.build.log" 2>&1; then
        echo "$name: build failed ($dir.build.log)"; grep -m3 "error" "$dir.build.log"; return 1
    fi
    if ! (cd "$dir" && ctest -j "$JOBS" -L "lib|poet" -LE torch >"$dir.test.log" 2>&1); then
        echo "$name: tests failed ($dir.test.log)"; grep -E "Failed|failed" "$dir.test.log" | head -5; return 1
    fi
    echo "$name: ok: $(grep -E 'tests passed' "$dir.test.log")"
}

libcxx() { echo "-DCMAKE_CXX_FLAGS=-stdlib=libc++" "-DCMAKE_EXE_LINKER_FLAGS=-stdlib=libc++"; }

run_row() {
    case "$1" in
        clang14-debian) row "$1" -DCMAKE_CXX_COMPILER=clang++-14 ;;
        gcc12-upstream) local p; p="$(prefix gcc12 -DCMAKE_CXX_COMPILER=g++)" && row "$1" -DCMAKE_CXX_COMPILER=g++ "-DCMAKE_PREFIX_PATH=$p" ;;
        clang16-libcxx-upstream) local p; p="$(prefix clang16 -DCMAKE_CXX_COMPILER=clang++-16 $(libcxx))" &&
            row "$1" -DCMAKE_CXX_COMPILER=clang++-16 $(libcxx) "-DCMAKE_PREFIX_PATH=$p" ;;
        clang19-libcxx-xsimd13) local p; p="$(XSIMD=13.2.0 prefix clang19-xsimd13 -DCMAKE_CXX_COMPILER=clang++-19 $(libcxx))" &&
            row "$1" -DCMAKE_CXX_COMPILER=clang++-19 $(libcxx) "-DCMAKE_PREFIX_PATH=$p" ;;
        *) echo "no row $1 (rows: clang14-debian gcc12-upstream clang16-libcxx-upstream clang19-libcxx-xsimd13)"; return 1 ;;
    esac
}

status=0
for r in "${@:-clang14-debian gcc12-upstream clang16-libcxx-upstream clang19-libcxx-xsimd13}"; do
    for one in $r; do run_row "$one" || status=1; done
done
exit $status
