#include "cluster/task.h"

namespace aoc::cluster {

std::filesystem::path partial_stdout(const Task& t) { return t.stdout_file.string() + ".partial"; }

}  // namespace aoc::cluster
