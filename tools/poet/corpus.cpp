// Reads data/poems/*.txt into memory (about 10 MB of text for the full corpus).
// Leaves out: streaming; every file fits in memory many times over.
#include "poet/corpus.hpp"
#include <fstream>
#include <stdexcept>
#include "poet/quatrain.hpp"
#include "poet/utf8.hpp"

namespace poet {

std::string default_data_dir() { return std::string(POET_SOURCE_DIR) + "/data/poems"; }

std::vector<std::u32string> read_poems(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("corpus: cannot open " + path);
    std::vector<std::u32string> poems;
    std::string text;
    size_t line_no = 0;
    while (std::getline(in, text)) {
        ++line_no;
        std::string where = path + ":" + std::to_string(line_no);
        std::u32string poem = decode_utf8(text, where);
        if (!quatrain::well_formed(poem))
            throw std::runtime_error("corpus: " + where + " is not a five-character quatrain: \"" + text + "\"");
        poems.push_back(std::move(poem));
    }
    if (poems.empty()) throw std::runtime_error("corpus: " + path + " holds no poems");
    return poems;
}

Corpus load_corpus(const std::string& dir, const std::string& name) {
    if (name != "jueju" && name != "all")
        throw std::invalid_argument("corpus: unknown corpus '" + name + "' (expected jueju or all)");
    Corpus c;
    c.name = name;
    c.train = read_poems(dir + "/jueju_train.txt");
    c.val = read_poems(dir + "/jueju_val.txt");
    if (name == "all")
        for (int part = 1; part <= 3; ++part) {
            std::vector<std::u32string> halves = read_poems(dir + "/lushi_halves_" + std::to_string(part) + ".txt");
            c.train.insert(c.train.end(), halves.begin(), halves.end());
        }
    return c;
}

}  // namespace poet
