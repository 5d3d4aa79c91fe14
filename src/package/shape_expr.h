// Output shapes written in op.toml as expressions of the inputs' shapes and the attributes,
// for operators whose host code registers no InferShape (reductions, pooling, losses):
//
//   [[outputs]]
//   name = "y"
//   shape = ["x[:-1]", 1]                        # x's shape without its last dimension, then 1
//   shape = ["x[0]", "(x[1] - kernel) / stride + 1"]
//
// Each item of the list is an integer, a slice of an input's shape (`x`, `x[1:]`, `x[:-1]`,
// Python's rules, negative indices from the end) giving its dimensions in order, or an integer
// expression: literals, an input's dimension `x[i]`, an int attribute by name, + - * / %
// (integer division rounding down, as Python's //), parentheses, min(a, b), max(a, b) and
// ceildiv(a, b). An empty list is a scalar (rank 0, one element).
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace aoc::package {

class ShapeExprError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ShapeNode;  // an integer expression (shape_expr.cpp)

// One item of a `shape` list: a slice of an input's shape, or one dimension.
struct ShapeItem {
  std::string text;  // as written, for messages
  // A slice: `input`, with [begin, end) (absent ends: the whole side).
  std::string input;
  bool has_begin = false, has_end = false;
  int64_t begin = 0, end = 0;
  // Otherwise a dimension (`input` empty).
  std::shared_ptr<const ShapeNode> dim;
};

// Parses one item; `inputs` and `int_attrs` are the names it may use. Throws ShapeExprError
// saying what is wrong and where.
ShapeItem parse_shape_item(const std::string& text, const std::vector<std::string>& inputs,
                           const std::vector<std::string>& int_attrs);
// An integer item (a literal in the TOML list).
ShapeItem literal_shape_item(int64_t value);

// The shape `items` give for a case with these input shapes and int attributes. Throws
// ShapeExprError (an index outside an input's rank, a division by zero, a dimension below 1).
std::vector<int64_t> eval_shape(const std::vector<ShapeItem>& items, const std::map<std::string, std::vector<int64_t>>& shapes,
                                const std::map<std::string, int64_t>& int_attrs);

}  // namespace aoc::package
