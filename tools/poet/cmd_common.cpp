// What the commands share: the TrainConfig flags (made from the settings table in config.cpp, so
// train, bench and demo agree), --threads and --seed, --topic and --repeat (steering), a poem as two couplets, Ctrl-C as "save and
// stop", the exit code of a training run, and the runs/ layout.
// Leaves out: per-command flags (each command declares its own).
#include <csignal>
#include <cstdio>
#include <random>
#include <sstream>
#include <thread>
#include "pg/threads.hpp"
#include "poet/commands.hpp"
#include "poet/corpus.hpp"
#include "poet/quatrain.hpp"
#include "poet/train.hpp"
#include "poet/utf8.hpp"

namespace poet {

const std::set<std::string>& train_flags() {
    static const std::set<std::string> flags = [] {
        std::set<std::string> names;
        for (const Setting& s : settings()) names.insert(s.flag);
        return names;
    }();
    return flags;
}

TrainConfig train_config_from(const Args& a) {
    TrainConfig c;
    for (const Setting& s : settings()) {
        if (auto f = std::get_if<size_t TrainConfig::*>(&s.field)) c.**f = a.size(s.flag, c.**f);
        else if (auto f = std::get_if<float TrainConfig::*>(&s.field)) c.**f = a.number(s.flag, c.**f);
        else c.*std::get<std::string TrainConfig::*>(s.field) = a.str(s.flag, c.*std::get<std::string TrainConfig::*>(s.field));
    }
    // two defaults that follow other settings unless given
    if (!a.has("warmup")) c.warmup = default_warmup(c.steps);
    if (!a.has("min-lr") && a.has("lr")) c.min_lr = c.lr / 10;   // else TrainConfig's own, as the demo trains
    validate(c);
    return c;
}

std::string train_flags_help() {
    const TrainConfig d;
    std::string help, group;
    for (const Setting& s : settings()) {
        if (s.group != group) {
            group = s.group;
            char head[16];
            std::snprintf(head, sizeof head, "%-10s", (group + ":").c_str());
            help += (help.empty() ? "" : "\n") + std::string(head);
        }
        std::string value;
        if (s.default_note) value = s.default_note;
        else if (auto f = std::get_if<size_t TrainConfig::*>(&s.field)) value = std::to_string(d.**f);
        else if (auto f = std::get_if<float TrainConfig::*>(&s.field)) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%g", static_cast<double>(d.**f));
            value = buf;
        } else value = d.*std::get<std::string TrainConfig::*>(s.field);
        std::string item = " --" + std::string(s.flag) + " " + s.value + " (" + value + ")";
        size_t line_start = help.rfind('\n') == std::string::npos ? 0 : help.rfind('\n') + 1;
        if (help.size() - line_start + item.size() > 100) help += "\n" + std::string(10, ' ');   // wrap long groups
        help += item;
    }
    return help + "\n";
}

int training_exit_code(const TrainResult& r, const std::string& name, const std::string& resume_hint) {
    if (r.status == TrainStatus::Interrupted) {
        std::fprintf(stderr, "poet %s: %s%s\n", name.c_str(), r.message.c_str(), resume_hint.c_str());
        return kExitInterrupted;
    }
    if (r.status == TrainStatus::Diverged) {
        std::fprintf(stderr, "poet %s: error: %s\n", name.c_str(), r.message.c_str());
        return kExitDiverged;
    }
    return 0;
}

void apply_threads(const Args& a) {
    if (!a.has("threads")) return;
    size_t n = a.size("threads", 0);
    if (n < 1 || n > kMaxThreads)
        throw std::invalid_argument("--threads " + std::to_string(n) + " must be between 1 and " +
                                    std::to_string(kMaxThreads) + " (this machine has " +
                                    std::to_string(std::thread::hardware_concurrency()) + " cores)");
    pg::set_num_threads(n);
}

uint64_t seed_or_random(const Args& a) { return a.has("seed") ? a.size("seed", 0) : std::random_device{}(); }

std::string couplets(const std::string& poem, const std::string& indent) {
    std::u32string t = decode_utf8(poem);
    if (t.size() != quatrain::kLength) return poem;
    const size_t half = quatrain::kLength / 2;   // two lines of 5 characters and their marks
    return encode_utf8(t.substr(0, half)) + "\n" + indent + encode_utf8(t.substr(half));
}

namespace {

std::atomic<bool> g_stop{false};

extern "C" void on_sigint(int) {
    g_stop.store(true);
    std::signal(SIGINT, SIG_DFL);   // a second Ctrl-C ends the program at once (the saved file stays whole)
}

}  // namespace

StopOnCtrlC::StopOnCtrlC() {
    g_stop.store(false);
    std::signal(SIGINT, on_sigint);
}

StopOnCtrlC::~StopOnCtrlC() { std::signal(SIGINT, SIG_DFL); }

const std::atomic<bool>* StopOnCtrlC::stop() const { return &g_stop; }

Steering steering_options(const Args& a) {
    Steering s;
    s.topic_weight = a.number("topic", kTopicWeight);
    s.repeat_penalty = a.number("repeat", kRepeatPenalty);
    // a logit moved by more than 100 nats decides alone: the model would no longer be heard
    for (auto [name, v] : {std::pair<const char*, float>{"topic", s.topic_weight}, {"repeat", s.repeat_penalty}})
        if (!(v >= 0.f && v <= 100.f)) {
            std::ostringstream given;
            given << v;
            throw std::invalid_argument("--" + std::string(name) + " " + given.str() + " must be between 0 (off) and 100");
        }
    return s;
}

std::string run_dir(const std::string& name) {
    return !name.empty() && name.front() == '/' ? name : std::string(POET_SOURCE_DIR) + "/runs/" + name;
}

std::string default_checkpoint() { return run_dir("poet") + "/model.ckpt"; }

}  // namespace poet
