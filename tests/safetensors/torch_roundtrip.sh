#!/usr/bin/env bash
# The test behind poet_safetensors_torch: the poet's weights in PyTorch 1.13 and back, logits equal
# to 1e-5 both ways (tools/reference/safetensors_torch.py is the PyTorch side).
#   1. a demo-sized GPT (the default config, 2 training steps) -> ./poet export -> PyTorch runs the
#      ids poetgrad ran, same logits; ./poet import of that file gives the same logits bit for bit,
#      and ./poet write uses it;
#   2. weights made in PyTorch (seeded) -> ./poet import -> poetgrad runs them, same logits as PyTorch.
# usage: torch_roundtrip.sh POET_BINARY POET_LOGITS_BINARY   (needs /usr/bin/python3 with python3-torch)
set -u
poet="$1"
logits="$2"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
script="$here/../../tools/reference/safetensors_torch.py"
python=/usr/bin/python3
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "torch_roundtrip: $*"; exit 1; }
run() { "$@" >"$tmp/out" 2>&1 || fail "$* failed: $(cat "$tmp/out")"; cat "$tmp/out"; }

"$python" -c "import torch" 2>/dev/null ||
    fail "needs PyTorch for $python: apt-get install python3-torch (./poet test installs it)"

# 1. poetgrad -> PyTorch
timeout 300 "$poet" train --steps 2 --batch 2 --threads 1 --out "$tmp/run" >"$tmp/out" 2>&1 ||
    fail "poet train failed: $(cat "$tmp/out")"
tail -1 "$tmp/out"
run "$poet" export --checkpoint "$tmp/run/model.ckpt" --to "$tmp/poet.safetensors"
run "$logits" "$tmp/run/model.ckpt" "$tmp/poet_logits.safetensors"
run timeout 300 "$python" "$script" verify "$tmp/poet.safetensors" "$tmp/poet_logits.safetensors"
run "$poet" import "$tmp/poet.safetensors" --to "$tmp/imported.ckpt"
run "$logits" "$tmp/imported.ckpt" "$tmp/imported_logits.safetensors"
cmp -s "$tmp/poet_logits.safetensors" "$tmp/imported_logits.safetensors" ||
    fail "the imported checkpoint's logits differ from the exported checkpoint's"
echo "export -> import: the same logits, bit for bit"
run "$poet" write 春 --checkpoint "$tmp/imported.ckpt" --samples 1 --seed 1 --threads 1
grep -q "春" "$tmp/out" || fail "./poet write with the imported checkpoint wrote no poem holding 春"

# 2. PyTorch -> poetgrad
run timeout 300 "$python" "$script" make "$tmp/torch.safetensors" --seed 2024 --layers 2 --heads 2 --width 32
run "$poet" import "$tmp/torch.safetensors" --to "$tmp/torch.ckpt"
run "$logits" "$tmp/torch.ckpt" "$tmp/torch_logits.safetensors"
run timeout 300 "$python" "$script" verify "$tmp/torch.safetensors" "$tmp/torch_logits.safetensors"
run "$poet" write 月 --checkpoint "$tmp/torch.ckpt" --samples 1 --seed 1 --threads 1
grep -q "月" "$tmp/out" || fail "./poet write with the PyTorch-made checkpoint wrote no poem holding 月"
echo "torch_roundtrip: ok"
