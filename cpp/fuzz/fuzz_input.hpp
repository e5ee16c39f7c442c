// Shared by the fuzz targets: a reader that turns the fuzzer's bytes into structured
// values, and a check that crashes loudly so the fuzzer (libFuzzer or driver.cpp) reports
// the input.
//
// The reader never fails: once the bytes run out every value reads as zero, so a short
// input is still a complete, valid test case. Values are taken from the front, so a
// mutation near the start changes the shape of the case and one near the end its details.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace capsa_fast::fuzz {

// Prints what broke and aborts. abort() rather than a trap: a SIGABRT reaches both
// libFuzzer's handler and the driver's, with the message already on stderr.
[[noreturn]] inline void fail(const char* file, int line, const char* what) {
  std::fprintf(stderr, "%s:%d: fuzz check failed: %s\n", file, line, what);
  std::fflush(stderr);
  std::abort();
}

class Input {
 public:
  Input(const std::uint8_t* data, std::size_t size) : p_(data), end_(data + size) {}

  std::size_t left() const { return static_cast<std::size_t>(end_ - p_); }
  bool empty() const { return p_ == end_; }

  std::uint8_t byte() { return p_ < end_ ? *p_++ : 0; }
  bool flag() { return byte() & 1; }
  std::uint16_t u16() {
    const unsigned lo = byte();
    return static_cast<std::uint16_t>(lo | static_cast<unsigned>(byte()) << 8);
  }
  std::uint32_t u32() {
    const std::uint32_t lo = u16();
    return lo | static_cast<std::uint32_t>(u16()) << 16;
  }
  std::uint64_t u64() {
    const std::uint64_t lo = u32();
    return lo | static_cast<std::uint64_t>(u32()) << 32;
  }
  // An integer in lo..hi (inclusive; hi - lo < 65536), from one or two bytes.
  int range(int lo, int hi) {
    const auto span = static_cast<unsigned>(hi - lo) + 1;
    const unsigned v = span <= 256 ? byte() : u16();
    return lo + static_cast<int>(v % span);
  }
  // A card id 0..51.
  int card() { return byte() % 52; }
  // The rest of the input, consumed.
  const std::uint8_t* rest(std::size_t* n) {
    const std::uint8_t* at = p_;
    *n = left();
    p_ = end_;
    return at;
  }

 private:
  const std::uint8_t* p_;
  const std::uint8_t* end_;
};

}  // namespace capsa_fast::fuzz

// Crashes with the condition's text when it does not hold, in every build type.
#define FUZZ_CHECK(cond)                                                 \
  do {                                                                   \
    if (!(cond)) capsa_fast::fuzz::fail(__FILE__, __LINE__, #cond);      \
  } while (0)
