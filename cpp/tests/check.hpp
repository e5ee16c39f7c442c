// A minimal check harness for the C++ tests: no framework to install.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include "capsa_fast/isa.hpp"

namespace capsa_fast::testing {
inline int failures = 0;
inline int checks = 0;
inline int finish(const char* name) {
  // A CAPSA_FAST_ISA the core cannot read fails every test binary (the core would quietly
  // run the portable loops only).
  const std::string isa_error = capsa_fast::isa_setting_error();
  if (!isa_error.empty()) {
    ++failures;
    std::printf("%s\n", isa_error.c_str());
  }
  std::printf("%s: %d checks, %d failed\n", name, checks, failures);
  return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
}  // namespace capsa_fast::testing

#define CHECK(cond)                                                                   \
  do {                                                                                \
    ++capsa_fast::testing::checks;                                                    \
    if (!(cond)) {                                                                    \
      ++capsa_fast::testing::failures;                                                \
      std::printf("%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);            \
    }                                                                                 \
  } while (0)

#define CHECK_EQ(a, b)                                                                \
  do {                                                                                \
    ++capsa_fast::testing::checks;                                                    \
    const auto va_ = (a);                                                             \
    const auto vb_ = (b);                                                             \
    if (!(va_ == vb_)) {                                                              \
      ++capsa_fast::testing::failures;                                                \
      std::printf("%s:%d: CHECK_EQ failed: %s == %s (%lld vs %lld)\n", __FILE__,      \
                  __LINE__, #a, #b, static_cast<long long>(va_),                      \
                  static_cast<long long>(vb_));                                       \
    }                                                                                 \
  } while (0)

#define CHECK_THROWS(expr)                                                            \
  do {                                                                                \
    ++capsa_fast::testing::checks;                                                    \
    bool threw_ = false;                                                              \
    try {                                                                             \
      (void)(expr);                                                                   \
    } catch (const std::exception&) {                                                 \
      threw_ = true;                                                                  \
    }                                                                                 \
    if (!threw_) {                                                                    \
      ++capsa_fast::testing::failures;                                                \
      std::printf("%s:%d: expected an exception from %s\n", __FILE__, __LINE__, #expr);\
    }                                                                                 \
  } while (0)
