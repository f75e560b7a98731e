// The lessons' pictures: svg/svg.hpp (tools/svg/, shared with the poet) draws them; this adds where a
// lesson's picture goes (its own folder) and a tensor's rows as a heatmap's values.
// Leaves out: the drawing itself (tools/svg/svg.hpp).
#pragma once
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>
#include "lesson.hpp"
#include "svg/svg.hpp"

namespace svg {

// ---- where a picture goes: the experiment's own lesson folder ----

struct Output {
    std::string path;   // where the file is written
    std::string shown;  // how the experiment names it: "lessons/05_scalar_autograd/graph.svg"
};

// `source_file` is the experiment's __FILE__: the picture goes beside it, into
// POET_SOURCE_DIR/lessons/<its folder> (POET_SOURCE_DIR: the repository root, set by the build).
// The tests set POET_PICTURES to a folder under build/: their runs draw there, so a test never
// rewrites the repository's pictures (another CPU may round a coordinate's last digit otherwise).
inline Output in_lesson_folder(const char* source_file, const std::string& name) {
    const std::string lesson = std::filesystem::path(source_file).parent_path().filename().string();
    const std::string shown = "lessons/" + lesson + "/" + name;
    const char* elsewhere = std::getenv("POET_PICTURES");
    if (elsewhere == nullptr || *elsewhere == '\0') return {std::string(POET_SOURCE_DIR) + "/" + shown, shown};
    const std::filesystem::path path = std::filesystem::path(elsewhere) / shown;
    std::filesystem::create_directories(path.parent_path());
    return {path.string(), shown};
}

// A (R,C) tensor's values as the rows a Heatmap takes.
inline std::vector<std::vector<double>> rows_of(const pg::Tensor& t) {
    if (t.dim() != 2) throw std::invalid_argument("svg::rows_of: a (R,C) tensor is needed, got " + lesson::str(t.shape()));
    const size_t R = t.shape()[0], C = t.shape()[1];
    std::vector<float> v = t.to_vector();
    std::vector<std::vector<double>> rows(R, std::vector<double>(C));
    for (size_t r = 0; r < R; ++r)
        for (size_t c = 0; c < C; ++c) rows[r][c] = v[r * C + c];
    return rows;
}

}  // namespace svg
