// The poet's tokenizer: one id per character, five special tokens first (COPY, BOS, SEP, EOS, UNK),
// then every character of the training text, most frequent first. Serialised as a UTF-8 string
// (the characters in id order) into the checkpoint's metadata.
// Leaves out: subwords, byte fallback, normalisation (the corpus is already simplified script).
#pragma once
#include <string>
#include <unordered_map>
#include <vector>

namespace poet {

class Tokenizer {
public:
    // COPY: the record's character k written again inside the poem (copy_token.hpp); id 0 was PAD,
    // which nothing ever used (every record has the same length), until the copy token took it.
    static constexpr int COPY = 0, BOS = 1, SEP = 2, EOS = 3, UNK = 4;
    static constexpr int num_special = 5;

    Tokenizer() = default;
    // Every character of `texts`; ordered by count (descending), ties by code point.
    static Tokenizer build(const std::vector<std::u32string>& texts);
    // The characters in id order (after the specials), UTF-8: what the checkpoint stores.
    std::string serialize() const;
    // Throws std::invalid_argument on invalid UTF-8, a duplicate character or an empty string.
    static Tokenizer deserialize(const std::string& utf8);

    size_t size() const { return chars_.size() + num_special; }   // V
    bool contains(char32_t c) const { return ids_.count(c) != 0; }
    // The id of `c`; throws std::out_of_range naming the character when it is not in the vocabulary.
    int id(char32_t c) const;
    int id_or_unk(char32_t c) const;
    // UTF-8 text to ids. Unknown characters throw (naming the character and its position) unless
    // allow_unknown, when they become UNK. Invalid UTF-8 throws naming the byte offset.
    std::vector<int> encode(const std::string& utf8, bool allow_unknown = false) const;
    // Ids to text; special tokens print as <COPY>, <BOS>, <SEP>, <EOS>, <UNK>.
    std::string decode(const std::vector<int>& ids) const;
    std::string token_str(int id) const;
    char32_t char_of(int id) const;  // 0 for a special token; throws for an id outside [0, V)
    bool is_han(int id) const;       // a CJK ideograph: the only tokens allowed in a poem's 20 slots
    // Han characters in id order, i.e. the most frequent first.
    std::vector<char32_t> most_frequent_han(size_t n) const;

private:
    std::vector<char32_t> chars_;                 // chars_[id - num_special]
    std::unordered_map<char32_t, int> ids_;
};

}  // namespace poet
