# The stages of `./poet test`, sourced by ./poet (which defines say, die, need_packages, configure,
# build, SYSTEM and JOBS). Each stage is timed; the summary at the end gives every stage's time and
# result, and how many test cases and planted mistakes ran. A stage this system cannot run (the
# cross-compiler and emulator stages need Debian's packages on x86-64) is reported as skipped, and
# under CI=true a skipped stage fails the run. Leaves out: the tests themselves (ctest runs them).

STAGE_LINES=()      # "name|seconds|result" per stage, in order
COUNT_LINES=()      # "build|ctest tests|catch2 cases|planted mistakes" per tested build
TEST_START=$(date +%s)

stage_summary() {
    local line name secs result total=$(( $(date +%s) - TEST_START ))
    printf '\n%-62s %8s  %s\n' "stage" "time" "result" >&2
    for line in "${STAGE_LINES[@]}"; do
        IFS='|' read -r name secs result <<<"$line"
        printf '%-62s %5dm%02ds  %s\n' "$name" $((secs / 60)) $((secs % 60)) "$result" >&2
    done
    printf '%-62s %5dm%02ds\n' "all of ./poet test" $((total / 60)) $((total % 60)) >&2
    if [ ${#COUNT_LINES[@]} -gt 0 ]; then
        printf '\n%-44s %12s %14s %18s\n' "build" "ctest tests" "Catch2 cases" "planted mistakes" >&2
        for line in "${COUNT_LINES[@]}"; do
            IFS='|' read -r name a b c <<<"$line"
            printf '%-44s %12s %14s %18s\n' "$name" "$a" "$b" "$c" >&2
        done
    fi
}

# stage NAME COMMAND...: runs COMMAND, timed. A failure (a nonzero status, or die) ends the run, and
# the exit trap then prints the summary so far with this stage marked FAILED.
CURRENT_STAGE="" CURRENT_START=0
stage() {
    CURRENT_STAGE="$1"
    CURRENT_START=$(date +%s)
    shift
    say "== $CURRENT_STAGE"
    "$@"
    STAGE_LINES+=("$CURRENT_STAGE|$(( $(date +%s) - CURRENT_START ))|ok")
    CURRENT_STAGE=""
}
on_exit() {
    local code=$?
    if [ -n "$CURRENT_STAGE" ]; then
        STAGE_LINES+=("$CURRENT_STAGE|$(( $(date +%s) - CURRENT_START ))|FAILED")
        stage_summary
        printf '\033[1;31m[poet] error:\033[0m stage failed: %s\n' "$CURRENT_STAGE" >&2
    fi
    exit $code
}

skip_stage() {  # skip_stage NAME REASON
    STAGE_LINES+=("$1|0|skipped: $2")
    say "== $1: skipped: $2"
    if [ "${CI:-}" = true ]; then
        CURRENT_STAGE="$1"
        die "CI runs every stage; this one could not run: $2"
    fi
}

# ctest_in DIR LABEL [ctest args]: runs the build's tests, then counts from its log what ran
ctest_in() {
    local dir="$1" label="$2"
    shift 2
    (cd "$dir" && ctest --output-on-failure -j "$JOBS" --timeout 900 "$@") || return 1
    count_ran "$dir" "$label"
}

# The Catch2 cases each shard proved it ran (run_cases.sh's last line) and the planted mistakes
# caught, from ctest's full log of the last run; the release build must reach tests/FLOORS.
count_ran() {
    local dir="$1" label="$2" log="$1/Testing/Temporary/LastTest.log" tests cases mistakes
    tests="$(grep -c '^[0-9]*/[0-9]* Testing: ' "$log" 2>/dev/null || echo 0)"
    cases="$(catch2_cases_in "$log")"
    mistakes="$(grep -c '^expect_mistake_caught: ok' "$log" || true)"
    COUNT_LINES+=("$label|$tests|$cases|$mistakes")
    echo "$label: $tests ctest tests, $cases Catch2 cases, $mistakes planted mistakes caught" >&2
}

# The cases pg_tests's shards ran (not the runs again on each kernel table, which name their table).
catch2_cases_in() {
    { grep -h '^run_cases: pg_tests shard' "$@" || true; } | grep -v ' kernels: ' |
        sed -nE 's/^run_cases: pg_tests shard [0-9]+\/[0-9]+ [^:]*: [0-9]+ of [0-9]+ cases listed, ([0-9]+) ran, all passed$/\1/p' |
        awk '{ s += $1 } END { print s + 0 }'
}

check_floors() {  # the release build ran at least as many cases and mistakes as tests/FLOORS says
    local dir="$1" log="$1/Testing/Temporary/LastTest.log" want got what
    while read -r what want _; do
        case "$what" in
            catch2_cases) got="$(catch2_cases_in "$log")" ;;
            planted_mistakes) got="$(grep -c '^expect_mistake_caught: ok' "$log" || true)" ;;
            ''|'#'*) continue ;;
            *) echo "tests/FLOORS: unknown line '$what'" >&2; return 1 ;;
        esac
        [ "$got" -ge "$want" ] || { echo "only $got $what ran, fewer than tests/FLOORS's $want: a test stopped running" >&2; return 1; }
        echo "$what: $got ran (floor $want)" >&2
    done <"$ROOT/tests/FLOORS"
}

# ---- the stages ----

release_stage() {
    local mpi=OFF
    command -v mpicxx >/dev/null && mpi=ON
    configure "$BUILD" -DPOETGRAD_MPI=$mpi
    cmake "$BUILD" -DPOETGRAD_MPI=$mpi >"$BUILD.configure.log" 2>&1 || { cat "$BUILD.configure.log" >&2; return 1; }
    build "$BUILD"
}

release_tests() {
    local skip=()
    command -v mkdocs >/dev/null && command -v chromium >/dev/null || skip+=(site)
    [ -e /usr/lib/python3/dist-packages/torch/__init__.py ] || skip+=(torch)
    if [ ${#skip[@]} -gt 0 ]; then
        say "not here: the ${skip[*]} tests (Debian's packages); the rest runs"
        [ "${CI:-}" = true ] && { echo "CI runs every test" >&2; return 1; }
        ctest_in "$BUILD" "release" -LE "$(IFS='|'; echo "${skip[*]}")" && check_floors "$BUILD"
    else
        ctest_in "$BUILD" "release" && check_floors "$BUILD"
    fi
}

# The library, the poet and the lesson checks under AddressSanitizer and UndefinedBehaviorSanitizer
# (lessons/CMakeLists.txt leaves out what runs only in the release build). -O1 -g1: line tables keep
# file:line in the reports, and -O1 compiles faster than -O2.
ASAN_DIR="$ROOT/build-asan"
# The release build's Catch2 2 runner (tests/main.cpp, the same uninstrumented object in every build),
# linked by the sanitizer builds instead of compiled again; none with Catch2 3 (a library)
catch2_runner() {
    local runner="$BUILD/tests/CMakeFiles/pg_tests.dir/main.cpp.o"
    [ -f "$runner" ] && echo "-DPOETGRAD_CATCH2_RUNNER=$runner"
}
asan_build() {
    configure "$ASAN_DIR" -DPOETGRAD_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" $(catch2_runner)
    build "$ASAN_DIR"
}
asan_tests() { ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest_in "$ASAN_DIR" "sanitizers (ASan + UBSan)" -LE "site|torch"; }

cases_listed() {  # cases_listed PROGRAM SPEC: how many cases Catch2 lists for SPEC (2: its exit code is the count)
    local names
    names="$("$1" "$2" --list-test-names-only 2>&1 || true)"
    grep -q "Unrecognised token" <<<"$names" && names="$("$1" "$2" --list-tests --verbosity quiet || true)"   # Catch2 3
    grep -c . <<<"$names"
}

# ThreadSanitizer on what runs threads: the library's cases tagged [threads] (the GEMM, the row and
# elementwise kernels, dropout, clip and AdamW, a 4-step training run with dropout on 2 threads, resumed at step 2).
TSAN_DIR="$ROOT/build-tsan"
tsan_build() {
    configure "$TSAN_DIR" -DPOETGRAD_SANITIZE=thread -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPOETGRAD_LESSONS=OFF \
        "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" $(catch2_runner)
    build "$TSAN_DIR" pg_tests
}
tsan_tests() {
    local i pids=() status=0
    for i in 0 1; do
        TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
            bash "$ROOT/tests/run_cases.sh" "$TSAN_DIR/tests/pg_tests" $i 2 "[threads]" >"$TSAN_DIR.tests.$i.log" 2>&1 &
        pids+=($!)
    done
    for i in "${pids[@]}"; do wait "$i" || status=1; done
    tail -q -n 1 "$TSAN_DIR.tests.0.log" "$TSAN_DIR.tests.1.log" >&2
    [ $status -eq 0 ] || { grep -B2 -A30 "WARNING: ThreadSanitizer\|FAILED" "$TSAN_DIR".tests.*.log | head -80 >&2; return 1; }
    # (it compiled only the test files that hold a [threads] case: it must have run all of them)
    local ran listed
    ran="$(catch2_cases_in "$TSAN_DIR".tests.*.log)"
    listed="$(cases_listed "$BUILD/tests/pg_tests" "[threads]")"
    [ "$ran" -eq "$listed" ] || { echo "ThreadSanitizer ran $ran [threads] cases, the release build lists $listed" >&2; return 1; }
    COUNT_LINES+=("ThreadSanitizer|2|$ran|0")
}

# The release build's library cases on CPUs without AVX-512 (Haswell: AVX2 and FMA) and without AVX
# (Nehalem: SSE4.2), under qemu-x86_64: the kernel table this CPU would pick, and no instruction it
# lacks anywhere in the program (an illegal one would stop the run with SIGILL).
older_cpus() {  # the two CPUs at once, one emulator a core
    local cpu i pids=() status=0
    for cpu in Haswell Nehalem; do
        bash "$ROOT/tests/run_cases.sh" --emulator "qemu-x86_64-static -cpu $cpu" "$BUILD/tests/pg_tests" 0 1 "~[poet]" \
            >"$BUILD.qemu-$cpu.log" 2>&1 &
        pids+=($!)
    done
    for i in 0 1; do wait "${pids[$i]}" || status=1; done
    for cpu in Haswell Nehalem; do
        if grep -q 'all passed$' "$BUILD.qemu-$cpu.log"; then echo "qemu -cpu $cpu: $(tail -1 "$BUILD.qemu-$cpu.log")" >&2
        else tail -30 "$BUILD.qemu-$cpu.log" >&2; fi
    done
    return $status
}

# The newest upstream releases (xtensor, xtl, xsimd, Catch2 3; source snapshots beside the repository,
# POETGRAD_DEPS or ../shared/deps) built into a prefix in the build tree, and poetgrad built on them
# with clang 19 and libc++, as on macOS; the compiler's dependency files prove that no header came
# from Debian's own copies in /usr/include.
UPSTREAM_DIR="$ROOT/build-upstream"
UPSTREAM_CXX=(-DCMAKE_CXX_COMPILER=clang++-19 "-DCMAKE_CXX_FLAGS=-stdlib=libc++" "-DCMAKE_EXE_LINKER_FLAGS=-stdlib=libc++")
upstream_deps() { bash "$ROOT/tools/upstream_deps.sh" "$1" "$UPSTREAM_DIR/prefix" "${UPSTREAM_CXX[@]}"; }
upstream_build() {
    configure "$UPSTREAM_DIR/poetgrad" "${UPSTREAM_CXX[@]}" "-DCMAKE_PREFIX_PATH=$UPSTREAM_DIR/prefix" -DPOETGRAD_LESSON_MISTAKES=OFF
    grep -E "poetgrad: (xtensor|Catch2)" "$UPSTREAM_DIR/poetgrad.configure.log" >&2
    build "$UPSTREAM_DIR/poetgrad"
}
# Every header each compiled file read, as the compiler listed it: Ninja keeps the lists in its own
# log (ninja -t deps), make beside each object (*.o.d).
headers_read() {  # headers_read BUILD_DIR
    if [ -f "$1/build.ninja" ]; then ninja -C "$1" -t deps
    else find "$1" -name '*.o.d' -exec cat {} +; fi
}
objects_listed() {  # objects_listed BUILD_DIR: how many compiled files the lists cover
    if [ -f "$1/build.ninja" ]; then ninja -C "$1" -t deps | grep -c '^[^ ].*: #deps'
    else find "$1" -name '*.o.d' | wc -l; fi
}
upstream_tests() {
    local dir="$UPSTREAM_DIR/poetgrad" list="$UPSTREAM_DIR/headers_read.txt" leaked
    headers_read "$dir" >"$list"   # (into a file: grep -q on a pipe would end the lister with SIGPIPE)
    # (grep finds nothing when the proof holds: its status is not the stage's)
    leaked="$({ grep -ohE '/usr/include/(xtensor|xtl|xsimd|catch2)/[^ ]*' "$list" || true; } | sort -u | head -5)"
    [ -z "$leaked" ] || { echo "headers from Debian's packages leaked into the upstream build: $leaked" >&2; return 1; }
    grep -q "$UPSTREAM_DIR/prefix/include/xtensor/" "$list" \
        || { echo "no compiled file read the upstream xtensor: the proof would prove nothing" >&2; return 1; }
    echo "no header from /usr/include/{xtensor,xtl,xsimd,catch2} in the header lists of $(objects_listed "$dir") compiled files" >&2
    # (the docs tests read README files only, and the zh ones run an experiment again to print the
    # same numbers in Chinese: the release build ran them)
    ctest_in "$dir" "upstream deps, clang 19 + libc++" -LE "site|mpi|docs|zh"
}

# aarch64: the library's cases cross-compiled with Debian's g++-aarch64-linux-gnu, run under qemu.
ARM_DIR="$ROOT/build-aarch64"
aarch64_build() {
    configure "$ARM_DIR" "-DCMAKE_TOOLCHAIN_FILE=$ROOT/cmake/aarch64-linux-gnu.cmake" -DPOETGRAD_LESSONS=OFF
    build "$ARM_DIR" pg_tests
}
aarch64_tests() { ctest_in "$ARM_DIR" "aarch64 (NEON), under qemu" -L lib; }

# What the repository's files look like (changed and untracked files, and the changes' bytes); the
# tests must leave it as they found it: an experiment that rewrites a tracked picture with other
# digits on this CPU, or writes a file nobody tracks or ignores, fails the run.
tree_state() {
    git -C "$ROOT" status --porcelain 2>/dev/null
    git -C "$ROOT" diff 2>/dev/null | cksum
}
TREE_BEFORE=""
tree_unchanged() {
    local now
    now="$(tree_state)"
    [ "$now" = "$TREE_BEFORE" ] && { echo "the tests left the repository's files as they were" >&2; return 0; }
    echo "running the tests changed the repository's files (a picture drawn with other digits on this CPU? a file written outside build/?):" >&2
    diff <(echo "$TREE_BEFORE") <(echo "$now") | grep '^[<>]' | head -20 >&2
    return 1
}

DEBIAN_STAGE_PACKAGES=("g++-aarch64-linux-gnu:/usr/bin/aarch64-linux-gnu-g++" "qemu-user-static:/usr/bin/qemu-x86_64-static"
                       "clang-19:/usr/bin/clang++-19" "libc++-19-dev:/usr/lib/llvm-19/include/c++/v1/vector"
                       "libc++abi-19-dev:/usr/lib/llvm-19/lib/libc++abi.so" "libclang-rt-19-dev:/usr/lib/llvm-19/lib/clang/19/lib/linux/libclang_rt.asan-x86_64.a")

cmd_test() {
    local stage_start
    trap on_exit EXIT
    stage_start=$(date +%s)
    need_packages "${SITE_TEST_PACKAGES[@]}" "${MPI_PACKAGES[@]}" "python3-torch:/usr/lib/python3/dist-packages/torch/__init__.py" \
        "${DEBIAN_STAGE_PACKAGES[@]}"
    STAGE_LINES+=("packages|$(( $(date +%s) - stage_start ))|ok")
    TREE_BEFORE="$(tree_state)"
    stage "release build (the system's compiler and packages)" release_stage
    stage "release tests" release_tests
    stage "sanitizers: build (ASan + UBSan)" asan_build
    stage "sanitizers: tests" asan_tests
    stage "ThreadSanitizer: build" tsan_build
    stage "ThreadSanitizer: threaded cases" tsan_tests
    local debian_x86=yes
    [ "$SYSTEM" = debian ] && [ "$(uname -m)" = x86_64 ] || debian_x86=""
    if [ -n "$debian_x86" ]; then
        stage "older x86-64 CPUs (qemu: Haswell, Nehalem)" older_cpus
        local deps="${POETGRAD_DEPS:-$ROOT/../shared/deps}" origin
        # a clone made elsewhere (a fresh one in a temporary folder) finds them beside the checkout it came from
        origin="$(git -C "$ROOT" remote get-url origin 2>/dev/null)"
        [ -z "${POETGRAD_DEPS:-}" ] && [ ! -d "$deps" ] && [ -d "$origin/../shared/deps" ] && deps="$(cd "$origin/../shared/deps" && pwd)"
        if [ -f "$deps/xtensor-0.27.1.tar.gz" ]; then
            stage "upstream deps: xtensor 0.27, xsimd 14, Catch2 3 into a prefix" upstream_deps "$deps"
            stage "upstream deps: build (clang 19, libc++)" upstream_build
            stage "upstream deps: header proof and tests" upstream_tests
        else
            skip_stage "upstream deps (clang 19, libc++)" "no source snapshots in $deps (set POETGRAD_DEPS)"
        fi
        stage "aarch64: cross build" aarch64_build
        stage "aarch64: library cases under qemu" aarch64_tests
    else
        skip_stage "older CPUs, upstream deps, aarch64" "these stages use Debian's cross compilers and qemu on x86-64"
    fi
    if git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
        stage "the repository's files as they were" tree_unchanged
    fi
    stage_summary
    say "all tests passed"
    trap - EXIT
}
