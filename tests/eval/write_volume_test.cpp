// Volume accounting (eval/write_volume.h) on hand-made traces: what a record stores into an
// output, and the shortfall of a cleared, a shrunk and a mis-addressed trace.
#include <gtest/gtest.h>

#include "base/rng.h"
#include "eval/write_volume.h"

using namespace aoc;
using namespace aoc::eval;

namespace {

constexpr uint64_t kOut = 0x100000, kOutBytes = 4096;

TraceRecord store(uint64_t lo, uint64_t bytes, uint32_t bursts = 1) {
  TraceRecord r;
  r.kind = RecKind::Copy;
  r.pipe = Pipe::MTE3;
  r.op = "DataCopy";
  r.bytes = bytes;
  r.bursts = bursts;
  r.burst_bytes = uint32_t(bytes / bursts);
  r.nreads = 1;
  r.reads[0] = Range{Space::UB, 0, bytes};
  r.has_write = true;
  r.write = Range{Space::GM, lo, lo + bytes};
  return r;
}

std::vector<runtime::CoreRun> cores_of(std::vector<std::vector<TraceRecord>> per_core) {
  std::vector<runtime::CoreRun> out;
  for (auto& recs : per_core) {
    runtime::CoreRun c;
    c.trace.records = std::move(recs);
    out.push_back(std::move(c));
  }
  return out;
}

VolumeCheck check(const std::vector<runtime::CoreRun>& cores, uint64_t seen, std::vector<GmSpan> spans = {{kOut, kOut + kOutBytes}}) {
  return check_write_volume(cores, spans, {"z"}, {kOutBytes}, {seen});
}

}  // namespace

TEST(WriteVolume, BytesUnlikeThePoison) {
  std::vector<unsigned char> d(100, 0xFF);
  EXPECT_EQ(bytes_unlike(d, 0xFF), 0u);
  d[3] = 0;
  d[99] = 0xFE;
  EXPECT_EQ(bytes_unlike(d, 0xFF), 2u);
  // Eight bytes at a time and the tail, every byte value against every position, other poisons.
  aoc::base::Xoshiro256 rng(5);
  for (const unsigned char poison : {0xFF, 0x00, 0x80, 0x7F, 0x01}) {
    for (size_t n : {0u, 1u, 7u, 8u, 9u, 63u, 1000u}) {
      std::vector<unsigned char> v(n);
      uint64_t want = 0;
      for (auto& b : v) {
        const uint64_t k = rng.next();
        b = (k & 3) == 0 ? static_cast<unsigned char>(k >> 8) : poison;  // mostly poison, any byte else
        want += b != poison;
      }
      EXPECT_EQ(bytes_unlike(v, poison), want) << n << " bytes, poison " << int(poison);
    }
  }
}

TEST(WriteVolume, HonestCopiesFromTwoCoresAccountForTheOutput) {
  const auto cores = cores_of({{store(kOut, 2048)}, {store(kOut + 2048, 2048)}});
  const VolumeCheck v = check(cores, kOutBytes);
  EXPECT_EQ(v.problem, "");
  EXPECT_EQ(v.outputs.at(0).traced_bytes, kOutBytes);
}

TEST(WriteVolume, ACleardTraceIsShort) {
  const VolumeCheck v = check(cores_of({{}, {}}), kOutBytes);
  EXPECT_NE(v.problem.find("output z: 4096 bytes differ from the poison fill"), std::string::npos) << v.problem;
  EXPECT_NE(v.problem.find("stores only 0 bytes"), std::string::npos) << v.problem;
}

TEST(WriteVolume, RecordsShrunkTo32BytesAreShort) {
  TraceRecord a = store(kOut, 2048), b = store(kOut + 2048, 2048);
  for (TraceRecord* r : {&a, &b}) r->bytes = r->burst_bytes = 32;  // the range still covers the output
  const VolumeCheck v = check(cores_of({{a}, {b}}), kOutBytes);
  EXPECT_EQ(v.outputs.at(0).traced_bytes, 64u);
  EXPECT_NE(v.problem.find("stores only 64 bytes"), std::string::npos) << v.problem;
}

TEST(WriteVolume, ScalarStoresCountAtMostEightBytesAnAccess) {
  TraceRecord s;
  s.kind = RecKind::Scalar;
  s.op = "GmSetValue";
  s.elems = 4;
  s.has_write = true;
  s.write = Range{Space::GM, kOut, kOut + 1024};  // a range far wider than four stores
  EXPECT_EQ(traced_store_bytes(s, {kOut, kOut + kOutBytes}), 32u);
  s.write.hi = kOut + 16;
  EXPECT_EQ(traced_store_bytes(s, {kOut, kOut + kOutBytes}), 16u);
}

TEST(WriteVolume, CopiesFromGmAndRecordsOutsideTheOutputDoNotCount) {
  TraceRecord gm_to_gm = store(kOut, 1024);
  gm_to_gm.reads[0] = Range{Space::GM, 0x900000, 0x900000 + 1024};  // drawn on the HBM read pool
  EXPECT_EQ(traced_store_bytes(gm_to_gm, {kOut, kOut + kOutBytes}), 0u);
  EXPECT_EQ(traced_store_bytes(store(kOut + kOutBytes, 1024), {kOut, kOut + kOutBytes}), 0u);
  // A record running past the end counts only its part inside.
  EXPECT_EQ(traced_store_bytes(store(kOut + kOutBytes - 100, 1024), {kOut, kOut + kOutBytes}), 100u);
}

TEST(WriteVolume, ForgedAddressesAreRefused) {
  const auto cores = cores_of({{store(kOut, kOutBytes)}});
  EXPECT_NE(check(cores, kOutBytes, {{kOut, kOut + 2 * kOutBytes}}).problem.find("8192 bytes long; it has 4096"),
            std::string::npos);
  EXPECT_NE(check(cores, kOutBytes, {}).problem.find("addresses of 0 outputs for 1"), std::string::npos);
  const VolumeCheck two = check_write_volume(cores, {{kOut, kOut + kOutBytes}, {kOut + 8, kOut + 8 + kOutBytes}},
                                             {"a", "b"}, {kOutBytes, kOutBytes}, {0, 0});
  EXPECT_NE(two.problem.find("outputs a and b at overlapping addresses"), std::string::npos) << two.problem;
}
