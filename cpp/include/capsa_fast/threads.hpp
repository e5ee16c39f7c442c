// Work split over threads without ending the process when something goes wrong: an
// exception leaving a std::thread, or a std::thread destroyed while joinable (a thread
// the system would not start, after others had started), calls std::terminate.
#pragma once

#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace capsa_fast {

// The first exception thrown by any of several threads, to rethrow on the caller.
class FirstError {
 public:
  template <class F>
  void guard(F&& f) noexcept {
    try {
      f();
    } catch (...) {
      const std::lock_guard<std::mutex> hold(lock_);
      if (!error_) error_ = std::current_exception();
    }
  }
  // Rethrows the first exception caught, if any, and forgets it.
  void rethrow() {
    std::exception_ptr error;
    {
      const std::lock_guard<std::mutex> hold(lock_);
      error = std::exchange(error_, nullptr);
    }
    if (error) std::rethrow_exception(error);
  }

 private:
  std::mutex lock_;
  std::exception_ptr error_;
};

// Runs body(part) for part in [0, parts): part 0 on the calling thread, the others on
// threads of their own. A thread the system will not start (no room for its stack, a
// process limit) has its part run on the calling thread instead, after part 0. Returns
// once every part has finished, then rethrows the first exception any part threw.
template <class Body>
void run_parts(int parts, Body&& body) {
  FirstError error;
  std::vector<std::thread> pool;
  std::vector<int> here{0};
  if (parts > 1) {  // no allocation once threads run
    pool.reserve(static_cast<std::size_t>(parts - 1));
    here.reserve(static_cast<std::size_t>(parts));
  }
  for (int part = 1; part < parts; ++part) {
    try {
      pool.emplace_back([&error, &body, part] { error.guard([&] { body(part); }); });
    } catch (const std::system_error&) {
      here.push_back(part);
    }
  }
  for (const int part : here) error.guard([&] { body(part); });
  for (std::thread& t : pool) t.join();
  error.rethrow();
}

}  // namespace capsa_fast
