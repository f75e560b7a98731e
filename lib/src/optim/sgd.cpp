// SGD with momentum and weight decay, PyTorch's rule (dampening 0, no Nesterov):
//   g = grad + wd * p;  v = momentum * v + g;  p -= lr * v   (v = g on the first step, as v starts at 0)
// Leaves out: dampening, Nesterov momentum, maximize.
#include <stdexcept>
#include "pg/optim/optim.hpp"
#include "state_check.hpp"

namespace pg::optim {

SGD::SGD(std::vector<Tensor> params, SGDOptions opt) : Optimizer(std::move(params)), opt_(opt) {
    lr_ = opt.lr;
    for (const Tensor& p : params_) velocity_.emplace_back(p.shape());
}

void SGD::step() {
    for (size_t i = 0; i < params_.size(); ++i) {
        Tensor& p = params_[i];
        if (!p.has_grad()) continue;
        float* w = p.mutable_data().data();
        const float* grad = p.grad_data().data();
        float* v = velocity_[i].data();
        for (size_t j = 0, n = p.numel(); j < n; ++j) {
            float g = grad[j] + opt_.weight_decay * w[j];
            if (opt_.momentum != 0.f) {
                v[j] = opt_.momentum * v[j] + g;
                g = v[j];
            }
            w[j] -= lr_ * g;
        }
    }
}

std::vector<std::pair<std::string, Array>> SGD::state() const {
    std::vector<std::pair<std::string, Array>> out;
    for (size_t i = 0; i < velocity_.size(); ++i) out.emplace_back("velocity." + std::to_string(i), velocity_[i]);
    return out;
}

void SGD::load_state(const std::vector<std::pair<std::string, Array>>& state) {
    detail::check_state_matches("SGD", this->state(), state);
    for (size_t i = 0; i < velocity_.size(); ++i) velocity_[i] = state[i].second;
}

}  // namespace pg::optim
