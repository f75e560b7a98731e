// SVG pictures as text, for the lessons and the poet alike: the shapes a picture is made of
// (header, rect, line, circle, polyline, path, text, footer), heatmaps (rows = queries, columns =
// keys, the value in each cell), a line plot, a computation graph through Graphviz's `dot`, and a
// well-formedness check a program runs on what it wrote. Every number is printed with fixed
// decimals: the same input gives the same bytes.
// Leaves out: interactivity, legends beyond one line per series, log scales, embedded fonts.
#pragma once
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace svg {

// v with `decimals` digits after the point; never "-0.0".
inline std::string fixed(double v, int decimals) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    std::string s = buf;
    if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);
    return s;
}

// Writes text to path through a temporary file and a rename; throws std::runtime_error on failure.
inline void write_file(const std::string& path, const std::string& text) {
    const std::string tmp = path + ".partial";
    {
        std::ofstream out(tmp, std::ios::binary);
        out << text;
        if (!out) throw std::runtime_error("cannot write " + tmp);
    }
    std::filesystem::rename(tmp, path);
}

inline std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// ---- small pieces ----

// Text as XML character data: & < > " escaped.
inline std::string escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '&') out += "&amp;";
        else if (c == '<') out += "&lt;";
        else if (c == '>') out += "&gt;";
        else if (c == '"') out += "&quot;";
        else out += c;
    }
    return out;
}

// Roughly how wide text is at font size fs: 0.6 fs per ASCII character, fs per other (CJK) one.
inline double text_width(const std::string& s, double fs) {
    double w = 0;
    for (unsigned char c : s) {
        if (c < 0x80) w += 0.6 * fs;
        else if ((c & 0xC0) != 0x80) w += fs;   // the first byte of a UTF-8 character
    }
    return w;
}

inline std::string px(double v) { return fixed(v, 1); }   // coordinates: one decimal, always

// The file's start: the <svg> element on a white background. font_size > 0: the size of every text
// that does not set its own.
inline std::string header(double width, double height, double font_size = 0) {
    std::ostringstream o;
    o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << px(width) << "\" height=\"" << px(height)
      << "\" viewBox=\"0 0 " << px(width) << ' ' << px(height) << "\" font-family=\"Noto Sans CJK SC, "
      << "Source Han Sans SC, WenQuanYi Zen Hei, DejaVu Sans, sans-serif\"";
    if (font_size > 0) o << " font-size=\"" << px(font_size) << '"';
    o << ">\n<rect width=\"" << px(width) << "\" height=\"" << px(height) << "\" fill=\"white\"/>\n";
    return o.str();
}

inline std::string footer() { return "</svg>\n"; }

// A shape; `attributes` is written as it is: "fill=\"none\" stroke=\"#888\"".
inline std::string rect(double x, double y, double width, double height, const std::string& attributes) {
    return "<rect x=\"" + px(x) + "\" y=\"" + px(y) + "\" width=\"" + px(width) + "\" height=\"" + px(height) + "\" " +
           attributes + "/>\n";
}

inline std::string line(double x1, double y1, double x2, double y2, const std::string& attributes = "") {
    return "<line x1=\"" + px(x1) + "\" y1=\"" + px(y1) + "\" x2=\"" + px(x2) + "\" y2=\"" + px(y2) + '"' +
           (attributes.empty() ? "" : " " + attributes) + "/>\n";
}

// A whole radius is written without decimals ("3"), any other with one.
inline std::string circle(double cx, double cy, double r, const std::string& attributes) {
    return "<circle cx=\"" + px(cx) + "\" cy=\"" + px(cy) + "\" r=\"" + fixed(r, r == std::round(r) ? 0 : 1) + "\" " +
           attributes + "/>\n";
}

// d: the path's commands as SVG writes them ("M 10.0 20.0 L 30.0 40.0").
inline std::string path(const std::string& d, const std::string& attributes) {
    return "<path " + attributes + " d=\"" + d + "\"/>\n";
}

inline std::string polyline(const std::vector<std::pair<double, double>>& points, const std::string& attributes) {
    std::string s = "<polyline " + attributes + " points=\"";
    for (size_t i = 0; i < points.size(); ++i) s += (i ? " " : "") + px(points[i].first) + ',' + px(points[i].second);
    return s + "\"/>\n";
}

inline std::string text(double x, double y, double fs, const std::string& s, const std::string& anchor = "start",
                        const std::string& extra = "") {
    std::ostringstream o;
    o << "<text x=\"" << px(x) << "\" y=\"" << px(y) << "\" font-size=\"" << px(fs) << "\"";
    if (anchor != "start") o << " text-anchor=\"" << anchor << "\"";
    if (!extra.empty()) o << ' ' << extra;
    o << '>' << escape(s) << "</text>\n";
    return o.str();
}

// ---- heatmaps ----

struct Heatmap {
    std::string title;                          // above the map
    std::vector<std::vector<double>> values;    // R rows of C values
    std::vector<std::string> row_labels;        // R: the queries
    std::vector<std::string> col_labels;        // C: the keys
    std::string row_axis = "query", col_axis = "key";
    int decimals = 2;                           // digits of the number in each cell; -1: no numbers
    double lo = 0.0, hi = 1.0;                  // colour scale: lo white, hi dark blue
    std::vector<std::vector<std::string>> cell_text;  // optional R x C: written instead of the number
    std::vector<std::vector<bool>> masked;            // optional R x C: drawn grey (a masked cell)
    double cell = 46;                           // side of a cell in px
    double font = 0;                            // font size of the labels and numbers in px; 0: 0.32 cell, at most 13
};

inline double font_of(const Heatmap& m) { return m.font > 0 ? m.font : std::min(13.0, m.cell * 0.32); }

// What a heatmap figure holds, to compare with what is read back from the file.
struct HeatmapCounts {
    size_t maps = 0, cells = 0, masked = 0, numbers = 0, labels = 0;
    size_t rects() const { return 1 + maps + cells; }                   // background, a border per map, cells
    size_t texts(bool titled) const { return (titled ? 1 : 0) + 3 * maps + labels + numbers; }  // + title, 2 axis names
};

// The maps side by side, per_row of them in a row (0: all in one row), under an optional title.
inline std::string heatmaps(const std::vector<Heatmap>& maps, const std::string& title, size_t per_row = 0,
                            HeatmapCounts* counts = nullptr) {
    if (maps.empty()) throw std::invalid_argument("svg::heatmaps: no maps");
    if (per_row == 0) per_row = maps.size();
    HeatmapCounts n;
    struct Box { double left, top, w, h; };
    std::vector<Box> boxes;
    for (const Heatmap& m : maps) {
        const size_t R = m.values.size(), C = R ? m.values[0].size() : 0;
        if (m.row_labels.size() != R || m.col_labels.size() != C)
            throw std::invalid_argument("svg::heatmaps: '" + m.title + "' has " + std::to_string(R) + " x " +
                                        std::to_string(C) + " values but " + std::to_string(m.row_labels.size()) +
                                        " row and " + std::to_string(m.col_labels.size()) + " column labels");
        const double fs = font_of(m);
        double label_w = 0;
        for (const auto& l : m.row_labels) label_w = std::max(label_w, text_width(l, fs));
        // the row axis name sits in the corner above the row labels, the column axis name above the columns
        const double left = std::max(label_w + 8, text_width(m.row_axis + " \u2193", 11)) + 6,
                     top = 18 + 16 + fs + 6;   // title, axis name, labels
        boxes.push_back({left, top,
                         std::max(left + m.cell * static_cast<double>(C), text_width(m.title, 13)) + 24,
                         top + m.cell * static_cast<double>(R) + 16});
    }
    // rows of panels: each panel's width and each row's height are the largest of its own
    const size_t rows = (maps.size() + per_row - 1) / per_row;
    std::vector<double> col_w(per_row, 0), row_h(rows, 0);
    for (size_t i = 0; i < maps.size(); ++i) {
        col_w[i % per_row] = std::max(col_w[i % per_row], boxes[i].w);
        row_h[i / per_row] = std::max(row_h[i / per_row], boxes[i].h);
    }
    const double title_h = title.empty() ? 8 : 30;
    double width = 10, height = title_h;
    for (double w : col_w) width += w;
    for (double h : row_h) height += h;
    width = std::max(width + 10, title.empty() ? 0.0 : text_width(title, 14) + 20);
    height += 6;

    std::ostringstream o;
    o << header(width, height);
    if (!title.empty()) o << text(10, 20, 14, title);
    for (size_t i = 0; i < maps.size(); ++i) {
        const Heatmap& m = maps[i];
        const size_t R = m.values.size(), C = m.values[0].size();
        double ox = 10, oy = title_h;
        for (size_t c = 0; c < i % per_row; ++c) ox += col_w[c];
        for (size_t r = 0; r < i / per_row; ++r) oy += row_h[r];
        const double x0 = ox + boxes[i].left, y0 = oy + boxes[i].top, cell = m.cell;
        const double fs = font_of(m), cw = cell * static_cast<double>(C), ch = cell * static_cast<double>(R);
        ++n.maps;
        o << text(ox, oy + 14, 13, m.title, "start", "font-weight=\"bold\"");
        o << text(x0 + cw / 2, oy + 30, 11, m.col_axis + " \u2192", "middle", "fill=\"#555\"");
        o << text(x0 - 5, oy + 30, 11, m.row_axis + " \u2193", "end", "fill=\"#555\"");
        for (size_t r = 0; r < R; ++r) {
            if (m.values[r].size() != C) throw std::invalid_argument("svg::heatmaps: '" + m.title + "' rows differ in length");
            for (size_t c = 0; c < C; ++c) {
                const bool masked = !m.masked.empty() && m.masked[r][c];
                const double v = m.values[r][c];
                double t = (v - m.lo) / (m.hi - m.lo);
                t = std::isfinite(t) ? std::min(1.0, std::max(0.0, t)) : 0.0;
                const double x = x0 + cell * static_cast<double>(c), y = y0 + cell * static_cast<double>(r);
                ++n.cells;
                if (masked) ++n.masked;
                o << rect(x, y, cell, cell,
                          masked ? "fill=\"#e8e8e8\"" : "fill=\"#08306b\" fill-opacity=\"" + fixed(t, 2) + '"');
                std::string s = !m.cell_text.empty() ? m.cell_text[r][c]
                                : (m.decimals >= 0 && !masked) ? fixed(v, m.decimals) : "";
                if (!s.empty()) {
                    ++n.numbers;
                    o << text(x + cell / 2, y + cell / 2 + fs * 0.35, fs, s, "middle",
                              std::string("fill=\"") + (!masked && t > 0.55 ? "white" : "#222") + '"');
                }
            }
        }
        o << rect(x0, y0, cw, ch, "fill=\"none\" stroke=\"#888\"");
        for (size_t r = 0; r < R; ++r, ++n.labels)
            o << text(x0 - 5, y0 + cell * (static_cast<double>(r) + 0.5) + fs * 0.35, fs, m.row_labels[r], "end");
        for (size_t c = 0; c < C; ++c, ++n.labels)
            o << text(x0 + cell * (static_cast<double>(c) + 0.5), y0 - 6, fs, m.col_labels[c], "middle");
    }
    o << footer();
    if (counts) *counts = n;
    return o.str();
}

inline std::string heatmap(const Heatmap& m, HeatmapCounts* counts = nullptr) { return heatmaps({m}, "", 1, counts); }


// ---- a line plot ----

struct Series {
    std::string name;
    std::vector<std::pair<double, double>> points;   // (x, y), in order of x
    std::string color = "#08519c";
    bool dots = false;                                // a dot at every point as well
};

struct LinePlot {
    std::string title, x_label, y_label;
    std::vector<Series> series;
    double width = 560, height = 340;
    bool y_from_zero = false;                         // the y axis starts at 0
};

// Ticks at 1, 2 or 5 times a power of ten covering [lo, hi]; sets decimals to what they need.
inline std::vector<double> nice_ticks(double lo, double hi, int& decimals) {
    if (!(hi > lo)) hi = lo + 1;
    const double raw = (hi - lo) / 5, p = std::pow(10.0, std::floor(std::log10(raw))), f = raw / p;
    const double step = (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
    decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
    std::vector<double> ticks;
    for (double t = std::ceil(lo / step - 1e-9) * step; t <= hi + step * 1e-9; t += step)
        ticks.push_back(std::fabs(t) < step * 1e-9 ? 0.0 : t);
    return ticks;
}

// What a line plot holds, to compare with what is read back: one <polyline> per series, a <circle>
// per dot, the tick labels.
struct PlotCounts {
    size_t polylines = 0, circles = 0, ticks = 0;
};

inline std::string line_plot(const LinePlot& p, PlotCounts* counts = nullptr) {
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    for (const Series& s : p.series)
        for (auto [x, y] : s.points) {
            xlo = std::min(xlo, x), xhi = std::max(xhi, x), ylo = std::min(ylo, y), yhi = std::max(yhi, y);
        }
    if (!std::isfinite(xlo)) throw std::invalid_argument("svg::line_plot: no points");
    if (p.y_from_zero) ylo = std::min(ylo, 0.0);
    int xd = 0, yd = 0;
    std::vector<double> xt = nice_ticks(xlo, xhi, xd), yt = nice_ticks(ylo, yhi, yd);
    xlo = std::min(xlo, xt.front()), xhi = std::max(xhi, xt.back());
    ylo = std::min(ylo, yt.front()), yhi = std::max(yhi, yt.back());
    if (!(xhi > xlo)) xhi = xlo + 1;
    if (!(yhi > ylo)) yhi = ylo + 1;
    const double L = 64, R = 20, T = 36, B = 48, pw = p.width - L - R, ph = p.height - T - B;
    auto X = [&](double x) { return L + (x - xlo) / (xhi - xlo) * pw; };
    auto Y = [&](double y) { return T + (yhi - y) / (yhi - ylo) * ph; };
    PlotCounts n;
    std::ostringstream o;
    o << header(p.width, p.height) << text(10, 20, 14, p.title);
    o << "<g stroke=\"#ddd\">\n";
    for (double t : yt) o << line(L, Y(t), L + pw, Y(t));
    o << "</g>\n" << rect(L, T, pw, ph, "fill=\"none\" stroke=\"#888\"");
    for (double t : xt) o << text(X(t), T + ph + 16, 11, fixed(t, xd), "middle"), ++n.ticks;
    for (double t : yt) o << text(L - 6, Y(t) + 4, 11, fixed(t, yd), "end"), ++n.ticks;
    o << text(L + pw / 2, p.height - 10, 12, p.x_label, "middle");
    o << text(14, T + ph / 2, 12, p.y_label, "middle", "transform=\"rotate(-90 14 " + px(T + ph / 2) + ")\"");
    double legend_y = T + 14;
    for (const Series& s : p.series) {
        ++n.polylines;
        std::vector<std::pair<double, double>> at;
        for (auto [x, y] : s.points) at.emplace_back(X(x), Y(y));
        o << polyline(at, "fill=\"none\" stroke=\"" + s.color + "\" stroke-width=\"2\"");
        if (s.dots)
            for (auto [x, y] : s.points)
                o << circle(X(x), Y(y), 3, "fill=\"" + s.color + '"'), ++n.circles;
        if (!s.name.empty()) {
            o << line(L + pw - 150, legend_y - 4, L + pw - 130, legend_y - 4, "stroke=\"" + s.color + "\" stroke-width=\"2\"")
              << text(L + pw - 124, legend_y, 11, s.name);
            legend_y += 16;
        }
    }
    o << footer();
    if (counts) *counts = n;
    return o.str();
}

// ---- a computation graph: Graphviz's dot ----

// Writes dot_text to dot_path and renders it with `dot -Tsvg` into svg_path; drops the line naming
// graphviz's version, so the file depends only on the graph. Stops (throws) when dot is missing.
inline void render_dot(const std::string& dot_text, const std::string& dot_path, const std::string& svg_path) {
    write_file(dot_path, dot_text);
    if (std::system("command -v dot >/dev/null 2>&1") != 0)
        throw std::runtime_error("Graphviz's `dot` is not installed, so the graph cannot be drawn: install the "
                                 "package graphviz (./poet installs it; or apt-get, dnf, pacman or brew install "
                                 "graphviz), then run this lesson again");
    const std::string tmp = svg_path + ".dot-out";
    if (std::system(("dot -Tsvg '" + dot_path + "' -o '" + tmp + "'").c_str()) != 0)
        throw std::runtime_error("dot -Tsvg could not render " + dot_path);
    std::string out = read_file(tmp);
    std::filesystem::remove(tmp);
    const size_t at = out.find("<!-- Generated by graphviz"), end = out.find("-->", at);
    if (at != std::string::npos && end != std::string::npos) out.erase(at, end + 4 - at);   // the comment and its newline
    write_file(svg_path, out);
}

// ---- reading back: is it well-formed XML, and what does it hold ----

// One root element, every element closed in order, attributes name="value", entities and comments as
// XML has them (a <!DOCTYPE> and <?...?> skipped). Returns how many elements of each name; throws
// std::runtime_error naming the byte offset of the first fault.
inline std::map<std::string, size_t> element_counts(const std::string& s) {
    std::map<std::string, size_t> counts;
    std::vector<std::string> open;
    size_t i = 0, roots = 0;
    auto fail = [&](const std::string& what) {
        throw std::runtime_error("not well-formed XML at byte " + std::to_string(i) + ": " + what);
    };
    auto name_at = [&]() {
        size_t start = i;
        while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || std::strchr("_:.-", s[i]))) ++i;
        if (i == start) fail("a name was expected");
        return s.substr(start, i - start);
    };
    auto skip_space = [&] { while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i; };
    while (i < s.size()) {
        if (s[i] == '&') {
            size_t end = s.find(';', i);
            std::string entity = end == std::string::npos ? "" : s.substr(i, end - i + 1);
            bool numeric = entity.size() > 3 && entity[1] == '#';
            for (size_t k = 2; numeric && k + 1 < entity.size(); ++k)
                numeric = std::isxdigit(static_cast<unsigned char>(entity[k])) || (k == 2 && entity[k] == 'x');
            if (!numeric && entity != "&amp;" && entity != "&lt;" && entity != "&gt;" && entity != "&quot;" &&
                entity != "&apos;")
                fail("a bare &");
            i = end + 1;
        } else if (s[i] != '<') {
            if (open.empty() && !std::isspace(static_cast<unsigned char>(s[i]))) fail("text outside the root element");
            ++i;
        } else if (s.compare(i, 4, "<!--") == 0) {
            i = s.find("-->", i);
            if (i == std::string::npos) fail("a comment is not closed");
            i += 3;
        } else if (s.compare(i, 2, "<?") == 0 || s.compare(i, 9, "<!DOCTYPE") == 0) {
            if (!open.empty() || roots) fail("a declaration after the root element began");
            i = s.find('>', i);
            if (i == std::string::npos) fail("a declaration is not closed");
            ++i;
        } else if (s.compare(i, 2, "</") == 0) {
            i += 2;
            std::string name = name_at();
            skip_space();
            if (open.empty() || open.back() != name)
                fail("</" + name + "> closes " + (open.empty() ? "nothing" : "<" + open.back() + ">"));
            if (i >= s.size() || s[i] != '>') fail("</" + name + " is not closed with >");
            open.pop_back();
            ++i;
        } else {
            ++i;
            std::string name = name_at();
            if (open.empty() && roots++) fail("a second root element <" + name + ">");
            ++counts[name];
            std::vector<std::string> attributes;
            for (;;) {
                skip_space();
                if (i >= s.size()) fail("<" + name + " is not closed");
                if (s.compare(i, 2, "/>") == 0) {
                    i += 2;
                    break;
                }
                if (s[i] == '>') {
                    open.push_back(name);
                    ++i;
                    break;
                }
                std::string attribute = name_at();
                if (std::find(attributes.begin(), attributes.end(), attribute) != attributes.end())
                    fail("attribute " + attribute + " twice");
                attributes.push_back(attribute);
                skip_space();
                if (i >= s.size() || s[i] != '=') fail("attribute " + attribute + " has no =");
                ++i;
                skip_space();
                char quote = i < s.size() ? s[i] : 0;
                if (quote != '"' && quote != '\'') fail("attribute " + attribute + "'s value is not quoted");
                size_t end = s.find(quote, i + 1);
                if (end == std::string::npos || s.find('<', i + 1) < end) fail("attribute " + attribute + " is not closed");
                i = end + 1;
            }
        }
    }
    if (!open.empty()) fail("<" + open.back() + "> is never closed");
    if (roots != 1) fail("no root element");
    return counts;
}

// Reads path back and checks it: well-formed, and its root element is <svg>. Returns the counts.
inline std::map<std::string, size_t> check_file(const std::string& path) {
    const std::string s = read_file(path);
    std::map<std::string, size_t> counts = element_counts(s);
    if (counts["svg"] != 1) throw std::runtime_error(path + " does not hold exactly one <svg> element");
    return counts;
}

}  // namespace svg
