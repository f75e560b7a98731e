// Every op and a few compositions against PyTorch: the fixtures in tests/reference/ops/ (written
// by tools/reference/make_op_fixtures.py) hold inputs, out = f(inputs) and the gradients of
// sum(out * r); this file holds the same cases as C++ lambdas, matched by name.
// Leaves out: dropout's mask (PyTorch's generator is not ours; only its scaling is compared).
#include "catch.hpp"
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <set>
#include <sstream>
#include "fixture.hpp"

namespace {

using Inputs = std::vector<pg::Tensor>;
using Fn = std::function<pg::Tensor(const Inputs&)>;

// Tolerance: pass when |ours - PyTorch| <= kRelative * (|PyTorch| + kFloor). The fixtures are
// float64 answers rounded once to float32, so the difference is poetgrad's own float32 rounding.
// kFloor makes values below 0.01 in size (gradients that nearly cancel) need only agree within
// an absolute 1e-6, about ten float32 roundings of the order-one terms that produce them.
constexpr double kRelative = 1e-4;
constexpr double kFloor = 1e-2;

pg::Tensor causal_attention(const Inputs& in) {
    // x (B,T,C) = (2,4,8), NH = 2, HS = 4; in[5] is the (T,T) mask, 1 where attending is forbidden
    const pg::Tensor &x = in[0], &mask = in[5];
    size_t B = x.size(0), T = x.size(1), C = x.size(2), NH = 2, HS = C / NH;
    std::vector<pg::Tensor> qkv = pg::chunk(pg::linear(x, in[1], in[2]), 3, -1);  // 3 x (B,T,C)
    for (pg::Tensor& t : qkv) t = pg::transpose(pg::reshape(t, {B, T, NH, HS}), 1, 2);  // (B,NH,T,HS)
    pg::Tensor att = pg::matmul(qkv[0], pg::transpose(qkv[1], -2, -1)) * (1.f / std::sqrt(float(HS)));
    att = pg::softmax(pg::masked_fill(att, mask, -INFINITY), -1);  // (B,NH,T,T)
    pg::Tensor y = pg::reshape(pg::transpose(pg::matmul(att, qkv[2]), 1, 2), {B, T, C});
    return pg::linear(y, in[3], in[4]);
}

pg::Tensor mlp_block(const Inputs& in) {
    pg::Tensor h = pg::layer_norm(in[0], in[1], in[2]);
    return in[0] + pg::linear(pg::gelu(pg::linear(h, in[3], in[4])), in[5], in[6]);
}

pg::Tensor gpt_loss(const Inputs& in) {
    // wte (V,C), wpe (T,C), ids (B,T), pos (T), targets (B,T); logits tied to wte
    pg::Tensor x = pg::embedding(in[0], in[4]) + pg::embedding(in[1], in[5]);  // (B,T,C)
    pg::Tensor logits = pg::linear(pg::layer_norm(x, in[2], in[3]), in[0], pg::Tensor());  // (B,T,V)
    return pg::cross_entropy(pg::reshape_infer(logits, {-1, static_cast<long>(in[0].size(0))}),
                             pg::reshape(in[6], {in[6].numel()}), -100);
}

// The C++ side of every case in make_op_fixtures.py, by the same name.
const std::map<std::string, Fn>& cases() {
    static const std::map<std::string, Fn> table{
        // elementwise, broadcasting, scalar forms
        {"add", [](const Inputs& in) { return in[0] + in[1]; }},
        {"add_row", [](const Inputs& in) { return in[0] + in[1]; }},
        {"add_3d", [](const Inputs& in) { return in[0] + in[1]; }},
        {"add_0d", [](const Inputs& in) { return pg::reshape(in[0], {}) + in[1]; }},  // in0 is stored as (1)
        {"sub", [](const Inputs& in) { return in[0] - in[1]; }},
        {"mul", [](const Inputs& in) { return in[0] * in[1]; }},
        {"mul_self", [](const Inputs& in) { return in[0] * in[0]; }},
        {"mul_const", [](const Inputs& in) { return in[0] * in[1]; }},
        {"div", [](const Inputs& in) { return in[0] / in[1]; }},
        {"div_row", [](const Inputs& in) { return in[0] / in[1]; }},
        {"neg", [](const Inputs& in) { return -in[0]; }},
        {"scalar_forms",
         [](const Inputs& in) {
             const pg::Tensor& x = in[0];
             return (2.f - x) * 3.f + x / 4.f - 1.f + 2.f / (x + 3.f) + 1.5f * x;
         }},
        // unary math
        {"pow_2", [](const Inputs& in) { return pg::pow(in[0], 2.f); }},
        {"pow_3", [](const Inputs& in) { return pg::pow(in[0], 3.f); }},
        {"pow_half", [](const Inputs& in) { return pg::pow(in[0], 0.5f); }},
        {"pow_m1_5", [](const Inputs& in) { return pg::pow(in[0], -1.5f); }},
        {"exp", [](const Inputs& in) { return pg::exp(in[0]); }},
        {"log", [](const Inputs& in) { return pg::log(in[0]); }},
        {"sqrt", [](const Inputs& in) { return pg::sqrt(in[0]); }},
        {"tanh", [](const Inputs& in) { return pg::tanh(in[0]); }},
        {"sigmoid", [](const Inputs& in) { return pg::sigmoid(in[0]); }},
        {"relu", [](const Inputs& in) { return pg::relu(in[0]); }},
        {"gelu", [](const Inputs& in) { return pg::gelu(in[0]); }},
        // reductions
        {"sum_all", [](const Inputs& in) { return pg::sum(in[0]); }},
        {"sum_0", [](const Inputs& in) { return pg::sum(in[0], 0); }},
        {"sum_1_keep", [](const Inputs& in) { return pg::sum(in[0], 1, true); }},
        {"sum_m1", [](const Inputs& in) { return pg::sum(in[0], -1); }},
        {"mean_all", [](const Inputs& in) { return pg::mean(in[0]); }},
        {"mean_0_keep", [](const Inputs& in) { return pg::mean(in[0], 0, true); }},
        {"mean_m2", [](const Inputs& in) { return pg::mean(in[0], -2); }},
        {"max_all", [](const Inputs& in) { return pg::max(in[0]); }},
        {"max_0", [](const Inputs& in) { return pg::max(in[0], 0); }},
        {"max_1", [](const Inputs& in) { return pg::max(in[0], 1); }},
        {"max_m1_keep", [](const Inputs& in) { return pg::max(in[0], -1, true); }},
        // shape
        {"reshape", [](const Inputs& in) { return pg::reshape(in[0], {3, 4}); }},
        {"reshape_infer", [](const Inputs& in) { return pg::reshape_infer(in[0], {-1, 4}); }},
        {"permute", [](const Inputs& in) { return pg::permute(in[0], {2, 0, 1}); }},
        {"transpose", [](const Inputs& in) { return pg::transpose(in[0], -1, -3); }},
        {"slice", [](const Inputs& in) { return pg::slice(in[0], 1, 1, 4); }},
        {"slice_neg", [](const Inputs& in) { return pg::slice(in[0], -1, -2, 3); }},
        {"index_select_0", [](const Inputs& in) { return pg::index_select(in[0], 0, in[1]); }},
        {"index_select_m1", [](const Inputs& in) { return pg::index_select(in[0], -1, in[1]); }},
        {"concat_1", [](const Inputs& in) { return pg::concat(in, 1); }},
        {"concat_m1", [](const Inputs& in) { return pg::concat(in, -1); }},
        {"chunk",
         [](const Inputs& in) {
             std::vector<pg::Tensor> p = pg::chunk(in[0], 3, -1);
             return p[0] * p[2] - p[1];
         }},
        // matrix products
        {"matmul_2d", [](const Inputs& in) { return pg::matmul(in[0], in[1]); }},
        {"matmul_batched", [](const Inputs& in) { return pg::matmul(in[0], in[1]); }},
        {"matmul_bcast", [](const Inputs& in) { return pg::matmul(in[0], in[1]); }},
        {"matmul_bcast_left", [](const Inputs& in) { return pg::matmul(in[0], in[1]); }},
        {"linear", [](const Inputs& in) { return pg::linear(in[0], in[1], in[2]); }},
        {"linear_nobias", [](const Inputs& in) { return pg::linear(in[0], in[1], pg::Tensor()); }},
        {"linear_1d", [](const Inputs& in) { return pg::linear(in[0], in[1], in[2]); }},
        // neural-network ops
        {"softmax_m1", [](const Inputs& in) { return pg::softmax(in[0], -1); }},
        {"softmax_0", [](const Inputs& in) { return pg::softmax(in[0], 0); }},
        {"log_softmax_m1", [](const Inputs& in) { return pg::log_softmax(in[0], -1); }},
        {"log_softmax_1", [](const Inputs& in) { return pg::log_softmax(in[0], 1); }},
        {"masked_fill", [](const Inputs& in) { return pg::masked_fill(in[0], in[1], -5.f); }},
        {"cross_entropy", [](const Inputs& in) { return pg::cross_entropy(in[0], in[1]); }},
        {"cross_entropy_ignore", [](const Inputs& in) { return pg::cross_entropy(in[0], in[1], -100); }},
        {"cross_entropy_ignore_2", [](const Inputs& in) { return pg::cross_entropy(in[0], in[1], 2); }},
        {"embedding", [](const Inputs& in) { return pg::embedding(in[0], in[1]); }},
        {"layer_norm", [](const Inputs& in) { return pg::layer_norm(in[0], in[1], in[2]); }},
        {"layer_norm_1d", [](const Inputs& in) { return pg::layer_norm(in[0], in[1], in[2]); }},
        // compositions
        {"broadcast_mix", [](const Inputs& in) { return pg::sum((in[0] * in[1] + in[2]) / in[3], 1, true); }},
        {"attention", causal_attention},
        {"mlp_block", mlp_block},
        {"gpt_loss", gpt_loss},
    };
    return table;
}

// The worst element by |ours - ref| / (|ref| + kFloor), for the failure message.
struct Worst {
    double score = 0;
    size_t index = 0;
    float ours = 0, ref = 0;
};

Worst worst_difference(const pg::Tensor& ours, const pg::Tensor& ref) {
    Worst w;
    for (size_t i = 0; i < ref.numel(); ++i) {
        double score = std::fabs(double(ours.ptr()[i]) - ref.ptr()[i]) / (std::fabs(double(ref.ptr()[i])) + kFloor);
        if (std::isnan(score)) score = INFINITY;
        if (i == 0 || score > w.score) w = {score, i, ours.ptr()[i], ref.ptr()[i]};
    }
    return w;
}

// Checks ours against the fixture tensor `what` of case `name`.
void compare(const std::string& name, const std::string& what, pg::Tensor ours, const pg::Tensor& ref) {
    // fixture_io.py stores a 0-d array (a loss, a full sum) as shape (1)
    if (ours.dim() == 0 && ref.shape() == pg::Shape{1}) ours = pg::reshape(ours, {1});
    INFO("case " << name << ", " << what << ": ours " << pg::shape_str(ours.shape()) << ", PyTorch "
                 << pg::shape_str(ref.shape()));
    REQUIRE(ours.shape() == ref.shape());
    Worst w = worst_difference(ours, ref);
    INFO("worst |ours - PyTorch| / (|PyTorch| + " << kFloor << ") = " << w.score << " at element " << w.index
                                                   << ": ours " << w.ours << ", PyTorch " << w.ref);
    CHECK(w.score <= kRelative);
}

// Case names in a fixture file: the part of each tensor name before '/'.
std::set<std::string> case_names(const std::map<std::string, pg::Tensor>& f) {
    std::set<std::string> names;
    for (const auto& kv : f) names.insert(kv.first.substr(0, kv.first.find('/')));
    return names;
}

std::vector<std::string> op_fixture_files() {
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(fixture::path("ops")))
        if (entry.path().extension() == ".bin" && entry.path().stem() != "dropout")
            files.push_back("ops/" + entry.path().filename().string());
    std::sort(files.begin(), files.end());
    return files;
}

// The inputs of a case, each requiring grad when the fixture has its gradient.
Inputs case_inputs(const std::map<std::string, pg::Tensor>& f, const std::string& name) {
    Inputs in;
    for (size_t k = 0;; ++k) {
        auto it = f.find(name + "/in" + std::to_string(k));
        if (it == f.end()) break;
        pg::Tensor t = it->second.detach();
        t.requires_grad_(f.count(name + "/grad" + std::to_string(k)) == 1);
        in.push_back(t);
    }
    return in;
}

}  // namespace

TEST_CASE("every op and composition matches PyTorch: outputs and gradients", "[reference]") {
    std::vector<std::string> files = op_fixture_files();
    REQUIRE(files.size() >= 7);
    std::set<std::string> seen;
    for (const std::string& file : files) {
        auto f = fixture::read(file);
        for (const std::string& name : case_names(f)) {
            INFO("fixture " << file << ", case " << name);
            auto it = cases().find(name);
            REQUIRE(it != cases().end());  // a fixture case with no C++ counterpart
            seen.insert(name);
            Inputs in = case_inputs(f, name);
            pg::Tensor y = it->second(in);
            compare(name, "output", y, fixture::at(f, name + "/out"));
            pg::sum(y * fixture::at(f, name + "/r")).backward();
            for (size_t k = 0; k < in.size(); ++k) {
                if (!in[k].requires_grad()) continue;
                std::string what = "gradient of input " + std::to_string(k);
                REQUIRE(in[k].has_grad());
                compare(name, what, in[k].grad(), fixture::at(f, name + "/grad" + std::to_string(k)));
            }
        }
    }
    for (const auto& kv : cases()) {
        INFO("C++ case " << kv.first << " has no fixture: rerun tools/reference/make_op_fixtures.py");
        CHECK(seen.count(kv.first) == 1);
    }
}

TEST_CASE("dropout scales the kept values by 1/(1-p), as PyTorch does", "[reference]") {
    auto f = fixture::read("ops/dropout.bin");
    pg::Tensor x = fixture::at(f, "dropout/in0").detach().requires_grad_();
    float p = fixture::at(f, "dropout/p").item();
    std::vector<float> xs = x.to_vector(), torch_y = fixture::at(f, "dropout/torch_train").to_vector();
    // PyTorch's kept elements are x * scale; inputs are in [0.5, 1.5), so a dropped one is exactly 0
    float torch_scale = 0;
    for (size_t i = 0; i < xs.size(); ++i)
        if (torch_y[i] != 0.f) torch_scale = torch_y[i] / xs[i];
    REQUIRE(torch_scale == Approx(1.0 / (1.0 - p)).epsilon(1e-6));

    pg::Generator gen(3);
    pg::Tensor y = pg::dropout(x, p, true, gen);
    std::set<std::string> ops;
    for (const std::string& op : pg::ops_in(y)) ops.insert(op);
    CHECK(ops.count("dropout") == 1);
    std::vector<float> ys = y.to_vector();
    size_t kept = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
        if (ys[i] == 0.f) continue;
        ++kept;
        REQUIRE(ys[i] / xs[i] == Approx(torch_scale).epsilon(1e-6));
    }
    // 120 draws with p = 0.25: about 90 kept; 60..115 is more than five standard deviations wide
    CHECK(kept > 60);
    CHECK(kept < 115);
    pg::Tensor g = pg::ones(x.shape());
    y.backward(g);
    std::vector<float> gx = x.grad().to_vector();
    for (size_t i = 0; i < xs.size(); ++i) CHECK(gx[i] == Approx(ys[i] / xs[i]).epsilon(1e-6));
    // eval mode: the identity, as torch.nn.functional.dropout(training=False)
    CHECK(pg::dropout(x, p, false, gen).to_vector() == xs);
}

TEST_CASE("every registered op is covered by a PyTorch fixture", "[reference][coverage]") {
    std::set<std::string> ops;
    for (const std::string& file : op_fixture_files()) {
        auto f = fixture::read(file);
        for (const std::string& name : case_names(f)) {
            auto it = cases().find(name);
            if (it != cases().end())
                for (const std::string& op : pg::ops_in(it->second(case_inputs(f, name)))) ops.insert(op);
        }
    }
    ops.insert("dropout");  // compared by its own TEST_CASE above, which checks its graph records "dropout"
    for (const std::string& op : pg::op_names()) {
        INFO("op '" << op << "' appears in no fixture case");
        CHECK(ops.count(op) == 1);
    }
}
