// Lesson 26's checks for matmul_ikj and matmul_blocked, shared by starter.cpp, solution.cpp and your
// exercise.cpp: the same bits as pg::kernels::gemm_reference on odd and empty sizes, both transposes,
// accumulate on and off, padded leading dimensions, and a sum whose rounding shows its order. A
// failure is diagnosed by rerunning the reference with the likely slip and naming the one that matches.
#include "check.hpp"

namespace check26 {

// One call: the flags, sizes and leading dimensions, and buffers larger than the operands (filled
// with random values throughout), so that a wrong index reads a wrong number, not past the end.
struct Problem {
    bool trans_a = false, trans_b = false;
    size_t M = 0, N = 0, K = 0;
    bool accumulate = false;
    size_t lda = 0, ldb = 0, ldc = 0;
    std::vector<float> A, B, C;  // C holds old values: whatever the buffer held before
};

// pad: extra floats after each stored row; slack: how far past M, N or K a wrong loop may index.
inline Problem make_problem(bool trans_a, bool trans_b, size_t M, size_t N, size_t K, bool accumulate, size_t pad,
                            uint64_t seed, size_t slack = 16) {
    Problem p;
    p.trans_a = trans_a;
    p.trans_b = trans_b;
    p.M = M;
    p.N = N;
    p.K = K;
    p.accumulate = accumulate;
    p.lda = (trans_a ? M : K) + pad;
    p.ldb = (trans_b ? K : N) + pad + (pad ? 2 : 0);  // never equal to lda when padded
    p.ldc = N + (pad ? 1 : 0);
    size_t rows = std::max({M, N, K}) + slack, row = std::max({p.lda, p.ldb, p.ldc, rows}) + 1;
    pg::Generator gen(seed);
    for (std::vector<float>* v : {&p.A, &p.B, &p.C}) {
        v->resize(rows * row);
        for (float& x : *v) x = 2.f * gen.uniform() - 1.f;
    }
    for (float& x : p.C) x += 3.f;  // old values of C, plainly not 0
    return p;
}

// A way to get op(A) @ op(B) into a copy of p.C: the learner's function, or the reference.
using Matmul = std::function<void(const Problem&, float* C)>;

inline void reference(const Problem& p, float* C) {
    pg::kernels::gemm_reference(p.trans_a, p.trans_b, p.M, p.N, p.K, p.A.data(), p.lda, p.B.data(), p.ldb, C, p.ldc,
                                p.accumulate);
}

// The likely slips, each a change to gemm_reference's loop: a learner's result that equals one of
// them bit for bit is told which.
struct Slip {
    bool a_as_stored = false;     // op(A)(i,k) read as A[i*lda + k] even when trans_a
    bool b_as_stored = false;     // op(B)(k,j) read as B[k*ldb + j] even when trans_b
    bool start_at_c = false;      // every sum starts at C's old value, accumulate or not
    bool start_at_zero = false;   // every sum starts at 0, accumulate or not
    bool lda_for_b = false;       // B's rows taken lda apart
    bool ldb_for_a = false;       // A's rows taken ldb apart
    bool n_for_ldc = false;       // C(i,j) written at C[i*N + j]
    bool assign_not_add = false;  // sum = a * b instead of sum += a * b
    size_t m_end = SIZE_MAX, n_end = SIZE_MAX, k_end = SIZE_MAX;  // a last partial block skipped
    size_t k_partials = 0;        // blocks of k summed on their own, then added: another grouping
    size_t k_rounded = 0;         // the sum rounded to float after every block of k
    size_t k_restart = 0;         // the sum restarted at its start value at every block of k
};

inline void slipped_reference(const Problem& p, const Slip& s, float* C) {
    size_t lda = s.ldb_for_a ? p.ldb : p.lda, ldb = s.lda_for_b ? p.lda : p.ldb, ldc = s.n_for_ldc ? p.N : p.ldc;
    bool ta = p.trans_a && !s.a_as_stored, tb = p.trans_b && !s.b_as_stored;
    size_t k_end = std::min(p.K, s.k_end);
    for (size_t i = 0; i < std::min(p.M, s.m_end); ++i)
        for (size_t j = 0; j < std::min(p.N, s.n_end); ++j) {
            bool from_c = s.start_at_c || (p.accumulate && !s.start_at_zero);
            const double start = from_c ? C[i * ldc + j] : 0.0;
            double acc = start, part = 0.0;
            for (size_t k = 0; k < k_end; ++k) {
                if (s.k_restart && k % s.k_restart == 0) acc = start;  // the tile set up inside the k0 loop
                double product = double(ta ? p.A[k * lda + i] : p.A[i * lda + k]) * (tb ? p.B[j * ldb + k] : p.B[k * ldb + j]);
                if (s.assign_not_add)
                    acc = product;
                else if (s.k_partials)
                    part += product;
                else
                    acc += product;
                size_t kb = std::max(s.k_partials, s.k_rounded);
                bool block_ends = kb > 0 && (k + 1 == k_end || (k + 1) % kb == 0);
                if (s.k_partials && block_ends) {
                    acc += part;
                    part = 0.0;
                }
                if (s.k_rounded && block_ends) acc = static_cast<float>(acc);
            }
            C[i * ldc + j] = static_cast<float>(acc);
        }
}

inline bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

inline std::string describe(const Problem& p) {
    std::string s = "M=" + std::to_string(p.M) + ", N=" + std::to_string(p.N) + ", K=" + std::to_string(p.K);
    if (p.trans_a) s += ", trans_a";
    if (p.trans_b) s += ", trans_b";
    s += p.accumulate ? ", accumulate" : ", accumulate off";
    s += ", lda=" + std::to_string(p.lda) + ", ldb=" + std::to_string(p.ldb) + ", ldc=" + std::to_string(p.ldc);
    return s;
}

inline std::string g9(float v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

// Where got and want first differ, in words; and how many values of C differ.
inline std::string first_difference(const Problem& p, const std::vector<float>& got, const std::vector<float>& want) {
    size_t inside = 0, outside = 0, first = SIZE_MAX, first_out = SIZE_MAX;
    for (size_t idx = 0; idx < got.size(); ++idx) {
        if (std::memcmp(&got[idx], &want[idx], sizeof(float)) == 0) continue;
        bool in_c = idx / p.ldc < p.M && idx % p.ldc < p.N;
        if (in_c && inside++ == 0) first = idx;
        if (!in_c && outside++ == 0) first_out = idx;
    }
    std::string s;
    if (inside)
        s = "C(" + std::to_string(first / p.ldc) + "," + std::to_string(first % p.ldc) + ") = " + g9(got[first]) +
            lesson::tr(" where gemm_reference gives ", "，而 gemm_reference 给出 ") + g9(want[first]) + lesson::tr("; ", "；") +
            lesson::tr(std::to_string(inside) + " of " + std::to_string(p.M * p.N) + " values differ",
                       std::to_string(p.M * p.N) + " 个值中有 " + std::to_string(inside) + " 个不同");
    if (outside)
        s += (inside ? lesson::tr("; and ", "；而且 ") : std::string()) + "C[" + std::to_string(first_out) +
             lesson::tr("], outside the M x N values, changed", "] 变了，它在 M x N 个值之外");
    return s;
}

inline bool outside_changed(const Problem& p, const std::vector<float>& got) {
    for (size_t idx = 0; idx < got.size(); ++idx) {
        bool in_c = idx / p.ldc < p.M && idx % p.ldc < p.N;
        if (!in_c && std::memcmp(&got[idx], &p.C[idx], sizeof(float)) != 0) return true;
    }
    return false;
}

// Equal within float rounding everywhere in C (the order or the precision of the sum differs).
inline bool equal_up_to_rounding(const Problem& p, const std::vector<float>& got, const std::vector<float>& want) {
    for (size_t i = 0; i < p.M; ++i)
        for (size_t j = 0; j < p.N; ++j) {
            float g = got[i * p.ldc + j], w = want[i * p.ldc + j];
            if (!(std::fabs(g - w) <= 1e-4f * (1.f + std::fabs(w)))) return false;
        }
    return true;
}

// f: the learner's function, to run once more on an input that tells two slips apart (nullptr: not again).
inline std::string diagnose(const Problem& p, const std::vector<float>& got, const exercise::Blocks* blocks,
                            const std::function<void(const Problem&, float*)>* f = nullptr) {
    auto matches = [&](const Slip& s) {
        std::vector<float> c = p.C;
        slipped_reference(p, s, c.data());
        return same_bits(c, got);
    };
    auto slip = [](auto set) {
        Slip s;
        set(s);
        return s;
    };
    const std::string n = std::to_string(p.N), m = std::to_string(p.M), k = std::to_string(p.K);
    struct Named {
        bool applies;
        Slip slip;
        std::string hint;
    };
    const std::string assign_hint =
        lesson::tr("only the last k counted: each C(i,j) came out as its last product, op(A)(i,K-1) * op(B)(K-1,j), "
                   "alone; each k adds to the sum, sum += a * b, not sum = a * b",
                   "只算上了最后一个 k：每个 C(i,j) 都只等于它最后一个乘积 op(A)(i,K-1) * op(B)(K-1,j)；每个 k 都要加到和里，"
                   "sum += a * b，而不是 sum = a * b");
    // A tile set up inside the k0 loop keeps only the last block of k. When that block holds one k,
    // it gives the same numbers as sum = a * b: told apart only by an input whose last block holds two.
    if (blocks && p.K > blocks->KB) {
        const size_t KB = blocks->KB, last = (p.K - 1) / KB * KB;
        const bool assigned = p.K > 1 && matches(slip([](Slip& s) { s.assign_not_add = true; })),
                   restarted = matches(slip([&](Slip& s) { s.k_restart = KB; }));
        if (assigned && restarted) {
            if (f && KB > 1) {
                Problem again = make_problem(p.trans_a, p.trans_b, std::max<size_t>(p.M, 1), std::max<size_t>(p.N, 1),
                                             KB + 2, p.accumulate, 0, 2699);
                std::vector<float> got_again = again.C;
                (*f)(again, got_again.data());
                return diagnose(again, got_again, blocks, nullptr) +
                       lesson::tr(" (seen on a second run with K = " + std::to_string(again.K) +
                                      ", whose last block of k holds two values: on K = " + std::to_string(p.K) +
                                      " the last block holds one, and sum = a * b gives the same numbers)",
                                  "（这是在 K = " + std::to_string(again.K) + " 的第二次运行里看到的，那里最后一个 k 块有两个值；在 K = " +
                                      std::to_string(p.K) + " 上最后一块只有一个值，写成 sum = a * b 也会得到同样的数）");
            }
            return lesson::tr("only the last k counted, or only the last block of k: with KB = " + std::to_string(KB) +
                                  " the last block of k holds one value, so this input cannot tell which; either sum = a * b "
                                  "where sum += a * b belongs, or the tile is set up inside the k0 loop instead of once before it",
                              "只算上了最后一个 k，或者只算上了最后一个 k 块：KB = " + std::to_string(KB) +
                                  " 时最后一个 k 块只有一个值，所以这个输入分不出是哪一种；要么该写 sum += a * b 的地方写成了 sum = a * b，"
                                  "要么瓦片是在 k0 循环里面初始化的，而不是在它之前初始化一次");
        }
        const std::string kept_en = last + 1 == p.K ? "k = " + std::to_string(last)
                                                    : "k = " + std::to_string(last) + " to " + std::to_string(p.K - 1),
                          kept_zh = last + 1 == p.K ? "k = " + std::to_string(last)
                                                    : "k = " + std::to_string(last) + " 到 " + std::to_string(p.K - 1);
        if (restarted)
            return lesson::tr("only the last block of k counted: with K = " + std::to_string(p.K) + " and KB = " +
                                  std::to_string(KB) + ", each C(i,j) came out as its start value plus the products of " +
                                  kept_en + " alone, so the tile was set up again inside the k0 loop; set it to C(i,j) or 0 "
                                  "once, before the k0 loop, and store it after that loop",
                              "只算上了最后一个 k 块：K = " + std::to_string(p.K) + "、KB = " + std::to_string(KB) +
                                  " 时，每个 C(i,j) 都只等于起始值加上 " + kept_zh +
                                  " 的乘积，所以瓦片在 k0 循环里面被重新初始化了；在 k0 循环之前把它设成 C(i,j) 或 0，只设一次，"
                                  "等这个循环结束后再存回");
    }
    std::vector<Named> slips = {
        {!p.accumulate, slip([](Slip& s) { s.start_at_c = true; }),
         lesson::tr("C's old values must not count when accumulate is false: start each sum at 0, not at C(i,j) (C holds "
                    "whatever the buffer held before, as a reused buffer does)",
                    "accumulate 为 false 时，C 的旧值不能算进去：每个和从 0 开始，而不是从 C(i,j) 开始（C 里装着缓冲区之前的任何内容，重复使用的缓冲区就是这样）")},
        {p.accumulate, slip([](Slip& s) { s.start_at_zero = true; }),
         lesson::tr("accumulate is true: add to C's old values, so start each sum at C(i,j) = C[i*ldc + j], not at 0",
                    "accumulate 为 true：要加到 C 的旧值上，所以每个和从 C(i,j) = C[i*ldc + j] 开始，而不是从 0 开始")},
        {p.trans_a, slip([](Slip& s) { s.a_as_stored = true; }),
         lesson::tr("transposed A is stored (K,M): op(A)(i,k) is A[k*lda + i] when trans_a, not A[i*lda + k]",
                    "转置的 A 按 (K,M) 存储：trans_a 时 op(A)(i,k) 是 A[k*lda + i]，而不是 A[i*lda + k]")},
        {p.trans_b, slip([](Slip& s) { s.b_as_stored = true; }),
         lesson::tr("transposed B is stored (N,K): op(B)(k,j) is B[j*ldb + k] when trans_b, not B[k*ldb + j]",
                    "转置的 B 按 (N,K) 存储：trans_b 时 op(B)(k,j) 是 B[j*ldb + k]，而不是 B[k*ldb + j]")},
        {p.lda != p.ldb, slip([](Slip& s) { s.lda_for_b = true; }),
         lesson::tr("B's rows are ldb apart, not lda: op(B)(k,j) = B[k*ldb + j], or B[j*ldb + k] when trans_b",
                    "B 的行与行相隔 ldb，不是 lda：op(B)(k,j) = B[k*ldb + j]，trans_b 时是 B[j*ldb + k]")},
        {p.lda != p.ldb, slip([](Slip& s) { s.ldb_for_a = true; }),
         lesson::tr("A's rows are lda apart, not ldb: op(A)(i,k) = A[i*lda + k], or A[k*lda + i] when trans_a",
                    "A 的行与行相隔 lda，不是 ldb：op(A)(i,k) = A[i*lda + k]，trans_a 时是 A[k*lda + i]")},
        {p.ldc != p.N, slip([](Slip& s) { s.n_for_ldc = true; }),
         lesson::tr("C's rows are ldc apart, and ldc can be more than N: C(i,j) is C[i*ldc + j], not C[i*N + j]",
                    "C 的行与行相隔 ldc，而 ldc 可以大于 N：C(i,j) 是 C[i*ldc + j]，不是 C[i*N + j]")},
        {p.K > 1, slip([](Slip& s) { s.assign_not_add = true; }), assign_hint},
    };
    if (blocks) {
        const exercise::Blocks& b = *blocks;
        const std::string nb = std::to_string(b.NB), mb = std::to_string(b.MB), kb = std::to_string(b.KB);
        slips.push_back({p.N % b.NB != 0, slip([&](Slip& s) { s.n_end = p.N / b.NB * b.NB; }),
                         lesson::tr("the last, partial block of columns was skipped: N = ", "跳过了最后那个不完整的列块：N = ") +
                             n + lesson::tr(" is not a multiple of NB = ", " 不是 NB = ") + nb +
                             lesson::tr(", so the last block holds N % NB = ", " 的倍数，所以最后一块有 N % NB = ") +
                             std::to_string(p.N % b.NB) +
                             lesson::tr(" columns; loop while j0 < N and take nb = min(NB, N - j0)",
                                        " 列；循环条件用 j0 < N，并取 nb = min(NB, N - j0)")});
        slips.push_back({p.M % b.MB != 0, slip([&](Slip& s) { s.m_end = p.M / b.MB * b.MB; }),
                         lesson::tr("the last, partial block of rows was skipped: M = ", "跳过了最后那个不完整的行块：M = ") +
                             m + lesson::tr(" is not a multiple of MB = ", " 不是 MB = ") + mb +
                             lesson::tr("; loop while i0 < M and take mb = min(MB, M - i0)",
                                        " 的倍数；循环条件用 i0 < M，并取 mb = min(MB, M - i0)")});
        slips.push_back({p.K % b.KB != 0, slip([&](Slip& s) { s.k_end = p.K / b.KB * b.KB; }),
                         lesson::tr("the last, partial block of k was skipped: K = ", "跳过了 k 的最后那个不完整的块：K = ") +
                             k + lesson::tr(" is not a multiple of KB = ", " 不是 KB = ") + kb +
                             lesson::tr("; loop while k0 < K and take kb = min(KB, K - k0)",
                                        " 的倍数；循环条件用 k0 < K，并取 kb = min(KB, K - k0)")});
        slips.push_back({p.K > b.KB, slip([&](Slip& s) { s.k_partials = b.KB; }),
                         lesson::tr("the k blocks were summed in another order: each block's own sum was added to C(i,j) "
                                    "afterwards, which groups the additions differently from gemm_reference's one running sum "
                                    "over k = 0, 1, ..., K-1, and rounds differently; keep one double per C(i,j) across all k "
                                    "blocks and add every product to it",
                                    "k 块的求和顺序不同：每个块自己的和是事后才加到 C(i,j) 上的，这与 gemm_reference 在 k = 0, 1, ..., K-1 上一路累加的分组方式不同，舍入也就不同；对每个 C(i,j) 在所有 k 块上保持同一个 double，把每个乘积都加进去")});
        slips.push_back({p.K > b.KB, slip([&](Slip& s) { s.k_rounded = b.KB; }),
                         lesson::tr("C(i,j) was rounded to float after each block of k: keep the sum in a double across all k "
                                    "blocks and round once, when the tile is stored",
                                    "每个 k 块之后都把 C(i,j) 舍入成了 float：在所有 k 块上把和保存在一个 double 里，只在存储这个瓦片时舍入一次")});
    }
    for (const Named& s : slips)
        if (s.applies && matches(s.slip)) return s.hint;
    if (outside_changed(p, got))
        return lesson::tr("you wrote outside C's M x N values (a row past M, a column past N, or the padding between N and ldc): "
                          "the last tile along each dimension has min(MB, M - i0) rows and min(NB, N - j0) columns",
                          "你写到了 C 的 M x N 个值之外（超过 M 的行、超过 N 的列，或者 N 和 ldc 之间的填充）：每个维度上的最后一个瓦片有 min(MB, M - i0) 行、min(NB, N - j0) 列");
    std::vector<float> want = p.C;
    reference(p, want.data());
    if (equal_up_to_rounding(p, got, want))
        return lesson::tr("the same up to rounding, but not the same bits: sum in a double, as gemm_reference does (a product "
                          "of two floats is exact in a double), add k = 0, 1, ..., K-1 in that order into one running sum, and "
                          "round to float once, when C(i,j) is stored (pg::kernels::gemm, the fast kernel, sums in float: its bits "
                          "differ too)",
                          "除了舍入都一样，但二进制位不一样：像 gemm_reference 那样用 double 求和（两个 float 的乘积在 double 里是精确的），按 k = 0, 1, ..., K-1 的顺序加进同一个累加和，只在存储 C(i,j) 时舍入成 float 一次（快速内核 pg::kernels::gemm 用 float 求和：它的二进制位也不同）");
    return lesson::tr("op(A)(i,k) = trans_a ? A[k*lda + i] : A[i*lda + k]; op(B)(k,j) = trans_b ? B[j*ldb + k] : B[k*ldb + j]; "
                      "C(i,j) = (accumulate ? C(i,j) : 0) + the sum over k = 0..K-1 in a double, stored as a float",
                      "op(A)(i,k) = trans_a ? A[k*lda + i] : A[i*lda + k]；op(B)(k,j) = trans_b ? B[j*ldb + k] : B[k*ldb + j]；C(i,j) = (accumulate ? C(i,j) : 0) + 用 double 对 k = 0..K-1 求的和，存成 float");
}

inline void expect_same_bits(const std::string& what, const Matmul& f, const Problem& p,
                             const exercise::Blocks* blocks = nullptr) {
    std::vector<float> got = p.C, want = p.C;
    f(p, got.data());
    reference(p, want.data());
    if (same_bits(got, want)) return;
    throw lesson::CheckFailed(what + " (" + describe(p) + ")",
                              lesson::tr("the same bits as gemm_reference", "与 gemm_reference 完全相同的二进制位"),
                              first_difference(p, got, want), diagnose(p, got, blocks, &f));
}

inline Matmul ikj() {
    return [](const Problem& p, float* C) {
        exercise::matmul_ikj(p.trans_a, p.trans_b, p.M, p.N, p.K, p.A.data(), p.lda, p.B.data(), p.ldb, C, p.ldc,
                             p.accumulate);
    };
}

inline Matmul blocked(exercise::Blocks b) {
    return [b](const Problem& p, float* C) {
        exercise::matmul_blocked(p.trans_a, p.trans_b, p.M, p.N, p.K, p.A.data(), p.lda, p.B.data(), p.ldb, C, p.ldc,
                                 p.accumulate, b);
    };
}

// Every (M, N, K) from sizes, with the given flags; seeds differ per problem.
inline void over_sizes(const std::string& what, const Matmul& f, const std::vector<size_t>& sizes, bool ta, bool tb,
                       bool acc, size_t pad, const exercise::Blocks* blocks = nullptr) {
    uint64_t seed = 2600 + 8 * ta + 4 * tb + 2 * acc + pad;
    for (size_t M : sizes)
        for (size_t N : sizes)
            for (size_t K : sizes) expect_same_bits(what, f, make_problem(ta, tb, M, N, K, acc, pad, seed++), blocks);
}

inline void all_flags(const std::string& what, const Matmul& f, const std::vector<size_t>& sizes, size_t pad,
                      const exercise::Blocks* blocks = nullptr) {
    for (bool ta : {false, true})
        for (bool tb : {false, true})
            for (bool acc : {false, true}) over_sizes(what, f, sizes, ta, tb, acc, pad, blocks);
}

// Products 2^60, then 64 eleven times, then -2^60, for every C(i,j). In a double 2^60 + 64 rounds
// back to 2^60 (doubles are 256 apart there), so the result depends on how the additions are
// grouped: one running sum gives 0, the exact answer is 704, blocks of 4 summed apart give 512.
inline Problem cancelling_problem() {
    Problem p = make_problem(false, false, 3, 5, 13, false, 0, 2626);
    const float big = 1073741824.f;  // 2^30
    for (size_t i = 0; i < p.M; ++i)
        for (size_t k = 0; k < p.K; ++k) p.A[i * p.lda + k] = k == 0 ? big : k + 1 == p.K ? -big : 8.f;
    for (size_t k = 0; k < p.K; ++k)
        for (size_t j = 0; j < p.N; ++j) p.B[k * p.ldb + j] = k == 0 || k + 1 == p.K ? big : 8.f;
    return p;
}

// GFLOP/s of f on a (n,n) @ (n,n) product: the best of a few runs.
inline double gflops(const Matmul& f, size_t n) {
    Problem p = make_problem(false, false, n, n, n, false, 0, 2627, 0);
    std::vector<float> c = p.C;
    double best = 1e30;
    for (int rep = 0; rep < 3; ++rep) {
        auto start = std::chrono::steady_clock::now();
        f(p, c.data());
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return 2.0 * n * n * n / best * 1e-9;
}

}  // namespace check26

int main() {
    using namespace check26;
    using exercise::Blocks;
    lesson::Checks checks("26", "fast_matmul");
    const std::vector<size_t> odd = {1, 7, 33, 65};

    checks.run(lesson::tr("matmul_ikj by hand: (2,3) @ (3,2) = [[58, 64], [139, 154]]",
                          "手算 matmul_ikj：(2,3) @ (3,2) = [[58, 64], [139, 154]]"), [] {
        Problem p = make_problem(false, false, 2, 2, 3, false, 0, 2601);
        const float a[] = {1, 2, 3, 4, 5, 6}, b[] = {7, 8, 9, 10, 11, 12};
        std::copy(a, a + 6, p.A.begin());
        std::copy(b, b + 6, p.B.begin());
        expect_same_bits("matmul_ikj", ikj(), p);
    });
    checks.run(lesson::tr("matmul_ikj on sizes 1, 7, 33, 65 (every M, N, K), C full of old values",
                          "matmul_ikj 在尺寸 1、7、33、65 上（每个 M、N、K），C 里满是旧值"), [&] {
        over_sizes("matmul_ikj", ikj(), odd, false, false, false, 0);
    });
    checks.run(lesson::tr("matmul_ikj with accumulate: C += op(A) @ op(B)",
                          "带 accumulate 的 matmul_ikj：C += op(A) @ op(B)"), [&] {
        over_sizes("matmul_ikj", ikj(), odd, false, false, true, 0);
    });
    checks.run(lesson::tr("matmul_ikj with trans_a: A stored as (K,M)", "带 trans_a 的 matmul_ikj：A 按 (K,M) 存储"), [&] {
        for (bool acc : {false, true}) over_sizes("matmul_ikj", ikj(), odd, true, false, acc, 0);
    });
    checks.run(lesson::tr("matmul_ikj with trans_b: B stored as (N,K)", "带 trans_b 的 matmul_ikj：B 按 (N,K) 存储"), [&] {
        for (bool acc : {false, true}) over_sizes("matmul_ikj", ikj(), odd, false, true, acc, 0);
    });
    checks.run(lesson::tr("matmul_ikj with both transposed", "两个都转置的 matmul_ikj"), [&] {
        for (bool acc : {false, true}) over_sizes("matmul_ikj", ikj(), odd, true, true, acc, 0);
    });
    checks.run(lesson::tr("matmul_ikj with leading dimensions past the rows (lda, ldb, ldc all different)",
                          "主维度超过行长的 matmul_ikj（lda、ldb、ldc 各不相同）"), [&] {
        all_flags("matmul_ikj", ikj(), {1, 7, 33}, 3);
    });
    checks.run(lesson::tr("matmul_ikj on empty sizes: K = 0 gives C = 0 (C unchanged with accumulate); M or N = 0 writes nothing",
                          "空尺寸上的 matmul_ikj：K = 0 得到 C = 0（带 accumulate 时 C 不变）；M 或 N = 0 时什么都不写"), [] {
        for (bool acc : {false, true})
            for (auto [M, N, K] : {std::array<size_t, 3>{4, 5, 0}, {0, 5, 3}, {4, 0, 3}, {0, 0, 0}})
                expect_same_bits("matmul_ikj", ikj(), make_problem(false, false, M, N, K, acc, 2, 2602));
    });
    checks.run(lesson::tr("matmul_ikj on a sum whose rounding shows its order: 2^60, 64 (11 times), -2^60",
                          "在一个舍入会暴露求和顺序的和上测 matmul_ikj：2^60、64（11 次）、-2^60"), [] {
        expect_same_bits("matmul_ikj", ikj(), cancelling_problem());
    });

    const Blocks small{4, 8, 16}, odd_blocks{5, 3, 7}, large{64, 64, 64}, ones{1, 1, 1};
    checks.run(lesson::tr("matmul_blocked, blocks (MB, NB, KB) = (4, 8, 16), on sizes 1, 7, 33, 65",
                          "matmul_blocked，分块 (MB, NB, KB) = (4, 8, 16)，在尺寸 1、7、33、65 上"), [&] {
        over_sizes("matmul_blocked", blocked(small), odd, false, false, false, 0, &small);
    });
    checks.run(lesson::tr("matmul_blocked, blocks (5, 3, 7): transposes, accumulate, padded leading dimensions",
                          "matmul_blocked，分块 (5, 3, 7)：转置、accumulate、带填充的主维度"), [&] {
        all_flags("matmul_blocked", blocked(odd_blocks), {1, 7, 33}, 3, &odd_blocks);
    });
    checks.run(lesson::tr("matmul_blocked, blocks (64, 64, 64), larger than most of the matrices",
                          "matmul_blocked，分块 (64, 64, 64)，比大多数矩阵都大"), [&] {
        all_flags("matmul_blocked", blocked(large), {1, 7, 65}, 0, &large);
    });
    checks.run(lesson::tr("matmul_blocked, blocks (1, 1, 1)", "matmul_blocked，分块 (1, 1, 1)"), [&] {
        all_flags("matmul_blocked", blocked(ones), {1, 7}, 1, &ones);
    });
    checks.run(lesson::tr("matmul_blocked on empty sizes: K = 0, M = 0, N = 0",
                          "空尺寸上的 matmul_blocked：K = 0、M = 0、N = 0"), [&] {
        for (bool acc : {false, true})
            for (auto [M, N, K] : {std::array<size_t, 3>{4, 5, 0}, {0, 5, 3}, {4, 0, 3}})
                expect_same_bits("matmul_blocked", blocked(small), make_problem(false, false, M, N, K, acc, 2, 2603),
                                 &small);
    });
    checks.run(lesson::tr("matmul_blocked, KB = 4, on the sum whose rounding shows the order of the k blocks",
                          "matmul_blocked，KB = 4，在舍入会暴露 k 块顺序的那个和上"), [] {
        const Blocks kb4{2, 2, 4};
        expect_same_bits("matmul_blocked", blocked(kb4), cancelling_problem(), &kb4);
    });

    checks.run(lesson::tr("speed on (256,256) @ (256,256), printed, not checked",
                          "(256,256) @ (256,256) 上的速度，只打印，不检查"), [] {
        const size_t n = 256;
        double yours_ikj = gflops(ikj(), n), yours_blocked = gflops(blocked({32, 256, 128}), n);
        double ref = gflops(reference, n);
        char line[200];
        const std::string format = lesson::tr("        GFLOP/s: gemm_reference (i,j,k) %.2f, your matmul_ikj %.2f, your matmul_blocked "
                                              "(32, 256, 128) %.2f\n",
                                              "        GFLOP/s：gemm_reference (i,j,k) %.2f，你的 matmul_ikj %.2f，你的 matmul_blocked "
                                              "(32, 256, 128) %.2f\n");
        std::snprintf(line, sizeof line, format.c_str(), ref, yours_ikj, yours_blocked);
        std::cout << line;
    });
    return checks.finish();
}
