// Guards the test suite itself: ctest runs each Catch2 TEST_CASE by name (catch_discover_tests),
// and a name that ctest splits or Catch2 reads as a pattern would silently run nothing and "pass".
// Leaves out: anything about the library.
#include <catch2/catch.hpp>
#include <cctype>
#include <sstream>
#include <string>

// Why ctest could not run a test of this name, or "" when it can.
static std::string discovery_problem(const std::string& name) {
    if (name.find(';') != std::string::npos) return "contains ';', ctest's list separator: the name is split in two";
    if (name.empty()) return "is empty";
    if (name.front() == '~') return "starts with '~', which Catch2 reads as 'exclude'";
    if (name.front() == '*' || name.back() == '*') return "starts or ends with '*', which Catch2 reads as a wildcard";
    if (std::isspace(static_cast<unsigned char>(name.front())) || std::isspace(static_cast<unsigned char>(name.back())))
        return "starts or ends with a space";
    return "";
}

TEST_CASE("every test name survives ctest discovery, so no test silently runs nothing", "[suite]") {
    std::ostringstream offenders;
    for (const Catch::TestCase& tc : Catch::getRegistryHub().getTestCaseRegistry().getAllTests()) {
        std::string problem = discovery_problem(tc.name);
        if (!problem.empty()) offenders << "  " << tc.lineInfo << ": \"" << tc.name << "\" " << problem << "\n";
    }
    INFO("rename these TEST_CASEs:\n" << offenders.str());
    CHECK(offenders.str().empty());
    CHECK(discovery_problem("a; b") != "");  // the check itself can fail
    CHECK(discovery_problem("gradcheck: add") == "");
}
