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
#include "svg.hpp"

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
// loss at the same position as a black tick. Drawn through svg.hpp (one decimal a coordinate) from
// the losses rounded to the two decimals the experiment prints, so another CPU's last digits move
// nothing in the file.
void write_position_svg(const std::string& path, const std::vector<double>& gpt_loss,
                        const std::vector<double>& bigram_loss) {
    using lesson::tr;
    const double W = 820, H = 400, left = 60, top = 50, ph = 280, bw = 26, gap = 2, hi = 9;
    auto r2 = [](double v) { return std::round(v * 100) / 100; };
    auto Y = [&](double y) { return top + ph * (1 - std::min(y, hi) / hi); };
    std::string o = svg::header(W, H, 12);
    o += svg::text(W / 2, 22, 15,
                   tr("loss by position: the small model (bars) and the bigram (ticks), nats",
                      "按位置的损失：小模型（柱）和二元模型（短横），单位奈特"),
                   "middle");
    for (int i = 0; i <= 3; ++i) {
        o += svg::line(left, Y(3.0 * i), W - 20, Y(3.0 * i), "stroke=\"#ddd\"");
        o += svg::text(left - 6, Y(3.0 * i), 12, fixed(3.0 * i, 1), "end");
    }
    for (size_t p = 0; p < gpt_loss.size(); ++p) {
        const double x = left + 10 + static_cast<double>(p) * (bw + gap), g = r2(gpt_loss[p]), b = r2(bigram_loss[p]);
        const char* color = is_line_start(p) ? "#d62728" : (is_mark(p) || p == 24) ? "#999999" : "#1f77b4";
        o += svg::rect(x, Y(g), bw, ph * std::min(g, hi) / hi, std::string("fill=\"") + color + "\"");
        o += svg::line(x, Y(b), x + bw, Y(b), "stroke=\"black\" stroke-width=\"2\"");
        o += svg::text(x + bw / 2, top + ph + 16, 12, p == 24 ? "EOS" : std::to_string(p), "middle");
    }
    const std::string legend[][2] = {
        {"#d62728", tr("first character of a line (0, 6, 12, 18)", "每句的第一个字（0、6、12、18）")},
        {"#1f77b4", tr("the other characters", "其余的字")},
        {"#999999", tr("，。 and EOS", "，。和 EOS")}};
    for (int i = 0; i < 3; ++i) {
        o += svg::rect(left + 10 + 250 * i, top + ph + 34, 12, 12, "fill=\"" + legend[i][0] + "\"");
        o += svg::text(left + 28 + 250 * i, top + ph + 45, 12, legend[i][1]);
    }
    o += svg::text(W / 2, H - 8, 12, tr("position in the poem", "诗中的位置"), "middle");
    svg::write_file(path, o + svg::footer());
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
    using lesson::tr;
    lesson::section(tr("masked cross-entropy by hand: 4 rows, V = 3, row 2 ignored", "手算带掩码的交叉熵：4 行，V = 3，第 2 行被忽略"));
    pg::Tensor logits = lesson::from_rows({{2, 1, 0}, {0, 0, 0}, {5, 5, 5}, {1, 3, 2}});
    const std::vector<int> targets = {0, 2, poet::kIgnore, 1};
    lesson::show("logits", logits, 1);
    std::cout << tr("targets (4): 0 2 ", "目标 (4)：0 2 ") << poet::kIgnore << tr(" 1   (kIgnore = ", " 1   （kIgnore = ") << poet::kIgnore << tr(")\n", "）\n");
    double sum = 0;
    size_t counted = 0;
    for (size_t r = 0; r < 4; ++r) {
        if (targets[r] == poet::kIgnore) {
            std::cout << tr("row ", "第 ") << r << tr(": target ignored, not counted\n", " 行：目标被忽略，不计入\n");
            continue;
        }
        std::vector<float> z(logits.ptr() + 3 * r, logits.ptr() + 3 * r + 3);
        RowLoss l = row_loss(z, targets[r]);
        std::cout << tr("row ", "第 ") << r << tr(": max ", " 行：最大值 ") << fixed(l.max, 1) << tr(", log-sum-exp ", "，log-sum-exp ")
                  << fixed(l.lse, 4) << tr(", -log p(target) = ", "，-log p(目标) = ") << fixed(l.lse, 4) << " - " << fixed(z[targets[r]], 1) << " = "
                  << fixed(l.nll, 4) << "\n";
        sum += l.nll;
        ++counted;
    }
    double mean = sum / static_cast<double>(counted);
    std::cout << tr("sum ", "总和 ") << fixed(sum, 4) << tr(" over counted ", "，除以计入的 ") << counted
              << tr(" (not N = 4): mean ", "（不是 N = 4）：平均 ") << fixed(mean, 4) << "\n";
    pg::Tensor target_tensor = pg::tensor({0.f, 2.f, static_cast<float>(poet::kIgnore), 1.f});
    lesson::confirm(tr("the mean", "平均值"), mean, pg::cross_entropy(logits, target_tensor, poet::kIgnore).item(), 1e-6,
                    tr("pg::cross_entropy(logits, targets, kIgnore)", "pg::cross_entropy(logits, targets, kIgnore) 给出的值"));
    lesson::confirm(tr("row 0", "第 0 行"), row_loss({2, 1, 0}, 0).nll, std::log(1 + std::exp(-1.0) + std::exp(-2.0)), 1e-12,
                    "ln(1 + e^-1 + e^-2)");

    lesson::section(tr("where the naive formula breaks: logits 1000, 0, -1000", "朴素公式在哪里失效：logits 1000、0、-1000"));
    const std::vector<float> big = {1000, 0, -1000};
    float naive = std::log(std::exp(1000.f) / std::exp(1000.f));
    std::cout << tr("naive exp(1000) = ", "朴素地算 exp(1000) = ") << std::exp(1000.f) << tr(", so log(exp(z_t) / sum) = log(inf / inf) = ", "，于是 log(exp(z_t) / sum) = log(inf / inf) = ")
              << (std::isnan(naive) ? "nan" : fixed(naive, 4)) << "\n";
    std::cout << tr("stable, target 0: ", "稳定的算法，目标 0：") << fixed(row_loss(big, 0).nll, 4)
              << tr("   (max 1000, every exp(z - max) <= 1)\n", "   （最大值 1000，每个 exp(z - max) <= 1）\n");
    std::cout << tr("softmax first, target 2: p = exp(-2000) = ", "先算 softmax，目标 2：p = exp(-2000) = ") << std::exp(-2000.f)
              << tr(" in float, -log p = ", "（float），-log p = ")
              << -std::log(std::exp(-2000.f)) << "\n";
    std::cout << tr("stable, target 2: ", "稳定的算法，目标 2：") << fixed(row_loss(big, 2).nll, 4)
              << tr("   (log-sum-exp 1000, minus z = -1000)\n", "   （log-sum-exp 1000，减去 z = -1000）\n");
    lesson::confirm("-log p(target 2)", row_loss(big, 2).nll, 2000.0, 1e-9, "1000 - (-1000)");
    pg::Tensor all_ignored = pg::tensor({static_cast<float>(poet::kIgnore), static_cast<float>(poet::kIgnore)});
    try {
        pg::cross_entropy(lesson::from_rows({{1, 2, 3}, {3, 2, 1}}), all_ignored, poet::kIgnore);
    } catch (const std::invalid_argument& e) {
        std::cout << tr("every target ignored: pg::cross_entropy throws: ", "所有目标都被忽略：pg::cross_entropy 抛出异常：") << e.what() << "\n";
    }

    const poet::TrainConfig cfg = small_poet::config();
    poet::PoetModel model = small_poet::model();
    pg::NoGradGuard no_grad;
    const poet::Tokenizer& tok = model.tok;
    const size_t V = tok.size();
    poet::Corpus corpus = poet::load_corpus(poet::default_data_dir(), cfg.corpus);
    std::vector<poet::Poem> val = poet::encode_poems(corpus.val, tok), train = poet::encode_poems(corpus.train, tok);

    lesson::section(tr("the held-out set: poet::validation_loss on the small model (lesson 22's 200 steps)",
                       "留出集：小模型（第 22 课训练 200 步）上的 poet::validation_loss"));
    std::cout << tr("validation poems ", "验证诗 ") << val.size()
              << tr(" (never trained on), one record each, k at slot (7 i) mod 20\n", " 首（从没训练过），每首一条记录，k 在位置 (7 i) mod 20\n")
              << tr("counted predictions ", "计入的预测 ") << val.size() << " x " << poet::kLossTokens << " = "
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
    lesson::confirm(tr("validation loss", "验证损失"), v.mean, weighted / static_cast<double>(val.size()), 1e-5,
                    tr("pg::cross_entropy(logits, targets, kIgnore), batch by batch", "pg::cross_entropy(logits, targets, kIgnore)，逐批计算"));
    // ./poet eval's baseline: the bigram counted on the model's own training poems, with its tokenizer.
    poet::ValLoss bigram = poet::bigram_validation_loss(poet::count_bigrams(train, V), val, poet::kBigramAlpha);
    // Lesson 19's: counted on the corpus "all" (quatrains and the halves of regulated verse).
    poet::Corpus all = poet::load_corpus(poet::default_data_dir(), "all");
    const poet::Tokenizer all_tok = poet::Tokenizer::build(all.train);
    poet::ValLoss bigram_all =
        poet::bigram_validation_loss(poet::count_bigrams(poet::encode_poems(all.train, all_tok), all_tok.size()),
                                     poet::encode_poems(corpus.val, all_tok), poet::kBigramAlpha);
    lesson::confirm(tr("bigram on the corpus all", "语料 all 上的二元模型"), bigram_all.mean, 5.6207, 5e-5,
                    tr("lesson 19's README", "第 19 课的 README"));
    std::cout << tr("bigram counted on ", "在 ") << train.size() << tr(" jueju training poems: ", " 首 jueju 训练诗上统计的二元模型：")
              << fixed(bigram.mean, 4) << tr("; on all ", "；在 all 的 ") << all.train.size() << tr(" poems: ", " 首诗上：")
              << fixed(bigram_all.mean, 4) << "\n";
    std::cout << tr("model            nats/char   bits/char   perplexity\n", "模型              奈特/字     比特/字       困惑度\n");
    auto row = [](const std::string& name, double nats) {
        const std::string padded = lesson::pad(name, 16);   // a Chinese character takes two columns
        std::printf("%s %9s %11s %12s\n", padded.c_str(), fixed(nats, 3).c_str(), fixed(nats / std::log(2.0), 3).c_str(),
                    fixed(std::exp(nats), 1).c_str());
    };
    row(tr("uniform (ln V)", "均匀（ln V）"), std::log(static_cast<double>(V)));
    row(tr("bigram (jueju)", "二元（jueju）"), bigram.mean);
    row(tr("bigram (all)", "二元（all）"), bigram_all.mean);
    row(tr("small GPT", "小 GPT"), v.mean);
    std::cout << "V = " << V << ", ln V = " << fixed(std::log(static_cast<double>(V)), 4) << tr("; bigram ", "；二元模型 ")
              << fixed(bigram.mean, 4) << tr("; small GPT ", "；小 GPT ") << fixed(v.mean, 2) << tr(", perplexity ", "，困惑度 ")
              << fixed(std::exp(v.mean), 0) << "\n";

    lesson::section(tr("loss by position: ValLoss::per_position (25 means over the 854 records)", "按位置的损失：ValLoss::per_position（854 条记录上的 25 个平均值）"));
    std::cout << tr("         c1   c2   c3   c4   c5   mark\n", "         c1   c2   c3   c4   c5   标点\n");
    for (size_t line = 0; line < 4; ++line) {
        std::cout << tr("line ", "第 ") << line + 1 << tr(":", " 句：");
        const bool zh = lesson::chinese();   // "第 1 句：7.21 ...": no space after the full-width colon
        for (size_t c = 0; c < 6; ++c) std::cout << (c || !zh ? " " : "") << fixed(v.per_position[line * 6 + c], 2);
        std::cout << tr("   bigram:", "   二元：");
        for (size_t c = 0; c < 6; ++c) std::cout << (c || !zh ? " " : "") << fixed(bigram.per_position[line * 6 + c], 2);
        std::cout << "\n";
    }
    std::cout << "EOS:    " << fixed(v.per_position[24], 3) << "\n";
    double starts = mean_where(v.per_position, is_line_start),
           others = mean_where(v.per_position, [](size_t p) { return p < 24 && !is_line_start(p) && !is_mark(p); }),
           marks = mean_where(v.per_position, [](size_t p) { return is_mark(p) || p == 24; });
    std::cout << tr("small GPT: first character of a line ", "小 GPT：每句第一个字 ") << fixed(starts, 2)
              << tr(", other characters ", "，其余的字 ") << fixed(others, 2) << tr(", marks and EOS ", "，标点和 EOS ")
              << fixed(marks, 3) << "\n";
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
    std::cout << tr("the 20 character slots: small GPT ", "20 个字的位置：小 GPT ") << fixed(mean_where(v.per_position, is_char), 2)
              << tr(", bigram ", "，二元模型 ") << fixed(mean_where(bigram.per_position, is_char), 2)
              << tr("; the 4 marks and EOS: small GPT ", "；4 个标点和 EOS：小 GPT ") << fixed(marks, 3) << tr(", bigram ", "，二元模型 ") << fixed(mean_where(bigram.per_position,
                                                                    [](size_t p) { return is_mark(p) || p == 24; }), 2)
              << "\n";
    std::cout << tr("unigram at the 20 character slots (no context at all): ", "一元模型在 20 个字的位置上（完全不看上下文）：") << fixed(unigram, 2) << "\n";
    std::cout << tr("bigram:    first character of a line ", "二元模型：每句第一个字 ")
              << fixed(mean_where(bigram.per_position, is_line_start), 2) << tr(", other characters ", "，其余的字 ")
              << fixed(mean_where(bigram.per_position,
                                  [](size_t p) { return p < 24 && !is_line_start(p) && !is_mark(p); }),
                       2)
              << "\n";
    const std::string picture = lesson::chinese() ? "position_loss.zh.svg" : "position_loss.svg";
    const svg::Output picture_out = svg::in_lesson_folder(__FILE__, picture);
    write_position_svg(picture_out.path, v.per_position, bigram.per_position);
    svg::check_file(picture_out.path);
    std::cout << tr("wrote ", "写出了 ") << picture_out.shown << tr(" (25 bars)\n", "（25 根柱）\n");

    lesson::section(tr("sampling: 40 prompts, the rates ./poet eval reports", "抽样：40 个提示字，./poet eval 报告的比率"));
    pg::Generator gen(kPromptSeed);
    std::vector<int> prompts = poet::draw_prompts(tok, kPrompts, gen);
    std::cout << tr("prompts (draw_prompts, seed ", "提示字（draw_prompts，种子 ") << kPromptSeed << tr("): ", "）：") << tok.decode(prompts) << "\n";
    const std::unordered_set<std::u32string> lines = poet::training_lines(corpus.train);
    std::cout << tr("training lines (distinct): ", "训练集里的诗句（去重）：") << lines.size() << "\n";
    struct Way {
        std::string name;
        poet::WriteOptions opt;
    };
    poet::WriteOptions free_opt, regulated;
    free_opt.constrained = false;
    free_opt.placement = poet::Placement::Prefix;
    regulated.form = poet::Form::Regulated;   // ./poet write's default
    std::vector<poet::WrittenPoem> shown;
    const std::vector<size_t> widths = {22, 7, 9, 7, 7, 8, 8};
    auto table_row = [&](const std::vector<std::string>& cells) {
        std::string out;
        for (size_t i = 0; i < cells.size(); ++i)   // the first column left-aligned, the numbers right
            out += (i ? " " : "") + lesson::pad(cells[i], widths[i], i == 0 ? lesson::Align::left : lesson::Align::right);
        std::cout << out << "\n";
    };
    if (lesson::chinese()) table_row({"", "格式", "含提示字", "押韵", "平仄", "合律", "抄袭"});
    else table_row({"", "formed", "has char", "rhyme", "tones", "regular", "copied"});
    for (const Way& w : {Way{tr("free (no constraints)", "自由（不加约束）"), free_opt}, Way{tr("格律 (./poet write)", "格律（./poet write）"), regulated}}) {
        std::vector<poet::WrittenPoem> poems = poet::write_poems(*model.gpt, tok, prompts, w.opt, gen);
        poet::SampleStats s = poet::sample_stats(poems, tok, lines);
        poet::FormStats f = poet::form_stats(poet::prompted(prompts, poems, tok).poems, poet::pingshui());
        table_row({w.name, percent(s.well_formed), percent(s.contains_char), percent(f.rhyme), percent(f.tones),
                   percent(f.regular), percent(s.copied_lines)});
        std::cout << tr("  (", "  （") << s.poems << tr(" poems, ", " 首诗，") << f.poems
                  << tr(" well-formed: rhyme and tones are measured on these)\n", " 首格式完整：押韵和平仄在这些诗上量）\n");
        shown = poems;
    }
    poet::FormStats corpus_form = poet::form_stats(corpus.val, poet::pingshui());
    std::cout << tr("validation quatrains: rhyme ", "验证集的绝句：押韵 ") << percent(corpus_form.rhyme) << tr(", tones ", "，平仄 ")
              << percent(corpus_form.tones) << tr(", regular ", "，合律 ") << percent(corpus_form.regular) << "\n";

    lesson::section(tr("reading one poem: the first 格律 poem, prompt ", "读一首诗：第一首格律诗，提示字 ") + tok.token_str(prompts[0]));
    const std::u32string poem = poet::decode_utf8(shown[0].text);
    std::cout << tok.token_str(prompts[0]) << "  " << poem_lines(poem) << "\n";
    poet::form::Check c = poet::form::check(poem, poet::pingshui());
    const poet::form::Template& t = poet::form::templates()[static_cast<size_t>(c.template_index)];
    std::cout << tr("template ", "模板 ") << t.name << tr(": ", "：") << t.pattern << "\n";
    for (size_t i = 0; i < 4; ++i) {
        std::u32string line = poet::quatrain::line(poem, i);
        std::cout << tr("  line ", "  第 ") << i + 1 << tr(" ", " 句 ") << poet::encode_utf8(line) << tr("  tones ", "  平仄 ");
        for (char32_t ch : line) {
            poet::Tones tn = poet::pingshui().tones(ch);
            std::cout << (tn == poet::kBothTones ? "两" : tn == poet::kLevel ? "平" : tn == poet::kOblique ? "仄" : "?");
        }
        std::cout << (lines.count(line) ? tr("  copied from the training set", "  抄自训练集") : tr("  new", "  新句")) << "\n";
    }
    const std::string yes = tr("yes", "是"), no = tr("no", "否");
    std::cout << tr("rhyme ", "押韵 ") << (c.rhyme ? yes : no) << tr(", tones ", "，平仄 ") << (c.tones ? yes : no)
              << tr(", regular ", "，合律 ") << (c.regular ? yes : no);
    for (int g : c.rhyme_groups) std::cout << tr(", rhyme group ", "，韵部 ") << poet::group_label(poet::pingshui().group(g));
    std::cout << tr("\nk placed by the writer: ", "\nk 由写诗程序放入：")
              << (shown[0].forced_slot < 0 ? tr("no, the model wrote it itself", "否，是模型自己写出来的")
                                           : tr("yes, at slot ", "是，在位置 ") + std::to_string(shown[0].forced_slot))
              << "\n";

    if (std::optional<poet::PoetModel> demo = small_poet::demo_model()) {
        lesson::section(tr("extra: ./poet demo's model (runs/poet/model.ckpt), not quoted by the README", "附加：./poet demo 的模型（runs/poet/model.ckpt），README 不引用"));
        poet::ValLoss d = poet::validation_loss(*demo->gpt, poet::encode_poems(corpus.val, demo->tok),
                                                poet::kValidationBatch, demo->copy_token);
        std::cout << tr("demo model: step ", "demo 模型：第 ") << demo->step << tr(", validation loss ", " 步，验证损失 ") << fixed(d.mean, 3)
                  << tr(", perplexity ", "，困惑度 ") << fixed(std::exp(d.mean), 1) << "\n";
    }
}

int main() { return lesson::run_experiment(run); }
