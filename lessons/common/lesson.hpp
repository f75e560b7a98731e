// What every lesson shares: printing tensors with their shapes, and the small check runner that
// a lesson's checks.cpp runs on the learner's exercise.cpp (and on starter.cpp, solution.cpp, mistakes.cpp).
// Leaves out: any of the math a lesson teaches; lessons call the library for that.
#pragma once
#include <cmath>
#include <functional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>
#include <pg/pg.hpp>

namespace lesson {

// ---- the learner's language ----
// Chinese when POET_LANG starts with "zh"; else English. tools/lessons.sh decides the language
// (--lang, POET_LANG, else LANG) and tells every program it starts through POET_LANG.
bool chinese();
// The same message in both languages; returns the learner's: tr("the weights", "权重").
std::string tr(const std::string& english, const std::string& chinese);
// A message of the library's in other words: `pattern` is its English with {1}, {2}, ... where it
// varies (each stands for the characters up to the text after it in the pattern, spaces excluded);
// every place the pattern matches is rewritten as `replacement`, which places the same {N}:
// reword("byte 0x80 cannot start a character", "byte {1} cannot start a character", "字节 {1} 不能开始一个字符")
// gives "字节 0x80 不能开始一个字符".
std::string reword(const std::string& message, const std::string& pattern, const std::string& replacement);

// ---- printing: fixed decimals, so a README can quote the output digit for digit ----

std::string num(double v, int decimals = 4);                    // "1.3395"; never "-0.0000"
std::string str(const pg::Tensor& t, int decimals = 4);         // "[[1.3395, 1.3210], [0.6605, 2.6790]]"
std::string str(const pg::Shape& s);                            // "(2,2)"
void show(const std::string& name, const pg::Tensor& t, int decimals = 4);  // name, shape, values
void show(const std::string& name, double v, int decimals = 4);
void section(const std::string& title);                         // a heading between steps
pg::Tensor from_rows(const std::vector<std::vector<float>>& rows);  // (N, C) from N rows of C
// Table columns that line up in both languages: how many columns s takes on screen (a Chinese
// character two, any other one), and s with spaces to `width` columns, after it (Align::left) or
// before it (Align::right); never cut
size_t columns(const std::string& s);
enum class Align { left, right };
std::string pad(const std::string& s, size_t width, Align align = Align::left);
// pg::gradcheck's mismatches, one line each, in the learner's language ("input 0 element 3: analytic ...")
std::string gradcheck_report(const pg::GradcheckResult& result);

// ---- the planted mistakes (mistakes.cpp): one program, the mistake chosen when it runs ----
// The number in PG_MISTAKE (expect_mistake_caught.sh sets it), 0 when unset: no mistake, the file
// is then a correct answer. mistake(3) is true only while mistake 3 runs.
int planted_mistake();
inline bool mistake(int n) { return planted_mistake() == n; }

// ---- what unwritten exercise code throws ----

struct NotImplemented : std::logic_error {
    explicit NotImplemented(const std::string& what);           // "<what> is not implemented yet"
};

// ---- expectations: each throws CheckFailed on a mismatch ----

struct CheckFailed : std::runtime_error {
    CheckFailed(std::string what, std::string expected, std::string actual, std::string hint);
    std::string what_checked, expected, actual, hint;
};

void expect_near(const std::string& what, double actual, double expected, double tol, const std::string& hint);
void expect_near(const std::string& what, const pg::Tensor& actual, const pg::Tensor& expected, double tol,
                 const std::string& hint);
void expect_shape(const std::string& what, const pg::Shape& actual, const pg::Shape& expected,
                  const std::string& hint);
void expect(const std::string& what, bool ok, const std::string& expected, const std::string& actual,
            const std::string& hint);

// The op names in the graph behind t ("softmax", "exp", "sum", ...): empty unless an input of the
// computation required grad. How a check sees which library ops the learner's code called.
using pg::ops_in;
// Fails when the graph behind t holds `op`: the learner called the library's op instead of writing
// it. `instead` says what to write it from ("write it from exp, max and sum").
void expect_not_called(const std::string& what, const pg::Tensor& t, const std::string& op, const std::string& instead);

// Passes when f() throws an E; fails when it returns or throws something else.
template <class E, class F>
void expect_throws(const std::string& what, const std::string& error_name, F f, const std::string& hint) {
    try {
        f();
    } catch (const E&) {
        return;
    } catch (const NotImplemented&) {
        throw;
    } catch (const std::exception& e) {
        throw CheckFailed(what, error_name + " thrown", std::string("another error: ") + e.what(), hint);
    }
    throw CheckFailed(what, error_name + " thrown", "no error: it returned normally", hint);
}

// ---- the check runner: checks.cpp's main() makes one, runs named checks, returns finish() ----

class Checks {
public:
    // number "01", name "hand_attention": used in the messages and the path of exercise.cpp
    Checks(std::string number, std::string name);
    // Runs one named check. NotImplemented from the learner's code marks it "not implemented yet",
    // CheckFailed marks it failed with expected / actual / hint, any other exception is a failure too,
    // reported with the line that threw it and whose it is: the learner's code or the check's.
    void run(const std::string& name, const std::function<void()>& body);
    // Prints the summary line; returns the exit code: 0 when every check passed, 1 otherwise.
    int finish() const;

private:
    std::string number_, name_;
    int passed_ = 0, failed_ = 0, todo_ = 0;
};

// An experiment's main(): runs body, turns any exception into a message and exit code 1.
int run_experiment(const std::function<void()>& body);
// Inside an experiment: prints "matches <source>" when |actual - expected| <= tol everywhere,
// throws CheckFailed otherwise, so a wrong number stops the experiment and fails its test.
void confirm(const std::string& what, const pg::Tensor& actual, const pg::Tensor& expected, double tol,
             const std::string& source);
void confirm(const std::string& what, double actual, double expected, double tol, const std::string& source);

}  // namespace lesson
