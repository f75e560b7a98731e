// The fixture lesson's starter: not written yet.
#include "check.hpp"

pg::Tensor exercise::doubled(const pg::Tensor& w) { throw lesson::NotImplemented("exercise::doubled"); }
