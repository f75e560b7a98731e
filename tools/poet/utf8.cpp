// UTF-8 decoding by hand: the lead byte says how many continuation bytes follow; every rule the
// standard sets (no overlong forms, no surrogates, nothing past U+10FFFF) is checked.
// Leaves out: replacement-character recovery (bad input is an error, not a guess).
#include "poet/utf8.hpp"
#include <cstdio>
#include <stdexcept>

namespace poet {

static std::string hex_byte(unsigned char b) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%02X", b);
    return buf;
}

[[noreturn]] static void fail_at(const std::string& what, size_t offset, const std::string& why) {
    throw std::invalid_argument(what + ": invalid UTF-8 at byte offset " + std::to_string(offset) + ": " + why);
}

std::u32string decode_utf8(const std::string& text, const std::string& what) {
    std::u32string out;
    out.reserve(text.size());
    size_t i = 0;
    auto fail = [&](size_t offset, const std::string& why) { fail_at(what, offset, why); };
    while (i < text.size()) {
        auto lead = static_cast<unsigned char>(text[i]);
        size_t extra;
        char32_t c;
        if (lead < 0x80) { out.push_back(lead); ++i; continue; }
        if (lead >= 0xC2 && lead <= 0xDF) { extra = 1; c = lead & 0x1F; }
        else if (lead >= 0xE0 && lead <= 0xEF) { extra = 2; c = lead & 0x0F; }
        else if (lead >= 0xF0 && lead <= 0xF4) { extra = 3; c = lead & 0x07; }
        else fail_at(what, i, "byte " + hex_byte(lead) + " cannot start a character");
        if (i + extra >= text.size())
            fail(i, "the character starting with " + hex_byte(lead) + " is cut off by the end of the text");
        for (size_t k = 1; k <= extra; ++k) {
            auto b = static_cast<unsigned char>(text[i + k]);
            if ((b & 0xC0) != 0x80)
                fail(i + k, "expected a continuation byte (0x80..0xBF) after " + hex_byte(lead) + ", got " + hex_byte(b));
            c = (c << 6) | (b & 0x3F);
        }
        static const char32_t smallest[4] = {0, 0x80, 0x800, 0x10000};
        if (c < smallest[extra]) fail(i, "overlong encoding of " + code_point_str(c));
        if (c >= 0xD800 && c <= 0xDFFF) fail(i, "encoded surrogate " + code_point_str(c));
        if (c > 0x10FFFF) fail(i, "code point beyond U+10FFFF");
        out.push_back(c);
        i += extra + 1;
    }
    return out;
}

std::string encode_utf8(char32_t c) {
    std::string s;
    if (c < 0x80) {
        s += static_cast<char>(c);
    } else if (c < 0x800) {
        s += static_cast<char>(0xC0 | (c >> 6));
        s += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        s += static_cast<char>(0xE0 | (c >> 12));
        s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        s += static_cast<char>(0xF0 | (c >> 18));
        s += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (c & 0x3F));
    }
    return s;
}

std::string encode_utf8(const std::u32string& s) {
    std::string out;
    for (char32_t c : s) out += encode_utf8(c);
    return out;
}

bool is_han(char32_t c) {
    return (c >= 0x4E00 && c <= 0x9FFF)       // CJK Unified Ideographs
           || (c >= 0x3400 && c <= 0x4DBF)    // Extension A
           || (c >= 0xF900 && c <= 0xFAFF)    // Compatibility Ideographs
           || (c >= 0x20000 && c <= 0x3134F);  // Extensions B to G and the Compatibility Supplement
}

std::string code_point_str(char32_t c) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(c));
    return buf;
}

}  // namespace poet
