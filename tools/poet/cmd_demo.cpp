// `./poet demo`: reuse runs/poet/model.ckpt when it holds a finished run; resume it when it holds
// an interrupted one; else train the default model with the progress bar. Then write poems for a
// handful of characters. Exit codes as `./poet train`.
// Leaves out: choosing other settings (use ./poet train for that, then ./poet write).
#include <csignal>
#include <cstdio>
#include <fstream>
#include <random>
#include "pg/threads.hpp"
#include "poet/commands.hpp"
#include "poet/corpus.hpp"
#include "poet/model.hpp"
#include "poet/train.hpp"
#include "poet/utf8.hpp"
#include "poet/writer.hpp"

namespace poet {

namespace {

std::atomic<bool> g_demo_stop{false};

extern "C" void on_demo_sigint(int) {
    g_demo_stop.store(true);
    std::signal(SIGINT, SIG_DFL);
}

const char* const kDemoChars[] = {"春", "月", "山", "风", "花", "雪"};

}  // namespace

int cmd_demo(int argc, char** argv) {
    Args a(argc, argv, 2, "demo", {"threads", "samples", "seed", "steps"}, {"help"});
    if (a.on("help")) {
        std::printf("usage: ./poet demo [--threads N] [--samples N (2)] [--seed S (random)] [--steps N (%zu)]\n"
                    "Trains the default model into runs/poet/ unless a finished one is there, then writes poems.\n",
                    TrainConfig{}.steps);
        return 0;
    }
    if (a.has("threads")) pg::set_num_threads(a.size("threads", 0));
    std::string ckpt = default_checkpoint();
    if (is_finished_checkpoint(ckpt)) {
        std::fprintf(stderr, "poet demo: using the finished model at %s (delete runs/poet/ to train again)\n", ckpt.c_str());
    } else {
        TrainOptions opt;
        opt.out_dir = run_dir("poet");
        opt.data_dir = default_data_dir();
        opt.resume = static_cast<bool>(std::ifstream(ckpt));
        opt.stop = &g_demo_stop;
        if (opt.resume) std::fprintf(stderr, "poet demo: %s holds an unfinished run; resuming it\n", ckpt.c_str());
        std::signal(SIGINT, on_demo_sigint);
        TrainConfig cfg;
        if (a.has("steps")) {
            cfg.steps = a.size("steps", cfg.steps);
            cfg.warmup = default_warmup(cfg.steps);
        }
        TrainResult r = train(cfg, opt);
        std::signal(SIGINT, SIG_DFL);
        if (int code = training_exit_code(r, "demo", "; ./poet demo resumes it")) return code;
    }

    PoetModel model = load_model(ckpt);
    uint64_t seed = a.has("seed") ? a.size("seed", 0) : std::random_device{}();
    pg::Generator gen(seed);
    WriteOptions opt;
    size_t samples = a.size("samples", 2);
    std::printf("\n一字一诗 — one character, one poem (step %llu model, seed %llu)\n",
                static_cast<unsigned long long>(model.step), static_cast<unsigned long long>(seed));
    for (const char* c : kDemoChars) {
        std::u32string ch = decode_utf8(c);
        if (!model.tok.contains(ch[0])) continue;
        std::vector<WrittenPoem> poems =
            write_poems(*model.gpt, model.tok, std::vector<int>(samples, model.tok.id(ch[0])), opt, gen);
        for (const WrittenPoem& p : poems) {
            std::u32string t = decode_utf8(p.text);
            std::printf("\n  %s   %s\n      %s\n", c, encode_utf8(t.substr(0, 12)).c_str(), encode_utf8(t.substr(12)).c_str());
        }
    }
    std::printf("\nMore: ./poet write 月 --samples 4   ./poet write 山 --acrostic   ./poet eval\n");
    return 0;
}

}  // namespace poet
