// `./poet write 春`: quatrains for one character from a trained checkpoint, in 格律 by default
// (--form loose: the shape only; --free: no constraints), steered toward the character and away
// from repeats (steer.hpp; --topic, --repeat). Poems go to stdout, one couplet per line,
// with --explain the template, rhyme group and tone of every character under each (form::explain);
// the seed and how the character got into each poem go to stderr.
// Leaves out: batch prompts (call it once per character, or see ./poet eval).
#include <cstdio>
#include "poet/commands.hpp"
#include "poet/corpus.hpp"
#include "poet/form.hpp"
#include "poet/model.hpp"
#include "poet/utf8.hpp"
#include "poet/variants.hpp"
#include "poet/writer.hpp"

namespace poet {

// A poem as two couplets on two lines; anything not well formed is printed as it came.
static std::string show(const WrittenPoem& p) {
    return p.well_formed ? couplets(p.text) : p.text + "    (not a well-formed quatrain)";
}

static const char* kExplainLegend =
    "[explain: the tone of each character (平 level, 仄 oblique, 兼 both readings, ？ not in the 平水韵 table),\n"
    " then the template (中 either: positions 1 and 3 are free, 一三五不论); 韵 marks a rhyme slot]\n";

int cmd_write(int argc, char** argv) {
    Args a(argc, argv, 2, "write", {"samples", "temperature", "top-k", "seed", "checkpoint", "threads", "form", "topic", "repeat"},
           {"acrostic", "free", "explain", "help"});
    if (a.on("help") || a.positional().empty()) {
        std::printf("usage: ./poet write CHAR [--acrostic] [--form regulated|loose] [--explain] [--samples N (4)]\n"
                    "                  [--temperature T (0.8)] [--top-k K (0: off)] [--seed S (random)]\n"
                    "                  [--checkpoint PATH (runs/poet/model.ckpt)] [--free] [--threads N]\n"
                    "Every poem contains CHAR: the model drafts a poem, then CHAR goes into the slot where the model\n"
                    "finds it most likely and the rest is rewritten around it. --acrostic puts CHAR first.\n"
                    "--form regulated (the default): 格律, the tones of one of the four 五言绝句 templates\n"
                    "and a rhyme in one level group of the 平水韵 on lines 2 and 4; --form loose: the shape only.\n"
                    "--explain prints the template, the rhyme group and each character's tone under every poem.\n"
                    "--free drops all constraints (and the placement and steering): the model alone decides.\n"
                    "%s", kSteeringHelp);
        return a.on("help") ? 0 : kExitError;
    }
    if (a.positional().size() > 1)
        throw std::invalid_argument("write: one character at a time, got " + std::to_string(a.positional().size()) +
                                    " arguments");
    std::string form = a.str("form", "regulated");
    if (form != "regulated" && form != "loose")
        throw std::invalid_argument("write: --form must be regulated or loose, got \"" + form + "\"");
    if (a.on("free") && a.has("form")) throw std::invalid_argument("write: --free has no form; drop --form or --free");
    apply_threads(a);
    WriteOptions opt;
    size_t samples = a.size("samples", 4);
    opt.sampling.temperature = a.number("temperature", 0.8f);
    opt.sampling.top_k = a.size("top-k", 0);
    opt.constrained = !a.on("free");
    opt.form = opt.constrained && form == "regulated" ? Form::Regulated : Form::Loose;
    opt.placement = a.on("acrostic") ? Placement::Acrostic : opt.constrained ? Placement::Model : Placement::Prefix;
    if (samples == 0 || samples > kMaxSamples)
        throw std::invalid_argument("write: --samples " + std::to_string(samples) + " must be between 1 and " +
                                    std::to_string(kMaxSamples));
    if (opt.sampling.temperature < 0.f) throw std::invalid_argument("write: --temperature must be >= 0");
    uint64_t seed = seed_or_random(a);
    const Steering steering = steering_options(a);

    PoetModel model = load_model(a.str("checkpoint", default_checkpoint()));
    int k = prompt_char_id(a.positional()[0], model.tok);
    opt.copy_token = model.copy_token;
    // the steering's counts: the training poems of the corpus this checkpoint was trained on
    TopicTable topics(load_corpus(default_data_dir(), train_config_from(model.metadata).corpus).train, model.tok, {k});
    if (opt.constrained) {
        opt.steering = steering;
        opt.steering.topics = &topics;
    }
    pg::Generator gen(seed);
    std::vector<WrittenPoem> poems = write_poems(*model.gpt, model.tok, std::vector<int>(samples, k), opt, gen);
    size_t drafted = 0, forced = 0;
    for (size_t i = 0; i < poems.size(); ++i) {
        std::printf("%s%s\n", i ? "\n" : "", show(poems[i]).c_str());
        if (a.on("explain")) std::printf("%s", form::explain(decode_utf8(poems[i].text), pingshui()).c_str());
        drafted += poems[i].drafted_with_char;
        forced += poems[i].forced_slot >= 0;
    }
    if (a.on("explain")) std::printf("\n%s", kExplainLegend);
    std::fprintf(stderr, "[seed %llu", static_cast<unsigned long long>(seed));
    if (opt.placement == Placement::Model)
        std::fprintf(stderr, "; %s: the model's draft held it in %zu of %zu, placed by the model's own odds in %zu",
                     a.positional()[0].c_str(), drafted, poems.size(), forced);
    std::fprintf(stderr, "]\n");
    return 0;
}

}  // namespace poet
