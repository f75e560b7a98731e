// The poet CLI: `poet demo|train|write|eval|bench|export|import [flags]` (normally run through
// ./poet, which builds first). Every error ends here as one message on stderr and a non-zero exit.
// Leaves out: the commands themselves (cmd_*.cpp).
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include "poet/commands.hpp"

// The default model's logits and their gradient are 54 MB each (B*T*V floats). glibc serves
// blocks above 32 MB with a fresh mmap and unmaps them on free, so every step paid for page faults
// on new zeroed pages: 8.4 s per step instead of 2.2 s, measured side by side. Keeping large blocks
// in the heap lets each step reuse the previous step's memory.
static void keep_large_blocks_in_heap() {
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 1 << 30);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

static int usage(int code) {
    std::fprintf(code ? stderr : stdout,
                 "usage: poet COMMAND [flags]    (COMMAND --help for its flags)\n"
                 "  demo              train the default model (or reuse runs/poet/model.ckpt) and write poems\n"
                 "  train             train a model into runs/NAME/ (--out NAME, --resume)\n"
                 "  write CHAR        write quatrains for one character (--acrostic, --samples N, --free)\n"
                 "  eval [CHAR...]    validation loss, and sampling quality over N samples\n"
                 "  bench             time the default training step\n"
                 "  export --to F     the checkpoint as a safetensors file PyTorch loads (nanoGPT's names)\n"
                 "  import F --to C   a safetensors file (from export, or made in PyTorch) as a checkpoint\n");
    return code;
}

int main(int argc, char** argv) {
    if (argc < 2) return usage(poet::kExitError);
    std::string cmd = argv[1];
    keep_large_blocks_in_heap();
    try {
        if (cmd == "train") return poet::cmd_train(argc, argv);
        if (cmd == "write") return poet::cmd_write(argc, argv);
        if (cmd == "eval") return poet::cmd_eval(argc, argv);
        if (cmd == "bench") return poet::cmd_bench(argc, argv);
        if (cmd == "demo") return poet::cmd_demo(argc, argv);
        if (cmd == "export") return poet::cmd_export(argc, argv);
        if (cmd == "import") return poet::cmd_import(argc, argv);
        if (cmd == "help" || cmd == "--help" || cmd == "-h") return usage(0);
        std::fprintf(stderr, "poet: unknown command '%s'\n", cmd.c_str());
        return usage(poet::kExitError);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "poet %s: error: %s\n", cmd.c_str(), e.what());
        return poet::kExitError;
    }
}
