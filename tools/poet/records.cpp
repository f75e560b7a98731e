// Record layout and batch assembly for records.hpp.
// Leaves out: shuffling epochs (sampling with replacement is simpler to reproduce and resume).
#include "poet/records.hpp"
#include <stdexcept>
#include "poet/copy_token.hpp"
#include "poet/quatrain.hpp"

namespace poet {

std::vector<Poem> encode_poems(const std::vector<std::u32string>& poems, const Tokenizer& tok) {
    std::vector<Poem> out;
    out.reserve(poems.size());
    for (const auto& text : poems) {
        Poem p;
        p.reserve(text.size());
        for (char32_t c : text) p.push_back(tok.id_or_unk(c));
        out.push_back(std::move(p));
    }
    return out;
}

std::vector<int> make_record(const Poem& poem, size_t slot) {
    if (poem.size() != quatrain::kLength)
        throw std::invalid_argument("make_record: a poem has " + std::to_string(quatrain::kLength) + " ids, got " +
                                    std::to_string(poem.size()));
    if (slot >= quatrain::kChars)
        throw std::out_of_range("make_record: slot " + std::to_string(slot) + " is outside [0, 20)");
    std::vector<int> r = {Tokenizer::BOS, poem[quatrain::slot_position(slot)], Tokenizer::SEP};
    r.insert(r.end(), poem.begin(), poem.end());
    r.push_back(Tokenizer::EOS);
    return r;
}

Batch make_batch(const std::vector<std::vector<int>>& records) {
    const size_t B = records.size(), T = kInputLength;
    std::vector<float> x(B * T), y(B * T);
    for (size_t b = 0; b < B; ++b) {
        if (records[b].size() != kRecordLength)
            throw std::invalid_argument("make_batch: record " + std::to_string(b) + " has " +
                                        std::to_string(records[b].size()) + " ids, expected " +
                                        std::to_string(kRecordLength));
        for (size_t t = 0; t < T; ++t) {
            x[b * T + t] = static_cast<float>(records[b][t]);
            // targets k and SEP (predicted from BOS and k) carry no loss
            y[b * T + t] = t + 1 < kPromptLength ? static_cast<float>(kIgnore) : static_cast<float>(records[b][t + 1]);
        }
    }
    return {pg::tensor(x, {B, T}), pg::tensor(y, {B * T})};
}

Batch rows_of(const Batch& batch, size_t begin, size_t end) {
    const size_t B = batch.inputs.shape()[0], T = batch.inputs.shape()[1];
    if (begin > end || end > B)
        throw std::invalid_argument("rows_of: rows [" + std::to_string(begin) + ", " + std::to_string(end) +
                                    ") of a batch of " + std::to_string(B));
    const float* x = batch.inputs.ptr() + begin * T;
    const float* y = batch.targets.ptr() + begin * T;
    return {pg::tensor(std::vector<float>(x, x + (end - begin) * T), {end - begin, T}),
            pg::tensor(std::vector<float>(y, y + (end - begin) * T), {(end - begin) * T})};
}

size_t counted_targets(const Batch& batch) {
    size_t n = 0;
    for (float y : batch.targets.to_vector()) n += y != static_cast<float>(kIgnore);
    return n;
}

Batch sample_batch(const std::vector<Poem>& poems, size_t batch_size, pg::Generator& gen, bool copy_token) {
    std::vector<std::vector<int>> records;
    records.reserve(batch_size);
    for (size_t b = 0; b < batch_size; ++b) {
        const Poem& poem = poems[gen.randint(poems.size())];
        std::vector<int> r = make_record(poem, gen.randint(quatrain::kChars));
        records.push_back(copy_token ? with_copy_token(r) : r);
    }
    return make_batch(records);
}

size_t validation_slot(size_t i) { return (7 * i) % quatrain::kChars; }

Batch validation_batch(const std::vector<Poem>& poems, size_t begin, size_t end, bool copy_token) {
    std::vector<std::vector<int>> records;
    for (size_t i = begin; i < end; ++i) {
        std::vector<int> r = make_record(poems[i], validation_slot(i));
        records.push_back(copy_token ? with_copy_token(r) : r);
    }
    return make_batch(records);
}

}  // namespace poet
