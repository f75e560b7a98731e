// Lesson 24's checks for masked_cross_entropy and records_loss, shared by starter.cpp, solution.cpp
// and your exercise.cpp: the hand example, edge cases (logits of 1000, logits all below -745, a row
// near 1000 beside one near -1000, ignored rows, all ignored; a wrong mean is compared with the same
// rows further along in memory, which names a read of freed memory such as a temporary's
// .detach().ptr()), pg::cross_entropy on random logits, and poet::validation_loss on a small seeded
// GPT, twice (no training, so the checks take a second; the experiment measures the trained model).
#include "check.hpp"
#include "check_tools.hpp"

namespace check24 {

// -log softmax(z)[t] for every counted row, in double, and the versions of it a slip gives.
struct Reference {
    double sum = 0, sum_ignored_too = 0;   // over the counted rows; over the rows != kIgnore
    size_t counted = 0, counted_ignored_too = 0, N = 0;
    double wrong_axis = 0;                 // the mean of -log softmax over dim 0 (the rows)
};

inline double nll(const float* z, size_t V, int t) {
    double m = z[0], total = 0;
    for (size_t v = 1; v < V; ++v) m = std::max(m, static_cast<double>(z[v]));
    for (size_t v = 0; v < V; ++v) total += std::exp(z[v] - m);
    return m + std::log(total) - z[t];
}

inline Reference reference(const pg::Tensor& logits, const std::vector<int>& targets, int ignore) {
    const size_t N = logits.size(0), V = logits.size(1);
    std::vector<float> by_column = pg::log_softmax(logits, 0).to_vector();
    Reference r;
    r.N = N;
    for (size_t i = 0; i < N; ++i) {
        if (targets[i] == poet::kIgnore) continue;
        double l = nll(logits.ptr() + i * V, V, targets[i]);
        r.sum_ignored_too += l;
        ++r.counted_ignored_too;
        if (targets[i] == ignore) continue;
        r.sum += l;
        r.wrong_axis -= by_column[i * V + static_cast<size_t>(targets[i])];
        ++r.counted;
    }
    if (r.counted) r.wrong_axis /= static_cast<double>(r.counted);
    return r;
}

inline bool near(double a, double b) { return std::fabs(a - b) <= 1e-4 * std::max(1.0, std::fabs(b)); }

// The likely slip behind a wrong mean, read from the numbers.
inline std::string mean_hint(const Reference& r, const exercise::Loss& got, int ignore) {
    using lesson::tr;
    const double mean = r.sum / static_cast<double>(r.counted);
    const std::string i = std::to_string(ignore);
    if (got.counted == r.counted_ignored_too && r.counted_ignored_too != r.counted)
        return tr("rows whose target equals ignore (here " + i +
                      ") were counted: skip every target equal to ignore, the argument, not only kIgnore = -1",
                  "目标等于 ignore（这里是 " + i + "）的行被计进去了：跳过所有等于参数 ignore 的目标，"
                      "不只是 kIgnore = -1");
    if (near(got.mean, r.sum / static_cast<double>(r.N)))
        return tr("divided by N, every row: divide by the counted predictions, not by N (ignored rows are not "
                  "predictions)",
                  "除以了 N（所有行）：应除以计入的预测数，不是除以 N；"
                  "被忽略的行不是预测");
    if (near(got.mean, r.sum))
        return tr("that is the sum, not the mean: divide it by counted",
                  "这是总和而不是平均：再除以 counted");
    if (near(got.mean, mean / std::log(2.0)))
        return tr("bits, not nats: that is log2; the loss (and perplexity = exp(loss)) uses the natural log, std::log",
                  "这是比特而不是奈特：你用了 log2；损失（以及困惑度 = exp(损失)）用自然对数 std::log");
    if (near(got.mean, r.wrong_axis))
        return tr("the wrong axis: that is log_softmax over dim 0 (down the N rows); each row's V logits are one "
                  "distribution, so normalise along dim 1 (or -1)",
                  "轴错了：这是沿 dim 0（跨 N 行）的 log_softmax；每一行的 V 个 logits 才是一个分布，"
                  "应沿 dim 1（或 -1）归一化");
    return tr("for each counted row r: m = max_v z[r][v], nll = m + log(sum_v exp(z[r][v] - m)) - z[r][target]; "
              "mean = the sum of nll over the counted rows / counted",
              "对每个计入的行 r：m = max_v z[r][v]，nll = m + log(sum_v exp(z[r][v] - m)) - z[r][target]；"
              "mean = 计入行的 nll 之和 / counted");
}

// Your masked_cross_entropy, with pg::cross_entropy's error named, and a loss that came back from an
// earlier call (other logits or targets, whose loss is another) caught.
inline exercise::Loss call(const pg::Tensor& logits, const std::vector<int>& targets, int ignore) {
    static std::vector<double> earlier;   // the right means of the earlier calls
    exercise::Loss got;
    try {
        got = exercise::masked_cross_entropy(logits, targets, ignore);
    } catch (const std::invalid_argument& e) {
        if (std::strstr(e.what(), "cross_entropy") == nullptr) throw;
        throw lesson::CheckFailed("masked_cross_entropy", "mean 0, counted 0", std::string("pg::cross_entropy threw: ") + e.what(),
                                  lesson::tr("you called pg::cross_entropy, which is what this exercise writes: "
                                             "write the loss from the logits, with max, exp and log",
                                             "你调用了 pg::cross_entropy，而它正是这个练习要你自己写的：用 max、exp 和 "
                                             "log 直接从 logits 算损失"));
    }
    const Reference r = reference(logits, targets, ignore);
    const double want = r.counted ? r.sum / static_cast<double>(r.counted) : 0.0;
    if (lesson::came_back(got.mean, want, earlier, std::equal_to<double>(),
                          [](double a, double b) { return !near(a, b); }, lesson::Remember::right_answers))
        throw lesson::CheckFailed("masked_cross_entropy(" + lesson::str(logits.shape()) + ")", lesson::num(want, 6),
                                  lesson::num(got.mean, 6) + lesson::tr(", the mean of an earlier call", "，先前一次调用的 mean"),
                                  lesson::came_back_hint({"result", "结果"}, {"logits and targets", "logits 和 targets"}));
    return got;
}

// The same rows behind ignored rows of zeros (at least 64 floats of them): the learner's loss must not
// change, since the rows it counts hold the same numbers. Only where they lie in memory differs.
inline bool right_rows_later(const pg::Tensor& logits, const std::vector<int>& targets, int ignore, double mean,
                             double tol) {
    const size_t N = logits.size(0), V = logits.size(1), before = (64 + V - 1) / V;
    std::vector<float> values(before * V, 0.f), z = logits.to_vector();
    values.insert(values.end(), z.begin(), z.end());
    std::vector<int> t(before, ignore);
    t.insert(t.end(), targets.begin(), targets.end());
    const exercise::Loss later = call(pg::tensor(values, {N + before, V}), t, ignore);
    return std::fabs(later.mean - mean) <= tol;
}

inline std::string memory_hint() {
    return lesson::tr("the same rows give the right loss when ignored rows come first, and a wrong one here: your "
                      "loss depends on where the rows lie in memory, so the code reads memory it does not own. Most "
                      "likely a pointer into a temporary tensor: logits.detach().ptr() (detach copies, and the copy is "
                      "freed at the end of that statement); read logits.ptr(), or keep the tensor in a named variable",
                      "同样的行，前面多几个被忽略的行时损失是对的，放在这里却不对：你的损失取决于这些行在内存里的位置，"
                      "也就是代码读了不属于它的内存。最可能是指向临时张量的指针：logits.detach().ptr()"
                      "（detach 会复制一份，这份副本在那条语句结束时就被释放了）；要读 logits.ptr()，"
                      "或者把张量放在一个有名字的变量里");
}

// The check's hint for a wrong mean, unless the rows moved in memory give the right one: then the
// memory hint, since that is what the numbers established.
inline std::string unless_memory(const pg::Tensor& logits, const std::vector<int>& targets, int ignore, double mean,
                                 double tol, const std::string& hint) {
    return right_rows_later(logits, targets, ignore, mean, tol) ? memory_hint() : hint;
}

inline void expect_loss(const pg::Tensor& logits, const std::vector<int>& targets, int ignore, double tol) {
    const Reference r = reference(logits, targets, ignore);
    exercise::Loss got = call(logits, targets, ignore);
    lesson::expect("counted", got.counted == r.counted, std::to_string(r.counted), std::to_string(got.counted),
                   got.counted == r.counted_ignored_too
                       ? mean_hint(r, got, ignore)
                       : lesson::tr("counted is the number of rows whose target is not ignore",
                                    "counted 是目标不等于 ignore 的行数"));
    const double mean = r.sum / static_cast<double>(r.counted);
    std::string hint = mean_hint(r, got, ignore);
    if (got.counted == r.counted && !(std::fabs(got.mean - mean) <= tol) && right_rows_later(logits, targets, ignore, mean, tol))
        hint = memory_hint();
    else if (!std::isfinite(got.mean))
        hint = lesson::tr("the loss came out " + lesson::num(got.mean) +
                              ": exp overflowed (exp(1000) = inf) or a probability underflowed to 0 (log 0 = -inf); "
                              "use log-sum-exp: m + log(sum exp(z - m)) - z[target], with m the row's max",
                          "损失成了 " + lesson::num(got.mean) +
                              "：exp 溢出（exp(1000) = inf）或概率下溢成 0（log 0 = -inf）；用 log-sum-exp："
                              "m + log(sum exp(z - m)) - z[target]，m 是这一行的最大值");
    lesson::expect_near("mean", got.mean, mean, tol, hint);
}

inline pg::Tensor random_logits(size_t N, size_t V, float scale, uint64_t seed) {
    pg::Generator gen(seed);
    return pg::randn({N, V}, gen) * scale;
}

// n targets in [0, V), every fourth one kIgnore.
inline std::vector<int> random_targets(size_t n, size_t V, uint64_t seed) {
    pg::Generator gen(seed);
    std::vector<int> t;
    for (size_t i = 0; i < n; ++i) t.push_back(i % 4 == 1 ? poet::kIgnore : static_cast<int>(gen.randint(V)));
    return t;
}

// The loss of the records with the targets unshifted (record[0:27], k and SEP ignored), from
// pg::cross_entropy: what a records_loss that forgot the shift returns.
inline double unshifted_loss(pg::nn::GPT& gpt, const std::vector<std::vector<int>>& records) {
    const size_t B = records.size(), T = poet::kInputLength, V = gpt.config().vocab_size;
    std::vector<float> inputs, targets;
    for (const auto& rec : records)
        for (size_t t = 0; t < T; ++t) {
            inputs.push_back(static_cast<float>(rec[t]));
            targets.push_back(t < poet::kPromptLength - 1 ? static_cast<float>(poet::kIgnore) : static_cast<float>(rec[t]));
        }
    pg::Tensor logits = gpt.forward(pg::tensor(inputs, {B, T}));   // (B,T,V)
    return pg::cross_entropy(pg::reshape(logits, {B * T, V}), pg::tensor(targets, {B * T}), poet::kIgnore).item();
}

// n poems of 24 ids drawn from the ordinary ids [5, 40) (no special tokens).
inline std::vector<poet::Poem> random_poems(size_t n, uint64_t seed) {
    pg::Generator gen(seed);
    std::vector<poet::Poem> poems(n);
    for (poet::Poem& p : poems)
        for (size_t i = 0; i < 24; ++i) p.push_back(5 + static_cast<int>(gen.randint(35)));
    return poems;
}

}  // namespace check24

int main() {
    using namespace check24;
    lesson::Checks checks("24", "evaluation");
    checks.run(lesson::tr("by hand: 4 rows, V = 3, row 2 ignored: mean 0.6379 over 3", "手算：4 行，V = 3，第 2 行被忽略：3 个的平均 0.6379"), [] {
        expect_loss(lesson::from_rows({{2, 1, 0}, {0, 0, 0}, {5, 5, 5}, {1, 3, 2}}), {0, 2, poet::kIgnore, 1},
                    poet::kIgnore, 1e-6);
    });
    checks.run(lesson::tr("ignore is an argument: id 0 (COPY) as the ignored target", "ignore 是参数：把 id 0（COPY）当作被忽略的目标"), [] {
        expect_loss(random_logits(6, 5, 2.f, 241), {0, 3, 0, 4, 1, 0}, 0, 1e-6);
    });
    checks.run(lesson::tr("logits 1000, 0, -1000, target 0: loss 0, not inf or nan", "logits 为 1000、0、-1000，目标 0：损失 0，不是 inf 或 nan"), [] {
        const pg::Tensor z = lesson::from_rows({{1000, 0, -1000}});
        const exercise::Loss got = call(z, {0}, poet::kIgnore);
        if (std::fabs(got.mean) <= 1e-6) return;
        lesson::expect_near("mean", got.mean, 0.0, 1e-6, unless_memory(z, {0}, poet::kIgnore, 0.0, 1e-6,
                            lesson::tr("exp(1000) overflows to inf: subtract the row's max before exp, "
                                       "m + log(sum exp(z - m)) - z[target]",
                                       "exp(1000) 溢出成 inf：先减去这一行的最大值再取 exp："
                                       "m + log(sum exp(z - m)) - z[target]")));
    });
    checks.run(lesson::tr("logits 1000, 0, -1000, target 2: -log p = 2000 exactly", "logits 为 1000、0、-1000，目标 2：-log p 正好是 2000"), [] {
        const pg::Tensor z = lesson::from_rows({{1000, 0, -1000}});
        const exercise::Loss got = call(z, {2}, poet::kIgnore);
        if (std::fabs(got.mean - 2000.0) <= 1e-6) return;
        lesson::expect_near("mean", got.mean, 2000.0, 1e-6, unless_memory(z, {2}, poet::kIgnore, 2000.0, 1e-6,
                            lesson::tr("p = exp(-2000) underflowed to 0, and -log 0 = inf: never take the log of a "
                                       "probability; -log p = log-sum-exp - z[target] = 1000 - (-1000)",
                                       "p = exp(-2000) 下溢成 0，-log 0 = inf：不要对概率取 "
                                       "log；-log p = log-sum-exp - z[target] = 1000 - (-1000)")));
    });
    checks.run(lesson::tr("logits all below -745 (-1000 and -800): exp(z) is 0 even in double, the loss is not",
                          "logits 全都低于 -745（-1000 和 -800）：exp(z) 即使用 double 也是 0，损失却不是"), [] {
        const pg::Tensor logits = lesson::from_rows({{-1000, -1001, -1003}, {-800, -800, -801}});
        const exercise::Loss got = call(logits, {1, 2}, poet::kIgnore);
        const double want = reference(logits, {1, 2}, poet::kIgnore).sum / 2;
        if (!std::isfinite(got.mean))
            lesson::expect_near("mean", got.mean, want, 1e-5, unless_memory(logits, {1, 2}, poet::kIgnore, want, 1e-5,
                                lesson::tr("every logit of these rows is below -745, where exp(z) is 0 even in double: the "
                                           "sum of exp is 0 and its log is -inf. Subtract the row's max also when it is "
                                           "negative: exp(z - m) is 1 for the largest logit",
                                           "这两行的每个 logit 都低于 -745，那里 exp(z) 即使用 double 也是 0：exp 的和是 0，"
                                           "它的 log 是 -inf。最大值是负数时也要减去它：最大的 logit 的 exp(z - m) 是 1")));
        expect_loss(logits, {1, 2}, poet::kIgnore, 1e-5);
    });
    checks.run(lesson::tr("a row near 1000 beside a row near -1000: each row takes its own max",
                          "接近 1000 的一行旁边是接近 -1000 的一行：每一行取它自己的最大值"), [] {
        const std::vector<std::vector<float>> rows = {{1000, 999, 998}, {-1000, -1001, -1003}};
        const std::vector<int> targets = {1, 2};
        const pg::Tensor logits = lesson::from_rows(rows);
        const exercise::Loss got = call(logits, targets, poet::kIgnore);
        const double want = reference(logits, targets, poet::kIgnore).sum / 2;
        if (!std::isfinite(got.mean)) {
            bool each_alone = true;   // each row on its own gives its right loss: one max was taken for both rows
            for (size_t r = 0; r < rows.size(); ++r) {
                const pg::Tensor row = lesson::from_rows({rows[r]});
                const exercise::Loss one = exercise::masked_cross_entropy(row, {targets[r]}, poet::kIgnore);
                each_alone = each_alone && std::fabs(one.mean - reference(row, {targets[r]}, poet::kIgnore).sum) <= 1e-5;
            }
            if (each_alone)
                lesson::expect_near("mean", got.mean, want, 1e-5, unless_memory(logits, targets, poet::kIgnore, want, 1e-5,
                                    lesson::tr("the loss came out " + lesson::num(got.mean) + ", yet each row on its own "
                                               "gives its right loss: the max was taken over all the logits (1000 here), so "
                                               "every exp(z - m) of the row near -1000 is 0 and its log is -inf; take m over "
                                               "each row's own V logits, z to z + V",
                                               "损失成了 " + lesson::num(got.mean) + "，可每一行单独算时损失都是对的："
                                               "最大值是在全部 logits 上取的（这里是 1000），于是接近 -1000 的那一行的每个 "
                                               "exp(z - m) 都是 0，它的 log 是 -inf；m 要取每一行自己的 V 个 logits 的"
                                               "最大值，即 z 到 z + V")));
        }
        expect_loss(logits, targets, poet::kIgnore, 1e-5);
    });
    checks.run(lesson::tr("every target ignored: mean 0 with counted 0", "所有目标都被忽略：mean 为 0，counted 为 0"), [] {
        const exercise::Loss got = call(random_logits(3, 4, 1.f, 242), {poet::kIgnore, poet::kIgnore, poet::kIgnore},
                                        poet::kIgnore);
        lesson::expect("counted", got.counted == 0, "0", std::to_string(got.counted),
                       lesson::tr("no row is counted when every target is ignore", "所有目标都是 ignore 时一行也不计"));
        lesson::expect_near("mean", got.mean, 0.0, 0.0,
                            lesson::tr("nothing counted: return mean 0 (0/0 is NaN), so that a caller summing "
                                       "mean * counted over batches adds 0",
                                       "什么都没计：返回 mean 0（0/0 是 NaN），这样按批累加 "
                                       "mean * counted 的调用者加上的是 0"));
    });
    checks.run(lesson::tr("random logits (64, 50), a quarter ignored, against pg::cross_entropy",
                          "随机 logits (64, 50)，四分之一被忽略，与 pg::cross_entropy 对照"), [] {
        pg::Tensor logits = random_logits(64, 50, 3.f, 243);
        std::vector<int> targets = random_targets(64, 50, 244);
        std::vector<float> t(targets.begin(), targets.end());
        const double want = pg::cross_entropy(logits, pg::tensor(t, {64}), poet::kIgnore).item();
        const Reference r = reference(logits, targets, poet::kIgnore);
        lesson::expect_near("reference", r.sum / static_cast<double>(r.counted), want, 1e-5, "(the check's own)");
        expect_loss(logits, targets, poet::kIgnore, 1e-5);
    });
    checks.run(lesson::tr("records_loss of 64 validation records against poet::validation_loss (a small random GPT, V = 40)",
                          "64 条验证记录的 records_loss，与 poet::validation_loss 对照（一个随机的小 GPT，V = 40）"), [] {
        pg::Generator gen(245);
        std::unique_ptr<pg::nn::GPT> model = lesson::tiny_gpt(gen);
        pg::nn::GPT& gpt = *model;
        const auto records_of = [](const std::vector<poet::Poem>& poems) {   // each poem in its validation slot
            std::vector<std::vector<int>> out;
            for (size_t i = 0; i < poems.size(); ++i) out.push_back(poet::make_record(poems[i], poet::validation_slot(i)));
            return out;
        };
        std::vector<poet::Poem> val = random_poems(64, 246);
        const std::vector<std::vector<int>> records = records_of(val);
        const double want = poet::validation_loss(gpt, val, 64).mean;
        exercise::Loss got = exercise::records_loss(gpt, records);
        lesson::expect("counted", got.counted == 64 * poet::kLossTokens, std::to_string(64 * poet::kLossTokens),
                       std::to_string(got.counted),
                       got.counted == 64 * poet::kInputLength
                           ? lesson::tr("all 27 targets counted: the targets k and SEP (t = 0 and 1) carry no loss, "
                                        "set them to kIgnore; 25 per record",
                                        "27 个目标全计了：目标 k 和 SEP（t = 0 和 1）不计损失，"
                                        "设为 kIgnore；每条记录 25 个")
                           : lesson::tr("25 targets per record are counted: the 24 poem ids and EOS",
                                        "每条记录计 25 个目标：诗的 24 个 id 和 EOS"));
        std::string hint = lesson::tr("targets[b*T + t] = record[b][t + 1] for t >= 2, kIgnore for t = 0 and 1; "
                                      "inputs record[b][0..26]; logits reshaped to (B*T, V)",
                                      "targets[b*T + t] = record[b][t + 1]（t >= 2），t = 0 和 1 为 kIgnore；"
                                      "输入是 record[b][0..26]；logits 变形为 (B*T, V)");
        if (near(got.mean, unshifted_loss(gpt, records)))
            hint = lesson::tr("the targets are the inputs: the targets are the record shifted by one, "
                              "targets[t] = record[t + 1] (the model predicts the next id)",
                              "目标就是输入本身：目标是记录错开一位，"
                              "targets[t] = record[t + 1]（模型预测下一个 id）");
        lesson::expect_near("records_loss", got.mean, want, 1e-5, hint);
        // a second call, on 16 other records: a loss kept from the first call (a static) shows here
        const std::vector<poet::Poem> more = random_poems(16, 247);
        const double want_more = poet::validation_loss(gpt, more, 16).mean;
        const exercise::Loss again = exercise::records_loss(gpt, records_of(more));
        if (std::fabs(want_more - want) > 1e-5 && again.mean == got.mean)
            hint = lesson::came_back_hint({"result", "结果"}, {"model and records", "模型和 records"});
        lesson::expect_near(lesson::tr("records_loss of 16 other records", "另外 16 条记录的 records_loss"), again.mean,
                            want_more, 1e-5, hint);
    });
    return checks.finish();
}
