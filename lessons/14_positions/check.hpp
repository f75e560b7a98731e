// Lesson 14's checks for embed, shared by starter.cpp, solution.cpp and your exercise.cpp.
// A small example by hand, 春眠 against 眠春, random batches against the library, the poet's own
// sizes (the whole context, the last id), the gradient; a wrong result is read for its likely cause.
#pragma once
#include <algorithm>
#include <cmath>
#include <string>
#include "lesson.hpp"

namespace exercise {
// The GPT's input: each token's embedding plus its position's embedding.
// wte (V,C), wpe (context,C), ids (B,T) whole numbers in [0,V), T <= context -> (B,T,C)
pg::Tensor embed(const pg::Tensor& wte, const pg::Tensor& wpe, const pg::Tensor& ids);
}  // namespace exercise

namespace check14 {

const char* const kNoPositions =
    "your result is wte[ids] alone: the position embedding wpe is missing; add row t of wpe at position t, "
    "pg::embedding(wpe, pg::arange(T))";
const char* const kPositionsFromIds =
    "your result is wte[ids] + wpe[ids]: positions looked up with the token ids; position t adds row t of wpe "
    "whatever the id: pg::embedding(wpe, pg::arange(T))";
const char* const kRowZero =
    "every position got row 0 of wpe: T = ids.size(1) (ids is (B,T)), not ids.size(0), which is B";
const char* const kFromOne =
    "position t got row t+1 of wpe: positions count from 0, so the first character adds wpe's row 0 (pg::arange(T) "
    "is 0, 1, ..., T-1)";

// What GPT::forward computes for the same tables: your embed is compared with it.
inline pg::Tensor embed_with_library(const pg::Tensor& wte, const pg::Tensor& wpe, const pg::Tensor& ids) {
    return pg::embedding(wte, ids) + pg::embedding(wpe, pg::arange(ids.size(1)));
}

inline bool close(const pg::Tensor& a, const pg::Tensor& b) {
    if (a.shape() != b.shape()) return false;
    for (size_t i = 0; i < a.numel(); ++i)
        if (!(std::fabs(a.ptr()[i] - b.ptr()[i]) <= 1e-6f)) return false;
    return true;
}

// The likely wrong embeddings of ids: the first one your result equals names the mistake.
inline std::string diagnosis(const pg::Tensor& wte, const pg::Tensor& wpe, const pg::Tensor& ids,
                             const pg::Tensor& got) {
    size_t T = ids.size(1);
    pg::Tensor tokens = pg::embedding(wte, ids);
    if (close(got, tokens)) return kNoPositions;
    float largest_id = 0;
    for (float id : ids.to_vector()) largest_id = std::max(largest_id, id);
    if (largest_id < static_cast<float>(wpe.size(0)) && close(got, tokens + pg::embedding(wpe, ids)))
        return kPositionsFromIds;
    if (T > 1 && close(got, tokens + pg::slice(wpe, 0, 0, 1))) return kRowZero;
    if (T < wpe.size(0) && close(got, tokens + pg::slice(wpe, 0, 1, static_cast<long>(T) + 1))) return kFromOne;
    return "x[b,t] = wte[ids[b,t]] + wpe[t]: position t adds row t of wpe, whatever the id; the result is (B,T,C), "
           "here " + lesson::str(pg::Shape{ids.size(0), T, wte.size(1)});
}

// Whether your embed runs on ids without its last position (T - 1 < context).
inline bool shorter_works(const pg::Tensor& wte, const pg::Tensor& wpe, const pg::Tensor& ids) {
    try {
        exercise::embed(wte, wpe, pg::slice(ids, 1, 0, static_cast<long>(ids.size(1)) - 1));
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

// Your embed for a valid input (T <= context), with an error turned into a hint about its likely cause.
inline pg::Tensor call_embed(const pg::Tensor& wte, const pg::Tensor& wpe, const pg::Tensor& ids) {
    const std::string what = "embed(wte " + lesson::str(wte.shape()) + ", wpe " + lesson::str(wpe.shape()) +
                             ", ids " + lesson::str(ids.shape()) + ")";
    try {
        return exercise::embed(wte, wpe, ids);
    } catch (const lesson::NotImplemented&) {
        throw;
    } catch (const std::exception& e) {
        std::string msg = e.what();
        std::string hint;
        if (msg.find("index_select") != std::string::npos)
            hint = "pg::index_select takes 1-D ids, and ids is (B,T): pg::embedding(wte, ids) looks up a tensor of ids "
                   "of any shape";
        else if (ids.size(1) == wpe.size(0) && ids.size(1) > 1 && shorter_works(wte, wpe, ids))
            hint = "T = " + std::to_string(ids.size(1)) + " is the whole context, which is allowed: positions 0.." +
                   std::to_string(ids.size(1) - 1) + " all have a row in wpe, and your embed runs on " +
                   std::to_string(ids.size(1) - 1) + " positions but not on " + std::to_string(ids.size(1)) +
                   ": a guard T >= context (throw only when T > wpe.size(0)), or rows 1..T instead of 0..T-1";
        else if (msg.find("embedding: id") != std::string::npos)
            hint = "an id reached wpe, which has one row per position (context rows), not one per token: positions "
                   "looked up with the token ids; position t adds row t of wpe whatever the id: "
                   "pg::embedding(wpe, pg::arange(T))";
        else
            hint = "(B,T,C) + (T,C) broadcasts over B: add rows 0..T-1 of wpe, T = ids.size(1) = " +
                   std::to_string(ids.size(1)) + " (ids.size(0) = " + std::to_string(ids.size(0)) +
                   " is B); the whole table, context = " + std::to_string(wpe.size(0)) +
                   " rows, is too many for this sequence";
        throw lesson::CheckFailed(what, "a (B,T,C) tensor", std::string("an error: ") + msg, hint);
    }
}

inline void expect_embed(const pg::Tensor& wte, const pg::Tensor& wpe, const pg::Tensor& ids) {
    pg::Tensor got = call_embed(wte, wpe, ids);
    lesson::expect_near("embed", got, embed_with_library(wte, wpe, ids), 1e-6, diagnosis(wte, wpe, ids, got));
}

inline pg::Tensor random_ids(size_t B, size_t T, size_t V, pg::Generator& gen) {
    std::vector<float> ids(B * T);
    for (float& id : ids) id = static_cast<float>(gen.randint(V));
    return pg::tensor(ids, {B, T});
}

}  // namespace check14

int main() {
    using namespace check14;
    lesson::Checks checks("14", "positions");
    checks.run("by hand: V = 3, C = 2, ids [[2, 0]]", [] {
        pg::Tensor wte = pg::tensor({{1.f, 0.f}, {0.f, 1.f}, {1.f, 1.f}});
        pg::Tensor wpe = pg::tensor({{0.1f, 0.2f}, {0.3f, 0.4f}, {0.5f, 0.6f}});
        pg::Tensor ids = pg::tensor({{2.f, 0.f}});
        pg::Tensor x = call_embed(wte, wpe, ids);
        lesson::expect_near("embed", x, pg::tensor({{{1.1f, 1.2f}, {1.3f, 0.4f}}}), 1e-6, diagnosis(wte, wpe, ids, x));
    });
    checks.run("春眠 against 眠春: the same character at another place gets another vector", [] {
        pg::Generator gen(140);
        pg::Tensor wte = pg::randn({5, 4}, gen), wpe = pg::randn({8, 4}, gen);
        pg::Tensor a = call_embed(wte, wpe, pg::tensor({{0.f, 1.f, 2.f}}));  // 春眠不
        pg::Tensor b = call_embed(wte, wpe, pg::tensor({{1.f, 0.f, 2.f}}));  // 眠春不
        lesson::expect_shape("embed of 眠春不", b.shape(), {1, 3, 4}, "the result is (B,T,C), here (1,3,4)");
        pg::Tensor chun_in_b = pg::reshape(pg::slice(b, 1, 1, 2), {4});           // 春 at position 1
        pg::Tensor expected = pg::reshape(pg::slice(wte, 0, 0, 1) + pg::slice(wpe, 0, 1, 2), {4});
        lesson::expect_near("春 at position 1 of 眠春不", chun_in_b, expected, 1e-6,
                            diagnosis(wte, wpe, pg::tensor({{1.f, 0.f, 2.f}}), b));
        lesson::expect_near("不 at position 2, in both", pg::slice(a, 1, 2, 3), pg::slice(b, 1, 2, 3), 1e-6,
                            "the third character is 不 at position 2 in both sequences: the same vector; "
                            "positions come from the place t, never from the ids");
    });
    checks.run("a batch of 3 sequences of 6, against the library", [] {
        pg::Generator gen(141);
        pg::Tensor wte = pg::randn({10, 8}, gen), wpe = pg::randn({6, 8}, gen);
        expect_embed(wte, wpe, random_ids(3, 6, 10, gen));
    });
    checks.run("a batch of 4 sequences of 2: T is ids.size(1), not B", [] {
        pg::Generator gen(145);
        pg::Tensor wte = pg::randn({7, 3}, gen), wpe = pg::randn({9, 3}, gen);
        expect_embed(wte, wpe, random_ids(4, 2, 7, gen));
    });
    checks.run("a sequence shorter than the context uses only wpe's first T rows", [] {
        pg::Generator gen(142);
        pg::Tensor wte = pg::randn({5, 3}, gen), wpe = pg::randn({32, 3}, gen);
        expect_embed(wte, wpe, pg::tensor({{4.f, 4.f}}));
    });
    checks.run("the poet's sizes: V = 7817, the whole context T = 32, ids 0 and 7816 (the last row)", [] {
        pg::Generator gen(146);
        pg::Tensor wte = pg::randn({7817, 2}, gen), wpe = pg::randn({32, 2}, gen);
        pg::Tensor ids = random_ids(1, 32, 7817, gen);
        ids.mutable_data().data()[0] = 0.f;
        ids.mutable_data().data()[31] = 7816.f;
        expect_embed(wte, wpe, ids);
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
        pg::Tensor x = call_embed(wte, wpe, ids);
        lesson::expect("embed's result", x.requires_grad(), "a tensor that requires grad", "no gradient history",
                       "build it with pg ops (pg::embedding, pg::slice, +), not pg::tensor(values): training "
                       "must reach wte and wpe through it");
        pg::sum(x * r).backward();
        for (auto [name, table] : {std::pair{"wte", wte}, std::pair{"wpe", wpe}})
            lesson::expect(std::string(name) + " has a gradient", table.has_grad(), "a gradient", "none",
                           std::string(name) + " got no gradient: backward never reached it; use " + name +
                               " itself in pg ops, not " + name + ".detach() or a copy of its values");
        lesson::expect_near("wte.grad()", wte.grad(), want_wte, 1e-5,
                            "each id's row of wte collects the gradient of every place the id appears");
        lesson::expect_near("wpe.grad()", wpe.grad(), want_wpe, 1e-5,
                            "row t of wpe collects the gradient of position t in every sequence of the batch; "
                            "rows T.. get none");
    });
    return checks.finish();
}
