// Seed 000's 2x2 self-attention example, computed with the library's ops.
#include "catch.hpp"
#include <cmath>
#include <pg/pg.hpp>

TEST_CASE("seed 000: 2x2 self-attention gives [[1.3395,1.3210],[0.6605,2.6790]]") {
    pg::Tensor q = pg::tensor({{1.f, 0.f}, {0.f, 1.f}});
    pg::Tensor k = pg::tensor({{1.f, 0.f}, {0.f, 1.f}});
    pg::Tensor v = pg::tensor({{2.f, 0.f}, {0.f, 4.f}});
    pg::Tensor scores = pg::matmul(q, pg::transpose(k, 0, 1)) / std::sqrt(2.f);
    pg::Tensor w = pg::softmax(scores, -1);
    pg::Tensor out = pg::matmul(w, v);
    std::vector<float> got = out.to_vector();
    std::vector<float> want{1.3395f, 1.3210f, 0.6605f, 2.6790f};
    for (size_t i = 0; i < 4; ++i) CHECK(got[i] == Approx(want[i]).margin(5e-5));
    CHECK(w.to_vector()[0] == Approx(0.6698).margin(5e-5));
    CHECK(w.to_vector()[1] == Approx(0.3302).margin(5e-5));
}
