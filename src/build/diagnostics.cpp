#include "build/diagnostics.h"

#include <regex>
#include <sstream>

namespace aoc::build {

std::vector<Diagnostic> parse_diagnostics(const std::string& out) {
  static const std::regex kCompiler(R"(^(.+?):(\d+):(\d+): (fatal error|error|warning|note): (.*)$)");
  static const std::regex kNoColumn(R"(^(.+?):(\d+): (fatal error|error|warning|note): (.*)$)");
  static const std::regex kLinker(R"(^(.+?):(?:\(.*\)|(\d+)):? ?(undefined reference to .*)$)");
  std::vector<Diagnostic> ds;
  std::istringstream is(out);
  std::string line;
  std::smatch m;
  while (std::getline(is, line)) {
    Diagnostic d;
    if (std::regex_match(line, m, kCompiler)) {
      d.file = m[1];
      d.line = std::stoi(m[2]);
      d.column = std::stoi(m[3]);
      d.severity = m[4];
      d.message = m[5];
    } else if (std::regex_match(line, m, kNoColumn)) {
      d.file = m[1];
      d.line = std::stoi(m[2]);
      d.severity = m[3];
      d.message = m[4];
    } else if (line.find("undefined reference to") != std::string::npos && std::regex_match(line, m, kLinker)) {
      d.file = m[1];
      d.line = m[2].matched ? std::stoi(m[2]) : 0;
      d.severity = "linker";
      d.message = m[3];
    } else if (line.rfind("collect2: error:", 0) == 0) {
      d.severity = "linker";
      d.message = line.substr(17);
    } else {
      continue;
    }
    ds.push_back(std::move(d));
  }
  return ds;
}

std::vector<Diagnostic> errors_only(const std::vector<Diagnostic>& ds) {
  std::vector<Diagnostic> out;
  for (const auto& d : ds)
    if (d.severity == "error" || d.severity == "fatal error" || d.severity == "linker") out.push_back(d);
  return out;
}

std::string to_string(const Diagnostic& d) {
  std::ostringstream os;
  if (!d.file.empty()) {
    os << d.file;
    if (d.line > 0) os << ":" << d.line;
    if (d.column > 0) os << ":" << d.column;
    os << ": ";
  }
  os << d.severity << ": " << d.message;
  return os.str();
}

}  // namespace aoc::build
