// Validation of a TrainConfig and its exact round trip through checkpoint metadata: floats are
// written with 9 significant digits, so reading them back gives the same bits.
// Leaves out: backward compatibility with other metadata layouts (there is only one, format 1).
#include "poet/config.hpp"
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <stdexcept>

namespace poet {

size_t default_warmup(size_t steps) { return std::min(TrainConfig{}.warmup, steps / 10); }

void validate(const TrainConfig& c) {
    auto need = [](bool ok, const std::string& what) {
        if (!ok) throw std::invalid_argument("train: " + what);
    };
    need(c.n_layer >= 1, "--layers must be at least 1");
    need(c.n_head >= 1 && c.n_embd % c.n_head == 0, "--width " + std::to_string(c.n_embd) +
                                                        " must be a multiple of --heads " + std::to_string(c.n_head));
    need(c.context >= 27, "--context " + std::to_string(c.context) + " is shorter than a record (BOS k SEP poem EOS "
                          "needs 27 input positions)");
    need(c.dropout >= 0.f && c.dropout < 1.f, "--dropout " + std::to_string(c.dropout) + " is not in [0, 1)");
    need(c.steps >= 1, "--steps must be at least 1");
    need(c.batch >= 1, "--batch must be at least 1");
    need(c.warmup < c.steps, "--warmup " + std::to_string(c.warmup) + " must be below --steps " + std::to_string(c.steps));
    need(std::isfinite(c.lr) && c.lr > 0.f, "--lr must be a positive number");
    need(std::isfinite(c.min_lr) && c.min_lr >= 0.f && c.min_lr <= c.lr, "--min-lr must be in [0, lr]");
    need(std::isfinite(c.weight_decay) && c.weight_decay >= 0.f, "--weight-decay must be >= 0");
    need(c.beta1 >= 0.f && c.beta1 < 1.f && c.beta2 >= 0.f && c.beta2 < 1.f, "--beta1 and --beta2 must be in [0, 1)");
    need(std::isfinite(c.clip) && c.clip > 0.f, "--clip must be positive");
    need(c.corpus == "jueju" || c.corpus == "all", "--corpus must be jueju or all, not '" + c.corpus + "'");
    need(c.eval_every >= 1 && c.save_every >= 1, "--eval-every and --save-every must be at least 1");
}

pg::nn::GPTConfig gpt_config(const TrainConfig& c, size_t vocab_size) {
    pg::nn::GPTConfig g;
    g.vocab_size = vocab_size;
    g.context = c.context;
    g.n_layer = c.n_layer;
    g.n_head = c.n_head;
    g.n_embd = c.n_embd;
    g.dropout = c.dropout;
    return g;
}

static std::string fstr(float v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
    return buf;
}

static const std::string& get(const pg::Metadata& meta, const std::string& key) {
    auto it = meta.find(key);
    if (it == meta.end()) throw std::runtime_error("checkpoint metadata has no '" + key + "' (not a poet checkpoint?)");
    return it->second;
}

static size_t get_size(const pg::Metadata& meta, const std::string& key) {
    const std::string& s = get(meta, key);
    char* end = nullptr;
    unsigned long long v = std::strtoull(s.c_str(), &end, 10);
    if (s.empty() || *end != '\0' || s[0] == '-')
        throw std::runtime_error("checkpoint metadata '" + key + "' = '" + s + "' is not a whole number");
    return static_cast<size_t>(v);
}

static float get_float(const pg::Metadata& meta, const std::string& key) {
    const std::string& s = get(meta, key);
    char* end = nullptr;
    float v = std::strtof(s.c_str(), &end);
    if (s.empty() || *end != '\0') throw std::runtime_error("checkpoint metadata '" + key + "' = '" + s + "' is not a number");
    return v;
}

void to_metadata(const TrainConfig& c, pg::Metadata& m) {
    m["model.n_layer"] = std::to_string(c.n_layer);
    m["model.n_head"] = std::to_string(c.n_head);
    m["model.n_embd"] = std::to_string(c.n_embd);
    m["model.context"] = std::to_string(c.context);
    m["model.dropout"] = fstr(c.dropout);
    m["train.steps"] = std::to_string(c.steps);
    m["train.batch"] = std::to_string(c.batch);
    m["train.warmup"] = std::to_string(c.warmup);
    m["train.lr"] = fstr(c.lr);
    m["train.min_lr"] = fstr(c.min_lr);
    m["train.weight_decay"] = fstr(c.weight_decay);
    m["train.beta1"] = fstr(c.beta1);
    m["train.beta2"] = fstr(c.beta2);
    m["train.clip"] = fstr(c.clip);
    m["train.seed"] = std::to_string(c.seed);
    m["train.corpus"] = c.corpus;
    m["train.eval_every"] = std::to_string(c.eval_every);
    m["train.save_every"] = std::to_string(c.save_every);
    m["train.inject_nan_at"] = std::to_string(c.inject_nan_at);
}

TrainConfig train_config_from(const pg::Metadata& m) {
    TrainConfig c;
    c.n_layer = get_size(m, "model.n_layer");
    c.n_head = get_size(m, "model.n_head");
    c.n_embd = get_size(m, "model.n_embd");
    c.context = get_size(m, "model.context");
    c.dropout = get_float(m, "model.dropout");
    c.steps = get_size(m, "train.steps");
    c.batch = get_size(m, "train.batch");
    c.warmup = get_size(m, "train.warmup");
    c.lr = get_float(m, "train.lr");
    c.min_lr = get_float(m, "train.min_lr");
    c.weight_decay = get_float(m, "train.weight_decay");
    c.beta1 = get_float(m, "train.beta1");
    c.beta2 = get_float(m, "train.beta2");
    c.clip = get_float(m, "train.clip");
    c.seed = get_size(m, "train.seed");
    c.corpus = get(m, "train.corpus");
    c.eval_every = get_size(m, "train.eval_every");
    c.save_every = get_size(m, "train.save_every");
    c.inject_nan_at = get_size(m, "train.inject_nan_at");
    return c;
}

pg::nn::GPTConfig gpt_config_from(const pg::Metadata& m) {
    pg::nn::GPTConfig g;
    g.vocab_size = get_size(m, "model.vocab_size");
    g.n_layer = get_size(m, "model.n_layer");
    g.n_head = get_size(m, "model.n_head");
    g.n_embd = get_size(m, "model.n_embd");
    g.context = get_size(m, "model.context");
    g.dropout = get_float(m, "model.dropout");
    return g;
}

std::string generator_state_str(const pg::Generator& gen) {
    pg::Generator::State s = gen.state();
    uint32_t spare_bits;
    std::memcpy(&spare_bits, &s.spare, sizeof spare_bits);
    std::ostringstream out;
    out << s.s[0] << ' ' << s.s[1] << ' ' << s.s[2] << ' ' << s.s[3] << ' ' << (s.has_spare ? 1 : 0) << ' ' << spare_bits;
    return out.str();
}

void set_generator_state(pg::Generator& gen, const std::string& text) {
    pg::Generator::State s{};
    std::istringstream in(text);
    int has_spare = 0;
    uint32_t spare_bits = 0;
    in >> s.s[0] >> s.s[1] >> s.s[2] >> s.s[3] >> has_spare >> spare_bits;
    if (!in || (has_spare != 0 && has_spare != 1))
        throw std::runtime_error("checkpoint: generator state '" + text + "' is malformed");
    s.has_spare = has_spare == 1;
    std::memcpy(&s.spare, &spare_bits, sizeof spare_bits);
    gen.set_state(s);
}

}  // namespace poet
