// `ascendopt ops list [ROOT] [--check]`: the operator packages of a suite, and with --check
// what their public cases lack against the case rules (evaluation.md section 4).
#include <iostream>
#include <iomanip>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "eval/builder.h"
#include "ops/case_gen.h"
#include "ops/op_package.h"

namespace aoc::cli {
namespace {

int list_ops(const std::string& root_arg, bool json, bool check) {
  const std::filesystem::path root =
      root_arg.empty() ? aoc::eval::default_builder_options().root / "ops" : std::filesystem::path(root_arg);
  auto dirs = aoc::op::find_op_packages(root);
  if (dirs.empty()) {
    std::cerr << "error: no operator packages (folders with op.toml) under " << root.string() << "\n";
    return 1;
  }
  nlohmann::json j = nlohmann::json::array();
  int status = 0;
  if (!json)
    std::cout << std::left << std::setw(16) << "category" << std::setw(16) << "name" << std::setw(20) << "dtypes"
              << std::setw(7) << "cases" << "folder\n";
  for (const auto& d : dirs) {
    try {
      auto p = aoc::op::load_op_package(d);
      std::string variants;
      for (size_t v = 0; v < p.variant_count(); ++v) variants += (v ? " " : "") + p.variant_label(v);
      const auto problems = check ? aoc::op::validate_public_cases(p) : std::vector<std::string>{};
      if (!problems.empty()) status = 1;
      if (json) {
        j.push_back({{"name", p.name}, {"category", p.category}, {"op_type", p.op_type}, {"kernel", p.kernel},
                     {"dtypes", variants}, {"cases", p.cases.size()}, {"dir", d.string()}});
        if (check) j.back()["case_rule_problems"] = problems;
      } else {
        std::cout << std::left << std::setw(16) << p.category << std::setw(16) << p.name << std::setw(20) << variants
                  << std::setw(7) << p.cases.size() << d.string() << "\n";
        for (const auto& problem : problems) std::cout << "    rule: " << problem << "\n";
      }
    } catch (const aoc::op::PackageError& e) {
      status = 1;
      if (json) j.push_back({{"dir", d.string()}, {"error", e.what()}});
      else std::cout << "error: " << e.what() << "\n";
    }
  }
  if (json) std::cout << j.dump(2) << "\n";
  return status;
}

}  // namespace

void add_ops_command(CLI::App& app) {
  CLI::App* ops = app.add_subcommand("ops", "Inspect the operator suite");
  ops->require_subcommand(1);
  CLI::App* list = ops->add_subcommand("list", "List operator packages with their dtypes and case counts");
  auto root = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  auto check = std::make_shared<bool>(false);
  list->add_option("ROOT", *root, "Suite root (default: the project's ops/)");
  list->add_flag("--json", *json, "Print JSON");
  list->add_flag("--check", *check,
                 "Also check each package's public cases against the case rules; exit 1 when any rule is unmet");
  list->callback([root, json, check]() { exit_status() = list_ops(*root, *json, *check); });
}

}  // namespace aoc::cli
