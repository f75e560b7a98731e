// The settings table, and what is made from it: validation of a TrainConfig and its exact round trip
// through checkpoint metadata (floats written with 9 significant digits give back the same bits).
// Leaves out: backward compatibility with other metadata layouts (there is only one, format 1).
#include "poet/config.hpp"
#include "poet/records.hpp"
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <type_traits>

namespace poet {

static_assert(std::is_same_v<uint64_t, size_t>, "TrainConfig::seed is a size_t setting in the table");

const std::vector<Setting>& settings() {
    using C = TrainConfig;
    const double big = 1e9, u64 = 18446744073709551615.0;
    static const std::vector<Setting> table = {
        // flag            metadata key           group        value        field             min    max
        {"layers",         "model.n_layer",       "model",     "N",         &C::n_layer,      1,     64,   nullptr},
        {"heads",          "model.n_head",        "model",     "N",         &C::n_head,       1,     64,   nullptr},
        {"width",          "model.n_embd",        "model",     "N",         &C::n_embd,       1,     4096, nullptr},
        {"context",        "model.context",       "model",     "N",         &C::context,      kInputLength, 1024, nullptr},
        {"dropout",        "model.dropout",       "model",     "P",         &C::dropout,      0,     0.99, nullptr},
        {"steps",          "train.steps",         "optimiser", "N",         &C::steps,        1,     big,  nullptr},
        {"batch",          "train.batch",         "optimiser", "N",         &C::batch,        1,     65536, nullptr},
        {"lr",             "train.lr",            "optimiser", "X",         &C::lr,           1e-12, 10,   nullptr},
        {"min-lr",         "train.min_lr",        "optimiser", "X",         &C::min_lr,       0,     10,   "lr/10"},
        {"warmup",         "train.warmup",        "optimiser", "N",         &C::warmup,       0,     big,  "100, at most steps/10"},
        {"weight-decay",   "train.weight_decay",  "optimiser", "X",         &C::weight_decay, 0,     10,   nullptr},
        {"beta1",          "train.beta1",         "optimiser", "X",         &C::beta1,        0,     0.9999, nullptr},
        {"beta2",          "train.beta2",         "optimiser", "X",         &C::beta2,        0,     0.9999, nullptr},
        {"clip",           "train.clip",          "optimiser", "X",         &C::clip,         1e-12, 1e6,  nullptr},
        {"corpus",         "train.corpus",        "data",      "jueju|all", &C::corpus,       0,     0,    nullptr},
        {"copy-token",     "train.copy_token",    "data",      "on|off",    &C::copy_token,   0,     0,    nullptr, "off"},
        {"seed",           "train.seed",          "data",      "N",         &C::seed,         0,     u64,  nullptr},
        {"eval-every",     "train.eval_every",    "intervals", "N",         &C::eval_every,   1,     big,  nullptr},
        {"save-every",     "train.save_every",    "intervals", "N",         &C::save_every,   1,     big,  nullptr},
        {"inject-nan-at",  "train.inject_nan_at", "testing",   "STEP",      &C::inject_nan_at, 0,    big,
         "0: never; pretends that step's loss is NaN"},
    };
    return table;
}

size_t default_warmup(size_t steps) { return std::min(TrainConfig{}.warmup, steps / 10); }

static std::string num_str(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

// The setting's value in cfg as text: what --help shows and the checkpoint stores (floats with 9
// significant digits, so reading them back gives the same bits).
static std::string value_str(const TrainConfig& cfg, const Setting& s) {
    if (auto f = std::get_if<size_t TrainConfig::*>(&s.field)) return std::to_string(cfg.**f);
    if (auto f = std::get_if<float TrainConfig::*>(&s.field)) return num_str(static_cast<double>(cfg.**f));
    return cfg.*std::get<std::string TrainConfig::*>(s.field);
}

void validate(const TrainConfig& c) {
    auto need = [](bool ok, const std::string& what) {
        if (!ok) throw std::invalid_argument("train: " + what);
    };
    // the rules between settings first: their messages say more than a range
    need(c.context >= kInputLength, "--context " + std::to_string(c.context) + " is shorter than a record (BOS k SEP "
                                    "poem EOS needs " + std::to_string(kInputLength) + " input positions)");
    need(c.n_head >= 1 && c.n_embd % c.n_head == 0, "--width " + std::to_string(c.n_embd) +
                                                        " must be a multiple of --heads " + std::to_string(c.n_head));
    need(c.warmup < c.steps, "--warmup " + std::to_string(c.warmup) + " must be below --steps " + std::to_string(c.steps));
    need(c.min_lr <= c.lr, "--min-lr " + num_str(c.min_lr) + " must not exceed --lr " + num_str(c.lr));
    for (const Setting& s : settings()) {
        if (auto f = std::get_if<std::string TrainConfig::*>(&s.field)) {
            std::string choices = std::string("|") + s.value + "|";
            need(choices.find("|" + c.**f + "|") != std::string::npos,
                 std::string("--") + s.flag + " must be one of " + s.value + ", not '" + c.**f + "'");
            continue;
        }
        double v = std::holds_alternative<size_t TrainConfig::*>(s.field)
                       ? static_cast<double>(c.*std::get<size_t TrainConfig::*>(s.field))
                       : static_cast<double>(c.*std::get<float TrainConfig::*>(s.field));
        need(std::isfinite(v) && v >= s.min && v <= s.max, std::string("--") + s.flag + " " + value_str(c, s) +
                                                              " is outside its range [" + num_str(s.min) + ", " +
                                                              num_str(s.max) + "]");
    }
}

pg::optim::AdamWOptions adamw_options(const TrainConfig& c) {
    return {c.lr, c.beta1, c.beta2, 1e-8f, c.weight_decay};
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

// Sets the setting's field in cfg from its metadata key.
static void read_setting(const pg::Metadata& m, const Setting& s, TrainConfig& cfg) {
    if (s.before && m.find(s.key) == m.end()) {   // a checkpoint from before the setting existed
        cfg.*std::get<std::string TrainConfig::*>(s.field) = s.before;
        return;
    }
    if (auto f = std::get_if<size_t TrainConfig::*>(&s.field)) cfg.**f = get_size(m, s.key);
    else if (auto f = std::get_if<float TrainConfig::*>(&s.field)) cfg.**f = get_float(m, s.key);
    else cfg.*std::get<std::string TrainConfig::*>(s.field) = get(m, s.key);
}

void to_metadata(const TrainConfig& c, pg::Metadata& m) {
    for (const Setting& s : settings()) m[s.key] = value_str(c, s);
}

TrainConfig train_config_from(const pg::Metadata& m) {
    TrainConfig c;
    for (const Setting& s : settings()) read_setting(m, s, c);
    return c;
}

pg::nn::GPTConfig gpt_config_from(const pg::Metadata& m) {
    TrainConfig c;
    for (const Setting& s : settings())
        if (std::string(s.key).rfind("model.", 0) == 0) read_setting(m, s, c);
    return gpt_config(c, get_size(m, "model.vocab_size"));
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
