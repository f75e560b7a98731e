// Module: the registry behind named_parameters(), train()/eval() and zero_grad().
// A child's parameters appear where the child was registered, prefixed with its name and a dot.
// Leaves out: buffers, hooks, parameter removal.
#include "pg/nn/module.hpp"
#include <stdexcept>

namespace pg::nn {

Tensor Module::register_parameter(const std::string& name, Tensor t) {
    for (const Entry& e : entries_)
        if (e.name == name) throw std::invalid_argument("register_parameter: the name '" + name + "' is already taken");
    t.requires_grad_(true);
    entries_.push_back({name, t, nullptr});
    return t;
}

void Module::register_module(const std::string& name, Module& child) {
    for (const Entry& e : entries_)
        if (e.name == name) throw std::invalid_argument("register_module: the name '" + name + "' is already taken");
    entries_.push_back({name, Tensor(), &child});
}

std::vector<std::pair<std::string, Tensor>> Module::named_parameters() const {
    std::vector<std::pair<std::string, Tensor>> out;
    for (const Entry& e : entries_) {
        if (!e.child) {
            out.emplace_back(e.name, e.param);
            continue;
        }
        for (auto& [name, t] : e.child->named_parameters()) out.emplace_back(e.name + "." + name, t);
    }
    return out;
}

std::vector<Tensor> Module::parameters() const {
    std::vector<Tensor> out;
    for (auto& named : named_parameters()) out.push_back(named.second);
    return out;
}

size_t Module::num_parameters() const {
    size_t n = 0;
    for (const Tensor& t : parameters()) n += t.numel();
    return n;
}

void Module::train(bool on) {
    training_ = on;
    for (Entry& e : entries_)
        if (e.child) e.child->train(on);
}

void Module::zero_grad() {
    for (Tensor& t : parameters()) t.zero_grad();
}

}  // namespace pg::nn
