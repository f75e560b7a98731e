// Everything a training run is made of — model shape, optimiser, schedule, data, intervals — with
// the defaults `./poet train` uses, the table of settings its flags, help, validation and
// checkpoint metadata ("model.*", "train.*") are made from.
// Leaves out: config files (flags and the checkpoint are the only sources).
#pragma once
#include <string>
#include <variant>
#include <vector>
#include "pg/io/checkpoint.hpp"
#include "pg/nn/gpt.hpp"
#include "pg/optim/optim.hpp"
#include "pg/random.hpp"

namespace poet {

struct TrainConfig {
    // model
    size_t n_layer = 4, n_head = 4, n_embd = 128, context = 32;
    float dropout = 0.f;
    // optimisation: AdamW, linear warmup then cosine decay to min_lr, clipping by global norm
    size_t steps = 2000, batch = 64, warmup = 100;
    float lr = 2e-3f, min_lr = 2e-4f, weight_decay = 0.1f, beta1 = 0.9f, beta2 = 0.99f, clip = 1.0f;
    uint64_t seed = 1337;
    std::string corpus = "all";     // "jueju" or "all" (corpus.hpp)
    std::string copy_token = "on";  // "on": the poem's k is written as COPY in the records (copy_token.hpp)
    // bookkeeping
    size_t eval_every = 250, save_every = 200;
    // testing aid: pretend the loss of this step (counted from 1) is NaN; 0 = never
    size_t inject_nan_at = 0;
};

// One row per TrainConfig setting: the flag that sets it, the checkpoint metadata key that keeps
// it, its range and its help. The flags, `--help`, validation and the checkpoint metadata are all
// made from this one table (config.cpp), so a new setting is one new row.
struct Setting {
    const char* flag;      // "layers" for --layers
    const char* key;       // "model.n_layer" in checkpoint metadata
    const char* group;     // the --help line it is listed on: "model", "optimiser", "data", ...
    const char* value;     // how --help names its value: "N", "X", "jueju|all"
    std::variant<size_t TrainConfig::*, float TrainConfig::*, std::string TrainConfig::*> field;
    double min, max;       // the range a number must lie in (inclusive)
    const char* default_note;   // --help's default when it is not the field's value ("lr/10"), or nullptr
    // What a checkpoint written before the setting existed meant by leaving it out ("off"), or
    // nullptr: the setting must be there.
    const char* before = nullptr;
};
const std::vector<Setting>& settings();

// The warmup of a run of `steps` steps unless one is asked for: the default, but at most a tenth
// of the run, so short runs warm up less.
size_t default_warmup(size_t steps);

// Does a run of this config train on records with the copy token?
inline bool uses_copy_token(const TrainConfig& cfg) { return cfg.copy_token == "on"; }

// Throws std::invalid_argument naming the first setting out of range (its flag and its limits).
void validate(const TrainConfig& cfg);

pg::nn::GPTConfig gpt_config(const TrainConfig& cfg, size_t vocab_size);
pg::optim::AdamWOptions adamw_options(const TrainConfig& cfg);   // lr, betas, weight decay; eps 1e-8

// Every setting's key; from_metadata throws std::runtime_error naming a missing or bad key (a
// missing key of a setting with a `before` value takes that value).
void to_metadata(const TrainConfig& cfg, pg::Metadata& meta);
TrainConfig train_config_from(const pg::Metadata& meta);
// The model's shape from the "model.*" keys and model.vocab_size alone.
pg::nn::GPTConfig gpt_config_from(const pg::Metadata& meta);

// A generator's exact state as text, and back (throws std::runtime_error on malformed text).
std::string generator_state_str(const pg::Generator& gen);
void set_generator_state(pg::Generator& gen, const std::string& text);

}  // namespace poet
