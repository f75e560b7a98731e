// Bad input as a hostile user would give it: shapes whose element count overflows, absurd sizes,
// non-finite checkpoints, paths that are not files, flags that are not what they seem; and a
// seeded mutation fuzz of the checkpoint loader and the tokenizer. Each ends in a clear error
// naming what was wrong, never a crash, a hang or an allocation beyond what the message names.
#include "catch.hpp"
#include <sys/stat.h>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <pg/pg.hpp>
#include "io/bytes.hpp"
#include "poet/args.hpp"
#include "poet/corpus.hpp"
#include "poet/model.hpp"
#include "poet/tokenizer.hpp"
#include "poet/train.hpp"
#include "poet/utf8.hpp"
#include "file_bytes.hpp"
#include "poet_test_util.hpp"


template <class E, class F>
static std::string message_of(F f) {
    try {
        f();
    } catch (const E& e) {
        return e.what();
    }
    return "(no error)";
}

TEST_CASE("hardening: a shape whose element count overflows or is absurd is refused where it enters", "[hardening]") {
    const size_t huge = size_t(1) << 62;
    CHECK_THAT(message_of<pg::ShapeError>([&] { pg::zeros({huge, 16}); }),
               Contains("zeros/ones/full: shape (4611686018427387904,16) has more elements than a size_t counts"));
    CHECK_THAT(message_of<pg::ShapeError>([&] { pg::zeros({size_t(1) << 20, size_t(1) << 20}); }),
               Contains("1099511627776 elements; one tensor holds at most 4294967296 (16 GiB of float32)"));
    pg::Tensor x = pg::zeros({2, 3});
    CHECK_THAT(message_of<pg::ShapeError>([&] { pg::reshape(x, {6, (size_t(1) << 63) + 1}); }), Contains("reshape: shape (6,"));
    CHECK_THAT(message_of<pg::ShapeError>([&] { pg::tensor({1.f}, {huge, huge}); }), Contains("tensor: shape"));
    CHECK_THAT(message_of<pg::ShapeError>([&] { pg::ones({huge}); }), Contains("one tensor holds at most"));
    CHECK(pg::zeros({0, huge}).numel() == 0);   // a 0 dim holds nothing, whatever the rest
}

TEST_CASE("hardening: randint(0) and a gradient read before any backward are errors", "[hardening]") {
    pg::Generator gen(1);
    CHECK_THAT(message_of<std::invalid_argument>([&] { gen.randint(0); }), Contains("randint: n = 0"));
    pg::Tensor w = pg::zeros({3}, true);
    CHECK_THAT(message_of<std::logic_error>([&] { w.grad_data(); }), Contains("grad_data: this tensor has no gradient yet"));
}

TEST_CASE("hardening: non-finite weights are neither saved nor loaded", "[hardening][checkpoint]") {
    pg::Generator gen(3);
    pg::nn::Linear lin(2, 3, true, gen);
    std::string path = pg_test::temp_path("hardening", "nonfinite.ckpt");
    lin.weight.mutable_data().data()[4] = NAN;
    CHECK_THAT(message_of<pg::CheckpointError>([&] { pg::save(path, lin, nullptr, 1, {}); }),
               Contains("cannot save: parameter weight holds NaN at element 4"));
    CHECK_FALSE(std::filesystem::exists(path));

    // a file whose weight is an infinity, checksum and all: written by hand from a good one
    const float marker = 12345.678f;
    lin.weight.mutable_data().data()[4] = marker;
    pg::save(path, lin, nullptr, 1, {});
    std::vector<uint8_t> b = pg_test::read_bytes(path);
    uint8_t want[4];
    std::memcpy(want, &marker, 4);
    auto at = std::search(b.begin(), b.end(), want, want + 4);
    REQUIRE(at != b.end());
    const float inf = INFINITY;
    std::memcpy(&*at, &inf, 4);
    uint64_t sum = pg::io::fnv1a64(b.data(), b.size() - 8);
    for (int i = 0; i < 8; ++i) b[b.size() - 8 + i] = static_cast<uint8_t>(sum >> (8 * i));
    pg_test::write_bytes(path, b);
    std::vector<float> before = lin.weight.to_vector();
    CHECK_THAT(message_of<pg::CheckpointError>([&] { pg::load(path, lin); }),
               Contains("refused: parameter weight holds an infinity at element 4"));
    CHECK(lin.weight.to_vector() == before);   // nothing changed
    std::remove(path.c_str());
}

TEST_CASE("hardening: a directory or a FIFO given as a checkpoint is named for what it is", "[hardening][checkpoint]") {
    std::string dir = pg_test::temp_path("hardening", "dir.ckpt"), fifo = pg_test::temp_path("hardening", "fifo.ckpt");
    std::filesystem::create_directories(dir);
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    CHECK_THAT(message_of<pg::CheckpointError>([&] { pg::read_checkpoint_info(dir); }), Contains("is a directory"));
    CHECK_THAT(message_of<pg::CheckpointError>([&] { pg::read_checkpoint_info(fifo); }), Contains("is not a regular file"));
    CHECK_THAT(message_of<pg::CheckpointError>([&] { poet::load_model(dir); }), Contains("is a directory"));
    CHECK_THAT(message_of<pg::CheckpointError>([&] { pg::read_checkpoint_info(dir + "/none"); }), Contains("no such file"));
    std::filesystem::remove_all(dir);
    std::remove(fifo.c_str());
}

TEST_CASE("hardening: absurd sizes in a checkpoint's metadata are refused before the model is built", "[hardening][poet]") {
    pg::Generator gen(4);
    pg::nn::Linear lin(2, 2, false, gen);
    poet::TrainConfig cfg = poet_test::tiny_config();
    cfg.n_layer = 100000000;
    pg::Metadata meta;
    poet::to_metadata(cfg, meta);
    meta["poet.format"] = "poet-1";
    meta["tokenizer"] = "春月";
    meta["model.vocab_size"] = "7";
    std::string path = pg_test::temp_path("hardening", "absurd.ckpt");
    pg::save(path, lin, nullptr, 0, meta);
    CHECK_THAT(message_of<pg::CheckpointError>([&] { poet::load_model(path); }),
               Contains("--layers 100000000 is outside its range [1, 64]"));
    meta.erase("tokenizer");
    pg::save(path, lin, nullptr, 0, meta);
    CHECK_THAT(message_of<pg::CheckpointError>([&] { poet::load_model(path); }), Contains("has no 'tokenizer'"));
    std::remove(path.c_str());
}

TEST_CASE("hardening: a huge learning rate never leaves a destroyed model as the last good checkpoint", "[hardening][poet]") {
    poet_test::SmallCorpus corpus("hugelr");
    poet_test::TempDir run("hugelr_run");
    poet::TrainConfig cfg = poet_test::tiny_config();
    cfg.lr = 1e30f;
    cfg.warmup = 0;
    cfg.save_every = 1;
    poet::TrainOptions opt = poet_test::quiet_options(run.path, corpus.path);
    CHECK_THAT(message_of<std::invalid_argument>([&] { poet::train(cfg, opt); }),
               Contains("--lr 1.00000002e+30 is outside its range [1e-12, 10]"));
    // the largest rate allowed: whatever happens, a checkpoint on disk is a model with a finite loss
    cfg.lr = 10.f;
    cfg.min_lr = 10.f;
    cfg.weight_decay = 0.f;
    poet::TrainResult r = poet::train(cfg, opt);
    if (r.checkpoint_step > 0) {
        poet::PoetModel m = poet::load_model(run.path + "/model.ckpt");
        std::vector<poet::Poem> poems = poet::encode_poems(poet::read_poems(corpus.path + "/jueju_val.txt"), m.tok);
        CHECK(std::isfinite(poet::batch_loss(*m.gpt, poet::validation_batch(poems, 0, 16)).item()));
    }
    if (r.status == poet::TrainStatus::Diverged) CHECK_THAT(r.message, Contains("Try a lower --lr"));
}

TEST_CASE("hardening: a model too large for the machine is refused before it is built", "[hardening][poet]") {
    poet_test::SmallCorpus corpus("toolarge");
    poet_test::TempDir run("toolarge_run");
    poet::TrainConfig cfg = poet_test::tiny_config();
    cfg.batch = 65536;
    cfg.n_embd = 4096;
    cfg.n_head = 64;
    poet::TrainOptions opt = poet_test::quiet_options(run.path, corpus.path);
    CHECK_THAT(message_of<std::invalid_argument>([&] { poet::train(cfg, opt); }),
               Contains("would need about") && Contains("lower --batch (65536), --width (4096)"));
}

static std::string args_error(std::vector<std::string> words) {
    std::vector<char*> argv;
    for (std::string& w : words) argv.push_back(w.data());
    return message_of<std::invalid_argument>([&] {
        poet::Args a(static_cast<int>(argv.size()), argv.data(), 2, "write", {"samples", "temperature", "checkpoint"}, {"free"});
        a.size("samples", 4);
        a.number("temperature", 0.8f);
    });
}

TEST_CASE("hardening: flags that are not what they seem get a message saying what is wrong", "[hardening][poet]") {
    CHECK_THAT(args_error({"poet", "write", "月", "--samples", "99999999999999999999999"}), Contains("is too large"));
    CHECK_THAT(args_error({"poet", "write", "月", "--samples", " -1"}), Contains("digits only"));
    CHECK_THAT(args_error({"poet", "write", "月", "--samples", "-1"}), Contains("digits only"));
    CHECK_THAT(args_error({"poet", "write", "--temperature", "--checkpoint", "x"}),
               Contains("--temperature needs a value, but the next argument is the option --checkpoint"));
    CHECK_THAT(args_error({"poet", "write", "-n", "月"}), Contains("unknown option -n"));
    CHECK_THAT(args_error({"poet", "write", "月", "--temperature", "1e99"}), Contains("outside what a float holds"));
    std::vector<std::string> words = {"poet", "write", "--", "月"};
    std::vector<char*> argv;
    for (std::string& w : words) argv.push_back(w.data());
    poet::Args a(4, argv.data(), 2, "write", {"samples"}, {"free"});
    CHECK(a.positional() == std::vector<std::string>{"月"});
}

// A seeded mutation fuzz: every mutated checkpoint is read and loaded, and every mutated byte string
// goes through the UTF-8 decoder and the tokenizer. Each must end normally or in the one error type
// its API names; anything else (another exception, a crash, a sanitizer report) fails.
TEST_CASE("hardening: fuzzing the checkpoint loader and the tokenizer with seeded mutations", "[hardening][fuzz]") {
    pg::Generator gen(2026);
    pg::nn::Linear lin(3, 4, true, gen);
    pg::optim::AdamW opt(lin.parameters());
    pg::sum(lin.forward(pg::randn({2, 3}, gen))).backward();
    opt.step();
    std::string path = pg_test::temp_path("hardening", "fuzz.ckpt");
    pg::save(path, lin, &opt, 1, {{"tokenizer", "春眠不觉晓"}, {"model.n_layer", "2"}});
    const std::vector<uint8_t> good = pg_test::read_bytes(path);
    size_t runs = 0, loaded = 0;
    for (int i = 0; i < 3000; ++i) {
        std::vector<uint8_t> b = good;
        switch (gen.randint(4)) {
            case 0: for (size_t k = 0, n = 1 + gen.randint(4); k < n; ++k) b[gen.randint(b.size())] = static_cast<uint8_t>(gen.randint(256)); break;
            case 1: b.resize(gen.randint(b.size())); break;
            case 2: b.insert(b.begin() + static_cast<long>(gen.randint(b.size())), static_cast<uint8_t>(gen.randint(256))); break;
            default: b.erase(b.begin() + static_cast<long>(gen.randint(b.size()))); break;
        }
        pg_test::write_bytes(path, b);
        ++runs;
        try {
            pg::read_checkpoint_info(path);
            pg::load(path, lin, &opt);
            ++loaded;
        } catch (const pg::CheckpointError&) {
        }
    }
    std::remove(path.c_str());
    poet::Tokenizer tok = poet::Tokenizer::build({U"春眠不觉晓，处处闻啼鸟。"});
    const std::string text = "春眠不觉晓，处处闻啼鸟。\xF0\xA0\x80\x80";
    for (int i = 0; i < 3000; ++i) {
        std::string s = text;
        for (size_t k = 0, n = 1 + gen.randint(3); k < n; ++k) s[gen.randint(s.size())] = static_cast<char>(gen.randint(256));
        if (gen.randint(2)) s.resize(gen.randint(s.size()));
        ++runs;
        try {
            poet::decode_utf8(s);
            tok.encode(s, true);
            poet::Tokenizer::deserialize(s);
        } catch (const std::invalid_argument&) {
        } catch (const std::out_of_range&) {
        }
    }
    std::printf("fuzz: %zu executions (%zu mutated checkpoints loaded cleanly), no crash, no stray error type\n", runs, loaded);
    CHECK(runs == 6000);
}
