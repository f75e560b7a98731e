// The training loop: restore (a fresh run, or everything a checkpoint holds), then for each step
// take_step (the batch, then train_step: forward, loss, backward, clip, AdamW), record (the metrics
// row, validation at intervals) and save (the checkpoint at intervals). Everything that decides later
// steps — weights, optimizer moments and step counts, both generators (data order and dropout
// masks) — goes into the checkpoint, so a resumed run repeats the uninterrupted run's losses bit
// for bit (with the same kernel table and any thread count). Data-parallel policy: data_parallel.hpp.
// Leaves out: learning-rate finding, early stopping.
#include "poet/train.hpp"
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <unistd.h>
#include "pg/autograd.hpp"
#include "pg/ops.hpp"
#include "pg/threads.hpp"
#include "poet/corpus.hpp"
#include "poet/data_parallel.hpp"
#include "poet/loss_svg.hpp"
#include "poet/metrics.hpp"
#include "poet/model.hpp"
#include "poet/progress.hpp"
#include "poet/val_loss.hpp"

namespace poet {

namespace {

using clock = std::chrono::steady_clock;
const uint64_t kDataStream = 0x9E3779B97F4A7C15ull;   // data order draws from seed ^ this

double seconds_since(clock::time_point t0) { return std::chrono::duration<double>(clock::now() - t0).count(); }

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

}  // namespace

pg::Tensor batch_loss(pg::nn::GPT& gpt, const Batch& batch) {
    pg::Tensor logits = gpt.forward_rows(batch.inputs);                   // (B*T,V)
    return pg::cross_entropy(logits, batch.targets, kIgnore);              // scalar
}

StepStats train_step(pg::nn::GPT& gpt, pg::optim::Optimizer& opt, const Batch& batch, float lr, float clip,
                     bool pretend_nan, const Share& share) {
    StepStats s;
    s.lr = lr;
    opt.set_lr(lr);
    auto t0 = clock::now();
    pg::Tensor loss = batch_loss(gpt, batch);
    if (share.weight != 1) loss = loss * static_cast<float>(share.weight);
    s.loss = share.total_loss(pretend_nan ? NAN : loss.item());
    s.forward_s = seconds_since(t0);
    if (!std::isfinite(s.loss)) {
        s.diverged = "the training loss is " + fmt("%g", s.loss);
        return s;
    }
    auto t1 = clock::now();
    opt.zero_grad();
    loss.backward();
    auto t_sum = clock::now();
    share.total_gradients(opt.params());   // data-parallel: one allreduce; one process: nothing
    s.allreduce_s = seconds_since(t_sum);
    s.backward_s = seconds_since(t1);
    auto t2 = clock::now();
    s.grad_norm = pg::optim::clip_grad_norm(opt.params(), clip);
    if (!std::isfinite(s.grad_norm)) {
        s.diverged = "the gradient norm is " + fmt("%g", s.grad_norm);
        return s;
    }
    opt.step();
    s.update_s = seconds_since(t2);
    return s;
}

namespace {

// Throws std::invalid_argument, before anything is allocated, when the model and a batch would need
// more memory than the machine has: weights, gradients and AdamW's two moments (16 bytes a
// parameter), the logits with their log-probabilities and gradient, and each block's activations.
void check_memory(const TrainConfig& c, size_t V) {
    const double B = static_cast<double>(c.batch), T = kInputLength, C = static_cast<double>(c.n_embd),
                 L = static_cast<double>(c.n_layer), NH = static_cast<double>(c.n_head);
    double params = 2 * static_cast<double>(V) * C + static_cast<double>(c.context) * C + L * (12 * C * C + 13 * C) + 2 * C;
    double bytes = 16 * params + 4 * (3 * B * T * static_cast<double>(V) + L * (40 * B * T * C + 4 * B * NH * T * T));
    double have = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
    if (have > 0 && bytes > 0.8 * have)
        throw std::invalid_argument("train: this model and batch would need about " + fmt("%.1f", bytes / 1e9) +
                                    " GB (weights, optimizer state, activations), more than this machine's " +
                                    fmt("%.1f", have / 1e9) + " GB: lower --batch (" + std::to_string(c.batch) +
                                    "), --width (" + std::to_string(c.n_embd) + ") or --layers (" +
                                    std::to_string(c.n_layer) + ")");
}

// Is the model good to save: a finite loss on the first validation records, in eval mode (no
// dropout draws, so a resumed run repeats the uninterrupted one)? Empty when it is, else why not.
std::string unsaveable(pg::nn::GPT& gpt, const std::vector<Poem>& val_poems, bool copy_token) {
    pg::NoGradGuard no_grad;
    bool was_training = gpt.is_training();
    gpt.eval();
    float probe = batch_loss(gpt, validation_batch(val_poems, 0, std::min<size_t>(16, val_poems.size()), copy_token)).item();
    gpt.train(was_training);
    return std::isfinite(probe) ? "" : "its loss on validation records is " + fmt("%g", probe);
}

// Everything a run holds between steps.
struct Run {
    TrainConfig cfg;
    Tokenizer tok;
    std::vector<Poem> train_poems, val_poems;
    PoetModel model;
    std::unique_ptr<pg::optim::AdamW> optimizer;
    pg::Generator data_gen{0};
    std::vector<MetricRow> history;   // rows of the steps before `start` (resume) and after
    size_t start = 0;                 // the step this session begins at
};

// A fresh run from cfg, or (opt.resume) the run in out_dir/model.ckpt with its own config.
Run restore(TrainConfig cfg, const TrainOptions& opt, TrainResult& result, const std::string& metrics_path) {
    Run run;
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
    run.cfg = cfg;
    Corpus corpus = load_corpus(opt.data_dir, cfg.corpus);
    run.tok = opt.resume ? Tokenizer::deserialize(metadata_at(info.metadata, "tokenizer")) : Tokenizer::build(corpus.train);
    check_memory(cfg, run.tok.size());
    run.train_poems = encode_poems(corpus.train, run.tok);
    run.val_poems = encode_poems(corpus.val, run.tok);
    run.model = make_model(run.tok, gpt_config(cfg, run.tok.size()), cfg.seed);
    run.model.copy_token = uses_copy_token(cfg);
    run.optimizer = std::make_unique<pg::optim::AdamW>(run.model.gpt->parameters(), adamw_options(cfg));
    run.data_gen = pg::Generator(cfg.seed ^ kDataStream);
    if (opt.resume) {
        pg::LoadedCheckpoint loaded = pg::load(result.checkpoint, *run.model.gpt, run.optimizer.get());
        try {
            set_generator_state(*run.model.gen, loaded.metadata.at("rng.model"));
            set_generator_state(run.data_gen, loaded.metadata.at("rng.data"));
        } catch (const std::exception& e) {
            throw pg::CheckpointError(result.checkpoint + ": cannot restore the random generators: " + e.what());
        }
        run.start = loaded.step;
        run.history = read_metrics(metrics_path, run.start);
    }
    return run;
}

// Saves the checkpoint of `step`; returns false, saving nothing, when the weights are not good
// (unsaveable), so that the checkpoint on disk is always a good one.
bool save_checkpoint(Run& run, size_t step, TrainResult& result) {
    std::string bad = unsaveable(*run.model.gpt, run.val_poems, uses_copy_token(run.cfg));
    if (!bad.empty()) {
        result.status = TrainStatus::Diverged;
        result.message = "diverged: after step " + std::to_string(step) + " the model is not worth saving (" + bad +
                         "); nothing was written. " +
                         (result.checkpoint_step ? "The last good checkpoint is kept: " + result.checkpoint + " (step " +
                                                       std::to_string(result.checkpoint_step) + ")."
                                                 : std::string("No checkpoint had been saved yet.")) +
                         " Try a lower --lr or a longer --warmup.";
        return false;
    }
    pg::Metadata meta;
    model_metadata(run.model, meta);
    to_metadata(run.cfg, meta);
    meta["rng.model"] = generator_state_str(*run.model.gen);
    meta["rng.data"] = generator_state_str(run.data_gen);
    if (!std::isnan(result.val_loss)) meta["val_loss"] = fmt("%.6f", result.val_loss);
    pg::save(result.checkpoint, *run.model.gpt, run.optimizer.get(), step, meta);
    result.checkpoint_step = step;
    return true;
}

std::string diverged_message(const StepStats& s, size_t step, const TrainResult& result) {
    return "diverged at step " + std::to_string(step) + ": " + s.diverged + " (lr " + fmt("%g", s.lr) +
           "); training stopped before updating the weights. " +
           (result.checkpoint_step ? "The last good checkpoint is kept: " + result.checkpoint + " (step " +
                                         std::to_string(result.checkpoint_step) + ")."
                                   : std::string("No checkpoint had been saved yet.")) +
           " Try a lower --lr or a longer --warmup.";
}

// What one call of train() keeps besides the run: where it writes, the result so far, the metrics
// file and progress bar (rank 0's), and the time its steps took.
struct Session {
    Session(const TrainOptions& o, bool lead_)
        : opt(o), lead(lead_), metrics_path(o.out_dir + "/metrics.csv"), svg_path(o.out_dir + "/loss.svg") {
        result.checkpoint = o.out_dir + "/model.ckpt";
    }
    void say(const std::string& s) const {
        if (opt.show_progress && lead) std::fprintf(stderr, "%s\n", s.c_str());
    }
    const TrainOptions& opt;
    bool lead;
    TrainResult result;
    std::string metrics_path, svg_path;
    std::unique_ptr<MetricsWriter> metrics;
    std::unique_ptr<ProgressBar> bar;
    double elapsed_before = 0, step_s_total = 0, allreduce_s_total = 0;
    size_t steps_timed = 0;
    clock::time_point start = clock::now();
};

// One step: its learning rate and batch (this rank's rows of it), then train_step.
StepStats take_step(Run& run, const DataParallel& dp, size_t step) {
    const TrainConfig& c = run.cfg;
    float lr = pg::optim::warmup_cosine_lr(step, c.warmup, c.steps, c.lr, c.min_lr);
    Batch batch = sample_batch(run.train_poems, c.batch, run.data_gen, uses_copy_token(c));
    Share share = dp.take_rows(batch);
    return train_step(*run.model.gpt, *run.optimizer, batch, lr, c.clip, c.inject_nan_at == step + 1, share);
}

// The metrics row of the step just taken, with the validation loss at intervals (rank 0 measures it).
void record(Run& run, Session& session, size_t step, const StepStats& s, double step_seconds) {
    const TrainConfig& c = run.cfg;
    session.step_s_total += step_seconds;
    session.allreduce_s_total += s.allreduce_s;
    ++session.steps_timed;
    MetricRow row;
    row.step = step;
    row.lr = s.lr;
    row.loss = s.loss;
    row.grad_norm = s.grad_norm;
    row.tokens_per_s = static_cast<double>(c.batch * kInputLength) / step_seconds;
    if (session.lead && (step % c.eval_every == 0 || step == c.steps)) {
        session.result.val_loss =
            static_cast<float>(validation_loss(*run.model.gpt, run.val_poems, kValidationBatch, uses_copy_token(c)).mean);
        row.val_loss = session.result.val_loss;
        if (session.bar)
            session.bar->note("step " + std::to_string(step) + ": val loss " + fmt("%.4f", session.result.val_loss) +
                              ", train loss " + fmt("%.4f", s.loss));
    }
    row.elapsed_s = session.elapsed_before + seconds_since(session.start);
    if (session.metrics) session.metrics->append(row);
    run.history.push_back(row);
    session.result.losses.push_back(s.loss);
    session.result.step = step;
}

// The checkpoint of `step`, written by rank 0; every rank learns whether it could, so that all stop
// together when it could not.
bool save(Run& run, Session& session, const DataParallel& dp, size_t step) {
    bool saved = dp.lead() ? save_checkpoint(run, step, session.result) : true;
    if (dp.any(dp.lead() && !saved) && !dp.lead()) {
        saved = false;
        session.result.status = TrainStatus::Diverged;
        session.result.message = "rank 0 could not save the model (its message says why)";
    }
    return saved;
}

// After the last step: the loss curve, and what the run did.
void finish(Run& run, Session& session, const DataParallel& dp) {
    if (session.bar) session.bar->finish();
    if (dp.lead()) write_loss_svg(session.svg_path, run.history, "poet: " + session.opt.out_dir);
    if (dp.many() && session.steps_timed > 0)
        session.say("poet: the gradient allreduce took " +
                    fmt("%.1f", 1000 * session.allreduce_s_total / static_cast<double>(session.steps_timed)) +
                    " ms a step, " + fmt("%.1f", 100 * session.allreduce_s_total / session.step_s_total) +
                    "% of the steps' time on rank 0");
    if (session.result.status == TrainStatus::Finished)
        session.say("poet: done in " + format_duration(run.history.back().elapsed_s) + "; checkpoint " +
                    session.result.checkpoint + ", metrics " + session.metrics_path + ", loss curve " + session.svg_path);
}

}  // namespace

TrainResult train(TrainConfig cfg, const TrainOptions& opt) {
    Session session(opt, dist::world().rank == 0);
    TrainResult& result = session.result;
    Run run = restore(cfg, opt, result, session.metrics_path);
    const TrainConfig& c = run.cfg;
    if (opt.threads) pg::set_num_threads(opt.threads);
    std::filesystem::create_directories(opt.out_dir);
    result.step = run.start;
    result.val_loss = NAN;
    for (const MetricRow& r : run.history)
        if (!std::isnan(r.val_loss)) result.val_loss = r.val_loss;
    if (run.start >= c.steps) {
        session.say("train: " + result.checkpoint + " has already finished its " + std::to_string(c.steps) + " steps");
        return result;
    }
    DataParallel dp(c.batch, opt.step_timeout_s, result.checkpoint);   // one process: does nothing
    if (c.dropout > 0) dp.own_dropout_stream(*run.model.gen, c.seed);

    session.say("poet: " + std::to_string(run.train_poems.size()) + " training poems (corpus '" + c.corpus + "'), " +
                std::to_string(run.val_poems.size()) + " validation, vocabulary " + std::to_string(run.tok.size()) +
                ", " + std::to_string(run.model.gpt->num_parameters()) + " parameters, " +
                std::to_string(pg::num_threads()) + " threads" +
                (dp.many() ? " in each of " + std::to_string(dp.ranks()) + " ranks (data-parallel)" : ""));
    session.say(opt.resume ? "poet: resuming " + result.checkpoint + " at step " + std::to_string(run.start)
                           : "poet: training " + std::to_string(c.steps) + " steps into " + opt.out_dir);
    if (session.lead) session.metrics = std::make_unique<MetricsWriter>(session.metrics_path, run.history);
    if (opt.show_progress && session.lead) session.bar = std::make_unique<ProgressBar>(c.steps, run.start);
    session.elapsed_before = run.history.empty() ? 0.0 : run.history.back().elapsed_s;
    run.model.gpt->train();

    for (size_t step = run.start; step < c.steps; ++step) {
        if (dp.any(opt.stop && opt.stop->load())) {   // one rank stopped: all stop, and save
            if (save(run, session, dp, step)) {
                result.status = TrainStatus::Interrupted;
                result.message = "interrupted: saved " + result.checkpoint + " at step " + std::to_string(step) +
                                 "; continue with --resume";
            }
            break;
        }
        auto t0 = clock::now();
        StepStats s = take_step(run, dp, step);
        if (!s.diverged.empty()) {
            result.status = TrainStatus::Diverged;
            result.message = diverged_message(s, step + 1, result);
            break;
        }
        record(run, session, step + 1, s, seconds_since(t0));
        dp.step_done(step + 1, step + 1 == c.steps, *run.model.gpt, result.checkpoint);
        if (((step + 1) % c.save_every == 0 || step + 1 == c.steps) && !save(run, session, dp, step + 1)) break;
        if (session.bar) session.bar->update(step + 1, s.loss, result.val_loss, run.history.back().tokens_per_s);
        if (opt.on_step) opt.on_step(step + 1, s.loss);
    }
    finish(run, session, dp);
    return result;
}

}  // namespace poet
