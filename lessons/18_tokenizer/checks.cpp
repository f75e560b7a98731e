// Lesson 18's checks for utf8_decode, utf8_encode, encode, decode and make_example, shared by
// starter.cpp, solution.cpp and your exercise.cpp: against poet::decode_utf8, the poet's Tokenizer and
// make_batch, on edge cases (every byte length, invalid bytes) and on random poems of the default corpus.
#include "check.hpp"

namespace check18 {

static std::string code_points(const std::u32string& s) {  // "U+4E00 U+0061", the first 12
    std::string out;
    for (size_t i = 0; i < s.size() && i < 12; ++i) out += (i ? " " : "") + poet::code_point_str(s[i]);
    if (s.size() > 12) out += lesson::tr(" ... (", " ... (共 ") + std::to_string(s.size()) + lesson::tr(" in all)", " 个)");
    return out.empty() ? lesson::tr("nothing", "无") : out;
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
    if (ids.size() > 28) out += lesson::tr(" ... (", " ... (共 ") + std::to_string(ids.size()) + lesson::tr(" in all)", " 个)");
    return "[" + out + "]";
}

// The hint for an answer that did not change while the input did: one kept from an earlier call.
static std::string stored_hint(const std::string& function, const std::string& previous) {
    return lesson::tr("the same answer as for the previous input, ", "和上一次输入 ") + previous +
           lesson::tr(": " + function + " must compute it from this call's input every time (no static, no stored answer)",
                      " 给出的答案一模一样：" + function + " 每次都要用这一次的输入来算（不要用 static，也不要存下上次的答案）");
}

static std::string mask_hint() {
    return lesson::tr("the right number of characters but the wrong code point: keep only the lead byte's payload bits "
                      "(lead & 0x1F, & 0x0F, & 0x07 for 2, 3, 4 bytes), then add 6 bits per continuation byte: c = (c << 6) | (b & 0x3F)",
                      "字数对了，码点却错了：首字节只保留它的数据位（2、3、4 字节分别用 lead & 0x1F、& 0x0F、& 0x07），"
                      "然后每个续字节再加上 6 位：c = (c << 6) | (b & 0x3F)");
}

// Decodes valid `bytes` with the learner's utf8_decode and names what the numbers point to when it is wrong.
static void expect_decodes(const std::string& what, const std::string& bytes, const std::u32string& want,
                           const std::string& length_hint) {
    std::u32string got;
    try {
        got = exercise::utf8_decode(bytes);
    } catch (const std::invalid_argument& e) {
        throw lesson::CheckFailed(what + lesson::tr(" of ", " 作用于 ") + hex_bytes(bytes), code_points(want),
                                  std::string("std::invalid_argument: ") + e.what(),
                                  lesson::tr("this is valid UTF-8: ", "这是合法的 UTF-8：") + length_hint);
    }
    static std::string last_bytes;  // the previous call's bytes and answer
    static std::u32string last_got;
    const bool repeated = !last_bytes.empty() && last_bytes != bytes && got == last_got;
    const std::string previous = hex_bytes(last_bytes);
    last_bytes = bytes, last_got = got;
    if (got == want) return;
    if (repeated)
        throw lesson::CheckFailed(what + lesson::tr(" of ", " 作用于 ") + hex_bytes(bytes), code_points(want), code_points(got),
                                  stored_hint("utf8_decode", previous));
    std::string hint = length_hint;
    for (char32_t c : got)
        if (c >= 0xFFFFFF80)
            hint = lesson::tr("cast each byte to unsigned char before you compare or shift it: a plain char is signed here, so "
                              "0xE4 reads as -28, looks smaller than 0x80 and comes out as ",
                              "比较或移位之前，先把每个字节转成 unsigned char：这里的普通 char 是有符号的，所以 "
                              "0xE4 读出来是 -28，看起来比 0x80 小，结果成了 ") +
                   poet::code_point_str(c);
    if (hint == length_hint && got.size() == want.size()) hint = mask_hint();
    throw lesson::CheckFailed(what + lesson::tr(" of ", " 作用于 ") + hex_bytes(bytes), code_points(want), code_points(got), hint);
}

// The learner's utf8_decode must throw std::invalid_argument saying "byte offset <offset>".
// Returns the message, to compare with the poet's.
static std::string expect_invalid(const std::string& what, const std::string& bytes, size_t offset,
                                  const std::string& hint) {
    const std::string want = lesson::tr("std::invalid_argument saying \"byte offset ", "std::invalid_argument，内容含 \"byte offset ") +
                             std::to_string(offset) + "\"";
    std::string message;
    try {
        std::u32string got = exercise::utf8_decode(bytes);
        throw lesson::CheckFailed(what + " (" + hex_bytes(bytes) + ")", want,
                                  lesson::tr("no error, it returned ", "没有出错，它返回了 ") + code_points(got), hint);
    } catch (const std::invalid_argument& e) {
        message = e.what();
    } catch (const lesson::CheckFailed&) {
        throw;
    } catch (const lesson::NotImplemented&) {
        throw;
    } catch (const std::exception& e) {
        throw lesson::CheckFailed(what + " (" + hex_bytes(bytes) + ")", want,
                                  lesson::tr("another error: ", "另一种错误：") + e.what(),
                                  lesson::tr("throw std::invalid_argument for invalid UTF-8; ",
                                             "遇到不合法的 UTF-8 要抛出 std::invalid_argument；") + hint);
    }
    const std::string tag = "byte offset " + std::to_string(offset);
    size_t at = message.find(tag);
    bool named = at != std::string::npos &&
                 (at + tag.size() == message.size() || !std::isdigit(static_cast<unsigned char>(message[at + tag.size()])));
    lesson::expect(what + " (" + hex_bytes(bytes) + ")", named, want, "\"" + message + "\"",
                   lesson::tr("name the right offset: ", "要指出正确的偏移：") + hint);
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
    // the previous call's record and answer: an answer that stays the same while the record changes is
    // a stored (static) one
    static std::vector<int> last_record;
    static exercise::Example last_got;
    const bool repeated = !last_record.empty() && last_record != record && got.inputs == last_got.inputs &&
                          got.targets == last_got.targets;
    last_record = record;
    last_got = got;
    const size_t T = poet::kInputLength;
    const std::string where = what + lesson::tr(", slot ", "，字位 ") + std::to_string(slot);

    if (got.inputs.size() != T || got.targets.size() != T)
        throw lesson::CheckFailed(where + lesson::tr(": sizes", "：长度"),
                                  lesson::tr("27 inputs and 27 targets", "27 个输入和 27 个目标"),
                                  std::to_string(got.inputs.size()) + lesson::tr(" inputs and ", " 个输入和 ") +
                                      std::to_string(got.targets.size()) + lesson::tr(" targets", " 个目标"),
                                  lesson::tr("the record BOS k SEP poem EOS has 1 + 1 + 1 + 24 + 1 = 28 ids: inputs are the first 27, "
                                             "targets the last 27",
                                             "记录 BOS k SEP poem EOS 共有 1 + 1 + 1 + 24 + 1 = 28 个编号：输入是前 27 个，"
                                             "目标是后 27 个"));
    if (repeated)
        throw lesson::CheckFailed(where, ids_str(want_in), ids_str(got.inputs),
                                  lesson::tr("the same example as for the previous poem, whose record differs: build "
                                             "it from this call's poem and slot every time (no static, no stored answer)",
                                             "和上一首诗给出的例子一模一样，而两条记录并不相同：每次都要用这一次的 poem 和 "
                                             "slot 来构造（不要用 static，也不要存下上次的答案）"));
    const int k = poem[poet::quatrain::slot_position(slot)];
    if (got.inputs[1] != k)
        throw lesson::CheckFailed(
            where + ": inputs[1], k", std::to_string(k), std::to_string(got.inputs[1]),
            got.inputs[1] == poem[slot]
                ? lesson::tr("k is poem[slot_position(slot)], not poem[slot]: a slot counts the 20 characters, a position the 24 "
                             "ids with the punctuation (slot ",
                             "k 是 poem[slot_position(slot)]，不是 poem[slot]：字位数的是 20 个字，位置数的是连标点在内的 24 "
                             "个编号（字位 ") +
                      std::to_string(slot) + lesson::tr(" is position ", " 是位置 ") +
                      std::to_string(poet::quatrain::slot_position(slot)) + lesson::tr(")", "）")
                : lesson::tr("the record starts BOS k SEP, k = poem[slot_position(slot)]",
                             "记录以 BOS k SEP 开头，k = poem[slot_position(slot)]"));
    lesson::expect(where + ": inputs", got.inputs == want_in, ids_str(want_in), ids_str(got.inputs),
                   lesson::tr("inputs are the first 27 ids of BOS k SEP poem EOS: record[0], ..., record[26]",
                              "输入是 BOS k SEP poem EOS 的前 27 个编号：record[0], ..., record[26]"));
    if (got.targets == want_tg) return;

    bool unshifted = true;  // target t = record[t] instead of record[t + 1]
    for (size_t t = 2; t < T; ++t) unshifted = unshifted && got.targets[t] == record[t];
    std::string hint;
    if (unshifted)
        hint = lesson::tr("targets are the record shifted by one: target t is record[t + 1], the id that comes after input t",
                          "目标是错开一位的记录：目标 t 是 record[t + 1]，即输入 t 之后的那个编号");
    else if (got.targets[0] != poet::kIgnore || got.targets[1] != poet::kIgnore)
        hint = lesson::tr("the targets k and SEP (t = 0 and 1) carry no loss: set them to poet::kIgnore (-1). k is given by "
                          "whoever asks for a poem, and SEP always follows it",
                          "目标 k 和 SEP（t = 0 和 1）不计损失：把它们设成 poet::kIgnore (-1)。k 由要诗的人给出，SEP 总是跟在它后面");
    else if (got.targets[2] == poet::kIgnore)
        hint = lesson::tr("the first poem character (t = 2, predicted from SEP) is a real target: ignore only t = 0 and 1",
                          "诗的第一个字（t = 2，由 SEP 预测）是真正的目标：只忽略 t = 0 和 1");
    else
        hint = lesson::tr("target t is record[t + 1] for t = 2 .. 26; the last target is EOS",
                          "对 t = 2 .. 26，目标 t 是 record[t + 1]；最后一个目标是 EOS");
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

    checks.run(lesson::tr("utf8_decode: one character of each length, and the edges between lengths",
                          "utf8_decode：每种长度各一个字符，以及长度之间的交界"), [] {
        struct Case { std::string bytes; char32_t c; std::string hint; };
        const std::string one = lesson::tr("a byte below 0x80 (0xxxxxxx) is a whole character",
                                           "小于 0x80 的字节（0xxxxxxx）本身就是一个完整的字符");
        const std::string two = lesson::tr("a lead byte 110xxxxx (0xC2..0xDF) starts a 2-byte character",
                                           "首字节 110xxxxx（0xC2..0xDF）开始一个 2 字节的字符");
        const std::string three = lesson::tr("a lead byte 1110xxxx (0xE0..0xEF) starts a 3-byte character",
                                             "首字节 1110xxxx（0xE0..0xEF）开始一个 3 字节的字符");
        const std::string four = lesson::tr("a lead byte 11110xxx (0xF0..0xF4) starts a 4-byte character",
                                            "首字节 11110xxx（0xF0..0xF4）开始一个 4 字节的字符");
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
                                        c.hint + " (" + poet::code_point_str(c.c) + lesson::tr(" is ", " 是 ") +
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
            first.hint = lesson::tr("ASCII decodes but every character from U+0080 up fails: cast each byte to unsigned char "
                                    "before you compare or shift it. A plain char is signed here, so 0xE4 reads as -28 and "
                                    "looks smaller than 0x80",
                                    "ASCII 能解码，但从 U+0080 起的每个字符都失败了：比较或移位之前，先把每个字节转成 unsigned char。这里的普通 char 是有符号的，所以 0xE4 读出来是 -28，看起来比 0x80 小");
        throw first;
    });
    checks.run(lesson::tr("utf8_decode: 300 random poems of the default corpus, and mixed text",
                          "utf8_decode：默认语料里随机的 300 首诗，以及混合文本"), [&] {
        const std::string mixed = "春a\xF0\xA0\x80\x80" "é。\x7F";
        check18::expect_decodes("utf8_decode", mixed, poet::decode_utf8(mixed),
                                lesson::tr("read each character's length from its lead byte: 0xxxxxxx 1, 110xxxxx 2, 1110xxxx 3, "
                                           "11110xxx 4",
                                           "从首字节读出每个字符的长度：0xxxxxxx 1，110xxxxx 2，1110xxxx 3，11110xxx 4"));
        for (const auto& poem : poems)
            check18::expect_decodes(lesson::tr("utf8_decode of a poem", "utf8_decode 作用于一首诗"), poet::encode_utf8(poem), poem,
                                    lesson::tr("a poem is 24 characters of 3 bytes each, 72 bytes",
                                               "一首诗是 24 个字，每个 3 字节，共 72 字节"));
    });
    checks.run(lesson::tr("utf8_decode: invalid UTF-8 throws std::invalid_argument naming the byte offset",
                          "utf8_decode：不合法的 UTF-8 抛出 std::invalid_argument，并指出字节偏移"), [] {
        struct Case { std::string what, bytes; size_t offset; std::string hint; };
        const std::string line = "春眠不觉晓";
        const std::string cut = lesson::tr("a lead byte promises its continuation bytes: when the text ends first, the character "
                                           "is cut off by the end of the text; throw, naming its lead byte's offset, instead of "
                                           "returning (or dropping) it",
                                           "首字节预告了它的续字节：文本先结束时，这个字符就被文本末尾截断了；要抛出异常，指出它首字节的偏移，而不是返回（或丢掉）它");
        const std::string overlong = lesson::tr("a code point takes its shortest form: 2 bytes only from U+0080, 3 from U+0800, "
                                                "4 from U+10000; a longer one is overlong (name its lead byte)",
                                                "码点要用最短的形式：从 U+0080 起才用 2 字节，从 U+0800 起用 3 字节，从 U+10000 起用 4 字节；更长的是超长编码（指出它的首字节）");
        std::vector<Case> cases = {
            {lesson::tr("a stray continuation byte", "一个多出来的续字节"), "a\x80", 1,
             lesson::tr("a continuation byte 10xxxxxx cannot start a character", "续字节 10xxxxxx 不能开始一个字符")},
            {lesson::tr("a byte that never appears in UTF-8", "一个在 UTF-8 里从不出现的字节"), "\xFF", 0,
             lesson::tr("0xF5..0xFF cannot start a character", "0xF5..0xFF 不能开始一个字符")},
            {lesson::tr("春眠 saved as GBK", "按 GBK 保存的春眠"), "\xB4\xBA\xC3\xDF", 0,
             lesson::tr("0xB4 is a continuation byte, it cannot start a character", "0xB4 是续字节，它不能开始一个字符")},
            {lesson::tr("a missing continuation byte", "缺了一个续字节"), "\xE4\x41\x80", 1,
             lesson::tr("after the lead byte every byte of the character must be 10xxxxxx: name the offset of the one that is not",
                        "首字节之后，这个字符的每个字节都必须是 10xxxxxx：指出不是的那个字节的偏移")},
            {lesson::tr("a character cut short by the next one", "被下一个字符截断的字符"), "\xE4\xB8\xE4\xB8\x80", 2,
             lesson::tr("0xE4 at offset 2 arrives where a continuation byte was expected",
                        "偏移 2 处的 0xE4 出现在本该是续字节的地方")},
            {lesson::tr("春眠不觉晓 minus its last byte", "少了最后一个字节的春眠不觉晓"), line.substr(0, line.size() - 1), 12, cut},
            {lesson::tr("the start of 𠀀 at the end", "末尾只有 𠀀 的开头"), "a\xF0\xA0\x80", 1, cut},
            {lesson::tr("a lone lead byte at the end", "末尾一个孤零零的首字节"), "\xE4", 0, cut},
            {lesson::tr("/ as an overlong 2-byte form", "/ 的 2 字节超长编码"), "\xC0\xAF", 0, overlong},
            {lesson::tr("/ as an overlong 3-byte form", "/ 的 3 字节超长编码"), "\xE0\x80\xAF", 0, overlong},
            {lesson::tr("U+07FF as an overlong 3-byte form", "U+07FF 的 3 字节超长编码"), "\xE0\x9F\xBF", 0, overlong},
            {lesson::tr("U+FFFF as an overlong 4-byte form", "U+FFFF 的 4 字节超长编码"), "\xF0\x8F\xBF\xBF", 0, overlong},
            {lesson::tr("a UTF-16 surrogate, U+D800", "一个 UTF-16 代理项，U+D800"), "\xED\xA0\x80", 0,
             lesson::tr("U+D800..U+DFFF are surrogates, not characters", "U+D800..U+DFFF 是代理项，不是字符")},
            {lesson::tr("the last surrogate, U+DFFF", "最后一个代理项，U+DFFF"), "\xED\xBF\xBF", 0,
             lesson::tr("U+D800..U+DFFF are surrogates, not characters", "U+D800..U+DFFF 是代理项，不是字符")},
            {lesson::tr("past the last code point", "超出最后一个码点"), "\xF4\x90\x80\x80", 0,
             lesson::tr("no code point lies beyond U+10FFFF", "U+10FFFF 之后没有码点")},
        };
        // Every byte that cannot start a character, each in two settings, and the rest of the edges the
        // README names: a 2-byte and a 4-byte character cut off, a 2-byte and a 4-byte overlong form.
        const std::string continuation = lesson::tr("a continuation byte 10xxxxxx cannot start a character",
                                                    "续字节 10xxxxxx 不能开始一个字符");
        cases.push_back({lesson::tr("é without its second byte", "少了第二个字节的 é"), "\xC3", 0, cut});
        cases.push_back({lesson::tr("the first two bytes of 𠀀", "𠀀 的前两个字节"), "\xF0\xA0", 0, cut});
        cases.push_back({lesson::tr("U+007F as an overlong 2-byte form", "U+007F 的 2 字节超长编码"), "\xC1\xBF", 0, overlong});
        cases.push_back({lesson::tr("/ as an overlong 4-byte form", "/ 的 4 字节超长编码"), "\xF0\x80\x80\xAF", 0, overlong});
        for (unsigned b = 0x80; b <= 0xBF; ++b)
            cases.push_back({lesson::tr("a continuation byte alone", "单独一个续字节"), std::string(1, static_cast<char>(b)), 0,
                             continuation});
        const std::string c0c1 = lesson::tr("0xC0 and 0xC1 cannot start a character (they could only start an overlong form): a "
                                            "2-byte lead is 0xC2..0xDF",
                                            "0xC0 和 0xC1 不能开始一个字符（它们只可能开始一个超长编码）：2 字节的首字节是 0xC2..0xDF");
        const std::string f5f7 = lesson::tr("0xF5..0xF7 cannot start a character: a 4-byte lead is 0xF0..0xF4, a higher one "
                                            "would start a code point past U+10FFFF",
                                            "0xF5..0xF7 不能开始一个字符：4 字节的首字节是 0xF0..0xF4，更大的会开始一个超过 U+10FFFF 的码点");
        const std::string f8ff = lesson::tr("0xF8..0xFF cannot start a character: a 4-byte lead is 11110xxx, (lead & 0xF8) == 0xF0, "
                                            "and only 0xF0..0xF4",
                                            "0xF8..0xFF 不能开始一个字符：4 字节的首字节是 11110xxx，即 (lead & 0xF8) == 0xF0，而且只有 0xF0..0xF4");
        // 0xF8..0xFF first: a decoder that takes every 1111xxxx for a lead is named by their hint, not by 0xF5..0xF7's
        for (unsigned b : {0xF8u, 0xF9u, 0xFAu, 0xFBu, 0xFCu, 0xFDu, 0xFEu, 0xFFu, 0xC0u, 0xC1u, 0xF5u, 0xF6u, 0xF7u}) {
            const std::string lead(1, static_cast<char>(b));
            const std::string& hint = b <= 0xC1 ? c0c1 : b <= 0xF7 ? f5f7 : f8ff;
            // with continuation bytes after it, a decoder that takes it for a lead byte may return a character
            cases.push_back({lesson::tr("a byte that cannot start a character, then continuation bytes",
                                        "一个不能开始字符的字节，后面跟着续字节"),
                             lead + (b <= 0xC1 ? "\xAF" : "\x90\x80\x80"), 0, hint});
            // with ASCII after it, such a decoder names the offset of the first "continuation byte", 1
            cases.push_back({lesson::tr("a byte that cannot start a character, then ASCII", "一个不能开始字符的字节，后面跟着 ASCII"),
                             lead + "AAA", 0, hint});
        }
        size_t same = 0;  // messages word for word those of poet::decode_utf8, "... byte offset N: <why>"
        for (const Case& c : cases) {
            std::string mine = check18::expect_invalid(c.what, c.bytes, c.offset, c.hint), theirs;
            try {
                poet::decode_utf8(c.bytes);
            } catch (const std::invalid_argument& e) {
                theirs = std::string(e.what()).substr(std::string(e.what()).find("byte offset"));
            }
            if (theirs.rfind("byte offset " + std::to_string(c.offset) + ":", 0) != 0)  // the check's own promise
                throw std::logic_error("check18: poet::decode_utf8 names another offset for " + check18::hex_bytes(c.bytes));
            same += mine.size() >= theirs.size() && mine.compare(mine.size() - theirs.size(), theirs.size(), theirs) == 0;
        }
        lesson::expect(lesson::tr("your error messages", "你的报错信息"), same < cases.size(),
                       lesson::tr("your own words", "你自己的措辞"),
                       lesson::tr("poet::decode_utf8's messages, all ", "poet::decode_utf8 的报错，全部 ") + std::to_string(same),
                       lesson::tr("write the decoder yourself instead of calling poet::decode_utf8: the lead byte tells the "
                                  "length, then read and check its continuation bytes",
                                  "自己写解码器，不要调用 poet::decode_utf8：首字节给出长度，然后读取并检查它的续字节"));
    });
    checks.run(lesson::tr("utf8_encode: the code points at the edges of 1, 2, 3 and 4 bytes",
                          "utf8_encode：位于 1、2、3、4 字节交界处的码点"), [] {
        std::string last_got;
        char32_t last_c = 0;
        for (char32_t c : std::u32string{0x0, 0x41, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0x4E00, 0xFF0C, 0xFFFF, 0x10000,
                                         0x20000, 0x10FFFF}) {
            std::string want = poet::encode_utf8(c), got = exercise::utf8_encode(std::u32string(1, c));
            const bool repeated = c != 0 && got == last_got;
            std::string hint =
                repeated ? check18::stored_hint("utf8_encode", poet::code_point_str(last_c))
                : got.size() != want.size()
                    ? poet::code_point_str(c) + lesson::tr(" takes ", " 占 ") + std::to_string(want.size()) +
                          lesson::tr(" bytes: 1 below U+0080, 2 below U+0800, 3 below U+10000, 4 up to U+10FFFF (compare with <, "
                                     "not <=)",
                                     " 个字节：小于 U+0080 用 1 个，小于 U+0800 用 2 个，小于 U+10000 用 3 个，直到 U+10FFFF 用 4 个"
                                     "（用 < 比较，不是 <=）")
                    : lesson::tr("the lead byte is the length marker (0xC0, 0xE0, 0xF0) | the top bits (c >> 6, c >> 12, c >> 18); "
                                 "each continuation byte is 0x80 | the next 6 bits",
                                 "首字节是长度标记 (0xC0, 0xE0, 0xF0) | 最高几位 (c >> 6, c >> 12, c >> 18)；"
                                 "每个续字节是 0x80 | 接下来的 6 位");
            lesson::expect("utf8_encode(" + poet::code_point_str(c) + ")", got == want, check18::hex_bytes(want),
                           check18::hex_bytes(got), hint);
            last_got = got, last_c = c;
        }
    });
    checks.run(lesson::tr("utf8_encode: 300 random poems give the corpus's bytes back",
                          "utf8_encode：随机的 300 首诗还原出语料的字节"), [&] {
        for (const auto& poem : poems) {
            std::string want = poet::encode_utf8(poem), got = exercise::utf8_encode(poem);
            lesson::expect(lesson::tr("utf8_encode of a poem", "utf8_encode 作用于一首诗"), got == want,
                           check18::hex_bytes(want.substr(0, 12)) + lesson::tr(" ... (72 bytes)", " ... (72 字节)"),
                           check18::hex_bytes(got.substr(0, 12)) + " ... (" + std::to_string(got.size()) +
                               lesson::tr(" bytes)", " 字节)"),
                           lesson::tr("every character of a poem is 3 bytes: 0xE0 | c >> 12, 0x80 | (c >> 6 & 0x3F), 0x80 | (c & 0x3F)",
                                      "诗的每个字都是 3 个字节：0xE0 | c >> 12，0x80 | (c >> 6 & 0x3F)，0x80 | (c & 0x3F)"));
        }
    });

    // encode that reports an unknown character as a failure with a hint, not as a crash
    auto learner_encode = [&](const std::string& what, const std::string& text) {
        try {
            return exercise::encode(tok, text);
        } catch (const std::out_of_range& e) {
            throw lesson::CheckFailed(what, lesson::tr("ids, UNK (4) for an unknown character", "编号，未知字符用 UNK (4)"),
                                      std::string("std::out_of_range: ") + e.what(),
                                      lesson::tr("a character outside the vocabulary becomes Tokenizer::UNK (id 4): use "
                                                 "tok.id_or_unk(c), or tok.contains(c) before tok.id(c)",
                                                 "词表之外的字符变成 Tokenizer::UNK（编号 4）：用 "
                                                 "tok.id_or_unk(c)，或者在 tok.id(c) 之前先 tok.contains(c)"));
        } catch (const std::invalid_argument& e) {
            throw lesson::CheckFailed(what, lesson::tr("ids", "编号"), std::string("std::invalid_argument: ") + e.what(),
                                      lesson::tr("this text is valid UTF-8: make utf8_decode pass its checks first",
                                                 "这段文本是合法的 UTF-8：先让 utf8_decode 通过它自己的检查"));
        }
    };
    std::string last_text;  // expect_ids' previous call: its text and answer
    std::vector<int> last_ids;
    auto expect_ids = [&](const std::string& what, const std::string& text) {
        std::vector<int> want = tok.encode(text, /*allow_unknown=*/true), got = learner_encode(what, text);
        const bool repeated = !last_text.empty() && last_text != text && got == last_ids;
        const std::string previous = last_text;
        last_text = text, last_ids = got;
        std::string hint = repeated ? check18::stored_hint("encode", "\"" + previous + "\"") : lesson::tr("one id per character, punctuation included: tok.id_or_unk(c) for each code point of "
                                      "utf8_decode(text)",
                                      "每个字符一个编号，标点也算：对 utf8_decode(text) 的每个码点用 tok.id_or_unk(c)");
        if (repeated) {
        } else if (got.size() == text.size() && want.size() != text.size())
            hint = lesson::tr("one id per character, not per byte: decode the UTF-8 to code points first",
                              "每个字符一个编号，不是每个字节一个：先把 UTF-8 解码成码点");
        else if (exercise::utf8_decode(text) != poet::decode_utf8(text))
            hint = lesson::tr("your utf8_decode reads this text wrong: make it pass its checks first",
                              "你的 utf8_decode 把这段文本读错了：先让它通过它自己的检查");
        lesson::expect(what, got == want, check18::ids_str(want), check18::ids_str(got), hint);
    };
    const std::string chunxiao = "春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。";
    checks.run(lesson::tr("encode: 春晓 with the default corpus's tokenizer", "encode：用默认语料的分词器编码春晓"), [&] { expect_ids("encode(tok, 春晓)", chunxiao); });
    checks.run(lesson::tr("encode: characters outside the vocabulary become UNK; 300 random poems",
                          "encode：词表之外的字符变成 UNK；随机的 300 首诗"), [&] {
        expect_ids(lesson::tr("encode(tok, a validation poem with 岨)", "encode(tok, 一首含「岨」的验证集诗)"), "桂水饶枫杉，荆南足烟雨。犹疑黛色中，复是雒阳岨。");
        expect_ids("encode(tok, \"a 春\")", "a 春");
        for (const auto& poem : poems) expect_ids(lesson::tr("encode(tok, a poem)", "encode(tok, 一首诗)"), poet::encode_utf8(poem));
    });
    checks.run(lesson::tr("encode reads the text with your utf8_decode", "encode 用你的 utf8_decode 读文本"), [&] {
        const std::string bad = "春\xE4\xB8";
        std::string mine = lesson::tr("no error", "没有出错"), got = lesson::tr("no error", "没有出错");
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
        lesson::expect("encode(tok, " + check18::hex_bytes(bad) + ")", got == mine,
                       lesson::tr("what your utf8_decode says: ", "你的 utf8_decode 说的：") + mine, got,
                       lesson::tr("decode the text with your own utf8_decode, then look each character up (not tok.encode)",
                                  "用你自己的 utf8_decode 解码文本，再逐个查字符（不要用 tok.encode）"));
    });
    checks.run(lesson::tr("decode: ids back to text, the special tokens by name", "decode：把编号还原成文本，特殊标记写成名字"), [&] {
        std::vector<int> ids = tok.encode(chunxiao);
        ids.insert(ids.begin(), {Tokenizer::BOS, tok.id(U'花'), Tokenizer::SEP});
        ids.push_back(Tokenizer::EOS);
        ids.push_back(Tokenizer::COPY);
        ids.push_back(Tokenizer::UNK);
        lesson::expect(lesson::tr("decode(tok, a record)", "decode(tok, 一条记录)"), exercise::decode(tok, ids) == tok.decode(ids), tok.decode(ids),
                       exercise::decode(tok, ids),
                       lesson::tr("a special id (0..4) prints as its name, tok.token_str(id); any other id is its character, "
                                  "utf8_encode of tok.char_of(id)",
                                  "特殊编号（0..4）打印成它的名字，tok.token_str(id)；其他编号就是它的字符，即 tok.char_of(id) 的 utf8_encode"));
        std::string last_text = tok.decode(ids), last_got = exercise::decode(tok, ids);
        for (const auto& poem : poems) {
            std::string text = poet::encode_utf8(poem), got = exercise::decode(tok, tok.encode(text));
            lesson::expect("decode(tok, encode(poem))", got == text, text, got,
                           text != last_text && got == last_got
                               ? check18::stored_hint("decode", last_text)
                               : lesson::tr("the characters in order, as UTF-8", "按顺序排列的字符，用 UTF-8 表示"));
            last_text = text, last_got = got;
        }
        lesson::expect_throws<std::out_of_range>(
            "decode(tok, {V})", "std::out_of_range", [&] { exercise::decode(tok, {static_cast<int>(tok.size())}); },
            lesson::tr("ids run from 0 to V - 1: tok.char_of(id) and tok.token_str(id) throw for any other; let them",
                       "编号从 0 到 V - 1：遇到其他编号，tok.char_of(id) 和 tok.token_str(id) 会抛出异常；让它们抛"));
    });
    checks.run(lesson::tr("make_example: 春晓 with k = 花 (slot 15)", "make_example：春晓，k = 花（字位 15）"), [&] {
        check18::expect_example("make_example(春晓, 15)", tok.encode(chunxiao), 15);
    });
    checks.run(lesson::tr("make_example against make_batch: 300 random poems and slots",
                          "make_example 与 make_batch 对比：随机的 300 首诗和字位"), [&] {
        pg::Generator slots(1819);
        for (const auto& poem : poems)
            check18::expect_example(lesson::tr("make_example(a poem)", "make_example(一首诗)"), tok.encode(poet::encode_utf8(poem)),
                                    slots.randint(poet::quatrain::kChars));
    });
    return checks.finish();
}
