// mistake 1: the prompt marked too, std::replace over the whole record => position 1 is the prompt itself and stays k
// mistake 2: only the first occurrence of k marked => only the first k of the poem became COPY
// mistake 3: the marking starts one position late, at 4 => a poem whose first character is k has COPY at position 3
// mistake 4: k read at position 0 (BOS) instead of 1 => nothing was marked: k is record[1]
// mistake 5: kIgnore written instead of COPY => a marked position holds COPY, poet::Tokenizer::COPY (id 0), not kIgnore
// mistake 6: the test inverted, every id but k marked => the test is inverted
// mistake 7: mark_copies keeps its first answer in a static => your marked record is exactly the one your function returned for an earlier, different input
// mistake 8: COPY's mass added for every target, not only a target COPY => COPY's probability was added for a target that is not COPY
// mistake 9: log p(k) + log p(COPY), the log of a product => you added log p(k) and log p(COPY)
// mistake 10: max(z[k], z[COPY]) instead of the log of the sum => you took max(z[k], z[COPY]) for the log of the sum
// mistake 11: p(COPY) alone for a target COPY => k's own probability is left out
// mistake 12: p(k) alone for a target COPY => COPY's probability is left out
// mistake 13: the row's exps without subtracting its max => subtract the row's max before exp
// mistake 14: log(e^a + e^b) without subtracting their max => log(e^z[k] + e^z[COPY]) without its max is log(inf)
// mistake 15: the mean over all N rows instead of the counted ones => divide by the counted rows, not by N
// mistake 16: copy_loss keeps its first loss in a static => your loss is exactly the one your function returned for an earlier, different input
// mistake 17: every target ignored gives 0/0 => 0/0 is NaN
// mistake 18: one k for the whole batch, ks[0] => every row read the k of row 0
// mistake 19: only kIgnore skipped, the ignore argument unused => skip every target equal to ignore, the argument
// mistake 20: pg::cross_entropy called instead of writing the loss => you called pg::cross_entropy
// Lesson 27's planted mistakes, one program: PG_MISTAKE=N runs mistake N (lesson::mistake(N) is then
// true), which must fail the checks with its hint above; with none chosen this is a correct answer.
// The functions are solution.cpp's, but for the lines that ask for a mistake.
#include <algorithm>
#include <cmath>
#include "check.hpp"
using lesson::mistake;

std::vector<int> exercise::mark_copies(const std::vector<int>& record) {
    static std::vector<int> kept;   // mistake 7: the first answer
    if (mistake(7) && !kept.empty()) return kept;
    std::vector<int> read = record;
    const int k = mistake(4) ? record[0] : record[1];
    const int mark = mistake(5) ? poet::kIgnore : poet::Tokenizer::COPY;
    if (mistake(1)) {
        std::replace(read.begin(), read.end(), k, mark);   // position 1 too
        return read;
    }
    for (size_t i = mistake(3) ? poet::kPromptLength + 1 : poet::kPromptLength; i < read.size(); ++i)
        if ((read[i] == k) != mistake(6)) {
            read[i] = mark;
            if (mistake(2)) break;
        }
    if (mistake(7)) kept = read;
    return read;
}

exercise::CopyLoss exercise::copy_loss(const pg::Tensor& logits, const pg::Tensor& targets, const pg::Tensor& ks,
                                       long ignore) {
    static CopyLoss kept;   // mistake 16: the first call's loss
    static bool have = false;
    if (mistake(16) && have) return kept;
    const size_t N = logits.size(0), V = logits.size(1);
    if (mistake(20)) {
        size_t counted = 0;
        for (size_t r = 0; r < N; ++r) counted += static_cast<long>(targets.ptr()[r]) != ignore;
        return {pg::cross_entropy(logits, targets, ignore).item(), counted};
    }
    const long skipped = mistake(19) ? poet::kIgnore : ignore;
    double sum = 0;
    size_t counted = 0;
    for (size_t r = 0; r < N; ++r) {
        const long target = static_cast<long>(targets.ptr()[r]);
        if (target == skipped) continue;
        const float* z = logits.ptr() + r * V;
        const double m = *std::max_element(z, z + V);
        double total = 0;
        for (size_t v = 0; v < V; ++v) total += mistake(13) ? std::exp(z[v]) : std::exp(z[v] - m);
        const double lse = mistake(13) ? std::log(total) : m + std::log(total);
        const size_t k = static_cast<size_t>(ks.ptr()[mistake(18) ? 0 : r]);
        const double a = z[k], b = z[poet::Tokenizer::COPY], mab = std::max(a, b);
        const double fold = mistake(14) ? std::log(std::exp(a) + std::exp(b)) : mab + std::log(std::exp(a - mab) + std::exp(b - mab));
        double nll = lse - z[target];
        if (mistake(8)) {   // every target folded with COPY
            const double t = target == poet::Tokenizer::COPY ? a : z[target], mt = std::max(t, b);
            nll = lse - (mt + std::log(std::exp(t - mt) + std::exp(b - mt)));
        } else if (target == poet::Tokenizer::COPY) {
            if (mistake(9)) nll = (lse - a) + (lse - b);   // -log p(k) - log p(COPY)
            else if (mistake(10)) nll = lse - mab;
            else if (mistake(11)) nll = lse - b;
            else if (mistake(12)) nll = lse - a;
            else nll = lse - fold;
        }
        sum += nll;
        ++counted;
    }
    if (mistake(15)) return {sum / static_cast<double>(N), counted};
    if (counted == 0 && !mistake(17)) return {0.0, 0};
    const CopyLoss loss{sum / static_cast<double>(counted), counted};
    if (mistake(16)) have = true, kept = loss;
    return loss;
}
