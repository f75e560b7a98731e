// The loss curve as a standalone SVG (drawn with tools/svg/svg.hpp): training loss (raw, faint, and
// smoothed) and validation loss against the step, with labelled axes. Written to runs/NAME/loss.svg
// at the end of training; lesson 22 draws its own run's, in each language.
// Leaves out: interactivity, log scales, several runs in one plot.
#pragma once
#include <string>
#include <vector>
#include "poet/metrics.hpp"

namespace poet {

// The words on the picture; English by default.
struct LossLabels {
    std::string x_axis = "step", y_axis = "cross-entropy (nats per character)";
    std::string train = "train (smoothed)", validation = "validation", empty = "no steps yet";
};

// The SVG text for these rows (empty rows give an empty plot with a note).
std::string loss_curve_svg(const std::vector<MetricRow>& rows, const std::string& title, const LossLabels& labels = {});

// Writes loss_curve_svg atomically (temporary file, then rename); throws std::runtime_error on failure.
void write_loss_svg(const std::string& path, const std::vector<MetricRow>& rows, const std::string& title,
                    const LossLabels& labels = {});

}  // namespace poet
