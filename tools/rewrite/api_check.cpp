// The API check's walk over a parsed unit: which entity each name the candidate spells refers
// to, where the name was written, and api_rules.h's judgement of it.
#include "api_check.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <llvm/Support/FileSystem.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

#include "api_rules.h"
#include "clang_frontend.h"

namespace aoc::rewrite {
namespace {

using namespace clang;

std::string with_slash(std::string p) {
  if (!p.empty() && p.back() != '/') p += '/';
  return p;
}

// Where a location's text was written, and by whom.
struct Written {
  bool candidate = false;  // in a candidate file (then file/line/column say where)
  Side side = Side::Host;
  std::string file;
  unsigned line = 0, column = 0;
};

// What every unit of a check shares: the roots, the findings, and the functions and variables
// the candidate declares without defining (judged once every unit is parsed).
struct CheckState {
  std::vector<std::string> roots, kernel_roots;  // real paths ending in '/'
  std::string headers;                            // include/ascendc, real path ending in '/'
  std::set<std::tuple<std::string, unsigned, unsigned, std::string>> seen;
  std::vector<ApiViolation> violations;
  std::map<std::string, ApiViolation> declared_only;  // qualified name -> where
  std::set<std::string> defined;

  void add(const Written& w, const std::string& symbol, const std::string& reason) {
    if (!seen.insert({w.file, w.line, w.column, symbol}).second) return;
    violations.push_back({w.file, w.line, w.column, symbol, reason});
  }
};

// Classifies locations by the file that spelled them; one real path per file.
class Places {
public:
  Places(const SourceManager& sm, const CheckState& st) : sm_(sm), st_(st) {}

  // The candidate file (and place) that wrote the token at `loc`, following macro arguments
  // to where they were written, macro bodies to the macro's definition, and pasted tokens to
  // the `##` that made them.
  Written written(SourceLocation loc) {
    for (int guard = 0; loc.isValid() && guard < 64; ++guard) {
      if (loc.isFileID()) return at(loc);
      const SrcMgr::ExpansionInfo& e = sm_.getSLocEntry(sm_.getFileID(loc)).getExpansion();
      const SourceLocation spelled = sm_.getImmediateSpellingLoc(loc);
      if (e.isMacroArgExpansion()) {
        loc = spelled;
      } else if (spelled.isFileID() && sm_.isWrittenInScratchSpace(spelled)) {
        loc = e.getExpansionLocStart();  // a pasted token: the `a##b` in the macro body
      } else {
        loc = spelled;  // a macro body token: the #define that wrote it
      }
    }
    return {};
  }

  DeclOrigin origin(const Decl* d) {
    const SourceLocation loc = sm_.getFileLoc(d->getLocation());
    if (loc.isInvalid()) return DeclOrigin::Library;
    const std::string& f = file_of(sm_.getFileID(loc));
    if (under(f, st_.roots)) return DeclOrigin::Candidate;
    if (!st_.headers.empty() && f.rfind(st_.headers, 0) == 0) return DeclOrigin::AscendC;
    return DeclOrigin::Library;
  }

private:
  static bool under(const std::string& f, const std::vector<std::string>& roots) {
    return std::any_of(roots.begin(), roots.end(), [&](const std::string& r) { return f.rfind(r, 0) == 0; });
  }

  Written at(SourceLocation loc) {
    Written w;
    const std::string& f = file_of(sm_.getFileID(loc));
    if (!under(f, st_.roots)) return w;
    w.candidate = true;
    w.side = under(f, st_.kernel_roots) ? Side::Kernel : Side::Host;
    w.file = f;
    w.line = sm_.getSpellingLineNumber(loc);
    w.column = sm_.getSpellingColumnNumber(loc);
    return w;
  }

  const std::string& file_of(FileID fid) {
    auto [it, added] = files_.try_emplace(fid.getHashValue());
    if (added)
      if (auto entry = sm_.getFileEntryRefForID(fid)) it->second = real_path(entry->getName().str());
    return it->second;
  }

  const SourceManager& sm_;
  const CheckState& st_;
  std::unordered_map<unsigned, std::string> files_;
};

// The plain description api_rules.h judges.
Symbol describe(const NamedDecl* d, Places& places) {
  Symbol s;
  s.origin = places.origin(d);
  s.is_namespace = isa<NamespaceDecl>(d) || isa<NamespaceAliasDecl>(d);
  std::vector<std::string> parts;  // outermost first, inline namespaces left out of `qualified`
  for (const DeclContext* c = d->getDeclContext(); c && !c->isTranslationUnit(); c = c->getParent()) {
    if (const auto* ns = dyn_cast<NamespaceDecl>(c)) {
      const std::string n = ns->isAnonymousNamespace() ? "(anonymous)" : ns->getNameAsString();
      s.namespaces.insert(s.namespaces.begin(), n);
      s.scopes.insert(s.scopes.begin(), n);
      if (!ns->isInline() && !ns->isAnonymousNamespace()) parts.insert(parts.begin(), n);
    } else if (const auto* nd = dyn_cast<NamedDecl>(c)) {
      // Enumerators of an unscoped enum are named without it but belong to it.
      const std::string n = nd->getNameAsString();
      if (n.empty()) continue;
      s.scopes.insert(s.scopes.begin(), n);
      parts.insert(parts.begin(), n);
    }
  }
  const std::string own = d->getNameAsString();
  s.scopes.push_back(own);
  if (const auto* ns = dyn_cast<NamespaceDecl>(d); ns && !ns->isAnonymousNamespace()) s.namespaces.push_back(own);
  parts.push_back(own);
  for (size_t i = 0; i < parts.size(); ++i) s.qualified += (i ? "::" : "") + parts[i];
  return s;
}

// Operators and conversions run by operator syntax (half arithmetic, implicit conversions)
// are not names the code spells.
bool spelled_by_syntax(const NamedDecl* d) {
  const DeclarationName::NameKind k = d->getDeclName().getNameKind();
  return k == DeclarationName::CXXOperatorName || k == DeclarationName::CXXConversionFunctionName ||
         k == DeclarationName::CXXConstructorName || k == DeclarationName::CXXDestructorName;
}

class Walker : public RecursiveASTVisitor<Walker> {
  using Base = RecursiveASTVisitor<Walker>;

public:
  Walker(ASTContext& ctx, CheckState& st) : sm_(ctx.getSourceManager()), st_(st), places_(sm_, st) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }

  // Top-level declarations of the candidate's files only: the rest is library code.
  void walk_unit(TranslationUnitDecl* tu) {
    for (Decl* d : tu->noload_decls()) {
      const SourceLocation loc = sm_.getFileLoc(d->getLocation());
      if (loc.isValid() && places_.origin(d) != DeclOrigin::Candidate && !written_here(d)) continue;
      TraverseDecl(d);
    }
  }

  // ------------------------------------------------------------------ expressions
  bool VisitDeclRefExpr(DeclRefExpr* e) {
    judge(e->getFoundDecl(), e->getLocation());
    return true;
  }
  bool VisitMemberExpr(MemberExpr* e) {
    if (e->getMemberLoc().isInvalid()) return true;
    // A member of an object an AscendC macro made (`IMPL_OP(Op).Tiling(f)` chains calls on the
    // registration object) is the API's, whatever namespace its class is in; hooks stay refused.
    if (!e->isImplicitAccess() && !places_.written(e->getBase()->getBeginLoc()).candidate)
      return judge_name(e->getMemberNameInfo().getAsString(), e->getMemberLoc()), true;
    judge(e->getFoundDecl().getDecl(), e->getMemberLoc());
    return true;
  }
  bool VisitUnresolvedLookupExpr(UnresolvedLookupExpr* e) {
    for (const NamedDecl* d : e->decls()) judge(d, e->getNameLoc());
    return true;
  }
  bool VisitUnresolvedMemberExpr(UnresolvedMemberExpr* e) {
    for (const NamedDecl* d : e->decls()) judge(d, e->getMemberLoc());
    return true;
  }
  // Names in templates that only an instantiation resolves: their spelling alone tells a hook.
  bool VisitCXXDependentScopeMemberExpr(CXXDependentScopeMemberExpr* e) {
    judge_name(e->getMember().getAsString(), e->getMemberLoc());
    return true;
  }
  bool VisitDependentScopeDeclRefExpr(DependentScopeDeclRefExpr* e) {
    judge_name(e->getDeclName().getAsString(), e->getLocation());
    return true;
  }
  // A generic lambda's bodies as instantiated (the visitor does not reach them by itself).
  bool VisitLambdaExpr(LambdaExpr* e) {
    if (FunctionTemplateDecl* t = e->getDependentCallOperator())
      for (FunctionDecl* f : t->specializations()) TraverseDecl(f);
    return true;
  }
  // Operators written as operators: their arguments only (see spelled_by_syntax).
  bool TraverseCXXOperatorCallExpr(CXXOperatorCallExpr* e, DataRecursionQueue* = nullptr) {
    for (Expr* a : e->arguments()) TraverseStmt(a);
    return true;
  }

  // ------------------------------------------------------------------ types
  bool VisitTypedefTypeLoc(TypedefTypeLoc tl) { return judge(tl.getTypedefNameDecl(), tl.getNameLoc()), true; }
  bool VisitUsingTypeLoc(UsingTypeLoc tl) { return judge(tl.getTypePtr()->getFoundDecl(), tl.getNameLoc()), true; }
  bool VisitTagTypeLoc(TagTypeLoc tl) { return judge(tl.getDecl(), tl.getNameLoc()), true; }
  bool VisitTemplateSpecializationTypeLoc(TemplateSpecializationTypeLoc tl) {
    judge_template(tl.getTypePtr()->getTemplateName(), tl.getTemplateNameLoc());
    return true;
  }
  bool VisitDeducedTemplateSpecializationTypeLoc(DeducedTemplateSpecializationTypeLoc tl) {
    judge_template(tl.getTypePtr()->getTemplateName(), tl.getTemplateNameLoc());
    return true;
  }
  bool TraverseTemplateArgumentLoc(const TemplateArgumentLoc& a) {
    const TemplateArgument& arg = a.getArgument();
    if (arg.getKind() == TemplateArgument::Template || arg.getKind() == TemplateArgument::TemplateExpansion)
      judge_template(arg.getAsTemplateOrTemplatePattern(), a.getTemplateNameLoc());
    return Base::TraverseTemplateArgumentLoc(a);
  }

  // ------------------------------------------------------------------ qualifiers
  bool TraverseNestedNameSpecifierLoc(NestedNameSpecifierLoc q) {
    for (NestedNameSpecifierLoc p = q; p; p = p.getPrefix()) {
      const NestedNameSpecifier* n = p.getNestedNameSpecifier();
      if (n->getKind() == NestedNameSpecifier::Namespace) judge(n->getAsNamespace(), p.getLocalBeginLoc());
      if (n->getKind() == NestedNameSpecifier::NamespaceAlias) {
        judge(n->getAsNamespaceAlias(), p.getLocalBeginLoc());
        judge(n->getAsNamespaceAlias()->getNamespace(), p.getLocalBeginLoc());
      }
    }
    return Base::TraverseNestedNameSpecifierLoc(q);
  }

  // ------------------------------------------------------------------ declarations
  bool VisitNamespaceDecl(NamespaceDecl* d) {
    if (d->getName() == "aoc") judge(d, d->getLocation());
    return true;
  }
  bool VisitUsingDirectiveDecl(UsingDirectiveDecl* d) {
    judge(d->getNominatedNamespace(), d->getIdentLocation());
    return true;
  }
  bool VisitNamespaceAliasDecl(NamespaceAliasDecl* d) {
    judge(d->getNamespace(), d->getTargetNameLoc());
    return true;
  }
  bool VisitUsingDecl(UsingDecl* d) {
    for (const UsingShadowDecl* s : d->shadows()) judge(s->getTargetDecl(), d->getNameInfo().getLoc());
    return true;
  }
  bool VisitFunctionDecl(FunctionDecl* f) {
    note_declaration(f, f->doesThisDeclarationHaveABody() || f->isDeleted() || f->isDefaulted());
    return true;
  }
  bool VisitVarDecl(VarDecl* v) {
    if (v->isLocalVarDeclOrParm() && !v->hasExternalStorage()) return true;
    note_declaration(v, v->isThisDeclarationADefinition() != VarDecl::DeclarationOnly);
    return true;
  }

private:
  bool written_here(const Decl* d) { return places_.written(d->getLocation()).candidate; }

  void judge(const NamedDecl* d, SourceLocation loc) {
    if (!d || spelled_by_syntax(d)) return;
    const Written w = places_.written(loc);
    if (!w.candidate) return;
    // A using-declaration's shadow is judged where the using-declaration is (a header's
    // `using aoc::X;` inside AscendC makes X API); every other entity by its first declaration,
    // so a candidate's redeclaration of a header entity is the header's.
    if (!isa<UsingShadowDecl>(d)) d = cast<NamedDecl>(d->getCanonicalDecl());
    const std::string why = forbidden_reason(describe(d, places_), w.side);
    if (!why.empty()) st_.add(w, describe(d, places_).qualified, why);
  }

  void judge_template(TemplateName n, SourceLocation loc) {
    if (UsingShadowDecl* s = n.getAsUsingShadowDecl()) return judge(s, loc);
    if (TemplateDecl* t = n.getAsTemplateDecl()) judge(t, loc);
  }

  void judge_name(const std::string& name, SourceLocation loc) {
    if (name.rfind("aoc_", 0) != 0 && name.rfind("__aoc", 0) != 0) return;
    const Written w = places_.written(loc);
    if (w.candidate)
      st_.add(w, name, "names starting with aoc_ or __aoc are the API classes' implementation hooks, not the AscendC API");
  }

  // A function or variable the candidate declares at namespace scope without a definition in
  // its files would bind at load time to whatever defines it: the simulator's own symbols.
  // Redeclarations of something the headers or the library declared first are judged as names.
  void note_declaration(NamedDecl* d, bool definition) {
    const Written w = places_.written(d->getLocation());
    // Block-scope `extern` declarations name namespace-scope entities too.
    if (!w.candidate || !(d->getDeclContext()->getRedeclContext()->isFileContext() || d->isLocalExternDecl())) return;
    const Symbol s = describe(d, places_);
    if (definition) {
      st_.defined.insert(s.qualified);
      return;
    }
    const auto* f = dyn_cast<FunctionDecl>(d);
    if (f && f->getBuiltinID() != 0) return;
    const Decl* first = d->getCanonicalDecl();
    if (places_.origin(first) != DeclOrigin::Candidate) return judge(d, d->getLocation());
    st_.declared_only.try_emplace(s.qualified, ApiViolation{w.file, w.line, w.column, s.qualified, ""});
  }

  const SourceManager& sm_;
  CheckState& st_;
  Places places_;
};

// Macros the candidate expands: the headers' internal ones (AOC_...), which could paste a
// name out of sight, and the compiler's identity, which could hide code from this parse (clang)
// that the build (g++) compiles.
class MacroWatch : public PPCallbacks {
public:
  MacroWatch(const SourceManager& sm, CheckState& st) : places_(sm, st), st_(st) {}

  void MacroExpands(const Token& name, const MacroDefinition& md, SourceRange, const MacroArgs*) override {
    const std::string n = name.getIdentifierInfo()->getName().str();
    if (compiler_identity(n)) return flag(name, n);
    const MacroInfo* mi = md.getMacroInfo();
    if (!mi || (n.rfind("AOC_", 0) != 0 && n.rfind("aoc_", 0) != 0 && n.rfind("__aoc", 0) != 0)) return;
    const Written w = places_.written(name.getLocation());
    if (w.candidate && !places_.written(mi->getDefinitionLoc()).candidate)
      st_.add(w, "macro " + n, "macros named AOC_... are the AscendC headers' internals, not the API");
  }
  void Defined(const Token& name, const MacroDefinition&, SourceRange) override { test(name); }
  void Ifdef(SourceLocation, const Token& name, const MacroDefinition&) override { test(name); }
  void Ifndef(SourceLocation, const Token& name, const MacroDefinition&) override { test(name); }
  void Elifdef(SourceLocation, const Token& name, const MacroDefinition&) override { test(name); }
  void Elifndef(SourceLocation, const Token& name, const MacroDefinition&) override { test(name); }

private:
  static bool compiler_identity(const std::string& n) {
    return n.rfind("__clang", 0) == 0 || n.rfind("__llvm", 0) == 0 || n.rfind("__GNUC", 0) == 0 || n == "__GNUG__" ||
           n == "__VERSION__";
  }
  void test(const Token& name) {
    const std::string n = name.getIdentifierInfo()->getName().str();
    if (compiler_identity(n)) flag(name, n);
  }
  void flag(const Token& name, const std::string& n) {
    const Written w = places_.written(name.getLocation());
    if (w.candidate)
      st_.add(w, "macro " + n,
              "code may not depend on which compiler reads it (the check parses with clang, the build is g++)");
  }

  Places places_;
  CheckState& st_;
};

class Consumer : public ASTConsumer {
public:
  explicit Consumer(CheckState& st) : st_(st) {}
  void HandleTranslationUnit(ASTContext& ctx) override {
    if (ctx.getDiagnostics().hasErrorOccurred()) return;
    Walker(ctx, st_).walk_unit(ctx.getTranslationUnitDecl());
  }

private:
  CheckState& st_;
};

class Pass : public UnitPass {
public:
  explicit Pass(CheckState& st) : st_(st) {}
  std::unique_ptr<ASTConsumer> consumer(CompilerInstance& ci, bool) override {
    ci.getPreprocessor().addPPCallbacks(std::make_unique<MacroWatch>(ci.getSourceManager(), st_));
    return std::make_unique<Consumer>(st_);
  }
  void reset() override {
    st_.seen.clear();
    st_.violations.clear();
    st_.declared_only.clear();
    st_.defined.clear();
  }

private:
  CheckState& st_;
};

// Collects the global-namespace names declared in the AscendC headers.
class GlobalsPass : public UnitPass {
public:
  GlobalsPass(CheckState& st, std::set<std::string>& out) : st_(st), out_(out) {}
  std::unique_ptr<ASTConsumer> consumer(CompilerInstance&, bool) override {
    struct C : ASTConsumer {
      C(CheckState& st, std::set<std::string>& out) : st(st), out(out) {}
      void HandleTranslationUnit(ASTContext& ctx) override {
        Places places(ctx.getSourceManager(), st);
        std::vector<const DeclContext*> todo = {ctx.getTranslationUnitDecl()};
        while (!todo.empty()) {
          const DeclContext* dc = todo.back();
          todo.pop_back();
          for (const Decl* d : dc->decls()) {
            if (isa<LinkageSpecDecl>(d) || isa<ExportDecl>(d)) todo.push_back(cast<DeclContext>(d));
            const auto* nd = dyn_cast<NamedDecl>(d);
            if (!nd || isa<NamespaceDecl>(nd) || nd->getName().empty()) continue;
            if (places.origin(nd) == DeclOrigin::AscendC) out.insert(nd->getNameAsString());
            if (const auto* e = dyn_cast<EnumDecl>(nd); e && !e->isScoped() && places.origin(nd) == DeclOrigin::AscendC)
              for (const EnumConstantDecl* c : e->enumerators()) out.insert(nd->getNameAsString() + "::" + c->getNameAsString());
          }
        }
      }
      CheckState& st;
      std::set<std::string>& out;
    };
    return std::make_unique<C>(st_, out_);
  }
  void reset() override { out_.clear(); }

private:
  CheckState& st_;
  std::set<std::string>& out_;
};

}  // namespace

std::vector<std::string> header_global_names(const ParseInput& in, const std::string& headers) {
  CheckState st;
  st.headers = with_slash(real_path(headers));
  std::set<std::string> out;
  GlobalsPass pass(st, out);
  if (!run_pass(in, pass).empty()) return {};
  return {out.begin(), out.end()};
}

ApiCheckResult check_api(const ApiCheckInput& in) {
  CheckState st;
  for (const auto& r : in.parse.editable_roots) st.roots.push_back(with_slash(real_path(r)));
  for (const auto& r : in.kernel_roots) st.kernel_roots.push_back(with_slash(real_path(r)));
  if (!in.headers.empty()) st.headers = with_slash(real_path(in.headers));
  Pass pass(st);
  ApiCheckResult out;
  out.errors = run_pass(in.parse, pass);
  if (!out.errors.empty()) return out;
  for (auto& [name, where] : st.declared_only) {
    if (st.defined.count(name)) continue;
    where.reason = "declared but not defined in the candidate's files: it would bind to a symbol of the simulator";
    st.violations.push_back(where);
  }
  out.violations = std::move(st.violations);
  std::sort(out.violations.begin(), out.violations.end(), [](const ApiViolation& a, const ApiViolation& b) {
    return std::tie(a.file, a.line, a.column, a.symbol) < std::tie(b.file, b.line, b.column, b.symbol);
  });
  return out;
}

}  // namespace aoc::rewrite
