// Lesson 26 experiment: one matrix product made fast step by step (the triple loop, the loop order
// i,k,j, blocks for the caches, packing and a micro-kernel), then the library's gemm on 1 and 2
// threads, each in GFLOP/s beside this machine's measured FMA peak; and why "the same bits as
// gemm_reference" needs the same order of the sum. The micro-kernel and the peak probe are written
// once with the compiler's vector types (GCC and Clang) and compiled per instruction set (x86-64:
// SSE2, AVX2 + FMA, AVX-512, through target attributes; aarch64: NEON), the widest the CPU runs chosen
// when the program starts, as the library chooses its kernel table. Leaves out: transposes and
// leading dimensions in the timed steps (the library's gemm has them; the exercise writes them).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>
#include "kernels/gemm.hpp"
#include "kernels/table.hpp"
#include "lesson.hpp"
#include "pg/threads.hpp"
#include "poet/config.hpp"
#include "poet/corpus.hpp"
#include "poet/records.hpp"
#include "poet/tokenizer.hpp"
#include "svg.hpp"

namespace {

using Matrix = std::vector<float>;  // row-major, rows * cols floats

Matrix random_matrix(size_t rows, size_t cols, pg::Generator& gen) {
    Matrix m(rows * cols);
    for (float& x : m) x = 2.f * gen.uniform() - 1.f;  // uniform in [-1, 1)
    return m;
}

pg::Tensor as_tensor(const Matrix& m, size_t rows, size_t cols) { return pg::tensor(m, {rows, cols}); }

// ---- timing: the best of several runs, so that a busy moment of the machine counts less ----

template <class F>
double best_seconds(F run, double budget_seconds) {
    using Clock = std::chrono::steady_clock;
    double best = 1e30, spent = 0;
    for (int reps = 0; reps < 2 || (spent < budget_seconds && reps < 50); ++reps) {
        auto start = Clock::now();
        run();
        double s = std::chrono::duration<double>(Clock::now() - start).count();
        best = std::min(best, s);
        spent += s;
    }
    return best;
}

std::string gflops_str(double flop, double seconds) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", flop / seconds * 1e-9);
    return buf;
}

std::string sci(double v) {  // "3.1e-07": printed, never quoted (it moves with the machine)
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1e", v);
    return buf;
}

float max_abs_diff(const Matrix& a, const Matrix& b) {
    float m = 0.f;
    for (size_t i = 0; i < a.size(); ++i) m = std::max(m, std::fabs(a[i] - b[i]));
    return m;
}

size_t count_differing(const Matrix& a, const Matrix& b) {
    size_t n = 0;
    for (size_t i = 0; i < a.size(); ++i) n += a[i] != b[i];
    return n;
}

// ---- the steps, each C (n,n) = A (n,n) @ B (n,n), row-major, summed in float ----

// i,j,k, the textbook order. The inner loop walks down column j of B: n floats apart in memory.
[[gnu::noinline]] void matmul_ijk(size_t n, const float* A, const float* B, float* C) {
    for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n; ++j) {
            float acc = 0.f;
            for (size_t k = 0; k < n; ++k) acc += A[i * n + k] * B[k * n + j];
            C[i * n + j] = acc;
        }
}

// i,k,j: k moved out of the inner loop. Row i of C += A(i,k) * row k of B: the inner loop walks
// along rows of B and C, one float after the next, and the compiler turns it into SIMD.
[[gnu::noinline]] void matmul_ikj(size_t n, const float* A, const float* B, float* C) {
    for (size_t i = 0; i < n; ++i) {
        float* c = C + i * n;
        std::fill(c, c + n, 0.f);
        for (size_t k = 0; k < n; ++k) {
            float a = A[i * n + k];
            const float* b = B + k * n;
            for (size_t j = 0; j < n; ++j) c[j] += a * b[j];
        }
    }
}

// Blocked: the same i,k,j loops inside blocks. A KB x NB block of B (128 KB) is read by MB rows of A
// while it sits in the L2 cache, instead of all of B (1 MB) streaming in again for every row.
constexpr size_t BLOCK_M = 64, BLOCK_N = 256, BLOCK_K = 128;

[[gnu::noinline]] void matmul_blocked(size_t n, const float* A, const float* B, float* C) {
    std::fill(C, C + n * n, 0.f);
    for (size_t j0 = 0; j0 < n; j0 += BLOCK_N) {
        size_t nb = std::min(BLOCK_N, n - j0);
        for (size_t k0 = 0; k0 < n; k0 += BLOCK_K) {
            size_t kb = std::min(BLOCK_K, n - k0);
            for (size_t i0 = 0; i0 < n; i0 += BLOCK_M) {
                size_t mb = std::min(BLOCK_M, n - i0);
                for (size_t i = i0; i < i0 + mb; ++i)
                    for (size_t k = k0; k < k0 + kb; ++k) {
                        float a = A[i * n + k];
                        const float* b = B + k * n + j0;
                        float* c = C + i * n + j0;
                        for (size_t j = 0; j < nb; ++j) c[j] += a * b[j];
                    }
            }
        }
    }
}

// Packed: packing and a micro-kernel. A tile of MR x NR values of C lives in registers for a whole
// block of k; per step of k it takes NV vectors of B and MR broadcast values of A, and does MR * NV
// FMAs on them. Packing copies the blocks of A and B it reads into that order, so every load is
// the next one in memory.
constexpr size_t NV = 2, MR = 6;  // 12 accumulators, 2 of B, 1 of A: 15 registers
constexpr size_t KC = 256, MC = MR * 16;
constexpr size_t MAX_W = 16;      // the widest register here: AVX-512's 16 floats

// Packs B[k0 : k0+kc, j0 : j0+nc] (row stride ldb) as panels of nr columns, each k-major: panel p
// holds, for k = 0..kc-1, the nr values B[k0 + k, j0 + p*nr + c]; zeros past the last column.
void pack_b(const float* B, size_t ldb, size_t k0, size_t kc, size_t j0, size_t nc, size_t nr, float* dst) {
    for (size_t p = 0; p < nc; p += nr)
        for (size_t k = 0; k < kc; ++k)
            for (size_t c = 0; c < nr; ++c) *dst++ = p + c < nc ? B[(k0 + k) * ldb + j0 + p + c] : 0.f;
}

// Packs A[i0 : i0+mc, k0 : k0+kc] as panels of MR rows, each k-major (the MR values of one k side
// by side); zeros past the last row.
void pack_a(const float* A, size_t lda, size_t i0, size_t mc, size_t k0, size_t kc, float* dst) {
    for (size_t p = 0; p < mc; p += MR)
        for (size_t k = 0; k < kc; ++k)
            for (size_t r = 0; r < MR; ++r) *dst++ = p + r < mc ? A[(i0 + p + r) * lda + k0 + k] : 0.f;
}

// Registers as the compiler's vector types: W floats, +, * and a scalar broadcast like numbers;
// `acc = a * b + acc` becomes one FMA instruction where the instruction set has one.
typedef float Floats16 __attribute__((vector_size(64)));
typedef float Floats8 __attribute__((vector_size(32)));
typedef float Floats4 __attribute__((vector_size(16)));

// tile (MR,NR) = sum over k < kc of column k of the A panel times row k of the B panel, NR = NV * W.
// Compiled inside each instruction set's function below, with that set's registers.
template <class V>
[[gnu::always_inline]] inline void micro_kernel_of(size_t kc, const float* a, const float* b, float* tile) {
    constexpr size_t W = sizeof(V) / sizeof(float), NR = NV * W;
    V acc[MR][NV];
    for (size_t r = 0; r < MR; ++r)
        for (size_t v = 0; v < NV; ++v) acc[r][v] = V{};
    for (size_t k = 0; k < kc; ++k, a += MR, b += NR) {
        V b0, b1;
        std::memcpy(&b0, b, sizeof b0);   // an unaligned load
        std::memcpy(&b1, b + W, sizeof b1);
        for (size_t r = 0; r < MR; ++r) {
            V ar = V{} + a[r];            // a[r] in every lane
            acc[r][0] = ar * b0 + acc[r][0];
            acc[r][1] = ar * b1 + acc[r][1];
        }
    }
    for (size_t r = 0; r < MR; ++r)
        for (size_t v = 0; v < NV; ++v) std::memcpy(tile + r * NR + v * W, &acc[r][v], sizeof acc[r][v]);
}

// ---- the machine's peak: how many FMAs one core finishes per second when nothing waits ----
// `chains` independent chains acc = acc * x + y: an FMA takes 4 or 5 cycles and a core starts up to
// two per cycle (x86-64), so about ten must be in flight to keep both units busy; 16 where there are
// 32 registers (AVX-512, NEON: some cores start four a cycle).
template <class V, size_t CHAINS>
[[gnu::always_inline]] inline float fma_chains(size_t steps) {
    constexpr size_t W = sizeof(V) / sizeof(float);
    V acc[CHAINS];
    for (size_t c = 0; c < CHAINS; ++c) acc[c] = V{} + 0.001f * float(c);
    V x = V{} + 0.9999f, y = V{} + 0.0001f;
    for (size_t s = 0; s < steps; ++s)
        for (size_t c = 0; c < CHAINS; ++c) acc[c] = acc[c] * x + y;  // one FMA each, where there is one
    float sum = 0.f;
    for (size_t c = 0; c < CHAINS; ++c)
        for (size_t l = 0; l < W; ++l) sum += acc[c][l];
    return sum;  // the caller uses it, so the chains are computed
}

// Whether `a * b + c` is one instruction, in the learner's language (string literals: Isa keeps pointers).
const char* fma_yes() { return lesson::chinese() ? "有" : "yes"; }
const char* fma_no() { return lesson::chinese() ? "没有（先乘再加）" : "no (a multiply, then an add)"; }

// One instruction set's micro-kernel and peak probe, and what they run on.
struct Isa {
    const char* name;    // "AVX2 + FMA"
    size_t lanes;        // W, floats per register
    size_t chains;       // of the peak probe
    const char* fma;     // whether `a * b + c` is one instruction
    void (*micro_kernel)(size_t kc, const float* a, const float* b, float* tile);
    float (*chains_run)(size_t steps);
};

#if defined(__x86_64__) || defined(_M_X64)
[[gnu::target("avx512f"), gnu::noinline]] void micro_kernel_avx512(size_t kc, const float* a, const float* b, float* t) { micro_kernel_of<Floats16>(kc, a, b, t); }
[[gnu::target("avx2,fma"), gnu::noinline]] void micro_kernel_avx2(size_t kc, const float* a, const float* b, float* t) { micro_kernel_of<Floats8>(kc, a, b, t); }
[[gnu::noinline]] void micro_kernel_sse2(size_t kc, const float* a, const float* b, float* t) { micro_kernel_of<Floats4>(kc, a, b, t); }
[[gnu::target("avx512f"), gnu::noinline]] float fma_chains_avx512(size_t steps) { return fma_chains<Floats16, 16>(steps); }
[[gnu::target("avx2,fma"), gnu::noinline]] float fma_chains_avx2(size_t steps) { return fma_chains<Floats8, 10>(steps); }
[[gnu::noinline]] float fma_chains_sse2(size_t steps) { return fma_chains<Floats4, 10>(steps); }

// The widest this CPU runs (the compiler's __builtin_cpu_supports also asks whether the system
// saves the wide registers), or a narrower one PG_KERNELS names (sse2, avx2), as the library's
// kernel table is chosen.
Isa widest_isa() {
    __builtin_cpu_init();
    const char* wanted = std::getenv("PG_KERNELS");
    const std::string want = wanted ? wanted : "";
    if (__builtin_cpu_supports("avx512f") && want != "avx2" && want != "sse2")
        return {"AVX-512", 16, 16, fma_yes(), micro_kernel_avx512, fma_chains_avx512};
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && want != "sse2")
        return {"AVX2 + FMA", 8, 10, fma_yes(), micro_kernel_avx2, fma_chains_avx2};
    return {"SSE2", 4, 10, fma_no(), micro_kernel_sse2, fma_chains_sse2};
}
#elif defined(__aarch64__)
[[gnu::noinline]] void micro_kernel_neon(size_t kc, const float* a, const float* b, float* t) { micro_kernel_of<Floats4>(kc, a, b, t); }
[[gnu::noinline]] float fma_chains_neon(size_t steps) { return fma_chains<Floats4, 16>(steps); }
Isa widest_isa() { return {"NEON", 4, 16, fma_yes(), micro_kernel_neon, fma_chains_neon}; }   // every aarch64 CPU
#else
[[gnu::noinline]] void micro_kernel_plain(size_t kc, const float* a, const float* b, float* t) { micro_kernel_of<Floats4>(kc, a, b, t); }
[[gnu::noinline]] float fma_chains_plain(size_t steps) { return fma_chains<Floats4, 10>(steps); }
Isa widest_isa() {
    return {lesson::chinese() ? "这块 CPU 的基线（编译器自己构造的 4 个 float 的向量）"
                              : "this CPU's baseline (4-float vectors as the compiler builds them)",
            4, 10, lesson::chinese() ? "由编译器决定" : "as the compiler chooses",
            micro_kernel_plain, fma_chains_plain};
}
#endif

const Isa& isa() {
    static const Isa chosen = widest_isa();
    return chosen;
}

[[gnu::noinline]] void matmul_packed(size_t n, const float* A, const float* B, float* C) {
    const size_t NR = NV * isa().lanes;
    std::vector<float> a_packed(((MC + MR - 1) / MR) * MR * KC), b_packed(((n + NR - 1) / NR) * NR * KC);
    float tile[MR * NV * MAX_W];
    std::fill(C, C + n * n, 0.f);
    for (size_t k0 = 0; k0 < n; k0 += KC) {
        size_t kc = std::min(KC, n - k0);
        pack_b(B, n, k0, kc, 0, n, NR, b_packed.data());
        for (size_t i0 = 0; i0 < n; i0 += MC) {
            size_t mc = std::min(MC, n - i0);
            pack_a(A, n, i0, mc, k0, kc, a_packed.data());
            for (size_t jr = 0; jr < n; jr += NR)
                for (size_t ir = 0; ir < mc; ir += MR) {
                    isa().micro_kernel(kc, a_packed.data() + ir * kc, b_packed.data() + jr * kc, tile);
                    size_t rows = std::min(MR, mc - ir), cols = std::min(NR, n - jr);
                    for (size_t r = 0; r < rows; ++r)
                        for (size_t c = 0; c < cols; ++c) C[(i0 + ir + r) * n + jr + c] += tile[r * NR + c];
                }
        }
    }
}

double fma_peak_gflops() {
    const size_t steps = 1 << 18;
    float sink = 0.f;
    double seconds = best_seconds([&] { sink += isa().chains_run(steps); }, 0.2);
    if (sink == 12345.f) std::cout << " ";
    return 2.0 * isa().lanes * isa().chains * steps / seconds * 1e-9;
}

// ---- the picture: in what order the inner loop reads B ----

void write_order_svg(const std::string& path) {  // its words in the learner's language (lesson::tr)
    const size_t K = 6, N = 12, nr = 4, cell = 26;
    struct Panel {
        std::string title, subtitle;
        std::vector<size_t> order;  // order[k * N + j]: when (k, j) is read, or where it lies
    };
    std::vector<Panel> panels(3);
    panels[0] = {lesson::tr("i,j,k: for C(0,j), k innermost", "i,j,k：算 C(0,j)，k 在最内层"),
                 lesson::tr("reads go down a column, N floats apart", "顺着一列往下读，每次相隔 N 个 float"), {}};
    panels[1] = {lesson::tr("i,k,j: for C's row 0, j innermost", "i,k,j：算 C 的第 0 行，j 在最内层"),
                 lesson::tr("reads go along a row, 1 float apart", "沿着一行读，每次相隔 1 个 float"), {}};
    panels[2] = {lesson::tr("packed, panels of 4 columns", "打包后：每 4 列一个面板"),
                 lesson::tr("the micro-kernel reads 0, 1, 2, ... in memory", "微内核在内存里按 0, 1, 2, ... 依次读"), {}};
    for (Panel& p : panels) p.order.assign(K * N, 0);
    for (size_t k = 0; k < K; ++k)
        for (size_t j = 0; j < N; ++j) {
            panels[0].order[k * N + j] = j * K + k;
            panels[1].order[k * N + j] = k * N + j;
        }
    Matrix index(K * N), packed(K * N);
    for (size_t i = 0; i < K * N; ++i) index[i] = float(i);
    pack_b(index.data(), N, 0, K, 0, N, nr, packed.data());
    for (size_t offset = 0; offset < K * N; ++offset) panels[2].order[size_t(packed[offset])] = offset;

    const size_t panel_w = N * cell, gap = 40, top = 56, height = top + K * cell + 34;
    std::string s = svg::header(double(3 * panel_w + 4 * gap), double(height));
    for (size_t p = 0; p < panels.size(); ++p) {
        const double x0 = double(gap + p * (panel_w + gap));
        s += svg::text(x0, 20, 13, panels[p].title, "start", "font-weight=\"bold\"") + svg::text(x0, 38, 12, panels[p].subtitle);
        for (size_t k = 0; k < K; ++k)
            for (size_t j = 0; j < N; ++j) {
                size_t t = panels[p].order[k * N + j];
                int shade = 245 - int(170 * t / (K * N - 1));  // early reads light, late reads dark
                const double x = x0 + double(j * cell), y = double(top + k * cell);
                const std::string rgb = std::to_string(shade);
                s += svg::rect(x, y, cell, cell, "fill=\"rgb(" + rgb + "," + rgb + ",255)\" stroke=\"#888\"") +
                     svg::text(x + cell / 2.0, y + 17, 11, std::to_string(t), "middle",
                               std::string("fill=\"") + (shade < 150 ? "white" : "black") + "\"");
            }
        s += svg::text(x0, double(top + K * cell + 22), 12,
                       "B (K=" + std::to_string(K) + ", N=" + std::to_string(N) + lesson::tr("): row k, column j", ")：第 k 行，第 j 列"));
    }
    svg::write_file(path, s + svg::footer());
    svg::check_file(path);
}

// ---- the lesson ----

void by_hand() {
    lesson::section(lesson::tr("step 0: C = op(A) @ op(B) with gemm_reference, by hand", "第 0 步：用 gemm_reference 手算 C = op(A) @ op(B)"));
    Matrix A = {1, 2, 3, 4, 5, 6}, B = {7, 8, 9, 10, 11, 12}, C(4, 0.f);
    lesson::show("A", as_tensor(A, 2, 3), 0);
    lesson::show("B", as_tensor(B, 3, 2), 0);
    pg::kernels::gemm_reference(false, false, 2, 2, 3, A.data(), 3, B.data(), 2, C.data(), 2, false);
    lesson::show("C = A @ B", as_tensor(C, 2, 2), 0);
    std::cout << "C(0,0) = 1*7 + 2*9 + 3*11 = 7 + 18 + 33 = 58\n"
              << "C(1,1) = 4*8 + 5*10 + 6*12 = 32 + 50 + 72 = 154\n";
    lesson::confirm("C", as_tensor(C, 2, 2), pg::tensor({{58.f, 64.f}, {139.f, 154.f}}), 0.0, lesson::tr("the sums by hand", "手算的和"));

    Matrix Bt = {7, 9, 11, 8, 10, 12};  // B stored transposed, (N,K) = (2,3): op(B)(k,j) = Bt[j*3 + k]
    Matrix Ct(4, 0.f);
    pg::kernels::gemm_reference(false, true, 2, 2, 3, A.data(), 3, Bt.data(), 3, Ct.data(), 2, false);
    lesson::show(lesson::tr("B stored as (N,K) = (2,3), trans_b: op(B)(k,j) = B[j*ldb + k]",
                          "B 按 (N,K) = (2,3) 存储，trans_b：op(B)(k,j) = B[j*ldb + k]"), as_tensor(Bt, 2, 3), 0);
    lesson::confirm("C with trans_b", as_tensor(Ct, 2, 2), as_tensor(C, 2, 2), 0.0, lesson::tr("the same product", "同一个乘积"));

    Matrix Awide = {1, 2, 3, -1, -1, 4, 5, 6, -1, -1};  // A's rows 5 floats apart: lda = 5, columns 3, 4 unused
    Matrix Cacc = {1, 1, 1, 1};
    pg::kernels::gemm_reference(false, false, 2, 2, 3, Awide.data(), 5, B.data(), 2, Cacc.data(), 2, true);
    lesson::show(lesson::tr("A inside a (2,5) buffer, lda = 5", "A 放在一个 (2,5) 的缓冲区里，lda = 5"), as_tensor(Awide, 2, 5), 0);
    lesson::show(lesson::tr("C = ones, then C += A @ B (accumulate)", "C 先全是 1，再 C += A @ B（accumulate）"), as_tensor(Cacc, 2, 2), 0);
    lesson::confirm("C with lda = 5 and accumulate", as_tensor(Cacc, 2, 2), pg::tensor({{59.f, 65.f}, {140.f, 155.f}}),
                    0.0, lesson::tr("1 + A @ B", "1 加上 A @ B"));
    std::cout << lesson::tr("multiply-adds: M*N*K = 2*2*3 = 12, so 2*M*N*K = 24 FLOP (a multiply and an add each)\n",
                            "乘加：M*N*K = 2*2*3 = 12 次，所以 2*M*N*K = 24 FLOP（每次乘加是一次乘法和一次加法）\n");
}

void order_of_the_sum() {
    lesson::section(lesson::tr("step 1: the order of a sum changes its last bits", "第 1 步：求和的顺序会改变最后几位"));
    float big = 16777216.f, one = 1.f;  // 2^24: above it floats are 2 apart
    float left = (big + one) + one, right = big + (one + one);
    std::cout << lesson::tr("float: (2^24 + 1) + 1 = ", "float：(2^24 + 1) + 1 = ") << lesson::num(left, 1)
              << lesson::tr(", 2^24 + (1 + 1) = ", "，2^24 + (1 + 1) = ") << lesson::num(right, 1) << "\n";
    lesson::confirm("(2^24 + 1) + 1 in float", left, 16777216.0, 0.0,
                    lesson::tr("1 is half a step of 2 at 2^24: rounds to even", "在 2^24 处步长是 2，1 正好是半步：舍入到偶数"));

    // A row of A and a column of B whose products are 2^60, eleven times 64, then -2^60: in double
    // 2^60 + 64 rounds back to 2^60 (a step of double there is 256), so the order decides the result.
    const size_t K = 13;
    Matrix a(K, 8.f), b(K, 8.f);
    a[0] = 1073741824.f;       // 2^30
    b[0] = 1073741824.f;
    a[K - 1] = -1073741824.f;  // the product -2^60 comes last
    b[K - 1] = 1073741824.f;
    float reference = 0.f;
    pg::kernels::gemm_reference(false, false, 1, 1, K, a.data(), K, b.data(), 1, &reference, 1, false);
    double in_blocks = 0;  // the k blocks of 4 summed on their own, then added: the wrong order
    for (size_t k0 = 0; k0 < K; k0 += 4) {
        double part = 0;
        for (size_t k = k0; k < std::min(K, k0 + 4); ++k) part += double(a[k]) * b[k];
        in_blocks += part;
    }
    float fast = 0.f;
    pg::kernels::gemm(false, false, 1, 1, K, a.data(), K, b.data(), 1, &fast, 1, false);
    std::cout << lesson::tr("products: 2^60, 64 (11 times), -2^60; the exact sum is 11 * 64 = ",
                            "乘积：2^60、64（11 次）、-2^60；精确的和是 11 * 64 = ") << 11 * 64 << "\n"
              << lesson::tr("gemm_reference (one double, k = 0, 1, ..., 12):  ", "gemm_reference（一个 double，k = 0, 1, ..., 12）：")
              << lesson::num(reference, 1) << "\n"
              << lesson::tr("blocks of 4 summed apart, then added:          ", "每 4 个一块分别求和，再相加：")
              << lesson::num(in_blocks, 1) << "\n"
              << lesson::tr("gemm (float FMAs, one block of k here):        ", "gemm（float 的 FMA，这里只有一个 k 块）：")
              << lesson::num(fast, 1) << "\n";
    lesson::confirm("gemm_reference on the cancelling row", reference, 0.0, 0.0,
                    lesson::tr("each 64 is lost against 2^60", "每个 64 在 2^60 旁边都被舍掉"));
    lesson::confirm("the same sum in blocks of 4", in_blocks, 512.0, 0.0,
                    lesson::tr("2^60 + 256 + 256 - 2^60", "2^60 + 256 + 256 - 2^60，两个 256 都保住了"));
}

struct Step {
    std::string name;
    double seconds;
    float max_error;  // max |C - gemm_reference's C|
    double cores = 1;  // the cores it ran on, for its share of the peak
};

void timed_steps() {
    const size_t n = 512;
    const double flop = 2.0 * n * n * n;
    pg::Generator gen(26);
    Matrix A = random_matrix(n, n, gen), B = random_matrix(n, n, gen), ref(n * n), C(n * n);
    lesson::section(lesson::tr("step 2: the triple loop and its loop order, n = ", "第 2 步：三重循环和它的循环顺序，n = ") +
                    std::to_string(n));
    std::cout << "C (" << n << "," << n << ") = A (" << n << "," << n << ") @ B (" << n << "," << n << lesson::tr("): ", ")：")
              << n << "^3 = " << n * n * n << lesson::tr(" multiply-adds, ", " 次乘加，") << size_t(flop) << " FLOP\n"
              << lesson::tr("A, B and C hold ", "A、B、C 各占 ") << n * n * 4 / 1024 << lesson::tr(" KB each\n", " KB\n");
    std::vector<Step> steps;
    auto time_step = [&](const std::string& name, auto run, double budget, double cores = 1) {
        double s = best_seconds([&] { run(C.data()); }, budget);
        steps.push_back({name, s, max_abs_diff(C, ref), cores});
        lesson::expect(name + ": max |C - reference|", steps.back().max_error <= 1e-3f, "float rounding (<= 1e-3)",
                       sci(steps.back().max_error), "");
        std::cout << "  " << name << lesson::tr(": ", "：") << gflops_str(flop, s)
                  << lesson::tr(" GFLOP/s, max |C - reference| = ", " GFLOP/s，max |C - reference| = ")
                  << sci(steps.back().max_error) << "\n";
    };
    double ref_seconds = best_seconds(
        [&] { pg::kernels::gemm_reference(false, false, n, n, n, A.data(), n, B.data(), n, ref.data(), n, false); },
        0.0);
    steps.push_back({lesson::tr("gemm_reference (i,j,k, double)", "gemm_reference（i,j,k，double）"), ref_seconds, 0.f});
    std::cout << lesson::tr("  gemm_reference (i,j,k, sums in double): ", "  gemm_reference（i,j,k，用 double 求和）：")
              << gflops_str(flop, ref_seconds) << " GFLOP/s\n";
    time_step(lesson::tr("i,j,k in float", "i,j,k，用 float"), [&](float* c) { matmul_ijk(n, A.data(), B.data(), c); }, 0.0);
    time_step("i,k,j", [&](float* c) { matmul_ikj(n, A.data(), B.data(), c); }, 0.3);
    std::cout << lesson::tr("the inner loop of i,j,k reads B ", "i,j,k 的内层循环读 B 时每次相隔 ") << n
              << lesson::tr(" floats (", " 个 float（") << n * 4
              << lesson::tr(" bytes) apart; i,k,j reads it 1 float apart\n", " 字节）；i,k,j 每次只相隔 1 个 float\n");

    lesson::section(lesson::tr("step 3: blocks for the caches", "第 3 步：为缓存分块"));
    std::cout << lesson::tr("blocks: ", "分块：A 的 ") << BLOCK_M << lesson::tr(" rows of A, ", " 行，k 的 ") << BLOCK_K
              << lesson::tr(" of k, ", " 个，B 的 ") << BLOCK_N
              << lesson::tr(" columns of B; a block of B holds ", " 列；B 的一块占 ") << BLOCK_K * BLOCK_N * 4 / 1024 << " KB\n";
    time_step(lesson::tr("blocked i,k,j", "分块的 i,k,j"), [&](float* c) { matmul_blocked(n, A.data(), B.data(), c); }, 0.3);

    lesson::section(lesson::tr("step 4: packing and a micro-kernel", "第 4 步：打包和微内核"));
    const pg::kernels::KernelTable& library = pg::kernels::active();
    std::cout << lesson::tr("this program's micro-kernel: ", "本程序的微内核：") << isa().name << lesson::tr(", ", "，")
              << lesson::tr("", "每个寄存器 ") << isa().lanes
              << lesson::tr(" floats per register; FMA instruction: ", " 个 float；FMA 指令：") << isa().fma << "\n"
              << lesson::tr("the library's gemm: kernel table ", "库的 gemm：内核表 ") << library.name << lesson::tr(", ", "，")
              << lesson::tr("", "每个寄存器 ") << library.lanes
              << lesson::tr(" floats per register (lib/src/kernels/table.hpp)\n", " 个 float（lib/src/kernels/table.hpp）\n")
              << lesson::tr("micro-tile MR x NR = ", "微块 MR x NR = ") << MR << " x " << NV * isa().lanes
              << lesson::tr(" (", "（") << MR * NV << lesson::tr(" registers of accumulators), KC = ", " 个寄存器做累加器），KC = ")
              << KC << lesson::tr(", MC = ", "，MC = ") << MC << "\n";
    time_step(lesson::tr("packed + micro-kernel", "打包 + 微内核"), [&](float* c) { matmul_packed(n, A.data(), B.data(), c); }, 0.3);

    lesson::section(lesson::tr("step 5: the library's gemm, and threads", "第 5 步：库的 gemm，以及多线程"));
    size_t threads = pg::num_threads();
    Matrix C1(n * n), C2(n * n);
    auto gemm = [&](float* c) { pg::kernels::gemm(false, false, n, n, n, A.data(), n, B.data(), n, c, n, false); };
    pg::set_num_threads(1);
    time_step(lesson::tr("gemm, 1 thread", "gemm，1 个线程"), gemm, 0.3);
    gemm(C1.data());
    pg::set_num_threads(2);
    time_step(lesson::tr("gemm, 2 threads", "gemm，2 个线程"), gemm, 0.3, 2);
    gemm(C2.data());
    std::cout << lesson::tr("gemm on 1 and 2 threads: " + std::to_string(count_differing(C1, C2)) + " of " +
                                std::to_string(n * n) +
                                " elements differ (each element is summed by one thread in the same order)\n",
                            "gemm 在 1 个和 2 个线程上：" + std::to_string(n * n) + " 个元素里有 " +
                                std::to_string(count_differing(C1, C2)) + " 个不同（每个元素都由一个线程按同样的顺序求和）\n");
    lesson::confirm("elements that differ between 1 and 2 threads", double(count_differing(C1, C2)), 0.0, 0.0,
                    lesson::tr("gemm.hpp: results never depend on the thread count", "gemm.hpp：结果从不取决于线程数"));

    // The poet's biggest product: the output head, logits (B*T, V) = x (B*T, C) @ W^T, W stored (V, C).
    poet::TrainConfig cfg;
    poet::Tokenizer tok = poet::Tokenizer::build(poet::load_corpus(poet::default_data_dir(), "all").train);
    size_t rows = cfg.batch * poet::kInputLength, V = tok.size(), width = cfg.n_embd;
    double head_flop = 2.0 * rows * V * width;
    Matrix x = random_matrix(rows, width, gen), w = random_matrix(V, width, gen), logits(rows * V);
    double head_seconds = best_seconds(
        [&] {
            pg::kernels::gemm(false, true, rows, V, width, x.data(), width, w.data(), width, logits.data(), V, false);
        },
        0.3);
    std::cout << lesson::tr("the poet's head, logits (", "诗人的输出头，logits (") << rows << "," << V << ") = x (" << rows
              << "," << width << lesson::tr(") @ W^T, W (", ") @ W^T，W (") << V << "," << width
              << lesson::tr(") with trans_b: ", ")，用 trans_b：") << size_t(head_flop) << lesson::tr(" FLOP, ", " FLOP，")
              << lesson::tr("", "2 个线程上 ") << gflops_str(head_flop, head_seconds)
              << lesson::tr(" GFLOP/s on 2 threads\n", " GFLOP/s\n");
    pg::set_num_threads(threads);

    lesson::section(lesson::tr("step 6: beside the machine's FMA peak", "第 6 步：和机器的 FMA 峰值放在一起"));
    double peak = fma_peak_gflops();
    char line[200];
    const std::string peak_format =
        lesson::tr("the FMA peak with %s (this program's micro-kernel's set), %zu floats; one core, %zu chains: %.1f GFLOP/s\n",
                   "%s 的 FMA 峰值（本程序微内核的指令集），%zu 个 float；一个核，%zu 条链：%.1f GFLOP/s\n");
    std::snprintf(line, sizeof line, peak_format.c_str(), isa().name, isa().lanes, isa().chains, peak);
    std::cout << line;
    std::cout << lesson::tr("(printed, never checked: GFLOP/s move with the machine and with whatever else it runs)\n",
                            "（只打印，从不检查：GFLOP/s 随机器而变，也随它同时在跑的别的东西而变）\n");
    const std::string row_format = lesson::tr("  %s %8.1f GFLOP/s  %5.0f%% of peak  %7.1fx the triple loop\n",
                                              "  %s %8.1f GFLOP/s  峰值的 %5.0f%%  三重循环的 %7.1f 倍\n");
    for (const Step& s : steps) {
        double g = flop / s.seconds * 1e-9;
        std::snprintf(line, sizeof line, row_format.c_str(), lesson::pad(s.name, 32).c_str(), g, 100.0 * g / (peak * s.cores),
                      steps[1].seconds / s.seconds);
        std::cout << line;
    }
}

}  // namespace

static void run() {
    by_hand();
    order_of_the_sum();
    timed_steps();
    // the Chinese run draws the Chinese picture beside the English one (README.zh.md shows it)
    const svg::Output out = svg::in_lesson_folder(__FILE__, lesson::chinese() ? "order.zh.svg" : "order.svg");
    write_order_svg(out.path);
    std::cout << lesson::tr("\nwrote ", "\n写出了 ") << out.shown
              << lesson::tr(": the order in which each loop reads B\n", "：每个循环读 B 的顺序\n");
}

int main() { return lesson::run_experiment(run); }
