// SPDX-License-Identifier: MIT
#include "porlab/llvm/Cxx.hpp"

#include <llvm/ADT/STLExtras.h>
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
        if (clangArgs[i] == "-x" && i + 1 < clangArgs.size()) lang = clangArgs[i + 1];
        else if (clangArgs[i].rfind("-x", 0) == 0 && clangArgs[i].size() > 2) lang = clangArgs[i].substr(2);
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

namespace {

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
    if (llvm::GlobalVariable* dtors = m.getGlobalVariable("llvm.global_dtors")) dtors->eraseFromParent();
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
        if (!g.getName().starts_with("_ZGV") || g.isDeclaration() || !g.getValueType()->isIntegerTy())
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
    LibraryFiles lib(libraryDirs, runtimePath);
    inlineLibrary(m, lib);
    attributeLibraryLines(m, lib);
    std::string verify;
    llvm::raw_string_ostream vout(verify);
    if (llvm::verifyModule(m, &vout))
        throw InputError(m.getSourceFileName() + ": invalid LLVM IR after linking the C++ runtime: " +
                         verify);
}

}  // namespace porlab::cfront
