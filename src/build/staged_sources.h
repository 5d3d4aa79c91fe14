// A build's source folders copied into the build cache under a name made of their content.
//
// The compiler command names the folders (-I, -include, the kernel's instrumentation
// exclusions), so the same sources in two folders were two builds with two library keys: a
// search that rewrites a kernel the same way in every run (every seed and method applies the
// same motif to the same baseline) compiled the same library once per run folder. Built from
// the content-named copy, the request is the same wherever its sources came from: the
// compiler sees the same command and the library cache answers a repeat. Compiler messages
// name the copies; `unstage` writes them back as the requester's folders.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "build/request.h"

namespace aoc::build {

struct StagedSources {
  BuildRequest request;              // every folder of hash_dirs replaced by its copy
  std::vector<std::string> staged;   // the copies' paths ...
  std::vector<std::string> original; // ... and the folders they stand for

  // `text` (a compiler log) with the copies' paths written as the original folders.
  std::string unstage(const std::string& text) const;
};

// Copies req.hash_dirs (those that exist) to <cache_dir>/sources/<content hash>/<i>/<name>
// unless that copy exists, and rewrites the request's flags and sources to name the copies.
// Several processes may stage the same sources at once: each copies privately and publishes
// with a rename. Throws std::runtime_error when the cache cannot be written.
StagedSources stage_sources(const BuildRequest& req, const std::filesystem::path& cache_dir);

}  // namespace aoc::build
