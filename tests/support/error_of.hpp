// What a call of the public API throws, for tests that check its messages.
#pragma once

#include <string>

#include "grundy/grundy.hpp"

namespace grundy::test_support {

/// The grundy::Error's message, or "" when f() throws none.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const grundy::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace grundy::test_support
