#include "llm/llm_error.h"

namespace aoc::llm {

const char* to_string(ErrorKind k) {
  switch (k) {
    case ErrorKind::Config: return "config";
    case ErrorKind::Connect: return "connect";
    case ErrorKind::Timeout: return "timeout";
    case ErrorKind::Http: return "http";
    case ErrorKind::BadResponse: return "bad_response";
    case ErrorKind::ReplayMiss: return "replay_miss";
    case ErrorKind::Cache: return "cache";
  }
  return "?";
}

}  // namespace aoc::llm
