// The two-pass placement of writer.hpp: on decode.hpp's extend() for the loose form, on
// extend_in_form() (one allowed set per row and slot, from form.hpp's FormState) for 格律.
// Leaves out: choosing k for the user (the CLI and eval do that).
#include "poet/writer.hpp"
#include <algorithm>
#include <stdexcept>
#include "pg/autograd.hpp"
#include "poet/copy_token.hpp"
#include "poet/form.hpp"
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

// Which ideographs may fill a slot: every one (loose), or those 格律 allows after the row so far.
class SlotRule {
public:
    SlotRule(const Tokenizer& tok, Form form)
        : form_(form), han_(han_ids(tok)), table_(form == Form::Regulated ? &pingshui() : nullptr) {
        for (int id : han_) han_chars_.push_back(tok.char_of(id));
        if (form_ == Form::Regulated) pool_ = form::rhyme_pool(*table_, han_chars_);
    }
    const std::vector<int>& han() const { return han_; }

    // The ids allowed at position `pos` of `row` (a character slot), given row[0, pos); ascending.
    std::vector<int> allowed(const std::vector<int>& row, size_t pos) const {
        if (form_ == Form::Loose) return han_;
        form::FormState state = state_before(row, pos);
        std::vector<int> ids;
        for (size_t i = 0; i < han_.size(); ++i)
            if (state.allows(han_chars_[i])) ids.push_back(han_[i]);
        return ids;
    }

private:
    // The form after the character slots of row[kPoemStart, pos), as written.
    form::FormState state_before(const std::vector<int>& row, size_t pos) const {
        form::FormState state(*table_, pool_);
        for (size_t t = kPoemStart; t < pos; ++t)
            if (!quatrain::is_punctuation_position(t - kPoemStart)) state.advance(char_of(row[t]));
        return state;
    }
    char32_t char_of(int id) const {
        return han_chars_[static_cast<size_t>(std::lower_bound(han_.begin(), han_.end(), id) - han_.begin())];
    }
    Form form_;
    std::vector<int> han_;            // ascending
    std::vector<char32_t> han_chars_; // han_chars_[i] is the character of han_[i]
    const RhymeTable* table_;         // Regulated only
    std::vector<bool> pool_;          // the rhyme groups a poem may use (Regulated)
};

// decode.hpp's extend() for constrained rows (all kRowLength long), with the allowed set of each
// row's next slot from `rule`: fixed ids go in as they are, the rest is sampled, rows of one
// position batched through the model.
void extend_in_form(pg::nn::GPT& gpt, std::vector<std::vector<int>>& rows, const std::vector<std::vector<int>>& fixed,
                    const SlotRule& rule, const SamplingOptions& opt, pg::Generator& gen, bool copy_token,
                    const LogitAdjust& adjust) {
    for (;;) {
        std::vector<size_t> to_sample;   // rows whose next position is sampled, all at position t
        size_t t = 0;
        for (size_t r = 0; r < rows.size(); ++r) {
            while (rows[r].size() < kRowLength && fixed[r][rows[r].size()] >= 0)
                rows[r].push_back(fixed[r][rows[r].size()]);
            if (rows[r].size() < kRowLength && (to_sample.empty() || rows[r].size() == t)) {
                to_sample.push_back(r);
                t = rows[r].size();
            }
        }
        if (to_sample.empty()) return;
        std::vector<std::vector<int>> batch;
        for (size_t r : to_sample) batch.push_back(rows[r]);
        std::vector<std::vector<float>> logits = next_logits(gpt, batch, copy_token);
        for (size_t i = 0; i < to_sample.size(); ++i) {
            if (adjust) adjust(logits[i], batch[i]);
            rows[to_sample[i]].push_back(sample_token(logits[i], rule.allowed(batch[i], t), opt, gen));
        }
    }
}

// The steering of opt as decode.hpp's LogitAdjust: empty when there is none (or decoding is free).
LogitAdjust adjust_for(const WriteOptions& opt, const Tokenizer& tok) {
    if (!opt.constrained || !opt.steering.active()) return {};
    const Steering steering = opt.steering;
    return [steering, &tok](std::vector<float>& logits, const std::vector<int>& row) {
        steer_logits(logits, row, steering, tok);
    };
}

void extend_rows(pg::nn::GPT& gpt, std::vector<std::vector<int>>& rows, const std::vector<std::vector<int>>& fixed,
                 size_t length, const SlotRule& rule, const WriteOptions& opt, const Tokenizer& tok,
                 pg::Generator& gen) {
    LogitAdjust adjust = adjust_for(opt, tok);
    if (opt.form == Form::Regulated)
        return extend_in_form(gpt, rows, fixed, rule, opt.sampling, gen, opt.copy_token, adjust);
    extend(gpt, rows, fixed, length, opt.constrained ? rule.han() : std::vector<int>{}, opt.sampling, gen,
           opt.copy_token, adjust);
}

// writer.hpp's slot_odds under one slot rule, for drafts already checked: for every slot s of each
// draft, may k go there (given the draft before s), and q_s. One forward pass over the drafts.
std::vector<SlotOdds> odds_under(pg::nn::GPT& gpt, const std::vector<std::vector<int>>& rows, const SlotRule& rule,
                                 float temperature, bool copy_token) {
    pg::NoGradGuard no_grad;
    const size_t B = rows.size(), T = kRowLength - 1, V = gpt.config().vocab_size;
    std::vector<float> flat;
    for (const auto& r : rows) {
        const std::vector<int> read = copy_token ? with_copy_token(r) : r;   // what the model reads
        flat.insert(flat.end(), read.begin(), read.begin() + static_cast<long>(T));
    }
    pg::Tensor logits = gpt.forward(pg::tensor(flat, {B, T}));   // (B,T,V)
    std::vector<SlotOdds> odds(B, {std::vector<bool>(quatrain::kChars), std::vector<double>(quatrain::kChars)});
    for (size_t b = 0; b < B; ++b) {
        int k = rows[b][1];   // BOS k SEP ...
        for (size_t s = 0; s < quatrain::kChars; ++s) {
            size_t pos = kPoemStart + quatrain::slot_position(s);
            std::vector<int> allowed = rule.allowed(rows[b], pos);
            auto at = std::lower_bound(allowed.begin(), allowed.end(), k);
            if (at == allowed.end() || *at != k) continue;
            const float* z = logits.ptr() + (b * T + pos - 1) * V;   // the input position that predicts slot s
            std::vector<float> row(z, z + V);
            if (copy_token) fold_copy_token(row, k);
            odds[b].fits[s] = true;
            std::vector<double> p = allowed_probabilities(row, allowed, temperature > 0.f ? temperature : 1.f);
            odds[b].q[s] = p[static_cast<size_t>(at - allowed.begin())];
        }
    }
    return odds;
}

// A slot where k fits, drawn with probability proportional to q_s (the most likely at temperature
// 0; uniform among the fitting slots if every q_s underflowed to 0); quatrain::kChars when none fits.
size_t choose_slot(const SlotOdds& odds, float temperature, pg::Generator& gen) {
    std::vector<size_t> fitting;
    double total = 0;
    for (size_t s = 0; s < odds.q.size(); ++s)
        if (odds.fits[s]) {
            fitting.push_back(s);
            total += odds.q[s];
        }
    if (fitting.empty()) return quatrain::kChars;
    if (temperature <= 0.f)
        return *std::max_element(fitting.begin(), fitting.end(),
                                 [&](size_t a, size_t b) { return odds.q[a] < odds.q[b]; });
    double u = gen.uniform();
    if (total <= 0) {
        size_t n = fitting.size();
        return fitting[std::min(n - 1, static_cast<size_t>(u * static_cast<double>(n)))];
    }
    double acc = 0;
    u *= total;
    for (size_t s : fitting) {
        acc += odds.q[s];
        if (u < acc) return s;
    }
    return fitting.back();
}

bool contains(const std::vector<int>& row, int k) {
    return std::find(row.begin() + static_cast<long>(kPoemStart), row.end(), k) != row.end();
}

}  // namespace

std::vector<SlotOdds> slot_odds(pg::nn::GPT& gpt, const Tokenizer& tok, const std::vector<std::vector<int>>& drafts,
                                Form form, float temperature, bool copy_token) {
    if (gpt.config().context < kRowLength - 1)
        throw std::invalid_argument("slot_odds: the model's context " + std::to_string(gpt.config().context) +
                                    " is shorter than a record");
    const std::vector<int> punctuation = layout(tok);
    for (size_t b = 0; b < drafts.size(); ++b) {
        const std::vector<int>& row = drafts[b];
        bool ok = row.size() >= kRowLength - 1 && row[0] == Tokenizer::BOS && row[2] == Tokenizer::SEP &&
                  row[1] >= 0 && static_cast<size_t>(row[1]) < tok.size() && tok.is_han(row[1]);
        for (size_t t = kPoemStart; ok && t < kRowLength - 1; ++t)
            ok = punctuation[t] >= 0 ? row[t] == punctuation[t]
                                     : row[t] >= 0 && static_cast<size_t>(row[t]) < tok.size() && tok.is_han(row[t]);
        if (!ok)
            throw std::invalid_argument("slot_odds: draft " + std::to_string(b) +
                                        " is not BOS k SEP and a poem in the quatrain's layout (k and the 20 slots "
                                        "ideographs of the vocabulary)");
    }
    bool was_training = gpt.is_training();
    gpt.eval();
    std::vector<SlotOdds> odds;
    try {
        odds = odds_under(gpt, drafts, SlotRule(tok, form), temperature, copy_token);
    } catch (...) {
        gpt.train(was_training);
        throw;
    }
    gpt.train(was_training);
    return odds;
}

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
    if (opt.steering.topics && opt.steering.topic_weight != 0.f)
        for (int k : ks) opt.steering.topics->related(k);   // throws before decoding for a k not counted
    if (opt.form == Form::Regulated && !opt.constrained)
        throw std::invalid_argument("write: 格律 (--form regulated) needs constrained decoding (drop --free, or use "
                                    "--form loose)");
    bool was_training = gpt.is_training();
    gpt.eval();
    const SlotRule rule(tok, opt.form);
    std::vector<int> fixed_row = opt.constrained ? layout(tok) : std::vector<int>(gpt.config().context, -1);
    const size_t length = opt.constrained ? kRowLength : gpt.config().context;

    std::vector<std::vector<int>> rows, fixed(ks.size(), fixed_row);
    for (size_t i = 0; i < ks.size(); ++i) {
        rows.push_back({Tokenizer::BOS, ks[i], Tokenizer::SEP});
        if (opt.placement == Placement::Acrostic) fixed[i][kPoemStart] = ks[i];   // slot 0 is free in every template
    }
    extend_rows(gpt, rows, fixed, length, rule, opt, tok, gen);

    std::vector<WrittenPoem> out(ks.size());
    for (size_t i = 0; i < rows.size(); ++i) out[i].drafted_with_char = contains(rows[i], ks[i]);

    if (opt.placement == Placement::Model) {
        std::vector<size_t> lacking;
        for (size_t i = 0; i < rows.size(); ++i)
            if (!out[i].drafted_with_char) lacking.push_back(i);
        if (!lacking.empty()) {
            std::vector<std::vector<int>> drafts;
            for (size_t i : lacking) drafts.push_back(rows[i]);
            std::vector<SlotOdds> odds = odds_under(gpt, drafts, rule, opt.sampling.temperature, opt.copy_token);
            for (size_t j = 0; j < lacking.size(); ++j) {
                size_t i = lacking[j], slot = choose_slot(odds[j], opt.sampling.temperature, gen);
                if (slot == quatrain::kChars) {
                    gpt.train(was_training);
                    throw std::invalid_argument("write: " + tok.token_str(ks[i]) +
                                                " fits no slot of any template after the draft before it");
                }
                size_t pos = kPoemStart + quatrain::slot_position(slot);
                rows[i].resize(pos);             // keep the draft before the slot
                fixed[i][pos] = ks[i];
                out[i].forced_slot = static_cast<int>(slot);
            }
            extend_rows(gpt, rows, fixed, length, rule, opt, tok, gen);
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
