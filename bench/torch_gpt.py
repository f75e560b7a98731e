#!/usr/bin/env python3
"""The poet's GPT in PyTorch, and a timer for its training step: the reference side of
`./poet bench` (same model, same batch of records, same thread count).

The model matches pg::nn::GPT (lib/include/pg/nn/gpt.hpp): token + position embeddings, pre-norm
blocks (attention with a fused qkv Linear, GELU MLP of width 4C, dropout after the attention
weights, the attention projection and the MLP), final LayerNorm, untied head without bias, and the
same initial weights (N(0, 0.02), residual projections N(0, 0.02/sqrt(2 n_layer)), zero biases).

Run with Debian's python3-torch 1.13 (CPU):
  /usr/bin/python3 bench/torch_gpt.py --threads 2 [--repeat 20] [--corpus all|jueju]
"""
import argparse
import math
import os
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd, n_head, dropout):
        super().__init__()
        self.n_head = n_head
        self.qkv = nn.Linear(n_embd, 3 * n_embd)
        self.proj = nn.Linear(n_embd, n_embd)
        self.attn_drop = nn.Dropout(dropout)
        self.resid_drop = nn.Dropout(dropout)

    def forward(self, x):  # (B,T,C) -> (B,T,C)
        b, t, c = x.shape
        hs = c // self.n_head
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = (z.reshape(b, t, self.n_head, hs).transpose(1, 2) for z in (q, k, v))  # (B,NH,T,HS)
        att = q @ k.transpose(-2, -1) * (1.0 / math.sqrt(hs))
        mask = torch.triu(torch.ones(t, t, dtype=torch.bool), diagonal=1)
        att = self.attn_drop(att.masked_fill(mask, float("-inf")).softmax(-1))
        y = (att @ v).transpose(1, 2).reshape(b, t, c)
        return self.resid_drop(self.proj(y))


class MLP(nn.Module):
    def __init__(self, n_embd, dropout):
        super().__init__()
        self.fc = nn.Linear(n_embd, 4 * n_embd)
        self.out = nn.Linear(4 * n_embd, n_embd)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        return self.drop(self.out(F.gelu(self.fc(x), approximate="tanh")))


class Block(nn.Module):
    def __init__(self, n_embd, n_head, dropout):
        super().__init__()
        self.ln1 = nn.LayerNorm(n_embd)
        self.attn = CausalSelfAttention(n_embd, n_head, dropout)
        self.ln2 = nn.LayerNorm(n_embd)
        self.mlp = MLP(n_embd, dropout)

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class GPT(nn.Module):
    def __init__(self, vocab_size, context=32, n_layer=4, n_head=4, n_embd=128, dropout=0.0):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.wpe = nn.Embedding(context, n_embd)
        self.blocks = nn.ModuleList([Block(n_embd, n_head, dropout) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(n_embd)
        self.head = nn.Linear(n_embd, vocab_size, bias=False)
        resid_std = 0.02 / math.sqrt(2 * max(n_layer, 1))
        with torch.no_grad():
            for name, p in self.named_parameters():
                if name.endswith("bias"):
                    p.zero_()
                elif ".ln" in name or name.startswith("ln_f"):
                    continue
                elif name.endswith("attn.proj.weight") or name.endswith("mlp.out.weight"):
                    p.normal_(0.0, resid_std)
                else:
                    p.normal_(0.0, 0.02)

    def forward(self, ids):  # (B,T) -> (B,T,V)
        x = self.wte(ids) + self.wpe(torch.arange(ids.shape[1]))
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln_f(x))


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import torch_poet  # the corpus, tokenizer and records, shared with the training twin

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--warmup-steps", type=int, default=3)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--corpus", default="all", choices=["jueju", "all"])
    ap.add_argument("--dropout", type=float, default=0.0)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)

    train_poems, _ = torch_poet.load_corpus(args.corpus)
    vocab = torch_poet.build_vocab(train_poems)
    poems = torch_poet.encode(train_poems, vocab)
    model = GPT(len(vocab) + torch_poet.NUM_SPECIAL, dropout=args.dropout)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, betas=(0.9, 0.99), weight_decay=0.1)
    gen = torch.Generator().manual_seed(0)
    times = []
    for i in range(args.warmup_steps + args.repeat):
        t0 = time.perf_counter()
        x, y = torch_poet.sample_batch(poems, args.batch, gen)
        logits = model(x)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1), ignore_index=-1)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        if i >= args.warmup_steps:
            times.append(time.perf_counter() - t0)
    ms = 1000 * sum(times) / len(times)
    tokens = args.batch * torch_poet.INPUT_LENGTH
    print(f"torch {torch.__version__} bench: 4 layers, 4 heads, width 128, batch {args.batch} x "
          f"{torch_poet.INPUT_LENGTH} tokens, corpus '{args.corpus}', {torch.get_num_threads()} threads")
    print(f"vocab_size {len(vocab) + torch_poet.NUM_SPECIAL}")
    print(f"parameters {sum(p.numel() for p in model.parameters())}")
    print(f"ms_per_step {ms:.1f}   (mean of {args.repeat} after {args.warmup_steps} warm-up)")
    print(f"tokens_per_s {tokens / (ms / 1000):.0f}")


if __name__ == "__main__":
    main()
