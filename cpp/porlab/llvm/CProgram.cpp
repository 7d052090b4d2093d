// SPDX-License-Identifier: MIT
// Loading C programs: clang compiles, llvm/Lower.cpp lowers to the decoded form (program/Code.hpp),
// program/'s interpreter runs it.
#include "porlab/llvm/CProgram.hpp"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "porlab/core/Errors.hpp"
#include "porlab/llvm/Compile.hpp"
#include "porlab/llvm/Lower.hpp"
#include "porlab/llvm/ThreadBound.hpp"
#include "porlab/program/CodeProgramApi.hpp"

namespace porlab {

// ---- public API
// ------------------------------------------------------------------------------------

namespace {

std::string stem(const std::string& path) { return std::filesystem::path(path).stem().string(); }

CodeOptions codeOptions(const CLoadOptions& o) {
    CodeOptions c;
    c.maxThreads = o.maxThreads;
    c.maxDynamicLocations = o.maxDynamicLocations;
    c.deadlockIsError = o.deadlockIsError;
    c.maxExecutionEvents = o.maxExecutionEvents;
    c.nondetDomain = o.nondetDomain;
    c.loopsAsWritten = o.loops == "none";
    return c;
}

std::shared_ptr<Program> loadCAs(const std::string& path, const CLoadOptions& opts,
                                 const std::string& shownPath) {
    if (opts.nondetDomain && opts.nondetDomain->first > opts.nondetDomain->second)
        throw InputError("nondet domain " + std::to_string(opts.nondetDomain->first) + ":" +
                         std::to_string(opts.nondetDomain->second) + " is empty (LO > HI)");
    if (opts.unroll && *opts.unroll < 1)
        throw InputError("unroll must be >= 1 (the visits of a loop header allowed), not " +
                         std::to_string(*opts.unroll));
    auto rename = [&](std::string text) {
        if (shownPath == path) return text;
        for (std::size_t at = text.find(path); at != std::string::npos; at = text.find(path, at))
            text.replace(at, path.size(), shownPath);
        return text;
    };
    try {
        llvm::LLVMContext ctx;
        std::unique_ptr<llvm::Module> mod = cfront::compileC(ctx, path, opts);
        cfront::CModule cm = cfront::lowerModule(*mod, opts);
        for (auto& f : cm.files) {
            f = rename(f);
            // Debug info may name the file relative to a directory of its own (e.g. the temp
            // directory of loadCSource when the working directory is below it).
            if (f != shownPath && !f.empty() && path.size() > f.size() &&
                path.compare(path.size() - f.size(), f.size(), f) == 0 &&
                path[path.size() - f.size() - 1] == '/')
                f = shownPath;
        }
        for (auto& w : cm.warnings) w = rename(w);
        // Explorers size per-thread arrays by maxThreads(): use the program's own static bound
        // when it is known and smaller than --max-threads.
        CLoadOptions eff = opts;
        if (opts.maxThreads >= 1 && opts.maxThreads <= 64)
            if (auto bound = cfront::staticThreadBound(*mod, opts.maxThreads))
                eff.maxThreads = std::min(opts.maxThreads, std::max(1, *bound));
        return makeCodeProgram(std::move(cm), codeOptions(eff),
                               opts.name.empty() ? stem(shownPath) : opts.name);
    } catch (const InputError& e) {
        throw InputError(rename(e.what()));
    } catch (const UnsupportedError& e) {
        throw UnsupportedError(rename(e.what()));
    }
}

}  // namespace

std::shared_ptr<Program> loadC(const std::string& path, const CLoadOptions& opts) {
    return loadCAs(path, opts, path);
}

std::shared_ptr<Program> loadCSource(const std::string& source, const std::string& fileName,
                                     const CLoadOptions& opts) {
    namespace fs = std::filesystem;
    static std::atomic<int> counter{0};
    const fs::path dir = fs::temp_directory_path() / ("porlab-c-" + std::to_string(::getpid()) +
                                                      "-" + std::to_string(counter++));
    fs::create_directories(dir);
    const fs::path file = dir / fs::path(fileName).filename();
    {
        std::ofstream out(file);
        out << source;
    }
    // __FILE__ (assert's message) names the file as given, not the temporary directory: the
    // directory's name differs from process to process, and with it the program's strings, so
    // two processes compiled one source to different code (a Dask worker refused it).
    CLoadOptions named = opts;
    named.clangArgs.push_back("-fmacro-prefix-map=" + dir.string() + "/=");
    std::shared_ptr<Program> p;
    try {
        p = loadCAs(file.string(), named, fileName);
    } catch (...) {
        std::error_code ec;
        fs::remove_all(dir, ec);
        throw;
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
    return p;
}

std::string disassembleC(const Program& program) { return disassembleCode(program); }

std::vector<std::string> cProgramWarnings(const Program& program) {
    return codeProgramWarnings(program);
}

}  // namespace porlab
