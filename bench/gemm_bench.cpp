// GEMM benchmark: poetgrad's kernels::gemm and OpenBLAS cblas_sgemm on the same matrices, taken in
// turn in one process (ours, OpenBLAS, ours, OpenBLAS, ...) so that a noisy neighbour slows both
// sides alike; then a table of median GFLOP/s, the spread over the rounds, the ratio ours / OpenBLAS
// and ours as a share of the core's measured FMA peak. Leaves out: correctness (tests/test_gemm.cpp).
//
//   gemm_bench [--rounds R (7)] [--threads 1,2] [--filter TEXT]   (TEXT: part of a problem's name)
#include <cblas.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>
#include "kernels/gemm.hpp"
#include "kernels/table.hpp"
#include "pg/threads.hpp"

namespace {

using Clock = std::chrono::steady_clock;

// One product C (M,N) = op(A) (M,K) @ op(B) (K,N); trans_a / trans_b as in kernels::gemm.
struct Problem {
    std::string label;
    bool trans_a, trans_b;
    size_t M, N, K;
    std::string title() const {
        return label + " " + std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K);
    }
};

// The poet's default model: batch 64 x 27 tokens = 1728 rows, width C = 128, MLP 4C = 512,
// vocabulary V = 7817 (the "all" corpus). A Linear (weight stored (out,in)) does y = x @ w^T
// forward (false, true), dx = gy @ w (false, false) and dw = gy^T @ x (true, false).
constexpr size_t ROWS = 64 * 27, C = 128, V = 7817;

std::vector<Problem> problems() {
    std::vector<Problem> list;
    for (size_t n : {256, 384, 512, 768, 1024}) list.push_back({"square", false, false, n, n, n});
    list.push_back({"square A^T", true, false, 512, 512, 512});
    list.push_back({"square B^T", false, true, 512, 512, 512});
    struct Layer { const char* name; size_t in, out; };
    for (Layer l : {Layer{"qkv", C, 3 * C}, Layer{"attn.proj", C, C}, Layer{"mlp.fc", C, 4 * C},
                    Layer{"mlp.proj", 4 * C, C}, Layer{"head", C, V}}) {
        list.push_back({std::string(l.name) + " fwd", false, true, ROWS, l.out, l.in});
        list.push_back({std::string(l.name) + " dx", false, false, ROWS, l.in, l.out});
        list.push_back({std::string(l.name) + " dw", true, false, l.out, l.in, ROWS});
    }
    return list;
}

std::vector<float> random_floats(size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-1.f, 1.f);
    std::vector<float> v(n);
    for (float& x : v) x = dist(rng);
    return v;
}

// The two sides of a comparison, called the same way.
struct Operands {
    const Problem& p;
    std::vector<float> a, b, c;
    size_t lda, ldb;
    explicit Operands(const Problem& p_)
        : p(p_), a(random_floats(p.M * p.K, 1)), b(random_floats(p.K * p.N, 2)), c(p.M * p.N),
          lda(p.trans_a ? p.M : p.K), ldb(p.trans_b ? p.K : p.N) {}
    void ours() {
        pg::kernels::gemm(p.trans_a, p.trans_b, p.M, p.N, p.K, a.data(), lda, b.data(), ldb, c.data(), p.N, false);
    }
    void openblas() {
        cblas_sgemm(CblasRowMajor, p.trans_a ? CblasTrans : CblasNoTrans, p.trans_b ? CblasTrans : CblasNoTrans,
                    int(p.M), int(p.N), int(p.K), 1.f, a.data(), int(lda), b.data(), int(ldb), 0.f, c.data(), int(p.N));
    }
};

// Seconds per call of f: calls repeated until at least `budget` seconds have passed, the mean.
template <class F>
double seconds_per_call(F&& f, double budget = 0.05) {
    size_t calls = 0;
    auto start = Clock::now();
    double elapsed = 0;
    do {
        f();
        ++calls;
        elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    } while (elapsed < budget);
    return elapsed / double(calls);
}

// After a side's calls its worker threads keep spinning for a while (OpenBLAS's for about 2^28
// cycles, ~0.1 s; poetgrad's for 0.1 ms) and would take a core from the other side's threads.
void let_threads_go_idle(int threads) {
    if (threads > 1) std::this_thread::sleep_for(std::chrono::milliseconds(250));
}

// One core's FMA throughput, the ceiling for every row: 12 independent chains of FMAs, enough to
// keep two FMA pipes of latency 4 busy, at the width of the kernel table the library runs here
// (GCC/Clang vector types, compiled for that instruction set by a target attribute). The best of
// 20 short runs, so that a slow moment of the machine does not set the ceiling.
constexpr size_t kChains = 12, kSteps = 1 << 18;
template <class V, size_t LANES>
[[gnu::always_inline]] inline double fma_chains_gflops() {
    V acc[kChains];
    for (size_t i = 0; i < kChains; ++i) acc[i] = V{} + 1e-3f * float(i);
    V scale = V{} + 0.9999f, shift = V{} + 1e-4f;
    auto start = Clock::now();
    for (size_t s = 0; s < kSteps; ++s)
        for (size_t i = 0; i < kChains; ++i) acc[i] = acc[i] * scale + shift;   // one FMA each
    double t = std::chrono::duration<double>(Clock::now() - start).count();
    float sink = 0;
    for (size_t i = 0; i < kChains; ++i)
        for (size_t l = 0; l < LANES; ++l) sink += acc[i][l];
    if (sink == 12345.f) std::printf(" ");  // keeps the chains alive
    return 2e-9 * kChains * kSteps * LANES / t;
}
typedef float Floats16 __attribute__((vector_size(64)));
typedef float Floats8 __attribute__((vector_size(32)));
typedef float Floats4 __attribute__((vector_size(16)));
#if defined(__x86_64__)
[[gnu::target("avx512f"), gnu::noinline]] double peak16() { return fma_chains_gflops<Floats16, 16>(); }
[[gnu::target("avx2,fma"), gnu::noinline]] double peak8() { return fma_chains_gflops<Floats8, 8>(); }
#else
double peak16() { return fma_chains_gflops<Floats16, 16>(); }
double peak8() { return fma_chains_gflops<Floats8, 8>(); }
#endif
[[gnu::noinline]] double peak4() { return fma_chains_gflops<Floats4, 4>(); }

double peak_fma_gflops() {
    const size_t lanes = pg::kernels::active().lanes;
    double best = 0;
    for (int round = 0; round < 20; ++round) best = std::max(best, lanes == 16 ? peak16() : lanes == 8 ? peak8() : peak4());
    return best;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Args {
    int rounds = 7;
    std::vector<int> threads{1, 2};
    std::string filter;
};

Args parse(int argc, char** argv) {
    Args args;
    for (int i = 1; i < argc; ++i) {
        std::string flag = argv[i];
        if (i + 1 >= argc) {
            std::fprintf(stderr, "gemm_bench: %s needs a value\n", flag.c_str());
            std::exit(2);
        }
        std::string value = argv[++i];
        if (flag == "--rounds") {
            args.rounds = std::atoi(value.c_str());
        } else if (flag == "--threads") {
            args.threads.clear();
            for (size_t at = 0; at < value.size();) {
                size_t comma = value.find(',', at);
                if (comma == std::string::npos) comma = value.size();
                args.threads.push_back(std::atoi(value.substr(at, comma - at).c_str()));
                at = comma + 1;
            }
        } else if (flag == "--filter") {
            args.filter = value;
        } else {
            std::fprintf(stderr, "usage: gemm_bench [--rounds R (7)] [--threads 1,2] [--filter TEXT]\n");
            std::exit(2);
        }
    }
    if (args.rounds < 1 || args.threads.empty() ||
        std::any_of(args.threads.begin(), args.threads.end(), [](int t) { return t < 1 || t > 256; })) {
        std::fprintf(stderr, "gemm_bench: --rounds must be at least 1 and every --threads count 1..256\n");
        std::exit(2);
    }
    return args;
}

}  // namespace

int main(int argc, char** argv) {
    Args args = parse(argc, argv);
    double peak = peak_fma_gflops();
    std::printf("ours: kernels %s; OpenBLAS %s, core %s; %u hardware threads\n", pg::kernel_set().c_str(),
                OPENBLAS_VERSION, openblas_get_corename(), std::thread::hardware_concurrency());
    std::printf("measured FMA peak of one core: %.1f GFLOP/s; %d rounds, ours and OpenBLAS in turn\n\n", peak,
                args.rounds);
    std::printf("| problem (M x N x K) | threads | ours GFLOP/s (min-max) | OpenBLAS GFLOP/s (min-max) | "
                "ratio of medians (min-max of rounds) | ours %% of peak |\n|---|---:|---:|---:|---:|---:|\n");
    for (const Problem& p : problems()) {
        if (p.title().find(args.filter) == std::string::npos) continue;
        Operands ops(p);
        double gflop = 2e-9 * double(p.M) * double(p.N) * double(p.K);
        for (int threads : args.threads) {
            pg::set_num_threads(size_t(threads));
            openblas_set_num_threads(threads);
            ops.ours();  // warm-up: pack buffers, thread pools, caches
            ops.openblas();
            std::vector<double> ours, theirs, ratio;
            for (int r = 0; r < args.rounds; ++r) {
                let_threads_go_idle(threads);
                ours.push_back(gflop / seconds_per_call([&] { ops.ours(); }));
                let_threads_go_idle(threads);
                theirs.push_back(gflop / seconds_per_call([&] { ops.openblas(); }));
                ratio.push_back(ours.back() / theirs.back());
            }
            auto [ours_min, ours_max] = std::minmax_element(ours.begin(), ours.end());
            auto [theirs_min, theirs_max] = std::minmax_element(theirs.begin(), theirs.end());
            auto [ratio_min, ratio_max] = std::minmax_element(ratio.begin(), ratio.end());
            std::printf("| %s | %d | %.1f (%.1f-%.1f) | %.1f (%.1f-%.1f) | **%.2f** (%.2f-%.2f) | %.0f%% |\n",
                        p.title().c_str(), threads, median(ours), *ours_min, *ours_max, median(theirs), *theirs_min,
                        *theirs_max, median(ours) / median(theirs), *ratio_min, *ratio_max,
                        100.0 * median(ours) / (peak * threads));
            std::fflush(stdout);
        }
    }
    return 0;
}
