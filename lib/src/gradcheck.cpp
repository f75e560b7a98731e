// gradcheck: analytic gradients from one backward, numeric ones from central differences
// (L(x + eps) - L(x - eps)) / 2 eps, one element at a time.
#include "pg/gradcheck.hpp"
#include <cmath>
#include <sstream>
#include "pg/autograd.hpp"
#include "pg/ops.hpp"
#include "pg/random.hpp"

namespace pg {

static double weighted_sum(const Tensor& y, const std::vector<float>& r) {
    double s = 0;
    for (size_t i = 0; i < y.numel(); ++i) s += static_cast<double>(y.ptr()[i]) * r[i];
    return s;
}

GradcheckResult gradcheck(const std::function<Tensor(const std::vector<Tensor>&)>& f,
                          const std::vector<Tensor>& inputs, const GradcheckOptions& opt) {
    GradcheckResult res;
    for (Tensor t : inputs) t.zero_grad();
    Tensor y = f(inputs);
    Generator gen(opt.seed);
    std::vector<float> r(y.numel());
    for (float& v : r) v = gen.uniform() * 2.f - 1.f;
    Tensor rt = tensor(r, y.shape());
    sum(y * rt).backward();

    for (size_t k = 0; k < inputs.size(); ++k) {
        Tensor x = inputs[k];
        if (!x.requires_grad()) continue;
        std::vector<float> analytic = x.has_grad() ? x.grad().to_vector() : std::vector<float>(x.numel(), 0.f);
        NoGradGuard no_grad;
        float* px = x.mutable_data().data();
        for (size_t i = 0; i < x.numel(); ++i) {
            float orig = px[i];
            float hi = orig + static_cast<float>(opt.eps), lo = orig - static_cast<float>(opt.eps);
            px[i] = hi;
            double up = weighted_sum(f(inputs), r);
            px[i] = lo;
            double down = weighted_sum(f(inputs), r);
            px[i] = orig;
            // divide by the step float32 really took, not by 2 eps (they differ by rounding)
            double numeric = (up - down) / (static_cast<double>(hi) - static_cast<double>(lo));
            double err = std::fabs(analytic[i] - numeric);
            res.max_abs_error = std::max(res.max_abs_error, err);
            if (!(err <= opt.atol + opt.rtol * std::fabs(numeric))) {
                res.ok = false;
                if (res.mismatches.size() < 5) res.mismatches.push_back({k, i, analytic[i], numeric});
            }
        }
    }
    std::ostringstream report;
    for (const GradcheckMismatch& m : res.mismatches)
        report << "input " << m.input << " element " << m.element << ": analytic " << m.analytic << ", numeric "
               << m.numeric << "\n";
    res.report = report.str();
    return res;
}

}  // namespace pg
