// The training log: one CSV row per step (runs/NAME/metrics.csv), read back on --resume so the
// log and the loss curve continue where the checkpoint left off.
// Leaves out: JSON, TensorBoard, anything but plain CSV.
#pragma once
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

namespace poet {

struct MetricRow {
    size_t step = 0;            // steps done, counted from 1
    float lr = 0.f, loss = 0.f, grad_norm = 0.f;
    float val_loss = NAN;       // NaN when validation did not run at this step
    double tokens_per_s = 0, elapsed_s = 0;
};

// Rows of an existing metrics.csv with step <= max_step; throws std::runtime_error naming the
// file and line when it is malformed. A missing file gives no rows.
std::vector<MetricRow> read_metrics(const std::string& path, size_t max_step);

class MetricsWriter {
public:
    // Rewrites `path` with the header and `previous` rows, then appends as training goes.
    MetricsWriter(const std::string& path, const std::vector<MetricRow>& previous);
    void append(const MetricRow& row);   // flushed at once, so a crash loses at most one row
private:
    std::ofstream out_;
    std::string path_;
};

}  // namespace poet
