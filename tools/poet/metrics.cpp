// CSV with a fixed header: step,lr,loss,grad_norm,val_loss,tokens_per_s,elapsed_s.
// Leaves out: quoting (every field is a number or empty).
#include "poet/metrics.hpp"
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace poet {

static const char* const kHeader = "step,lr,loss,grad_norm,val_loss,tokens_per_s,elapsed_s";

static std::string format_row(const MetricRow& r) {
    char buf[256];
    std::string val;
    if (!std::isnan(r.val_loss)) {
        char v[32];
        std::snprintf(v, sizeof v, "%.6f", static_cast<double>(r.val_loss));
        val = v;
    }
    std::snprintf(buf, sizeof buf, "%zu,%.6g,%.6f,%.4f,%s,%.1f,%.2f", r.step, static_cast<double>(r.lr),
                  static_cast<double>(r.loss), static_cast<double>(r.grad_norm), val.c_str(), r.tokens_per_s, r.elapsed_s);
    return buf;
}

std::vector<MetricRow> read_metrics(const std::string& path, size_t max_step) {
    std::vector<MetricRow> rows;
    std::ifstream in(path);
    if (!in) return rows;
    std::string line;
    size_t line_no = 0;
    while (std::getline(in, line)) {
        ++line_no;
        if (line_no == 1) {
            if (line != kHeader) throw std::runtime_error(path + ":1: unexpected header '" + line + "'");
            continue;
        }
        std::vector<std::string> f;
        std::stringstream ss(line);
        std::string field;
        while (std::getline(ss, field, ',')) f.push_back(field);
        if (line.back() == ',') f.push_back("");
        if (f.size() != 7) throw std::runtime_error(path + ":" + std::to_string(line_no) + ": expected 7 fields");
        try {
            MetricRow r;
            r.step = std::stoul(f[0]);
            r.lr = std::stof(f[1]);
            r.loss = std::stof(f[2]);
            r.grad_norm = std::stof(f[3]);
            r.val_loss = f[4].empty() ? NAN : std::stof(f[4]);
            r.tokens_per_s = std::stod(f[5]);
            r.elapsed_s = std::stod(f[6]);
            if (r.step <= max_step) rows.push_back(r);
        } catch (const std::logic_error&) {
            throw std::runtime_error(path + ":" + std::to_string(line_no) + ": malformed row '" + line + "'");
        }
    }
    return rows;
}

MetricsWriter::MetricsWriter(const std::string& path, const std::vector<MetricRow>& previous)
    : out_(path, std::ios::trunc), path_(path) {
    if (!out_) throw std::runtime_error("metrics: cannot write " + path);
    out_ << kHeader << '\n';
    for (const MetricRow& r : previous) out_ << format_row(r) << '\n';
    out_.flush();
}

void MetricsWriter::append(const MetricRow& row) {
    out_ << format_row(row) << '\n';
    out_.flush();
    if (!out_) throw std::runtime_error("metrics: cannot write " + path_);
}

}  // namespace poet
