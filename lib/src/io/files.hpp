// Whole files in and out, for the checkpoint and safetensors code: read a regular file into memory
// (refusing directories, FIFOs and absurd sizes), and write one atomically (path.tmp, fsync, rename).
// Leaves out: memory mapping and streaming (every file poetgrad writes fits in memory).
// `Error` is the exception to throw (CheckpointError, SafetensorsError), `kind` what the file
// should be ("checkpoint", "safetensors file"); every message starts with the path.
#pragma once
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>
#include "pg/shape.hpp"

namespace pg::io {

// The largest file read_whole_file is asked to read: one tensor's worth of float32 at the most
// (kMaxElements), and 1 GiB for everything else.
constexpr uint64_t kMaxFileBytes = kMaxElements * sizeof(float) + (uint64_t(1) << 30);

// The reason the last system call failed, as the system words it: "No space left on device".
inline std::string errno_text() { return std::strerror(errno); }

template <class Error>
std::vector<uint8_t> read_whole_file(const std::string& path, const std::string& kind, uint64_t max_bytes) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::file_status st = fs::status(path, ec);
    if (!fs::exists(st)) throw Error(path + ": cannot open: no such file");
    if (fs::is_directory(st)) throw Error(path + ": is a directory, not a " + kind);
    if (!fs::is_regular_file(st))
        throw Error(path + ": is not a regular file (a FIFO, a device or a socket), so not a " + kind);
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) throw Error(path + ": cannot open the file: " + errno_text());
    std::streamoff size = in.tellg();
    if (size < 0) throw Error(path + ": cannot tell the file's size");
    if (static_cast<uint64_t>(size) > max_bytes)
        throw Error(path + ": is " + std::to_string(size >> 30) + " GiB, larger than any " + kind + " this build reads (" +
                    std::to_string(max_bytes >> 30) + " GiB at most)");
    std::vector<uint8_t> bytes(static_cast<size_t>(size));
    in.seekg(0);
    in.read(reinterpret_cast<char*>(bytes.data()), size);
    if (!in) throw Error(path + ": read error");
    return bytes;
}

// Writes path.tmp, fsyncs it and renames it over path, so a crash never leaves a half-written
// file; on any failure path.tmp is removed and the previous file at path is kept.
template <class Error>
void write_file_atomically(const std::string& path, const std::vector<uint8_t>& bytes, const std::string& kind) {
    std::string tmp = path + ".tmp";
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) throw Error(path + ": cannot open " + tmp + " for writing: " + errno_text());
    std::string failed;   // the first step that failed, with the system's reason
    auto step_ok = [&](bool ok, const char* what) {
        if (!ok && failed.empty()) failed = std::string(what) + ": " + errno_text();
    };
    step_ok(std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size(), "writing");
    step_ok(std::fflush(f) == 0, "writing");
    step_ok(::fsync(fileno(f)) == 0, "syncing to disk");  // the bytes are on disk before the rename shows them
    step_ok(std::fclose(f) == 0, "closing");
    if (failed.empty()) step_ok(std::rename(tmp.c_str(), path.c_str()) == 0, "renaming it into place");
    if (!failed.empty()) {
        std::remove(tmp.c_str());
        throw Error(path + ": cannot write the " + kind + " (via " + tmp + "), " + failed + "; the previous " + kind +
                    ", if any, is kept");
    }
}

}  // namespace pg::io
