// Training records and batches. A record is  BOS k SEP poem EOS  (1+1+1+24+1 = 28 ids), k one of
// the poem's 20 characters. The model reads the first 27 ids and predicts the last 27; the loss
// counts only the 25 predictions of poem and EOS (the targets k and SEP are kIgnore).
// Leaves out: padding (every record has the same length), packing several poems into one row.
#pragma once
#include <vector>
#include "pg/random.hpp"
#include "pg/tensor.hpp"
#include "poet/tokenizer.hpp"

namespace poet {

constexpr int kIgnore = -1;               // ignore_index for cross_entropy
constexpr size_t kRecordLength = 28;
constexpr size_t kPromptLength = 3;       // BOS k SEP
constexpr size_t kInputLength = kRecordLength - 1;   // T = 27
constexpr size_t kLossTokens = 25;        // 24 poem ids + EOS per record

using Poem = std::vector<int>;            // the 24 ids of one quatrain

// Encodes well-formed quatrains; characters outside the vocabulary become UNK.
std::vector<Poem> encode_poems(const std::vector<std::u32string>& poems, const Tokenizer& tok);

// BOS k SEP poem EOS, k = the id at character slot `slot` in [0, 20).
std::vector<int> make_record(const Poem& poem, size_t slot);

struct Batch {
    pg::Tensor inputs;    // (B,T) ids
    pg::Tensor targets;   // (B*T) ids, kIgnore where no loss is taken
};

// Rows from records: inputs are record[0:27], targets record[1:28] with the first two ignored.
Batch make_batch(const std::vector<std::vector<int>>& records);

// Rows [begin, end) of a batch: a process's share of the global batch in data-parallel training.
Batch rows_of(const Batch& batch, size_t begin, size_t end);
// How many targets of the batch are counted (not kIgnore).
size_t counted_targets(const Batch& batch);

// B records drawn with replacement, each with a fresh slot for k: poem = randint(N), slot = randint(20).
// copy_token: each record as with_copy_token writes it (copy_token.hpp), the poem's k as COPY.
Batch sample_batch(const std::vector<Poem>& poems, size_t batch_size, pg::Generator& gen, bool copy_token = false);

// The validation record of poem i uses slot (7*i) % 20: fixed, so every run (and the PyTorch
// twin) measures the same records.
size_t validation_slot(size_t i);
Batch validation_batch(const std::vector<Poem>& poems, size_t begin, size_t end, bool copy_token = false);

}  // namespace poet
