// The xsimd elementwise loops (kernels/simd.hpp) and the row splitting (parallel_rows): every
// length around the batch width, against plain float loops; and the ops built on them giving the
// same bits at 1 and 2 threads. Leaves out: speed (./poet bench).
#include "catch.hpp"
#include <cmath>
#include <random>
#include <vector>
#include "kernels/parallel.hpp"
#include "kernels/simd.hpp"
#include "pg/ops.hpp"
#include "pg/optim/optim.hpp"
#include "pg/random.hpp"
#include "pg/threads.hpp"

using pg::kernels::kFloatLanes;

static std::vector<float> spread_values(size_t n) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = -6.f + 12.f * static_cast<float>(i) / static_cast<float>(n + 1);
    return v;
}

TEST_CASE("simd_map and simd_zip match plain loops for every length around the batch width", "[simd]") {
    for (size_t n = 0; n <= 3 * kFloatLanes + 1; ++n) {
        INFO("n = " << n);
        std::vector<float> x = spread_values(n), b(n, 0.5f), y(n, -1.f), z(n, -1.f);
        pg::kernels::simd_map(x.data(), y.data(), n, [](auto v) { return xsimd::exp(v); });
        pg::kernels::simd_zip(x.data(), b.data(), z.data(), n, [](auto p, auto q) { return p * q - q; });
        for (size_t i = 0; i < n; ++i) {
            CHECK(y[i] == Approx(std::exp(x[i])).epsilon(1e-6));
            CHECK(z[i] == x[i] * 0.5f - 0.5f);
        }
        // the tail goes through the same batch arithmetic: equal inputs give equal outputs anywhere
        std::vector<float> same(n, 1.2345f), out(n);
        pg::kernels::simd_map(same.data(), out.data(), n, [](auto v) { return xsimd::exp(v); });
        for (size_t i = 0; i < n; ++i) CHECK(out[i] == out[0]);
    }
}

TEST_CASE("simd_map with a float-only functor runs the plain loop, in place too", "[simd]") {
    std::vector<float> x = spread_values(37);
    std::vector<float> expect(x.size());
    for (size_t i = 0; i < x.size(); ++i) expect[i] = x[i] > 0.f ? x[i] : 0.f;
    pg::kernels::simd_map(x.data(), x.data(), x.size(), [](float v) { return v > 0.f ? v : 0.f; });
    CHECK(x == expect);
}

TEST_CASE("simd_sum adds every element", "[simd]") {
    for (size_t n : {size_t(0), size_t(1), kFloatLanes - 1, kFloatLanes, 5 * kFloatLanes + 3}) {
        std::vector<float> x(n);
        for (size_t i = 0; i < n; ++i) x[i] = static_cast<float>(i + 1);
        CHECK(pg::kernels::simd_sum(x.data(), n) == Approx(static_cast<double>(n) * (n + 1) / 2));
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
