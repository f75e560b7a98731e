// The poet's commands (`./poet demo|train|write|eval|bench|export|import ...`), one file each (export
// and import share cmd_export.cpp), and what they share: the flags that set a TrainConfig and where
// runs live.
// Leaves out: the bash launcher (./poet), which builds and then execs this program.
#pragma once
#include <atomic>
#include <cstdint>
#include <set>
#include <string>
#include "poet/args.hpp"
#include "poet/config.hpp"
#include "poet/steer.hpp"

namespace poet {

int cmd_train(int argc, char** argv);
int cmd_write(int argc, char** argv);
int cmd_eval(int argc, char** argv);
int cmd_bench(int argc, char** argv);
int cmd_demo(int argc, char** argv);
int cmd_export(int argc, char** argv);
int cmd_import(int argc, char** argv);

// Flags that set a TrainConfig field, and reading them over the defaults.
const std::set<std::string>& train_flags();
TrainConfig train_config_from(const Args& args);
std::string train_flags_help();

// --threads N (1 to kMaxThreads) sets pg's thread count when given; --seed S, or a fresh random
// seed when absent.
constexpr size_t kMaxThreads = 256;
constexpr size_t kMaxSamples = 10000;   // poems one write or eval asks for (written as one batch)
void apply_threads(const Args& args);
uint64_t seed_or_random(const Args& args);

// --topic W and --repeat P (steer.hpp's kTopicWeight and kRepeatPenalty when absent; 0 turns one
// off) as a Steering without its counts (set .topics once they are read). Throws
// std::invalid_argument naming the setting for a value outside [0, 100]; read before the
// checkpoint, so a wrong setting is said first.
Steering steering_options(const Args& args);
constexpr const char* kSteeringHelp =
    "--topic W (1.0): add W x PPMI(CHAR, c) to the logit of every character c the training poems\n"
    "  pair with CHAR more often than chance; --repeat P (1.0): subtract P from the logit of every\n"
    "  character the poem already holds (0 turns either off).\n";

// A quatrain's 24 characters as its two couplets on two lines, the second line after `indent`;
// anything else comes back as it was.
std::string couplets(const std::string& poem, const std::string& indent = "");

// While one lives, Ctrl-C raises stop() instead of ending the program (the training loop then
// saves and returns); a second Ctrl-C ends the program at once.
class StopOnCtrlC {
public:
    StopOnCtrlC();
    ~StopOnCtrlC();
    const std::atomic<bool>* stop() const;
};

// POET_SOURCE_DIR/runs/NAME (NAME itself when it is an absolute path), and runs/poet/model.ckpt.
std::string run_dir(const std::string& name);
std::string default_checkpoint();

// Exit codes shared by the commands.
constexpr int kExitError = 1;         // bad input, unreadable file, bad checkpoint
constexpr int kExitDiverged = 2;      // NaN or infinite loss
constexpr int kExitInterrupted = 130; // Ctrl-C (checkpoint saved)

struct TrainResult;
// How a training run ended, as the command `name` reports it: 0 when it finished; else the message
// on stderr (`resume_hint` appended after an interruption) and kExitInterrupted or kExitDiverged.
int training_exit_code(const TrainResult& r, const std::string& name, const std::string& resume_hint);

}  // namespace poet
