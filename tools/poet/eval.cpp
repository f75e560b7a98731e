// Counting for eval.hpp. A line counts as copied only when all five characters match a training
// line exactly (position in the poem does not matter). Co-occurrence is counted per poem (does the
// poem hold both characters), not per position or line.
// Leaves out: near-copies (edit distance), copies of whole couplets, smoothing of rare counts.
#include "poet/eval.hpp"
#include <algorithm>
#include <cmath>
#include "pg/autograd.hpp"
#include "poet/copy_token.hpp"
#include "poet/form.hpp"
#include "poet/quatrain.hpp"
#include "poet/records.hpp"
#include "poet/utf8.hpp"

namespace poet {

std::unordered_set<std::u32string> training_lines(const std::vector<std::u32string>& poems) {
    std::unordered_set<std::u32string> lines;
    for (const auto& p : poems)
        for (size_t i = 0; i < quatrain::kLines; ++i) lines.insert(quatrain::line(p, i));
    return lines;
}

SampleStats sample_stats(const std::vector<WrittenPoem>& poems, const Tokenizer&,
                         const std::unordered_set<std::u32string>& lines) {
    SampleStats s;
    s.poems = poems.size();
    if (poems.empty()) return s;
    size_t formed = 0, with_char = 0, drafted = 0, copied = 0, with_copy = 0;
    for (const WrittenPoem& p : poems) {
        with_char += p.has_char;
        drafted += p.drafted_with_char;
        if (!p.well_formed) continue;
        ++formed;
        std::u32string text = decode_utf8(p.text);
        size_t here = 0;
        for (size_t i = 0; i < quatrain::kLines; ++i) here += lines.count(quatrain::line(text, i));
        copied += here;
        with_copy += here > 0;
    }
    double n = static_cast<double>(poems.size());
    s.well_formed = static_cast<double>(formed) / n;
    s.contains_char = static_cast<double>(with_char) / n;
    s.drafted_with_char = static_cast<double>(drafted) / n;
    if (formed) {
        s.copied_lines = static_cast<double>(copied) / static_cast<double>(formed * quatrain::kLines);
        s.poems_with_copy = static_cast<double>(with_copy) / static_cast<double>(formed);
    }
    return s;
}

std::vector<int> draw_prompts(const Tokenizer& tok, size_t n, pg::Generator& gen) {
    std::vector<int> han = han_ids(tok), out;
    for (size_t i = 0; i < n; ++i) out.push_back(han[gen.randint(han.size())]);
    return out;
}

Prompted prompted(const std::vector<int>& prompts, const std::vector<WrittenPoem>& written, const Tokenizer& tok) {
    Prompted p;
    for (size_t i = 0; i < written.size(); ++i)
        if (written[i].well_formed) {
            p.ks.push_back(tok.char_of(prompts.at(i)));
            p.poems.push_back(decode_utf8(written[i].text));
        }
    return p;
}

namespace {

// The distinct characters of a quatrain's 20 slots.
std::u32string distinct_chars(const std::u32string& poem) {
    std::u32string chars;
    for (size_t s = 0; s < quatrain::kChars; ++s) chars.push_back(poem[quatrain::slot_position(s)]);
    std::sort(chars.begin(), chars.end());
    chars.erase(std::unique(chars.begin(), chars.end()), chars.end());
    return chars;
}

bool repeats_a_char(const std::u32string& poem) { return distinct_chars(poem).size() < quatrain::kChars; }

}  // namespace

FormStats form_stats(const std::vector<std::u32string>& poems, const RhymeTable& table) {
    FormStats f;
    f.poems = poems.size();
    f.template_share.assign(form::templates().size(), 0);
    if (poems.empty()) return f;
    size_t rhyme = 0, tones = 0, regular = 0, repeated = 0;
    for (const std::u32string& poem : poems) {
        form::Check c = form::check(poem, table);
        rhyme += c.rhyme;
        tones += c.tones;
        regular += c.regular;
        repeated += repeats_a_char(poem);
        if (c.regular) f.template_share[static_cast<size_t>(c.template_index)] += 1;
    }
    double n = static_cast<double>(poems.size());
    f.rhyme = static_cast<double>(rhyme) / n;
    f.tones = static_cast<double>(tones) / n;
    f.regular = static_cast<double>(regular) / n;
    f.repeated_char = static_cast<double>(repeated) / n;
    for (double& share : f.template_share) share = regular ? share / static_cast<double>(regular) : 0;
    return f;
}

double mean_log_prob(pg::nn::GPT& gpt, const Tokenizer& tok, const Prompted& p, bool copy_token, size_t* skipped) {
    constexpr size_t kBatch = 64;   // (64,27,V) logits at a time
    std::vector<std::vector<int>> records;
    for (size_t i = 0; i < p.poems.size(); ++i) {
        std::u32string text = p.poems[i];
        auto known = [&](char32_t c) { return tok.contains(c); };
        if (!known(p.ks[i]) || !std::all_of(text.begin(), text.end(), known))
            continue;
        std::vector<int> r = {Tokenizer::BOS, tok.id(p.ks[i]), Tokenizer::SEP};
        for (char32_t c : text) r.push_back(tok.id(c));
        records.push_back(r);
    }
    if (skipped) *skipped = p.poems.size() - records.size();
    if (records.empty()) return 0;
    pg::NoGradGuard no_grad;
    bool was_training = gpt.is_training();
    gpt.eval();
    const size_t T = kPromptLength + quatrain::kLength - 1, V = gpt.config().vocab_size;   // inputs up to the last 。
    double total = 0;
    for (size_t begin = 0; begin < records.size(); begin += kBatch) {
        size_t B = std::min(kBatch, records.size() - begin);
        std::vector<float> flat;
        for (size_t b = 0; b < B; ++b) {
            const std::vector<int>& r = records[begin + b];
            const std::vector<int> read = copy_token ? with_copy_token(r) : r;   // what the model reads
            flat.insert(flat.end(), read.begin(), read.begin() + static_cast<long>(T));
        }
        pg::Tensor logits = gpt.forward(pg::tensor(flat, {B, T}));   // (B,T,V)
        for (size_t b = 0; b < B; ++b)
            for (size_t s = 0; s < quatrain::kChars; ++s) {
                size_t pos = kPromptLength + quatrain::slot_position(s);
                const float* z = logits.ptr() + (b * T + pos - 1) * V;   // the input position that predicts slot s
                double m = *std::max_element(z, z + V), sum = 0;
                for (size_t v = 0; v < V; ++v) sum += std::exp(z[v] - m);
                const int c = records[begin + b][pos], k = records[begin + b][1];
                const double score = copy_token && c == k ? copy_folded_logit(z, k) : z[c];
                total += score - m - std::log(sum);
            }
    }
    gpt.train(was_training);
    return total / static_cast<double>(records.size() * quatrain::kChars);
}

Cooccurrence::Cooccurrence(const std::vector<std::u32string>& corpus, const std::vector<char32_t>& ks) {
    for (char32_t k : ks) with_[k];
    poems_ = corpus.size();
    for (const std::u32string& poem : corpus) {
        std::u32string chars = distinct_chars(poem);
        for (char32_t c : chars) {
            ++holding_[c];
            auto k = with_.find(c);
            if (k == with_.end()) continue;
            for (char32_t other : chars) ++k->second[other];
        }
    }
}

double Cooccurrence::ppmi(char32_t k, char32_t c, const std::u32string* held_out) const {
    auto count = [](const auto& map, char32_t key) {
        auto it = map.find(key);
        return it == map.end() ? size_t{0} : it->second;
    };
    auto row = with_.find(k);
    if (row == with_.end()) throw std::invalid_argument("topicality: " + encode_utf8(k) + " was not counted");
    bool has_k = held_out && held_out->find(k) != std::u32string::npos;
    bool has_c = held_out && held_out->find(c) != std::u32string::npos;
    double n = static_cast<double>(poems_ - (held_out ? 1 : 0));
    double n_k = static_cast<double>(count(holding_, k) - has_k), n_c = static_cast<double>(count(holding_, c) - has_c);
    double n_kc = static_cast<double>(count(row->second, c) - (has_k && has_c));
    if (n_k <= 0 || n_c <= 0 || n_kc <= 0) return 0;
    return std::max(0.0, std::log(n * n_kc / (n_k * n_c)));
}

double Cooccurrence::score(char32_t k, const std::u32string& poem, bool poem_in_corpus) const {
    double total = 0;
    size_t n = 0;
    for (char32_t c : distinct_chars(poem))
        if (c != k) {
            total += ppmi(k, c, poem_in_corpus ? &poem : nullptr);
            ++n;
        }
    return n ? total / static_cast<double>(n) : 0;
}

Topicality topicality(const Cooccurrence& co, const Prompted& p, bool poems_in_corpus) {
    Topicality t;
    size_t others = 0;   // poems with at least one poem for another prompt
    for (size_t i = 0; i < p.poems.size(); ++i) {
        t.own += co.score(p.ks[i], p.poems[i], poems_in_corpus);
        double sum = 0;
        size_t n = 0;
        for (size_t j = 0; j < p.poems.size(); ++j)
            if (p.ks[j] != p.ks[i]) {
                sum += co.score(p.ks[i], p.poems[j], poems_in_corpus);
                ++n;
            }
        if (n) {
            t.others += sum / static_cast<double>(n);
            ++others;
        }
    }
    if (!p.poems.empty()) t.own /= static_cast<double>(p.poems.size());
    if (others) t.others /= static_cast<double>(others);
    return t;
}

Prompted real_poems_with(const std::vector<std::u32string>& corpus, const std::vector<char32_t>& ks,
                         pg::Generator& gen) {
    std::unordered_map<char32_t, std::vector<size_t>> holding;
    for (char32_t k : ks) holding[k];
    for (size_t i = 0; i < corpus.size(); ++i)
        for (char32_t c : distinct_chars(corpus[i])) {
            auto it = holding.find(c);
            if (it != holding.end()) it->second.push_back(i);
        }
    Prompted p;
    for (char32_t k : ks) {
        const std::vector<size_t>& with_k = holding[k];
        if (with_k.empty()) continue;
        p.ks.push_back(k);
        p.poems.push_back(corpus[with_k[gen.randint(with_k.size())]]);
    }
    return p;
}

}  // namespace poet
