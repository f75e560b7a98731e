// Counting for eval.hpp. A line counts as copied only when all five characters match a training
// line exactly (position in the poem does not matter).
// Leaves out: near-copies (edit distance), copies of whole couplets.
#include "poet/eval.hpp"
#include "poet/quatrain.hpp"
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

}  // namespace poet
