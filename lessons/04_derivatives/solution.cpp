// Lesson 04 reference solution: central differences, for one input and for a vector of inputs.
#include "check.hpp"

double exercise::central_difference(const std::function<double(double)>& f, double x, double h) {
    return (f(x + h) - f(x - h)) / (2 * h);
}

std::vector<double> exercise::numeric_gradient(const std::function<double(const std::vector<double>&)>& f,
                                               const std::vector<double>& x, double h) {
    std::vector<double> grad(x.size()), nudged = x;
    for (size_t i = 0; i < x.size(); ++i) {
        nudged[i] = x[i] + h;
        double up = f(nudged);
        nudged[i] = x[i] - h;
        double down = f(nudged);
        nudged[i] = x[i];
        grad[i] = (up - down) / (2 * h);
    }
    return grad;
}
