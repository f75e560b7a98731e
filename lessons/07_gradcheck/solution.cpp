// Lesson 07 reference solution: backward's gradient against central differences, element by element.
#include <cmath>
#include "check.hpp"

double exercise::max_gradient_error(const std::function<pg::Tensor(const pg::Tensor&)>& f, pg::Tensor x,
                                    double eps) {
    pg::Generator gen(0);
    pg::Tensor r = pg::uniform(f(x).shape(), -1.f, 1.f, gen);  // gy = r: a backward that ignores gy shows
    x.zero_grad();
    pg::sum(f(x) * r).backward();
    std::vector<float> analytic = x.grad().to_vector();

    auto L = [&] {  // sum(f(x) * r), added up in double
        pg::Tensor y = f(x);
        double s = 0;
        for (size_t i = 0; i < y.numel(); ++i) s += static_cast<double>(y.ptr()[i]) * r.ptr()[i];
        return s;
    };
    pg::NoGradGuard no_grad;
    float* px = x.mutable_data().data();
    double worst = 0;
    for (size_t i = 0; i < x.numel(); ++i) {
        float orig = px[i];
        px[i] = orig + static_cast<float>(eps);
        double up = L();
        px[i] = orig - static_cast<float>(eps);
        double down = L();
        px[i] = orig;
        worst = std::max(worst, std::fabs(analytic[i] - (up - down) / (2 * eps)));
    }
    return worst;
}
