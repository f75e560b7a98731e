// The templates, the checker, its explanation and the decoding state of form.hpp. A template is
// written the way a handbook of 格律 prints it: 中 free, 平 level, 仄 oblique, in the quatrain's own
// layout.
// Leaves out: 七言 forms and 仄-rhymed (古绝) quatrains, which the checker simply finds irregular.
#include "poet/form.hpp"
#include <algorithm>
#include <stdexcept>
#include "poet/utf8.hpp"

namespace poet::form {

namespace {

struct TemplateRow {
    const char* name;
    const char* pattern;
};

// The one table of the form. 粘 and 对 are in it: position 2 alternates between the lines of a
// couplet (对) and repeats from line 2 to line 3 (粘); position 4 is always the opposite of 2.
constexpr TemplateRow kTemplateRows[] = {
    {"仄起首句不入韵", "中仄中平仄，中平中仄平。中平中仄仄，中仄中平平。"},
    {"仄起首句入韵", "中仄中平平，中平中仄平。中平中仄仄，中仄中平平。"},
    {"平起首句不入韵", "中平中仄仄，中仄中平平。中仄中平仄，中平中仄平。"},
    {"平起首句入韵", "中平中仄平，中仄中平平。中仄中平仄，中平中仄平。"},
};

Need need_of(char32_t mark, const char* pattern) {
    switch (mark) {
        case U'中': return Need::Free;
        case U'平': return Need::Level;
        case U'仄': return Need::Oblique;
        default:
            throw std::logic_error(std::string("form: template ") + pattern + " holds " + encode_utf8(mark) +
                                   ", expected 中, 平 or 仄");
    }
}

Template parse(const TemplateRow& row) {
    std::u32string marks = decode_utf8(row.pattern, "template");
    if (marks.size() != quatrain::kLength)
        throw std::logic_error(std::string("form: template ") + row.pattern + " is not 24 marks long");
    Template t{row.name, row.pattern, {}};
    for (size_t s = 0; s < quatrain::kChars; ++s) t.slots[s] = need_of(marks[quatrain::slot_position(s)], row.pattern);
    return t;
}

bool is_line_end(size_t slot) { return slot % quatrain::kLineChars == quatrain::kLineChars - 1; }

// The level groups that rhyme characters share, or none when they do not rhyme (or one repeats).
std::vector<int> shared_level_groups(const std::u32string& rhymes, const RhymeTable& table) {
    std::vector<int> shared;
    for (size_t i = 0; i < rhymes.size(); ++i) {
        if (rhymes.find(rhymes[i]) != i) return {};
        std::vector<int> mine = table.level_groups(rhymes[i]);
        if (i == 0) {
            shared = mine;
            continue;
        }
        std::vector<int> both;
        std::set_intersection(shared.begin(), shared.end(), mine.begin(), mine.end(), std::back_inserter(both));
        shared = both;
    }
    return shared;
}

std::u32string characters(const std::u32string& poem) {
    std::u32string chars;
    for (size_t s = 0; s < quatrain::kChars; ++s) chars.push_back(poem[quatrain::slot_position(s)]);
    return chars;
}

// explain's marks: a character's tones in the table, and what a template's slot asks.
const char* tone_mark(Tones t) {
    switch (t) {
        case kLevel: return "平";
        case kOblique: return "仄";
        case kBothTones: return "兼";
        default: return "？";
    }
}

const char* need_mark(Need n) { return n == Need::Free ? "中" : n == Need::Level ? "平" : "仄"; }

// "上平声 五微: 归 微 飞": the group(s) the template's rhyme characters share, then the characters.
std::string rhyme_of(const Check& c, const Template& t, const std::u32string& poem, const RhymeTable& table) {
    std::string chars, groups;
    for (size_t s : rhyme_slots(t))
        chars += (chars.empty() ? "" : " ") + encode_utf8(poem[quatrain::slot_position(s)]);
    if (c.rhyme_groups.empty()) return chars + ": no level group holds them all without a repeat";
    for (int g : c.rhyme_groups) groups += (groups.empty() ? "" : " or ") + group_label(table.group(g));
    return groups + ": " + chars;
}

// "春风得未归  平平仄仄平  中平中仄平  韵": a line, its characters' tones, the template's pattern.
std::string tones_of_line(size_t line, const Template& t, const std::u32string& poem, const RhymeTable& table) {
    std::string tones, pattern;
    for (size_t s = line * quatrain::kLineChars; s < (line + 1) * quatrain::kLineChars; ++s) {
        tones += tone_mark(table.tones(poem[quatrain::slot_position(s)]));
        pattern += need_mark(t.slots[s]);
    }
    bool rhymes = t.rhymes_at((line + 1) * quatrain::kLineChars - 1);
    return encode_utf8(quatrain::line(poem, line)) + "  " + tones + "  " + pattern + (rhymes ? "  韵" : "");
}

}  // namespace

bool Template::rhymes_at(size_t slot) const { return is_line_end(slot) && slots[slot] == Need::Level; }

const std::vector<Template>& templates() {
    static const std::vector<Template> all = [] {
        std::vector<Template> ts;
        for (const TemplateRow& row : kTemplateRows) ts.push_back(parse(row));
        return ts;
    }();
    return all;
}

bool fits(Tones tones, Need need) {
    switch (need) {
        case Need::Free: return true;
        case Need::Level: return (tones & kLevel) != 0;
        case Need::Oblique: return (tones & kOblique) != 0;
    }
    return false;
}

std::vector<size_t> rhyme_slots(const Template& t) {
    std::vector<size_t> slots;
    for (size_t s = 0; s < quatrain::kChars; ++s)
        if (t.rhymes_at(s)) slots.push_back(s);
    return slots;
}

Check check(const std::u32string& poem, const RhymeTable& table) {
    if (!quatrain::well_formed(poem))
        throw std::invalid_argument("form: \"" + encode_utf8(poem) + "\" is not a well-formed quatrain");
    const std::u32string chars = characters(poem);
    Check c;
    c.rhyme = !shared_level_groups({chars[9], chars[19]}, table).empty();   // the ends of lines 2 and 4
    size_t best_score = SIZE_MAX;
    for (size_t i = 0; i < templates().size(); ++i) {
        const Template& t = templates()[i];
        std::vector<size_t> broken;
        std::u32string rhymes;
        for (size_t s = 0; s < quatrain::kChars; ++s) {
            if (!fits(table.tones(chars[s]), t.slots[s])) broken.push_back(s);
            if (t.rhymes_at(s)) rhymes.push_back(chars[s]);
        }
        std::vector<int> groups = shared_level_groups(rhymes, table);
        c.tones = c.tones || broken.empty();
        c.regular = c.regular || (broken.empty() && !groups.empty());
        size_t score = broken.size() + (groups.empty() ? 1 : 0);
        if (score < best_score) {
            best_score = score;
            c.template_index = static_cast<int>(i);
            c.rhyme_groups = groups;
            c.broken = broken;
        }
    }
    return c;
}

// The template that fits best and its rhyme group, then each line with the tone of each character
// and the template's pattern, and the characters that break it.
std::string explain(const std::u32string& poem, const RhymeTable& table) {
    if (!quatrain::well_formed(poem)) return "  (not a quatrain: nothing to explain)\n";
    Check c = check(poem, table);
    const Template& t = templates()[static_cast<size_t>(c.template_index)];
    std::string out = "  " + t.name + (c.regular ? "" : " (the nearest; this poem breaks it)") + ", rhyme " +
                      rhyme_of(c, t, poem, table) + "\n";
    for (size_t line = 0; line < quatrain::kLines; ++line) out += "    " + tones_of_line(line, t, poem, table) + "\n";
    for (size_t s : c.broken)
        out += "    breaks at " + encode_utf8(poem[quatrain::slot_position(s)]) + ": line " +
               std::to_string(s / quatrain::kLineChars + 1) + ", position " +
               std::to_string(s % quatrain::kLineChars + 1) + " wants " + need_mark(t.slots[s]) + "\n";
    return out;
}

std::vector<bool> rhyme_pool(const RhymeTable& table, const std::vector<char32_t>& chars) {
    size_t most_slots = 0;
    for (const Template& t : templates()) most_slots = std::max(most_slots, rhyme_slots(t).size());
    std::vector<size_t> count(table.group_count());
    for (char32_t c : chars)
        for (int g : table.level_groups(c)) ++count[static_cast<size_t>(g)];
    std::vector<bool> pool(table.group_count());
    for (size_t g = 0; g < pool.size(); ++g) pool[g] = count[g] >= most_slots;
    return pool;
}

FormState::FormState(const RhymeTable& table, const std::vector<bool>& pool)
    : table_(&table), pool_(&pool), tracks_(templates().size()) {}

bool FormState::allows(const Track& track, const Template& t, char32_t c) const {
    if (!track.alive || slot_ >= quatrain::kChars || !fits(table_->tones(c), t.slots[slot_])) return false;
    if (!t.rhymes_at(slot_)) return true;
    if (track.rhymes.find(c) != std::u32string::npos) return false;
    for (int g : table_->level_groups(c))
        if (open(track, g)) return true;
    return false;
}

bool FormState::open(const Track& track, int g) const {
    if (track.rhymes.empty()) return (*pool_)[static_cast<size_t>(g)];
    return std::binary_search(track.groups.begin(), track.groups.end(), g);
}

bool FormState::allows(char32_t c) const {
    for (size_t i = 0; i < tracks_.size(); ++i)
        if (allows(tracks_[i], templates()[i], c)) return true;
    return false;
}

void FormState::advance(char32_t c) {
    if (!allows(c))
        throw std::invalid_argument("form: " + encode_utf8(c) + " fits slot " + std::to_string(slot_) +
                                    " of no template still possible");
    for (size_t i = 0; i < tracks_.size(); ++i) {
        Track& track = tracks_[i];
        const Template& t = templates()[i];
        if (!allows(track, t, c)) {
            track.alive = false;
            continue;
        }
        if (!t.rhymes_at(slot_)) continue;
        std::vector<int> kept;
        for (int g : table_->level_groups(c))
            if (open(track, g)) kept.push_back(g);
        track.groups = kept;
        track.rhymes.push_back(c);
    }
    ++slot_;
}

std::vector<int> FormState::possible_templates() const {
    std::vector<int> alive;
    for (size_t i = 0; i < tracks_.size(); ++i)
        if (tracks_[i].alive) alive.push_back(static_cast<int>(i));
    return alive;
}

}  // namespace poet::form
