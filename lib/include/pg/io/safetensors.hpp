// safetensors files: any set of named float32 tensors with string metadata, in the format of
// Hugging Face's safetensors, which PyTorch, numpy, JAX and most model tools read.
// Leaves out: other dtypes (F16, BF16, I64, ...: refused by name on reading), memory mapping,
// reading one tensor without the rest, big-endian hosts (every value is encoded byte by byte).
//
// Layout: u64 N (little-endian), then N bytes of UTF-8 JSON, then the data:
//   {"__metadata__": {"key": "value", ...},
//    "name": {"dtype": "F32", "shape": [d0, d1, ...], "data_offsets": [begin, end]}, ...}
// Offsets are bytes into the data (which starts at 8 + N); the tensors cover it exactly, no
// gaps and no overlaps; values are row-major, little-endian. The writer orders the tensors by
// name, puts "__metadata__" first (left out when empty) and pads the JSON with spaces so that the
// data starts 8-byte aligned, as the format's reference implementation does (same bytes).
#pragma once
#include <string>
#include <utility>
#include <vector>
#include "pg/io/checkpoint.hpp"
#include "pg/tensor.hpp"

namespace pg {

// Thrown for a file that is not a valid safetensors file of float32 tensors, or cannot be
// written: the message starts with the path and names the tensor when one is at fault.
struct SafetensorsError : CheckpointError {
    using CheckpointError::CheckpointError;
};

using NamedTensors = std::vector<std::pair<std::string, Tensor>>;   // what Module::named_parameters() gives

// Whether NaN and infinities may be written and read. Weights must be finite (a NaN means a run
// diverged); other tensors, such as a mask of -inf, may ask for Allow.
enum class NonFinite { Refuse, Allow };

// The format's own limit on the JSON header.
constexpr uint64_t kSafetensorsMaxHeader = 100000000;

// Writes path.tmp and renames it over path. Throws SafetensorsError, writing nothing, for a
// duplicate name, the reserved name "__metadata__", text that is not UTF-8, or (Refuse) a
// non-finite value, naming the tensor and the element.
void save_safetensors(const std::string& path, const NamedTensors& tensors, const Metadata& metadata = {},
                      NonFinite non_finite = NonFinite::Refuse);

struct SafetensorsFile {
    NamedTensors tensors;   // in the order of their data in the file
    Metadata metadata;      // "__metadata__"; empty when the file has none
    // The tensor called `name`; throws SafetensorsError naming the file when there is none.
    const Tensor& at(const std::string& name) const;
    std::string path;
};

// Reads and checks the whole file before it returns anything. Refuses, naming the file and the
// tensor: a header longer than the file or than 100 MB, a header that is not a JSON object, a
// duplicate name, a dtype other than F32, a shape entry that is negative or not a whole number,
// a shape whose size overflows or disagrees with its data_offsets, offsets that overlap or leave
// bytes of the data uncovered, and (Refuse) NaN or infinite values.
SafetensorsFile load_safetensors(const std::string& path, NonFinite non_finite = NonFinite::Refuse);

}  // namespace pg
