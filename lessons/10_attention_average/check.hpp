// Lesson 10's checks for attend_past, shared by starter.cpp, solution.cpp and your exercise.cpp.
// Equal scores must give the running mean; later positions' scores must not matter.
#pragma once
#include "lesson.hpp"

namespace exercise {
// Row t of the result: softmax of scores[t][0..t], then the weighted average of v_0 .. v_t.
// scores[t][j] for j > t (later positions) are ignored. scores (T, T), v (T, C) -> (T, C)
pg::Tensor attend_past(const pg::Tensor& scores, const pg::Tensor& v);
}  // namespace exercise

// The same with pg ops, one row at a time: what your function is compared with.
static pg::Tensor attend_past_with_ops(const pg::Tensor& scores, const pg::Tensor& v) {
    std::vector<pg::Tensor> rows;
    for (long t = 0; t < static_cast<long>(scores.size(0)); ++t) {
        pg::Tensor s = pg::slice(pg::slice(scores, 0, t, t + 1), 1, 0, t + 1);     // (1, t+1)
        rows.push_back(pg::matmul(pg::softmax(s, -1), pg::slice(v, 0, 0, t + 1)));  // (1, C)
    }
    return pg::concat(rows, 0);
}

static const pg::Tensor& lesson_values() {
    static pg::Tensor v = pg::tensor({{2.f, 0.f}, {0.f, 2.f}, {1.f, 1.f}, {16.f, 0.f}, {0.f, 1.f}});
    return v;
}

int main() {
    lesson::Checks checks("10", "attention_average");
    checks.run("equal scores give the running mean", [] {
        pg::Tensor out = exercise::attend_past(pg::zeros({5, 5}), lesson_values());
        lesson::expect_near("output", out,
                            pg::tensor({{2.f, 0.f}, {1.f, 1.f}, {1.f, 1.f}, {4.75f, 0.75f}, {3.8f, 0.8f}}), 1e-5,
                            "with equal scores every one of positions 0..t gets weight 1/(t+1); a row that "
                            "divides by T instead averages in positions that come later");
    });
    checks.run("the experiment's scores for 晓", [] {
        pg::Tensor S = pg::tensor({{0.0f, 9.f, 9.f, 9.f, 9.f},
                                   {1.0f, 0.0f, 9.f, 9.f, 9.f},
                                   {0.5f, -0.5f, 1.0f, 9.f, 9.f},
                                   {0.0f, 1.0f, 0.0f, 0.5f, 9.f},
                                   {2.0f, 0.5f, 1.0f, -1.0f, 1.5f}});
        pg::Tensor out = exercise::attend_past(S, lesson_values());
        lesson::expect_near("output", out, attend_past_with_ops(S, lesson_values()), 1e-5,
                            "row t: exp(scores[t][j] - max) for j = 0..t, divided by their sum, then "
                            "sum_j w_j v_j; the 9s above the diagonal must not be read");
    });
    checks.run("scores for later positions change nothing", [] {
        pg::Generator gen(10);
        pg::Tensor S = pg::randn({6, 6}, gen), v = pg::randn({6, 3}, gen);
        std::vector<float> big = S.to_vector();
        for (size_t t = 0; t < 6; ++t)
            for (size_t j = t + 1; j < 6; ++j) big[t * 6 + j] = 50.f;  // huge scores on later positions
        lesson::expect_near("output", exercise::attend_past(pg::tensor(big, {6, 6}), v), exercise::attend_past(S, v),
                            1e-5, "only scores[t][0..t] enter row t's softmax: stop the loop over j at t");
    });
    checks.run("random (7,7) scores and (7,4) values, against pg ops", [] {
        pg::Generator gen(11);
        pg::Tensor S = pg::randn({7, 7}, gen) * 2.f, v = pg::randn({7, 4}, gen);
        lesson::expect_near("output", exercise::attend_past(S, v), attend_past_with_ops(S, v), 1e-5,
                            "T = scores.size(0) and C = v.size(1): the result is (T, C), not (T, T)");
    });
    checks.run("large scores stay finite", [] {
        pg::Tensor S = pg::tensor({{1000.f, 0.f}, {1000.f, 999.f}});
        pg::Tensor out = exercise::attend_past(S, pg::tensor({{1.f, 0.f}, {0.f, 1.f}}));
        lesson::expect_near("output", out, pg::tensor({{1.f, 0.f}, {0.7311f, 0.2689f}}), 1e-4,
                            "exp(1000) overflows float; subtract the largest of scores[t][0..t] before exp");
    });
    return checks.finish();
}
