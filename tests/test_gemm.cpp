// kernels::gemm and gemm_batched against the plain-loop gemm_reference: odd and empty sizes, every
// transpose pair, accumulate on and off, padded leading dims, broadcast and summed batches, and the
// same bits at 1 and 2 threads; plus the thread pool and thread-count settings they rely on.
// Leaves out: speed (bench/gemm_bench.cpp).
#include "catch.hpp"
#include <atomic>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>
#include "kernels/gemm.hpp"
#include "kernels/parallel.hpp"
#include "pg/threads.hpp"

namespace {

// One call: C (M,N) = op(A) @ op(B), stored with `pad` extra floats at the end of every row.
struct GemmCase {
    bool trans_a, trans_b;
    size_t M, N, K, pad;
    bool accumulate;
    std::string describe() const {
        return "M=" + std::to_string(M) + " N=" + std::to_string(N) + " K=" + std::to_string(K) +
               " trans_a=" + std::to_string(trans_a) + " trans_b=" + std::to_string(trans_b) +
               " pad=" + std::to_string(pad) + " accumulate=" + std::to_string(accumulate);
    }
};

struct Operands {
    std::vector<float> a, b, c;  // c holds C's starting values, padding included
    size_t lda, ldb, ldc;
};

std::vector<float> random_floats(size_t n, std::mt19937& rng) {
    std::uniform_real_distribution<float> dist(-1.f, 1.f);
    std::vector<float> v(n);
    for (float& x : v) x = dist(rng);
    return v;
}

Operands make_operands(const GemmCase& g, std::mt19937& rng) {
    Operands o;
    size_t a_rows = g.trans_a ? g.K : g.M, a_cols = g.trans_a ? g.M : g.K;  // A as stored
    size_t b_rows = g.trans_b ? g.N : g.K, b_cols = g.trans_b ? g.K : g.N;  // B as stored
    o.lda = a_cols + g.pad;
    o.ldb = b_cols + g.pad;
    o.ldc = g.N + g.pad;
    o.a = random_floats(a_rows * o.lda, rng);
    o.b = random_floats(b_rows * o.ldb, rng);
    o.c = random_floats(g.M * o.ldc, rng);
    return o;
}

std::vector<float> run_gemm(const GemmCase& g, const Operands& o) {
    std::vector<float> c = o.c;
    pg::kernels::gemm(g.trans_a, g.trans_b, g.M, g.N, g.K, o.a.data(), o.lda, o.b.data(), o.ldb, c.data(), o.ldc,
                      g.accumulate);
    return c;
}

// Every element of C within a rounding bound that grows with K (entries lie in [-1, 1]), and the
// padding past column N left exactly as it was.
void check_against_reference(const GemmCase& g, std::mt19937& rng) {
    INFO(g.describe());
    Operands o = make_operands(g, rng);
    std::vector<float> got = run_gemm(g, o);
    std::vector<float> want = o.c;
    pg::kernels::gemm_reference(g.trans_a, g.trans_b, g.M, g.N, g.K, o.a.data(), o.lda, o.b.data(), o.ldb,
                                want.data(), o.ldc, g.accumulate);
    float tolerance = 4e-7f * float(g.K + 2);
    float worst = 0.f;
    size_t padding_changed = 0;
    for (size_t i = 0; i < g.M; ++i)
        for (size_t j = 0; j < o.ldc; ++j) {
            size_t at = i * o.ldc + j;
            if (j < g.N)
                worst = std::max(worst, std::abs(got[at] - want[at]));
            else if (got[at] != o.c[at])
                ++padding_changed;
        }
    CHECK(padding_changed == 0);
    REQUIRE(worst <= tolerance);
}

// Restores the thread count a test changed.
struct ThreadCountGuard {
    size_t saved = pg::num_threads();
    ~ThreadCountGuard() { pg::set_num_threads(saved); }
};

}  // namespace

TEST_CASE("gemm matches gemm_reference on small and odd sizes, every transpose pair", "[gemm]") {
    std::mt19937 rng(7);
    const size_t rows_cols[] = {0, 1, 5, 6, 12, 13, 17, 31, 32, 33, 67};
    const size_t depths[] = {0, 1, 3, 16, 67};
    for (bool trans_a : {false, true})
        for (bool trans_b : {false, true})
            for (bool accumulate : {false, true})
                for (size_t M : rows_cols)
                    for (size_t N : rows_cols)
                        for (size_t K : depths)
                            check_against_reference({trans_a, trans_b, M, N, K, (M + N + K) % 3 == 0 ? 0u : 3u,
                                                     accumulate},
                                                    rng);
}

TEST_CASE("gemm matches gemm_reference on sizes that cross its cache blocks", "[gemm]") {
    std::mt19937 rng(11);
    for (bool trans_a : {false, true})
        for (bool trans_b : {false, true}) {
            check_against_reference({trans_a, trans_b, 300, 257, 129, 0, false}, rng);
            check_against_reference({trans_a, trans_b, 130, 70, 600, 5, true}, rng);
            check_against_reference({trans_a, trans_b, 13, 2100, 20, 1, false}, rng);
            check_against_reference({trans_a, trans_b, 37, 150, 45, 2, true}, rng);
        }
}

TEST_CASE("gemm with K = 0 writes zeros, or leaves C alone when accumulating", "[gemm]") {
    std::vector<float> c{1.f, 2.f, 3.f, 4.f, 5.f, 6.f};
    pg::kernels::gemm(false, false, 2, 2, 0, nullptr, 0, nullptr, 2, c.data(), 3, true);
    CHECK(c == std::vector<float>{1.f, 2.f, 3.f, 4.f, 5.f, 6.f});
    pg::kernels::gemm(false, false, 2, 2, 0, nullptr, 0, nullptr, 2, c.data(), 3, false);
    CHECK(c == std::vector<float>{0.f, 0.f, 3.f, 0.f, 0.f, 6.f});
}

TEST_CASE("gemm gives the same bits at 1 and 2 threads", "[gemm][threads]") {
    ThreadCountGuard guard;
    std::mt19937 rng(3);
    const GemmCase cases[] = {
        {false, false, 300, 257, 129, 0, false},  // split by rows of C
        {false, false, 1100, 1030, 300, 0, true},  // ... over several blocks of B along N and K
        {true, false, 2100, 100, 300, 3, false},  // ... A^T read in place (C 100 wide)
        {true, true, 301, 64, 250, 2, true},
        {false, true, 60, 700, 100, 0, false},  // split by columns of C
        {true, false, 9, 1500, 400, 1, true},
    };
    for (const GemmCase& g : cases) {
        INFO(g.describe());
        Operands o = make_operands(g, rng);
        pg::set_num_threads(1);
        std::vector<float> one = run_gemm(g, o);
        pg::set_num_threads(2);
        std::vector<float> two = run_gemm(g, o);
        CHECK(one == two);
    }
}

// gemm_batched over `batch` products of one shape, each operand either one matrix per product or a
// single shared one (stride 0), against a loop of gemm_reference.
void check_batched(size_t batch, bool trans_a, bool trans_b, size_t M, size_t N, size_t K, bool share_a, bool share_c,
                   bool accumulate, std::mt19937& rng) {
    INFO("batch=" << batch << " trans_a=" << trans_a << " trans_b=" << trans_b << " M=" << M << " N=" << N
                  << " K=" << K << " share_a=" << share_a << " share_c=" << share_c << " accumulate=" << accumulate);
    size_t a_size = M * K, b_size = K * N, c_size = M * N;
    size_t a_stride = share_a ? 0 : a_size, c_stride = share_c ? 0 : c_size;
    size_t lda = trans_a ? M : K, ldb = trans_b ? K : N;
    std::vector<float> a = random_floats(share_a ? a_size : batch * a_size, rng);
    std::vector<float> b = random_floats(batch * b_size, rng);
    std::vector<float> c_start = random_floats(share_c ? c_size : batch * c_size, rng);
    std::vector<float> want = c_start;
    for (size_t i = 0; i < batch; ++i)
        pg::kernels::gemm_reference(trans_a, trans_b, M, N, K, a.data() + i * a_stride, lda, b.data() + i * b_size,
                                    ldb, want.data() + i * c_stride, N, accumulate || (share_c && i > 0));
    std::vector<float> got = c_start;
    pg::kernels::gemm_batched(batch, trans_a, trans_b, M, N, K, a.data(), lda, a_stride, b.data(), ldb, b_size,
                              got.data(), N, c_stride, accumulate);
    float tolerance = 4e-7f * float(batch * K + 2);
    float worst = 0.f;
    for (size_t i = 0; i < got.size(); ++i) worst = std::max(worst, std::abs(got[i] - want[i]));
    REQUIRE(worst <= tolerance);
}

TEST_CASE("gemm_batched matches a loop of gemm_reference, with shared operands and summed outputs",
          "[gemm]") {
    std::mt19937 rng(5);
    for (bool trans_a : {false, true})
        for (bool trans_b : {false, true})
            for (bool accumulate : {false, true}) {
                check_batched(7, trans_a, trans_b, 13, 9, 17, false, false, accumulate, rng);
                check_batched(160, trans_a, trans_b, 32, 32, 32, false, false, accumulate, rng);  // over threads
                check_batched(5, trans_a, trans_b, 11, 6, 4, true, false, accumulate, rng);      // broadcast A
                check_batched(6, trans_a, trans_b, 8, 10, 12, false, true, accumulate, rng);     // sum into one C
            }
    check_batched(0, false, false, 3, 3, 3, false, false, false, rng);
    check_batched(3, false, false, 200, 150, 100, false, false, false, rng);  // each product split by gemm
}

TEST_CASE("gemm_batched gives the same bits at 1 and 2 threads", "[gemm][threads]") {
    ThreadCountGuard guard;
    std::mt19937 rng(9);
    size_t batch = 96, M = 32, N = 32, K = 48;
    std::vector<float> a = random_floats(batch * M * K, rng), b = random_floats(batch * K * N, rng);
    std::vector<float> one(batch * M * N), two(batch * M * N);
    pg::set_num_threads(1);
    pg::kernels::gemm_batched(batch, false, true, M, N, K, a.data(), K, M * K, b.data(), K, K * N, one.data(), N, M * N,
                              false);
    pg::set_num_threads(2);
    pg::kernels::gemm_batched(batch, false, true, M, N, K, a.data(), K, M * K, b.data(), K, K * N, two.data(), N, M * N,
                              false);
    CHECK(one == two);
}

TEST_CASE("parallel_for runs every task once and passes on a task's exception", "[threads]") {
    ThreadCountGuard guard;
    pg::set_num_threads(2);
    std::vector<std::atomic<int>> runs(100);
    pg::kernels::parallel_for(runs.size(), [&](size_t i) { ++runs[i]; });
    size_t once = 0;
    for (const auto& r : runs) once += r.load() == 1;
    CHECK(once == runs.size());
    CHECK_THROWS_WITH(pg::kernels::parallel_for(10, [](size_t i) {
                          if (i == 7) throw std::runtime_error("task 7 failed");
                      }),
                      "task 7 failed");
}

TEST_CASE("set_num_threads rejects 0 and num_threads reports the setting", "[threads]") {
    ThreadCountGuard guard;
    CHECK_THROWS_AS(pg::set_num_threads(0), std::invalid_argument);
    pg::set_num_threads(3);
    CHECK(pg::num_threads() == 3);
}
