// mistake 1: the Linears' biases left out of the count => every Linear here has a bias
// mistake 2: the two LayerNorms left out of the count => the two LayerNorms are missing
// mistake 3: out's bias counted as 4C, like fc's => out's bias has C entries
// mistake 4: qkv counted as one C x C matrix => qkv maps C to 3C
// mistake 5: the count in unsigned, which wraps past 2^32 => the count overflowed 32 bits
// mistake 6: post-norm, ln(x + f(x)) => post-norm: you normalised after each addition
// mistake 7: the second residual starts from x, y = x + mlp(ln2(h)) => the second residual starts from x
// mistake 8: ln2 reads x instead of h => ln2 reads x, so the MLP never sees what attention wrote
// mistake 9: ln1 and ln2 swapped => ln1 and ln2 swapped
// mistake 10: no residual, y = mlp(ln2(attn(ln1(x)))) => no residual: each sublayer's output is added to its input
// mistake 11: the residual adds the normalised stream, h = ln1(x) + attn(ln1(x)) => the residual adds the normalised stream ln1(x)
// mistake 12: ln1 forgotten, attention reads the raw stream => ln1 is missing
// mistake 13: the first residual adds x.detach() => add x itself, not x.detach()
// mistake 14: the library's Block::forward called => you called block.forward(x)
// mistake 15: ln2 forgotten, the MLP reads the raw stream => ln2 is missing
// mistake 16: the LayerNorms counted without their biases => a LayerNorm has a bias too
// mistake 17: the count for C = 8 written in, 872 for every C => the count is a function of C
// mistake 18: block_forward keeps its first answer in a static => your output is exactly the one your function returned for an earlier, different input
// mistake 19: the second residual adds h.detach() => add h itself, not h.detach()
// Lesson 17's planted mistakes, one program: PG_MISTAKE=N runs mistake N (lesson::mistake(N) is then
// true), which must fail the checks with its hint above; with none chosen this is a correct answer.
#include "check.hpp"
using lesson::mistake;

size_t exercise::block_parameter_count(size_t C) {
    if (mistake(17)) return 872;
    if (mistake(5)) {
        unsigned c = static_cast<unsigned>(C);
        return 4 * c + (3 * c * c + 3 * c) + (c * c + c) + (4 * c * c + 4 * c) + (4 * c * c + c);
    }
    size_t norms = mistake(2) ? 0 : mistake(16) ? 2 * C : 2 * (C + C);
    size_t qkv = 3 * C * C + 3 * C, proj = C * C + C, fc = 4 * C * C + 4 * C, out = 4 * C * C + C;
    if (mistake(1)) { qkv = 3 * C * C; proj = C * C; fc = 4 * C * C; out = 4 * C * C; }  // no biases
    if (mistake(3)) out = 4 * C * C + 4 * C;
    if (mistake(4)) qkv = C * C + C;
    return norms + qkv + proj + fc + out;
}

pg::Tensor exercise::block_forward(const BlockParts& block, const pg::Tensor& x) {
    static pg::Tensor kept;  // mistake 18: the first answer, kept
    if (mistake(18) && kept.numel() > 0) return kept;
    if (mistake(14)) return block.forward(x);
    if (mistake(6)) {  // post-norm
        pg::Tensor h = block.ln1.forward(x + block.attn.forward(x));
        return block.ln2.forward(h + block.mlp.forward(h));
    }
    if (mistake(10)) return block.mlp.forward(block.ln2.forward(block.attn.forward(block.ln1.forward(x))));
    const pg::nn::LayerNorm& ln1 = mistake(9) ? block.ln2 : block.ln1;
    const pg::nn::LayerNorm& ln2 = mistake(9) ? block.ln1 : block.ln2;
    pg::Tensor a = mistake(12) ? x : ln1.forward(x);  // what attention reads
    pg::Tensor h = (mistake(11) ? a : mistake(13) ? x.detach() : x) + block.attn.forward(a);
    pg::Tensor m = block.mlp.forward(mistake(15) ? h : ln2.forward(mistake(8) ? x : h));
    pg::Tensor y = (mistake(7) ? x : mistake(19) ? h.detach() : h) + m;
    if (mistake(18)) kept = y;
    return y;
}
