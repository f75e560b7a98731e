// Lesson 21's picture: optimizer trajectories over the contour lines of a 2-D function, and beside
// them f against the step on a log scale, as one SVG drawn with svg.hpp's shapes (tools/svg/svg.hpp).
// Contours by marching squares on a grid; every coordinate rounded to 0.1 pixel, so the file is
// the same on every run. Leaves out: labels on the contour lines, zoom, axes beyond ticks.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>
#include "svg.hpp"

namespace valley_svg {

struct Path {
    std::string label, color;
    std::vector<std::pair<float, float>> points;   // (x, y) in the function's coordinates
    std::vector<float> f;                           // f at each point, > 0
};

struct Frame {
    double x0, x1, y0, y1;                     // the region drawn
    double left = 50, top = 30, size = 500;    // the square plot, in pixels
    double px(double x) const { return left + (x - x0) / (x1 - x0) * size; }
    double py(double y) const { return top + (y1 - y) / (y1 - y0) * size; }
};

inline std::string xy(double a, double b) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.1f %.1f", a, b);
    return buf;
}

// The segments where f crosses `level`, one "M a L b" per crossed grid cell (n x n cells).
inline std::string contour(const std::function<double(double, double)>& f, double level, const Frame& fr, int n) {
    std::string d;
    auto at = [&](int i, int j) { return f(fr.x0 + (fr.x1 - fr.x0) * i / n, fr.y0 + (fr.y1 - fr.y0) * j / n) - level; };
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            // corners counter-clockwise from bottom-left, as (i, j) offsets and values
            const int ci[4] = {0, 1, 1, 0}, cj[4] = {0, 0, 1, 1};
            double v[4];
            for (int k = 0; k < 4; ++k) v[k] = at(i + ci[k], j + cj[k]);
            std::vector<std::pair<double, double>> cross;   // where the level cuts the cell's edges
            for (int k = 0; k < 4; ++k) {
                int l = (k + 1) % 4;
                if ((v[k] < 0) == (v[l] < 0)) continue;
                double s = v[k] / (v[k] - v[l]);
                double gi = i + ci[k] + s * (ci[l] - ci[k]), gj = j + cj[k] + s * (cj[l] - cj[k]);
                cross.emplace_back(fr.px(fr.x0 + (fr.x1 - fr.x0) * gi / n), fr.py(fr.y0 + (fr.y1 - fr.y0) * gj / n));
            }
            for (size_t k = 0; k + 1 < cross.size(); k += 2)
                d += "M" + xy(cross[k].first, cross[k].second) + "L" + xy(cross[k + 1].first, cross[k + 1].second);
        }
    return d;
}

// The words of the picture, in the reader's language.
struct Words {
    std::string title;                          // above the contours
    std::string curves = "f against the step";  // above the panel of f against the step
};

// Writes the SVG through svg.hpp's shapes: contours of f at `levels`, a cross at `target`, each path
// as a line with a dot every `dot_every` points and a large one at its end, a legend, and ticks at
// the whole numbers; under the legend, log10 f against the step for each path, decades from 1e-4 to 100.
inline void write(const std::string& file, const Words& words, const std::function<double(double, double)>& f,
                  const std::vector<double>& levels, std::pair<double, double> target, const std::vector<Path>& paths,
                  const Frame& fr, size_t dot_every) {
    const double fs = 13;
    std::string s = svg::header(920, 580, fs) + svg::text(50, 20, fs, words.title);
    s += svg::rect(fr.left, fr.top, fr.size, fr.size, "fill=\"none\" stroke=\"#888\"");
    for (double lv : levels)
        s += svg::path(contour(f, lv, fr, 160), "fill=\"none\" stroke=\"#c8c8c8\" stroke-width=\"1\"");
    for (int x = static_cast<int>(std::ceil(fr.x0)); x <= fr.x1; ++x)
        s += svg::text(fr.px(x), fr.top + fr.size + 18, fs, std::to_string(x), "middle");
    for (int y = static_cast<int>(std::ceil(fr.y0)); y <= fr.y1; ++y)
        s += svg::text(fr.left - 8, fr.py(y) + 4, fs, std::to_string(y), "end");
    s += svg::text(fr.left + fr.size + 8, fr.top + fr.size + 18, fs, "x") + svg::text(fr.left - 30, fr.top + 12, fs, "y");
    s += svg::path("M" + xy(fr.px(target.first) - 4, fr.py(target.second) - 4) + "l8 8m0 -8l-8 8",
                   "stroke=\"black\" stroke-width=\"2\"");
    double legend_y = fr.top + 10;
    for (const Path& p : paths) {
        std::string line;
        for (size_t k = 0; k < p.points.size(); ++k)
            line += (k ? "L" : "M") + xy(fr.px(p.points[k].first), fr.py(p.points[k].second));
        s += svg::path(line, "fill=\"none\" stroke=\"" + p.color + "\" stroke-width=\"1.5\"");
        for (size_t k = 0; k < p.points.size(); k += dot_every)
            s += svg::circle(fr.px(p.points[k].first), fr.py(p.points[k].second), 2, "fill=\"" + p.color + "\"");
        s += svg::circle(fr.px(p.points.back().first), fr.py(p.points.back().second), 4.5,
                         "fill=\"" + p.color + "\" stroke=\"white\"");
        s += svg::line(fr.left + fr.size + 16, legend_y, fr.left + fr.size + 40, legend_y,
                       "stroke=\"" + p.color + "\" stroke-width=\"3\"") +
             svg::text(fr.left + fr.size + 46, legend_y + 4, fs, p.label);
        legend_y += 22;
    }
    const double cl = fr.left + fr.size + 70, ct = legend_y + 30, cw = 260, ch = 300;   // the curves' panel
    auto cx = [&](size_t k, size_t n) { return cl + cw * static_cast<double>(k) / static_cast<double>(n - 1); };
    auto cy = [&](double v) { return ct + ch * (2 - std::log10(std::max(v, 1e-4))) / 6; };
    s += svg::rect(cl, ct, cw, ch, "fill=\"none\" stroke=\"#888\"");
    for (int e = -4; e <= 2; ++e) s += svg::text(cl - 6, cy(std::pow(10.0, e)) + 4, fs, "1e" + std::to_string(e), "end");
    s += svg::text(cl, ct - 8, fs, words.curves) +
         svg::text(cl + cw, ct + ch + 18, fs, std::to_string(paths.front().f.size() - 1), "end") +
         svg::text(cl, ct + ch + 18, fs, "0");
    for (const Path& p : paths) {
        std::string line;
        for (size_t k = 0; k < p.f.size(); ++k) line += (k ? "L" : "M") + xy(cx(k, p.f.size()), cy(p.f[k]));
        s += svg::path(line, "fill=\"none\" stroke=\"" + p.color + "\" stroke-width=\"1.5\"");
    }
    svg::write_file(file, s + svg::footer());
    svg::check_file(file);
}

}  // namespace valley_svg
