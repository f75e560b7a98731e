// Lesson 27 solution: a record read with the copy token, and the copy-token model's honest loss,
// -log(p(k) + p(COPY)) for a target COPY, from the logits (log-sum-exp, in double).
#include <algorithm>
#include <cmath>
#include "check.hpp"

std::vector<int> exercise::mark_copies(const std::vector<int>& record) {
    std::vector<int> read = record;
    const int k = record[1];
    for (size_t i = poet::kPromptLength; i < read.size(); ++i)   // the poem: positions 3 on
        if (read[i] == k) read[i] = poet::Tokenizer::COPY;
    return read;
}

exercise::CopyLoss exercise::copy_loss(const pg::Tensor& logits, const pg::Tensor& targets, const pg::Tensor& ks,
                                       long ignore) {
    const size_t N = logits.size(0), V = logits.size(1);
    double sum = 0;
    size_t counted = 0;
    for (size_t r = 0; r < N; ++r) {
        const long target = static_cast<long>(targets.ptr()[r]);
        if (target == ignore) continue;
        const float* z = logits.ptr() + r * V;   // row r: V logits
        const double m = *std::max_element(z, z + V);
        double total = 0;
        for (size_t v = 0; v < V; ++v) total += std::exp(z[v] - m);   // every term <= 1
        double score = z[target];
        if (target == poet::Tokenizer::COPY) {   // k by its own id or as COPY: log(e^a + e^b)
            const double a = z[static_cast<size_t>(ks.ptr()[r])], b = z[poet::Tokenizer::COPY], mab = std::max(a, b);
            score = mab + std::log(std::exp(a - mab) + std::exp(b - mab));
        }
        sum += m + std::log(total) - score;   // log-sum-exp - score
        ++counted;
    }
    if (counted == 0) return {0.0, 0};
    return {sum / static_cast<double>(counted), counted};
}
