#!/usr/bin/python3
"""Writes tests/reference/optim_trajectories/*.txt for lesson 21: PyTorch's optimizers walking the
Rosenbrock valley f(x, y) = (1 - x)^2 + 100 (y - x^2)^2 from (-1.5, 2), and the poet's lr schedule.

Run with Debian's python3-torch (1.13), from the repository root:
    /usr/bin/python3 tools/reference/make_optim_trajectories.py
Each trajectory file has '#' comment lines (the settings), then one line per step: `step x y f`,
the point after that many steps and f there, STEPS + 1 lines (step 0 is the start). Every number is
a float32 written with 9 significant digits, so the C++ reads back exactly the float PyTorch held.
schedule.txt holds `step lr` for the poet's default run, from PyTorch's own LinearLR and
CosineAnnealingLR chained by SequentialLR (not from a copy of poetgrad's formula).
Leaves out: parameter groups, AMSGrad, foreach/fused kernels (1.13's defaults on CPU are the
single-tensor loops these use).
"""
import math
import os
import warnings

import numpy as np
import torch

OUT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "reference",
                       "optim_trajectories")
START, STEPS = (-1.5, 2.0), 500


def f32(v):
    """v rounded to float32, as poetgrad holds every setting (lr, weight decay) in a float."""
    return float(np.float32(v))


LR_SGD, MOMENTUM, LR_ADAM, BETAS, WD = f32(1e-3), f32(0.9), f32(0.05), (f32(0.9), f32(0.99)), f32(0.1)
CLIP = f32(10.0)                      # above the gradients on the valley floor: only the steep first steps
WARMUP = STEPS // 10                  # poet::default_warmup(500): a tenth of a short run
MIN_LR = f32(LR_ADAM / 10)            # the poet's min_lr is a tenth of its lr too


def rosenbrock(p):
    x, y = p[0], p[1]
    return (1 - x) ** 2 + 100 * (y - x ** 2) ** 2


def warmup_cosine(step):
    """pg::optim::warmup_cosine_lr: the warmup in float32; the cosine in double, times max_lr - min_lr
    taken in float32 (as the C++ subtracts its two float arguments)."""
    if step < WARMUP:
        return float(np.float32(np.float32(LR_ADAM) * np.float32(step + 1)) / np.float32(WARMUP))
    progress = (step - WARMUP) / (STEPS - WARMUP)
    return f32(MIN_LR + 0.5 * (1 + math.cos(math.pi * progress)) * f32(LR_ADAM - MIN_LR))


RUNS = {
    "sgd": ("torch.optim.SGD(lr=1e-3)", lambda ps: torch.optim.SGD(ps, lr=LR_SGD), None, None),
    "momentum": ("torch.optim.SGD(lr=1e-3, momentum=0.9)",
                 lambda ps: torch.optim.SGD(ps, lr=LR_SGD, momentum=MOMENTUM), None, None),
    "adam": ("torch.optim.Adam(lr=0.05, betas=(0.9, 0.99))",
             lambda ps: torch.optim.Adam(ps, lr=LR_ADAM, betas=BETAS), None, None),
    "adamw": ("torch.optim.AdamW(lr=0.05, betas=(0.9, 0.99), weight_decay=0.1)",
              lambda ps: torch.optim.AdamW(ps, lr=LR_ADAM, betas=BETAS, weight_decay=WD), None, None),
    "recipe": ("torch.optim.AdamW(lr=0.05, betas=(0.9, 0.99), weight_decay=0.1), lr set each step to "
               "warmup %d then cosine to %g, clip_grad_norm_(max_norm=10) before each step" % (WARMUP, MIN_LR),
               lambda ps: torch.optim.AdamW(ps, lr=LR_ADAM, betas=BETAS, weight_decay=WD), warmup_cosine, CLIP),
}


def trajectory(make, schedule, clip):
    p = torch.tensor(START, dtype=torch.float32, requires_grad=True)
    opt = make([p])
    rows = [(p[0].item(), p[1].item(), rosenbrock(p).item())]
    for step in range(STEPS):
        if schedule:
            opt.param_groups[0]["lr"] = schedule(step)
        opt.zero_grad()
        rosenbrock(p).backward()
        if clip:
            torch.nn.utils.clip_grad_norm_([p], clip)
        opt.step()
        with torch.no_grad():
            rows.append((p[0].item(), p[1].item(), rosenbrock(p).item()))
    return rows


def poet_schedule(warmup=100, total=2000, max_lr=2e-3, min_lr=2e-4):
    """The poet's default lr at steps 0..total, from PyTorch's schedulers."""
    p = torch.zeros(1, requires_grad=True)
    opt = torch.optim.SGD([p], lr=max_lr)
    ramp = torch.optim.lr_scheduler.LinearLR(opt, start_factor=1 / warmup, end_factor=1.0, total_iters=warmup - 1)
    decay = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=total - warmup, eta_min=min_lr)
    sched = torch.optim.lr_scheduler.SequentialLR(opt, [ramp, decay], milestones=[warmup])
    # 1.13's SequentialLR passes an epoch to CosineAnnealingLR.step at the milestone and warns about it
    warnings.filterwarnings("ignore", message="The epoch parameter", category=UserWarning)
    lrs = []
    for _ in range(total + 1):
        lrs.append(opt.param_groups[0]["lr"])
        opt.step()
        sched.step()
    return lrs


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    head = "# written by tools/reference/make_optim_trajectories.py with PyTorch %s (CPU, float32)\n" % (
        torch.__version__)
    for name, (what, make, schedule, clip) in RUNS.items():
        rows = trajectory(make, schedule, clip)
        with open(os.path.join(OUT_DIR, name + ".txt"), "w") as out:
            out.write(head)
            out.write("# %s on f(x, y) = (1 - x)^2 + 100 (y - x^2)^2 from (%g, %g), %d steps\n" % (what, *START, STEPS))
            out.write("# step x y f: the point after `step` steps and f there\n")
            for step, (x, y, fx) in enumerate(rows):
                out.write("%d %.9g %.9g %.9g\n" % (step, x, y, fx))
        print("%-8s final (%.4f, %.4f) f %.6f" % (name, *rows[-1]))
    with open(os.path.join(OUT_DIR, "schedule.txt"), "w") as out:
        out.write(head)
        out.write("# the poet's default lr: LinearLR(start_factor=1/100, total_iters=99), then "
                  "CosineAnnealingLR(T_max=1900, eta_min=2e-4), chained by SequentialLR(milestones=[100]), lr 2e-3\n")
        out.write("# step lr: the lr step `step` (counted from 0) uses\n")
        for step, lr in enumerate(poet_schedule()):
            out.write("%d %.17g\n" % (step, lr))


if __name__ == "__main__":
    main()
