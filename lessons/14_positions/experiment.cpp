// Lesson 14 experiment: self-attention with no position information cannot tell 春眠不觉晓 from
// 眠春不觉晓 (permute the rows in, the same rows come out permuted); adding learned position
// embeddings wte[id] + wpe[t], as the GPT does, breaks that symmetry.
#include <algorithm>
#include <cmath>
#include <iostream>
#include "lesson.hpp"

static const char* kChars[5] = {"春", "眠", "不", "觉", "晓"};  // ids 0..4

// One head of self-attention with no mask: softmax(q k^T / sqrt(C)) v.  x (T,C) -> (T,C)
static pg::Tensor attend(const pg::nn::Linear& qkv, const pg::Tensor& x) {
    std::vector<pg::Tensor> parts = pg::chunk(qkv.forward(x), 3, -1);  // q, k, v each (T,C)
    float scale = 1.f / std::sqrt(static_cast<float>(x.size(-1)));
    pg::Tensor weights = pg::softmax(pg::matmul(parts[0], pg::transpose(parts[1], 0, 1)) * scale, -1);  // (T,T)
    return pg::matmul(weights, parts[2]);
}

static float max_abs_diff(const pg::Tensor& a, const pg::Tensor& b) {
    std::vector<float> va = a.to_vector(), vb = b.to_vector();
    float m = 0.f;
    for (size_t i = 0; i < va.size(); ++i) m = std::max(m, std::fabs(va[i] - vb[i]));
    return m;
}

static pg::Tensor row(const pg::Tensor& x, long t) { return pg::slice(x, 0, t, t + 1); }

static std::string text_of(const pg::Tensor& ids) {
    std::string s;
    for (float id : ids.to_vector()) s += kChars[static_cast<size_t>(id)];
    return s;
}

// For each position t: the character in each sequence and max |a[t] - b[t]|.
static void compare_rows(const pg::Tensor& ids_a, const pg::Tensor& a, const pg::Tensor& ids_b, const pg::Tensor& b) {
    for (long t = 0; t < static_cast<long>(a.size(0)); ++t) {
        std::cout << lesson::tr("  position ", "  位置 ") << t << lesson::tr(" (", "（") << kChars[static_cast<size_t>(ids_a.to_vector()[t])] << " / "
                  << kChars[static_cast<size_t>(ids_b.to_vector()[t])]
                  << lesson::tr("): max |difference| = ", "）：最大 |差| = ") << lesson::num(max_abs_diff(row(a, t), row(b, t))) << "\n";
    }
}

static void run() {
    const size_t V = 5, T = 5, C = 4;
    pg::Generator gen(14);
    pg::nn::Embedding wte(V, C, gen);        // (V,C): one learned vector per character
    pg::nn::Linear qkv(C, 3 * C, true, gen);  // C -> 3C, split into q, k, v
    pg::Tensor ids_a = pg::tensor({0.f, 1.f, 2.f, 3.f, 4.f});  // 春眠不觉晓 (T)
    pg::Tensor ids_b = pg::tensor({1.f, 0.f, 2.f, 3.f, 4.f});  // 眠春不觉晓: the first two swapped

    lesson::section(lesson::tr("no positions: x[t] = wte[id_t]", "没有位置：x[t] = wte[id_t]"));
    std::cout << "a = " << text_of(ids_a) << lesson::tr(", b = ", "，b = ") << text_of(ids_b) << "\n";
    pg::Tensor x_a = wte.forward(ids_a), x_b = wte.forward(ids_b);  // (T,C)
    lesson::show("x_a = wte(" + text_of(ids_a) + ")", x_a);
    lesson::show("x_b = wte(" + text_of(ids_b) + ")", x_b);
    pg::Tensor y_a = attend(qkv, x_a), y_b = attend(qkv, x_b);
    lesson::show("y_a = attend(x_a)", y_a);
    lesson::show("y_b = attend(x_b)", y_b);
    std::cout << lesson::tr("row by row, a against b:\n", "逐行比较 a 与 b：\n");
    compare_rows(ids_a, y_a, ids_b, y_b);
    float tail_diff = max_abs_diff(pg::slice(y_a, 0, 2, 5), pg::slice(y_b, 0, 2, 5));
    lesson::confirm(lesson::tr("rows 2..4 (不觉晓)", "第 2..4 行（不觉晓）"), tail_diff, 0.0, 1e-6, lesson::tr("不觉晓 get the same output in both orders", "两种顺序下不觉晓得到同样的输出"));
    float moved_diff = std::max(max_abs_diff(row(y_b, 0), row(y_a, 1)), max_abs_diff(row(y_b, 1), row(y_a, 0)));
    std::cout << lesson::tr("眠's row in b against 眠's row in a, and the same for 春:\n", "b 中眠的那一行对 a 中眠的那一行，春也一样：\n");
    lesson::confirm(lesson::tr("swapped rows", "对调的行"), moved_diff, 0.0, 1e-6, lesson::tr("the two rows are swapped, not changed", "两行只是对调了，没有改变"));

    lesson::section(lesson::tr("any permutation P: attend(P x) = P attend(x)", "任意置换 P：attend(P x) = P attend(x)"));
    pg::Tensor perm = pg::tensor({4.f, 2.f, 0.f, 3.f, 1.f});  // new row i is old row perm[i]
    std::cout << lesson::tr("P x reads ", "P x 读作 ") << text_of(pg::index_select(ids_a, 0, perm)) << "\n";
    pg::Tensor y_of_px = attend(qkv, pg::index_select(x_a, 0, perm));
    pg::Tensor p_of_y = pg::index_select(y_a, 0, perm);
    lesson::show("attend(P x)", y_of_px);
    lesson::show("P attend(x)", p_of_y);
    float equivariance_gap = max_abs_diff(y_of_px, p_of_y);
    lesson::show("max |attend(P x) - P attend(x)|", equivariance_gap);
    lesson::confirm(lesson::tr("equivariance", "等变性"), equivariance_gap, 0.0, 1e-6, lesson::tr("permutation-equivariant (seed 000 §4)", "对置换等变（源文章 000 §4）"));

    lesson::section(lesson::tr("the causal mask alone: the library's CausalSelfAttention, no positions", "只有因果掩码：库里的 CausalSelfAttention，没有位置"));
    pg::nn::CausalSelfAttention causal(C, 1, 0.f, gen);
    pg::Tensor c_a = pg::reshape(causal.forward(pg::reshape(x_a, {1, T, C})), {T, C});  // (1,T,C) -> (T,C)
    pg::Tensor c_b = pg::reshape(causal.forward(pg::reshape(x_b, {1, T, C})), {T, C});
    std::cout << lesson::tr("row by row, a against b:\n", "逐行比较 a 与 b：\n");
    compare_rows(ids_a, c_a, ids_b, c_b);
    std::cout << lesson::tr("春 alone (a, position 0) against 春 after 眠 (b, position 1): max |difference| = ",
                             "单独的春（a，位置 0）对眠之后的春（b，位置 1）：最大 |差| = ")
              << lesson::num(max_abs_diff(row(c_a, 0), row(c_b, 1))) << "\n";
    lesson::confirm(lesson::tr("causal rows 2..4", "因果注意力的第 2..4 行"), max_abs_diff(pg::slice(c_a, 0, 2, 5), pg::slice(c_b, 0, 2, 5)), 0.0, 1e-6,
                    lesson::tr("不 sees {春, 眠, 不} in either order: the same output", "两种顺序下不都看见 {春, 眠, 不}：输出相同"));

    lesson::section(lesson::tr("learned positions: x[t] = wte[id_t] + wpe[t]", "学到的位置：x[t] = wte[id_t] + wpe[t]"));
    pg::nn::Embedding wpe(T, C, gen);  // (T,C): one learned vector per position
    pg::Tensor positions = pg::arange(T);  // 0, 1, ..., T-1
    lesson::show("wpe", wpe.weight);
    pg::Tensor xp_a = wte.forward(ids_a) + wpe.forward(positions);  // (T,C) + (T,C)
    pg::Tensor xp_b = wte.forward(ids_b) + wpe.forward(positions);
    lesson::show("x_a = wte(" + text_of(ids_a) + ") + wpe(0..4)", xp_a);
    lesson::show("x_b = wte(" + text_of(ids_b) + ") + wpe(0..4)", xp_b);
    std::cout << lesson::tr("春 at position 0 in a and at position 1 in b: max |difference| = ",
                             "春在 a 的位置 0 和 b 的位置 1：最大 |差| = ")
              << lesson::num(max_abs_diff(row(xp_a, 0), row(xp_b, 1))) << "\n";
    pg::Tensor yp_a = attend(qkv, xp_a), yp_b = attend(qkv, xp_b);
    lesson::show("y_a = attend(x_a)", yp_a);
    lesson::show("y_b = attend(x_b)", yp_b);
    std::cout << lesson::tr("row by row, a against b:\n", "逐行比较 a 与 b：\n");
    compare_rows(ids_a, yp_a, ids_b, yp_b);
    float tail_diff_pos = max_abs_diff(pg::slice(yp_a, 0, 2, 5), pg::slice(yp_b, 0, 2, 5));
    lesson::show(lesson::tr("rows 2..4 (不觉晓) now differ by up to", "第 2..4 行（不觉晓）现在最多相差"), tail_diff_pos);
    lesson::expect(lesson::tr("positions break the symmetry", "位置打破了对称"), tail_diff_pos > 1e-3f, lesson::tr("a difference above 1e-3", "差大于 1e-3"),
                   lesson::num(tail_diff_pos), "");
    float gap_pos = max_abs_diff(attend(qkv, pg::index_select(wte.forward(ids_a), 0, perm) + wpe.forward(positions)),
                                 pg::index_select(yp_a, 0, perm));
    lesson::show(lesson::tr("max |attend(wte(P ids) + wpe) - P attend(wte(ids) + wpe)|",
                            "加上位置以后 max |attend(wte(P ids) + wpe) - P attend(wte(ids) + wpe)|"),
                 gap_pos);
    lesson::expect(lesson::tr("no longer equivariant", "不再等变"), gap_pos > 1e-3f, lesson::tr("a difference above 1e-3", "差大于 1e-3"), lesson::num(gap_pos), "");
}

int main() { return lesson::run_experiment(run); }
