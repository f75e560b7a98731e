// Lesson 07 experiment: backward's gradients against central differences, element by element; the
// library's pg::gradcheck passing on correct ops and catching two planted bugs (a wrong formula, a
// backward that ignores gy); a false alarm at relu's kink; and how the step size moves the error.
#include <cmath>
#include <cstdio>
#include <iostream>
#include "lesson.hpp"
#include "planted_bugs.hpp"

using Fn = std::function<pg::Tensor(const pg::Tensor&)>;
using FnOfInputs = std::function<pg::Tensor(const std::vector<pg::Tensor>&)>;

// f of one input, in the form pg::gradcheck takes.
static FnOfInputs of_one(const Fn& f) {
    return [f](const std::vector<pg::Tensor>& in) { return f(in[0]); };
}

// L = sum(f(x) * r): prints backward's dL/dx and the central difference of L for every element of x
// (L summed in double), and returns the largest difference. Printed to 4 decimals: the digits below
// are float32 rounding, which can differ from one machine to another.
static double compare(const Fn& f, pg::Tensor x, const pg::Tensor& r, double eps) {
    x.zero_grad();
    pg::sum(f(x) * r).backward();
    std::vector<float> analytic = x.grad().to_vector();
    auto L = [&] {
        pg::Tensor y = f(x);
        double s = 0;
        for (size_t i = 0; i < y.numel(); ++i) s += static_cast<double>(y.ptr()[i]) * r.ptr()[i];
        return s;
    };
    pg::NoGradGuard no_grad;
    float* px = x.mutable_data().data();
    double worst = 0;
    std::cout << "  " << lesson::pad("x", 9) << lesson::pad(lesson::tr("analytic", "解析"), 11) << lesson::pad(lesson::tr("numeric", "数值"), 11)
              << lesson::tr("error", "误差") << "\n";
    for (size_t i = 0; i < x.numel(); ++i) {
        float orig = px[i];
        px[i] = orig + static_cast<float>(eps);
        double up = L();
        px[i] = orig - static_cast<float>(eps);
        double down = L();
        px[i] = orig;
        double numeric = (up - down) / (2 * eps), error = std::fabs(analytic[i] - numeric);
        worst = std::max(worst, error);
        std::printf("  %-8s %-10s %-10s %-10s\n", lesson::num(orig, 3).c_str(), lesson::num(analytic[i]).c_str(),
                    lesson::num(numeric).c_str(), lesson::num(error).c_str());
    }
    std::cout << lesson::tr("  max error ", "  最大误差 ") << lesson::num(worst) << "\n";
    return worst;
}

static void gradcheck_line(const std::string& name, const FnOfInputs& f, const std::vector<pg::Tensor>& inputs) {
    pg::GradcheckResult res = pg::gradcheck(f, inputs);
    if (res.ok && res.max_abs_error < 1e-4) {  // its digits are rounding: print the bound only
        std::cout << "  " << lesson::pad(name, 29) << lesson::tr("ok    max error below 1e-4", "通过  最大误差低于 1e-4") << "\n";
        return;
    }
    char err[32];
    std::snprintf(err, sizeof err, "%.1e", res.max_abs_error);
    std::cout << "  " << lesson::pad(name, 29) << lesson::pad(res.ok ? lesson::tr("ok", "通过") : lesson::tr("FAIL", "失败"), 6)
              << lesson::tr("max error ", "最大误差 ") << err << "\n";
    std::cout << lesson::gradcheck_report(res);
}

static void run() {
    pg::Tensor x = pg::tensor({0.5f, -1.f, 2.f}).requires_grad_();
    pg::Tensor r = pg::tensor({1.f, -2.f, 0.5f});
    lesson::section(lesson::tr("sigmoid at x = [0.5, -1, 2]; L = sum(sigmoid(x) * r), r = [1, -2, 0.5]; eps = 0.01",
                               "sigmoid 在 x = [0.5, -1, 2] 处；L = sum(sigmoid(x) * r)，r = [1, -2, 0.5]；eps = 0.01"));
    lesson::show("y = sigmoid(x)", pg::sigmoid(x));
    lesson::show(lesson::tr("the rule: dL/dx = r * y * (1 - y)", "求导法则：dL/dx = r * y * (1 - y)"), r * pg::sigmoid(x) * (1.f - pg::sigmoid(x)));
    double err = compare([](const pg::Tensor& t) { return pg::sigmoid(t); }, x, r, 1e-2);
    lesson::confirm("sigmoid's max error", err, 0.0, 1e-4,
                    lesson::tr("backward agrees with the differences", "backward 与差分一致"));

    lesson::section(lesson::tr("pg::gradcheck: random inputs, random weights r, every element of every input",
                               "pg::gradcheck：随机输入、随机权重 r，每个输入的每个元素"));
    pg::Generator gen(7);
    gradcheck_line("sigmoid (2,3)", of_one([](const pg::Tensor& t) { return pg::sigmoid(t); }),
                   {pg::randn({2, 3}, gen, true)});
    gradcheck_line("matmul (2,3) @ (3,2)", [](const std::vector<pg::Tensor>& in) { return pg::matmul(in[0], in[1]); },
                   {pg::randn({2, 3}, gen, true), pg::randn({3, 2}, gen, true)});
    gradcheck_line("log_softmax (2,4), dim -1", of_one([](const pg::Tensor& t) { return pg::log_softmax(t, -1); }),
                   {pg::randn({2, 4}, gen, true)});

    lesson::section(lesson::tr("planted bug 1: sigmoid whose backward forgets (1 - y)", "埋下的 bug 1：backward 漏了 (1 - y) 的 sigmoid"));
    double bug1 = compare(sigmoid_missing_factor, x, r, 1e-2);
    double missing = 0;  // what the bug leaves out: |r| y^2 per element
    for (size_t i = 0; i < 3; ++i) {
        double y = 1 / (1 + std::exp(-static_cast<double>(x.ptr()[i])));
        missing = std::max(missing, std::fabs(r.ptr()[i]) * y * y);
    }
    lesson::confirm("max error", bug1, missing, 1e-4, lesson::tr("the largest |r| y^2, the share the bug leaves out", "最大的 |r| y^2，即 bug 漏掉的那一份"));
    gradcheck_line("sigmoid_missing_factor (2,3)", of_one(sigmoid_missing_factor), {pg::randn({2, 3}, gen, true)});

    lesson::section(lesson::tr("planted bug 2: y = 3x whose backward ignores gy", "埋下的 bug 2：y = 3x，它的 backward 忽略了 gy"));
    pg::Tensor v = pg::tensor({0.5f, -1.f, 2.f}).requires_grad_();
    std::cout << lesson::tr("with r = [1, 1, 1], that is L = sum(y), gy is 1 everywhere and the bug hides:",
                            "r = [1, 1, 1]，也就是 L = sum(y) 时，gy 处处为 1，bug 藏了起来：") << "\n";
    double hidden = compare(triple_ignoring_gy, v, pg::ones({3}), 1e-2);
    std::cout << lesson::tr("with r = [1, -2, 0.5] it shows:", "r = [1, -2, 0.5] 时它就露出来了：") << "\n";
    double shown = compare(triple_ignoring_gy, v, r, 1e-2);
    lesson::confirm("error with r = 1", hidden, 0.0, 1e-4, lesson::tr("hidden", "藏住了"));
    lesson::confirm("error with r = [1, -2, 0.5]", shown, 9.0, 1e-3, "|3 - 3 * (-2)|");
    gradcheck_line("triple_ignoring_gy (2,3)", of_one(triple_ignoring_gy), {pg::randn({2, 3}, gen, true)});

    lesson::section(lesson::tr("a false alarm: relu at x = 0.004, closer to its kink than eps = 0.01",
                               "一次误报：relu 在 x = 0.004 处，离折点比 eps = 0.01 还近"));
    pg::Tensor k = pg::tensor({0.004f, 1.f, -1.f}).requires_grad_();
    compare([](const pg::Tensor& t) { return pg::relu(t); }, k, pg::ones({3}), 1e-2);
    std::cout << lesson::tr("numeric (0.014 - 0) / 0.02 = 0.7: the difference straddles the kink; the op is right",
                            "数值 (0.014 - 0) / 0.02 = 0.7：差分跨过了折点；算子本身是对的")
              << "\n";

    lesson::section(lesson::tr("the step eps: max error of pg::gradcheck on tanh (3,4), in float32",
                               "步长 eps：pg::gradcheck 在 (3,4) 的 tanh 上的最大误差，float32"));
    pg::Tensor t = pg::randn({3, 4}, gen, true);
    std::vector<double> errors;
    for (double eps : {1e-1, 1e-2, 1e-3, 1e-4}) {
        pg::GradcheckOptions opt;
        opt.eps = eps;
        pg::GradcheckResult res = pg::gradcheck(of_one([](const pg::Tensor& x) { return pg::tanh(x); }), {t}, opt);
        char line[64];
        std::snprintf(line, sizeof line, "  eps %.0e  %s%.1e\n", eps, lesson::tr("max error ", "最大误差 ").c_str(),
                      res.max_abs_error);
        std::cout << line;
        errors.push_back(res.max_abs_error);
    }
    lesson::expect("the error against eps", errors[1] < errors[0] / 10 && errors[1] < errors[3] / 10,
                   "at eps 1e-2 ten times smaller than at 1e-1 and at 1e-4", "not so", "");
    std::cout << lesson::tr("  at eps 1e-2 ten times smaller than at 1e-1 or 1e-4: larger steps see the curve bend, "
                            "smaller ones float32's rounding",
                            "  eps 1e-2 处比 1e-1 和 1e-4 处都小十倍：步长大了看到的是曲线的弯曲，小了看到的是 float32 的舍入")
              << "\n";
}

int main() { return lesson::run_experiment(run); }
