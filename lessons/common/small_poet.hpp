// The trained models lessons 22 to 27 look at. small_poet::model() is lesson 22's run (jueju,
// 2 layers, width 64, 4 heads, 200 steps of 16 records, seed 1337, 2 threads), trained once and
// kept beside the lesson programs with the losses poet::train returned (run()), so every number a
// README quotes comes from it; copy_model() is the same run with the copy token on (lesson 27), kept
// in a folder of its own; demo_model() is ./poet demo's runs/poet/model.ckpt when there is one, for
// extra lines a README does not quote.
// Leaves out: any other model. A cached run is not retrained when only the library changed:
// delete build/lessons/small_poet/ and build/lessons/small_poet_copy/ after changing lib/ or the
// poet's training code.
#pragma once
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>
#include "lesson.hpp"
#include "pg/threads.hpp"
#include "poet/config.hpp"
#include "poet/corpus.hpp"
#include "poet/model.hpp"
#include "poet/train.hpp"

namespace small_poet {

// Lesson 22's settings (its experiment trains with them): ./poet train's, a small model, 200 steps.
inline poet::TrainConfig config() {
    poet::TrainConfig c;
    c.corpus = "jueju";
    c.copy_token = "off";   // the records as lesson 18 builds them; lesson 27 turns the copy token on
    c.n_layer = 2;
    c.n_head = 4;
    c.n_embd = 64;
    c.batch = 16;
    c.steps = 200;
    c.warmup = poet::default_warmup(c.steps);
    c.eval_every = 100;
    c.save_every = 100;
    return c;
}

// Lesson 27's run: config() with the copy token on, every other setting the same.
inline poet::TrainConfig copy_config() {
    poet::TrainConfig c = config();
    c.copy_token = "on";
    return c;
}

constexpr size_t kThreads = 2;   // the same thread count everywhere: the same bits

// The folder beside the lesson programs, build/lessons/small_poet/ (LESSON_BUILD_DIR: the build's
// lessons folder, set by lessons/CMakeLists.txt), so each build directory keeps its own model,
// wherever the program is started from.
inline std::string cache_dir() { return std::string(LESSON_BUILD_DIR) + "/small_poet"; }
// copy_model()'s folder, build/lessons/small_poet_copy/.
inline std::string copy_cache_dir() { return std::string(LESSON_BUILD_DIR) + "/small_poet_copy"; }

// Does `path` hold a finished run of exactly `cfg`, on today's corpus (the same tokenizer)?
inline bool holds_run(const std::string& path, const poet::TrainConfig& cfg) {
    if (!poet::is_finished_checkpoint(path)) return false;
    pg::Metadata have = pg::read_checkpoint_info(path).metadata, want;
    poet::to_metadata(cfg, want);
    want["tokenizer"] =
        poet::Tokenizer::build(poet::load_corpus(poet::default_data_dir(), cfg.corpus).train).serialize();
    for (const auto& [key, value] : want) {
        auto it = have.find(key);
        if (it == have.end() || it->second != value) return false;
    }
    return true;
}

// What poet::train returned for a run, kept beside its model.ckpt in losses.txt: each step's training
// loss, then the last validation loss, one hex float a line (%a: read back with strtof, the same
// bits), so lesson 22 can compare another run with it bit for bit without training it again.
struct Losses {
    std::vector<float> steps;
    float val_loss = NAN;
};

inline std::string losses_path(const std::string& dir) { return dir + "/losses.txt"; }

inline void write_losses(const std::string& dir, const poet::TrainResult& r) {
    const std::string tmp = losses_path(dir) + ".tmp";
    {
        std::ofstream out(tmp);
        auto write = [&](float value) {
            char line[64];
            std::snprintf(line, sizeof line, "%a\n", static_cast<double>(value));
            out << line;
        };
        for (float loss : r.losses) write(loss);
        write(r.val_loss);
        if (!out.flush()) throw std::runtime_error("small_poet: cannot write " + tmp);
    }
    std::filesystem::rename(tmp, losses_path(dir));
}

// The losses of dir's run: `steps` training losses and the validation loss; none if the file is
// missing or holds another count or a line that is not a number (then the run is trained again).
inline std::optional<Losses> read_losses(const std::string& dir, size_t steps) {
    std::ifstream in(losses_path(dir));
    std::vector<float> values;
    for (std::string line; std::getline(in, line);) {
        char* end = nullptr;
        const float v = std::strtof(line.c_str(), &end);
        if (line.empty() || *end != '\0') return std::nullopt;
        values.push_back(v);
    }
    if (values.size() != steps + 1) return std::nullopt;
    Losses l;
    l.val_loss = values.back();
    values.pop_back();
    l.steps = std::move(values);
    return l;
}

// Does `path` hold a finished run of exactly config()?
inline bool holds_this_run(const std::string& path) { return holds_run(path, config()); }

// Holds an exclusive lock on a file while it lives: two lessons started at once train only once.
struct FolderLock {
    int fd;
    explicit FolderLock(const std::string& dir) : fd(::open((dir + "/lock").c_str(), O_CREAT | O_RDWR, 0644)) {
        if (fd < 0) throw std::runtime_error("small_poet: cannot create " + dir + "/lock");
        ::flock(fd, LOCK_EX);
    }
    ~FolderLock() { ::close(fd); }   // closing releases the lock
    FolderLock(const FolderLock&) = delete;
    FolderLock& operator=(const FolderLock&) = delete;
};

// A kept run: the model, in eval mode, and the losses poet::train returned for it.
struct Run {
    poet::PoetModel model;
    Losses losses;
};

// The run of `cfg` kept in `dir`, and pg::set_num_threads(2) as in training. Read from dir/model.ckpt
// and dir/losses.txt when they hold this run; else trained there first (about 20 s on 2 cores), under
// the folder's lock. The training is noted on stderr, so that stdout is the same on the first run and
// the next, in the learner's language (the model named `what`, `what_zh` in Chinese): a Chinese run's
// output holds no English line.
inline Run trained(const poet::TrainConfig& cfg, const std::string& dir, const std::string& what,
                   const std::string& what_zh) {
    if (!pg::grad_enabled())
        throw std::logic_error("small_poet::model() or copy_model() is called under a pg::NoGradGuard, but "
                               "training needs gradients: call it before the guard");
    const std::string path = dir + "/model.ckpt";
    std::filesystem::create_directories(dir);
    FolderLock lock(dir);
    std::optional<Losses> kept = holds_run(path, cfg) ? read_losses(dir, cfg.steps) : std::nullopt;
    if (!kept) {
        const std::string steps = std::to_string(cfg.steps);
        std::cerr << lesson::tr("small_poet: training " + what + " (" + steps + " steps) into " + dir +
                                    " once; later runs read it from there\n",
                                "small_poet：把" + what_zh + "训练到 " + dir + "（" + steps +
                                    " 步），只训练这一次；以后直接从那里读取\n");
        poet::TrainOptions o;
        o.out_dir = dir;
        o.data_dir = poet::default_data_dir();
        o.threads = kThreads;
        o.show_progress = false;
        poet::TrainResult r = poet::train(cfg, o);
        if (r.status != poet::TrainStatus::Finished)
            throw std::runtime_error("small_poet: the training run did not finish: " + r.message);
        write_losses(dir, r);
        kept = Losses{r.losses, r.val_loss};
    }
    pg::set_num_threads(kThreads);
    return {poet::load_model(path), *kept};
}

// Lesson 22's run, config(), from cache_dir(): the model and its losses. Call it outside a
// pg::NoGradGuard: training needs gradients.
inline Run run() { return trained(config(), cache_dir(), "lesson 22's model", "第 22 课的模型"); }

// run()'s model.
inline poet::PoetModel model() { return run().model; }

// Lesson 27's copy-token model, copy_config(), from copy_cache_dir() (its own folder and lock): the
// same data, steps and seed as model(), the records read with the poem's k as COPY.
inline poet::PoetModel copy_model() {
    return trained(copy_config(), copy_cache_dir(), "lesson 27's copy-token model", "第 27 课的复制标记模型").model;
}

// The demo's model, POET_SOURCE_DIR/runs/poet/model.ckpt, when ./poet demo has made one (an
// unreadable file is noted on stderr and counts as none: the demo's lines are extras).
inline std::optional<poet::PoetModel> demo_model() {
    const std::string path = std::string(POET_SOURCE_DIR) + "/runs/poet/model.ckpt";
    if (!std::filesystem::exists(path)) return std::nullopt;
    try {
        return poet::load_model(path);
    } catch (const pg::CheckpointError& e) {
        std::cerr << "small_poet: the demo's model is not readable: " << e.what() << "\n";
        return std::nullopt;
    }
}

}  // namespace small_poet
