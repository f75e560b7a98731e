// Modules: registration order and dotted names, train/eval, zero_grad, parameter counts; each
// layer's forward on known values; attention's causality; the GPT's input checks and init.
// Leaves out: agreement with PyTorch (test_gpt_reference.cpp).
#include "catch.hpp"
#include <cmath>
#include <pg/pg.hpp>

namespace {

// A module with a parameter, a child, and a parameter after the child: order must be kept.
struct Pair : pg::nn::Module {
    pg::nn::Linear first;
    pg::nn::Dropout drop;
    pg::Tensor scale;
    explicit Pair(pg::Generator& gen) : first(2, 3, true, gen), drop(0.5f, gen) {
        register_module("first", first);
        register_module("drop", drop);
        scale = register_parameter("scale", pg::ones({3}));
    }
};

struct Outer : pg::nn::Module {
    pg::Tensor alpha;
    Pair inner;
    explicit Outer(pg::Generator& gen) : inner(gen) {
        alpha = register_parameter("alpha", pg::zeros({1}));
        register_module("inner", inner);
    }
};

pg::nn::GPTConfig small_config() {
    pg::nn::GPTConfig cfg;
    cfg.vocab_size = 11;
    cfg.context = 6;
    cfg.n_layer = 2;
    cfg.n_head = 2;
    cfg.n_embd = 8;
    return cfg;
}

pg::Tensor ids_tensor(std::vector<float> ids, size_t B, size_t T) { return pg::tensor(ids, {B, T}); }

double std_of(const pg::Tensor& t) {
    double s = 0, s2 = 0;
    for (float v : t.to_vector()) s += v, s2 += double(v) * v;
    double n = double(t.numel()), mean = s / n;
    return std::sqrt(s2 / n - mean * mean);
}

}  // namespace

TEST_CASE("Module: named_parameters in registration order with dotted names", "[nn]") {
    pg::Generator gen(3);
    Outer m(gen);
    auto named = m.named_parameters();
    REQUIRE(named.size() == 4);
    CHECK(named[0].first == "alpha");
    CHECK(named[1].first == "inner.first.weight");
    CHECK(named[2].first == "inner.first.bias");
    CHECK(named[3].first == "inner.scale");
    CHECK(named[1].second.shape() == pg::Shape{3, 2});
    CHECK(m.num_parameters() == 1 + 6 + 3 + 3);
    CHECK(m.parameters().size() == 4);
    for (auto& p : m.parameters()) CHECK(p.requires_grad());
    // handles, not copies: writing through one is seen by the module
    named[1].second.mutable_data()(0, 0) = 42.f;
    CHECK(m.inner.first.weight.data()(0, 0) == 42.f);
    CHECK(named[3].second.same_as(m.inner.scale));
}

TEST_CASE("Module: a name can be registered only once", "[nn]") {
    struct Twice : pg::nn::Module {
        Twice() {
            register_parameter("w", pg::zeros({1}));
            register_parameter("w", pg::zeros({1}));
        }
    };
    CHECK_THROWS_WITH(Twice(), Contains("'w' is already taken"));
}

TEST_CASE("Module: train() and eval() reach every child, dropout follows them", "[nn]") {
    pg::Generator gen(3);
    Outer m(gen);
    CHECK(m.inner.drop.is_training());
    m.eval();
    CHECK_FALSE(m.is_training());
    CHECK_FALSE(m.inner.is_training());
    CHECK_FALSE(m.inner.drop.is_training());
    pg::Tensor x = pg::ones({4, 50});
    CHECK(m.inner.drop.forward(x).to_vector() == x.to_vector());  // eval: identity
    m.train();
    CHECK(m.inner.first.is_training());
    std::vector<float> y = m.inner.drop.forward(x).to_vector();
    size_t zeros = 0;
    for (float v : y) {
        CHECK((v == 0.f || v == 2.f));  // kept values scaled by 1 / (1 - 0.5)
        zeros += v == 0.f;
    }
    CHECK(zeros > 60);
    CHECK(zeros < 140);
}

TEST_CASE("Module: zero_grad forgets every parameter's gradient", "[nn]") {
    pg::Generator gen(3);
    Outer m(gen);
    m.eval();
    pg::Tensor y = m.inner.first.forward(pg::ones({1, 2})) * m.inner.scale + m.alpha;
    pg::sum(y).backward();
    for (auto& p : m.parameters()) CHECK(p.has_grad());
    m.zero_grad();
    for (auto& p : m.parameters()) CHECK_FALSE(p.has_grad());
}

TEST_CASE("Linear: y = x W^T + b, PyTorch's uniform init bound 1/sqrt(in)", "[nn]") {
    pg::Generator gen(5);
    pg::nn::Linear lin(16, 64, true, gen);
    CHECK(lin.weight.shape() == pg::Shape{64, 16});
    CHECK(lin.bias.shape() == pg::Shape{64});
    float bound = 0.25f;
    for (float v : lin.weight.to_vector()) CHECK(std::fabs(v) <= bound);
    for (float v : lin.bias.to_vector()) CHECK(std::fabs(v) <= bound);
    CHECK(std_of(lin.weight) == Approx(bound / std::sqrt(3.0)).epsilon(0.1));  // U(-a,a) has std a/sqrt(3)

    pg::nn::Linear small(2, 2, true, gen);
    small.weight.copy_(pg::tensor({{1.f, 2.f}, {3.f, 4.f}}));
    small.bias.copy_(pg::tensor({0.5f, -0.5f}));
    pg::Tensor y = small.forward(pg::tensor({{{1.f, 1.f}, {0.f, 2.f}}}));  // (1,2,2)
    CHECK(y.shape() == pg::Shape{1, 2, 2});
    CHECK(y.to_vector() == std::vector<float>{3.5f, 6.5f, 4.5f, 7.5f});

    pg::nn::Linear no_bias(3, 2, false, gen);
    CHECK(no_bias.named_parameters().size() == 1);
    CHECK(no_bias.bias.numel() == 0);
    CHECK_THROWS_AS(pg::nn::Linear(0, 2, true, gen), std::invalid_argument);
}

TEST_CASE("Embedding, LayerNorm: shapes, init and values", "[nn]") {
    pg::Generator gen(5);
    pg::nn::Embedding emb(100, 40, gen);
    CHECK(std_of(emb.weight) == Approx(1.0).epsilon(0.05));
    pg::Tensor e = emb.forward(pg::tensor({{3.f, 7.f}}));
    CHECK(e.shape() == pg::Shape{1, 2, 40});
    CHECK(e.data()(0, 1, 5) == emb.weight.data()(7, 5));

    pg::nn::LayerNorm ln(4);
    CHECK(ln.weight.to_vector() == std::vector<float>(4, 1.f));
    CHECK(ln.bias.to_vector() == std::vector<float>(4, 0.f));
    CHECK(ln.eps == 1e-5f);
    std::vector<float> y = ln.forward(pg::tensor({{1.f, 2.f, 3.f, 4.f}})).to_vector();
    // mean 2.5, biased variance 1.25
    for (int i = 0; i < 4; ++i) CHECK(y[i] == Approx((i + 1 - 2.5) / std::sqrt(1.25 + 1e-5)));
}

TEST_CASE("CausalSelfAttention: a position never sees a later one", "[nn]") {
    pg::Generator gen(9);
    pg::nn::CausalSelfAttention attn(8, 2, 0.f, gen);
    pg::Tensor x = pg::randn({2, 5, 8}, gen);
    pg::Tensor y = attn.forward(x);
    CHECK(y.shape() == pg::Shape{2, 5, 8});
    const pg::Tensor& att = attn.last_attention;
    REQUIRE(att.shape() == pg::Shape{2, 2, 5, 5});
    CHECK_FALSE(att.requires_grad());
    for (size_t b = 0; b < 2; ++b)
        for (size_t h = 0; h < 2; ++h)
            for (size_t i = 0; i < 5; ++i) {
                double row = 0;
                for (size_t j = 0; j < 5; ++j) {
                    float w = att.data()(b, h, i, j);
                    if (j > i) CHECK(w == 0.f);
                    row += w;
                }
                CHECK(row == Approx(1.0).epsilon(1e-6));
            }
    CHECK(att.data()(1, 1, 0, 0) == 1.f);  // the first position sees only itself

    // change the last position: every earlier output stays exactly the same
    pg::Tensor x2 = x.detach();
    for (size_t c = 0; c < 8; ++c) x2.mutable_data()(0, 4, c) += 1.f;
    pg::Tensor y2 = attn.forward(x2);
    for (size_t t = 0; t < 4; ++t)
        for (size_t c = 0; c < 8; ++c) CHECK(y2.data()(0, t, c) == y.data()(0, t, c));
    CHECK(y2.data()(0, 4, 0) != y.data()(0, 4, 0));
    CHECK_THROWS_AS(pg::nn::CausalSelfAttention(10, 3, 0.f, gen), std::invalid_argument);
    CHECK_THROWS_AS(attn.forward(pg::zeros({2, 5, 7})), pg::ShapeError);
}

TEST_CASE("CausalSelfAttention and Block: gradients agree with central differences", "[nn]") {
    pg::Generator gen(4);
    pg::nn::Block block(4, 2, 0.f, gen);
    pg::Tensor x = pg::randn({1, 3, 4}, gen, true);
    pg::GradcheckResult res = pg::gradcheck(
        [&](const std::vector<pg::Tensor>& in) { return block.forward(in[0]); },
        {x, block.attn.qkv.weight, block.ln1.weight, block.mlp.fc.weight}, {1e-2, 2e-3, 2e-2, 1});
    INFO(res.report);
    CHECK(res.ok);
}

TEST_CASE("MLP and Block keep (B,T,C), the block adds to its input", "[nn]") {
    pg::Generator gen(2);
    pg::nn::MLP mlp(6, 0.f, gen);
    CHECK(mlp.fc.weight.shape() == pg::Shape{24, 6});
    CHECK(mlp.out.weight.shape() == pg::Shape{6, 24});
    CHECK(mlp.forward(pg::zeros({2, 3, 6})).shape() == pg::Shape{2, 3, 6});
    pg::nn::Block block(6, 3, 0.f, gen);
    // with both output projections zeroed the block is the identity: x + 0 + 0
    block.attn.proj.weight.copy_(pg::zeros({6, 6}));
    block.attn.proj.bias.copy_(pg::zeros({6}));
    block.mlp.out.weight.copy_(pg::zeros({6, 24}));
    block.mlp.out.bias.copy_(pg::zeros({6}));
    pg::Tensor x = pg::randn({2, 3, 6}, gen);
    CHECK(block.forward(x).to_vector() == x.to_vector());
}

TEST_CASE("GPT: logits (B,T,V), parameter count, GPT-2 style init", "[nn][gpt]") {
    pg::Generator gen(1);
    pg::nn::GPTConfig cfg = small_config();
    pg::nn::GPT model(cfg, gen);
    size_t C = 8, V = 11;
    size_t per_block = 2 * C + (3 * C * C + 3 * C) + (C * C + C) + 2 * C + (4 * C * C + 4 * C) + (4 * C * C + C);
    CHECK(model.num_parameters() == V * C + 6 * C + 2 * per_block + 2 * C + V * C);
    CHECK(model.named_parameters().back().first == "head.weight");
    CHECK(model.head.bias.numel() == 0);
    CHECK(model.forward(ids_tensor({1, 2, 3, 4, 5, 6, 0, 10, 9}, 3, 3)).shape() == pg::Shape{3, 3, V});
    for (auto& [name, p] : model.named_parameters()) {
        INFO(name);
        bool is_ln = name.find("ln") != std::string::npos;
        if (name.size() > 5 && name.substr(name.size() - 5) == ".bias") {
            CHECK(p.to_vector() == std::vector<float>(p.numel(), 0.f));
        } else if (is_ln) {
            CHECK(p.to_vector() == std::vector<float>(p.numel(), 1.f));
        } else {
            bool residual = name.find("attn.proj") != std::string::npos || name.find("mlp.out") != std::string::npos;
            CHECK(std_of(p) == Approx(residual ? 0.01 : 0.02).epsilon(0.25));  // 0.02 / sqrt(2 * 2 layers)
        }
    }
    pg::Generator same(1);
    pg::nn::GPT twin(cfg, same);
    CHECK(twin.head.weight.to_vector() == model.head.weight.to_vector());  // one seed, one model
}

TEST_CASE("GPT: forward_last gives forward's logits at the last position", "[nn][gpt]") {
    pg::Generator gen(2);
    pg::nn::GPT model(small_config(), gen);
    pg::Tensor ids = ids_tensor({1, 2, 3, 4, 5, 6, 0, 10, 9}, 3, 3);
    pg::Tensor all = model.forward(ids);                                    // (3,3,11)
    pg::Tensor last = model.forward_last(ids);                              // (3,11)
    REQUIRE(last.shape() == pg::Shape{3, 11});
    REQUIRE(last.to_vector() == pg::reshape(pg::slice(all, 1, 2, 3), {3, 11}).to_vector());
    CHECK_THROWS_WITH(model.forward_last(ids_tensor({1, 11}, 1, 2)), Contains("GPT: id 11 at (0,1)"));
}

TEST_CASE("GPT: forward_rows gives forward's logits and gradients as (B*T,V) rows, bit for bit", "[nn][gpt]") {
    pg::Generator gen(3);
    pg::nn::GPT model(small_config(), gen);
    pg::Tensor ids = ids_tensor({1, 2, 3, 4, 5, 6, 0, 10, 9}, 3, 3);
    pg::Tensor targets = pg::tensor({2, 3, 4, 5, 6, 0, 10, 9, 1}, {9});
    auto loss_and_grads = [&](bool rows) {
        model.zero_grad();
        pg::Tensor logits = rows ? model.forward_rows(ids) : pg::reshape(model.forward(ids), {9, 11});
        REQUIRE(logits.shape() == pg::Shape{9, 11});
        pg::Tensor loss = pg::cross_entropy(logits, targets);
        loss.backward();
        std::vector<float> all = logits.to_vector();
        for (const pg::Tensor& p : model.parameters()) {
            std::vector<float> g = p.grad().to_vector();
            all.insert(all.end(), g.begin(), g.end());
        }
        return all;
    };
    std::vector<float> via_forward = loss_and_grads(false);
    REQUIRE(loss_and_grads(true) == via_forward);
}

TEST_CASE("GPT: clear errors for bad ids, long sequences and wrong ranks", "[nn][gpt]") {
    pg::Generator gen(1);
    pg::nn::GPT model(small_config(), gen);
    CHECK_THROWS_WITH(model.forward(ids_tensor(std::vector<float>(7, 1.f), 1, 7)),
                      Contains("T = 7 exceeds the context of 6"));
    CHECK_THROWS_WITH(model.forward(ids_tensor({1, 11}, 1, 2)), Contains("id 11") && Contains("(0,1)"));
    CHECK_THROWS_AS(model.forward(ids_tensor({1, -1}, 1, 2)), std::out_of_range);
    CHECK_THROWS_AS(model.forward(ids_tensor({1, 2.5f}, 1, 2)), std::out_of_range);
    CHECK_THROWS_AS(model.forward(pg::tensor({1.f, 2.f})), pg::ShapeError);
    pg::nn::GPTConfig empty = small_config();
    empty.vocab_size = 0;
    CHECK_THROWS_AS(pg::nn::GPT(empty, gen), std::invalid_argument);
}

TEST_CASE("GPT: dropout is active in train() and off in eval()", "[nn][gpt]") {
    pg::Generator gen(1);
    pg::nn::GPTConfig cfg = small_config();
    cfg.dropout = 0.2f;
    pg::nn::GPT model(cfg, gen);
    pg::Tensor ids = ids_tensor({1, 2, 3, 4}, 1, 4);
    model.eval();
    std::vector<float> a = model.forward(ids).to_vector(), b = model.forward(ids).to_vector();
    CHECK(a == b);
    model.train();
    CHECK(model.forward(ids).to_vector() != a);
}

TEST_CASE("GPT: a few AdamW steps on one batch lower the loss", "[nn][gpt]") {
    pg::Generator gen(1);
    pg::nn::GPT model(small_config(), gen);
    pg::Tensor ids = ids_tensor({1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 2, 5);
    pg::Tensor targets = pg::tensor({2, 3, 4, 5, 6, 7, 8, 9, 10, 0});
    pg::optim::AdamW opt(model.parameters(), {1e-2f, 0.9f, 0.999f, 1e-8f, 0.f});
    float first = 0, last = 0;
    for (int step = 0; step < 20; ++step) {
        opt.zero_grad();
        pg::Tensor loss = pg::cross_entropy(pg::reshape(model.forward(ids), {10, 11}), targets);
        loss.backward();
        opt.step();
        if (step == 0) first = loss.item();
        last = loss.item();
    }
    CHECK(first == Approx(std::log(11.f)).epsilon(0.05));  // small init: nearly uniform logits
    CHECK(last < 0.5f * first);
}
