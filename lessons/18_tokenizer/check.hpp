// Lesson 18's exercise: the functions you write in exercise.cpp (starter.cpp, solution.cpp and
// mistakes.cpp write them too). The checks that call them are in checks.cpp.
#pragma once
#include <cctype>
#include <cstdio>
#include <string>
#include <vector>
#include "lesson.hpp"
#include "poet/corpus.hpp"
#include "poet/quatrain.hpp"
#include "poet/records.hpp"
#include "poet/tokenizer.hpp"
#include "poet/utf8.hpp"

namespace exercise {
// UTF-8 bytes -> code points. Invalid input throws std::invalid_argument whose message says
// "byte offset N": the offset of a byte that cannot start a character (a continuation byte
// 0x80..0xBF, 0xC0, 0xC1 or 0xF5..0xFF), or of the byte where a
// continuation byte (10xxxxxx) was expected; for a character cut off by the end of the text, an
// overlong form, a surrogate (U+D800..U+DFFF) or a code point past U+10FFFF, the offset of its lead byte.
std::u32string utf8_decode(const std::string& bytes);
// Code points -> UTF-8, 1 to 4 bytes each.
std::string utf8_encode(const std::u32string& text);
// Text -> ids, one per character: your utf8_decode, then each character's id in tok; a character
// outside the vocabulary becomes poet::Tokenizer::UNK.
std::vector<int> encode(const poet::Tokenizer& tok, const std::string& text);
// Ids -> text; the special tokens print as <COPY>, <BOS>, <SEP>, <EOS>, <UNK>.
std::string decode(const poet::Tokenizer& tok, const std::vector<int>& ids);

struct Example {
    std::vector<int> inputs;   // (T), T = 27: the record's first 27 ids
    std::vector<int> targets;  // (T): the id after each input, poet::kIgnore where no loss is taken
};
// A poem's 24 ids and a character slot in [0, 20) -> the record BOS k SEP poem EOS as (inputs, targets).
Example make_example(const std::vector<int>& poem, size_t slot);
}  // namespace exercise
