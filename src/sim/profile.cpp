#include "sim/profile.h"

#include <algorithm>
#include <iomanip>
#include <set>

namespace aoc::sim {

const char* msprof_pipe_name(CoreType t, Pipe p) {
  if (t == CoreType::AIV) {
    switch (p) {
      case Pipe::S: return "scalar";
      case Pipe::V: return "vec";
      case Pipe::MTE2: return "mte2";
      case Pipe::MTE3: return "mte3";
      default: return nullptr;
    }
  }
  switch (p) {
    case Pipe::S: return "scalar";
    case Pipe::M: return "mac";
    case Pipe::MTE1: return "mte1";
    case Pipe::MTE2: return "mte2";
    case Pipe::MTE3: return "mte3";
    case Pipe::FIX: return "fixpipe";
    default: return nullptr;
  }
}

namespace {
const char* prefix(CoreType t) { return t == CoreType::AIV ? "aiv" : "aic"; }
}  // namespace

Profile make_profile(const Soc& soc, const SimResult& r) {
  Profile p;
  p.soc = soc.name;
  p.task_duration_us = r.task_duration_us;
  p.launch_us = r.launch_us;
  p.block_dim = uint32_t(r.blocks.size());
  p.waves = r.waves;
  std::map<std::string, double> sums;
  for (const auto& b : r.blocks) {
    BlockProfile bp;
    bp.block = b.block;
    bp.type = b.type;
    bp.total_cycles = b.end - b.start;
    bp.time_us = soc.cycles_to_us(bp.total_cycles);
    std::string pre = prefix(b.type);
    bp.fields[pre + "_time"] = bp.time_us;
    bp.fields[pre + "_total_cycles"] = bp.total_cycles;
    for (int i = 0; i < kPipes; ++i) {
      const char* name = msprof_pipe_name(b.type, Pipe(i));
      if (!name) continue;
      double busy = b.busy[i];
      bp.fields[pre + "_" + name + "_time"] = soc.cycles_to_us(busy);
      bp.fields[pre + "_" + name + "_ratio"] = bp.total_cycles > 0 ? busy / bp.total_cycles : 0;
    }
    (b.type == CoreType::AIV ? p.aiv_blocks : p.aic_blocks)++;
    for (const auto& [k, v] : bp.fields) sums[k] += v;
    p.blocks.push_back(std::move(bp));
  }
  for (const auto& [k, v] : sums) {
    uint32_t n = k.rfind("aiv", 0) == 0 ? p.aiv_blocks : p.aic_blocks;
    p.fields[k] = n ? v / n : 0;
  }
  double best = -1;
  for (const auto& [k, v] : p.fields) {
    bool pipe_time = k.size() > 5 && k.substr(k.size() - 5) == "_time" && k != "aiv_time" && k != "aic_time";
    if (pipe_time && v > best) {
      best = v;
      p.bound_pipe = k;
    }
  }
  return p;
}

nlohmann::json to_json(const Profile& p) {
  nlohmann::json j;
  j["soc"] = p.soc;
  j["task_duration_us"] = p.task_duration_us;
  j["launch_overhead_us"] = p.launch_us;
  j["block_dim"] = p.block_dim;
  j["waves"] = p.waves;
  j["aiv_blocks"] = p.aiv_blocks;
  j["aic_blocks"] = p.aic_blocks;
  j["averaging"] = "arithmetic mean over blocks of each core type";
  j["bound_pipe"] = p.bound_pipe;
  j["fields"] = p.fields;
  auto& blocks = j["blocks"] = nlohmann::json::array();
  for (const auto& b : p.blocks) {
    nlohmann::json e = b.fields;
    e["block_id"] = b.block;
    e["core_type"] = b.type == CoreType::AIV ? "AIV" : "AIC";
    blocks.push_back(std::move(e));
  }
  return j;
}

namespace {
std::vector<std::string> field_columns(const Profile& p) {
  // aiv_time first, then the pipes in msprof's order; AIC fields after AIV ones.
  std::vector<std::string> cols;
  for (CoreType t : {CoreType::AIC, CoreType::AIV}) {
    std::string pre = prefix(t);
    if ((t == CoreType::AIV ? p.aiv_blocks : p.aic_blocks) == 0) continue;
    cols.push_back(pre + "_time");
    cols.push_back(pre + "_total_cycles");
    for (Pipe pp : {Pipe::M, Pipe::V, Pipe::S, Pipe::FIX, Pipe::MTE1, Pipe::MTE2, Pipe::MTE3}) {
      const char* n = msprof_pipe_name(t, pp);
      if (!n) continue;
      cols.push_back(pre + "_" + n + "_time");
      cols.push_back(pre + "_" + n + "_ratio");
    }
  }
  return cols;
}

std::string header_of(const std::string& col) {
  if (col.size() > 5 && col.substr(col.size() - 5) == "_time") return col + "(us)";
  return col;
}
}  // namespace

void write_op_summary_csv(std::ostream& os, const Profile& p, const std::string& op_name) {
  auto cols = field_columns(p);
  os << "Op Name,Task Type,Task Duration(us),Block Dim,Mix Block Dim";
  for (const auto& c : cols) os << "," << header_of(c);
  os << "\n";
  const char* type = p.aic_blocks && p.aiv_blocks ? "MIX_AIC" : p.aic_blocks ? "AI_CORE" : "AI_VECTOR_CORE";
  os << op_name << "," << type << "," << std::fixed << std::setprecision(3) << p.task_duration_us << ","
     << (p.aic_blocks ? p.aic_blocks : p.aiv_blocks) << "," << (p.aic_blocks && p.aiv_blocks ? p.aiv_blocks : 0);
  for (const auto& c : cols) {
    auto it = p.fields.find(c);
    os << "," << (it == p.fields.end() ? 0.0 : it->second);
  }
  os << "\n";
  os.unsetf(std::ios::floatfield);
}

void write_pipe_utilization_csv(std::ostream& os, const Profile& p) {
  auto cols = field_columns(p);
  os << "block_id,sub_block_id,core_type";
  for (const auto& c : cols) os << "," << header_of(c);
  os << "\n" << std::fixed << std::setprecision(3);
  for (const auto& b : p.blocks) {
    os << b.block << ",0," << (b.type == CoreType::AIV ? "AIV" : "AIC");
    for (const auto& c : cols) {
      auto it = b.fields.find(c);
      if (it == b.fields.end()) os << ",N/A";
      else os << "," << it->second;
    }
    os << "\n";
  }
  os.unsetf(std::ios::floatfield);
}

}  // namespace aoc::sim
