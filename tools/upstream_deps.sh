#!/usr/bin/env bash
# Builds the newest upstream releases of poetgrad's dependencies from source snapshots into a
# prefix, never into the system: xtl and xtensor and xsimd (header-only: configure and install),
# and Catch2 3 (a compiled library, built with the same compiler and standard library as poetgrad
# will be). Used by ./poet test's upstream stage. Once built, a second call returns at once.
# usage: upstream_deps.sh DEPS_DIR PREFIX [cmake compiler arguments...]   (XSIMD=13.2.0 for the older xsimd)
set -euo pipefail
xsimd="xsimd-${XSIMD:-14.3.0}"
deps="$1" prefix="$2"
shift 2
work="$prefix.src"
[ -f "$prefix/.complete" ] && { echo "upstream deps: $prefix is built" >&2; exit 0; }
rm -rf "$prefix" "$work"
mkdir -p "$work"
for t in xtl-0.8.2 "$xsimd" xtensor-0.27.1 Catch2-3.7.1; do
    [ -f "$deps/$t.tar.gz" ] || { echo "upstream deps: no $deps/$t.tar.gz" >&2; exit 1; }
    tar -xzf "$deps/$t.tar.gz" -C "$work"
done
install_headers() {  # install_headers SOURCE: a header-only package's CMake install
    cmake -S "$work/$1" -B "$work/build-$1" "-DCMAKE_INSTALL_PREFIX=$prefix" "-DCMAKE_PREFIX_PATH=$prefix" \
        >"$work/$1.log" 2>&1 && cmake --install "$work/build-$1" >>"$work/$1.log" 2>&1 \
        || { tail -20 "$work/$1.log" >&2; exit 1; }
}
install_headers xtl-0.8.2
install_headers "$xsimd"
install_headers xtensor-0.27.1
cmake -S "$work/Catch2-3.7.1" -B "$work/build-catch2" "-DCMAKE_INSTALL_PREFIX=$prefix" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_STANDARD=17 -DCATCH_INSTALL_DOCS=OFF -DCMAKE_UNITY_BUILD=ON "$@" >"$work/catch2.log" 2>&1 \
    && cmake --build "$work/build-catch2" -j "$(nproc 2>/dev/null || echo 2)" >>"$work/catch2.log" 2>&1 \
    && cmake --install "$work/build-catch2" >>"$work/catch2.log" 2>&1 \
    || { tail -30 "$work/catch2.log" >&2; exit 1; }
rm -rf "$work"
touch "$prefix/.complete"
echo "upstream deps: xtl 0.8.2, ${xsimd#xsimd-} xsimd, xtensor 0.27.1, Catch2 3.7.1 in $prefix" >&2
