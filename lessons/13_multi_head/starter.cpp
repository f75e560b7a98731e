// Lesson 13 exercise: splitting into heads and merging them back. `./poet start 13` copies this
// file to exercise.cpp; write split_heads and merge_heads there, then `./poet check 13`.
// 第 13 课练习：拆分成多个头，再把它们合并回来。`./poet start 13` 会把这个文件复制成
// exercise.cpp；在那里写好 split_heads 和 merge_heads，然后运行 `./poet check 13`。
#include "check.hpp"

pg::Tensor exercise::split_heads(const pg::Tensor& x, size_t n_head) {
    // B, T, C = x.size(0), x.size(1), x.size(2); HS = C / n_head
    // reshape to (B, T, NH, HS), then swap dims 1 and 2 -> (B, NH, T, HS)
    // B、T、C 分别是 x.size(0)、x.size(1)、x.size(2)；HS = C / n_head
    // 先 reshape 成 (B, T, NH, HS)，再交换第 1 和第 2 个轴 -> (B, NH, T, HS)
    throw lesson::NotImplemented("exercise::split_heads");
}

pg::Tensor exercise::merge_heads(const pg::Tensor& y) {
    // swap dims 1 and 2 -> (B, T, NH, HS), then reshape to (B, T, NH * HS)
    // 交换第 1 和第 2 个轴 -> (B, T, NH, HS)，再 reshape 成 (B, T, NH * HS)
    throw lesson::NotImplemented("exercise::merge_heads");
}
