// The instruction sets the core may choose at run time, and the setting that caps them.
//
// Two places pick a loop by what the CPU has: the evaluator's batch loops
// (poker::BatchPath) and the Susun split scans (susun::ScanPath). Each takes the best loop
// that both the CPU supports and the cap allows. The cap is the environment variable
// CAPSA_FAST_ISA, read once, at the first dispatch:
//   unset or "native"  no cap: the best the CPU has;
//   "avx512"           the same (nothing above AVX-512 is dispatched);
//   "avx2"             no AVX-512 loop: the machine behaves as an AVX2-only CPU
//                      (Haswell, Zen 1-3) would;
//   "portable"         the portable reference loops only, on any CPU.
// Any other value is an error (isa_setting_error() says which); the core then runs the
// portable loops, the safe choice, and the Python package refuses to import, naming it.
// The tests run once per level the machine has (make cpp-test), so every loop is proved
// wherever the CPU can run it and the portable loops are proved everywhere.
#pragma once

#include <cstdint>
#include <string>

namespace capsa_fast {

enum class Isa : std::uint8_t { kPortable = 0, kAvx2 = 1, kAvx512 = 2 };

// "portable", "avx2", "avx512".
const char* isa_name(Isa level) noexcept;

// The highest level CAPSA_FAST_ISA allows (kAvx512 when unset or "native"; kPortable for
// a value that is not one of the names above).
Isa isa_cap() noexcept;

// Empty when CAPSA_FAST_ISA is unset or valid; else a message naming the variable, the
// value and the values it takes.
std::string isa_setting_error();

// Whether a loop that needs `level` may run: kPortable always, the others only under a cap
// at least as high. (What the CPU has is checked by each dispatcher, per its own features.)
inline bool isa_allowed(Isa level) noexcept {
  return static_cast<int>(level) <= static_cast<int>(isa_cap());
}

}  // namespace capsa_fast
