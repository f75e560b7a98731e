// The kernel table (kernels/table.hpp): every table this CPU runs against the plain-loop reference,
// every kernel, every length around the batch width, both steps of a binary kernel; the choice of
// table; the row splitting (parallel_rows); and the ops built on them giving the same bits at 1, 2
// and 4 threads. Leaves out: speed (./poet bench).
#include "catch.hpp"
#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>
#include "kernels/gemm.hpp"
#include "kernels/parallel.hpp"
#include "kernels/table.hpp"
#include "pg/ops.hpp"
#include "pg/optim/optim.hpp"
#include "pg/random.hpp"
#include "pg/threads.hpp"

using pg::kernels::KernelTable;

static std::vector<float> spread_values(size_t n, float lo = -6.f, float hi = 6.f) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = lo + (hi - lo) * static_cast<float>(i) / static_cast<float>(n + 1);
    return v;
}

// |a - b| within a few float ulps of b, or both NaN
static bool close(double a, double b, double rel = 4e-6, double abs = 1e-30) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return std::fabs(a - b) <= abs + rel * std::fabs(b);
}

TEST_CASE("the kernel tables: the widest this CPU runs is active, the reference runs everywhere", "[simd]") {
    const KernelTable& active = pg::kernels::active();   // PG_KERNELS naming a table this CPU lacks ends here
    std::vector<const KernelTable*> tables = pg::kernels::runnable_tables();
    REQUIRE(tables.size() >= 1);
    CHECK(std::string(tables.back()->name) == "reference");
    const char* wanted = std::getenv("PG_KERNELS");
    if (!wanted || !*wanted) CHECK(&active == tables.front());
    else CHECK(std::string(active.name).rfind(wanted, 0) == 0);
#if defined(__x86_64__)
    REQUIRE(tables.size() >= 2);   // sse2 on every x86-64 CPU, and the reference
    CHECK(std::string(tables[tables.size() - 2]->name) == "sse2");
#elif defined(__aarch64__)
    CHECK(std::string(tables.front()->name) == "neon");
#endif
}

TEST_CASE("every kernel of every table matches the plain-loop reference, every length around the batch width",
          "[simd]") {
    const KernelTable& ref = pg::kernels::reference_table();
    for (const KernelTable* t : pg::kernels::runnable_tables()) {
        for (size_t n = 0; n <= 3 * t->lanes + 1; ++n) {
            INFO(t->name << ", n = " << n);
            std::vector<float> x = spread_values(n), b = spread_values(n, 0.25f, 3.f), y(n, -1.f), r(n, -2.f);
            auto unary = [&](pg::kernels::UnaryKernel k, pg::kernels::UnaryKernel kr, const char* what) {
                k(x.data(), y.data(), n);
                kr(x.data(), r.data(), n);
                for (size_t i = 0; i < n; ++i) {
                    INFO(what << " at " << i << ": " << y[i] << " vs " << r[i]);
                    CHECK(close(y[i], r[i]));
                }
            };
            unary(t->exp, ref.exp, "exp");
            unary(t->sigmoid, ref.sigmoid, "sigmoid");
            unary(t->gelu, ref.gelu, "gelu");
            using Binary = pg::kernels::BinaryKernel;
            std::vector<std::pair<Binary, Binary>> binaries{{t->add, ref.add}, {t->sub, ref.sub}, {t->mul, ref.mul},
                                                            {t->div, ref.div}, {t->neg_mul, ref.neg_mul},
                                                            {t->tanh_grad, ref.tanh_grad},
                                                            {t->sigmoid_grad, ref.sigmoid_grad},
                                                            {t->gelu_grad, ref.gelu_grad}};
            for (size_t k = 0; k < binaries.size(); ++k)
                for (size_t a_step : {0, 1})
                    for (size_t b_step : {0, 1}) {
                        if (n == 0 && (a_step == 0 || b_step == 0)) continue;   // no value to broadcast
                        binaries[k].first(x.data(), a_step, b.data(), b_step, y.data(), n);
                        binaries[k].second(x.data(), a_step, b.data(), b_step, r.data(), n);
                        for (size_t i = 0; i < n; ++i) {
                            INFO("binary kernel " << k << ", steps " << a_step << b_step << ", at " << i);
                            CHECK(close(y[i], r[i], k == 7 ? 2e-5 : 4e-6, 1e-7));   // gelu_grad: a long expression
                        }
                    }
            CHECK(close(t->sum(x.data(), n), ref.sum(x.data(), n), 1e-6, 1e-5));
            CHECK(t->row_max(x.data(), n) == ref.row_max(x.data(), n));
            CHECK(close(t->row_sum_exp(x.data(), n, 1.5f), ref.row_sum_exp(x.data(), n, 1.5f), 1e-6));
            for (bool log_space : {false, true}) {
                t->softmax_row(x.data(), y.data(), n, log_space);
                ref.softmax_row(x.data(), r.data(), n, log_space);
                for (size_t i = 0; i < n; ++i) CHECK(close(y[i], r[i], 1e-5, 1e-7));
            }
            t->softmax_scaled(x.data(), y.data(), n, 6.f, 0.5f, 0.25f);
            ref.softmax_scaled(x.data(), r.data(), n, 6.f, 0.5f, 0.25f);
            for (size_t i = 0; i < n; ++i) CHECK(close(y[i], r[i]));
            // the tail goes through the same batch arithmetic: equal inputs give equal outputs anywhere
            std::vector<float> same(n, 1.2345f), out(n);
            t->exp(same.data(), out.data(), n);
            for (size_t i = 0; i < n; ++i) CHECK(out[i] == out[0]);
        }
    }
}

TEST_CASE("every table's adam_update and gemm match the reference's", "[simd][optim][gemm]") {
    const KernelTable& ref = pg::kernels::reference_table();
    for (const KernelTable* t : pg::kernels::runnable_tables()) {
        INFO(t->name);
        for (bool decoupled : {false, true}) {
            pg::kernels::AdamFactors f{0.9f, 0.99f, 0.1f, 1e-8f, 0.999f, 0.01f, 0.3f, decoupled};
            size_t n = 5 * t->lanes + 3;
            std::vector<float> w = spread_values(n), g = spread_values(n, -1.f, 2.f), m(n, 0.1f), v(n, 0.2f);
            std::vector<float> w2 = w, m2 = m, v2 = v;
            t->adam_update(w.data(), g.data(), m.data(), v.data(), 2, n - 1, f);
            ref.adam_update(w2.data(), g.data(), m2.data(), v2.data(), 2, n - 1, f);
            for (size_t i = 0; i < n; ++i) {
                CHECK(close(w[i], w2[i], 1e-6, 1e-7));
                CHECK(close(m[i], m2[i], 1e-6, 1e-7));
                CHECK(close(v[i], v2[i], 1e-6, 1e-7));
            }
            CHECK(w[0] == w2[0]);   // outside [begin, end): untouched
            CHECK(w[n - 1] == w2[n - 1]);
        }
        const size_t M = 37, N = 45, K = 29;
        std::vector<float> a = spread_values(M * K, -1.f, 1.f), b = spread_values(K * N, -2.f, 1.f);
        std::vector<float> c(M * N, 0.5f), cr(M * N, 0.5f);
        t->gemm(false, true, M, N, K, a.data(), K, b.data(), K, c.data(), N, true);
        ref.gemm(false, true, M, N, K, a.data(), K, b.data(), K, cr.data(), N, true);
        for (size_t i = 0; i < M * N; ++i) CHECK(close(c[i], cr[i], 1e-5, 1e-5));
    }
}

TEST_CASE("parallel_rows covers every row exactly once", "[simd][threads]") {
    for (size_t rows : {size_t(0), size_t(1), size_t(7), size_t(1000)}) {
        for (size_t cost : {size_t(1), size_t(100000)}) {
            std::vector<int> seen(rows, 0);
            pg::kernels::parallel_rows(rows, cost, [&](size_t r0, size_t r1) {
                for (size_t r = r0; r < r1; ++r) ++seen[r];
            });
            for (size_t r = 0; r < rows; ++r) CHECK(seen[r] == 1);
        }
    }
}

TEST_CASE("softmax, log_softmax, cross_entropy, gelu, layer_norm, add and gradient sums give the same bits at 1 and 2 threads",
          "[simd][threads]") {
    size_t saved = pg::num_threads();
    pg::Generator gen(7);
    pg::Tensor logits = pg::randn({300, 777}, gen, true);  // large enough to be split over threads
    std::vector<float> ids(300);
    for (size_t r = 0; r < ids.size(); ++r) ids[r] = static_cast<float>((r * 37) % 777);
    ids[5] = -100.f;  // an ignored row
    pg::Tensor targets = pg::tensor(ids, {300});

    std::vector<float> ce_grad;
    auto run = [&](size_t threads) {
        pg::set_num_threads(threads);
        logits.zero_grad();
        pg::Tensor loss = pg::cross_entropy(logits, targets);
        loss.backward();
        std::vector<float> out = loss.to_vector();
        ce_grad = logits.grad().to_vector();
        out.insert(out.end(), ce_grad.begin(), ce_grad.end());
        logits.zero_grad();
        // layer_norm's rows and the elementwise ops' pieces are split over threads; a tensor used twice
        // sums its two gradients (autograd's add_into), in pieces too
        pg::Tensor w = pg::ones({777}), b = pg::zeros({777});
        pg::Tensor twice = pg::sum(pg::gelu(logits) * logits + logits);
        twice.backward();
        for (const pg::Tensor& t : {pg::softmax(logits, -1), pg::log_softmax(logits, -1), pg::gelu(logits),
                                    pg::layer_norm(logits, w, b, 1e-5f), logits + logits, twice})
            for (float v : t.to_vector()) out.push_back(v);
        for (float v : logits.grad().to_vector()) out.push_back(v);
        return out;
    };
    std::vector<float> one = run(1), two = run(2);
    pg::set_num_threads(saved);
    REQUIRE(one.size() == two.size());
    CHECK(one == two);
    // and the ignored row got no gradient from the cross-entropy
    for (size_t c = 0; c < 777; ++c) CHECK(ce_grad[5 * 777 + c] == 0.f);
}

TEST_CASE("clip_grad_norm and AdamW give the same bits at 1 and 2 threads", "[simd][threads][optim]") {
    size_t saved = pg::num_threads();
    auto run = [](size_t threads) {
        pg::set_num_threads(threads);
        pg::Generator gen(11);
        // pieces of several parameters, one far larger than a piece, one without a gradient
        std::vector<pg::Tensor> params = {pg::randn({70001}, gen, true), pg::randn({129}, gen, true),
                                          pg::randn({3}, gen, true), pg::randn({40000}, gen, true)};
        pg::optim::AdamW opt(params, {});
        std::vector<float> out;
        for (int step = 0; step < 3; ++step) {
            opt.zero_grad();
            (pg::sum(params[0] * params[0] * 3.f) + pg::sum(params[1]) + pg::sum(pg::exp(params[3] * 0.1f))).backward();
            out.push_back(pg::optim::clip_grad_norm(opt.params(), 0.5f));
            opt.step();
        }
        for (const pg::Tensor& p : params)
            for (float v : p.to_vector()) out.push_back(v);
        return out;
    };
    std::vector<float> one = run(1), two = run(2);
    pg::set_num_threads(saved);
    REQUIRE(one.size() == two.size());
    CHECK(one == two);
}

TEST_CASE("dropout draws the same mask at 1, 2 and 4 threads, and its generator moves on by one number",
          "[simd][threads][dropout]") {
    size_t saved = pg::num_threads();
    pg::Tensor x = pg::ones({400, 300}, true);   // 120,000 values: split over the threads
    auto mask_at = [&](size_t threads) {
        pg::set_num_threads(threads);
        pg::Generator gen(29);
        pg::Tensor y = pg::dropout(x, 0.25f, true, gen);
        std::vector<float> out = y.to_vector();
        out.push_back(gen.uniform());   // where the generator stands afterwards
        return out;
    };
    std::vector<float> one = mask_at(1), two = mask_at(2), four = mask_at(4);
    pg::set_num_threads(saved);
    CHECK(one == two);
    CHECK(one == four);
    // a real mask: about a quarter dropped, the rest scaled by 1 / (1 - p)
    size_t dropped = 0;
    for (size_t i = 0; i + 1 < one.size(); ++i) {
        REQUIRE((one[i] == 0.f || one[i] == Approx(4.f / 3.f)));
        dropped += one[i] == 0.f;
    }
    CHECK(dropped > 29000);
    CHECK(dropped < 31000);
    pg::Generator fresh(29);
    fresh.next_u64();   // the mask's one number
    CHECK(one.back() == fresh.uniform());
}
