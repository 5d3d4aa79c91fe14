#include "package/shape_expr.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <optional>

namespace aoc::package {

// An integer expression over input dimensions and int attributes.
struct ShapeNode {
  enum class Kind { Literal, Dim, Attr, Neg, Add, Sub, Mul, Div, Mod, Min, Max, CeilDiv } kind = Kind::Literal;
  int64_t value = 0;      // Literal; the index of Dim
  std::string name;       // Dim: the input; Attr: the attribute
  std::shared_ptr<const ShapeNode> a, b;
};

namespace {

using Node = std::shared_ptr<const ShapeNode>;

Node make(ShapeNode::Kind k, Node a = nullptr, Node b = nullptr) {
  auto n = std::make_shared<ShapeNode>();
  n->kind = k;
  n->a = std::move(a);
  n->b = std::move(b);
  return n;
}

// Recursive descent over one item's text:
//   expr := term (('+' | '-') term)*      term := unary (('*' | '/' | '%') unary)*
//   unary := '-' unary | primary
//   primary := INT | NAME '[' INT ']' | NAME | FUNC '(' expr ',' expr ')' | '(' expr ')'
class Parser {
 public:
  Parser(const std::string& text, const std::vector<std::string>& inputs, const std::vector<std::string>& attrs)
      : s_(text), inputs_(inputs), attrs_(attrs) {}

  Node whole_expression() {
    Node n = expr();
    skip();
    if (i_ != s_.size()) fail("unexpected '" + s_.substr(i_, 1) + "'");
    return n;
  }

  // `name` or `name[begin:end]` spanning the whole text, when name is an input; else false.
  bool slice(ShapeItem& item) {
    skip();
    const std::string name = identifier();
    if (name.empty() || !is_input(name)) return false;
    skip();
    if (i_ == s_.size()) {
      item.input = name;
      return true;
    }
    if (!eat('[')) return false;
    const size_t colon = s_.find(':', i_);
    const size_t close = s_.find(']', i_);
    if (colon == std::string::npos || close == std::string::npos || colon > close) return false;
    item.input = name;
    skip();
    if (peek() != ':') {
      item.has_begin = true;
      item.begin = signed_integer();
    }
    skip();
    if (!eat(':')) fail("expected ':' in the slice");
    skip();
    if (peek() != ']') {
      item.has_end = true;
      item.end = signed_integer();
    }
    skip();
    if (!eat(']')) fail("expected ']' to close the slice");
    skip();
    if (i_ != s_.size()) fail("a slice of an input's shape stands alone in its item (write the rest as other items)");
    return true;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw ShapeExprError("shape item \"" + s_ + "\": " + what + " (at column " + std::to_string(i_ + 1) + ")");
  }
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  bool eat(char c) {
    skip();
    if (peek() != c) return false;
    ++i_;
    return true;
  }
  bool is_input(const std::string& n) const { return std::find(inputs_.begin(), inputs_.end(), n) != inputs_.end(); }
  bool is_attr(const std::string& n) const { return std::find(attrs_.begin(), attrs_.end(), n) != attrs_.end(); }

  std::string identifier() {
    skip();
    const size_t start = i_;
    if (i_ < s_.size() && (std::isalpha(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_'))
      while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) ++i_;
    return s_.substr(start, i_ - start);
  }
  int64_t integer() {
    skip();
    if (!std::isdigit(static_cast<unsigned char>(peek()))) fail("expected a number");
    int64_t v = 0;
    while (std::isdigit(static_cast<unsigned char>(peek()))) {
      const int d = s_[i_++] - '0';
      if (v > (std::numeric_limits<int64_t>::max() - d) / 10) fail("number too large");
      v = v * 10 + d;
    }
    return v;
  }
  int64_t signed_integer() {
    skip();
    const bool neg = eat('-');
    const int64_t v = integer();
    return neg ? -v : v;
  }

  Node expr() {
    Node n = term();
    for (;;) {
      if (eat('+')) n = make(ShapeNode::Kind::Add, n, term());
      else if (eat('-')) n = make(ShapeNode::Kind::Sub, n, term());
      else return n;
    }
  }
  Node term() {
    Node n = unary();
    for (;;) {
      if (eat('*')) n = make(ShapeNode::Kind::Mul, n, unary());
      else if (eat('/')) n = make(ShapeNode::Kind::Div, n, unary());
      else if (eat('%')) n = make(ShapeNode::Kind::Mod, n, unary());
      else return n;
    }
  }
  Node unary() {
    if (eat('-')) return make(ShapeNode::Kind::Neg, unary());
    return primary();
  }
  Node primary() {
    skip();
    if (eat('(')) {
      Node n = expr();
      if (!eat(')')) fail("expected ')'");
      return n;
    }
    if (std::isdigit(static_cast<unsigned char>(peek()))) {
      auto n = std::make_shared<ShapeNode>();
      n->value = integer();
      return n;
    }
    const size_t at = i_;
    const std::string name = identifier();
    if (name.empty()) fail(peek() == '\0' ? "expression ends early" : "unexpected '" + s_.substr(i_, 1) + "'");
    static const std::map<std::string, ShapeNode::Kind> kFunctions = {
        {"min", ShapeNode::Kind::Min}, {"max", ShapeNode::Kind::Max}, {"ceildiv", ShapeNode::Kind::CeilDiv}};
    if (const auto f = kFunctions.find(name); f != kFunctions.end() && !is_input(name) && !is_attr(name)) {
      if (!eat('(')) fail(name + " takes two arguments: " + name + "(a, b)");
      Node a = expr();
      if (!eat(',')) fail(name + " takes two arguments: " + name + "(a, b)");
      Node b = expr();
      if (!eat(')')) fail("expected ')' after the arguments of " + name);
      return make(f->second, a, b);
    }
    if (is_input(name)) {
      if (!eat('[')) fail("input '" + name + "' is a shape, not a number: write " + name + "[i] for one dimension");
      auto n = std::make_shared<ShapeNode>();
      n->kind = ShapeNode::Kind::Dim;
      n->name = name;
      n->value = signed_integer();
      if (!eat(']')) fail("expected ']' after the dimension index of " + name);
      return n;
    }
    if (is_attr(name)) {
      auto n = std::make_shared<ShapeNode>();
      n->kind = ShapeNode::Kind::Attr;
      n->name = name;
      return n;
    }
    i_ = at;
    fail("'" + name + "' is neither an input nor an int attribute of the operator");
  }

  const std::string& s_;
  const std::vector<std::string>& inputs_;
  const std::vector<std::string>& attrs_;
  size_t i_ = 0;
};

int64_t floor_div(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// Index `i` of a rank-`rank` shape, negative from the end; nullopt when outside.
std::optional<size_t> dim_index(int64_t i, size_t rank) {
  const int64_t r = static_cast<int64_t>(rank);
  const int64_t k = i < 0 ? r + i : i;
  if (k < 0 || k >= r) return std::nullopt;
  return static_cast<size_t>(k);
}

struct Evaluator {
  const std::map<std::string, std::vector<int64_t>>& shapes;
  const std::map<std::string, int64_t>& attrs;
  const std::string& text;

  [[noreturn]] void fail(const std::string& what) const { throw ShapeExprError("shape item \"" + text + "\": " + what); }

  const std::vector<int64_t>& shape_of(const std::string& input) const {
    const auto it = shapes.find(input);
    if (it == shapes.end()) fail("the case has no shape for input '" + input + "'");
    return it->second;
  }

  int64_t operator()(const ShapeNode& n) const {
    using K = ShapeNode::Kind;
    switch (n.kind) {
      case K::Literal: return n.value;
      case K::Dim: {
        const auto& s = shape_of(n.name);
        const auto k = dim_index(n.value, s.size());
        if (!k) fail(n.name + "[" + std::to_string(n.value) + "] is outside its rank " + std::to_string(s.size()));
        return s[*k];
      }
      case K::Attr: {
        const auto it = attrs.find(n.name);
        if (it == attrs.end()) fail("the case gives no value for attribute '" + n.name + "'");
        return it->second;
      }
      case K::Neg: return -(*this)(*n.a);
      case K::Add: return (*this)(*n.a) + (*this)(*n.b);
      case K::Sub: return (*this)(*n.a) - (*this)(*n.b);
      case K::Mul: return (*this)(*n.a) * (*this)(*n.b);
      case K::Min: return std::min((*this)(*n.a), (*this)(*n.b));
      case K::Max: return std::max((*this)(*n.a), (*this)(*n.b));
      case K::Div:
      case K::Mod:
      case K::CeilDiv: {
        const int64_t a = (*this)(*n.a), b = (*this)(*n.b);
        if (b == 0) fail("division by zero");
        if (n.kind == K::Div) return floor_div(a, b);
        if (n.kind == K::Mod) return a - floor_div(a, b) * b;
        return -floor_div(-a, b);
      }
    }
    return 0;
  }
};

}  // namespace

ShapeItem parse_shape_item(const std::string& text, const std::vector<std::string>& inputs,
                           const std::vector<std::string>& int_attrs) {
  ShapeItem item;
  item.text = text;
  if (Parser(text, inputs, int_attrs).slice(item)) return item;
  item = ShapeItem{};
  item.text = text;
  item.dim = Parser(text, inputs, int_attrs).whole_expression();
  return item;
}

ShapeItem literal_shape_item(int64_t value) {
  ShapeItem item;
  item.text = std::to_string(value);
  auto n = std::make_shared<ShapeNode>();
  n->value = value;
  item.dim = n;
  return item;
}

std::vector<int64_t> eval_shape(const std::vector<ShapeItem>& items, const std::map<std::string, std::vector<int64_t>>& shapes,
                                const std::map<std::string, int64_t>& int_attrs) {
  std::vector<int64_t> out;
  for (const ShapeItem& item : items) {
    const Evaluator ev{shapes, int_attrs, item.text};
    if (item.dim) {
      const int64_t d = ev(*item.dim);
      if (d < 1) ev.fail("gives the dimension " + std::to_string(d) + "; every dimension must be at least 1");
      out.push_back(d);
      continue;
    }
    const auto& s = ev.shape_of(item.input);
    const int64_t rank = static_cast<int64_t>(s.size());
    // Python's slice bounds: negative from the end, clamped to [0, rank].
    const auto bound = [&](bool has, int64_t v, int64_t dflt) {
      if (!has) return dflt;
      return std::clamp<int64_t>(v < 0 ? rank + v : v, 0, rank);
    };
    const int64_t b = bound(item.has_begin, item.begin, 0), e = bound(item.has_end, item.end, rank);
    for (int64_t k = b; k < e; ++k) out.push_back(s[static_cast<size_t>(k)]);
  }
  return out;
}

}  // namespace aoc::package
