// Lesson 27's checks for mark_copies and copy_loss, shared by starter.cpp, solution.cpp and your
// exercise.cpp. mark_copies against poet::with_copy_token: 登鹳雀楼 with k = 山, k only in the prompt,
// k twice, a poem that opens with k, rows being written, 200 random records, an answer that comes back
// from an earlier call. copy_loss: the README's table, ignore as an argument, logits of 1000 and rows
// all below -745, every row ignored, random rows against the formula, and poet::validation_loss on a
// small seeded GPT with and without the copy token, twice (no training: the checks take a second).
// A wrong answer is compared with each slip's answer, so the hint names the one it is.
#include "check.hpp"
#include "check_tools.hpp"

namespace check27 {

using lesson::tr;
constexpr int COPY = poet::Tokenizer::COPY;

// ---- mark_copies ----

std::string ids_str(const std::vector<int>& ids) {
    std::string out;
    for (size_t i = 0; i < ids.size(); ++i) out += (i ? " " : "") + std::to_string(ids[i]);
    return "[" + out + "]";
}

// The record with the ids equal to k from position `from` on written as `mark`: all of them, or the
// first only; `inverted` writes every other id instead.
std::vector<int> marked(const std::vector<int>& record, size_t from, int mark, bool first_only = false,
                        bool inverted = false) {
    std::vector<int> out = record;
    const int k = record[1];
    for (size_t i = from; i < out.size(); ++i)
        if ((out[i] == k) != inverted) {
            out[i] = mark;
            if (first_only) break;
        }
    return out;
}

// The likely slip behind a wrong marked record, read from the ids.
std::string marking_hint(const std::vector<int>& record, const std::vector<int>& got) {
    if (got.size() != record.size())
        return tr("the marked record has as many ids as the record: only ids change, none is added or removed",
                  "标记后的记录和原记录一样长：只改编号，不增不减");
    if (got == marked(record, 1, COPY))
        return tr("position 1 is the prompt itself and stays k: the model must still read which character the "
                  "poem is for. Mark the poem only, positions 3 on",
                  "位置 1 是提示字本身，要保持为 k：模型仍要读到这首诗是为哪个字写的。只标记诗，也就是位置 3 以后");
    if (got == marked(record, poet::kPromptLength, COPY, true))
        return tr("only the first k of the poem became COPY: every occurrence of k after SEP becomes COPY",
                  "只有诗里第一个 k 变成了 COPY：SEP 之后的每一个 k 都要变成 COPY");
    if (got == marked(record, poet::kPromptLength + 1, COPY))
        return tr("the poem starts at position 3, right after SEP: a poem whose first character is k has COPY at "
                  "position 3",
                  "诗从位置 3 开始，紧跟在 SEP 后面：第一个字就是 k 的诗，位置 3 上应是 COPY");
    if (got == record)
        return tr("nothing was marked: k is record[1], the id between BOS and SEP (record[0] is BOS, record[2] SEP)",
                  "什么都没有标记：k 是 record[1]，即 BOS 和 SEP 之间的那个编号（record[0] 是 BOS，record[2] 是 SEP）");
    if (got == marked(record, poet::kPromptLength, poet::kIgnore))
        return tr("a marked position holds COPY, poet::Tokenizer::COPY (id 0), not kIgnore: the copy of k is a "
                  "target the model learns, not one it skips",
                  "被标记的位置放的是 COPY，即 poet::Tokenizer::COPY（id 0），不是 kIgnore：诗里的 k 是模型要学的目标，"
                  "不是被跳过的目标");
    if (got == marked(record, poet::kPromptLength, COPY, false, true))
        return tr("the test is inverted: only the ids equal to k become COPY, every other id stays",
                  "条件反了：只有等于 k 的编号变成 COPY，其余编号保持不变");
    return tr("positions 3 on: each id equal to k = record[1] becomes poet::Tokenizer::COPY (0); BOS, k, SEP and "
              "every other id stay as they are",
              "从位置 3 起：每个等于 k = record[1] 的编号变成 poet::Tokenizer::COPY (0)；BOS、k、SEP 和其他编号都不变");
}

void expect_marked(const std::string& what, const std::vector<int>& record) {
    static std::vector<std::vector<int>> earlier;   // the right answers of the calls before
    const std::vector<int> want = poet::with_copy_token(record), got = exercise::mark_copies(record);
    if (lesson::came_back(got, want, earlier, std::equal_to<std::vector<int>>(), std::not_equal_to<std::vector<int>>(),
                          lesson::Remember::right_answers))
        throw lesson::CheckFailed(what, ids_str(want), ids_str(got) + tr(", the answer of an earlier call", "，先前一次调用的答案"),
                                  lesson::came_back_hint({"marked record", "标记后的记录"}, {"record", "record"}));
    lesson::expect(what, got == want, ids_str(want), ids_str(got), got == want ? "" : marking_hint(record, got));
}

// BOS k SEP, the 24 ids of a poem, EOS.
std::vector<int> record_of(int k, const std::vector<int>& poem) {
    std::vector<int> r = {poet::Tokenizer::BOS, k, poet::Tokenizer::SEP};
    r.insert(r.end(), poem.begin(), poem.end());
    r.push_back(poet::Tokenizer::EOS);
    return r;
}

// 登鹳雀楼 with k = 山 (id 11), as the experiment prints it (the jueju corpus's tokenizer).
const std::vector<int> kDengGuanque = {1, 11, 2, 50, 16, 367, 11, 105, 6, 126, 375, 91, 177, 103,
                                       5, 84, 390, 57, 62, 456, 6, 93, 31, 9, 963, 256, 5, 3};

// ---- copy_loss ----

pg::Tensor column(const std::vector<int>& v) {
    std::vector<float> f(v.begin(), v.end());
    return pg::tensor(f, {v.size()});
}

// The right loss and the slips', row by row in double.
struct Reference {
    double sum = 0, copy_alone = 0, k_alone = 0, product = 0, max = 0, fold_every = 0, ks0 = 0;
    size_t counted = 0, counted_kignore = 0, N = 0;
    bool finite_ordinary = true;   // every counted row whose target is not COPY has a finite loss
    double mean() const { return counted ? sum / static_cast<double>(counted) : 0.0; }
    double per(double s) const { return counted ? s / static_cast<double>(counted) : 0.0; }
};

double log_add(double a, double b) {
    const double m = std::max(a, b);
    return m + std::log(std::exp(a - m) + std::exp(b - m));
}

Reference reference(const pg::Tensor& logits, const std::vector<int>& targets, const std::vector<int>& ks, long ignore) {
    const size_t N = logits.size(0), V = logits.size(1);
    Reference r;
    r.N = N;
    for (size_t i = 0; i < N; ++i) {
        if (targets[i] != poet::kIgnore) ++r.counted_kignore;
        if (targets[i] == ignore) continue;
        const float* z = logits.ptr() + i * V;
        const double m = *std::max_element(z, z + V);
        double total = 0;
        for (size_t v = 0; v < V; ++v) total += std::exp(z[v] - m);
        const double lse = m + std::log(total), t = z[targets[i]];
        const double a = z[ks[i]], b = z[COPY], a0 = z[ks[0]];
        const bool copy = targets[i] == COPY;
        r.sum += lse - (copy ? log_add(a, b) : t);
        r.copy_alone += lse - (copy ? b : t);
        r.k_alone += lse - (copy ? a : t);
        r.product += copy ? 2 * lse - a - b : lse - t;
        r.max += lse - (copy ? std::max(a, b) : t);
        r.fold_every += lse - log_add(copy ? a : t, b);
        r.ks0 += lse - (copy ? log_add(a0, b) : t);
        ++r.counted;
    }
    return r;
}

bool near(double a, double b) { return std::fabs(a - b) <= 1e-4 * std::max(1.0, std::fabs(b)); }

// The likely slip behind a wrong mean, read from the numbers.
std::string mean_hint(const Reference& r, const exercise::CopyLoss& got) {
    if (!std::isfinite(got.mean))
        return tr("the loss came out " + lesson::num(got.mean) + ": an exp overflowed (e^1000 is inf) or every exp "
                  "underflowed to 0 (log 0 = -inf); subtract each maximum before exp: m + log(sum exp(z - m)) for the "
                  "row, and mab + log(e^(a - mab) + e^(b - mab)) for k and COPY",
                  "损失成了 " + lesson::num(got.mean) + "：有 exp 溢出了（e^1000 是 inf），或者所有 exp 都下溢成 0"
                  "（log 0 = -inf）；取 exp 之前先减去最大值：整行是 m + log(sum exp(z - m))，k 和 COPY 两项是 "
                  "mab + log(e^(a - mab) + e^(b - mab))");
    if (near(got.mean, r.per(r.max)) && (near(got.mean, r.per(r.copy_alone)) || near(got.mean, r.per(r.k_alone))))
        return tr("one of k and COPY was counted alone: -log p(COPY) alone, -log p(k) alone, or max(z[k], z[COPY]) "
                  "for the log of the sum, which give the same here. The model writes k by its own id or as COPY, so a "
                  "target COPY costs -log(p(k) + p(COPY))",
                  "k 和 COPY 只算了其中一个：只算 -log p(COPY)、只算 -log p(k)，或者用 max(z[k], z[COPY]) 代替和的 log，"
                  "这几种在这里结果相同。模型写 k 可以用它自己的编号，也可以用 COPY，所以目标为 COPY 的代价是 "
                  "-log(p(k) + p(COPY))");
    if (near(got.mean, r.per(r.copy_alone)))
        return tr("k's own probability is left out: that is -log p(COPY) alone. The model may write k by its own id "
                  "as well, so a target COPY costs -log(p(k) + p(COPY))",
                  "漏掉了 k 自己的概率：这是只算 -log p(COPY) 的结果。模型也可能用 k 自己的编号写出 k，"
                  "所以目标为 COPY 的代价是 -log(p(k) + p(COPY))");
    if (near(got.mean, r.per(r.k_alone)))
        return tr("COPY's probability is left out: that is -log p(k) alone. A target COPY costs "
                  "-log(p(k) + p(COPY)), with k = ks[row]",
                  "漏掉了 COPY 的概率：这是只算 -log p(k) 的结果。目标为 COPY 的代价是 "
                  "-log(p(k) + p(COPY))，其中 k = ks[row]");
    if (near(got.mean, r.per(r.product)))
        return tr("you added log p(k) and log p(COPY): that is the log of their product. The model writes k by its "
                  "own id or as COPY, so its probability is the sum: -log(p(k) + p(COPY))",
                  "你把 log p(k) 和 log p(COPY) 加在一起了：那是两者之积的 log。模型写 k 可以用它自己的编号，"
                  "也可以用 COPY，所以它的概率是两者之和：-log(p(k) + p(COPY))");
    if (near(got.mean, r.per(r.max)))
        return tr("you took max(z[k], z[COPY]) for the log of the sum: the smaller one's probability is dropped. "
                  "log(e^a + e^b) = mab + log(e^(a - mab) + e^(b - mab)), with mab = max(a, b)",
                  "你用 max(z[k], z[COPY]) 代替了和的 log：较小那一项的概率丢掉了。"
                  "log(e^a + e^b) = mab + log(e^(a - mab) + e^(b - mab))，其中 mab = max(a, b)");
    if (near(got.mean, r.per(r.fold_every)))
        return tr("COPY's probability was added for a target that is not COPY: only a target COPY scores "
                  "log(e^z[k] + e^z[COPY]); any other target scores z[target]",
                  "目标不是 COPY 时也加上了 COPY 的概率：只有目标为 COPY 时才算 "
                  "log(e^z[k] + e^z[COPY])；其他目标就是 z[目标]");
    if (near(got.mean, r.per(r.ks0)))
        return tr("every row read the k of row 0: each row's k is its own, ks[row]",
                  "每一行都用了第 0 行的 k：每一行的 k 是它自己的 ks[row]");
    if (r.counted != r.N && near(got.mean, r.sum / static_cast<double>(r.N)))
        return tr("divided by N, every row: divide by the counted rows, not by N (ignored rows are not predictions)",
                  "除以了 N（所有行）：应除以计入的行数，不是除以 N；被忽略的行不是预测");
    return tr("for each counted row: lse = m + log(sum exp(z - m)); score = z[target], or for a target COPY "
              "log(e^z[k] + e^z[COPY]) with k = ks[row]; mean = the sum of lse - score over the counted rows / counted",
              "对每个计入的行：lse = m + log(sum exp(z - m))；score = z[目标]，目标是 COPY 时为 "
              "log(e^z[k] + e^z[COPY])，k = ks[row]；mean = 计入行的 lse - score 之和 / counted");
}

// Your copy_loss, with pg::cross_entropy's error named, and a loss that came back from an earlier
// call (other logits, targets or ks, whose loss is another) caught.
exercise::CopyLoss call(const pg::Tensor& logits, const std::vector<int>& targets, const std::vector<int>& ks, long ignore) {
    static std::vector<double> earlier;   // the right means of the earlier calls
    exercise::CopyLoss got;
    try {
        got = exercise::copy_loss(logits, column(targets), column(ks), ignore);
    } catch (const std::invalid_argument& e) {
        if (std::strstr(e.what(), "cross_entropy") == nullptr) throw;
        throw lesson::CheckFailed("copy_loss", "mean 0, counted 0", std::string("pg::cross_entropy threw: ") + e.what(),
                                  tr("you called pg::cross_entropy, which is what this exercise writes (and which "
                                     "counts -log p(COPY) alone): write the loss from the logits, with max, exp and log",
                                     "你调用了 pg::cross_entropy，而它正是这个练习要你自己写的（而且它只算 "
                                     "-log p(COPY)）：用 max、exp 和 log 直接从 logits 算损失"));
    }
    const Reference r = reference(logits, targets, ks, ignore);
    if (lesson::came_back(got.mean, r.mean(), earlier, std::equal_to<double>(),
                          [](double a, double b) { return !near(a, b); }, lesson::Remember::right_answers))
        throw lesson::CheckFailed("copy_loss(" + lesson::str(logits.shape()) + ")", lesson::num(r.mean(), 6),
                                  lesson::num(got.mean, 6) + tr(", the mean of an earlier call", "，先前一次调用的 mean"),
                                  lesson::came_back_hint({"loss", "损失"}, {"logits, targets and ks", "logits、targets 和 ks"}));
    return got;
}

void expect_loss(const pg::Tensor& logits, const std::vector<int>& targets, const std::vector<int>& ks, long ignore,
                 double tol) {
    const Reference r = reference(logits, targets, ks, ignore);
    const exercise::CopyLoss got = call(logits, targets, ks, ignore);
    const std::string i = std::to_string(ignore);
    lesson::expect("counted", got.counted == r.counted, std::to_string(r.counted), std::to_string(got.counted),
                   got.counted == r.counted_kignore && r.counted_kignore != r.counted
                       ? tr("rows whose target equals ignore (here " + i + ") were counted: skip every target equal "
                            "to ignore, the argument, not only kIgnore = -1",
                            "目标等于 ignore（这里是 " + i + "）的行被计进去了：跳过所有等于参数 ignore 的目标，"
                            "不只是 kIgnore = -1")
                       : tr("counted is the number of rows whose target is not ignore",
                            "counted 是目标不等于 ignore 的行数"));
    if (r.counted == 0) return;
    lesson::expect_near("mean", got.mean, r.mean(), tol, mean_hint(r, got));
}

pg::Tensor random_logits(size_t N, size_t V, float scale, uint64_t seed) {
    pg::Generator gen(seed);
    return pg::randn({N, V}, gen) * scale;
}

// n poems of 24 ids drawn from the ordinary ids [5, 40) (no special tokens): k often stands twice.
std::vector<poet::Poem> random_poems(size_t n, uint64_t seed) {
    pg::Generator gen(seed);
    std::vector<poet::Poem> poems(n);
    for (poet::Poem& p : poems)
        for (size_t i = 0; i < 24; ++i) p.push_back(5 + static_cast<int>(gen.randint(35)));
    return poems;
}

// The validation records of `poems` through the model, as copy_loss takes them: logits (B*T,V), the
// targets, and each row's k (its record's position 1).
struct Rows {
    pg::Tensor logits;
    std::vector<int> targets, ks;
};
Rows rows_of(pg::nn::GPT& gpt, const std::vector<poet::Poem>& poems, bool copy_token) {
    pg::NoGradGuard no_grad;
    const poet::Batch b = poet::validation_batch(poems, 0, poems.size(), copy_token);
    const size_t T = poet::kInputLength, V = gpt.config().vocab_size, BT = poems.size() * T;
    Rows rows{pg::reshape(gpt.forward(b.inputs), {BT, V}), {}, {}};
    for (size_t row = 0; row < BT; ++row) {
        rows.targets.push_back(static_cast<int>(b.targets.ptr()[row]));
        rows.ks.push_back(static_cast<int>(b.inputs.ptr()[row - row % T + 1]));
    }
    return rows;
}

}  // namespace check27

int main() {
    using namespace check27;
    lesson::Checks checks("27", "copy_token");

    checks.run(tr("mark_copies: 登鹳雀楼 with k = 山: position 6 becomes COPY, position 1 stays 山",
                  "mark_copies：《登鹳雀楼》，k = 山：位置 6 变成 COPY，位置 1 仍是山"), [] {
        expect_marked("mark_copies", kDengGuanque);
    });
    checks.run(tr("mark_copies: k only in the prompt: nothing to mark", "mark_copies：k 只在提示里：没有要标记的"), [] {
        std::vector<int> poem;
        for (int i = 0; i < 24; ++i) poem.push_back(10 + i);
        expect_marked("mark_copies", record_of(7, poem));
    });
    checks.run(tr("mark_copies: k twice in the poem (寂寂): both become COPY", "mark_copies：k 在诗里出现两次（寂寂）：两个都变成 COPY"), [] {
        std::vector<int> poem;
        for (int i = 0; i < 24; ++i) poem.push_back(i == 18 || i == 19 ? 8 : 10 + i);
        expect_marked("mark_copies", record_of(8, poem));
    });
    checks.run(tr("mark_copies: a poem whose first character is k: COPY at position 3",
                  "mark_copies：第一个字就是 k 的诗：位置 3 是 COPY"), [] {
        std::vector<int> poem;
        for (int i = 0; i < 24; ++i) poem.push_back(i == 0 ? 9 : 10 + i);
        expect_marked("mark_copies", record_of(9, poem));
    });
    checks.run(tr("mark_copies: rows being written: BOS k SEP alone, and with 5 ids of the poem",
                  "mark_copies：正在写的行：只有 BOS k SEP，以及诗已写了 5 个编号"), [] {
        expect_marked("mark_copies", {poet::Tokenizer::BOS, 12, poet::Tokenizer::SEP});
        expect_marked("mark_copies", {poet::Tokenizer::BOS, 12, poet::Tokenizer::SEP, 12, 30, 31, 12, 32});
    });
    checks.run(tr("mark_copies: 200 random records against poet::with_copy_token", "mark_copies：200 条随机记录，与 poet::with_copy_token 对照"), [] {
        const std::vector<poet::Poem> poems = random_poems(200, 270);
        for (size_t i = 0; i < poems.size(); ++i)
            expect_marked("mark_copies(" + tr("record ", "记录 ") + std::to_string(i) + ")", poet::make_record(poems[i], (3 * i) % 20));
    });

    checks.run(tr("copy_loss by hand: 4 rows, V = 5, row 2 ignored: mean over 3", "copy_loss 手算：4 行，V = 5，第 2 行被忽略：3 行的平均"), [] {
        expect_loss(lesson::from_rows({{1, 0, -1, 2, 0}, {1, 0, -1, 2, 0}, {0, 0, 0, 0, 0}, {3, 2, 0, 0, 1}}),
                    {COPY, 2, poet::kIgnore, COPY}, {3, 3, 3, 4}, poet::kIgnore, 1e-6);
    });
    checks.run(tr("copy_loss: ignore is an argument: targets of 7 ignored", "copy_loss：ignore 是参数：目标为 7 的行被忽略"), [] {
        expect_loss(random_logits(6, 9, 2.f, 271), {7, COPY, 7, 4, COPY, 7}, {5, 5, 6, 6, 8, 8}, 7, 1e-6);
    });
    checks.run(tr("copy_loss: logits 1000, 0, 999, -1000, 998, an ordinary target", "copy_loss：logits 为 1000、0、999、-1000、998，普通目标"), [] {
        const pg::Tensor z = lesson::from_rows({{1000, 0, 999, -1000, 998}});
        const exercise::CopyLoss got = call(z, {2}, {4}, poet::kIgnore);
        const double want = reference(z, {2}, {4}, poet::kIgnore).mean();
        if (std::isfinite(got.mean)) return expect_loss(z, {2}, {4}, poet::kIgnore, 1e-6);
        lesson::expect_near("mean", got.mean, want, 1e-6,
                            tr("exp(1000) overflows to inf: subtract the row's max before exp, m + log(sum exp(z - m))",
                               "exp(1000) 溢出成 inf：先减去这一行的最大值再取 exp：m + log(sum exp(z - m))"));
    });
    checks.run(tr("copy_loss: logits 1000, 0, 1000, -1000, 0, target COPY with k = 2: loss 0",
                  "copy_loss：logits 为 1000、0、1000、-1000、0，目标 COPY，k = 2：损失 0"), [] {
        const pg::Tensor z = lesson::from_rows({{1000, 0, 1000, -1000, 0}});
        const exercise::CopyLoss got = call(z, {COPY}, {2}, poet::kIgnore);
        if (std::isfinite(got.mean)) return expect_loss(z, {COPY}, {2}, poet::kIgnore, 1e-6);
        const exercise::CopyLoss ordinary = exercise::copy_loss(z, column({1}), column({2}), poet::kIgnore);
        lesson::expect_near("mean", got.mean, 0.0, 1e-6,
                            std::isfinite(ordinary.mean)
                                ? tr("the same row with an ordinary target is finite, so the fold overflowed: "
                                     "log(e^z[k] + e^z[COPY]) without its max is log(inf); write it as "
                                     "mab + log(e^(a - mab) + e^(b - mab)), with mab = max(a, b)",
                                     "同一行换成普通目标时损失是有限的，所以是合并那一步溢出了：不减最大值的 "
                                     "log(e^z[k] + e^z[COPY]) 是 log(inf)；要写成 "
                                     "mab + log(e^(a - mab) + e^(b - mab))，其中 mab = max(a, b)")
                                : tr("exp(1000) overflows to inf: subtract the row's max before exp, m + log(sum exp(z - m))",
                                     "exp(1000) 溢出成 inf：先减去这一行的最大值再取 exp：m + log(sum exp(z - m))"));
    });
    checks.run(tr("copy_loss: logits all below -745, a target COPY and an ordinary one: exp(z) is 0 even in double, the loss is not",
                  "copy_loss：logits 全都低于 -745，一个目标 COPY、一个普通目标：exp(z) 即使用 double 也是 0，损失却不是"), [] {
        const pg::Tensor z = lesson::from_rows({{-1000, -1001, -1003, -1002, -1000.5f}, {-1000, -1001, -1003, -1002, -1000.5f}});
        const exercise::CopyLoss got = call(z, {COPY, 1}, {3, 3}, poet::kIgnore);
        if (!std::isfinite(got.mean)) {
            const pg::Tensor row = lesson::from_rows({{-1000, -1001, -1003, -1002, -1000.5f}});
            const exercise::CopyLoss ordinary = exercise::copy_loss(row, column({1}), column({3}), poet::kIgnore);
            lesson::expect_near("mean", got.mean, reference(z, {COPY, 1}, {3, 3}, poet::kIgnore).mean(), 1e-5,
                                std::isfinite(ordinary.mean)
                                    ? tr("the row with an ordinary target is finite, the one with a target COPY is not: "
                                         "e^-1000 + e^-1002 is 0 even in double, and log 0 = -inf. Fold with the max of "
                                         "the two: mab + log(e^(a - mab) + e^(b - mab))",
                                         "普通目标的那一行是有限的，目标为 COPY 的那一行却不是：e^-1000 + e^-1002 即使用 "
                                         "double 也是 0，而 log 0 = -inf。合并时要减去两者中的最大值："
                                         "mab + log(e^(a - mab) + e^(b - mab))")
                                    : tr("every logit is below -745, where exp(z) is 0 even in double: the sum of exp is 0 "
                                         "and its log -inf. Subtract the row's max before exp, also when it is negative",
                                         "每个 logit 都低于 -745，那里 exp(z) 即使用 double 也是 0：exp 的和是 0，它的 "
                                         "log 是 -inf。取 exp 之前先减去这一行的最大值，最大值是负数时也要减"));
        }
        expect_loss(z, {COPY, 1}, {3, 3}, poet::kIgnore, 1e-5);
    });
    checks.run(tr("copy_loss: every target ignored: mean 0 with counted 0", "copy_loss：所有目标都被忽略：mean 为 0，counted 为 0"), [] {
        const exercise::CopyLoss got = call(random_logits(3, 6, 1.f, 272), {poet::kIgnore, poet::kIgnore, poet::kIgnore},
                                            {5, 5, 5}, poet::kIgnore);
        lesson::expect("counted", got.counted == 0, "0", std::to_string(got.counted),
                       tr("no row is counted when every target is ignore", "所有目标都是 ignore 时一行也不计"));
        lesson::expect_near("mean", got.mean, 0.0, 0.0,
                            tr("nothing counted: return mean 0 (0/0 is NaN), so that a caller summing mean * counted "
                               "over batches adds 0",
                               "什么都没计：返回 mean 0（0/0 是 NaN），这样按批累加 mean * counted 的调用者加上的是 0"));
    });
    checks.run(tr("copy_loss: random logits (64, 12), each row its own k, COPY targets among others, a quarter ignored",
                  "copy_loss：随机 logits (64, 12)，每行有自己的 k，COPY 目标夹在其他目标之间，四分之一被忽略"), [] {
        pg::Generator gen(273);
        std::vector<int> targets, ks;
        for (size_t i = 0; i < 64; ++i) {
            ks.push_back(5 + static_cast<int>(gen.randint(7)));
            targets.push_back(i % 4 == 1 ? poet::kIgnore : i % 3 == 0 ? COPY : 5 + static_cast<int>(gen.randint(7)));
        }
        expect_loss(random_logits(64, 12, 2.f, 274), targets, ks, poet::kIgnore, 1e-5);
    });
    checks.run(tr("copy_loss of 64 validation records with the copy token against poet::validation_loss(..., true) "
                  "(a small random GPT, V = 40)",
                  "64 条带复制标记的验证记录的 copy_loss，与 poet::validation_loss(..., true) 对照（一个随机的小 GPT，V = 40）"), [] {
        pg::Generator gen(275);
        std::unique_ptr<pg::nn::GPT> gpt = lesson::tiny_gpt(gen);
        const std::vector<poet::Poem> poems = random_poems(64, 276);
        const Rows rows = rows_of(*gpt, poems, true);
        const double want = poet::validation_loss(*gpt, poems, 64, true).mean;
        lesson::expect_near(tr("the check's own reference", "检查自己的参考值"), reference(rows.logits, rows.targets, rows.ks, poet::kIgnore).mean(),
                            want, 1e-5, "(the check's own)");
        expect_loss(rows.logits, rows.targets, rows.ks, poet::kIgnore, 1e-5);
    });
    checks.run(tr("copy_loss of the same records without the copy token: no target COPY, lesson 24's loss",
                  "同样的记录不带复制标记时的 copy_loss：没有 COPY 目标，就是第 24 课的损失"), [] {
        pg::Generator gen(275);
        std::unique_ptr<pg::nn::GPT> gpt = lesson::tiny_gpt(gen);
        const std::vector<poet::Poem> poems = random_poems(64, 276);
        const Rows rows = rows_of(*gpt, poems, false);
        lesson::expect_near(tr("the check's own reference", "检查自己的参考值"), reference(rows.logits, rows.targets, rows.ks, poet::kIgnore).mean(),
                            poet::validation_loss(*gpt, poems, 64, false).mean, 1e-5, "(the check's own)");
        expect_loss(rows.logits, rows.targets, rows.ks, poet::kIgnore, 1e-5);
    });
    checks.run(tr("copy_loss of 16 other records with the copy token", "另外 16 条带复制标记的记录的 copy_loss"), [] {
        pg::Generator gen(275);
        std::unique_ptr<pg::nn::GPT> gpt = lesson::tiny_gpt(gen);
        const std::vector<poet::Poem> poems = random_poems(16, 277);
        const Rows rows = rows_of(*gpt, poems, true);
        expect_loss(rows.logits, rows.targets, rows.ks, poet::kIgnore, 1e-5);
    });
    return checks.finish();
}
