// SPDX-License-Identifier: MIT
// Typed errors, each mapped to a class in porlab.errors. No abort-on-error paths.
#pragma once

#include <stdexcept>
#include <string>

namespace porlab {

// Bad input: a program that refers to unknown things, an invalid option, a malformed file.
class InputError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Valid input that porlab cannot handle (an unsupported instruction, intrinsic, ...).
class UnsupportedError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

}  // namespace porlab
