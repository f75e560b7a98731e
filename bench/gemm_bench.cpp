// GEMM microbenchmarks: poetgrad's kernels::gemm and OpenBLAS cblas_sgemm on the same shapes and
// thread counts in one run, then a table of GFLOP/s, the ratio ours / OpenBLAS, and each row's
// share of the core's measured FMA peak. Leaves out: correctness (tests/test_gemm.cpp).
#include <benchmark/benchmark.h>
#include <cblas.h>
#include <xsimd/xsimd.hpp>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>
#include "kernels/gemm.hpp"
#include "pg/threads.hpp"

namespace {

// One product C (M,N) = op(A) (M,K) @ op(B) (K,N); trans_a / trans_b as in kernels::gemm.
struct Problem {
    std::string label;
    bool trans_a, trans_b;
    size_t M, N, K;
    std::string title() const {
        return label + " " + std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K);
    }
};

// Square sizes, then the tiny GPT's products: B*T = 2048 rows, C = 128, MLP 4C = 512, V ~ 7000,
// T = HS = 32 for attention. Forward y = x @ w^T is (false, true); backward dx = gy @ w is
// (false, false) and dw = gy^T @ x is (true, false).
std::vector<Problem> problems() {
    std::vector<Problem> list;
    for (size_t n : {128, 256, 384, 512, 768, 1024}) list.push_back({"square", false, false, n, n, n});
    list.push_back({"square A^T", true, false, 512, 512, 512});
    list.push_back({"square B^T", false, true, 512, 512, 512});
    list.push_back({"square A^T B^T", true, true, 512, 512, 512});
    list.push_back({"qkv fwd", false, true, 2048, 384, 128});
    list.push_back({"qkv dx", false, false, 2048, 128, 384});
    list.push_back({"qkv dw", true, false, 384, 128, 2048});
    list.push_back({"attn.proj fwd", false, true, 2048, 128, 128});
    list.push_back({"attn.proj dw", true, false, 128, 128, 2048});
    list.push_back({"mlp.fc fwd", false, true, 2048, 512, 128});
    list.push_back({"mlp.fc dx", false, false, 2048, 128, 512});
    list.push_back({"mlp.fc dw", true, false, 512, 128, 2048});
    list.push_back({"mlp.proj fwd", false, true, 2048, 128, 512});
    list.push_back({"mlp.proj dw", true, false, 128, 512, 2048});
    list.push_back({"head fwd", false, true, 2048, 7000, 128});
    list.push_back({"head dx", false, false, 2048, 128, 7000});
    list.push_back({"head dw", true, false, 7000, 128, 2048});
    list.push_back({"att q@k^T", false, true, 32, 32, 32});
    list.push_back({"att a@v", false, false, 32, 32, 32});
    return list;
}

std::vector<float> random_floats(size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-1.f, 1.f);
    std::vector<float> v(n);
    for (float& x : v) x = dist(rng);
    return v;
}

void run(benchmark::State& state, const Problem& p, bool openblas, int threads) {
    std::vector<float> a = random_floats(p.M * p.K, 1), b = random_floats(p.K * p.N, 2), c(p.M * p.N);
    size_t lda = p.trans_a ? p.M : p.K, ldb = p.trans_b ? p.K : p.N;
    pg::set_num_threads(threads);
    openblas_set_num_threads(threads);
    for (auto _ : state) {
        if (openblas)
            cblas_sgemm(CblasRowMajor, p.trans_a ? CblasTrans : CblasNoTrans, p.trans_b ? CblasTrans : CblasNoTrans,
                        int(p.M), int(p.N), int(p.K), 1.f, a.data(), int(lda), b.data(), int(ldb), 0.f, c.data(),
                        int(p.N));
        else
            pg::kernels::gemm(p.trans_a, p.trans_b, p.M, p.N, p.K, a.data(), lda, b.data(), ldb, c.data(), p.N, false);
        benchmark::DoNotOptimize(c.data());
        benchmark::ClobberMemory();
    }
    double gflop = 2e-9 * double(p.M) * double(p.N) * double(p.K);
    state.counters["GFLOP/s"] = benchmark::Counter(gflop, benchmark::Counter::kIsIterationInvariantRate);
}

// One core's FMA throughput, the ceiling for every row: 12 independent chains of xsimd FMAs, enough
// to keep two FMA pipes of latency 4 busy, in the widest SIMD this build targets.
void peak_fma(benchmark::State& state) {
    using Vec = xsimd::batch<float>;
    constexpr size_t CHAINS = 12, STEPS = 1 << 16;
    Vec acc[CHAINS];
    for (size_t i = 0; i < CHAINS; ++i) acc[i] = Vec(1e-3f * float(i));
    Vec scale(0.9999f), shift(1e-4f);
    for (auto _ : state) {
        for (size_t s = 0; s < STEPS; ++s)
            for (size_t i = 0; i < CHAINS; ++i) acc[i] = xsimd::fma(acc[i], scale, shift);
        benchmark::DoNotOptimize(acc);
    }
    state.counters["GFLOP/s"] = benchmark::Counter(2e-9 * CHAINS * STEPS * Vec::size,
                                                   benchmark::Counter::kIsIterationInvariantRate);
}

// Prints every run as usual and remembers its GFLOP/s (the median when repeated) for the table.
class TableReporter : public benchmark::ConsoleReporter {
public:
    std::map<std::string, double> gflops;
    void ReportRuns(const std::vector<Run>& runs) override {
        ConsoleReporter::ReportRuns(runs);
        for (const Run& run : runs) {
            bool median = run.run_type == Run::RT_Aggregate && run.aggregate_name == "median";
            if ((run.run_type == Run::RT_Iteration || median) && run.counters.count("GFLOP/s"))
                gflops[run.run_name.function_name] = run.counters.at("GFLOP/s").value;
        }
    }
};

std::string name(const char* library, const Problem& p, int threads) {
    return std::string(library) + "/" + p.title() + "/threads:" + std::to_string(threads);
}

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    benchmark::RegisterBenchmark("peak/fma", peak_fma)->UseRealTime()->Unit(benchmark::kMicrosecond);
    std::vector<Problem> list = problems();
    for (const Problem& p : list)
        for (int threads : {1, 2})
            for (bool openblas : {false, true})
                benchmark::RegisterBenchmark(name(openblas ? "openblas" : "ours", p, threads).c_str(), run, p, openblas,
                                             threads)
                    ->UseRealTime()
                    ->Unit(benchmark::kMicrosecond);
    TableReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);

    double peak = reporter.gflops.count("peak/fma") ? reporter.gflops["peak/fma"] : 0.0;
    std::printf("\nours: xsimd %s; OpenBLAS core: %s; %u hardware threads\n", xsimd::default_arch::name(),
                openblas_get_corename(), std::thread::hardware_concurrency());
    if (peak > 0) std::printf("measured FMA peak of one core: %.1f GFLOP/s\n", peak);
    std::printf("%-34s %7s %12s %12s %7s%s\n", "problem (M x N x K)", "threads", "ours GF/s", "OpenBLAS GF/s", "ratio",
                peak > 0 ? "  ours % of peak" : "");
    for (const Problem& p : list)
        for (int threads : {1, 2}) {
            std::string ours = name("ours", p, threads), theirs = name("openblas", p, threads);
            if (!reporter.gflops.count(ours) || !reporter.gflops.count(theirs)) continue;
            double g_ours = reporter.gflops[ours], g_theirs = reporter.gflops[theirs];
            std::printf("%-34s %7d %12.1f %12.1f %7.2f", p.title().c_str(), threads, g_ours, g_theirs, g_ours / g_theirs);
            if (peak > 0) std::printf("  %14.0f%%", 100.0 * g_ours / (peak * threads));
            std::printf("\n");
        }
    benchmark::Shutdown();
    return 0;
}
