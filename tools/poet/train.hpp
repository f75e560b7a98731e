// The training loop of `./poet train`: batches of records, AdamW with warmup+cosine, clipping,
// validation at intervals, metrics.csv, atomic checkpoints (at intervals, at the end, and when
// `stop` is raised, e.g. by Ctrl-C), exact resumption, and a clean stop on a NaN/inf loss.
// Under mpirun with --data-parallel, several processes share each batch (data_parallel.hpp).
// Leaves out: mixed precision, gradient accumulation.
#pragma once
#include <atomic>
#include <functional>
#include <string>
#include <vector>
#include "pg/nn/gpt.hpp"
#include "pg/optim/optim.hpp"
#include "poet/config.hpp"
#include "poet/data_parallel.hpp"
#include "poet/records.hpp"

namespace poet {

// ---- one step: what `./poet train`, `./poet bench`, the tests and lesson 22 all run ----

// The mean cross-entropy of the batch's counted targets (kIgnore skipped): the GPT's forward on
// inputs (B,T) gives logits as rows (B*T,V) (GPT::forward_rows) against targets (B*T).
pg::Tensor batch_loss(pg::nn::GPT& gpt, const Batch& batch);

struct StepStats {
    float lr = 0.f, loss = 0.f, grad_norm = 0.f;   // grad_norm: before clipping
    std::string diverged;   // empty: the weights were updated; else why not ("the training loss is nan")
    double forward_s = 0, backward_s = 0, update_s = 0;   // forward+loss, backward, clip+step
    double allreduce_s = 0;   // data-parallel: summing the gradients (inside backward_s)
};


// One training step: set the learning rate, loss = batch_loss, and unless it is NaN or infinite:
// zero_grad, backward, clip_grad_norm(clip), and unless the norm is not finite, opt.step().
// pretend_nan treats the loss as NaN (a testing aid for the divergence path).
StepStats train_step(pg::nn::GPT& gpt, pg::optim::Optimizer& opt, const Batch& batch, float lr, float clip,
                     bool pretend_nan = false, const Share& share = {});

// ---- the whole run ----

struct TrainOptions {
    std::string out_dir;                  // runs/NAME: model.ckpt, metrics.csv, loss.svg
    std::string data_dir;                 // data/poems
    bool resume = false;                  // continue out_dir/model.ckpt with its own config
    size_t threads = 0;                   // 0: leave pg::num_threads() as it is
    const std::atomic<bool>* stop = nullptr;   // checked before each step; when set: save and return
    bool show_progress = true;            // progress bar and notes on stderr
    std::function<void(size_t step, float loss)> on_step;   // after each step (tests)
    double step_timeout_s = 600;          // data-parallel: a step that takes longer ends the run (a hung rank)
};

enum class TrainStatus { Finished, Interrupted, Diverged };

struct TrainResult {
    TrainStatus status = TrainStatus::Finished;
    size_t step = 0;                      // steps done when train() returned
    float val_loss = 0;                   // the last validation loss measured (NaN if none)
    std::vector<float> losses;            // training loss of each step run in this call
    std::string checkpoint;               // out_dir/model.ckpt
    size_t checkpoint_step = 0;           // the step the checkpoint on disk holds (0: none saved)
    std::string message;                  // for Interrupted and Diverged: what happened, what is kept
};

// Throws std::invalid_argument for a bad config, std::runtime_error / pg::CheckpointError for
// unreadable data or checkpoints (e.g. --resume without a checkpoint).
TrainResult train(TrainConfig cfg, const TrainOptions& opt);

}  // namespace poet
