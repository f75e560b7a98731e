"""Reference values for tests/test_optim.cpp: PyTorch's SGD, Adam and AdamW, step by step.

A small least-squares problem, loss = mean((x @ W^T + b - y)^2), W (4,3), b (4), x (6,3), y (6,4).
Each optimizer takes 6 steps from the same start; before step 2 the gradient of b is dropped, so
b skips that update (and its Adam step count falls behind W's). Writes to tests/reference/optim/:
  problem.bin  W, b, x, y at the start
  <name>.bin   per step: loss (6), W after the step (6,4,3), b after the step (6,4)
Run with Debian's python3-torch 1.13 (CPU, float32): /usr/bin/python3 tools/reference/make_optim_fixtures.py
"""
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fixture_io import write_fixture  # noqa: E402

STEPS, SKIP_B_AT = 6, 2
OPTIMIZERS = {
    "sgd": lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9, weight_decay=0.01),
    "adam": lambda ps: torch.optim.Adam(ps, lr=0.05, weight_decay=0.01),
    "adamw": lambda ps: torch.optim.AdamW(ps, lr=0.05, weight_decay=0.1),
}


def main():
    torch.manual_seed(7)
    W0, b0 = torch.randn(4, 3), torch.randn(4)
    x, y = torch.randn(6, 3), torch.randn(6, 4)
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "reference", "optim")
    os.makedirs(out, exist_ok=True)
    write_fixture(os.path.join(out, "problem.bin"), [("W", W0), ("b", b0), ("x", x), ("y", y)])
    for name, make in OPTIMIZERS.items():
        W, b = W0.clone().requires_grad_(), b0.clone().requires_grad_()
        opt = make([W, b])
        losses, Ws, bs = [], [], []
        for step in range(STEPS):
            opt.zero_grad(set_to_none=True)
            loss = ((F.linear(x, W, b) - y) ** 2).mean()
            loss.backward()
            if step == SKIP_B_AT:
                b.grad = None
            opt.step()
            losses.append(loss.item())
            Ws.append(W.detach().clone())
            bs.append(b.detach().clone())
        write_fixture(os.path.join(out, name + ".bin"),
                      [("loss", losses), ("W", torch.stack(Ws)), ("b", torch.stack(bs))])
        print(name, "losses:", " ".join("%.5f" % l for l in losses))


if __name__ == "__main__":
    main()
