// Lesson 14's checks for embed, shared by starter.cpp, solution.cpp and your exercise.cpp.
// A small example by hand, 春眠 against 眠春, random batches against the library, the poet's own
// sizes (the whole context, the last id), the gradient; a wrong result is read for its likely cause.
#include "check.hpp"
#include "check_tools.hpp"

namespace check14 {

// The hints that name a wrong embed, in the learner's language.
inline std::string no_positions() {
    return lesson::tr("your result is wte[ids] alone: the position embedding wpe is missing; add row t of wpe at position t, "
                      "pg::embedding(wpe, pg::arange(T))",
                      "你的结果只有 wte[ids]：缺了位置嵌入 wpe；在位置 t 加上 wpe 的第 t 行，"
                      "pg::embedding(wpe, pg::arange(T))");
}
inline std::string positions_from_ids() {
    return lesson::tr("your result is wte[ids] + wpe[ids]: positions looked up with the token ids; position t adds row t of wpe "
                      "whatever the id: pg::embedding(wpe, pg::arange(T))",
                      "你的结果是 wte[ids] + wpe[ids]：位置是用字的编号查出来的；不管编号是什么，位置 t 都加 wpe 的第 t 行："
                      "pg::embedding(wpe, pg::arange(T))");
}
inline std::string row_zero() {
    return lesson::tr("every position got row 0 of wpe: T = ids.size(1) (ids is (B,T)), not ids.size(0), which is B",
                      "每个位置都拿到了 wpe 的第 0 行：T = ids.size(1)（ids 是 (B,T)），而不是 ids.size(0)，那是 B");
}
inline std::string from_one() {
    return lesson::tr("position t got row t+1 of wpe: positions count from 0, so the first character adds wpe's row 0 (pg::arange(T) "
                      "is 0, 1, ..., T-1)",
                      "位置 t 拿到了 wpe 的第 t+1 行：位置从 0 开始数，所以第一个字加的是 wpe 的第 0 行（pg::arange(T) "
                      "是 0, 1, ..., T-1）");
}

// What GPT::forward computes for the same tables: your embed is compared with it.
inline pg::Tensor embed_with_library(const pg::Tensor& wte, const pg::Tensor& wpe, const pg::Tensor& ids) {
    return pg::embedding(wte, ids) + pg::embedding(wpe, pg::arange(ids.size(1)));
}

inline bool close(const pg::Tensor& a, const pg::Tensor& b) { return lesson::near(a, b, 1e-6); }

// The likely wrong embeddings of ids: the first one your result equals names the mistake.
inline std::string diagnosis(const pg::Tensor& wte, const pg::Tensor& wpe, const pg::Tensor& ids,
                             const pg::Tensor& got) {
    size_t T = ids.size(1);
    pg::Tensor tokens = pg::embedding(wte, ids);
    if (close(got, tokens)) return no_positions();
    float largest_id = 0;
    for (float id : ids.to_vector()) largest_id = std::max(largest_id, id);
    if (largest_id < static_cast<float>(wpe.size(0)) && close(got, tokens + pg::embedding(wpe, ids)))
        return positions_from_ids();
    if (T > 1 && close(got, tokens + pg::slice(wpe, 0, 0, 1))) return row_zero();
    if (T < wpe.size(0) && close(got, tokens + pg::slice(wpe, 0, 1, static_cast<long>(T) + 1))) return from_one();
    return lesson::tr("x[b,t] = wte[ids[b,t]] + wpe[t]: position t adds row t of wpe, whatever the id; the result is (B,T,C), "
                      "here ",
                      "x[b,t] = wte[ids[b,t]] + wpe[t]：不管编号是什么，位置 t 都加 wpe 的第 t 行；结果是 (B,T,C)，"
                      "这里是 ") +
           lesson::str(pg::Shape{ids.size(0), T, wte.size(1)});
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
inline pg::Tensor call_embed_once(const pg::Tensor& wte, const pg::Tensor& wpe, const pg::Tensor& ids) {
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
            hint = lesson::tr("pg::index_select takes 1-D ids, and ids is (B,T): pg::embedding(wte, ids) looks up a tensor of ids "
                              "of any shape",
                              "pg::index_select 要的是一维的编号，而 ids 是 (B,T)：pg::embedding(wte, ids) 可以查任意形状的编号张量");
        else if (ids.size(1) == wpe.size(0) && ids.size(1) > 1 && shorter_works(wte, wpe, ids))
            hint = "T = " + std::to_string(ids.size(1)) +
                   lesson::tr(" is the whole context, which is allowed: positions 0..",
                              " 是整个上下文长度，这是允许的：位置 0..") +
                   std::to_string(ids.size(1) - 1) +
                   lesson::tr(" all have a row in wpe, and your embed runs on ", " 在 wpe 里都有一行，而你的 embed 在 ") +
                   std::to_string(ids.size(1) - 1) + lesson::tr(" positions but not on ", " 个位置上能运行，在 ") +
                   std::to_string(ids.size(1)) +
                   lesson::tr(": a guard T >= context (throw only when T > wpe.size(0)), or rows 1..T instead of 0..T-1",
                              " 个位置上却不行：判断条件写成了 T >= context（只应在 T > wpe.size(0) 时抛出），"
                              "或者取的是第 1..T 行而不是第 0..T-1 行");
        else if (msg.find("embedding: id") != std::string::npos)
            hint = lesson::tr("an id reached wpe, which has one row per position (context rows), not one per token: positions "
                              "looked up with the token ids; position t adds row t of wpe whatever the id: "
                              "pg::embedding(wpe, pg::arange(T))",
                              "有一个编号进了 wpe，而 wpe 是每个位置一行（共 context 行），不是每个字一行：位置是用字的编号查出来的；不管编号是什么，位置 t 都加 wpe 的第 t 行：pg::embedding(wpe, pg::arange(T))");
        else {
            // what the error shows: the rows of the position part that did not broadcast, "and (R,C)"
            auto rows_were = [&msg](size_t R) { return msg.find("and (" + std::to_string(R) + ",") != std::string::npos; };
            hint = lesson::tr("(B,T,C) + (T,C) broadcasts over B: add rows 0..T-1 of wpe, T = ids.size(1) = ",
                              "(B,T,C) + (T,C) 会在 B 上广播：加上 wpe 的第 0..T-1 行，T = ids.size(1) = ") +
                   std::to_string(ids.size(1)) + " (ids.size(0) = " + std::to_string(ids.size(0)) +
                   lesson::tr(" is B)", " 是 B)");
            if (rows_were(wpe.size(0)))
                hint += lesson::tr("; your position part had wpe's ", "；你的位置部分有 wpe 的全部 ") + std::to_string(wpe.size(0)) +
                        lesson::tr(" rows: the whole table, context = ", " 行：整张表有 context = ") + std::to_string(wpe.size(0)) +
                        lesson::tr(" rows, is too many for this sequence", " 行，对这个序列来说太多了");
            if (rows_were(ids.size(0)) && ids.size(0) != wpe.size(0))
                hint += lesson::tr("; your position part had ", "；你的位置部分有 ") + std::to_string(ids.size(0)) +
                        lesson::tr(" rows, as many as the batch: T read as ids.size(0), not ids.size(1)",
                                   " 行，和批次一样多：T 被读成了 ids.size(0)，而不是 ids.size(1)");
        }
        throw lesson::CheckFailed(what, lesson::tr("a (B,T,C) tensor", "一个 (B,T,C) 张量"),
                                  lesson::tr("an error: ", "出错：") + msg, hint);
    }
}

// The learner's embed, and an answer repeated from an earlier call caught: the same as what embed
// returned for an earlier, different input (whose right answer differs) is a constant or a static.
inline pg::Tensor call_embed(const pg::Tensor& wte, const pg::Tensor& wpe, const pg::Tensor& ids) {
    static std::vector<pg::Tensor> earlier;  // what embed returned in the checks before
    pg::Tensor got = call_embed_once(wte, wpe, ids), want = embed_with_library(wte, wpe, ids);
    if (lesson::came_back(got, want, earlier, 1e-6, 1e-6))
        throw lesson::CheckFailed("embed", lesson::tr("x computed from this call's wte, wpe and ids", "由这一次调用的 wte、wpe 和 ids 算出的 x"),
                                  lesson::tr("the x of an earlier call", "先前一次调用的 x"),
                                  lesson::came_back_hint({"x", "x"}, {"wte, wpe and ids", "wte、wpe 和 ids"}));
    return got;
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
    checks.run(lesson::tr("by hand: V = 3, C = 2, ids [[2, 0]]", "手算：V = 3，C = 2，ids [[2, 0]]"), [] {
        pg::Tensor wte = pg::tensor({{1.f, 0.f}, {0.f, 1.f}, {1.f, 1.f}});
        pg::Tensor wpe = pg::tensor({{0.1f, 0.2f}, {0.3f, 0.4f}, {0.5f, 0.6f}});
        pg::Tensor ids = pg::tensor({{2.f, 0.f}});
        pg::Tensor x = call_embed(wte, wpe, ids);
        lesson::expect_near("embed", x, pg::tensor({{{1.1f, 1.2f}, {1.3f, 0.4f}}}), 1e-6, diagnosis(wte, wpe, ids, x));
    });
    checks.run(lesson::tr("春眠 against 眠春: the same character at another place gets another vector",
                          "春眠对比眠春：同一个字在另一个位置得到另一个向量"), [] {
        pg::Generator gen(140);
        pg::Tensor wte = pg::randn({5, 4}, gen), wpe = pg::randn({8, 4}, gen);
        pg::Tensor a = call_embed(wte, wpe, pg::tensor({{0.f, 1.f, 2.f}}));  // 春眠不
        pg::Tensor b = call_embed(wte, wpe, pg::tensor({{1.f, 0.f, 2.f}}));  // 眠春不
        lesson::expect_shape(lesson::tr("embed of 眠春不", "眠春不的 embed"), b.shape(), {1, 3, 4},
                             lesson::tr("the result is (B,T,C), here (1,3,4)", "结果是 (B,T,C)，这里是 (1,3,4)"));
        pg::Tensor chun_in_b = pg::reshape(pg::slice(b, 1, 1, 2), {4});           // 春 at position 1
        pg::Tensor expected = pg::reshape(pg::slice(wte, 0, 0, 1) + pg::slice(wpe, 0, 1, 2), {4});
        lesson::expect_near(lesson::tr("春 at position 1 of 眠春不", "眠春不里位置 1 的春"), chun_in_b, expected, 1e-6,
                            diagnosis(wte, wpe, pg::tensor({{1.f, 0.f, 2.f}}), b));
        lesson::expect_near(lesson::tr("不 at position 2, in both", "两个序列里位置 2 的不"), pg::slice(a, 1, 2, 3), pg::slice(b, 1, 2, 3), 1e-6,
                            lesson::tr("the third character is 不 at position 2 in both sequences: the same vector; "
                                       "positions come from the place t, never from the ids",
                                       "两个序列的第三个字都是位置 2 上的不：向量相同；位置来自所在的地方 t，从来不来自编号"));
    });
    checks.run(lesson::tr("a batch of 3 sequences of 6, against the library", "一批 3 个长度为 6 的序列，与库对比"), [] {
        pg::Generator gen(141);
        pg::Tensor wte = pg::randn({10, 8}, gen), wpe = pg::randn({6, 8}, gen);
        expect_embed(wte, wpe, random_ids(3, 6, 10, gen));
    });
    checks.run(lesson::tr("a batch of 4 sequences of 2: T is ids.size(1), not B",
                          "一批 4 个长度为 2 的序列：T 是 ids.size(1)，不是 B"), [] {
        pg::Generator gen(145);
        pg::Tensor wte = pg::randn({7, 3}, gen), wpe = pg::randn({9, 3}, gen);
        expect_embed(wte, wpe, random_ids(4, 2, 7, gen));
    });
    checks.run(lesson::tr("a sequence shorter than the context uses only wpe's first T rows", "比上下文短的序列只用 wpe 的前 T 行"), [] {
        pg::Generator gen(142);
        pg::Tensor wte = pg::randn({5, 3}, gen), wpe = pg::randn({32, 3}, gen);
        expect_embed(wte, wpe, pg::tensor({{4.f, 4.f}}));
    });
    checks.run(lesson::tr("the poet's sizes: V = 7817, the whole context T = 32, ids 0 and 7816 (the last row)",
                          "诗人模型的尺寸：V = 7817，整个上下文 T = 32，编号 0 和 7816（最后一行）"), [] {
        pg::Generator gen(146);
        pg::Tensor wte = pg::randn({7817, 2}, gen), wpe = pg::randn({32, 2}, gen);
        pg::Tensor ids = random_ids(1, 32, 7817, gen);
        ids.mutable_data().data()[0] = 0.f;
        ids.mutable_data().data()[31] = 7816.f;
        expect_embed(wte, wpe, ids);
    });
    checks.run(lesson::tr("a sequence longer than the context throws", "比上下文长的序列会抛出异常"), [] {
        pg::Generator gen(143);
        pg::Tensor wte = pg::randn({5, 3}, gen), wpe = pg::randn({4, 3}, gen);
        try {
            exercise::embed(wte, wpe, pg::tensor({{0.f, 1.f, 2.f, 3.f, 4.f}}));
        } catch (const lesson::NotImplemented&) {
            throw;
        } catch (const std::exception&) {
            return;
        }
        throw lesson::CheckFailed(lesson::tr("embed with T = 5 and wpe (4,3)", "T = 5、wpe 为 (4,3) 时的 embed"),
                                  lesson::tr("an error (there is no position 4)", "一个错误（没有位置 4）"),
                                  lesson::tr("it returned normally", "它正常返回了"),
                                  lesson::tr("wpe has rows for positions 0..3 only, and your embed gave a result for position 4 "
                                             "all the same: read past wpe's end, or a position clamped or wrapped into 0..3; "
                                             "pg::embedding(wpe, pg::arange(T)) and pg::slice(wpe, 0, 0, T) both throw when T is "
                                             "past wpe's rows",
                                             "wpe 只有位置 0..3 的行，你的 embed 却照样给出了位置 4 的结果：要么越过 wpe 的末尾去读了，"
                                             "要么把位置限制在了 0..3 之内（截到最后一行，或者取模）；T 超出 wpe 的行数时，pg::embedding(wpe, pg::arange(T)) "
                                             "和 pg::slice(wpe, 0, 0, T) 都会抛出异常"));
    });
    checks.run(lesson::tr("the gradient reaches wte and wpe", "梯度能到达 wte 和 wpe"), [] {
        pg::Generator gen(144);
        pg::Tensor wte = pg::randn({6, 4}, gen, true), wpe = pg::randn({5, 4}, gen, true);
        pg::Tensor ids = pg::tensor({{1.f, 5.f, 1.f}, {0.f, 2.f, 3.f}});
        pg::Tensor r = pg::randn({2, 3, 4}, gen);
        pg::sum(embed_with_library(wte, wpe, ids) * r).backward();
        pg::Tensor want_wte = wte.grad(), want_wpe = wpe.grad();
        wte.zero_grad();
        wpe.zero_grad();
        pg::Tensor x = call_embed(wte, wpe, ids);
        lesson::expect(lesson::tr("embed's result", "embed 的结果"), x.requires_grad(),
                       lesson::tr("a tensor that requires grad", "一个 requires_grad() 为真的张量"),
                       lesson::tr("no gradient history", "没有梯度历史"),
                       lesson::tr("wte and wpe require grad and your x does not: it was built outside the graph (values "
                                  "copied into pg::tensor(values), or a .detach()); build it with pg ops (pg::embedding, "
                                  "pg::slice, +): training must reach wte and wpe through it",
                                  "wte 和 wpe 都需要梯度，你的 x 却不需要：它是在计算图之外构建的（把值复制进了 "
                                  "pg::tensor(values)，或者用了 .detach()）；用 pg 运算（pg::embedding、pg::slice、+）来构建："
                                  "训练必须能穿过它到达 wte 和 wpe"));
        pg::sum(x * r).backward();
        for (auto [name, table] : {std::pair{"wte", wte}, std::pair{"wpe", wpe}})
            lesson::expect(std::string(name) + lesson::tr(" has a gradient", " 有梯度"), table.has_grad(),
                           lesson::tr("a gradient", "有梯度"), lesson::tr("none", "没有"),
                           std::string(name) +
                               lesson::tr(" got no gradient: backward never reached it; use ",
                                          " 没有得到梯度：反向传播从未到达它；请在 pg 运算里直接用 ") +
                               name + lesson::tr(" itself in pg ops, not ", " 本身，而不是 ") + name +
                               lesson::tr(".detach() or a copy of its values", ".detach() 或它的值的副本"));
        lesson::expect_near("wte.grad()", wte.grad(), want_wte, 1e-5,
                            lesson::tr("each id's row of wte collects the gradient of every place the id appears",
                                       "wte 中每个编号的那一行，收集这个编号出现的每一处的梯度"));
        lesson::expect_near("wpe.grad()", wpe.grad(), want_wpe, 1e-5,
                            lesson::tr("row t of wpe collects the gradient of position t in every sequence of the batch; "
                                       "rows T.. get none",
                                       "wpe 的第 t 行收集这一批里每个序列位置 t 的梯度；第 T.. 行什么也得不到"));
    });
    return checks.finish();
}
