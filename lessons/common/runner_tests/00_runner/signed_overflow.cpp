// A runner fixture: an int multiplied past its largest value (a signed integer overflow).
#include "check.hpp"

pg::Tensor exercise::doubled(const pg::Tensor& w) {
    int count = static_cast<int>(w.numel());
    int scaled = count * 1000000000;                       // 3e9 does not fit in an int
    return w * (static_cast<float>(scaled) / (static_cast<float>(count) * 5e8f));
}
