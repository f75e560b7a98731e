// Lesson 15 experiment: layer norm by hand (mean, biased variance, eps, weight, bias) and by the
// library; then the residual path x + f(x): its Jacobian is I + f'(x), and through a deep stack the
// gradient survives with residuals and vanishes without.
#include <cmath>
#include <cstdio>
#include <iostream>
#include "lesson.hpp"

static std::string sci(double v) {  // "2.31e-10": for gradients that span many orders of magnitude
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2e", v);
    return buf;
}

static double norm(const pg::Tensor& t) {
    double s = 0;
    for (float v : t.to_vector()) s += static_cast<double>(v) * v;
    return std::sqrt(s);
}

// f(x) = tanh(x W^T), one layer of the stack.  x (N,C), w (C,C) -> (N,C)
static pg::Tensor layer(const pg::Tensor& x, const pg::Tensor& w) { return pg::tanh(pg::linear(x, w, pg::Tensor())); }

// The Jacobian d out_i / d x_j of out = g(x) for x (1,C): one backward per output component.
static pg::Tensor jacobian(const std::function<pg::Tensor(const pg::Tensor&)>& g, const std::vector<float>& x_values) {
    size_t C = x_values.size();
    std::vector<float> rows;
    for (size_t i = 0; i < C; ++i) {
        pg::Tensor x = pg::tensor(x_values, {1, C}, true);
        std::vector<float> onehot(C, 0.f);
        onehot[i] = 1.f;
        g(x).backward(pg::tensor(onehot, {1, C}));
        std::vector<float> gi = x.grad().to_vector();
        rows.insert(rows.end(), gi.begin(), gi.end());
    }
    return pg::tensor(rows, {C, C});
}

static void run() {
    lesson::section(lesson::tr("layer norm by hand: x = [1, 2, 3, 6]", "手算层归一化：x = [1, 2, 3, 6]"));
    const std::vector<float> xs = {1.f, 2.f, 3.f, 6.f};
    const std::vector<float> gamma = {1.f, 0.5f, 2.f, 1.f}, beta = {0.f, 0.f, 0.5f, -1.f};
    const size_t C = xs.size();
    const float eps = 1e-5f;
    double mean = 0;
    for (float v : xs) mean += v;
    mean /= C;
    lesson::show(lesson::tr("mean", "均值"), mean);
    double var = 0, var_unbiased = 0;
    std::cout << lesson::tr("deviations x - mean = [", "偏差 x - 均值 = [");
    for (size_t c = 0; c < C; ++c) {
        std::cout << (c ? ", " : "") << lesson::num(xs[c] - mean, 1);
        var += (xs[c] - mean) * (xs[c] - mean);
    }
    std::cout << "]\n";
    lesson::show(lesson::tr("sum of squared deviations", "偏差平方之和"), var, 1);
    var_unbiased = var / (C - 1);
    var /= C;  // biased: divide by C, as the library and PyTorch do
    lesson::show(lesson::tr("variance (divide by C)", "方差（除以 C）"), var);
    double denom = std::sqrt(var + eps);
    lesson::show(lesson::tr("sqrt(variance + eps)", "sqrt(方差 + eps)"), denom);
    std::vector<float> xhat(C), y(C);
    for (size_t c = 0; c < C; ++c) {
        xhat[c] = static_cast<float>((xs[c] - mean) / denom);
        y[c] = xhat[c] * gamma[c] + beta[c];
    }
    lesson::show(lesson::tr("xhat = (x - mean) / sqrt(variance + eps)", "xhat = (x - 均值) / sqrt(方差 + eps)"), pg::tensor(xhat, {C}));
    lesson::show("weight", pg::tensor(gamma, {C}), 1);
    lesson::show("bias", pg::tensor(beta, {C}), 1);
    pg::Tensor y_hand = pg::tensor(y, {C});
    lesson::show("y = xhat * weight + bias", y_hand);
    lesson::confirm(lesson::tr("y by hand", "手算的 y"), y_hand, pg::tensor({-1.0690f, -0.2673f, 0.5f, 0.6036f}), 5e-5, lesson::tr("the hand computation", "手算结果"));

    lesson::section(lesson::tr("the same with pg::layer_norm", "用 pg::layer_norm 算同一个"));
    pg::Tensor x = pg::tensor(xs, {C});
    pg::Tensor y_lib = pg::layer_norm(x, pg::tensor(gamma, {C}), pg::tensor(beta, {C}), eps);
    lesson::show("pg::layer_norm(x, weight, bias, 1e-5)", y_lib);
    lesson::confirm("pg::layer_norm", y_lib, y_hand, 1e-6, lesson::tr("matches the hand computation", "与手算一致"));
    pg::nn::LayerNorm ln(C);  // weight ones, bias zeros: y = xhat until training moves them
    lesson::show("pg::nn::LayerNorm(4).forward(x)", ln.forward(x));
    lesson::show(lesson::tr("its mean", "它的均值"), pg::mean(ln.forward(x)).item());
    lesson::show(lesson::tr("its mean square (variance)", "它的均方（方差）"), pg::mean(ln.forward(x) * ln.forward(x)).item());

    lesson::section(lesson::tr("three details", "三个细节"));
    lesson::show(lesson::tr("unbiased variance (divide by C - 1), not used", "无偏方差（除以 C - 1），不用它"), var_unbiased);
    lesson::show(lesson::tr("xhat with it, wrong", "用它算的 xhat，错的"), (x - static_cast<float>(mean)) / std::sqrt(static_cast<float>(var_unbiased)));
    pg::Tensor flat = pg::tensor({5.f, 5.f, 5.f, 5.f});
    lesson::show(lesson::tr("layer_norm([5, 5, 5, 5]), with eps", "layer_norm([5, 5, 5, 5])，有 eps"), ln.forward(flat));
    lesson::show(lesson::tr("(x - mean) / sqrt(variance), no eps", "(x - 均值) / sqrt(方差)，没有 eps"), (flat - 5.f) / 0.f);
    lesson::show(lesson::tr("layer_norm(10 x + 7): scale and shift do not matter", "layer_norm(10 x + 7)：尺度和偏移都无关紧要"), ln.forward(x * 10.f + 7.f));

    lesson::section(lesson::tr("the residual path: out = x + f(x) with f(x) = tanh(x W^T)", "残差路径：out = x + f(x)，其中 f(x) = tanh(x W^T)"));
    const std::vector<float> x0 = {0.5f, -1.f};
    pg::Tensor w = pg::tensor({{0.3f, -0.2f}, {0.1f, 0.4f}});
    lesson::show("x", pg::tensor(x0, {1, 2}), 1);
    lesson::show("W", w, 1);
    pg::Tensor j_plain = jacobian([&](const pg::Tensor& v) { return layer(v, w); }, x0);
    pg::Tensor j_resid = jacobian([&](const pg::Tensor& v) { return v + layer(v, w); }, x0);
    lesson::show("d f(x) / dx", j_plain);
    lesson::show("d (x + f(x)) / dx", j_resid);
    lesson::show(lesson::tr("their difference", "两者之差"), j_resid - j_plain);
    lesson::confirm(lesson::tr("the difference", "差"), j_resid - j_plain, pg::eye(2), 1e-6, lesson::tr("the identity I", "单位矩阵 I"));

    lesson::section(lesson::tr("gradient through a deep stack: |dL/dx| for L = sum(out * r)", "穿过很深的堆叠的梯度：L = sum(out * r) 时的 |dL/dx|"));
    const size_t width = 16, depth = 32;
    pg::Generator gen(15);
    std::vector<pg::Tensor> weights;
    for (size_t l = 0; l < depth; ++l) weights.push_back(pg::randn({width, width}, gen) * (0.5f / std::sqrt(16.f)));
    pg::Tensor input = pg::randn({1, width}, gen);
    pg::Tensor r = pg::randn({1, width}, gen);
    std::cout << lesson::tr("width 16, each W ~ N(0, (0.5/sqrt(16))^2): one plain layer shrinks the gradient about 2x\n",
                             "宽 16，每个 W ~ N(0, (0.5/sqrt(16))^2)：一个普通层把梯度缩小约 2 倍\n");
    std::cout << lesson::tr("depth   plain tanh(x W^T)   residual x + tanh(x W^T)\n", "深度    普通 tanh(x W^T)    残差 x + tanh(x W^T)\n");
    for (size_t d : {1, 2, 4, 8, 16, 32}) {
        pg::Tensor xp = input.detach().requires_grad_(), xr = input.detach().requires_grad_();
        pg::Tensor hp = xp, hr = xr;
        for (size_t l = 0; l < d; ++l) {
            hp = layer(hp, weights[l]);
            hr = hr + layer(hr, weights[l]);
        }
        pg::sum(hp * r).backward();
        pg::sum(hr * r).backward();
        double gp = norm(xp.grad()), gr = norm(xr.grad());
        std::printf("%5zu   %-19s %s\n", d, sci(gp).c_str(), sci(gr).c_str());
        if (d == depth)
            lesson::expect(lesson::tr("the residual stack keeps its gradient", "残差堆叠保住了梯度"), gr > 1e4 * gp, lesson::tr("a gradient over 1e4 times larger", "梯度大 1e4 倍以上"),
                           sci(gr) + lesson::tr(" against ", " 对 ") + sci(gp), "");
    }
    lesson::show(lesson::tr("|r|, the gradient at the top", "|r|，顶部的梯度"), norm(r));
}

int main() { return lesson::run_experiment(run); }
