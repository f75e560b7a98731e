// Lesson 22's checks for train_step, shared by starter.cpp, solution.cpp and your exercise.cpp: a
// tiny GPT (300 poems, 1 layer, width 16) stepped by your function and by poet::train_step.
// An SGD that writes down what each opt.step() was given tells which part of the step is off.
#include "check.hpp"
#include "check_tools.hpp"

// An SGD (lr as built, no momentum) that notes, each time step() runs, the learning rate it runs
// with and the gradient it finds, all parameters' gradients joined into one vector.
class SpyOptimizer : public pg::optim::SGD {
public:
    struct Call {
        float lr = 0.f;
        size_t with_grad = 0;      // parameters holding a gradient
        std::vector<float> grad;   // every parameter's gradient, zeros where it has none
        double norm = 0;           // joint L2 norm of grad
    };
    SpyOptimizer(std::vector<pg::Tensor> params, float built_lr) : SGD(std::move(params), {built_lr}) {}
    void step() override {
        Call c;
        c.lr = lr();
        for (const pg::Tensor& p : params()) {
            std::vector<float> g = p.has_grad() ? p.grad().to_vector() : std::vector<float>(p.numel(), 0.f);
            c.with_grad += p.has_grad() ? 1 : 0;
            c.grad.insert(c.grad.end(), g.begin(), g.end());
        }
        for (float g : c.grad) c.norm += static_cast<double>(g) * g;
        c.norm = std::sqrt(c.norm);
        calls.push_back(c);
        SGD::step();
    }
    std::vector<Call> calls;
};

// The first 300 training poems, their tokenizer (V = 1421) and a 1-layer GPT of width 16 from a
// seed: two models from one seed start with the same weights.
struct TinySetup {
    poet::Tokenizer tok;
    std::vector<poet::Poem> poems;
    TinySetup() {
        std::vector<std::u32string> all = poet::read_poems(poet::default_data_dir() + "/jueju_train.txt");
        all.resize(300);
        tok = poet::Tokenizer::build(all);
        poems = poet::encode_poems(all, tok);
    }
    poet::PoetModel model(uint64_t seed) const {
        pg::nn::GPTConfig c;
        c.vocab_size = tok.size();
        c.n_layer = 1;
        c.n_head = 2;
        c.n_embd = 16;
        return poet::make_model(tok, c, seed);
    }
    poet::Batch batch(uint64_t seed, size_t B = 8) const {
        pg::Generator gen(seed);
        return poet::sample_batch(poems, B, gen);
    }
};

static std::vector<float> all_weights(const pg::nn::GPT& gpt) {
    std::vector<float> w;
    for (const pg::Tensor& p : gpt.parameters()) {
        std::vector<float> v = p.to_vector();
        w.insert(w.end(), v.begin(), v.end());
    }
    return w;
}

static double max_diff(const std::vector<float>& a, const std::vector<float>& b) {
    double m = a.size() == b.size() ? 0.0 : INFINITY;
    for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
        double d = std::fabs(static_cast<double>(a[i]) - b[i]);
        m = std::isnan(d) ? INFINITY : std::max(m, d);
    }
    return m;
}

// Your train_step, with a loss that came back from an earlier call caught: the value returned for
// another batch or model, although this batch's loss (measured before the call) is another.
static float call_train_step(pg::nn::GPT& gpt, pg::optim::Optimizer& opt, const poet::Batch& batch, float lr, float clip) {
    static std::vector<float> earlier;   // the right losses returned by the earlier calls
    float want;
    {
        pg::NoGradGuard no_grad;
        want = poet::batch_loss(gpt, batch).item();
    }
    const float got = exercise::train_step(gpt, opt, batch, lr, clip);
    if (lesson::came_back(got, want, earlier, std::equal_to<float>(),
                          [](float a, float b) { return !(std::fabs(a - b) <= 1e-6); }, lesson::Remember::right_answers))
        throw lesson::CheckFailed(lesson::tr("the loss returned", "返回的损失"), lesson::num(want, 6),
                                  lesson::num(got, 6) + lesson::tr(", the loss an earlier call returned", "，先前一次调用返回的损失"),
                                  lesson::came_back_hint({"result", "结果"}, {"model and batch", "模型和 batch"}));
    return got;
}

// Checks the gradient one opt.step() of yours found against the reference's, and when it differs
// says which mistake the numbers point to. unclipped: the reference's norm before clipping.
static void expect_gradient(const SpyOptimizer::Call& yours, const SpyOptimizer::Call& ref, double unclipped,
                            float clip) {
    lesson::expect(lesson::tr("parameters holding a gradient when opt.step() ran", "opt.step() 运行时持有梯度的参数"), yours.with_grad == ref.with_grad,
                   std::to_string(ref.with_grad), std::to_string(yours.with_grad),
                   yours.with_grad == 0
                       ? lesson::tr("opt.step() found no gradient at all: opt.zero_grad() after loss.backward() wipes the gradient "
                                    "just computed; call opt.zero_grad() first, then loss.backward()",
                                    "opt.step() 一个梯度都没找到：在 loss.backward() 之后调用 opt.zero_grad() 会抹掉刚算出的梯度；先调用 opt.zero_grad()，再 loss.backward()")
                       : lesson::tr("call loss.backward() on the batch's loss, once",
                                    "对这一批的损失调用 loss.backward()，只调用一次"));
    auto near = [](double a, double b) { return std::fabs(a - b) <= 1e-4 * std::max(1.0, std::fabs(b)); };
    std::string hint = lesson::tr("the gradient opt.step() found differs from this batch's clipped gradient: compute the loss "
                                  "with poet::batch_loss(gpt, batch), call loss.backward() once, then clip_grad_norm",
                                  "opt.step() 找到的梯度与这一批裁剪后的梯度不同：用 poet::batch_loss(gpt, batch) 计算损失，调用一次 loss.backward()，然后 clip_grad_norm");
    if (unclipped > clip && near(yours.norm, unclipped))
        hint = lesson::tr("opt.step() saw the unclipped gradient (norm ", "opt.step() 看到的是没裁剪的梯度（范数 ") +
               lesson::num(unclipped) + lesson::tr(", clip ", "，clip ") + lesson::num(clip) +
               lesson::tr("): call pg::optim::clip_grad_norm(opt.params(), clip) after loss.backward() "
                          "and before opt.step(); clipping after the step changes nothing the step used",
                          "）：在 loss.backward() 之后、opt.step() 之前调用 pg::optim::clip_grad_norm(opt.params(), clip)；"
                          "在这一步之后再裁剪，改变不了这一步用过的任何东西");
    else if (unclipped < clip && near(yours.norm, clip))
        hint = lesson::tr("opt.step() saw a gradient of norm ", "opt.step() 看到的梯度范数是 ") + lesson::num(clip) +
               lesson::tr(", scaled up from ", "，是从 ") + lesson::num(unclipped) +
               lesson::tr(": clipping only ever scales down, by min(1, clip / norm); pg::optim::clip_grad_norm does that",
                          " 放大来的：裁剪只会缩小，乘以 min(1, clip / norm)；pg::optim::clip_grad_norm 就是这样做的");
    else if (near(yours.norm, 2 * ref.norm))
        hint = lesson::tr("the gradient is twice this batch's: the gradients added up (call opt.zero_grad() before "
                          "loss.backward()), or backward ran twice",
                          "梯度是这一批的两倍：梯度累加起来了（在 loss.backward() 之前调用 opt.zero_grad()），或者 backward 运行了两次");
    lesson::expect_near(lesson::tr("norm of the gradient opt.step() found", "opt.step() 找到的梯度的范数"), yours.norm, ref.norm, 1e-5 * std::max(1.0, ref.norm),
                        hint);
    lesson::expect_near(lesson::tr("the gradient opt.step() found, max |yours - reference|",
                                   "opt.step() 找到的梯度，max |你的 - 参考|"), max_diff(yours.grad, ref.grad), 0.0,
                        1e-6, hint);
}

// One step of yours and one of poet::train_step on twin models and one batch, each with a spy
// built with lr 0.5 (so a learning rate that never reaches the optimizer shows).
struct OneStep {
    poet::PoetModel yours, ref;
    SpyOptimizer yours_opt, ref_opt;
    float lr, clip, your_loss = 0.f;
    poet::StepStats ref_stats;
    OneStep(const TinySetup& tiny, const poet::Batch& batch, float lr_, float clip_)
        : yours(tiny.model(22)), ref(tiny.model(22)), yours_opt(yours.gpt->parameters(), 0.5f),
          ref_opt(ref.gpt->parameters(), 0.5f), lr(lr_), clip(clip_) {
        ref_stats = poet::train_step(*ref.gpt, ref_opt, batch, lr, clip);
        your_loss = call_train_step(*yours.gpt, yours_opt, batch, lr, clip);
    }
    // opt.step() ran once, on the reference's gradient, with lr; the loss and the weights match.
    void expect_same() const {
        lesson::expect(lesson::tr("how often opt.step() ran", "opt.step() 运行了几次"), yours_opt.calls.size() == 1,
                       lesson::tr("once", "一次"),
                       std::to_string(yours_opt.calls.size()),
                       yours_opt.calls.empty()
                           ? lesson::tr("call opt.step() once, after clipping (unless the loss is NaN or infinite)",
                                        "裁剪之后调用一次 opt.step()（除非损失是 NaN 或无穷大）")
                           : lesson::tr("one training step calls opt.step() exactly once",
                                        "一个训练步恰好调用一次 opt.step()"));
        const SpyOptimizer::Call &call = yours_opt.calls[0], &ref_call = ref_opt.calls[0];
        expect_gradient(call, ref_call, ref_stats.grad_norm, clip);
        lesson::expect_near(lesson::tr("the learning rate opt.step() ran with", "opt.step() 运行时用的学习率"), call.lr, lr, 1e-9,
                            lesson::tr("opt.step() ran with the rate the optimizer was built with (0.5), not the lr passed in (",
                                       "opt.step() 用的是优化器构建时的学习率（0.5），而不是传入的 lr（") +
                                lesson::num(lr, 2) +
                                lesson::tr("): set the learning rate with opt.set_lr(lr) before opt.step(), "
                                           "or the schedule never reaches the optimizer",
                                           "）：在 opt.step() 之前用 opt.set_lr(lr) 设置学习率，"
                                           "否则学习率调度永远到不了优化器"));
        lesson::expect_near(lesson::tr("the loss returned", "返回的损失"), your_loss, ref_stats.loss, 1e-6,
                            lesson::tr("return the loss of this batch computed before the update: "
                                       "poet::batch_loss(gpt, batch).item()",
                                       "返回更新之前算出的这一批的损失：poet::batch_loss(gpt, batch).item()"));
        lesson::expect_near(lesson::tr("the weights after the step, max |yours - reference|",
                                       "这一步之后的权重，max |你的 - 参考|"),
                            max_diff(all_weights(*yours.gpt), all_weights(*ref.gpt)), 0.0, 1e-6,
                            lesson::tr("opt.step() got the right gradient and rate, yet the weights differ: change nothing "
                                       "after opt.step()",
                                       "opt.step() 拿到了正确的梯度和学习率，权重却不同：opt.step() 之后什么都不要改"));
    }
};

int main() {
    lesson::Checks checks("22", "training_loop");
    const TinySetup tiny;

    checks.run(lesson::tr("one step with SGD: the loss, the learning rate, the gradient and the update",
                          "用 SGD 走一步：损失、学习率、梯度和更新"), [&] {
        poet::Batch batch = tiny.batch(1);
        OneStep(tiny, batch, 0.05f, 1e6f).expect_same();   // clip far above the norm: no clipping here
    });

    checks.run(lesson::tr("two steps on one batch with lr 0: the second gradient is the second step's alone",
                          "lr 为 0 时在同一批上走两步：第二个梯度只属于第二步"), [&] {
        poet::Batch batch = tiny.batch(2);
        poet::PoetModel m = tiny.model(22);
        SpyOptimizer spy(m.gpt->parameters(), 0.f);
        call_train_step(*m.gpt, spy, batch, 0.f, 1e6f);
        call_train_step(*m.gpt, spy, batch, 0.f, 1e6f);
        lesson::expect(lesson::tr("how often opt.step() ran", "opt.step() 运行了几次"), spy.calls.size() == 2,
                       lesson::tr("twice", "两次"), std::to_string(spy.calls.size()),
                       lesson::tr("each training step calls opt.step() once", "每个训练步调用一次 opt.step()"));
        const SpyOptimizer::Call &g1 = spy.calls[0], &g2 = spy.calls[1];
        lesson::expect(lesson::tr("parameters holding a gradient", "持有梯度的参数"), g1.with_grad > 0 && g2.with_grad > 0,
                       lesson::tr("all of them", "全部"), lesson::tr("none", "没有"),
                       lesson::tr("opt.step() found no gradient at all: opt.zero_grad() after loss.backward() wipes the gradient "
                                  "just computed; call opt.zero_grad() first, then loss.backward()",
                                  "opt.step() 一个梯度都没找到：在 loss.backward() 之后调用 opt.zero_grad() 会抹掉刚算出的梯度；"
                                  "先调用 opt.zero_grad()，再 loss.backward()"));
        lesson::expect_near(lesson::tr("second gradient's norm / first's (lr 0: the weights did not move)",
                                       "第二个梯度的范数 / 第一个的（lr 0：权重没有动）"), g2.norm / g1.norm, 1.0,
                            1e-5,
                            std::fabs(g2.norm / g1.norm - 2.0) < 1e-3
                                ? lesson::tr("the second gradient is twice the first: the gradients added up, because backward "
                                             "adds into .grad; call opt.zero_grad() before loss.backward() in every step",
                                             "第二个梯度是第一个的两倍：梯度累加起来了，因为 backward 是往 .grad 里加的；每一步都要在 loss.backward() 之前调用 opt.zero_grad()")
                                : lesson::tr("with lr 0 nothing changes between the steps, so both must find the same gradient",
                                             "lr 为 0 时两步之间什么都不变，所以两步必须找到同样的梯度"));
    });

    checks.run(lesson::tr("clipping: a gradient above clip reaches opt.step() scaled down to norm clip",
                          "裁剪：超过 clip 的梯度到达 opt.step() 时被缩小到范数 clip"), [&] {
        poet::Batch batch = tiny.batch(3);
        OneStep(tiny, batch, 0.05f, 0.01f).expect_same();   // the norm is about 0.7
    });

    checks.run(lesson::tr("clipping: a gradient below clip reaches opt.step() unchanged",
                          "裁剪：低于 clip 的梯度原样到达 opt.step()"), [&] {
        poet::Batch batch = tiny.batch(4);
        OneStep(tiny, batch, 0.05f, 1000.f).expect_same();
    });

    // A loss that is not finite: returned as it is, and no weight moves. Two ways in, two values out:
    // NaN (one character's embedding row is NaN) and +inf (one target's logit is -inf at every
    // position, its probability 0, so -ln p = +inf). A cross-entropy is never below 0: -inf cannot occur.
    auto not_finite = [&](bool nan) {
        poet::Batch batch = tiny.batch(nan ? 5 : 6);
        poet::PoetModel m = tiny.model(22);
        const size_t C = m.gpt->config().n_embd;
        if (nan) {
            // every record using this character gets a NaN loss, so the batch does
            size_t k = static_cast<size_t>(batch.inputs.to_vector()[1]);
            for (size_t c = 0; c < C; ++c) m.gpt->wte.weight.mutable_data().data()[k * C + c] = NAN;
        } else {
            // ln_f gives every position the vector (1, ..., 1); the head row of a target that occurs
            // gets -inf in column 0: that logit is -inf, the others stay finite
            for (size_t c = 0; c < C; ++c) {
                m.gpt->ln_f.weight.mutable_data().data()[c] = 0.f;
                m.gpt->ln_f.bias.mutable_data().data()[c] = 1.f;
            }
            size_t t = 0;
            for (float y : batch.targets.to_vector())
                if (y != poet::kIgnore) t = static_cast<size_t>(y);
            m.gpt->head.weight.mutable_data().data()[t * C] = -INFINITY;
        }
        const std::string what = nan ? "NaN" : "+inf";
        std::vector<float> before = all_weights(*m.gpt);
        SpyOptimizer spy(m.gpt->parameters(), 0.05f);
        float loss = call_train_step(*m.gpt, spy, batch, 0.05f, 1.f);
        const bool returned = nan ? std::isnan(loss) : (std::isinf(loss) && loss > 0);
        lesson::expect(lesson::tr("the loss returned", "返回的损失"), returned, nan ? "nan" : "inf",
                       std::isnan(loss) ? std::string("nan") : lesson::num(loss),
                       lesson::tr("return the loss even when it is not finite (here it is " + what +
                                      "): the caller stops the run on it",
                                  "即使损失不是有限值（这里是 " + what + "）也要原样返回它：调用者会据此停止训练"));
        std::vector<float> after = all_weights(*m.gpt);
        size_t changed = 0;
        for (size_t i = 0; i < after.size(); ++i)
            if (!(after[i] == before[i]) && !std::isnan(before[i])) ++changed;
        const std::string hint =
            nan ? lesson::tr("check std::isfinite(loss) and return before backward and opt.step(): one NaN step turns "
                             "every weight into NaN, and the run can never recover",
                             "检查 std::isfinite(loss)，并在 backward 和 opt.step() 之前返回：一个 NaN 步就会把"
                             "每个权重都变成 NaN，训练再也无法恢复")
                : lesson::tr("the loss was +inf and the step still ran: std::isnan(loss) lets an infinite loss through; "
                             "test std::isfinite(loss), false for NaN, +inf and -inf alike",
                             "损失是 +inf，这一步却照样走了：std::isnan(loss) 放过了无穷大的损失；"
                             "要用 std::isfinite(loss) 判断，它对 NaN、+inf 和 -inf 都是 false");
        lesson::expect(lesson::tr("weights changed by the step (not counting the poisoned entries)",
                                  "这一步改变了的权重（不算被改成 NaN 的那些）"),
                       changed == 0, "0",
                       std::to_string(changed) + lesson::tr(" of ", " / ") + std::to_string(after.size()), hint);
    };
    checks.run(lesson::tr("a NaN loss: returned, and no weight changes", "NaN 损失：照样返回，并且权重都不变"),
               [&] { not_finite(true); });
    checks.run(lesson::tr("an infinite loss (+inf): returned, and no weight changes",
                          "无穷大的损失（+inf）：照样返回，并且权重都不变"),
               [&] { not_finite(false); });

    checks.run(lesson::tr("20 steps of AdamW with warmup and cosine, from one seed: poet::train_step's losses, falling",
                          "从同一个种子出发，用带预热和余弦调度的 AdamW 走 20 步：poet::train_step 的损失，并且在下降"), [&] {
        poet::PoetModel yours = tiny.model(2022), ref = tiny.model(2022);
        const pg::optim::AdamWOptions o{1e-2f, 0.9f, 0.99f, 1e-8f, 0.1f};
        pg::optim::AdamW yours_opt(yours.gpt->parameters(), o), ref_opt(ref.gpt->parameters(), o);
        pg::Generator gen(2022);
        std::vector<float> your_losses, ref_losses;
        for (size_t step = 0; step < 20; ++step) {
            poet::Batch batch = poet::sample_batch(tiny.poems, 8, gen);
            float lr = pg::optim::warmup_cosine_lr(step, 4, 20, 1e-2f, 1e-3f);
            ref_losses.push_back(poet::train_step(*ref.gpt, ref_opt, batch, lr, 0.5f).loss);   // norms ~0.7: clipped
            your_losses.push_back(call_train_step(*yours.gpt, yours_opt, batch, lr, 0.5f));
        }
        for (size_t i = 0; i < 20; ++i)
            lesson::expect_near(lesson::tr("the loss of step " + std::to_string(i + 1), "第 " + std::to_string(i + 1) + " 步的损失"),
                                your_losses[i], ref_losses[i], 1e-6,
                                lesson::tr("your loop parts from poet::train_step's here; the one-step checks above name the "
                                           "part that differs (the order is: set_lr, loss, zero_grad, backward, clip, step)",
                                           "你的循环在这里与 poet::train_step 的分道扬镳；上面的单步检查会指出不同的那一部分"
                                           "（顺序是：set_lr、loss、zero_grad、backward、clip、step）"));
        double first = (your_losses[0] + your_losses[1] + your_losses[2]) / 3;
        double last = (your_losses[17] + your_losses[18] + your_losses[19]) / 3;
        lesson::expect(lesson::tr("the loss falls: mean of the last 3 steps below the first 3 by more than 0.5",
                                  "损失在下降：最后 3 步的平均值比最前 3 步低 0.5 以上"),
                       last < first - 0.5, lesson::tr("below ", "低于 ") + lesson::num(first - 0.5), lesson::num(last),
                       lesson::tr("the steps must lower the loss: the update goes against the gradient",
                                  "这些步必须降低损失：更新要逆着梯度的方向"));
    });
    return checks.finish();
}
