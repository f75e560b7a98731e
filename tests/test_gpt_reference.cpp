// The whole GPT against PyTorch (tools/reference/make_gpt_fixtures.py), in the manner of llm.c's
// test: same weights in, then logits, loss, every parameter's gradient and 10 AdamW steps out.
// Relative error |ours - torch| / (|torch| + floor), floor as in scaled_rel_diff below.
#include "catch.hpp"
#include <cmath>
#include <cstdio>
#include <pg/pg.hpp>
#include "fixture.hpp"

namespace {

const size_t B = 3, T = 8, V = 37;

pg::nn::GPTConfig reference_config() {
    pg::nn::GPTConfig cfg;
    cfg.vocab_size = V;
    cfg.context = 8;
    cfg.n_layer = 2;
    cfg.n_head = 2;
    cfg.n_embd = 16;
    cfg.dropout = 0.f;
    return cfg;
}

// Copies every parameter from the fixture, by name; each must be there with the model's shape.
void load_reference_weights(pg::nn::GPT& model, const std::map<std::string, pg::Tensor>& weights) {
    for (auto& [name, p] : model.named_parameters()) {
        INFO("parameter " << name);
        p.copy_(fixture::at(weights, name));
    }
}

pg::Tensor loss_of(pg::nn::GPT& model, const pg::Tensor& ids, const pg::Tensor& targets) {
    pg::Tensor logits = model.forward(ids);
    return pg::cross_entropy(pg::reshape(logits, {B * T, V}), pg::reshape(targets, {B * T}));
}

// Near-zero entries would turn float rounding (~1e-7 absolute) into huge relative errors, so the
// floor is 1% of the tensor's largest reference value: |ours - torch| / (|torch| + 0.01 max|torch|).
double scaled_rel_diff(const pg::Tensor& ours, const pg::Tensor& torch) {
    double largest = 0;
    for (float v : torch.to_vector()) largest = std::max(largest, std::fabs(double(v)));
    return fixture::max_rel_diff(ours, torch, 0.01 * largest);
}

double report(const std::string& what, double worst) {
    std::printf("  %-34s worst rel diff %.3g\n", what.c_str(), worst);
    return worst;
}

}  // namespace

TEST_CASE("GPT reference: parameter names and order are PyTorch's", "[gpt][reference]") {
    pg::Generator gen(1);
    pg::nn::GPT model(reference_config(), gen);
    auto weights = fixture::read("gpt/weights.bin");
    auto named = model.named_parameters();
    std::vector<std::string> want{"wte.weight", "wpe.weight"};
    for (int i = 0; i < 2; ++i)
        for (const char* leaf : {"ln1.weight", "ln1.bias", "attn.qkv.weight", "attn.qkv.bias", "attn.proj.weight",
                                 "attn.proj.bias", "ln2.weight", "ln2.bias", "mlp.fc.weight", "mlp.fc.bias",
                                 "mlp.out.weight", "mlp.out.bias"})
            want.push_back("blocks." + std::to_string(i) + "." + leaf);
    for (const char* last : {"ln_f.weight", "ln_f.bias", "head.weight"}) want.push_back(last);
    REQUIRE(named.size() == want.size());
    size_t total = 0;
    for (size_t i = 0; i < want.size(); ++i) {
        CHECK(named[i].first == want[i]);
        CHECK(named[i].second.shape() == fixture::at(weights, want[i]).shape());
        total += named[i].second.numel();
    }
    CHECK(model.num_parameters() == total);
    CHECK(total == 7904);
}

TEST_CASE("GPT reference: logits, loss and every gradient match PyTorch", "[gpt][reference]") {
    pg::Generator gen(1);
    pg::nn::GPT model(reference_config(), gen);
    auto weights = fixture::read("gpt/weights.bin");
    auto forward = fixture::read("gpt/forward.bin");
    auto grads = fixture::read("gpt/grads.bin");
    load_reference_weights(model, weights);
    const pg::Tensor& ids = fixture::at(weights, "ids");
    const pg::Tensor& targets = fixture::at(weights, "targets");

    std::printf("GPT reference (B=%zu T=%zu V=%zu C=16, 2 layers, 2 heads):\n", B, T, V);
    pg::Tensor logits = model.forward(ids);
    CHECK(report("logits", scaled_rel_diff(logits, fixture::at(forward, "logits"))) <= 1e-4);
    pg::Tensor loss = pg::cross_entropy(pg::reshape(logits, {B * T, V}), pg::reshape(targets, {B * T}));
    CHECK(report("loss", fixture::max_rel_diff(pg::reshape(loss, {1}), fixture::at(forward, "loss"))) <= 1e-4);

    loss.backward();
    for (auto& [name, p] : model.named_parameters()) {
        INFO("gradient of " << name);
        REQUIRE(p.has_grad());
        CHECK(report("grad " + name, scaled_rel_diff(p.grad(), fixture::at(grads, "grad." + name))) <= 1e-3);
    }
}

TEST_CASE("GPT reference: 10 AdamW steps with warmup, cosine lr and clipping match PyTorch", "[gpt][reference]") {
    pg::Generator gen(1);
    pg::nn::GPT model(reference_config(), gen);
    auto weights = fixture::read("gpt/weights.bin");
    auto train = fixture::read("gpt/train.bin");
    load_reference_weights(model, weights);
    const pg::Tensor& ids = fixture::at(weights, "ids");
    const pg::Tensor& targets = fixture::at(weights, "targets");
    std::vector<float> want_loss = fixture::at(train, "losses").to_vector();
    std::vector<float> want_lr = fixture::at(train, "lrs").to_vector();
    std::vector<float> want_norm = fixture::at(train, "grad_norms").to_vector();
    REQUIRE(want_loss.size() == 10);

    pg::optim::AdamWOptions opt;
    opt.weight_decay = 0.1f;
    pg::optim::AdamW adamw(model.parameters(), opt);
    double worst_loss = 0, worst_norm = 0, worst_lr = 0;
    std::printf("GPT reference, 10 AdamW steps:\n");
    for (size_t step = 0; step < 10; ++step) {
        adamw.zero_grad();
        pg::Tensor loss = loss_of(model, ids, targets);
        loss.backward();
        float norm = pg::optim::clip_grad_norm(model.parameters(), 1.0f);
        float lr = pg::optim::warmup_cosine_lr(step, 3, 10, 1e-2f, 1e-3f);
        adamw.set_lr(lr);
        adamw.step();
        double loss_diff = std::fabs(double(loss.item()) - want_loss[step]) / std::fabs(want_loss[step]);
        std::printf("  step %zu  loss %.6f  torch %.6f  rel diff %.3g\n", step, loss.item(), want_loss[step], loss_diff);
        worst_loss = std::max(worst_loss, loss_diff);
        worst_norm = std::max(worst_norm, std::fabs(double(norm) - want_norm[step]) / std::fabs(want_norm[step]));
        worst_lr = std::max(worst_lr, std::fabs(double(lr) - want_lr[step]) / std::fabs(want_lr[step]));
    }
    CHECK(report("10 losses", worst_loss) <= 1e-4);
    CHECK(report("10 gradient norms before clipping", worst_norm) <= 1e-4);
    CHECK(report("10 learning rates", worst_lr) <= 1e-6);
    CHECK(adamw.steps_taken() == 10);
}
