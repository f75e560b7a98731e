// Every op's backward against central differences (pg::gradcheck), on every element of every
// input, including broadcasting, keepdim, negative dims and the scalar forms. Each TEST_CASE is
// tagged [gradcheck][<op>]; the coverage test fails when an op in pg::op_names() has no such case.
// Leaves out: values against PyTorch (test_reference_ops.cpp) and error messages (test_shape_errors.cpp).
#include "catch.hpp"
#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <pg/pg.hpp>

namespace {

using Fn = std::function<pg::Tensor(const std::vector<pg::Tensor>&)>;

// Tolerance: gradcheck's defaults, eps = 1e-2, pass when |analytic - numeric| <= 2e-3 + 2e-2 |numeric|.
// The forward runs in float32 (relative rounding 6e-8); over a step of 2e-2 that is a numeric
// error near 1e-5 for outputs of size one, and the central difference's own error is
// eps^2/6 * f''' ~ 2e-5 for the smooth ops here. Inputs are chosen so that no kink (relu at 0, a
// tie in max) lies within eps of any element, so the margin stays far above both errors.
const pg::GradcheckOptions kOptions{};

// Uniform values in [lo, hi), requiring grad; each seed gives its own fixed tensor.
pg::Tensor param(const pg::Shape& shape, float lo, float hi, uint64_t seed) {
    pg::Generator gen(seed);
    return pg::uniform(shape, lo, hi, gen, true);
}

// Values of magnitude in [0.3, 1.3) with random signs: at least 0.3 from zero (relu, division).
pg::Tensor away_from_zero(const pg::Shape& shape, uint64_t seed) {
    pg::Generator gen(seed);
    std::vector<float> v(pg::numel_of(shape));
    for (float& x : v) x = (0.3f + gen.uniform()) * (gen.uniform() < 0.5f ? -1.f : 1.f);
    return pg::tensor(v, shape, true);
}

// Distinct values 0.1 apart in shuffled order, so eps = 1e-2 never changes which one is the max.
pg::Tensor distinct(const pg::Shape& shape, uint64_t seed) {
    pg::Generator gen(seed);
    std::vector<float> v(pg::numel_of(shape));
    for (size_t i = 0; i < v.size(); ++i) v[i] = 0.1f * static_cast<float>(i) - 1.f;
    for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[gen.randint(i)]);
    return pg::tensor(v, shape, true);
}

// Gradient-checks f at `inputs` on every element. Also requires that f really records `op` and
// that each checked input receives a gradient that is not all zero, so no check passes vacuously.
void check_op(const std::string& op, const Fn& f, const std::vector<pg::Tensor>& inputs,
              const pg::GradcheckOptions& opt = kOptions) {
    INFO("op " << op);
    REQUIRE(pg::ops_in(f(inputs)).count(op) == 1);
    pg::GradcheckResult res = pg::gradcheck(f, inputs, opt);
    INFO("worst |analytic - numeric| = " << res.max_abs_error << "\n" << res.report);
    CHECK(res.ok);
    for (size_t k = 0; k < inputs.size(); ++k) {
        if (!inputs[k].requires_grad()) continue;
        INFO("input " << k << " of shape " << pg::shape_str(inputs[k].shape()));
        REQUIRE(inputs[k].has_grad());
        std::vector<float> g = inputs[k].grad().to_vector();
        CHECK(std::any_of(g.begin(), g.end(), [](float v) { return v != 0.f; }));
    }
}

}  // namespace

// ---- elementwise, with broadcasting and scalar forms ----

TEST_CASE("gradcheck: add", "[gradcheck][add]") {
    auto add = [](const std::vector<pg::Tensor>& in) { return in[0] + in[1]; };
    SECTION("same shape") { check_op("add", add, {param({2, 3}, -1, 1, 1), param({2, 3}, -1, 1, 2)}); }
    SECTION("(2,3) + (3)") { check_op("add", add, {param({2, 3}, -1, 1, 3), param({3}, -1, 1, 4)}); }
    SECTION("(2,1,3) + (4,1)") { check_op("add", add, {param({2, 1, 3}, -1, 1, 5), param({4, 1}, -1, 1, 6)}); }
    SECTION("0-d + (2,3)") { check_op("add", add, {pg::scalar(0.7f, true), param({2, 3}, -1, 1, 7)}); }
    SECTION("x + 2 and 2 + x") {
        check_op("add", [](const std::vector<pg::Tensor>& in) { return (in[0] + 2.f) * (2.f + in[0]); },
                 {param({3}, -1, 1, 8)});
    }
    SECTION("a + a: one tensor used twice") {
        check_op("add", [](const std::vector<pg::Tensor>& in) { return in[0] + in[0]; }, {param({2, 2}, -1, 1, 9)});
    }
}

TEST_CASE("gradcheck: sub", "[gradcheck][sub]") {
    auto sub = [](const std::vector<pg::Tensor>& in) { return in[0] - in[1]; };
    SECTION("same shape") { check_op("sub", sub, {param({2, 3}, -1, 1, 11), param({2, 3}, -1, 1, 12)}); }
    SECTION("(3,1) - (1,4)") { check_op("sub", sub, {param({3, 1}, -1, 1, 13), param({1, 4}, -1, 1, 14)}); }
    SECTION("(2,3) - 0-d") { check_op("sub", sub, {param({2, 3}, -1, 1, 15), pg::scalar(-0.4f, true)}); }
    SECTION("x - 2 and 2 - x") {
        check_op("sub", [](const std::vector<pg::Tensor>& in) { return (in[0] - 2.f) * (2.f - in[0]); },
                 {param({4}, -1, 1, 16)});
    }
}

TEST_CASE("gradcheck: mul", "[gradcheck][mul]") {
    auto mul = [](const std::vector<pg::Tensor>& in) { return in[0] * in[1]; };
    SECTION("same shape") { check_op("mul", mul, {param({2, 3}, -1, 1, 21), param({2, 3}, -1, 1, 22)}); }
    SECTION("(2,1,3) * (4,1)") { check_op("mul", mul, {param({2, 1, 3}, -1, 1, 23), param({4, 1}, -1, 1, 24)}); }
    SECTION("(3) * (2,3), only the first requires grad") {
        check_op("mul", mul, {param({3}, -1, 1, 25), pg::tensor({{1.f, -2.f, 3.f}, {0.5f, 0.25f, -1.f}})});
    }
    SECTION("x * x") {
        check_op("mul", [](const std::vector<pg::Tensor>& in) { return in[0] * in[0]; }, {param({5}, -1, 1, 26)});
    }
    SECTION("2 * x and x * 3") {
        check_op("mul", [](const std::vector<pg::Tensor>& in) { return 2.f * in[0] + in[0] * 3.f; },
                 {param({2, 2}, -1, 1, 27)});
    }
}

TEST_CASE("gradcheck: div", "[gradcheck][div]") {
    auto div = [](const std::vector<pg::Tensor>& in) { return in[0] / in[1]; };
    SECTION("same shape") { check_op("div", div, {param({2, 3}, -1, 1, 31), away_from_zero({2, 3}, 32)}); }
    SECTION("(2,3) / (2,1)") { check_op("div", div, {param({2, 3}, -1, 1, 33), away_from_zero({2, 1}, 34)}); }
    SECTION("(3) / (2,3)") { check_op("div", div, {param({3}, -1, 1, 35), away_from_zero({2, 3}, 36)}); }
    SECTION("2 / x and x / 4") {
        check_op("div", [](const std::vector<pg::Tensor>& in) { return 2.f / in[0] + in[0] / 4.f; },
                 {away_from_zero({6}, 37)});
    }
}

TEST_CASE("gradcheck: neg", "[gradcheck][neg]") {
    check_op("neg", [](const std::vector<pg::Tensor>& in) { return -in[0]; }, {param({2, 3}, -1, 1, 41)});
}

// ---- unary math ----

TEST_CASE("gradcheck: pow", "[gradcheck][pow]") {
    for (float p : {2.f, 3.f, 0.5f, -0.5f, 1.7f, -2.f}) {
        INFO("p = " << p);
        check_op("pow", [p](const std::vector<pg::Tensor>& in) { return pg::pow(in[0], p); },
                 {param({2, 3}, 0.5f, 2.f, 51)});
    }
    SECTION("integer powers of negative values") {
        check_op("pow", [](const std::vector<pg::Tensor>& in) { return pg::pow(in[0], 3.f); },
                 {param({4}, -1.5f, -0.5f, 52)});
    }
}

TEST_CASE("pow with p = 0 has gradient 0, also at x = 0") {
    pg::Tensor x = pg::tensor({0.f, 2.f, -1.f});
    x.requires_grad_();
    pg::sum(pg::pow(x, 0.f)).backward();
    CHECK(x.grad().to_vector() == std::vector<float>{0.f, 0.f, 0.f});
}

TEST_CASE("gradcheck: exp", "[gradcheck][exp]") {
    check_op("exp", [](const std::vector<pg::Tensor>& in) { return pg::exp(in[0]); }, {param({3, 4}, -2, 2, 61)});
}

TEST_CASE("gradcheck: log", "[gradcheck][log]") {
    check_op("log", [](const std::vector<pg::Tensor>& in) { return pg::log(in[0]); }, {param({3, 4}, 0.5f, 3, 62)});
}

TEST_CASE("gradcheck: sqrt", "[gradcheck][sqrt]") {
    check_op("sqrt", [](const std::vector<pg::Tensor>& in) { return pg::sqrt(in[0]); }, {param({3, 4}, 0.5f, 3, 63)});
}

TEST_CASE("gradcheck: tanh", "[gradcheck][tanh]") {
    check_op("tanh", [](const std::vector<pg::Tensor>& in) { return pg::tanh(in[0]); }, {param({3, 4}, -2, 2, 64)});
}

TEST_CASE("gradcheck: sigmoid", "[gradcheck][sigmoid]") {
    check_op("sigmoid", [](const std::vector<pg::Tensor>& in) { return pg::sigmoid(in[0]); },
             {param({3, 4}, -3, 3, 65)});
}

TEST_CASE("gradcheck: relu (no element within eps of the kink at 0)", "[gradcheck][relu]") {
    check_op("relu", [](const std::vector<pg::Tensor>& in) { return pg::relu(in[0]); }, {away_from_zero({3, 4}, 66)});
}

TEST_CASE("gradcheck: gelu", "[gradcheck][gelu]") {
    check_op("gelu", [](const std::vector<pg::Tensor>& in) { return pg::gelu(in[0]); }, {param({3, 5}, -3, 3, 67)});
}

// ---- reductions: over everything, over each dim, keepdim, negative dims ----

TEST_CASE("gradcheck: sum", "[gradcheck][sum]") {
    check_op("sum", [](const std::vector<pg::Tensor>& in) { return pg::sum(in[0]); }, {param({2, 3, 4}, -1, 1, 71)});
    check_op("sum", [](const std::vector<pg::Tensor>& in) { return pg::sum(in[0]); }, {pg::scalar(0.3f, true)});
    for (long d : {0L, 1L, 2L, -1L, -3L})
        for (bool keep : {false, true}) {
            INFO("dim " << d << " keepdim " << keep);
            check_op("sum", [d, keep](const std::vector<pg::Tensor>& in) { return pg::sum(in[0], d, keep); },
                     {param({2, 3, 4}, -1, 1, 72)});
        }
    check_op("sum", [](const std::vector<pg::Tensor>& in) { return in[0].sum(-1, true) * in[0]; },
             {param({3, 2}, -1, 1, 73)});
}

TEST_CASE("gradcheck: mean", "[gradcheck][mean]") {
    check_op("mean", [](const std::vector<pg::Tensor>& in) { return pg::mean(in[0]); }, {param({2, 3, 4}, -1, 1, 81)});
    for (long d : {0L, 1L, 2L, -1L, -2L})
        for (bool keep : {false, true}) {
            INFO("dim " << d << " keepdim " << keep);
            check_op("mean", [d, keep](const std::vector<pg::Tensor>& in) { return pg::mean(in[0], d, keep); },
                     {param({2, 3, 4}, -1, 1, 82)});
        }
    check_op("mean", [](const std::vector<pg::Tensor>& in) { return in[0] - in[0].mean(0, true); },
             {param({3, 2}, -1, 1, 83)});
}

TEST_CASE("gradcheck: max (distinct values, so no tie within eps)", "[gradcheck][max]") {
    check_op("max", [](const std::vector<pg::Tensor>& in) { return pg::max(in[0]); }, {distinct({2, 3, 4}, 91)});
    for (long d : {0L, 1L, 2L, -1L, -3L})
        for (bool keep : {false, true}) {
            INFO("dim " << d << " keepdim " << keep);
            check_op("max", [d, keep](const std::vector<pg::Tensor>& in) { return pg::max(in[0], d, keep); },
                     {distinct({2, 3, 4}, 92)});
        }
}

TEST_CASE("max sends the gradient to the first of tied maxima") {
    pg::Tensor x = pg::tensor({{1.f, 3.f, 3.f}, {2.f, 2.f, 0.f}});
    x.requires_grad_();
    pg::sum(pg::max(x, 1)).backward();
    CHECK(x.grad().to_vector() == std::vector<float>{0, 1, 0, 1, 0, 0});
}

// ---- shape ops ----

TEST_CASE("gradcheck: reshape", "[gradcheck][reshape]") {
    check_op("reshape", [](const std::vector<pg::Tensor>& in) { return pg::reshape(in[0], {3, 4}) * in[1]; },
             {param({2, 6}, -1, 1, 101), param({4}, -1, 1, 102)});
    check_op("reshape", [](const std::vector<pg::Tensor>& in) { return pg::reshape_infer(in[0], {-1, 2}); },
             {param({2, 3}, -1, 1, 103)});
    check_op("reshape", [](const std::vector<pg::Tensor>& in) { return in[0].reshape({6}); }, {param({3, 2}, -1, 1, 104)});
}

TEST_CASE("gradcheck: permute (and transpose, built on it)", "[gradcheck][permute]") {
    // multiplying by a fixed (4,2,3) tensor makes every position's gradient different
    pg::Tensor w = pg::reshape(pg::arange(24), {4, 2, 3});
    check_op("permute", [w](const std::vector<pg::Tensor>& in) { return pg::permute(in[0], {2, 0, 1}) * w; },
             {param({2, 3, 4}, -1, 1, 111)});
    check_op("permute", [w](const std::vector<pg::Tensor>& in) { return pg::permute(in[0], {-1, -3, -2}) * w; },
             {param({2, 3, 4}, -1, 1, 112)});
    check_op("permute", [](const std::vector<pg::Tensor>& in) { return pg::transpose(in[0], 0, 1); },
             {param({2, 3}, -1, 1, 113)});
    check_op("permute", [](const std::vector<pg::Tensor>& in) { return pg::transpose(in[0], -1, -3); },
             {param({2, 3, 4}, -1, 1, 114)});
}

TEST_CASE("gradcheck: slice (and chunk, built on it)", "[gradcheck][slice]") {
    for (long d : {0L, 1L, 2L, -1L}) {
        INFO("dim " << d);
        check_op("slice", [d](const std::vector<pg::Tensor>& in) { return pg::slice(in[0], d, 1, 2); },
                 {param({2, 3, 4}, -1, 1, 121)});
    }
    check_op("slice", [](const std::vector<pg::Tensor>& in) { return pg::slice(in[0], 1, -3, -1); },
             {param({2, 4}, -1, 1, 122)});
    check_op("slice",
             [](const std::vector<pg::Tensor>& in) {
                 std::vector<pg::Tensor> parts = pg::chunk(in[0], 3, -1);
                 return parts[0] * parts[2] - parts[1];
             },
             {param({2, 6}, -1, 1, 123)});
}

TEST_CASE("gradcheck: index_select with repeated ids", "[gradcheck][index_select]") {
    pg::Tensor ids = pg::tensor({2.f, 0.f, 2.f, 2.f});
    for (long d : {0L, 1L, -1L}) {
        INFO("dim " << d);
        check_op("index_select", [d, ids](const std::vector<pg::Tensor>& in) { return pg::index_select(in[0], d, ids); },
                 {param({3, 3, 3}, -1, 1, 131)});
    }
}

TEST_CASE("gradcheck: concat", "[gradcheck][concat]") {
    auto cat = [](long d) {
        return [d](const std::vector<pg::Tensor>& in) { return pg::concat(in, d); };
    };
    check_op("concat", cat(1), {param({2, 1, 3}, -1, 1, 141), param({2, 2, 3}, -1, 1, 142), param({2, 3, 3}, -1, 1, 143)});
    check_op("concat", cat(-1), {param({2, 2}, -1, 1, 144), param({2, 3}, -1, 1, 145)});
    check_op("concat", cat(0), {param({1, 3}, -1, 1, 146), pg::ones({2, 3}), param({1, 3}, -1, 1, 147)});
}

// ---- matrix products ----

TEST_CASE("gradcheck: matmul, 2-D, batched and broadcast over batch dims", "[gradcheck][matmul]") {
    auto mm = [](const std::vector<pg::Tensor>& in) { return pg::matmul(in[0], in[1]); };
    SECTION("(3,4) @ (4,2)") { check_op("matmul", mm, {param({3, 4}, -1, 1, 151), param({4, 2}, -1, 1, 152)}); }
    SECTION("(2,3,4) @ (2,4,5)") { check_op("matmul", mm, {param({2, 3, 4}, -1, 1, 153), param({2, 4, 5}, -1, 1, 154)}); }
    SECTION("(2,1,3,4) @ (3,4,2)") {
        check_op("matmul", mm, {param({2, 1, 3, 4}, -1, 1, 155), param({3, 4, 2}, -1, 1, 156)});
    }
    SECTION("(3,4) @ (2,4,5)") { check_op("matmul", mm, {param({3, 4}, -1, 1, 157), param({2, 4, 5}, -1, 1, 158)}); }
    SECTION("(2,3,4) @ (4,5), the right one constant") {
        check_op("matmul", mm, {param({2, 3, 4}, -1, 1, 159), pg::reshape(pg::arange(20), {4, 5}) / 10.f});
    }
}

TEST_CASE("gradcheck: linear with and without bias", "[gradcheck][linear]") {
    auto with_bias = [](const std::vector<pg::Tensor>& in) { return pg::linear(in[0], in[1], in[2]); };
    auto no_bias = [](const std::vector<pg::Tensor>& in) { return pg::linear(in[0], in[1], pg::Tensor()); };
    check_op("linear", with_bias, {param({3, 4}, -1, 1, 161), param({5, 4}, -1, 1, 162), param({5}, -1, 1, 163)});
    check_op("linear", with_bias, {param({2, 3, 4}, -1, 1, 164), param({2, 4}, -1, 1, 165), param({2}, -1, 1, 166)});
    check_op("linear", with_bias, {param({4}, -1, 1, 167), param({3, 4}, -1, 1, 168), param({3}, -1, 1, 169)});
    check_op("linear", no_bias, {param({3, 4}, -1, 1, 170), param({2, 4}, -1, 1, 171)});
}

// ---- neural-network ops ----

TEST_CASE("gradcheck: softmax on dim 0, 1 and -1", "[gradcheck][softmax]") {
    for (long d : {0L, 1L, -1L}) {
        INFO("dim " << d);
        check_op("softmax", [d](const std::vector<pg::Tensor>& in) { return pg::softmax(in[0], d); },
                 {param({2, 3, 4}, -2, 2, 181)});
    }
}

TEST_CASE("gradcheck: log_softmax on dim 0, 1 and -1", "[gradcheck][log_softmax]") {
    for (long d : {0L, 1L, -1L}) {
        INFO("dim " << d);
        check_op("log_softmax", [d](const std::vector<pg::Tensor>& in) { return pg::log_softmax(in[0], d); },
                 {param({2, 3, 4}, -2, 2, 182)});
    }
}

TEST_CASE("gradcheck: masked_fill with a broadcast causal mask", "[gradcheck][masked_fill]") {
    pg::Tensor causal = pg::tensor({{0.f, 1.f, 1.f}, {0.f, 0.f, 1.f}, {0.f, 0.f, 0.f}});  // 1 above the diagonal
    check_op("masked_fill", [causal](const std::vector<pg::Tensor>& in) { return pg::masked_fill(in[0], causal, -5.f); },
             {param({2, 3, 3}, -1, 1, 191)});
    pg::Tensor rows = pg::tensor({1.f, 0.f}, {2, 1});  // (2,1): fill all of row 0
    check_op("masked_fill", [rows](const std::vector<pg::Tensor>& in) { return pg::masked_fill(in[0], rows, 0.f); },
             {param({2, 3}, -1, 1, 192)});
}

TEST_CASE("gradcheck: cross_entropy, with ignored targets", "[gradcheck][cross_entropy]") {
    check_op("cross_entropy",
             [](const std::vector<pg::Tensor>& in) { return pg::cross_entropy(in[0], pg::tensor({1.f, 4.f, 0.f})); },
             {param({3, 5}, -2, 2, 201)});
    check_op("cross_entropy",
             [](const std::vector<pg::Tensor>& in) {
                 return pg::cross_entropy(in[0], pg::tensor({1.f, -100.f, 4.f, 0.f}));
             },
             {param({4, 5}, -2, 2, 202)});
    check_op("cross_entropy",
             [](const std::vector<pg::Tensor>& in) { return pg::cross_entropy(in[0], pg::tensor({2.f, 0.f, 2.f, 3.f}), 2); },
             {param({4, 5}, -2, 2, 203)});
}

TEST_CASE("cross_entropy gives ignored rows no gradient") {
    pg::Tensor logits = param({3, 4}, -1, 1, 204);
    pg::cross_entropy(logits, pg::tensor({1.f, -100.f, 3.f})).backward();
    std::vector<float> g = logits.grad().to_vector();
    for (size_t c = 4; c < 8; ++c) CHECK(g[c] == 0.f);
}

TEST_CASE("gradcheck: embedding with repeated ids", "[gradcheck][embedding]") {
    pg::Tensor ids = pg::tensor({{0.f, 2.f, 0.f}, {4.f, 2.f, 2.f}});  // (2,3): row 0 twice, row 2 three times
    check_op("embedding", [ids](const std::vector<pg::Tensor>& in) { return pg::embedding(in[0], ids); },
             {param({5, 3}, -1, 1, 211)});
    check_op("embedding", [](const std::vector<pg::Tensor>& in) { return pg::embedding(in[0], pg::tensor({1.f, 1.f})); },
             {param({3, 2}, -1, 1, 212)});
}

TEST_CASE("gradcheck: layer_norm (x, weight and bias)", "[gradcheck][layer_norm]") {
    auto ln = [](const std::vector<pg::Tensor>& in) { return pg::layer_norm(in[0], in[1], in[2]); };
    check_op("layer_norm", ln, {param({2, 3, 6}, -1, 1, 221), param({6}, 0.5f, 1.5f, 222), param({6}, -1, 1, 223)});
    check_op("layer_norm", ln, {param({5}, -2, 2, 224), param({5}, 0.5f, 1.5f, 225), param({5}, -1, 1, 226)});
}

TEST_CASE("gradcheck: dropout with a re-seeded generator (same mask every evaluation)", "[gradcheck][dropout]") {
    // dropout draws its mask from the generator, so each evaluation starts from the same seed
    auto drop = [](const std::vector<pg::Tensor>& in) {
        pg::Generator gen(5);
        return pg::dropout(in[0], 0.4f, true, gen);
    };
    pg::Tensor x = param({4, 5}, 0.5f, 1.5f, 231);  // no zeros, so a dropped element is exactly 0
    std::vector<float> y = drop({x}).to_vector();
    long dropped = std::count(y.begin(), y.end(), 0.f);
    CHECK(dropped > 0);
    CHECK(dropped < 20);
    check_op("dropout", drop, {x});
}

TEST_CASE("dropout in eval mode or with p = 0 is the identity and records nothing") {
    pg::Generator gen(1);
    pg::Tensor x = param({3}, -1, 1, 232);
    CHECK(pg::dropout(x, 0.5f, false, gen).same_as(x));
    CHECK(pg::dropout(x, 0.f, true, gen).same_as(x));
}

// ---- compositions ----

TEST_CASE("gradcheck: causal attention (B,NH,T,HS) with a -inf mask", "[gradcheck][composition]") {
    pg::Tensor causal = pg::tensor({{0.f, 1.f, 1.f}, {0.f, 0.f, 1.f}, {0.f, 0.f, 0.f}});
    auto attention = [causal](const std::vector<pg::Tensor>& in) {
        // q, k, v (B,NH,T,HS) = (1,2,3,2); att (B,NH,T,T) = softmax(q k^T / sqrt(HS) masked)
        pg::Tensor att = pg::matmul(in[0], pg::transpose(in[1], -2, -1)) * (1.f / std::sqrt(2.f));
        att = pg::softmax(pg::masked_fill(att, causal, -INFINITY), -1);
        return pg::matmul(att, in[2]);
    };
    check_op("softmax", attention,
             {param({1, 2, 3, 2}, -1, 1, 241), param({1, 2, 3, 2}, -1, 1, 242), param({1, 2, 3, 2}, -1, 1, 243)});
}

TEST_CASE("gradcheck: layer_norm -> linear -> gelu -> linear, plus the residual", "[gradcheck][composition]") {
    auto block = [](const std::vector<pg::Tensor>& in) {
        pg::Tensor h = pg::layer_norm(in[0], in[1], in[2]);
        h = pg::linear(pg::gelu(pg::linear(h, in[3], in[4])), in[5], pg::Tensor());
        return in[0] + h;
    };
    check_op("gelu", block,
             {param({2, 4}, -1, 1, 251), param({4}, 0.5f, 1.5f, 252), param({4}, -1, 1, 253), param({6, 4}, -1, 1, 254),
              param({6}, -1, 1, 255), param({4, 6}, -1, 1, 256)});
}

// ---- the check itself ----

// y = 2x, whose backward is off by `factor` (1 is right).
static pg::Tensor planted_double(const pg::Tensor& x, float factor) {
    pg::Array y = (x.detach() * 2.f).data();
    return pg::make_result(std::move(y), "planted", {x}, [factor](const pg::BackwardContext& ctx) {
        pg::Array g = ctx.gy;
        for (float& v : g) v *= 2.f * factor;
        return std::vector<pg::Array>{g};
    });
}

TEST_CASE("gradcheck catches a planted wrong backward") {
    pg::Tensor x = param({2, 3}, -1, 1, 261);
    for (float factor : {1.1f, 0.9f, -1.f, 0.f}) {
        INFO("backward off by a factor of " << factor);
        pg::GradcheckResult res =
            pg::gradcheck([factor](const std::vector<pg::Tensor>& in) { return planted_double(in[0], factor); }, {x});
        CHECK_FALSE(res.ok);
        CHECK(res.max_abs_error > 0.01);
        CHECK(res.report.find("input 0 element") != std::string::npos);
    }
    pg::GradcheckResult right =
        pg::gradcheck([](const std::vector<pg::Tensor>& in) { return planted_double(in[0], 1.f); }, {x});
    CHECK(right.ok);
    CHECK(right.max_abs_error < 1e-3);
}

TEST_CASE("gradcheck catches a gradient sent to the wrong element") {
    // y = x[0] * 2 for a (2) tensor, but the backward credits element 1
    auto wrong = [](const std::vector<pg::Tensor>& in) {
        pg::Array y(pg::Shape{1});
        y(0) = in[0].data()(0) * 2.f;
        return pg::make_result(std::move(y), "planted", {in[0]}, [](const pg::BackwardContext& ctx) {
            pg::Array g(pg::Shape{2});
            g(1) = 2.f * ctx.gy(0);
            return std::vector<pg::Array>{g};
        });
    };
    CHECK_FALSE(pg::gradcheck(wrong, {param({2}, -1, 1, 262)}).ok);
}

TEST_CASE("every registered op has a gradient check", "[gradcheck][coverage]") {
    std::set<std::string> checked;
    for (const std::set<std::string>& tags : pg_test::all_test_tags())
        if (tags.count("gradcheck")) checked.insert(tags.begin(), tags.end());
    for (const std::string& op : pg::op_names()) {
        INFO("op '" << op << "' has no TEST_CASE tagged [gradcheck][" << op << "]");
        CHECK(checked.count(op) == 1);
    }
}
