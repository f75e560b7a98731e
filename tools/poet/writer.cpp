// The two-pass placement of writer.hpp on top of decode.hpp's extend().
// Leaves out: choosing k for the user (the CLI and eval do that).
#include "poet/writer.hpp"
#include <algorithm>
#include <stdexcept>
#include "pg/autograd.hpp"
#include "poet/quatrain.hpp"
#include "poet/records.hpp"

namespace poet {

std::vector<int> han_ids(const Tokenizer& tok) {
    std::vector<int> ids;
    for (int id = 0; id < static_cast<int>(tok.size()); ++id)
        if (tok.is_han(id)) ids.push_back(id);
    return ids;
}

bool is_well_formed(const std::vector<int>& ids, const Tokenizer& tok) {
    if (ids.size() != quatrain::kLength + 1 || ids.back() != Tokenizer::EOS) return false;
    std::u32string text;
    for (size_t i = 0; i < quatrain::kLength; ++i) {
        char32_t c = tok.char_of(ids[i]);
        if (c == 0) return false;
        text.push_back(c);
    }
    return quatrain::well_formed(text);
}

namespace {

constexpr size_t kPoemStart = kPromptLength;                                  // index of the poem in a row
constexpr size_t kRowLength = kRecordLength;                                  // BOS k SEP poem EOS

// Fixed ids of a constrained row: punctuation at the line ends and EOS after them.
std::vector<int> layout(const Tokenizer& tok) {
    std::vector<int> fixed(kRowLength, -1);
    for (size_t p = 0; p < quatrain::kLength; ++p)
        if (quatrain::is_punctuation_position(p)) fixed[kPoemStart + p] = tok.id(quatrain::punctuation_at(p));
    fixed[kRowLength - 1] = Tokenizer::EOS;
    return fixed;
}

// q_s for every slot s of each row: the probability, at this temperature over the allowed ids,
// that the model writes k at slot s given the row before s. One forward pass over the rows.
std::vector<std::vector<double>> slot_probabilities(pg::nn::GPT& gpt, const std::vector<std::vector<int>>& rows,
                                                    const std::vector<int>& allowed, float temperature) {
    pg::NoGradGuard no_grad;
    const size_t B = rows.size(), T = kRowLength - 1, V = gpt.config().vocab_size;
    std::vector<float> flat;
    for (const auto& r : rows) flat.insert(flat.end(), r.begin(), r.begin() + static_cast<long>(T));
    pg::Tensor logits = gpt.forward(pg::tensor(flat, {B, T}));   // (B,T,V)
    std::vector<std::vector<double>> q(B, std::vector<double>(quatrain::kChars));
    for (size_t b = 0; b < B; ++b) {
        int k = rows[b][1];   // BOS k SEP ...
        size_t k_index = static_cast<size_t>(std::lower_bound(allowed.begin(), allowed.end(), k) - allowed.begin());
        for (size_t s = 0; s < quatrain::kChars; ++s) {
            size_t t = kPoemStart + quatrain::slot_position(s) - 1;   // the input position that predicts slot s
            const float* z = logits.ptr() + (b * T + t) * V;
            std::vector<float> row(z, z + V);
            q[b][s] = allowed_probabilities(row, allowed, temperature > 0.f ? temperature : 1.f)[k_index];
        }
    }
    return q;
}

size_t choose_slot(const std::vector<double>& q, float temperature, pg::Generator& gen) {
    if (temperature <= 0.f) return static_cast<size_t>(std::max_element(q.begin(), q.end()) - q.begin());
    double total = 0;
    for (double v : q) total += v;
    double u = gen.uniform() * total, acc = 0;
    for (size_t s = 0; s < q.size(); ++s) {
        acc += q[s];
        if (u < acc) return s;
    }
    return q.size() - 1;
}

bool contains(const std::vector<int>& row, int k) {
    return std::find(row.begin() + static_cast<long>(kPoemStart), row.end(), k) != row.end();
}

}  // namespace

std::vector<WrittenPoem> write_poems(pg::nn::GPT& gpt, const Tokenizer& tok, const std::vector<int>& ks,
                                     const WriteOptions& opt, pg::Generator& gen) {
    for (int k : ks)
        if (k < 0 || static_cast<size_t>(k) >= tok.size() || !tok.is_han(k))
            throw std::invalid_argument("write: id " + std::to_string(k) + " is not a Chinese character of the vocabulary");
    if (opt.placement == Placement::Model && !opt.constrained)
        throw std::invalid_argument("write: placing the character by the model needs constrained decoding (drop --free, "
                                    "or use --acrostic)");
    if (gpt.config().context < kRowLength - 1)
        throw std::invalid_argument("write: the model's context " + std::to_string(gpt.config().context) +
                                    " is shorter than a record");
    bool was_training = gpt.is_training();
    gpt.eval();
    const std::vector<int> allowed = opt.constrained ? han_ids(tok) : std::vector<int>{};
    std::vector<int> fixed_row = opt.constrained ? layout(tok) : std::vector<int>(gpt.config().context, -1);
    const size_t length = opt.constrained ? kRowLength : gpt.config().context;

    std::vector<std::vector<int>> rows, fixed(ks.size(), fixed_row);
    for (size_t i = 0; i < ks.size(); ++i) {
        rows.push_back({Tokenizer::BOS, ks[i], Tokenizer::SEP});
        if (opt.placement == Placement::Acrostic) fixed[i][kPoemStart] = ks[i];
    }
    extend(gpt, rows, fixed, length, allowed, opt.sampling, gen);

    std::vector<WrittenPoem> out(ks.size());
    for (size_t i = 0; i < rows.size(); ++i) out[i].drafted_with_char = contains(rows[i], ks[i]);

    if (opt.placement == Placement::Model) {
        std::vector<size_t> lacking;
        for (size_t i = 0; i < rows.size(); ++i)
            if (!out[i].drafted_with_char) lacking.push_back(i);
        if (!lacking.empty()) {
            std::vector<std::vector<int>> drafts;
            for (size_t i : lacking) drafts.push_back(rows[i]);
            std::vector<std::vector<double>> q = slot_probabilities(gpt, drafts, allowed, opt.sampling.temperature);
            for (size_t j = 0; j < lacking.size(); ++j) {
                size_t i = lacking[j], slot = choose_slot(q[j], opt.sampling.temperature, gen);
                size_t pos = kPoemStart + quatrain::slot_position(slot);
                rows[i].resize(pos);             // keep the draft before the slot
                fixed[i][pos] = ks[i];
                out[i].forced_slot = static_cast<int>(slot);
            }
            extend(gpt, rows, fixed, length, allowed, opt.sampling, gen);
        }
    }
    gpt.train(was_training);

    for (size_t i = 0; i < rows.size(); ++i) {
        WrittenPoem& p = out[i];
        p.ids.assign(rows[i].begin() + static_cast<long>(kPoemStart), rows[i].end());
        std::vector<int> visible = p.ids;
        if (!visible.empty() && visible.back() == Tokenizer::EOS) visible.pop_back();
        p.text = tok.decode(visible);
        p.well_formed = is_well_formed(p.ids, tok);
        p.has_char = contains(rows[i], ks[i]);
    }
    return out;
}

}  // namespace poet
