// Checkpoints: a module's parameters, optionally an optimizer's state, a step and string metadata
// (model config, tokenizer...), in a versioned binary file with a checksum. Saved to a temporary
// file and renamed, so a crash never leaves a half-written checkpoint.
// Leaves out: memory mapping, compression, other dtypes.
//
// Layout (version 1, every integer and float little-endian):
//   "PGCKPT"  u32 version  u64 header_bytes
//   header:   u64 step; u32 n_metadata, then per entry u32 key length, key, u32 value length, value;
//             u8 has_optimizer; u32 n_tensors, then per tensor u8 section (0 parameter,
//             1 optimizer state), u32 name length, name, u32 rank, u64 dims[rank]
//   u64 payload_bytes   payload: each tensor's f32 values, row-major, in header order
//   u64 checksum: FNV-1a 64 of every byte before it
#pragma once
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include "pg/nn/module.hpp"
#include "pg/optim/optim.hpp"

namespace pg {

// Thrown for any file that cannot be read back: names the file and what is wrong with it.
struct CheckpointError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

using Metadata = std::map<std::string, std::string>;

void save(const std::string& path, const nn::Module& model, const optim::Optimizer* optimizer = nullptr,
          uint64_t step = 0, const Metadata& metadata = {});

struct LoadedCheckpoint {
    uint64_t step = 0;
    Metadata metadata;
    bool has_optimizer = false;
};

// Verifies the whole file (magic, version, checksum, every name and shape) before it changes
// anything: on any error the model and optimizer are left untouched.
LoadedCheckpoint load(const std::string& path, nn::Module& model, optim::Optimizer* optimizer = nullptr);

// The metadata and step alone, e.g. to build the model's config before load().
LoadedCheckpoint read_checkpoint_info(const std::string& path);

}  // namespace pg
