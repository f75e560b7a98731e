// Lesson 25 exercise: pull one head's attention weights out of a block. `./poet start 25` copies
// this file to exercise.cpp; write head_attention there, then `./poet check 25`.
// 第 25 课练习：从一个块里取出一个头的注意力权重。`./poet start 25` 会把这个文件复制成
// exercise.cpp；在那里写好 head_attention，然后运行 `./poet check 25`。
#include "check.hpp"

pg::Tensor exercise::head_attention(const pg::nn::Block& block, const pg::Tensor& x, size_t h) {
    // HS = C / block.attn.n_head
    // qkv = block.attn.qkv.forward(block.ln1.forward(x))             (B,T,3C): q | k | v, each C wide
    // q = head h's columns of the first third, k the same columns of the second (pg::slice)   (B,T,HS)
    // scores = q @ k^T / sqrt(HS)                                     (B,T,T)
    // the future (s > t) set to -infinity with pg::masked_fill and a (T,T) mask, then pg::softmax over keys
    // HS = C / block.attn.n_head
    // qkv = block.attn.qkv.forward(block.ln1.forward(x))             (B,T,3C)：q | k | v，各占 C 列
    // q = 第一段里第 h 个头的那些列，k = 第二段里同样的列（用 pg::slice）   (B,T,HS)
    // scores = q @ k^T / sqrt(HS)                                     (B,T,T)
    // 用 pg::masked_fill 和一个 (T,T) 掩码把未来（s > t）填成 -infinity，再沿键的方向做 pg::softmax
    throw lesson::NotImplemented("exercise::head_attention");
}
