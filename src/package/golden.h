// Loads a package's golden shared object and evaluates it on one case.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "package/case_inputs.h"
#include "package/op_package.h"

namespace aoc::package {

class GoldenLibrary {
 public:
  GoldenLibrary() = default;
  GoldenLibrary(const GoldenLibrary&) = delete;
  GoldenLibrary& operator=(const GoldenLibrary&) = delete;
  GoldenLibrary(GoldenLibrary&& o) noexcept { *this = std::move(o); }
  GoldenLibrary& operator=(GoldenLibrary&& o) noexcept;
  ~GoldenLibrary();

  // Throws std::runtime_error naming the library when it cannot be loaded or
  // does not export aoc_golden.
  static GoldenLibrary open(const std::filesystem::path& so);

  // Reference outputs in double precision (not yet cast to the output dtype).
  // Returns an error message instead when the golden reports a failure.
  struct Result {
    bool ok = false;
    std::string error;
    std::vector<std::vector<double>> outputs;
  };
  // A case's inputs in double precision, converted once for both goldens of the case (on a
  // large case each conversion is gigabytes of fresh memory).
  struct Inputs {
    explicit Inputs(const std::vector<CaseTensor>& tensors);
    const std::vector<CaseTensor>& tensors;
    std::vector<std::vector<double>> values;
  };
  Result run(const OpPackage& p, const CaseSpec& c, const Inputs& inputs) const;
  // The same with the output shapes given (computed elsewhere, e.g. by InferShape in another process).
  Result run(const OpPackage& p, const CaseSpec& c, const Inputs& inputs,
             const std::vector<std::vector<int64_t>>& output_shapes) const;
  // run() on first call, the same result after; nullptr when the library is null or the run failed.
  class Deferred {
   public:
    Deferred(const GoldenLibrary* g, const OpPackage& p, const CaseSpec& c, const Inputs& in,
             const std::vector<std::vector<int64_t>>* output_shapes = nullptr)
        : g_(g), p_(p), c_(c), in_(in), shapes_(output_shapes) {}
    const std::vector<std::vector<double>>* outputs() {
      if (g_ == nullptr) return nullptr;
      if (!result_) result_ = shapes_ != nullptr ? g_->run(p_, c_, in_, *shapes_) : g_->run(p_, c_, in_);
      return result_->ok ? &result_->outputs : nullptr;
    }

   private:
    const GoldenLibrary* g_;
    const OpPackage& p_;
    const CaseSpec& c_;
    const Inputs& in_;
    const std::vector<std::vector<int64_t>>* shapes_;
    std::optional<Result> result_;
  };
  Result run(const OpPackage& p, const CaseSpec& c, const std::vector<CaseTensor>& inputs) const {
    return run(p, c, Inputs(inputs));
  }

 private:
  void* handle_ = nullptr;
  void* fn_ = nullptr;
};

}  // namespace aoc::package
