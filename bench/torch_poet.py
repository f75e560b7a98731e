#!/usr/bin/env python3
"""The poet's training run in PyTorch, for the side-by-side with `./poet train` (issue 6, item 7).

Same corpus (data/poems/), same tokenizer (COPY BOS SEP EOS UNK, then characters by count, ties by
code point), same records (BOS k SEP poem EOS, k drawn from the poem at each draw, loss on poem +
EOS only; with the copy token, the default, the poem's k written as COPY), same validation records
(k at slot 7*i mod 20; a target k scored -log(p(k) + p(COPY))), same model and initial weights
(torch_gpt.py), same AdamW + linear warmup + cosine schedule + clipping. Only the random streams
differ (PyTorch's generator, not poetgrad's). Prints the validation loss at the same steps as the
C++ run, then a few poems written with the same constrained decoding and character placement.

  /usr/bin/python3 bench/torch_poet.py --steps 2000 --threads 2 [--corpus all] [--dropout 0] [--copy-token off]
"""
import argparse
import math
import os
import sys
import time
from collections import Counter

import torch
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "data", "poems")
COPY, BOS, SEP, EOS, UNK = 0, 1, 2, 3, 4
NUM_SPECIAL = 5
RECORD_LENGTH = 28          # BOS k SEP + 24 + EOS
INPUT_LENGTH = RECORD_LENGTH - 1
SLOT_POSITIONS = [s + s // 5 for s in range(20)]   # character slot -> position in the 24


def load_corpus(name):
    def read(fname):
        with open(os.path.join(DATA, fname), encoding="utf-8") as f:
            return [line.rstrip("\n") for line in f]
    train = read("jueju_train.txt")
    if name == "all":
        for part in (1, 2, 3):
            train += read(f"lushi_halves_{part}.txt")
    return train, read("jueju_val.txt")


def build_vocab(poems):
    counts = Counter()
    for p in poems:
        counts.update(p)
    return [c for c, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]


def encode(poems, vocab):
    ids = {c: i + NUM_SPECIAL for i, c in enumerate(vocab)}
    return torch.tensor([[ids.get(c, UNK) for c in p] for p in poems], dtype=torch.long)   # (N,24)


def records(poems, slots, copy_token):
    """(B,24) poems and (B) slots -> inputs (B,27) and targets (B,27), k and SEP targets ignored;
    copy_token: the poem's k written as COPY (tools/poet/copy_token.hpp)."""
    b = poems.shape[0]
    k = poems[torch.arange(b), torch.tensor(SLOT_POSITIONS)[slots]]
    if copy_token:
        poems = poems.masked_fill(poems == k[:, None], COPY)
    rows = torch.cat([torch.full((b, 1), BOS), k[:, None], torch.full((b, 1), SEP), poems,
                      torch.full((b, 1), EOS)], dim=1)
    x, y = rows[:, :-1].clone(), rows[:, 1:].clone()
    y[:, :2] = -1
    return x, y


def sample_batch(poems, batch, gen, copy_token):
    idx = torch.randint(poems.shape[0], (batch,), generator=gen)
    return records(poems[idx], torch.randint(20, (batch,), generator=gen), copy_token)


def fold_copy(logits, k):
    """(...,V) logits, k (...) -> the same with COPY's probability added to k's (copy_token.hpp)."""
    k = k.expand(logits.shape[:-1])[..., None]
    folded = torch.logaddexp(logits.gather(-1, k), logits[..., COPY:COPY + 1])
    return logits.scatter(-1, k, folded).index_fill(-1, torch.tensor([COPY]), float("-inf"))


def validation_loss(model, val, copy_token):
    model.eval()
    with torch.no_grad():
        x, y = records(val, (7 * torch.arange(val.shape[0])) % 20, copy_token)
        if copy_token:
            y = torch.where(y == COPY, x[:, 1:2], y)   # a target k, scored with k's and COPY's mass
        total = 0.0
        for i in range(0, x.shape[0], 64):
            logits = model(x[i:i + 64])
            if copy_token:
                logits = fold_copy(logits, x[i:i + 64, 1:2])
            total += F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y[i:i + 64].reshape(-1),
                                     ignore_index=-1, reduction="sum").item()
    model.train()
    return total / (val.shape[0] * 25)


def warmup_cosine_lr(step, warmup, total, max_lr, min_lr):
    """pg::optim::warmup_cosine_lr."""
    if step < warmup:
        return max_lr * (step + 1) / warmup
    if step >= total:
        return min_lr
    progress = (step - warmup) / (total - warmup)
    return min_lr + 0.5 * (1.0 + math.cos(math.pi * progress)) * (max_lr - min_lr)


def is_han(c):
    return "\u4e00" <= c <= "\u9fff"


def write(model, vocab, k, temperature, gen, copy_token):
    """One constrained quatrain holding k: draft, then place k where the model finds it likeliest.
    copy_token: the model reads the poem's k as COPY, and COPY's probability is k's."""
    han = torch.tensor([is_han(c) for c in vocab])
    allowed = torch.cat([torch.zeros(NUM_SPECIAL, dtype=torch.bool), han])
    punct = {5: vocab.index("，") + NUM_SPECIAL, 11: vocab.index("。") + NUM_SPECIAL,
             17: vocab.index("，") + NUM_SPECIAL, 23: vocab.index("。") + NUM_SPECIAL}

    def probs(logits):
        if copy_token:
            logits = fold_copy(logits, torch.tensor(k))
        z = logits.masked_fill(~allowed, float("-inf")) / temperature
        return z.softmax(-1)

    def read(row):   # what the model reads
        return torch.tensor([[COPY if copy_token and t >= 3 and i == k else i for t, i in enumerate(row)]])

    def fill(row, fixed):
        while len(row) < 3 + 24:
            pos = len(row) - 3
            if pos in fixed:
                row.append(fixed[pos])
                continue
            with torch.no_grad():
                p = probs(model(read(row))[0, -1])
            row.append(int(torch.multinomial(p, 1, generator=gen)))
        return row

    model.eval()
    row = fill([BOS, k, SEP], dict(punct))
    if k not in row[3:]:
        with torch.no_grad():
            logits = model(read(row))[0]                               # (27,V)
        q = torch.stack([probs(logits[2 + SLOT_POSITIONS[s]])[k] for s in range(20)])
        slot = int(torch.multinomial(q / q.sum(), 1, generator=gen))
        pos = SLOT_POSITIONS[slot]
        row = fill(row[:3 + pos], {**punct, pos: k})
    model.train()
    text = "".join(vocab[i - NUM_SPECIAL] for i in row[3:])
    return text[:12] + "\n" + text[12:]


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from torch_gpt import GPT

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--min-lr", type=float, default=None, help="default lr/10")
    ap.add_argument("--warmup", type=int, default=100)
    ap.add_argument("--weight-decay", type=float, default=0.1)
    ap.add_argument("--beta1", type=float, default=0.9)
    ap.add_argument("--beta2", type=float, default=0.99)
    ap.add_argument("--clip", type=float, default=1.0)
    ap.add_argument("--dropout", type=float, default=0.0)
    ap.add_argument("--corpus", default="all", choices=["jueju", "all"])
    ap.add_argument("--copy-token", default="on", choices=["on", "off"])
    ap.add_argument("--eval-every", type=int, default=250)
    ap.add_argument("--seed", type=int, default=1337)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--chars", default="春月山风花", help="characters to write poems for at the end")
    args = ap.parse_args()
    min_lr = args.lr / 10 if args.min_lr is None else args.min_lr
    copy = args.copy_token == "on"
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)

    train_text, val_text = load_corpus(args.corpus)
    vocab = build_vocab(train_text)
    train, val = encode(train_text, vocab), encode(val_text, vocab)
    model = GPT(len(vocab) + NUM_SPECIAL, dropout=args.dropout)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(args.beta1, args.beta2), eps=1e-8,
                            weight_decay=args.weight_decay)
    gen = torch.Generator().manual_seed(args.seed)
    print(f"torch {torch.__version__}: {len(train_text)} training poems (corpus '{args.corpus}'), "
          f"{len(val_text)} validation, vocabulary {len(vocab) + NUM_SPECIAL}, "
          f"{sum(p.numel() for p in model.parameters())} parameters, {torch.get_num_threads()} threads", flush=True)
    start = time.perf_counter()
    for step in range(args.steps):
        lr = warmup_cosine_lr(step, args.warmup, args.steps, args.lr, min_lr)
        for g in opt.param_groups:
            g["lr"] = lr
        x, y = sample_batch(train, args.batch, gen, copy)
        logits = model(x)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1), ignore_index=-1)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
        opt.step()
        done = step + 1
        if done % args.eval_every == 0 or done == args.steps:
            elapsed = time.perf_counter() - start
            print(f"step {done}: val loss {validation_loss(model, val, copy):.4f}, train loss {loss.item():.4f}, "
                  f"{1000 * elapsed / done:.0f} ms/step", flush=True)
    for c in args.chars:
        print(f"\n{c}\n{write(model, vocab, vocab.index(c) + NUM_SPECIAL, 0.8, gen, copy)}")


if __name__ == "__main__":
    main()
