// The op table: every op the library records, in one list with its name, its inputs and its
// gradient. An op ends with record(Op::name, ...), so an op without an entry does not compile;
// pg::op_names(), the coverage tests and the derivative table in docs/architecture.md come from it.
// Leaves out: the ops themselves (ops/*.cpp) and the formulas' code (each backward, under its forward).
#pragma once
#include <cstddef>
#include <vector>
#include "pg/autograd.hpp"

namespace pg::detail {

enum class Op {
    add, sub, mul, div, neg,                                              // elementwise.cpp
    pow, exp, log, sqrt, tanh, sigmoid, relu, gelu,                       // unary.cpp
    sum, mean, max,                                                       // reduce.cpp
    reshape, permute, slice, index_select, concat,                        // shape_ops.cpp
    matmul, linear,                                                       // matmul.cpp
    softmax, log_softmax, masked_fill, cross_entropy, embedding, layer_norm, dropout,   // nn_ops.cpp
    count   // the number of ops, not one of them
};

struct OpInfo {
    Op op;
    const char* name;                     // the Node's op name: what ops_in() and errors show
    size_t min_inputs, max_inputs;        // how many tensors it records as inputs
    const char* inputs;                   // the inputs as the derivative table names them
    const char* gradient;                 // d(loss)/d(each input), as the derivative table writes it
    const char* file;                     // where it lives, under lib/src/ops/
};

const OpInfo& info(Op op);
const std::vector<OpInfo>& op_table();    // every entry, in Op order

// How an op ends: wraps its value as a result and, when grad mode is on and an input requires grad,
// attaches a Node named from the table. Checks the number of inputs against the table.
Tensor record(Op op, Array value, std::vector<Tensor> inputs, BackwardFn backward);

// The derivative table as docs/architecture.md shows it (Markdown rows), from the op table.
std::string derivative_table_markdown();

}  // namespace pg::detail
