// Checkpoints: save writes the whole file into memory, then to path.tmp, fsyncs and renames it;
// load reads the whole file, checks everything (layout in pg/io/checkpoint.hpp), and only then
// copies values into the model and optimizer. Leaves out: partial loads, other dtypes.
#include "pg/io/checkpoint.hpp"
#include <algorithm>
#include <cmath>
#include <cstring>
#include "bytes.hpp"
#include "files.hpp"

namespace pg {

namespace {

const char kMagic[] = "PGCKPT";
const size_t kMagicSize = 6;
const uint32_t kVersion = 1;
enum Section : uint8_t { kParameter = 0, kOptimizerState = 1 };

struct TensorRecord {
    Section section;
    std::string name;
    Shape shape;
    size_t offset;  // first value's index into the payload, in floats
};

struct Parsed {
    uint64_t step = 0;
    Metadata metadata;
    bool has_optimizer = false;
    std::vector<TensorRecord> tensors;
    std::vector<uint8_t> bytes;   // the whole file
    size_t payload_begin = 0;     // byte offset of the first value
};

std::string describe(Section s) { return s == kParameter ? "parameter" : "optimizer state"; }

// A checkpoint holds finite numbers only: a NaN or an infinity means the run had diverged, and such
// a file must be neither written nor loaded as if it were good. Throws naming the tensor.
void check_finite(const std::string& path, const std::string& doing, Section s, const std::string& name, const float* v,
                  size_t n) {
    for (size_t i = 0; i < n; ++i)
        if (!std::isfinite(v[i]))
            throw CheckpointError(path + ": " + doing + ": " + describe(s) + " " + name + " holds " +
                                  (std::isnan(v[i]) ? "NaN" : "an infinity") + " at element " + std::to_string(i) +
                                  " (weights from a diverged run are not a checkpoint)");
}

uint32_t checked_u32(size_t n, const std::string& path, const std::string& what) {
    if (n > 0xffffffffu) throw CheckpointError(path + ": cannot save: " + what + " is longer than 2^32 - 1");
    return static_cast<uint32_t>(n);
}

std::vector<uint8_t> encode(const std::string& path, const nn::Module& model, const optim::Optimizer* optimizer,
                            uint64_t step, const Metadata& metadata) {
    std::vector<TensorRecord> records;
    std::vector<const Array*> values;
    auto named = model.named_parameters();
    std::vector<std::pair<std::string, Array>> state;
    if (optimizer) state = optimizer->state();
    for (auto& [name, t] : named) {
        check_finite(path, "cannot save", kParameter, name, t.ptr(), t.numel());
        records.push_back({kParameter, name, t.shape(), 0});
        values.push_back(&t.data());
    }
    for (auto& [name, a] : state) {
        check_finite(path, "cannot save", kOptimizerState, name, a.data(), a.size());
        records.push_back({kOptimizerState, name, Shape(a.shape().begin(), a.shape().end()), 0});
        values.push_back(&a);
    }

    io::ByteWriter header;
    header.u64(step);
    header.u32(checked_u32(metadata.size(), path, "the metadata"));
    for (auto& [key, value] : metadata) {
        header.u32(checked_u32(key.size(), path, "metadata key " + key));
        header.raw(key);
        header.u32(checked_u32(value.size(), path, "metadata value of " + key));
        header.raw(value);
    }
    header.u8(optimizer ? 1 : 0);
    header.u32(checked_u32(records.size(), path, "the tensor list"));
    for (const TensorRecord& r : records) {
        header.u8(r.section);
        header.u32(checked_u32(r.name.size(), path, "a tensor name"));
        header.raw(r.name);
        header.u32(checked_u32(r.shape.size(), path, "a shape"));
        for (size_t d : r.shape) header.u64(d);
    }

    io::ByteWriter file;
    file.raw(std::string(kMagic, kMagicSize));
    file.u32(kVersion);
    file.u64(header.bytes.size());
    file.bytes.insert(file.bytes.end(), header.bytes.begin(), header.bytes.end());
    size_t payload_floats = 0;
    for (const Array* a : values) payload_floats += a->size();
    file.u64(payload_floats * 4);
    for (const Array* a : values)
        for (size_t i = 0; i < a->size(); ++i) file.f32(a->data()[i]);
    file.u64(io::fnv1a64(file.bytes.data(), file.bytes.size()));
    return file.bytes;
}

// Every check that needs only the file: magic, version, lengths, checksum, header fields.
Parsed parse(const std::string& path) {
    Parsed p;
    p.bytes = io::read_whole_file<CheckpointError>(path, "checkpoint", io::kMaxFileBytes);
    const uint8_t* data = p.bytes.data();
    const size_t size = p.bytes.size();
    io::ByteReader file(path, "the file", data, 0, size);

    std::string start(p.bytes.begin(), p.bytes.begin() + static_cast<long>(std::min(size, kMagicSize)));
    if (size < kMagicSize && std::string(kMagic).compare(0, size, start) == 0)
        throw CheckpointError(path + ": truncated: the file ends at byte " + std::to_string(size) + ", inside the magic");
    if (start != kMagic)
        throw CheckpointError(path + ": not a poetgrad checkpoint (it does not start with \"PGCKPT\")");
    file.str(kMagicSize, "the magic");
    uint32_t version = file.u32("the version");
    if (version != kVersion)
        throw CheckpointError(path + ": format version " + std::to_string(version) + ", but this build reads version " +
                              std::to_string(kVersion));
    uint64_t header_size = file.u64("the header length");
    file.need(header_size, "the header");
    size_t header_begin = file.pos(), header_end = header_begin + header_size;
    io::ByteReader after_header(path, "the file", data, header_end, size);
    uint64_t payload_size = after_header.u64("the payload length");
    after_header.need(payload_size, "the payload");
    p.payload_begin = after_header.pos();
    io::ByteReader tail(path, "the file", data, p.payload_begin + payload_size, size);
    uint64_t stored_checksum = tail.u64("the checksum");
    if (tail.remaining() != 0)
        throw CheckpointError(path + ": " + std::to_string(tail.remaining()) + " unexpected bytes after the checksum at byte " +
                              std::to_string(tail.pos() - 8));
    uint64_t checksum = io::fnv1a64(data, size - 8);
    if (checksum != stored_checksum) throw CheckpointError(path + ": checksum mismatch (the file is corrupted)");

    io::ByteReader header(path, "the header", data, header_begin, header_end);
    p.step = header.u64("the step");
    uint32_t n_metadata = header.u32("the metadata count");
    for (uint32_t i = 0; i < n_metadata; ++i) {
        std::string key = header.str(header.u32("a metadata key length"), "a metadata key");
        std::string value = header.str(header.u32("a metadata value length"), "a metadata value");
        if (!p.metadata.emplace(key, value).second)
            throw CheckpointError(path + ": metadata key '" + key + "' appears twice");
    }
    uint8_t has_optimizer = header.u8("the optimizer flag");
    if (has_optimizer > 1) throw CheckpointError(path + ": optimizer flag is " + std::to_string(has_optimizer) + ", not 0 or 1");
    p.has_optimizer = has_optimizer == 1;
    uint32_t n_tensors = header.u32("the tensor count");
    const size_t payload_floats = payload_size / 4;
    size_t offset = 0;  // in floats; never exceeds payload_floats
    for (uint32_t i = 0; i < n_tensors; ++i) {
        TensorRecord r;
        uint8_t section = header.u8("a tensor's section");
        if (section > kOptimizerState)
            throw CheckpointError(path + ": tensor " + std::to_string(i) + " has an unknown section " + std::to_string(section));
        if (section == kOptimizerState && !p.has_optimizer)
            throw CheckpointError(path + ": tensor " + std::to_string(i) + " is optimizer state, but the optimizer flag is 0");
        r.section = static_cast<Section>(section);
        r.name = header.str(header.u32("a tensor name length"), "a tensor name");
        uint32_t rank = header.u32("a tensor rank");
        size_t numel = 1;
        for (uint32_t d = 0; d < rank; ++d) {
            uint64_t dim = header.u64("a tensor dimension");
            // the values must fit in what is left of the payload; checked before multiplying, so no overflow
            if (dim != 0 && numel > (payload_floats - offset) / dim)
                throw CheckpointError(path + ": " + describe(r.section) + " " + r.name + " has more values than the payload holds");
            numel *= dim;
            r.shape.push_back(dim);
        }
        if (numel > payload_floats - offset)
            throw CheckpointError(path + ": " + describe(r.section) + " " + r.name + " has more values than the payload holds");
        r.offset = offset;
        offset += numel;
        p.tensors.push_back(std::move(r));
    }
    if (header.remaining() != 0)
        throw CheckpointError(path + ": the header length says " + std::to_string(header_size) + " bytes, but its fields end " +
                              std::to_string(header.remaining()) + " bytes earlier");
    if (offset * 4 != payload_size)
        throw CheckpointError(path + ": the payload holds " + std::to_string(payload_size) + " bytes, but the tensors need " +
                              std::to_string(offset * 4));
    return p;
}

Array values_of(const Parsed& p, const TensorRecord& r) {
    Array a(r.shape, Array::uninitialized);
    const uint8_t* src = p.bytes.data() + p.payload_begin + r.offset * 4;
    for (size_t i = 0; i < a.size(); ++i) {
        uint32_t bits = static_cast<uint32_t>(src[4 * i]) | static_cast<uint32_t>(src[4 * i + 1]) << 8 |
                        static_cast<uint32_t>(src[4 * i + 2]) << 16 | static_cast<uint32_t>(src[4 * i + 3]) << 24;
        std::memcpy(a.data() + i, &bits, 4);
    }
    return a;
}

using NamedShapes = std::vector<std::pair<std::string, Shape>>;

// The records of one section must match `expected` (names and shapes) one to one, in order.
std::vector<const TensorRecord*> match(const std::string& path, const Parsed& p, Section section,
                                       const NamedShapes& expected, const std::string& owner) {
    std::vector<const TensorRecord*> found;
    for (const TensorRecord& r : p.tensors)
        if (r.section == section) found.push_back(&r);
    for (size_t i = 0; i < std::min(found.size(), expected.size()); ++i) {
        const auto& [want, want_shape] = expected[i];
        if (found[i]->name != want)
            throw CheckpointError(path + ": " + describe(section) + " " + std::to_string(i) + " is " + found[i]->name +
                                  " in the file but " + want + " in the " + owner);
        if (found[i]->shape != want_shape)
            throw CheckpointError(path + ": " + describe(section) + " " + want + " has shape " + shape_str(found[i]->shape) +
                                  " in the file but " + shape_str(want_shape) + " in the " + owner);
    }
    if (found.size() != expected.size())
        throw CheckpointError(path + ": the file holds " + std::to_string(found.size()) + " " + describe(section) +
                              " tensors, the " + owner + " " + std::to_string(expected.size()));
    return found;
}

}  // namespace

void save(const std::string& path, const nn::Module& model, const optim::Optimizer* optimizer, uint64_t step,
          const Metadata& metadata) {
    io::write_file_atomically<CheckpointError>(path, encode(path, model, optimizer, step, metadata), "checkpoint");
}

LoadedCheckpoint read_checkpoint_info(const std::string& path) {
    Parsed p = parse(path);
    return {p.step, p.metadata, p.has_optimizer};
}

LoadedCheckpoint load(const std::string& path, nn::Module& model, optim::Optimizer* optimizer) {
    Parsed p = parse(path);
    auto named = model.named_parameters();
    NamedShapes model_shapes, optimizer_shapes;
    for (auto& [name, t] : named) model_shapes.emplace_back(name, t.shape());
    std::vector<const TensorRecord*> params = match(path, p, kParameter, model_shapes, "model");
    std::vector<Array> values;   // every parameter's values, checked before anything changes
    for (const TensorRecord* r : params) {
        values.push_back(values_of(p, *r));
        check_finite(path, "refused", kParameter, r->name, values.back().data(), values.back().size());
    }
    if (optimizer) {
        if (!p.has_optimizer) throw CheckpointError(path + ": the file holds no optimizer state");
        for (auto& [name, a] : optimizer->state()) optimizer_shapes.emplace_back(name, Shape(a.shape().begin(), a.shape().end()));
        std::vector<const TensorRecord*> records = match(path, p, kOptimizerState, optimizer_shapes, "optimizer");
        std::vector<std::pair<std::string, Array>> state;
        for (const TensorRecord* r : records) {
            state.emplace_back(r->name, values_of(p, *r));
            check_finite(path, "refused", kOptimizerState, r->name, state.back().second.data(), state.back().second.size());
        }
        try {
            optimizer->load_state(state);  // checks its values before it changes anything
        } catch (const std::invalid_argument& e) {
            throw CheckpointError(path + ": " + e.what());
        }
    }
    // Nothing below can fail: every check has passed.
    for (size_t i = 0; i < named.size(); ++i) named[i].second.copy_(Tensor(std::move(values[i])));
    return {p.step, p.metadata, p.has_optimizer};
}

}  // namespace pg
