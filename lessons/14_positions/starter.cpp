// Lesson 14 exercise: the GPT's input, token plus position embeddings. `./poet start 14` copies
// this file to exercise.cpp; write embed there, then `./poet check 14`.
// 第 14 课练习：GPT 的输入，也就是每个字的嵌入加上它所在位置的嵌入。`./poet start 14` 会把这个
// 文件复制成 exercise.cpp；在那里写好 embed，然后运行 `./poet check 14`。
#include "check.hpp"

pg::Tensor exercise::embed(const pg::Tensor& wte, const pg::Tensor& wpe, const pg::Tensor& ids) {
    // T = ids.size(1)
    // tokens = each id's row of wte                          (B,T,C)
    // places = rows 0, 1, ..., T-1 of wpe                     (T,C)
    // return tokens + places (broadcast over B), with pg ops so the gradient reaches wte and wpe
    // T = ids.size(1)
    // tokens = 每个 id 在 wte 里对应的那一行                   (B,T,C)
    // places = wpe 的第 0, 1, ..., T-1 行                      (T,C)
    // 返回 tokens + places（在 B 上广播），要用 pg 算子来写，梯度才能传到 wte 和 wpe
    throw lesson::NotImplemented("exercise::embed");
}
