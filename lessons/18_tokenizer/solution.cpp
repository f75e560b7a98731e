// Lesson 18 solution: UTF-8 decoded and encoded by hand, text to ids and back with the poet's
// Tokenizer, and one record BOS k SEP poem EOS as (inputs, targets).
// Leaves out: batching (poet::make_batch stacks such rows into (B,T) tensors).
#include <stdexcept>
#include "check.hpp"

[[noreturn]] static void invalid(size_t offset, const std::string& why) {
    throw std::invalid_argument("utf8_decode: bad UTF-8 at byte offset " + std::to_string(offset) + " (" + why + ")");
}

std::u32string exercise::utf8_decode(const std::string& bytes) {
    static const char32_t smallest[4] = {0, 0x80, 0x800, 0x10000};  // below these, a shorter form exists
    std::u32string out;
    size_t i = 0;
    while (i < bytes.size()) {
        auto lead = static_cast<unsigned char>(bytes[i]);  // a plain char is signed: 0xE4 would be -28
        size_t extra;                                      // continuation bytes after the lead
        char32_t c;                                        // the lead's payload bits
        if (lead < 0x80) { extra = 0; c = lead; }                                   // 0xxxxxxx
        else if (lead >= 0xC2 && lead <= 0xDF) { extra = 1; c = lead & 0x1F; }      // 110xxxxx, not C0 C1
        else if (lead >= 0xE0 && lead <= 0xEF) { extra = 2; c = lead & 0x0F; }      // 1110xxxx
        else if (lead >= 0xF0 && lead <= 0xF4) { extra = 3; c = lead & 0x07; }      // 11110xxx up to U+10FFFF
        else invalid(i, "0x80..0xC1 and 0xF5..0xFF cannot start a character");
        if (i + extra >= bytes.size()) invalid(i, "the character is cut off by the end of the text");
        for (size_t k = 1; k <= extra; ++k) {
            auto b = static_cast<unsigned char>(bytes[i + k]);
            if ((b & 0xC0) != 0x80) invalid(i + k, "a continuation byte 10xxxxxx was expected here");
            c = (c << 6) | (b & 0x3F);
        }
        if (c < smallest[extra]) invalid(i, "overlong form");
        if (c >= 0xD800 && c <= 0xDFFF) invalid(i, "a surrogate is not a character");
        if (c > 0x10FFFF) invalid(i, "beyond U+10FFFF");
        out.push_back(c);
        i += extra + 1;
    }
    return out;
}

std::string exercise::utf8_encode(const std::u32string& text) {
    std::string out;
    auto put = [&](unsigned byte) { out += static_cast<char>(byte); };
    for (char32_t c : text) {
        if (c < 0x80) {
            put(c);
        } else if (c < 0x800) {
            put(0xC0 | (c >> 6));
            put(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            put(0xE0 | (c >> 12));
            put(0x80 | ((c >> 6) & 0x3F));
            put(0x80 | (c & 0x3F));
        } else {
            put(0xF0 | (c >> 18));
            put(0x80 | ((c >> 12) & 0x3F));
            put(0x80 | ((c >> 6) & 0x3F));
            put(0x80 | (c & 0x3F));
        }
    }
    return out;
}

std::vector<int> exercise::encode(const poet::Tokenizer& tok, const std::string& text) {
    std::vector<int> ids;
    for (char32_t c : utf8_decode(text)) ids.push_back(tok.id_or_unk(c));  // unknown -> UNK
    return ids;
}

std::string exercise::decode(const poet::Tokenizer& tok, const std::vector<int>& ids) {
    std::string text;
    for (int id : ids) {
        if (id >= 0 && id < poet::Tokenizer::num_special) text += tok.token_str(id);  // <BOS>, <SEP>, ...
        else text += utf8_encode(std::u32string(1, tok.char_of(id)));              // throws outside [0, V)
    }
    return text;
}

exercise::Example exercise::make_example(const std::vector<int>& poem, size_t slot) {
    const int k = poem[poet::quatrain::slot_position(slot)];  // slot 15 is position 18: punctuation skipped
    std::vector<int> record = {poet::Tokenizer::BOS, k, poet::Tokenizer::SEP};
    record.insert(record.end(), poem.begin(), poem.end());
    record.push_back(poet::Tokenizer::EOS);  // 28 ids
    Example ex;
    for (size_t t = 0; t < poet::kInputLength; ++t) {
        ex.inputs.push_back(record[t]);
        // target t is the id after input t; those of t = 0 (k) and t = 1 (SEP) carry no loss
        ex.targets.push_back(t + 1 < poet::kPromptLength ? poet::kIgnore : record[t + 1]);
    }
    return ex;
}
