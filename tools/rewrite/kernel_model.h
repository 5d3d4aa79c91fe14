// What the rewriter knows about an operator's sources, in plain data: the calls, variables,
// class members, functions and loops clang found, each with the file offsets of its text.
// Only clang_frontend.cpp sees clang; the motifs read and edit this model, so they compile
// without the clang headers.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace aoc::rewrite {

// A span of one source file: [begin, end) byte offsets, plus the 1-based line of begin.
struct Range {
  std::string file;
  uint32_t begin = 0;
  uint32_t end = 0;
  uint32_t line = 0;
  bool valid() const { return !file.empty() && end >= begin; }
};

struct Arg {
  std::string text;  // spelling as written
  Range range;
  bool is_literal = false;  // integer or floating literal, possibly cast
};

// A call of a function or a method. AscendC API calls keep their unqualified name in
// `callee` and "AscendC" in `ns`.
struct Call {
  std::string callee;
  std::string ns;            // enclosing namespace of the callee, e.g. "AscendC"
  std::string object;        // for member calls: the object expression as written
  std::string object_type;   // for member calls: the object's class template name (TQue, TBuf, TPipe ...)
  std::string template_args; // explicit template arguments as written (without <>)
  std::vector<Arg> args;
  Range range;               // the call expression
  Range stmt;                // the whole statement holding it, with its ';' (valid when the call is one)
  std::string function;      // enclosing function (method name for class kernels)
  std::string klass;         // enclosing class, empty for free functions
  int loop_depth = 0;        // for/while loops around it inside its function
  int loop_id = -1;          // innermost loop (index into KernelModel::loops)
  bool editable = false;     // spelled in an operator source file, not inside a macro body
};

// A variable or a class member.
struct Var {
  std::string name;
  std::string type;          // type as written
  std::string type_template; // class template name of the type (TQue, TBuf ...) when it is one
  std::string klass;         // owning class for members
  std::string function;      // enclosing function for locals, empty for globals and members
  bool is_member = false;
  bool is_param = false;     // a function parameter (function = its function)
  bool is_constexpr = false;
  bool is_const = false;
  std::string init;          // initializer as written
  Range init_range;
  Range decl;                // the whole declaration statement (with ';' for single declarations)
  Range type_range;          // the written type
  bool single_decl = true;   // false for `T a, b;`
  bool editable = false;
  std::vector<Range> uses;   // references by name (DeclRefExpr / MemberExpr)
  Range scope;               // for locals: the innermost block holding the declaration, braces included
};

struct Function {
  std::string name;
  std::string klass;
  Range body;       // the braces included
  Range decl;       // the whole definition
  bool editable = false;
  std::vector<std::string> params;
};

struct Loop {
  Range range;
  Range body;
  std::string function;
  std::string klass;
  int parent = -1;
};

// A `{ ... }` block of a function body and its statements in order (each with its ';').
struct Block {
  Range range;               // braces included
  std::vector<Range> stmts;
  std::string function;
  std::string klass;
};

struct KernelModel {
  std::vector<Call> calls;
  std::vector<Block> blocks;
  std::vector<Var> vars;
  std::vector<Function> functions;
  std::vector<Loop> loops;
  std::map<std::string, std::string> files;  // path -> contents of every editable file
  std::vector<std::string> kernel_files;     // the translation units parsed as kernel code
  std::vector<std::string> host_files;       // the translation units parsed as host tiling code

  bool is_host(const std::string& file) const;
  std::string text(const Range& r) const;
  const Var* find_var(const std::string& name, const std::string& klass = "", bool host = false) const;
  // The variable `name` means where call `c` is written: a parameter or local of its function
  // first (two functions may both name a tensor dst), then find_var's member or global.
  const Var* var_seen_by(const Call& c, const std::string& name) const;
  const Function* find_function(const std::string& name, const std::string& klass) const;
  std::vector<const Call*> calls_named(const std::string& callee) const;
  // Calls of the function holding `c` (same class and file), in source order.
  std::vector<const Call*> calls_beside(const Call& c) const;
  // The first call after `after` in its function, not one nested in it, whose object or an
  // argument names `tensor` (as a whole word, so `t[i]` and `t.ReinterpretCast<U>()` count; a
  // `tensor` written `this->t` or `t[64]` stands for t): the next read or write of that tensor. Null when the function does not use it again.
  const Call* next_use(const Call& after, const std::string& tensor) const;
  // Whether a call of the function holding `c`, other than `c` and `skip` and the calls nested
  // in them, names `tensor` anywhere (before or after).
  bool used_elsewhere(const Call& c, const std::string& tensor, const Call* skip = nullptr) const;
  // The innermost block holding `r`, null when none does.
  const Block* block_of(const Range& r) const;
  // The largest block inside statement `stmt` holding `r` (an arm of an if), null when none.
  const Block* outermost_block_in(const Range& stmt, const Range& r) const;
  // Whether `a` and `b` never both run in one pass through the block holding both: they sit in
  // two arms of one if/else, or one sits in an if's arm that ends with continue, break or
  // return and the other comes after that if.
  bool exclusive(const Call& a, const Call& b) const;
};

// A letter, digit or underscore: a character of a C++ identifier.
bool is_ident_char(char ch);

// The variable an argument names: `x` of `this->x`, `x[i]` or `x.ReinterpretCast<U>()`.
std::string argument_variable(const std::string& text);

// `name` occurs in `text` as a whole identifier.
bool names_word(const std::string& text, const std::string& name);

}  // namespace aoc::rewrite
