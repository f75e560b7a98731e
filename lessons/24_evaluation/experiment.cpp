// Lesson 24 experiment: how the poet is judged. Masked cross-entropy by hand (and where the naive
// formula breaks), the small model's held-out loss and perplexity beside the bigram and uniform
// baselines, the loss by position (position_loss.svg), and the rates `./poet eval` reports on 40
// seeded prompts, with one poem read line by line. Leaves out: topicality and the corpus rows of
// `./poet eval` (run it for those).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>
#include "lesson.hpp"
#include "poet/bigram.hpp"
#include "poet/corpus.hpp"
#include "poet/eval.hpp"
#include "poet/form.hpp"
#include "poet/quatrain.hpp"
#include "poet/records.hpp"
#include "poet/rhyme.hpp"
#include "poet/utf8.hpp"
#include "poet/val_loss.hpp"
#include "poet/writer.hpp"
#include "small_poet.hpp"

namespace {

constexpr size_t kPrompts = 40;       // prompts for the sampling rates
constexpr uint64_t kPromptSeed = 24;  // draws them, then every poem

// One row of logits and its target: max, log-sum-exp and -log p(target), in double.
struct RowLoss {
    double max, lse, nll;
};
RowLoss row_loss(const std::vector<float>& z, int target) {
    double m = *std::max_element(z.begin(), z.end()), total = 0;
    for (float v : z) total += std::exp(v - m);
    double lse = m + std::log(total);
    return {m, lse, lse - z[static_cast<size_t>(target)]};
}

std::string fixed(double v, int decimals) { return lesson::num(v, decimals); }

// The 24 poem positions and EOS, as the table and the picture name them.
bool is_line_start(size_t p) { return p < poet::quatrain::kLength && p % 6 == 0; }
bool is_mark(size_t p) { return p < poet::quatrain::kLength && poet::quatrain::is_punctuation_position(p); }

// A bar per position: line starts red, other characters blue, marks and EOS grey; the bigram's
// loss at the same position as a black tick.
void write_position_svg(const std::string& path, const std::vector<double>& gpt, const std::vector<double>& bigram) {
    const double W = 820, H = 400, left = 60, top = 50, ph = 280, bw = 26, gap = 2, hi = 9;
    auto Y = [&](double y) { return fixed(top + ph * (1 - std::min(y, hi) / hi), 1); };
    std::ostringstream o;
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W << "\" height=\"" << H
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << W / 2 << "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">loss by position: "
      << "the small model (bars) and the bigram (ticks), nats</text>\n";
    for (int i = 0; i <= 3; ++i)
        o << "<line x1=\"" << left << "\" x2=\"" << W - 20 << "\" y1=\"" << Y(3.0 * i) << "\" y2=\"" << Y(3.0 * i)
          << "\" stroke=\"#ddd\"/><text x=\"" << left - 6 << "\" y=\"" << Y(3.0 * i) << "\" text-anchor=\"end\">"
          << fixed(3.0 * i, 1) << "</text>\n";
    for (size_t p = 0; p < gpt.size(); ++p) {
        double x = left + 10 + static_cast<double>(p) * (bw + gap);
        const char* color = is_line_start(p) ? "#d62728" : (is_mark(p) || p == 24) ? "#999999" : "#1f77b4";
        o << "<rect x=\"" << fixed(x, 1) << "\" y=\"" << Y(gpt[p]) << "\" width=\"" << bw << "\" height=\""
          << fixed(ph * std::min(gpt[p], hi) / hi, 1) << "\" fill=\"" << color << "\"/>\n"
          << "<line x1=\"" << fixed(x, 1) << "\" x2=\"" << fixed(x + bw, 1) << "\" y1=\"" << Y(bigram[p])
          << "\" y2=\"" << Y(bigram[p]) << "\" stroke=\"black\" stroke-width=\"2\"/>\n"
          << "<text x=\"" << fixed(x + bw / 2, 1) << "\" y=\"" << top + ph + 16 << "\" text-anchor=\"middle\">"
          << (p == 24 ? "EOS" : std::to_string(p)) << "</text>\n";
    }
    const char* legend[][2] = {{"#d62728", "first character of a line (0, 6, 12, 18)"},
                               {"#1f77b4", "the other characters"},
                               {"#999999", "，。 and EOS"}};
    for (int i = 0; i < 3; ++i)
        o << "<rect x=\"" << left + 10 + 250 * i << "\" y=\"" << top + ph + 34 << "\" width=\"12\" height=\"12\" fill=\""
          << legend[i][0] << "\"/><text x=\"" << left + 28 + 250 * i << "\" y=\"" << top + ph + 45 << "\">"
          << legend[i][1] << "</text>\n";
    o << "<text x=\"" << W / 2 << "\" y=\"" << H - 8 << "\" text-anchor=\"middle\">position in the poem</text>\n</svg>\n";
    std::ofstream out(path);
    out << o.str();
    if (!out) throw std::runtime_error("cannot write " + path);
}

// The mean of per_position over the positions `pick` selects.
template <class Pick>
double mean_where(const std::vector<double>& per_position, Pick pick) {
    double sum = 0;
    size_t n = 0;
    for (size_t p = 0; p < per_position.size(); ++p)
        if (pick(p)) sum += per_position[p], ++n;
    return sum / static_cast<double>(n);
}

std::string percent(double fraction) { return fixed(100 * fraction, 1) + "%"; }

// A quatrain's two couplets, "白日依山尽，黄河入海流。 欲穷千里目，更上一层楼。"
std::string poem_lines(const std::u32string& poem) {
    return poet::encode_utf8(poem.substr(0, 12)) + " " + poet::encode_utf8(poem.substr(12));
}

}  // namespace

static void run() {
    lesson::section("masked cross-entropy by hand: 4 rows, V = 3, row 2 ignored");
    pg::Tensor logits = lesson::from_rows({{2, 1, 0}, {0, 0, 0}, {5, 5, 5}, {1, 3, 2}});
    const std::vector<int> targets = {0, 2, poet::kIgnore, 1};
    lesson::show("logits", logits, 1);
    std::cout << "targets (4): 0 2 " << poet::kIgnore << " 1   (kIgnore = " << poet::kIgnore << ")\n";
    double sum = 0;
    size_t counted = 0;
    for (size_t r = 0; r < 4; ++r) {
        if (targets[r] == poet::kIgnore) {
            std::cout << "row " << r << ": target ignored, not counted\n";
            continue;
        }
        std::vector<float> z(logits.ptr() + 3 * r, logits.ptr() + 3 * r + 3);
        RowLoss l = row_loss(z, targets[r]);
        std::cout << "row " << r << ": max " << fixed(l.max, 1) << ", log-sum-exp " << fixed(l.lse, 4)
                  << ", -log p(target) = " << fixed(l.lse, 4) << " - " << fixed(z[targets[r]], 1) << " = "
                  << fixed(l.nll, 4) << "\n";
        sum += l.nll;
        ++counted;
    }
    double mean = sum / static_cast<double>(counted);
    std::cout << "sum " << fixed(sum, 4) << " over counted " << counted << " (not N = 4): mean " << fixed(mean, 4)
              << "\n";
    pg::Tensor target_tensor = pg::tensor({0.f, 2.f, static_cast<float>(poet::kIgnore), 1.f});
    lesson::confirm("the mean", mean, pg::cross_entropy(logits, target_tensor, poet::kIgnore).item(), 1e-6,
                    "pg::cross_entropy(logits, targets, kIgnore)");
    lesson::confirm("row 0", row_loss({2, 1, 0}, 0).nll, std::log(1 + std::exp(-1.0) + std::exp(-2.0)), 1e-12,
                    "ln(1 + e^-1 + e^-2)");

    lesson::section("where the naive formula breaks: logits 1000, 0, -1000");
    const std::vector<float> big = {1000, 0, -1000};
    float naive = std::log(std::exp(1000.f) / std::exp(1000.f));
    std::cout << "naive exp(1000) = " << std::exp(1000.f) << ", so log(exp(z_t) / sum) = log(inf / inf) = "
              << (std::isnan(naive) ? "nan" : fixed(naive, 4)) << "\n";
    std::cout << "stable, target 0: " << fixed(row_loss(big, 0).nll, 4) << "   (max 1000, every exp(z - max) <= 1)\n";
    std::cout << "softmax first, target 2: p = exp(-2000) = " << std::exp(-2000.f) << " in float, -log p = "
              << -std::log(std::exp(-2000.f)) << "\n";
    std::cout << "stable, target 2: " << fixed(row_loss(big, 2).nll, 4) << "   (log-sum-exp 1000, minus z = -1000)\n";
    lesson::confirm("-log p(target 2)", row_loss(big, 2).nll, 2000.0, 1e-9, "1000 - (-1000)");
    pg::Tensor all_ignored = pg::tensor({static_cast<float>(poet::kIgnore), static_cast<float>(poet::kIgnore)});
    try {
        pg::cross_entropy(lesson::from_rows({{1, 2, 3}, {3, 2, 1}}), all_ignored, poet::kIgnore);
    } catch (const std::invalid_argument& e) {
        std::cout << "every target ignored: pg::cross_entropy throws: " << e.what() << "\n";
    }

    const poet::TrainConfig cfg = small_poet::config();
    poet::PoetModel model = small_poet::model();
    pg::NoGradGuard no_grad;
    const poet::Tokenizer& tok = model.tok;
    const size_t V = tok.size();
    poet::Corpus corpus = poet::load_corpus(poet::default_data_dir(), cfg.corpus);
    std::vector<poet::Poem> val = poet::encode_poems(corpus.val, tok), train = poet::encode_poems(corpus.train, tok);

    lesson::section("the held-out set: poet::validation_loss on the small model (lesson 22's 200 steps)");
    std::cout << "validation poems " << val.size() << " (never trained on), one record each, k at slot (7 i) mod 20\n"
              << "counted predictions " << val.size() << " x " << poet::kLossTokens << " = "
              << val.size() * poet::kLossTokens << "\n";
    poet::ValLoss v = poet::validation_loss(*model.gpt, val, poet::kValidationBatch);
    // The same number from pg::cross_entropy, batch by batch: the weighted mean of the batch means.
    double weighted = 0;
    for (size_t begin = 0; begin < val.size(); begin += poet::kValidationBatch) {
        size_t end = std::min(val.size(), begin + poet::kValidationBatch);
        poet::Batch b = poet::validation_batch(val, begin, end);
        pg::Tensor l = model.gpt->forward(b.inputs);   // (B,T,V)
        pg::Tensor flat = pg::reshape(l, {(end - begin) * poet::kInputLength, V});   // (B*T,V)
        weighted += pg::cross_entropy(flat, b.targets, poet::kIgnore).item() * static_cast<double>(end - begin);
    }
    lesson::confirm("validation loss", v.mean, weighted / static_cast<double>(val.size()), 1e-5,
                    "pg::cross_entropy(logits, targets, kIgnore), batch by batch");
    // ./poet eval's baseline: the bigram counted on the model's own training poems, with its tokenizer.
    poet::ValLoss bigram = poet::bigram_validation_loss(poet::count_bigrams(train, V), val, poet::kBigramAlpha);
    // Lesson 19's: counted on the corpus "all" (quatrains and the halves of regulated verse).
    poet::Corpus all = poet::load_corpus(poet::default_data_dir(), "all");
    const poet::Tokenizer all_tok = poet::Tokenizer::build(all.train);
    poet::ValLoss bigram_all =
        poet::bigram_validation_loss(poet::count_bigrams(poet::encode_poems(all.train, all_tok), all_tok.size()),
                                     poet::encode_poems(corpus.val, all_tok), poet::kBigramAlpha);
    lesson::confirm("bigram on the corpus all", bigram_all.mean, 5.6207, 5e-5, "lesson 19's README");
    std::cout << "bigram counted on " << train.size() << " jueju training poems: " << fixed(bigram.mean, 4)
              << "; on all " << all.train.size() << " poems: " << fixed(bigram_all.mean, 4) << "\n";
    std::cout << "model            nats/char   bits/char   perplexity\n";
    auto row = [](const char* name, double nats) {
        std::printf("%-16s %9s %11s %12s\n", name, fixed(nats, 3).c_str(), fixed(nats / std::log(2.0), 3).c_str(),
                    fixed(std::exp(nats), 1).c_str());
    };
    row("uniform (ln V)", std::log(static_cast<double>(V)));
    row("bigram (jueju)", bigram.mean);
    row("bigram (all)", bigram_all.mean);
    row("small GPT", v.mean);
    std::cout << "V = " << V << ", ln V = " << fixed(std::log(static_cast<double>(V)), 4) << "; bigram "
              << fixed(bigram.mean, 4) << "; small GPT " << fixed(v.mean, 2) << ", perplexity "
              << fixed(std::exp(v.mean), 0) << "\n";

    lesson::section("loss by position: ValLoss::per_position (25 means over the 854 records)");
    std::cout << "         c1   c2   c3   c4   c5   mark\n";
    for (size_t line = 0; line < 4; ++line) {
        std::cout << "line " << line + 1 << ":";
        for (size_t c = 0; c < 6; ++c) std::cout << " " << fixed(v.per_position[line * 6 + c], 2);
        std::cout << "   bigram:";
        for (size_t c = 0; c < 6; ++c) std::cout << " " << fixed(bigram.per_position[line * 6 + c], 2);
        std::cout << "\n";
    }
    std::cout << "EOS:    " << fixed(v.per_position[24], 3) << "\n";
    double starts = mean_where(v.per_position, is_line_start),
           others = mean_where(v.per_position, [](size_t p) { return p < 24 && !is_line_start(p) && !is_mark(p); }),
           marks = mean_where(v.per_position, [](size_t p) { return is_mark(p) || p == 24; });
    std::cout << "small GPT: first character of a line " << fixed(starts, 2) << ", other characters "
              << fixed(others, 2) << ", marks and EOS " << fixed(marks, 3) << "\n";
    // A unigram (how often each character occurs, add-alpha as the bigram) at the 20 character slots:
    // what a model that knows the layout but no pairs of characters would score there.
    std::vector<double> freq(V, 0.0);
    for (const poet::Poem& p : train)
        for (size_t s = 0; s < poet::quatrain::kChars; ++s) freq[p[poet::quatrain::slot_position(s)]] += 1;
    const double slots = static_cast<double>(train.size() * poet::quatrain::kChars);
    double unigram = 0;
    for (const poet::Poem& p : val)
        for (size_t s = 0; s < poet::quatrain::kChars; ++s)
            unigram -= std::log((freq[p[poet::quatrain::slot_position(s)]] + poet::kBigramAlpha) /
                                (slots + poet::kBigramAlpha * static_cast<double>(V)));
    unigram /= static_cast<double>(val.size() * poet::quatrain::kChars);
    auto is_char = [](size_t p) { return p < 24 && !is_mark(p); };
    std::cout << "the 20 character slots: small GPT " << fixed(mean_where(v.per_position, is_char), 2) << ", bigram "
              << fixed(mean_where(bigram.per_position, is_char), 2) << "; the 4 marks and EOS: small GPT "
              << fixed(marks, 3) << ", bigram " << fixed(mean_where(bigram.per_position,
                                                                    [](size_t p) { return is_mark(p) || p == 24; }), 2)
              << "\n";
    std::cout << "unigram at the 20 character slots (no context at all): " << fixed(unigram, 2) << "\n";
    std::cout << "bigram:    first character of a line "
              << fixed(mean_where(bigram.per_position, is_line_start), 2) << ", other characters "
              << fixed(mean_where(bigram.per_position,
                                  [](size_t p) { return p < 24 && !is_line_start(p) && !is_mark(p); }),
                       2)
              << "\n";
    const std::string svg = std::string(POET_SOURCE_DIR) + "/lessons/24_evaluation/position_loss.svg";
    write_position_svg(svg, v.per_position, bigram.per_position);
    std::cout << "wrote lessons/24_evaluation/position_loss.svg (25 bars)\n";

    lesson::section("sampling: 40 prompts, the rates ./poet eval reports");
    pg::Generator gen(kPromptSeed);
    std::vector<int> prompts = poet::draw_prompts(tok, kPrompts, gen);
    std::cout << "prompts (draw_prompts, seed " << kPromptSeed << "): " << tok.decode(prompts) << "\n";
    const std::unordered_set<std::u32string> lines = poet::training_lines(corpus.train);
    std::cout << "training lines (distinct): " << lines.size() << "\n";
    struct Way {
        const char* name;
        poet::WriteOptions opt;
    };
    poet::WriteOptions free_opt, regulated;
    free_opt.constrained = false;
    free_opt.placement = poet::Placement::Prefix;
    regulated.form = poet::Form::Regulated;   // ./poet write's default
    std::vector<poet::WrittenPoem> shown;
    std::printf("%-22s %7s %9s %7s %7s %8s %8s\n", "", "formed", "has char", "rhyme", "tones", "regular", "copied");
    for (const Way& w : {Way{"free (no constraints)", free_opt}, Way{"格律 (./poet write)", regulated}}) {
        std::vector<poet::WrittenPoem> poems = poet::write_poems(*model.gpt, tok, prompts, w.opt, gen);
        poet::SampleStats s = poet::sample_stats(poems, tok, lines);
        poet::FormStats f = poet::form_stats(poet::prompted(prompts, poems, tok).poems, poet::pingshui());
        std::printf("%-22s %7s %9s %7s %7s %8s %8s\n", w.name, percent(s.well_formed).c_str(),
                    percent(s.contains_char).c_str(), percent(f.rhyme).c_str(), percent(f.tones).c_str(),
                    percent(f.regular).c_str(), percent(s.copied_lines).c_str());
        std::cout << "  (" << s.poems << " poems, " << f.poems << " well-formed: rhyme and tones are measured on these)\n";
        shown = poems;
    }
    poet::FormStats corpus_form = poet::form_stats(corpus.val, poet::pingshui());
    std::cout << "validation quatrains: rhyme " << percent(corpus_form.rhyme) << ", tones "
              << percent(corpus_form.tones) << ", regular " << percent(corpus_form.regular) << "\n";

    lesson::section("reading one poem: the first 格律 poem, prompt " + tok.token_str(prompts[0]));
    const std::u32string poem = poet::decode_utf8(shown[0].text);
    std::cout << tok.token_str(prompts[0]) << "  " << poem_lines(poem) << "\n";
    poet::form::Check c = poet::form::check(poem, poet::pingshui());
    const poet::form::Template& t = poet::form::templates()[static_cast<size_t>(c.template_index)];
    std::cout << "template " << t.name << ": " << t.pattern << "\n";
    for (size_t i = 0; i < 4; ++i) {
        std::u32string line = poet::quatrain::line(poem, i);
        std::cout << "  line " << i + 1 << " " << poet::encode_utf8(line) << "  tones ";
        for (char32_t ch : line) {
            poet::Tones tn = poet::pingshui().tones(ch);
            std::cout << (tn == poet::kBothTones ? "两" : tn == poet::kLevel ? "平" : tn == poet::kOblique ? "仄" : "?");
        }
        std::cout << (lines.count(line) ? "  copied from the training set" : "  new") << "\n";
    }
    std::cout << "rhyme " << (c.rhyme ? "yes" : "no") << ", tones " << (c.tones ? "yes" : "no") << ", regular "
              << (c.regular ? "yes" : "no");
    for (int g : c.rhyme_groups) std::cout << ", rhyme group " << poet::group_label(poet::pingshui().group(g));
    std::cout << "\nk placed by the writer: " << (shown[0].forced_slot < 0 ? "no, the model wrote it itself"
                                                                           : "yes, at slot " +
                                                                                 std::to_string(shown[0].forced_slot))
              << "\n";

    if (std::optional<poet::PoetModel> demo = small_poet::demo_model()) {
        lesson::section("extra: ./poet demo's model (runs/poet/model.ckpt), not quoted by the README");
        poet::ValLoss d = poet::validation_loss(*demo->gpt, poet::encode_poems(corpus.val, demo->tok),
                                                poet::kValidationBatch);
        std::cout << "demo model: step " << demo->step << ", validation loss " << fixed(d.mean, 3)
                  << ", perplexity " << fixed(std::exp(d.mean), 1) << "\n";
    }
}

int main() { return lesson::run_experiment(run); }
