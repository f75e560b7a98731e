// mistake 1: the forward difference (f(x + h) - f(x)) / h => you computed the forward difference
// mistake 2: divided by h instead of 2h => your slope is twice too large
// mistake 3: written / 2 * h, which C++ reads as (... / 2) * h => which is (... / 2) * h
// mistake 4: a fixed small step of one's own instead of the h given => use the h you are given
// mistake 5: f's values kept in float => you kept f's values in float
// mistake 6: the two points subtracted the wrong way round => your slope has the wrong sign
// mistake 7: the nudge never undone, x[i] left at x[i] - h => you left it at x[i] - h
// mistake 8: every coordinate nudged at once => you nudged all the coordinates at once
// mistake 9: nudged[i] += h then nudged[i] -= h, which comes back to x[i] => the -= h brings it back to x[i]
// mistake 10: forward differences per coordinate => you computed forward differences
// mistake 11: always nudging coordinate 0 => nudge coordinate i, nudged[i], not nudged[0]
// mistake 12: the gradient's values of f kept in float => you kept f's values in float
// mistake 13: the first call's slope kept in a static and returned ever after => for an earlier, different f, x or h
// mistake 14: the first call's gradient kept in a static and returned ever after => your gradient is exactly the one your function returned for an earlier, different input
// Lesson 04's planted mistakes, one program: PG_MISTAKE=N runs mistake N (lesson::mistake(N) is then
// true), which must fail the checks with its hint above; with none chosen this is a correct answer.
// The functions are solution.cpp's, but for the lines marked.
#include "check.hpp"
using lesson::mistake;

double exercise::central_difference(const std::function<double(double)>& f, double x, double h) {
    static double first = std::nan("");  // mistake 13: the first call's slope, kept
    if (mistake(13) && !std::isnan(first)) return first;
    if (mistake(13)) return first = (f(x + h) - f(x - h)) / (2 * h);
    if (mistake(1)) return (f(x + h) - f(x)) / h;
    if (mistake(2)) return (f(x + h) - f(x - h)) / h;
    if (mistake(3)) return (f(x + h) - f(x - h)) / 2 * h;
    if (mistake(4)) h = 1e-5;  // a fixed small step of one's own
    if (mistake(5)) {
        float up = f(x + h), down = f(x - h);
        return (up - down) / (2 * h);
    }
    if (mistake(6)) return (f(x - h) - f(x + h)) / (2 * h);
    return (f(x + h) - f(x - h)) / (2 * h);
}

std::vector<double> exercise::numeric_gradient(const std::function<double(const std::vector<double>&)>& f,
                                               const std::vector<double>& x, double h) {
    static std::vector<double> first;  // mistake 14: the first call's gradient
    if (mistake(14) && !first.empty()) return first;
    std::vector<double> grad(x.size()), nudged = x;
    if (mistake(8)) {  // every coordinate nudged at once
        for (size_t i = 0; i < x.size(); ++i) {
            std::vector<double> up = x, down = x;
            for (size_t j = 0; j < x.size(); ++j) up[j] += h, down[j] -= h;
            grad[i] = (f(up) - f(down)) / (2 * h);
        }
        return grad;
    }
    for (size_t i = 0; i < x.size(); ++i) {
        const size_t k = mistake(11) ? 0 : i;
        if (mistake(9)) nudged[k] += h;
        else nudged[k] = x[k] + h;
        double up = f(nudged);
        if (mistake(9)) nudged[k] -= h;
        else nudged[k] = mistake(10) ? x[k] : x[k] - h;  // mistake 10: the forward difference
        double down = f(nudged);
        if (!mistake(7) && !mistake(9)) nudged[k] = x[k];  // the nudge undone
        // mistake 12 keeps f's values in float
        if (mistake(10)) grad[i] = (up - down) / h;
        else if (mistake(12)) grad[i] = (static_cast<float>(up) - static_cast<float>(down)) / (2 * h);
        else grad[i] = (up - down) / (2 * h);
    }
    if (mistake(14)) first = grad;
    return grad;
}
