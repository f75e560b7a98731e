"""Reference values for tests/test_gpt_reference.cpp: the poetgrad GPT rebuilt in PyTorch.

Builds the same architecture with the same parameter names and order at a small config, gives
it random weights from a fixed seed, and writes to tests/reference/gpt/:
  weights.bin  every parameter by name, the batch ids (B,T) and targets (B,T)
  forward.bin  logits (B,T,V), loss (cross entropy over B*T)
  grads.bin    every parameter's gradient, named "grad.<parameter name>"
  train.bin    10 AdamW steps (warmup then cosine lr, clip_grad_norm 1.0, weight decay 0.1):
               the loss, lr and gradient norm (before clipping) of each step
Run with Debian's python3-torch 1.13 (CPU, float32): /usr/bin/python3 tools/reference/make_gpt_fixtures.py
"""
import math
import os
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fixture_io import write_fixture  # noqa: E402

V, CONTEXT, N_LAYER, N_HEAD, N_EMBD = 37, 8, 2, 2, 16
B, T = 3, 8
STEPS, WARMUP, MAX_LR, MIN_LR = 10, 3, 1e-2, 1e-3
WEIGHT_DECAY, MAX_NORM = 0.1, 1.0


class CausalSelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(N_EMBD, 3 * N_EMBD)
        self.proj = nn.Linear(N_EMBD, N_EMBD)

    def forward(self, x):
        b, t, c = x.shape
        hs = c // N_HEAD
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = (z.reshape(b, t, N_HEAD, hs).transpose(1, 2) for z in (q, k, v))
        att = q @ k.transpose(-2, -1) * (1.0 / math.sqrt(hs))
        mask = torch.triu(torch.ones(t, t, dtype=torch.bool), diagonal=1)
        att = att.masked_fill(mask, float("-inf")).softmax(-1)
        y = (att @ v).transpose(1, 2).reshape(b, t, c)
        return self.proj(y)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(N_EMBD, 4 * N_EMBD)
        self.out = nn.Linear(4 * N_EMBD, N_EMBD)

    def forward(self, x):
        return self.out(F.gelu(self.fc(x), approximate="tanh"))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1 = nn.LayerNorm(N_EMBD)
        self.attn = CausalSelfAttention()
        self.ln2 = nn.LayerNorm(N_EMBD)
        self.mlp = MLP()

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class GPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = nn.Embedding(V, N_EMBD)
        self.wpe = nn.Embedding(CONTEXT, N_EMBD)
        self.blocks = nn.ModuleList([Block() for _ in range(N_LAYER)])
        self.ln_f = nn.LayerNorm(N_EMBD)
        self.head = nn.Linear(N_EMBD, V, bias=False)

    def forward(self, ids):
        x = self.wte(ids) + self.wpe(torch.arange(ids.shape[1]))
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln_f(x))


def warmup_cosine_lr(step):
    """The same schedule as pg::optim::warmup_cosine_lr, rounded to float32 as the C++ side sees it."""
    if step < WARMUP:
        lr = MAX_LR * (step + 1) / WARMUP
    elif step >= STEPS:
        lr = MIN_LR
    else:
        progress = (step - WARMUP) / (STEPS - WARMUP)
        lr = MIN_LR + 0.5 * (1.0 + math.cos(math.pi * progress)) * (MAX_LR - MIN_LR)
    return float(np.float32(lr))


def main():
    torch.manual_seed(1234)
    model = GPT()
    # Random weights at a scale where every op matters (LayerNorm weights and all biases too).
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name.endswith("ln1.weight") or name.endswith("ln2.weight") or name == "ln_f.weight":
                p.copy_(1.0 + 0.1 * torch.randn_like(p))
            else:
                p.copy_(0.1 * torch.randn_like(p) if p.dim() == 1 else 0.2 * torch.randn_like(p))
    ids = torch.randint(0, V, (B, T))
    targets = torch.randint(0, V, (B, T))

    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "reference", "gpt")
    os.makedirs(out, exist_ok=True)
    named = [(n, p.detach().clone()) for n, p in model.named_parameters()]
    write_fixture(os.path.join(out, "weights.bin"), named + [("ids", ids.float()), ("targets", targets.float())])

    logits = model(ids)
    loss = F.cross_entropy(logits.reshape(B * T, V), targets.reshape(B * T))
    loss.backward()
    write_fixture(os.path.join(out, "forward.bin"), [("logits", logits.detach()), ("loss", loss.detach())])
    write_fixture(os.path.join(out, "grads.bin"), [("grad." + n, p.grad) for n, p in model.named_parameters()])

    opt = torch.optim.AdamW(model.parameters(), lr=MAX_LR, weight_decay=WEIGHT_DECAY)
    losses, lrs, norms = [], [], []
    for step in range(STEPS):
        opt.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(ids).reshape(B * T, V), targets.reshape(B * T))
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), MAX_NORM)
        lr = warmup_cosine_lr(step)
        for group in opt.param_groups:
            group["lr"] = lr
        opt.step()
        losses.append(loss.item())
        lrs.append(lr)
        norms.append(norm.item())
    write_fixture(os.path.join(out, "train.bin"), [("losses", losses), ("lrs", lrs), ("grad_norms", norms)])
    print("losses:", " ".join("%.5f" % l for l in losses))


if __name__ == "__main__":
    main()
