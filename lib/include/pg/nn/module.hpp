// Module: a named, ordered collection of parameters and child modules, as in PyTorch.
// named_parameters() walks them in registration order with dotted names ("blocks.0.attn.qkv.weight").
// Leaves out: buffers, hooks, copying (a module owns its children in place and cannot be moved).
#pragma once
#include <string>
#include <utility>
#include <vector>
#include "pg/tensor.hpp"

namespace pg::nn {

class Module {
public:
    Module() = default;
    virtual ~Module() = default;
    Module(const Module&) = delete;
    Module& operator=(const Module&) = delete;

    // (name, tensor) in registration order; the tensors are handles to the module's own parameters
    std::vector<std::pair<std::string, Tensor>> named_parameters() const;
    std::vector<Tensor> parameters() const;
    size_t num_parameters() const;   // total number of scalars
    void train(bool on = true);      // this module and every child
    void eval() { train(false); }
    bool is_training() const { return training_; }
    void zero_grad();

protected:
    // Returns a handle to the registered tensor, which now requires grad.
    Tensor register_parameter(const std::string& name, Tensor t);
    // `child` must live as long as this module (a member, or owned through a unique_ptr).
    void register_module(const std::string& name, Module& child);

private:
    struct Entry {
        std::string name;
        Tensor param;             // valid when child == nullptr
        Module* child = nullptr;
    };
    std::vector<Entry> entries_;
    bool training_ = true;
};

}  // namespace pg::nn
