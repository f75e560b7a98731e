#!/usr/bin/env bash
# Build the embedded poem corpus in data/poems/ from the npm package
# chinese-poetry (pinned version, checked against its published SHA-1).
#
# Usage: tools/corpus/build_corpus.sh
# Needs: bash, npm (registry access), python3 (stdlib only), opencc (Debian
# package "opencc", used as `opencc -c t2s`).
# The output is byte-for-byte deterministic for a given opencc version.
set -euo pipefail

PKG_NAME=chinese-poetry
PKG_VERSION=2.0.1
PKG_SHA1=b6e7e60d0accac7c723d066a5c360549aab8299d

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="$ROOT/data/poems"

for tool in npm python3 opencc tar sha1sum; do
    command -v "$tool" >/dev/null 2>&1 || {
        echo "build_corpus: '$tool' not found (Debian: apt-get install -y opencc npm)" >&2
        exit 1
    }
done

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

echo "build_corpus: fetching $PKG_NAME@$PKG_VERSION" >&2
tarball="$(cd "$WORK" && npm pack --silent "$PKG_NAME@$PKG_VERSION" | tail -n 1)"
got_sha1="$(sha1sum "$WORK/$tarball" | cut -d' ' -f1)"
if [[ "$got_sha1" != "$PKG_SHA1" ]]; then
    echo "build_corpus: SHA-1 mismatch for $tarball: got $got_sha1, want $PKG_SHA1" >&2
    exit 1
fi
mkdir -p "$WORK/pkg"
tar -xzf "$WORK/$tarball" -C "$WORK/pkg"

opencc_version="$(dpkg-query -W -f='${Version}' opencc 2>/dev/null || true)"
opencc_banner="$(opencc --version 2>&1 | sed -n 's/^ *Version: *//p' | head -n 1)"

mkdir -p "$OUT"
python3 "$ROOT/tools/corpus/build_corpus.py" \
    --package-dir "$WORK/pkg/package" \
    --package-version "$PKG_VERSION" \
    --package-sha1 "$PKG_SHA1" \
    --opencc-version "opencc ${opencc_banner:-unknown} (Debian package ${opencc_version:-unknown})" \
    --work-dir "$WORK" \
    --out-dir "$OUT"
