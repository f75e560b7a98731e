// The shape of a five-character quatrain (五言绝句): 4 lines of 5 characters, ，after lines 1 and 3,
// 。after lines 2 and 4 — 24 positions, 20 of them characters. Shared by records, sampler and eval.
// Leaves out: tone patterns and rhyme (the model has to learn those, or not).
#pragma once
#include <string>

namespace poet::quatrain {

constexpr size_t kLineChars = 5;
constexpr size_t kLines = 4;
constexpr size_t kChars = kLineChars * kLines;   // 20 character slots
constexpr size_t kLength = kChars + kLines;      // 24 positions with punctuation
constexpr char32_t kComma = U'，';               // U+FF0C
constexpr char32_t kPeriod = U'。';              // U+3002

// Position p in [0, 24): punctuation at 5, 11, 17, 23.
inline bool is_punctuation_position(size_t p) { return p % (kLineChars + 1) == kLineChars; }
// The mark at a punctuation position: ，ends lines 1 and 3, 。ends lines 2 and 4.
inline char32_t punctuation_at(size_t p) { return (p / (kLineChars + 1)) % 2 == 0 ? kComma : kPeriod; }
// Character slot s in [0, 20) -> position in [0, 24).
inline size_t slot_position(size_t s) { return s + s / kLineChars; }

// Exactly 24 characters: CJK ideographs in the 20 slots and the right mark at each line end.
bool well_formed(const std::u32string& poem);
// Line i in [0, 4) without its punctuation (poem must be well formed).
std::u32string line(const std::u32string& poem, size_t i);

}  // namespace poet::quatrain
