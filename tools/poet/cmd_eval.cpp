// `./poet eval`: the checkpoint's validation loss (overall, beside the bigram baseline, and by
// position in the poem), then, over N prompts, the sampling rates of eval.hpp for the ways of
// writing: free (no constraints), constrained with the prefix alone, --form loose (constrained +
// placement), 格律 and 格律 --acrostic, each unsteered and steered (steer.hpp; the steered 格律 is
// the default writer); then their form, the model's mean
// log-probability per character and topicality, each beside the corpus's own.
// Leaves out: comparing checkpoints (run it once per checkpoint).
#include <cmath>
#include <cstdio>
#include "pg/threads.hpp"
#include "poet/bigram.hpp"
#include "poet/commands.hpp"
#include "poet/config.hpp"
#include "poet/corpus.hpp"
#include "poet/eval.hpp"
#include "poet/form.hpp"
#include "poet/model.hpp"
#include "poet/quatrain.hpp"
#include "poet/records.hpp"
#include "poet/steer.hpp"
#include "poet/utf8.hpp"
#include "poet/val_loss.hpp"
#include "poet/variants.hpp"

namespace poet {

// `name` padded with spaces to `width` columns, a Chinese character taking two.
static std::string padded(const std::string& name, size_t width) {
    size_t columns = 0;
    for (char32_t c : decode_utf8(name)) columns += is_han(c) ? 2 : 1;
    return name + std::string(columns < width ? width - columns : 0, ' ');
}

static void print_rates(const char* name, const SampleStats& s) {
    std::printf("  %s %6.1f%% %9.1f%% %11.1f%% %11.1f%% %9.1f%%\n", padded(name, 34).c_str(), 100 * s.well_formed,
                100 * s.contains_char, 100 * s.drafted_with_char, 100 * s.copied_lines, 100 * s.poems_with_copy);
}

// The ways of writing eval compares, in the order it runs them (one generator for all). The first
// five are the writer before steering and draw what they drew then, seed for seed; the
// steered ones follow, with --topic and --repeat.
struct Way {
    const char* name;
    bool constrained;
    Placement placement;
    Form form;
    bool steered;
};
enum WayIndex { kFree, kPrefixOnly, kLoose, kRegulated, kRegulatedAcrostic, kSteeredLoose, kSteered, kSteeredAcrostic };
static const Way kWays[] = {{"free (no constraints)", false, Placement::Prefix, Form::Loose, false},
                            {"constrained, prefix only", true, Placement::Prefix, Form::Loose, false},
                            {"--form loose, unsteered", true, Placement::Model, Form::Loose, false},
                            {"格律, unsteered", true, Placement::Model, Form::Regulated, false},
                            {"格律 --acrostic, unsteered", true, Placement::Acrostic, Form::Regulated, false},
                            {"--form loose (steered)", true, Placement::Model, Form::Loose, true},
                            {"格律 (write, the default)", true, Placement::Model, Form::Regulated, true},
                            {"格律 --acrostic", true, Placement::Acrostic, Form::Regulated, true}};

static std::string fixed3(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

static void print_judgement_row(const std::string& name, const FormStats& f, const std::string& log_p,
                                const std::string& topic) {
    std::printf("  %s %6.1f%% %7.1f%% %8.1f%% %8.1f%% %11s %11s\n", padded(name, 34).c_str(), 100 * f.rhyme,
                100 * f.tones, 100 * f.regular, 100 * f.repeated_char, log_p.c_str(), topic.c_str());
}

static std::string shares(const FormStats& f) {
    std::string out;
    for (size_t t = 0; t < f.template_share.size(); ++t) {
        char share[32];
        std::snprintf(share, sizeof share, " %.1f%%", 100 * f.template_share[t]);
        out += (t ? ", " : "") + form::templates()[t].name + share;
    }
    return out;
}

struct CorpusBaseline {
    FormStats all;           // every training poem
    double val_log_p = 0;    // the validation quatrains, k at their validation slot
    size_t val_skipped = 0;  // validation quatrains with a character outside the vocabulary
    double ceiling = 0;      // topicality of a real poem holding each prompt
};

// The corpus rows of the second table: the baseline of every measure, and topicality's ceiling.
static CorpusBaseline print_corpus_rows(PoetModel& model, const Corpus& corpus, const std::string& data_dir,
                                        const Cooccurrence& co, const std::vector<char32_t>& prompts,
                                        pg::Generator& gen) {
    const RhymeTable& table = pingshui();
    CorpusBaseline base;
    print_judgement_row("corpus: training quatrains", form_stats(load_corpus(data_dir, "jueju").train, table), "", "");
    base.all = form_stats(corpus.train, table);
    print_judgement_row("corpus: all " + std::to_string(corpus.train.size()) + " training poems", base.all, "", "");
    Prompted val;
    for (size_t i = 0; i < corpus.val.size(); ++i) {
        val.ks.push_back(corpus.val[i][quatrain::slot_position(validation_slot(i))]);   // as the validation records
        val.poems.push_back(corpus.val[i]);
    }
    base.val_log_p = mean_log_prob(*model.gpt, model.tok, val, model.copy_token, &base.val_skipped);
    print_judgement_row("corpus: validation quatrains", form_stats(corpus.val, table), fixed3(base.val_log_p), "");
    Prompted real = real_poems_with(corpus.train, prompts, gen);
    base.ceiling = topicality(co, real, true).contrast();
    print_judgement_row("corpus: a real poem holding k", form_stats(real.poems, table), "", fixed3(base.ceiling));
    return base;
}

// The second table: 格律 by form.hpp's checker, repeated characters, the model's mean log-probability
// per character and topicality, for the corpus (the baseline and the ceiling) and for each way.
static void print_judgement(PoetModel& model, const Corpus& corpus, const std::string& data_dir,
                            const std::vector<char32_t>& prompts, const std::vector<Prompted>& written,
                            pg::Generator& gen) {
    const RhymeTable& table = pingshui();
    Cooccurrence co(corpus.train, prompts);
    std::printf("\nform (平水韵, data/rhyme/), repeated characters, the model's judgement and topicality:\n");
    std::printf("  %34s %7s %8s %9s %9s %11s %11s\n", "", "rhyme", "tones", "regular", "repeats", "log p/char",
                "topicality");
    CorpusBaseline base = print_corpus_rows(model, corpus, data_dir, co, prompts, gen);
    std::vector<double> log_p(written.size()), topic(written.size());
    for (size_t w = 0; w < written.size(); ++w) {
        log_p[w] = mean_log_prob(*model.gpt, model.tok, written[w], model.copy_token);
        topic[w] = topicality(co, written[w], false).contrast();
        print_judgement_row(kWays[w].name, form_stats(written[w].poems, table), fixed3(log_p[w]), fixed3(topic[w]));
    }
    std::printf("\n  rhyme: lines 2 and 4 end in two characters of one level (平声) group; tones: positions 2, 4 and\n"
                "  5 of every line fit one of the four templates (so 粘 and 对 hold); regular: tones and all rhyme\n"
                "  slots of one template (格律); repeats: a character occurs twice or more; log p/char: the model's\n"
                "  mean log-probability per character (temperature 1, whole vocabulary) given BOS k SEP, the\n"
                "  validation quatrains with k at their validation slot (%zu skipped: a character outside the\n"
                "  vocabulary); topicality: mean PPMI over the training poems between k and the poem's other\n"
                "  characters, for its own k minus for the other prompts' k (real poems: held out of the counts).\n",
                base.val_skipped);
    std::printf("\n  templates of the regular poems:\n    corpus (all): %s\n    格律:         %s\n",
                shares(base.all).c_str(), shares(form_stats(written[kSteered].poems, table)).c_str());
    auto share = [](double part, double whole) { return whole > 0 ? 100 * part / whole : 0.0; };
    std::printf("\n  the cost of 格律 in the model's judgement: %.3f nats per character below free sampling, which\n"
                "  sits %.3f above the validation quatrains (unsteered: %.3f); 格律 keeps %.0f%% of --form loose's\n"
                "  topicality (unsteered: %.0f%%); the default writer reaches %.0f%% of a real poem's topicality\n"
                "  (%.3f; unsteered: %.0f%%)\n",
                log_p[kFree] - log_p[kSteered], log_p[kFree] - base.val_log_p, log_p[kFree] - log_p[kRegulated],
                share(topic[kSteered], topic[kSteeredLoose]), share(topic[kRegulated], topic[kLoose]),
                share(topic[kSteered], base.ceiling), base.ceiling, share(topic[kRegulated], base.ceiling));
}

// The training poems at even (half 0) or odd (half 1) indices.
static std::vector<std::u32string> half_of(const std::vector<std::u32string>& poems, size_t half) {
    std::vector<std::u32string> out;
    for (size_t i = half; i < poems.size(); i += 2) out.push_back(poems[i]);
    return out;
}

// Steering is scored by the same counts it steers by; is it more than those counts? 格律 steered by
// the even-numbered training poems, topicality counted over the odd-numbered ones, beside the
// unsteered 格律 poems and real poems (drawn from the odd half) under the same counts.
static void print_held_out(PoetModel& model, const Corpus& corpus, const std::vector<int>& prompts,
                           const std::vector<char32_t>& prompt_chars, WriteOptions opt, const Prompted& unsteered,
                           pg::Generator& gen, pg::Generator& ceiling_gen) {
    TopicTable even(half_of(corpus.train, 0), model.tok, prompts);
    opt.steering.topics = &even;
    Prompted steered = prompted(prompts, write_poems(*model.gpt, model.tok, prompts, opt, gen), model.tok);
    std::vector<std::u32string> odd = half_of(corpus.train, 1);
    Cooccurrence co(odd, prompt_chars);
    double ceiling = topicality(co, real_poems_with(odd, prompt_chars, ceiling_gen), true).contrast();
    double own = topicality(co, steered, false).contrast();
    std::printf("\n  held out: 格律 steered by the even-numbered training poems, topicality counted over the odd ones:\n"
                "  %.3f (unsteered 格律 %.3f, real poems %.3f: %.0f%% of a real poem's)\n",
                own, topicality(co, unsteered, false).contrast(), ceiling, ceiling > 0 ? 100 * own / ceiling : 0.0);
}

int cmd_eval(int argc, char** argv) {
    Args a(argc, argv, 2, "eval",
           {"checkpoint", "samples", "temperature", "top-k", "seed", "data", "threads", "topic", "repeat"},
           {"help", "no-samples"});
    if (a.on("help")) {
        std::printf("usage: ./poet eval [CHAR...] [--checkpoint PATH] [--samples N (200)] [--temperature T (0.8)]\n"
                    "                 [--top-k K (0)] [--seed S (1)] [--data DIR] [--threads N] [--no-samples]\n"
                    "                 [--topic W] [--repeat P]\n"
                    "Prompts are the given characters, else N drawn uniformly from the vocabulary.\n"
                    "The steered ways use %s", kSteeringHelp);
        return 0;
    }
    apply_threads(a);
    Steering steering = steering_options(a);
    std::string path = a.str("checkpoint", default_checkpoint());
    PoetModel model = load_model(path);
    TrainConfig cfg = train_config_from(model.metadata);
    Corpus corpus = load_corpus(a.str("data", default_data_dir()), cfg.corpus);
    std::printf("checkpoint %s: step %llu, corpus '%s', vocabulary %zu, copy token %s\n", path.c_str(),
                static_cast<unsigned long long>(model.step), cfg.corpus.c_str(), model.tok.size(), cfg.copy_token.c_str());
    std::printf("kernels %s, %zu threads\n", pg::kernel_set().c_str(), pg::num_threads());

    ValLoss v = validation_loss(*model.gpt, encode_poems(corpus.val, model.tok), kValidationBatch, model.copy_token);
    if (!std::isfinite(v.mean))
        throw std::runtime_error(path + ": the validation loss is " + std::to_string(v.mean) +
                                 ": the model's weights do not give finite predictions");
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
    if (n == 0 || n > kMaxSamples)
        throw std::invalid_argument("eval: --samples " + std::to_string(n) + " must be between 1 and " +
                                    std::to_string(kMaxSamples) + " (or --no-samples for the loss alone)");
    if (prompts.empty()) {
        prompts = draw_prompts(model.tok, n, gen);
    } else {   // the given characters in turn, n poems in all
        std::vector<int> given = prompts;
        prompts.clear();
        for (size_t i = 0; i < n; ++i) prompts.push_back(given[i % given.size()]);
    }
    WriteOptions opt;
    opt.copy_token = model.copy_token;
    opt.sampling.temperature = a.number("temperature", 0.8f);
    opt.sampling.top_k = a.size("top-k", 0);
    auto lines = training_lines(corpus.train);
    std::printf("\nsampling: %zu prompts, temperature %g, top-k %zu\n", prompts.size(),
                static_cast<double>(opt.sampling.temperature), opt.sampling.top_k);
    std::printf("  %-34s %7s %10s %12s %12s %10s\n", "", "formed", "has char", "model alone", "lines copied",
                "any copy");
    TopicTable topics(corpus.train, model.tok, prompts);
    steering.topics = &topics;
    std::printf("steered ways: --topic %g --repeat %g\n", static_cast<double>(steering.topic_weight),
                static_cast<double>(steering.repeat_penalty));
    std::vector<Prompted> written;
    for (const Way& w : kWays) {
        opt.constrained = w.constrained;
        opt.placement = w.placement;
        opt.form = w.form;
        opt.steering = w.steered ? steering : Steering{};
        std::vector<WrittenPoem> poems = write_poems(*model.gpt, model.tok, prompts, opt, gen);
        print_rates(w.name, sample_stats(poems, model.tok, lines));
        written.push_back(prompted(prompts, poems, model.tok));
    }
    std::printf("\n  formed: well-formed quatrains; has char: the poem holds its prompt character; model alone: it did\n"
                "  so before any placement; lines copied: share of lines found verbatim in the training set;\n"
                "  any copy: poems with at least one such line.\n");
    std::vector<char32_t> prompt_chars;
    for (int k : prompts) prompt_chars.push_back(model.tok.char_of(k));
    pg::Generator ceiling_gen(a.size("seed", 1) ^ 0x5DEECE66Dull);   // the real poems drawn, whatever the ways drew
    print_judgement(model, corpus, a.str("data", default_data_dir()), prompt_chars, written, ceiling_gen);
    opt.constrained = true;
    opt.placement = Placement::Model;
    opt.form = Form::Regulated;
    opt.steering = steering;
    print_held_out(model, corpus, prompts, prompt_chars, opt, written[kRegulated], gen, ceiling_gen);
    std::printf("\nexamples (格律, the default writer, and unsteered):\n");
    const Prompted& steered = written[kSteered];
    const Prompted& unsteered = written[kRegulated];
    for (size_t i = 0; i < std::min<size_t>(5, steered.poems.size()); ++i)
        std::printf("  %s  %s\n", encode_utf8(steered.ks[i]).c_str(), encode_utf8(steered.poems[i]).c_str());
    for (size_t i = 0; i < std::min<size_t>(5, unsteered.poems.size()); ++i)
        std::printf("  %s  %s  (unsteered)\n", encode_utf8(unsteered.ks[i]).c_str(),
                    encode_utf8(unsteered.poems[i]).c_str());
    return 0;
}

}  // namespace poet
