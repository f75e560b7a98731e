// `./poet eval`: the checkpoint's validation loss (overall, beside the bigram baseline, and by
// position in the poem), then, over N prompts, the sampling rates of eval.hpp for three ways of
// writing: free (no constraints), constrained with the prefix alone, and the default writer
// (constrained + placement).
// Leaves out: comparing checkpoints (run it once per checkpoint).
#include <cmath>
#include <cstdio>
#include "poet/bigram.hpp"
#include "poet/commands.hpp"
#include "poet/config.hpp"
#include "poet/corpus.hpp"
#include "poet/eval.hpp"
#include "poet/model.hpp"
#include "poet/quatrain.hpp"
#include "poet/records.hpp"
#include "poet/utf8.hpp"
#include "poet/val_loss.hpp"
#include "poet/variants.hpp"

namespace poet {

static void print_rates(const char* name, const SampleStats& s) {
    std::printf("  %-34s %6.1f%% %9.1f%% %11.1f%% %11.1f%% %9.1f%%\n", name, 100 * s.well_formed, 100 * s.contains_char,
                100 * s.drafted_with_char, 100 * s.copied_lines, 100 * s.poems_with_copy);
}

int cmd_eval(int argc, char** argv) {
    Args a(argc, argv, 2, "eval", {"checkpoint", "samples", "temperature", "top-k", "seed", "data", "threads"},
           {"help", "no-samples"});
    if (a.on("help")) {
        std::printf("usage: ./poet eval [CHAR...] [--checkpoint PATH] [--samples N (200)] [--temperature T (0.8)]\n"
                    "                 [--top-k K (0)] [--seed S (1)] [--data DIR] [--threads N] [--no-samples]\n"
                    "Prompts are the given characters, else N drawn uniformly from the vocabulary.\n");
        return 0;
    }
    apply_threads(a);
    std::string path = a.str("checkpoint", default_checkpoint());
    PoetModel model = load_model(path);
    TrainConfig cfg = train_config_from(model.metadata);
    Corpus corpus = load_corpus(a.str("data", default_data_dir()), cfg.corpus);
    std::printf("checkpoint %s: step %llu, corpus '%s', vocabulary %zu\n", path.c_str(),
                static_cast<unsigned long long>(model.step), cfg.corpus.c_str(), model.tok.size());

    ValLoss v = validation_loss(*model.gpt, encode_poems(corpus.val, model.tok), kValidationBatch);
    std::printf("\nvalidation loss %.4f nats per character (%.3f bits, perplexity %.1f) over %zu poems x 25 predictions\n",
                v.mean, v.mean / std::log(2.0), std::exp(v.mean), v.records);
    ValLoss baseline = bigram_validation_loss(count_bigrams(encode_poems(corpus.train, model.tok), model.tok.size()),
                                              encode_poems(corpus.val, model.tok), kBigramAlpha);
    std::printf("bigram baseline (lesson 19, alpha %g): %.4f nats per character (perplexity %.1f)\n",
                static_cast<double>(kBigramAlpha), baseline.mean, std::exp(baseline.mean));
    std::printf("by position (loss of each character of the poem, given the ones before it):\n");
    for (size_t line = 0; line < quatrain::kLines; ++line) {
        std::printf("  line %zu:", line + 1);
        for (size_t c = 0; c <= quatrain::kLineChars; ++c)
            std::printf(" %6.3f", v.per_position[line * (quatrain::kLineChars + 1) + c]);
        std::printf("   (last: %s)\n", line % 2 ? "。" : "，");
    }
    std::printf("  EOS:    %6.3f\n", v.per_position.back());
    if (a.on("no-samples")) return 0;

    pg::Generator gen(a.size("seed", 1));
    std::vector<int> prompts;
    for (const std::string& c : a.positional()) prompts.push_back(prompt_char_id(c, model.tok));
    size_t n = a.size("samples", 200);
    if (prompts.empty()) {
        prompts = draw_prompts(model.tok, n, gen);
    } else {   // the given characters in turn, n poems in all
        std::vector<int> given = prompts;
        prompts.clear();
        for (size_t i = 0; i < n; ++i) prompts.push_back(given[i % given.size()]);
    }
    WriteOptions opt;
    opt.sampling.temperature = a.number("temperature", 0.8f);
    opt.sampling.top_k = a.size("top-k", 0);
    auto lines = training_lines(corpus.train);
    std::printf("\nsampling: %zu prompts, temperature %g, top-k %zu\n", prompts.size(),
                static_cast<double>(opt.sampling.temperature), opt.sampling.top_k);
    std::printf("  %-34s %7s %10s %12s %12s %10s\n", "", "formed", "has char", "model alone", "lines copied",
                "any copy");
    opt.constrained = false;
    opt.placement = Placement::Prefix;
    print_rates("free (no constraints)", sample_stats(write_poems(*model.gpt, model.tok, prompts, opt, gen), model.tok, lines));
    opt.constrained = true;
    print_rates("constrained, prefix only", sample_stats(write_poems(*model.gpt, model.tok, prompts, opt, gen), model.tok, lines));
    opt.placement = Placement::Model;
    std::vector<WrittenPoem> written = write_poems(*model.gpt, model.tok, prompts, opt, gen);
    print_rates("constrained + placement (write)", sample_stats(written, model.tok, lines));
    std::printf("\n  formed: well-formed quatrains; has char: the poem holds its prompt character; model alone: it did\n"
                "  so before any placement; lines copied: share of lines found verbatim in the training set;\n"
                "  any copy: poems with at least one such line.\n");
    std::printf("\nexamples (write):\n");
    for (size_t i = 0; i < std::min<size_t>(5, written.size()); ++i)
        std::printf("  %s  %s\n", model.tok.token_str(prompts[i]).c_str(), written[i].text.c_str());
    return 0;
}

}  // namespace poet
