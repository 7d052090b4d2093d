// SPDX-License-Identifier: MIT
#include "porlab/llvm/Compile.hpp"

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Frontend/Utils.h>
#include <clang/Lex/HeaderSearchOptions.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Scalar/SROA.h>

#include <filesystem>
#include <map>
#include <mutex>
#include <vector>

#include "porlab/core/Errors.hpp"
#include "porlab/llvm/Cxx.hpp"
#include "porlab/llvm/Loops.hpp"

#ifndef PORLAB_CLANG_BINARY
#define PORLAB_CLANG_BINARY "/usr/lib/llvm-19/bin/clang"
#endif

namespace porlab::cfront {

namespace {

void runPasses(llvm::Module& m) {
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
    // SROA only rewrites stack variables whose address does not escape (it includes mem2reg);
    // accesses to globals, the heap and escaped variables stay exactly as the source has them.
    llvm::FunctionPassManager fpm;
    fpm.addPass(llvm::SROAPass(llvm::SROAOptions::PreserveCFG));
    llvm::ModulePassManager mpm;
    mpm.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(fpm)));
    mpm.run(m, mam);
}

// Runs clang in process on `args` (a driver command line whose last argument is the source).
// `libraryDirs` receives the system include directories of the compilation (C++: the code from
// there is library code). `shown` names the file in messages.
std::unique_ptr<llvm::Module> runClang(llvm::LLVMContext& ctx, const std::vector<std::string>& args,
                                       const std::string& shown,
                                       std::vector<std::string>* libraryDirs) {
    std::vector<const char*> argv;
    argv.reserve(args.size());
    for (const auto& a : args) argv.push_back(a.c_str());

    std::string diagText;
    llvm::raw_string_ostream diagOut(diagText);
    llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> diagOpts = new clang::DiagnosticOptions();
    auto* printer = new clang::TextDiagnosticPrinter(diagOut, diagOpts.get());
    llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine> diags =
        clang::CompilerInstance::createDiagnostics(diagOpts.get(), printer,
                                                   /*ShouldOwnClient=*/true);

    clang::CreateInvocationOptions cio;
    cio.Diags = diags;
    cio.ProbePrecompiled = false;
    std::shared_ptr<clang::CompilerInvocation> inv = clang::createInvocation(argv, cio);
    auto fail = [&](const std::string& what) -> InputError {
        diagOut.flush();
        std::string msg = shown + ": " + what;
        if (!diagText.empty()) msg += ":\n" + diagText;
        return InputError(msg);
    };
    if (!inv || diags->hasErrorOccurred()) throw fail("clang could not parse the command line");
    // The clang driver sets -disable-free (leak the AST at exit, a process that ends anyway);
    // porlab compiles many programs in one process, so it frees them.
    inv->getFrontendOpts().DisableFree = false;
    if (libraryDirs) {
        const clang::HeaderSearchOptions& hs = inv->getHeaderSearchOpts();
        for (const auto& e : hs.UserEntries)
            if (e.Group != clang::frontend::Quoted && e.Group != clang::frontend::Angled &&
                e.Group != clang::frontend::IndexHeaderMap)
                libraryDirs->push_back(e.Path);
        if (!hs.ResourceDir.empty()) libraryDirs->push_back(hs.ResourceDir + "/include");
    }

    clang::CompilerInstance ci;
    ci.setInvocation(std::move(inv));
    ci.createDiagnostics(printer, /*ShouldOwnClient=*/false);
    // "N errors generated." goes with the diagnostics, not straight to the process's stderr.
    ci.setVerboseOutputStream(diagOut);
    clang::EmitLLVMOnlyAction action(&ctx);
    if (!ci.ExecuteAction(action) || ci.getDiagnostics().hasErrorOccurred())
        throw fail("does not compile");
    std::unique_ptr<llvm::Module> m = action.takeModule();
    if (!m) throw fail("clang produced no module");
    std::string verify;
    llvm::raw_string_ostream vout(verify);
    if (llvm::verifyModule(*m, &vout)) throw InputError(shown + ": invalid LLVM IR: " + verify);
    return m;
}

std::vector<std::string> baseArgs() {
    return {PORLAB_CLANG_BINARY,
            "-c",
            "-g",
            "-O0",
            "-Xclang",
            "-disable-O0-optnone",
            "-fno-discard-value-names",
            "-Wno-everything"};
}

// C++ the way Nidhugg and GenMC take it: C++17 and no exceptions (the program's own clang
// arguments come later and win). -fstandalone-debug: the debug info of every class the program
// uses, also of library classes whose constructor is out of line (std::condition_variable), so
// that the fields of globals have names.
const std::vector<std::string> kCxxArgs = {"-std=c++17", "-fno-exceptions", "-fstandalone-debug"};

// porlab's C++ runtime compiled with the program's clang arguments, as bitcode: compiled once per
// process and set of arguments (its headers make it the slow part of loading a small program).
std::unique_ptr<llvm::Module> cxxRuntime(llvm::LLVMContext& ctx, const std::string& runtimePath,
                                         const CLoadOptions& opts) {
    std::vector<std::string> args = baseArgs();
    args.insert(args.end(), kCxxArgs.begin(), kCxxArgs.end());
    for (const auto& a : opts.clangArgs) args.push_back(a);
    args.push_back("-x");
    args.push_back("c++");
    args.push_back(runtimePath);
    std::error_code ec;
    const auto stamp = std::filesystem::last_write_time(runtimePath, ec);
    std::string key = std::to_string(stamp.time_since_epoch().count());
    for (const auto& a : args) key += '\0' + a;

    static std::mutex mu;
    static std::map<std::string, std::string> cache;
    std::string bitcode;
    {
        std::lock_guard lk(mu);
        auto it = cache.find(key);
        if (it != cache.end()) bitcode = it->second;
    }
    if (bitcode.empty()) {
        llvm::LLVMContext own;
        std::unique_ptr<llvm::Module> rt = runClang(own, args, runtimePath, nullptr);
        llvm::raw_string_ostream out(bitcode);
        llvm::WriteBitcodeToFile(*rt, out);
        out.flush();
        std::lock_guard lk(mu);
        cache.emplace(key, bitcode);
    }
    auto parsed = llvm::parseBitcodeFile(llvm::MemoryBufferRef(bitcode, runtimePath), ctx);
    if (!parsed) {
        std::string why = llvm::toString(parsed.takeError());
        throw InputError(runtimePath + ": " + why);
    }
    return std::move(*parsed);
}

}  // namespace

std::unique_ptr<llvm::Module> compileC(llvm::LLVMContext& ctx, const std::string& path,
                                       const CLoadOptions& opts) {
    if (!std::filesystem::exists(path)) throw InputError(path + ": no such file");
    if (std::filesystem::is_directory(path))
        throw InputError(path + ": is a directory, not a C file");
    const bool cxx = isCxxInput(path, opts.clangArgs);
    std::string runtimePath;
    if (cxx) {
        runtimePath = findCxxRuntime(opts.includeDirs);
        if (runtimePath.empty())
            throw InputError(path + ": a C++ program needs porlab's C++ runtime " +
                             std::string(kCxxRuntimeFile) +
                             " (next to porlab.h), which is in none of the include directories");
    }
    std::vector<std::string> args = baseArgs();
    if (cxx) args.insert(args.end(), kCxxArgs.begin(), kCxxArgs.end());
    for (const auto& d : opts.includeDirs) args.push_back("-I" + d);
    for (const auto& [k, v] : opts.defines) args.push_back("-D" + k + (v.empty() ? "" : "=" + v));
    for (const auto& a : opts.clangArgs) args.push_back(a);
    args.push_back(path);
    std::vector<std::string> libraryDirs;
    std::unique_ptr<llvm::Module> m = runClang(ctx, args, path, &libraryDirs);
    if (cxx) prepareCxxModule(*m, cxxRuntime(ctx, runtimePath, opts), libraryDirs, runtimePath);
    runPasses(*m);
    if (cxx) cleanUpCxxModule(*m);
    (void)transformLoops(*m, opts.loops, opts.unroll);  // issue 6: --loops
    return m;
}

}  // namespace porlab::cfront
