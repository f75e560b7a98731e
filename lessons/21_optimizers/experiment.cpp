// Lesson 21 experiment: the library's SGD, momentum, Adam, AdamW and the poet's recipe (AdamW,
// warmup + cosine, clipping) walk the Rosenbrock valley beside PyTorch's trajectories (fixtures),
// drawn in trajectories.svg; then bias correction, decoupled decay, clipping and the poet's schedule.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <sstream>
#include "lesson.hpp"
#include "poet/config.hpp"
#include "valley_svg.hpp"

namespace optim = pg::optim;

static const std::string kFixtures = std::string(POET_SOURCE_DIR) + "/tests/reference/optim_trajectories/";
static const size_t kSteps = 500;
static const float kStartX = -1.5f, kStartY = 2.f;

// f(x, y) = (1 - x)^2 + 100 (y - x^2)^2, minimum 0 at (1, 1). p (2) -> ()
static pg::Tensor rosenbrock(const pg::Tensor& p) {
    pg::Tensor x = pg::slice(p, 0, 0, 1), y = pg::slice(p, 0, 1, 2);   // (1), (1)
    return pg::sum(pg::pow(1.f - x, 2.f) + 100.f * pg::pow(y - pg::pow(x, 2.f), 2.f));
}

static double rosenbrock(double x, double y) { return (1 - x) * (1 - x) + 100 * (y - x * x) * (y - x * x); }

struct Point {
    float x, y, f;
};

static Point where(const pg::Tensor& p) {
    pg::NoGradGuard no_grad;
    std::vector<float> v = p.to_vector();
    return {v[0], v[1], rosenbrock(p).item()};
}

// One run: an optimizer on the valley. `recipe` adds the poet's two extras, as train_step does:
// the lr of each step from warmup_cosine_lr, and clip_grad_norm before opt.step().
struct Run {
    std::string name, label, color;
    std::function<std::unique_ptr<optim::Optimizer>(const pg::Tensor&)> make;
    bool recipe = false;
};

static const float kMaxLr = 0.05f, kMinLr = kMaxLr / 10, kClip = 10.f;   // clip: above the valley floor's norms
static const size_t kWarmup = poet::default_warmup(kSteps);   // a tenth of a short run: 50

// The points after 0, 1, ..., kSteps steps; `clipped` counts the steps whose norm was above kClip.
static std::vector<Point> walk(const Run& run, size_t& clipped) {
    pg::Tensor p = pg::tensor({kStartX, kStartY}, {2}, true);
    std::unique_ptr<optim::Optimizer> opt = run.make(p);
    std::vector<Point> path = {where(p)};
    clipped = 0;
    for (size_t step = 0; step < kSteps; ++step) {
        if (run.recipe) opt->set_lr(optim::warmup_cosine_lr(step, kWarmup, kSteps, kMaxLr, kMinLr));
        opt->zero_grad();
        rosenbrock(p).backward();
        if (run.recipe && optim::clip_grad_norm(opt->params(), kClip) > kClip) ++clipped;
        opt->step();
        path.push_back(where(p));
    }
    return path;
}

// PyTorch's trajectory: lines "step x y f" after '#' comments (tools/reference/make_optim_trajectories.py).
static std::vector<Point> read_fixture(const std::string& name) {
    std::string file = kFixtures + name + ".txt";
    std::ifstream in(file);
    if (!in) throw std::runtime_error("cannot open " + file + " (tests/reference/optim_trajectories/README.md)");
    std::vector<Point> path;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream row(line);
        size_t step;
        Point q;
        if (!(row >> step >> q.x >> q.y >> q.f) || step != path.size())
            throw std::runtime_error("bad line in " + file + ": " + line);
        path.push_back(q);
    }
    return path;
}

static std::string sci(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1e", v);
    return buf;
}

static std::string point(float x, float y) { return "(" + lesson::num(x, 3) + ", " + lesson::num(y, 3) + ")"; }

// Sets p's gradient to g: the gradient of sum(p * g) is g.
static void set_grad(pg::Tensor& p, const pg::Tensor& g) {
    p.zero_grad();
    pg::sum(p * g).backward();
}

static void valley() {
    lesson::section(lesson::tr("the valley: f(x, y) = (1 - x)^2 + 100 (y - x^2)^2, start (-1.5, 2)",
                                "山谷：f(x, y) = (1 - x)^2 + 100 (y - x^2)^2，起点 (-1.5, 2)"));
    pg::Tensor p = pg::tensor({kStartX, kStartY}, {2}, true);
    pg::Tensor f = rosenbrock(p);
    f.backward();
    lesson::show("p", p);
    lesson::show("f(p)", f);
    lesson::show("p.grad()", p.grad(), 1);
    lesson::confirm("f at the start", f.item(), 12.5, 1e-6,
                    lesson::tr("by hand, 2.5^2 + 100 * (2 - 2.25)^2 = 6.25 + 6.25", "手算，2.5^2 + 100 * (2 - 2.25)^2 = 6.25 + 6.25"));
    lesson::confirm("gradient", p.grad(), pg::tensor({-155.f, -50.f}), 1e-4,
                    lesson::tr("by hand, (-2 (1 - x) - 400 x (y - x^2), 200 (y - x^2)) = (-5 - 150, -50)",
                               "手算，(-2 (1 - x) - 400 x (y - x^2), 200 (y - x^2)) = (-5 - 150, -50)"));
    std::cout << lesson::tr("the minimum: f(1, 1) = ", "最小值：f(1, 1) = ") << lesson::num(rosenbrock(1.0, 1.0), 1)
              << lesson::tr("; the valley floor is y = x^2", "；谷底是 y = x^2") << "\n";
    // the curvatures: eigenvalues of the Hessian [[2 - 400 (y - x^2) + 800 x^2, -400 x], [-400 x, 200]]
    const double x = kStartX, y = kStartY, a = 2 - 400 * (y - x * x) + 800 * x * x, b = -400 * x, d = 200;
    const double mid = (a + d) / 2, half = std::sqrt((a - d) * (a - d) / 4 + b * b);
    std::cout << lesson::tr("the curvatures at the start (the Hessian's eigenvalues): across the valley ",
                            "起点处的曲率（Hessian 的特征值）：横穿山谷 ")
              << lesson::num(mid + half, 1) << lesson::tr(", along it ", "，沿着山谷 ") << lesson::num(mid - half, 1) << "\n"
              << lesson::tr("plain SGD overshoots across the valley when lr > 2 / ", "普通 SGD 在 lr > 2 / ")
              << lesson::num(mid + half, 1) << " = " << lesson::num(2 / (mid + half), 5)
              << lesson::tr("", " 时会横着冲过山谷") << "\n";
}

static void first_steps(const std::vector<Run>& runs, const std::vector<std::vector<Point>>& walks) {
    lesson::section(lesson::tr("the first step of each, by hand (gradient (-155, -50))", "每个优化器的第一步，手算（梯度 (-155, -50)）"));
    // Adam's first step moves each coordinate by lr against the sign of its gradient: m_hat / sqrt(v_hat) = g / |g|
    const std::vector<std::pair<std::string, std::vector<float>>> by_hand = {
        {"p - lr g = (-1.5 + 0.155, 2 + 0.05)", {-1.345f, 2.05f}},
        {lesson::tr("the same: the velocity starts at 0, so v = g", "与 SGD 相同，因为速度从 0 开始，v = g"), {-1.345f, 2.05f}},
        {"p - lr sign(g) = (-1.5 + 0.05, 2 + 0.05)", {-1.45f, 2.05f}},
        {"p (1 - lr wd) - lr sign(g) = (-1.5 * 0.995 + 0.05, 2 * 0.995 + 0.05)", {-1.4425f, 2.04f}},
        {lesson::tr("lr 0.05 * 1/50 = 0.001, the clip does not turn Adam's step: p * 0.9999 + 0.001",
                    "lr 0.05 * 1/50 = 0.001，裁剪不改变 Adam 这一步的方向：p * 0.9999 + 0.001"),
         {-1.49885f, 2.0008f}},
    };
    for (size_t r = 0; r < runs.size(); ++r) {
        const Point& q = walks[r][1];
        std::printf(lesson::chinese() ? "  %-9s (%.5f, %.5f)   手算：%s\n" : "  %-9s (%.5f, %.5f)   by hand %s\n", runs[r].name.c_str(), q.x,
                    q.y, by_hand[r].first.c_str());
        lesson::confirm(runs[r].name + " step 1", pg::tensor({q.x, q.y}), pg::tensor(by_hand[r].second, {2}), 2e-6,
                        lesson::tr("by hand", "手算"));
    }
}

static void trajectories(const std::vector<Run>& runs, const std::vector<std::vector<Point>>& walks,
                         const std::vector<size_t>& clipped) {
    lesson::section(lesson::tr("500 steps from (-1.5, 2), beside PyTorch 1.13 (tests/reference/optim_trajectories/)",
                                "从 (-1.5, 2) 走 500 步，与 PyTorch 1.13 对照（tests/reference/optim_trajectories/）"));
    std::vector<valley_svg::Path> paths;
    for (size_t r = 0; r < runs.size(); ++r) {
        const Run& run = runs[r];
        const std::vector<Point>& ours = walks[r];
        std::vector<Point> torch = read_fixture(run.name);
        if (torch.size() != ours.size()) throw std::runtime_error(run.name + ".txt: wrong number of steps");
        std::cout << "\n" << run.label << "\n"
                  << lesson::tr("  step        x        y          f  |  PyTorch x        y          f\n",
                                "    步        x        y          f  |  PyTorch x        y          f\n");
        double worst = 0;
        for (size_t s = 0; s < ours.size(); ++s) {
            worst = std::max({worst, std::fabs(double(ours[s].x) - torch[s].x),
                              std::fabs(double(ours[s].y) - torch[s].y)});
            if (s == 0 || s == 1 || s == 2 || s == 10 || s == 50 || s % 100 == 0)
                std::printf("  %4zu  %7.4f  %7.4f  %9.4f  |  %9.4f  %7.4f  %9.4f\n", s, ours[s].x, ours[s].y, ours[s].f,
                            torch[s].x, torch[s].y, torch[s].f);
        }
        char final_f[32];
        std::snprintf(final_f, sizeof final_f, "%.2g", ours.back().f);
        std::cout << lesson::tr("  final point ", "  终点 ") << point(ours.back().x, ours.back().y) << lesson::tr(", f = ", "，f = ")
                  << final_f << lesson::tr("; max |ours - PyTorch| over the 501 points: ", "；501 个点上 max |ours - PyTorch| = ")
                  << sci(worst) << "\n";
        if (run.recipe)
            std::cout << lesson::tr("  clip_grad_norm scaled the gradient down on ", "  clip_grad_norm 在 ") << clipped[r]
                      << lesson::tr(" of the ", " 步（共 ") << kSteps << lesson::tr(" steps", " 步）里把梯度缩小了") << "\n";
        lesson::confirm(run.name + ": max |ours - PyTorch|", worst, 0.0, 1e-4, lesson::tr("PyTorch's trajectory, within 1e-4", "PyTorch 的轨迹，误差在 1e-4 以内"));
        valley_svg::Path path{run.label, run.color, {}, {}};
        for (const Point& q : ours) {
            path.points.emplace_back(q.x, q.y);
            path.f.push_back(q.f);
        }
        paths.push_back(path);
    }
    valley_svg::Frame frame{-1.8, 1.4, -0.6, 2.6};
    // the English run draws trajectories.svg, the Chinese one (POET_LANG=zh) trajectories.zh.svg
    const valley_svg::Words words{
        lesson::tr("500 steps from (-1.5, 2), a dot every 50; contours f = 0.25, 1, 4, ..., 1024; the cross is the minimum (1, 1)",
                   "从 (-1.5, 2) 出发走 500 步，每 50 步一个点；等高线 f = 0.25, 1, 4, ..., 1024；十字是最小值 (1, 1)"),
        lesson::tr("f against the step", "f 随步数的变化")};
    const std::string name = lesson::chinese() ? "trajectories.zh.svg" : "trajectories.svg";
    valley_svg::write(svg::in_lesson_folder(__FILE__, name).path, words, [](double x, double y) { return rosenbrock(x, y); },
                      {0.25, 1, 4, 16, 64, 256, 1024}, {1, 1}, paths, frame, 50);
    std::cout << "\n" << lesson::tr("wrote ", "已写出 ") << "lessons/21_optimizers/" << name << "\n";
}

static void bias_correction() {
    lesson::section(lesson::tr("bias correction: one AdamW step on one number, p = 1, g = 0.5", "偏差校正：对一个数走一步 AdamW，p = 1，g = 0.5"));
    optim::AdamWOptions o{0.1f, 0.9f, 0.999f, 1e-8f, 0.1f};   // lr, beta1, beta2, eps, weight decay
    pg::Tensor p = pg::tensor({1.f}, {1}, true);
    optim::AdamW adamw({p}, o);
    set_grad(p, pg::tensor({0.5f}));
    adamw.step();
    double m = 0.1 * 0.5, v = 0.001 * 0.25, m_hat = m / (1 - 0.9), v_hat = v / (1 - 0.999);
    using lesson::tr;
    std::cout << tr("lr 0.1, betas (0.9, 0.999), weight decay 0.1", "lr 0.1，betas (0.9, 0.999)，权重衰减 0.1") << "\n"
              << tr("decay:      ", "衰减：      ") << "p * (1 - lr wd) = 1 * 0.99 = 0.99\n"
              << tr("moments:    ", "矩估计：    ") << "m = 0.1 g = " << lesson::num(m, 4) << tr(", ", "，")
              << "v = 0.001 g^2 = " << lesson::num(v, 5) << "\n"
              << tr("corrected:  ", "校正后：    ") << "m_hat = m / (1 - 0.9) = " << lesson::num(m_hat, 4) << tr(", ", "，")
              << "v_hat = v / (1 - 0.999) = " << lesson::num(v_hat, 4) << "\n"
              << tr("update:     ", "更新量：    ") << "lr m_hat / (sqrt(v_hat) + eps) = 0.1 * 0.5 / 0.5 = 0.1\n";
    lesson::show(tr("pg::optim::AdamW: p after step 1", "pg::optim::AdamW：第 1 步之后的 p"), p.item(), 6);
    lesson::confirm("p after one AdamW step", p.item(), 0.89, 1e-6, tr("by hand, 0.99 - 0.1", "手算，0.99 - 0.1"));
    double no_correction = 0.1 * m / std::sqrt(v);
    std::cout << tr("without the correction: ", "不做校正：") << "lr m / sqrt(v) = 0.1 * 0.05 / " << lesson::num(std::sqrt(v), 6)
              << " = " << lesson::num(no_correction, 5) << tr(", ", "，是 lr 的 ") << lesson::num(no_correction / 0.1, 4)
              << tr(" times lr, and p = ", " 倍，p = ") << lesson::num(0.99 - no_correction, 5) << "\n";

    std::cout << "\n" << tr("the correction 1 - beta^t: how much of the average is there yet, after t steps from zero",
                          "校正因子 1 - beta^t：从零出发走了 t 步之后，平均值已经攒到了多少") << "\n"
              << tr("      t   beta 0.9   beta 0.99   beta 0.999\n", "      t    β = 0.9    β = 0.99    β = 0.999\n");
    for (int t : {1, 2, 10, 100, 1000, 2000})
        std::printf("  %5d   %8.4f   %9.4f   %10.4f\n", t, 1 - std::pow(0.9, t), 1 - std::pow(0.99, t),
                    1 - std::pow(0.999, t));
    std::cout << tr("the first step without correction moves by (1 - beta1) / sqrt(1 - beta2) times lr:",
                    "不做校正，第一步移动的是 lr 的 (1 - beta1) / sqrt(1 - beta2) 倍：")
              << "\n  betas (0.9, 0.999): " << lesson::num(0.1 / std::sqrt(0.001), 4)
              << tr("    betas (0.9, 0.99), the poet's: ", "    诗人的 betas (0.9, 0.99)：") << lesson::num(0.1 / std::sqrt(0.01), 4)
              << "\n"
              << tr("  the poet's betas, step 2 with the same gradient: ", "  诗人的 betas，第 2 步梯度不变时：")
              << "m / sqrt(v) = 0.19 g / sqrt(0.0199 g^2) = " << lesson::num(0.19 / std::sqrt(0.0199), 4)
              << tr(" instead of 1", "，而不是 1") << "\n";
}

static void decoupled_decay() {
    lesson::section(lesson::tr("decoupled decay: 10 steps, gradient (10, 0) on p = (1, 1), lr 0.01, weight decay 0.1",
                                "解耦衰减：10 步，p = (1, 1) 上的梯度 (10, 0)，lr 0.01，权重衰减 0.1"));
    pg::Tensor g = pg::tensor({10.f, 0.f});
    pg::Tensor a = pg::tensor({1.f, 1.f}, {2}, true), w = pg::tensor({1.f, 1.f}, {2}, true);
    optim::Adam adam_l2({a}, optim::AdamOptions{0.01f, 0.9f, 0.99f, 1e-8f, 0.1f});
    optim::AdamW adamw({w}, optim::AdamWOptions{0.01f, 0.9f, 0.99f, 1e-8f, 0.1f});
    for (int step = 0; step < 10; ++step) {
        set_grad(a, g);
        adam_l2.step();
        set_grad(w, g);
        adamw.step();
    }
    lesson::show("Adam with L2 (g + wd p)   ", a.detach());
    lesson::show("AdamW (p * (1 - lr wd))   ", w.detach());
    lesson::confirm("AdamW's second number", w.to_vector()[1], std::pow(1.0 - 0.01 * 0.1, 10), 1e-6,
                    lesson::tr("by hand, 0.999^10, a gradient-free weight shrinks by lr * wd per step",
                               "手算，0.999^10，没有梯度的权重每步按 lr * wd 缩小"));
    std::cout << lesson::tr("Adam with L2 moved the gradient-free weight by about lr = 0.01 per step (its only gradient, wd p,\n"
                            "is normalised to size 1); AdamW shrinks every weight by the same fraction, lr * wd = 0.001.",
                            "带 L2 的 Adam 让没有梯度的那个权重每步移动约 lr = 0.01（它唯一的梯度 wd p 被归一化成了大小 1）；\n"
                            "AdamW 让每个权重都按同一比例缩小，lr * wd = 0.001。")
              << "\n";
}

static void clipping() {
    lesson::section(lesson::tr("clip_grad_norm: one norm over all the gradients", "clip_grad_norm：所有梯度合起来算一个范数"));
    pg::Tensor a = pg::tensor({0.f, 0.f}, {2}, true), b = pg::tensor({0.f}, {1}, true);
    set_grad(a, pg::tensor({3.f, 4.f}));
    set_grad(b, pg::tensor({12.f}));
    float norm = optim::clip_grad_norm({a, b}, 1.0f);
    std::cout << lesson::tr("gradients (3, 4) and (12): norm ", "梯度 (3, 4) 和 (12)：范数 ") << "sqrt(9 + 16 + 144) = sqrt(169) = 13\n";
    lesson::show(lesson::tr("clip_grad_norm(max_norm 1) returns", "clip_grad_norm(max_norm 1) 返回"), norm, 4);
    lesson::show("a.grad() after", a.grad());
    lesson::show("b.grad() after", b.grad());
    lesson::confirm("clipped", pg::concat({a.grad(), b.grad()}, 0), pg::tensor({3.f / 13, 4.f / 13, 12.f / 13}), 1e-6,
                    lesson::tr("by hand, each times 1 / 13", "手算，每个都乘以 1 / 13"));
    float again = optim::clip_grad_norm({a, b}, 1.0f);
    std::cout << lesson::tr("norm now ", "现在的范数 ") << lesson::num(again, 4)
              << lesson::tr("; a norm below max_norm is left alone", "；不超过 max_norm 的范数保持不动") << "\n";

    pg::Tensor p = pg::tensor({kStartX, kStartY}, {2}, true);
    rosenbrock(p).backward();
    float start_norm = optim::clip_grad_norm({p}, kClip);
    std::cout << lesson::tr("the valley's start: ", "山谷的起点：") << "|(-155, -50)| = " << lesson::num(start_norm, 4)
              << lesson::tr(", clipped to ", "，裁剪成 ") << lesson::str(p.grad(), 4) << "\n";
}

static void schedule() {
    using lesson::tr;
    lesson::section(lesson::tr("the poet's settings (poet::TrainConfig) and its schedule, warmup_cosine_lr",
                                "诗人的设置（poet::TrainConfig）和它的学习率调度 warmup_cosine_lr"));
    poet::TrainConfig c;
    std::cout << tr("AdamW lr ", "AdamW，lr ") << lesson::num(c.lr, 4) << tr(", betas (", "，betas (") << lesson::num(c.beta1, 2)
              << ", " << lesson::num(c.beta2, 2) << tr("), eps 1e-8, weight decay ", ")，eps 1e-8，权重衰减 ")
              << lesson::num(c.weight_decay, 1) << tr(", clip ", "，裁剪 ") << lesson::num(c.clip, 1) << tr(", ", "，") << c.steps
              << tr(" steps, warmup ", " 步，预热 ") << c.warmup << tr(" (default_warmup(", " 步（default_warmup(") << c.steps
              << ") = " << poet::default_warmup(c.steps) << tr("), min_lr ", "），min_lr ") << lesson::num(c.min_lr, 4) << "\n";
    std::vector<double> torch_lr;   // PyTorch's LinearLR + CosineAnnealingLR, steps 0..2000
    std::ifstream in(kFixtures + "schedule.txt");
    if (!in) throw std::runtime_error("cannot open " + kFixtures + "schedule.txt");
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream row(line);
        size_t step;
        double lr;
        row >> step >> lr;
        torch_lr.push_back(lr);
    }
    std::cout << tr("   step   warmup_cosine_lr   PyTorch\n", "     步   warmup_cosine_lr   PyTorch\n");
    double worst = 0;
    for (size_t s = 0; s <= c.steps; ++s) {
        double ours = optim::warmup_cosine_lr(s, c.warmup, c.steps, c.lr, c.min_lr);
        worst = std::max(worst, std::fabs(ours - torch_lr.at(s)));
        if (s == 0 || s == 1 || s == 49 || s == 99 || s == 100 || s == 575 || s == 1050 || s == 1525 || s == 1999 ||
            s == 2000)
            std::printf("  %5zu   %s          %s\n", s, lesson::num(ours, 7).c_str(),
                        lesson::num(torch_lr.at(s), 7).c_str());
    }
    std::cout << lesson::tr("max |ours - PyTorch| over the 2001 steps: ", "2001 步上的 max |ours - PyTorch|：") << sci(worst) << "\n";
    lesson::confirm("schedule against PyTorch", worst, 0.0, 1e-9,
                    tr("PyTorch's LinearLR + CosineAnnealingLR", "PyTorch 的 LinearLR 接 CosineAnnealingLR"));
    lesson::confirm("lr at step 1050", optim::warmup_cosine_lr(1050, c.warmup, c.steps, c.lr, c.min_lr), 1.1e-3, 1e-9,
                    lesson::tr("by hand, halfway down the cosine: (2e-3 + 2e-4) / 2", "手算，余弦降到一半：(2e-3 + 2e-4) / 2"));
}

static void run() {
    using Params = std::vector<pg::Tensor>;
    const optim::AdamWOptions adamw{kMaxLr, 0.9f, 0.99f, 1e-8f, 0.1f};   // lr, betas, eps, weight decay
    const std::vector<Run> runs = {
        {"sgd", lesson::tr("SGD, lr 1e-3", "SGD，学习率 1e-3"), "#7f7f7f",
         [](const pg::Tensor& p) { return std::make_unique<optim::SGD>(Params{p}, optim::SGDOptions{1e-3f}); }},
        {"momentum", lesson::tr("SGD + momentum 0.9, lr 1e-3", "SGD + 动量 0.9，学习率 1e-3"), "#e6550d",
         [](const pg::Tensor& p) { return std::make_unique<optim::SGD>(Params{p}, optim::SGDOptions{1e-3f, 0.9f}); }},
        {"adam", lesson::tr("Adam, lr 0.05, betas (0.9, 0.99)", "Adam，学习率 0.05，betas (0.9, 0.99)"), "#3182bd",
         [](const pg::Tensor& p) {
             return std::make_unique<optim::Adam>(Params{p}, optim::AdamOptions{kMaxLr, 0.9f, 0.99f, 1e-8f, 0.f});
         }},
        {"adamw", lesson::tr("AdamW, lr 0.05, weight decay 0.1", "AdamW，学习率 0.05，权重衰减 0.1"), "#31a354",
         [=](const pg::Tensor& p) { return std::make_unique<optim::AdamW>(Params{p}, adamw); }},
        {"recipe", lesson::tr("AdamW + warmup 50, cosine to 0.005, clip 10", "AdamW + 预热 50 步，余弦降到 0.005，裁剪 10"), "#a63fd9",
         [=](const pg::Tensor& p) { return std::make_unique<optim::AdamW>(Params{p}, adamw); }, true},
    };
    std::vector<std::vector<Point>> walks;
    std::vector<size_t> clipped(runs.size());
    for (size_t r = 0; r < runs.size(); ++r) walks.push_back(walk(runs[r], clipped[r]));
    valley();
    first_steps(runs, walks);
    trajectories(runs, walks, clipped);
    bias_correction();
    decoupled_decay();
    clipping();
    schedule();
}

int main() { return lesson::run_experiment(run); }
