// `./poet bench`: times the default training step (a batch of records, then train_step: forward,
// backward, clipping, AdamW) after a few warm-up steps, and prints the vocabulary size, ms/step and tokens/s —
// the numbers bench/torch_gpt.py prints for the same model in PyTorch.
// Leaves out: timing sampling (tiny next to training) and the validation pass.
#include <chrono>
#include <cstdio>
#include <vector>
#include "pg/threads.hpp"
#include "poet/commands.hpp"
#include "poet/corpus.hpp"
#include "poet/model.hpp"
#include "poet/records.hpp"
#include "poet/train.hpp"

namespace poet {

int cmd_bench(int argc, char** argv) {
    std::set<std::string> valued = train_flags();
    valued.insert({"threads", "repeat", "warmup-steps", "data"});
    Args a(argc, argv, 2, "bench", valued, {"help"});
    if (a.on("help")) {
        std::printf("usage: ./poet bench [--repeat N (20)] [--warmup-steps N (3)] [--threads N] [model flags]\n%s",
                    train_flags_help().c_str());
        return 0;
    }
    TrainConfig cfg = train_config_from(a);
    apply_threads(a);
    size_t repeat = a.size("repeat", 20), warm = a.size("warmup-steps", 3);

    Corpus corpus = load_corpus(a.str("data", default_data_dir()), cfg.corpus);
    Tokenizer tok = Tokenizer::build(corpus.train);
    std::vector<Poem> poems = encode_poems(corpus.train, tok);
    PoetModel model = make_model(tok, gpt_config(cfg, tok.size()), cfg.seed);
    pg::optim::AdamW opt(model.gpt->parameters(), adamw_options(cfg));
    pg::Generator gen(cfg.seed);
    const size_t B = cfg.batch, T = kInputLength, V = tok.size();

    double forward_s = 0, backward_s = 0, update_s = 0;
    for (size_t i = 0; i < warm + repeat; ++i) {
        if (i == warm) forward_s = backward_s = update_s = 0;
        auto t0 = std::chrono::steady_clock::now();
        Batch batch = sample_batch(poems, cfg.batch, gen, uses_copy_token(cfg));
        double sample_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        StepStats s = train_step(*model.gpt, opt, batch, cfg.lr, cfg.clip);
        if (!s.diverged.empty()) throw std::runtime_error("bench: step " + std::to_string(i + 1) + ": " + s.diverged);
        forward_s += sample_s + s.forward_s;
        backward_s += s.backward_s;
        update_s += s.update_s;
    }
    double step_ms = 1000 * (forward_s + backward_s + update_s) / static_cast<double>(repeat);
    std::printf("poet bench: %zu layers, %zu heads, width %zu, batch %zu x %zu tokens, corpus '%s', %zu threads\n",
                cfg.n_layer, cfg.n_head, cfg.n_embd, B, T, cfg.corpus.c_str(), pg::num_threads());
    std::printf("kernels %s\n", pg::kernel_set().c_str());
    std::printf("vocab_size %zu\nparameters %zu\n", V, model.gpt->num_parameters());
    std::printf("ms_per_step %.1f   (forward+loss %.1f, backward %.1f, clip+AdamW %.1f; mean of %zu after %zu warm-up)\n",
                step_ms, 1000 * forward_s / static_cast<double>(repeat), 1000 * backward_s / static_cast<double>(repeat),
                1000 * update_s / static_cast<double>(repeat), repeat, warm);
    std::printf("tokens_per_s %.0f\n", static_cast<double>(B * T) / (step_ms / 1000));
    return 0;
}

}  // namespace poet
