// Lesson 04 experiment: a derivative by the rule, by forward and central differences (and how
// their errors shrink with h, in double and in float), the chain rule through tanh checked by
// differences and by the library's backward, and partial derivatives of a function of two inputs.
#include <cmath>
#include <cstdio>
#include <iostream>
#include "lesson.hpp"

static double f(double x) { return x * x * x - 2 * x; }  // f'(x) = 3x^2 - 2
static float f32(float x) { return x * x * x - 2 * x; }

static void run() {
    const double x = 1.5;
    lesson::section(lesson::tr("f(x) = x^3 - 2x at x = 1.5; the rule gives f'(x) = 3x^2 - 2",
                               "f(x) = x^3 - 2x，取 x = 1.5；按法则 f'(x) = 3x^2 - 2"));
    std::cout << "f(1.5) = " << lesson::num(f(x), 3) << ", f'(1.5) = " << lesson::num(3 * x * x - 2, 2) << "\n";

    lesson::section(lesson::tr("differences by hand, h = 0.1", "手算差分，h = 0.1"));
    double h = 0.1;
    std::cout << "f(1.6) = " << lesson::num(f(x + h), 3) << ", f(1.4) = " << lesson::num(f(x - h), 3) << "\n";
    double forward = (f(x + h) - f(x)) / h, central = (f(x + h) - f(x - h)) / (2 * h);
    std::cout << lesson::tr("forward", "前向") << " (f(1.6) - f(1.5)) / 0.1 = " << lesson::num(forward, 2) << "\n";
    std::cout << lesson::tr("central", "中心") << " (f(1.6) - f(1.4)) / 0.2 = " << lesson::num(central, 2) << "\n";
    std::cout << lesson::tr("off by ", "偏差分别是 ") << lesson::num(forward - 4.75, 2) << lesson::tr(" and ", " 和 ")
              << lesson::num(central - 4.75, 2) << "\n";
    lesson::confirm(lesson::tr("central difference", "中心差分"), central, 4.76, 1e-9, "f' + h^2");
    std::cout << lesson::tr("central with h = 0.5: ", "h = 0.5 的中心差分：") << lesson::num((f(x + 0.5) - f(x - 0.5)) / 1.0, 2) << " = f' + 0.5^2\n";

    lesson::section(lesson::tr("errors as h shrinks: forward ~ 4.5 h, central = h^2 exactly (f''' = 6), until rounding",
                               "h 变小时的误差：前向约 4.5 h，中心恰好 h^2（f''' = 6），直到舍入误差占上风"));
    std::cout << lesson::tr("h        forward err  central err  central err in float",
                            "h        前向误差     中心误差     float 下的中心误差") << "\n";
    for (double step : {1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6}) {
        double fwd = (f(x + step) - f(x)) / step - 4.75;
        double cen = (f(x + step) - f(x - step)) / (2 * step) - 4.75;
        float hf = static_cast<float>(step);
        float cen32 = (f32(1.5f + hf) - f32(1.5f - hf)) / (2 * hf) - 4.75f;
        std::printf("%-8.0e %-12.2e %-12.2e %-14.2e\n", step, std::fabs(fwd), std::fabs(cen), std::fabs(cen32));
    }

    lesson::section(lesson::tr("chain rule: y = tanh(u), u = 2x + 1, at x = 0.25", "链式法则：y = tanh(u)，u = 2x + 1，取 x = 0.25"));
    const double x0 = 0.25, u = 2 * x0 + 1, y = std::tanh(u);
    std::cout << "u = " << lesson::num(u, 1) << ", y = tanh(u) = " << lesson::num(y) << "\n";
    std::cout << "dy/du = 1 - y^2 = " << lesson::num(1 - y * y) << ", du/dx = 2, dy/dx = "
              << lesson::num(2 * (1 - y * y)) << "\n";
    auto g = [](double t) { return std::tanh(2 * t + 1); };
    double numeric = (g(x0 + 1e-3) - g(x0 - 1e-3)) / 2e-3;
    std::cout << lesson::tr("central difference, h = 0.001: ", "中心差分，h = 0.001：") << lesson::num(numeric) << "\n";
    pg::Tensor xt = pg::scalar(0.25f, /*requires_grad=*/true);
    pg::Tensor yt = pg::tanh(xt * 2.f + 1.f);
    yt.backward();
    lesson::show(lesson::tr("the library: tanh(2x + 1).backward(), x.grad", "库：tanh(2x + 1).backward()，x.grad"), xt.grad());
    lesson::confirm("x.grad", xt.grad().item(), 2 * (1 - y * y), 1e-6, lesson::tr("the chain rule", "链式法则"));

    lesson::section(lesson::tr("partial derivatives: f(a, b) = a*b + b^2 at a = 2, b = -3", "偏导数：f(a, b) = a*b + b^2，取 a = 2，b = -3"));
    auto F = [](double a, double b) { return a * b + b * b; };
    std::cout << "df/da = b = -3, df/db = a + 2b = -4\n";
    std::cout << lesson::tr("central differences, h = 0.01: df/da = ", "中心差分，h = 0.01：df/da = ") << lesson::num(((F(2.01, -3) - F(1.99, -3)) / 0.02), 4)
              << ", df/db = " << lesson::num((F(2, -2.99) - F(2, -3.01)) / 0.02, 4) << "\n";
}

int main() { return lesson::run_experiment(run); }
