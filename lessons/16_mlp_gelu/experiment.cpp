// Lesson 16 experiment: GELU (tanh approximation) against ReLU and against the exact x Phi(x), with
// its derivative; then the GPT's feed-forward part, Linear C->4C, GELU, Linear 4C->C, by hand and
// as pg::nn::MLP, working on each position alone.
#include <cmath>
#include <cstdio>
#include <iostream>
#include "lesson.hpp"

static float gelu_exact(float x) { return 0.5f * x * (1.f + std::erf(x / std::sqrt(2.f))); }  // x Phi(x)

static float max_abs_diff(const pg::Tensor& a, const pg::Tensor& b) {
    std::vector<float> va = a.to_vector(), vb = b.to_vector();
    float m = 0.f;
    for (size_t i = 0; i < va.size(); ++i) m = std::max(m, std::fabs(va[i] - vb[i]));
    return m;
}

static void run() {
    const float pi = 3.14159265358979f;
    lesson::section(lesson::tr("GELU, tanh approximation: ", "GELU 的 tanh 近似：") + "0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))");
    lesson::show("sqrt(2/pi)", std::sqrt(2.f / pi));
    lesson::show(lesson::tr("sqrt(2 pi), a slip to avoid", "sqrt(2 pi)，一个要避开的笔误"), std::sqrt(2.f * pi));
    lesson::show(lesson::tr("the cubic's coefficient", "三次项的系数"), 0.044715, 6);
    std::cout << lesson::tr("step by step at x = -1:\n", "在 x = -1 处一步一步算：\n");
    float u = std::sqrt(2.f / pi) * (-1.f + 0.044715f * -1.f);
    lesson::show("  u = sqrt(2/pi) (x + 0.044715 x^3)", u);
    lesson::show("  tanh(u)", std::tanh(u));
    lesson::show("  0.5 x (1 + tanh(u))", 0.5f * -1.f * (1.f + std::tanh(u)));
    lesson::confirm(lesson::tr("gelu(-1) by hand", "手算的 gelu(-1)"), 0.5f * -1.f * (1.f + std::tanh(u)), pg::gelu(pg::tensor({-1.f})).item(), 1e-6,
                    "pg::gelu(-1)");

    lesson::section(lesson::tr("GELU against ReLU, and against the exact x Phi(x)", "GELU 与 ReLU 对比，也与精确的 x Phi(x) 对比"));
    pg::Tensor x = pg::tensor({-3.f, -1.f, -0.5f, 0.f, 0.5f, 1.f, 2.f}, {7}, true);
    pg::Tensor g = pg::gelu(x);
    pg::Tensor r = pg::relu(x);
    std::vector<float> exact;
    for (float v : x.to_vector()) exact.push_back(gelu_exact(v));
    std::cout << "     x    relu(x)   gelu(x)   x Phi(x)\n";
    for (size_t i = 0; i < x.numel(); ++i)
        std::printf("%6s    %-9s %-9s %s\n", lesson::num(x.to_vector()[i], 1).c_str(), lesson::num(r.to_vector()[i]).c_str(),
                    lesson::num(g.to_vector()[i]).c_str(), lesson::num(exact[i]).c_str());
    lesson::confirm("gelu at -1, 0.5, 2", pg::gelu(pg::tensor({-1.f, 0.5f, 2.f})),
                    pg::tensor({-0.1588f, 0.3457f, 1.9546f}), 5e-5, lesson::tr("the values quoted in the README", "README 里引用的数值"));

    lesson::section(lesson::tr("derivatives, by backward()", "导数，由 backward() 算出"));
    pg::sum(g).backward();
    pg::Tensor dgelu = x.grad();
    pg::Tensor xr = x.detach().requires_grad_();
    pg::sum(pg::relu(xr)).backward();
    pg::Tensor drelu = xr.grad();
    std::cout << "     x    relu'(x)  gelu'(x)\n";
    for (size_t i = 0; i < x.numel(); ++i)
        std::printf("%6s    %-9s %s\n", lesson::num(x.to_vector()[i], 1).c_str(), lesson::num(drelu.to_vector()[i]).c_str(),
                    lesson::num(dgelu.to_vector()[i]).c_str());

    pg::Tensor grid = pg::tensor(std::vector<float>(301, 0.f), {301}, true);
    for (int k = 0; k <= 300; ++k) grid.mutable_data().data()[k] = k * 0.01f;  // 0, 0.01, ..., 3
    pg::sum(pg::gelu(grid)).backward();
    std::vector<float> slope = grid.grad().to_vector();
    float steeper_from = -1.f;
    for (int k = 0; k <= 300 && steeper_from < 0.f; ++k)
        if (slope[k] > 1.f) steeper_from = k * 0.01f;
    lesson::show(lesson::tr("gelu'(x) first exceeds 1 at x", "gelu'(x) 第一次超过 1 的 x"), steeper_from, 2);

    lesson::section(lesson::tr("where GELU dips below zero", "GELU 在哪里低于零"));
    float best_x = 0.f, best_y = 0.f;
    for (int k = -30000; k <= 0; ++k) {  // x from -3 to 0 in steps of 1e-4
        float v = k * 1e-4f, y = pg::gelu(pg::tensor({v})).item();
        if (y < best_y) best_y = y, best_x = v;
    }
    lesson::show(lesson::tr("smallest gelu(x) on [-3, 0]", "gelu(x) 在 [-3, 0] 上的最小值"), best_y);
    lesson::show(lesson::tr("at x", "所在的 x"), best_x, 2);
    float worst = 0.f, worst_at = 0.f;
    // both satisfy f(x) - f(-x) = x, so the error at -x is the error at x: scan x >= 0
    for (int k = 0; k <= 6000; ++k) {  // x from 0 to 6 in steps of 1e-3
        float v = k * 1e-3f, d = std::fabs(pg::gelu(pg::tensor({v})).item() - gelu_exact(v));
        if (d > worst) worst = d, worst_at = v;
    }
    lesson::show(lesson::tr("largest |tanh approximation - x Phi(x)| on [0, 6], the same at -x", "|tanh 近似 - x Phi(x)| 在 [0, 6] 上的最大值，-x 处相同"), worst, 5);
    lesson::show(lesson::tr("at x", "所在的 x"), worst_at, 2);

    lesson::section(lesson::tr("the feed-forward part: Linear C->4C, GELU, Linear 4C->C", "前馈部分：Linear C->4C，GELU，Linear 4C->C"));
    const size_t B = 1, T = 3, C = 4;
    pg::Generator gen(16);
    pg::nn::MLP mlp(C, 0.f, gen);
    pg::Tensor h_in = pg::randn({B, T, C}, gen);
    lesson::show("x", h_in);
    std::cout << "fc.weight " << lesson::str(mlp.fc.weight.shape()) << ", fc.bias " << lesson::str(mlp.fc.bias.shape())
              << ", out.weight " << lesson::str(mlp.out.weight.shape()) << ", out.bias "
              << lesson::str(mlp.out.bias.shape()) << "\n";
    pg::Tensor pre = pg::linear(h_in, mlp.fc.weight, mlp.fc.bias);  // (B,T,C) -> (B,T,4C)
    lesson::show("fc(x), (B,T,4C)", pre);
    pg::Tensor act = pg::gelu(pre);
    lesson::show("gelu(fc(x))", act);
    pg::Tensor y = pg::linear(act, mlp.out.weight, mlp.out.bias);   // (B,T,4C) -> (B,T,C)
    lesson::show("out(gelu(fc(x))), (B,T,C)", y);
    lesson::confirm("mlp.forward(x)", max_abs_diff(mlp.forward(h_in), y), 0.0, 1e-6, lesson::tr("the same as pg::nn::MLP", "与 pg::nn::MLP 相同"));
    size_t negative = 0;
    for (float v : pre.to_vector()) negative += v < 0.f;
    std::cout << negative << lesson::tr(" of ", " / ") << pre.numel()
              << lesson::tr(" hidden values are negative: ReLU would zero them and stop their gradient; GELU keeps a little of both\n",
                            " 个隐藏值为负：ReLU 会把它们置零并截断梯度；GELU 两样都留下一点\n");

    lesson::section(lesson::tr("each position on its own", "每个位置各管各的"));
    std::vector<float> changed = h_in.to_vector();
    for (size_t c = 0; c < C; ++c) changed[c] += 1.f;  // move position 0 only
    pg::Tensor y2 = mlp.forward(pg::tensor(changed, {B, T, C}));
    for (long t = 0; t < static_cast<long>(T); ++t)
        std::cout << lesson::tr("position ", "位置 ") << t << lesson::tr(": max |output change| = ", "：输出变化的最大绝对值 = ")
                  << lesson::num(max_abs_diff(pg::slice(y, 1, t, t + 1), pg::slice(y2, 1, t, t + 1))) << "\n";
    lesson::confirm(lesson::tr("positions 1 and 2", "位置 1 和 2"), max_abs_diff(pg::slice(y, 1, 1, 3), pg::slice(y2, 1, 1, 3)), 0.0, 0.0,
                    lesson::tr("untouched: the MLP never mixes positions", "没有变化：MLP 从不混合位置"));

    lesson::section(lesson::tr("parameters: fc 4C*C + 4C, out C*4C + C", "参数：fc 4C*C + 4C，out C*4C + C"));
    std::cout << lesson::tr("by hand, 8 C^2 + 5 C with C = 4: ", "手算，C = 4 时 8 C^2 + 5 C = ") << 8 * C * C + 5 * C << "\n";
    std::cout << "mlp.num_parameters(): " << mlp.num_parameters() << "\n";
    lesson::confirm("num_parameters", static_cast<double>(mlp.num_parameters()), 8.0 * C * C + 5.0 * C, 0.0,
                    "8 C^2 + 5 C");
}

int main() { return lesson::run_experiment(run); }
