// SPDX-License-Identifier: MIT
// porlab._core: the C++ core. Users import porlab, never this module directly.
#include <pybind11/pybind11.h>

#include "bindings.hpp"
#include "porlab/core/Errors.hpp"

namespace py = pybind11;

#ifndef PORLAB_VERSION
#define PORLAB_VERSION "dev"
#endif

PYBIND11_MODULE(_core, m) {
    m.doc() = "porlab's C++ core: events, traces, programs, explorers and equivalence keys.";
    m.attr("__version__") = PORLAB_VERSION;

    static py::exception<porlab::InputError> inputError(m, "InputError", PyExc_ValueError);
    static py::exception<porlab::UnsupportedError> unsupportedError(m, "UnsupportedError",
                                                                    PyExc_ValueError);
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const porlab::InputError& e) {
            py::set_error(inputError, e.what());
        } catch (const porlab::UnsupportedError& e) {
            py::set_error(unsupportedError, e.what());
        }
    });

    porlab::bind::bindCore(m);
    porlab::bind::bindProgram(m);
    porlab::bind::bindExplore(m);
    porlab::bind::bindEquiv(m);
    porlab::bind::bindParallel(m);
    porlab::bind::bindKit(m);
#ifdef PORLAB_WITH_LLVM
    porlab::bind::bindLlvm(m);
#else
    m.attr("HAS_C_FRONTEND") = false;
#endif
}
