// Little-endian encoding for checkpoints and safetensors files: a growing byte buffer to write
// into, a bounds-checked reader that throws CheckpointError instead of reading past its end, a
// float32 read from four bytes, and FNV-1a 64 checksums.
// Leaves out: big-endian hosts' native order (every value is encoded byte by byte).
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>
#include "pg/io/checkpoint.hpp"

namespace pg::io {

// FNV-1a, 64-bit: h = (h ^ byte) * 0x100000001b3 for each byte, from 0xcbf29ce484222325.
inline uint64_t fnv1a64(const uint8_t* data, size_t n) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; ++i) h = (h ^ data[i]) * 0x100000001b3ull;
    return h;
}

// The float32 stored little-endian at p.
inline float f32_at(const uint8_t* p) {
    uint32_t bits = static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 | static_cast<uint32_t>(p[2]) << 16 |
                    static_cast<uint32_t>(p[3]) << 24;
    float v;
    std::memcpy(&v, &bits, 4);
    return v;
}

struct ByteWriter {
    std::vector<uint8_t> bytes;
    void u8(uint8_t v) { bytes.push_back(v); }
    void u32(uint32_t v) {
        for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<uint8_t>(v >> (8 * i)));
    }
    void u64(uint64_t v) {
        for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<uint8_t>(v >> (8 * i)));
    }
    void f32(float v) {
        uint32_t bits;
        std::memcpy(&bits, &v, 4);
        u32(bits);
    }
    void raw(const std::string& s) { bytes.insert(bytes.end(), s.begin(), s.end()); }
};

// Reads [pos, end) of a buffer; every read first checks that the bytes it needs are there.
// `file` and `region` ("the file", "the header") make the error messages.
class ByteReader {
public:
    ByteReader(std::string file, std::string region, const uint8_t* data, size_t begin, size_t end)
        : file_(std::move(file)), region_(std::move(region)), data_(data), pos_(begin), end_(end) {}

    size_t pos() const { return pos_; }
    size_t remaining() const { return end_ - pos_; }

    uint8_t u8(const char* what) { return static_cast<uint8_t>(little_endian(1, what)); }
    uint32_t u32(const char* what) { return static_cast<uint32_t>(little_endian(4, what)); }
    uint64_t u64(const char* what) { return little_endian(8, what); }
    std::string str(size_t n, const char* what) {
        need(n, what);
        std::string s(reinterpret_cast<const char*>(data_ + pos_), n);
        pos_ += n;
        return s;
    }
    void need(size_t n, const char* what) const {
        if (n > end_ - pos_)
            throw CheckpointError(file_ + ": truncated: " + what + " needs " + std::to_string(n) + " bytes at byte " +
                                  std::to_string(pos_) + " but " + region_ + " ends at byte " + std::to_string(end_));
    }

private:
    uint64_t little_endian(int n, const char* what) {
        need(static_cast<size_t>(n), what);
        uint64_t v = 0;
        for (int i = 0; i < n; ++i) v |= static_cast<uint64_t>(data_[pos_ + i]) << (8 * i);
        pos_ += static_cast<size_t>(n);
        return v;
    }
    std::string file_, region_;
    const uint8_t* data_;
    size_t pos_, end_;
};

}  // namespace pg::io
