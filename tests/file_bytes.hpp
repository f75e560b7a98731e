// Files as bytes, for the tests that damage them (checkpoints, safetensors): a temporary path of
// this process, a whole file read, and a file written afresh.
// Leaves out: temporary folders (poet_test_util.hpp's TempDir).
#pragma once
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>
#include <vector>

namespace pg_test {

using Bytes = std::vector<uint8_t>;

// /tmp/pg_test_TAG_PID_NAME
inline std::string temp_path(const std::string& tag, const std::string& name) {
    return "/tmp/pg_test_" + tag + "_" + std::to_string(::getpid()) + "_" + name;
}

inline Bytes read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A fresh file each time: truncating a written file in place can make the filesystem flush it.
inline void write_bytes(const std::string& path, const Bytes& b) {
    std::remove(path.c_str());
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

}  // namespace pg_test
