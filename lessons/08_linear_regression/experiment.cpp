// Lesson 08 experiment: fitting the line y = 2x + 1 with pg::nn::Linear, a mean squared error and
// pg::optim::SGD: one step by hand from w = b = 0, the whole fit from a seeded start with the loss
// as it falls (drawn into loss.svg), and a learning rate too large, where it climbs.
#include <cstdio>
#include <iostream>
#include "lesson.hpp"
#include "svg.hpp"

// mean((pred - target)^2): pred, target (N, 1) -> ()
static pg::Tensor mse(const pg::Tensor& pred, const pg::Tensor& target) {
    pg::Tensor diff = pred - target;
    return pg::mean(diff * diff);
}

// One line of the training log: the loss with 3 significant digits, w and b with 3 decimals (the
// digits below those are float32 rounding and can differ from one machine to another).
static void log_step(int step, const std::string& loss, const pg::nn::Linear& model) {
    std::printf(lesson::chinese() ? "  第 %2d 步  损失 %-9s  w %-7s b %s\n" : "  step %2d  loss %-9s  w %-7s b %s\n", step,
                loss.c_str(), lesson::num(model.weight.item(), 3).c_str(), lesson::num(model.bias.item(), 3).c_str());
}

// Trains `model` for `steps` SGD steps with learning rate lr, logging every `every` steps up to step
// 20, and the last step (whose loss, far below float32's precision, is shown only as a bound).
// The loss of every step goes into curve when one is given: (step, loss).
static void fit(pg::nn::Linear& model, const pg::Tensor& x, const pg::Tensor& y, float lr, int steps, int every,
                std::vector<std::pair<double, double>>* curve = nullptr) {
    pg::optim::SGD opt(model.parameters(), {lr});
    // loss = 0.5 (w - 2)^2 + (b - 1)^2 on this data, so dloss/dw = w - 2 and dloss/db = 2 (b - 1)
    std::cout << lesson::tr("  each step multiplies w - 2 by 1 - lr = ", "  每一步把 w - 2 乘以 1 - lr = ") << lesson::num(1 - lr, 2)
              << lesson::tr(" and b - 1 by 1 - 2 lr = ", "，把 b - 1 乘以 1 - 2 lr = ") << lesson::num(1 - 2 * lr, 2) << "\n";
    for (int step = 0; step <= steps; ++step) {
        opt.zero_grad();
        pg::Tensor loss = mse(model.forward(x), y);
        if (curve) curve->emplace_back(step, loss.item());
        char digits[32];
        std::snprintf(digits, sizeof digits, "%.2e", loss.item());
        if (step % every == 0 && step <= 20) log_step(step, digits, model);
        if (step == steps) {
            if (step > 20) log_step(step, loss.item() < 1e-8f ? "< 1e-8" : digits, model);
            break;
        }
        loss.backward();
        opt.step();
    }
}

static void run() {
    lesson::section(lesson::tr("the data: five points on y = 2x + 1", "数据：直线 y = 2x + 1 上的五个点"));
    pg::Tensor x = pg::tensor({-1.f, -0.5f, 0.f, 0.5f, 1.f}, {5, 1});  // (N, 1): N = 5 rows of 1 feature
    pg::Tensor y = x * 2.f + 1.f;                                       // (N, 1)
    lesson::show("x", x, 1);
    lesson::show("y", y, 0);

    lesson::section(lesson::tr("one step by hand: w = 0, b = 0, lr = 0.25", "手算一步：w = 0，b = 0，lr = 0.25"));
    pg::Generator gen(8);
    pg::nn::Linear model(1, 1, /*bias=*/true, gen);  // pred = x @ w^T + b, w (1,1), b (1)
    model.weight.copy_(pg::zeros({1, 1}));
    model.bias.copy_(pg::zeros({1}));
    pg::Tensor pred = model.forward(x);
    lesson::show("pred = w x + b", pred, 0);
    lesson::show("pred - y", pred - y, 0);
    pg::Tensor loss = mse(pred, y);
    lesson::show("loss = mean((pred - y)^2)", loss, 0);
    lesson::confirm("loss", loss.item(), (1 + 0 + 1 + 4 + 9) / 5.0, 1e-6, "(1 + 0 + 1 + 4 + 9) / 5");
    loss.backward();
    lesson::show(lesson::tr("dloss/dpred = 2 (pred - y) / N, by hand", "dloss/dpred = 2 (pred - y) / N，手算"), (pred - y).detach() * (2.f / 5.f), 1);
    lesson::show(lesson::tr("dloss/dw = sum of dloss/dpred * x", "dloss/dw = dloss/dpred * x 之和"), model.weight.grad(), 1);
    lesson::show(lesson::tr("dloss/db = sum of dloss/dpred", "dloss/db = dloss/dpred 之和"), model.bias.grad(), 1);
    lesson::confirm("dloss/dw", model.weight.grad().item(), -2.0, 1e-6, "-0.4 + 0 + 0 - 0.4 - 1.2");
    lesson::confirm("dloss/db", model.bias.grad().item(), -2.0, 1e-6, "0.4 + 0 - 0.4 - 0.8 - 1.2");
    pg::optim::SGD sgd(model.parameters(), {0.25f});
    sgd.step();  // p -= lr * p.grad, for w and for b
    lesson::show(lesson::tr("w after p -= lr * grad", "p -= lr * grad 之后的 w"), model.weight, 1);
    lesson::show(lesson::tr("b after p -= lr * grad", "p -= lr * grad 之后的 b"), model.bias, 1);
    pg::Tensor loss_after = mse(model.forward(x), y);
    lesson::show(lesson::tr("the loss now", "现在的损失"), loss_after, 3);
    lesson::confirm("loss after one step", loss_after.item(), 1.375, 1e-6, "0.5 (w - 2)^2 + (b - 1)^2");

    lesson::section(lesson::tr("the whole fit: Linear's seeded start, SGD with lr = 0.25", "完整的拟合：从 Linear 带种子的初值出发，SGD，lr = 0.25"));
    pg::Generator seeded(8);
    pg::nn::Linear line(1, 1, true, seeded);
    std::vector<std::pair<double, double>> curve;
    fit(line, x, y, 0.25f, 40, 5, &curve);
    lesson::confirm("w", line.weight.item(), 2.0, 1e-3, lesson::tr("the true slope", "真正的斜率"));
    lesson::confirm("b", line.bias.item(), 1.0, 1e-3, lesson::tr("the true intercept", "真正的截距"));

    const std::string picture = lesson::chinese() ? "loss.zh.svg" : "loss.svg";
    lesson::section(lesson::tr("the picture: loss.svg, the loss of every step of this fit",
                               "图：loss.zh.svg，这次拟合每一步的损失"));
    svg::LinePlot plot;
    plot.title = lesson::tr("Fitting y = 2x + 1 with SGD from the seeded start, lr = 0.25: the loss at every step",
                            "用 SGD 从带种子的初值拟合 y = 2x + 1，lr = 0.25：每一步的损失");
    plot.x_label = lesson::tr("step", "步数");
    plot.y_label = lesson::tr("loss = mean((pred - y)^2)", "损失 = mean((pred - y)^2)");
    plot.series.push_back({"lr = 0.25", curve, "#08519c", true});
    plot.y_from_zero = true;
    svg::PlotCounts drawn;
    const svg::Output file = svg::in_lesson_folder(__FILE__, picture);
    svg::write_file(file.path, svg::line_plot(plot, &drawn));
    std::map<std::string, size_t> read = svg::check_file(file.path);
    std::cout << lesson::tr("wrote ", "写出了 ") << file.shown << lesson::tr(": ", "：") << curve.size()
              << lesson::tr(" points (steps 0 to ", " 个点（第 0 步到第 ") << curve.size() - 1
              << lesson::tr("), read back well-formed with ", " 步），读回来格式正确，有 ") << read["polyline"]
              << lesson::tr(" <polyline> and ", " 个 <polyline> 和 ") << read["circle"] << lesson::tr(" <circle>", " 个 <circle>")
              << "\n";
    lesson::confirm("<circle> in loss.svg", static_cast<double>(read["circle"]), static_cast<double>(curve.size()), 0.0,
                    lesson::tr("a dot per step", "每步一个点"));

    lesson::section(lesson::tr("lr = 1.1, too large: b overshoots further every step and the loss climbs",
                               "lr = 1.1，太大了：b 每一步都冲得更远，损失不断攀升"));
    pg::Generator again(8);
    pg::nn::Linear wild(1, 1, true, again);
    fit(wild, x, y, 1.1f, 20, 5);
}

int main() { return lesson::run_experiment(run); }
