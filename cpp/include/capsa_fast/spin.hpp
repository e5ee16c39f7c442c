// Waiting without sleeping, for the thread pools.
//
// On this project's 2-core virtual machine, a thread asleep on a condition variable starts
// running 30-250 us after it is notified (the idle virtual CPU has to be woken by the
// host), as long as a batch of 100,000 poker hands or a vector-env step of a few thousand
// rounds takes. So the pools spin for a short, bounded while before they sleep: the
// calling thread while the others finish their last chunk, and a pool thread after its
// work, for the next call.
#pragma once

#include <chrono>
#include <thread>

namespace capsa_fast {

// How long a caller spins for the other threads to finish, and a pool thread for the next
// call, before each sleeps on its condition variable.
inline constexpr std::chrono::microseconds kFinishSpin{500};
inline constexpr std::chrono::microseconds kIdleSpin{200};

// Waits until done() holds, spinning for at most `budget`; returns whether it held.
template <class Done>
bool spin_until(Done&& done, std::chrono::microseconds budget) {
  const auto until = std::chrono::steady_clock::now() + budget;
  for (int i = 1;; ++i) {
    if (done()) return true;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#else
    std::this_thread::yield();
#endif
    if (i % 64 == 0 && std::chrono::steady_clock::now() >= until) return done();
  }
}

}  // namespace capsa_fast
