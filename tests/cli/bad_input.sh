#!/usr/bin/env bash
# The test behind poet_cli_bad_input: the poet CLI given what a hostile user gives it. Each case must
# exit 1 with a message saying what was wrong (never a signal, a hang, or a bare library error).
# usage: bad_input.sh POET_BINARY
set -u
poet="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/dir.ckpt"
status=0

expect() {  # expect "WORDS" ARGS...: `poet ARGS` exits 1 and prints WORDS
    local words="$1" out code
    shift
    out="$(timeout 60 "$poet" "$@" 2>&1)"
    code=$?
    if [ $code -ne 1 ] || ! grep -qF -- "$words" <<<"$out"; then
        echo "bad_input: poet $* -> exit $code, expected 1 and \"$words\"; it said: $out"
        status=1
    else
        echo "bad_input: ok: poet $* -> $words"
    fi
}

expect 'between 1 and 10000' write 月 --samples 100000000 --checkpoint "$tmp/none.ckpt"
expect 'is too large' write 月 --samples 99999999999999999999999
expect 'digits only' write 月 --samples " -1"
expect 'is too large' train --seed 99999999999999999999999
expect 'must be between 1 and 256' train --threads 100000 --steps 1
expect 'needs a value, but the next argument is the option --checkpoint' write 月 --temperature --checkpoint x
expect 'unknown option -n' write -n 月
expect '--topic -1 must be between 0 (off) and 100' write 月 --topic -1 --checkpoint "$tmp/none.ckpt"
expect '--repeat 1e+09 must be between 0 (off) and 100' write 月 --repeat 1e9 --checkpoint "$tmp/none.ckpt"
expect 'expects a number' eval --topic abc
expect 'no such checkpoint' write --checkpoint "$tmp/none.ckpt" -- 月
expect 'is a directory' write 月 --checkpoint "$tmp/dir.ckpt"
expect 'is a directory' eval --checkpoint "$tmp/dir.ckpt"
expect '--layers 100000000 is outside its range [1, 64]' train --layers 100000000
expect '--width 1000000000 is outside its range' train --width 1000000000
expect '--context 1000000000 is outside its range' train --context 1000000000
expect '--batch 1000000000 is outside its range' train --batch 1000000000
expect '--lr 1.00000002e+30 is outside its range' train --lr 1e30 --warmup 0 --save-every 1
expect 'give one of them' train --resume --overwrite
expect '--out needs a run name' train --out ""
printf 'not safetensors' >"$tmp/bad.safetensors"
expect 'usage: ./poet export --to FILE.safetensors' export
expect 'no such checkpoint' export --checkpoint "$tmp/none.ckpt" --to "$tmp/x.safetensors"
expect 'usage: ./poet import FILE.safetensors --to CKPT' import "$tmp/bad.safetensors"
expect 'cannot open: no such file' import "$tmp/none.safetensors" --to "$tmp/x.ckpt"
expect 'is a directory, not a safetensors file' import "$tmp/dir.ckpt" --to "$tmp/x.ckpt"
expect 'the header length is' import "$tmp/bad.safetensors" --to "$tmp/x.ckpt"
[ -e "$tmp/x.ckpt" ] && { echo "bad_input: a refused import wrote $tmp/x.ckpt"; status=1; }
exit $status
