#!/usr/bin/env bash
# The test behind poet_train_out_dir: `poet train --out /absolute/dir` writes its checkpoint,
# metrics and loss curve in that directory (and nothing under runs/); a plain NAME goes to runs/NAME.
# usage: out_dir.sh POET_BINARY
set -u
poet="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "out_dir: $*"; exit 1; }

# (a corpus of 300 + 40 poems: what is tested is where the files go; the whole corpus took 14 s
# of loading and validation under the sanitizers, against 1 s)
root="$(cd "$(dirname "$0")/../.." && pwd)"
mkdir "$tmp/data"
head -300 "$root/data/poems/jueju_train.txt" >"$tmp/data/jueju_train.txt"
head -40 "$root/data/poems/jueju_val.txt" >"$tmp/data/jueju_val.txt"
out="$(timeout 120 "$poet" train --data "$tmp/data" --corpus jueju --steps 1 --layers 1 --width 16 --heads 2 --batch 4 \
       --threads 1 --out "$tmp/run" 2>&1)" ||
    fail "poet train --out $tmp/run failed: $out"
for f in model.ckpt metrics.csv loss.svg; do
    [ -s "$tmp/run/$f" ] || fail "no $tmp/run/$f after --out $tmp/run; it said: $out"
done
grep -qF "checkpoint $tmp/run/model.ckpt" <<<"$out" || fail "the summary line does not name $tmp/run/model.ckpt: $out"
grep -q "runs//" <<<"$out" && fail "an absolute --out was put under runs/: $out"
echo "out_dir: ok"
