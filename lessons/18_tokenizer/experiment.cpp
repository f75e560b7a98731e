// Lesson 18 experiment: characters to ids. UTF-8 by hand (一 is E4 B8 80) and the errors that name
// a byte offset; the vocabulary of the default corpus; a real quatrain encoded and decoded; the
// training record BOS k SEP poem EOS, its targets shifted by one, and the two targets that carry no loss.
// Leaves out: any model (lesson 19 fits the first one to these records).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <unistd.h>
#include "lesson.hpp"
#include "svg.hpp"
#include "poet/corpus.hpp"
#include "poet/quatrain.hpp"
#include "poet/records.hpp"
#include "poet/tokenizer.hpp"
#include "poet/utf8.hpp"

// "E4 B8 80"
static std::string hex_bytes(const std::string& bytes) {
    std::string out;
    char buf[4];
    for (unsigned char b : bytes) {
        std::snprintf(buf, sizeof buf, "%02X", b);
        out += (out.empty() ? "" : " ") + std::string(buf);
    }
    return out;
}

// The low n bits of v, most significant first: bits(0x4E00, 16) = "0100111000000000".
static std::string bits(unsigned v, int n) {
    std::string s;
    for (int i = n - 1; i >= 0; --i) s += ((v >> i) & 1) ? '1' : '0';
    return s;
}

// s padded with spaces to `width` terminal columns (a CJK character or fullwidth mark takes two).
static std::string pad(const std::string& s, size_t width) {
    size_t columns = 0;
    for (char32_t c : poet::decode_utf8(s)) columns += c >= 0x2E80 && c <= 0x3134F ? 2 : 1;
    return s + std::string(columns < width ? width - columns : 0, ' ');
}

static void same(const std::string& what, const std::string& actual, const std::string& expected,
                 const std::string& source) {
    lesson::expect(what, actual == expected, expected, actual, "");
    std::cout << "  = " << source << ": " << expected << "\n";
}

static std::string ids_str(const std::vector<int>& ids) {
    std::string s;
    for (size_t i = 0; i < ids.size(); ++i) s += (i ? " " : "") + std::to_string(ids[i]);
    return s;
}

static void utf8_by_hand() {
    lesson::section(lesson::tr("UTF-8 by hand: 一 is U+4E00", "手算 UTF-8：一 是 U+4E00"));
    const char32_t c = U'一';
    std::cout << "一 = " << poet::code_point_str(c) << " = " << bits(c, 16) << lesson::tr(" in binary (16 bits)\n", "，二进制（16 位）\n")
              << lesson::tr("3 bytes carry 4 + 6 + 6 = 16 bits: ", "3 个字节装下 4 + 6 + 6 = 16 位：") << "1110xxxx 10xxxxxx 10xxxxxx\n";
    unsigned b0 = 0xE0 | (c >> 12), b1 = 0x80 | ((c >> 6) & 0x3F), b2 = 0x80 | (c & 0x3F);
    std::printf("  %s1110 + %s        = %s = 0x%02X\n", lesson::tr("lead          ", "首字节        ").c_str(), bits(c >> 12, 4).c_str(), bits(b0, 8).c_str(), b0);
    std::printf("  %s  10 + %s      = %s = 0x%02X\n", lesson::tr("continuation  ", "续字节        ").c_str(), bits(c >> 6, 6).c_str(), bits(b1, 8).c_str(), b1);
    std::printf("  %s  10 + %s      = %s = 0x%02X\n", lesson::tr("continuation  ", "续字节        ").c_str(), bits(c, 6).c_str(), bits(b2, 8).c_str(), b2);
    std::string by_hand = {static_cast<char>(b0), static_cast<char>(b1), static_cast<char>(b2)};
    same("encode_utf8(U+4E00)", hex_bytes(poet::encode_utf8(c)), hex_bytes(by_hand), "poet::encode_utf8(U'一')");

    std::cout << lesson::tr("\nback: 春 is stored as E6 98 A5; the lead's low 4 bits, then 6 bits per continuation byte\n",
                            "\n反过来：春 存成 E6 98 A5；取首字节的低 4 位，再给每个续字节取 6 位\n");
    std::string chun = poet::encode_utf8(U'春');
    unsigned d0 = static_cast<unsigned char>(chun[0]) & 0x0F, d1 = static_cast<unsigned char>(chun[1]) & 0x3F,
             d2 = static_cast<unsigned char>(chun[2]) & 0x3F;
    unsigned cp = (d0 << 12) | (d1 << 6) | d2;
    std::printf("  0xE6 & 0x0F = 0x%X, 0x98 & 0x3F = 0x%02X, 0xA5 & 0x3F = 0x%02X\n", d0, d1, d2);
    std::printf("  (0x%X << 12) | (0x%02X << 6) | 0x%02X = 0x%X + 0x%X + 0x%X = U+%04X\n", d0, d1, d2, d0 << 12,
                d1 << 6, d2, cp);
    same("decode_utf8(E6 98 A5)", poet::code_point_str(poet::decode_utf8(chun)[0]), poet::code_point_str(cp),
         "poet::decode_utf8");

    lesson::section(lesson::tr("one character is 1 to 4 bytes: the lead byte says how many", "一个字占 1 到 4 个字节：首字节说明有几个"));
    std::cout << lesson::tr("  lead 0xxxxxxx: 1 byte (U+0000..U+007F), 110xxxxx: 2, 1110xxxx: 3, 11110xxx: 4 (up to U+10FFFF)\n",
                            "  首字节 0xxxxxxx：1 个字节（U+0000..U+007F），110xxxxx：2，1110xxxx：3，11110xxx：4（直到 U+10FFFF）\n");
    const std::u32string samples = {U'a', U'é', U'一', U'春', U'，', U'。', U'\U00020000', U'\U0010FFFF'};
    for (char32_t s : samples) {
        std::string bytes = poet::encode_utf8(s);
        std::string shown = s == U'\U0010FFFF' ? "" : bytes;  // the last code point has no glyph
        const std::string unit = lesson::chinese() ? " 个字节" : bytes.size() == 1 ? " byte " : " bytes";
        std::printf("  %s %-9s %zu%s  %-12s is_han %s\n", pad(shown, 3).c_str(), poet::code_point_str(s).c_str(),
                    bytes.size(), unit.c_str(), hex_bytes(bytes).c_str(),
                    poet::is_han(s) ? lesson::tr("yes", "是").c_str() : lesson::tr("no", "否").c_str());
        lesson::expect("decode(encode(c))", poet::decode_utf8(bytes) == std::u32string(1, s), "c", "another", "");
    }
    std::string line = "春眠不觉晓";
    std::u32string decoded = poet::decode_utf8(line);
    std::cout << "\"" << line << "\": " << line.size() << lesson::tr(" bytes, ", " 个字节，") << decoded.size() << lesson::tr(" code points:", " 个码点：");
    for (char32_t s : decoded) std::cout << " " << poet::code_point_str(s);
    std::cout << "\n";
    lesson::confirm(lesson::tr("bytes of 春眠不觉晓", "春眠不觉晓的字节数"), static_cast<double>(line.size()), 15.0, 0.0, lesson::tr("5 characters x 3 bytes", "5 个字 x 3 个字节"));
}

// poet::decode_utf8's error ("input: invalid UTF-8 at byte offset 1: byte 0x80 cannot start a
// character"), in the learner's language.
static std::string utf8_error_text(const std::string& message) {
    if (!lesson::chinese()) return message;
    static const std::vector<std::pair<std::string, std::string>> in_chinese = {
        {": invalid UTF-8 at byte offset {1}: ", "：字节偏移 {1} 处的 UTF-8 不合法："},
        {"the character starting with {1} is cut off by the end of the text", "以 {1} 开头的字符被文本末尾截断"},
        {"byte {1} cannot start a character", "字节 {1} 不能开始一个字符"},
        {"expected a continuation byte ({1}) after {2}, got {3}", "{2} 之后应是续字节（{1}），实际是 {3}"},
        {"overlong encoding of {1}", "{1} 的超长编码"},
        {"encoded surrogate {1}", "编码了代理项 {1}"},
        {"code point beyond {1}", "码点超过 {1}"},
    };
    std::string text = message;
    for (const auto& [english, chinese] : in_chinese) text = lesson::reword(text, english, chinese);
    return text;
}

static void invalid_utf8() {
    lesson::section(lesson::tr("invalid UTF-8: the error names the byte offset", "不合法的 UTF-8：报错指出字节偏移"));
    std::string line = "春眠不觉晓";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {lesson::tr("春眠不觉晓 minus its last byte", "少了最后一个字节的春眠不觉晓"), line.substr(0, line.size() - 1)},
        {lesson::tr("a stray continuation byte", "一个多出来的续字节"), "a\x80"},
        {lesson::tr("一 with its middle byte replaced by A", "中间字节换成了 A 的一"), "\xE4\x41\x80"},
        {lesson::tr("春眠 saved as GBK, not UTF-8", "按 GBK 而不是 UTF-8 保存的春眠"), "\xB4\xBA\xC3\xDF"},
        {lesson::tr("/ as an overlong 2-byte form", "/ 的 2 字节超长编码"), "\xC0\xAF"},
        {lesson::tr("/ as an overlong 3-byte form", "/ 的 3 字节超长编码"), "\xE0\x80\xAF"},
        {lesson::tr("a UTF-16 surrogate, U+D800", "一个 UTF-16 代理项，U+D800"), "\xED\xA0\x80"},
        {lesson::tr("past the last code point", "超出最后一个码点"), "\xF4\x90\x80\x80"},
    };
    for (const auto& [what, bytes] : cases) {
        std::cout << what << " (" << hex_bytes(bytes) << "):\n";
        try {
            poet::decode_utf8(bytes);
            lesson::expect(what, false, "an error", "decoded without one", "");
        } catch (const std::invalid_argument& e) {
            std::cout << "  " << utf8_error_text(e.what()) << "\n";
        }
    }
    // The corpus reader passes "file:line" as the `what`, so a broken line in data/poems says where it is.
    const std::string path =  // one file per process: the normal and the sanitizer build may run at once
        (std::filesystem::temp_directory_path() / ("lesson18_" + std::to_string(::getpid()) + ".txt")).string();
    std::ofstream(path) << "春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。\n" << line.substr(0, 13) << "\n";
    std::cout << lesson::tr("a poem file whose line 2 is cut inside 晓, read with poet::read_poems:\n",
                            "一个诗文件，第 2 行在「晓」中间被截断，用 poet::read_poems 读：\n");
    try {
        poet::read_poems(path);
        lesson::expect("read_poems of a broken file", false, "an error", "no error", "");
    } catch (const std::invalid_argument& e) {
        std::string message = e.what();  // "<path>:2: invalid UTF-8 ...", the path shortened to broken.txt
        std::cout << "  " << utf8_error_text(message.replace(0, path.size(), "broken.txt")) << "\n";
    }
    std::filesystem::remove(path);
}

// Where a picture goes: NAME.svg, or NAME.zh.svg with Chinese labels when the experiment runs in Chinese.
static svg::Output picture(const std::string& name) {
    return svg::in_lesson_folder(__FILE__, name + (lesson::chinese() ? ".zh.svg" : ".svg"));
}

// Draws a log-log plot of each character's count against its rank (rank 1 = id 5, the most
// frequent), with a few characters labelled. Returns where it went.
static std::string write_frequency_svg(const poet::Tokenizer& tok, const std::vector<size_t>& counts) {
    const double W = 560, H = 360, left = 60, right = 20, top = 30, bottom = 50;
    const double max_rank = std::log10(static_cast<double>(counts.size())), max_count = 6.0;
    auto px = [&](double rank) { return left + std::log10(rank) / max_rank * (W - left - right); };
    auto py = [&](double count) { return H - bottom - std::log10(count) / max_count * (H - top - bottom); };
    std::string out = svg::header(W, H, 12);
    out += svg::text(W / 2, 18, 12,
                     lesson::tr("characters of the default corpus: count against rank (log-log)",
                                "默认语料里的字：出现次数对排名（双对数坐标）"),
                     "middle");
    for (int e = 0; e <= 6; ++e) {
        const double y = py(std::pow(10, e));
        out += svg::line(left, y, W - right, y, "stroke=\"#ddd\"");
        out += svg::text(left - 6, y + 4, 12, "1e" + std::to_string(e), "end");
    }
    for (int e = 0; e <= 3; ++e)
        out += svg::text(px(std::pow(10, e)), H - bottom + 18, 12, std::to_string(static_cast<int>(std::pow(10, e))), "middle");
    out += svg::text((left + W - right) / 2, H - 10, 12,
                     lesson::tr("rank (ranks 1 and 2 are the marks 。 and ，)", "排名（第 1、2 名是标点 。 和 ，）"), "middle");
    std::vector<std::pair<double, double>> points;  // consecutive ranks that land on the same pixel are drawn once
    std::string last;
    for (size_t r = 0; r < counts.size(); ++r) {
        const double x = px(r + 1.0), y = py(static_cast<double>(counts[r]));
        const std::string here = svg::px(x) + ',' + svg::px(y);
        if (here != last) points.emplace_back(x, y);
        last = here;
    }
    out += svg::polyline(points, "fill=\"none\" stroke=\"#c0392b\" stroke-width=\"1.5\"");
    for (size_t r : {3, 30, 300, 3000}) {
        const double x = px(static_cast<double>(r)), y = py(static_cast<double>(counts[r - 1]));
        out += svg::circle(x, y, 3, "fill=\"black\"");
        out += svg::text(x + 6, y - 6, 12, poet::encode_utf8(tok.char_of(static_cast<int>(r) + 4)) + " " +
                                               std::to_string(counts[r - 1]));
    }
    out += svg::footer();
    const svg::Output where = picture("frequency");
    svg::write_file(where.path, out);
    svg::check_file(where.path);
    return where.shown;
}

// Draws the record as two rows of boxes: the 28 ids with the 27 inputs among them, and below
// input t the target it is trained to predict, record[t + 1]; the two ignored targets in grey.
static std::string write_record_svg(const poet::Tokenizer& tok, const std::vector<int>& record) {
    const size_t T = poet::kInputLength;
    const double cell = 26, left = 70, W = left + cell * static_cast<double>(T + 1) + 10, H = 170;
    std::string out = svg::header(W, H, 13);
    out += svg::text(5, 42, 13, lesson::tr("input t", "输入 t"));
    out += svg::text(5, 102, 13, lesson::tr("target t", "目标 t"));
    auto box = [&](double x, double y, const std::string& fill, const std::string& dash, const std::string& text) {
        out += svg::rect(x, y, cell, 28, "fill=\"" + fill + "\" stroke=\"#888\" stroke-dasharray=\"" + dash + "\"");
        const bool name = static_cast<unsigned char>(text[0]) < 0x80 && text.size() >= 3;  // BOS, SEP, EOS: smaller than a character
        out += svg::text(x + cell / 2, y + 19, name ? 10 : 14, text, "middle");
    };
    auto label = [&](int id) {  // "BOS" fits a box, "<BOS>" does not
        std::string s = tok.token_str(id);
        return id < poet::Tokenizer::num_special ? s.substr(1, s.size() - 2) : s;
    };
    for (size_t t = 0; t <= T; ++t) {
        const double x = left + cell * static_cast<double>(t);
        out += svg::text(x + cell / 2, 16, 10, std::to_string(t), "middle");
        box(x, 24, t < T ? "#eef3fb" : "white", t < T ? "none" : "3,3", label(record[t]));
        if (t == T) continue;
        box(x, 84, t + 1 < poet::kPromptLength ? "#d0d0d0" : "#fbeeee", "none", label(record[t + 1]));
        out += svg::line(x + cell * 1.5, 54, x + cell / 2, 82, "stroke=\"#999\"");
    }
    out += svg::text(left, 134, 13, lesson::tr("target t = record[t + 1]; the last id, EOS, is never an input.",
                                               "目标 t = record[t + 1]；最后一个编号 EOS 从不作为输入。"));
    out += svg::text(left, 154, 13, lesson::tr("grey: kIgnore, k and SEP carry no loss; the other 25 targets are the poem and EOS.",
                                               "灰色：kIgnore，k 和 SEP 不计损失；其余 25 个目标是诗和 EOS。"));
    out += svg::footer();
    const svg::Output where = picture("record");
    svg::write_file(where.path, out);
    svg::check_file(where.path);
    return where.shown;
}

static void vocabulary(const poet::Corpus& corpus, const poet::Tokenizer& tok) {
    lesson::section(lesson::tr("the vocabulary of the default corpus, ", "默认语料的词表，") + "load_corpus(default_data_dir(), \"all\")");
    std::cout << lesson::tr("train poems ", "训练诗 ") << corpus.train.size()
              << lesson::tr(" (15711 quatrains + 116317 halves of regulated verse), validation poems ",
                            " 首（15711 首绝句 + 116317 个律诗的半首），验证诗 ")
              << corpus.val.size() << lesson::tr("\n", " 首\n");
    std::map<char32_t, size_t> counts;  // what Tokenizer::build counts, recounted here to print
    size_t total = 0;
    for (const auto& poem : corpus.train)
        for (char32_t c : poem) ++counts[c], ++total;
    std::cout << lesson::tr("characters in the training text ", "训练文本里的字 ") << total << " = " << corpus.train.size()
              << lesson::tr(" x 24, distinct ", " x 24，不同的字 ") << counts.size() << "\n";
    std::cout << "Tokenizer::build(corpus.train).size() = V = " << tok.size() << lesson::tr(" = 5 special + ", " = 5 个特殊标记 + ")
              << counts.size() << lesson::tr(" characters\n", " 个字\n");
    lesson::confirm("V", static_cast<double>(tok.size()), counts.size() + 5.0, 0.0, lesson::tr("5 specials + the distinct characters", "5 个特殊标记 + 不同的字"));

    std::cout << lesson::tr("special ids:", "特殊编号：");
    for (int id = 0; id < poet::Tokenizer::num_special; ++id) std::cout << " " << id << " " << tok.token_str(id);
    std::cout << "\n";

    std::vector<size_t> by_id;  // count of id 5, 6, ...
    for (int id = poet::Tokenizer::num_special; id < static_cast<int>(tok.size()); ++id)
        by_id.push_back(counts.at(tok.char_of(id)));
    for (size_t i = 1; i < by_id.size(); ++i) {
        bool ordered = by_id[i - 1] > by_id[i] ||
                       (by_id[i - 1] == by_id[i] && tok.char_of(static_cast<int>(i) + 4) < tok.char_of(static_cast<int>(i) + 5));
        lesson::expect("ids ordered by count, ties by code point", ordered, "ordered", "out of order at id " + std::to_string(i + 5), "");
    }
    std::cout << lesson::tr("ids 5.. are the characters, most frequent first (ties by code point):\n",
                            "编号 5 起是各个字，出现越多越靠前（次数相同按码点）：\n");
    for (int id = 5; id < 17; ++id) {
        char32_t c = tok.char_of(id);
        std::printf("  id %-4d %s %s %7zu\n", id, poet::encode_utf8(c).c_str(), poet::code_point_str(c).c_str(), counts.at(c));
    }
    std::cout << "  ...\n";
    for (int id = static_cast<int>(tok.size()) - 3; id < static_cast<int>(tok.size()); ++id) {
        char32_t c = tok.char_of(id);
        std::printf("  id %-4d %s %s %7zu\n", id, poet::encode_utf8(c).c_str(), poet::code_point_str(c).c_str(), counts.at(c));
    }
    size_t once = 0;
    for (size_t n : by_id) once += n == 1;
    std::cout << lesson::tr("characters seen once: ", "只出现一次的字：") << once
              << lesson::tr("; the 100 most frequent cover ", "；最常见的 100 个占全部文本的 ");
    size_t top100 = 0;
    for (size_t i = 0; i < 100; ++i) top100 += by_id[i];
    std::cout << lesson::num(100.0 * top100 / total, 1) << lesson::tr("% of the text (。 and ， alone ", "%（光 。 和 ， 就占 ")
              << lesson::num(100.0 * (by_id[0] + by_id[1]) / total, 1) << lesson::tr("%)\n", "%）\n");
    std::cout << lesson::tr("wrote ", "写出了 ") << write_frequency_svg(tok, by_id) << "\n";

    poet::Corpus jueju = poet::load_corpus(poet::default_data_dir(), "jueju");
    std::cout << lesson::tr("for comparison, the \"jueju\" corpus alone (", "作为对比，只用 \"jueju\" 语料（") << jueju.train.size()
              << lesson::tr(" quatrains): V = ", " 首绝句）：V = ") << poet::Tokenizer::build(jueju.train).size() << "\n";

    size_t unknown = 0;
    std::map<char32_t, int> unknown_chars;
    for (const auto& poem : corpus.val)
        for (char32_t c : poem)
            if (!tok.contains(c)) ++unknown, ++unknown_chars[c];
    std::cout << lesson::tr("validation characters outside the vocabulary: ", "验证集里词表之外的字：") << unknown
              << lesson::tr(" (", " 个（") << unknown_chars.size() << lesson::tr(" distinct) of ", " 种），共 ")
              << corpus.val.size() * 24 << lesson::tr("; they become UNK (id 4)\n", " 个字；它们变成 UNK（编号 4）\n");
}

static void encode_quatrain(const poet::Corpus& corpus, const poet::Tokenizer& tok) {
    lesson::section(lesson::tr("encoding a real quatrain: 孟浩然《春晓》", "给一首真正的绝句编码：孟浩然《春晓》"));
    const std::string text = "春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。";
    size_t index = 0;
    while (index < corpus.train.size() && corpus.train[index] != poet::decode_utf8(text)) ++index;
    lesson::expect("春晓 is in the training corpus", index < corpus.train.size(), "found", "missing", "");
    std::cout << "corpus.train[" << index << "] = " << poet::encode_utf8(corpus.train[index]) << "\n";
    std::vector<int> ids = tok.encode(text);
    std::cout << "tok.encode: " << ids.size() << lesson::tr(" ids, one per character\n", " 个编号，每个字一个\n");
    std::u32string chars = poet::decode_utf8(text);
    for (size_t line = 0; line < poet::quatrain::kLines; ++line) {
        std::cout << " ";
        for (size_t p = line * 6; p < line * 6 + 6; ++p)
            std::cout << " " << poet::encode_utf8(chars[p]) << " " << ids[p];
        std::cout << "\n";
    }
    std::cout << "ids: " << ids_str(ids) << "\n";
    same("tok.decode(tok.encode(text))", tok.decode(ids), text, lesson::tr("the text again", "还是原文"));

    for (const auto& poem : corpus.val) {
        std::string utf8 = poet::encode_utf8(poem);
        try {
            tok.encode(utf8);
        } catch (const std::out_of_range& e) {
            std::cout << lesson::tr("\na validation poem: ", "\n一首验证诗：") << utf8 << lesson::tr("\ntok.encode(text) throws: ", "\ntok.encode(text) 抛出：")
                      << e.what() << "\n";
            std::vector<int> unk = tok.encode(utf8, /*allow_unknown=*/true);
            std::cout << "tok.encode(text, true): " << ids_str(unk) << "\ntok.decode: " << tok.decode(unk) << "\n";
            break;
        }
    }
}

static void the_record(const poet::Corpus& corpus, const poet::Tokenizer& tok) {
    lesson::section(lesson::tr("the record: BOS k SEP poem EOS", "训练记录：BOS k SEP poem EOS"));
    const std::vector<int> poem = tok.encode("春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。");
    const size_t slot = 15;
    size_t pos = poet::quatrain::slot_position(slot);
    std::cout << lesson::tr("k = the character at slot ", "k = 20 个字位中下标为 ") << slot << lesson::tr(" of 20; ", " 的字；")
              << "slot_position(" << slot << ") = " << slot << " + " << slot << " / 5 = " << pos
              << lesson::tr(" of 24 (the punctuation takes positions 5, 11, 17, 23): ", "，24 个位置之一（标点占位置 5、11、17、23）：")
              << tok.token_str(poem[pos]) << "\n";
    std::vector<int> record = poet::make_record(poem, slot);
    std::cout << "make_record(poem, " << slot << "): " << record.size() << lesson::tr(" ids = 1 + 1 + 1 + 24 + 1\n  ", " 个编号 = 1 + 1 + 1 + 24 + 1\n  ")
              << tok.decode(record) << "\n  " << ids_str(record) << "\n";
    lesson::confirm(lesson::tr("record length", "记录长度"), static_cast<double>(record.size()), 28.0, 0.0,
                    lesson::tr("BOS k SEP poem EOS", "BOS k SEP poem EOS 的长度"));

    poet::Batch batch = poet::make_batch({record});
    std::cout << "make_batch({record})" << lesson::tr(": inputs ", "：输入 ") << lesson::str(batch.inputs.shape())
              << lesson::tr(", targets ", "，目标 ") << lesson::str(batch.targets.shape()) << lesson::tr("; ", "；") << "T = kInputLength = " << poet::kInputLength << "\n";
    std::vector<float> x = batch.inputs.to_vector(), y = batch.targets.to_vector();
    std::cout << lesson::tr("   t  input      target     loss\n", "   t  输入       目标       损失\n");
    size_t counted = 0;
    for (size_t t = 0; t < poet::kInputLength; ++t) {
        int in = static_cast<int>(x[t]), target = static_cast<int>(y[t]);
        bool ignored = target == poet::kIgnore;
        counted += !ignored;
        std::string target_str = ignored ? "-1 (" + tok.token_str(record[t + 1]) + ")" : std::to_string(target) + " " + tok.token_str(target);
        std::printf("  %2zu  %-4d %s %s %s\n", t, in, pad(tok.token_str(in), 6).c_str(), pad(target_str, 14).c_str(),
                    ignored ? lesson::tr("ignored", "忽略").c_str() : lesson::tr("counted", "计入").c_str());
        lesson::expect("inputs are record[0:27]", in == record[t], std::to_string(record[t]), std::to_string(in), "");
        if (!ignored)
            lesson::expect("targets are record[1:28]", target == record[t + 1], std::to_string(record[t + 1]),
                           std::to_string(target), "");
    }
    lesson::confirm(lesson::tr("targets that count", "计入损失的目标"), static_cast<double>(counted), static_cast<double>(poet::kLossTokens), 0.0,
                    lesson::tr("kLossTokens, 24 poem ids + EOS", "kLossTokens，诗的 24 个编号 + EOS"));
    std::cout << lesson::tr("wrote ", "写出了 ") << write_record_svg(tok, record) << "\n";
    std::cout << lesson::tr("validation records use a fixed slot, ", "验证记录用固定的字位，") << "validation_slot(i) = 7 i mod 20:";
    for (size_t i = 0; i < 8; ++i) std::cout << " " << poet::validation_slot(i);
    std::cout << " ...\n";

    lesson::section(lesson::tr("what kIgnore does in the loss", "kIgnore 在损失里做了什么"));
    const size_t T = poet::kInputLength, V = tok.size();
    pg::Generator gen(18);
    pg::Tensor logits = pg::randn({T, V}, gen);  // (T,V): a stand-in for a model's output on this record
    pg::Tensor targets = batch.targets;          // (T)
    double loss = pg::cross_entropy(logits, targets, poet::kIgnore).item();
    // the same by hand: the mean of -log softmax(logits[t])[target t] over the 25 counted rows
    const pg::Array& z = logits.data();
    double sum = 0;
    for (size_t t = 0; t < T; ++t) {
        if (y[t] == poet::kIgnore) continue;
        double m = z(t, 0), s = 0;
        for (size_t v = 0; v < V; ++v) m = std::max(m, static_cast<double>(z(t, v)));
        for (size_t v = 0; v < V; ++v) s += std::exp(z(t, v) - m);
        sum += m + std::log(s) - z(t, static_cast<size_t>(y[t]));
    }
    std::cout << lesson::tr("random logits ", "随机 logits ") << lesson::str(logits.shape()) << ": cross_entropy(logits, targets, kIgnore) = "
              << lesson::num(loss, 3) << "\n";
    lesson::confirm(lesson::tr("cross_entropy over the 25 counted rows", "25 个计入行上的 cross_entropy"), loss, sum / 25.0, 1e-4, lesson::tr("the mean of 25 rows by hand", "手算的 25 行平均"));
    pg::Array pushed = z;
    for (size_t v = 0; v < V; ++v) pushed(0, v) = pushed(1, v) = 0.f;
    pushed(0, 9) = pushed(1, 9) = 50.f;  // rows 0 and 1 now predict id 9 (风) with near certainty
    double loss_pushed = pg::cross_entropy(pg::Tensor(pushed), targets, poet::kIgnore).item();
    std::cout << lesson::tr("change the logits of rows 0 and 1 (the ignored ones) completely: loss ",
                            "把第 0、1 行（被忽略的两行）的 logits 彻底改掉：损失 ")
              << lesson::num(loss_pushed, 3) << lesson::tr(", the same\n", "，不变\n");
    lesson::confirm(lesson::tr("ignored rows change nothing", "被忽略的行不改变结果"), loss_pushed, loss, 1e-6, lesson::tr("the loss before", "改之前的损失"));
    std::vector<float> every(record.begin() + 1, record.end());  // record[1:28], nothing ignored
    pg::Tensor all_targets = pg::tensor(every, {T});
    std::cout << lesson::tr("with all 27 targets counted, the same change moves the loss from ", "如果 27 个目标都计入，同样的改动让损失从 ")
              << lesson::num(pg::cross_entropy(logits, all_targets).item(), 3) << lesson::tr(" to ", " 变成 ")
              << lesson::num(pg::cross_entropy(pg::Tensor(pushed), all_targets).item(), 3) << "\n";
    pg::Tensor zeros = pg::zeros({T, V});
    double uniform = pg::cross_entropy(zeros, targets, poet::kIgnore).item();
    std::cout << lesson::tr("all-zero logits (every id equally likely): loss ", "logits 全为零（每个编号一样可能）：损失 ") << lesson::num(uniform, 4) << " = ln V = ln "
              << V << "\n";
    lesson::confirm(lesson::tr("uniform loss", "均匀分布的损失"), uniform, std::log(static_cast<double>(V)), 1e-4, "ln V");

    // Why k carries no loss: from BOS alone k is a random character of a random poem, so the best a
    // model can do is the entropy of the characters, and at writing time k is given anyway.
    std::map<char32_t, size_t> han;
    size_t n = 0;
    for (const auto& p : corpus.train)
        for (size_t s = 0; s < poet::quatrain::kChars; ++s) ++han[p[poet::quatrain::slot_position(s)]], ++n;
    double entropy = 0;
    for (const auto& [c, count] : han) entropy -= static_cast<double>(count) / n * std::log(static_cast<double>(count) / n);
    std::cout << lesson::tr("the best possible loss on the k target, predicting k from BOS alone, is the entropy of the 20 "
                            "slots' characters: ",
                            "只凭 BOS 预测 k，这个目标上能做到的最低损失是 20 个字位上用字的熵：")
              << lesson::num(entropy, 2)
              << lesson::tr(" nats, every step, for a guess the writer never asks for\n",
                            " nats，每一步都有，而写诗时从来不需要模型去猜它\n")
              << lesson::tr("the SEP target is always SEP: a free 0 that would only dilute the mean\n",
                            "SEP 这个目标永远是 SEP：白得的 0，只会把平均值冲淡\n");
}

static void run() {
    utf8_by_hand();
    invalid_utf8();
    poet::Corpus corpus = poet::load_corpus(poet::default_data_dir(), "all");
    poet::Tokenizer tok = poet::Tokenizer::build(corpus.train);
    vocabulary(corpus, tok);
    encode_quatrain(corpus, tok);
    the_record(corpus, tok);
}

int main() { return lesson::run_experiment(run); }
