// A trained poet: the tokenizer and the GPT together, as built for training or read back from a
// checkpoint. The checkpoint's metadata carries everything needed to rebuild it.
// Leaves out: the optimizer (train.cpp owns it).
#pragma once
#include <memory>
#include <string>
#include "pg/io/checkpoint.hpp"
#include "pg/nn/gpt.hpp"
#include "pg/random.hpp"
#include "poet/tokenizer.hpp"

namespace poet {

struct PoetModel {
    Tokenizer tok;
    std::unique_ptr<pg::Generator> gen;   // initial weights, then dropout masks; must outlive gpt
    std::unique_ptr<pg::nn::GPT> gpt;
    pg::Metadata metadata;                // as read from the checkpoint (empty for a fresh model)
    uint64_t step = 0;                    // training steps behind these weights
    bool copy_token = false;              // trained with the copy token (TrainConfig::copy_token)
};

// A fresh model with weights drawn from `seed`.
PoetModel make_model(const Tokenizer& tok, const pg::nn::GPTConfig& cfg, uint64_t seed);

// "poet.format", "tokenizer" and "model.vocab_size": with the TrainConfig's own keys (to_metadata,
// which holds the model's shape as "model.*"), what load_model needs.
void model_metadata(const PoetModel& m, pg::Metadata& meta);

// Reads a poet checkpoint. Throws pg::CheckpointError naming the file and the problem (missing,
// truncated, corrupt, not a poet checkpoint) — never a partly loaded model.
PoetModel load_model(const std::string& path);

// The metadata value of `key`; throws std::runtime_error naming a missing key.
const std::string& metadata_at(const pg::Metadata& meta, const std::string& key);

// Is there a finished training run at `path` (a loadable checkpoint whose step reached its steps)?
bool is_finished_checkpoint(const std::string& path);

}  // namespace poet
