// Lesson 22 experiment: the poet's training loop on the real corpus. One batch and one step
// (poet::sample_batch, poet::train_step), then poet::train for 200 steps of a small GPT with its
// metrics.csv and loss curve, the same run stopped as Ctrl-C stops it and resumed to the same
// bits, and a first poem. Leaves out: the full-size run (./poet train), sampling itself (lesson 23).
#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <numeric>
#include "lesson.hpp"
#include "small_poet.hpp"
#include "poet/config.hpp"
#include "poet/corpus.hpp"
#include "poet/loss_svg.hpp"
#include "poet/metrics.hpp"
#include "poet/model.hpp"
#include "poet/records.hpp"
#include "poet/train.hpp"
#include "poet/utf8.hpp"
#include "poet/val_loss.hpp"
#include "poet/writer.hpp"

namespace fs = std::filesystem;

// A fresh folder under the system's temporary directory, removed with everything in it at the end
// (also when the experiment stops on an error).
struct TempDir {
    std::string path = (fs::temp_directory_path() / ("poet_lesson22_" + std::to_string(getpid()))).string();
    TempDir() {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
    // The path with the temporary folder written as <tmp>, so the output is the same on every run.
    std::string shown(std::string text) const {
        for (size_t at; (at = text.find(path)) != std::string::npos;) text.replace(at, path.size(), "<tmp>");
        return text;
    }
};

static poet::TrainOptions options(const std::string& out_dir) {
    poet::TrainOptions o;
    o.out_dir = out_dir;
    o.data_dir = poet::default_data_dir();
    o.threads = 2;              // the same thread count on every machine: the same bits
    o.show_progress = false;    // the progress bar is for the terminal; this prints its own lines
    return o;
}

// The joint L2 norm of every gradient the parameters hold (what clip_grad_norm measures).
static double grad_norm(const std::vector<pg::Tensor>& params) {
    double squares = 0;
    for (const pg::Tensor& p : params)
        if (p.has_grad())
            for (float g : p.grad().to_vector()) squares += static_cast<double>(g) * g;
    return std::sqrt(squares);
}

// The record as tokens, "·" where the target is kIgnore.
static std::string targets_str(const pg::Tensor& targets, size_t row, const poet::Tokenizer& tok) {
    std::vector<float> y = targets.to_vector();
    std::string out;
    for (size_t t = 0; t < poet::kInputLength; ++t) {
        int id = static_cast<int>(y[row * poet::kInputLength + t]);
        out += id == poet::kIgnore ? "·" : tok.token_str(id);
    }
    return out;
}

static std::string poem_lines(const std::string& text) {
    std::u32string t = poet::decode_utf8(text);
    return poet::encode_utf8(t.substr(0, 12)) + " " + poet::encode_utf8(t.substr(12));
}

static void run() {
    pg::set_num_threads(2);
    const poet::TrainConfig cfg = small_poet::config();   // ./poet train's settings, a smaller model and run
    TempDir tmp;

    lesson::section("the settings: ./poet train's, with a small model and 200 steps");
    std::cout << "corpus " << cfg.corpus << ", " << cfg.n_layer << " layers, width " << cfg.n_embd << ", "
              << cfg.n_head << " heads, context " << cfg.context << ", dropout " << lesson::num(cfg.dropout, 1) << "\n"
              << cfg.steps << " steps of batch " << cfg.batch << ", AdamW lr " << lesson::num(cfg.lr, 4)
              << " (warmup " << cfg.warmup << " steps = default_warmup(200), cosine down to "
              << lesson::num(cfg.min_lr, 4) << "), betas " << lesson::num(cfg.beta1, 2) << " "
              << lesson::num(cfg.beta2, 2) << ", weight decay " << lesson::num(cfg.weight_decay, 1) << ", clip "
              << lesson::num(cfg.clip, 1) << ", seed " << cfg.seed << ", " << pg::num_threads() << " threads\n";

    lesson::section("the corpus and one batch: poet::sample_batch");
    poet::Corpus corpus = poet::load_corpus(poet::default_data_dir(), cfg.corpus);
    poet::Tokenizer tok = poet::Tokenizer::build(corpus.train);
    std::vector<poet::Poem> train_poems = poet::encode_poems(corpus.train, tok);
    std::vector<poet::Poem> val_poems = poet::encode_poems(corpus.val, tok);
    const size_t V = tok.size();
    std::cout << train_poems.size() << " training poems, " << val_poems.size() << " validation poems, V = " << V
              << " tokens (5 special + " << V - 5 << " characters)\n";
    pg::Generator data_gen(22);
    poet::Batch batch = poet::sample_batch(train_poems, cfg.batch, data_gen);
    std::cout << "inputs " << lesson::str(batch.inputs.shape()) << " = (B,T), targets "
              << lesson::str(batch.targets.shape()) << " = (B*T)\n";
    std::vector<float> row0 = batch.inputs.to_vector();
    std::vector<int> ids0(row0.begin(), row0.begin() + poet::kInputLength);
    std::cout << "row 0 inputs:  " << tok.decode(ids0) << "\n"
              << "row 0 targets: " << targets_str(batch.targets, 0, tok) << "   (· = kIgnore, no loss)\n";
    std::vector<float> y = batch.targets.to_vector();
    size_t counted = static_cast<size_t>(std::count_if(y.begin(), y.end(), [](float v) { return v != poet::kIgnore; }));
    std::cout << "counted targets: " << counted << " = B * 25 = " << cfg.batch << " * " << poet::kLossTokens
              << " (24 poem characters and EOS per record)\n";
    lesson::confirm("counted targets", static_cast<double>(counted), static_cast<double>(cfg.batch * poet::kLossTokens),
                    0.0, "B * 25");

    lesson::section("the loss before training: about ln V");
    poet::PoetModel fresh = poet::make_model(tok, poet::gpt_config(cfg, V), cfg.seed);
    pg::nn::GPT& gpt = *fresh.gpt;
    std::cout << "parameters: " << gpt.num_parameters() << " = wte " << V << "*64 + wpe 32*64 + 2 blocks * 49984 + ln_f 128 + head "
              << V << "*64\n";
    lesson::confirm("num_parameters", static_cast<double>(gpt.num_parameters()),
                    static_cast<double>(2 * V * 64 + 32 * 64 + 2 * (12 * 64 * 64 + 13 * 64) + 128), 0.0,
                    "the count by hand (lesson 17)");
    lesson::show("ln V, the loss of a uniform guess", std::log(static_cast<double>(V)));
    lesson::show("batch_loss(fresh model, batch)", poet::batch_loss(gpt, batch).item());
    lesson::show("validation loss of the fresh model (854 poems)", poet::validation_loss(gpt, val_poems, 64).mean);

    lesson::section("the schedule: warmup_cosine_lr(step, 20, 200, 0.002, 0.0002)");
    for (size_t step : {0, 1, 9, 19, 20, 110, 199})
        std::cout << "step " << step + 1 << " (step index " << step << "): lr "
                  << lesson::num(pg::optim::warmup_cosine_lr(step, cfg.warmup, cfg.steps, cfg.lr, cfg.min_lr), 6) << "\n";
    lesson::confirm("lr at step index 0", pg::optim::warmup_cosine_lr(0, 20, 200, 2e-3f, 2e-4f), 2e-3 / 20, 1e-9,
                    "max_lr * 1 / warmup");
    lesson::confirm("lr at step index 110", pg::optim::warmup_cosine_lr(110, 20, 200, 2e-3f, 2e-4f), (2e-3 + 2e-4) / 2,
                    1e-9, "halfway down the cosine: (max_lr + min_lr) / 2");

    lesson::section("one step: poet::train_step(gpt, opt, batch, lr, clip)");
    pg::optim::AdamW opt(gpt.parameters(), {cfg.lr, cfg.beta1, cfg.beta2, 1e-8f, cfg.weight_decay});
    std::vector<float> w0 = gpt.head.weight.to_vector();   // (V,C), every entry gets a gradient
    float lr0 = pg::optim::warmup_cosine_lr(0, cfg.warmup, cfg.steps, cfg.lr, cfg.min_lr);
    poet::StepStats s = poet::train_step(gpt, opt, batch, lr0, cfg.clip);
    std::cout << "StepStats: lr " << lesson::num(s.lr, 6) << ", loss " << lesson::num(s.loss) << ", grad_norm (before clipping) "
              << lesson::num(s.grad_norm) << ", diverged \"" << s.diverged << "\"\n";
    std::cout << "the gradients' norm after the step: " << lesson::num(grad_norm(opt.params()))
              << (s.grad_norm > cfg.clip ? " (clipped to clip = 1.0)" : " (below clip = 1.0: left as it was)") << "\n";
    std::vector<float> w1 = gpt.head.weight.to_vector();
    std::vector<double> moved;
    for (size_t j = 0; j < w0.size(); ++j) moved.push_back(std::fabs(static_cast<double>(w1[j]) - w0[j]));
    std::nth_element(moved.begin(), moved.begin() + moved.size() / 2, moved.end());
    std::cout << "head.weight " << lesson::str(gpt.head.weight.shape()) << ": median |change| / lr = "
              << lesson::num(moved[moved.size() / 2] / lr0, 2)
              << "   (Adam's first step is lr * g / (|g| + eps): about lr for every weight, whatever g's size)\n";
    lesson::show("batch_loss on the same batch after the step", poet::batch_loss(gpt, batch).item());

    lesson::section("200 steps: poet::train into <tmp>/run");
    const std::string run_dir = tmp.path + "/run";
    poet::TrainOptions whole = options(run_dir);
    whole.on_step = [](size_t step, float loss) {
        if (step == 1 || step % 20 == 0) std::cout << "step " << step << ": train loss " << lesson::num(loss, 2) << "\n";
    };
    poet::TrainResult a = poet::train(cfg, whole);
    std::cout << "status " << (a.status == poet::TrainStatus::Finished ? "Finished" : "not finished") << ", "
              << a.losses.size() << " steps, checkpoint at step " << a.checkpoint_step << "\n";
    std::cout << "first train loss " << lesson::num(a.losses.front()) << ", last " << lesson::num(a.losses.back(), 2)
              << ", mean of the last 20 " << lesson::num(
                     std::accumulate(a.losses.end() - 20, a.losses.end(), 0.0) / 20, 2)
              << "\n";
    lesson::expect("the loss falls", a.losses.back() < a.losses.front() - 2.f, "at least 2 lower", "less", "");

    lesson::section("metrics.csv, one row per step, and the loss curve");
    std::ifstream csv(run_dir + "/metrics.csv");
    std::string line;
    for (int i = 0; i < 3 && std::getline(csv, line); ++i) std::cout << "  " << line << "\n";
    std::cout << "  ...   (tokens_per_s and elapsed_s are timings: they differ on every run)\n";
    std::vector<poet::MetricRow> rows = poet::read_metrics(run_dir + "/metrics.csv", cfg.steps);
    size_t clipped = 0, last_clipped = 0;
    for (const poet::MetricRow& r : rows) {
        if (r.grad_norm > cfg.clip) ++clipped, last_clipped = r.step;
        if (!std::isnan(r.val_loss))
            std::cout << "step " << r.step << ": validation loss " << lesson::num(r.val_loss, 2) << ", train loss "
                      << lesson::num(r.loss, 2) << "\n";
    }
    std::cout << rows.size() << " rows. grad_norm before clipping:";
    for (size_t step : {1, 25, 50, 100, 150, 200}) std::cout << " step " << step << " " << lesson::num(rows[step - 1].grad_norm, 2);
    std::cout << "\nabove clip = 1.0, so clipped, at " << clipped << " steps, the last of them step " << last_clipped << "\n";
    const std::string svg = std::string(POET_SOURCE_DIR) + "/lessons/22_training_loop/loss.svg";
    poet::write_loss_svg(svg, rows, "lesson 22: 2 layers, width 64, 200 steps of 16 records");
    std::cout << "wrote lessons/22_training_loop/loss.svg from the rows' step, loss and val_loss (no timings)\n";

    lesson::section("Ctrl-C: the same run stopped after step 120, saved, resumed");
    const std::string stop_dir = tmp.path + "/stopped";
    std::atomic<bool> stop{false};   // ./poet train's SIGINT handler sets such a flag
    poet::TrainOptions first = options(stop_dir);
    first.stop = &stop;
    first.on_step = [&](size_t step, float) {
        if (step == 120) stop = true;   // "Ctrl-C" during step 120: seen before step 121 starts
    };
    poet::TrainResult b1 = poet::train(cfg, first);
    std::cout << "status " << (b1.status == poet::TrainStatus::Interrupted ? "Interrupted" : "not interrupted") << ": "
              << tmp.shown(b1.message) << "\n";
    std::vector<std::string> files;
    for (const auto& f : fs::directory_iterator(stop_dir)) files.push_back(f.path().filename().string());
    std::sort(files.begin(), files.end());
    std::cout << "the folder holds:";
    for (const std::string& f : files) std::cout << " " << f;
    std::cout << "   (no model.ckpt.tmp: pg::save wrote that, then renamed it)\n";
    pg::LoadedCheckpoint info = pg::read_checkpoint_info(b1.checkpoint);
    std::cout << "model.ckpt: step " << info.step << ", optimizer state " << (info.has_optimizer ? "yes" : "no")
              << ", " << info.metadata.size() << " metadata entries, among them rng.data and rng.model: "
              << (info.metadata.count("rng.data") && info.metadata.count("rng.model") ? "yes" : "no") << "\n";

    // What a reader would meet if the file were written in place and the program died halfway.
    const std::string torn = stop_dir + "/torn.ckpt";
    {
        std::ifstream in(b1.checkpoint, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), {});
        std::ofstream(torn, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
    }
    try {
        poet::load_model(torn);
        std::cout << "a half-written checkpoint loaded?!\n";
    } catch (const pg::CheckpointError& e) {
        std::cout << "half of model.ckpt, loaded: CheckpointError: " << tmp.shown(e.what()) << "\n";
    }
    fs::remove(torn);

    poet::TrainOptions second = options(stop_dir);
    second.resume = true;   // ./poet train --resume: the settings come from the checkpoint
    poet::TrainResult b2 = poet::train(poet::TrainConfig{}, second);
    std::vector<float> joined = b1.losses;
    joined.insert(joined.end(), b2.losses.begin(), b2.losses.end());
    size_t same = 0;
    for (size_t i = 0; i < a.losses.size() && i < joined.size(); ++i)
        if (joined[i] == a.losses[i]) ++same;   // equal as floats: the same bits
    std::cout << "stopped run: " << b1.losses.size() << " steps, resumed run: " << b2.losses.size()
              << " steps; equal bit for bit to the uninterrupted run: " << same << " of " << a.losses.size()
              << " losses, validation loss " << (b2.val_loss == a.val_loss ? "equal" : "different") << "\n";
    lesson::expect("resume repeats the uninterrupted losses", same == a.losses.size() && joined.size() == same,
                   "all 200 equal", std::to_string(same), "");

    lesson::section("a first poem: poet::write_poems, seeded");
    poet::PoetModel trained = poet::load_model(a.checkpoint);
    std::cout << "load_model(model.ckpt): step " << trained.step << ", V = " << trained.tok.size() << "\n";
    poet::PoetModel untrained = poet::make_model(tok, poet::gpt_config(cfg, V), cfg.seed);
    std::vector<int> ks;
    for (const char* k : {"春", "月", "山"}) ks.push_back(tok.id(poet::decode_utf8(k)[0]));
    for (auto [name, model] : {std::pair{"untrained", &untrained}, std::pair{"after 200 steps", &trained}}) {
        pg::Generator gen(22);
        std::vector<poet::WrittenPoem> poems = poet::write_poems(*model->gpt, tok, ks, poet::WriteOptions{}, gen);
        std::cout << name << ":\n";
        for (size_t i = 0; i < poems.size(); ++i)
            std::cout << "  " << tok.token_str(ks[i]) << "  " << poem_lines(poems[i].text)
                      << (poems[i].well_formed ? "   well-formed" : "   NOT well-formed") << "\n";
    }
}

int main() { return lesson::run_experiment(run); }
