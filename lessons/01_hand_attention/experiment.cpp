// Lesson 01 experiment: seed 000's 2x2 self-attention, step by step with plain loops, then the
// same four steps with pg ops. Prints every intermediate with its shape; draws the scaled scores and
// the weights as heatmaps, queries by keys: weights.svg (weights.zh.svg, labelled in Chinese, under POET_LANG=zh).
#include <algorithm>
#include <cmath>
#include <iostream>
#include "lesson.hpp"
#include "svg.hpp"

static void run() {
    const size_t T = 2, d_k = 2, d_v = 2;  // 2 positions, keys and values 2 wide
    const float q[T][d_k] = {{1, 0}, {0, 1}};
    const float k[T][d_k] = {{1, 0}, {0, 1}};
    const float v[T][d_v] = {{2, 0}, {0, 4}};

    lesson::section(lesson::tr("seed 000's example: Q = K = [[1,0],[0,1]], V = [[2,0],[0,4]]",
                                "源文章 000 的例子：Q = K = [[1,0],[0,1]]，V = [[2,0],[0,4]]"));
    pg::Tensor Q = pg::tensor({{1.f, 0.f}, {0.f, 1.f}});
    pg::Tensor K = pg::tensor({{1.f, 0.f}, {0.f, 1.f}});
    pg::Tensor V = pg::tensor({{2.f, 0.f}, {0.f, 4.f}});
    lesson::show("Q", Q);
    lesson::show("K", K);
    lesson::show("V", V);

    lesson::section(lesson::tr("step 1, loops: scores[i][j] = q_i . k_j", "第 1 步，循环：scores[i][j] = q_i . k_j"));
    float scores[T][T] = {};
    for (size_t i = 0; i < T; ++i)
        for (size_t j = 0; j < T; ++j)
            for (size_t c = 0; c < d_k; ++c) scores[i][j] += q[i][c] * k[j][c];
    lesson::show("scores", lesson::from_rows({{scores[0][0], scores[0][1]}, {scores[1][0], scores[1][1]}}));

    lesson::section(lesson::tr("step 2, loops: divide by sqrt(d_k)", "第 2 步，循环：除以 sqrt(d_k)"));
    float root = std::sqrt(static_cast<float>(d_k));
    lesson::show("sqrt(d_k)", root);
    for (auto& row : scores)
        for (float& s : row) s /= root;
    lesson::show("scaled", lesson::from_rows({{scores[0][0], scores[0][1]}, {scores[1][0], scores[1][1]}}));

    lesson::section(lesson::tr("step 3, loops: softmax of each row (over the keys)", "第 3 步，循环：对每一行（在所有键上）做 softmax"));
    float w[T][T];
    for (size_t i = 0; i < T; ++i) {
        float m = std::max(scores[i][0], scores[i][1]), total = 0.f;
        std::cout << lesson::tr("row ", "第 ") << i << lesson::tr(": scaled - max = [", " 行：scaled - max = [") << lesson::num(scores[i][0] - m) << ", "
                  << lesson::num(scores[i][1] - m) << "]";
        for (size_t j = 0; j < T; ++j) {
            w[i][j] = std::exp(scores[i][j] - m);  // the row's max subtracted: exp never overflows
            total += w[i][j];
        }
        std::cout << ", exp = [" << lesson::num(w[i][0]) << ", " << lesson::num(w[i][1])
                  << lesson::tr("], sum = ", "]，和 = ") << lesson::num(total) << "\n";
        for (size_t j = 0; j < T; ++j) w[i][j] /= total;
    }
    lesson::show("weights", lesson::from_rows({{w[0][0], w[0][1]}, {w[1][0], w[1][1]}}));

    lesson::section(lesson::tr("step 4, loops: out[i] = sum_j weights[i][j] * v[j]", "第 4 步，循环：out[i] = sum_j weights[i][j] * v[j]"));
    float out[T][d_v] = {};
    for (size_t i = 0; i < T; ++i)
        for (size_t j = 0; j < T; ++j)
            for (size_t d = 0; d < d_v; ++d) out[i][d] += w[i][j] * v[j][d];
    pg::Tensor out_loops = lesson::from_rows({{out[0][0], out[0][1]}, {out[1][0], out[1][1]}});
    lesson::show("out", out_loops);
    pg::Tensor seed_output = pg::tensor({{1.3395f, 1.3210f}, {0.6605f, 2.6790f}});
    lesson::confirm(lesson::tr("loop output", "循环的输出"), out_loops, seed_output, 5e-5, lesson::tr("matches seed 000's output", "与源文章 000 的输出一致"));

    lesson::section(lesson::tr("the same four steps with pg ops", "同样的四步，用 pg 算子"));
    pg::Tensor s = pg::matmul(Q, pg::transpose(K, 0, 1));  // (T, d_k) @ (d_k, T) -> (T, T)
    lesson::show("matmul(Q, transpose(K, 0, 1))", s);
    pg::Tensor scaled = s / std::sqrt(2.f);
    lesson::show("scores / sqrt(2)", scaled);
    pg::Tensor weights = pg::softmax(scaled, -1);  // -1: along each row, over the keys
    lesson::show("softmax(scaled, -1)", weights);
    pg::Tensor out_ops = pg::matmul(weights, V);  // (T, T) @ (T, d_v) -> (T, d_v)
    lesson::show("matmul(weights, V)", out_ops);
    lesson::confirm(lesson::tr("pg ops output", "pg 算子的输出"), out_ops, out_loops, 1e-6, lesson::tr("matches the loops", "与循环一致"));

    const std::string name = lesson::chinese() ? "weights.zh.svg" : "weights.svg";
    lesson::section(lesson::tr("the picture: ", "图：") + name +
                    lesson::tr(", row i = query i, column j = key j", "，第 i 行 = 查询 i，第 j 列 = 键 j"));
    svg::Heatmap score_map;
    score_map.title = lesson::tr("scaled scores q_i . k_j / sqrt(2)", "缩放后的分数 q_i . k_j / sqrt(2)");
    score_map.values = svg::rows_of(scaled);
    score_map.row_labels = {lesson::tr("query 0", "查询 0"), lesson::tr("query 1", "查询 1")};
    score_map.col_labels = {lesson::tr("key 0", "键 0"), lesson::tr("key 1", "键 1")};
    score_map.row_axis = lesson::tr("query i", "查询 i"), score_map.col_axis = lesson::tr("key j", "键 j");
    score_map.decimals = 4;
    score_map.cell = 80;
    svg::Heatmap weight_map = score_map;
    weight_map.title = lesson::tr("weights = softmax of each row", "权重 = 每一行的 softmax");
    weight_map.values = svg::rows_of(weights);
    svg::HeatmapCounts drawn;
    const svg::Output file = svg::in_lesson_folder(__FILE__, name);
    svg::write_file(file.path, svg::heatmaps({score_map, weight_map},
                                             lesson::tr("Seed 000's 2x2 attention: darker = larger (0 to 1)",
                                                        "源文章 000 的 2x2 注意力：越深 = 越大（0 到 1）"),
                                             0, &drawn));
    std::map<std::string, size_t> read = svg::check_file(file.path);
    std::cout << lesson::tr("wrote ", "写出 ") << file.shown << lesson::tr(": ", "：") << drawn.maps
              << lesson::tr(" maps of 2 x 2, ", " 张 2 x 2 的热力图，") << drawn.numbers
              << lesson::tr(" values written in their cells, read back well-formed with ", " 个值写在格子里，读回来格式正确，有 ")
              << read["rect"] << lesson::tr(" <rect> and ", " 个 <rect> 和 ") << read["text"]
              << lesson::tr(" <text>\n", " 个 <text>\n");
    lesson::confirm(lesson::tr("<rect> in ", "<rect> 的个数，") + name, static_cast<double>(read["rect"]),
                    static_cast<double>(drawn.rects()), 0.0,
                    lesson::tr("a background, a border per map, a cell each", "一个背景，每张图一个边框，每格一个"));
    lesson::confirm(lesson::tr("<text> in ", "<text> 的个数，") + name, static_cast<double>(read["text"]),
                    static_cast<double>(drawn.texts(true)), 0.0,
                    lesson::tr("titles, axis names, labels, values", "标题、轴名、标签、数值"));
}

int main() { return lesson::run_experiment(run); }
