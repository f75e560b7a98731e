// The op names recorded in the graph behind a tensor: how a test knows an op really ran.
#pragma once
#include <memory>
#include <set>
#include <string>
#include <vector>
#include <pg/pg.hpp>

inline std::set<std::string> ops_in_graph(const pg::Tensor& y) {
    std::set<std::string> ops;
    std::set<const pg::Node*> seen;
    std::vector<std::shared_ptr<pg::Node>> stack;
    if (y.grad_fn()) stack.push_back(y.grad_fn());
    while (!stack.empty()) {
        std::shared_ptr<pg::Node> n = stack.back();
        stack.pop_back();
        if (!seen.insert(n.get()).second) continue;
        ops.insert(n->op);
        for (const pg::Tensor& in : n->inputs)
            if (in.grad_fn()) stack.push_back(in.grad_fn());
    }
    return ops;
}
