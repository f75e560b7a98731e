// mistake 1: targets not shifted by one (target t is record[t]) => targets are the record shifted by one
// mistake 2: the targets k and SEP are not ignored => the targets k and SEP (t = 0 and 1) carry no loss
// mistake 3: the whole prompt ignored, t = 0, 1 and 2 (t < kPromptLength) => the first poem character (t = 2, predicted from SEP) is a real target
// mistake 4: k taken from poem[slot], forgetting the punctuation => not poem[slot]
// mistake 5: the decoder knows only characters of 1 to 3 bytes => starts a 4-byte character
// mistake 6: the 3-byte lead masked like a continuation byte (lead & 0x3F) => keep only the lead byte's payload bits
// mistake 7: a character cut off by the end of the text is dropped silently => cut off by the end of the text
// mistake 8: bytes read as plain char, which is signed => cast each byte to unsigned char
// mistake 9: utf8_encode's ranges end with <= (U+0800 in 2 bytes) => compare with <, not <=
// mistake 10: encode with tok.id, which throws for a character outside the vocabulary => becomes Tokenizer::UNK
// mistake 11: encode gives one id per byte => one id per character, not per byte
// mistake 12: utf8_decode calls poet::decode_utf8 => write the decoder yourself
// Lesson 18's plausible wrong answers, each built as lesson_18_mistake_N (-DMISTAKE=N); every one must
// fail the checks with the hint above. The functions are solution.cpp's, but for the lines marked.
#include <stdexcept>
#include "check.hpp"

[[noreturn]] static void invalid(size_t offset, const std::string& why) {
    throw std::invalid_argument("utf8_decode: bad UTF-8 at byte offset " + std::to_string(offset) + " (" + why + ")");
}

std::u32string exercise::utf8_decode(const std::string& bytes) {
#if MISTAKE == 12
    return poet::decode_utf8(bytes);
#endif
    static const char32_t smallest[4] = {0, 0x80, 0x800, 0x10000};
    std::u32string out;
    size_t i = 0;
    while (i < bytes.size()) {
#if MISTAKE == 8
        int lead = bytes[i];
#else
        auto lead = static_cast<unsigned char>(bytes[i]);
#endif
        size_t extra;
        char32_t c;
        if (lead < 0x80) { extra = 0; c = lead; }
        else if ((lead & 0xE0) == 0xC0) { extra = 1; c = lead & 0x1F; }
#if MISTAKE == 6
        else if ((lead & 0xF0) == 0xE0) { extra = 2; c = lead & 0x3F; }
#else
        else if ((lead & 0xF0) == 0xE0) { extra = 2; c = lead & 0x0F; }
#endif
#if MISTAKE != 5
        else if ((lead & 0xF8) == 0xF0) { extra = 3; c = lead & 0x07; }
#endif
        else invalid(i, "a continuation byte or 0xF8..0xFF cannot start a character");
#if MISTAKE == 7
        if (i + extra >= bytes.size()) break;
#else
        if (i + extra >= bytes.size()) invalid(i, "the character is cut off by the end of the text");
#endif
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
#if MISTAKE == 9
        if (c <= 0x80) {
            put(c);
        } else if (c <= 0x800) {
#else
        if (c < 0x80) {
            put(c);
        } else if (c < 0x800) {
#endif
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
#if MISTAKE == 10
    for (char32_t c : utf8_decode(text)) ids.push_back(tok.id(c));
#elif MISTAKE == 11
    for (unsigned char b : text) ids.push_back(tok.id_or_unk(b));
#else
    for (char32_t c : utf8_decode(text)) ids.push_back(tok.id_or_unk(c));
#endif
    return ids;
}

std::string exercise::decode(const poet::Tokenizer& tok, const std::vector<int>& ids) {
    std::string text;
    for (int id : ids) {
        if (id >= 0 && id < poet::Tokenizer::num_special) text += tok.token_str(id);
        else text += utf8_encode(std::u32string(1, tok.char_of(id)));
    }
    return text;
}

exercise::Example exercise::make_example(const std::vector<int>& poem, size_t slot) {
#if MISTAKE == 4
    const int k = poem[slot];
#else
    const int k = poem[poet::quatrain::slot_position(slot)];
#endif
    std::vector<int> record = {poet::Tokenizer::BOS, k, poet::Tokenizer::SEP};
    record.insert(record.end(), poem.begin(), poem.end());
    record.push_back(poet::Tokenizer::EOS);
    Example ex;
    for (size_t t = 0; t < poet::kInputLength; ++t) {
        ex.inputs.push_back(record[t]);
#if MISTAKE == 1
        ex.targets.push_back(t + 1 < poet::kPromptLength ? poet::kIgnore : record[t]);
#elif MISTAKE == 2
        ex.targets.push_back(record[t + 1]);
#elif MISTAKE == 3
        ex.targets.push_back(t < poet::kPromptLength ? poet::kIgnore : record[t + 1]);
#else
        ex.targets.push_back(t + 1 < poet::kPromptLength ? poet::kIgnore : record[t + 1]);
#endif
    }
    return ex;
}
