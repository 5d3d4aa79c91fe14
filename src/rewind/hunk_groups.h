// Hunks that must be reverted together. An expert's hunks often depend on each other (a
// declaration in one, its uses in another), so the expert with one of them reverted alone may
// not parse; hunk ablation then reverts the smallest group around it that does (docs/rewind.md).
// The group is grown by following the parser: the identifiers its message quotes ("use of
// undeclared identifier 'COMPUTE_IN_FLOAT'"; for set_bufferNum, the tiling field bufferNum too)
// pull in the other hunks whose changed lines name them, until the sources parse; a message
// that leads to none pulls in the nearest hunk of the same file, else the first of another
// file. Then every pulled-in hunk whose removal from the group still parses is dropped again,
// so no single member of the result can go.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "rewind/hunks.h"

namespace aoc::rewind {

struct HunkGroup {
  std::vector<size_t> members;  // sorted indices into the hunks; the one it was grown from among them
  std::string failure;          // set: no group of at most the allowed size parses (the last message)
};

// Reverts the hunks with these (sorted) indices and says why the result does not parse, or ""
// when it does.
using ParseCheck = std::function<std::string(const std::vector<size_t>&)>;

// The group of hunks[start]: {start} itself when it parses alone.
HunkGroup group_of(size_t start, const std::vector<Hunk>& hunks, const ParseCheck& parse, size_t max_members = 6);

// The C identifiers a compiler message quotes: "no member named 'x' in 'Foo<T>'" -> x.
std::vector<std::string> quoted_identifiers(const std::string& message);

// Whether the hunk's changed lines (its - and + lines) contain `id` as a whole word.
bool names_identifier(const Hunk& h, const std::string& id);

// "1+5": how a group is named in folder names and reports.
std::string group_label(const std::vector<size_t>& members);

}  // namespace aoc::rewind
