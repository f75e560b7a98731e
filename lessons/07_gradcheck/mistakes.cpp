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
// mistake 13: r made with x's shape, not f(x)'s => r has f(x)'s shape
// mistake 14: the first error kept in a static and returned ever after => the same number for a correct tanh
// Lesson 07's planted mistakes, one program: PG_MISTAKE=N runs mistake N (lesson::mistake(N) is then
// true), which must fail the checks with its hint above; with none chosen this is a correct answer.
// They are plausible wrong gradient checks (not planted_bugs.hpp's wrong ops, which the checks feed them).
#include <cmath>
#include "check.hpp"
using lesson::mistake;

double exercise::max_gradient_error(const std::function<pg::Tensor(const pg::Tensor&)>& f, pg::Tensor x,
                                    double eps) {
    static double first = -1;  // mistake 14: the first answer, remembered
    if (mistake(14) && first >= 0) return first;
    if (mistake(12))
        return pg::gradcheck([&f](const std::vector<pg::Tensor>& in) { return f(in[0]); }, {x}).max_abs_error;
    pg::Generator gen(0);
    pg::Tensor r = mistake(1)    ? pg::ones(f(x).shape())
                   : mistake(13) ? pg::uniform(x.shape(), -1.f, 1.f, gen)
                                 : pg::uniform(f(x).shape(), -1.f, 1.f, gen);
    if (!mistake(2) && !mistake(10)) x.zero_grad();
    pg::sum(f(x) * r).backward();
    if (mistake(10)) x.zero_grad();
    std::vector<float> analytic = x.grad().to_vector();

    pg::Tensor nudged = mistake(7) ? x.detach() : x;
    auto L = [&] {
        pg::Tensor y = f(x);
        double s = 0;
        float s_float = 0;  // mistake 9's sum
        for (size_t i = 0; i < y.numel(); ++i) {
            s += static_cast<double>(y.ptr()[i]) * r.ptr()[i];
            s_float += y.ptr()[i] * r.ptr()[i];
        }
        return mistake(9) ? static_cast<double>(s_float) : s;
    };
    pg::NoGradGuard no_grad;
    float* px = nudged.mutable_data().data();
    double worst = 0, total = 0;
    for (size_t i = 0; i < x.numel(); ++i) {
        float orig = px[i];
        px[i] = orig + static_cast<float>(eps);
        double up = L();
        px[i] = mistake(4) ? orig : orig - static_cast<float>(eps);  // mistake 4: one-sided
        double down = L();
        double width = mistake(4) || mistake(5) ? eps : 2 * eps;
        double numeric = (mistake(6) ? down - up : up - down) / width;
        if (!mistake(3)) px[i] = orig;
        double error = std::fabs(analytic[i] - numeric);
        total += error;
        worst = mistake(11) ? error : std::max(worst, error);
    }
    if (mistake(14)) first = worst;
    return mistake(8) ? total / static_cast<double>(x.numel()) : worst;
}
