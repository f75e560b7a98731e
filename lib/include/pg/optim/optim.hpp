// Optimizers with PyTorch's update rules: SGD (momentum, weight decay), Adam (L2 weight decay
// added to the gradient), AdamW (decoupled weight decay); gradient clipping; lr schedules.
// Leaves out: parameter groups (one lr for all), sparse updates, AMSGrad.
#pragma once
#include <vector>
#include "pg/tensor.hpp"

namespace pg::optim {

class Optimizer {
public:
    explicit Optimizer(std::vector<Tensor> params) : params_(std::move(params)) {}
    virtual ~Optimizer() = default;
    virtual void step() = 0;          // parameters without a gradient are skipped
    void zero_grad();
    float lr() const { return lr_; }
    void set_lr(float lr) { lr_ = lr; }
    const std::vector<Tensor>& params() const { return params_; }
    // The optimizer's state as named arrays (for checkpoints): SGD "velocity.3"; Adam and AdamW
    // "step" (one count per parameter), "m.3", "v.3". load_state checks every name and shape
    // first and throws std::invalid_argument, changing nothing, when they do not match.
    virtual std::vector<std::pair<std::string, Array>> state() const = 0;
    virtual void load_state(const std::vector<std::pair<std::string, Array>>& state) = 0;

protected:
    std::vector<Tensor> params_;
    float lr_ = 0.f;
};

struct SGDOptions {
    float lr = 0.01f, momentum = 0.f, weight_decay = 0.f;
};
class SGD : public Optimizer {
public:
    SGD(std::vector<Tensor> params, SGDOptions opt = {});
    void step() override;
    std::vector<std::pair<std::string, Array>> state() const override;
    void load_state(const std::vector<std::pair<std::string, Array>>& state) override;
private:
    SGDOptions opt_;
    std::vector<Array> velocity_;
};

struct AdamOptions {
    float lr = 1e-3f, beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f, weight_decay = 0.f;
};
struct AdamWOptions {
    float lr = 1e-3f, beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f, weight_decay = 1e-2f;
};

class Adam : public Optimizer {
public:
    Adam(std::vector<Tensor> params, AdamOptions opt = {});
    void step() override;
    std::vector<std::pair<std::string, Array>> state() const override;
    void load_state(const std::vector<std::pair<std::string, Array>>& state) override;
    size_t steps_taken() const { return t_; }
protected:
    Adam(std::vector<Tensor> params, AdamOptions opt, bool decoupled);
    AdamOptions opt_;
    bool decoupled_;   // AdamW: p -= lr * wd * p, instead of g += wd * p
    size_t t_ = 0;     // calls to step()
    std::vector<size_t> steps_;   // updates each parameter received (its bias correction), as PyTorch
    std::vector<Array> m_, v_;
};

class AdamW : public Adam {
public:
    AdamW(std::vector<Tensor> params, AdamWOptions opt = {});
};

// Scales every gradient so that their joint L2 norm is at most max_norm; returns the norm before.
float clip_grad_norm(const std::vector<Tensor>& params, float max_norm);

// Learning-rate schedules: step counts from 0.
float constant_lr(size_t step, float lr);
// Linear warmup from 0 to max_lr over `warmup` steps, then cosine down to min_lr at total_steps.
float warmup_cosine_lr(size_t step, size_t warmup, size_t total_steps, float max_lr, float min_lr);

}  // namespace pg::optim
