#include "sim/chrome_trace.h"

namespace aoc::sim {
namespace {
const char* lane_name(Pipe p) {
  static const char* n[] = {"SCALAR", "VECTOR", "CUBE", "MTE1", "MTE2", "MTE3", "FIXP", "ALL"};
  return int(p) < 8 ? n[int(p)] : "?";
}
}  // namespace

nlohmann::json chrome_trace(const Soc& soc, const std::vector<const Trace*>& traces, const SimResult& r) {
  using nlohmann::json;
  json events = json::array();
  auto us = [&](double cycles) { return soc.cycles_to_us(cycles); };
  for (const auto& b : r.blocks) {
    std::string name = "block " + std::to_string(b.block) + (b.type == CoreType::AIV ? " (AIV " : " (AIC ") +
                       std::to_string(b.physical_core) + ")";
    events.push_back({{"ph", "M"}, {"name", "process_name"}, {"pid", b.block}, {"args", {{"name", name}}}});
    for (int p = 0; p < kPipes; ++p)
      events.push_back({{"ph", "M"}, {"name", "thread_name"}, {"pid", b.block}, {"tid", p},
                        {"args", {{"name", lane_name(Pipe(p))}}}});
  }
  for (const auto& s : r.spans) {
    const TraceRecord* rec = (s.block < traces.size() && traces[s.block] && s.rec < traces[s.block]->records.size())
                                 ? &traces[s.block]->records[s.rec] : nullptr;
    json e = {{"ph", "X"}, {"pid", s.block}, {"tid", int(s.pipe)}, {"ts", us(s.start)},
              {"dur", us(s.end - s.start)}, {"name", rec ? rec->op : "?"}, {"cat", lane_name(s.pipe)}};
    json args = {{"record", s.rec}, {"done_us", us(s.done)}};
    if (rec) {
      args["source"] = std::string(rec->file) + ":" + std::to_string(rec->line);
      if (rec->bytes) args["bytes"] = rec->bytes;
      if (rec->elems) args["elems"] = rec->elems;
    }
    e["args"] = std::move(args);
    events.push_back(std::move(e));
  }
  uint64_t id = 0;
  for (const auto& a : r.arrows) {
    ++id;
    std::string name = std::string("flag ") + lane_name(a.src) + "->" + lane_name(a.dst);
    events.push_back({{"ph", "s"}, {"id", id}, {"pid", a.block}, {"tid", int(a.src)}, {"ts", us(a.set_time)},
                      {"name", name}, {"cat", "flag"}});
    events.push_back({{"ph", "f"}, {"bp", "e"}, {"id", id}, {"pid", a.block}, {"tid", int(a.dst)},
                      {"ts", us(a.wait_time)}, {"name", name}, {"cat", "flag"}});
  }
  return json{{"traceEvents", std::move(events)}, {"displayTimeUnit", "ns"},
              {"otherData", {{"soc", soc.name}, {"task_duration_us", r.task_duration_us}}}};
}

void write_chrome_trace(std::ostream& os, const Soc& soc, const std::vector<const Trace*>& traces, const SimResult& r) {
  os << chrome_trace(soc, traces, r).dump() << "\n";
}

}  // namespace aoc::sim
