// Lesson 12 experiment: lesson 11's scores with the future hidden, in the order compare, scale, mask,
// softmax, aggregate; what goes wrong with the mask after softmax or with 0 for -inf; the targets
// shifted by one; and the library's attention layer never reading a later position. Draws mask.svg:
// the mask (allowed / -inf) beside the weights it leaves, and the library layer's weights on 春眠不觉.
#include <cmath>
#include <iostream>
#include <limits>
#include "lesson.hpp"
#include "svg.hpp"

static const float minus_inf = -std::numeric_limits<float>::infinity();

static float max_abs_diff(const pg::Tensor& a, const pg::Tensor& b) {
    float d = 0.f;
    for (size_t i = 0; i < a.numel(); ++i) d = std::max(d, std::fabs(a.ptr()[i] - b.ptr()[i]));
    return d;
}

// (T, T) with 1 where key j comes after query i (j > i): the entries to hide.
static pg::Tensor future_mask(size_t T) {
    std::vector<float> m(T * T, 0.f);
    for (size_t i = 0; i < T; ++i)
        for (size_t j = i + 1; j < T; ++j) m[i * T + j] = 1.f;
    return pg::tensor(m, {T, T});
}

// Lesson 11's Q, K, V for input X (T, 2), and causal attention in the right order.
struct Attention {
    pg::Tensor q, k, v, out;
};
static Attention attend(const pg::Tensor& X) {
    pg::Tensor Wq = pg::tensor({{1.f, 1.f}, {0.f, 1.f}}), Wk = pg::tensor({{1.f, 0.f}, {1.f, 1.f}}),
               Wv = pg::tensor({{2.f, 0.f}, {0.f, 1.f}});
    Attention a{pg::matmul(X, Wq), pg::matmul(X, Wk), pg::matmul(X, Wv), pg::Tensor()};
    pg::Tensor s = pg::matmul(a.q, pg::transpose(a.k, 0, 1)) / std::sqrt(2.f);
    a.out = pg::matmul(pg::softmax(pg::masked_fill(s, future_mask(X.size(0)), minus_inf), -1), a.v);
    return a;
}

// The wrong order: softmax over every key, then zero the future weights.
static pg::Tensor mask_after_softmax(const Attention& a) {
    pg::Tensor s = pg::matmul(a.q, pg::transpose(a.k, 0, 1)) / std::sqrt(2.f);
    return pg::matmul(pg::masked_fill(pg::softmax(s, -1), future_mask(a.q.size(0)), 0.f), a.v);
}

static void run() {
    const size_t T = 3;
    pg::Tensor X = pg::tensor({{1.f, 0.f}, {0.f, 1.f}, {1.f, 1.f}});  // seed 002's input, (T, C)
    Attention a = attend(X);

    lesson::section(lesson::tr("lesson 11's Q, K, V (seed 002)", "第 11 课的 Q、K、V（源文章 002）"));
    lesson::show("Q", a.q, 0);
    lesson::show("K", a.k, 0);
    lesson::show("V", a.v, 0);

    lesson::section(lesson::tr("1 compare: Q K^T", "1 比较：Q K^T"));
    pg::Tensor S = pg::matmul(a.q, pg::transpose(a.k, 0, 1));  // (T, T)
    lesson::show("Q K^T", S, 0);
    lesson::section(lesson::tr("2 scale: / sqrt(HS), HS = 2", "2 缩放：/ sqrt(HS)，HS = 2"));
    pg::Tensor scaled = S / std::sqrt(2.f);
    lesson::show(lesson::tr("scaled", "缩放后"), scaled);
    lesson::section(lesson::tr("3 mask: key j after query i gets -inf", "3 掩码：在查询 i 之后的键 j 得到 -inf"));
    pg::Tensor mask = future_mask(T);
    lesson::show(lesson::tr("mask (1 = a later position, hidden)", "掩码（1 = 后面的位置，遮住）"), mask, 0);
    pg::Tensor masked = pg::masked_fill(scaled, mask, minus_inf);
    lesson::show("masked_fill(scaled, mask, -inf)", masked);
    lesson::section(lesson::tr("4 softmax: exp(-inf) = 0, so hidden keys get weight 0 and each row still sums to 1",
                                "4 softmax：exp(-inf) = 0，所以被遮住的键权重为 0，每行之和仍是 1"));
    pg::Tensor W = pg::softmax(masked, -1);
    lesson::show(lesson::tr("weights", "权重"), W);
    lesson::show(lesson::tr("row sums", "每行之和"), pg::sum(W, -1));
    lesson::confirm(lesson::tr("row 1", "第 1 行"), pg::slice(W, 0, 1, 2), pg::tensor({{0.3302f, 0.6698f, 0.f}}), 5e-5,
                    lesson::tr("softmax of [0, 0.7071]: seed 000's weights, swapped", "[0, 0.7071] 的 softmax：源文章 000 的权重，次序对调"));
    lesson::section(lesson::tr("5 aggregate: weights @ V", "5 汇总：权重 @ V"));
    lesson::show(lesson::tr("output", "输出"), a.out);
    lesson::confirm(lesson::tr("row 0", "第 0 行"), pg::slice(a.out, 0, 0, 1), pg::tensor({{2.f, 0.f}}), 0.0,
                    lesson::tr("v_0: position 0 sees only itself", "v_0：位置 0 只看得见自己"));

    lesson::section(lesson::tr("wrong: the mask after softmax", "错误：在 softmax 之后才加掩码"));
    pg::Tensor w_all = pg::softmax(scaled, -1);
    lesson::show(lesson::tr("softmax(scaled) over all three keys", "softmax(scaled)，对全部三个键"), w_all);
    pg::Tensor w_late = pg::masked_fill(w_all, mask, 0.f);
    lesson::show(lesson::tr("then the future weights set to 0", "再把未来的权重设为 0"), w_late);
    lesson::show(lesson::tr("row sums: no longer 1", "每行之和：不再是 1"), pg::sum(w_late, -1));
    pg::Tensor out_late = mask_after_softmax(a);
    lesson::show(lesson::tr("output", "输出"), out_late);
    std::cout << lesson::tr("  largest difference from the right output: ", "  与正确输出的最大差：") << lesson::num(max_abs_diff(out_late, a.out)) << "\n";

    lesson::section(lesson::tr("the future leaks: change only position 2's input, [1, 1] -> [0, 2]",
                                "未来泄漏了：只改位置 2 的输入，[1, 1] -> [0, 2]"));
    Attention b = attend(pg::tensor({{1.f, 0.f}, {0.f, 1.f}, {0.f, 2.f}}));
    pg::Tensor out_late_b = mask_after_softmax(b);
    for (long t = 0; t < 2; ++t) {
        auto row = [t](const pg::Tensor& m) { return pg::slice(m, 0, t, t + 1); };
        std::cout << lesson::tr("  position ", "  位置 ") << t
                  << lesson::tr("'s output moves by ", " 的输出：掩码在 softmax 之前时移动 ")
                  << lesson::num(max_abs_diff(row(b.out), row(a.out)))
                  << lesson::tr(" with the mask before softmax, by ", "，掩码在之后时移动 ")
                  << lesson::num(max_abs_diff(row(out_late_b), row(out_late))) << lesson::tr(" with the mask after\n", "\n");
    }
    lesson::confirm(lesson::tr("rows 0-1, mask before softmax", "第 0-1 行，掩码在 softmax 之前"), pg::slice(b.out, 0, 0, 2),
                    pg::slice(a.out, 0, 0, 2), 0.0,
                    lesson::tr("unchanged: a later position cannot reach them", "不变：后面的位置够不着它们"));

    lesson::section(lesson::tr("wrong: 0 instead of -inf before softmax", "错误：softmax 之前填 0 而不是 -inf"));
    pg::Tensor w_zero = pg::softmax(pg::masked_fill(scaled, mask, 0.f), -1);
    lesson::show("softmax(masked_fill(scaled, mask, 0))", w_zero);
    std::cout << lesson::tr("  exp(0) = 1: row 0 still gives the two later positions ", "  exp(0) = 1：第 0 行仍把 ")
              << lesson::num(w_zero.to_vector()[1] + w_zero.to_vector()[2])
              << lesson::tr(" of its weight\n", " 的权重给了后面两个位置\n");

    lesson::section(lesson::tr("not wrong, only wasteful: mask after softmax, then divide by the row sums again",
                                "不算错，只是浪费：softmax 之后加掩码，再除以每行之和"));
    pg::Tensor renormalised = w_late / pg::sum(w_late, -1, true);
    std::cout << lesson::tr("  largest difference from the right weights: ", "  与正确权重的最大差：") << lesson::num(max_abs_diff(renormalised, W)) << "\n";

    lesson::section(lesson::tr("targets shifted by one: 春眠不觉晓", "目标错开一位：春眠不觉晓"));
    const char* vocab[6] = {"<bos>", "春", "眠", "不", "觉", "晓"};
    pg::Tensor ids = pg::tensor({0.f, 1.f, 2.f, 3.f, 4.f, 5.f});  // <bos> then the line, as ids
    pg::Tensor inputs = pg::slice(ids, 0, 0, 5), targets = pg::slice(ids, 0, 1, 6);  // ids[:-1], ids[1:]
    lesson::show("ids", ids, 0);
    lesson::show("inputs = ids[:-1]", inputs, 0);
    lesson::show("targets = ids[1:]", targets, 0);
    std::vector<float> in = inputs.to_vector(), tg = targets.to_vector();
    for (size_t t = 0; t < 5; ++t) {
        std::string seen;
        for (size_t j = 0; j <= t; ++j) seen += vocab[static_cast<size_t>(in[j])];
        std::cout << lesson::tr("  position ", "  位置 ") << t << lesson::tr(" sees ", " 看见 ") << seen
                  << lesson::tr(" and predicts ", "，预测 ") << vocab[static_cast<size_t>(tg[t])] << " = ids[" << t + 1 << "]\n";
    }

    lesson::section(lesson::tr("the library's attention on these inputs: the answer is never in view",
                                "库的注意力处理这些输入：答案永远不在视野里"));
    pg::Generator gen(12);
    pg::nn::Embedding emb(6, 4, gen);
    pg::nn::CausalSelfAttention attn(4, 1, 0.f, gen);  // C = 4, one head, no dropout
    pg::Tensor x = emb.forward(pg::reshape(inputs, {1, 5}));  // (B, T, C) = (1, 5, 4)
    pg::Tensor y = attn.forward(x);
    pg::Tensor att = pg::reshape(attn.last_attention, {5, 5});  // (B, NH, T, T) with B = NH = 1
    lesson::show("attn.last_attention", att);
    std::vector<pg::Tensor> parts = pg::chunk(attn.qkv.forward(x), 3, -1);
    pg::Tensor unmasked = pg::reshape(
        pg::softmax(pg::matmul(parts[0], pg::transpose(parts[1], -2, -1)) / std::sqrt(4.f), -1), {5, 5});
    std::cout << lesson::tr("  weight position t puts on input t+1, its own target: masked / without the mask\n",
                           "  位置 t 放在输入 t+1（它自己的目标）上的权重：有掩码 / 没有掩码\n");
    for (size_t t = 0; t + 1 < 5; ++t)
        std::cout << lesson::tr("  position ", "  位置 ") << t << lesson::tr(": ", "：") << lesson::num(att.to_vector()[t * 5 + t + 1]) << " / "
                  << lesson::num(unmasked.to_vector()[t * 5 + t + 1]) << "\n";
    lesson::confirm(lesson::tr("weights above the diagonal", "对角线以上的权重"), pg::masked_fill(att, future_mask(5), 0.f), att, 0.0,
                    lesson::tr("all 0 in the library's attention", "在库的注意力里全是 0"));

    const std::string file = lesson::chinese() ? "mask.zh.svg" : "mask.svg";
    lesson::section(lesson::tr("the picture: ", "图：") + file);
    auto hidden = [](size_t n) {   // true above the diagonal: the cells the mask hides
        std::vector<std::vector<bool>> h(n, std::vector<bool>(n));
        for (size_t i = 0; i < n; ++i)
            for (size_t j = i + 1; j < n; ++j) h[i][j] = true;
        return h;
    };
    const std::vector<std::string> positions = {"0", "1", "2"};
    svg::Heatmap mask_map;
    mask_map.title = lesson::tr("1. the mask: key j > query i gets -inf", "1. 掩码：键 j > 查询 i 时得 -inf");
    mask_map.values = svg::rows_of(pg::zeros({T, T}));
    mask_map.row_labels = mask_map.col_labels = positions;
    mask_map.row_axis = lesson::tr("query i", "查询 i"), mask_map.col_axis = lesson::tr("key j", "键 j");
    mask_map.masked = hidden(T);
    mask_map.cell = 62;
    for (size_t i = 0; i < T; ++i) {
        mask_map.cell_text.emplace_back();
        for (size_t j = 0; j < T; ++j) mask_map.cell_text[i].push_back(j > i ? std::string("\u2212\u221e") : lesson::tr("allowed", "可见"));
    }
    svg::Heatmap weight_map = mask_map;
    weight_map.title = lesson::tr("2. softmax(masked scores): the weights", "2. softmax(掩码后的分数)：权重");
    weight_map.values = svg::rows_of(W);
    weight_map.cell_text.clear();
    weight_map.decimals = 4;
    for (size_t i = 0; i < T; ++i) {
        weight_map.cell_text.emplace_back();
        for (size_t j = 0; j < T; ++j) weight_map.cell_text[i].push_back(lesson::num(W.to_vector()[i * T + j], 4));
    }
    svg::Heatmap library_map;
    library_map.title = lesson::tr("3. CausalSelfAttention on <bos>\u6625\u7720\u4e0d\u89c9", "3. CausalSelfAttention 处理 <bos>\u6625\u7720\u4e0d\u89c9");
    library_map.values = svg::rows_of(att);
    library_map.row_labels = library_map.col_labels = {"<bos>", "\u6625", "\u7720", "\u4e0d", "\u89c9"};
    library_map.row_axis = lesson::tr("query t", "查询 t"), library_map.col_axis = lesson::tr("key", "键");
    library_map.masked = hidden(5);
    svg::HeatmapCounts drawn;
    const svg::Output out = svg::in_lesson_folder(__FILE__, file);
    svg::write_file(out.path, svg::heatmaps({mask_map, weight_map, library_map},
                                            lesson::tr("The causal mask: grey cells are hidden (-inf before softmax, weight 0 after)",
                                                       "因果掩码：灰色格子被遮住（softmax 之前是 -inf，之后权重为 0）"),
                                            0, &drawn));
    std::map<std::string, size_t> read = svg::check_file(out.path);
    std::cout << lesson::tr("wrote ", "写出 ") << out.shown << lesson::tr(": ", "：") << drawn.maps << lesson::tr(" maps, ", " 张图，")
              << drawn.cells << lesson::tr(" cells (", " 个格子（") << drawn.masked
              << lesson::tr(" hidden, grey), read back well-formed with ", " 个被遮住，灰色），读回来格式正确，有 ") << read["rect"]
              << lesson::tr(" <rect> and ", " 个 <rect> 和 ") << read["text"] << lesson::tr(" <text>\n", " 个 <text>\n");
    lesson::confirm("<rect> in " + file, static_cast<double>(read["rect"]), static_cast<double>(drawn.rects()), 0.0,
                    lesson::tr("a background, a border per map, a cell each", "一个背景，每张图一个边框，每个格子一个"));
    lesson::confirm("<text> in " + file, static_cast<double>(read["text"]), static_cast<double>(drawn.texts(true)), 0.0,
                    lesson::tr("titles, axis names, labels, cell values", "标题、轴名、标签、格子里的数"));

    lesson::section(lesson::tr("the library's attention: changing the last input moves only the last output",
                                "库的注意力：改动最后一个输入，只有最后一个输出会动"));
    pg::Tensor x2 = x.detach();
    float* last = x2.mutable_data().data() + 4 * 4;  // position 4's four channels
    for (size_t c = 0; c < 4; ++c) last[c] += 1.f;
    pg::Tensor y2 = attn.forward(x2);
    std::cout << lesson::tr("  positions 0-3 move by ", "  位置 0-3 移动 ") << lesson::num(max_abs_diff(pg::slice(y2, 1, 0, 4), pg::slice(y, 1, 0, 4)))
              << lesson::tr(", position 4 by ", "，位置 4 移动 ") << lesson::num(max_abs_diff(pg::slice(y2, 1, 4, 5), pg::slice(y, 1, 4, 5))) << "\n";
    lesson::confirm(lesson::tr("positions 0-3", "位置 0-3"), pg::slice(y2, 1, 0, 4), pg::slice(y, 1, 0, 4), 0.0,
                    lesson::tr("unchanged", "不变"));
}

int main() { return lesson::run_experiment(run); }
