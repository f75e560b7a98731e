// Reading the 平水韵 of rhyme.hpp: part → group → characters, in file order (nlohmann::ordered_json),
// a character's tone class the union of its groups' parts.
// Leaves out: traditional forms (the table, like the corpus, is simplified script).
#include "poet/rhyme.hpp"
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <nlohmann/json.hpp>
#include "poet/utf8.hpp"

namespace poet {

namespace {

// The five parts of the rhyme book; the first two are level (平声).
const std::map<std::string, bool>& parts() {
    static const std::map<std::string, bool> level_of = {
        {"上平声部", true}, {"下平声部", true}, {"上声部", false}, {"去声部", false}, {"入声部", false}};
    return level_of;
}

nlohmann::ordered_json read_json(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("rhyme table: cannot open " + path);
    try {
        return nlohmann::ordered_json::parse(in);
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error("rhyme table: " + path + " is not valid JSON: " + e.what());
    }
}

}  // namespace

void RhymeTable::add(const std::string& file, const std::string& part, const std::string& name,
                     const std::vector<std::string>& chars) {
    int g = -1;
    for (size_t i = 0; i < groups_.size(); ++i)
        if (groups_[i].part == part && groups_[i].name == name) g = static_cast<int>(i);
    if (g < 0) {
        g = static_cast<int>(groups_.size());
        groups_.push_back({part, name, parts().at(part)});
    }
    for (const std::string& text : chars) {
        std::u32string c = decode_utf8(text, file + " " + part + " " + name);
        if (c.size() != 1 || !is_han(c[0]))
            throw std::runtime_error("rhyme table: " + file + ": group " + name + " lists \"" + text +
                                     "\", which is not one Chinese character");
        std::vector<int>& of = of_char_[c[0]];   // kept sorted; upstream lists a few characters twice
        auto at = std::lower_bound(of.begin(), of.end(), g);
        if (at == of.end() || *at != g) of.insert(at, g);
    }
}

RhymeTable RhymeTable::load(const std::string& dir) {
    RhymeTable t;
    for (const char* name : {"Pingshui_Rhyme.json", "additions.json"}) {
        std::string path = dir + "/" + name;
        if (std::string(name) == "additions.json" && !std::filesystem::exists(path)) continue;
        nlohmann::ordered_json j = read_json(path);
        if (!j.is_object()) throw std::runtime_error("rhyme table: " + path + ": expected an object of parts");
        for (const auto& [part, groups] : j.items()) {
            if (!parts().count(part))
                throw std::runtime_error("rhyme table: " + path + ": unknown part \"" + part + "\" (expected 上平声部, "
                                         "下平声部, 上声部, 去声部 or 入声部)");
            if (!groups.is_object())
                throw std::runtime_error("rhyme table: " + path + ": " + part + " is not an object of groups");
            for (const auto& [group, chars] : groups.items()) {
                auto is_text = [](const auto& c) { return c.is_string(); };
                if (!chars.is_array() || !std::all_of(chars.begin(), chars.end(), is_text))
                    throw std::runtime_error("rhyme table: " + path + ": " + part + " " + group +
                                             " is not a list of characters");
                t.add(path, part, group, chars.template get<std::vector<std::string>>());
            }
        }
    }
    return t;
}

Tones RhymeTable::tones(char32_t c) const {
    Tones t = kNoTone;
    for (int g : groups(c)) t |= group(g).level ? kLevel : kOblique;
    return t;
}

const std::vector<int>& RhymeTable::groups(char32_t c) const {
    static const std::vector<int> none;
    auto it = of_char_.find(c);
    return it == of_char_.end() ? none : it->second;
}

std::vector<int> RhymeTable::level_groups(char32_t c) const {
    std::vector<int> level;
    for (int g : groups(c))
        if (group(g).level) level.push_back(g);
    return level;
}

std::string default_rhyme_dir() { return std::string(POET_SOURCE_DIR) + "/data/rhyme"; }

const RhymeTable& pingshui() {
    static const RhymeTable table = RhymeTable::load(default_rhyme_dir());
    return table;
}

std::string group_label(const RhymeGroup& g) {
    if (g.part == "入声部") return g.name;   // the names already say 入声
    return g.part.substr(0, g.part.size() - std::string("部").size()) + " " + g.name;
}

}  // namespace poet
