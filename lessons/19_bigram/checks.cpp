// Lesson 19's checks for pair_probability and bigram_nll, shared by starter.cpp, solution.cpp and
// your exercise.cpp: hand-made tables, two small poems, then the real validation set against the
// poet's own bigram (poet::bigram_validation_loss). Leaves out: sampling (the experiment shows it).
#include "check.hpp"

namespace check19 {

// The table of the first checks: V = 10; 5→6 three times, 5→7 once, 6→5 twice; row 7 empty.
inline poet::BigramCounts hand_table() { return poet::BigramCounts(10, {{5, 6}, {5, 6}, {5, 6}, {5, 7}, {6, 5}, {6, 5}}); }

// The hint for a wrong probability, from the wrong formulas it matches.
inline std::string probability_hint(double actual, double count, double row, double total, double alpha, double V) {
    auto is = [&](double v) { return std::fabs(actual - v) < 1e-9; };
    if (is(count / row))
        return lesson::tr("the smoothing is missing: add alpha to every count and alpha * V to the row total, or a pair never "
                          "counted gets P = 0",
                          "缺了平滑：给每个计数加上 alpha，给行总数加上 alpha * V，否则从没数到过的字对会得到 P = 0");
    if (is((count + alpha) / (total + alpha * V)) || is(count / total))
        return lesson::tr("divide by the row total of prev, counts.row_total(prev) (the pairs that start with prev), not by "
                          "counts.total(), the pairs of every row",
                          "除以 prev 的行总数 counts.row_total(prev)（以 prev 开头的字对），而不是 counts.total()，那是所有行的字对");
    if (is((count + alpha) / (row + alpha)))
        return lesson::tr("alpha goes to each of the V cells of the row, so the denominator grows by alpha * V, not alpha",
                          "alpha 要加到这一行的 V 个格子的每一个上，所以分母增加的是 alpha * V，不是 alpha");
    return lesson::tr("P(next | prev) = (count(prev, next) + alpha) / (row_total(prev) + alpha * V)",
                      "P(next | prev) = (count(prev, next) + alpha) / (row_total(prev) + alpha * V)");
}

// The mean of -ln P over record[t] -> record[t+1] for t >= first_t, divided by per_record per record:
// what a loss that counts the prompt's pairs gives (NaN when one of them is 0 / 0).
inline double mean_over(const std::vector<std::vector<int>>& records, size_t first_t, size_t per_record,
                        const poet::BigramCounts& counts, double alpha) {
    double sum = 0;
    try {
        for (const auto& r : records)
            for (size_t t = first_t; t + 1 < r.size(); ++t)
                sum -= std::log(poet::bigram_probability(counts, r[t], r[t + 1], alpha));
    } catch (const std::invalid_argument&) {
        return NAN;
    }
    return sum / static_cast<double>(records.size() * per_record);
}

// The hint for a wrong loss, from the mistake the numbers point to.
inline std::string nll_hint(double actual, double want, const std::vector<std::vector<int>>& records,
                            const poet::BigramCounts& counts, double alpha) {
    auto near = [&](double v) { return std::fabs(actual - v) < 1e-6 * std::max(1.0, std::fabs(v)); };
    if (std::isinf(actual) || std::isnan(actual)) {
        for (const auto& r : records)
            for (auto [a, b] : poet::counted_pairs(r))
                if (!(exercise::pair_probability(counts, a, b, alpha) > 0))
                    return lesson::tr("a pair never counted got P = 0 (or 0 / 0, for an id such as UNK that starts no counted "
                                      "pair) and -ln 0 = inf: the smoothing is missing, add alpha to every count (pair_probability)",
                                      "一个从没数到过的字对得到了 P = 0（对于 UNK 这样不开始任何已计数字对的编号，则是 0 / 0），而 -ln 0 = inf：缺了平滑，给每个计数加上 alpha（pair_probability）");
        for (const auto& r : records)
            if (!(exercise::pair_probability(counts, r[0], r[1], alpha) > 0) ||
                !(exercise::pair_probability(counts, r[1], r[2], alpha) > 0))
                return lesson::tr("the pairs BOS -> k and k -> SEP are never counted (with alpha = 0 their P is 0 or 0 / 0): the "
                                  "prompt targets k and SEP carry no loss, start at record[2] = SEP",
                                  "字对 BOS -> k 和 k -> SEP 从不计数（alpha = 0 时它们的 P 是 0 或 0 / 0）：提示部分的目标 k 和 SEP 不计损失，从 record[2] = SEP 开始");
        return lesson::tr("every P is above 0, yet the loss is ", "每个 P 都大于 0，损失却是 ") + std::to_string(actual) +
               lesson::tr(": a product of thousands of probabilities underflows to 0 even in double; add the logarithms "
                          "(sum of -ln P) instead of multiplying the probabilities",
                          "：成千上万个概率的乘积即使用 double 也会下溢为 0；请把对数相加"
                          "（-ln P 求和），而不是把概率相乘");
    }
    if (alpha > 0 && near(mean_over(records, poet::kPromptLength - 1, poet::kLossTokens, counts, 0.0)))
        return lesson::tr("that is the loss with alpha = 0: the smoothing is missing, add alpha to every count (pair_probability)",
                          "这是 alpha = 0 时的损失：缺了平滑，给每个计数加上 alpha（pair_probability）");
    if (near(want / std::log(2.0)))
        return lesson::tr("that is the loss in bits: use the natural log, std::log, for nats per character (bits = nats / ln 2)",
                          "这是以比特为单位的损失：用自然对数 std::log，得到每字多少奈特（bits = nats / ln 2）");
    if (near(want * poet::kLossTokens))
        return lesson::tr("divide by the number of predictions, 25 per record (kLossTokens), not by the number of records",
                          "除以预测的个数，每条记录 25 个（kLossTokens），而不是除以记录的条数");
    for (size_t first : {0, 1})
        for (size_t per : {poet::kInputLength - first, poet::kLossTokens})
            if (near(mean_over(records, first, per, counts, alpha)))
                return lesson::tr("the prompt targets k and SEP (predicted from BOS and from k) carry no loss: count only the "
                                  "25 pairs from SEP -> poem[0] to poem[23] -> EOS, record[t] -> record[t+1] for t = 2..26",
                                  "提示部分的目标 k 和 SEP（由 BOS 和 k 预测）不计损失：只计从 SEP -> poem[0] 到 poem[23] -> EOS 这 25 个字对，即 t = 2..26 时的 record[t] -> record[t+1]");
    return lesson::tr("the mean of -ln P(record[t+1] | record[t]) over t = 2..26 of every record (SEP -> first character up to "
                      "the last character -> EOS), divided by 25 per record",
                      "对每条记录 t = 2..26 的 -ln P(record[t+1] | record[t]) 求平均（从 SEP -> 第一个字，到最后一个字 -> EOS），每条记录除以 25");
}

// The corpus the poet trains on by default, its tokenizer and the validation records `./poet eval` scores.
struct RealData {
    poet::Tokenizer tok;
    std::vector<poet::Poem> train, val;
    std::vector<std::vector<int>> records;
    RealData() {
        poet::Corpus corpus = poet::load_corpus(poet::default_data_dir(), "all");
        tok = poet::Tokenizer::build(corpus.train);
        train = poet::encode_poems(corpus.train, tok);
        val = poet::encode_poems(corpus.val, tok);
        for (size_t i = 0; i < val.size(); ++i) records.push_back(poet::make_record(val[i], poet::validation_slot(i)));
    }
};

}  // namespace check19

int main() {
    lesson::Checks checks("19", "bigram");
    checks.run(lesson::tr("pair_probability on a hand-made table (V = 10, alpha 0.5 and 0)",
                          "在手工做的表上计算 pair_probability（V = 10，alpha 取 0.5 和 0）"), [] {
        poet::BigramCounts c = check19::hand_table();
        try {
            exercise::pair_probability(c, 7, 3, 0.0);   // row 7 is empty: 0 / 0
        } catch (const std::invalid_argument& e) {
            if (std::string(e.what()).rfind("bigram:", 0) == 0)
                throw lesson::CheckFailed("pair_probability", lesson::tr("your own formula", "你自己的公式"),
                                          lesson::tr("poet::bigram_probability's answer", "poet::bigram_probability 的答案"),
                                          lesson::tr("write (count + alpha) / (row_total + alpha V) yourself from counts.count and "
                                                     "counts.row_total; poet::bigram_probability is the reference it is checked against",
                                                     "用 counts.count 和 counts.row_total 自己写出 (count + alpha) / (row_total + alpha V)；"
                                                     "poet::bigram_probability 是检查拿来对比的参考答案"));
            throw;
        }
        struct Case { int prev, next; double alpha, want; };
        for (Case k : {Case{5, 6, 0.5, 3.5 / 9}, Case{5, 8, 0.5, 0.5 / 9}, Case{6, 5, 0.5, 2.5 / 7}, Case{7, 3, 0.5, 0.1},
                       Case{5, 6, 0.0, 0.75}, Case{5, 7, 0.0, 0.25}}) {
            double got = exercise::pair_probability(c, k.prev, k.next, k.alpha);
            lesson::expect_near("P(" + std::to_string(k.next) + " | " + std::to_string(k.prev) + "), alpha " +
                                    lesson::num(k.alpha, 1),
                                got, k.want, 1e-6,
                                check19::probability_hint(got, c.count(k.prev, k.next), static_cast<double>(c.row_total(k.prev)),
                                                          static_cast<double>(c.total()), k.alpha, 10));
        }
    });
    checks.run(lesson::tr("each row is a distribution: P(. | prev) sums to 1 over the V next ids",
                          "每一行都是一个分布：P(. | prev) 在 V 个下一个编号上加起来为 1"), [] {
        poet::BigramCounts c = check19::hand_table();
        for (int prev : {5, 6, 7})
            for (double alpha : {0.5, 2.0}) {
                double sum = 0;
                for (int next = 0; next < 10; ++next) sum += exercise::pair_probability(c, prev, next, alpha);
                lesson::expect_near(lesson::tr("sum over next of P(next | ", "对 next 求和的 P(next | ") + std::to_string(prev) +
                                        "), alpha " + lesson::num(alpha, 1),
                                    sum, 1.0, 1e-6,
                                    lesson::tr("the row total of prev plus alpha * V is what the V cells (count + alpha) add up to: "
                                               "divide by that, counts.row_total(prev) + alpha * V",
                                               "V 个格子 (count + alpha) 加起来等于 prev 的行总数加上 alpha * V：除以它，即 counts.row_total(prev) + alpha * V"));
            }
    });

    const std::u32string spring = U"春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。";
    const std::u32string night = U"床前明月光，疑是地上霜。举头望明月，低头思故乡。";
    checks.run(lesson::tr("bigram_nll of two poems counted on themselves, alpha 0.5; k must not matter",
                          "两首诗在自己身上计数后的 bigram_nll，alpha 0.5；k 必须无关紧要"), [&] {
        poet::Tokenizer tok = poet::Tokenizer::build({spring, night});
        std::vector<poet::Poem> poems = poet::encode_poems({spring, night}, tok);
        poet::BigramCounts c = poet::count_bigrams(poems, tok.size());
        std::vector<std::vector<int>> records = {poet::make_record(poems[0], 0), poet::make_record(poems[1], 7)};
        double want = poet::bigram_validation_loss(c, poems, 0.5).mean;
        double got = exercise::bigram_nll(c, records, 0.5);
        lesson::expect_near("bigram_nll", got, want, 1e-6, check19::nll_hint(got, want, records, c, 0.5));
        std::vector<std::vector<int>> other_k = {poet::make_record(poems[0], 13), poet::make_record(poems[1], 19)};
        lesson::expect_near(lesson::tr("bigram_nll with other characters as k", "用别的字作 k 时的 bigram_nll"), exercise::bigram_nll(c, other_k, 0.5), got, 1e-6,
                            lesson::tr("the bigram never sees k: the prompt targets k and SEP carry no loss, so changing k must not "
                                       "change the loss; start at record[2] = SEP",
                                       "二元模型从来看不到 k：提示部分的目标 k 和 SEP 不计损失，所以改变 k 不能改变损失；从 record[2] = SEP 开始"));
        // two more calls whose right answers differ from the first: a constant or static answer shows here
        std::vector<std::pair<std::vector<int>, double>> so_far;   // every record handed in so far, with its alpha
        for (const auto& r : records) so_far.emplace_back(r, 0.5);
        for (const auto& r : other_k) so_far.emplace_back(r, 0.5);
        for (auto [these, a] : {std::pair{std::vector<std::vector<int>>{records[0]}, 0.5}, std::pair{records, 2.0}}) {
            std::vector<poet::Poem> those;
            for (const auto& r : these) those.push_back(r == records[0] ? poems[0] : poems[1]);
            const double right = poet::bigram_validation_loss(c, those, a).mean;
            const double again = exercise::bigram_nll(c, these, a);
            for (const auto& r : these) so_far.emplace_back(r, a);
            double sum = 0;   // what a static sum and count that keep growing give: the mean over so_far
            size_t n = 0;
            for (const auto& [r, ra] : so_far)
                for (auto [p, q] : poet::counted_pairs(r)) sum -= std::log(poet::bigram_probability(c, p, q, ra)), ++n;
            std::string hint = check19::nll_hint(again, right, these, c, a);
            if (std::fabs(again - got) < 1e-9)
                hint = lesson::tr("the same loss as for the previous call, although its records or alpha differ: the answer is "
                                  "a constant, or a static variable keeps it from the first call; compute it from this call's "
                                  "counts, records and alpha",
                                  "和上一次调用的损失一模一样，可这次的记录或 alpha 不同：答案是个常数，或者有个 static 变量"
                                  "从第一次调用起就留着它；请用这一次调用的 counts、records 和 alpha 来算");
            else if (std::fabs(again - sum / static_cast<double>(n)) < 1e-6)
                hint = lesson::tr("the loss mixes in the records of the earlier calls: a static sum or count keeps growing "
                                  "from call to call; declare them inside the function, without static, so each call "
                                  "starts from 0",
                                  "损失里混进了前几次调用的记录：有个 static 的和或计数在一次次调用之间不断累加；"
                                  "把它们声明在函数里面、不加 static，让每次调用都从 0 开始");
            lesson::expect_near(lesson::tr("bigram_nll on other records or another alpha", "换了记录或 alpha 之后的 bigram_nll"),
                                again, right, 1e-6, hint);
            got = again;
        }
    });
    checks.run(lesson::tr("alpha = 0 on the poem it was counted on: 6 ln 2 / 25", "在计数所用的那首诗上取 alpha = 0：6 ln 2 / 25"), [&] {
        poet::Tokenizer tok = poet::Tokenizer::build({spring});
        poet::Poem poem = poet::encode_poems({spring}, tok)[0];
        poet::BigramCounts c = poet::count_bigrams({poem}, tok.size());
        std::vector<std::vector<int>> records = {poet::make_record(poem, 3)};
        double want = 6 * std::log(2.0) / 25;   // 处, ，and 。 are followed by two different ids; the rest by one
        double got = exercise::bigram_nll(c, records, 0.0);
        lesson::expect_near("bigram_nll, alpha 0", got, want, 1e-6, check19::nll_hint(got, want, records, c, 0.0));
    });
    checks.run(lesson::tr("the real validation set: 854 records of ./poet eval, counts of corpus 'all', alpha 0.03",
                          "真实的验证集：./poet eval 的 854 条记录，语料 'all' 的计数，alpha 0.03"), [] {
        check19::RealData data;
        poet::BigramCounts c = poet::count_bigrams(data.train, data.tok.size());
        double want = poet::bigram_validation_loss(c, data.val, poet::kBigramAlpha).mean;
        double got = exercise::bigram_nll(c, data.records, poet::kBigramAlpha);
        lesson::expect_near(lesson::tr("bigram_nll on the validation records", "验证集记录上的 bigram_nll"), got, want, 1e-6,
                            check19::nll_hint(got, want, data.records, c, poet::kBigramAlpha));
    });
    return checks.finish();
}
