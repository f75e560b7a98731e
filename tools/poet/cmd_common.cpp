// What the commands share: the TrainConfig flags (one table, so train, bench and demo agree), the
// exit code of a training run, and the runs/ layout.
// Leaves out: per-command flags (each command declares its own).
#include <cstdio>
#include "poet/commands.hpp"
#include "poet/corpus.hpp"
#include "poet/train.hpp"

namespace poet {

const std::set<std::string>& train_flags() {
    static const std::set<std::string> flags = {"layers", "heads", "width", "context", "dropout", "steps", "batch",
                                                "warmup", "lr", "min-lr", "weight-decay", "beta1", "beta2", "clip",
                                                "seed", "corpus", "eval-every", "save-every", "inject-nan-at"};
    return flags;
}

TrainConfig train_config_from(const Args& a) {
    TrainConfig c;
    c.n_layer = a.size("layers", c.n_layer);
    c.n_head = a.size("heads", c.n_head);
    c.n_embd = a.size("width", c.n_embd);
    c.context = a.size("context", c.context);
    c.dropout = a.number("dropout", c.dropout);
    c.steps = a.size("steps", c.steps);
    c.batch = a.size("batch", c.batch);
    c.warmup = a.has("warmup") ? a.size("warmup", 0) : default_warmup(c.steps);
    c.lr = a.number("lr", c.lr);
    c.min_lr = a.has("min-lr") ? a.number("min-lr", 0.f) : c.lr / 10;
    c.weight_decay = a.number("weight-decay", c.weight_decay);
    c.beta1 = a.number("beta1", c.beta1);
    c.beta2 = a.number("beta2", c.beta2);
    c.clip = a.number("clip", c.clip);
    c.seed = a.size("seed", c.seed);
    c.corpus = a.str("corpus", c.corpus);
    c.eval_every = a.size("eval-every", c.eval_every);
    c.save_every = a.size("save-every", c.save_every);
    c.inject_nan_at = a.size("inject-nan-at", c.inject_nan_at);
    validate(c);
    return c;
}

std::string train_flags_help() {
    TrainConfig d;
    char buf[2048];
    std::snprintf(buf, sizeof buf,
                  "model:     --layers N (%zu)  --heads N (%zu)  --width N (%zu)  --context N (%zu)  --dropout P (%g)\n"
                  "optimiser: --steps N (%zu)  --batch N (%zu)  --lr X (%g)  --min-lr X (lr/10)  --warmup N (%zu, at most steps/10)\n"
                  "           --weight-decay X (%g)  --beta1 X (%g)  --beta2 X (%g)  --clip X (%g)\n"
                  "data:      --corpus jueju|all (%s)  --seed N (%llu)\n"
                  "intervals: --eval-every N (%zu)  --save-every N (%zu)\n"
                  "testing:   --inject-nan-at STEP (pretend that step's loss is NaN)\n",
                  d.n_layer, d.n_head, d.n_embd, d.context, static_cast<double>(d.dropout), d.steps, d.batch,
                  static_cast<double>(d.lr), d.warmup, static_cast<double>(d.weight_decay),
                  static_cast<double>(d.beta1), static_cast<double>(d.beta2), static_cast<double>(d.clip),
                  d.corpus.c_str(), static_cast<unsigned long long>(d.seed), d.eval_every, d.save_every);
    return buf;
}

int training_exit_code(const TrainResult& r, const std::string& name, const std::string& resume_hint) {
    if (r.status == TrainStatus::Interrupted) {
        std::fprintf(stderr, "poet %s: %s%s\n", name.c_str(), r.message.c_str(), resume_hint.c_str());
        return kExitInterrupted;
    }
    if (r.status == TrainStatus::Diverged) {
        std::fprintf(stderr, "poet %s: error: %s\n", name.c_str(), r.message.c_str());
        return kExitDiverged;
    }
    return 0;
}

std::string run_dir(const std::string& name) { return std::string(POET_SOURCE_DIR) + "/runs/" + name; }

std::string default_checkpoint() { return run_dir("poet") + "/model.ckpt"; }

}  // namespace poet
