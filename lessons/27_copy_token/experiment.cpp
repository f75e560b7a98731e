// Lesson 27 experiment: the copy token. How seldom each character is the prompt in a run, a record
// before and after its k is marked as COPY (poet::with_copy_token), two small poets trained the same
// way but for that (small_poet::model() and copy_model()), their honest validation losses, one row of
// the copy model folded by hand (poet::copy_folded_logit), the probability each gives k at every slot
// of one poem (copy_slots.svg), and what ./poet eval asks of the model alone: does a free poem hold
// its character, and is it about it (topicality; holds_k.svg). Leaves out: training anything but the
// two cached small models (the demo's model, when there is one, gets extra lines the README does not quote).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include "lesson.hpp"
#include "poet/copy_token.hpp"
#include "poet/corpus.hpp"
#include "poet/eval.hpp"
#include "poet/quatrain.hpp"
#include "poet/records.hpp"
#include "poet/utf8.hpp"
#include "poet/val_loss.hpp"
#include "poet/writer.hpp"
#include "small_poet.hpp"
#include "svg.hpp"

namespace {

using lesson::tr;
namespace q = poet::quatrain;

constexpr size_t kDrawn = 200;          // prompts drawn uniformly from the vocabulary, as ./poet eval draws them
constexpr uint64_t kPromptSeed = 27;    // draws them, then the poems
constexpr size_t kCommon = 100;         // the most frequent ideographs
constexpr uint64_t kCommonSeed = 127;   // the poems for them
constexpr size_t kSlot = 3;             // 山 in 白日依山尽: the slot k is taken from
const std::u32string kPoem = U"白日依山尽，黄河入海流。欲穷千里目，更上一层楼。";   // 登鹳雀楼

std::string fixed(double v, int decimals) { return lesson::num(v, decimals); }
std::string percent(double fraction) { return fixed(100 * fraction, 1) + "%"; }

// A row of ids as tokens, "<BOS> 山 <SEP> 白 日 ...", and as numbers.
std::string tokens(const poet::Tokenizer& tok, const std::vector<int>& ids) {
    std::string out;
    for (size_t i = 0; i < ids.size(); ++i) out += (i ? " " : "") + tok.token_str(ids[i]);
    return out;
}
std::string numbers(const std::vector<int>& ids) {
    std::string out;
    for (size_t i = 0; i < ids.size(); ++i) out += (i ? " " : "") + std::to_string(ids[i]);
    return out;
}

// log-sum-exp of a row of V logits, in double.
double log_sum_exp(const float* z, size_t V) {
    const double m = *std::max_element(z, z + V);
    double total = 0;
    for (size_t v = 0; v < V; ++v) total += std::exp(z[v] - m);
    return m + std::log(total);
}

// The probability the model gives k at each of the 20 slots of one record's poem, given the poem
// before the slot, from the record's (T,V) log-probabilities: p(k), and with the copy token
// p(k) + p(COPY), the model reading the poem's k as COPY.
std::vector<double> k_at_slots(const float* logp, size_t V, int k, bool copy_token) {
    std::vector<double> p;
    for (size_t s = 0; s < q::kChars; ++s) {
        const float* lp = logp + (q::slot_position(s) + poet::kPromptLength - 1) * V;   // predicts slot s
        p.push_back(std::exp(copy_token ? poet::copy_folded_logit(lp, k) : lp[k]));
    }
    return p;
}

// k_at_slots of one record, read by model m: one forward and the library's log_softmax.
std::vector<double> record_k_at_slots(poet::PoetModel& m, const std::vector<int>& record) {
    const std::vector<int> read = m.copy_token ? poet::with_copy_token(record) : record;
    const std::vector<float> in(read.begin(), read.begin() + static_cast<long>(poet::kInputLength));
    pg::Tensor logp = pg::log_softmax(m.gpt->forward(pg::tensor(in, {1, poet::kInputLength})), -1);   // (1,T,V)
    return k_at_slots(logp.ptr(), m.tok.size(), record[1], m.copy_token);
}

// The two models' probability of k at the 20 slots, paired bars under the poem's characters, the
// slot k stands in marked; drawn from the values rounded to the four decimals the experiment prints.
void write_slots_svg(const std::string& path, const std::u32string& poem, size_t k_slot,
                     const std::vector<double>& plain, const std::vector<double>& copy) {
    const double W = 760, H = 330, left = 56, top = 46, ph = 220, group = 34, bar = 14, hi = 0.12;
    auto r4 = [](double v) { return std::round(v * 1e4) / 1e4; };
    auto Y = [&](double p) { return top + ph * (1 - std::min(p, hi) / hi); };
    std::string o = svg::header(W, H, 12);
    o += svg::text(W / 2, 20, 14,
                   tr("the probability of 山 at each slot of 登鹳雀楼, given the poem before it",
                      "《登鹳雀楼》每个位置上“山”的概率（已知它前面的诗句）"),
                   "middle");
    for (int i = 0; i <= 4; ++i) {
        const double p = 0.03 * i;
        o += svg::line(left, Y(p), W - 16, Y(p), "stroke=\"#ddd\"");
        o += svg::text(left - 6, Y(p) + 4, 11, fixed(p, 2), "end");
    }
    const double kx = left + 8 + group * static_cast<double>(k_slot);
    o += svg::rect(kx - 3, top, group - 2, ph, "fill=\"#fdebd0\"");
    for (size_t s = 0; s < q::kChars; ++s) {
        const double x = left + 8 + group * static_cast<double>(s), a = r4(plain[s]), b = r4(copy[s]);
        o += svg::rect(x, Y(a), bar, top + ph - Y(a), "fill=\"#999999\"");
        o += svg::rect(x + bar, Y(b), bar, top + ph - Y(b), "fill=\"#c0392b\"");
        o += svg::text(x + bar, top + ph + 18, 14, poet::encode_utf8(poem[q::slot_position(s)]), "middle");
    }
    o += svg::text(kx + bar, top + ph + 34, 11, tr("k here", "k 在这里"), "middle");
    o += svg::rect(left + 8, H - 22, 12, 12, "fill=\"#999999\"");
    o += svg::text(left + 26, H - 12, 12, tr("plain model: p(山)", "普通模型：p(山)"));
    o += svg::rect(left + 268, H - 22, 12, 12, "fill=\"#c0392b\"");
    o += svg::text(left + 286, H - 12, 12, tr("copy-token model: p(山) + p(COPY)", "复制标记模型：p(山) + p(COPY)"));
    svg::write_file(path, o + svg::footer());
}

// The share of free poems holding their character, two prompt sets, the two models side by side.
void write_rates_svg(const std::string& path, const std::vector<std::string>& groups,
                     const std::vector<double>& plain, const std::vector<double>& copy) {
    const double W = 520, H = 300, left = 56, top = 44, ph = 190, group = 200, bar = 60;
    auto Y = [&](double f) { return top + ph * (1 - f); };
    auto r3 = [](double v) { return std::round(v * 1e3) / 1e3; };
    std::string o = svg::header(W, H, 12);
    o += svg::text(W / 2, 20, 14, tr("free poems that hold their character", "自由采样的诗里含有提示字的比例"), "middle");
    for (int i = 0; i <= 4; ++i) {
        o += svg::line(left, Y(0.25 * i), W - 16, Y(0.25 * i), "stroke=\"#ddd\"");
        o += svg::text(left - 6, Y(0.25 * i) + 4, 11, std::to_string(25 * i) + "%", "end");
    }
    for (size_t g = 0; g < groups.size(); ++g) {
        const double x = left + 30 + group * static_cast<double>(g), a = r3(plain[g]), b = r3(copy[g]);
        o += svg::rect(x, Y(a), bar, top + ph - Y(a), "fill=\"#999999\"");
        o += svg::text(x + bar / 2, Y(a) - 4, 12, percent(a), "middle");
        o += svg::rect(x + bar + 4, Y(b), bar, top + ph - Y(b), "fill=\"#c0392b\"");
        o += svg::text(x + bar * 1.5 + 4, Y(b) - 4, 12, percent(b), "middle");
        o += svg::text(x + bar + 2, top + ph + 18, 12, groups[g], "middle");
    }
    o += svg::rect(left + 30, H - 22, 12, 12, "fill=\"#999999\"");
    o += svg::text(left + 48, H - 12, 12, tr("plain model", "普通模型"));
    o += svg::rect(left + 230, H - 22, 12, 12, "fill=\"#c0392b\"");
    o += svg::text(left + 248, H - 12, 12, tr("copy-token model", "复制标记模型"));
    svg::write_file(path, o + svg::footer());
}

// Free sampling for `prompts` (no constraints, the prefix alone: the model alone) and what ./poet
// eval reads from it.
struct Alone {
    poet::SampleStats stats;
    poet::Topicality topic;
    size_t topic_poems = 0;   // the well-formed poems topicality reads
    double times_k = 0;       // how often k stands in a poem that holds it, on average
    std::vector<poet::WrittenPoem> poems;
};

Alone alone(poet::PoetModel& m, const std::vector<int>& prompts, const poet::Cooccurrence& co,
            const std::unordered_set<std::u32string>& lines, uint64_t seed) {
    poet::WriteOptions opt;
    opt.constrained = false;
    opt.placement = poet::Placement::Prefix;
    opt.copy_token = m.copy_token;
    pg::Generator gen(seed);
    Alone a;
    a.poems = poet::write_poems(*m.gpt, m.tok, prompts, opt, gen);
    a.stats = poet::sample_stats(a.poems, m.tok, lines);
    const poet::Prompted p = poet::prompted(prompts, a.poems, m.tok);
    a.topic = poet::topicality(co, p, false);
    a.topic_poems = p.poems.size();
    size_t holding = 0, times = 0;
    for (size_t i = 0; i < prompts.size(); ++i) {
        const size_t n = static_cast<size_t>(std::count(a.poems[i].ids.begin(), a.poems[i].ids.end(), prompts[i]));
        holding += n > 0, times += n;
    }
    a.times_k = holding ? static_cast<double>(times) / static_cast<double>(holding) : 0.0;
    return a;
}

// How often k stands in each poem of p (real poems holding it): the mean.
double mean_times(const poet::Prompted& p) {
    size_t times = 0;
    for (size_t i = 0; i < p.poems.size(); ++i)
        times += static_cast<size_t>(std::count(p.poems[i].begin(), p.poems[i].end(), p.ks[i]));
    return p.poems.empty() ? 0.0 : static_cast<double>(times) / static_cast<double>(p.poems.size());
}

// How many times each character stands in the training poems' slots: n(c), by id.
std::vector<double> slot_counts(const std::vector<poet::Poem>& poems, size_t V) {
    std::vector<double> n(V, 0.0);
    for (const poet::Poem& p : poems)
        for (size_t s = 0; s < q::kChars; ++s) n[static_cast<size_t>(p[q::slot_position(s)])] += 1;
    return n;
}

// Over a run of `records` records drawn as sample_batch draws them: how often each ideograph is
// expected to be the prompt (records * n(c) / (20 N)); returns the median over the vocabulary's
// ideographs and counts those below one time.
struct PromptCounts {
    double median = 0;
    size_t below_one = 0, ideographs = 0;
};
PromptCounts prompt_counts(const std::vector<double>& n, const poet::Tokenizer& tok, size_t poems, double records) {
    std::vector<double> expected;
    for (size_t id = 0; id < n.size(); ++id)
        if (tok.is_han(static_cast<int>(id)))
            expected.push_back(records * n[id] / (static_cast<double>(q::kChars) * static_cast<double>(poems)));
    std::sort(expected.begin(), expected.end());
    PromptCounts c;
    c.ideographs = expected.size();
    c.median = expected[expected.size() / 2];
    c.below_one = static_cast<size_t>(std::count_if(expected.begin(), expected.end(), [](double e) { return e < 1; }));
    return c;
}

}  // namespace

static void run() {
    const poet::TrainConfig cfg = small_poet::config();
    poet::PoetModel plain = small_poet::model();
    poet::PoetModel copy = small_poet::copy_model();
    pg::NoGradGuard no_grad;
    const poet::Tokenizer& tok = plain.tok;
    const size_t V = tok.size();
    const poet::Corpus corpus = poet::load_corpus(poet::default_data_dir(), cfg.corpus);
    const std::vector<poet::Poem> train = poet::encode_poems(corpus.train, tok), val = poet::encode_poems(corpus.val, tok);
    const int shan = tok.id(U'山');

    lesson::section(tr("step 1: how often is a character the prompt?", "第 1 步：一个字多久当一次提示字？"));
    const double records = static_cast<double>(cfg.steps * cfg.batch);
    std::cout << tr("the small run: ", "小模型的训练：") << cfg.steps << tr(" steps of ", " 步，每步 ") << cfg.batch
              << tr(" records = ", " 条记录 = ") << cfg.steps * cfg.batch << tr(" records, each k drawn from a slot of a poem among ",
                                                                                   " 条记录，每条的 k 取自 ")
              << train.size() << tr(" training poems\n", " 首训练诗中某一首的某个字位\n");
    const std::vector<double> n = slot_counts(train, V);
    std::cout << tr("expected records with k = c: ", "k = c 的记录条数的期望：") << cfg.steps * cfg.batch
              << " * n(c) / (20 * " << train.size() << tr("), n(c) the slots holding c\n", ")，n(c) 是放着 c 的字位数\n");
    for (char32_t c : {U'山', U'猎', U'骏'}) {
        const size_t id = static_cast<size_t>(tok.id(c));
        std::cout << "  " << poet::encode_utf8(c) << tr(": n = ", "：n = ") << n[id] << tr(", expected ", "，期望 ")
                  << fixed(records * n[id] / (20.0 * static_cast<double>(train.size())), 2) << tr(" records\n", " 条记录\n");
    }
    const PromptCounts small = prompt_counts(n, tok, train.size(), records);
    std::cout << tr("of the ", "词表里的 ") << small.ideographs << tr(" ideographs of the vocabulary, ", " 个汉字，")
              << small.below_one << tr(" (", " 个（") << percent(static_cast<double>(small.below_one) / small.ideographs)
              << tr(") are expected to be the prompt less than once; the median is ",
                    "）预计当提示字不到一次；中位数是 ")
              << fixed(small.median, 2) << tr(" records\n", " 条记录\n");
    double copies = 0;   // COPY targets per record: how often k stands in its poem, k drawn from a slot
    for (const poet::Poem& p : train)
        for (size_t s = 0; s < q::kChars; ++s) copies += static_cast<double>(std::count(p.begin(), p.end(), p[q::slot_position(s)]));
    copies /= static_cast<double>(train.size() * q::kChars);
    std::cout << tr("COPY is a target in every record: ", "COPY 在每条记录里都是目标：") << fixed(copies, 3)
              << tr(" times a record on average, ", " 次/条（平均），") << fixed(records * copies, 0)
              << tr(" times in the run\n", " 次（整个训练）\n");
    // ./poet train's defaults: 2000 steps of 64 records over the corpus "all", its own tokenizer.
    const poet::TrainConfig defaults;
    const poet::Corpus all = poet::load_corpus(poet::default_data_dir(), defaults.corpus);
    const poet::Tokenizer all_tok = poet::Tokenizer::build(all.train);
    const PromptCounts big = prompt_counts(slot_counts(poet::encode_poems(all.train, all_tok), all_tok.size()), all_tok,
                                           all.train.size(), static_cast<double>(defaults.steps * defaults.batch));
    std::cout << tr("./poet train's defaults (", "./poet train 的默认设置（") << defaults.steps << " x " << defaults.batch << " = "
              << defaults.steps * defaults.batch << tr(" records, corpus all, ", " 条记录，语料 all，") << big.ideographs
              << tr(" ideographs): median ", " 个汉字）：中位数 ") << fixed(big.median, 2) << tr(", less than once: ", "，不到一次的：")
              << big.below_one << tr(" (", " 个（") << percent(static_cast<double>(big.below_one) / big.ideographs) << tr(")\n", "）\n");

    lesson::section(tr("step 2: a record before and after marking (poet::with_copy_token)",
                       "第 2 步：标记前后的一条记录（poet::with_copy_token）"));
    const auto at = std::find(corpus.val.begin(), corpus.val.end(), kPoem);
    if (at == corpus.val.end()) throw std::runtime_error("登鹳雀楼 is not among the validation poems");
    const size_t poem_index = static_cast<size_t>(at - corpus.val.begin());
    const std::vector<int> record = poet::make_record(val[poem_index], kSlot);
    const std::vector<int> marked = poet::with_copy_token(record);
    std::cout << tr("登鹳雀楼 (validation poem ", "《登鹳雀楼》（验证诗第 ") << poem_index << tr("), k = 山 from slot ", " 首），k = 山，取自位置 ")
              << kSlot << "\n";
    std::cout << tr("record (28):  ", "记录 (28)：   ") << tokens(tok, record) << "\n";
    std::cout << tr("marked (28):  ", "标记后 (28)：") << tokens(tok, marked) << "\n";
    std::cout << tr("ids before:   ", "标记前的编号：") << numbers(record) << "\n";
    std::cout << tr("ids after:    ", "标记后的编号：") << numbers(marked) << "\n";
    lesson::confirm(tr("position 6 (山 in the poem) is COPY, position 1 (the prompt) is still 山",
                       "位置 6（诗里的山）是 COPY，位置 1（提示字）仍是山"),
                    marked[6] == poet::Tokenizer::COPY && marked[1] == shan, 1, 0, "poet::with_copy_token");
    for (size_t i = 0; i < val.size(); ++i) {   // the first validation record whose k stands twice in its poem
        const std::vector<int> r = poet::make_record(val[i], poet::validation_slot(i));
        if (std::count(r.begin() + poet::kPromptLength, r.end(), r[1]) < 2) continue;
        std::cout << tr("k twice: validation poem ", "k 出现两次：验证诗第 ") << i << tr(", k = ", " 首，k = ") << tok.token_str(r[1])
                  << "\n  " << tokens(tok, r) << "\n  " << tokens(tok, poet::with_copy_token(r)) << "\n";
        break;
    }

    lesson::section(tr("step 3: two small poets, the same run but for the copy token",
                       "第 3 步：两个小诗人，除了复制标记，训练完全一样"));
    std::cout << tr("both: corpus ", "两者：语料 ") << cfg.corpus << tr(", ", "，") << cfg.n_layer << tr(" layers, width ", " 层，宽度 ")
              << cfg.n_embd << tr(", ", "，") << cfg.n_head << tr(" heads, ", " 个头，") << cfg.steps << tr(" steps of ", " 步，每步 ") << cfg.batch
              << tr(" records, seed ", " 条记录，种子 ") << cfg.seed << tr("; copy token ", "；复制标记 ")
              << small_poet::config().copy_token << tr(" and ", " 和 ") << small_poet::copy_config().copy_token << "\n";
    const poet::ValLoss plain_loss = poet::validation_loss(*plain.gpt, val, poet::kValidationBatch);
    const poet::ValLoss copy_loss = poet::validation_loss(*copy.gpt, val, poet::kValidationBatch, true);
    // The same records, the same logits, each prediction split: targets that are k (COPY for the
    // copy model) and the others; and COPY alone for a target COPY (what the training loss counts).
    // The same pass also sums the probability of k at the 20 slots, before k first stands in the poem
    // and after (step 6 prints it).
    struct Split {
        double k = 0, others = 0, unfolded = 0, copy_mass = 0, k_before = 0, k_after = 0;
        size_t nk = 0, nothers = 0, n_before = 0, n_after = 0;
    };
    auto split = [&](poet::PoetModel& m) {
        Split s;
        for (size_t begin = 0; begin < val.size(); begin += poet::kValidationBatch) {
            const size_t end = std::min(val.size(), begin + poet::kValidationBatch);
            const poet::Batch b = poet::validation_batch(val, begin, end, m.copy_token);
            pg::Tensor logp = pg::log_softmax(m.gpt->forward(b.inputs), -1);   // (B,T,V) log-probabilities
            const float* x = b.inputs.ptr();
            const float* y = b.targets.ptr();
            for (size_t row = 0; row < (end - begin) * poet::kInputLength; ++row) {
                if (y[row] == static_cast<float>(poet::kIgnore)) continue;
                const float* lp = logp.ptr() + row * V;
                const int target = static_cast<int>(y[row]), k = static_cast<int>(x[row - row % poet::kInputLength + 1]);
                const bool is_k = m.copy_token ? target == poet::Tokenizer::COPY : target == k;
                const double nll = -(m.copy_token && is_k ? poet::copy_folded_logit(lp, k) : lp[target]);
                s.unfolded -= lp[target];
                if (is_k) s.k += nll, ++s.nk;
                else s.others += nll, ++s.nothers, s.copy_mass += std::exp(lp[poet::Tokenizer::COPY]);
            }
            for (size_t b = 0; b < end - begin; ++b) {   // k at each slot, given the poem before it
                const int k = static_cast<int>(x[b * poet::kInputLength + 1]);
                const std::vector<double> p = k_at_slots(logp.ptr() + b * poet::kInputLength * V, V, k, m.copy_token);
                bool seen = false;
                for (size_t slot = 0; slot < q::kChars; ++slot) {
                    if (seen) s.k_after += p[slot], ++s.n_after;
                    else s.k_before += p[slot], ++s.n_before;
                    seen = seen || val[begin + b][q::slot_position(slot)] == k;
                }
            }
        }
        return s;
    };
    const Split sp = split(plain), sc = split(copy);
    const double counted = static_cast<double>(sc.nk + sc.nothers);
    lesson::confirm(tr("the copy model's honest loss, summed here", "复制标记模型的诚实损失（这里逐项相加）"),
                    (sc.k + sc.others) / counted, copy_loss.mean, 1e-5,
                    tr("poet::validation_loss(..., copy_token = true)", "poet::validation_loss(..., copy_token = true) 给出的值"));
    std::cout << tr("validation loss (", "验证损失（") << val.size() << " x " << poet::kLossTokens << " = "
              << val.size() * poet::kLossTokens << tr(" predictions):\n", " 个预测）：\n");
    std::cout << tr("  plain model                      ", "  普通模型                         ") << fixed(plain_loss.mean, 4) << "\n";
    std::cout << tr("  copy model, -log(p(k) + p(COPY))  ", "  复制标记模型，-log(p(k) + p(COPY)) ") << fixed(copy_loss.mean, 4)
              << tr("   (the honest one)\n", "   （诚实的那个）\n");
    std::cout << tr("  copy model, -log p(COPY) alone    ", "  复制标记模型，只算 -log p(COPY)   ") << fixed(sc.unfolded / counted, 4)
              << tr("   (k's own probability left out)\n", "   （漏掉了 k 自己的概率）\n");
    std::cout << tr("the targets that are k (", "目标是 k 的预测（") << sc.nk << tr("): plain ", " 个）：普通模型 ") << fixed(sp.k / sp.nk, 3)
              << tr(", copy ", "，复制标记模型 ") << fixed(sc.k / sc.nk, 3) << "\n";
    std::cout << tr("the other targets (", "其余的目标（") << sc.nothers << tr("): plain ", " 个）：普通模型 ")
              << fixed(sp.others / sp.nothers, 3) << tr(", copy ", "，复制标记模型 ") << fixed(sc.others / sc.nothers, 3)
              << tr("; the copy model's mean p(COPY) there ", "；复制标记模型在那里的 p(COPY) 平均是 ")
              << fixed(sc.copy_mass / sc.nothers, 3) << "\n";
    std::cout << tr("gain at k: ", "在 k 上赚到的：") << fixed((sp.k - sc.k) / counted, 3) << tr(" nats a prediction; cost elsewhere: ", " 奈特/预测；在别处付出的：")
              << fixed((sc.others - sp.others) / counted, 3) << tr("; together ", "；合起来 ")
              << fixed(plain_loss.mean - copy_loss.mean, 3) << "\n";

    lesson::section(tr("step 4: one row by hand: the copy model before 山 in 白日依山尽",
                       "第 4 步：手算一行：复制标记模型在 白日依山尽 的“山”之前"));
    {
        const size_t row = q::slot_position(kSlot) + poet::kPromptLength - 1;   // input position 5 predicts slot 3
        std::cout << tr("input (the model reads): ", "输入（模型读到的）：")
                  << tokens(tok, std::vector<int>(marked.begin(), marked.begin() + static_cast<long>(row) + 1))
                  << tr("   target at position ", "   位置 ") << row << tr(": ", " 的目标：") << tok.token_str(marked[row + 1]) << "\n";
        const std::vector<float> in(marked.begin(), marked.begin() + static_cast<long>(poet::kInputLength));
        pg::Tensor logits = copy.gpt->forward(pg::tensor(in, {1, poet::kInputLength}));   // (1,T,V)
        const float* z = logits.ptr() + row * V;
        const double m = *std::max_element(z, z + V), lse = log_sum_exp(z, V);
        const double a = z[shan], b = z[poet::Tokenizer::COPY], mab = std::max(a, b);
        const double ea = std::exp(a - mab), eb = std::exp(b - mab), fold = mab + std::log(ea + eb);
        std::cout << tr("logits (V=", "logits（V=") << V << tr("): max ", "）：最大值 ") << fixed(m, 4) << tr(" (", "（")
                  << tok.token_str(static_cast<int>(std::max_element(z, z + V) - z)) << tr("), log-sum-exp ", "），log-sum-exp ")
                  << fixed(lse, 4) << "\n";
        std::cout << "a = z[山] = " << fixed(a, 4) << ", b = z[COPY] = " << fixed(b, 4) << ", m = max(a, b) = " << fixed(mab, 4) << "\n";
        std::cout << "e^(a - m) = " << fixed(ea, 4) << ", e^(b - m) = " << fixed(eb, 4) << ", log(e^a + e^b) = m + log("
                  << fixed(ea + eb, 4) << ") = " << fixed(fold, 4) << "\n";
        lesson::confirm("log(e^a + e^b)", fold, poet::copy_folded_logit(z, shan), 1e-9, "poet::copy_folded_logit");
        const double pk = std::exp(a - lse), pc = std::exp(b - lse);
        std::cout << "p(山) = e^(a - lse) = " << fixed(pk, 4) << ", p(COPY) = e^(b - lse) = " << fixed(pc, 4)
                  << tr(", folded: e^(", "，合并后：e^(") << fixed(fold, 4) << " - " << fixed(lse, 4) << ") = " << fixed(std::exp(fold - lse), 4)
                  << " = " << fixed(pk, 4) << " + " << fixed(pc, 4) << "\n";
        lesson::confirm(tr("p(k) + p(COPY)", "p(k) + p(COPY)"), std::exp(fold - lse), pk + pc, 1e-9, tr("the sum of the two", "两者之和"));
        std::cout << "-log(p(山) + p(COPY)) = " << fixed(lse - fold, 4) << tr("   (the honest loss of this target)\n", "   （这个目标的诚实损失）\n");
        std::cout << tr("the slips: -log p(COPY) alone ", "几种错法：只算 -log p(COPY) ") << fixed(lse - b, 4)
                  << tr(", -log p(山) alone ", "，只算 -log p(山) ") << fixed(lse - a, 4)
                  << tr(", -(log p(山) + log p(COPY)) ", "，-(log p(山) + log p(COPY)) ") << fixed(2 * lse - a - b, 4)
                  << tr(", max(a, b) for the log of the sum ", "，用 max(a, b) 代替和的 log ") << fixed(lse - mab, 4) << "\n";
        const std::vector<float> plain_in(record.begin(), record.begin() + static_cast<long>(poet::kInputLength));
        pg::Tensor plain_logits = plain.gpt->forward(pg::tensor(plain_in, {1, poet::kInputLength}));
        const float* zp = plain_logits.ptr() + row * V;
        std::cout << tr("the plain model, same row: p(山) = ", "普通模型，同一行：p(山) = ") << fixed(std::exp(zp[shan] - log_sum_exp(zp, V)), 4)
                  << ", -log p(山) = " << fixed(log_sum_exp(zp, V) - zp[shan], 4) << "\n";
    }

    lesson::section(tr("step 5: the exercise's table: four rows, V = 5, COPY = id 0", "第 5 步：练习里的表：四行，V = 5，COPY 是 id 0"));
    {
        const std::vector<std::vector<float>> rows = {{1, 0, -1, 2, 0}, {1, 0, -1, 2, 0}, {0, 0, 0, 0, 0}, {3, 2, 0, 0, 1}};
        const std::vector<int> targets = {poet::Tokenizer::COPY, 2, poet::kIgnore, poet::Tokenizer::COPY}, ks = {3, 3, 3, 4};
        double sum = 0;
        size_t counted_rows = 0;
        for (size_t r = 0; r < rows.size(); ++r) {
            std::string z;
            for (float v : rows[r]) z += (z.empty() ? "" : ", ") + fixed(v, 0);
            std::cout << tr("row ", "第 ") << r << tr(": logits [", " 行：logits [") << z << tr("], target ", "]，目标 ")
                      << (targets[r] == poet::Tokenizer::COPY ? "COPY" : std::to_string(targets[r])) << tr(", k = ", "，k = ") << ks[r];
            if (targets[r] == poet::kIgnore) {
                std::cout << tr(": ignored\n", "：忽略\n");
                continue;
            }
            const double lse = log_sum_exp(rows[r].data(), 5);
            const bool fold = targets[r] == poet::Tokenizer::COPY;
            const double score = fold ? poet::copy_folded_logit(rows[r].data(), ks[r]) : rows[r][static_cast<size_t>(targets[r])];
            std::cout << tr(": log-sum-exp ", "：log-sum-exp ") << fixed(lse, 4)
                      << (fold ? tr(", log(e^z[k] + e^z[COPY]) ", "，log(e^z[k] + e^z[COPY]) ") : tr(", z[target] ", "，z[目标] "))
                      << fixed(score, 4) << tr(", -log p = ", "，-log p = ") << fixed(lse - score, 4) << "\n";
            sum += lse - score;
            ++counted_rows;
        }
        std::cout << tr("mean over the ", "对计入的 ") << counted_rows << tr(" counted rows: ", " 行取平均：") << fixed(sum / counted_rows, 4)
                  << tr(" (divided by N = 4: ", "（除以 N = 4：") << fixed(sum / 4, 4) << tr(")\n", "）\n");
        const std::vector<float> big = {1000, 0, 1000, -1000};
        std::cout << tr("logits 1000, 0, 1000, -1000, target COPY, k = 2: -log(p(k) + p(COPY)) = ",
                        "logits 为 1000、0、1000、-1000，目标 COPY，k = 2：-log(p(k) + p(COPY)) = ")
                  << fixed(log_sum_exp(big.data(), 4) - poet::copy_folded_logit(big.data(), 2), 4)
                  << tr(" (the two hold all the mass)\n", "（两者占了全部概率）\n");
    }

    lesson::section(tr("step 6: the probability of 山 at each slot of 登鹳雀楼 (copy_slots.svg)",
                       "第 6 步：《登鹳雀楼》每个位置上“山”的概率（copy_slots.svg）"));
    const std::vector<double> plain_slots = record_k_at_slots(plain, record), copy_slots = record_k_at_slots(copy, record);
    for (int which = 0; which < 2; ++which) {
        const std::vector<double>& p = which ? copy_slots : plain_slots;
        for (size_t line = 0; line < q::kLines; ++line) {
            std::cout << (line ? "      " : which ? tr("copy  ", "复制  ") : tr("plain ", "普通  ")) << poet::encode_utf8(q::line(kPoem, line));
            for (size_t c = 0; c < q::kLineChars; ++c) std::cout << " " << fixed(p[line * q::kLineChars + c], 4);
            std::cout << "\n";
        }
    }
    // Over all 854 validation records (summed in step 3's pass): the mean probability of k at the
    // slots before k first stands in the poem, and at the slots after it: does the model know k has
    // been written?
    for (const Split* m : {&sp, &sc})
        std::cout << (m == &sc ? tr("copy model", "复制标记模型") : tr("plain model", "普通模型"))
                  << tr(", all validation records: mean probability of k before k is written (up to its slot) ",
                        "，全部验证记录：k 写出之前（到它的位置为止）k 的平均概率 ")
                  << fixed(m->k_before / m->n_before, 4) << tr(", after it ", "，之后 ") << fixed(m->k_after / m->n_after, 4) << "\n";
    const std::string slots_svg = lesson::chinese() ? "copy_slots.zh.svg" : "copy_slots.svg";
    const svg::Output slots_out = svg::in_lesson_folder(__FILE__, slots_svg);
    write_slots_svg(slots_out.path, kPoem, kSlot, plain_slots, copy_slots);
    svg::check_file(slots_out.path);
    std::cout << tr("wrote ", "写出了 ") << slots_out.shown
              << tr(" (bars from 0 to 0.12, a line every 0.03)\n", "（柱高从 0 到 0.12，每 0.03 一条线）\n");

    lesson::section(tr("step 7: the model alone: free sampling, as ./poet eval measures it",
                       "第 7 步：只靠模型：自由采样，按 ./poet eval 的量法"));
    pg::Generator prompt_gen(kPromptSeed);
    const std::vector<int> drawn = poet::draw_prompts(tok, kDrawn, prompt_gen);
    std::vector<int> common;
    for (size_t id = 0; id < V && common.size() < kCommon; ++id)
        if (tok.is_han(static_cast<int>(id))) common.push_back(static_cast<int>(id));
    std::cout << tr("prompts: ", "提示字：") << kDrawn << tr(" drawn from the vocabulary (draw_prompts, seed ", " 个从词表里抽出（draw_prompts，种子 ")
              << kPromptSeed << tr("), first 20: ", "），前 20 个：") << tok.decode(std::vector<int>(drawn.begin(), drawn.begin() + 20))
              << tr("; and the ", "；以及最常见的 ") << kCommon << tr(" most common ideographs: ", " 个汉字：")
              << tok.decode(std::vector<int>(common.begin(), common.begin() + 20)) << " ...\n";
    std::cout << tr("free sampling: no constraints, the prefix BOS k SEP alone, temperature 0.8\n",
                    "自由采样：不加约束，只给前缀 BOS k SEP，温度 0.8\n");
    const std::unordered_set<std::u32string> lines = poet::training_lines(corpus.train);
    struct Set {
        std::string name;
        const std::vector<int>* prompts;
        uint64_t seed;
    };
    std::vector<double> plain_rates, copy_rates;
    std::vector<std::string> group_names;
    std::vector<Alone> shown;
    for (const Set& set : {Set{tr("drawn", "抽出的"), &drawn, kPromptSeed}, Set{tr("common", "常见的"), &common, kCommonSeed}}) {
        std::vector<char32_t> chars;
        for (int k : *set.prompts) chars.push_back(tok.char_of(k));
        const poet::Cooccurrence co(corpus.train, chars);
        pg::Generator real_gen(set.seed ^ 0x5DEECE66Dull);
        const poet::Prompted real = poet::real_poems_with(corpus.train, chars, real_gen);
        const double ceiling = poet::topicality(co, real, true).contrast();
        std::cout << set.name << tr(" (", "（") << set.prompts->size() << tr(")", "）") << tr(": a real poem holding k: topicality ", "：含有 k 的真实诗：话题性 ")
                  << fixed(ceiling, 3) << tr(", k stands in it ", "，k 在诗里平均出现 ") << fixed(mean_times(real), 2) << tr(" times on average\n", " 次\n");
        for (poet::PoetModel* m : {&plain, &copy}) {
            const Alone a = alone(*m, *set.prompts, co, lines, set.seed);
            std::cout << "  " << lesson::pad(m->copy_token ? tr("copy model", "复制标记模型") : tr("plain model", "普通模型"), 12)
                      << tr(" holds k ", " 含 k ") << lesson::pad(percent(a.stats.contains_char), 6, lesson::Align::right)
                      << tr(", well-formed ", "，格式完整 ") << lesson::pad(percent(a.stats.well_formed), 6, lesson::Align::right)
                      << tr(", k written ", "，k 平均写 ") << fixed(a.times_k, 2) << tr(" times where it is", " 次（在含 k 的诗里）")
                      << tr(", topicality ", "，话题性 ") << fixed(a.topic.contrast(), 3) << tr(" (own ", "（自己的 ") << fixed(a.topic.own, 3)
                      << tr(", others' ", "，别人的 ") << fixed(a.topic.others, 3) << tr(", ", "，") << a.topic_poems
                      << tr(" well-formed poems)\n", " 首格式完整的诗）\n");
            (m->copy_token ? copy_rates : plain_rates).push_back(a.stats.contains_char);
            if (set.prompts == &drawn) shown.push_back(a);
        }
        group_names.push_back(lesson::chinese() ? set.name + " " + std::to_string(set.prompts->size()) + " 个提示字"
                                                : std::to_string(set.prompts->size()) + " " + set.name + " prompts");
    }
    std::cout << tr("the first four drawn prompts, free poems (plain, then copy):\n", "前四个抽出的提示字，自由采样的诗（先普通，后复制标记）：\n");
    for (size_t i = 0; i < 4; ++i)
        std::cout << "  " << tok.token_str(drawn[i]) << "  " << shown[0].poems[i].text << "\n     " << shown[1].poems[i].text << "\n";
    const std::string rates_svg = lesson::chinese() ? "holds_k.zh.svg" : "holds_k.svg";
    const svg::Output rates_out = svg::in_lesson_folder(__FILE__, rates_svg);
    write_rates_svg(rates_out.path, group_names, plain_rates, copy_rates);
    svg::check_file(rates_out.path);
    std::cout << tr("wrote ", "写出了 ") << rates_out.shown << "\n";

    if (std::optional<poet::PoetModel> demo = small_poet::demo_model()) {
        lesson::section(tr("extra: ./poet demo's model (runs/poet/model.ckpt), not quoted by the README",
                           "附加：./poet demo 的模型（runs/poet/model.ckpt），README 不引用"));
        const poet::Corpus demo_corpus = poet::load_corpus(poet::default_data_dir(), poet::train_config_from(demo->metadata).corpus);
        const poet::ValLoss d = poet::validation_loss(*demo->gpt, poet::encode_poems(demo_corpus.val, demo->tok),
                                                      poet::kValidationBatch, demo->copy_token);
        pg::Generator demo_gen(kPromptSeed);
        const std::vector<int> demo_prompts = poet::draw_prompts(demo->tok, kDrawn, demo_gen);
        poet::WriteOptions opt;
        opt.constrained = false;
        opt.placement = poet::Placement::Prefix;
        opt.copy_token = demo->copy_token;
        const poet::SampleStats s = poet::sample_stats(poet::write_poems(*demo->gpt, demo->tok, demo_prompts, opt, demo_gen),
                                                       demo->tok, poet::training_lines(demo_corpus.train));
        std::cout << tr("demo model: step ", "demo 模型：第 ") << demo->step << tr(", copy token ", " 步，复制标记 ")
                  << (demo->copy_token ? "on" : "off") << tr(", validation loss ", "，验证损失 ") << fixed(d.mean, 4)
                  << tr(", free poems holding k ", "，自由采样含 k 的诗 ") << percent(s.contains_char) << "\n";
    }
}

int main() { return lesson::run_experiment(run); }
