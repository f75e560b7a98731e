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
// mistake 13: the 4-byte lead tested with (lead & 0xF0) == 0xF0, so 0xF8..0xFF start characters => 0xF8..0xFF cannot start a character
// mistake 14: overlong forms accepted (no check against the shortest form) => a code point takes its shortest form
// mistake 15: surrogates accepted => are surrogates, not characters
// mistake 16: code points past U+10FFFF accepted => no code point lies beyond U+10FFFF
// mistake 17: the 2-byte lead tested with (lead & 0xE0) == 0xC0, so 0xC0 and 0xC1 start characters => 0xC0 and 0xC1 cannot start a character
// mistake 18: the 4-byte lead tested with (lead & 0xF8) == 0xF0, so 0xF5..0xF7 start characters => 0xF5..0xF7 cannot start a character
// mistake 19: make_example keeps its first answer in a static => the same example as for the previous poem
// mistake 20: utf8_decode keeps its first answer in a static => utf8_decode must compute it from this call's input
// mistake 21: utf8_encode keeps its first answer in a static => utf8_encode must compute it from this call's input
// mistake 22: encode keeps its first answer in a static => encode must compute it from this call's input
// mistake 23: decode keeps its first answer in a static => decode must compute it from this call's input
// Lesson 18's planted mistakes, one program: PG_MISTAKE=N runs mistake N (lesson::mistake(N) is then
// true), which must fail the checks with its hint above; with none chosen this is a correct answer.
// The functions are solution.cpp's, but for the lines that ask for a mistake.
#include <stdexcept>
#include "check.hpp"
using lesson::mistake;

[[noreturn]] static void invalid(size_t offset, const std::string& why) {
    throw std::invalid_argument("utf8_decode: bad UTF-8 at byte offset " + std::to_string(offset) + " (" + why + ")");
}

std::u32string exercise::utf8_decode(const std::string& bytes) {
    static std::u32string kept;  // mistake 20: the first answer, kept
    static bool have = false;
    if (mistake(20) && have) return kept;
    if (mistake(12)) return poet::decode_utf8(bytes);
    static const char32_t smallest[4] = {0, 0x80, 0x800, 0x10000};
    std::u32string out;
    size_t i = 0;
    while (i < bytes.size()) {
        int lead = mistake(8) ? bytes[i] : static_cast<unsigned char>(bytes[i]);  // mistake 8: plain char
        size_t extra;
        char32_t c;
        if (lead < 0x80) { extra = 0; c = lead; }
        else if (mistake(17) ? (lead & 0xE0) == 0xC0 : lead >= 0xC2 && lead <= 0xDF) { extra = 1; c = lead & 0x1F; }
        else if (lead >= 0xE0 && lead <= 0xEF) { extra = 2; c = lead & (mistake(6) ? 0x3F : 0x0F); }
        else if (!mistake(5) && (mistake(13)   ? (lead & 0xF0) == 0xF0       // 0xF8..0xFF taken too
                                 : mistake(18) ? (lead & 0xF8) == 0xF0       // 0xF5..0xF7 taken too
                                               : lead >= 0xF0 && lead <= 0xF4)) { extra = 3; c = lead & 0x07; }
        else invalid(i, "0x80..0xC1 and 0xF5..0xFF cannot start a character");
        if (i + extra >= bytes.size()) {
            if (mistake(7)) break;
            invalid(i, "the character is cut off by the end of the text");
        }
        for (size_t k = 1; k <= extra; ++k) {
            auto b = static_cast<unsigned char>(bytes[i + k]);
            if ((b & 0xC0) != 0x80) invalid(i + k, "a continuation byte 10xxxxxx was expected here");
            c = (c << 6) | (b & 0x3F);
        }
        if (!mistake(14) && c < smallest[extra]) invalid(i, "overlong form");
        if (!mistake(15) && c >= 0xD800 && c <= 0xDFFF) invalid(i, "a surrogate is not a character");
        if (!mistake(16) && c > 0x10FFFF) invalid(i, "beyond U+10FFFF");
        out.push_back(c);
        i += extra + 1;
    }
    if (mistake(20)) kept = out, have = true;
    return out;
}

std::string exercise::utf8_encode(const std::u32string& text) {
    static std::string kept;  // mistake 21: the first answer, kept
    static bool have = false;
    if (mistake(21) && have) return kept;
    std::string out;
    auto put = [&](unsigned byte) { out += static_cast<char>(byte); };
    for (char32_t c : text) {
        if (mistake(9) ? c <= 0x80 : c < 0x80) {
            put(c);
        } else if (mistake(9) ? c <= 0x800 : c < 0x800) {
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
    if (mistake(21)) kept = out, have = true;
    return out;
}

std::vector<int> exercise::encode(const poet::Tokenizer& tok, const std::string& text) {
    static std::vector<int> kept;  // mistake 22: the first answer, kept
    static bool have = false;
    if (mistake(22) && have) return kept;
    std::vector<int> ids;
    if (mistake(11))
        for (unsigned char b : text) ids.push_back(tok.id_or_unk(b));
    else
        for (char32_t c : utf8_decode(text)) ids.push_back(mistake(10) ? tok.id(c) : tok.id_or_unk(c));
    if (mistake(22)) kept = ids, have = true;
    return ids;
}

std::string exercise::decode(const poet::Tokenizer& tok, const std::vector<int>& ids) {
    static std::string kept;  // mistake 23: the first answer, kept
    static bool have = false;
    if (mistake(23) && have) return kept;
    std::string text;
    for (int id : ids) {
        if (id >= 0 && id < poet::Tokenizer::num_special) text += tok.token_str(id);
        else text += utf8_encode(std::u32string(1, tok.char_of(id)));
    }
    if (mistake(23)) kept = text, have = true;
    return text;
}

exercise::Example exercise::make_example(const std::vector<int>& poem, size_t slot) {
    static Example kept;  // mistake 19: the first answer, kept
    if (mistake(19) && !kept.inputs.empty()) return kept;
    const int k = poem[mistake(4) ? slot : poet::quatrain::slot_position(slot)];
    std::vector<int> record = {poet::Tokenizer::BOS, k, poet::Tokenizer::SEP};
    record.insert(record.end(), poem.begin(), poem.end());
    record.push_back(poet::Tokenizer::EOS);
    // the targets before t = first carry no loss: k and SEP, t = 0 and 1
    const size_t first = mistake(2) ? 0 : mistake(3) ? poet::kPromptLength : poet::kPromptLength - 1;
    Example ex;
    for (size_t t = 0; t < poet::kInputLength; ++t) {
        ex.inputs.push_back(record[t]);
        ex.targets.push_back(t < first ? poet::kIgnore : record[mistake(1) ? t : t + 1]);
    }
    if (mistake(19)) kept = ex;
    return ex;
}
