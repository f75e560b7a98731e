// Resolves the prompt character of `./poet write` and explains every way it can be wrong.
// Leaves out: prompts longer than one character (the poem is conditioned on exactly one).
#include "poet/variants.hpp"
#include <algorithm>
#include <map>
#include <stdexcept>
#include "poet/utf8.hpp"

namespace poet {

static const std::multimap<char32_t, char32_t>& variant_links() {
    static const std::multimap<char32_t, char32_t> links = [] {
        std::multimap<char32_t, char32_t> m;
        std::u32string pairs = decode_utf8(kVariantPairs, "variants table");
        for (size_t i = 0; i + 1 < pairs.size(); i += 2) {  // both directions
            m.emplace(pairs[i], pairs[i + 1]);
            m.emplace(pairs[i + 1], pairs[i]);
        }
        return m;
    }();
    return links;
}

std::vector<char32_t> known_variants(char32_t c, const Tokenizer& tok) {
    std::vector<char32_t> out;
    auto add = [&](char32_t v) {
        if (v != c && tok.contains(v) && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
    };
    const auto& links = variant_links();
    auto [lo, hi] = links.equal_range(c);
    for (auto it = lo; it != hi; ++it) {
        add(it->second);
        auto [lo2, hi2] = links.equal_range(it->second);  // siblings: 乾 and 幹 both link to 干
        for (auto it2 = lo2; it2 != hi2; ++it2) add(it2->second);
    }
    return out;
}

static std::string join(const std::vector<char32_t>& cs) {
    std::string s;
    for (char32_t c : cs) s += (s.empty() ? "" : " ") + encode_utf8(c);
    return s;
}

int prompt_char_id(const std::string& text, const Tokenizer& tok) {
    std::u32string chars = decode_utf8(text, "prompt");
    std::string frequent = join(tok.most_frequent_han(8));
    if (chars.size() != 1)
        throw std::invalid_argument("prompt: expected exactly one character, got " + std::to_string(chars.size()) +
                                    (chars.empty() ? "" : " (\"" + text + "\")") + "; for example: " + frequent);
    char32_t c = chars[0];
    std::string name = encode_utf8(c) + " (" + code_point_str(c) + ")";
    if (!is_han(c))
        throw std::invalid_argument("prompt: " + name + " is not a Chinese character; for example: " + frequent);
    if (!tok.contains(c)) {
        std::vector<char32_t> twins = known_variants(c, tok);
        std::string offer = twins.empty() ? "no variant of it is in the vocabulary; try a frequent one: " + frequent
                                          : "did you mean " + join(twins) + "?";
        throw std::invalid_argument("prompt: " + name + " is not in the model's vocabulary of " +
                                    std::to_string(tok.size() - Tokenizer::num_special) + " characters; " + offer);
    }
    return tok.id(c);
}

}  // namespace poet
