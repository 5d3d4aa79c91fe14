#include "llm/api_key.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "llm/llm_error.h"

namespace aoc::llm {

ApiKey ApiKey::from_environment(const std::string& variable) {
  ApiKey k;
  if (variable.empty()) return k;
  const char* v = std::getenv(variable.c_str());
  if (v == nullptr || *v == '\0')
    throw LlmError(ErrorKind::Config, "the environment variable " + variable +
                                          " (api_key_env) is not set or empty; export it with the endpoint's API "
                                          "key, or remove api_key_env for a server that needs none");
  k.key_ = v;
  // A key pasted with its line break would corrupt the header.
  while (!k.key_.empty() && (k.key_.back() == '\n' || k.key_.back() == '\r' || k.key_.back() == ' '))
    k.key_.pop_back();
  return k;
}

std::string ApiKey::redact(const std::string& text) const {
  if (key_.empty() || text.empty()) return text;
  constexpr size_t kMinRun = 8;
  const size_t min_run = std::min(kMinRun, key_.size());
  // Mark every text position covered by a run of >= min_run characters equal to a
  // stretch of the key; texts here are short (messages, answers), keys tens of bytes.
  std::vector<bool> hide(text.size(), false);
  for (size_t i = 0; i + min_run <= text.size(); ++i) {
    size_t best = 0;
    for (size_t j = 0; j + min_run <= key_.size() && best < key_.size(); ++j) {
      size_t n = 0;
      while (i + n < text.size() && j + n < key_.size() && text[i + n] == key_[j + n]) ++n;
      best = std::max(best, n);
    }
    if (best >= min_run) std::fill(hide.begin() + i, hide.begin() + i + best, true);
  }
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (!hide[i]) {
      out += text[i++];
      continue;
    }
    out += "[redacted]";
    while (i < text.size() && hide[i]) ++i;
  }
  return out;
}

}  // namespace aoc::llm
