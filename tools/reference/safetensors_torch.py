"""The poet's GPT in PyTorch, through safetensors files (`./poet export`, `./poet import`).

The header is read and written with the standard library (struct, json) and the values with
torch.frombuffer, so nothing beyond Debian's python3-torch 1.13 is needed (the safetensors package
is not in Debian 12). The module is nanoGPT's GPT under nanoGPT's names, with the two differences
our GPT has: the head is its own weight (lm_head.weight, not tied to wte) and GELU is the tanh
approximation. Little-endian hosts only, as the format's values are.

  safetensors_torch.py next MODEL.safetensors 春       the five likeliest first characters of a
        poem for 春 (the model's logits after BOS 春 SEP)
  safetensors_torch.py verify MODEL.safetensors LOGITS.safetensors [--tol 1e-5]
        LOGITS holds "ids" (B,T) and "logits" (B,T,V) computed elsewhere (poetgrad); runs the same
        ids here and exits 1 unless every logit agrees within tol
  safetensors_torch.py make OUT.safetensors [--seed S] [--layers N] [--heads N] [--width N] [--context N]
        random weights made here (seeded) and a vocabulary of poem characters, with the metadata
        `./poet import` needs
Run with Debian's python3-torch 1.13 (CPU, float32): /usr/bin/python3 tools/reference/safetensors_torch.py ...
"""
import argparse
import json
import math
import os
import struct
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

SPECIALS = ["<PAD>", "<BOS>", "<SEP>", "<EOS>", "<UNK>"]
# The vocabulary `make` gives its model: punctuation, then the characters of four famous quatrains.
POEM_CHARS = ("。，春眠不觉晓处闻啼鸟夜来风雨声花落知多少床前明月光疑是地上霜举头望低思故乡"
              "白日依山尽黄河入海流欲穷千里目更一层楼红豆生南国发几枝愿君采撷此物最相")


def read_safetensors(path):
    """(tensors by name, metadata) of a file of F32 tensors."""
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n].decode("utf-8"))
    metadata = header.pop("__metadata__", {})
    values = bytearray(data[8 + n:])   # writable, as torch.frombuffer wants
    tensors = {}
    for name, info in header.items():
        if info["dtype"] != "F32":
            sys.exit("%s: tensor %s has dtype %s; this script reads F32 only" % (path, name, info["dtype"]))
        begin, end = info["data_offsets"]
        count = (end - begin) // 4
        flat = torch.frombuffer(values, dtype=torch.float32, count=count, offset=begin) if count else torch.empty(0)
        tensors[name] = flat.reshape(info["shape"]).clone()
    return tensors, metadata


def write_safetensors(path, tensors, metadata):
    """The layout poetgrad and the reference implementation write: names in byte order, metadata
    first, the JSON padded with spaces so the data starts 8-byte aligned; written atomically."""
    header, blobs, offset = {}, [], 0
    if metadata:
        header["__metadata__"] = dict(sorted(metadata.items()))
    for name in sorted(tensors, key=lambda s: s.encode("utf-8")):
        t = tensors[name].detach().to(torch.float32).contiguous()
        raw = t.numpy().astype("<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(t.shape), "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    text += b" " * ((8 - len(text) % 8) % 8)
    with open(path + ".tmp", "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for raw in blobs:
            f.write(raw)
    os.replace(path + ".tmp", path)


class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd, n_head):
        super().__init__()
        self.n_head = n_head
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)   # q, k, v side by side: weight (3C, C)
        self.c_proj = nn.Linear(n_embd, n_embd)

    def forward(self, x):
        b, t, c = x.shape
        hs = c // self.n_head
        q, k, v = self.c_attn(x).split(c, dim=2)
        q, k, v = (z.view(b, t, self.n_head, hs).transpose(1, 2) for z in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hs))
        att = att.masked_fill(torch.triu(torch.ones(t, t, dtype=torch.bool), diagonal=1), float("-inf"))
        y = att.softmax(dim=-1) @ v
        return self.c_proj(y.transpose(1, 2).contiguous().view(b, t, c))


class MLP(nn.Module):
    def __init__(self, n_embd):
        super().__init__()
        self.c_fc = nn.Linear(n_embd, 4 * n_embd)
        self.c_proj = nn.Linear(4 * n_embd, n_embd)

    def forward(self, x):
        return self.c_proj(F.gelu(self.c_fc(x), approximate="tanh"))   # nanoGPT: the exact GELU


class Block(nn.Module):
    def __init__(self, n_embd, n_head):
        super().__init__()
        self.ln_1 = nn.LayerNorm(n_embd)
        self.attn = CausalSelfAttention(n_embd, n_head)
        self.ln_2 = nn.LayerNorm(n_embd)
        self.mlp = MLP(n_embd)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, vocab_size, context, n_layer, n_head, n_embd):
        super().__init__()
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(vocab_size, n_embd),
            wpe=nn.Embedding(context, n_embd),
            h=nn.ModuleList([Block(n_embd, n_head) for _ in range(n_layer)]),
            ln_f=nn.LayerNorm(n_embd),
        ))
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)   # nanoGPT: tied to wte

    def forward(self, ids):
        x = self.transformer.wte(ids) + self.transformer.wpe(torch.arange(ids.shape[1]))
        for block in self.transformer.h:
            x = block(x)
        return self.lm_head(self.transformer.ln_f(x))


def config_of(metadata):
    return dict(vocab_size=int(metadata["model.vocab_size"]), context=int(metadata["model.context"]),
                n_layer=int(metadata["model.n_layer"]), n_head=int(metadata["model.n_head"]),
                n_embd=int(metadata["model.n_embd"]))


def load_model(path):
    """The GPT of a `./poet export` file, every weight loaded by name (strict) and its vocabulary."""
    tensors, metadata = read_safetensors(path)
    model = GPT(**config_of(metadata))
    model.load_state_dict(tensors, strict=True)
    return model.eval(), json.loads(metadata["vocab"])


def cmd_next(args):
    model, vocab = load_model(args.model)
    if args.char not in vocab[len(SPECIALS):]:
        sys.exit("next: %s is not in the vocabulary of %s" % (args.char, args.model))
    ids = [SPECIALS.index("<BOS>"), vocab.index(args.char), SPECIALS.index("<SEP>")]
    with torch.no_grad():
        probs = model(torch.tensor([ids]))[0, -1].softmax(-1)
    top = probs.topk(min(5, len(vocab)))
    print("after <BOS> %s <SEP>, the likeliest first characters:" % args.char)
    for p, i in zip(top.values.tolist(), top.indices.tolist()):
        print("  %s  %.4f" % (vocab[i], p))


def cmd_verify(args):
    model, _ = load_model(args.model)
    expected, _ = read_safetensors(args.logits)
    ids = expected["ids"].long()
    with torch.no_grad():
        logits = model(ids)
    diff = (logits - expected["logits"]).abs().max().item()
    print("torch %s: logits %s of ids %s, max |torch - poetgrad| = %.3g (tolerance %g)" %
          (torch.__version__, tuple(logits.shape), tuple(ids.shape), diff, args.tol))
    if logits.shape != expected["logits"].shape or not diff <= args.tol:
        sys.exit("verify: the logits differ")


def cmd_make(args):
    torch.manual_seed(args.seed)
    vocab = SPECIALS + list(POEM_CHARS)
    model = GPT(len(vocab), args.context, args.layers, args.heads, args.width)
    with torch.no_grad():   # weights at a scale where every op matters, LayerNorms and biases too
        for name, p in model.named_parameters():
            if ".ln_" in name and name.endswith("weight"):
                p.copy_(1.0 + 0.1 * torch.randn_like(p))
            else:
                p.copy_(0.1 * torch.randn_like(p) if p.dim() == 1 else 0.2 * torch.randn_like(p))
    metadata = {"format": "pt", "poet.format": "poet-1", "vocab": json.dumps(vocab, ensure_ascii=False),
                "model.vocab_size": str(len(vocab)), "model.context": str(args.context),
                "model.n_layer": str(args.layers), "model.n_head": str(args.heads), "model.n_embd": str(args.width),
                "model.dropout": "0", "step": "0"}
    write_safetensors(args.out, dict(model.named_parameters()), metadata)
    print("made %s: %d parameters, vocabulary of %d, seed %d" %
          (args.out, sum(p.numel() for p in model.parameters()), len(vocab), args.seed))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("next")
    p.add_argument("model")
    p.add_argument("char")
    p.set_defaults(run=cmd_next)
    p = sub.add_parser("verify")
    p.add_argument("model")
    p.add_argument("logits")
    p.add_argument("--tol", type=float, default=1e-5)
    p.set_defaults(run=cmd_verify)
    p = sub.add_parser("make")
    p.add_argument("out")
    p.add_argument("--seed", type=int, default=1234)
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--heads", type=int, default=2)
    p.add_argument("--width", type=int, default=32)
    p.add_argument("--context", type=int, default=32)
    p.set_defaults(run=cmd_make)
    args = parser.parse_args()
    torch.set_num_threads(1)
    args.run(args)


if __name__ == "__main__":
    main()
