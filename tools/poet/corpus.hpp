// The embedded corpus (data/poems/): training and validation quatrains, read and checked.
// "jueju" trains on the 15,711 quatrains alone; "all" adds the 116,317 halves of regulated verses.
// Validation is always jueju_val.txt. Leaves out: downloading or rebuilding (tools/corpus/ does that).
#pragma once
#include <string>
#include <vector>

namespace poet {

struct Corpus {
    std::vector<std::u32string> train;
    std::vector<std::u32string> val;
    std::string name;   // "jueju" or "all"
};

// POET_SOURCE_DIR/data/poems, baked in at build time.
std::string default_data_dir();

// One well-formed quatrain per line. Throws std::runtime_error naming the file (and line) when
// it cannot be read or a line is not a quatrain, std::invalid_argument for invalid UTF-8.
std::vector<std::u32string> read_poems(const std::string& path);

// name: "jueju" or "all"; throws std::invalid_argument for anything else.
Corpus load_corpus(const std::string& dir, const std::string& name);

}  // namespace poet
