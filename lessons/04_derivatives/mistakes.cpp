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
// Lesson 04's plausible wrong answers, each built as lesson_04_mistake_N (-DMISTAKE=N); every one must
// fail the checks with the hint above. The functions are solution.cpp's, but for the lines marked.
#include "check.hpp"

double exercise::central_difference(const std::function<double(double)>& f, double x, double h) {
#if MISTAKE == 1
    return (f(x + h) - f(x)) / h;
#elif MISTAKE == 2
    return (f(x + h) - f(x - h)) / h;
#elif MISTAKE == 3
    return (f(x + h) - f(x - h)) / 2 * h;
#elif MISTAKE == 4
    const double step = 1e-5;
    return (f(x + step) - f(x - step)) / (2 * step);
#elif MISTAKE == 5
    float up = f(x + h), down = f(x - h);
    return (up - down) / (2 * h);
#elif MISTAKE == 6
    return (f(x - h) - f(x + h)) / (2 * h);
#else
    return (f(x + h) - f(x - h)) / (2 * h);
#endif
}

std::vector<double> exercise::numeric_gradient(const std::function<double(const std::vector<double>&)>& f,
                                               const std::vector<double>& x, double h) {
    std::vector<double> grad(x.size()), nudged = x;
#if MISTAKE == 8
    for (size_t i = 0; i < x.size(); ++i) {
        std::vector<double> up = x, down = x;
        for (size_t j = 0; j < x.size(); ++j) up[j] += h, down[j] -= h;
        grad[i] = (f(up) - f(down)) / (2 * h);
    }
    return grad;
#endif
    for (size_t i = 0; i < x.size(); ++i) {
#if MISTAKE == 11
        const size_t k = 0;
#else
        const size_t k = i;
#endif
#if MISTAKE == 9
        nudged[k] += h;
        double up = f(nudged);
        nudged[k] -= h;
        double down = f(nudged);
#elif MISTAKE == 10
        nudged[k] = x[k] + h;
        double up = f(nudged);
        nudged[k] = x[k];
        double down = f(nudged);
        grad[i] = (up - down) / h;
        continue;
#elif MISTAKE == 12
        nudged[k] = x[k] + h;
        float up = f(nudged);
        nudged[k] = x[k] - h;
        float down = f(nudged);
#else
        nudged[k] = x[k] + h;
        double up = f(nudged);
        nudged[k] = x[k] - h;
        double down = f(nudged);
#endif
#if MISTAKE != 7 && MISTAKE != 9
        nudged[k] = x[k];
#endif
        grad[i] = (up - down) / (2 * h);
    }
    return grad;
}
