// `./poet export --to FILE.safetensors` and `./poet import FILE.safetensors --to CKPT`: a trained
// poet out to PyTorch (nanoGPT's names, torch's layouts; tools/reference/safetensors_torch.py loads
// it) and a safetensors file, such as one PyTorch made, back in as a checkpoint `./poet write` uses.
// Leaves out: the optimizer state (an imported checkpoint writes and evaluates, it does not resume).
#include <cstdio>
#include <filesystem>
#include "poet/commands.hpp"
#include "poet/model.hpp"
#include "poet/torch_export.hpp"

namespace poet {

int cmd_export(int argc, char** argv) {
    Args a(argc, argv, 2, "export", {"checkpoint", "to"}, {"help"});
    if (a.on("help") || !a.has("to") || !a.positional().empty()) {
        std::printf("usage: ./poet export --to FILE.safetensors [--checkpoint PATH (runs/poet/model.ckpt)]\n"
                    "Writes the checkpoint's GPT as a safetensors file under nanoGPT's names (transformer.wte.weight,\n"
                    "transformer.h.0.attn.c_attn.weight, ..., lm_head.weight), each in torch.nn's layout, with the\n"
                    "settings and the vocabulary in its metadata. tools/reference/safetensors_torch.py loads it into\n"
                    "PyTorch; ./poet import reads it back. docs/POET.md lists the names.\n");
        return a.on("help") ? 0 : kExitError;
    }
    std::string checkpoint = a.str("checkpoint", default_checkpoint()), to = a.str("to", "");
    PoetModel model = load_model(checkpoint);
    export_safetensors(model, to);
    std::printf("exported %s (step %llu, %zu parameters) to %s (%llu bytes)\n", checkpoint.c_str(),
                static_cast<unsigned long long>(model.step), model.gpt->num_parameters(), to.c_str(),
                static_cast<unsigned long long>(std::filesystem::file_size(to)));
    return 0;
}

int cmd_import(int argc, char** argv) {
    Args a(argc, argv, 2, "import", {"to"}, {"help"});
    if (a.on("help") || !a.has("to") || a.positional().size() != 1) {
        std::printf("usage: ./poet import FILE.safetensors --to CKPT\n"
                    "Reads a safetensors file that ./poet export wrote, or one made elsewhere with the same names and\n"
                    "metadata (tools/reference/safetensors_torch.py make), checks every name and shape, and writes a\n"
                    "checkpoint for ./poet write and ./poet eval (without optimizer state: it cannot resume training).\n");
        return a.on("help") ? 0 : kExitError;
    }
    const std::string& from = a.positional()[0];
    std::string to = a.str("to", "");
    PoetModel model = import_safetensors(from);
    pg::save(to, *model.gpt, nullptr, model.step, model.metadata);
    std::printf("imported %s (step %llu, %zu parameters, %zu tokens) to %s\n", from.c_str(),
                static_cast<unsigned long long>(model.step), model.gpt->num_parameters(), model.tok.size(), to.c_str());
    return 0;
}

}  // namespace poet
