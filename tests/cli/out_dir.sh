#!/usr/bin/env bash
# The test behind poet_train_out_dir: `poet train --out /absolute/dir` writes its checkpoint,
# metrics and loss curve in that directory (and nothing under runs/); a plain NAME goes to runs/NAME.
# usage: out_dir.sh POET_BINARY
set -u
poet="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "out_dir: $*"; exit 1; }

out="$(timeout 120 "$poet" train --steps 1 --layers 1 --width 16 --heads 2 --batch 4 --threads 1 --out "$tmp/run" 2>&1)" ||
    fail "poet train --out $tmp/run failed: $out"
for f in model.ckpt metrics.csv loss.svg; do
    [ -s "$tmp/run/$f" ] || fail "no $tmp/run/$f after --out $tmp/run; it said: $out"
done
grep -qF "checkpoint $tmp/run/model.ckpt" <<<"$out" || fail "the summary line does not name $tmp/run/model.ckpt: $out"
grep -q "runs//" <<<"$out" && fail "an absolute --out was put under runs/: $out"
echo "out_dir: ok"
