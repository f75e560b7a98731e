// The engine: accumulation, diamonds, deep chains, freed graphs, retain_graph, NoGradGuard,
// detach, zero_grad, retain_grad, to_dot, explicit output gradients, and the seeded Generator.
// Leaves out: each op's own derivative (test_ops_gradcheck.cpp).
#include "catch.hpp"
#include <cmath>
#include <pg/pg.hpp>

namespace {

pg::Tensor leaf(std::vector<float> values, pg::Shape shape) { return pg::tensor(values, shape, true); }

}  // namespace

TEST_CASE("a tensor used twice receives both contributions", "[autograd]") {
    SECTION("y = x * x gives 2x") {
        pg::Tensor x = leaf({1.5f, -2.f, 3.f}, {3});
        pg::sum(x * x).backward();
        CHECK(x.grad().to_vector() == std::vector<float>{3.f, -4.f, 6.f});
    }
    SECTION("y = a + a gives 2") {
        pg::Tensor a = leaf({1.f, 2.f}, {2});
        pg::sum(a + a).backward();
        CHECK(a.grad().to_vector() == std::vector<float>{2.f, 2.f});
    }
    SECTION("two backward passes over two graphs add into the leaf's gradient") {
        pg::Tensor x = leaf({2.f}, {1});
        pg::sum(x * 3.f).backward();
        pg::sum(x * x).backward();
        CHECK(x.grad().item() == 3.f + 4.f);
    }
}

TEST_CASE("a diamond graph sums the gradients of both paths", "[autograd]") {
    // b = 2a, c = 3a, d = b * c = 6 a^2  =>  dd/da = 12 a
    pg::Tensor a = leaf({0.5f, -1.f}, {2});
    pg::Tensor b = a * 2.f;
    pg::Tensor c = a * 3.f;
    pg::sum(b * c).backward();
    CHECK(a.grad().to_vector() == std::vector<float>{6.f, -12.f});

    // two diamonds in a row: e = (x + x) * (x * 2), f = e + e  =>  f = 8 x^2, df/dx = 16 x
    pg::Tensor x = leaf({1.f, 2.f}, {2});
    pg::Tensor e = (x + x) * (x * 2.f);
    pg::sum(e + e).backward();
    CHECK(x.grad().to_vector() == std::vector<float>{16.f, 32.f});
}

TEST_CASE("a chain of 100,000 ops neither overflows the stack in backward nor when it is freed", "[autograd]") {
    pg::Tensor x = pg::scalar(0.f, true);
    {
        pg::Tensor y = x;
        for (int i = 0; i < 100000; ++i) y = y + 1.f;
        CHECK(y.item() == 100000.f);
        y.backward();
    }  // y and its whole chain are destroyed here
    CHECK(x.grad().item() == 1.f);

    // the same chain destroyed without ever running backward
    pg::Tensor z = x;
    for (int i = 0; i < 100000; ++i) z = z * 1.f;
    z = pg::Tensor();
    CHECK(z.numel() == 0);
}

TEST_CASE("a second backward through a freed graph is a clear error", "[autograd]") {
    pg::Tensor x = leaf({1.f, 2.f}, {2});
    pg::Tensor loss = pg::sum(pg::exp(x));
    loss.backward();
    CHECK(loss.grad_fn()->freed);
    try {
        loss.backward();
        FAIL("the second backward did not throw");
    } catch (const std::logic_error& e) {
        std::string msg = e.what();
        CHECK_THAT(msg, Contains("already freed") && Contains("retain_graph"));
    }
    // a new graph that reuses a freed part is refused too
    pg::Tensor y = pg::exp(x);
    pg::Tensor first = pg::sum(y);
    first.backward();
    CHECK_THROWS_AS(pg::sum(y * 2.f).backward(), std::logic_error);
}

TEST_CASE("backward with retain_graph can run again and accumulates", "[autograd]") {
    pg::Tensor x = leaf({1.f, -1.f}, {2});
    pg::Tensor loss = pg::sum(x * x * 0.5f);  // d/dx = x
    loss.backward(true);
    CHECK(x.grad().to_vector() == std::vector<float>{1.f, -1.f});
    loss.backward(true);
    CHECK(x.grad().to_vector() == std::vector<float>{2.f, -2.f});
    loss.backward();  // the last one may free
    CHECK(x.grad().to_vector() == std::vector<float>{3.f, -3.f});
    CHECK_THROWS_AS(loss.backward(), std::logic_error);
}

TEST_CASE("NoGradGuard records nothing and restores the previous mode", "[autograd]") {
    pg::Tensor x = leaf({1.f, 2.f}, {2});
    CHECK(pg::grad_enabled());
    {
        pg::NoGradGuard guard;
        CHECK_FALSE(pg::grad_enabled());
        pg::Tensor y = x * 2.f;
        CHECK_FALSE(y.requires_grad());
        CHECK(y.grad_fn() == nullptr);
        CHECK(y.to_vector() == std::vector<float>{2.f, 4.f});
        CHECK_THROWS_AS(pg::sum(y).backward(), std::logic_error);
        {
            pg::NoGradGuard nested;
            CHECK_FALSE(pg::grad_enabled());
        }
        CHECK_FALSE(pg::grad_enabled());  // the nested guard restores "off", not "on"
    }
    CHECK(pg::grad_enabled());
    CHECK((x * 2.f).requires_grad());
}

TEST_CASE("detach copies the values and cuts the history", "[autograd]") {
    pg::Tensor x = leaf({3.f, 4.f}, {2});
    pg::Tensor d = (x * 2.f).detach();
    CHECK(d.to_vector() == std::vector<float>{6.f, 8.f});
    CHECK_FALSE(d.requires_grad());
    CHECK(d.is_leaf());
    // y = stop(x) * x: only the second factor carries a gradient, so dy/dx = x
    pg::sum(x.detach() * x).backward();
    CHECK(x.grad().to_vector() == std::vector<float>{3.f, 4.f});
}

TEST_CASE("zero_grad forgets the gradient, and nothing zeroes it implicitly", "[autograd]") {
    pg::Tensor x = leaf({1.f}, {1});
    pg::sum(x * 5.f).backward();
    CHECK(x.has_grad());
    x.zero_grad();
    CHECK_FALSE(x.has_grad());
    CHECK_THROWS_AS(x.grad(), std::logic_error);
    pg::sum(x * 7.f).backward();
    CHECK(x.grad().item() == 7.f);
}

TEST_CASE("retain_grad keeps the gradient of an intermediate tensor", "[autograd]") {
    pg::Tensor x = leaf({1.f, 2.f}, {2});
    pg::Tensor h = x * 3.f;
    pg::Tensor k = h + 1.f;
    h.retain_grad();
    pg::sum(h * k).backward();  // d/dh of h (h + 1) = 2h + 1
    REQUIRE(h.has_grad());
    CHECK(h.grad().to_vector() == std::vector<float>{7.f, 13.f});
    CHECK_FALSE(k.has_grad());  // not retained
    CHECK(x.grad().to_vector() == std::vector<float>{3.f * 7.f, 3.f * 13.f});
}

TEST_CASE("to_dot lists the ops and the shapes of the graph", "[autograd]") {
    pg::Tensor w = pg::ones({2, 3}, true);
    pg::Tensor x = pg::ones({4, 2});
    pg::Tensor loss = pg::mean(pg::relu(pg::matmul(x, w)));
    std::string dot = pg::to_dot(loss);
    CHECK_THAT(dot, StartsWith("digraph"));
    for (const char* want : {"matmul", "relu", "mean", "reshape", "(2,3) param", "(4,2)", "(4,3)", "()"}) {
        INFO(want);
        CHECK_THAT(dot, Contains(want));
    }
    CHECK(dot.back() == '\n');
    // nodes are numbered in the order they are written, not by address: the same graph, the same text
    CHECK_THAT(dot, Contains("n0 [shape=box,label=\"()\"]"));
    pg::Tensor w2 = pg::ones({2, 3}, true);
    CHECK(pg::to_dot(pg::mean(pg::relu(pg::matmul(pg::ones({4, 2}), w2)))) == dot);
}

TEST_CASE("backward with an explicit output gradient", "[autograd]") {
    pg::Tensor x = leaf({1.f, 2.f, 3.f, 4.f}, {2, 2});
    pg::Tensor y = x * x;
    y.backward(pg::tensor({{1.f, 0.f}, {0.5f, -1.f}}));  // dx = 2x * g
    CHECK(x.grad().to_vector() == std::vector<float>{2.f, 0.f, 3.f, -8.f});
    pg::Tensor z = x * 2.f;
    CHECK_THROWS_AS(z.backward(pg::ones({4})), pg::ShapeError);
    CHECK_THROWS_AS(z.backward(), pg::ShapeError);  // not a 1-element tensor
}

TEST_CASE("requires_grad propagates from any input and only to op results", "[autograd]") {
    pg::Tensor a = leaf({1.f}, {1});
    pg::Tensor b = pg::tensor({2.f});
    CHECK((a + b).requires_grad());
    CHECK((b * a).requires_grad());
    CHECK_FALSE((b + b).requires_grad());
    CHECK((b + b).grad_fn() == nullptr);
    pg::Tensor c = a * b;
    CHECK_FALSE(c.is_leaf());
    CHECK(c.grad_fn()->op == "mul");
    CHECK(c.grad_fn()->inputs.size() == 2);
    CHECK_THROWS_AS(c.requires_grad_(false), std::logic_error);
    b.requires_grad_();
    CHECK((b + b).requires_grad());
    // a constant input gets no gradient
    pg::Tensor k = pg::tensor({5.f});
    pg::sum(a * k).backward();
    CHECK_FALSE(k.has_grad());
    CHECK(a.grad().item() == 5.f);
}

TEST_CASE("the engine refuses a backward that returns the wrong shape", "[autograd]") {
    pg::Tensor x = leaf({1.f, 2.f}, {2});
    pg::Tensor y = pg::make_result(x.data(), "bad_op", {x}, [](const pg::BackwardContext&) {
        return std::vector<pg::Array>{pg::Array({3})};
    });
    try {
        pg::sum(y).backward();
        FAIL("no error");
    } catch (const std::logic_error& e) {
        CHECK_THAT(std::string(e.what()), Contains("bad_op") && Contains("(3)") && Contains("(2)"));
    }
}

TEST_CASE("copy_ overwrites values in place without recording", "[autograd]") {
    pg::Tensor w = leaf({1.f, 2.f}, {2});
    pg::Tensor alias = w;  // same storage
    w.copy_(pg::tensor({7.f, 8.f}));
    CHECK(alias.to_vector() == std::vector<float>{7.f, 8.f});
    CHECK(w.is_leaf());
    CHECK(w.requires_grad());
}

TEST_CASE("Generator: same seed gives the same numbers, other seeds other numbers", "[random]") {
    pg::Generator a(42), b(42), c(43);
    std::vector<float> va, vb, vc;
    for (int i = 0; i < 100; ++i) {
        va.push_back(a.normal());
        vb.push_back(b.normal());
        vc.push_back(c.normal());
    }
    CHECK(va == vb);
    CHECK(va != vc);
    pg::Generator d(7), e(7);
    CHECK(pg::randn({3, 4}, d).to_vector() == pg::randn({3, 4}, e).to_vector());
    CHECK(pg::uniform({5}, -1.f, 1.f, d).to_vector() == pg::uniform({5}, -1.f, 1.f, e).to_vector());

    // state() / set_state() replays the stream, the spare normal included
    pg::Generator f(9);
    f.normal();
    pg::Generator::State saved = f.state();
    std::vector<float> first{f.normal(), f.normal(), f.uniform()};
    f.set_state(saved);
    CHECK(std::vector<float>{f.normal(), f.normal(), f.uniform()} == first);
    CHECK(f.seed() == 9);
}

TEST_CASE("Generator: normal has mean 0 and std 1, uniform and randint stay in range", "[random]") {
    pg::Generator gen(2024);
    const int n = 100000;
    double sum = 0, sum_sq = 0;
    for (int i = 0; i < n; ++i) {
        double v = gen.normal();
        sum += v;
        sum_sq += v * v;
    }
    double mean = sum / n, std = std::sqrt(sum_sq / n - mean * mean);
    CHECK(std::fabs(mean) < 0.02);  // the standard error of the mean is 1/sqrt(1e5) = 0.003
    CHECK(std::fabs(std - 1.0) < 0.02);

    double lo = 1, hi = 0, total = 0;
    for (int i = 0; i < n; ++i) {
        double u = gen.uniform();
        lo = std::min(lo, u);
        hi = std::max(hi, u);
        total += u;
    }
    CHECK(lo >= 0.0);
    CHECK(hi < 1.0);
    CHECK(std::fabs(total / n - 0.5) < 0.01);

    std::vector<int> counts(6, 0);
    for (int i = 0; i < 6000; ++i) counts[gen.randint(6)]++;
    for (int k : counts) CHECK(k > 800);  // each face near 1000

    pg::Tensor u = pg::uniform({1000}, 2.f, 3.f, gen, true);
    CHECK(u.requires_grad());
    for (float v : u.to_vector()) REQUIRE((v >= 2.f && v < 3.f));
}

TEST_CASE("a backward that returns fewer gradients than its op has inputs is caught where it happens", "[autograd]") {
    pg::Tensor a = pg::tensor({1.f, 2.f}, {2}, true), b = pg::tensor({3.f, 4.f}, {2}, true);
    pg::Tensor y = pg::make_result((a + b).data(), "two_inputs_one_grad", {a, b},
                                   [](const pg::BackwardContext& ctx) { return std::vector<pg::Array>{ctx.gy}; });
    REQUIRE_THROWS_WITH(pg::sum(y).backward(),
                        Contains("backward of 'two_inputs_one_grad' returned 1 gradients for its 2 inputs"));
}
