// Shared by the poet tests: a small corpus copied from data/poems/ into a fresh temporary folder,
// and a tiny training config that runs in well under a second per step.
#pragma once
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include "poet/config.hpp"
#include "poet/train.hpp"

namespace poet_test {

// A new empty folder under the system's temporary directory, unique to this process and tag,
// removed with everything in it when the object goes.
struct TempDir {
    std::string path;
    explicit TempDir(const std::string& tag)
        : path((std::filesystem::temp_directory_path() / ("poet_test_" + tag + "_" + std::to_string(getpid()))).string()) {
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~TempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
};

// A folder holding the first `n_train` training and `n_val` validation quatrains of the corpus.
struct SmallCorpus : TempDir {
    explicit SmallCorpus(const std::string& tag, size_t n_train = 300, size_t n_val = 24) : TempDir(tag + "_data") {
        std::string src = std::string(PG_SOURCE_DIR) + "/data/poems/";
        auto copy = [&](const std::string& name, size_t n) {
            std::ifstream in(src + name);
            std::ofstream out(path + "/" + name);
            std::string line;
            for (size_t i = 0; i < n && std::getline(in, line); ++i) out << line << '\n';
        };
        copy("jueju_train.txt", n_train);
        copy("jueju_val.txt", n_val);
    }
};

// A run into `out` on the corpus in `data`, with no progress on stderr.
inline poet::TrainOptions quiet_options(const std::string& out, const std::string& data) {
    poet::TrainOptions opt;
    opt.out_dir = out;
    opt.data_dir = data;
    opt.show_progress = false;
    return opt;
}

inline poet::TrainConfig tiny_config() {
    poet::TrainConfig c;
    c.n_layer = 1;
    c.n_head = 2;
    c.n_embd = 16;
    c.dropout = 0.1f;   // so resuming must also restore the dropout generator
    c.steps = 12;
    c.batch = 4;
    c.warmup = 2;
    c.lr = 1e-2f;
    c.min_lr = 1e-3f;
    c.corpus = "jueju";
    c.eval_every = 4;
    c.save_every = 3;
    return c;
}

}  // namespace poet_test
