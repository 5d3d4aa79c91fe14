// A case as the [[cases]] entry of op.toml that the loader reads back to the same CaseSpec:
// what a tool that finds a case (the fuzzer) prints for the user to paste.
#pragma once
#include <string>

#include "package/op_package.h"

namespace aoc::package {

std::string case_entry_toml(const OpPackage& p, const CaseSpec& c);

}  // namespace aoc::package
