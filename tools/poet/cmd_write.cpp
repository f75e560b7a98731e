// `./poet write 春`: quatrains for one character from a trained checkpoint. Poems go to stdout,
// one couplet per line; the seed and how the character got into each poem go to stderr.
// Leaves out: batch prompts (call it once per character, or see ./poet eval).
#include <cstdio>
#include "poet/commands.hpp"
#include "poet/model.hpp"
#include "poet/variants.hpp"
#include "poet/writer.hpp"

namespace poet {

// A poem as two couplets on two lines; anything not well formed is printed as it came.
static std::string show(const WrittenPoem& p) {
    return p.well_formed ? couplets(p.text) : p.text + "    (not a well-formed quatrain)";
}

int cmd_write(int argc, char** argv) {
    Args a(argc, argv, 2, "write", {"samples", "temperature", "top-k", "seed", "checkpoint", "threads"},
           {"acrostic", "free", "help"});
    if (a.on("help") || a.positional().empty()) {
        std::printf("usage: ./poet write CHAR [--acrostic] [--samples N (4)] [--temperature T (0.8)] [--top-k K (0: off)]\n"
                    "                  [--seed S (random)] [--checkpoint PATH (runs/poet/model.ckpt)] [--free] [--threads N]\n"
                    "Every poem contains CHAR: the model drafts a poem, then CHAR goes into the slot where the model\n"
                    "finds it most likely and the rest is rewritten around it. --acrostic puts CHAR first.\n"
                    "--free drops the format constraints (and the placement): the model alone decides.\n");
        return a.on("help") ? 0 : kExitError;
    }
    if (a.positional().size() > 1)
        throw std::invalid_argument("write: one character at a time, got " + std::to_string(a.positional().size()) +
                                    " arguments");
    apply_threads(a);
    WriteOptions opt;
    size_t samples = a.size("samples", 4);
    opt.sampling.temperature = a.number("temperature", 0.8f);
    opt.sampling.top_k = a.size("top-k", 0);
    opt.constrained = !a.on("free");
    opt.placement = a.on("acrostic") ? Placement::Acrostic : opt.constrained ? Placement::Model : Placement::Prefix;
    if (samples == 0) throw std::invalid_argument("write: --samples must be at least 1");
    if (opt.sampling.temperature < 0.f) throw std::invalid_argument("write: --temperature must be >= 0");
    uint64_t seed = seed_or_random(a);

    PoetModel model = load_model(a.str("checkpoint", default_checkpoint()));
    int k = prompt_char_id(a.positional()[0], model.tok);
    pg::Generator gen(seed);
    std::vector<WrittenPoem> poems = write_poems(*model.gpt, model.tok, std::vector<int>(samples, k), opt, gen);
    size_t drafted = 0, forced = 0;
    for (size_t i = 0; i < poems.size(); ++i) {
        std::printf("%s%s\n", i ? "\n" : "", show(poems[i]).c_str());
        drafted += poems[i].drafted_with_char;
        forced += poems[i].forced_slot >= 0;
    }
    std::fprintf(stderr, "[seed %llu", static_cast<unsigned long long>(seed));
    if (opt.placement == Placement::Model)
        std::fprintf(stderr, "; %s: the model's draft held it in %zu of %zu, placed by the model's own odds in %zu",
                     a.positional()[0].c_str(), drafted, poems.size(), forced);
    std::fprintf(stderr, "]\n");
    return 0;
}

}  // namespace poet
