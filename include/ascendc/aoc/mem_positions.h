// How a queue's logical positions map to memory and to the pipes that produce and
// consume its buffers. The TQue framework derives its implicit synchronisation from
// this: EnQue is the producer's SetFlag, DeQue the consumer's WaitFlag (read after
// write); FreeTensor is the consumer's SetFlag back to the producer, and the next
// AllocTensor of that buffer waits for it (write after read).
#pragma once
#include <cstdint>

#include "aoc/tensor.h"
#include "aoc/trace.h"

namespace aoc {

inline const char* position_name(AscendC::TPosition p) {
  using P = AscendC::TPosition;
  switch (p) {
    case P::GM: return "GM";
    case P::A1: return "A1";
    case P::A2: return "A2";
    case P::B1: return "B1";
    case P::B2: return "B2";
    case P::C1: return "C1";
    case P::C2: return "C2";
    case P::CO1: return "CO1";
    case P::CO2: return "CO2";
    case P::VECIN: return "VECIN";
    case P::VECOUT: return "VECOUT";
    case P::VECCALC: return "VECCALC";
    case P::SPM: return "SPM";
    case P::TSCM: return "TSCM";
    case P::C2PIPE2GM: return "C2PIPE2GM";
    case P::C2PIPE2LOCAL: return "C2PIPE2LOCAL";
    case P::MAX: return "MAX";
  }
  return "?";
}

// The position whose memory holds a TQueBind<src, dst> buffer: the destination,
// unless the destination is GM (VECOUT -> GM, CO1 -> CO2 keep data at the source).
constexpr AscendC::TPosition buffer_position(AscendC::TPosition src, AscendC::TPosition dst) {
  return space_of(dst) == Space::GM ? src : dst;
}

struct QueuePipes {
  Pipe producer = Pipe::V;  // writes the buffer before EnQue
  Pipe consumer = Pipe::V;  // reads it after DeQue
  bool synced() const { return producer != consumer; }
};

// Queue pipes of a single-position TQue<pos>, i.e. of its TQueBind equivalent
// (VECIN = GM->VECIN, VECOUT = VECOUT->GM, A2 = A1->A2, CO1 = CO1->CO2 ...).
constexpr QueuePipes single_position_pipes(AscendC::TPosition pos) {
  using P = AscendC::TPosition;
  switch (pos) {
    case P::VECIN: return {Pipe::MTE2, Pipe::V};
    case P::VECOUT: return {Pipe::V, Pipe::MTE3};
    case P::A1: case P::B1: case P::C1: case P::TSCM: return {Pipe::MTE2, Pipe::MTE1};
    case P::A2: case P::B2: case P::C2: return {Pipe::MTE1, Pipe::M};
    case P::CO1: return {Pipe::M, Pipe::FIX};
    case P::CO2: return {Pipe::FIX, Pipe::MTE3};
    default: return {Pipe::V, Pipe::V};  // VECCALC and scratch positions: vector only, no events
  }
}

constexpr QueuePipes queue_pipes(AscendC::TPosition src, AscendC::TPosition dst) {
  using P = AscendC::TPosition;
  if (src == dst) return single_position_pipes(src);
  if (src == P::GM) return single_position_pipes(dst);  // GM->VECIN, GM->A1 ...
  if (dst == P::GM) return single_position_pipes(src);  // VECOUT->GM, CO2->GM
  if (src == P::VECIN && dst == P::VECOUT) return {Pipe::MTE2, Pipe::MTE3};  // copy-through, no vector work
  if (src == P::VECOUT) return {Pipe::V, Pipe::MTE3};                      // VECOUT -> A1/B1/C1
  if (src == P::CO2 && dst == P::VECIN) return {Pipe::FIX, Pipe::V};
  if (src == P::CO1) return {Pipe::M, Pipe::FIX};                          // CO1 -> CO2
  return single_position_pipes(dst);                                       // A1->A2, B1->B2, C1->C2
}

// Placement alignment of buffers inside each local memory.
constexpr uint32_t alignment_of(Space s) {
  switch (s) {
    case Space::L0A: case Space::L0B: return 512;
    case Space::L0C: case Space::BT: case Space::FB: return 64;
    default: return 32;
  }
}

}  // namespace aoc
