#include "rewind/hunks.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "base/process.h"

namespace aoc::rewind {
namespace fs = std::filesystem;

namespace {

std::vector<std::string> read_lines(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) lines.push_back(line + "\n");
  return lines;
}

// "@@ -12,5 +12,7 @@" -> the four numbers (a missing count is 1).
bool parse_header(const std::string& line, Hunk& h) {
  auto range = [](const std::string& s, size_t& start, size_t& count) {
    const size_t comma = s.find(',');
    start = std::stoul(s.substr(0, comma));
    count = comma == std::string::npos ? 1 : std::stoul(s.substr(comma + 1));
  };
  std::istringstream in(line);
  std::string at, minus, plus;
  in >> at >> minus >> plus;
  if (at != "@@" || minus.size() < 2 || plus.size() < 2 || minus[0] != '-' || plus[0] != '+') return false;
  range(minus.substr(1), h.base_start, h.base_count);
  range(plus.substr(1), h.exp_start, h.exp_count);
  return true;
}

}  // namespace

std::vector<Hunk> expert_hunks(const fs::path& package_dir) {
  std::vector<Hunk> out;
  for (const char* dir : {"op_kernel", "op_host"}) {
    const fs::path base = package_dir / dir, exp = package_dir / "expert" / dir;
    if (!fs::is_directory(base) || !fs::is_directory(exp)) continue;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(exp))
      if (e.is_regular_file() && fs::exists(base / e.path().filename())) files.push_back(e.path().filename());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      const std::string rel = std::string(dir) + "/" + f.string();
      const auto d = aoc::base::run_process({"diff", "-U3", (base / f).string(), (exp / f).string()});
      std::istringstream in(d.output);
      std::string line;
      Hunk* cur = nullptr;
      while (std::getline(in, line)) {
        if (line.rfind("@@", 0) == 0) {
          Hunk h;
          h.file = rel;
          if (!parse_header(line, h)) continue;
          h.text = "--- a/" + rel + "\n+++ b/" + rel + "\n" + line + "\n";
          out.push_back(h);
          cur = &out.back();
        } else if (cur && !line.empty() && (line[0] == ' ' || line[0] == '-' || line[0] == '+' || line[0] == '\\')) {
          cur->text += line + "\n";
        }
      }
    }
  }
  return out;
}

void write_reverted(const fs::path& package_dir, const std::vector<Hunk>& group, const fs::path& out) {
  if (group.empty()) throw std::runtime_error("no hunk to revert into " + out.string());
  if (fs::exists(out)) throw std::runtime_error(out.string() + " exists already");
  fs::create_directories(out);
  for (const char* dir : {"op_kernel", "op_host"})
    if (fs::is_directory(package_dir / "expert" / dir))
      fs::copy(package_dir / "expert" / dir, out / dir, fs::copy_options::recursive);
  std::vector<const Hunk*> order;
  for (const auto& h : group) order.push_back(&h);
  // Per file from the last hunk to the first, so the expert line numbers of the ones still to
  // revert stay valid.
  std::sort(order.begin(), order.end(), [](const Hunk* a, const Hunk* b) {
    return a->file != b->file ? a->file < b->file : a->exp_start > b->exp_start;
  });
  for (size_t i = 0; i < order.size();) {
    const std::string& file = order[i]->file;
    const auto base = read_lines(package_dir / file);
    auto lines = read_lines(package_dir / "expert" / file);
    for (; i < order.size() && order[i]->file == file; ++i) {
      const Hunk& h = *order[i];
      // A count of 0 means an empty range after line `start` (diff's convention).
      const size_t e0 = h.exp_count ? h.exp_start - 1 : h.exp_start;
      const size_t b0 = h.base_count ? h.base_start - 1 : h.base_start;
      if (e0 + h.exp_count > lines.size() || b0 + h.base_count > base.size())
        throw std::runtime_error("hunk of " + h.file + " does not fit the files");
      lines.erase(lines.begin() + long(e0), lines.begin() + long(e0 + h.exp_count));
      lines.insert(lines.begin() + long(e0), base.begin() + long(b0), base.begin() + long(b0 + h.base_count));
    }
    std::ofstream f(out / file, std::ios::binary | std::ios::trunc);
    for (const auto& l : lines) f << l;
    if (!f) throw std::runtime_error("cannot write " + (out / file).string());
  }
  std::ofstream t(out / "candidate.toml");
  t << "# " << package_dir.string() << "/expert with " << (group.size() == 1 ? "one hunk" : "several hunks")
    << " reverted to the baseline (ascendopt rewind --hunks, docs/rewind.md)\n"
    << "package = \"" << fs::absolute(package_dir).lexically_normal().string() << "\"\n";
  if (!t) throw std::runtime_error("cannot write " + out.string());
}

}  // namespace aoc::rewind
