// clang 19 LibTooling front end: runs the parser over the operator's units and records the
// calls, declarations, functions and loops of the operator's own files as plain data.
#include "clang_frontend.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Basic/Version.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Lex/Lexer.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <unordered_map>

#ifndef AOC_CLANG_RESOURCE_DIR
#error "AOC_CLANG_RESOURCE_DIR must name clang's resource directory (builtin headers)"
#endif

namespace aoc::rewrite {

std::string real_path(const std::string& path) {
  llvm::SmallString<256> out;
  if (llvm::sys::fs::real_path(path, out)) return path;
  return std::string(out.str());
}

namespace {

using namespace clang;

// Collects error diagnostics with their file and line instead of printing them.
class ErrorCollector : public DiagnosticConsumer {
public:
  std::vector<ParseError> errors;
  void HandleDiagnostic(DiagnosticsEngine::Level level, const Diagnostic& info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < DiagnosticsEngine::Error) return;
    ParseError e;
    llvm::SmallString<200> msg;
    info.FormatDiagnostic(msg);
    e.message = std::string(msg.str());
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      const SourceManager& sm = info.getSourceManager();
      PresumedLoc p = sm.getPresumedLoc(sm.getFileLoc(info.getLocation()));
      if (p.isValid()) {
        e.file = real_path(p.getFilename());
        e.line = p.getLine();
        e.column = p.getColumn();
      }
    }
    if (errors.size() < 20) errors.push_back(std::move(e));
  }
};

class Visitor : public RecursiveASTVisitor<Visitor> {
public:
  Visitor(ASTContext& ctx, KernelModel& model, const std::vector<std::string>& roots, std::set<std::string>& seen)
      : ctx_(ctx), sm_(ctx.getSourceManager()), model_(model), roots_(roots), seen_(seen) {}

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseFunctionDecl(FunctionDecl* f) { return traverse_function(f, [&] { return Base::TraverseFunctionDecl(f); }); }
  bool TraverseCXXMethodDecl(CXXMethodDecl* f) {
    return traverse_function(f, [&] { return Base::TraverseCXXMethodDecl(f); });
  }
  bool TraverseCXXConstructorDecl(CXXConstructorDecl* f) {
    return traverse_function(f, [&] { return Base::TraverseCXXConstructorDecl(f); });
  }
  bool TraverseCXXRecordDecl(CXXRecordDecl* r) {
    std::string saved = klass_;
    if (r->getIdentifier()) klass_ = r->getNameAsString();
    bool ok = Base::TraverseCXXRecordDecl(r);
    klass_ = saved;
    return ok;
  }
  bool TraverseForStmt(ForStmt* s) { return traverse_loop(s, s->getBody(), [&] { return Base::TraverseForStmt(s); }); }
  bool TraverseWhileStmt(WhileStmt* s) {
    return traverse_loop(s, s->getBody(), [&] { return Base::TraverseWhileStmt(s); });
  }
  bool TraverseDoStmt(DoStmt* s) { return traverse_loop(s, s->getBody(), [&] { return Base::TraverseDoStmt(s); }); }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt* s) {
    return traverse_loop(s, s->getBody(), [&] { return Base::TraverseCXXForRangeStmt(s); });
  }

  // The blocks around a local declaration: its scope.
  bool TraverseCompoundStmt(CompoundStmt* c, DataRecursionQueue* queue = nullptr) {
    bool ok = false;
    blocks_.push_back(range_of(c->getSourceRange(), &ok));
    add_block(c, blocks_.back(), ok);
    // Children traversed here, not queued, so the block is on the stack while they are visited.
    (void)queue;
    bool r = Base::TraverseCompoundStmt(c, nullptr);
    blocks_.pop_back();
    return r;
  }

  // Statements of a block: a call that is a whole statement gets the statement's range.
  bool VisitCompoundStmt(CompoundStmt* c) {
    for (Stmt* s : c->body()) {
      auto* e = dyn_cast<Expr>(s);
      if (!e) continue;
      auto* call = dyn_cast<CallExpr>(e->IgnoreImplicit());
      if (call) statement_calls_.insert(call);
    }
    return true;
  }

  bool VisitCallExpr(CallExpr* c) {
    if (isa<CXXOperatorCallExpr>(c)) return true;
    Call out;
    if (!callee_of(c, out)) return true;
    out.range = range_of(c->getSourceRange(), &out.editable);
    if (!out.range.valid() || !in_roots(out.range.file)) return true;
    for (unsigned i = 0; i < c->getNumArgs(); ++i) {
      const Expr* a = c->getArg(i);
      if (isa<CXXDefaultArgExpr>(a)) continue;
      Arg arg;
      bool ok = false;
      arg.range = range_of(a->getSourceRange(), &ok);
      arg.text = text_of(a->getSourceRange());
      arg.is_literal = is_literal(a);
      out.args.push_back(std::move(arg));
    }
    if (statement_calls_.count(c) && out.editable) out.stmt = statement_of(out.range);
    out.function = function_;
    out.klass = function_klass_;
    out.loop_depth = static_cast<int>(loops_.size());
    out.loop_id = loops_.empty() ? -1 : loops_.back();
    model_.calls.push_back(std::move(out));
    return true;
  }

  bool VisitVarDecl(VarDecl* v) {
    if (v->isImplicit() || !v->getIdentifier()) return true;
    Var out;
    out.is_param = isa<ParmVarDecl>(v);
    out.name = v->getNameAsString();
    out.is_constexpr = v->isConstexpr();
    out.is_const = v->getType().isConstQualified();
    out.function = function_;
    out.klass = v->isStaticDataMember() ? klass_ : (function_.empty() ? "" : function_klass_);
    out.is_member = v->isStaticDataMember();
    if (!out.is_member && !function_.empty() && !blocks_.empty()) out.scope = blocks_.back();
    if (v->getInit()) {
      bool ok = false;
      out.init_range = range_of(v->getInit()->getSourceRange(), &ok);
      out.init = text_of(v->getInit()->getSourceRange());
    }
    return add_var(v, std::move(out));
  }

  bool VisitFieldDecl(FieldDecl* f) {
    if (!f->getIdentifier()) return true;
    Var out;
    out.name = f->getNameAsString();
    out.is_member = true;
    out.klass = klass_;
    if (f->hasInClassInitializer() && f->getInClassInitializer()) {
      bool ok = false;
      out.init_range = range_of(f->getInClassInitializer()->getSourceRange(), &ok);
      out.init = text_of(f->getInClassInitializer()->getSourceRange());
    }
    return add_var(f, std::move(out));
  }

  bool VisitDeclRefExpr(DeclRefExpr* e) { return add_use(e->getDecl(), e->getLocation()); }
  bool VisitMemberExpr(MemberExpr* e) { return add_use(e->getMemberDecl(), e->getMemberLoc()); }

  // Uses may precede their declaration (class members declared after the methods).
  void finish() {
    for (auto& [decl, r] : pending_uses_) {
      auto it = var_index_.find(decl);
      if (it != var_index_.end()) model_.vars[it->second].uses.push_back(r);
    }
  }

private:
  using Base = RecursiveASTVisitor<Visitor>;

  template <class F>
  bool traverse_function(FunctionDecl* f, F&& base) {
    if (!f->doesThisDeclarationHaveABody()) return base();
    std::string saved_fn = function_, saved_klass = function_klass_;
    std::vector<int> saved_loops;
    saved_loops.swap(loops_);
    function_ = f->getNameAsString();
    function_klass_.clear();
    if (auto* m = dyn_cast<CXXMethodDecl>(f)) function_klass_ = m->getParent()->getNameAsString();
    Function out;
    out.name = function_;
    out.klass = function_klass_;
    out.body = range_of(f->getBody()->getSourceRange(), &out.editable);
    bool ok = false;
    out.decl = range_of(f->getSourceRange(), &ok);
    for (const ParmVarDecl* p : f->parameters()) out.params.push_back(p->getNameAsString());
    if (out.body.valid() && in_roots(out.body.file) && !seen_.count("fn:" + key(out.body)) ) {
      seen_.insert("fn:" + key(out.body));
      model_.functions.push_back(out);
    }
    bool r = base();
    function_ = saved_fn;
    function_klass_ = saved_klass;
    loops_.swap(saved_loops);
    return r;
  }

  template <class F>
  bool traverse_loop(Stmt* s, Stmt* body, F&& base) {
    Loop l;
    bool ok = false;
    l.range = range_of(s->getSourceRange(), &ok);
    if (body) l.body = range_of(body->getSourceRange(), &ok);
    l.function = function_;
    l.klass = function_klass_;
    l.parent = loops_.empty() ? -1 : loops_.back();
    int id = static_cast<int>(model_.loops.size());
    model_.loops.push_back(l);
    loops_.push_back(id);
    bool r = base();
    loops_.pop_back();
    return r;
  }

  // A block of an operator file and its statements, once (a header is seen by several units).
  void add_block(CompoundStmt* c, const Range& r, bool editable) {
    if (!editable || function_.empty() || !r.valid() || seen_.count("blk:" + key(r))) return;
    seen_.insert("blk:" + key(r));
    Block b{r, {}, function_, function_klass_};
    for (Stmt* s : c->body()) {
      bool ok = false;
      Range sr = range_of(s->getSourceRange(), &ok);
      b.stmts.push_back(statement_of(sr));  // expression and return statements end at their ';'

    }
    model_.blocks.push_back(std::move(b));
  }

  static std::string key(const Range& r) { return r.file + ":" + std::to_string(r.begin); }

  // A literal number through casts, conversions to class types (half) and a sign.
  static bool is_literal(const Expr* e) {
    for (int guard = 0; e && guard < 16; ++guard) {
      e = e->IgnoreImplicit()->IgnoreParenImpCasts();
      if (isa<IntegerLiteral>(e) || isa<FloatingLiteral>(e)) return true;
      if (auto* c = dyn_cast<ExplicitCastExpr>(e)) e = c->getSubExpr();
      else if (auto* k = dyn_cast<CXXConstructExpr>(e); k && k->getNumArgs() == 1) e = k->getArg(0);
      else if (auto* u = dyn_cast<UnaryOperator>(e); u && (u->getOpcode() == UO_Minus || u->getOpcode() == UO_Plus)) e = u->getSubExpr();
      else return false;
    }
    return false;
  }

  bool in_roots(const std::string& file) const {
    for (const auto& root : roots_)
      if (file.rfind(root, 0) == 0) return true;
    return false;
  }

  // Class template name of a type (TQue, TBuf, LocalTensor ...), through references and sugar.
  static std::string template_name(QualType t) {
    t = t.getNonReferenceType();
    if (const auto* p = t->getAs<PointerType>()) t = p->getPointeeType();
    if (const auto* ts = t->getAs<TemplateSpecializationType>())
      if (auto* td = ts->getTemplateName().getAsTemplateDecl()) return td->getNameAsString();
    if (const auto* rd = t->getAsCXXRecordDecl()) {
      if (const auto* spec = dyn_cast<ClassTemplateSpecializationDecl>(rd))
        return spec->getSpecializedTemplate()->getNameAsString();
      return rd->getNameAsString();
    }
    return "";
  }

  bool add_var(DeclaratorDecl* d, Var out) {
    out.decl = range_of(d->getSourceRange(), &out.editable);
    if (!out.decl.valid() || !in_roots(out.decl.file)) return true;
    const std::string k = key(out.decl) + ":" + out.name;  // `T a, b;` share a begin
    if (seen_.count("var:" + k)) return true;  // a header seen by several units
    seen_.insert("var:" + k);
    if (auto* tsi = d->getTypeSourceInfo()) {
      bool ok = false;
      out.type_range = range_of(tsi->getTypeLoc().getSourceRange(), &ok);
      out.type = text_of(tsi->getTypeLoc().getSourceRange());
    }
    out.type_template = template_name(d->getType());
    // `T a, b;` shares one begin location: only a lone declarator owns its statement.
    SourceLocation begin = sm_.getFileLoc(d->getBeginLoc());
    out.single_decl = true;
    if (auto* next = dyn_cast_or_null<DeclaratorDecl>(d->getNextDeclInContext()))
      if (sm_.getFileLoc(next->getBeginLoc()) == begin) out.single_decl = false;
    if (begin_count_[begin.getRawEncoding()]++ > 0) {
      out.single_decl = false;
      for (auto& v : model_.vars)
        if (v.decl.file == out.decl.file && v.decl.begin == out.decl.begin) v.single_decl = false;
    }
    if (out.single_decl && out.editable) out.decl = statement_of(out.decl);
    var_index_[d->getCanonicalDecl()] = model_.vars.size();
    model_.vars.push_back(std::move(out));
    return true;
  }

  bool add_use(ValueDecl* d, SourceLocation loc) {
    if (!d) return true;
    bool editable = false;
    Range r = range_of(SourceRange(loc, loc), &editable);
    if (r.valid() && editable && in_roots(r.file)) pending_uses_.emplace_back(d->getCanonicalDecl(), r);
    return true;
  }

  bool callee_of(CallExpr* c, Call& out) {
    const Expr* callee = c->getCallee()->IgnoreParenImpCasts();
    auto targs = [&](SourceLocation l, SourceLocation r) {
      if (l.isValid() && r.isValid()) {
        std::string t = text_of(SourceRange(l, r));
        if (t.size() >= 2) out.template_args = t.substr(1, t.size() - 2);
      }
    };
    auto set_object = [&](const Expr* base) {
      if (!base) return;
      out.object = text_of(base->getSourceRange());
      out.object_type = template_name(base->getType());
    };
    if (auto* m = dyn_cast<MemberExpr>(callee)) {
      out.callee = m->getMemberNameInfo().getAsString();
      if (!m->isImplicitAccess()) set_object(m->getBase());
      targs(m->getLAngleLoc(), m->getRAngleLoc());
      return true;
    }
    if (auto* m = dyn_cast<CXXDependentScopeMemberExpr>(callee)) {
      out.callee = m->getMember().getAsString();
      if (!m->isImplicitAccess()) set_object(m->getBase());
      targs(m->getLAngleLoc(), m->getRAngleLoc());
      return true;
    }
    if (auto* m = dyn_cast<UnresolvedMemberExpr>(callee)) {
      out.callee = m->getMemberName().getAsString();
      if (!m->isImplicitAccess()) set_object(m->getBase());
      targs(m->getLAngleLoc(), m->getRAngleLoc());
      return true;
    }
    if (auto* r = dyn_cast<DeclRefExpr>(callee)) {
      auto* fd = dyn_cast<FunctionDecl>(r->getDecl());
      if (!fd) return false;
      out.callee = fd->getNameAsString();
      if (auto* ns = dyn_cast<NamespaceDecl>(fd->getDeclContext()->getEnclosingNamespaceContext()))
        out.ns = ns->getNameAsString();
      targs(r->getLAngleLoc(), r->getRAngleLoc());
      return true;
    }
    if (auto* u = dyn_cast<UnresolvedLookupExpr>(callee)) {
      out.callee = u->getName().getAsString();
      for (const NamedDecl* d : u->decls()) {
        if (auto* ns = dyn_cast<NamespaceDecl>(d->getDeclContext()->getEnclosingNamespaceContext())) {
          out.ns = ns->getNameAsString();
          break;
        }
      }
      targs(u->getLAngleLoc(), u->getRAngleLoc());
      return true;
    }
    return false;
  }

  // The file range of a source range. Ranges inside macro arguments map to their spelling;
  // ranges produced by a macro body are reported at the macro use and marked not editable.
  Range range_of(SourceRange sr, bool* editable) {
    Range r;
    *editable = false;
    SourceLocation b = sr.getBegin(), e = sr.getEnd();
    if (b.isInvalid() || e.isInvalid()) return r;
    bool clean = b.isFileID() && e.isFileID();
    if (!clean && sm_.isMacroArgExpansion(b) && sm_.isMacroArgExpansion(e)) {
      SourceLocation sb = sm_.getSpellingLoc(b), se = sm_.getSpellingLoc(e);
      if (sm_.getFileID(sb) == sm_.getFileID(se) && sb.isFileID()) {
        b = sb;
        e = se;
        clean = true;
      }
    }
    if (!clean) {
      CharSourceRange cr = sm_.getExpansionRange(sr);
      b = cr.getBegin();
      e = cr.getEnd();
    }
    FileID fid = sm_.getFileID(b);
    if (fid != sm_.getFileID(e)) return r;
    auto entry = sm_.getFileEntryRefForID(fid);
    if (!entry) return r;
    r.file = real_path_of(fid, entry->getName());
    r.begin = sm_.getFileOffset(b);
    r.end = sm_.getFileOffset(e) + Lexer::MeasureTokenLength(e, sm_, ctx_.getLangOpts());
    r.line = sm_.getSpellingLineNumber(b);
    *editable = clean && in_roots(r.file);
    if (r.valid() && !model_.files.count(r.file) && in_roots(r.file)) {
      std::ifstream in(r.file, std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      model_.files[r.file] = ss.str();
    }
    return r;
  }

  std::string text_of(SourceRange sr) {
    bool editable = false;
    Range r = range_of(sr, &editable);
    if (!r.valid()) return "";
    auto it = model_.files.find(r.file);
    if (it != model_.files.end() && r.end <= it->second.size()) return it->second.substr(r.begin, r.end - r.begin);
    bool invalid = false;
    llvm::StringRef t = Lexer::getSourceText(CharSourceRange::getTokenRange(sr), sm_, ctx_.getLangOpts(), &invalid);
    return invalid ? "" : t.str();
  }

  // Extends a range to the ';' that ends its statement, when only blanks lie between.
  Range statement_of(Range r) const {
    auto it = model_.files.find(r.file);
    if (it == model_.files.end()) return r;
    const std::string& s = it->second;
    size_t i = r.end;
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    if (i < s.size() && s[i] == ';') r.end = static_cast<uint32_t>(i + 1);
    return r;
  }

  // A file's real path, resolved once per file: resolving is a readlink per path component,
  // and every range of the headers asks for it (most of the parse's system time before).
  const std::string& real_path_of(FileID fid, llvm::StringRef name) {
    auto [it, added] = real_paths_.try_emplace(fid.getHashValue());
    if (added) it->second = real_path(name.str());
    return it->second;
  }

  ASTContext& ctx_;
  SourceManager& sm_;
  std::unordered_map<unsigned, std::string> real_paths_;
  KernelModel& model_;
  const std::vector<std::string>& roots_;
  std::set<std::string>& seen_;
  std::string klass_, function_, function_klass_;
  std::vector<int> loops_;
  std::vector<Range> blocks_;
  std::set<const CallExpr*> statement_calls_;
  std::map<const Decl*, size_t> var_index_;
  std::vector<std::pair<const Decl*, Range>> pending_uses_;
  std::map<unsigned, int> begin_count_;
};

class Consumer : public ASTConsumer {
public:
  Consumer(KernelModel& m, const std::vector<std::string>& roots, std::set<std::string>& seen)
      : model_(m), roots_(roots), seen_(seen) {}
  void HandleTranslationUnit(ASTContext& ctx) override {
    if (ctx.getDiagnostics().hasErrorOccurred()) return;
    Visitor v(ctx, model_, roots_, seen_);
    // Declarations parsed in this unit only: those of a precompiled header (kernel_operator.h)
    // are the API's, which the model keeps nothing of, and visiting them would load them all.
    for (Decl* d : ctx.getTranslationUnitDecl()->noload_decls()) v.TraverseDecl(d);
    v.finish();
  }

private:
  KernelModel& model_;
  const std::vector<std::string>& roots_;
  std::set<std::string>& seen_;
};

class Action : public ASTFrontendAction {
public:
  Action(KernelModel& m, const std::vector<std::string>& roots, std::set<std::string>& seen)
      : model_(m), roots_(roots), seen_(seen) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance&, llvm::StringRef) override {
    return std::make_unique<Consumer>(model_, roots_, seen_);
  }

private:
  KernelModel& model_;
  const std::vector<std::string>& roots_;
  std::set<std::string>& seen_;
};

class ActionFactory : public tooling::FrontendActionFactory {
public:
  ActionFactory(KernelModel& m, const std::vector<std::string>& roots, std::set<std::string>& seen)
      : model_(m), roots_(roots), seen_(seen) {}
  std::unique_ptr<FrontendAction> create() override { return std::make_unique<Action>(model_, roots_, seen_); }

private:
  KernelModel& model_;
  const std::vector<std::string>& roots_;
  std::set<std::string>& seen_;
};

// The language options of every parse, and of the prefix precompiled headers: clang loads one
// only into a parse with the same options. `x.template f(args)` without a template argument list
// is an error only from clang 19 on; g++ and the device compiler accept it, and public kernels
// write it (`inQueue.template FreeTensor(t)`), so it is not one here either.
std::vector<std::string> language_args() {
  return {"-std=c++20", "-w", "-Wno-missing-template-arg-list-after-template-kw", "-resource-dir",
          AOC_CLANG_RESOURCE_DIR};
}

// Kernel units get the device's kernel-side view of the headers, as in the kernel build
// (aoc/kernel_unit.h): the op's tiling structs, declared in namespace optiling, are found
// unqualified too, as kernels name them.
constexpr const char* kKernelUnitDefine = "-DAOC_KERNEL_UNIT";

std::vector<ParseError> run_units(const std::vector<std::string>& files, const std::vector<std::string>& flags,
                                  tooling::FrontendActionFactory& factory, const std::string& pch = "") {
  if (files.empty()) return {};
  std::vector<std::string> args = language_args();
  args.insert(args.end(), {"-fsyntax-only", "-ferror-limit=20"});
  if (!pch.empty()) args.insert(args.end(), {"-include-pch", pch});
  args.insert(args.end(), flags.begin(), flags.end());
  tooling::FixedCompilationDatabase db(".", args);
  tooling::ClangTool tool(db, files);
  ErrorCollector errors;
  tool.setDiagnosticConsumer(&errors);
  int rc = tool.run(&factory);
  if (rc != 0 && errors.errors.empty()) {
    ParseError e;
    e.file = files.front();
    e.message = "clang could not process the file (missing or unreadable?)";
    errors.errors.push_back(e);
  }
  return errors.errors;
}

// ---------------------------------------------------------------------------------------- prefix PCHs

// A prefix every unit of one kind includes, parsed once into a precompiled header: the kernel
// units' kernel_operator.h (with the kernel-unit define), the host units' two API headers (the
// libstdc++ they pull in is most of a host unit's parse). Its flags are those of every unit of
// the kind that do not name the operator (its folders, dtypes and tiling header follow).
struct Prefix {
  const char* kind;                   // "kernel" or "host": the file name's start
  std::vector<std::string> includes;  // the headers, as the units spell them
  bool kernel_unit = false;           // parsed with kKernelUnitDefine
};

const Prefix& kernel_prefix() {
  static const Prefix p{"kernel", {"kernel_operator.h"}, true};
  return p;
}
const Prefix& host_prefix() {
  static const Prefix p{"host", {"register/op_def_registry.h", "tiling/platform/platform_ascendc.h"}, false};
  return p;
}

std::string prefix_text(const Prefix& p) {
  std::string out;
  for (const auto& h : p.includes) out += "#include \"" + h + "\"\n";
  return out;
}

std::vector<std::string> pch_flags(const ParseInput& in, const Prefix& p) {
  std::vector<std::string> out = {"-I" + in.pch_include_dir};
  if (p.kernel_unit) out.push_back(kKernelUnitDefine);
  return out;
}

// FNV-1a: the precompiled header's name, from what it depends on besides the headers' content
// (clang checks that itself when loading it, and refuses one whose headers changed).
std::string pch_name(const ParseInput& in, const Prefix& p) {
  uint64_t h = 1469598103934665603ull;
  auto add = [&h](const std::string& s) {
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull;
  };
  add(prefix_text(p));
  add(CLANG_VERSION_STRING);
  for (const auto& f : language_args()) add(f);
  for (const auto& f : pch_flags(in, p)) add(f);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return std::string(p.kind) + "-" + hex + ".pch";
}

// Whether every unit includes the prefix's headers with nothing before them that could change
// what they declare (a #define, #undef or conditional): then the prefix parsed first is the same.
bool prefix_fits(const std::vector<std::string>& files, const Prefix& p) {
  static const std::regex include_line(R"re(^\s*#\s*include\s*"([^"]+)")re");
  static const std::regex other_directive(R"(^\s*#\s*(define|undef|if|ifdef|ifndef|pragma\s+push_macro))");
  if (files.empty()) return false;
  for (const auto& f : files) {
    std::ifstream in(f);
    std::string line;
    std::set<std::string> missing(p.includes.begin(), p.includes.end());
    std::smatch g;
    while (!missing.empty() && std::getline(in, line)) {
      if (std::regex_search(line, g, include_line)) missing.erase(g[1]);
      else if (std::regex_search(line, other_directive)) return false;
    }
    if (!missing.empty()) return false;
  }
  return true;
}

// The prefix as a precompiled header under in.pch_dir, built when missing (written under a
// temporary name and renamed, so concurrent rewriters never read half a file); "" when it
// cannot be built, or when the units do not all begin with it.
std::string prefix_pch(const ParseInput& in, const std::vector<std::string>& files, const Prefix& p) {
  if (in.pch_dir.empty() || in.pch_include_dir.empty() || !prefix_fits(files, p)) return "";
  llvm::sys::fs::create_directories(in.pch_dir);
  const std::string pch = in.pch_dir + "/" + pch_name(in, p);
  if (llvm::sys::fs::exists(pch)) return pch;
  // The prefix stays beside it: clang checks the files a precompiled header was made from.
  const std::string stem = pch + ".tmp" + std::to_string(::getpid());
  const std::string header = pch.substr(0, pch.size() - 4) + ".h";
  if (!llvm::sys::fs::exists(header)) {
    {
      std::ofstream h(stem + ".h");
      h << prefix_text(p);
      if (!h) return "";
    }
    if (llvm::sys::fs::rename(stem + ".h", header)) return "";
  }
  std::vector<std::string> args = language_args();
  args.insert(args.end(), {"-x", "c++-header"});
  for (const auto& f : pch_flags(in, p)) args.push_back(f);
  args.insert(args.end(), {"-o", stem});
  tooling::FixedCompilationDatabase db(".", args);
  tooling::ClangTool tool(db, {header});
  tool.clearArgumentsAdjusters();  // keep -o, drop the syntax-only default
  ErrorCollector errors;
  tool.setDiagnosticConsumer(&errors);
  auto factory = tooling::newFrontendActionFactory<GeneratePCHAction>();
  const bool ok = tool.run(factory.get()) == 0 && errors.errors.empty();
  if (!ok || llvm::sys::fs::rename(stem, pch)) {
    llvm::sys::fs::remove(stem);
    return "";
  }
  return pch;
}

bool mentions_pch(const std::vector<ParseError>& errors) {
  for (const auto& e : errors)
    if (e.message.find("precompiled header") != std::string::npos || e.message.find("PCH") != std::string::npos ||
        e.message.find("AST file") != std::string::npos)
      return true;
  return false;
}

// Runs `parse(kernel_pch, host_pch)` with the precompiled prefixes when they can be had, and
// again without them when that fails.
template <class Parse>
std::vector<ParseError> with_prefixes(const ParseInput& in, Parse&& parse) {
  const std::string kernel_pch = prefix_pch(in, in.kernel_files, kernel_prefix());
  const std::string host_pch = prefix_pch(in, in.host_files, host_prefix());
  if (kernel_pch.empty() && host_pch.empty()) return parse("", "");
  auto errors = parse(kernel_pch, host_pch);
  if (errors.empty()) return errors;
  // A stale or unreadable precompiled header is built again next time; the sources' own errors
  // (or a clash with a prefix header a unit did not include itself) are what a parse without
  // them reports.
  if (mentions_pch(errors))
    for (const auto& p : {kernel_pch, host_pch})
      if (!p.empty()) llvm::sys::fs::remove(p);
  return parse("", "");
}

std::vector<std::string> real_roots(const ParseInput& in) {
  std::vector<std::string> roots;
  for (const auto& r : in.editable_roots) {
    std::string p = real_path(r);
    if (!p.empty() && p.back() != '/') p += '/';
    roots.push_back(p);
  }
  return roots;
}

// The pass's consumer for each unit of one kind.
class PassAction : public ASTFrontendAction {
public:
  PassAction(UnitPass& pass, bool kernel) : pass_(pass), kernel_(kernel) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance& ci, llvm::StringRef) override {
    return pass_.consumer(ci, kernel_);
  }

private:
  UnitPass& pass_;
  bool kernel_;
};

class PassFactory : public tooling::FrontendActionFactory {
public:
  PassFactory(UnitPass& pass, bool kernel) : pass_(pass), kernel_(kernel) {}
  std::unique_ptr<FrontendAction> create() override { return std::make_unique<PassAction>(pass_, kernel_); }

private:
  UnitPass& pass_;
  bool kernel_;
};

}  // namespace

std::vector<ParseError> parse_sources(const ParseInput& in, KernelModel& model) {
  const std::vector<std::string> roots = real_roots(in);
  for (const auto& f : in.kernel_files) model.kernel_files.push_back(real_path(f));
  for (const auto& f : in.host_files) model.host_files.push_back(real_path(f));
  std::vector<std::string> kernel_flags = in.kernel_flags;
  kernel_flags.push_back(kKernelUnitDefine);
  return with_prefixes(in, [&](const std::string& kernel_pch, const std::string& host_pch) {
    KernelModel attempt = model;
    std::set<std::string> seen;
    ActionFactory factory(attempt, roots, seen);
    auto errors = run_units(in.kernel_files, kernel_flags, factory, kernel_pch);
    if (errors.empty()) errors = run_units(in.host_files, in.host_flags, factory, host_pch);
    if (errors.empty()) model = std::move(attempt);
    return errors;
  });
}

std::vector<ParseError> run_pass(const ParseInput& in, UnitPass& pass) {
  std::vector<std::vector<std::string>> variants = in.kernel_variants;
  if (variants.empty()) variants.emplace_back();
  return with_prefixes(in, [&](const std::string& kernel_pch, const std::string& host_pch) {
    pass.reset();
    PassFactory kernel(pass, true), host(pass, false);
    std::vector<ParseError> errors;
    for (const auto& v : variants) {
      std::vector<std::string> flags = in.kernel_flags;
      flags.insert(flags.end(), v.begin(), v.end());
      flags.push_back(kKernelUnitDefine);
      errors = run_units(in.kernel_files, flags, kernel, kernel_pch);
      if (!errors.empty()) return errors;
    }
    return run_units(in.host_files, in.host_flags, host, host_pch);
  });
}

}  // namespace aoc::rewrite
