// Reads the reference fixtures written by tools/reference/fixture_io.py: named float32 tensors.
// Layout, repeated: u32 name length, name, u32 rank, u64 dims[rank], f32 values.
#pragma once
#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <pg/pg.hpp>

namespace fixture {

inline std::string path(const std::string& relative) { return std::string(PG_SOURCE_DIR) + "/tests/reference/" + relative; }

inline std::map<std::string, pg::Tensor> read(const std::string& relative) {
    std::string file = path(relative);
    std::ifstream in(file, std::ios::binary);
    if (!in) throw std::runtime_error("fixture: cannot open " + file);
    std::map<std::string, pg::Tensor> out;
    auto get = [&](void* p, size_t n) {
        in.read(static_cast<char*>(p), static_cast<std::streamsize>(n));
        if (!in) throw std::runtime_error("fixture: " + file + " is truncated");
    };
    while (in.peek() != EOF) {
        uint32_t len = 0, rank = 0;
        get(&len, 4);
        std::string name(len, '\0');
        get(name.data(), len);
        get(&rank, 4);
        pg::Shape shape(rank);
        for (auto& d : shape) {
            uint64_t v = 0;
            get(&v, 8);
            d = static_cast<size_t>(v);
        }
        std::vector<float> values(pg::numel_of(shape));
        get(values.data(), values.size() * 4);
        out.emplace(name, pg::tensor(values, shape));
    }
    return out;
}

inline const pg::Tensor& at(const std::map<std::string, pg::Tensor>& f, const std::string& name) {
    auto it = f.find(name);
    if (it == f.end()) throw std::runtime_error("fixture: no tensor named " + name);
    return it->second;
}

// max |a - b| / (|b| + floor) over all elements; shapes must agree.
inline double max_rel_diff(const pg::Tensor& a, const pg::Tensor& b, double floor = 1e-6) {
    if (a.shape() != b.shape())
        throw std::runtime_error("fixture: shape " + pg::shape_str(a.shape()) + " vs " + pg::shape_str(b.shape()));
    double worst = 0;
    for (size_t i = 0; i < a.numel(); ++i) {
        double d = std::fabs(double(a.ptr()[i]) - b.ptr()[i]) / (std::fabs(double(b.ptr()[i])) + floor);
        if (std::isnan(d)) return INFINITY;
        worst = std::max(worst, d);
    }
    return worst;
}

}  // namespace fixture
