// Adam and AdamW with PyTorch's update, for each parameter p with gradient g at its step t:
//   Adam:  g += wd * p            AdamW:  p *= 1 - lr * wd
//   m = b1 m + (1-b1) g;  v = b2 v + (1-b2) g^2
//   p -= lr / (1 - b1^t) * m / (sqrt(v) / sqrt(1 - b2^t) + eps)
// Leaves out: AMSGrad, maximize, parameter groups.
#include <cmath>
#include <stdexcept>
#include "pg/optim/optim.hpp"
#include "../kernels/parallel.hpp"
#include "../kernels/table.hpp"
#include "chunks.hpp"
#include "state_check.hpp"

namespace pg::optim {

Adam::Adam(std::vector<Tensor> params, AdamOptions opt) : Adam(std::move(params), opt, false) {}

Adam::Adam(std::vector<Tensor> params, AdamOptions opt, bool decoupled)
    : Optimizer(std::move(params)), opt_(opt), decoupled_(decoupled) {
    lr_ = opt.lr;
    steps_.assign(params_.size(), 0);
    for (const Tensor& p : params_) {
        m_.emplace_back(p.shape());
        v_.emplace_back(p.shape());
    }
}

AdamW::AdamW(std::vector<Tensor> params, AdamWOptions o)
    : Adam(std::move(params), AdamOptions{o.lr, o.beta1, o.beta2, o.eps, o.weight_decay}, true) {}

void Adam::step() {
    ++t_;
    const float b1 = opt_.beta1, b2 = opt_.beta2, wd = opt_.weight_decay, eps = opt_.eps;
    std::vector<kernels::AdamFactors> factors(params_.size());
    for (size_t i = 0; i < params_.size(); ++i) {
        if (!params_[i].has_grad()) continue;
        size_t t = ++steps_[i];
        // the bias corrections in double, as PyTorch computes them from Python floats
        double correction1 = 1.0 - std::pow(static_cast<double>(b1), static_cast<double>(t));
        double correction2 = 1.0 - std::pow(static_cast<double>(b2), static_cast<double>(t));
        factors[i] = {b1, b2, wd, eps, static_cast<float>(1.0 - static_cast<double>(lr_) * wd),
                      static_cast<float>(lr_ / correction1), static_cast<float>(std::sqrt(correction2)), decoupled_};
    }
    // every parameter's values in pieces over the threads: one pass of memory-bound work
    const std::vector<detail::Chunk> chunks = detail::chunks_of(params_);
    kernels::parallel_for(chunks.size(), [&](size_t c) {
        const detail::Chunk& k = chunks[c];
        Tensor& p = params_[k.param];
        // the update in the kernel table's SIMD batches: the memory-bound heart of the step
        kernels::active().adam_update(p.mutable_data().data(), p.grad_data().data(), m_[k.param].data(),
                                      v_[k.param].data(), k.begin, k.end, factors[k.param]);
    });
}

std::vector<std::pair<std::string, Array>> Adam::state() const {
    Array steps(Shape{steps_.size()});
    for (size_t i = 0; i < steps_.size(); ++i) steps.data()[i] = static_cast<float>(steps_[i]);
    std::vector<std::pair<std::string, Array>> out{{"step", steps}};
    for (size_t i = 0; i < m_.size(); ++i) {
        out.emplace_back("m." + std::to_string(i), m_[i]);
        out.emplace_back("v." + std::to_string(i), v_[i]);
    }
    return out;
}

void Adam::load_state(const std::vector<std::pair<std::string, Array>>& state) {
    const char* who = decoupled_ ? "AdamW" : "Adam";
    detail::check_state_matches(who, this->state(), state);
    const Array& steps = state[0].second;
    for (size_t i = 0; i < steps.size(); ++i) {
        float s = steps.data()[i];
        if (!(s >= 0.f && s <= 16777216.f && s == std::floor(s)))
            throw std::invalid_argument(std::string(who) + "::load_state: step count " + std::to_string(s) +
                                        " of parameter " + std::to_string(i) + " is not a whole number in [0, 2^24]");
    }
    for (size_t i = 0; i < steps_.size(); ++i) {
        steps_[i] = static_cast<size_t>(steps.data()[i]);
        m_[i] = state[1 + 2 * i].second;
        v_[i] = state[2 + 2 * i].second;
    }
}

}  // namespace pg::optim
