// The decoding primitives of decode.hpp. Sampling draws one uniform number per token from the
// caller's generator, so a seed fixes every poem.
// Leaves out: nucleus (top-p) sampling, beam search (repetition penalties: steer.hpp, through LogitAdjust).
#include "poet/decode.hpp"
#include <algorithm>
#include <cmath>
#include <numeric>
#include "pg/autograd.hpp"
#include "pg/ops.hpp"
#include "poet/copy_token.hpp"

namespace poet {

std::vector<std::vector<float>> next_logits(pg::nn::GPT& gpt, const std::vector<std::vector<int>>& rows,
                                            bool copy_token) {
    pg::NoGradGuard no_grad;
    const size_t B = rows.size(), T = rows.at(0).size(), V = gpt.config().vocab_size;
    std::vector<float> flat;
    flat.reserve(B * T);
    for (const auto& r : rows) {
        const std::vector<int> read = copy_token ? with_copy_token(r) : r;   // what the model reads
        flat.insert(flat.end(), read.begin(), read.end());
    }
    pg::Tensor logits = gpt.forward_last(pg::tensor(flat, {B, T}));   // (B,V)
    std::vector<std::vector<float>> out(B);
    for (size_t b = 0; b < B; ++b) {
        out[b].assign(logits.ptr() + b * V, logits.ptr() + (b + 1) * V);
        if (copy_token) fold_copy_token(out[b], rows[b].at(1));
    }
    return out;
}

static std::vector<int> every_id(size_t V) {
    std::vector<int> all(V);
    std::iota(all.begin(), all.end(), 0);
    return all;
}

std::vector<double> allowed_probabilities(const std::vector<float>& logits, const std::vector<int>& allowed,
                                          float temperature) {
    const std::vector<int>& ids = allowed.empty() ? every_id(logits.size()) : allowed;
    std::vector<double> p(ids.size());
    double m = -INFINITY;
    for (int id : ids) m = std::max(m, static_cast<double>(logits[static_cast<size_t>(id)]));
    if (temperature <= 0.f) {   // greedy: all mass on the first maximum
        for (size_t i = 0; i < ids.size(); ++i)
            if (logits[static_cast<size_t>(ids[i])] == m) { p[i] = 1; break; }
        return p;
    }
    double z = 0;
    for (size_t i = 0; i < ids.size(); ++i) z += p[i] = std::exp((logits[static_cast<size_t>(ids[i])] - m) / temperature);
    for (double& v : p) v /= z;
    return p;
}

int sample_token(const std::vector<float>& logits, const std::vector<int>& allowed, const SamplingOptions& opt,
                 pg::Generator& gen) {
    std::vector<int> ids = allowed.empty() ? every_id(logits.size()) : allowed;
    if (opt.top_k > 0 && opt.top_k < ids.size()) {
        // the k largest logits; a tie at the k-th is decided by the smaller id, so the cut is one set
        auto by_logit = [&](int a, int b) {
            float la = logits[static_cast<size_t>(a)], lb = logits[static_cast<size_t>(b)];
            return la > lb || (la == lb && a < b);
        };
        std::partial_sort(ids.begin(), ids.begin() + static_cast<long>(opt.top_k), ids.end(), by_logit);
        ids.resize(opt.top_k);
    }
    std::vector<double> p = allowed_probabilities(logits, ids, opt.temperature);
    double u = gen.uniform(), acc = 0;
    for (size_t i = 0; i < ids.size(); ++i) {
        acc += p[i];
        if (u < acc) return ids[i];
    }
    for (size_t i = ids.size(); i-- > 0;)   // rounding left u above the total: the last id with mass
        if (p[i] > 0) return ids[i];
    return ids.back();
}

void extend(pg::nn::GPT& gpt, std::vector<std::vector<int>>& rows, const std::vector<std::vector<int>>& fixed,
            size_t length, const std::vector<int>& allowed, const SamplingOptions& opt, pg::Generator& gen,
            bool copy_token, const LogitAdjust& adjust) {
    auto done = [&](size_t r) { return rows[r].size() >= length || (!rows[r].empty() && rows[r].back() == Tokenizer::EOS); };
    for (;;) {
        std::vector<size_t> to_sample;   // rows whose next position is sampled, all of one length
        bool any_left = false;
        size_t t = 0;
        for (size_t r = 0; r < rows.size(); ++r) {
            if (done(r)) continue;
            any_left = true;
            size_t pos = rows[r].size();
            int f = pos < fixed[r].size() ? fixed[r][pos] : -1;
            if (f >= 0) {
                rows[r].push_back(f);
            } else if (to_sample.empty() || pos == t) {
                to_sample.push_back(r);
                t = pos;
            }
        }
        if (!any_left) return;
        if (to_sample.empty()) continue;
        std::vector<std::vector<int>> batch;
        for (size_t r : to_sample) batch.push_back(rows[r]);
        std::vector<std::vector<float>> logits = next_logits(gpt, batch, copy_token);
        for (size_t i = 0; i < to_sample.size(); ++i) {
            if (adjust) adjust(logits[i], batch[i]);
            rows[to_sample[i]].push_back(sample_token(logits[i], allowed, opt, gen));
        }
    }
}

}  // namespace poet
