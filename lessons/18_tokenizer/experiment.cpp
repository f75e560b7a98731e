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
#include "poet/corpus.hpp"
#include "poet/quatrain.hpp"
#include "poet/records.hpp"
#include "poet/tokenizer.hpp"
#include "poet/utf8.hpp"

static const std::string kLessonDir = std::string(POET_SOURCE_DIR) + "/lessons/18_tokenizer/";

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
    lesson::section("UTF-8 by hand: 一 is U+4E00");
    const char32_t c = U'一';
    std::cout << "一 = " << poet::code_point_str(c) << " = " << bits(c, 16) << " in binary (16 bits)\n"
              << "3 bytes carry 4 + 6 + 6 = 16 bits: 1110xxxx 10xxxxxx 10xxxxxx\n";
    unsigned b0 = 0xE0 | (c >> 12), b1 = 0x80 | ((c >> 6) & 0x3F), b2 = 0x80 | (c & 0x3F);
    std::printf("  lead          1110 + %s        = %s = 0x%02X\n", bits(c >> 12, 4).c_str(), bits(b0, 8).c_str(), b0);
    std::printf("  continuation    10 + %s      = %s = 0x%02X\n", bits(c >> 6, 6).c_str(), bits(b1, 8).c_str(), b1);
    std::printf("  continuation    10 + %s      = %s = 0x%02X\n", bits(c, 6).c_str(), bits(b2, 8).c_str(), b2);
    std::string by_hand = {static_cast<char>(b0), static_cast<char>(b1), static_cast<char>(b2)};
    same("encode_utf8(U+4E00)", hex_bytes(poet::encode_utf8(c)), hex_bytes(by_hand), "poet::encode_utf8(U'一')");

    std::cout << "\nback: 春 is stored as E6 98 A5; the lead's low 4 bits, then 6 bits per continuation byte\n";
    std::string chun = poet::encode_utf8(U'春');
    unsigned d0 = static_cast<unsigned char>(chun[0]) & 0x0F, d1 = static_cast<unsigned char>(chun[1]) & 0x3F,
             d2 = static_cast<unsigned char>(chun[2]) & 0x3F;
    unsigned cp = (d0 << 12) | (d1 << 6) | d2;
    std::printf("  0xE6 & 0x0F = 0x%X, 0x98 & 0x3F = 0x%02X, 0xA5 & 0x3F = 0x%02X\n", d0, d1, d2);
    std::printf("  (0x%X << 12) | (0x%02X << 6) | 0x%02X = 0x%X + 0x%X + 0x%X = U+%04X\n", d0, d1, d2, d0 << 12,
                d1 << 6, d2, cp);
    same("decode_utf8(E6 98 A5)", poet::code_point_str(poet::decode_utf8(chun)[0]), poet::code_point_str(cp),
         "poet::decode_utf8");

    lesson::section("one character is 1 to 4 bytes: the lead byte says how many");
    std::cout << "  lead 0xxxxxxx: 1 byte (U+0000..U+007F), 110xxxxx: 2, 1110xxxx: 3, 11110xxx: 4 (up to U+10FFFF)\n";
    const std::u32string samples = {U'a', U'é', U'一', U'春', U'，', U'。', U'\U00020000', U'\U0010FFFF'};
    for (char32_t s : samples) {
        std::string bytes = poet::encode_utf8(s);
        std::string shown = s == U'\U0010FFFF' ? "" : bytes;  // the last code point has no glyph
        std::printf("  %s %-9s %zu byte%s  %-12s is_han %s\n", pad(shown, 3).c_str(), poet::code_point_str(s).c_str(),
                    bytes.size(), bytes.size() == 1 ? " " : "s", hex_bytes(bytes).c_str(), poet::is_han(s) ? "yes" : "no");
        lesson::expect("decode(encode(c))", poet::decode_utf8(bytes) == std::u32string(1, s), "c", "another", "");
    }
    std::string line = "春眠不觉晓";
    std::u32string decoded = poet::decode_utf8(line);
    std::cout << "\"" << line << "\": " << line.size() << " bytes, " << decoded.size() << " code points:";
    for (char32_t s : decoded) std::cout << " " << poet::code_point_str(s);
    std::cout << "\n";
    lesson::confirm("bytes of 春眠不觉晓", static_cast<double>(line.size()), 15.0, 0.0, "5 characters x 3 bytes");
}

static void invalid_utf8() {
    lesson::section("invalid UTF-8: the error names the byte offset");
    std::string line = "春眠不觉晓";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"春眠不觉晓 minus its last byte", line.substr(0, line.size() - 1)},
        {"a stray continuation byte", "a\x80"},
        {"一 with its middle byte replaced by A", "\xE4\x41\x80"},
        {"春眠 saved as GBK, not UTF-8", "\xB4\xBA\xC3\xDF"},
        {"/ as an overlong 2-byte form", "\xC0\xAF"},
        {"/ as an overlong 3-byte form", "\xE0\x80\xAF"},
        {"a UTF-16 surrogate, U+D800", "\xED\xA0\x80"},
        {"past the last code point", "\xF4\x90\x80\x80"},
    };
    for (const auto& [what, bytes] : cases) {
        std::cout << what << " (" << hex_bytes(bytes) << "):\n";
        try {
            poet::decode_utf8(bytes);
            lesson::expect(what, false, "an error", "decoded without one", "");
        } catch (const std::invalid_argument& e) {
            std::cout << "  " << e.what() << "\n";
        }
    }
    // The corpus reader passes "file:line" as the `what`, so a broken line in data/poems says where it is.
    const std::string path =  // one file per process: the normal and the sanitizer build may run at once
        (std::filesystem::temp_directory_path() / ("lesson18_" + std::to_string(::getpid()) + ".txt")).string();
    std::ofstream(path) << "春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。\n" << line.substr(0, 13) << "\n";
    std::cout << "a poem file whose line 2 is cut inside 晓, read with poet::read_poems:\n";
    try {
        poet::read_poems(path);
        lesson::expect("read_poems of a broken file", false, "an error", "no error", "");
    } catch (const std::invalid_argument& e) {
        std::string message = e.what();  // "<path>:2: invalid UTF-8 ...", the path shortened to broken.txt
        std::cout << "  " << message.replace(0, path.size(), "broken.txt") << "\n";
    }
    std::filesystem::remove(path);
}

// Writes a log-log plot of each character's count against its rank (rank 1 = id 5, the most
// frequent), with a few characters labelled.
static void write_frequency_svg(const std::string& path, const poet::Tokenizer& tok, const std::vector<size_t>& counts) {
    const double W = 560, H = 360, left = 60, right = 20, top = 30, bottom = 50;
    const double max_rank = std::log10(static_cast<double>(counts.size())), max_count = 6.0;
    auto px = [&](double rank) { return left + std::log10(rank) / max_rank * (W - left - right); };
    auto py = [&](double count) { return H - bottom - std::log10(count) / max_count * (H - top - bottom); };
    std::ofstream out(path);
    char buf[200];
    out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"560\" height=\"360\" font-family=\"sans-serif\" font-size=\"12\">\n"
        << "<rect width=\"560\" height=\"360\" fill=\"white\"/>\n"
        << "<text x=\"280\" y=\"18\" text-anchor=\"middle\">characters of the default corpus: count against rank (log-log)</text>\n";
    for (int e = 0; e <= 6; ++e) {
        double y = py(std::pow(10, e));
        std::snprintf(buf, sizeof buf,
                      "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/><text x=\"%.1f\" y=\"%.1f\" "
                      "text-anchor=\"end\">1e%d</text>\n", left, y, W - right, y, left - 6, y + 4, e);
        out << buf;
    }
    for (int e = 0; e <= 3; ++e) {
        std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d</text>\n", px(std::pow(10, e)),
                      H - bottom + 18, static_cast<int>(std::pow(10, e)));
        out << buf;
    }
    out << "<text x=\"" << (left + W - right) / 2 << "\" y=\"" << H - 10
        << "\" text-anchor=\"middle\">rank (ranks 1 and 2 are the marks 。 and ，)</text>\n"
        << "<polyline fill=\"none\" stroke=\"#c0392b\" stroke-width=\"1.5\" points=\"";
    std::string last;  // consecutive ranks that land on the same pixel are drawn once
    for (size_t r = 0; r < counts.size(); ++r) {
        std::snprintf(buf, sizeof buf, "%.1f,%.1f ", px(r + 1.0), py(static_cast<double>(counts[r])));
        if (buf != last) out << buf;
        last = buf;
    }
    out << "\"/>\n";
    for (size_t r : {3, 30, 300, 3000}) {
        double x = px(static_cast<double>(r)), y = py(static_cast<double>(counts[r - 1]));
        std::snprintf(buf, sizeof buf, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\"/><text x=\"%.1f\" y=\"%.1f\">", x, y,
                      x + 6, y - 6);
        out << buf << poet::encode_utf8(tok.char_of(static_cast<int>(r) + 4)) << " " << counts[r - 1] << "</text>\n";
    }
    out << "</svg>\n";
}

// Writes the record as two rows of boxes: the 28 ids with the 27 inputs among them, and below
// input t the target it is trained to predict, record[t + 1]; the two ignored targets in grey.
static void write_record_svg(const std::string& path, const poet::Tokenizer& tok, const std::vector<int>& record) {
    const size_t T = poet::kInputLength;
    const double cell = 26, left = 70, W = left + cell * (T + 1) + 10;
    std::ofstream out(path);
    char buf[220];
    std::snprintf(buf, sizeof buf,
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"170\" font-family=\"sans-serif\" "
                  "font-size=\"13\">\n<rect width=\"%.0f\" height=\"170\" fill=\"white\"/>\n", W, W);
    out << buf << "<text x=\"5\" y=\"42\">input t</text><text x=\"5\" y=\"102\">target t</text>\n";
    auto box = [&](double x, double y, const char* fill, const char* dash, const std::string& text) {
        std::snprintf(buf, sizeof buf,
                      "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.0f\" height=\"28\" fill=\"%s\" stroke=\"#888\" "
                      "stroke-dasharray=\"%s\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"%d\">",
                      x, y, cell, fill, dash, x + cell / 2, y + 19, text.size() >= 3 ? 10 : 14);
        out << buf << text << "</text>\n";
    };
    auto label = [&](int id) {  // "BOS" fits a box, "<BOS>" does not
        std::string s = tok.token_str(id);
        return id < poet::Tokenizer::num_special ? s.substr(1, s.size() - 2) : s;
    };
    for (size_t t = 0; t <= T; ++t) {
        double x = left + cell * t;
        std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"16\" text-anchor=\"middle\" font-size=\"10\">%zu</text>\n",
                      x + cell / 2, t);
        out << buf;
        box(x, 24, t < T ? "#eef3fb" : "white", t < T ? "none" : "3,3", label(record[t]));
        if (t == T) continue;
        box(x, 84, t + 1 < poet::kPromptLength ? "#d0d0d0" : "#fbeeee", "none", label(record[t + 1]));
        std::snprintf(buf, sizeof buf, "<line x1=\"%.1f\" y1=\"54\" x2=\"%.1f\" y2=\"82\" stroke=\"#999\"/>\n",
                      x + cell * 1.5, x + cell / 2);
        out << buf;
    }
    out << "<text x=\"" << left << "\" y=\"134\">target t = record[t + 1]; the last id, EOS, is never an input.</text>\n"
        << "<text x=\"" << left << "\" y=\"154\">grey: kIgnore, k and SEP carry no loss; the other 25 targets are the "
        << "poem and EOS.</text>\n</svg>\n";
}

static void vocabulary(const poet::Corpus& corpus, const poet::Tokenizer& tok) {
    lesson::section("the vocabulary of the default corpus, load_corpus(default_data_dir(), \"all\")");
    std::cout << "train poems " << corpus.train.size() << " (15711 quatrains + 116317 halves of regulated verse), "
              << "validation poems " << corpus.val.size() << "\n";
    std::map<char32_t, size_t> counts;  // what Tokenizer::build counts, recounted here to print
    size_t total = 0;
    for (const auto& poem : corpus.train)
        for (char32_t c : poem) ++counts[c], ++total;
    std::cout << "characters in the training text " << total << " = " << corpus.train.size() << " x 24, distinct "
              << counts.size() << "\n";
    std::cout << "Tokenizer::build(corpus.train).size() = V = " << tok.size() << " = 5 special + " << counts.size()
              << " characters\n";
    lesson::confirm("V", static_cast<double>(tok.size()), counts.size() + 5.0, 0.0, "5 specials + the distinct characters");

    std::cout << "special ids:";
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
    std::cout << "ids 5.. are the characters, most frequent first (ties by code point):\n";
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
    std::cout << "characters seen once: " << once << "; the 100 most frequent cover ";
    size_t top100 = 0;
    for (size_t i = 0; i < 100; ++i) top100 += by_id[i];
    std::cout << lesson::num(100.0 * top100 / total, 1) << "% of the text (。 and ， alone "
              << lesson::num(100.0 * (by_id[0] + by_id[1]) / total, 1) << "%)\n";
    write_frequency_svg(kLessonDir + "frequency.svg", tok, by_id);
    std::cout << "wrote lessons/18_tokenizer/frequency.svg\n";

    poet::Corpus jueju = poet::load_corpus(poet::default_data_dir(), "jueju");
    std::cout << "for comparison, the \"jueju\" corpus alone (" << jueju.train.size()
              << " quatrains): V = " << poet::Tokenizer::build(jueju.train).size() << "\n";

    size_t unknown = 0;
    std::map<char32_t, int> unknown_chars;
    for (const auto& poem : corpus.val)
        for (char32_t c : poem)
            if (!tok.contains(c)) ++unknown, ++unknown_chars[c];
    std::cout << "validation characters outside the vocabulary: " << unknown << " (" << unknown_chars.size()
              << " distinct) of " << corpus.val.size() * 24 << "; they become UNK (id 4)\n";
}

static void encode_quatrain(const poet::Corpus& corpus, const poet::Tokenizer& tok) {
    lesson::section("encoding a real quatrain: 孟浩然《春晓》");
    const std::string text = "春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。";
    size_t index = 0;
    while (index < corpus.train.size() && corpus.train[index] != poet::decode_utf8(text)) ++index;
    lesson::expect("春晓 is in the training corpus", index < corpus.train.size(), "found", "missing", "");
    std::cout << "corpus.train[" << index << "] = " << poet::encode_utf8(corpus.train[index]) << "\n";
    std::vector<int> ids = tok.encode(text);
    std::cout << "tok.encode: " << ids.size() << " ids, one per character\n";
    std::u32string chars = poet::decode_utf8(text);
    for (size_t line = 0; line < poet::quatrain::kLines; ++line) {
        std::cout << " ";
        for (size_t p = line * 6; p < line * 6 + 6; ++p)
            std::cout << " " << poet::encode_utf8(chars[p]) << " " << ids[p];
        std::cout << "\n";
    }
    std::cout << "ids: " << ids_str(ids) << "\n";
    same("tok.decode(tok.encode(text))", tok.decode(ids), text, "the text again");

    for (const auto& poem : corpus.val) {
        std::string utf8 = poet::encode_utf8(poem);
        try {
            tok.encode(utf8);
        } catch (const std::out_of_range& e) {
            std::cout << "\na validation poem: " << utf8 << "\ntok.encode(text) throws: " << e.what() << "\n";
            std::vector<int> unk = tok.encode(utf8, /*allow_unknown=*/true);
            std::cout << "tok.encode(text, true): " << ids_str(unk) << "\ntok.decode: " << tok.decode(unk) << "\n";
            break;
        }
    }
}

static void the_record(const poet::Corpus& corpus, const poet::Tokenizer& tok) {
    lesson::section("the record: BOS k SEP poem EOS");
    const std::vector<int> poem = tok.encode("春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。");
    const size_t slot = 15;
    size_t pos = poet::quatrain::slot_position(slot);
    std::cout << "k = the character at slot " << slot << " of 20; slot_position(" << slot << ") = " << slot << " + "
              << slot << " / 5 = " << pos << " of 24 (the punctuation takes positions 5, 11, 17, 23): "
              << tok.token_str(poem[pos]) << "\n";
    std::vector<int> record = poet::make_record(poem, slot);
    std::cout << "make_record(poem, " << slot << "): " << record.size() << " ids = 1 + 1 + 1 + 24 + 1\n  "
              << tok.decode(record) << "\n  " << ids_str(record) << "\n";
    lesson::confirm("record length", static_cast<double>(record.size()), 28.0, 0.0, "BOS k SEP poem EOS");

    poet::Batch batch = poet::make_batch({record});
    std::cout << "make_batch({record}): inputs " << lesson::str(batch.inputs.shape()) << ", targets "
              << lesson::str(batch.targets.shape()) << "; T = kInputLength = " << poet::kInputLength << "\n";
    std::vector<float> x = batch.inputs.to_vector(), y = batch.targets.to_vector();
    std::cout << "   t  input      target     loss\n";
    size_t counted = 0;
    for (size_t t = 0; t < poet::kInputLength; ++t) {
        int in = static_cast<int>(x[t]), target = static_cast<int>(y[t]);
        bool ignored = target == poet::kIgnore;
        counted += !ignored;
        std::string target_str = ignored ? "-1 (" + tok.token_str(record[t + 1]) + ")" : std::to_string(target) + " " + tok.token_str(target);
        std::printf("  %2zu  %-4d %s %s %s\n", t, in, pad(tok.token_str(in), 6).c_str(), pad(target_str, 14).c_str(),
                    ignored ? "ignored" : "counted");
        lesson::expect("inputs are record[0:27]", in == record[t], std::to_string(record[t]), std::to_string(in), "");
        if (!ignored)
            lesson::expect("targets are record[1:28]", target == record[t + 1], std::to_string(record[t + 1]),
                           std::to_string(target), "");
    }
    lesson::confirm("targets that count", static_cast<double>(counted), static_cast<double>(poet::kLossTokens), 0.0,
                    "kLossTokens, 24 poem ids + EOS");
    write_record_svg(kLessonDir + "record.svg", tok, record);
    std::cout << "wrote lessons/18_tokenizer/record.svg\n";
    std::cout << "validation records use a fixed slot, validation_slot(i) = 7 i mod 20:";
    for (size_t i = 0; i < 8; ++i) std::cout << " " << poet::validation_slot(i);
    std::cout << " ...\n";

    lesson::section("what kIgnore does in the loss");
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
    std::cout << "random logits " << lesson::str(logits.shape()) << ": cross_entropy(logits, targets, kIgnore) = "
              << lesson::num(loss, 3) << "\n";
    lesson::confirm("cross_entropy over the 25 counted rows", loss, sum / 25.0, 1e-4, "the mean of 25 rows by hand");
    pg::Array pushed = z;
    for (size_t v = 0; v < V; ++v) pushed(0, v) = pushed(1, v) = 0.f;
    pushed(0, 9) = pushed(1, 9) = 50.f;  // rows 0 and 1 now predict id 9 (风) with near certainty
    double loss_pushed = pg::cross_entropy(pg::Tensor(pushed), targets, poet::kIgnore).item();
    std::cout << "change the logits of rows 0 and 1 (the ignored ones) completely: loss "
              << lesson::num(loss_pushed, 3) << ", the same\n";
    lesson::confirm("ignored rows change nothing", loss_pushed, loss, 1e-6, "the loss before");
    std::vector<float> every(record.begin() + 1, record.end());  // record[1:28], nothing ignored
    pg::Tensor all_targets = pg::tensor(every, {T});
    std::cout << "with all 27 targets counted, the same change moves the loss from "
              << lesson::num(pg::cross_entropy(logits, all_targets).item(), 3) << " to "
              << lesson::num(pg::cross_entropy(pg::Tensor(pushed), all_targets).item(), 3) << "\n";
    pg::Tensor zeros = pg::zeros({T, V});
    double uniform = pg::cross_entropy(zeros, targets, poet::kIgnore).item();
    std::cout << "all-zero logits (every id equally likely): loss " << lesson::num(uniform, 4) << " = ln V = ln "
              << V << "\n";
    lesson::confirm("uniform loss", uniform, std::log(static_cast<double>(V)), 1e-4, "ln V");

    // Why k carries no loss: from BOS alone k is a random character of a random poem, so the best a
    // model can do is the entropy of the characters, and at writing time k is given anyway.
    std::map<char32_t, size_t> han;
    size_t n = 0;
    for (const auto& p : corpus.train)
        for (size_t s = 0; s < poet::quatrain::kChars; ++s) ++han[p[poet::quatrain::slot_position(s)]], ++n;
    double entropy = 0;
    for (const auto& [c, count] : han) entropy -= static_cast<double>(count) / n * std::log(static_cast<double>(count) / n);
    std::cout << "the best possible loss on the k target, predicting k from BOS alone, is the entropy of the 20 "
                 "slots' characters: " << lesson::num(entropy, 2) << " nats, every step, for a guess the writer never asks for\n"
              << "the SEP target is always SEP: a free 0 that would only dilute the mean\n";
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
