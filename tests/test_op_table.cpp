// The op table (lib/src/ops/op_table.hpp) is the one list of the library's ops: the derivative table
// in docs/architecture.md is printed from it, every op records itself through it, and a name of its
// is not free for an op of one's own. (The gradient-check and shape-error coverage tests loop over it.)
// Leaves out: the ops' values and gradients (test_ops_gradcheck.cpp, test_reference_ops.cpp).
#include "catch.hpp"
#include <filesystem>
#include <fstream>
#include <sstream>
#include <pg/pg.hpp>
#include "ops/op_table.hpp"

static std::string read_file(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

TEST_CASE("the derivative table in docs/architecture.md is the op table's", "[ops][docs]") {
    std::string docs = read_file(std::string(PG_SOURCE_DIR) + "/docs/architecture.md");
    std::string table = pg::detail::derivative_table_markdown();
    INFO("paste this table into docs/architecture.md, \"The derivative table\":\n" << table);
    CHECK(docs.find(table) != std::string::npos);
    CHECK(pg::op_names().size() == static_cast<size_t>(pg::detail::Op::count));
}

TEST_CASE("every library op records itself through the op table, not make_result", "[ops]") {
    std::ostringstream offenders;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(std::string(PG_SOURCE_DIR) + "/lib/src")) {
        if (entry.path().extension() != ".cpp" && entry.path().extension() != ".hpp") continue;
        std::string text = read_file(entry.path().string());
        if (entry.path().filename() == "autograd.cpp") continue;   // where make_result is defined
        if (text.find("make_result(") != std::string::npos) offenders << "  " << entry.path().string() << "\n";
    }
    INFO("these files call make_result; a library op ends with record(Op::name, ...):\n" << offenders.str());
    CHECK(offenders.str().empty());
}

TEST_CASE("make_result refuses a library op's name, and record the wrong number of inputs", "[ops]") {
    pg::Tensor x = pg::ones({2}, true);
    auto identity = [](const pg::BackwardContext& ctx) { return std::vector<pg::Array>{ctx.gy}; };
    CHECK_THROWS_WITH(pg::make_result(x.data(), "softmax", {x}, identity),
                      Contains("'softmax' is the name of one of the library's ops"));
    CHECK(pg::make_result(x.data(), "my_softmax", {x}, identity).requires_grad());
    CHECK_THROWS_WITH(pg::detail::record(pg::detail::Op::add, x.data(), {x}, identity),
                      Contains("op 'add' was given 1 inputs; the op table says 2"));
    CHECK_THROWS_WITH(pg::detail::record(pg::detail::Op::linear, x.data(), {x, x, x, x}, identity),
                      Contains("op 'linear' was given 4 inputs; the op table says 2 to 3"));
}
