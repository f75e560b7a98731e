// Bad calls: every op checks its arguments when called and throws pg::ShapeError (bad shapes,
// bad dims), std::out_of_range (ids and targets) or std::invalid_argument (bad values), with a
// message naming the op and the shapes or values. Each TEST_CASE is tagged [shape_error][<op>];
// the coverage test fails when an op in pg::op_names() has none. Leaves out: correct calls.
#include "catch.hpp"
#include <algorithm>
#include <cmath>
#include <set>
#include <pg/pg.hpp>

namespace {


// The message of the exception of type E that `call` throws; fails the test if none is thrown.
template <class E, class F>
std::string message_of(F call) {
    try {
        call();
    } catch (const E& e) {
        return e.what();
    }
    FAIL("no exception was thrown");
    return "";
}

template <class F>
std::string shape_error(F call) { return message_of<pg::ShapeError>(call); }

pg::Tensor t(const pg::Shape& s) { return pg::ones(s); }

}  // namespace

TEST_CASE("matmul: the guide's example message, exactly", "[shape_error][matmul]") {
    std::string msg = shape_error([] { pg::matmul(t({3, 2}), t({3, 2})); });
    CHECK(msg == "matmul: (3,2) @ (3,2): inner dimensions 2 and 3 differ");
    CHECK_THAT(shape_error([] { pg::matmul(t({4}), t({4, 2})); }),
               Contains("matmul: (4) @ (4,2)") && Contains("at least 2 dims"));
    CHECK_THAT(shape_error([] { pg::matmul(t({2, 3, 4}), t({3, 4, 5})); }),
               Contains("matmul: (2,3,4) @ (3,4,5)") && Contains("batch dims") && Contains("do not broadcast"));
    // ShapeError is an std::invalid_argument, so generic handlers catch it too
    CHECK_THROWS_AS(pg::matmul(t({3, 2}), t({3, 2})), std::invalid_argument);
}

TEST_CASE("add, sub, mul, div: shapes that do not broadcast", "[shape_error][add][sub][mul][div]") {
    CHECK_THAT(shape_error([] { pg::add(t({2, 3}), t({4})); }),
               Contains("add: (2,3) and (4) do not broadcast") && Contains("size 3 against 4"));
    CHECK_THAT(shape_error([] { t({2, 3}) - t({3, 2}); }), Contains("sub: (2,3) and (3,2)"));
    CHECK_THAT(shape_error([] { t({2, 1, 3}) * t({4, 2}); }), Contains("mul: (2,1,3) and (4,2)"));
    CHECK_THAT(shape_error([] { t({5}) / t({2, 3}); }), Contains("div: (5) and (2,3)"));
}

TEST_CASE("elementwise math accepts every shape: no bad call exists",
          "[shape_error][neg][pow][exp][log][sqrt][tanh][sigmoid][relu][gelu]") {
    for (const pg::Shape& s : {pg::Shape{}, pg::Shape{0}, pg::Shape{2, 0, 3}, pg::Shape{1, 2, 3, 4}}) {
        INFO("shape " << pg::shape_str(s));
        pg::Tensor x = pg::full(s, 0.5f, true);
        for (const pg::Tensor& y : {-x, pg::pow(x, 2.f), pg::exp(x), pg::log(x), pg::sqrt(x), pg::tanh(x),
                                    pg::sigmoid(x), pg::relu(x), pg::gelu(x)}) {
            CHECK(y.shape() == s);
            y.backward(pg::ones(s));
        }
    }
    // out-of-domain values give IEEE results, as in PyTorch, never an error or a crash
    CHECK(std::isnan(pg::log(pg::tensor({-1.f})).item()));
    CHECK(std::isinf(pg::log(pg::tensor({0.f})).item()));
    CHECK(std::isnan(pg::sqrt(pg::tensor({-1.f})).item()));
}

TEST_CASE("sum, mean, max: bad dims and empty reductions", "[shape_error][sum][mean][max]") {
    CHECK(shape_error([] { pg::sum(t({2, 3}), 2); }) ==
          "sum: dim 2 is out of range for a tensor of rank 2 (valid: -2 to 1)");
    CHECK_THAT(shape_error([] { pg::sum(t({2, 3}), -3, true); }), Contains("sum: dim -3"));
    CHECK_THAT(shape_error([] { pg::sum(pg::scalar(1.f), 0); }), Contains("sum: dim 0") && Contains("rank 0"));
    CHECK_THAT(shape_error([] { pg::mean(t({2, 3}), 5); }), Contains("mean: dim 5") && Contains("rank 2"));
    CHECK_THAT(shape_error([] { pg::mean(t({0})); }), Contains("mean: tensor of shape (0) has no elements"));
    CHECK_THAT(shape_error([] { pg::max(t({2, 3}), -4); }), Contains("max: dim -4"));
    CHECK_THAT(shape_error([] { pg::max(t({2, 0}), 1); }), Contains("max: dim 1 of (2,0) is empty"));
    CHECK_THAT(shape_error([] { pg::max(t({0, 3})); }), Contains("max") && Contains("empty"));
}

TEST_CASE("reshape: sizes that do not match", "[shape_error][reshape]") {
    CHECK(shape_error([] { pg::reshape(t({2, 3}), {4, 2}); }) ==
          "reshape: cannot view (2,3) (6 elements) as (4,2) (8 elements)");
    CHECK_THAT(shape_error([] { t({2, 3}).reshape({7}); }), Contains("(2,3)") && Contains("(7)"));
    CHECK_THAT(shape_error([] { pg::reshape_infer(t({2, 3}), {-1, -1}); }), Contains("reshape: more than one -1"));
    CHECK_THAT(shape_error([] { pg::reshape_infer(t({2, 3}), {-2, 3}); }), Contains("reshape: negative size -2"));
    CHECK_THAT(shape_error([] { pg::reshape_infer(t({5}), {-1, 2}); }), Contains("reshape: cannot infer -1") &&
                                                                            Contains("(5)"));
}

TEST_CASE("permute and transpose: bad dims", "[shape_error][permute]") {
    CHECK_THAT(shape_error([] { pg::permute(t({2, 3, 4}), {0, 1}); }),
               Contains("permute: 2 dims given for a tensor of shape (2,3,4)"));
    CHECK_THAT(shape_error([] { pg::permute(t({2, 3}), {1, -1}); }), Contains("permute: dim -1 appears twice"));
    CHECK_THAT(shape_error([] { pg::permute(t({2, 3}), {0, 2}); }), Contains("permute: dim 2 is out of range"));
    CHECK_THAT(shape_error([] { pg::transpose(t({2, 3}), 0, 2); }), Contains("transpose: dim 2 is out of range"));
    CHECK_THAT(shape_error([] { t({2, 3}).transpose(-3, 0); }), Contains("transpose: dim -3"));
}

TEST_CASE("slice and chunk: ranges outside the dim", "[shape_error][slice]") {
    CHECK(shape_error([] { pg::slice(t({2, 3}), 1, 2, 5); }) == "slice: [2, 5) is not inside dim 1 of (2,3)");
    CHECK_THAT(shape_error([] { pg::slice(t({2, 3}), 0, 2, 1); }), Contains("slice: [2, 1)") && Contains("(2,3)"));
    CHECK_THAT(shape_error([] { pg::slice(t({2, 3}), 0, -5, 1); }), Contains("slice:") && Contains("(2,3)"));
    CHECK_THAT(shape_error([] { pg::slice(t({2, 3}), 2, 0, 1); }), Contains("slice: dim 2 is out of range"));
    CHECK(shape_error([] { pg::chunk(t({2, 5}), 2, 1); }) ==
          "chunk: dim 1 of (2,5) (size 5) does not split into 2 equal parts");
    CHECK_THAT(shape_error([] { pg::chunk(t({2, 4}), 0, -1); }), Contains("chunk:") && Contains("0 equal parts"));
    CHECK_THAT(shape_error([] { pg::chunk(t({2, 4}), 2, 3); }), Contains("chunk: dim 3"));
}

TEST_CASE("index_select: ids of the wrong rank, out of range or not whole", "[shape_error][index_select]") {
    CHECK(shape_error([] { pg::index_select(t({3, 4}), 0, pg::zeros({2, 2})); }) ==
          "index_select: ids must be 1-D, got (2,2)");
    CHECK_THAT(shape_error([] { pg::index_select(t({3, 4}), 2, pg::tensor({0.f})); }),
               Contains("index_select: dim 2 is out of range"));
    auto out_of_range = [](float id) {
        return message_of<std::out_of_range>([id] { pg::index_select(t({3, 4}), 0, pg::tensor({0.f, id})); });
    };
    CHECK(out_of_range(3.f) == "index_select: id 3 at position 1 is not a whole number in [0, 3)");
    CHECK_THAT(out_of_range(1.5f), Contains("id 1.5 at position 1"));
    CHECK_THAT(out_of_range(-1.f), Contains("id -1 at position 1"));
    CHECK_THAT(out_of_range(NAN), Contains("id nan at position 1"));
}

TEST_CASE("concat: nothing to join, or shapes that differ outside the dim", "[shape_error][concat]") {
    CHECK(shape_error([] { pg::concat({}, 0); }) == "concat: no tensors given");
    CHECK(shape_error([] { pg::concat({t({2, 3}), t({2, 4})}, 0); }) == "concat: (2,3) and (2,4) differ outside dim 0");
    CHECK_THAT(shape_error([] { pg::concat({t({2, 3}), t({2, 3, 1})}, 1); }), Contains("concat: (2,3) and (2,3,1)"));
    CHECK_THAT(shape_error([] { pg::concat({t({2, 3}), t({3})}, -1); }), Contains("concat: (2,3) and (3)"));
    CHECK_THAT(shape_error([] { pg::concat({t({2, 3})}, 2); }), Contains("concat: dim 2 is out of range"));
}

TEST_CASE("linear: weight and bias that do not fit x", "[shape_error][linear]") {
    CHECK(shape_error([] { pg::linear(t({3, 4}), t({5, 3}), pg::Tensor()); }) ==
          "linear: x (3,4) and weight (5,3): weight must be (out, in) with in equal to x's last dim");
    CHECK_THAT(shape_error([] { pg::linear(t({3, 4}), t({4}), pg::Tensor()); }), Contains("linear: x (3,4) and weight (4)"));
    CHECK_THAT(shape_error([] { pg::linear(pg::scalar(1.f), t({2, 1}), pg::Tensor()); }), Contains("linear: x ()"));
    CHECK(shape_error([] { pg::linear(t({3, 4}), t({5, 4}), t({4})); }) ==
          "linear: bias (4) does not match weight (5,4) (expected (5))");
}

TEST_CASE("softmax and log_softmax: bad dims", "[shape_error][softmax][log_softmax]") {
    CHECK_THAT(shape_error([] { pg::softmax(t({2, 3}), 2); }), Contains("softmax: dim 2 is out of range") &&
                                                                  Contains("rank 2"));
    CHECK_THAT(shape_error([] { pg::log_softmax(t({2, 3}), -3); }), Contains("log_softmax: dim -3 is out of range"));
    CHECK_THAT(shape_error([] { pg::softmax(pg::scalar(1.f), 0); }), Contains("softmax: dim 0") && Contains("rank 0"));
}

TEST_CASE("masked_fill: a mask that does not broadcast to x", "[shape_error][masked_fill]") {
    CHECK(shape_error([] { pg::masked_fill(t({3, 3}), t({2, 3, 3}), 0.f); }) ==
          "masked_fill: mask (2,3,3) does not broadcast to x (3,3)");
    CHECK_THAT(shape_error([] { pg::masked_fill(t({3, 3}), t({4}), 0.f); }), Contains("masked_fill: (3,3) and (4)"));
}

TEST_CASE("cross_entropy: shapes, targets out of range, nothing left to average", "[shape_error][cross_entropy]") {
    CHECK(shape_error([] { pg::cross_entropy(t({2, 3, 4}), pg::zeros({2})); }) ==
          "cross_entropy: logits (2,3,4) and targets (2): expected logits (N,C) and targets (N)");
    CHECK_THAT(shape_error([] { pg::cross_entropy(t({2, 5}), pg::zeros({3})); }),
               Contains("logits (2,5) and targets (3)"));
    CHECK_THAT(shape_error([] { pg::cross_entropy(t({2, 5}), pg::zeros({2, 1})); }), Contains("targets (2,1)"));
    auto target_error = [](float target) {
        return message_of<std::out_of_range>([target] { pg::cross_entropy(t({2, 5}), pg::tensor({1.f, target})); });
    };
    CHECK(target_error(5.f) == "cross_entropy: target 5 at position 1 is not a whole number in [0, 5)");
    CHECK_THAT(target_error(-1.f), Contains("target -1 at position 1"));
    CHECK_THAT(target_error(2.5f), Contains("target 2.5"));
    CHECK(message_of<std::invalid_argument>([] { pg::cross_entropy(t({2, 5}), pg::tensor({-100.f, -100.f})); }) ==
          "cross_entropy: all 2 targets equal ignore_index -100; the mean over no targets is undefined");
    CHECK_THAT(message_of<std::invalid_argument>([] { pg::cross_entropy(t({1, 5}), pg::tensor({3.f}), 3); }),
               Contains("ignore_index 3"));
}

TEST_CASE("embedding: weight not (V,C), ids out of range or not whole", "[shape_error][embedding]") {
    CHECK(shape_error([] { pg::embedding(t({5}), pg::zeros({2})); }) == "embedding: weight (5) must be (V,C)");
    auto id_error = [](float id) {
        return message_of<std::out_of_range>([id] { pg::embedding(t({5, 2}), pg::tensor({{0.f, 1.f}, {id, 2.f}})); });
    };
    CHECK(id_error(5.f) == "embedding: id 5 at position 2 is not a whole number in [0, 5)");
    CHECK_THAT(id_error(-3.f), Contains("id -3"));
    CHECK_THAT(id_error(0.5f), Contains("id 0.5"));
    CHECK_THAT(id_error(INFINITY), Contains("id inf"));
}

TEST_CASE("layer_norm: weight and bias not (C), or nothing to normalise", "[shape_error][layer_norm]") {
    CHECK(shape_error([] { pg::layer_norm(t({2, 3}), t({4}), t({3})); }) ==
          "layer_norm: x (2,3), weight (4), bias (3): weight and bias must be (C) with C = x's last dim");
    CHECK_THAT(shape_error([] { pg::layer_norm(t({2, 3}), t({3}), t({1, 3})); }), Contains("bias (1,3)"));
    CHECK_THAT(shape_error([] { pg::layer_norm(pg::scalar(1.f), t({1}), t({1})); }), Contains("layer_norm: x ()"));
    CHECK(shape_error([] { pg::layer_norm(t({2, 0}), t({0}), t({0})); }) ==
          "layer_norm: x (2,0) has an empty last dim: nothing to normalise");
}

TEST_CASE("dropout: p outside 0 <= p < 1", "[shape_error][dropout]") {
    pg::Generator gen(1);
    auto p_error = [&gen](float p) {
        return message_of<std::invalid_argument>([&gen, p] { pg::dropout(t({3}), p, true, gen); });
    };
    CHECK(p_error(1.f) == "dropout: p = 1 is not in [0, 1)");
    CHECK(p_error(-0.1f) == "dropout: p = -0.1 is not in [0, 1)");
    CHECK_THAT(p_error(NAN), Contains("p = nan"));
    // checked in eval mode too, so a bad p is caught before training starts
    CHECK_THROWS_AS(pg::dropout(t({3}), 2.f, false, gen), std::invalid_argument);
}

TEST_CASE("Tensor: item, backward, construction and copy_ with bad shapes", "[shape_error][tensor]") {
    CHECK(shape_error([] { t({2, 3}).item(); }) == "item: tensor of shape (2,3) has 6 elements, not 1");
    CHECK_THAT(shape_error([] { pg::Tensor().item(); }), Contains("item: tensor of shape (0) has 0 elements"));
    CHECK_THAT(shape_error([] { pg::ones({2}, true).backward(); }),
               Contains("backward: called on a tensor of shape (2)") && Contains("grad_output"));
    CHECK(shape_error([] { pg::ones({2}, true).backward(pg::ones({3})); }) ==
          "backward: grad_output (3) does not match the tensor's (2)");
    CHECK(shape_error([] { pg::tensor({1.f, 2.f, 3.f}, {2, 2}); }) ==
          "tensor: 3 values do not fill shape (2,2) (4 elements)");
    CHECK(shape_error([] { pg::tensor({{1.f, 2.f}, {3.f, 4.f, 5.f}}); }) ==
          "tensor: ragged nested list: rows of 2 and 3 values");
    CHECK_THAT(shape_error([] { pg::tensor({{{1.f, 2.f}}, {{3.f}, {4.f}}}); }),
               Contains("tensor: ragged nested list: blocks of (1,2) and (2,1)"));
    CHECK_THAT(shape_error([] { pg::tensor({{{1.f, 2.f}, {3.f, 4.f}}, {{5.f, 6.f, 7.f}, {8.f, 9.f, 0.f}}}); }),
               Contains("blocks of (2,2) and (2,3)"));
    CHECK(shape_error([] { t({2}).copy_(t({3})); }) == "copy_: source (3) does not match destination (2)");
    CHECK(shape_error([] { t({2, 3}).size(2); }) == "size: dim 2 is out of range for a tensor of rank 2 (valid: -2 to 1)");
    CHECK_THAT(message_of<std::logic_error>([] { (pg::ones({1}, true) * 2.f).requires_grad_(false); }),
               Contains("requires_grad_: only a leaf"));
    CHECK_THAT(message_of<std::logic_error>([] { pg::ones({1}, true).grad(); }), Contains("grad: this tensor has no gradient"));
    CHECK_THAT(message_of<std::logic_error>([] { pg::sum(pg::ones({2})).backward(); }),
               Contains("backward: this tensor does not require grad"));
}

TEST_CASE("every registered op has a shape-error test", "[shape_error][coverage]") {
    std::set<std::string> tested;
    for (const std::set<std::string>& tags : pg_test::all_test_tags())
        if (tags.count("shape_error")) tested.insert(tags.begin(), tags.end());
    for (const std::string& op : pg::op_names()) {
        INFO("op '" << op << "' has no TEST_CASE tagged [shape_error][" << op << "]");
        CHECK(tested.count(op) == 1);
    }
}
