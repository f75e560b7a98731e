// `./poet demo`: reuse runs/poet/model.ckpt when it holds a finished run; resume it when it holds
// an interrupted one; else train the default model with the progress bar. Then write poems for a
// handful of characters. Exit codes as `./poet train`.
// Leaves out: choosing other settings (use ./poet train for that, then ./poet write).
#include <cstdio>
#include <fstream>
#include "poet/commands.hpp"
#include "poet/corpus.hpp"
#include "poet/model.hpp"
#include "poet/train.hpp"
#include "poet/utf8.hpp"
#include "poet/writer.hpp"

namespace poet {

namespace {

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
    apply_threads(a);
    std::string ckpt = default_checkpoint();
    if (is_finished_checkpoint(ckpt)) {
        std::fprintf(stderr, "poet demo: using the finished model at %s (delete runs/poet/ to train again)\n", ckpt.c_str());
    } else {
        TrainOptions opt;
        opt.out_dir = run_dir("poet");
        opt.data_dir = default_data_dir();
        opt.resume = static_cast<bool>(std::ifstream(ckpt));
        StopOnCtrlC ctrl_c;
        opt.stop = ctrl_c.stop();
        if (opt.resume) std::fprintf(stderr, "poet demo: %s holds an unfinished run; resuming it\n", ckpt.c_str());
        TrainConfig cfg;
        if (a.has("steps")) {
            cfg.steps = a.size("steps", cfg.steps);
            cfg.warmup = default_warmup(cfg.steps);
        }
        TrainResult r = train(cfg, opt);
        if (int code = training_exit_code(r, "demo", "; ./poet demo resumes it")) return code;
    }

    PoetModel model = load_model(ckpt);
    if (!model.copy_token && uses_copy_token(TrainConfig{}))
        std::fprintf(stderr, "poet demo: this model was trained without the copy token, so it seldom writes its character "
                             "by itself; delete runs/poet/ to train one with it (docs/POET.md)\n");
    uint64_t seed = seed_or_random(a);
    pg::Generator gen(seed);
    std::vector<int> ks;
    for (const char* c : kDemoChars)
        if (model.tok.contains(decode_utf8(c)[0])) ks.push_back(model.tok.id(decode_utf8(c)[0]));
    TopicTable topics(load_corpus(default_data_dir(), train_config_from(model.metadata).corpus).train, model.tok, ks);
    WriteOptions opt;
    opt.copy_token = model.copy_token;
    opt.form = Form::Regulated;   // as ./poet write: 格律 and steering by default
    opt.steering = {&topics, kTopicWeight, kRepeatPenalty};
    size_t samples = a.size("samples", 2);
    std::printf("\n一字一诗 — one character, one poem (step %llu model, seed %llu)\n",
                static_cast<unsigned long long>(model.step), static_cast<unsigned long long>(seed));
    for (const char* c : kDemoChars) {
        std::u32string ch = decode_utf8(c);
        if (!model.tok.contains(ch[0])) continue;
        std::vector<WrittenPoem> poems =
            write_poems(*model.gpt, model.tok, std::vector<int>(samples, model.tok.id(ch[0])), opt, gen);
        for (const WrittenPoem& p : poems) std::printf("\n  %s   %s\n", c, couplets(p.text, "      ").c_str());
    }
    std::printf("\nMore: ./poet write 月 --samples 4   ./poet write 山 --acrostic   ./poet eval\n");
    return 0;
}

}  // namespace poet
