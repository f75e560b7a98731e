// The regular form (格律) of a 五言绝句: the four tonal templates as data, `check`, which judges a
// finished poem against them (eval and --explain use it; it knows nothing of decoding), `explain`,
// check's verdict as ./poet write --explain prints it, and FormState, what constrained decoding
// tracks slot by slot so that every poem it writes is regular.
// Leaves out: 孤平, 三平尾 and 拗救: positions 1 and 3 of every line are free (一三五不论).
#pragma once
#include <array>
#include <string>
#include <vector>
#include "poet/quatrain.hpp"
#include "poet/rhyme.hpp"

namespace poet::form {

// What a slot asks of its character: nothing (中), a level reading (平) or an oblique one (仄).
enum class Need { Free, Level, Oblique };

struct Template {
    std::string name;      // "仄起首句不入韵"
    std::string pattern;   // "中仄中平仄，中平中仄平。中平中仄仄，中仄中平平。"
    std::array<Need, quatrain::kChars> slots;
    // A line that ends level rhymes: the last slot of lines 2 and 4, and of line 1 when it ends 平.
    bool rhymes_at(size_t slot) const;
};

// The four templates (平起/仄起, first line rhyming or not), read from one table of patterns.
const std::vector<Template>& templates();

bool fits(Tones tones, Need need);   // a free slot takes any character, even one the table lacks

// The slots of `t` that rhyme, in order.
std::vector<size_t> rhyme_slots(const Template& t);

struct Check {
    bool rhyme = false;      // lines 2 and 4 end in two different characters of one level group
    bool tones = false;      // positions 2, 4 and 5 of every line fit one template (so 粘 and 对 hold)
    bool regular = false;    // one template fits in tones, and all its rhyme slots rhyme as above
    int template_index = -1; // the template that fits best: fewest broken slots, a failed rhyme counting one
    std::vector<int> rhyme_groups;   // the level groups the best template's rhyme slots share
    std::vector<size_t> broken;      // slots whose character does not fit the best template's tone
};

// Judges a well-formed quatrain (24 characters); throws std::invalid_argument for anything else.
Check check(const std::u32string& poem, const RhymeTable& table);

// check's verdict as text, what ./poet write --explain prints under a poem (and lesson 23 prints):
//   "  平起首句入韵, rhyme 上平声 五微: 归 微 飞\n" (or "  <name> (the nearest; this poem breaks it), ..."),
//   then each line, "    春风得未归  平平仄仄平  中平中仄平  韵\n": its characters, their tones (平 level,
//   仄 oblique, 兼 both readings, ？ not in the table), the template's pattern (中 free), 韵 at a rhyme
//   slot; then "    breaks at C: line L, position P wants 平\n" for each slot that breaks the template.
// For anything but a well-formed quatrain, the one line "  (not a quatrain: nothing to explain)\n".
std::string explain(const std::u32string& poem, const RhymeTable& table);

// The level groups with at least as many of `chars` as a template has rhyme slots: the groups a
// poem written from these characters can rhyme in without repeating a rhyme character.
std::vector<bool> rhyme_pool(const RhymeTable& table, const std::vector<char32_t>& chars);

// Decoding under the form. The templates still possible after the slots written so far, each with
// its rhyme groups and rhyme characters. The first rhyme slot takes any character of the pool (so
// the model's odds choose the group), later ones keep the group and never repeat a character.
class FormState {
public:
    FormState(const RhymeTable& table, const std::vector<bool>& pool);
    size_t slot() const { return slot_; }                  // the next slot to fill, in [0, 20]
    bool allows(char32_t c) const;                         // may c fill the next slot?
    // Writes c into the next slot; throws std::invalid_argument naming c and the slot when it may not.
    void advance(char32_t c);
    std::vector<int> possible_templates() const;           // indices into templates()

private:
    struct Track {
        bool alive = true;
        std::vector<int> groups;   // the rhyme groups still shared by its rhyme characters
        std::u32string rhymes;     // its rhyme characters so far
    };
    bool allows(const Track& track, const Template& t, char32_t c) const;
    bool open(const Track& track, int g) const;   // may the track's next rhyme be in group g?
    const RhymeTable* table_;
    const std::vector<bool>* pool_;
    std::vector<Track> tracks_;    // one per template
    size_t slot_ = 0;
};

}  // namespace poet::form
