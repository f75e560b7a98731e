// Lesson 18's checks for utf8_decode, utf8_encode, encode, decode and make_example, shared by
// starter.cpp, solution.cpp and your exercise.cpp: against poet::decode_utf8, the poet's Tokenizer and
// make_batch, on edge cases (every byte length, invalid bytes) and on random poems of the default corpus.
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
// "byte offset N": the offset of a byte that cannot start a character, or of the byte where a
// continuation byte (10xxxxxx) was expected; for a character cut off by the end of the text, an
// overlong form, a surrogate (U+D800..U+DFFF) or a code point past U+10FFFF, the offset of its lead byte.
std::u32string utf8_decode(const std::string& bytes);
// Code points -> UTF-8, 1 to 4 bytes each.
std::string utf8_encode(const std::u32string& text);
// Text -> ids, one per character: your utf8_decode, then each character's id in tok; a character
// outside the vocabulary becomes poet::Tokenizer::UNK.
std::vector<int> encode(const poet::Tokenizer& tok, const std::string& text);
// Ids -> text; the special tokens print as <PAD>, <BOS>, <SEP>, <EOS>, <UNK>.
std::string decode(const poet::Tokenizer& tok, const std::vector<int>& ids);

struct Example {
    std::vector<int> inputs;   // (T), T = 27: the record's first 27 ids
    std::vector<int> targets;  // (T): the id after each input, poet::kIgnore where no loss is taken
};
// A poem's 24 ids and a character slot in [0, 20) -> the record BOS k SEP poem EOS as (inputs, targets).
Example make_example(const std::vector<int>& poem, size_t slot);
}  // namespace exercise

namespace check18 {

static std::string code_points(const std::u32string& s) {  // "U+4E00 U+0061", the first 12
    std::string out;
    for (size_t i = 0; i < s.size() && i < 12; ++i) out += (i ? " " : "") + poet::code_point_str(s[i]);
    if (s.size() > 12) out += " ... (" + std::to_string(s.size()) + " in all)";
    return out.empty() ? "nothing" : out;
}

static std::string hex_bytes(const std::string& bytes) {  // "E4 B8 80"
    std::string out;
    char buf[4];
    for (unsigned char b : bytes) {
        std::snprintf(buf, sizeof buf, "%02X", b);
        out += (out.empty() ? "" : " ") + std::string(buf);
    }
    return out;
}

static std::string ids_str(const std::vector<int>& ids) {
    std::string out;
    for (size_t i = 0; i < ids.size() && i < 28; ++i) out += (i ? " " : "") + std::to_string(ids[i]);
    if (ids.size() > 28) out += " ... (" + std::to_string(ids.size()) + " in all)";
    return "[" + out + "]";
}

static const char* const kMaskHint =
    "the right number of characters but the wrong code point: keep only the lead byte's payload bits "
    "(lead & 0x1F, & 0x0F, & 0x07 for 2, 3, 4 bytes), then add 6 bits per continuation byte: c = (c << 6) | (b & 0x3F)";

// Decodes valid `bytes` with the learner's utf8_decode and names what the numbers point to when it is wrong.
static void expect_decodes(const std::string& what, const std::string& bytes, const std::u32string& want,
                           const std::string& length_hint) {
    std::u32string got;
    try {
        got = exercise::utf8_decode(bytes);
    } catch (const std::invalid_argument& e) {
        throw lesson::CheckFailed(what + " of " + hex_bytes(bytes), code_points(want),
                                  std::string("std::invalid_argument: ") + e.what(),
                                  "this is valid UTF-8: " + length_hint);
    }
    if (got == want) return;
    std::string hint = length_hint;
    for (char32_t c : got)
        if (c >= 0xFFFFFF80)
            hint = "cast each byte to unsigned char before you compare or shift it: a plain char is signed here, so "
                   "0xE4 reads as -28, looks smaller than 0x80 and comes out as " + poet::code_point_str(c);
    if (hint == length_hint && got.size() == want.size()) hint = kMaskHint;
    throw lesson::CheckFailed(what + " of " + hex_bytes(bytes), code_points(want), code_points(got), hint);
}

// The learner's utf8_decode must throw std::invalid_argument saying "byte offset <offset>".
// Returns the message, to compare with the poet's.
static std::string expect_invalid(const std::string& what, const std::string& bytes, size_t offset,
                                  const std::string& hint) {
    const std::string want = "std::invalid_argument saying \"byte offset " + std::to_string(offset) + "\"";
    std::string message;
    try {
        std::u32string got = exercise::utf8_decode(bytes);
        throw lesson::CheckFailed(what + " (" + hex_bytes(bytes) + ")", want, "no error, it returned " + code_points(got),
                                  hint);
    } catch (const std::invalid_argument& e) {
        message = e.what();
    } catch (const lesson::CheckFailed&) {
        throw;
    } catch (const lesson::NotImplemented&) {
        throw;
    } catch (const std::exception& e) {
        throw lesson::CheckFailed(what + " (" + hex_bytes(bytes) + ")", want, std::string("another error: ") + e.what(),
                                  "throw std::invalid_argument for invalid UTF-8; " + hint);
    }
    const std::string tag = "byte offset " + std::to_string(offset);
    size_t at = message.find(tag);
    bool named = at != std::string::npos &&
                 (at + tag.size() == message.size() || !std::isdigit(static_cast<unsigned char>(message[at + tag.size()])));
    lesson::expect(what + " (" + hex_bytes(bytes) + ")", named, want, "\"" + message + "\"",
                   "name the right offset: " + hint);
    return message;
}

// Compares the learner's example with make_batch's row for the same record, and names the mistake.
static void expect_example(const std::string& what, const std::vector<int>& poem, size_t slot) {
    const std::vector<int> record = poet::make_record(poem, slot);
    poet::Batch batch = poet::make_batch({record});
    std::vector<int> want_in, want_tg;
    for (float v : batch.inputs.to_vector()) want_in.push_back(static_cast<int>(v));
    for (float v : batch.targets.to_vector()) want_tg.push_back(static_cast<int>(v));
    exercise::Example got = exercise::make_example(poem, slot);
    const size_t T = poet::kInputLength;
    const std::string where = what + ", slot " + std::to_string(slot);

    if (got.inputs.size() != T || got.targets.size() != T)
        throw lesson::CheckFailed(where + ": sizes", "27 inputs and 27 targets",
                                  std::to_string(got.inputs.size()) + " inputs and " + std::to_string(got.targets.size()) +
                                      " targets",
                                  "the record BOS k SEP poem EOS has 1 + 1 + 1 + 24 + 1 = 28 ids: inputs are the first 27, "
                                  "targets the last 27");
    const int k = poem[poet::quatrain::slot_position(slot)];
    if (got.inputs[1] != k)
        throw lesson::CheckFailed(
            where + ": inputs[1], k", std::to_string(k), std::to_string(got.inputs[1]),
            got.inputs[1] == poem[slot]
                ? "k is poem[slot_position(slot)], not poem[slot]: a slot counts the 20 characters, a position the 24 "
                  "ids with the punctuation (slot " + std::to_string(slot) + " is position " +
                      std::to_string(poet::quatrain::slot_position(slot)) + ")"
                : "the record starts BOS k SEP, k = poem[slot_position(slot)]");
    lesson::expect(where + ": inputs", got.inputs == want_in, ids_str(want_in), ids_str(got.inputs),
                   "inputs are the first 27 ids of BOS k SEP poem EOS: record[0], ..., record[26]");
    if (got.targets == want_tg) return;

    bool unshifted = true;  // target t = record[t] instead of record[t + 1]
    for (size_t t = 2; t < T; ++t) unshifted = unshifted && got.targets[t] == record[t];
    std::string hint;
    if (unshifted)
        hint = "targets are the record shifted by one: target t is record[t + 1], the id that comes after input t";
    else if (got.targets[0] != poet::kIgnore || got.targets[1] != poet::kIgnore)
        hint = "the targets k and SEP (t = 0 and 1) carry no loss: set them to poet::kIgnore (-1). k is given by "
               "whoever asks for a poem, and SEP always follows it";
    else if (got.targets[2] == poet::kIgnore)
        hint = "the first poem character (t = 2, predicted from SEP) is a real target: ignore only t = 0 and 1";
    else
        hint = "target t is record[t + 1] for t = 2 .. 26; the last target is EOS";
    lesson::expect(where + ": targets", false, ids_str(want_tg), ids_str(got.targets), hint);
}

}  // namespace check18

int main() {
    using poet::Tokenizer;
    lesson::Checks checks("18", "tokenizer");
    const poet::Corpus corpus = poet::load_corpus(poet::default_data_dir(), "all");
    const Tokenizer tok = Tokenizer::build(corpus.train);
    pg::Generator gen(1818);
    std::vector<std::u32string> poems;  // 300 random training poems, the same on every run
    for (int i = 0; i < 300; ++i) poems.push_back(corpus.train[gen.randint(corpus.train.size())]);

    checks.run("utf8_decode: one character of each length, and the edges between lengths", [] {
        struct Case { std::string bytes; char32_t c; const char* hint; };
        const char* one = "a byte below 0x80 (0xxxxxxx) is a whole character";
        const char* two = "a lead byte 110xxxxx (0xC2..0xDF) starts a 2-byte character";
        const char* three = "a lead byte 1110xxxx (0xE0..0xEF) starts a 3-byte character";
        const char* four = "a lead byte 11110xxx (0xF0..0xF4) starts a 4-byte character";
        const std::vector<Case> cases = {
            {"a", U'a', one},                    {"\x7F", 0x7F, one},
            {"\xC3\xA9", U'é', two},             {"\xC2\x80", 0x80, two},             {"\xDF\xBF", 0x7FF, two},
            {"\xE4\xB8\x80", U'一', three},       {"\xE0\xA0\x80", 0x800, three},       {"\xEF\xBF\xBF", 0xFFFF, three},
            {"\xEF\xBC\x8C", U'，', three},       {"\xF0\xA0\x80\x80", 0x20000, four},  {"\xF0\x90\x80\x80", 0x10000, four},
            {"\xF4\x8F\xBF\xBF", 0x10FFFF, four},
        };
        std::vector<lesson::CheckFailed> failed;
        bool ascii_ok = true, all_others_fail = true;
        for (const Case& c : cases) {
            try {
                check18::expect_decodes("utf8_decode", c.bytes, std::u32string(1, c.c),
                                        std::string(c.hint) + " (" + poet::code_point_str(c.c) + " is " +
                                            check18::hex_bytes(c.bytes) + ")");
                all_others_fail = all_others_fail && c.c < 0x80;
            } catch (const lesson::CheckFailed& e) {
                failed.push_back(e);
                ascii_ok = ascii_ok && c.c >= 0x80;
            }
        }
        if (failed.empty()) return;
        lesson::CheckFailed first = failed.front();
        if (ascii_ok && all_others_fail)  // every byte from 0x80 up misread: the classic signed char
            first.hint = "ASCII decodes but every character from U+0080 up fails: cast each byte to unsigned char "
                         "before you compare or shift it. A plain char is signed here, so 0xE4 reads as -28 and "
                         "looks smaller than 0x80";
        throw first;
    });
    checks.run("utf8_decode: 300 random poems of the default corpus, and mixed text", [&] {
        const std::string mixed = "春a\xF0\xA0\x80\x80" "é。\x7F";
        check18::expect_decodes("utf8_decode", mixed, poet::decode_utf8(mixed),
                                "read each character's length from its lead byte: 0xxxxxxx 1, 110xxxxx 2, 1110xxxx 3, "
                                "11110xxx 4");
        for (const auto& poem : poems)
            check18::expect_decodes("utf8_decode of a poem", poet::encode_utf8(poem), poem,
                                    "a poem is 24 characters of 3 bytes each, 72 bytes");
    });
    checks.run("utf8_decode: invalid UTF-8 throws std::invalid_argument naming the byte offset", [] {
        struct Case { std::string what, bytes; size_t offset; std::string hint; };
        const std::string line = "春眠不觉晓";
        const std::string cut = "a lead byte promises its continuation bytes: when the text ends first, the character "
                                "is cut off by the end of the text; throw, naming its lead byte's offset, instead of "
                                "returning (or dropping) it";
        const std::string overlong = "a code point takes its shortest form: 2 bytes only from U+0080, 3 from U+0800, "
                                     "4 from U+10000; a longer one is overlong (name its lead byte)";
        const std::vector<Case> cases = {
            {"a stray continuation byte", "a\x80", 1, "a continuation byte 10xxxxxx cannot start a character"},
            {"a byte that never appears in UTF-8", "\xFF", 0, "0xF5..0xFF cannot start a character"},
            {"春眠 saved as GBK", "\xB4\xBA\xC3\xDF", 0, "0xB4 is a continuation byte, it cannot start a character"},
            {"a missing continuation byte", "\xE4\x41\x80", 1,
             "after the lead byte every byte of the character must be 10xxxxxx: name the offset of the one that is not"},
            {"a character cut short by the next one", "\xE4\xB8\xE4\xB8\x80", 2,
             "0xE4 at offset 2 arrives where a continuation byte was expected"},
            {"春眠不觉晓 minus its last byte", line.substr(0, line.size() - 1), 12, cut},
            {"the start of 𠀀 at the end", "a\xF0\xA0\x80", 1, cut},
            {"a lone lead byte at the end", "\xE4", 0, cut},
            {"/ as an overlong 2-byte form", "\xC0\xAF", 0, overlong},
            {"/ as an overlong 3-byte form", "\xE0\x80\xAF", 0, overlong},
            {"U+07FF as an overlong 3-byte form", "\xE0\x9F\xBF", 0, overlong},
            {"U+FFFF as an overlong 4-byte form", "\xF0\x8F\xBF\xBF", 0, overlong},
            {"a UTF-16 surrogate, U+D800", "\xED\xA0\x80", 0, "U+D800..U+DFFF are surrogates, not characters"},
            {"the last surrogate, U+DFFF", "\xED\xBF\xBF", 0, "U+D800..U+DFFF are surrogates, not characters"},
            {"past the last code point", "\xF4\x90\x80\x80", 0, "no code point lies beyond U+10FFFF"},
        };
        size_t same = 0;  // messages word for word those of poet::decode_utf8, "... byte offset N: <why>"
        for (const Case& c : cases) {
            std::string mine = check18::expect_invalid(c.what, c.bytes, c.offset, c.hint), theirs;
            try {
                poet::decode_utf8(c.bytes);
            } catch (const std::invalid_argument& e) {
                theirs = std::string(e.what()).substr(std::string(e.what()).find("byte offset"));
            }
            same += mine.size() >= theirs.size() && mine.compare(mine.size() - theirs.size(), theirs.size(), theirs) == 0;
        }
        lesson::expect("your error messages", same < cases.size(), "your own words",
                       "poet::decode_utf8's messages, all " + std::to_string(same),
                       "write the decoder yourself instead of calling poet::decode_utf8: the lead byte tells the "
                       "length, then read and check its continuation bytes");
    });
    checks.run("utf8_encode: the code points at the edges of 1, 2, 3 and 4 bytes", [] {
        for (char32_t c : std::u32string{0x0, 0x41, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0x4E00, 0xFF0C, 0xFFFF, 0x10000,
                                         0x20000, 0x10FFFF}) {
            std::string want = poet::encode_utf8(c), got = exercise::utf8_encode(std::u32string(1, c));
            std::string hint =
                got.size() != want.size()
                    ? poet::code_point_str(c) + " takes " + std::to_string(want.size()) +
                          " bytes: 1 below U+0080, 2 below U+0800, 3 below U+10000, 4 up to U+10FFFF (compare with <, "
                          "not <=)"
                    : "the lead byte is the length marker (0xC0, 0xE0, 0xF0) | the top bits (c >> 6, c >> 12, c >> 18); "
                      "each continuation byte is 0x80 | the next 6 bits";
            lesson::expect("utf8_encode(" + poet::code_point_str(c) + ")", got == want, check18::hex_bytes(want),
                           check18::hex_bytes(got), hint);
        }
    });
    checks.run("utf8_encode: 300 random poems give the corpus's bytes back", [&] {
        for (const auto& poem : poems) {
            std::string want = poet::encode_utf8(poem), got = exercise::utf8_encode(poem);
            lesson::expect("utf8_encode of a poem", got == want, check18::hex_bytes(want.substr(0, 12)) + " ... (72 bytes)",
                           check18::hex_bytes(got.substr(0, 12)) + " ... (" + std::to_string(got.size()) + " bytes)",
                           "every character of a poem is 3 bytes: 0xE0 | c >> 12, 0x80 | (c >> 6 & 0x3F), 0x80 | (c & 0x3F)");
        }
    });

    // encode that reports an unknown character as a failure with a hint, not as a crash
    auto learner_encode = [&](const std::string& what, const std::string& text) {
        try {
            return exercise::encode(tok, text);
        } catch (const std::out_of_range& e) {
            throw lesson::CheckFailed(what, "ids, UNK (4) for an unknown character", std::string("std::out_of_range: ") + e.what(),
                                      "a character outside the vocabulary becomes Tokenizer::UNK (id 4): use "
                                      "tok.id_or_unk(c), or tok.contains(c) before tok.id(c)");
        } catch (const std::invalid_argument& e) {
            throw lesson::CheckFailed(what, "ids", std::string("std::invalid_argument: ") + e.what(),
                                      "this text is valid UTF-8: make utf8_decode pass its checks first");
        }
    };
    auto expect_ids = [&](const std::string& what, const std::string& text) {
        std::vector<int> want = tok.encode(text, /*allow_unknown=*/true), got = learner_encode(what, text);
        std::string hint = "one id per character, punctuation included: tok.id_or_unk(c) for each code point of "
                           "utf8_decode(text)";
        if (got.size() == text.size() && want.size() != text.size())
            hint = "one id per character, not per byte: decode the UTF-8 to code points first";
        else if (exercise::utf8_decode(text) != poet::decode_utf8(text))
            hint = "your utf8_decode reads this text wrong: make it pass its checks first";
        lesson::expect(what, got == want, check18::ids_str(want), check18::ids_str(got), hint);
    };
    const std::string chunxiao = "春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。";
    checks.run("encode: 春晓 with the default corpus's tokenizer", [&] { expect_ids("encode(tok, 春晓)", chunxiao); });
    checks.run("encode: characters outside the vocabulary become UNK; 300 random poems", [&] {
        expect_ids("encode(tok, a validation poem with 岨)", "桂水饶枫杉，荆南足烟雨。犹疑黛色中，复是雒阳岨。");
        expect_ids("encode(tok, \"a 春\")", "a 春");
        for (const auto& poem : poems) expect_ids("encode(tok, a poem)", poet::encode_utf8(poem));
    });
    checks.run("encode reads the text with your utf8_decode", [&] {
        const std::string bad = "春\xE4\xB8";
        std::string mine = "no error", got = "no error";
        try {
            exercise::utf8_decode(bad);
        } catch (const std::invalid_argument& e) {
            mine = e.what();
        }
        try {
            exercise::encode(tok, bad);
        } catch (const std::invalid_argument& e) {
            got = e.what();
        }
        lesson::expect("encode(tok, " + check18::hex_bytes(bad) + ")", got == mine, "what your utf8_decode says: " + mine,
                       got, "decode the text with your own utf8_decode, then look each character up (not tok.encode)");
    });
    checks.run("decode: ids back to text, the special tokens by name", [&] {
        std::vector<int> ids = tok.encode(chunxiao);
        ids.insert(ids.begin(), {Tokenizer::BOS, tok.id(U'花'), Tokenizer::SEP});
        ids.push_back(Tokenizer::EOS);
        ids.push_back(Tokenizer::PAD);
        ids.push_back(Tokenizer::UNK);
        lesson::expect("decode(tok, a record)", exercise::decode(tok, ids) == tok.decode(ids), tok.decode(ids),
                       exercise::decode(tok, ids),
                       "a special id (0..4) prints as its name, tok.token_str(id); any other id is its character, "
                       "utf8_encode of tok.char_of(id)");
        for (const auto& poem : poems) {
            std::string text = poet::encode_utf8(poem), got = exercise::decode(tok, tok.encode(text));
            lesson::expect("decode(tok, encode(poem))", got == text, text, got, "the characters in order, as UTF-8");
        }
        lesson::expect_throws<std::out_of_range>(
            "decode(tok, {V})", "std::out_of_range", [&] { exercise::decode(tok, {static_cast<int>(tok.size())}); },
            "ids run from 0 to V - 1: tok.char_of(id) and tok.token_str(id) throw for any other; let them");
    });
    checks.run("make_example: 春晓 with k = 花 (slot 15)", [&] {
        check18::expect_example("make_example(春晓, 15)", tok.encode(chunxiao), 15);
    });
    checks.run("make_example against make_batch: 300 random poems and slots", [&] {
        pg::Generator slots(1819);
        for (const auto& poem : poems)
            check18::expect_example("make_example(a poem)", tok.encode(poet::encode_utf8(poem)),
                                    slots.randint(poet::quatrain::kChars));
    });
    return checks.finish();
}
