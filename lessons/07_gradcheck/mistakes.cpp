// mistake 1: L = sum(f(x)), no random weights r => weight f(x) by random numbers r
// mistake 2: x.zero_grad() forgotten => gradients accumulate
// mistake 3: x[i] not put back after the nudges => put each element back
// mistake 4: a one-sided difference (L(x + eps) - L(x)) / eps => use the central difference
// mistake 5: the difference divided by eps, not 2 eps => divide L(x + eps) - L(x - eps) by 2 eps
// mistake 6: L(x - eps) - L(x + eps), the wrong way round => your numeric derivative has the wrong sign
// mistake 7: the nudges go to a copy of x (x.detach()), so f never sees them => not a copy
// mistake 8: the mean of the differences returned, not the largest => not their mean
// mistake 9: L added up in float => add up L = sum(f(x) * r) in double
// mistake 10: x.zero_grad() after backward, before x.grad() is read => x.grad() was read when x had no gradient
// mistake 11: the last element's difference returned (worst = ..., not worst = max(worst, ...)) => not their mean or the last one's
// mistake 12: pg::gradcheck called with its default options => use the eps you are given
// Lesson 07's planted mistakes: plausible wrong gradient checks (not planted_bugs.hpp's wrong ops, which
// the checks feed them). Each builds with -DMISTAKE=N and must fail the checks with its hint above.
#include <cmath>
#include "check.hpp"

double exercise::max_gradient_error(const std::function<pg::Tensor(const pg::Tensor&)>& f, pg::Tensor x,
                                    double eps) {
#if MISTAKE == 12
    return pg::gradcheck([&f](const std::vector<pg::Tensor>& in) { return f(in[0]); }, {x}).max_abs_error;
#endif
    pg::Generator gen(0);
#if MISTAKE == 1
    pg::Tensor r = pg::ones(f(x).shape());
#else
    pg::Tensor r = pg::uniform(f(x).shape(), -1.f, 1.f, gen);
#endif
#if MISTAKE == 10
    pg::sum(f(x) * r).backward();
    x.zero_grad();
#elif MISTAKE == 2
    pg::sum(f(x) * r).backward();
#else
    x.zero_grad();
    pg::sum(f(x) * r).backward();
#endif
    std::vector<float> analytic = x.grad().to_vector();

#if MISTAKE == 7
    pg::Tensor nudged = x.detach();
#else
    pg::Tensor nudged = x;
#endif
    auto L = [&] {
        pg::Tensor y = f(x);
#if MISTAKE == 9
        float s = 0;
        for (size_t i = 0; i < y.numel(); ++i) s += y.ptr()[i] * r.ptr()[i];
#else
        double s = 0;
        for (size_t i = 0; i < y.numel(); ++i) s += static_cast<double>(y.ptr()[i]) * r.ptr()[i];
#endif
        return static_cast<double>(s);
    };
    pg::NoGradGuard no_grad;
    float* px = nudged.mutable_data().data();
    double worst = 0, total = 0;
    for (size_t i = 0; i < x.numel(); ++i) {
        float orig = px[i];
        px[i] = orig + static_cast<float>(eps);
        double up = L();
#if MISTAKE == 4
        px[i] = orig;
        double down = L();
        double numeric = (up - down) / eps;
#else
        px[i] = orig - static_cast<float>(eps);
        double down = L();
#if MISTAKE == 5
        double numeric = (up - down) / eps;
#elif MISTAKE == 6
        double numeric = (down - up) / (2 * eps);
#else
        double numeric = (up - down) / (2 * eps);
#endif
#endif
#if MISTAKE != 3
        px[i] = orig;
#endif
        double error = std::fabs(analytic[i] - numeric);
        total += error;
#if MISTAKE == 11
        worst = error;
#else
        worst = std::max(worst, error);
#endif
    }
#if MISTAKE == 8
    return total / static_cast<double>(x.numel());
#else
    return worst;
#endif
}
