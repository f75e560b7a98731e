// Small tools the lessons' checks.cpp files share: comparing tensors (NaN never counts as equal),
// catching an answer that came back from an earlier call (of any type) and wording its hint, naming
// a wrong answer by the likely mistake it equals, and a tiny seeded GPT. Header-only, beside lesson.hpp.
// Leaves out: the wrong answers themselves; each lesson computes its own mistakes.
#pragma once
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
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

// Which answers came_back keeps for the checks after.
enum class Remember {
    every_answer,    // what the function returned, right or wrong
    right_answers,   // only right ones (got not differing from want): where the checks call the function on
                     // one input again, a wrong answer kept would seem to come back
};

// An answer that came back: same(got, before) for one of `earlier` (what the learner's function returned
// in the checks before) while differs(want, before), this call's right answer `want` being another: a
// constant or a static, not this call's computation. Keeps `got` for the checks after, as `remember` says.
template <class T, class Same, class Differs>
bool came_back(const T& got, const T& want, std::vector<T>& earlier, Same same, Differs differs,
               Remember remember = Remember::every_answer) {
    const bool back = std::any_of(earlier.begin(), earlier.end(),
                                  [&](const T& before) { return same(got, before) && differs(want, before); });
    if (remember == Remember::every_answer || !differs(got, want)) earlier.push_back(got);
    return back;
}

// came_back for tensors: the same within same_tol, another right answer beyond differ_tol; keeps every
// answer, detached.
inline bool came_back(const pg::Tensor& got, const pg::Tensor& want, std::vector<pg::Tensor>& earlier,
                      double same_tol, double differ_tol) {
    return came_back(
        got.detach(), want, earlier, [&](const pg::Tensor& a, const pg::Tensor& b) { return near(a, b, same_tol); },
        [&](const pg::Tensor& a, const pg::Tensor& b) { return !near(a, b, differ_tol); });
}

// One phrase in the learner's two languages, for a hint that builds its sentence around it.
struct Phrase {
    std::string english, chinese;
};

// Whether a hint's phrase names one thing or several ("your x is", "your q, k, v are").
enum class Noun { singular, plural };

// `words` inside a Chinese sentence: a space on each side where they begin or end with Latin text.
inline std::string amid_chinese(const std::string& words) {
    auto latin = [](char c) { return static_cast<unsigned char>(c) < 0x80; };
    if (words.empty()) return words;
    return (latin(words.front()) ? " " : "") + words + (latin(words.back()) ? " " : "");
}

// The hint for an answer that came back, in the learner's language: "your x is exactly the one your function
// returned for an earlier, different input: compute it from this call's wte, wpe and ids, ...". `answer` names
// what came back ({"x", "x"}, {"result", "结果"}), `inputs` what this call computes it from.
inline std::string came_back_hint(const Phrase& answer, const Phrase& inputs, Noun noun = Noun::singular) {
    const bool plural = noun == Noun::plural;
    return tr("your " + answer.english + (plural ? " are exactly the ones" : " is exactly the one") +
                  " your function returned for an earlier, different input: compute " + (plural ? "them" : "it") +
                  " from this call's " + inputs.english + ", not a constant or a static kept from a call before",
              "你的" + amid_chinese(answer.chinese) + "和你的函数先前对另一个不同输入返回的完全一样：要用这一次调用的" +
                  amid_chinese(inputs.chinese) + "来算，不能用常量，也不能用上一次调用留下的 static 变量");
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

// A seeded GPT small enough to check in milliseconds (V = 40, 1 layer, width 16), its head scaled
// up so that the logits spread over several nats and every slip moves the loss visibly (lessons 24
// and 27 score records with it).
inline std::unique_ptr<pg::nn::GPT> tiny_gpt(pg::Generator& gen) {
    pg::nn::GPTConfig cfg;
    cfg.vocab_size = 40;
    cfg.n_layer = 1;
    cfg.n_head = 2;
    cfg.n_embd = 16;
    auto gpt = std::make_unique<pg::nn::GPT>(cfg, gen);
    gpt->head.weight.copy_(pg::randn(gpt->head.weight.shape(), gen) * 0.5f);
    gpt->eval();
    return gpt;
}

}  // namespace lesson
