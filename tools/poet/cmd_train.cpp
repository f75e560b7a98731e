// `./poet train`: flags -> TrainConfig -> train(), with Ctrl-C turned into "save and stop".
// Exit codes: 0 finished, 130 interrupted (checkpoint saved), 2 diverged (NaN/inf loss), 1 error.
// --data-parallel (under mpirun, in the MPI build) makes each process one rank of the run.
// Leaves out: the loop itself (train.cpp).
#include <cstdio>
#include <fstream>
#include "poet/commands.hpp"
#include "poet/corpus.hpp"
#include "poet/distributed.hpp"
#include "poet/train.hpp"

namespace poet {

int cmd_train(int argc, char** argv) {
    std::set<std::string> valued = train_flags();
    valued.insert({"out", "threads", "data", "step-timeout"});
    Args a(argc, argv, 2, "train", valued, {"resume", "overwrite", "data-parallel", "help"});
    if (a.on("help")) {
        std::printf("usage: ./poet train [--out NAME (poet) | /ABSOLUTE/DIR] [--resume | --overwrite] [--threads N] [--data DIR] [flags]\n"
                    "Writes runs/NAME/model.ckpt, metrics.csv and loss.svg. Ctrl-C saves and stops;\n"
                    "--resume continues a run with the settings it was started with; --overwrite starts\n"
                    "afresh over an existing run.\n"
                    "Data-parallel: ./poet train --ranks N [flags] (or mpirun -np N poet train --data-parallel\n"
                    "in the MPI build): the batch is split over N processes; --step-timeout S (600) ends\n"
                    "the run when a rank hangs. docs/DISTRIBUTED.md\n%s",
                    train_flags_help().c_str());
        return 0;
    }
    if (!a.positional().empty()) throw std::invalid_argument("train: unexpected argument '" + a.positional()[0] + "'");
    if (a.on("resume") && a.on("overwrite"))
        throw std::invalid_argument("train: --resume continues a run and --overwrite starts it afresh: give one of them");
    if (a.has("out") && a.str("out", "").empty()) throw std::invalid_argument("train: --out needs a run name, e.g. --out poet2");
    TrainOptions opt;
    if (a.has("step-timeout")) {
        opt.step_timeout_s = a.number("step-timeout", 600.f);
        if (!(opt.step_timeout_s >= 1 && opt.step_timeout_s <= 86400))
            throw std::invalid_argument("train: --step-timeout must be between 1 and 86400 seconds");
    }
    opt.out_dir = run_dir(a.str("out", "poet"));
    opt.data_dir = a.str("data", default_data_dir());
    apply_threads(a);
    opt.resume = a.on("resume");
    TrainConfig cfg;
    if (opt.resume) {
        for (const std::string& f : train_flags())
            if (a.has(f))
                throw std::invalid_argument("train --resume continues with the run's own settings; drop --" + f);
    } else {
        cfg = train_config_from(a);
        if (std::ifstream(opt.out_dir + "/model.ckpt") && !a.on("overwrite"))
            throw std::invalid_argument("train: " + opt.out_dir + " already holds a checkpoint; continue it with --resume, "
                                        "start it again with --overwrite, or pick another --out NAME");
    }
    struct EndMpi {
        ~EndMpi() { dist::stop(); }
    } end_mpi;
    if (a.on("data-parallel")) dist::start(&argc, &argv);
    if (dist::world().rank > 0) opt.show_progress = false;
    StopOnCtrlC ctrl_c;
    opt.stop = ctrl_c.stop();
    return training_exit_code(train(cfg, opt), "train", "");
}

}  // namespace poet
