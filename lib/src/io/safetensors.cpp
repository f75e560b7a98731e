// safetensors: the writer builds the JSON header with nlohmann::ordered_json (so its bytes are
// the reference implementation's), the reader parses it with nlohmann::json and checks every rule
// of the format (pg/io/safetensors.hpp) before it makes a single tensor.
// Leaves out: dtypes other than F32, reading part of a file, JSON beyond what the format uses.
#include "pg/io/safetensors.hpp"
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include "bytes.hpp"
#include "files.hpp"

namespace pg {

namespace {

using Json = nlohmann::json;
const char kMetadataKey[] = "__metadata__";

[[noreturn]] void fail(const std::string& path, const std::string& what) { throw SafetensorsError(path + ": " + what); }

std::string quoted(const std::string& name) { return "'" + name + "'"; }

// Throws naming the tensor and the first element that is NaN or infinite.
void check_finite(const std::string& path, const std::string& doing, const std::string& name, const float* v, size_t n) {
    for (size_t i = 0; i < n; ++i)
        if (!std::isfinite(v[i]))
            fail(path, doing + "tensor " + quoted(name) + " holds " + (std::isnan(v[i]) ? "NaN" : "an infinity") +
                           " at element " + std::to_string(i) + " (weights from a diverged run are not a model)");
}

}  // namespace

// ---- writing ----

void save_safetensors(const std::string& path, const NamedTensors& tensors, const Metadata& metadata,
                      NonFinite non_finite) {
    std::vector<size_t> order(tensors.size());   // by name, as the reference implementation writes them
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return tensors[a].first < tensors[b].first; });
    for (size_t k = 0; k < order.size(); ++k) {
        const auto& [name, t] = tensors[order[k]];
        if (name == kMetadataKey) fail(path, "cannot save: \"__metadata__\" is the format's own key, not a tensor name");
        if (k > 0 && tensors[order[k - 1]].first == name) fail(path, "cannot save: two tensors are called " + quoted(name));
        if (non_finite == NonFinite::Refuse) check_finite(path, "cannot save: ", name, t.ptr(), t.numel());
    }

    nlohmann::ordered_json header = nlohmann::ordered_json::object();
    if (!metadata.empty()) header[kMetadataKey] = metadata;
    uint64_t offset = 0;
    for (size_t i : order) {
        const auto& [name, t] = tensors[i];
        uint64_t end = offset + 4 * uint64_t(t.numel());
        header[name] = {{"dtype", "F32"}, {"shape", t.shape()}, {"data_offsets", {offset, end}}};
        offset = end;
    }
    std::string text;
    try {
        text = header.dump();
    } catch (const nlohmann::ordered_json::type_error& e) {
        fail(path, std::string("cannot save: a tensor name or metadata text is not valid UTF-8 (") + e.what() + ")");
    }
    text.append((8 - text.size() % 8) % 8, ' ');   // the data starts 8-byte aligned

    io::ByteWriter file;
    file.bytes.reserve(8 + text.size() + offset);
    file.u64(text.size());
    file.raw(text);
    for (size_t i : order) {
        const float* v = tensors[i].second.ptr();
        for (size_t j = 0; j < tensors[i].second.numel(); ++j) file.f32(v[j]);
    }
    io::write_file_atomically<SafetensorsError>(path, file.bytes, "safetensors file");
}

// ---- reading ----

namespace {

struct Entry {
    std::string name;
    Shape shape;
    uint64_t begin = 0, end = 0;   // data_offsets, bytes into the data
};

// Parses the header text. nlohmann keeps the last of two equal keys, so duplicates are caught as
// the parser meets them; nesting deeper than the format's (a shape's entries, depth 3) is refused
// there too, before any of it is built.
Json parse_header(const std::string& path, const std::string& text) {
    std::vector<std::set<std::string>> keys;   // the keys seen so far in each open object
    auto check = [&](int depth, Json::parse_event_t event, Json& parsed) {
        if (depth > 3) fail(path, "the header nests deeper than the format's {name: {field: [...]}}");
        if (event == Json::parse_event_t::object_start) keys.emplace_back();
        if (event == Json::parse_event_t::object_end) keys.pop_back();
        if (event == Json::parse_event_t::key && !keys.back().insert(parsed.get<std::string>()).second) {
            const std::string& key = parsed.get_ref<const std::string&>();
            fail(path, (depth > 1 || key == kMetadataKey ? "key " : "tensor ") + quoted(key) + " appears twice in the header");
        }
        return true;
    };
    try {
        return Json::parse(text, check);
    } catch (const Json::parse_error& e) {
        fail(path, std::string("the header is not valid JSON: ") + e.what());
    }
}

// A shape entry or offset: a JSON whole number from 0 to 2^64 - 1.
uint64_t whole_number(const std::string& path, const std::string& where, const Json& v) {
    if (v.is_number_unsigned()) return v.get<uint64_t>();
    if (v.is_number_integer()) fail(path, where + " is negative (" + v.dump() + ")");
    if (v.is_number_float()) fail(path, where + " is not a whole number below 2^64 (" + v.dump() + ")");
    fail(path, where + " is not a number (" + v.dump() + ")");
}

const Json& field(const std::string& path, const std::string& tensor, const Json& info, const char* name) {
    auto it = info.find(name);
    if (it == info.end()) fail(path, "tensor " + quoted(tensor) + " has no \"" + name + "\"");
    return *it;
}

Entry read_entry(const std::string& path, const std::string& name, const Json& info, uint64_t data_size) {
    const std::string t = "tensor " + quoted(name);
    if (!info.is_object()) fail(path, t + " is described by " + std::string(info.type_name()) + ", not an object");
    const Json& dtype = field(path, name, info, "dtype");
    if (!dtype.is_string()) fail(path, t + ": dtype " + dtype.dump() + " is not a string");
    if (dtype.get<std::string>() != "F32")
        fail(path, t + " has dtype " + dtype.get<std::string>() +
                       "; poetgrad reads F32 only (in PyTorch, tensor.float() before saving)");
    Entry e;
    e.name = name;
    const Json& shape = field(path, name, info, "shape");
    if (!shape.is_array()) fail(path, t + ": shape " + shape.dump() + " is not a list");
    uint64_t numel = 1;
    bool overflow = false;
    for (size_t d = 0; d < shape.size(); ++d) {
        e.shape.push_back(whole_number(path, t + ": shape entry " + std::to_string(d), shape[d]));
        overflow |= __builtin_mul_overflow(numel, e.shape.back(), &numel);
    }
    if (std::find(e.shape.begin(), e.shape.end(), uint64_t(0)) != e.shape.end()) numel = 0;   // empty, whatever the rest
    else if (overflow) fail(path, t + ": shape " + shape_str(e.shape) + " has more elements than 64 bits count");
    if (numel > kMaxElements)
        fail(path, t + ": shape " + shape_str(e.shape) + " has " + std::to_string(numel) +
                       " elements; one poetgrad tensor holds at most " + std::to_string(kMaxElements));
    const Json& offsets = field(path, name, info, "data_offsets");
    if (!offsets.is_array() || offsets.size() != 2)
        fail(path, t + ": data_offsets " + offsets.dump() + " is not a pair [begin, end]");
    e.begin = whole_number(path, t + ": data_offsets begin", offsets[0]);
    e.end = whole_number(path, t + ": data_offsets end", offsets[1]);
    const std::string range = "data_offsets [" + std::to_string(e.begin) + ", " + std::to_string(e.end) + "]";
    if (e.end < e.begin) fail(path, t + ": " + range + " end before they begin");
    if (e.end > data_size)
        fail(path, t + ": " + range + " run past the end of the data (" + std::to_string(data_size) +
                       " bytes): the file is truncated or the offsets are wrong");
    if (e.end - e.begin != 4 * numel)
        fail(path, t + ": shape " + shape_str(e.shape) + " needs " + std::to_string(4 * numel) + " bytes of F32, but " +
                       range + " hold " + std::to_string(e.end - e.begin));
    return e;
}

// The tensors, sorted by offset, must tile [0, data_size) exactly: no overlap, no gap, nothing after.
void check_coverage(const std::string& path, std::vector<Entry>& entries, uint64_t data_size) {
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.begin != b.begin ? a.begin < b.begin : a.end < b.end; });
    uint64_t covered = 0;
    const Entry* last = nullptr;
    auto bytes = [](uint64_t a, uint64_t b) { return "bytes [" + std::to_string(a) + ", " + std::to_string(b) + ")"; };
    for (const Entry& e : entries) {
        if (e.begin < covered)
            fail(path, "tensor " + quoted(e.name) + " (" + bytes(e.begin, e.end) + " of the data) overlaps tensor " +
                           quoted(last->name) + " (" + bytes(last->begin, last->end) + ")");
        if (e.begin > covered)
            fail(path, bytes(covered, e.begin) + " of the data belong to no tensor (a gap before tensor " +
                           quoted(e.name) + ")");
        covered = e.end;
        last = &e;
    }
    if (covered != data_size)
        fail(path, bytes(covered, data_size) + " at the end of the data belong to no tensor (" +
                       std::to_string(data_size - covered) + " bytes after " +
                       (last ? "tensor " + quoted(last->name) : std::string("the header, which lists no tensor")) + ")");
}

}  // namespace

SafetensorsFile load_safetensors(const std::string& path, NonFinite non_finite) {
    std::vector<uint8_t> bytes = io::read_whole_file<SafetensorsError>(path, "safetensors file", io::kMaxFileBytes);
    if (bytes.size() < 8)
        fail(path, "truncated: " + std::to_string(bytes.size()) + " bytes, fewer than the 8 of the header length");
    io::ByteReader length(path, "the file", bytes.data(), 0, 8);
    const uint64_t n = length.u64("the header length");
    if (n > kSafetensorsMaxHeader)
        fail(path, "the header length is " + std::to_string(n) + " bytes, over the format's limit of " +
                       std::to_string(kSafetensorsMaxHeader) + " (100 MB)");
    if (n > bytes.size() - 8)
        fail(path, "truncated: the header length is " + std::to_string(n) + " bytes, longer than the " +
                       std::to_string(bytes.size() - 8) + " bytes after it");
    if (n == 0 || bytes[8] != '{') fail(path, "the header does not start with '{' (it must be a JSON object)");
    // an object, since it starts with '{' and parsed
    const Json header = parse_header(path, std::string(reinterpret_cast<const char*>(bytes.data()) + 8, n));

    SafetensorsFile file;
    file.path = path;
    const size_t data_begin = 8 + n;
    const uint64_t data_size = bytes.size() - data_begin;
    std::vector<Entry> entries;
    for (const auto& [key, value] : header.items()) {
        if (key != kMetadataKey) {
            entries.push_back(read_entry(path, key, value, data_size));
            continue;
        }
        if (!value.is_object()) fail(path, "__metadata__ is " + std::string(value.type_name()) + ", not an object");
        for (const auto& [k, v] : value.items()) {
            if (!v.is_string()) fail(path, "metadata " + quoted(k) + " is " + v.dump() + "; the format allows strings only");
            file.metadata[k] = v.get<std::string>();
        }
    }
    check_coverage(path, entries, data_size);

    for (const Entry& e : entries) {
        std::vector<float> values((e.end - e.begin) / 4);
        const uint8_t* src = bytes.data() + data_begin + e.begin;
        for (size_t i = 0; i < values.size(); ++i) values[i] = io::f32_at(src + 4 * i);
        if (non_finite == NonFinite::Refuse) check_finite(path, "refused: ", e.name, values.data(), values.size());
        file.tensors.emplace_back(e.name, tensor(values, e.shape));
    }
    return file;
}

const Tensor& SafetensorsFile::at(const std::string& name) const {
    for (const auto& [n, t] : tensors)
        if (n == name) return t;
    fail(path, "holds no tensor " + quoted(name));
}

}  // namespace pg
