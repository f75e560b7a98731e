// Training the poet on a tiny config: the loss falls, a resumed run repeats the uninterrupted run's
// losses bit for bit, a NaN stops training and keeps the last good checkpoint, and bad
// checkpoints end in clear errors.
#include "catch.hpp"
#include <cmath>
#include <fstream>
#include "pg/io/checkpoint.hpp"
#include "pg/nn/layers.hpp"
#include "poet/metrics.hpp"
#include "poet/model.hpp"
#include "poet/train.hpp"
#include "poet_test_util.hpp"

using poet::TrainStatus;

TEST_CASE("train: a tiny run writes checkpoint, metrics and loss curve, the loss falls", "[poet][train]") {
    poet_test::SmallCorpus corpus("falls");
    poet_test::TempDir run("falls_run");
    const std::string &data = corpus.path, &out = run.path;
    poet::TrainConfig cfg = poet_test::tiny_config();
    cfg.steps = 30;
    cfg.dropout = 0.f;
    poet::TrainResult r = poet::train(cfg, poet_test::quiet_options(out, data));
    REQUIRE(r.status == TrainStatus::Finished);
    REQUIRE(r.losses.size() == 30);
    REQUIRE(r.checkpoint_step == 30);
    double first = (r.losses[0] + r.losses[1] + r.losses[2]) / 3, last = (r.losses[27] + r.losses[28] + r.losses[29]) / 3;
    REQUIRE(last < first - 0.3);
    REQUIRE(std::isfinite(r.val_loss));
    REQUIRE(poet::is_finished_checkpoint(out + "/model.ckpt"));
    auto rows = poet::read_metrics(out + "/metrics.csv", 1000);
    REQUIRE(rows.size() == 30);
    REQUIRE(rows[3].val_loss == Approx(rows[3].val_loss));   // step 4 has a validation loss
    REQUIRE(std::isnan(rows[4].val_loss));
    std::ifstream svg(out + "/loss.svg");
    std::string text((std::istreambuf_iterator<char>(svg)), {});
    REQUIRE(text.find("<polyline") != std::string::npos);
    // the checkpoint is a complete poet model
    poet::PoetModel m = poet::load_model(out + "/model.ckpt");
    REQUIRE(m.step == 30);
    REQUIRE(m.gpt->config().n_embd == 16);
    REQUIRE(m.tok.size() == m.gpt->config().vocab_size);
}

TEST_CASE("train: resume after an interruption gives exactly the uninterrupted losses", "[poet][train]") {
    poet_test::SmallCorpus corpus("resume");
    const std::string& data = corpus.path;
    poet::TrainConfig cfg = poet_test::tiny_config();   // dropout on, checkpoints every 3 steps

    poet_test::TempDir whole_dir("resume_whole");
    const std::string& whole = whole_dir.path;
    poet::TrainResult a = poet::train(cfg, poet_test::quiet_options(whole, data));
    REQUIRE(a.status == TrainStatus::Finished);
    REQUIRE(a.losses.size() == 12);

    // the same run, stopped after step 7 (as Ctrl-C would: the flag is seen before step 8)
    poet_test::TempDir split_dir("resume_split");
    const std::string& split = split_dir.path;
    std::atomic<bool> stop{false};
    poet::TrainOptions first = poet_test::quiet_options(split, data);
    first.stop = &stop;
    first.on_step = [&](size_t step, float) {
        if (step == 7) stop = true;
    };
    poet::TrainResult b1 = poet::train(cfg, first);
    REQUIRE(b1.status == TrainStatus::Interrupted);
    REQUIRE(b1.checkpoint_step == 7);
    REQUIRE_THAT(b1.message, Contains("--resume"));

    poet::TrainOptions second = poet_test::quiet_options(split, data);
    second.resume = true;
    poet::TrainConfig ignored;   // resuming takes the checkpoint's config
    poet::TrainResult b2 = poet::train(ignored, second);
    REQUIRE(b2.status == TrainStatus::Finished);
    REQUIRE(b1.losses.size() == 7);
    REQUIRE(b2.losses.size() == 5);
    for (size_t i = 0; i < 7; ++i) REQUIRE(b1.losses[i] == a.losses[i]);
    for (size_t i = 0; i < 5; ++i) REQUIRE(b2.losses[i] == a.losses[7 + i]);   // bitwise equal
    REQUIRE(b2.val_loss == a.val_loss);
    REQUIRE(poet::read_metrics(split + "/metrics.csv", 1000).size() == 12);

    // a finished run resumes to nothing
    poet::TrainResult again = poet::train(ignored, second);
    REQUIRE(again.losses.empty());
    REQUIRE(again.step == 12);
}

// A run of `steps` steps with dropout on 2 threads, stopped after `stop_at` and resumed, repeats the
// uninterrupted run's losses bit for bit: the dropout masks (large enough to be split over the
// threads, kernels::parallel_pieces) depend on the step and the element, never on the schedule.
static void dropout_run_resumed_repeats_losses(const std::string& name, size_t steps, size_t stop_at) {
    poet_test::SmallCorpus corpus(name);
    poet::TrainConfig cfg = poet_test::tiny_config();
    cfg.n_embd = 64;       // (batch, 28, 64) activations: dropout masks large enough to be split
    cfg.batch = 40;        //  over the threads
    cfg.steps = steps;
    cfg.save_every = 3;
    cfg.eval_every = 4;
    poet_test::TempDir whole(name + "_whole"), split(name + "_split");
    auto options = [&](const std::string& out) {
        poet::TrainOptions o = poet_test::quiet_options(out, corpus.path);
        o.threads = 2;
        return o;
    };
    poet::TrainResult a = poet::train(cfg, options(whole.path));
    REQUIRE(a.losses.size() == steps);

    std::atomic<bool> stop{false};
    poet::TrainOptions first = options(split.path);
    first.stop = &stop;
    first.on_step = [&](size_t step, float) {
        if (step == stop_at) stop = true;
    };
    poet::TrainResult b1 = poet::train(cfg, first);
    REQUIRE(b1.status == TrainStatus::Interrupted);
    REQUIRE(b1.checkpoint_step == stop_at);
    poet::TrainOptions second = options(split.path);
    second.resume = true;
    poet::TrainResult b2 = poet::train(poet::TrainConfig{}, second);
    REQUIRE(b1.losses.size() == stop_at);
    REQUIRE(b2.losses.size() == steps - stop_at);
    for (size_t i = 0; i < stop_at; ++i) CHECK(b1.losses[i] == a.losses[i]);
    for (size_t i = stop_at; i < steps; ++i) CHECK(b2.losses[i - stop_at] == a.losses[i]);   // bitwise equal
}

// [long]: 59 s under AddressSanitizer, so the sanitizer build leaves it to the release build
// (tests/CMakeLists.txt)
TEST_CASE("train: a 30-step run with dropout on 2 threads, resumed at step 15, repeats the losses bit for bit",
          "[poet][train][long]") {
    dropout_run_resumed_repeats_losses("resume30", 30, 15);
}

// The same under ThreadSanitizer (the [threads] cases), which runs every step some 50 times slower:
// 4 steps, resumed at 2, so the resumed half saves (step 3) and evaluates (step 4) on the threads
// (12 steps took 54 s there, the whole stage's time; [long] too: the release build runs it).
TEST_CASE("train: a 4-step run with dropout on 2 threads, resumed at step 2, repeats the losses bit for bit",
          "[poet][train][threads][long]") {
    dropout_run_resumed_repeats_losses("resume4", 4, 2);
}

TEST_CASE("train: a NaN loss stops training and keeps the last good checkpoint", "[poet][train]") {
    poet_test::SmallCorpus corpus("nan");
    poet_test::TempDir run("nan_run");
    const std::string &data = corpus.path, &out = run.path;
    poet::TrainConfig cfg = poet_test::tiny_config();
    cfg.inject_nan_at = 8;   // checkpoints at 3 and 6
    poet::TrainResult r = poet::train(cfg, poet_test::quiet_options(out, data));
    REQUIRE(r.status == TrainStatus::Diverged);
    REQUIRE(r.step == 7);
    REQUIRE(r.losses.size() == 7);
    REQUIRE(r.checkpoint_step == 6);
    REQUIRE_THAT(r.message, Contains("diverged at step 8") && Contains("training loss is nan") &&
                                Contains("last good checkpoint is kept") && Contains("(step 6)"));
    poet::PoetModel m = poet::load_model(out + "/model.ckpt");
    REQUIRE(m.step == 6);
    for (const pg::Tensor& p : m.gpt->parameters())
        for (float v : p.to_vector()) REQUIRE(std::isfinite(v));

    // a blow-up before any checkpoint says so
    poet_test::TempDir early_dir("nan_early");
    const std::string& early = early_dir.path;
    cfg.inject_nan_at = 2;
    poet::TrainResult e = poet::train(cfg, poet_test::quiet_options(early, data));
    REQUIRE(e.status == TrainStatus::Diverged);
    REQUIRE_THAT(e.message, Contains("No checkpoint had been saved yet"));
}

TEST_CASE("train: bad settings, missing and corrupt checkpoints end in clear errors", "[poet][train]") {
    poet_test::SmallCorpus corpus("errors");
    poet_test::TempDir run("errors_run");
    const std::string &data = corpus.path, &out = run.path;
    poet::TrainConfig cfg = poet_test::tiny_config();
    cfg.n_embd = 15;
    REQUIRE_THROWS_WITH(poet::train(cfg, poet_test::quiet_options(out, data)), Contains("--width 15 must be a multiple of --heads 2"));
    cfg = poet_test::tiny_config();
    cfg.context = 16;
    REQUIRE_THROWS_WITH(poet::train(cfg, poet_test::quiet_options(out, data)), Contains("--context 16 is shorter than a record"));

    poet::TrainOptions resume = poet_test::quiet_options(out, data);
    resume.resume = true;
    REQUIRE_THROWS_WITH(poet::train(poet_test::tiny_config(), resume), Contains("no checkpoint at " + out));
    REQUIRE_THROWS_WITH(poet::load_model(out + "/none.ckpt"), Contains("none.ckpt: no such checkpoint"));

    cfg = poet_test::tiny_config();
    cfg.steps = 3;
    REQUIRE(poet::train(cfg, poet_test::quiet_options(out, data)).status == TrainStatus::Finished);
    std::string path = out + "/model.ckpt";
    std::string bytes;
    {
        std::ifstream in(path, std::ios::binary);
        bytes.assign((std::istreambuf_iterator<char>(in)), {});
    }
    std::string truncated = out + "/truncated.ckpt", flipped = out + "/flipped.ckpt";
    std::ofstream(truncated, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
    std::string bad = bytes;
    bad[bad.size() - 10] ^= 0x40;
    std::ofstream(flipped, std::ios::binary) << bad;
    REQUIRE_THROWS_AS(poet::load_model(truncated), pg::CheckpointError);
    REQUIRE_THROWS_WITH(poet::load_model(truncated), StartsWith(truncated));
    REQUIRE_THROWS_WITH(poet::load_model(flipped), StartsWith(flipped));
    REQUIRE_FALSE(poet::is_finished_checkpoint(truncated));

    // a valid checkpoint of something that is not a poet
    pg::Generator gen(1);
    pg::nn::Linear other(3, 2, true, gen);
    std::string foreign = out + "/foreign.ckpt";
    pg::save(foreign, other);
    REQUIRE_THROWS_WITH(poet::load_model(foreign), Contains("not a poet checkpoint"));
}

TEST_CASE("train_step: one step lowers the loss, a NaN loss leaves the weights alone", "[poet][train]") {
    poet::Tokenizer tok = poet::Tokenizer::build({U"白日依山尽，黄河入海流。欲穷千里目，更上一层楼。"});
    std::vector<poet::Poem> poems = poet::encode_poems({U"白日依山尽，黄河入海流。欲穷千里目，更上一层楼。"}, tok);
    poet::TrainConfig cfg = poet_test::tiny_config();
    cfg.dropout = 0.f;
    poet::PoetModel model = poet::make_model(tok, poet::gpt_config(cfg, tok.size()), 3);
    pg::optim::AdamW opt(model.gpt->parameters(), poet::adamw_options(cfg));
    poet::Batch batch = poet::validation_batch(poems, 0, 1);
    std::vector<float> losses;
    for (int i = 0; i < 5; ++i) {
        poet::StepStats s = poet::train_step(*model.gpt, opt, batch, 1e-2f, 1.f);
        REQUIRE(s.diverged.empty());
        REQUIRE(s.lr == 1e-2f);
        REQUIRE(opt.lr() == 1e-2f);
        REQUIRE(s.grad_norm > 0.f);
        losses.push_back(s.loss);
    }
    REQUIRE(losses[4] < losses[0] - 0.1f);
    REQUIRE(losses[0] == Approx(poet::batch_loss(*poet::make_model(tok, poet::gpt_config(cfg, tok.size()), 3).gpt, batch)
                                    .item()));

    std::vector<float> before = model.gpt->wte.weight.to_vector();
    poet::StepStats nan = poet::train_step(*model.gpt, opt, batch, 1e-2f, 1.f, /*pretend_nan=*/true);
    REQUIRE_THAT(nan.diverged, Contains("the training loss is nan"));
    REQUIRE(model.gpt->wte.weight.to_vector() == before);
}

TEST_CASE("settings: one table gives the flags, the help, validation and the metadata round trip", "[poet][config]") {
    poet::TrainConfig c = poet_test::tiny_config();
    c.seed = 18446744073709551615ull;
    c.lr = 0.1f / 3;
    pg::Metadata meta;
    poet::to_metadata(c, meta);
    REQUIRE(meta.size() == poet::settings().size());
    poet::TrainConfig back = poet::train_config_from(meta);
    for (const poet::Setting& s : poet::settings()) {
        pg::Metadata again;
        poet::to_metadata(back, again);
        REQUIRE(again.at(s.key) == meta.at(s.key));   // every field, floats to the bit
    }
    REQUIRE(back.lr == c.lr);
    REQUIRE(back.seed == c.seed);
    meta["model.vocab_size"] = "9";
    pg::nn::GPTConfig g = poet::gpt_config_from(meta);
    REQUIRE((g.vocab_size == 9 && g.n_layer == c.n_layer && g.n_embd == c.n_embd && g.context == c.context));

    c = poet::TrainConfig{};
    c.n_layer = 65;
    REQUIRE_THROWS_WITH(poet::validate(c), Contains("--layers 65 is outside its range [1, 64]"));
    c = poet::TrainConfig{};
    c.corpus = "tang";
    REQUIRE_THROWS_WITH(poet::validate(c), Contains("--corpus must be one of jueju|all, not 'tang'"));
    c = poet::TrainConfig{};
    c.min_lr = 1.f;
    REQUIRE_THROWS_WITH(poet::validate(c), Contains("--min-lr 1 must not exceed --lr 0.00200000009"));
    meta.erase("train.clip");
    REQUIRE_THROWS_WITH(poet::train_config_from(meta), Contains("no 'train.clip'"));
}
