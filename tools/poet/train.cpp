// One step: sample a batch, forward, cross-entropy on the poem+EOS targets, check the loss is
// finite, backward, clip, AdamW. Everything that decides later steps — weights, optimizer moments
// and step counts, both generators (data order and dropout masks) — goes into the checkpoint, so a
// resumed run repeats the uninterrupted run's losses bit for bit (with the same thread count).
// Leaves out: learning-rate finding, early stopping.
#include "poet/train.hpp"
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include "pg/ops.hpp"
#include "pg/optim/optim.hpp"
#include "pg/threads.hpp"
#include "poet/corpus.hpp"
#include "poet/loss_svg.hpp"
#include "poet/metrics.hpp"
#include "poet/model.hpp"
#include "poet/progress.hpp"
#include "poet/records.hpp"
#include "poet/val_loss.hpp"

namespace poet {

namespace {

const uint64_t kDataStream = 0x9E3779B97F4A7C15ull;   // data order draws from seed ^ this

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

}  // namespace

TrainResult train(TrainConfig cfg, const TrainOptions& opt) {
    TrainResult result;
    result.checkpoint = opt.out_dir + "/model.ckpt";
    const std::string metrics_path = opt.out_dir + "/metrics.csv", svg_path = opt.out_dir + "/loss.svg";
    auto say = [&](const std::string& s) {
        if (opt.show_progress) std::fprintf(stderr, "%s\n", s.c_str());
    };

    pg::LoadedCheckpoint info;
    if (opt.resume) {
        if (!std::ifstream(result.checkpoint))
            throw std::runtime_error("train --resume: no checkpoint at " + result.checkpoint + " to resume from");
        info = pg::read_checkpoint_info(result.checkpoint);
        try {
            cfg = train_config_from(info.metadata);
        } catch (const std::exception& e) {
            throw pg::CheckpointError(result.checkpoint + ": " + e.what());
        }
        if (!info.has_optimizer)
            throw pg::CheckpointError(result.checkpoint + ": holds no optimizer state, so it cannot be resumed");
        result.checkpoint_step = info.step;
    }
    validate(cfg);
    if (opt.threads) pg::set_num_threads(opt.threads);
    std::filesystem::create_directories(opt.out_dir);

    Corpus corpus = load_corpus(opt.data_dir, cfg.corpus);
    Tokenizer tok = opt.resume ? Tokenizer::deserialize(info.metadata.at("tokenizer")) : Tokenizer::build(corpus.train);
    std::vector<Poem> train_poems = encode_poems(corpus.train, tok), val_poems = encode_poems(corpus.val, tok);
    PoetModel model = make_model(tok, gpt_config(cfg, tok.size()), cfg.seed);
    pg::optim::AdamW optimizer(model.gpt->parameters(), {cfg.lr, cfg.beta1, cfg.beta2, 1e-8f, cfg.weight_decay});
    pg::Generator data_gen(cfg.seed ^ kDataStream);
    std::vector<MetricRow> history;
    size_t start = 0;
    if (opt.resume) {
        pg::LoadedCheckpoint loaded = pg::load(result.checkpoint, *model.gpt, &optimizer);
        try {
            set_generator_state(*model.gen, loaded.metadata.at("rng.model"));
            set_generator_state(data_gen, loaded.metadata.at("rng.data"));
        } catch (const std::exception& e) {
            throw pg::CheckpointError(result.checkpoint + ": cannot restore the random generators: " + e.what());
        }
        start = loaded.step;
        history = read_metrics(metrics_path, start);
    }
    result.step = start;
    result.val_loss = NAN;
    for (const MetricRow& r : history)
        if (!std::isnan(r.val_loss)) result.val_loss = r.val_loss;
    if (start >= cfg.steps) {
        say("train: " + result.checkpoint + " has already finished its " + std::to_string(cfg.steps) + " steps");
        return result;
    }

    say("poet: " + std::to_string(train_poems.size()) + " training poems (corpus '" + cfg.corpus + "'), " +
        std::to_string(val_poems.size()) + " validation, vocabulary " + std::to_string(tok.size()) + ", " +
        std::to_string(model.gpt->num_parameters()) + " parameters, " + std::to_string(pg::num_threads()) + " threads");
    say(opt.resume ? "poet: resuming " + result.checkpoint + " at step " + std::to_string(start)
                   : "poet: training " + std::to_string(cfg.steps) + " steps into " + opt.out_dir);

    MetricsWriter metrics(metrics_path, history);
    auto save_checkpoint = [&](size_t step) {
        pg::Metadata meta;
        model_metadata(model, meta);
        to_metadata(cfg, meta);
        meta["rng.model"] = generator_state_str(*model.gen);
        meta["rng.data"] = generator_state_str(data_gen);
        if (!std::isnan(result.val_loss)) meta["val_loss"] = fmt("%.6f", result.val_loss);
        pg::save(result.checkpoint, *model.gpt, &optimizer, step, meta);
        result.checkpoint_step = step;
    };

    const size_t B = cfg.batch, T = kInputLength, V = tok.size();
    std::unique_ptr<ProgressBar> bar;
    if (opt.show_progress) bar = std::make_unique<ProgressBar>(cfg.steps, start);
    double elapsed_before = history.empty() ? 0.0 : history.back().elapsed_s;
    auto session_start = std::chrono::steady_clock::now();
    model.gpt->train();

    for (size_t step = start; step < cfg.steps; ++step) {
        if (opt.stop && opt.stop->load()) {
            save_checkpoint(step);
            result.status = TrainStatus::Interrupted;
            result.message = "interrupted: saved " + result.checkpoint + " at step " + std::to_string(step) +
                             "; continue with --resume";
            break;
        }
        auto t0 = std::chrono::steady_clock::now();
        float lr = pg::optim::warmup_cosine_lr(step, cfg.warmup, cfg.steps, cfg.lr, cfg.min_lr);
        optimizer.set_lr(lr);
        Batch batch = sample_batch(train_poems, B, data_gen);
        pg::Tensor logits = model.gpt->forward(batch.inputs);                              // (B,T,V)
        pg::Tensor loss = pg::cross_entropy(pg::reshape(logits, {B * T, V}), batch.targets, kIgnore);
        float loss_value = cfg.inject_nan_at == step + 1 ? NAN : loss.item();
        float norm = 0.f;
        std::string bad;
        if (!std::isfinite(loss_value)) {
            bad = "the training loss is " + fmt("%g", loss_value);
        } else {
            optimizer.zero_grad();
            loss.backward();
            norm = pg::optim::clip_grad_norm(optimizer.params(), cfg.clip);
            if (!std::isfinite(norm)) bad = "the gradient norm is " + fmt("%g", norm);
        }
        if (!bad.empty()) {
            result.status = TrainStatus::Diverged;
            result.message = "diverged at step " + std::to_string(step + 1) + ": " + bad + " (lr " + fmt("%g", lr) +
                             "); training stopped before updating the weights. " +
                             (result.checkpoint_step ? "The last good checkpoint is kept: " + result.checkpoint +
                                                           " (step " + std::to_string(result.checkpoint_step) + ")."
                                                     : std::string("No checkpoint had been saved yet.")) +
                             " Try a lower --lr or a longer --warmup.";
            break;
        }
        optimizer.step();
        double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

        MetricRow row;
        row.step = step + 1;
        row.lr = lr;
        row.loss = loss_value;
        row.grad_norm = norm;
        row.tokens_per_s = static_cast<double>(B * T) / dt;
        if (row.step % cfg.eval_every == 0 || row.step == cfg.steps) {
            result.val_loss = static_cast<float>(validation_loss(*model.gpt, val_poems, 64).mean);
            row.val_loss = result.val_loss;
            if (bar) bar->note("step " + std::to_string(row.step) + ": val loss " + fmt("%.4f", result.val_loss) +
                               ", train loss " + fmt("%.4f", loss_value));
        }
        row.elapsed_s = elapsed_before + std::chrono::duration<double>(std::chrono::steady_clock::now() - session_start).count();
        metrics.append(row);
        history.push_back(row);
        result.losses.push_back(loss_value);
        result.step = row.step;
        if (row.step % cfg.save_every == 0 || row.step == cfg.steps) save_checkpoint(row.step);
        if (bar) bar->update(row.step, loss_value, result.val_loss, row.tokens_per_s);
        if (opt.on_step) opt.on_step(row.step, loss_value);
    }
    if (bar) bar->finish();
    write_loss_svg(svg_path, history, "poet: " + opt.out_dir);
    if (result.status == TrainStatus::Finished)
        say("poet: done in " + format_duration(history.back().elapsed_s) + "; checkpoint " + result.checkpoint +
            ", metrics " + metrics_path + ", loss curve " + svg_path);
    return result;
}

}  // namespace poet
