// Lesson 18 exercise: UTF-8 by hand, text to ids and back, and one training record as (inputs,
// targets). `./poet start 18` copies this file to exercise.cpp; write the five functions there, then
// `./poet check 18`.
#include <stdexcept>
#include "check.hpp"

std::u32string exercise::utf8_decode(const std::string& bytes) {
    // i = 0; while i < bytes.size():
    //   lead = (unsigned char)bytes[i]; it gives the length and the payload bits:
    //     0x00..0x7F: 1 byte, c = lead           0xC2..0xDF (110xxxxx): 2 bytes, c = lead & 0x1F
    //     0xE0..0xEF (1110xxxx): 3 bytes, c = lead & 0x0F
    //     0xF0..0xF4 (11110xxx): 4 bytes, c = lead & 0x07
    //     anything else (10xxxxxx, 0xC0, 0xC1, 0xF5..0xFF) cannot start a character
    //   the text must not end before the character does
    //   each continuation byte b must be 10xxxxxx; c = (c << 6) | (b & 0x3F)
    //   reject overlong forms (c below 0x80, 0x800, 0x10000 for 2, 3, 4 bytes), surrogates
    //   (U+D800..U+DFFF) and c > U+10FFFF
    // throw std::invalid_argument("... byte offset " + std::to_string(offset) + ...) for each error
    throw lesson::NotImplemented("exercise::utf8_decode");
}

std::string exercise::utf8_encode(const std::u32string& text) {
    // per code point c: 1 byte below U+0080, 2 below U+0800, 3 below U+10000, else 4;
    // lead = 0xC0 | c >> 6 (or 0xE0 | c >> 12, 0xF0 | c >> 18), then 0x80 | each next 6 bits
    throw lesson::NotImplemented("exercise::utf8_encode");
}

std::vector<int> exercise::encode(const poet::Tokenizer& tok, const std::string& text) {
    // utf8_decode(text), then tok.id_or_unk(c) for each code point
    throw lesson::NotImplemented("exercise::encode");
}

std::string exercise::decode(const poet::Tokenizer& tok, const std::vector<int>& ids) {
    // ids 0..4 are special: tok.token_str(id) gives <PAD>, <BOS>, <SEP>, <EOS>, <UNK>;
    // any other id: utf8_encode of tok.char_of(id)
    throw lesson::NotImplemented("exercise::decode");
}

exercise::Example exercise::make_example(const std::vector<int>& poem, size_t slot) {
    // record = BOS, k = poem[poet::quatrain::slot_position(slot)], SEP, the 24 poem ids, EOS   (28)
    // inputs = record[0 .. 26]                                                                  (27)
    // targets[t] = record[t + 1], except poet::kIgnore for t = 0 (k) and t = 1 (SEP)            (27)
    throw lesson::NotImplemented("exercise::make_example");
}
