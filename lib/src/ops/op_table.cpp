// The op table's entries (op_table.hpp), one row per op, in Op order: `gy` is dL/dy, `y` the op's
// output, "↓" summed back to the input's shape over broadcast dims (sum_to), Σ_j a sum along the
// op's dim. The table is checked at compile time: one row per Op, in order.
#include "op_table.hpp"
#include <array>
#include <stdexcept>
#include <string>
#include "pg/ops.hpp"

namespace pg::detail {

namespace {

constexpr size_t kMany = 1 << 20;   // concat: any number of inputs
constexpr size_t kOps = static_cast<size_t>(Op::count);

constexpr std::array<OpInfo, kOps> kTable{{
    {Op::add, "add", 2, 2, "a, b", "↓ gy, ↓ gy", "elementwise.cpp"},
    {Op::sub, "sub", 2, 2, "a, b", "↓ gy, ↓ −gy", "elementwise.cpp"},
    {Op::mul, "mul", 2, 2, "a, b", "↓ gy·b, ↓ gy·a", "elementwise.cpp"},
    {Op::div, "div", 2, 2, "a, b", "↓ gy / b, ↓ −gy·y / b (= −gy·a / b²)", "elementwise.cpp"},
    {Op::neg, "neg", 1, 1, "a", "−gy", "elementwise.cpp"},
    {Op::pow, "pow", 1, 1, "x (p fixed)", "gy·p·x^(p−1); 0 when p = 0", "unary.cpp"},
    {Op::exp, "exp", 1, 1, "x", "gy·y", "unary.cpp"},
    {Op::log, "log", 1, 1, "x", "gy / x", "unary.cpp"},
    {Op::sqrt, "sqrt", 1, 1, "x", "gy / (2y)", "unary.cpp"},
    {Op::tanh, "tanh", 1, 1, "x", "gy·(1 − y²)", "unary.cpp"},
    {Op::sigmoid, "sigmoid", 1, 1, "x", "gy·y·(1 − y)", "unary.cpp"},
    {Op::relu, "relu", 1, 1, "x", "gy where x > 0, else 0", "unary.cpp"},
    {Op::gelu, "gelu", 1, 1, "x (tanh approx.)",
     "gy·(s + 2x·s(1 − s)·u′), s = σ(2u) = ½(1 + tanh u), u = √(2/π)(x + 0.044715x³), u′ = √(2/π)(1 + 0.134145x²)",
     "unary.cpp"},
    {Op::sum, "sum", 1, 1, "x (dim d, or all)", "gy copied along d (all: to every element)", "reduce.cpp"},
    {Op::mean, "mean", 1, 1, "x (dim d, or all)", "gy / n copied along d, n = size of d (all: numel)", "reduce.cpp"},
    {Op::max, "max", 1, 1, "x (dim d, or all)", "gy at the first maximum along d, 0 elsewhere", "reduce.cpp"},
    {Op::reshape, "reshape", 1, 1, "x", "gy with x's shape", "shape_ops.cpp"},
    {Op::permute, "permute", 1, 1, "x (and transpose)", "gy permuted by the inverse permutation", "shape_ops.cpp"},
    {Op::slice, "slice", 1, 1, "x (and chunk)", "gy placed at [start, end) along d, 0 elsewhere", "shape_ops.cpp"},
    {Op::index_select, "index_select", 1, 1, "x (ids: none)", "dx[.., ids[k], ..] += gy[.., k, ..] (repeated ids add up)",
     "shape_ops.cpp"},
    {Op::concat, "concat", 1, kMany, "each xᵢ", "its own block of gy along d", "shape_ops.cpp"},
    {Op::matmul, "matmul", 2, 2, "a, b", "↓ gy @ bᵀ, ↓ aᵀ @ gy (summed over broadcast batch dims)", "matmul.cpp"},
    {Op::linear, "linear", 2, 3, "x, w, b", "gy @ w, gyᵀ @ x (over all rows), Σ_rows gy", "matmul.cpp"},
    {Op::softmax, "softmax", 1, 1, "x", "y·(gy − Σ_j gy_j·y_j) along d", "nn_ops.cpp"},
    {Op::log_softmax, "log_softmax", 1, 1, "x", "gy − e^y·Σ_j gy_j along d", "nn_ops.cpp"},
    {Op::masked_fill, "masked_fill", 1, 1, "x (mask: none)", "gy where mask = 0, else 0", "nn_ops.cpp"},
    {Op::cross_entropy, "cross_entropy", 1, 1, "logits (targets: none)",
     "row r: (softmax(logits_r) − onehot(t_r))·gy / count; ignored rows 0", "nn_ops.cpp"},
    {Op::embedding, "embedding", 1, 1, "weight (ids: none)", "dW[ids[k]] += gy[k] (scatter-add)", "nn_ops.cpp"},
    {Op::layer_norm, "layer_norm", 3, 3, "x, w, b",
     "rstd·(g − mean(g) − x̂·mean(g·x̂)) with g = gy·w, x̂ = (x − mean)·rstd; Σ_rows gy·x̂; Σ_rows gy", "nn_ops.cpp"},
    {Op::dropout, "dropout", 1, 1, "x",
     "gy·keep, the forward's own mask (keep = 1/(1 − p) where kept, 0 where dropped)", "nn_ops.cpp"},
}};

constexpr bool in_op_order() {
    for (size_t i = 0; i < kOps; ++i)
        if (static_cast<size_t>(kTable[i].op) != i) return false;
    return true;
}
static_assert(in_op_order(), "the op table has one row per Op, in the order of the enum");

}  // namespace

const OpInfo& info(Op op) { return kTable[static_cast<size_t>(op)]; }

const std::vector<OpInfo>& op_table() {
    static const std::vector<OpInfo> all(kTable.begin(), kTable.end());
    return all;
}

std::string derivative_table_markdown() {
    std::string out = "| op | input | gradient | file |\n|---|---|---|---|\n";
    std::string linked;   // each file is a link the first time it appears
    for (const OpInfo& o : kTable) {
        std::string file = o.file;
        if (linked.find("|" + file + "|") == std::string::npos) {
            linked += "|" + file + "|";
            file = "[" + file + "](../lib/src/ops/" + file + ")";
        }
        out += std::string("| ") + o.name + " | " + o.inputs + " | " + o.gradient + " | " + file + " |\n";
    }
    return out;
}

}  // namespace pg::detail

namespace pg {

const std::vector<std::string>& op_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> all;
        for (const detail::OpInfo& o : detail::op_table()) all.push_back(o.name);
        return all;
    }();
    return names;
}

}  // namespace pg
