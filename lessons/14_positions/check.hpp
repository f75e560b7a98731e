// Lesson 14's checks for embed, shared by starter.cpp, solution.cpp and your exercise.cpp.
// A small example by hand, 春眠 against 眠春, random batches against the library, the gradient.
#pragma once
#include "lesson.hpp"

namespace exercise {
// The GPT's input: each token's embedding plus its position's embedding.
// wte (V,C), wpe (context,C), ids (B,T) whole numbers in [0,V), T <= context -> (B,T,C)
pg::Tensor embed(const pg::Tensor& wte, const pg::Tensor& wpe, const pg::Tensor& ids);
}  // namespace exercise

// What GPT::forward computes for the same tables: your embed is compared with it.
static pg::Tensor embed_with_library(const pg::Tensor& wte, const pg::Tensor& wpe, const pg::Tensor& ids) {
    return pg::embedding(wte, ids) + pg::embedding(wpe, pg::arange(ids.size(1)));
}

int main() {
    lesson::Checks checks("14", "positions");
    checks.run("by hand: V = 3, C = 2, ids [[2, 0]]", [] {
        pg::Tensor wte = pg::tensor({{1.f, 0.f}, {0.f, 1.f}, {1.f, 1.f}});
        pg::Tensor wpe = pg::tensor({{0.1f, 0.2f}, {0.3f, 0.4f}, {0.5f, 0.6f}});
        pg::Tensor x = exercise::embed(wte, wpe, pg::tensor({{2.f, 0.f}}));
        lesson::expect_near("embed", x, pg::tensor({{{1.1f, 1.2f}, {1.3f, 0.4f}}}), 1e-6,
                            "x[b,t] = wte[ids[b,t]] + wpe[t]: position t adds row t of wpe, whatever the id; "
                            "the result is (B,T,C), here (1,2,2)");
    });
    checks.run("春眠 against 眠春: the same character at another place gets another vector", [] {
        pg::Generator gen(140);
        pg::Tensor wte = pg::randn({5, 4}, gen), wpe = pg::randn({8, 4}, gen);
        pg::Tensor a = exercise::embed(wte, wpe, pg::tensor({{0.f, 1.f, 2.f}}));  // 春眠不
        pg::Tensor b = exercise::embed(wte, wpe, pg::tensor({{1.f, 0.f, 2.f}}));  // 眠春不
        pg::Tensor chun_in_b = pg::reshape(pg::slice(b, 1, 1, 2), {4});           // 春 at position 1
        pg::Tensor expected = pg::reshape(pg::slice(wte, 0, 0, 1) + pg::slice(wpe, 0, 1, 2), {4});
        lesson::expect_near("春 at position 1 of 眠春不", chun_in_b, expected, 1e-6,
                            "without wpe[t], 春 is the same vector wherever it stands and attention cannot "
                            "tell 春眠 from 眠春; add row t of wpe at position t");
        lesson::expect_near("不 at position 2, in both", pg::slice(a, 1, 2, 3), pg::slice(b, 1, 2, 3), 1e-6,
                            "the third character is 不 at position 2 in both sequences: the same vector");
    });
    checks.run("a batch of 3 sequences of 6, against the library", [] {
        pg::Generator gen(141);
        pg::Tensor wte = pg::randn({10, 8}, gen), wpe = pg::randn({6, 8}, gen);
        std::vector<float> ids(18);
        for (float& id : ids) id = static_cast<float>(gen.randint(10));
        pg::Tensor ids_t = pg::tensor(ids, {3, 6});
        lesson::expect_near("embed", exercise::embed(wte, wpe, ids_t), embed_with_library(wte, wpe, ids_t), 1e-6,
                            "every sequence of the batch gets the same positions 0..T-1: wpe's rows broadcast "
                            "over B; the output is (B,T,C)");
    });
    checks.run("a sequence shorter than the context uses only wpe's first T rows", [] {
        pg::Generator gen(142);
        pg::Tensor wte = pg::randn({5, 3}, gen), wpe = pg::randn({32, 3}, gen);
        pg::Tensor ids = pg::tensor({{4.f, 4.f}});
        lesson::expect_near("embed", exercise::embed(wte, wpe, ids), embed_with_library(wte, wpe, ids), 1e-6,
                            "T = ids.size(1) = 2, not wpe's 32 rows: take rows 0..T-1 of wpe");
    });
    checks.run("a sequence longer than the context throws", [] {
        pg::Generator gen(143);
        pg::Tensor wte = pg::randn({5, 3}, gen), wpe = pg::randn({4, 3}, gen);
        try {
            exercise::embed(wte, wpe, pg::tensor({{0.f, 1.f, 2.f, 3.f, 4.f}}));
        } catch (const lesson::NotImplemented&) {
            throw;
        } catch (const std::exception&) {
            return;
        }
        throw lesson::CheckFailed("embed with T = 5 and wpe (4,3)", "an error (there is no position 4)",
                                  "it returned normally",
                                  "pg::embedding(wpe, pg::arange(T)) and pg::slice(wpe, 0, 0, T) both throw "
                                  "when T is past wpe's rows; reading past the end does not");
    });
    checks.run("the gradient reaches wte and wpe", [] {
        pg::Generator gen(144);
        pg::Tensor wte = pg::randn({6, 4}, gen, true), wpe = pg::randn({5, 4}, gen, true);
        pg::Tensor ids = pg::tensor({{1.f, 5.f, 1.f}, {0.f, 2.f, 3.f}});
        pg::Tensor r = pg::randn({2, 3, 4}, gen);
        pg::sum(embed_with_library(wte, wpe, ids) * r).backward();
        pg::Tensor want_wte = wte.grad(), want_wpe = wpe.grad();
        wte.zero_grad();
        wpe.zero_grad();
        pg::Tensor x = exercise::embed(wte, wpe, ids);
        lesson::expect("embed's result", x.requires_grad(), "a tensor that requires grad", "no gradient history",
                       "build it with pg ops (pg::embedding, pg::slice, +), not pg::tensor(values): training "
                       "must reach wte and wpe through it");
        pg::sum(x * r).backward();
        lesson::expect_near("wte.grad()", wte.grad(), want_wte, 1e-5,
                            "each id's row of wte collects the gradient of every place the id appears");
        lesson::expect_near("wpe.grad()", wpe.grad(), want_wpe, 1e-5,
                            "row t of wpe collects the gradient of position t in every sequence of the batch; "
                            "rows T.. get none");
    });
    return checks.finish();
}
