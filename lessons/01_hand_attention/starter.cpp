// Lesson 01 exercise: self-attention with plain loops. `./poet start 1` copies this file to
// exercise.cpp; write attention_loops there, then `./poet check 1`.
// 第 01 课练习：用普通循环写自注意力。`./poet start 1` 会把这个文件复制成 exercise.cpp；
// 在那里写好 attention_loops，然后运行 `./poet check 1`。
#include "check.hpp"

Matrix exercise::attention_loops(const Matrix& q, const Matrix& k, const Matrix& v) {
    // 1. scores[i][j] = (q[i] . k[j]) / sqrt(d_k),  d_k = q[0].size()
    //    分数 scores[i][j] = (q[i] 与 k[j] 的点积) / sqrt(d_k)，其中 d_k = q[0].size()
    // 2. weights[i] = softmax(scores[i]): subtract the row's max, exp, divide by the row's sum
    //    权重 weights[i] = softmax(scores[i])：先减去这一行的最大值，再取 exp，最后除以这一行的和
    // 3. out[i][d] = sum over j of weights[i][j] * v[j][d]
    //    输出 out[i][d] = 对所有 j 把 weights[i][j] * v[j][d] 加起来
    throw lesson::NotImplemented("exercise::attention_loops");
}
