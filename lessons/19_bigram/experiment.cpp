// Lesson 19 experiment: the bigram, P(next | previous) counted over the training poems with add-alpha
// smoothing, measured on exactly the validation predictions `./poet eval` scores (the baseline the GPT
// must beat), sampled as poems, and trained again as one Embedding with cross-entropy and SGD.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include "lesson.hpp"
#include "plot.hpp"
#include "poet/bigram.hpp"
#include "poet/commands.hpp"
#include "poet/corpus.hpp"
#include "poet/model.hpp"
#include "poet/writer.hpp"

using poet::Tokenizer;

// "春→风" for a pair of ids.
static std::string pair_str(const Tokenizer& tok, int prev, int next) {
    return tok.token_str(prev) + "→" + tok.token_str(next);
}

static void print_per_position(const poet::ValLoss& v) {
    for (size_t line = 0; line < 4; ++line) {
        std::printf("%s", lesson::tr("  line " + std::to_string(line + 1) + ":", "  第 " + std::to_string(line + 1) + " 句：").c_str());
        for (size_t c = 0; c < 6; ++c) std::printf(" %s", lesson::num(v.per_position[line * 6 + c], 2).c_str());
        std::printf("%s\n", lesson::tr(std::string("   (the last is the ") + (line % 2 ? "。" : "，") + ")",
                                         std::string("   （最后一个是 ") + (line % 2 ? "。" : "，") + "）").c_str());
    }
    std::printf(lesson::chinese() ? "  EOS：   %s\n" : "  EOS:    %s\n", lesson::num(v.per_position.back(), 2).c_str());
}

// The mean cross-entropy of a table of log-probabilities logp (V,V) over every counted pair of poems.
static double table_loss(const pg::Tensor& logp, const std::vector<poet::Poem>& poems) {
    const size_t V = logp.size(0);
    const float* l = logp.ptr();
    double sum = 0;
    size_t n = 0;
    for (const poet::Poem& p : poems)
        for (auto [prev, next] : poet::counted_pairs(poet::make_record(p, 0))) {
            sum -= l[static_cast<size_t>(prev) * V + static_cast<size_t>(next)];
            ++n;
        }
    return sum / static_cast<double>(n);
}

// What every step uses: the default corpus, its tokenizer, the poems as ids and the bigram's counts.
struct Data {
    poet::Corpus corpus = poet::load_corpus(poet::default_data_dir(), "all");
    Tokenizer tok = Tokenizer::build(corpus.train);   // as ./poet train builds it
    std::vector<poet::Poem> train = poet::encode_poems(corpus.train, tok);
    std::vector<poet::Poem> val = poet::encode_poems(corpus.val, tok);
    size_t V = tok.size();
    poet::BigramCounts counts = poet::count_bigrams(train, V);
};

static const double alpha = poet::kBigramAlpha;

static void counting(const Data& d) {
    const Tokenizer& tok = d.tok;
    const std::vector<poet::Poem>& train = d.train;
    const std::vector<poet::Poem>& val = d.val;
    const poet::BigramCounts& counts = d.counts;
    const size_t V = d.V;
    lesson::section(lesson::tr("the predictions the loss counts: 25 per record", "损失计入的预测：每条记录 25 个"));
    std::cout << lesson::tr("corpus 'all': ", "语料 'all'：") << train.size() << lesson::tr(" training poems, ", " 首训练诗，")
              << val.size() << lesson::tr(" validation poems, vocabulary V = ", " 首验证诗，词表 V = ") << V << "\n";
    std::vector<int> record = poet::make_record(val[0], poet::validation_slot(0));
    std::cout << lesson::tr("validation record 0, k at slot ", "验证记录 0，k 取下标 ") << poet::validation_slot(0)
              << lesson::tr(": ", "：") << tok.decode(record) << "\n";
    std::vector<std::pair<int, int>> pairs0 = poet::counted_pairs(record);
    std::cout << lesson::tr("its " + std::to_string(pairs0.size()) + " counted pairs (previous→next):",
                            "它计入的 " + std::to_string(pairs0.size()) + " 个字对（前一个→下一个）：")
              << "\n ";
    for (auto [prev, next] : pairs0) std::cout << " " << pair_str(tok, prev, next);
    std::cout << "\n" << lesson::tr("not counted: ", "不计入：") << pair_str(tok, record[0], record[1]) << lesson::tr(" and ", " 和 ")
              << pair_str(tok, record[1], record[2])
              << lesson::tr(" (the targets k and SEP carry no loss)", "（目标 k 和 SEP 不计损失）") << "\n";

    lesson::section(lesson::tr("counting: every counted pair of every training poem", "计数：每首训练诗的每个计入字对"));
    std::cout << lesson::tr("pairs counted: ", "计入的字对：") << train.size() << lesson::tr(" poems x 25 = ", " 首诗 x 25 = ")
              << counts.total() << "\n";
    std::cout << lesson::tr("distinct pairs: ", "不同的字对：") << counts.distinct_pairs()
              << lesson::tr(" of V x V = ", " 种，整张表 V x V = ") << V * V << lesson::tr(" cells (", " 格（")
              << lesson::num(100.0 * static_cast<double>(counts.distinct_pairs()) / static_cast<double>(V * V), 2)
              << lesson::tr("%): the other cells are 0", "%）：其余的格子都是 0") << "\n";
    lesson::confirm("pairs counted", static_cast<double>(counts.total()), 25.0 * static_cast<double>(train.size()), 0,
                    lesson::tr("25 predictions per poem", "每首诗 25 个预测"));

    const int ming = tok.id(U'明');
    std::cout << lesson::tr("\nthe row of 明: row_total = ", "\n「明」这一行：row_total = ") << counts.row_total(ming)
              << lesson::tr(" pairs start with 明; alpha V = ", " 个字对以「明」开头；alpha V = ")
              << lesson::num(alpha * static_cast<double>(V), 2) << "\n";
    std::cout << lesson::tr("P(next | 明) = (count + alpha) / (row_total + alpha V) for three alphas:\n",
                            "P(next | 明) = (count + alpha) / (row_total + alpha V)，取三个 alpha：\n");
    std::printf("  %-6s %8s %12s %12s %12s\n", lesson::tr("pair", "字对").c_str(), lesson::tr("count", "计数").c_str(), lesson::tr("alpha 0", "α = 0").c_str(), lesson::tr("alpha 0.03", "α = 0.03").c_str(), lesson::tr("alpha 1", "α = 1").c_str());
    const double row = static_cast<double>(counts.row_total(ming));
    for (char32_t c : {U'月', U'日', U'朝', U'时', U'春', U'眠'}) {
        int next = tok.id(c);
        std::printf("  %-10s %6u %12s %12s %12s\n", pair_str(tok, ming, next).c_str(), counts.count(ming, next),
                    lesson::num(counts.count(ming, next) / row, 6).c_str(),
                    lesson::num(poet::bigram_probability(counts, ming, next, alpha), 6).c_str(),
                    lesson::num(poet::bigram_probability(counts, ming, next, 1.0), 6).c_str());
    }
    const int yue = tok.id(U'月');
    double p_yue = (counts.count(ming, yue) + alpha) / (row + alpha * static_cast<double>(V));
    std::cout << "by hand: P(月 | 明) = (" << counts.count(ming, yue) << " + 0.03) / (" << counts.row_total(ming)
              << " + 0.03 x " << V << ") = " << lesson::num(counts.count(ming, yue) + alpha, 2) << " / "
              << lesson::num(row + alpha * static_cast<double>(V), 2) << " = " << lesson::num(p_yue, 6) << "\n";
    lesson::confirm("P(月 | 明)", poet::bigram_probability(counts, ming, yue, alpha), p_yue, 1e-15, lesson::tr("the hand formula", "手算公式"));

    lesson::section(lesson::tr("the loss of validation poem 0, prediction by prediction (alpha = 0.03)", "验证诗 0 的损失，一个预测一个预测地算（alpha = 0.03）"));
    std::printf("  %3s %-10s %7s %10s %10s %8s\n", "#", lesson::tr("pair", "字对").c_str(), lesson::tr("count", "计数").c_str(), lesson::tr("row_total", "行总数").c_str(), "P", "-ln P");
    double poem0 = 0;
    for (size_t i = 0; i < pairs0.size(); ++i) {
        auto [a, b] = pairs0[i];
        double p = poet::bigram_probability(counts, a, b, alpha);
        poem0 -= std::log(p);
        std::printf("  %3zu %-12s %7u %10llu %10s %8s\n", i, pair_str(tok, a, b).c_str(), counts.count(a, b),
                    static_cast<unsigned long long>(counts.row_total(a)), lesson::num(p, 6).c_str(),
                    lesson::num(-std::log(p), 4).c_str());
    }
    std::cout << lesson::tr("sum " + lesson::num(poem0, 4) + " nats over 25 predictions: " + lesson::num(poem0 / 25, 4) +
                                " nats per character for this poem",
                            "25 个预测共 " + lesson::num(poem0, 4) + " 奈特：这首诗每字 " + lesson::num(poem0 / 25, 4) + " 奈特")
              << "\n";
    lesson::confirm("poem 0 alone", poet::bigram_validation_loss(counts, {val[0]}, alpha).mean, poem0 / 25, 1e-12,
                    "poet::bigram_validation_loss of poem 0");
}

static void choosing_alpha(const Data& d) {
    const std::vector<poet::Poem>& train = d.train;
    lesson::section(lesson::tr("choosing alpha on held-out training poems (every 20th), then validation", "在留出的训练诗（每 20 首取 1 首）上挑 alpha，再看验证集"));
    std::vector<poet::Poem> fit, held;
    for (size_t i = 0; i < train.size(); ++i) (i % 20 == 19 ? held : fit).push_back(train[i]);
    poet::BigramCounts fit_counts = poet::count_bigrams(fit, d.V);
    std::cout << lesson::tr("counted on ", "用 ") << fit.size() << lesson::tr(" poems, scored on ", " 首诗计数，在留出的 ") << held.size()
              << lesson::tr(" held out", " 首上打分") << "\n";
    std::printf("  %7s %10s %12s\n", lesson::tr("alpha", "α").c_str(), lesson::tr("held out", "留出集").c_str(), lesson::tr("validation", "验证集").c_str());
    double best_alpha = 0, best = 1e30;
    for (double a : {1.0, 0.3, 0.1, 0.03, 0.01, 0.003, 0.001}) {
        double h = poet::bigram_validation_loss(fit_counts, held, a).mean;
        double v = poet::bigram_validation_loss(d.counts, d.val, a).mean;
        std::printf("  %7g %10s %12s\n", a, lesson::num(h, 4).c_str(), lesson::num(v, 4).c_str());
        if (h < best) best = h, best_alpha = a;
    }
    std::cout << lesson::tr("lowest held-out loss at alpha = ", "留出集上损失最低的是 alpha = ") << best_alpha << "\n";
    lesson::confirm("the held-out choice", best_alpha, alpha, 0, "poet::kBigramAlpha");
}

static void baseline(const Data& d) {
    const std::vector<poet::Poem>& val = d.val;
    const poet::BigramCounts& counts = d.counts;
    const size_t V = d.V;
    lesson::section(lesson::tr("the baseline: validation loss, nats per character", "基线：验证损失，每字奈特"));
    poet::ValLoss bigram = poet::bigram_validation_loss(counts, val, alpha);
    std::vector<double> targets(V, 0.0);   // the unigram: how often each id is a counted target
    for (const poet::Poem& p : d.train)
        for (auto [a, b] : poet::counted_pairs(poet::make_record(p, 0))) targets[static_cast<size_t>(b)] += 1;
    size_t unseen = 0, unknown = 0;
    double unigram = 0;
    for (size_t i = 0; i < val.size(); ++i) {
        for (int id : val[i]) unknown += id == Tokenizer::UNK;
        for (auto [a, b] : poet::counted_pairs(poet::make_record(val[i], poet::validation_slot(i)))) {
            unseen += counts.count(a, b) == 0;
            unigram -= std::log((targets[static_cast<size_t>(b)] + alpha) /
                                (static_cast<double>(counts.total()) + alpha * static_cast<double>(V)));
        }
    }
    unigram /= static_cast<double>(val.size() * 25);
    std::cout << lesson::tr("validation predictions: ", "验证预测：") << bigram.records << " x 25 = " << bigram.records * 25
              << lesson::tr(", of which ", "，其中 ") << unseen << lesson::tr(" (", " 个（")
              << lesson::num(100.0 * static_cast<double>(unseen) / static_cast<double>(bigram.records * 25), 1)
              << lesson::tr("%) are pairs never counted in training: P = 0 without smoothing",
                            "%）是训练中从没数到过的字对：不平滑时 P = 0")
              << "\n";
    std::cout << lesson::tr("validation characters outside the training vocabulary (UNK): ", "验证集里不在训练词表中的字（UNK）：")
              << unknown
              << lesson::tr("; UNK starts no counted pair, so its row is empty and smoothing makes it uniform, 1 / V",
                            "；UNK 不开始任何计入的字对，它那一行是空的，平滑后成了均匀的 1 / V")
              << "\n";
    std::cout << lesson::tr("uniform over V, ln ", "在 V 上均匀分布，ln ") << V << " = " << lesson::num(std::log(static_cast<double>(V)), 4) << "\n";
    std::cout << lesson::tr("unigram, P(next) alone = ", "一元模型，只用 P(next) = ") << lesson::num(unigram, 4) << "\n";
    std::cout << lesson::tr("bigram, alpha 0.03 = ", "二元模型，alpha 0.03 = ") << lesson::num(bigram.mean, 4)
              << lesson::tr(" nats (", " 奈特（") << lesson::num(bigram.mean / std::log(2.0), 3)
              << lesson::tr(" bits, perplexity ", " 比特，困惑度 ") << lesson::num(std::exp(bigram.mean), 1) << lesson::tr(")", "）")
              << "\n";
    std::cout << lesson::tr("bigram, add-one (alpha 1) = ", "二元模型，加一平滑（alpha 1）= ") << lesson::num(poet::bigram_validation_loss(counts, val, 1.0).mean, 4)
              << "\n";
    std::cout << lesson::tr("by position (each character of the poem given the one before it):", "按位置（诗中每个字由它前一个字预测）：") << "\n";
    print_per_position(bigram);
    std::string ckpt = poet::default_checkpoint();
    if (std::filesystem::exists(ckpt)) {
        poet::PoetModel model = poet::load_model(ckpt);
        poet::ValLoss gpt = poet::validation_loss(*model.gpt, poet::encode_poems(d.corpus.val, model.tok), 64,
                                                   model.copy_token);
        double gap = bigram.mean - gpt.mean;
        const std::string by = lesson::num(std::fabs(gap), 4);
        std::cout << lesson::tr("the GPT at ", "GPT 检查点 ") << ckpt << lesson::tr(" (step ", "（第 ") << model.step
                  << lesson::tr("): ", " 步）：每字 ") << lesson::num(gpt.mean, 4) << lesson::tr(" nats per character, ", " 奈特，")
                  << (gap > 0 ? lesson::tr(by + " below the bigram", "比二元模型低 " + by)
                              : lesson::tr(by + " above the bigram: it has not learnt enough yet", "比二元模型高 " + by + "：它学得还不够"))
                  << "\n";
    } else {
        std::cout << lesson::tr("no GPT checkpoint at ", "没有 GPT 检查点：") << ckpt
                  << lesson::tr(" (./poet demo trains one)", "（./poet demo 会训练一个）") << "\n";
    }
}

static void sampling(const Data& d) {
    const Tokenizer& tok = d.tok;
    const poet::BigramCounts& counts = d.counts;
    lesson::section(lesson::tr("sampling poems from the bigram (pg::Generator seeded 19)", "从二元模型采样诗（pg::Generator，种子 19）"));
    pg::Generator gen(19);
    std::cout << lesson::tr("free: any id at any step, from SEP until EOS", "自由采样：每一步任何 id 都可以，从 SEP 直到 EOS") << "\n";
    for (int i = 0; i < 3; ++i) {
        std::vector<int> ids = poet::sample_bigram(counts, tok, alpha, false, -1, gen);
        const bool quatrain = poet::is_well_formed(ids, tok);
        std::cout << "  " << tok.decode(ids) << "   "
                  << lesson::tr(quatrain ? "(a quatrain)" : "(not a quatrain)", quatrain ? "（是绝句）" : "（不是绝句）") << "\n";
    }
    std::cout << lesson::tr("constrained: the layout imposed, ideographs only in the 20 slots, k in slot 0",
                            "受约束：格式强加，20 个字位只放汉字，k 放在第 1 个字位（下标 0）") << "\n";
    for (char32_t k : std::u32string(U"春月山风花雪")) {
        std::vector<int> ids = poet::sample_bigram(counts, tok, alpha, true, tok.id(k), gen);
        std::cout << "  " << tok.token_str(tok.id(k)) << "   " << tok.decode({ids.begin(), ids.end() - 1}) << "\n";
        lesson::expect("a constrained sample", poet::is_well_formed(ids, tok), "a quatrain then EOS",
                       tok.decode(ids), "");
    }

    std::cout << "the share of each row that is smoothing, alpha V / (row_total + alpha V):";
    for (char32_t c : std::u32string(U"，明遯")) {
        double r = static_cast<double>(counts.row_total(tok.id(c))), m = alpha * static_cast<double>(d.V);
        std::cout << " after " << tok.token_str(tok.id(c)) << " " << lesson::num(100 * m / (r + m), 2) << "%";
    }
    std::cout << "\n";
}

static void embedding_bigram(const Data& d) {
    lesson::section(lesson::tr("the same bigram as one Embedding, on a reduced vocabulary", "同一个二元模型写成一个 Embedding，用缩小的词表"));
    const int K = 256;   // ids below K kept: the 5 specials and the 251 most frequent characters
    const size_t VR = K + 1;   // id K: every other character
    auto reduce = [&](std::vector<poet::Poem> poems) {
        for (poet::Poem& p : poems)
            for (int& id : p) id = std::min(id, K);
        return poems;
    };
    std::vector<poet::Poem> rtrain = reduce(d.train), rval = reduce(d.val);
    std::vector<std::pair<int, int>> rpairs;
    for (const poet::Poem& p : rtrain)
        for (auto pair : poet::counted_pairs(poet::make_record(p, 0))) rpairs.push_back(pair);
    size_t other = 0;
    for (auto [a, b] : rpairs) other += b == K;
    std::cout << lesson::tr("ids 0..", "保留 id 0..") << K - 1 << lesson::tr(" kept, the rest mapped to ", "，其余的都映射成 ") << K
              << lesson::tr(" ('other'): ", "（'other'）：共 ") << VR << lesson::tr(" ids; 'other' is the target of ", " 个 id；'other' 是 ")
              << lesson::num(100.0 * static_cast<double>(other) / static_cast<double>(rpairs.size()), 1)
              << lesson::tr("% of the training pairs", "% 的训练字对的目标") << "\n";
    poet::BigramCounts rcounts(VR, rpairs);
    auto loss_on_all_pairs = [&](const pg::Tensor& logp) {   // -sum count * log p / N, from the counts
        const float* l = logp.ptr();
        double sum = 0;
        for (size_t a = 0; a < VR; ++a)
            for (size_t b = 0; b < VR; ++b)
                sum -= rcounts.count(static_cast<int>(a), static_cast<int>(b)) * static_cast<double>(l[a * VR + b]);
        return sum / static_cast<double>(rcounts.total());
    };
    double count_train = poet::bigram_validation_loss(rcounts, rtrain, 0.0).mean;
    double count_val = poet::bigram_validation_loss(rcounts, rval, alpha).mean;
    std::cout << lesson::tr("the counts on these ids: training loss with alpha 0 (the lowest any table reaches) = ",
                            "这些 id 上的计数模型：alpha 0 时的训练损失（任何一张表能达到的最低值）= ")
              << lesson::num(count_train, 4) << lesson::tr(", validation with alpha 0.03 = ", "，alpha 0.03 时的验证损失 = ")
              << lesson::num(count_val, 4) << "\n";

    pg::Generator init(19);
    pg::nn::Embedding emb(VR, VR, init);   // row a of the weight: the logits of the id after a
    emb.weight.copy_(pg::zeros({VR, VR}));   // start uniform, from nothing, as the counts do
    const size_t B = 1024, steps = 4000;
    const float lr = 20.f, min_lr = 0.2f;
    pg::optim::SGD sgd(emb.parameters(), {lr, 0.9f});
    std::cout << "Embedding (" << VR << "," << VR << lesson::tr("), zeros; SGD lr ", ")，全零起步；SGD lr ") << lr
              << lesson::tr(" cosine to ", " 沿余弦降到 ") << min_lr << lesson::tr(", momentum 0.9; batches of ", "，动量 0.9；每批 ") << B
              << lesson::tr(" pairs drawn with replacement; ", " 个有放回抽取的字对；") << steps << lesson::tr(" steps", " 步") << "\n";
    std::printf("  %5s %6s %10s %14s %11s\n", lesson::tr("step", "步").c_str(), lesson::tr("lr", "学习率").c_str(), lesson::tr("batch", "批次").c_str(), lesson::tr("all training", "全部训练集").c_str(), lesson::tr("validation", "验证集").c_str());
    std::vector<std::pair<double, double>> curve_train, curve_val;
    std::vector<float> x(B), y(B);
    pg::Generator draw(1919);
    double emb_train = 0, emb_val = 0, batch_loss = 0;
    for (size_t step = 0; step <= steps; ++step) {
        if (step % 50 == 0) {
            pg::NoGradGuard no_grad;
            pg::Tensor logp = pg::log_softmax(emb.weight, 1);   // (VR,VR): log P(b | a)
            emb_train = loss_on_all_pairs(logp);
            emb_val = table_loss(logp, rval);
            curve_train.emplace_back(static_cast<double>(step), emb_train);
            curve_val.emplace_back(static_cast<double>(step), emb_val);
            if (step == 0 || step == 250 || step == 500 || step % 1000 == 0)
                std::printf("  %5zu %6s %10s %14s %11s\n", step, lesson::num(sgd.lr(), 2).c_str(),
                            step ? lesson::num(batch_loss, 3).c_str() : "", lesson::num(emb_train, 4).c_str(),
                            lesson::num(emb_val, 4).c_str());
        }
        if (step == steps) break;
        for (size_t b = 0; b < B; ++b) {
            auto [a, n] = rpairs[draw.randint(rpairs.size())];
            x[b] = static_cast<float>(a);
            y[b] = static_cast<float>(n);
        }
        sgd.set_lr(pg::optim::warmup_cosine_lr(step, 0, steps, lr, min_lr));
        pg::Tensor logits = emb.forward(pg::tensor(x, {B}));             // (B,VR)
        pg::Tensor loss = pg::cross_entropy(logits, pg::tensor(y, {B}));  // mean over the B pairs
        sgd.zero_grad();
        loss.backward();
        sgd.step();
        batch_loss = loss.item();
        if (step == 0)
            std::cout << lesson::tr("  (one step: ids ", "  （一步：ids ") << lesson::str(pg::Shape{B}) << " -> logits "
                      << lesson::str(logits.shape()) << ", targets " << lesson::str(pg::Shape{B}) << " -> loss "
                      << lesson::str(loss.shape())
                      << lesson::tr("; the gradient reaches only the rows of the ids drawn)", "；梯度只到达抽到的那些 id 的行）") << "\n";
    }
    lesson::confirm("step 0", curve_train[0].second, std::log(static_cast<double>(VR)), 1e-5, "ln 257, uniform");
    std::cout << lesson::tr("step 0 is ln ", "第 0 步是 ln ") << VR << " = " << lesson::num(std::log(static_cast<double>(VR)), 4)
              << lesson::tr(": zero logits, every id equally likely", "：logits 全为零，每个 id 一样可能") << "\n";
    // the Embedding's losses come out of 4000 float steps: two decimals; the counts' are exact
    std::cout << lesson::tr("after ", "") << steps << lesson::tr(" steps: training ", " 步之后：训练字对上 ") << lesson::num(emb_train, 2)
              << lesson::tr(" against the counts' ", "，计数模型是 ") << lesson::num(count_train, 4) << lesson::tr(" (", "（高出 ")
              << lesson::num(emb_train - count_train, 2) << lesson::tr(" above), validation ", "），验证集上 ") << lesson::num(emb_val, 2)
              << lesson::tr(" against the counts' ", "，计数模型是 ") << lesson::num(count_val, 4) << "\n";
    lesson::expect("the Embedding approaches the counts", emb_train - count_train < 0.05, "within 0.05",
                   lesson::num(emb_train - count_train, 4), "");

    pg::Tensor p_emb = pg::softmax(emb.weight.detach(), 1);
    const Tokenizer& tok = d.tok;
    const int comma = tok.id(U'，');
    std::cout << lesson::tr("the row of ，: P(next | ，) from the counts and from the trained Embedding",
                            "「，」那一行：计数模型和训练好的 Embedding 给出的 P(next | ，)") << "\n";
    for (int next : {tok.id(U'不'), tok.id(U'一'), tok.id(U'人'), K}) {
        std::printf("  %-8s counts %8s   Embedding %8s\n", (next == K ? std::string("，→other") : pair_str(tok, comma, next)).c_str(),
                    lesson::num(poet::bigram_probability(rcounts, comma, next, 0.0), 4).c_str(),
                    lesson::num(p_emb.data()(static_cast<size_t>(comma), static_cast<size_t>(next)), 4).c_str());
    }

    // the English run draws embedding_bigram.svg, the Chinese one (POET_LANG=zh) embedding_bigram.zh.svg
    using lesson::tr;
    const svg::Output out =
        svg::in_lesson_folder(__FILE__, lesson::chinese() ? "embedding_bigram.zh.svg" : "embedding_bigram.svg");
    svg::write_file(out.path,
                    plot::svg_of(tr("the bigram as an Embedding (257 ids), trained with SGD, approaching the counts",
                                    "二元模型写成 Embedding（257 个 id），用 SGD 训练，逼近计数模型"),
                                 {{tr("Embedding, all training pairs", "Embedding，全部训练字对"), "#08519c", curve_train},
                                  {tr("Embedding, validation", "Embedding，验证集"), "#d94801", curve_val},
                                  {tr("counts, training (alpha 0)", "计数模型，训练字对（alpha 0）"), "#08519c",
                                   {{0, count_train}}, true},
                                  {tr("counts, validation (alpha 0.03)", "计数模型，验证集（alpha 0.03）"), "#d94801",
                                   {{0, count_val}}, true}},
                                 3.0, 3.4, tr("step", "步数"),
                                 tr("cross-entropy (nats per character)", "交叉熵（每字奈特）")));
    svg::check_file(out.path);
    std::cout << "wrote " << out.shown << "\n";
}

static void run() {
    Data d;
    counting(d);
    choosing_alpha(d);
    baseline(d);
    sampling(d);
    embedding_bigram(d);
}

int main() { return lesson::run_experiment(run); }
