// The Tensor handle: construction, shape queries, shared storage, copies, method forms.
// Leaves out: gradients (test_autograd.cpp) and error messages (test_shape_errors.cpp).
#include "catch.hpp"
#include <pg/pg.hpp>
#include <cmath>

TEST_CASE("nested initializer lists give the shape", "[tensor]") {
    pg::Tensor v = pg::tensor({1.f, 2.f, 3.f});
    CHECK(v.shape() == pg::Shape{3});
    pg::Tensor m = pg::tensor({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
    CHECK(m.shape() == pg::Shape{2, 3});
    CHECK(m.dim() == 2);
    CHECK(m.numel() == 6);
    CHECK(m.size(0) == 2);
    CHECK(m.size(-1) == 3);
    CHECK(m.to_vector() == std::vector<float>{1, 2, 3, 4, 5, 6});
    pg::Tensor c = pg::tensor({{{1.f, 2.f}, {3.f, 4.f}}, {{5.f, 6.f}, {7.f, 8.f}}, {{9.f, 10.f}, {11.f, 12.f}}});
    CHECK(c.shape() == pg::Shape{3, 2, 2});
    CHECK(c.data()(2, 1, 0) == 11.f);
    CHECK_FALSE(m.requires_grad());
}

TEST_CASE("flat values and a shape, row-major", "[tensor]") {
    pg::Tensor t = pg::tensor({1, 2, 3, 4, 5, 6}, {3, 2}, true);
    CHECK(t.shape() == pg::Shape{3, 2});
    CHECK(t.data()(1, 0) == 3.f);
    CHECK(t.requires_grad());
    CHECK(t.is_leaf());
    pg::Tensor column = pg::tensor({1.f, 2.f}, {2, 1});
    CHECK(column.shape() == pg::Shape{2, 1});
}

TEST_CASE("a nested list of one-element rows is a column, not a vector", "[tensor]") {
    CHECK(pg::tensor({{1.f}, {2.f}, {3.f}}).shape() == pg::Shape{3, 1});
    CHECK(pg::tensor({{7.f}}).shape() == pg::Shape{1, 1});
    CHECK(pg::tensor({7.f}).shape() == pg::Shape{1});
    CHECK(pg::tensor({1, 2, 3}).to_vector() == std::vector<float>{1, 2, 3});
}

TEST_CASE("scalars, factories and item", "[tensor]") {
    pg::Tensor s = pg::scalar(2.5f);
    CHECK(s.shape().empty());
    CHECK(s.dim() == 0);
    CHECK(s.numel() == 1);
    CHECK(s.item() == 2.5f);
    CHECK(pg::tensor({7.f}, {1, 1}).item() == 7.f);
    CHECK(pg::zeros({2, 2}).to_vector() == std::vector<float>(4, 0.f));
    CHECK(pg::ones({3}).to_vector() == std::vector<float>(3, 1.f));
    CHECK(pg::full({2}, -1.5f).to_vector() == std::vector<float>{-1.5f, -1.5f});
    CHECK(pg::zeros_like(pg::ones({2, 5})).shape() == pg::Shape{2, 5});
    CHECK(pg::arange(4).to_vector() == std::vector<float>{0, 1, 2, 3});
    CHECK(pg::eye(2).to_vector() == std::vector<float>{1, 0, 0, 1});
    CHECK(pg::ones({2}, true).requires_grad());
    pg::Tensor empty;
    CHECK(empty.numel() == 0);
    CHECK(empty.shape() == pg::Shape{0});
}

TEST_CASE("copies of a Tensor share one storage, detach and ops make new ones", "[tensor]") {
    pg::Tensor a = pg::tensor({1.f, 2.f});
    pg::Tensor b = a;
    CHECK(b.same_as(a));
    b.mutable_data()(0) = 10.f;
    CHECK(a.to_vector() == std::vector<float>{10.f, 2.f});
    pg::Tensor d = a.detach();
    CHECK_FALSE(d.same_as(a));
    d.mutable_data()(1) = -1.f;
    CHECK(a.to_vector() == std::vector<float>{10.f, 2.f});
    pg::Tensor r = pg::reshape(a, {2, 1});
    r.mutable_data()(0, 0) = 0.f;
    CHECK(a.to_vector()[0] == 10.f);  // results are fresh copies, never views
    a.copy_(pg::tensor({3.f, 4.f}));
    CHECK(b.to_vector() == std::vector<float>{3.f, 4.f});
}

TEST_CASE("method forms match the free functions", "[tensor]") {
    pg::Tensor x = pg::tensor({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
    CHECK(x.sum().item() == 21.f);
    CHECK(x.sum(0).to_vector() == std::vector<float>{5, 7, 9});
    CHECK(x.sum(-1, true).shape() == pg::Shape{2, 1});
    CHECK(x.mean().item() == 3.5f);
    CHECK(x.mean(1).to_vector() == std::vector<float>{2, 5});
    CHECK(x.reshape({3, 2}).shape() == pg::Shape{3, 2});
    CHECK(x.transpose(0, 1).to_vector() == std::vector<float>{1, 4, 2, 5, 3, 6});
    CHECK(x.matmul(x.transpose(0, 1)).to_vector() == std::vector<float>{14, 32, 32, 77});
}

TEST_CASE("forward values of the ops on small hand-checked inputs", "[tensor]") {
    pg::Tensor a = pg::tensor({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
    pg::Tensor b = pg::tensor({10.f, 20.f, 30.f});
    CHECK((a + b).to_vector() == std::vector<float>{11, 22, 33, 14, 25, 36});
    CHECK((a - b).to_vector() == std::vector<float>{-9, -18, -27, -6, -15, -24});
    CHECK((b / 10.f).to_vector() == std::vector<float>{1, 2, 3});
    CHECK((1.f - b).to_vector() == std::vector<float>{-9, -19, -29});
    CHECK((-a).to_vector()[5] == -6.f);
    CHECK(pg::max(a).item() == 6.f);
    CHECK(pg::max(a, 0).to_vector() == std::vector<float>{4, 5, 6});
    CHECK(pg::permute(pg::reshape(pg::arange(6), {1, 2, 3}), {2, 0, 1}).to_vector() ==
          std::vector<float>{0, 3, 1, 4, 2, 5});
    CHECK(pg::slice(a, 1, 1, 3).to_vector() == std::vector<float>{2, 3, 5, 6});
    CHECK(pg::index_select(a, 1, pg::tensor({2.f, 0.f, 2.f})).to_vector() == std::vector<float>{3, 1, 3, 6, 4, 6});
    CHECK(pg::concat({a, b.reshape({1, 3})}, 0).to_vector() == std::vector<float>{1, 2, 3, 4, 5, 6, 10, 20, 30});
    std::vector<pg::Tensor> parts = pg::chunk(a, 3, 1);
    REQUIRE(parts.size() == 3);
    CHECK(parts[2].to_vector() == std::vector<float>{3, 6});
    CHECK(pg::relu(pg::tensor({-1.f, 0.f, 2.f})).to_vector() == std::vector<float>{0, 0, 2});
    CHECK(pg::masked_fill(a, pg::tensor({0.f, 1.f, 0.f}), -1.f).to_vector() == std::vector<float>{1, -1, 3, 4, -1, 6});
    CHECK(pg::embedding(a, pg::tensor({1.f, 1.f, 0.f})).to_vector() ==
          std::vector<float>{4, 5, 6, 4, 5, 6, 1, 2, 3});
    CHECK(pg::linear(a, pg::tensor({{1.f, 0.f, -1.f}}), pg::tensor({0.5f})).to_vector() ==
          std::vector<float>{-1.5f, -1.5f});
    // empty inner dims: sums over nothing are 0
    CHECK(pg::linear(pg::zeros({2, 0}), pg::zeros({3, 0}), pg::ones({3})).to_vector() == std::vector<float>(6, 1.f));
    CHECK(pg::matmul(pg::zeros({2, 0}), pg::zeros({0, 2})).to_vector() == std::vector<float>(4, 0.f));
    pg::Tensor sm = pg::softmax(pg::tensor({0.f, std::log(3.f)}), 0);
    CHECK(sm.to_vector()[0] == Approx(0.25f));
    CHECK(pg::cross_entropy(pg::tensor({{0.f, 0.f}}), pg::tensor({1.f})).item() == Approx(std::log(2.f)));
}

TEST_CASE("softmax is stable for large logits and a fully masked row is NaN", "[tensor]") {
    std::vector<float> big = pg::softmax(pg::tensor({1000.f, 1000.f, -1000.f}), 0).to_vector();
    CHECK(big[0] == Approx(0.5f));
    CHECK(big[2] == 0.f);
    std::vector<float> lsm = pg::log_softmax(pg::tensor({1000.f, 0.f}), 0).to_vector();
    CHECK(lsm[0] == Approx(0.f).margin(1e-6));
    CHECK(lsm[1] == Approx(-1000.f));
    std::vector<float> masked = pg::softmax(pg::full({3}, -INFINITY), 0).to_vector();
    for (float v : masked) CHECK(std::isnan(v));
}

TEST_CASE("shape() is a reference to one stored shape, safe to take begin() and end() of", "[tensor]") {
    pg::Tensor t = pg::zeros({2, 3, 4});
    std::vector<float> s(t.shape().begin(), t.shape().end());   // two calls, one vector
    REQUIRE(s == std::vector<float>{2.f, 3.f, 4.f});
    REQUIRE(&t.shape() == &t.shape());
    pg::Tensor r = pg::reshape(t, {6, 4});
    REQUIRE(r.shape() == pg::Shape{6, 4});
    REQUIRE(t.shape() == pg::Shape{2, 3, 4});
}
