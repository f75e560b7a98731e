// The training loop in three parts: restore (a fresh run, or everything a checkpoint holds),
// train_step (forward, loss, backward, clip, AdamW) and record (metrics row, validation,
// checkpoint). Everything that decides later steps — weights, optimizer moments and step counts,
// both generators (data order and dropout masks) — goes into the checkpoint, so a resumed run
// repeats the uninterrupted run's losses bit for bit (with the same thread count).
// Leaves out: learning-rate finding, early stopping.
#include "poet/train.hpp"
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <thread>
#include <unistd.h>
#include "pg/autograd.hpp"
#include "pg/ops.hpp"
#include "pg/threads.hpp"
#include "poet/corpus.hpp"
#include "poet/distributed.hpp"
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

namespace {

// Every parameter's gradient summed over the processes: copied into one flat buffer, one
// allreduce, copied back. (A parameter without a gradient here counts as zeros.)
void sum_gradients_over_processes(const std::vector<pg::Tensor>& params) {
    size_t n = 0;
    for (const pg::Tensor& p : params) n += p.numel();
    std::vector<float> flat(n, 0.f);
    size_t at = 0;
    for (const pg::Tensor& p : params) {
        if (p.has_grad()) std::copy(p.grad_data().data(), p.grad_data().data() + p.numel(), flat.data() + at);
        at += p.numel();
    }
    dist::sum_in_place(flat.data(), n);
    at = 0;
    for (pg::Tensor p : params) {   // a handle: set_grad reaches the parameter itself
        pg::Array sum(p.shape(), pg::Array::uninitialized);
        std::copy(flat.data() + at, flat.data() + at + p.numel(), sum.data());
        p.set_grad(std::move(sum));
        at += p.numel();
    }
}

}  // namespace

StepStats train_step(pg::nn::GPT& gpt, pg::optim::Optimizer& opt, const Batch& batch, float lr, float clip,
                     bool pretend_nan, const Share& share) {
    StepStats s;
    s.lr = lr;
    opt.set_lr(lr);
    auto t0 = clock::now();
    pg::Tensor loss = batch_loss(gpt, batch);
    if (share.weight != 1) loss = loss * static_cast<float>(share.weight);
    s.loss = pretend_nan ? NAN : loss.item();
    // every process sees the one global loss, so a NaN anywhere stops them all at the same step
    if (share.sum_over_processes) s.loss = static_cast<float>(dist::sum(s.loss));
    s.forward_s = seconds_since(t0);
    if (!std::isfinite(s.loss)) {
        s.diverged = "the training loss is " + fmt("%g", s.loss);
        return s;
    }
    auto t1 = clock::now();
    opt.zero_grad();
    loss.backward();
    if (share.sum_over_processes) {
        auto t_sum = clock::now();
        sum_gradients_over_processes(opt.params());
        s.allreduce_s = seconds_since(t_sum);
    }
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
std::string unsaveable(pg::nn::GPT& gpt, const std::vector<Poem>& val_poems) {
    pg::NoGradGuard no_grad;
    bool was_training = gpt.is_training();
    gpt.eval();
    float probe = batch_loss(gpt, validation_batch(val_poems, 0, std::min<size_t>(16, val_poems.size()))).item();
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
    std::string bad = unsaveable(*run.model.gpt, run.val_poems);
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

// Data-parallel runs: ends the whole run when no step has finished for `timeout` seconds (a rank
// that hangs, or one whose peers wait for it forever), instead of a silent deadlock. It exits
// without MPI calls (MPI is not made for other threads here); mpirun then stops the other ranks.
class StepWatchdog {
public:
    StepWatchdog(double timeout_s, std::string checkpoint) : timeout_s_(timeout_s), checkpoint_(std::move(checkpoint)) {
        thread_ = std::thread([this] { watch(); });
    }
    ~StepWatchdog() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            done_ = true;
        }
        wake_.notify_all();
        thread_.join();
    }
    void beat() {
        std::lock_guard<std::mutex> lock(mutex_);
        last_ = clock::now();
    }

private:
    void watch() {
        std::unique_lock<std::mutex> lock(mutex_);
        while (!done_) {
            wake_.wait_for(lock, std::chrono::seconds(1));
            if (!done_ && std::chrono::duration<double>(clock::now() - last_).count() > timeout_s_) {
                std::fprintf(stderr,
                             "poet train: rank %d: no step finished for %.0f s: another rank died or hangs "
                             "(--step-timeout S allows longer). Stopping the run; the last checkpoint is kept: %s\n",
                             dist::world().rank, timeout_s_, checkpoint_.c_str());
                std::fflush(stderr);
                std::_Exit(3);
            }
        }
    }
    double timeout_s_;
    std::string checkpoint_;
    clock::time_point last_ = clock::now();
    bool done_ = false;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::thread thread_;
};

// A hash of every parameter's bits: the same on every rank while they train in step.
uint64_t parameters_hash(pg::nn::GPT& gpt) {
    uint64_t h = 1469598103934665603ull;   // FNV-1a
    for (const pg::Tensor& p : gpt.parameters()) {
        const unsigned char* bytes = reinterpret_cast<const unsigned char*>(p.ptr());
        for (size_t i = 0; i < p.numel() * sizeof(float); ++i) h = (h ^ bytes[i]) * 1099511628211ull;
    }
    return h;
}

constexpr size_t kHashEvery = 10;   // data-parallel: compare the ranks' parameters every this many steps

}  // namespace

TrainResult train(TrainConfig cfg, const TrainOptions& opt) {
    TrainResult result;
    result.checkpoint = opt.out_dir + "/model.ckpt";
    const std::string metrics_path = opt.out_dir + "/metrics.csv", svg_path = opt.out_dir + "/loss.svg";
    const dist::World world = dist::world();   // rank 0 of 1 unless under mpirun --data-parallel
    const bool lead = world.rank == 0;          // the one process that prints and writes files
    auto say = [&](const std::string& s) {
        if (opt.show_progress && lead) std::fprintf(stderr, "%s\n", s.c_str());
    };

    Run run = restore(cfg, opt, result, metrics_path);
    if (opt.threads) pg::set_num_threads(opt.threads);
    std::filesystem::create_directories(opt.out_dir);
    const TrainConfig& c = run.cfg;
    result.step = run.start;
    result.val_loss = NAN;
    for (const MetricRow& r : run.history)
        if (!std::isnan(r.val_loss)) result.val_loss = r.val_loss;
    if (run.start >= c.steps) {
        say("train: " + result.checkpoint + " has already finished its " + std::to_string(c.steps) + " steps");
        return result;
    }

    if (run.cfg.batch % static_cast<size_t>(world.size) != 0)
        throw std::invalid_argument("train --data-parallel: --batch " + std::to_string(run.cfg.batch) +
                                    " does not split evenly over " + std::to_string(world.size) +
                                    " ranks; give a multiple of " + std::to_string(world.size));
    const size_t rows = run.cfg.batch / static_cast<size_t>(world.size);   // this rank's share of a batch
    if (world.size > 1 && world.rank > 0 && c.dropout > 0)   // each rank its own dropout masks
        *run.model.gen = pg::Generator(c.seed ^ (0xD1B54A32D192ED03ull * static_cast<uint64_t>(world.rank)));
    std::unique_ptr<StepWatchdog> watchdog;
    if (world.size > 1) watchdog = std::make_unique<StepWatchdog>(opt.step_timeout_s, result.checkpoint);

    say("poet: " + std::to_string(run.train_poems.size()) + " training poems (corpus '" + c.corpus + "'), " +
        std::to_string(run.val_poems.size()) + " validation, vocabulary " + std::to_string(run.tok.size()) + ", " +
        std::to_string(run.model.gpt->num_parameters()) + " parameters, " + std::to_string(pg::num_threads()) +
        " threads" + (world.size > 1 ? " in each of " + std::to_string(world.size) + " ranks (data-parallel)" : ""));
    say(opt.resume ? "poet: resuming " + result.checkpoint + " at step " + std::to_string(run.start)
                   : "poet: training " + std::to_string(c.steps) + " steps into " + opt.out_dir);

    std::unique_ptr<MetricsWriter> metrics;
    if (lead) metrics = std::make_unique<MetricsWriter>(metrics_path, run.history);
    std::unique_ptr<ProgressBar> bar;
    if (opt.show_progress && lead) bar = std::make_unique<ProgressBar>(c.steps, run.start);
    // rank 0 saves; every rank learns whether it could, so that all stop together when it could not
    auto save = [&](size_t step) {
        bool saved = lead ? save_checkpoint(run, step, result) : true;
        if (world.size > 1 && dist::sum(lead && !saved ? 1.0 : 0.0) > 0 && !lead) {
            saved = false;
            result.status = TrainStatus::Diverged;
            result.message = "rank 0 could not save the model (its message says why)";
        }
        return saved;
    };
    double elapsed_before = run.history.empty() ? 0.0 : run.history.back().elapsed_s;
    double step_s_total = 0, allreduce_s_total = 0;   // data-parallel: the allreduce's share of a step
    size_t steps_timed = 0;
    auto session_start = clock::now();
    run.model.gpt->train();

    for (size_t step = run.start; step < c.steps; ++step) {
        bool stop = opt.stop && opt.stop->load();
        if (world.size > 1) stop = dist::sum(stop ? 1.0 : 0.0) > 0;   // one rank stopped: all stop
        if (stop) {
            if (save(step)) {
                result.status = TrainStatus::Interrupted;
                result.message = "interrupted: saved " + result.checkpoint + " at step " + std::to_string(step) +
                                 "; continue with --resume";
            }
            break;
        }
        auto t0 = clock::now();
        float lr = pg::optim::warmup_cosine_lr(step, c.warmup, c.steps, c.lr, c.min_lr);
        Batch batch = sample_batch(run.train_poems, c.batch, run.data_gen);
        Share share;
        if (world.size > 1) {   // every rank drew the same global batch: it keeps its rows of it
            size_t counted = counted_targets(batch);
            batch = rows_of(batch, rows * static_cast<size_t>(world.rank), rows * static_cast<size_t>(world.rank + 1));
            share = {static_cast<double>(counted_targets(batch)) / static_cast<double>(counted), true};
        }
        StepStats s = train_step(*run.model.gpt, *run.optimizer, batch, lr, c.clip, c.inject_nan_at == step + 1, share);
        if (watchdog) watchdog->beat();
        step_s_total += seconds_since(t0);
        allreduce_s_total += s.allreduce_s;
        ++steps_timed;
        if (!s.diverged.empty()) {
            result.status = TrainStatus::Diverged;
            result.message = diverged_message(s, step + 1, result);
            break;
        }

        // record: the metrics row, validation at intervals, the checkpoint at intervals
        MetricRow row;
        row.step = step + 1;
        row.lr = s.lr;
        row.loss = s.loss;
        row.grad_norm = s.grad_norm;
        row.tokens_per_s = static_cast<double>(c.batch * kInputLength) / seconds_since(t0);
        if (lead && (row.step % c.eval_every == 0 || row.step == c.steps)) {
            result.val_loss = static_cast<float>(validation_loss(*run.model.gpt, run.val_poems, kValidationBatch).mean);
            row.val_loss = result.val_loss;
            if (bar) bar->note("step " + std::to_string(row.step) + ": val loss " + fmt("%.4f", result.val_loss) +
                               ", train loss " + fmt("%.4f", s.loss));
        }
        row.elapsed_s = elapsed_before + seconds_since(session_start);
        if (metrics) metrics->append(row);
        run.history.push_back(row);
        result.losses.push_back(s.loss);
        result.step = row.step;
        if (world.size > 1 && (row.step % kHashEvery == 0 || row.step == c.steps) &&
            !dist::same_everywhere(parameters_hash(*run.model.gpt)))
            dist::abort_all("the ranks' parameters differ after step " + std::to_string(row.step) +
                                " (they must stay bitwise identical); the last checkpoint is kept: " + result.checkpoint,
                            3);
        if ((row.step % c.save_every == 0 || row.step == c.steps) && !save(row.step)) break;
        if (bar) bar->update(row.step, s.loss, result.val_loss, row.tokens_per_s);
        if (opt.on_step) opt.on_step(row.step, s.loss);
    }
    if (bar) bar->finish();
    if (lead) write_loss_svg(svg_path, run.history, "poet: " + opt.out_dir);
    if (world.size > 1 && steps_timed > 0)
        say("poet: the gradient allreduce took " + fmt("%.1f", 1000 * allreduce_s_total / static_cast<double>(steps_timed)) +
            " ms a step, " + fmt("%.1f", 100 * allreduce_s_total / step_s_total) + "% of the steps' time on rank 0");
    if (result.status == TrainStatus::Finished)
        say("poet: done in " + format_duration(run.history.back().elapsed_s) + "; checkpoint " + result.checkpoint +
            ", metrics " + metrics_path + ", loss curve " + svg_path);
    return result;
}

}  // namespace poet
