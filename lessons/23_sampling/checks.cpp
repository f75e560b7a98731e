// Lesson 23's checks for topk_probabilities and sample_topk, shared by starter.cpp, solution.cpp and
// your exercise.cpp: exact probabilities on small cases, logits near ±1000, poet::allowed_probabilities
// on random logits, one generator draw per sample, the inverse CDF, and a χ² test over 20000 draws.
// Leaves out: the model (the checks stay fast); the experiment samples from it.
#include "check.hpp"
#include "check_tools.hpp"

namespace check23 {

using Probs = std::vector<double>;

// The reference: ids sorted by logit (larger first, ties by id), the first k kept, then
// poet::allowed_probabilities over them, scattered back to V entries.
inline Probs reference(const std::vector<float>& logits, size_t k, double temperature) {
    std::vector<int> ids(logits.size());
    std::iota(ids.begin(), ids.end(), 0);
    std::stable_sort(ids.begin(), ids.end(), [&](int a, int b) { return logits[a] > logits[b]; });
    if (k > 0 && k < ids.size()) ids.resize(k);
    std::sort(ids.begin(), ids.end());
    Probs kept = poet::allowed_probabilities(logits, ids, static_cast<float>(temperature)), p(logits.size(), 0.0);
    for (size_t i = 0; i < ids.size(); ++i) p[static_cast<size_t>(ids[i])] = kept[i];
    return p;
}

inline std::string str(const Probs& p) {
    std::string out;
    for (size_t i = 0; i < p.size() && i < 10; ++i) out += (i ? ", " : "") + lesson::num(p[i], 4);
    if (p.size() > 10) out += ", ... (" + std::to_string(p.size()) + " in all)";
    return "[" + out + "]";
}

inline bool close(const Probs& a, const Probs& b, double tol = 1e-6) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (!(std::fabs(a[i] - b[i]) <= tol)) return false;
    return true;
}

inline size_t nonzero(const Probs& p) {
    return static_cast<size_t>(std::count_if(p.begin(), p.end(), [](double v) { return v != 0.0; }));
}

inline std::string logits_str(const std::vector<float>& z) {
    std::string out;
    for (size_t i = 0; i < z.size() && i < 10; ++i) out += (i ? ", " : "") + lesson::num(z[i], 2);
    if (z.size() > 10) out += ", ...";
    return "[" + out + "]";
}

// Does the learner's cut keep k + 1 ids where no logits tie? (Else an extra id at a tie is the tie rule.)
inline bool one_more_without_ties() {
    return nonzero(exercise::topk_probabilities({2.0f, 1.0f, 0.5f, 0.0f, -1.0f}, 2, 1.0f)) == 3;
}

// Compares the learner's probabilities with the reference and names the mistake the numbers point to.
inline void expect_probabilities(const std::vector<float>& logits, size_t k, float T) {
    const std::string what = "topk_probabilities(" + logits_str(logits) + ", k = " + std::to_string(k) +
                             ", T = " + lesson::num(T, 2) + ")";
    static std::vector<Probs> earlier;   // the right answers of the earlier calls
    const Probs want = reference(logits, k, T), got = exercise::topk_probabilities(logits, k, T);
    if (lesson::came_back(got, want, earlier, std::equal_to<Probs>(),
                          [](const Probs& a, const Probs& b) { return !close(a, b); }, lesson::Remember::right_answers))
        throw lesson::CheckFailed(what, lesson::tr("the probabilities of these logits, k and T", "这组 logits、k 和 T 的概率"),
                                  lesson::tr("exactly the probabilities an earlier call returned", "和先前一次调用返回的概率一模一样"),
                                  lesson::came_back_hint({"result", "结果"},
                                                         {"logits, k and temperature", "logits、k 和 temperature"}));
    if (close(got, want)) return;
    const size_t V = logits.size(), kept = k == 0 || k >= V ? V : k;
    std::string hint;
    double sum = 0;
    bool finite = true;
    for (double v : got) {
        finite = finite && std::isfinite(v);
        sum += v;
    }
    // the ids your result keeps, and whether they are a top k (every kept logit >= every dropped one)
    std::vector<size_t> kept_ids;
    for (size_t i = 0; i < got.size(); ++i)
        if (got[i] != 0.0) kept_ids.push_back(i);
    bool a_top_k = got.size() == V && kept_ids.size() == kept && kept < V;
    if (a_top_k) {
        float lowest_kept = INFINITY, highest_dropped = -INFINITY;
        for (size_t i = 0; i < V; ++i)
            (got[i] != 0.0 ? lowest_kept : highest_dropped) =
                got[i] != 0.0 ? std::min(lowest_kept, logits[i]) : std::max(highest_dropped, logits[i]);
        // ... but not the reference's k (the ties resolved otherwise)
        size_t same = 0;
        for (size_t i : kept_ids) same += want[i] != 0.0;
        a_top_k = lowest_kept >= highest_dropped && same < kept;
    }
    if (got.size() != V)
        hint = lesson::tr("one probability per id, V = " + std::to_string(V) + " in all, zeros outside the top k",
                          "每个 id 一个概率，共 V = " + std::to_string(V) + " 个，前 k 之外为 0");
    else if (!finite) {
        hint = lesson::tr("NaN or inf: exp overflowed (or 0/0). Subtract the largest logit before exp: "
                          "exp((z - max) / T) is at most 1",
                          "出现了 NaN 或 inf：exp 溢出（或 0/0）。先减去最大的 logit 再取 exp："
                          "exp((z - max) / T) 不会超过 1");
        // the same logits with the largest swapped to the front come out right: the shift was the first logit
        const size_t top = static_cast<size_t>(std::max_element(logits.begin(), logits.end()) - logits.begin());
        if (top != 0) {
            std::vector<float> front = logits;
            std::swap(front[0], front[top]);
            if (close(exercise::topk_probabilities(front, k, T), reference(front, k, T)))
                hint = lesson::tr("NaN or inf, yet the same logits with the largest one swapped to the front come out right: "
                                      "you subtracted logits[0], the first logit, not the largest (here id " +
                                      std::to_string(top) + "); subtract the largest logit before exp, the max over all "
                                      "the logits, so that exp((z - max) / T) is at most 1",
                                  "出现了 NaN 或 inf，而把最大的 logit 换到最前面之后，同样这组 logits 却算对了："
                                      "你减去的是 logits[0]，即第一个 logit，而不是最大的那个（这里是 id " +
                                      std::to_string(top) + "）；exp 之前要减去所有 logits 里最大的那个，"
                                      "这样 exp((z - max) / T) 才不会超过 1");
        }
    } else if (k >= V && close(exercise::topk_probabilities(logits, 0, T), reference(logits, 0, T)))
        hint = lesson::tr("k = 0 gives the right probabilities but k = " + std::to_string(k) + " >= V = " +
                              std::to_string(V) + " does not: k >= V keeps all V ids, as k = 0 does; cut only when "
                              "0 < k < V (ids.resize(k) with k > V adds ids that are not there)",
                          "k = 0 时概率是对的，k = " + std::to_string(k) + " >= V = " + std::to_string(V) +
                              " 时却不对：k >= V 和 k = 0 一样保留全部 V 个 id；只在 0 < k < V 时截断"
                              "（k > V 时 ids.resize(k) 会添上并不存在的 id）");
    else if (close(got, reference(logits, k, 1.0)))
        hint = lesson::tr("these are the probabilities without the temperature (T = 1): divide the logits by T "
                          "before the softmax",
                          "这是没有温度（T = 1）时的概率：softmax 之前要把 logits 除以 T");
    else if (close(got, reference(logits, k, 1.0 / T)))
        hint = lesson::tr("these are softmax(logits * T): the logits were multiplied by the temperature; divide "
                          "them by T (a small T sharpens, a large T flattens)",
                          "这是 softmax(logits * T)：logits 被乘以了温度；应当除以 T（T 小分布更尖，T 大更平）");
    else if (kept < V && nonzero(got) == kept + 1 && close(got, reference(logits, kept + 1, T)) && one_more_without_ties())
        hint = lesson::tr("your cut keeps k + 1 ids: keep exactly the k largest (sorted larger first, ids 0 .. k - 1 "
                          "of that order)",
                          "你的截断保留了 k + 1 个 id：只保留最大的 k 个（从大到小排序后的第 0 .. k - 1 个）");
    else if (a_top_k && std::fabs(sum - 1.0) <= 1e-6)
        hint = lesson::tr("you kept k ids of the largest logits, but at the tie at the k-th largest logit not the "
                          "smaller ids: std::sort is not stable (libstdc++'s reorders equal elements from 17 on); "
                          "sort with std::stable_sort, or compare (logit, id)",
                          "你保留了 k 个最大的 logit，但在第 k 大的 logit 并列时留下的不是 id 较小的那些："
                          "std::sort 不是稳定排序（libstdc++ 从 17 个元素起就会打乱相等元素的次序）；"
                          "要用 std::stable_sort，或者按 (logit, id) 比较");
    else if (std::fabs(sum - 1.0) > 1e-6)
        hint = lesson::tr("the probabilities do not add up to 1 (sum " + lesson::num(sum, 4) +
                              "): after the cut, divide by the sum over the k kept ids (renormalise)",
                          "概率之和不是 1（和为 " + lesson::num(sum, 4) + "）：截断之后要除以保留的 k 个的和（重新归一化）");
    else if (nonzero(got) != kept)
        hint = lesson::tr("exactly k ids are kept (" + std::to_string(kept) + " here, you kept " +
                              std::to_string(nonzero(got)) +
                              "): at a tie at the k-th largest logit the smaller id stays (a stable sort by logit)",
                          "只保留恰好 k 个 id（这里是 " + std::to_string(kept) + " 个，你保留了 " +
                              std::to_string(nonzero(got)) + " 个）：第 k 大的 logit 有并列时，留下 id 较小的（按 logit 稳定排序）");
    else
        hint = lesson::tr("softmax(logits / T) over the k largest logits, zero elsewhere",
                          "对最大的 k 个 logit 做 softmax(logits / T)，其余为 0");
    throw lesson::CheckFailed(what, str(want), str(got), hint);
}

// Counts of `draws` samples; throws CheckFailed (with a hint) when an id is outside [0, V).
inline std::vector<size_t> counts(const std::vector<float>& logits, size_t k, float T, pg::Generator& gen,
                                  size_t draws) {
    std::vector<size_t> n(logits.size(), 0);
    for (size_t i = 0; i < draws; ++i) {
        int id = exercise::sample_topk(logits, k, T, gen);
        if (id < 0 || static_cast<size_t>(id) >= logits.size())
            throw lesson::CheckFailed("sample_topk", lesson::tr("an id in [0, V)", "[0, V) 中的一个 id"),
                                      std::to_string(id),
                                      lesson::tr("return an id of the vocabulary: the first i whose running sum exceeds u",
                                                 "返回词表里的一个 id：累计和第一次超过 u 的那个 i"));
        ++n[static_cast<size_t>(id)];
    }
    return n;
}

// Pearson's χ² of the counts against p, cells with an expected count below 5 pooled; infinite when
// an id with probability 0 was drawn. *df gets the degrees of freedom.
inline double chi_squared(const std::vector<size_t>& n, const Probs& p, size_t* df) {
    size_t total = std::accumulate(n.begin(), n.end(), size_t{0}), cells = 0;
    double chi = 0, pooled_expected = 0, pooled_seen = 0;
    for (size_t i = 0; i < n.size(); ++i) {
        double e = p[i] * static_cast<double>(total);
        if (p[i] == 0.0 && n[i] > 0) return INFINITY;
        if (e < 5) {
            pooled_expected += e;
            pooled_seen += static_cast<double>(n[i]);
            continue;
        }
        chi += (static_cast<double>(n[i]) - e) * (static_cast<double>(n[i]) - e) / e;
        ++cells;
    }
    if (pooled_expected > 0) {
        chi += (pooled_seen - pooled_expected) * (pooled_seen - pooled_expected) / std::max(pooled_expected, 1.0);
        ++cells;
    }
    *df = cells > 1 ? cells - 1 : 1;
    return chi;
}

// About a 1-in-10^5 chance for a right sampler; the seed is fixed, so the outcome is too.
inline double chi_bound(size_t df) { return static_cast<double>(df) + 7.0 * std::sqrt(2.0 * static_cast<double>(df)) + 8.0; }

// The distribution mistakes the frequencies can point to, each with its hint.
struct Suspect {
    Probs p;
    std::string hint;
};

inline std::vector<Suspect> suspects(const std::vector<float>& logits, size_t k, float T) {
    const size_t V = logits.size(), kept = k == 0 || k >= V ? V : k;
    Probs greedy(V, 0.0), right = reference(logits, k, T), shifted(V, 0.0);
    greedy[static_cast<size_t>(std::max_element(logits.begin(), logits.end()) - logits.begin())] = 1;
    for (size_t i = 0; i + 1 < V; ++i) shifted[i + 1] += right[i];   // the draw lands one id later
    shifted[V - 1] += right[V - 1];
    std::vector<Suspect> s = {
        {greedy, lesson::tr("every draw is the most likely id (greedy, T = 0): draw u = gen.uniform() and walk the "
                            "cumulative probabilities instead",
                            "每次抽到的都是最可能的 id（贪心，T = 0）：应当抽 u = gen.uniform()，再沿累计概率走")},
        {reference(logits, k, 1.0), lesson::tr("the draws follow the probabilities without the temperature (T = 1): "
                                                "divide the logits by T",
                                                "抽样的频率对应没有温度（T = 1）的概率：要把 logits 除以 T")},
        {reference(logits, k, 1.0 / T), lesson::tr("the draws follow softmax(logits * T): the logits were multiplied by "
                                                   "the temperature; divide them by T",
                                                   "抽样的频率对应 softmax(logits * T)：logits 被乘以了温度；应当除以 T")},
        {shifted, lesson::tr("the draws land one id after where the cumulative probabilities put u: add p[i] to the "
                             "running sum first, then return i when u < sum",
                             "抽到的 id 比累计概率指向的晚了一个：先把 p[i] 加进累计和，再在 u < 累计和时返回 i")},
    };
    if (kept < V)
        s.push_back({reference(logits, kept + 1, T),
                     lesson::tr("the draws keep k + 1 ids: keep exactly the k largest", "抽样保留了 k + 1 个 id：只保留最大的 k 个")});
    if (kept < V)
        s.push_back({reference(logits, 0, T), lesson::tr("the draws ignore k: ids outside the top k must never come out",
                                                         "抽样忽略了 k：前 k 之外的 id 永远不该被抽到")});
    return s;
}

// When the draws fit no suspect: is it the probabilities, or the draw?
inline std::string not_the_sampler(const std::vector<float>& logits, size_t k, float T) {
    if (!close(exercise::topk_probabilities(logits, k, T), reference(logits, k, T)))
        return lesson::tr("your draws do not follow softmax(logits / T) over the top k, and neither does your "
                          "topk_probabilities: make it pass first, then walk its running sum",
                          "抽样的频率不符合前 k 个上的 softmax(logits / T)，你的 topk_probabilities 也不符合："
                          "先让它通过，再沿它的累计和走");
    return lesson::tr("your topk_probabilities is right but the draws do not follow it: draw one u = gen.uniform() "
                      "from the gen you are given for each sample, and walk the running sum",
                      "你的 topk_probabilities 是对的，但抽样的频率不符合它：每次从传进来的 gen 抽一个 "
                      "u = gen.uniform()，再沿累计和走");
}

// 20000 draws against the reference with a χ² bound; when they fail, names the suspect they fit.
inline void expect_frequencies(const std::vector<float>& logits, size_t k, float T, uint64_t seed) {
    const size_t draws = 20000;
    pg::Generator gen(seed);
    std::vector<size_t> n = counts(logits, k, T, gen, draws);
    size_t df = 0;
    const double chi = chi_squared(n, reference(logits, k, T), &df);
    if (chi <= chi_bound(df)) return;
    std::string hint = not_the_sampler(logits, k, T);
    for (const Suspect& s : suspects(logits, k, T)) {
        size_t sdf = 0;
        if (chi_squared(n, s.p, &sdf) <= chi_bound(sdf)) {
            hint = s.hint;
            break;
        }
    }
    std::string seen;
    for (size_t i = 0; i < n.size() && i < 10; ++i) seen += (i ? " " : "") + std::to_string(n[i]);
    throw lesson::CheckFailed("sample_topk(" + logits_str(logits) + ", k = " + std::to_string(k) + ", T = " +
                                  lesson::num(T, 2) + "): " + std::to_string(draws) + " draws, seed " +
                                  std::to_string(seed),
                              "χ² <= " + lesson::num(chi_bound(df), 1) + " (df " + std::to_string(df) +
                                  "), counts near " + str(reference(logits, k, T)) + " × 20000",
                              "χ² = " + (std::isfinite(chi) ? lesson::num(chi, 1) : std::string("inf")) +
                                  ", counts " + seen,
                              hint);
}

// Does the learner's sampler give the argmax every time, over draws where a sampler would vary?
inline bool always_argmax() {
    const std::vector<float> flat = {0.1f, 0.0f, 0.3f, 0.2f};
    pg::Generator gen(5);
    for (int i = 0; i < 50; ++i)
        if (exercise::sample_topk(flat, 0, 1.0f, gen) != 2) return false;
    return true;
}

inline bool same_state(const pg::Generator& a, const pg::Generator& b) {
    pg::Generator::State x = a.state(), y = b.state();
    return std::equal(x.s, x.s + 4, y.s) && x.has_spare == y.has_spare;
}

// The id the inverse CDF gives for u over p, and whether u lies so near a boundary that rounding
// may decide either way.
inline int inverse_cdf(const Probs& p, double u, bool* near_boundary) {
    double acc = 0;
    *near_boundary = false;
    for (size_t i = 0; i < p.size(); ++i) {
        acc += p[i];
        if (std::fabs(u - acc) < 1e-6) *near_boundary = true;
        if (u < acc) return static_cast<int>(i);
    }
    for (size_t i = p.size(); i-- > 0;)
        if (p[i] > 0) return static_cast<int>(i);
    return static_cast<int>(p.size()) - 1;
}

// For draws that missed the inverse CDF: the suspect whose own inverse CDF gives every one of them.
inline std::string draw_hint(const std::vector<std::pair<double, int>>& wrong, const std::vector<float>& logits,
                             size_t k, float T) {
    for (const Suspect& s : suspects(logits, k, T)) {
        bool all = true;
        for (const auto& [u, id] : wrong) {
            bool near = false;
            all = all && inverse_cdf(s.p, u, &near) == id;
        }
        if (all) return s.hint;
    }
    if (!close(exercise::topk_probabilities(logits, k, T), reference(logits, k, T))) return not_the_sampler(logits, k, T);
    return lesson::tr("walk ids 0, 1, ..., V - 1 in order, add each probability to a running sum, and return the "
                      "first id whose sum exceeds u (not the kept ids by logit, as poet::sample_token walks them)",
                      "按 id 0, 1, ..., V - 1 的顺序累加概率，返回累计和第一次超过 u 的 id"
                      "（不是 poet::sample_token 那样按 logit 排好的顺序）");
}

}  // namespace check23

int main() {
    using lesson::tr;
    lesson::Checks checks("23", "sampling");
    const std::vector<float> z = {2.0f, 1.0f, 0.5f, 0.0f, -1.0f};   // the README's hand example

    checks.run(tr("topk_probabilities: the README's logits at T = 1, 0.8, 0.5, with and without a cut",
                  "topk_probabilities：README 里的 logits，T = 1、0.8、0.5，截断与不截断"),
               [&] {
                   for (size_t k : {size_t{0}, size_t{5}, size_t{9}}) check23::expect_probabilities(z, k, 1.0f);
                   check23::expect_probabilities(z, 0, 0.5f);
                   check23::expect_probabilities(z, 2, 1.0f);
                   check23::expect_probabilities(z, 3, 0.8f);
                   check23::expect_probabilities(z, 1, 0.5f);
                   check23::expect_probabilities(z, 0, 2.0f);
               });
    checks.run(tr("topk_probabilities: a tie at the k-th logit keeps the smaller id",
                  "topk_probabilities：第 k 大的 logit 并列时留下较小的 id"),
               [] {
                   check23::expect_probabilities({1.0f, 3.0f, 0.0f, 3.0f, 2.0f, 3.0f}, 2, 1.0f);
                   check23::expect_probabilities({0.5f, 0.5f, 0.5f, 0.5f}, 3, 0.7f);
                   // ties at a vocabulary's size: V = 32 and 64, four logit values, every cut inside a tie
                   // (a sort that is not stable keeps other ids here, though not at V = 4 or 6)
                   for (size_t V : {size_t{32}, size_t{64}}) {
                       std::vector<float> tied(V);
                       for (size_t i = 0; i < V; ++i) tied[i] = 0.5f * static_cast<float>((i * 7) % 4);
                       for (size_t k : {V / 8, V / 2 - 3, V / 3}) check23::expect_probabilities(tied, k, 1.0f);
                   }
               });
    checks.run(tr("topk_probabilities: logits near 1000 and -1000, T = 0.05: no NaN, no inf",
                  "topk_probabilities：logits 接近 1000 和 -1000，T = 0.05：不能有 NaN 和 inf"),
               [] {
                   check23::expect_probabilities({1000.0f, 999.9f, 998.0f, 0.0f}, 0, 0.05f);
                   check23::expect_probabilities({-1000.0f, -1000.1f, -1003.0f}, 2, 0.05f);
                   check23::expect_probabilities({1000.0f, 999.0f, 998.0f}, 0, 1.0f);
                   // the largest logit not first: a shift by logits[0] overflows here
                   check23::expect_probabilities({0.0f, 998.0f, 1000.0f, 999.9f}, 0, 0.05f);
               });
    checks.run(tr("topk_probabilities against poet::allowed_probabilities: 200 random logits, V = 50",
                  "topk_probabilities 对照 poet::allowed_probabilities：200 组随机 logits，V = 50"),
               [] {
                   pg::Generator gen(2323);
                   for (int i = 0; i < 200; ++i) {
                       std::vector<float> logits(50);
                       for (float& v : logits) v = 3.0f * gen.normal();
                       size_t k = gen.randint(60);
                       float T = 0.1f + 2.0f * gen.uniform();
                       check23::expect_probabilities(logits, k, T);
                   }
               });

    const std::vector<float> w = {1.0f, 2.5f, 0.3f, 2.0f, -1.0f, 1.5f, 0.0f, 2.2f};   // V = 8
    checks.run(tr("sample_topk: one gen.uniform() per sample, from the gen it is given",
                  "sample_topk：每次抽样从给它的 gen 里恰好抽一次 gen.uniform()"),
               [&] {
                   pg::Generator gen(7), one(7);
                   one.uniform();
                   exercise::sample_topk(w, 4, 0.7f, gen);
                   pg::Generator untouched(7);
                   if (check23::same_state(gen, untouched) && check23::always_argmax())
                       throw lesson::CheckFailed(
                           "gen after one sample_topk", tr("one uniform() drawn", "抽了一次 uniform()"),
                           tr("gen did not move, and every id was the argmax", "gen 没有动，每次都是 argmax"),
                           tr("every draw is the most likely id (greedy, T = 0): draw u = gen.uniform() and walk the "
                              "cumulative probabilities instead",
                              "每次抽到的都是最可能的 id（贪心，T = 0）：应当抽 u = gen.uniform()，再沿累计概率走"));
                   if (check23::same_state(gen, untouched))
                       throw lesson::CheckFailed(
                           "gen after one sample_topk", tr("one uniform() drawn", "抽了一次 uniform()"),
                           tr("gen did not move", "gen 没有动"),
                           tr("draw from the gen you are given, not from a new pg::Generator made inside: then one "
                              "seed repeats a whole poem",
                              "要从传进来的 gen 里抽，不要在函数里新建 pg::Generator：这样一个种子才能重现整首诗"));
                   lesson::expect("gen after one sample_topk", check23::same_state(gen, one),
                                  tr("exactly one uniform() drawn", "恰好抽一次 uniform()"),
                                  tr("another number of draws", "抽的次数不对"),
                                  tr("draw exactly one u = gen.uniform() per sample: the poet draws one number per token, "
                                     "so the same seed gives the same poem",
                                     "每次抽样只抽一个 u = gen.uniform()：诗人每个字抽一个数，同一个种子才给出同一首诗"));
               });
    checks.run(tr("sample_topk: 20000 draws against the probabilities (χ² test)",
                  "sample_topk：20000 次抽样对照概率（χ² 检验）"),
               [&] {
                   check23::expect_frequencies(w, 4, 0.7f, 11);
                   check23::expect_frequencies(w, 0, 1.3f, 12);
                   check23::expect_frequencies(w, 2, 0.4f, 13);
               });
    checks.run(tr("sample_topk: the inverse CDF over ids 0 .. V - 1, draw by draw",
                  "sample_topk：沿 id 0 .. V - 1 的逆累积分布，逐次对照"),
               [&] {
                   pg::Generator gen(23);
                   const check23::Probs p = check23::reference(w, 5, 0.9f);
                   std::vector<std::pair<double, int>> wrong;   // (u, the learner's id) where they differ
                   std::string first;
                   for (int i = 0; i < 300; ++i) {
                       pg::Generator copy = gen;
                       const double u = copy.uniform();
                       bool near = false;
                       const int want = check23::inverse_cdf(p, u, &near), got = exercise::sample_topk(w, 5, 0.9f, gen);
                       if (got == want || near) continue;
                       wrong.push_back({u, got});
                       if (first.empty())
                           first = "u = " + lesson::num(u, 4) + ": " + tr("expected id ", "应为 id ") +
                                   std::to_string(want) + tr(", got ", "，得到 ") + std::to_string(got);
                   }
                   if (wrong.empty()) return;
                   throw lesson::CheckFailed("sample_topk(w, k = 5, T = 0.90), 300" + tr(" draws", " 次"),
                                             tr("the inverse CDF's id for each u", "每个 u 对应逆累积分布的 id"),
                                             std::to_string(wrong.size()) + tr(" differ; first: ", " 次不同；第一次：") + first,
                                             check23::draw_hint(wrong, w, 5, 0.9f));
               });
    return checks.finish();
}
