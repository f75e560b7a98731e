// UTF-8 to Unicode code points and back, with errors that name the byte offset, plus the one
// character class the poet cares about (CJK Unified Ideographs, the corpus's characters).
// Leaves out: normalisation, grapheme clusters, UTF-16.
#pragma once
#include <string>

namespace poet {

// Decodes `text`; throws std::invalid_argument naming `what` and the byte offset of the first
// malformed sequence (bad lead byte, missing continuation, overlong form, surrogate, > U+10FFFF).
std::u32string decode_utf8(const std::string& text, const std::string& what = "input");

std::string encode_utf8(char32_t c);
std::string encode_utf8(const std::u32string& s);

// A CJK ideograph: the basic block U+4E00..U+9FFF (every corpus character comes from it,
// data/poems/README.md), Extension A, the compatibility forms, and Extensions B to G.
bool is_han(char32_t c);

// "U+6625" for diagnostics.
std::string code_point_str(char32_t c);

}  // namespace poet
