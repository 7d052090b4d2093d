// SPDX-License-Identifier: MIT
#include "porlab/llvm/Cxx.hpp"

#include <llvm/ADT/STLExtras.h>
#include <llvm/Analysis/ConstantFolding.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/IPO/AlwaysInliner.h>
#include <llvm/Transforms/IPO/GlobalDCE.h>
#include <llvm/Transforms/Utils/Local.h>

#include <algorithm>
#include <filesystem>
#include <unordered_map>

#include "porlab/core/Errors.hpp"

namespace porlab::cfront {

bool isCxxInput(const std::string& path, const std::vector<std::string>& clangArgs) {
    // An explicit language among clang's arguments wins (the last one, as for clang).
    std::string lang;
    for (std::size_t i = 0; i < clangArgs.size(); ++i) {
        if (clangArgs[i] == "-x" && i + 1 < clangArgs.size())
            lang = clangArgs[i + 1];
        else if (clangArgs[i].rfind("-x", 0) == 0 && clangArgs[i].size() > 2)
            lang = clangArgs[i].substr(2);
    }
    if (!lang.empty()) return lang == "c++" || lang == "c++-cpp-output";
    const std::string ext = std::filesystem::path(path).extension().string();
    return ext == ".cc" || ext == ".cpp" || ext == ".cxx" || ext == ".c++" || ext == ".C" ||
           ext == ".cp" || ext == ".CPP" || ext == ".ii";
}

std::string findCxxRuntime(const std::vector<std::string>& includeDirs) {
    for (const auto& d : includeDirs) {
        const std::filesystem::path p = std::filesystem::path(d) / kCxxRuntimeFile;
        std::error_code ec;
        if (std::filesystem::is_regular_file(p, ec)) return p.string();
    }
    return "";
}

std::string readableSymbol(const std::string& name) {
    if (name.rfind("_Z", 0) != 0) return name;
    return llvm::demangle(name);
}

std::string cxxSymbolHint(const std::string& name) {
    if (name.rfind("_Z", 0) != 0 && name.rfind("__cxa_", 0) != 0 && name != "__dynamic_cast")
        return "";
    if (name == "__cxa_throw" || name == "__cxa_rethrow" || name == "__cxa_allocate_exception")
        return " (throwing a C++ exception: porlab runs C++ without exceptions)";
    const std::string r = readableSymbol(name);
    if (name == "__dynamic_cast" || r.rfind("typeinfo", 0) == 0 ||
        r.find("type_info") != std::string::npos)
        return " (RTTI: dynamic_cast, typeid)";
    for (const char* io : {"basic_ostream", "basic_istream", "ios_base", "basic_ios", "std::cout",
                           "std::cerr", "std::cin", "std::clog", "std::wcout", "std::endl"})
        if (r.find(io) != std::string::npos)
            return " (iostreams: use printf, which porlab runs as a no-op)";
    return " (not in porlab's C++ runtime; docs/supported-c.md lists what it provides)";
}

namespace {

// An instruction that computes a value from registers only (no memory access, no call): the
// C++ clean-up may fold or delete it.
bool pure(const llvm::Instruction& i) {
    return llvm::isa<llvm::PHINode>(i) || llvm::isa<llvm::SelectInst>(i) ||
           llvm::isa<llvm::CastInst>(i) || llvm::isa<llvm::BinaryOperator>(i) ||
           llvm::isa<llvm::CmpInst>(i) || llvm::isa<llvm::GetElementPtrInst>(i) ||
           llvm::isa<llvm::ExtractValueInst>(i) || llvm::isa<llvm::FreezeInst>(i);
}

// Definitions the program makes itself win over the runtime's (e.g. its own operator new).
void yieldToProgram(const llvm::Module& m, llvm::Module& runtime) {
    for (llvm::Function& f : runtime) {
        const llvm::GlobalValue* mine = m.getNamedValue(f.getName());
        if (!f.isDeclaration() && mine && !mine->isDeclaration() && !f.hasLocalLinkage()) {
            f.deleteBody();
            f.setComdat(nullptr);
        }
    }
    for (llvm::GlobalVariable& g : runtime.globals()) {
        const llvm::GlobalValue* mine = m.getNamedValue(g.getName());
        if (!g.isDeclaration() && mine && !mine->isDeclaration() && !g.hasLocalLinkage()) {
            g.setInitializer(nullptr);
            g.setLinkage(llvm::GlobalValue::ExternalLinkage);
            g.setComdat(nullptr);
        }
    }
}

// The constructors of globals (llvm.global_ctors, by priority) run at the start of main, in the
// main thread, before anything else. Destructors are not run.
void runConstructorsInMain(llvm::Module& m) {
    llvm::Function* mainFn = m.getFunction("main");
    llvm::GlobalVariable* ctors = m.getGlobalVariable("llvm.global_ctors");
    if (llvm::GlobalVariable* dtors = m.getGlobalVariable("llvm.global_dtors"))
        dtors->eraseFromParent();
    if (!ctors) return;
    std::vector<std::pair<std::uint64_t, llvm::Function*>> order;
    if (auto* arr = llvm::dyn_cast<llvm::ConstantArray>(ctors->getInitializer())) {
        for (const llvm::Use& u : arr->operands()) {
            auto* entry = llvm::cast<llvm::ConstantStruct>(u.get());
            auto* prio = llvm::cast<llvm::ConstantInt>(entry->getOperand(0));
            auto* fn = llvm::dyn_cast<llvm::Function>(entry->getOperand(1)->stripPointerCasts());
            if (!fn) throw UnsupportedError("a global constructor that is not a function");
            order.emplace_back(prio->getZExtValue(), fn);
        }
    }
    ctors->eraseFromParent();
    if (!mainFn || mainFn->isDeclaration()) return;  // the lowering reports the missing main
    std::stable_sort(order.begin(), order.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    llvm::IRBuilder<> b(&*mainFn->getEntryBlock().getFirstInsertionPt());
    llvm::DebugLoc at;
    if (llvm::DISubprogram* sp = mainFn->getSubprogram())
        at = llvm::DILocation::get(m.getContext(), sp->getLine(), 0, sp);
    for (const auto& [prio, fn] : order) {
        llvm::CallInst* call = b.CreateCall(fn->getFunctionType(), fn);
        call->setDebugLoc(at);
    }
}

// With -fexceptions an `invoke` has an unwind edge to a landing pad. porlab throws no exception
// (a throw is rejected when the program is lowered; where libstdc++ would throw, porlab's
// runtime reports an error instead), so no unwind edge is ever taken: an invoke is a call
// followed by a branch to its normal destination, and the landing pads are dead code.
void removeExceptionEdges(llvm::Module& m) {
    for (llvm::Function& f : m) {
        if (f.isDeclaration()) continue;
        bool changed = false;
        for (llvm::BasicBlock& bb : f)
            if (auto* inv = llvm::dyn_cast<llvm::InvokeInst>(bb.getTerminator())) {
                llvm::changeToCall(inv);
                changed = true;
            }
        if (changed) llvm::removeUnreachableBlocks(f);
        bool pads = false;
        for (const llvm::BasicBlock& bb : f) pads = pads || bb.isEHPad();
        if (!pads && f.hasPersonalityFn()) f.setPersonalityFn(nullptr);
    }
}

// A guard variable of a static local (`_ZGV...`, an i64) is read as its first byte by the code
// the compiler inlines (`load atomic i8`) and as bytes by the runtime's __cxa_guard_*: porlab
// gives it the type [8 x i8], so that its locations are bytes as every access expects.
void retypeGuards(llvm::Module& m) {
    const llvm::DataLayout& dl = m.getDataLayout();
    for (llvm::GlobalVariable& g : llvm::make_early_inc_range(m.globals())) {
        if (!g.getName().starts_with("_ZGV") || g.isDeclaration() ||
            !g.getValueType()->isIntegerTy())
            continue;
        auto* bytes = llvm::ArrayType::get(llvm::Type::getInt8Ty(m.getContext()),
                                           dl.getTypeAllocSize(g.getValueType()).getFixedValue());
        auto* ng = new llvm::GlobalVariable(m, bytes, false, g.getLinkage(),
                                            llvm::Constant::getNullValue(bytes), "", &g,
                                            g.getThreadLocalMode());
        ng->copyAttributesFrom(&g);
        g.replaceAllUsesWith(ng);
        ng->takeName(&g);
        g.eraseFromParent();
    }
}

// libstdc++ initialises the pthread object inside std::mutex and std::condition_variable by
// writing PTHREAD_*_INITIALIZER over it (a memset and field stores). porlab keeps a mutex or a
// condition variable as one location that only lock/unlock/wait/notify touch: plain writes to
// it would be accesses of another kind to the same bytes. Their constructors become
// pthread_mutex_init / pthread_cond_init, which porlab runs without an event (the memory of a
// new object is zero, which is the initialiser's value).
void initSyncObjectsByInit(llvm::Module& m) {
    llvm::LLVMContext& ctx = m.getContext();
    auto* ptr = llvm::PointerType::getUnqual(ctx);
    auto* i32 = llvm::Type::getInt32Ty(ctx);
    const std::pair<const char*, const char*> ctors[] = {
        {"_ZNSt12__mutex_baseC2Ev", "pthread_mutex_init"},  // std::mutex
        {"_ZNSt9__condvarC2Ev", "pthread_cond_init"},       // std::condition_variable
    };
    for (const auto& [ctor, init] : ctors) {
        llvm::Function* f = m.getFunction(ctor);
        if (!f || f->isDeclaration() || f->arg_size() != 1) continue;
        llvm::FunctionCallee initFn =
            m.getOrInsertFunction(init, llvm::FunctionType::get(i32, {ptr, ptr}, false));
        llvm::DISubprogram* sp = f->getSubprogram();
        f->deleteBody();
        f->setSubprogram(sp);  // deleteBody drops it; the debug info of the library stays
        auto* bb = llvm::BasicBlock::Create(ctx, "entry", f);
        llvm::IRBuilder<> b(bb);
        llvm::CallInst* call =
            b.CreateCall(initFn, {f->getArg(0), llvm::ConstantPointerNull::get(ptr)});
        llvm::ReturnInst* ret = b.CreateRetVoid();
        if (sp) {
            call->setDebugLoc(llvm::DILocation::get(ctx, sp->getLine(), 0, sp));
            ret->setDebugLoc(llvm::DILocation::get(ctx, sp->getLine(), 0, sp));
        }
    }
}

// porlab's mutexes are not recursive (a thread that locks a mutex it holds faults): a
// std::recursive_mutex would report errors the program does not have.
void rejectRecursiveMutexes(llvm::Module& m) {
    for (llvm::Function& f : m) {
        const llvm::StringRef n = f.getName();
        if (!n.starts_with("_ZNSt15recursive_mutex") &&
            !n.starts_with("_ZNSt21recursive_timed_mutex"))
            continue;
        for (llvm::User* u : f.users())
            if (auto* call = llvm::dyn_cast<llvm::CallBase>(u)) {
                std::string where = m.getSourceFileName() + ": ";
                if (const llvm::DILocation* l = call->getDebugLoc().get())
                    where = l->getFilename().str() + ":" + std::to_string(l->getLine()) + ": ";
                throw UnsupportedError(where +
                                       "std::recursive_mutex is not supported (porlab's "
                                       "mutexes are not recursive)");
            }
    }
}

// Clang emits the complete-object constructor or destructor of a class as an alias of the
// base-object one (C1 = C2): calls go to the function itself, so that they can be inlined.
void resolveAliases(llvm::Module& m) {
    for (llvm::GlobalAlias& a : llvm::make_early_inc_range(m.aliases())) {
        auto* f = llvm::dyn_cast<llvm::Function>(a.getAliasee()->stripPointerCasts());
        if (!f || a.isInterposable()) continue;
        a.replaceAllUsesWith(f);
        a.eraseFromParent();
    }
}

class LibraryFiles {
  public:
    LibraryFiles(const std::vector<std::string>& dirs, const std::string& runtimePath)
        : runtime_(normal(runtimePath)) {
        for (const auto& d : dirs) {
            std::string n = normal(d);
            while (n.size() > 1 && n.back() == '/') n.pop_back();
            if (!n.empty()) dirs_.push_back(n + "/");
        }
    }

    bool contains(const llvm::DIFile* f) {
        if (!f) return false;
        auto it = known_.find(f);
        if (it != known_.end()) return it->second;
        std::string path = f->getFilename().str();
        if (!llvm::sys::path::is_absolute(path) && !f->getDirectory().empty())
            path = f->getDirectory().str() + "/" + path;
        path = normal(path);
        bool lib = path == runtime_;
        for (const auto& d : dirs_) lib = lib || path.rfind(d, 0) == 0;
        known_[f] = lib;
        return lib;
    }

  private:
    static std::string normal(const std::string& p) {
        llvm::SmallString<256> s(p);
        llvm::sys::path::remove_dots(s, /*remove_dot_dot=*/true);
        return std::string(s.str());
    }
    std::string runtime_;
    std::vector<std::string> dirs_;
    std::unordered_map<const llvm::DIFile*, bool> known_;
};

// Library code (libstdc++ headers, the runtime) is inlined into the program's functions: the
// events it makes (the lock of a std::mutex, the load of a std::atomic) then belong to a frame
// of the program, and their source line can be the program's line that called the library.
void inlineLibrary(llvm::Module& m, LibraryFiles& lib) {
    for (llvm::Function& f : m) {
        if (f.isDeclaration() || f.getName() == "main") continue;
        const llvm::DISubprogram* sp = f.getSubprogram();
        if (!sp || !lib.contains(sp->getFile())) continue;
        f.removeFnAttr(llvm::Attribute::NoInline);
        f.removeFnAttr(llvm::Attribute::OptimizeNone);
        f.addFnAttr(llvm::Attribute::AlwaysInline);
    }
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder pb;
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::ModulePassManager mpm;
    mpm.addPass(llvm::AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/false));
    mpm.addPass(llvm::GlobalDCEPass());
    mpm.run(m, mam);
    // The inliner declares the scopes of noalias parameters: hints for optimisations porlab
    // does not run.
    if (llvm::Function* decl = m.getFunction("llvm.experimental.noalias.scope.decl"))
        for (llvm::User* u : llvm::make_early_inc_range(decl->users()))
            llvm::cast<llvm::Instruction>(u)->eraseFromParent();
}

// An instruction that came from library code inlined into the program gets the source line of
// the program's call that brought it in (the innermost call site outside the library).
void attributeLibraryLines(llvm::Module& m, LibraryFiles& lib) {
    for (llvm::Function& f : m)
        for (llvm::BasicBlock& bb : f)
            for (llvm::Instruction& i : bb) {
                const llvm::DILocation* loc = i.getDebugLoc().get();
                const llvm::DILocation* l = loc;
                while (l && l->getInlinedAt() && lib.contains(l->getFile())) l = l->getInlinedAt();
                if (l != loc) i.setDebugLoc(llvm::DebugLoc(l));
            }
}

std::string lineOf(const llvm::Instruction& i) {
    if (const llvm::DILocation* l = i.getDebugLoc().get())
        return l->getFilename().str() + ":" + std::to_string(l->getLine()) + ": ";
    return i.getModule()->getSourceFileName() + ": in function '" +
           readableSymbol(i.getFunction()->getName().str()) + "': ";
}

// What the lowering would reject with a less helpful message (an external global has no line
// there), said at the first line of the program that needs it: a throw, dynamic_cast, and the
// library's globals (std::cout, the type_info of library classes).
void rejectUnsupported(llvm::Module& m) {
    for (llvm::Function& f : m)
        for (llvm::BasicBlock& bb : f)
            for (llvm::Instruction& i : bb) {
                if (auto* call = llvm::dyn_cast<llvm::CallBase>(&i)) {
                    const llvm::Function* callee = call->getCalledFunction();
                    const std::string n = callee ? callee->getName().str() : "";
                    if (n == "__cxa_throw" || n == "__cxa_rethrow")
                        throw UnsupportedError(lineOf(i) +
                                               "throwing a C++ exception is not "
                                               "supported (porlab runs C++ without exceptions)");
                    if (n == "__dynamic_cast")
                        throw UnsupportedError(lineOf(i) + "dynamic_cast is not supported (RTTI)");
                }
                for (const llvm::Use& u : i.operands()) {
                    const auto* g =
                        llvm::dyn_cast<llvm::GlobalVariable>(u.get()->stripPointerCasts());
                    if (!g) continue;
                    if (!g->isDeclaration() || g->getName().starts_with("llvm.")) continue;
                    const std::string n = g->getName().str();
                    throw UnsupportedError(lineOf(i) + "the external global '" + readableSymbol(n) +
                                           "' (declared but not defined in the program) is not "
                                           "supported" +
                                           cxxSymbolHint(n));
                }
            }
}

}  // namespace

void prepareCxxModule(llvm::Module& m, std::unique_ptr<llvm::Module> runtime,
                      const std::vector<std::string>& libraryDirs, const std::string& runtimePath) {
    yieldToProgram(m, *runtime);
    if (llvm::Linker::linkModules(m, std::move(runtime), llvm::Linker::Flags::LinkOnlyNeeded))
        throw InputError(m.getSourceFileName() + ": porlab's C++ runtime (" + runtimePath +
                         ") could not be linked with the program");
    runConstructorsInMain(m);
    removeExceptionEdges(m);
    retypeGuards(m);
    resolveAliases(m);
    rejectRecursiveMutexes(m);
    initSyncObjectsByInit(m);
    LibraryFiles lib(libraryDirs, runtimePath);
    inlineLibrary(m, lib);
    attributeLibraryLines(m, lib);
    rejectUnsupported(m);
    std::string verify;
    llvm::raw_string_ostream vout(verify);
    if (llvm::verifyModule(m, &vout))
        throw InputError(m.getSourceFileName() +
                         ": invalid LLVM IR after linking the C++ runtime: " + verify);
}

void cleanUpCxxModule(llvm::Module& m) {
    for (llvm::Function& f : m) {
        if (f.isDeclaration()) continue;
        const llvm::DataLayout& dl = m.getDataLayout();
        bool changed = true;
        while (changed) {
            changed = false;
            for (llvm::BasicBlock& bb : f)
                for (llvm::Instruction& i : llvm::make_early_inc_range(bb)) {
                    if (!pure(i)) continue;
                    if (llvm::Constant* c = llvm::ConstantFoldInstruction(&i, dl)) {
                        i.replaceAllUsesWith(c);
                        i.eraseFromParent();
                        changed = true;
                    }
                }
            for (llvm::BasicBlock& bb : f)
                changed |= llvm::ConstantFoldTerminator(&bb, /*DeleteDeadConditions=*/false);
            changed |= llvm::removeUnreachableBlocks(f);
            // Dead pure values (the phi of the results of a fetch_add's memory-order switch
            // whose caller ignores the result): their operands become unused, so that a
            // fetch-and-add's result is seen as unused (IFAA).
            for (llvm::BasicBlock& bb : f)
                for (llvm::Instruction& i : llvm::make_early_inc_range(bb))
                    if (pure(i) && i.use_empty()) {
                        i.eraseFromParent();
                        changed = true;
                    }
        }
    }
}

}  // namespace porlab::cfront
