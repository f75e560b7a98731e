// Lesson 13's checks for split_heads and merge_heads, shared by starter.cpp, solution.cpp and your
// exercise.cpp: the lesson's example, round trips, the transpose that must not be skipped, the library.
#pragma once
#include "causal.hpp"
#include "lesson.hpp"

namespace exercise {
// Cut each position's C channels into n_head groups of HS = C / n_head and put the heads in front.
// x (B,T,C) -> (B,NH,T,HS); throws pg::ShapeError when C is not a multiple of n_head
pg::Tensor split_heads(const pg::Tensor& x, size_t n_head);
// The inverse: every head's HS channels side by side again. y (B,NH,T,HS) -> (B,T,C), C = NH*HS
pg::Tensor merge_heads(const pg::Tensor& y);
}  // namespace exercise

static pg::Tensor split_with_ops(const pg::Tensor& x, size_t NH) {
    return pg::transpose(pg::reshape(x, {x.size(0), x.size(1), NH, x.size(2) / NH}), 1, 2);
}

int main() {
    lesson::Checks checks("13", "multi_head");
    checks.run("the lesson's q: head 0 is lesson 11's Q, head 1 the seed's Wq = I answer", [] {
        pg::Tensor q = pg::tensor({{{1.f, 1.f, 1.f, 0.f}, {0.f, 1.f, 0.f, 1.f}, {1.f, 2.f, 1.f, 1.f}}});
        lesson::expect_near("split_heads(q, 2)", exercise::split_heads(q, 2),
                            pg::tensor({1.f, 1.f, 0.f, 1.f, 1.f, 2.f,    // head 0: (T, HS)
                                        1.f, 0.f, 0.f, 1.f, 1.f, 1.f},  // head 1
                                       {1, 2, 3, 2}),
                            0.0,
                            "reshape to (B,T,NH,HS) first, then swap dims 1 and 2; reshaping straight to "
                            "(B,NH,T,HS) mixes positions into heads");
    });
    checks.run("split against reshape + transpose: (B,T,C) = (2,3,6) in 3 heads", [] {
        pg::Generator gen(130);
        pg::Tensor x = pg::randn({2, 3, 6}, gen);
        lesson::expect_near("split_heads(x, 3)", exercise::split_heads(x, 3), split_with_ops(x, 3), 0.0,
                            "head h of position t is channels h*HS .. h*HS+HS-1 of x[b][t]; HS = C / n_head = 2");
    });
    checks.run("merge against transpose + reshape: (B,NH,T,HS) = (2,3,4,2)", [] {
        pg::Generator gen(131);
        pg::Tensor y = pg::randn({2, 3, 4, 2}, gen);
        lesson::expect_near("merge_heads(y)", exercise::merge_heads(y),
                            pg::reshape(pg::transpose(y, 1, 2), {2, 4, 6}), 0.0,
                            "swap dims 1 and 2 back to (B,T,NH,HS), then reshape to (B,T,NH*HS)");
    });
    checks.run("merge(split(x)) is x: (2,5,8) in 4 heads", [] {
        pg::Generator gen(132);
        pg::Tensor x = pg::randn({2, 5, 8}, gen);
        lesson::expect_near("merge_heads(split_heads(x, 4))", exercise::merge_heads(exercise::split_heads(x, 4)), x,
                            0.0, "merge undoes split: the same transpose(1, 2), the reshape the other way");
    });
    checks.run("C = 5 does not split into 2 heads", [] {
        pg::Tensor x = pg::zeros({1, 2, 5});
        lesson::expect_throws<pg::ShapeError>("split_heads(x (1,2,5), 2)", "pg::ShapeError",
                                              [&] { exercise::split_heads(x, 2); },
                                              "HS = 5 / 2 would drop a channel; pg::reshape to (B,T,NH,C/NH) "
                                              "throws by itself, or check C % n_head");
    });
    checks.run("the library's 4-head attention layer rebuilt with your split and merge", [] {
        pg::Generator gen(133);
        pg::nn::CausalSelfAttention attn(8, 4, 0.f, gen);
        pg::Tensor x = pg::randn({2, 5, 8}, gen);
        std::vector<pg::Tensor> p = pg::chunk(attn.qkv.forward(x), 3, -1);  // q, k, v each (B,T,C)
        pg::Tensor heads = causal_attention(exercise::split_heads(p[0], 4), exercise::split_heads(p[1], 4),
                                            exercise::split_heads(p[2], 4));  // (B,NH,T,HS)
        lesson::expect_near("output", attn.proj.forward(exercise::merge_heads(heads)), attn.forward(x), 1e-5,
                            "split q, k and v the same way; merge must put head h's channels at h*HS");
    });
    return checks.finish();
}
