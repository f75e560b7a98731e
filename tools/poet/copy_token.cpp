// with_copy_token and the folding of COPY's probability into k's (copy_token.hpp).
// Leaves out: nothing else; the callers decide when a model uses the copy token (TrainConfig::copy_token).
#include "poet/copy_token.hpp"
#include <algorithm>
#include <cmath>
#include "poet/records.hpp"

namespace poet {

std::vector<int> with_copy_token(std::vector<int> row) {
    if (row.size() < kPromptLength) return row;
    const int k = row[1];
    std::replace(row.begin() + static_cast<long>(kPromptLength), row.end(), k, static_cast<int>(Tokenizer::COPY));
    return row;
}

double copy_folded_logit(const float* z, int k) {
    const double a = z[k], b = z[Tokenizer::COPY], m = std::max(a, b);
    if (std::isinf(m)) return m;   // both -inf (or one +inf): no sum of exps to take
    return m + std::log(std::exp(a - m) + std::exp(b - m));
}

void fold_copy_token(std::vector<float>& logits, int k) {
    logits[static_cast<size_t>(k)] = static_cast<float>(copy_folded_logit(logits.data(), k));
    logits[Tokenizer::COPY] = -INFINITY;
}

}  // namespace poet
