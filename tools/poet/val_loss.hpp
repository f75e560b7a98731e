// Validation loss: the mean cross-entropy (nats per character) of the poem and EOS predictions of
// the fixed validation records, optionally broken down by position in the poem.
// Leaves out: sampling-based metrics (eval.hpp).
#pragma once
#include <vector>
#include "pg/nn/gpt.hpp"
#include "poet/records.hpp"

namespace poet {

constexpr size_t kValidationBatch = 64;   // records per forward: what train and eval use

struct ValLoss {
    double mean = 0;                    // over every counted prediction
    std::vector<double> per_position;   // 25 means: poem positions 0..23, then EOS
    size_t records = 0;
};

// Runs without gradients and with dropout off; leaves the model in the mode it found it in.
// copy_token: the model reads the records with the copy token (copy_token.hpp), and a target k counts
// with the probability the model gives k either way, -log(p(k) + p(COPY)): the loss of the poem's
// characters, comparable with a model's that does not use the copy token.
ValLoss validation_loss(pg::nn::GPT& gpt, const std::vector<Poem>& poems, size_t batch_size, bool copy_token = false);

}  // namespace poet
