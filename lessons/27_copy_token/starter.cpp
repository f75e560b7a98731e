// Lesson 27 exercise: the copy token, in the records and in the loss. `./poet start 27` copies this
// file to exercise.cpp; write mark_copies and copy_loss there, then `./poet check 27`.
// 第 27 课练习：复制标记，在记录里，也在损失里。`./poet start 27` 会把这个文件复制成 exercise.cpp；
// 在那里写好 mark_copies 和 copy_loss，然后运行 `./poet check 27`。
#include <algorithm>
#include <cmath>
#include "check.hpp"

std::vector<int> exercise::mark_copies(const std::vector<int>& record) {
    // k = record[1], the prompt; record[0] is BOS, record[2] SEP
    // k = record[1]，即提示字；record[0] 是 BOS，record[2] 是 SEP
    // copy the record; from position 3 (poet::kPromptLength) to the end, every id equal to k
    // becomes poet::Tokenizer::COPY; position 1 keeps k
    // 复制一份记录；从位置 3（poet::kPromptLength）到末尾，每个等于 k 的编号
    // 都改成 poet::Tokenizer::COPY；位置 1 仍是 k
    throw lesson::NotImplemented("exercise::mark_copies");
}

exercise::CopyLoss exercise::copy_loss(const pg::Tensor& logits, const pg::Tensor& targets, const pg::Tensor& ks,
                                       long ignore) {
    // N = logits.size(0), V = logits.size(1); row r's logits z start at logits.ptr() + r * V;
    // its target is targets.ptr()[r], its k is ks.ptr()[r]
    // N = logits.size(0)，V = logits.size(1)；第 r 行的 logits z 从 logits.ptr() + r * V 开始；
    // 它的目标是 targets.ptr()[r]，它的 k 是 ks.ptr()[r]
    // for each row whose target is not ignore, in double:
    // 对目标不等于 ignore 的每一行，用 double 计算：
    //   m = the row's max;  lse = m + log(sum over v of exp(z[v] - m))
    //   m = 这一行的最大值；lse = m + log(对所有 v 求和 exp(z[v] - m))
    //   score = z[target], but for a target COPY: log(e^z[k] + e^z[COPY]), written with its own
    //   max: mab = max(a, b), mab + log(exp(a - mab) + exp(b - mab))
    //   score = z[目标]；但目标是 COPY 时：log(e^z[k] + e^z[COPY])，也要先减去
    //   它自己的最大值：mab = max(a, b)，mab + log(exp(a - mab) + exp(b - mab))
    //   add lse - score to a sum, count the row
    //   把 lse - score 加进总和，计入的行数加一
    // return {sum / counted, counted}, or {0, 0} when nothing was counted
    // 返回 {sum / counted, counted}；一行都没计入时返回 {0, 0}
    throw lesson::NotImplemented("exercise::copy_loss");
}
