// A standalone main for the fuzz targets, linked in when the compiler has no libFuzzer (g++).
// With Clang the targets link -fsanitize=fuzzer instead and this file is not built.
//
// It understands a subset of libFuzzer's command line:
//   -runs=N                inputs to generate after the replay (default: no limit)
//   -max_total_time=S      stop generating after S seconds (default 0: no limit)
//   -seed=N                seed of the generator (0, the default, picks one from the clock)
//   -max_len=N             longest generated input in bytes (default 4096)
//   -artifact_prefix=P     where the current input and crash copies go (default ./)
//   FILE or DIR ...        inputs replayed first, in order (a directory's files sorted by
//                          path); with files only, like libFuzzer, they are run and nothing
//                          is generated
// Other -flag=value options are libFuzzer's and are ignored with a note.
//
// After the replay it generates inputs: random bytes from a seeded SplitMix64 generator,
// and mutations of earlier inputs (bit flips, byte changes, inserts, erases, splices).
// There is no coverage feedback; the targets decode bytes into structured cases, so random
// and mutated bytes already reach deep into them.
//
// A crash (an ASan or UBSan report, a failed FUZZ_CHECK, any abort or signal) kills the
// process, so every input is first written to P + "current-input": after a crash, that file
// holds the input that caused it, and replaying it (`fuzz_x P/current-input`) reproduces
// it. When the process can still run code as it dies (sanitizer reports, abort, traps) it
// also prints that path and saves a copy as P + "crash-<hash>" so the next run does not
// overwrite it. A hang or a kill -9 leaves only current-input.
//
// At the end it prints one summary line and exits 0.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
// Optional hooks: libFuzzer's initialiser in a target, the sanitizers' death callback.
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);
extern "C" __attribute__((weak)) void __sanitizer_set_death_callback(void (*callback)(void));

namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;

// The same generator as the Banting deal (banting_game.hpp), kept separate so the driver
// depends on nothing but the target.
struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return n ? static_cast<std::size_t>(next() % n) : 0; }
};

struct Options {
  long long runs = -1;
  double max_total_time = 0;
  std::uint64_t seed = 0;
  std::size_t max_len = 4096;
  std::string artifact_prefix = "./";
  std::vector<std::string> paths;
};

// An integer option's value; false (with a message) when it is not one.
bool integer(const std::string& name, const std::string& value, long long* out) {
  char* end = nullptr;
  errno = 0;
  *out = std::strtoll(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || errno != 0) {
    std::fprintf(stderr, "driver: -%s needs an integer, got '%s'\n", name.c_str(), value.c_str());
    return false;
  }
  return true;
}

bool parse_options(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.empty() || arg[0] != '-') {
      o.paths.push_back(arg);
      continue;
    }
    const auto eq = arg.find('=');
    const std::string name = arg.substr(1, eq == std::string::npos ? std::string::npos : eq - 1);
    const std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
    long long v = 0;
    if (name == "artifact_prefix") {
      o.artifact_prefix = value;
    } else if (name != "runs" && name != "max_total_time" && name != "seed" && name != "max_len") {
      std::fprintf(stderr, "driver: ignoring %s (a libFuzzer option this driver lacks)\n", arg.c_str());
    } else if (!integer(name, value, &v)) {
      return false;
    } else if (name == "runs") {
      o.runs = v;
    } else if (name == "max_total_time") {
      o.max_total_time = static_cast<double>(v);
    } else if (name == "seed") {
      o.seed = static_cast<std::uint64_t>(v);
    } else {
      o.max_len = v < 0 ? 0 : static_cast<std::size_t>(v);
    }
  }
  return true;
}

// ---- The input being run, for the crash handlers (which may only use what is set up). ----

char g_prefix[4096];
char g_current_path[sizeof g_prefix + 16];
const std::uint8_t* g_data = nullptr;
std::size_t g_size = 0;

void say(const char* s) {
  const ssize_t ignored = write(STDERR_FILENO, s, std::strlen(s));
  (void)ignored;
}

// Async-signal-safe: prints where the input is and copies it to crash-<FNV-1a hash>.
void report_crash() {
  static bool reported = false;
  if (reported) return;
  reported = true;
  say("\ndriver: crashed; the input is in ");
  say(g_current_path);
  if (g_data == nullptr) {  // not inside a run
    say("\n");
    return;
  }
  std::uint64_t h = 0xCBF29CE484222325ull;
  for (std::size_t i = 0; i < g_size; ++i) h = (h ^ g_data[i]) * 0x100000001B3ull;
  char path[4096 + 32];
  std::size_t n = std::strlen(g_prefix);
  std::memcpy(path, g_prefix, n);
  std::memcpy(path + n, "crash-", 6);
  n += 6;
  for (int i = 15; i >= 0; --i) path[n++] = "0123456789abcdef"[(h >> (4 * i)) & 15];
  path[n] = '\0';
  const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    std::size_t done = 0;
    while (done < g_size) {
      const ssize_t w = write(fd, g_data + done, g_size - done);
      if (w <= 0) break;
      done += static_cast<std::size_t>(w);
    }
    close(fd);
    say(" (a copy: ");
    say(path);
    say(")");
  }
  say("\n");
}

void on_signal(int sig) {
  report_crash();
  signal(sig, SIG_DFL);
  raise(sig);
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAsan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAsan = true;
#else
constexpr bool kAsan = false;
#endif
#else
constexpr bool kAsan = false;
#endif

}  // namespace

// UBSan ends the process with _exit, past any handler of ours (with GCC its runtime is
// separate from ASan's and does not call ASan's death callback); ask it to abort instead,
// which the SIGABRT handler reports. UBSAN_OPTIONS still overrides this.
extern "C" const char* __ubsan_default_options() { return "abort_on_error=1:print_stacktrace=1"; }

namespace {

void install_handlers() {
  if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(report_crash);
  // ASan reports segfaults itself (and calls the death callback); its handler stays.
  std::vector<int> sigs = {SIGABRT, SIGILL};
  if (!kAsan) sigs.insert(sigs.end(), {SIGSEGV, SIGBUS, SIGFPE});
  for (const int s : sigs) signal(s, on_signal);
}

// Writes the input to current-input, then runs it from an exactly-sized heap copy so that
// ASan sees any read past its end.
void run_one(const Bytes& input) {
  const int fd = open(g_current_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    std::size_t done = 0;
    while (done < input.size()) {
      const ssize_t w = write(fd, input.data() + done, input.size() - done);
      if (w <= 0) break;
      done += static_cast<std::size_t>(w);
    }
    close(fd);
  }
  std::unique_ptr<std::uint8_t[]> copy(new std::uint8_t[input.size()]);
  if (!input.empty()) std::memcpy(copy.get(), input.data(), input.size());
  g_data = copy.get();
  g_size = input.size();
  LLVMFuzzerTestOneInput(copy.get(), input.size());
  g_data = nullptr;
  g_size = 0;
}

bool read_file(const fs::path& p, Bytes& out) {
  std::ifstream f(p, std::ios::binary);
  if (!f) return false;
  out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return true;
}

// ---- Generating inputs. ----

Bytes random_input(SplitMix64& rng, std::size_t max_len) {
  // Mostly short inputs: a length cap of 2^0 .. 2^12 bytes, then a length below it.
  const std::size_t cap = std::min<std::size_t>(max_len, std::size_t{1} << rng.below(13));
  Bytes b(rng.below(cap + 1));
  for (auto& x : b) x = static_cast<std::uint8_t>(rng.next());
  return b;
}

void mutate(Bytes& b, const std::vector<Bytes>& pool, SplitMix64& rng, std::size_t max_len) {
  static constexpr std::uint8_t kInteresting[] = {0, 1, 2, 3, 4, 12, 13, 51, 52, 0x7F, 0x80, 0xFE, 0xFF};
  for (std::size_t n = 1 + rng.below(4); n > 0; --n) {
    switch (rng.below(b.empty() ? 2 : 8)) {
      case 0: {  // insert a few random bytes
        const std::size_t at = rng.below(b.size() + 1), k = 1 + rng.below(8);
        Bytes add(k);
        for (auto& x : add) x = static_cast<std::uint8_t>(rng.next());
        b.insert(b.begin() + static_cast<std::ptrdiff_t>(at), add.begin(), add.end());
        break;
      }
      case 1: {  // splice: this input's head, another's tail
        const Bytes& other = pool[rng.below(pool.size())];
        const std::size_t keep = rng.below(b.size() + 1), from = rng.below(other.size() + 1);
        b.resize(keep);
        b.insert(b.end(), other.begin() + static_cast<std::ptrdiff_t>(from), other.end());
        break;
      }
      case 2:  // flip a bit
        b[rng.below(b.size())] ^= static_cast<std::uint8_t>(1u << rng.below(8));
        break;
      case 3:  // a random byte
        b[rng.below(b.size())] = static_cast<std::uint8_t>(rng.next());
        break;
      case 4:  // a value the targets treat specially (card counts, ids, extremes)
        b[rng.below(b.size())] = kInteresting[rng.below(sizeof kInteresting)];
        break;
      case 5: {  // nudge a byte up or down
        auto& x = b[rng.below(b.size())];
        x = static_cast<std::uint8_t>(x + (rng.below(2) ? 1 : 255));
        break;
      }
      case 6: {  // erase a few bytes
        const std::size_t at = rng.below(b.size()), k = std::min(b.size() - at, 1 + rng.below(8));
        b.erase(b.begin() + static_cast<std::ptrdiff_t>(at), b.begin() + static_cast<std::ptrdiff_t>(at + k));
        break;
      }
      default: {  // copy a chunk over another place
        const std::size_t from = rng.below(b.size()), to = rng.below(b.size());
        const std::size_t k = std::min({b.size() - from, b.size() - to, 1 + rng.below(16)});
        std::memmove(b.data() + to, b.data() + from, k);
        break;
      }
    }
  }
  if (b.size() > max_len) b.resize(max_len);
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parse_options(argc, argv, o)) return 1;
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  if (o.seed == 0) {
    o.seed = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
             (static_cast<std::uint64_t>(getpid()) << 32);
  }
  if (o.artifact_prefix.size() + 1 > sizeof g_prefix) {
    std::fprintf(stderr, "driver: -artifact_prefix is too long\n");
    return 1;
  }
  // A prefix ending in '/' names a directory: create it.
  if (!o.artifact_prefix.empty() && o.artifact_prefix.back() == '/') {
    std::error_code ec;
    fs::create_directories(o.artifact_prefix, ec);
  }
  const std::string current = o.artifact_prefix + "current-input";
  std::memcpy(g_prefix, o.artifact_prefix.c_str(), o.artifact_prefix.size() + 1);
  std::memcpy(g_current_path, current.c_str(), current.size() + 1);
  install_handlers();

  // The inputs to replay: files as given, directories' files sorted by path.
  std::vector<fs::path> files;
  bool files_only = !o.paths.empty();
  for (const std::string& p : o.paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      files_only = false;
      std::vector<fs::path> in_dir;
      for (const auto& e : fs::recursive_directory_iterator(p, ec))
        if (e.is_regular_file()) in_dir.push_back(e.path());
      std::sort(in_dir.begin(), in_dir.end());
      files.insert(files.end(), in_dir.begin(), in_dir.end());
    } else if (fs::is_regular_file(p, ec)) {
      files.push_back(p);
    } else {
      std::fprintf(stderr, "driver: no such file or directory: %s\n", p.c_str());
      return 1;
    }
  }
  std::fprintf(stderr,
               "driver: seed=%llu max_len=%zu; each input is written to %s before it runs "
               "(after a crash it holds the crashing input)\n",
               static_cast<unsigned long long>(o.seed), o.max_len, g_current_path);

  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  std::vector<Bytes> seeds;
  for (const fs::path& f : files) {
    Bytes b;
    if (!read_file(f, b)) {
      std::fprintf(stderr, "driver: cannot read %s\n", f.c_str());
      return 1;
    }
    run_one(b);
    seeds.push_back(std::move(b));
  }
  const std::size_t replayed = seeds.size();

  // Parents for mutation: the replayed inputs, plus a ring of recent generated ones.
  constexpr std::size_t kRecent = 256;
  std::vector<Bytes> recent;
  std::size_t ring = 0;
  SplitMix64 rng{o.seed};
  long long generated = 0;
  double next_note = 10;
  while (!files_only && (o.runs < 0 || generated < o.runs) &&
         (o.max_total_time <= 0 || elapsed() < o.max_total_time)) {
    Bytes b;
    const bool fresh = (seeds.empty() && recent.empty()) || rng.below(4) == 0;
    if (fresh) {
      b = random_input(rng, o.max_len);
    } else {
      const bool from_seed = !seeds.empty() && (recent.empty() || rng.below(2) == 0);
      const std::vector<Bytes>& from = from_seed ? seeds : recent;
      b = from[rng.below(from.size())];
      mutate(b, from, rng, o.max_len);
    }
    run_one(b);
    ++generated;
    if (recent.size() < kRecent) recent.push_back(std::move(b));
    else recent[ring++ % kRecent] = std::move(b);
    if (elapsed() >= next_note) {
      std::fprintf(stderr, "driver: %lld runs, %.0f s\n", generated, elapsed());
      next_note += 10;
    }
  }
  std::printf("driver: done, %lld runs (%zu replayed, %lld generated) in %.1f s\n",
              static_cast<long long>(replayed) + generated, replayed, generated, elapsed());
  return 0;
}
