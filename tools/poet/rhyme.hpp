// The 平水韵 (Pingshui rhyme book) as a lookup table: each character's tone class (平 level, 仄
// oblique, or both for a character with several readings) and its rhyme groups, read with
// nlohmann::json from data/rhyme/ (the upstream JSON plus poetgrad's additions, see its README).
// Leaves out: which of its readings a character has in a given line (one with two fits both).
#pragma once
#include <string>
#include <unordered_map>
#include <vector>

namespace poet {

// A character's tone class as a set of bits: level, oblique, both, or none (not in the table).
using Tones = unsigned;
constexpr Tones kNoTone = 0, kLevel = 1, kOblique = 2, kBothTones = kLevel | kOblique;

struct RhymeGroup {
    std::string part;   // "上平声部", "下平声部", "上声部", "去声部" or "入声部"
    std::string name;   // "一东", ..., "入声六月"
    bool level = false; // a group of the two 平声 parts: the only ones a 五言绝句 rhymes in
};

class RhymeTable {
public:
    // Reads `dir`/Pingshui_Rhyme.json, then `dir`/additions.json (same layout) when it exists.
    // Throws std::runtime_error naming the file and what is wrong (unreadable, not JSON, a group
    // that is not a list of single characters, a part that is not one of the five).
    static RhymeTable load(const std::string& dir);

    Tones tones(char32_t c) const;                        // kNoTone for a character the table lacks
    const std::vector<int>& groups(char32_t c) const;     // every group holding c, ascending
    std::vector<int> level_groups(char32_t c) const;      // those of them that are level, ascending
    const RhymeGroup& group(int g) const { return groups_.at(static_cast<size_t>(g)); }
    size_t group_count() const { return groups_.size(); }
    size_t char_count() const { return of_char_.size(); }

private:
    void add(const std::string& file, const std::string& part, const std::string& name,
             const std::vector<std::string>& chars);
    std::vector<RhymeGroup> groups_;
    std::unordered_map<char32_t, std::vector<int>> of_char_;
};

// POET_SOURCE_DIR/data/rhyme, baked in at build time.
std::string default_rhyme_dir();

// The table from default_rhyme_dir(), read once on first use.
const RhymeTable& pingshui();

// "上平声 一东", "上声 四纸", "入声六月": a group's name for people.
std::string group_label(const RhymeGroup& g);

}  // namespace poet
