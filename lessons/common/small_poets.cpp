// Trains the small poets of small_poet.hpp (lesson 22's run, and the same with the copy token) into
// their folders unless they are there: the test lesson_small_poets, which the experiments of lessons
// 22, 23, 24, 25 and 27 need first, so that none of them waits for another's training while it holds
// one of the test run's slots.
// Leaves out: printing the models (the lessons do that).
#include <iostream>
#include "small_poet.hpp"

int main() {
    small_poet::model();
    small_poet::copy_model();
    std::cout << "small poets ready in " << small_poet::cache_dir() << " and " << small_poet::copy_cache_dir() << "\n";
    return 0;
}
