#include "capsa_fast/isa.hpp"

#include <cstdlib>
#include <cstring>

namespace capsa_fast {
namespace {

struct Setting {
  Isa cap = Isa::kAvx512;
  bool valid = true;
  std::string value;
};

const Setting& setting() noexcept {
  static const Setting s = [] {
    Setting out;
    const char* v = std::getenv("CAPSA_FAST_ISA");
    if (v == nullptr || *v == '\0' || std::strcmp(v, "native") == 0) return out;
    out.value = v;
    if (std::strcmp(v, "avx512") == 0) {
      out.cap = Isa::kAvx512;
    } else if (std::strcmp(v, "avx2") == 0) {
      out.cap = Isa::kAvx2;
    } else if (std::strcmp(v, "portable") == 0) {
      out.cap = Isa::kPortable;
    } else {
      out.cap = Isa::kPortable;
      out.valid = false;
    }
    return out;
  }();
  return s;
}

}  // namespace

const char* isa_name(Isa level) noexcept {
  switch (level) {
    case Isa::kPortable: return "portable";
    case Isa::kAvx2: return "avx2";
    case Isa::kAvx512: return "avx512";
  }
  return "?";
}

Isa isa_cap() noexcept { return setting().cap; }

std::string isa_setting_error() {
  const Setting& s = setting();
  if (s.valid) return {};
  std::string shown = s.value.substr(0, 40);
  return "CAPSA_FAST_ISA must be one of native, avx512, avx2, portable (got '" + shown +
         (s.value.size() > 40 ? "...'" : "'") + ")";
}

}  // namespace capsa_fast
