// Lesson 17 experiment: one pre-norm transformer block, x + attn(ln1(x)) then h + mlp(ln2(h)),
// assembled from the library's modules and compared with pg::nn::Block; its parameters counted by
// hand (12 C^2 + 13 C); and a gradient check of the whole block, which catches a planted bug.
#include <cmath>
#include <cstdio>
#include <iostream>
#include "lesson.hpp"

static float max_abs_diff(const pg::Tensor& a, const pg::Tensor& b) {
    std::vector<float> va = a.to_vector(), vb = b.to_vector();
    float m = 0.f;
    for (size_t i = 0; i < va.size(); ++i) m = std::max(m, std::fabs(va[i] - vb[i]));
    return m;
}

static void run() {
    const size_t B = 1, T = 4, C = 8, NH = 2;
    pg::Generator gen(17);
    pg::nn::Block block(C, NH, 0.f, gen);

    lesson::section(lesson::tr("the block's parameters, C = 8, NH = 2", "块的参数，C = 8，NH = 2"));
    size_t total = 0;
    for (const auto& [name, p] : block.named_parameters()) {
        std::printf("  %-18s %-8s %5zu\n", name.c_str(), lesson::str(p.shape()).c_str(), p.numel());
        total += p.numel();
    }
    std::cout << lesson::tr("  sum ", "  合计 ") << total << "\n";
    std::cout << lesson::tr("by hand: ", "手算：") << "ln1 2C + attn.qkv 3C^2 + 3C + attn.proj C^2 + C + ln2 2C + mlp.fc 4C^2 + 4C + mlp.out 4C^2 + C\n"
              << "       = 12 C^2 + 13 C = 12*64 + 13*8 = " << 12 * C * C + 13 * C << "\n";
    std::cout << "block.num_parameters() = " << block.num_parameters() << "\n";
    lesson::confirm("num_parameters", static_cast<double>(block.num_parameters()), 12.0 * C * C + 13.0 * C, 0.0,
                    "12 C^2 + 13 C");
    for (size_t c : {16, 128}) {
        pg::Generator g(1);
        pg::nn::Block b(c, 4, 0.f, g);
        std::cout << "C = " << c << ": 12 C^2 + 13 C = " << 12 * c * c + 13 * c << ", num_parameters() = "
                  << b.num_parameters() << "\n";
    }
    std::cout << lesson::tr("the poet's default, 4 blocks of C = 128: ", "诗人的默认设置，4 个 C = 128 的块：") << 4 * (12 * 128 * 128 + 13 * 128)
              << lesson::tr(" in the blocks\n", " 个参数在这些块里\n");

    lesson::section(lesson::tr("a whole GPT: V = 10, context 8, 2 blocks of C = 8", "一个完整的 GPT：V = 10，上下文 8，2 个 C = 8 的块"));
    pg::nn::GPTConfig cfg;
    cfg.vocab_size = 10;
    cfg.context = 8;
    cfg.n_layer = 2;
    cfg.n_head = 2;
    cfg.n_embd = 8;
    pg::nn::GPT gpt(cfg, gen);
    size_t by_hand = 10 * 8 + 8 * 8 + 2 * (12 * 64 + 13 * 8) + 2 * 8 + 10 * 8;
    std::cout << lesson::tr("wte V C + wpe context C + 2 blocks + ln_f 2C + head V C",
                            "wte V C + wpe 上下文 C + 2 个块 + ln_f 2C + head V C")
              << " = 80 + 64 + 2*872 + 16 + 80 = " << by_hand
              << "\n";
    std::cout << "gpt.num_parameters() = " << gpt.num_parameters() << "\n";
    lesson::confirm("gpt.num_parameters", static_cast<double>(gpt.num_parameters()), static_cast<double>(by_hand), 0.0,
                    lesson::tr("the count by hand", "手算的个数"));

    lesson::section(lesson::tr("the forward pass, assembled from the parts", "用各个部件搭出的前向计算"));
    pg::Tensor x = pg::randn({B, T, C}, gen);
    lesson::show("x", x);
    pg::Tensor a = block.ln1.forward(x);      // (B,T,C), each position normalised
    pg::Tensor h = x + block.attn.forward(a);  // positions exchange information
    lesson::show("h = x + attn(ln1(x))", h);
    pg::Tensor m = block.ln2.forward(h);
    pg::Tensor y = h + block.mlp.forward(m);   // each position on its own
    lesson::show("y = h + mlp(ln2(h))", y);
    pg::Tensor y_lib = block.forward(x);
    lesson::show("block.forward(x)", y_lib);
    lesson::confirm("assembled against block.forward", max_abs_diff(y, y_lib), 0.0, 1e-6, lesson::tr("the same block", "同一个块"));
    pg::Tensor h_post = block.ln1.forward(x + block.attn.forward(x));
    pg::Tensor y_post = block.ln2.forward(h_post + block.mlp.forward(h_post));
    lesson::show(lesson::tr("post-norm order, ln(x + f(x)): max |difference|", "后归一化的顺序 ln(x + f(x))：最大差值"), max_abs_diff(y_post, y_lib));
    lesson::show(lesson::tr("how far y moved from x, max |y - x|", "y 离 x 有多远，max |y - x|"), max_abs_diff(y, x));

    lesson::section(lesson::tr("gradient check of the whole block: C = 4, NH = 2, x (1,3,4)", "整个块的梯度检查：C = 4，NH = 2，x (1,3,4)"));
    pg::Generator small_gen(170);
    pg::nn::Block tiny(4, 2, 0.f, small_gen);
    pg::Tensor xt = pg::randn({1, 3, 4}, small_gen, true);
    std::vector<pg::Tensor> inputs = {xt};
    for (const pg::Tensor& p : tiny.parameters()) inputs.push_back(p);
    size_t checked = 0;
    for (const pg::Tensor& t : inputs) checked += t.numel();
    std::cout << lesson::tr("inputs: x and the block's ", "输入：x 和块的 ") << tiny.parameters().size()
              << lesson::tr(" parameter tensors, ", " 个参数张量，共 ") << checked
              << lesson::tr(" numbers, each nudged by +-eps, eps = ", " 个数，每个都挪动 +-eps，eps = ")
              << lesson::num(pg::GradcheckOptions{}.eps, 2) << "\n";
    pg::GradcheckResult res = pg::gradcheck([&](const std::vector<pg::Tensor>& in) { return tiny.forward(in[0]); }, inputs);
    char err[32];
    std::snprintf(err, sizeof err, "%.1e", res.max_abs_error);
    std::cout << "gradcheck: " << (res.ok ? lesson::tr("ok", "通过") : lesson::tr("FAILED", "失败"))
              << lesson::tr(", max |analytic - numeric| = ", "，max |解析 - 数值| = ") << err
              << lesson::tr(" (it passes when |a - n| <= 2e-3 + 2e-2 |n|)\n", "（|a - n| <= 2e-3 + 2e-2 |n| 时通过）\n");
    lesson::expect("gradcheck of the block", res.ok, "ok", res.report, "");

    lesson::section(lesson::tr("a planted bug: the first residual's x detached, so its gradient is lost", "埋下的错误：第一个残差里的 x 被 detach，它的梯度就丢了"));
    auto broken = [&](const std::vector<pg::Tensor>& in) {
        pg::Tensor hb = in[0].detach() + tiny.attn.forward(tiny.ln1.forward(in[0]));
        return hb + tiny.mlp.forward(tiny.ln2.forward(hb));
    };
    pg::GradcheckResult bad = pg::gradcheck(broken, inputs);
    std::cout << "gradcheck: " << (bad.ok ? lesson::tr("ok", "通过") : lesson::tr("FAILED", "失败"))
              << lesson::tr(", max |analytic - numeric| = ", "，max |解析 - 数值| = ")
              << lesson::num(bad.max_abs_error, 2) << "\n" << lesson::gradcheck_report(bad);
    lesson::expect("the bug is caught", !bad.ok, "FAILED", "ok", "");
}

int main() { return lesson::run_experiment(run); }
