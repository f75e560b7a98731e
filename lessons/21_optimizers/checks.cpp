// Lesson 21's checks for adamw_step, shared by starter.cpp, solution.cpp and your exercise.cpp.
// Every step is compared with pg::optim::AdamW from the same state; a mismatch is matched against
// the known wrong variants (pg::optim::Adam's L2 decay among them) to say which mistake it is.
#include "check.hpp"

namespace adamw_check {

using Tensors = std::vector<pg::Tensor>;
using Options = pg::optim::AdamWOptions;

// ---- the hints, one per mistake the numbers can point to ----
inline std::string step_zero_hint() {
    return lesson::tr("the step count starts at 1: add one to state.t before the bias correction; at t = 0, 1 - beta^0 = "
                      "0 and the step divides by zero (nan)",
                      "步数从 1 开始：做偏差校正之前先给 state.t 加一；t = 0 时 1 - beta^0 = 0，这一步会除以零（nan）");
}
inline std::string unsquared_hint() {
    return lesson::tr("state.v came out as beta2 v + (1 - beta2) g, with g not squared: v is the running mean of g^2, "
                      "v = beta2 v + (1 - beta2) g * g (with a negative g, v turns negative and sqrt(v) is nan)",
                      "state.v 算成了 beta2 v + (1 - beta2) g，g 没有平方：v 是 g^2 的滑动平均，"
                      "v = beta2 v + (1 - beta2) g * g（g 为负时 v 会变成负数，sqrt(v) 就是 nan）");
}
inline std::string nan_hint() {
    return lesson::tr("some parameters came out nan or inf although the moments are right: look at the bias corrections "
                      "and the denominator, sqrt(v_hat) + eps",
                      "矩估计是对的，有些参数却成了 nan 或 inf：检查偏差校正和分母 sqrt(v_hat) + eps");
}
inline std::string brackets_hint() {
    return lesson::tr("eps goes inside the brackets of the denominator: m_hat / (sqrt(v_hat) + eps); without it there a "
                      "zero gradient divides 0 by 0 and a gradient of 1e-5 takes a full step",
                      "eps 要放在分母的括号里：m_hat / (sqrt(v_hat) + eps)；不放在那里的话，零梯度会让 0 除以 0，而 1e-5 的梯度会迈出一整步");
}
inline std::string in_place_hint() {
    return lesson::tr("update the parameter in place, params[i].copy_(...): params[i] = ... only points the vector at a "
                      "new tensor, and the model keeps the old one",
                      "要原地更新参数，params[i].copy_(...)：params[i] = ... 只是让 vector 指向一个新张量，模型手里还是旧的那个");
}
// How many times the checks have called adamw_step so far (step_and_compare counts them).
inline size_t& calls() {
    static size_t n = 0;
    return n;
}
// state.t came out `got` after a step from `before`: a static count when it is the number of calls so far.
inline std::string count_hint(size_t got, size_t before) {
    if (got == calls() && got != before + 1)
        return lesson::tr("state.t came out " + std::to_string(got) + ", the number of calls so far, where this state had "
                          "taken " + std::to_string(before) + " steps: a static count keeps growing from call to call; "
                          "count in the state you are given: state.t += 1",
                          "state.t 得到的是 " + std::to_string(got) + "，也就是到目前为止的调用次数，而这个 state 之前只走过 " +
                          std::to_string(before) + " 步：有个 static 的计数在一次次调用之间不断累加；"
                          "要在传进来的 state 里计数：state.t += 1");
    return lesson::tr("state.t counts the steps taken: add one per call (the first call makes it 1)",
                      "state.t 数的是已经走过的步数：每次调用加一（第一次调用后它是 1）");
}
inline std::string state_hint() {
    return lesson::tr("store the new moments in state.m[i] and state.v[i]: the next step starts from them (a local copy, "
                      "or a pg::optim::AdamW made inside adamw_step, forgets them)",
                      "把新的矩估计存进 state.m[i] 和 state.v[i]：下一步要从它们开始（局部副本，或者在 adamw_step 里新建的 pg::optim::AdamW，都会把它们忘掉）");
}
inline std::string coupled_hint() {
    return lesson::tr("the decay is decoupled: shrink p by p * (1 - lr * weight_decay) on its own, not weight_decay * p "
                      "added to the gradient (that is Adam with L2, pg::optim::Adam)",
                      "权重衰减是解耦的：单独把 p 缩小为 p * (1 - lr * weight_decay)，而不是把 weight_decay * p 加到梯度上（那是带 L2 的 Adam，pg::optim::Adam）");
}
inline std::string moments_hint() {
    return lesson::tr("m = beta1 m + (1 - beta1) g and v = beta2 v + (1 - beta2) g^2, with g = params[i].grad()",
                      "m = beta1 m + (1 - beta1) g，v = beta2 v + (1 - beta2) g^2，其中 g = params[i].grad()");
}
inline std::string no_lr_hint() {
    return lesson::tr("the decay is multiplied by lr: p * (1 - lr * weight_decay), not p * (1 - weight_decay)",
                      "衰减要乘上 lr：p * (1 - lr * weight_decay)，而不是 p * (1 - weight_decay)");
}
inline std::string order_hint() {
    return lesson::tr("decay the old p first, p * (1 - lr * weight_decay), then subtract the Adam update (as PyTorch); "
                      "decaying after the update shrinks the update too",
                      "先对旧的 p 做衰减，p * (1 - lr * weight_decay)，再减去 Adam 的更新量（与 PyTorch 一致）；在更新之后再衰减会把更新量也缩小");
}
inline std::string eps_hint() {
    return lesson::tr("eps goes outside the square root: sqrt(v_hat) + eps; sqrt(v_hat + eps) adds up to sqrt(1e-8) = "
                      "1e-4 to the denominator and shrinks the steps of small gradients",
                      "eps 要放在平方根外面：sqrt(v_hat) + eps；sqrt(v_hat + eps) 会给分母加上最多 sqrt(1e-8) = 1e-4，使小梯度的步子变小");
}
inline std::string update_hint() {
    return lesson::tr("p = p * (1 - lr * weight_decay) - lr * m_hat / (sqrt(v_hat) + eps), with m_hat = m / (1 - beta1^t) "
                      "and v_hat = v / (1 - beta2^t)",
                      "p = p * (1 - lr * weight_decay) - lr * m_hat / (sqrt(v_hat) + eps)，其中 m_hat = m / (1 - beta1^t)，v_hat = v / (1 - beta2^t)");
}

inline std::string bias_hint(const Options& o) {
    double first = (1.0 - o.beta1) / std::sqrt(1.0 - o.beta2);   // m / sqrt(v) at step 1, uncorrected
    return lesson::tr("divide by the bias corrections: m_hat = m / (1 - beta1^t), v_hat = v / (1 - beta2^t), t from 1; ",
                      "要除以偏差校正：m_hat = m / (1 - beta1^t)，v_hat = v / (1 - beta2^t)，t 从 1 开始；") +
           (std::fabs(first - 1) < 1e-3
                ? lesson::tr("with these betas step 1 comes out right by luck, (1 - beta1) / sqrt(1 - beta2) = 1, "
                             "the later steps do not",
                             "用这组 beta，第 1 步碰巧是对的，(1 - beta1) / sqrt(1 - beta2) = 1，之后的步就不对了")
                : lesson::tr("without them step 1 moves by (1 - beta1) / sqrt(1 - beta2) = ",
                             "没有它们，第 1 步移动的是 (1 - beta1) / sqrt(1 - beta2) = ") +
                      lesson::num(first, 4) +
                      lesson::tr(" times lr instead of about 1 times lr", " 倍的 lr，而不是大约 1 倍的 lr"));
}

// ---- small tools ----

inline Tensors copies(const Tensors& ts) {
    Tensors out;
    for (const pg::Tensor& t : ts) out.push_back(t.detach());
    return out;
}

// Sets p's gradient to g: the gradient of sum(p * g) is g.
inline void set_grad(pg::Tensor& p, const pg::Tensor& g) {
    p.zero_grad();
    pg::sum(p * g).backward();
}

inline std::string values(const pg::Tensor& t) {
    std::string s = "[";
    for (size_t i = 0; i < t.numel(); ++i) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%s%.7g", i ? ", " : "", t.ptr()[i]);
        s += buf;
    }
    return s + "]";
}

inline bool finite(const Tensors& ts) {
    for (const pg::Tensor& t : ts)
        for (size_t j = 0; j < t.numel(); ++j)
            if (!std::isfinite(t.ptr()[j])) return false;
    return true;
}

// |a - b| <= tol (1 + |b|) everywhere: parameters, whose size is about 1.
inline bool same_params(const Tensors& a, const Tensors& b, double tol = 2e-6) {
    for (size_t i = 0; i < a.size(); ++i) {
        if (a[i].shape() != b[i].shape()) return false;
        for (size_t j = 0; j < a[i].numel(); ++j)
            if (!(std::fabs(a[i].ptr()[j] - b[i].ptr()[j]) <= tol * (1 + std::fabs(b[i].ptr()[j])))) return false;
    }
    return true;
}

// Relative to each tensor's largest value: moments, which can be 1e-13 or 1e4.
inline bool same_moments(const Tensors& a, const Tensors& b, double tol = 1e-5) {
    for (size_t i = 0; i < a.size(); ++i) {
        if (a[i].shape() != b[i].shape()) return false;
        double largest = 1e-30;
        for (size_t j = 0; j < b[i].numel(); ++j) largest = std::max(largest, double(std::fabs(b[i].ptr()[j])));
        for (size_t j = 0; j < a[i].numel(); ++j)
            if (!(std::fabs(a[i].ptr()[j] - b[i].ptr()[j]) <= tol * (std::fabs(b[i].ptr()[j]) + 1e-3 * largest)))
                return false;
    }
    return true;
}

// ---- one step by the library, from a given state ----

struct Before {   // one step's inputs
    Tensors p, g, m, v;
    size_t t = 0;
};
struct After {
    Tensors p, m, v;
};

// pg::optim::AdamW's step from b (with l2: pg::optim::Adam, the decay added to the gradient).
inline After library_step(const Before& b, const Options& o, bool l2 = false) {
    Tensors q;
    for (size_t i = 0; i < b.p.size(); ++i) {
        q.push_back(pg::tensor(b.p[i].to_vector(), b.p[i].shape(), true));
        set_grad(q[i], b.g[i]);
    }
    std::unique_ptr<pg::optim::Adam> opt;
    if (l2)
        opt = std::make_unique<pg::optim::Adam>(q, pg::optim::AdamOptions{o.lr, o.beta1, o.beta2, o.eps, o.weight_decay});
    else
        opt = std::make_unique<pg::optim::AdamW>(q, o);
    if (b.t > 0) {
        std::vector<std::pair<std::string, pg::Array>> state = {{"step", pg::full({q.size()}, float(b.t)).data()}};
        for (size_t i = 0; i < q.size(); ++i) {
            state.emplace_back("m." + std::to_string(i), b.m[i].data());
            state.emplace_back("v." + std::to_string(i), b.v[i].data());
        }
        opt->load_state(state);
    }
    opt->step();
    After a;
    auto state = opt->state();
    for (size_t i = 0; i < q.size(); ++i) {
        a.p.push_back(q[i].detach());
        a.m.push_back(pg::Tensor(state[1 + 2 * i].second));
        a.v.push_back(pg::Tensor(state[2 + 2 * i].second));
    }
    return a;
}

// ---- which mistake the numbers point to ----

inline std::string diagnose(const Before& b, const Options& o, const Tensors& held, const exercise::AdamWState& s,
                            const After& want) {
    // v with g not squared: what it would hold
    Tensors unsquared;
    for (size_t i = 0; i < b.v.size() && i < b.g.size(); ++i)
        unsquared.push_back(o.beta2 * b.v[i] + (1.f - o.beta2) * b.g[i]);
    const bool moments_right = s.m.size() == want.m.size() && s.v.size() == want.v.size() &&
                               same_moments(s.m, want.m) && same_moments(s.v, want.v);
    if (s.v.size() == unsquared.size() && !same_moments(want.v, unsquared) && same_moments(s.v, unsquared))
        return unsquared_hint();
    if (!finite(held) || !finite(s.m) || !finite(s.v)) {
        if (!moments_right) return finite(s.m) && finite(s.v) ? moments_hint() : update_hint();
        if (s.t != b.t + 1) return count_hint(s.t, b.t);
        bool only_where_v_is_zero = true, everywhere = true;
        for (size_t i = 0; i < held.size(); ++i)
            for (size_t j = 0; j < held[i].numel(); ++j) {
                const bool bad = !std::isfinite(held[i].ptr()[j]);
                if (bad && want.v[i].ptr()[j] != 0.f) only_where_v_is_zero = false;
                if (!bad) everywhere = false;
            }
        // the moments and the count are right: nan only where v = 0 is eps outside the brackets, 0 / 0;
        // nan everywhere is a bias correction of 1 - beta^0 = 0, the step number taken as 0
        if (only_where_v_is_zero) return brackets_hint();
        return everywhere ? step_zero_hint() : nan_hint();
    }
    if (same_params(held, b.p, 0.0) && !same_params(want.p, b.p, 0.0)) return in_place_hint();
    if (s.t != b.t + 1) return count_hint(s.t, b.t);
    if (s.m.size() != b.m.size() || s.v.size() != b.v.size()) return state_hint();
    if (same_moments(s.m, b.m, 0.0) && !same_moments(want.m, b.m, 0.0)) return state_hint();
    if (!same_moments(s.m, want.m) || !same_moments(s.v, want.v))
        return same_moments(s.m, library_step(b, o, true).m) ? coupled_hint() : moments_hint();

    // the moments are right, the parameters are not: try the wrong updates one by one
    Options no_decay = o;
    no_decay.weight_decay = 0.f;
    After adam = library_step(b, no_decay);
    const float decay = 1.f - o.lr * o.weight_decay;
    const double t = double(b.t + 1), c2 = 1.0 - std::pow(double(o.beta2), t);
    const double c1 = 1.0 - std::pow(double(o.beta1), t);
    Tensors no_lr, late, uncorrected, no_eps;
    for (size_t i = 0; i < b.p.size(); ++i) {
        pg::Tensor update = b.p[i] - adam.p[i];   // the Adam update alone
        no_lr.push_back(b.p[i] * (1.f - o.weight_decay) - update);
        late.push_back((b.p[i] - update) * decay);
        uncorrected.push_back(b.p[i] * decay - o.lr * want.m[i] / (pg::sqrt(want.v[i]) + o.eps));
        no_eps.push_back(b.p[i] * decay - o.lr * (want.m[i] / float(c1)) / pg::sqrt(want.v[i] / float(c2)));
    }
    if (o.weight_decay != 0.f && same_params(held, no_lr, 1e-5)) return no_lr_hint();
    if (o.weight_decay != 0.f && same_params(held, late, 1e-5)) return order_hint();
    if (same_params(held, uncorrected, 1e-5)) return bias_hint(o);
    if (same_params(held, no_eps, 1e-5)) return brackets_hint();
    bool only_small = true;   // wrong only where sqrt(v_hat) is small: eps in the wrong place
    for (size_t i = 0; i < held.size(); ++i)
        for (size_t j = 0; j < held[i].numel(); ++j) {
            double h = held[i].ptr()[j], w = want.p[i].ptr()[j];
            bool wrong = std::fabs(h - w) > 2e-6 * (1 + std::fabs(w));
            if (wrong && std::sqrt(want.v[i].ptr()[j] / c2) > 0.1) only_small = false;
        }
    return only_small ? eps_hint() : update_hint();
}

// ---- one step of yours beside the library's ----

// Sets the gradients, runs exercise::adamw_step and compares parameters, moments and count with
// pg::optim::AdamW from the same state; throws CheckFailed naming the likely mistake.
inline void step_and_compare(const std::string& what, Tensors& params, exercise::AdamWState& state,
                             const Tensors& grads, const Options& o) {
    for (size_t i = 0; i < params.size(); ++i) set_grad(params[i], grads[i]);
    Before b{copies(params), grads, copies(state.m), copies(state.v), state.t};
    Tensors held = params;   // the handles the model holds
    ++calls();
    exercise::adamw_step(params, state, o);
    After want = library_step(b, o);
    auto fail = [&](const std::string& name, const pg::Tensor& expected, const pg::Tensor& actual) {
        throw lesson::CheckFailed(what + ": " + name, values(expected), values(actual),
                                  diagnose(b, o, held, state, want));
    };
    for (size_t i = 0; i < held.size(); ++i)
        if (!same_params({held[i]}, {want.p[i]})) fail("params[" + std::to_string(i) + "]", want.p[i], held[i]);
    if (state.m.size() != want.m.size() || state.v.size() != want.v.size())
        throw lesson::CheckFailed(what + ": state.m.size(), state.v.size()", std::to_string(want.m.size()),
                                  std::to_string(state.m.size()) + ", " + std::to_string(state.v.size()), state_hint());
    for (size_t i = 0; i < want.m.size(); ++i) {
        if (!same_moments({state.m[i]}, {want.m[i]})) fail("state.m[" + std::to_string(i) + "]", want.m[i], state.m[i]);
        if (!same_moments({state.v[i]}, {want.v[i]})) fail("state.v[" + std::to_string(i) + "]", want.v[i], state.v[i]);
    }
    if (state.t != b.t + 1)
        throw lesson::CheckFailed(what + ": state.t", std::to_string(b.t + 1), std::to_string(state.t), count_hint(state.t, b.t));
}

inline exercise::AdamWState zero_state(const Tensors& params) {
    exercise::AdamWState s;
    for (const pg::Tensor& p : params) {
        s.m.push_back(pg::zeros(p.shape()));
        s.v.push_back(pg::zeros(p.shape()));
    }
    return s;
}

// One step from a fresh state (m = v = 0, t = 0) on copies of `start`.
inline void first_step(const std::string& what, const std::vector<pg::Tensor>& start, const Tensors& grads,
                       const Options& o) {
    Tensors params;
    for (const pg::Tensor& p : start) params.push_back(pg::tensor(p.to_vector(), p.shape(), true));
    exercise::AdamWState state = zero_state(params);
    step_and_compare(what, params, state, grads, o);
}

}  // namespace adamw_check

int main() {
    using adamw_check::Options;
    lesson::Checks checks("21", "optimizers");
    checks.run(lesson::tr("step 1, betas (0.9, 0.999), no decay: each number moves by about lr",
                          "第 1 步，betas (0.9, 0.999)，无衰减：每个数大约移动 lr"), [] {
        adamw_check::first_step(lesson::tr("step 1", "第 1 步"), {pg::tensor({0.3f, -1.2f, 0.7f, 2.f})},
                                {pg::tensor({0.5f, -2.f, 4.f, -0.25f})}, Options{0.1f, 0.9f, 0.999f, 1e-8f, 0.f});
    });
    checks.run(lesson::tr("step 1 with gradients from 1e-5 to 100", "第 1 步，梯度从 1e-5 到 100"), [] {
        adamw_check::first_step(lesson::tr("step 1", "第 1 步"), {pg::tensor({{0.4f, -0.8f, 1.1f}, {-0.2f, 0.9f, -1.5f}})},
                                {pg::tensor({{1e-5f, -3e-5f, 2e-4f}, {100.f, -0.5f, 7.f}})},
                                Options{0.1f, 0.9f, 0.999f, 1e-8f, 0.f});
    });
    checks.run(lesson::tr("weight decay: a zero gradient still shrinks p by lr * weight_decay",
                          "权重衰减：零梯度仍然会让 p 按 lr * weight_decay 缩小"), [] {
        adamw_check::first_step(lesson::tr("step 1", "第 1 步"), {pg::tensor({1.5f, -2.f, 0.5f})}, {pg::tensor({0.f, 0.f, 0.5f})},
                                Options{0.1f, 0.9f, 0.999f, 1e-8f, 0.1f});
    });
    checks.run(lesson::tr("10 steps against pg::optim::AdamW: 3 parameters, gradients of size 1e-4, 1 and 100",
                          "10 步，与 pg::optim::AdamW 对比：3 个参数，梯度大小为 1e-4、1 和 100"), [] {
        pg::Generator gen(21);
        const std::vector<pg::Shape> shapes = {{3, 4}, {4}, {2, 2, 2}};
        const std::vector<float> scales = {1.f, 1e-4f, 100.f};
        adamw_check::Tensors params;
        for (const pg::Shape& s : shapes) params.push_back(pg::randn(s, gen, true));
        exercise::AdamWState state = adamw_check::zero_state(params);
        const Options poet_like{0.01f, 0.9f, 0.99f, 1e-8f, 0.1f};   // the poet's betas and decay, a larger lr
        for (int step = 1; step <= 10; ++step) {
            adamw_check::Tensors grads;
            for (size_t i = 0; i < shapes.size(); ++i) grads.push_back(pg::randn(shapes[i], gen) * scales[i]);
            adamw_check::step_and_compare(lesson::tr("step " + std::to_string(step), "第 " + std::to_string(step) + " 步"),
                                          params, state, grads, poet_like);
        }
    });
    return checks.finish();
}
