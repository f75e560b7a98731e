// Lesson 10 experiment: attention as a weighted average of the values at earlier positions. Equal
// scores give the running mean; softmax scores a weighted one; what the weights say and do not say.
// Draws both weight matrices as heatmaps, 春眠不觉晓 on both axes: weights.svg.
#include <cmath>
#include <cstdio>
#include <iostream>
#include "lesson.hpp"
#include "svg.hpp"

static const char* chars[5] = {"春", "眠", "不", "觉", "晓"};

// The weights of position t: softmax over scores[t][0..t]; later positions get 0. scores (T, T)
static std::vector<float> past_weights(const pg::Tensor& scores, size_t t) {
    size_t T = scores.size(0);
    const float* row = scores.ptr() + t * T;
    float m = row[0], total = 0.f;
    for (size_t j = 1; j <= t; ++j) m = std::max(m, row[j]);
    std::vector<float> w(T, 0.f);
    for (size_t j = 0; j <= t; ++j) total += (w[j] = std::exp(row[j] - m));
    for (size_t j = 0; j <= t; ++j) w[j] /= total;
    return w;
}

// 3.7e-11 style, for weights too small for four decimals
static std::string sci(float x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4e", x);
    return buf;
}

static float max_abs_diff(const pg::Tensor& a, const pg::Tensor& b) {
    float d = 0.f;
    for (size_t i = 0; i < a.numel(); ++i) d = std::max(d, std::fabs(a.ptr()[i] - b.ptr()[i]));
    return d;
}

static void run() {
    const size_t T = 5, C = 2;  // 春眠不觉晓: five positions, each with a value row 2 wide
    pg::Tensor V = pg::tensor({{2.f, 0.f}, {0.f, 2.f}, {1.f, 1.f}, {16.f, 0.f}, {0.f, 1.f}});  // (T, C)

    lesson::section(lesson::tr("five positions, one value row each", "五个位置，每个位置一行值"));
    for (size_t t = 0; t < T; ++t)
        std::cout << "  v_" << t << " (" << chars[t] << ") = " << lesson::str(pg::slice(V, 0, t, t + 1), 0) << "\n";
    lesson::show("V", V, 0);

    lesson::section(lesson::tr("equal scores: position t takes the plain mean of v_0 .. v_t", "分数相等：位置 t 取 v_0 .. v_t 的普通平均"));
    std::vector<float> w_equal(T * T, 0.f);
    for (size_t t = 0; t < T; ++t)
        for (size_t j = 0; j <= t; ++j) w_equal[t * T + j] = 1.f / static_cast<float>(t + 1);
    pg::Tensor W_equal = pg::tensor(w_equal, {T, T});
    lesson::show(lesson::tr("W (row t: 1/(t+1) on positions 0..t, 0 after)", "W（行 t：位置 0..t 上是 1/(t+1)，之后是 0）"), W_equal);
    pg::Tensor running_mean = pg::matmul(W_equal, V);  // (T, T) @ (T, C) -> (T, C)
    lesson::show(lesson::tr("W @ V, the running mean", "W @ V，即累计平均"), running_mean, 2);
    lesson::confirm("row 4 (晓)", pg::slice(running_mean, 0, 4, 5), pg::tensor({{3.8f, 0.8f}}), 1e-6,
                    lesson::tr("(2+0+1+16+0)/5 and (0+2+1+0+1)/5 by hand", "手算的 (2+0+1+16+0)/5 和 (0+2+1+0+1)/5"));

    lesson::section(lesson::tr("softmax scores: 晓 weighs the five positions unequally", "softmax 分数：晓 给五个位置的权重各不相同"));
    pg::Tensor s = pg::tensor({2.0f, 0.5f, 1.0f, -1.0f, 1.5f});  // (T): 晓's score for each position
    lesson::show(lesson::tr("scores of 晓", "晓 的分数"), s, 1);
    lesson::show("exp(scores)", pg::exp(s));
    lesson::show(lesson::tr("sum of exp", "exp 之和"), pg::sum(pg::exp(s)).item());
    pg::Tensor w = pg::softmax(s, -1);
    lesson::show(lesson::tr("weights = softmax(scores)", "权重 = softmax(scores)"), w);
    lesson::show(lesson::tr("sum of weights", "权重之和"), pg::sum(w).item());
    pg::Tensor contributions = pg::reshape(w, {T, 1}) * V;  // (T, 1) * (T, C): row j is w_j v_j
    lesson::show(lesson::tr("w_j * v_j, one row per position", "w_j * v_j，每个位置一行"), contributions);
    pg::Tensor out = pg::reshape(pg::matmul(pg::reshape(w, {1, T}), V), {C});  // (1, T) @ (T, C)
    lesson::show(lesson::tr("output = sum_j w_j v_j", "输出 = sum_j w_j v_j"), out);
    lesson::confirm("output", out, pg::sum(contributions, 0), 1e-6, lesson::tr("the sum of the rows above", "上面各行之和"));

    lesson::section(lesson::tr("the highest weight does not make the others vanish", "最高的权重并不会让其余位置消失"));
    std::vector<float> wv = w.to_vector();
    std::cout << lesson::tr("  highest weight: ", "  最高的权重：") << lesson::num(wv[0])
              << lesson::tr(" on position 0 (", "，在位置 0（") << chars[0]
              << lesson::tr("); the other four together: ", "）；其余四个加起来：") << lesson::num(1.f - wv[0]) << "\n";
    lesson::show(lesson::tr("v_0, what picking the top position alone would give", "v_0，只挑权重最高的位置会得到的结果"), pg::slice(V, 0, 0, 1), 4);
    lesson::show(lesson::tr("the attention output", "注意力的输出"), out);
    std::cout << lesson::tr("  sharper scores (k * scores) push weight to the top, but the rest never reaches 0:",
                            "  更尖锐的分数（k * scores）把权重推向最高者，但其余的永远到不了 0：")
              << "\n";
    for (float k : {1.f, 2.f, 4.f, 8.f}) {
        pg::Tensor wk = pg::softmax(s * k, -1);
        pg::Tensor ok = pg::reshape(pg::matmul(pg::reshape(wk, {1, T}), V), {C});
        std::cout << "  k = " << k << lesson::tr(": weights ", "：权重 ") << lesson::str(wk) << lesson::tr(", top ", "，最高 ")
                  << lesson::num(wk.to_vector()[0]) << lesson::tr(", rest ", "，其余 ") << lesson::num(1.f - wk.to_vector()[0])
                  << lesson::tr(", output ", "，输出 ") << lesson::str(ok) << "\n";
    }
    pg::Tensor w8 = pg::softmax(s * 8.f, -1);
    std::cout << lesson::tr("  at k = 8 the smallest weight prints as 0.0000 but is ", "  k = 8 时最小的权重打印出来是 0.0000，其实是 ")
              << sci(w8.to_vector()[3]) << lesson::tr(" (觉)", "（觉）") << "\n";

    lesson::section(lesson::tr("what the weights say: a convex mix, decided by score differences", "权重说明了什么：一个凸组合，由分数之差决定"));
    pg::Tensor lo = pg::neg(pg::max(pg::neg(V), 0)), hi = pg::max(V, 0);
    std::cout << lesson::tr("  weights >= 0 and sum to 1, so each output column lies between the column's smallest and "
                            "largest value:\n  smallest ",
                            "  权重 >= 0 且和为 1，所以输出的每一列都落在这一列的最小值和最大值之间：\n  最小 ")
              << lesson::str(lo, 0) << lesson::tr(", output ", "，输出 ") << lesson::str(out) << lesson::tr(", largest ", "，最大 ")
              << lesson::str(hi, 0) << "\n";
    float shift = max_abs_diff(pg::softmax(s + 10.f, -1), w);
    std::cout << lesson::tr("  softmax(scores + 10) - softmax(scores): max difference ",
                            "  softmax(scores + 10) - softmax(scores)：最大差值 ")
              << lesson::num(shift) << "\n";
    lesson::confirm("shifted weights", shift, 0.0, 1e-6, lesson::tr("softmax depends only on score differences", "softmax 只取决于分数之差"));

    lesson::section(lesson::tr("what the weights do not say: how far each position moves the output", "权重没有说明什么：每个位置把输出推动了多远"));
    std::cout << lesson::tr("  position  weight   |w_j v_j|", "  位置      权重     |w_j v_j|") << "\n";
    for (size_t j = 0; j < T; ++j) {
        pg::Tensor c = pg::slice(contributions, 0, j, j + 1);
        float norm = std::sqrt(pg::sum(c * c).item());
        std::cout << "  " << j << " " << chars[j] << "      " << lesson::num(wv[j]) << "   " << lesson::num(norm) << "\n";
    }
    std::cout << lesson::tr("  觉 has the smallest weight but, its value being large, moves the output more than 眠 or 不",
                            "  觉 的权重最小，但它的值很大，把输出推得比 眠 或 不 都远")
              << "\n";

    lesson::section(lesson::tr("earlier positions only: position t averages v_0 .. v_t with softmax weights", "只看之前的位置：位置 t 用 softmax 权重对 v_0 .. v_t 求平均"));
    // entries above the diagonal (9) are scores for later positions: they are never read
    pg::Tensor S = pg::tensor({{0.0f, 9.f, 9.f, 9.f, 9.f},
                               {1.0f, 0.0f, 9.f, 9.f, 9.f},
                               {0.5f, -0.5f, 1.0f, 9.f, 9.f},
                               {0.0f, 1.0f, 0.0f, 0.5f, 9.f},
                               {2.0f, 0.5f, 1.0f, -1.0f, 1.5f}});  // (T, T)
    lesson::show(lesson::tr("S, scores[t][j] for query t and key j", "S，查询 t 对键 j 的分数 scores[t][j]"), S, 1);
    std::vector<float> w_past;
    for (size_t t = 0; t < T; ++t) {
        std::vector<float> row = past_weights(S, t);
        w_past.insert(w_past.end(), row.begin(), row.end());
    }
    pg::Tensor W = pg::tensor(w_past, {T, T});
    lesson::show(lesson::tr("W, softmax of each row over positions 0..t", "W，每一行在位置 0..t 上的 softmax"), W);
    lesson::show(lesson::tr("row sums", "各行之和"), pg::sum(W, -1));
    pg::Tensor Y = pg::matmul(W, V);  // (T, C)
    lesson::show(lesson::tr("W @ V, one output row per position", "W @ V，每个位置一行输出"), Y);
    lesson::confirm("row 0", pg::slice(Y, 0, 0, 1), pg::slice(V, 0, 0, 1), 0.0, lesson::tr("v_0 itself: 春 sees only itself", "就是 v_0：春 只看得到自己"));
    lesson::confirm("row 4", pg::slice(Y, 0, 4, 5), pg::reshape(out, {1, C}), 1e-6, lesson::tr("晓's output above", "上面 晓 的输出"));

    lesson::section(lesson::tr("the picture: weights.svg, both weight matrices, query t by key j", "图：weights.zh.svg，两个权重矩阵，查询 t 对键 j"));
    std::vector<std::string> labels(chars, chars + T);
    std::vector<std::vector<bool>> later(T, std::vector<bool>(T));   // j > t: a later position, weight 0
    for (size_t t = 0; t < T; ++t)
        for (size_t j = t + 1; j < T; ++j) later[t][j] = true;
    svg::Heatmap equal_map;
    equal_map.title = lesson::tr("equal scores: the running mean", "分数相等：累计平均");
    equal_map.values = svg::rows_of(W_equal);
    equal_map.row_labels = equal_map.col_labels = labels;
    equal_map.row_axis = lesson::tr("query t", "查询 t"), equal_map.col_axis = lesson::tr("key j", "键 j");
    equal_map.decimals = 4;
    equal_map.masked = later;
    equal_map.cell = 56;
    svg::Heatmap softmax_map = equal_map;
    softmax_map.title = lesson::tr("softmax of each row of S over j = 0..t", "S 每一行在 j = 0..t 上的 softmax");
    softmax_map.values = svg::rows_of(W);
    svg::HeatmapCounts drawn;
    const svg::Output file = svg::in_lesson_folder(__FILE__, lesson::chinese() ? "weights.zh.svg" : "weights.svg");
    svg::write_file(file.path, svg::heatmaps({equal_map, softmax_map},
                                             lesson::tr("Attention weights of 春眠不觉晓: row t averages the values of keys 0..t "
                                                        "(grey: a later key, weight 0)",
                                                        "春眠不觉晓 的注意力权重：行 t 对键 0..t 的值求平均（灰色：之后的键，权重为 0）"),
                                             0, &drawn));
    std::map<std::string, size_t> read = svg::check_file(file.path);
    std::cout << lesson::tr("wrote ", "写出了 ") << file.shown << lesson::tr(": ", "：") << drawn.maps
              << lesson::tr(" maps of ", " 张 ") << T << " x " << T << lesson::tr(", ", " 的图，") << drawn.numbers
              << lesson::tr(" weights written in their cells, read back well-formed with ", " 个权重写在格子里，读回来格式正确，有 ")
              << read["rect"] << lesson::tr(" <rect> and ", " 个 <rect> 和 ") << read["text"] << lesson::tr(" <text>", " 个 <text>")
              << "\n";
    lesson::confirm("<rect> in weights.svg", static_cast<double>(read["rect"]), static_cast<double>(drawn.rects()), 0.0,
                    lesson::tr("a background, a border per map, a cell each", "一个背景、每张图一个边框、每格一个"));
    lesson::confirm("<text> in weights.svg", static_cast<double>(read["text"]), static_cast<double>(drawn.texts(true)),
                    0.0, lesson::tr("titles, axis names, labels, the weights on and below the diagonal", "标题、轴名、标签，以及对角线上和下方的权重"));
}

int main() { return lesson::run_experiment(run); }
