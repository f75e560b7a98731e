// Checks and slices the quatrain layout of quatrain.hpp.
// Leaves out: seven-character and eight-line forms.
#include "poet/quatrain.hpp"
#include "poet/utf8.hpp"

namespace poet::quatrain {

bool well_formed(const std::u32string& poem) {
    if (poem.size() != kLength) return false;
    for (size_t p = 0; p < kLength; ++p) {
        bool ok = is_punctuation_position(p) ? poem[p] == punctuation_at(p) : is_han(poem[p]);
        if (!ok) return false;
    }
    return true;
}

std::u32string line(const std::u32string& poem, size_t i) { return poem.substr(i * (kLineChars + 1), kLineChars); }

}  // namespace poet::quatrain
