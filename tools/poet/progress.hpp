// The training progress bar: step, bar, loss, last validation loss, tokens/s and ETA on one line,
// redrawn in place on a terminal; on a pipe or file, one plain line every 5% instead.
// Leaves out: colours, nested bars, multi-line layouts.
#pragma once
#include <chrono>
#include <cstdio>
#include <string>

namespace poet {

class ProgressBar {
public:
    // Steps first_step+1 .. total are to come (first_step > 0 when resuming).
    ProgressBar(size_t total, size_t first_step, std::FILE* out = stderr);
    void update(size_t step, float loss, float val_loss, double tokens_per_s);
    void note(const std::string& line);   // a line printed above the bar
    void finish();                        // ends the bar's line

private:
    std::string render(size_t step, float loss, float val_loss, double tokens_per_s) const;
    size_t total_, first_;
    std::FILE* out_;
    bool tty_;
    bool drawn_ = false;
    std::chrono::steady_clock::time_point start_, last_draw_;
};

// "1h02m", "7m12s", "42s"
std::string format_duration(double seconds);

}  // namespace poet
