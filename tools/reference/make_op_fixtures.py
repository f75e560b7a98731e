#!/usr/bin/python3
"""Writes tests/reference/ops/*.bin: PyTorch's outputs and gradients for every poetgrad op and
for a few compositions (broadcasting, batched matmul, causal attention, an MLP block, a GPT loss).

Run with Debian's python3-torch (1.13), from the repository root:
    /usr/bin/python3 tools/reference/make_op_fixtures.py
Each case stores its inputs in0, in1, ... (float32; ids, targets and masks hold whole numbers),
a fixed weight r, out = f(inputs) and grad<i> = d sum(out * r) / d in<i> for each input that
takes a gradient. PyTorch computes in float64 from the float32 inputs, so every stored value is
the exact answer rounded once to float32. tests/test_reference_ops.cpp holds the same cases in C++.
Leaves out: dropout's mask (PyTorch's generator is not ours; dropout.bin stores only its scaling).
"""
import os
import sys
import zlib

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fixture_io import write_fixture  # noqa: E402

OUT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "reference", "ops")


class Inputs:
    """Float32 inputs drawn from a generator seeded by the case name, so cases do not shift each other."""

    def __init__(self, name):
        self.rng = np.random.RandomState(zlib.crc32(name.encode()))

    def u(self, *shape, lo=-1.0, hi=1.0):
        return (self.rng.uniform(lo, hi, shape).astype(np.float32), True)

    def away(self, *shape):  # magnitude in [0.3, 1.3), random sign: far from relu's kink and from 0
        mag = self.rng.uniform(0.3, 1.3, shape)
        sign = np.where(self.rng.uniform(size=shape) < 0.5, -1.0, 1.0)
        return ((mag * sign).astype(np.float32), True)

    def distinct(self, *shape):  # values 0.1 apart, shuffled: no ties for max
        v = 0.1 * np.arange(int(np.prod(shape))) - 1.0
        self.rng.shuffle(v)
        return (v.reshape(shape).astype(np.float32), True)


def const(values):
    """An input that takes no gradient: ids, targets, masks, fixed tensors."""
    return (np.asarray(values, dtype=np.float32), False)


CAUSAL3 = const(np.triu(np.ones((3, 3)), 1))  # 1 above the diagonal: positions that may not attend
CAUSAL4 = const(np.triu(np.ones((4, 4)), 1))


def attention(x, w_attn, b_attn, w_proj, b_proj, mask, n_head=2):
    # x (B,T,C) -> q, k, v (B,NH,T,HS) -> causal softmax(q k^T / sqrt(HS)) v -> (B,T,C) -> proj
    B, T, C = x.shape
    hs = C // n_head
    q, k, v = F.linear(x, w_attn, b_attn).chunk(3, -1)
    q, k, v = (t.reshape(B, T, n_head, hs).transpose(1, 2) for t in (q, k, v))
    att = (q @ k.transpose(-2, -1)) * (1.0 / np.sqrt(hs))
    att = att.masked_fill(mask != 0, float("-inf")).softmax(-1)
    y = (att @ v).transpose(1, 2).reshape(B, T, C)
    return F.linear(y, w_proj, b_proj)


def mlp_block(x, ln_w, ln_b, w1, b1, w2, b2):
    h = F.layer_norm(x, (x.shape[-1],), ln_w, ln_b, 1e-5)
    return x + F.linear(F.gelu(F.linear(h, w1, b1), approximate="tanh"), w2, b2)


def gpt_loss(wte, wpe, ln_w, ln_b, ids, pos, targets):
    # ids (B,T) -> embeddings (B,T,C) -> layer_norm -> logits (B,T,V) tied to wte -> loss
    x = F.embedding(ids.long(), wte) + F.embedding(pos.long(), wpe)
    logits = F.linear(F.layer_norm(x, (x.shape[-1],), ln_w, ln_b, 1e-5), wte)
    return F.cross_entropy(logits.reshape(-1, wte.shape[0]), targets.reshape(-1).long(), ignore_index=-100)


# (group, name, function of the input tensors, inputs). Keep names in step with the C++ table.
def cases():
    def c(group, name, fn, make):
        return group, name, fn, make(Inputs(name))

    return [
        # ---- elementwise, broadcasting, scalar forms ----
        c("elementwise", "add", lambda a, b: a + b, lambda i: [i.u(2, 3), i.u(2, 3)]),
        c("elementwise", "add_row", lambda a, b: a + b, lambda i: [i.u(2, 3), i.u(3)]),
        c("elementwise", "add_3d", lambda a, b: a + b, lambda i: [i.u(2, 1, 3), i.u(4, 1)]),
        c("elementwise", "add_0d", lambda a, b: a + b, lambda i: [i.u(), i.u(2, 3)]),
        c("elementwise", "sub", lambda a, b: a - b, lambda i: [i.u(3, 1), i.u(1, 4)]),
        c("elementwise", "mul", lambda a, b: a * b, lambda i: [i.u(2, 1, 3), i.u(4, 1)]),
        c("elementwise", "mul_self", lambda a: a * a, lambda i: [i.u(5)]),
        c("elementwise", "mul_const", lambda a, b: a * b, lambda i: [i.u(3), const(i.u(2, 3)[0])]),
        c("elementwise", "div", lambda a, b: a / b, lambda i: [i.u(2, 3), i.away(2, 1)]),
        c("elementwise", "div_row", lambda a, b: a / b, lambda i: [i.u(3), i.away(2, 3)]),
        c("elementwise", "neg", lambda a: -a, lambda i: [i.u(2, 3)]),
        c("elementwise", "scalar_forms", lambda x: (2 - x) * 3 + x / 4 - 1 + 2 / (x + 3) + 1.5 * x,
          lambda i: [i.u(6)]),
        # ---- unary math ----
        c("unary", "pow_2", lambda x: x ** 2, lambda i: [i.u(2, 3)]),
        c("unary", "pow_3", lambda x: x ** 3, lambda i: [i.u(2, 3)]),
        c("unary", "pow_half", lambda x: x ** 0.5, lambda i: [i.u(2, 3, lo=0.5, hi=2.0)]),
        c("unary", "pow_m1_5", lambda x: x ** -1.5, lambda i: [i.u(2, 3, lo=0.5, hi=2.0)]),
        c("unary", "exp", torch.exp, lambda i: [i.u(3, 4, lo=-2.0, hi=2.0)]),
        c("unary", "log", torch.log, lambda i: [i.u(3, 4, lo=0.2, hi=3.0)]),
        c("unary", "sqrt", torch.sqrt, lambda i: [i.u(3, 4, lo=0.2, hi=3.0)]),
        c("unary", "tanh", torch.tanh, lambda i: [i.u(3, 4, lo=-2.0, hi=2.0)]),
        c("unary", "sigmoid", torch.sigmoid, lambda i: [i.u(3, 4, lo=-4.0, hi=4.0)]),
        c("unary", "relu", torch.relu, lambda i: [i.away(3, 4)]),
        c("unary", "gelu", lambda x: F.gelu(x, approximate="tanh"), lambda i: [i.u(3, 5, lo=-4.0, hi=4.0)]),
        # ---- reductions ----
        c("reduce", "sum_all", lambda x: x.sum(), lambda i: [i.u(2, 3, 4)]),
        c("reduce", "sum_0", lambda x: x.sum(0), lambda i: [i.u(2, 3, 4)]),
        c("reduce", "sum_1_keep", lambda x: x.sum(1, keepdim=True), lambda i: [i.u(2, 3, 4)]),
        c("reduce", "sum_m1", lambda x: x.sum(-1), lambda i: [i.u(2, 3, 4)]),
        c("reduce", "mean_all", lambda x: x.mean(), lambda i: [i.u(2, 3, 4)]),
        c("reduce", "mean_0_keep", lambda x: x.mean(0, keepdim=True), lambda i: [i.u(2, 3, 4)]),
        c("reduce", "mean_m2", lambda x: x.mean(-2), lambda i: [i.u(2, 3, 4)]),
        c("reduce", "max_all", lambda x: x.max(), lambda i: [i.distinct(2, 3, 4)]),
        c("reduce", "max_0", lambda x: x.max(0).values, lambda i: [i.distinct(2, 3, 4)]),
        c("reduce", "max_1", lambda x: x.max(1).values, lambda i: [i.distinct(2, 3, 4)]),
        c("reduce", "max_m1_keep", lambda x: x.max(-1, keepdim=True).values, lambda i: [i.distinct(2, 3, 4)]),
        # ---- shape ----
        c("shape", "reshape", lambda x: x.reshape(3, 4), lambda i: [i.u(2, 6)]),
        c("shape", "reshape_infer", lambda x: x.reshape(-1, 4), lambda i: [i.u(2, 3, 4)]),
        c("shape", "permute", lambda x: x.permute(2, 0, 1), lambda i: [i.u(2, 3, 4)]),
        c("shape", "transpose", lambda x: x.transpose(-1, -3), lambda i: [i.u(2, 3, 4)]),
        c("shape", "slice", lambda x: x[:, 1:4], lambda i: [i.u(2, 5, 3)]),
        c("shape", "slice_neg", lambda x: x[..., -2:], lambda i: [i.u(2, 5, 3)]),
        c("shape", "index_select_0", lambda x, ids: torch.index_select(x, 0, ids.long()),
          lambda i: [i.u(3, 4), const([2, 0, 2, 1])]),
        c("shape", "index_select_m1", lambda x, ids: torch.index_select(x, -1, ids.long()),
          lambda i: [i.u(2, 3, 4), const([3, 3, 0])]),
        c("shape", "concat_1", lambda a, b, d: torch.cat([a, b, d], 1),
          lambda i: [i.u(2, 1, 3), i.u(2, 2, 3), i.u(2, 3, 3)]),
        c("shape", "concat_m1", lambda a, b: torch.cat([a, b], -1), lambda i: [i.u(2, 2), const(i.u(2, 3)[0])]),
        c("shape", "chunk", lambda x: (lambda p: p[0] * p[2] - p[1])(x.chunk(3, -1)), lambda i: [i.u(2, 6)]),
        # ---- matrix products ----
        c("matmul", "matmul_2d", torch.matmul, lambda i: [i.u(3, 4), i.u(4, 5)]),
        c("matmul", "matmul_batched", torch.matmul, lambda i: [i.u(2, 3, 4), i.u(2, 4, 5)]),
        c("matmul", "matmul_bcast", torch.matmul, lambda i: [i.u(2, 1, 3, 4), i.u(3, 4, 2)]),
        c("matmul", "matmul_bcast_left", torch.matmul, lambda i: [i.u(3, 4), i.u(2, 4, 5)]),
        c("matmul", "linear", F.linear, lambda i: [i.u(2, 3, 4), i.u(5, 4), i.u(5)]),
        c("matmul", "linear_nobias", F.linear, lambda i: [i.u(3, 4), i.u(2, 4)]),
        c("matmul", "linear_1d", F.linear, lambda i: [i.u(4), i.u(3, 4), i.u(3)]),
        # ---- neural-network ops ----
        c("nn", "softmax_m1", lambda x: x.softmax(-1), lambda i: [i.u(2, 3, 5, lo=-3.0, hi=3.0)]),
        c("nn", "softmax_0", lambda x: x.softmax(0), lambda i: [i.u(2, 3, 5, lo=-3.0, hi=3.0)]),
        c("nn", "log_softmax_m1", lambda x: x.log_softmax(-1), lambda i: [i.u(2, 3, 5, lo=-3.0, hi=3.0)]),
        c("nn", "log_softmax_1", lambda x: x.log_softmax(1), lambda i: [i.u(2, 3, 5, lo=-3.0, hi=3.0)]),
        c("nn", "masked_fill", lambda x, m: x.masked_fill(m != 0, -5.0), lambda i: [i.u(2, 3, 3), CAUSAL3]),
        c("nn", "cross_entropy", lambda x, t: F.cross_entropy(x, t.long()),
          lambda i: [i.u(4, 6, lo=-2.0, hi=2.0), const([1, 5, 0, 3])]),
        c("nn", "cross_entropy_ignore", lambda x, t: F.cross_entropy(x, t.long(), ignore_index=-100),
          lambda i: [i.u(5, 6, lo=-2.0, hi=2.0), const([1, -100, 5, -100, 2])]),
        c("nn", "cross_entropy_ignore_2", lambda x, t: F.cross_entropy(x, t.long(), ignore_index=2),
          lambda i: [i.u(4, 6, lo=-2.0, hi=2.0), const([2, 0, 2, 3])]),
        c("nn", "embedding", lambda w, ids: F.embedding(ids.long(), w),
          lambda i: [i.u(5, 3), const([[0, 2, 0], [4, 2, 2]])]),
        c("nn", "layer_norm", lambda x, w, b: F.layer_norm(x, (8,), w, b, 1e-5),
          lambda i: [i.u(2, 3, 8, lo=-2.0, hi=2.0), i.u(8, lo=0.5, hi=1.5), i.u(8)]),
        c("nn", "layer_norm_1d", lambda x, w, b: F.layer_norm(x, (6,), w, b, 1e-5),
          lambda i: [i.u(6, lo=-2.0, hi=2.0), i.u(6, lo=0.5, hi=1.5), i.u(6)]),
        # ---- compositions ----
        c("compose", "broadcast_mix", lambda a, b, d, e: ((a * b + d) / e).sum(1, keepdim=True),
          lambda i: [i.u(2, 1, 3), i.u(4, 1), i.u(3), i.away(2, 4, 1)]),
        c("compose", "attention", attention,
          lambda i: [i.u(2, 4, 8), i.u(24, 8, lo=-0.5, hi=0.5), i.u(24, lo=-0.1, hi=0.1),
                     i.u(8, 8, lo=-0.5, hi=0.5), i.u(8, lo=-0.1, hi=0.1), CAUSAL4]),
        c("compose", "mlp_block", mlp_block,
          lambda i: [i.u(2, 3, 4), i.u(4, lo=0.5, hi=1.5), i.u(4), i.u(8, 4), i.u(8), i.u(4, 8), i.u(4)]),
        c("compose", "gpt_loss", gpt_loss,
          lambda i: [i.u(7, 4), i.u(3, 4), i.u(4, lo=0.5, hi=1.5), i.u(4), const([[1, 5, 2], [6, 0, 3]]),
                     const([0, 1, 2]), const([[5, 2, -100], [0, 3, 3]])]),
    ]


def run_case(fn, inputs):
    """out and the gradients of sum(out * r), computed in float64."""
    tensors = [torch.tensor(v, dtype=torch.float64, requires_grad=rg) for v, rg in inputs]
    out = fn(*tensors)
    rng = np.random.RandomState(1234)
    r = rng.uniform(-1.0, 1.0, tuple(out.shape)).astype(np.float32)
    (out * torch.tensor(r, dtype=torch.float64)).sum().backward()
    grads = [t.grad.numpy() if rg else None for t, (v, rg) in zip(tensors, inputs)]
    return out.detach().numpy(), r, grads


def dropout_fixture():
    # PyTorch's mask cannot match ours; store x, p and PyTorch's training output, whose kept
    # values show the 1/(1-p) scaling the C++ test demands of poetgrad's own mask.
    torch.manual_seed(0)
    x = Inputs("dropout").u(3, 40, lo=0.5, hi=1.5)[0]
    p = 0.25
    y = F.dropout(torch.tensor(x, dtype=torch.float64), p, training=True)
    return [("dropout/in0", x), ("dropout/p", np.float32(p)), ("dropout/torch_train", y.numpy())]


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    groups = {}
    for group, name, fn, inputs in cases():
        out, r, grads = run_case(fn, inputs)
        items = groups.setdefault(group, [])
        items += [("%s/in%d" % (name, k), v) for k, (v, _) in enumerate(inputs)]
        items += [(name + "/r", r), (name + "/out", out)]
        items += [("%s/grad%d" % (name, k), g) for k, g in enumerate(grads) if g is not None]
    groups["dropout"] = dropout_fixture()
    total = 0
    for group, items in sorted(groups.items()):
        path = os.path.join(OUT_DIR, group + ".bin")
        write_fixture(path, items)
        total += os.path.getsize(path)
        print("wrote %s (%d bytes)" % (os.path.relpath(path), os.path.getsize(path)))
    print("total %d bytes" % total)


if __name__ == "__main__":
    main()
