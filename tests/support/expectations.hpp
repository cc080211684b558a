// What every refusal must look like, through the binary: one line on stderr
// naming the problem, nothing on stdout, no signal, the exit code.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "run_process.hpp"

namespace grundy::test_support {

inline void expect_refused(const ProcessResult& r, const std::string& fragment, int code = 1) {
  EXPECT_EQ(r.signal, 0) << r.err;
  EXPECT_EQ(r.exit_code, code) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(fragment), std::string::npos) << "wanted \"" << fragment << "\" in: " << r.err;
}

}  // namespace grundy::test_support
