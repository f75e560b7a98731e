// A program outside the poetgrad tree: seed 000's 2x2 self-attention, forward and backward,
// through the installed headers and library. Exits 1 if a value is off.
#include <cmath>
#include <cstdio>
#include <pg/pg.hpp>

int main() {
    pg::Tensor q = pg::tensor({{1.f, 0.f}, {0.f, 1.f}});
    pg::Tensor k = pg::tensor({{1.f, 0.f}, {0.f, 1.f}});
    pg::Tensor v = pg::tensor({2.f, 0.f, 0.f, 4.f}, {2, 2}, /*requires_grad=*/true);
    pg::Tensor weights = pg::softmax(pg::matmul(q, pg::transpose(k, 0, 1)) / std::sqrt(2.f), -1);
    pg::Tensor out = pg::matmul(weights, v);  // (2,2)
    pg::sum(out).backward();                  // d sum(out) / dv = column sums of the weights: all 1

    const float want[4] = {1.3395f, 1.3210f, 0.6605f, 2.6790f};
    std::vector<float> got = out.to_vector(), grad = v.grad().to_vector();
    bool ok = true;
    for (int i = 0; i < 4; ++i) {
        ok = ok && std::fabs(got[i] - want[i]) < 5e-5f;
        ok = ok && std::fabs(grad[i] - 1.f) < 1e-6f;
    }
    std::printf("attention output [[%.4f, %.4f], [%.4f, %.4f]]: %s\n", got[0], got[1], got[2], got[3],
                ok ? "as the seed says" : "WRONG");
    return ok ? 0 : 1;
}
