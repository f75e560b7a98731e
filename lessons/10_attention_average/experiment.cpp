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

    lesson::section("five positions, one value row each");
    for (size_t t = 0; t < T; ++t)
        std::cout << "  v_" << t << " (" << chars[t] << ") = " << lesson::str(pg::slice(V, 0, t, t + 1), 0) << "\n";
    lesson::show("V", V, 0);

    lesson::section("equal scores: position t takes the plain mean of v_0 .. v_t");
    std::vector<float> w_equal(T * T, 0.f);
    for (size_t t = 0; t < T; ++t)
        for (size_t j = 0; j <= t; ++j) w_equal[t * T + j] = 1.f / static_cast<float>(t + 1);
    pg::Tensor W_equal = pg::tensor(w_equal, {T, T});
    lesson::show("W (row t: 1/(t+1) on positions 0..t, 0 after)", W_equal);
    pg::Tensor running_mean = pg::matmul(W_equal, V);  // (T, T) @ (T, C) -> (T, C)
    lesson::show("W @ V, the running mean", running_mean, 2);
    lesson::confirm("row 4 (晓)", pg::slice(running_mean, 0, 4, 5), pg::tensor({{3.8f, 0.8f}}), 1e-6,
                    "(2+0+1+16+0)/5 and (0+2+1+0+1)/5 by hand");

    lesson::section("softmax scores: 晓 weighs the five positions unequally");
    pg::Tensor s = pg::tensor({2.0f, 0.5f, 1.0f, -1.0f, 1.5f});  // (T): 晓's score for each position
    lesson::show("scores of 晓", s, 1);
    lesson::show("exp(scores)", pg::exp(s));
    lesson::show("sum of exp", pg::sum(pg::exp(s)).item());
    pg::Tensor w = pg::softmax(s, -1);
    lesson::show("weights = softmax(scores)", w);
    lesson::show("sum of weights", pg::sum(w).item());
    pg::Tensor contributions = pg::reshape(w, {T, 1}) * V;  // (T, 1) * (T, C): row j is w_j v_j
    lesson::show("w_j * v_j, one row per position", contributions);
    pg::Tensor out = pg::reshape(pg::matmul(pg::reshape(w, {1, T}), V), {C});  // (1, T) @ (T, C)
    lesson::show("output = sum_j w_j v_j", out);
    lesson::confirm("output", out, pg::sum(contributions, 0), 1e-6, "the sum of the rows above");

    lesson::section("the highest weight does not make the others vanish");
    std::vector<float> wv = w.to_vector();
    std::cout << "  highest weight: " << lesson::num(wv[0]) << " on position 0 (" << chars[0]
              << "); the other four together: " << lesson::num(1.f - wv[0]) << "\n";
    lesson::show("v_0, what picking the top position alone would give", pg::slice(V, 0, 0, 1), 4);
    lesson::show("the attention output", out);
    std::cout << "  sharper scores (k * scores) push weight to the top, but the rest never reaches 0:\n";
    for (float k : {1.f, 2.f, 4.f, 8.f}) {
        pg::Tensor wk = pg::softmax(s * k, -1);
        pg::Tensor ok = pg::reshape(pg::matmul(pg::reshape(wk, {1, T}), V), {C});
        std::cout << "  k = " << k << ": weights " << lesson::str(wk) << ", top " << lesson::num(wk.to_vector()[0])
                  << ", rest " << lesson::num(1.f - wk.to_vector()[0]) << ", output " << lesson::str(ok) << "\n";
    }
    pg::Tensor w8 = pg::softmax(s * 8.f, -1);
    std::cout << "  at k = 8 the smallest weight prints as 0.0000 but is " << sci(w8.to_vector()[3]) << " (觉)\n";

    lesson::section("what the weights say: a convex mix, decided by score differences");
    pg::Tensor lo = pg::neg(pg::max(pg::neg(V), 0)), hi = pg::max(V, 0);
    std::cout << "  weights >= 0 and sum to 1, so each output column lies between the column's smallest and "
                 "largest value:\n  smallest "
              << lesson::str(lo, 0) << ", output " << lesson::str(out) << ", largest " << lesson::str(hi, 0) << "\n";
    float shift = max_abs_diff(pg::softmax(s + 10.f, -1), w);
    std::cout << "  softmax(scores + 10) - softmax(scores): max difference " << lesson::num(shift) << "\n";
    lesson::confirm("shifted weights", shift, 0.0, 1e-6, "softmax depends only on score differences");

    lesson::section("what the weights do not say: how far each position moves the output");
    std::cout << "  position  weight   |w_j v_j|\n";
    for (size_t j = 0; j < T; ++j) {
        pg::Tensor c = pg::slice(contributions, 0, j, j + 1);
        float norm = std::sqrt(pg::sum(c * c).item());
        std::cout << "  " << j << " " << chars[j] << "      " << lesson::num(wv[j]) << "   " << lesson::num(norm) << "\n";
    }
    std::cout << "  觉 has the smallest weight but, its value being large, moves the output more than 眠 or 不\n";

    lesson::section("earlier positions only: position t averages v_0 .. v_t with softmax weights");
    // entries above the diagonal (9) are scores for later positions: they are never read
    pg::Tensor S = pg::tensor({{0.0f, 9.f, 9.f, 9.f, 9.f},
                               {1.0f, 0.0f, 9.f, 9.f, 9.f},
                               {0.5f, -0.5f, 1.0f, 9.f, 9.f},
                               {0.0f, 1.0f, 0.0f, 0.5f, 9.f},
                               {2.0f, 0.5f, 1.0f, -1.0f, 1.5f}});  // (T, T)
    lesson::show("S, scores[t][j] for query t and key j", S, 1);
    std::vector<float> w_past;
    for (size_t t = 0; t < T; ++t) {
        std::vector<float> row = past_weights(S, t);
        w_past.insert(w_past.end(), row.begin(), row.end());
    }
    pg::Tensor W = pg::tensor(w_past, {T, T});
    lesson::show("W, softmax of each row over positions 0..t", W);
    lesson::show("row sums", pg::sum(W, -1));
    pg::Tensor Y = pg::matmul(W, V);  // (T, C)
    lesson::show("W @ V, one output row per position", Y);
    lesson::confirm("row 0", pg::slice(Y, 0, 0, 1), pg::slice(V, 0, 0, 1), 0.0, "v_0 itself: 春 sees only itself");
    lesson::confirm("row 4", pg::slice(Y, 0, 4, 5), pg::reshape(out, {1, C}), 1e-6, "晓's output above");

    lesson::section("the picture: weights.svg, both weight matrices, query t by key j");
    std::vector<std::string> labels(chars, chars + T);
    std::vector<std::vector<bool>> later(T, std::vector<bool>(T));   // j > t: a later position, weight 0
    for (size_t t = 0; t < T; ++t)
        for (size_t j = t + 1; j < T; ++j) later[t][j] = true;
    svg::Heatmap equal_map;
    equal_map.title = "equal scores: the running mean";
    equal_map.values = svg::rows_of(W_equal);
    equal_map.row_labels = equal_map.col_labels = labels;
    equal_map.row_axis = "query t", equal_map.col_axis = "key j";
    equal_map.decimals = 4;
    equal_map.masked = later;
    equal_map.cell = 56;
    svg::Heatmap softmax_map = equal_map;
    softmax_map.title = "softmax of each row of S over j = 0..t";
    softmax_map.values = svg::rows_of(W);
    svg::HeatmapCounts drawn;
    const svg::Output file = svg::in_lesson_folder(__FILE__, "weights.svg");
    svg::write_file(file.path, svg::heatmaps({equal_map, softmax_map},
                                             "Attention weights of 春眠不觉晓: row t averages the values of keys 0..t "
                                             "(grey: a later key, weight 0)", 0, &drawn));
    std::map<std::string, size_t> read = svg::check_file(file.path);
    std::cout << "wrote " << file.shown << ": " << drawn.maps << " maps of " << T << " x " << T << ", " << drawn.numbers
              << " weights written in their cells, read back well-formed with " << read["rect"] << " <rect> and "
              << read["text"] << " <text>\n";
    lesson::confirm("<rect> in weights.svg", static_cast<double>(read["rect"]), static_cast<double>(drawn.rects()), 0.0,
                    "a background, a border per map, a cell each");
    lesson::confirm("<text> in weights.svg", static_cast<double>(read["text"]), static_cast<double>(drawn.texts(true)),
                    0.0, "titles, axis names, labels, the weights on and below the diagonal");
}

int main() { return lesson::run_experiment(run); }
