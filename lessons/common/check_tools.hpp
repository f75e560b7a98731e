// Small tools the lessons' checks.cpp files share: comparing tensors (NaN never counts as equal),
// catching an answer that came back from an earlier call, and naming a wrong answer by the likely
// mistake it equals. Header-only, beside lesson.hpp.
// Leaves out: the wrong answers themselves; each lesson computes its own mistakes.
#pragma once
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>
#include "lesson.hpp"

namespace lesson {

// The largest |a - b| over the elements of two tensors with as many elements; infinity where one is NaN.
inline float max_abs_diff(const pg::Tensor& a, const pg::Tensor& b) {
    float m = 0.f;
    for (size_t i = 0; i < a.numel(); ++i) {
        float d = std::fabs(a.ptr()[i] - b.ptr()[i]);
        m = std::isnan(d) ? std::numeric_limits<float>::infinity() : std::max(m, d);
    }
    return m;
}

// Same shape, and every element within tol (a NaN is never near anything).
inline bool near(const pg::Tensor& a, const pg::Tensor& b, double tol) {
    return a.shape() == b.shape() && max_abs_diff(a, b) <= tol;
}

// An answer that came back: `got` lies within same_tol of one of `earlier` (what the learner's function
// returned in the checks before) whose right answer is not this call's `want` (more than differ_tol
// away): a constant or a static, not this call's computation. Remembers `got` for the checks after.
inline bool came_back(const pg::Tensor& got, const pg::Tensor& want, std::vector<pg::Tensor>& earlier,
                      double same_tol, double differ_tol) {
    bool back = false;
    for (const pg::Tensor& before : earlier) back = back || (near(got, before, same_tol) && !near(want, before, differ_tol));
    earlier.push_back(got.detach());
    return back;
}

// No inf and no NaN anywhere in t.
inline bool all_finite(const pg::Tensor& t) {
    for (float x : t.to_vector())
        if (!std::isfinite(x)) return false;
    return true;
}

// A likely wrong answer: how to compute it, and the hint that names it.
struct Suspect {
    std::function<pg::Tensor()> answer;   // the mistake's output, computed only when it is compared
    std::string hint;
};

// The hint of the first suspect, in order, whose answer `got` equals within tol; `otherwise` when none does.
inline std::string name_the_mistake(const pg::Tensor& got, const std::vector<Suspect>& suspects, double tol,
                                    const std::string& otherwise) {
    for (const Suspect& s : suspects)
        if (near(got, s.answer(), tol)) return s.hint;
    return otherwise;
}

// lesson::expect_near whose hint is worked out only when the values differ: hint() names the mistake.
inline void expect_near_explained(const std::string& what, const pg::Tensor& actual, const pg::Tensor& expected,
                                  double tol, const std::function<std::string()>& hint) {
    if (near(actual, expected, tol)) return;
    lesson::expect_near(what, actual, expected, tol, hint());
}

}  // namespace lesson
