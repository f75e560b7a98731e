// Computes each prediction's -log p(target) from the logits directly (log-sum-exp in double), so
// the per-position means come for free; the overall mean equals cross_entropy's (without the copy
// token; with it, a target COPY counts k's probability either way, which cross_entropy cannot).
// Leaves out: UNK special-casing (an unknown validation character is a target like any other).
#include "poet/val_loss.hpp"
#include <algorithm>
#include <cmath>
#include "pg/autograd.hpp"
#include "poet/copy_token.hpp"

namespace poet {

ValLoss validation_loss(pg::nn::GPT& gpt, const std::vector<Poem>& poems, size_t batch_size, bool copy_token) {
    pg::NoGradGuard no_grad;
    bool was_training = gpt.is_training();
    gpt.eval();
    const size_t T = kInputLength, V = gpt.config().vocab_size, P = kLossTokens;
    std::vector<double> sum(P, 0.0);
    for (size_t begin = 0; begin < poems.size(); begin += batch_size) {
        size_t end = std::min(poems.size(), begin + batch_size);
        Batch batch = validation_batch(poems, begin, end, copy_token);
        pg::Tensor logits = gpt.forward(batch.inputs);   // (B,T,V)
        const float* l = logits.ptr();
        const float* x = batch.inputs.ptr();
        const float* y = batch.targets.ptr();
        for (size_t row = 0; row < (end - begin) * T; ++row) {
            if (y[row] == static_cast<float>(kIgnore)) continue;
            const float* z = l + row * V;
            float m = *std::max_element(z, z + V);
            double total = 0;
            for (size_t v = 0; v < V; ++v) total += std::exp(static_cast<double>(z[v] - m));
            const int target = static_cast<int>(y[row]), k = static_cast<int>(x[row - row % T + 1]);   // BOS k SEP ...
            double score = copy_token && target == Tokenizer::COPY ? copy_folded_logit(z, k) : z[target];
            double nll = m + std::log(total) - score;
            sum[row % T - (kPromptLength - 1)] += nll;   // t = 2 predicts poem position 0
        }
    }
    gpt.train(was_training);
    ValLoss out;
    out.records = poems.size();
    double all = 0;
    for (size_t p = 0; p < P; ++p) {
        all += sum[p];
        out.per_position.push_back(sum[p] / static_cast<double>(poems.size()));
    }
    out.mean = all / static_cast<double>(poems.size() * P);
    return out;
}

}  // namespace poet
