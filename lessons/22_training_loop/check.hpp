// Lesson 22's checks for train_step, shared by starter.cpp, solution.cpp and your exercise.cpp: a
// tiny GPT (300 poems, 1 layer, width 16) stepped by your function and by poet::train_step.
// An SGD that writes down what each opt.step() was given tells which part of the step is off.
#pragma once
#include <cmath>
#include <string>
#include <vector>
#include "lesson.hpp"
#include "poet/corpus.hpp"
#include "poet/model.hpp"
#include "poet/records.hpp"
#include "poet/train.hpp"

namespace exercise {
// One training step: set the optimizer's learning rate to lr, compute the batch's loss
// (poet::batch_loss: inputs (B,T) -> logits (B,T,V) -> mean cross-entropy), and unless that loss
// is NaN or infinite: zero the gradients, backward, clip their joint norm to `clip`, opt.step().
// Returns the loss, computed before the update (also when it is not finite).
float train_step(pg::nn::GPT& gpt, pg::optim::Optimizer& opt, const poet::Batch& batch, float lr, float clip);
}  // namespace exercise

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

// Checks the gradient one opt.step() of yours found against the reference's, and when it differs
// says which mistake the numbers point to. unclipped: the reference's norm before clipping.
static void expect_gradient(const SpyOptimizer::Call& yours, const SpyOptimizer::Call& ref, double unclipped,
                            float clip) {
    lesson::expect("parameters holding a gradient when opt.step() ran", yours.with_grad == ref.with_grad,
                   std::to_string(ref.with_grad), std::to_string(yours.with_grad),
                   yours.with_grad == 0
                       ? "opt.step() found no gradient at all: opt.zero_grad() after loss.backward() wipes the gradient "
                         "just computed; call opt.zero_grad() first, then loss.backward()"
                       : "call loss.backward() on the batch's loss, once");
    auto near = [](double a, double b) { return std::fabs(a - b) <= 1e-4 * std::max(1.0, std::fabs(b)); };
    std::string hint = "the gradient opt.step() found differs from this batch's clipped gradient: compute the loss "
                       "with poet::batch_loss(gpt, batch), call loss.backward() once, then clip_grad_norm";
    if (unclipped > clip && near(yours.norm, unclipped))
        hint = "opt.step() saw the unclipped gradient (norm " + lesson::num(unclipped) + ", clip " +
               lesson::num(clip) + "): call pg::optim::clip_grad_norm(opt.params(), clip) after loss.backward() "
               "and before opt.step(); clipping after the step changes nothing the step used";
    else if (unclipped < clip && near(yours.norm, clip))
        hint = "opt.step() saw a gradient of norm " + lesson::num(clip) + ", scaled up from " + lesson::num(unclipped) +
               ": clipping only ever scales down, by min(1, clip / norm); pg::optim::clip_grad_norm does that";
    else if (near(yours.norm, 2 * ref.norm))
        hint = "the gradient is twice this batch's: the gradients added up (call opt.zero_grad() before "
               "loss.backward()), or backward ran twice";
    lesson::expect_near("norm of the gradient opt.step() found", yours.norm, ref.norm, 1e-5 * std::max(1.0, ref.norm),
                        hint);
    lesson::expect_near("the gradient opt.step() found, max |yours - reference|", max_diff(yours.grad, ref.grad), 0.0,
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
        your_loss = exercise::train_step(*yours.gpt, yours_opt, batch, lr, clip);
    }
    // opt.step() ran once, on the reference's gradient, with lr; the loss and the weights match.
    void expect_same() const {
        lesson::expect("how often opt.step() ran", yours_opt.calls.size() == 1, "once",
                       std::to_string(yours_opt.calls.size()),
                       yours_opt.calls.empty() ? "call opt.step() once, after clipping (unless the loss is NaN or infinite)"
                                               : "one training step calls opt.step() exactly once");
        const SpyOptimizer::Call &call = yours_opt.calls[0], &ref_call = ref_opt.calls[0];
        expect_gradient(call, ref_call, ref_stats.grad_norm, clip);
        lesson::expect_near("the learning rate opt.step() ran with", call.lr, lr, 1e-9,
                            "opt.step() ran with the rate the optimizer was built with (0.5), not the lr passed in (" +
                                lesson::num(lr, 2) + "): set the learning rate with opt.set_lr(lr) before opt.step(), "
                                "or the schedule never reaches the optimizer");
        lesson::expect_near("the loss returned", your_loss, ref_stats.loss, 1e-6,
                            "return the loss of this batch computed before the update: "
                            "poet::batch_loss(gpt, batch).item()");
        lesson::expect_near("the weights after the step, max |yours - reference|",
                            max_diff(all_weights(*yours.gpt), all_weights(*ref.gpt)), 0.0, 1e-6,
                            "opt.step() got the right gradient and rate, yet the weights differ: change nothing "
                            "after opt.step()");
    }
};

int main() {
    lesson::Checks checks("22", "training_loop");
    const TinySetup tiny;

    checks.run("one step with SGD: the loss, the learning rate, the gradient and the update", [&] {
        poet::Batch batch = tiny.batch(1);
        OneStep(tiny, batch, 0.05f, 1e6f).expect_same();   // clip far above the norm: no clipping here
    });

    checks.run("two steps on one batch with lr 0: the second gradient is the second step's alone", [&] {
        poet::Batch batch = tiny.batch(2);
        poet::PoetModel m = tiny.model(22);
        SpyOptimizer spy(m.gpt->parameters(), 0.f);
        exercise::train_step(*m.gpt, spy, batch, 0.f, 1e6f);
        exercise::train_step(*m.gpt, spy, batch, 0.f, 1e6f);
        lesson::expect("how often opt.step() ran", spy.calls.size() == 2, "twice", std::to_string(spy.calls.size()),
                       "each training step calls opt.step() once");
        const SpyOptimizer::Call &g1 = spy.calls[0], &g2 = spy.calls[1];
        lesson::expect("parameters holding a gradient", g1.with_grad > 0 && g2.with_grad > 0, "all of them", "none",
                       "opt.step() found no gradient at all: opt.zero_grad() after loss.backward() wipes the gradient "
                       "just computed; call opt.zero_grad() first, then loss.backward()");
        lesson::expect_near("second gradient's norm / first's (lr 0: the weights did not move)", g2.norm / g1.norm, 1.0,
                            1e-5,
                            std::fabs(g2.norm / g1.norm - 2.0) < 1e-3
                                ? "the second gradient is twice the first: the gradients added up, because backward "
                                  "adds into .grad; call opt.zero_grad() before loss.backward() in every step"
                                : "with lr 0 nothing changes between the steps, so both must find the same gradient");
    });

    checks.run("clipping: a gradient above clip reaches opt.step() scaled down to norm clip", [&] {
        poet::Batch batch = tiny.batch(3);
        OneStep(tiny, batch, 0.05f, 0.01f).expect_same();   // the norm is about 0.7
    });

    checks.run("clipping: a gradient below clip reaches opt.step() unchanged", [&] {
        poet::Batch batch = tiny.batch(4);
        OneStep(tiny, batch, 0.05f, 1000.f).expect_same();
    });

    checks.run("a NaN loss: returned, and no weight changes", [&] {
        poet::Batch batch = tiny.batch(5);
        poet::PoetModel m = tiny.model(22);
        // one character's embedding row is NaN: every record using it gets a NaN loss, so the batch does
        size_t k = static_cast<size_t>(batch.inputs.to_vector()[1]), C = m.gpt->config().n_embd;
        for (size_t c = 0; c < C; ++c) m.gpt->wte.weight.mutable_data().data()[k * C + c] = NAN;
        std::vector<float> before = all_weights(*m.gpt);
        SpyOptimizer spy(m.gpt->parameters(), 0.05f);
        float loss = exercise::train_step(*m.gpt, spy, batch, 0.05f, 1.f);
        lesson::expect("the loss returned", std::isnan(loss), "nan", lesson::num(loss),
                       "return the loss even when it is not finite: the caller stops the run on it");
        std::vector<float> after = all_weights(*m.gpt);
        size_t changed = 0;
        for (size_t i = 0; i < after.size(); ++i)
            if (!(after[i] == before[i]) && !std::isnan(before[i])) ++changed;
        lesson::expect("weights changed by the step (not counting the NaN row)", changed == 0, "0",
                       std::to_string(changed) + " of " + std::to_string(after.size()),
                       "check std::isfinite(loss) and return before backward and opt.step(): one NaN step turns "
                       "every weight into NaN, and the run can never recover");
    });

    checks.run("20 steps of AdamW with warmup and cosine, from one seed: poet::train_step's losses, falling", [&] {
        poet::PoetModel yours = tiny.model(2022), ref = tiny.model(2022);
        const pg::optim::AdamWOptions o{1e-2f, 0.9f, 0.99f, 1e-8f, 0.1f};
        pg::optim::AdamW yours_opt(yours.gpt->parameters(), o), ref_opt(ref.gpt->parameters(), o);
        pg::Generator gen(2022);
        std::vector<float> your_losses, ref_losses;
        for (size_t step = 0; step < 20; ++step) {
            poet::Batch batch = poet::sample_batch(tiny.poems, 8, gen);
            float lr = pg::optim::warmup_cosine_lr(step, 4, 20, 1e-2f, 1e-3f);
            ref_losses.push_back(poet::train_step(*ref.gpt, ref_opt, batch, lr, 0.5f).loss);   // norms ~0.7: clipped
            your_losses.push_back(exercise::train_step(*yours.gpt, yours_opt, batch, lr, 0.5f));
        }
        for (size_t i = 0; i < 20; ++i)
            lesson::expect_near("the loss of step " + std::to_string(i + 1), your_losses[i], ref_losses[i], 1e-6,
                                "your loop parts from poet::train_step's here; the one-step checks above name the "
                                "part that differs (the order is: set_lr, loss, zero_grad, backward, clip, step)");
        double first = (your_losses[0] + your_losses[1] + your_losses[2]) / 3;
        double last = (your_losses[17] + your_losses[18] + your_losses[19]) / 3;
        lesson::expect("the loss falls: mean of the last 3 steps below the first 3 by more than 0.5", last < first - 0.5,
                       "below " + lesson::num(first - 0.5), lesson::num(last),
                       "the steps must lower the loss: the update goes against the gradient");
    });
    return checks.finish();
}
