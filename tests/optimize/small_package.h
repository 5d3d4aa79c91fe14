// A suite operator copied into a test folder without its large public cases, so that the
// verification of a result (every public case and a hidden draw) stays quick in tests.
#pragma once
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>

namespace aoc::testing {

// Copies `package` to `to` and drops every [[cases]] block whose shape has a dimension of
// more than `max_dim` elements.
inline std::filesystem::path small_package_copy(const std::filesystem::path& package, const std::filesystem::path& to,
                                                int max_dim = 5000) {
  namespace fs = std::filesystem;
  fs::create_directories(to);
  fs::copy(package, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  std::ifstream in(package / "op.toml");
  const std::string text(std::istreambuf_iterator<char>(in), {});
  std::string out;
  size_t pos = 0;
  while (true) {
    const size_t next = text.find("[[cases]]", pos + 1);
    const std::string block = text.substr(pos, next == std::string::npos ? std::string::npos : next - pos);
    bool large = false;
    const std::regex num("[0-9]+");
    const size_t s = block.find("shape = [");
    if (block.rfind("[[cases]]", 0) == 0 && s != std::string::npos) {
      const std::string dims = block.substr(s, block.find(']', s) - s);
      for (std::sregex_iterator it(dims.begin(), dims.end(), num), end; it != end; ++it)
        if (std::stol(it->str()) > max_dim) large = true;
    }
    if (!large) {
      out += block;
    } else {
      // Keep what follows the case in the block (a [hidden] table, other arrays).
      const size_t tail = block.find("\n[", 1);
      if (tail != std::string::npos) out += block.substr(tail + 1);
    }
    if (next == std::string::npos) break;
    pos = next;
  }
  std::ofstream(to / "op.toml") << out;
  return to;
}

}  // namespace aoc::testing
