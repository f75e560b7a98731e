// poetgrad's umbrella header: everything a program or a lesson needs.
#pragma once
#include "pg/autograd.hpp"
#include "pg/gradcheck.hpp"
#include "pg/ops.hpp"
#include "pg/random.hpp"
#include "pg/shape.hpp"
#include "pg/tensor.hpp"
#include "pg/io/checkpoint.hpp"
#include "pg/nn/gpt.hpp"
#include "pg/nn/layers.hpp"
#include "pg/nn/module.hpp"
#include "pg/optim/optim.hpp"
#include "pg/threads.hpp"
