// Optimizers against PyTorch step by step (tools/reference/make_optim_fixtures.py), then the
// pieces alone: clip_grad_norm, the lr schedules, state()/load_state(), skipped parameters.
// Parameters are O(1): errors are |ours - torch| / (|torch| + 1e-3).
#include "catch.hpp"
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <pg/pg.hpp>
#include "fixture.hpp"

namespace {

using MakeOptimizer = std::function<std::unique_ptr<pg::optim::Optimizer>(std::vector<pg::Tensor>)>;

pg::Tensor mse(const pg::Tensor& x, const pg::Tensor& W, const pg::Tensor& b, const pg::Tensor& y) {
    pg::Tensor d = pg::linear(x, W, b) - y;
    return pg::mean(d * d);
}

// Runs the fixture's 6 steps (b's gradient dropped before step 2) and compares every step.
void check_against_torch(const std::string& name, const MakeOptimizer& make) {
    auto problem = fixture::read("optim/problem.bin");
    auto want = fixture::read("optim/" + name + ".bin");
    pg::Tensor W = fixture::at(problem, "W").detach().requires_grad_();
    pg::Tensor b = fixture::at(problem, "b").detach().requires_grad_();
    const pg::Tensor& x = fixture::at(problem, "x");
    const pg::Tensor& y = fixture::at(problem, "y");
    std::vector<float> want_loss = fixture::at(want, "loss").to_vector();
    auto opt = make({W, b});
    double worst_loss = 0, worst_W = 0, worst_b = 0;
    for (size_t step = 0; step < 6; ++step) {
        opt->zero_grad();
        pg::Tensor loss = mse(x, W, b, y);
        loss.backward();
        if (step == 2) b.zero_grad();  // as the fixture: b skips this update
        opt->step();
        worst_loss = std::max(worst_loss, std::fabs(double(loss.item()) - want_loss[step]) / std::fabs(want_loss[step]));
        pg::Tensor want_W = pg::reshape(pg::slice(fixture::at(want, "W"), 0, long(step), long(step) + 1), {4, 3});
        pg::Tensor want_b = pg::reshape(pg::slice(fixture::at(want, "b"), 0, long(step), long(step) + 1), {4});
        worst_W = std::max(worst_W, fixture::max_rel_diff(W, want_W, 1e-3));
        worst_b = std::max(worst_b, fixture::max_rel_diff(b, want_b, 1e-3));
    }
    std::printf("%-6s vs torch, 6 steps: worst rel diff loss %.3g, W %.3g, b %.3g\n", name.c_str(), worst_loss, worst_W,
                worst_b);
    CHECK(worst_loss <= 1e-4);
    CHECK(worst_W <= 1e-4);
    CHECK(worst_b <= 1e-4);
}

// A parameter with a known gradient: p = values, grad = g.
pg::Tensor with_grad(std::vector<float> values, std::vector<float> g) {
    pg::Tensor p = pg::tensor(values, {values.size()}, true);
    pg::Tensor gt = pg::tensor(g, {g.size()});
    pg::sum(p * gt).backward();
    return p;
}

}  // namespace

TEST_CASE("SGD with momentum and weight decay matches PyTorch step by step", "[optim][reference]") {
    check_against_torch("sgd", [](std::vector<pg::Tensor> ps) {
        return std::make_unique<pg::optim::SGD>(ps, pg::optim::SGDOptions{0.1f, 0.9f, 0.01f});
    });
}

TEST_CASE("Adam with L2 weight decay matches PyTorch step by step", "[optim][reference]") {
    check_against_torch("adam", [](std::vector<pg::Tensor> ps) {
        pg::optim::AdamOptions o;
        o.lr = 0.05f;
        o.weight_decay = 0.01f;
        return std::make_unique<pg::optim::Adam>(ps, o);
    });
}

TEST_CASE("AdamW with decoupled weight decay matches PyTorch step by step", "[optim][reference]") {
    check_against_torch("adamw", [](std::vector<pg::Tensor> ps) {
        pg::optim::AdamWOptions o;
        o.lr = 0.05f;
        o.weight_decay = 0.1f;
        return std::make_unique<pg::optim::AdamW>(ps, o);
    });
}

TEST_CASE("SGD: one plain step is p -= lr * (g + wd * p)", "[optim]") {
    pg::Tensor p = with_grad({1.f, -2.f}, {0.5f, 0.25f});
    pg::optim::SGD sgd({p}, {0.1f, 0.f, 0.5f});
    sgd.step();
    CHECK(p.to_vector()[0] == Approx(1.f - 0.1f * (0.5f + 0.5f * 1.f)));
    CHECK(p.to_vector()[1] == Approx(-2.f - 0.1f * (0.25f + 0.5f * -2.f)));
}

TEST_CASE("Adam: the first step moves each weight by about lr against its gradient's sign", "[optim]") {
    // m^ = g and v^ = g^2 after bias correction, so the step is lr * g / (|g| + eps)
    pg::Tensor p = with_grad({1.f, 1.f, 1.f}, {3.f, -0.001f, 0.f});
    pg::optim::Adam adam({p});
    adam.step();
    CHECK(p.to_vector()[0] == Approx(1.f - 1e-3f).epsilon(1e-6));
    CHECK(p.to_vector()[1] == Approx(1.f + 1e-3f).epsilon(1e-5));
    CHECK(p.to_vector()[2] == 1.f);  // zero gradient, zero step
    CHECK(adam.steps_taken() == 1);
}

TEST_CASE("optimizers skip parameters without a gradient and zero_grad clears them", "[optim]") {
    pg::Tensor a = with_grad({1.f}, {1.f});
    pg::Tensor b = pg::tensor({2.f}).requires_grad_();
    pg::optim::AdamW opt({a, b});
    opt.step();
    CHECK(a.to_vector()[0] != 1.f);
    CHECK(b.to_vector()[0] == 2.f);  // no gradient: not even weight decay touches it
    auto state = opt.state();
    REQUIRE(state[0].first == "step");
    CHECK(state[0].second(0) == 1.f);
    CHECK(state[0].second(1) == 0.f);
    opt.zero_grad();
    CHECK_FALSE(a.has_grad());
}

TEST_CASE("clip_grad_norm returns the norm before clipping and scales to max_norm", "[optim]") {
    pg::Tensor a = with_grad({0.f, 0.f}, {3.f, 0.f});
    pg::Tensor b = with_grad({0.f}, {4.f});
    pg::Tensor no_grad = pg::tensor({1.f}).requires_grad_();
    float norm = pg::optim::clip_grad_norm({a, b, no_grad}, 1.f);
    CHECK(norm == Approx(5.f));
    float coef = 1.f / (5.f + 1e-6f);
    CHECK(a.grad().to_vector()[0] == Approx(3.f * coef));
    CHECK(b.grad().to_vector()[0] == Approx(4.f * coef));
    // under the limit: returned, untouched
    CHECK(pg::optim::clip_grad_norm({a, b}, 10.f) == Approx(1.f).epsilon(1e-5));
    CHECK(b.grad().to_vector()[0] == Approx(4.f * coef));
    CHECK_THROWS_AS(pg::optim::clip_grad_norm({a}, 0.f), std::invalid_argument);
}

TEST_CASE("learning-rate schedules: constant, linear warmup then cosine", "[optim]") {
    CHECK(pg::optim::constant_lr(123, 0.5f) == 0.5f);
    using pg::optim::warmup_cosine_lr;
    CHECK(warmup_cosine_lr(0, 4, 14, 1.f, 0.1f) == Approx(0.25f));
    CHECK(warmup_cosine_lr(3, 4, 14, 1.f, 0.1f) == Approx(1.f));
    CHECK(warmup_cosine_lr(4, 4, 14, 1.f, 0.1f) == Approx(1.f));      // cosine starts at the top
    CHECK(warmup_cosine_lr(9, 4, 14, 1.f, 0.1f) == Approx(0.55f));    // halfway down
    CHECK(warmup_cosine_lr(13, 4, 14, 1.f, 0.1f) == Approx(0.1f + 0.9f * 0.5f * (1 + std::cos(M_PI * 0.9))));
    CHECK(warmup_cosine_lr(14, 4, 14, 1.f, 0.1f) == Approx(0.1f));
    CHECK(warmup_cosine_lr(1000, 4, 14, 1.f, 0.1f) == Approx(0.1f));
    CHECK(warmup_cosine_lr(0, 0, 10, 1.f, 0.1f) == Approx(1.f));      // no warmup
}

TEST_CASE("state() and load_state(): a restored optimizer continues exactly", "[optim]") {
    auto problem = fixture::read("optim/problem.bin");
    const pg::Tensor& x = fixture::at(problem, "x");
    const pg::Tensor& y = fixture::at(problem, "y");
    auto run = [&](pg::optim::Optimizer& opt, pg::Tensor& W, pg::Tensor& b, int steps) {
        for (int i = 0; i < steps; ++i) {
            opt.zero_grad();
            mse(x, W, b, y).backward();
            opt.step();
        }
    };
    for (int kind = 0; kind < 2; ++kind) {
        pg::Tensor W1 = fixture::at(problem, "W").detach().requires_grad_(), b1 = fixture::at(problem, "b").detach().requires_grad_();
        std::unique_ptr<pg::optim::Optimizer> first, second;
        if (kind == 0) first = std::make_unique<pg::optim::SGD>(std::vector<pg::Tensor>{W1, b1}, pg::optim::SGDOptions{0.1f, 0.9f, 0.f});
        else first = std::make_unique<pg::optim::AdamW>(std::vector<pg::Tensor>{W1, b1});
        run(*first, W1, b1, 3);
        pg::Tensor W2 = W1.detach().requires_grad_(), b2 = b1.detach().requires_grad_();
        if (kind == 0) second = std::make_unique<pg::optim::SGD>(std::vector<pg::Tensor>{W2, b2}, pg::optim::SGDOptions{0.1f, 0.9f, 0.f});
        else second = std::make_unique<pg::optim::AdamW>(std::vector<pg::Tensor>{W2, b2});
        second->load_state(first->state());
        run(*first, W1, b1, 3);
        run(*second, W2, b2, 3);
        CHECK(W1.to_vector() == W2.to_vector());
        CHECK(b1.to_vector() == b2.to_vector());
    }
}

TEST_CASE("load_state rejects a state of another shape or optimizer and changes nothing", "[optim]") {
    pg::Tensor p = with_grad({1.f, 2.f}, {1.f, 1.f});
    pg::Tensor q = with_grad({1.f, 2.f, 3.f}, {1.f, 1.f, 1.f});
    pg::optim::Adam adam_p({p});
    adam_p.step();
    auto before = adam_p.state();
    pg::optim::Adam adam_q({q});
    CHECK_THROWS_WITH(adam_p.load_state(adam_q.state()), Contains("'m.0' has shape (3), expected (2)"));
    pg::optim::SGD sgd({p});
    CHECK_THROWS_WITH(adam_p.load_state(sgd.state()), Contains("1 arrays given, 3 expected"));
    auto bad_step = before;
    bad_step[0].second(0) = 1.5f;
    CHECK_THROWS_WITH(adam_p.load_state(bad_step), Contains("not a whole number"));
    auto after = adam_p.state();
    for (size_t i = 0; i < before.size(); ++i) {
        bool unchanged = before[i].second == after[i].second;
        CHECK(unchanged);
    }
}
