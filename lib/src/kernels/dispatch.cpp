// Which kernel table runs: the widest instruction set both the build has a table for and this CPU
// (and its operating system) runs, asked once when the program starts; PG_KERNELS=sse2|avx2|avx512|
// neon|reference asks for one by name. The CPU is asked through the compiler's __builtin_cpu_supports,
// which also checks that the system saves the wide registers (xsimd 8's own cpuid check reads the
// wrong bit for SSE2 and checks neither). Also the kernels' per-thread scratch memory.
// Leaves out: choosing per op or per size (one table for the whole run).
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include "table.hpp"

namespace pg::kernels {

#if defined(POETGRAD_KERNELS_X86)
extern const KernelTable kTable_avx512, kTable_avx2, kTable_sse2;
#elif defined(POETGRAD_KERNELS_NEON)
extern const KernelTable kTable_neon;
#endif

std::vector<const KernelTable*> runnable_tables() {
    std::vector<const KernelTable*> tables;
#if defined(POETGRAD_KERNELS_X86)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("fma"))
        tables.push_back(&kTable_avx512);
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) tables.push_back(&kTable_avx2);
    tables.push_back(&kTable_sse2);   // every x86-64 CPU
#elif defined(POETGRAD_KERNELS_NEON)
    tables.push_back(&kTable_neon);   // every aarch64 CPU
#endif
    tables.push_back(&reference_table());
    return tables;
}

static const KernelTable& choose() {
    std::vector<const KernelTable*> tables = runnable_tables();
    const char* wanted = std::getenv("PG_KERNELS");
    if (!wanted || !*wanted) return *tables.front();
    std::string names;
    for (const KernelTable* t : tables) {
        std::string name = t->name;
        if (name == wanted || name.substr(0, name.find('+')) == wanted) return *t;
        names += (names.empty() ? "" : ", ") + name.substr(0, name.find('+'));
    }
    std::fprintf(stderr, "PG_KERNELS=%s: no such kernel table runs on this CPU; these do: %s\n", wanted, names.c_str());
    std::exit(2);
}

const KernelTable& active() {
    static const KernelTable& table = choose();
    return table;
}

float* scratch(int slot, size_t n) {
    struct Buffer {
        std::unique_ptr<float[], void (*)(void*)> data{nullptr, std::free};
        size_t capacity = 0;
    };
    thread_local Buffer buffers[2];
    Buffer& b = buffers[slot];
    if (n > b.capacity) {
        size_t bytes = (n * sizeof(float) + 63) / 64 * 64;
        float* p = static_cast<float*>(std::aligned_alloc(64, bytes));
        if (p == nullptr) throw std::bad_alloc();
        b.data.reset(p);
        b.capacity = n;
    }
    return b.data.get();
}

}  // namespace pg::kernels
