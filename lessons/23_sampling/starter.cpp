// Lesson 23 exercise: top-k sampling with temperature. `./poet start 23` copies this file to
// exercise.cpp; write topk_probabilities and sample_topk there, then `./poet check 23`.
// Leaves out: the poet's masks and greedy decoding (T = 0): the experiment shows those.
// 第 23 课练习：带温度的 top-k 采样。`./poet start 23` 会把这个文件复制成 exercise.cpp；
// 在那里写好 topk_probabilities 和 sample_topk，然后运行 `./poet check 23`。
// 本练习不包括：诗人用的掩码和贪心解码（T = 0），实验里会演示它们。
#include <algorithm>
#include <cmath>
#include <numeric>
#include "check.hpp"

std::vector<double> exercise::topk_probabilities(const std::vector<float>& logits, size_t k, float temperature) {
    // 1. the ids 0 .. V - 1 sorted by logit, larger first (std::stable_sort: a tie keeps the smaller id first)
    // 1. 把 id 0 .. V - 1 按 logit 从大到小排序（用 std::stable_sort：并列时 id 较小的排在前面）
    // 2. keep the first k of them (k = 0 or k >= V: keep all)
    // 2. 保留前 k 个（k = 0 或 k >= V 时全部保留）
    // 3. p[id] = exp((logits[id] - largest) / temperature) for the kept ids, 0 for the rest
    // 3. 保留的 id：p[id] = exp((logits[id] - largest) / temperature)，其余为 0
    // 4. divide the kept ones by their sum
    // 4. 保留的那些再除以它们的和
    throw lesson::NotImplemented("exercise::topk_probabilities");
}

int exercise::sample_topk(const std::vector<float>& logits, size_t k, float temperature, pg::Generator& gen) {
    // 1. p = topk_probabilities(logits, k, temperature)
    // 1. 先算 p = topk_probabilities(logits, k, temperature)
    // 2. u = gen.uniform(), once
    // 2. u = gen.uniform()，只调用一次
    // 3. walk ids 0, 1, ...: add p[id] to a running sum; return the first id where u < sum
    // 3. 依次走过 id 0, 1, ...：把 p[id] 加进累计和；返回第一个使 u < 累计和的 id
    throw lesson::NotImplemented("exercise::sample_topk");
}
