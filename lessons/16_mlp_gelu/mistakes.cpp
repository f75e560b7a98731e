// mistake 1: sqrt(2 pi) instead of sqrt(2/pi) => you scaled by sqrt(2 pi)
// mistake 2: the 0.5 in front forgotten => the 0.5 in front is missing
// mistake 3: the square x*x instead of the cube => you used the square, not the cube
// mistake 4: the exact x Phi(x) with erf, not the tanh approximation => you computed the exact x Phi(x) with erf
// mistake 5: tanh written with exponentials, which overflow far out => nan far out: tanh written with exponentials
// mistake 6: the library's pg::gelu called => you called pg::gelu
// mistake 7: the bracket misread, tanh(sqrt(2/pi) x + 0.044715 x^3) => 0.044715 x^3 outside the sqrt(2/pi)
// mistake 8: ReLU between the Linears => ReLU in the middle
// mistake 9: no activation between the Linears => no GELU between the two Linears
// mistake 10: the Linears without their biases => both Linears without their bias
// mistake 11: the residual added inside the MLP, x + out(gelu(fc(x))) => the residual belongs to the block
// mistake 12: mlp.forward called => mlp.forward calls pg::gelu too
// mistake 13: x @ W with the weight as stored, (out, in) => a Linear's weight is (out, in)
// mistake 14: fc without its bias => fc without its bias
// mistake 15: out without its bias => out without its bias
// mistake 16: ReLU written in place of GELU => your values are relu(x), max(0, x)
// mistake 17: the x in front dropped, 0.5 (1 + tanh(u)) => the x in front is missing
// mistake 18: gelu keeps its first answer in a static => your gelu values are exactly the ones your function returned for an earlier, different input
// mistake 19: feed_forward keeps its first answer in a static => your MLP output is exactly the one your function returned for an earlier, different input
// Lesson 16's planted mistakes, one program: PG_MISTAKE=N runs mistake N (lesson::mistake(N) is then
// true), which must fail the checks with its hint above; with none chosen this is a correct answer.
#include <cmath>
#include "check.hpp"
using lesson::mistake;

pg::Tensor exercise::gelu(const pg::Tensor& x) {
    static pg::Tensor kept;  // mistake 18: the first answer, kept
    if (mistake(18) && kept.numel() > 0) return kept;
    if (mistake(6)) return pg::gelu(x);
    const float pi = 3.14159265358979f;
    const float k = mistake(1) ? std::sqrt(2.f * pi) : std::sqrt(2.f / pi);
    std::vector<float> y(x.numel());
    for (size_t i = 0; i < y.size(); ++i) {
        float v = x.ptr()[i];
        float u = mistake(3)   ? k * (v + 0.044715f * v * v)       // the square
                  : mistake(7) ? k * v + 0.044715f * v * v * v     // the cube outside the sqrt(2/pi)
                               : k * (v + 0.044715f * v * v * v);
        if (mistake(2)) y[i] = v * (1.f + std::tanh(u));
        else if (mistake(4)) y[i] = 0.5f * v * (1.f + std::erf(v / std::sqrt(2.f)));
        else if (mistake(16)) y[i] = v > 0.f ? v : 0.f;
        else if (mistake(17)) y[i] = 0.5f * (1.f + std::tanh(u));
        else if (mistake(5)) y[i] = 0.5f * v * (1.f + (std::exp(u) - std::exp(-u)) / (std::exp(u) + std::exp(-u)));
        else y[i] = 0.5f * v * (1.f + std::tanh(u));
    }
    if (mistake(18)) kept = pg::tensor(y, x.shape());
    return pg::tensor(y, x.shape());
}

pg::Tensor exercise::feed_forward(const pg::nn::MLP& mlp, const pg::Tensor& x) {
    static pg::Tensor kept;  // mistake 19: the first answer, kept
    if (mistake(19) && kept.numel() > 0) return kept;
    if (mistake(12)) return mlp.forward(x);
    if (mistake(13)) {
        pg::Tensor h = pg::matmul(x, mlp.fc.weight) + mlp.fc.bias;
        return pg::matmul(exercise::gelu(h), mlp.out.weight) + mlp.out.bias;
    }
    pg::Tensor h = pg::linear(x, mlp.fc.weight, mistake(10) || mistake(14) ? pg::Tensor() : mlp.fc.bias);  // (B,T,C) -> (B,T,4C)
    if (mistake(8)) h = pg::relu(h);
    else if (!mistake(9)) h = exercise::gelu(h);
    pg::Tensor y = pg::linear(h, mlp.out.weight, mistake(10) || mistake(15) ? pg::Tensor() : mlp.out.bias);  // (B,T,4C) -> (B,T,C)
    if (mistake(19)) kept = y;
    return mistake(11) ? x + y : y;
}
