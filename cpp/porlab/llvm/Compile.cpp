// SPDX-License-Identifier: MIT
#include "porlab/llvm/Compile.hpp"

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Frontend/Utils.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Scalar/SROA.h>

#include <filesystem>
#include <vector>

#include "porlab/core/Errors.hpp"
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

}  // namespace

std::unique_ptr<llvm::Module> compileC(llvm::LLVMContext& ctx, const std::string& path,
                                       const CLoadOptions& opts) {
    if (!std::filesystem::exists(path)) throw InputError(path + ": no such file");
    if (std::filesystem::is_directory(path))
        throw InputError(path + ": is a directory, not a C file");
    std::vector<std::string> args = {PORLAB_CLANG_BINARY, "-c", "-g", "-O0", "-Xclang",
                                     "-disable-O0-optnone", "-fno-discard-value-names",
                                     "-Wno-everything"};
    for (const auto& d : opts.includeDirs) args.push_back("-I" + d);
    for (const auto& [k, v] : opts.defines) args.push_back("-D" + k + (v.empty() ? "" : "=" + v));
    for (const auto& a : opts.clangArgs) args.push_back(a);
    args.push_back(path);
    std::vector<const char*> argv;
    argv.reserve(args.size());
    for (const auto& a : args) argv.push_back(a.c_str());

    std::string diagText;
    llvm::raw_string_ostream diagOut(diagText);
    llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> diagOpts = new clang::DiagnosticOptions();
    auto* printer = new clang::TextDiagnosticPrinter(diagOut, diagOpts.get());
    llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine> diags =
        clang::CompilerInstance::createDiagnostics(diagOpts.get(), printer, /*ShouldOwnClient=*/true);

    clang::CreateInvocationOptions cio;
    cio.Diags = diags;
    cio.ProbePrecompiled = false;
    std::shared_ptr<clang::CompilerInvocation> inv = clang::createInvocation(argv, cio);
    auto fail = [&](const std::string& what) -> InputError {
        diagOut.flush();
        std::string msg = path + ": " + what;
        if (!diagText.empty()) msg += ":\n" + diagText;
        return InputError(msg);
    };
    if (!inv || diags->hasErrorOccurred()) throw fail("clang could not parse the command line");
    // The clang driver sets -disable-free (leak the AST at exit, a process that ends anyway);
    // porlab compiles many programs in one process, so it frees them.
    inv->getFrontendOpts().DisableFree = false;

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
    if (llvm::verifyModule(*m, &vout)) throw InputError(path + ": invalid LLVM IR: " + verify);
    runPasses(*m);
    (void)transformLoops(*m, opts.loops);  // issue 6: --loops
    return m;
}

}  // namespace porlab::cfront
