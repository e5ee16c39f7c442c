// pybind11 face of the Banting vector environment (wrapped by capsa_fast.rl.BantingVecEnv).
// The Python layer allocates the output arrays once; every call writes into them with the
// GIL released.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "capsa_fast/banting_env.hpp"

namespace py = pybind11;

namespace capsa_fast::bindings {
namespace {

using namespace capsa_fast::banting;
using namespace capsa_fast::banting::env;

// A writable C-contiguous array of exactly this shape, or ValueError naming it.
template <class T>
T* out_data(py::array_t<T>& a, std::vector<py::ssize_t> shape, const char* name) {
  const bool ok = a.ndim() == static_cast<py::ssize_t>(shape.size()) && a.writeable() &&
                  (a.flags() & py::array::c_style) != 0;
  bool same = ok;
  for (std::size_t d = 0; same && d < shape.size(); ++d) same = a.shape(static_cast<py::ssize_t>(d)) == shape[d];
  if (!same) throw std::invalid_argument(std::string(name) + ": wrong shape or layout");
  return a.mutable_data();
}

struct PyVecEnv {
  std::unique_ptr<VecEnv> env;
  std::mutex busy;  // one call at a time: the GIL is released while it runs
  PyVecEnv(const GameRules& rules, int players, int n, const std::vector<int>& seats, int threads)
      : env(std::make_unique<VecEnv>(rules, players, n, seats, threads)) {}

  std::unique_lock<std::mutex> lock() {
    std::unique_lock<std::mutex> l(busy, std::try_to_lock);
    if (!l.owns_lock()) {
      throw std::invalid_argument("this BantingVecEnv is in use by another thread");
    }
    return l;
  }
  void check_index(int i) const {
    if (i < 0 || i >= env->size()) {
      throw std::invalid_argument("env index must be 0.." + std::to_string(env->size() - 1) +
                                  ", got " + std::to_string(i));
    }
  }
};

py::tuple move_tuple(const Move& mv) {
  return py::make_tuple(mv.seat, mv.is_pass ? py::object(py::none()) : py::cast(mv.combo));
}

using I8 = py::array_t<std::int8_t>;
using U8 = py::array_t<std::uint8_t>;
using F32 = py::array_t<float>;
using I64 = py::array_t<std::int64_t>;

}  // namespace

void bind_banting_env(py::module_& m) {
  py::class_<PyVecEnv>(m, "BantingVecEnvCore")
      .def(py::init([](const GameRules& rules, int players, int n, const std::vector<int>& seats,
                       int threads) {
             if (players < 2 || players > kMaxPlayers) throw std::invalid_argument("players must be 2..4");
             if (n < 1) throw std::invalid_argument("n must be >= 1");
             if (static_cast<int>(seats.size()) != players) throw std::invalid_argument("one entry per seat");
             bool learner = false;
             for (int s : seats) {
               // Any bot but the master, whose search is for the one-game envs.
               if (s < kLearnerSeat || s > static_cast<int>(BotLevel::kStandardV2) ||
                   s == static_cast<int>(BotLevel::kMaster)) {
                 throw std::invalid_argument("bad seat kind");
               }
               learner = learner || s == kLearnerSeat;
             }
             if (!learner) throw std::invalid_argument("at least one seat must be a learner");
             if (threads < 1 || threads > 256) throw std::invalid_argument("threads must be 1..256");
             return std::make_unique<PyVecEnv>(rules, players, n, seats, threads);
           }),
           py::arg("rules"), py::arg("players"), py::arg("n"), py::arg("seats"), py::arg("threads"))
      .def("reset",
           [](PyVecEnv& s, std::uint64_t seed, I8 obs, U8 mask, I8 seat) {
             const auto n = static_cast<py::ssize_t>(s.env->size());
             auto* o = out_data(obs, {n, kObsSize}, "obs");
             auto* k = out_data(mask, {n, kNumActions}, "mask");
             auto* t = out_data(seat, {n}, "seat");
             auto l = s.lock();
             py::gil_scoped_release release;
             s.env->reset(seed, o, k, t);
           })
      .def("step",
           [](PyVecEnv& s, const py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>& actions,
              I8 obs, U8 mask, F32 rewards, U8 done, I8 seat, std::optional<float> forfeit,
              std::optional<U8> illegal, std::optional<I8> final_obs, std::optional<U8> final_mask,
              std::optional<U8> skip) {
             const auto n = static_cast<py::ssize_t>(s.env->size());
             if (actions.ndim() != 1 || actions.shape(0) != n) {
               throw std::invalid_argument("actions: expected one action per environment (" +
                                           std::to_string(n) + ")");
             }
             auto* o = out_data(obs, {n, kObsSize}, "obs");
             auto* k = out_data(mask, {n, kNumActions}, "mask");
             auto* r = out_data(rewards, {n, static_cast<py::ssize_t>(s.env->players())}, "rewards");
             auto* d = out_data(done, {n}, "done");
             auto* t = out_data(seat, {n}, "seat");
             VecEnv::StepExtras extras;
             float forfeit_value = 0.0f;
             if (forfeit) {
               if (!illegal) throw std::invalid_argument("forfeit needs the illegal array");
               forfeit_value = *forfeit;
               extras.forfeit = &forfeit_value;
               extras.illegal = out_data(*illegal, {n}, "illegal");
             }
             if (final_obs.has_value() != final_mask.has_value()) {
               throw std::invalid_argument("give final_obs and final_mask together");
             }
             if (final_obs) {
               extras.final_obs = out_data(*final_obs, {n, kObsSize}, "final_obs");
               extras.final_mask = out_data(*final_mask, {n, kNumActions}, "final_mask");
             }
             if (skip) extras.skip = out_data(*skip, {n}, "skip");
             const std::int64_t* a = actions.data();
             auto l = s.lock();
             py::gil_scoped_release release;
             return s.env->step(a, o, k, r, d, t, extras);
           },
           py::arg("actions"), py::arg("obs"), py::arg("mask"), py::arg("rewards"), py::arg("done"),
           py::arg("seat"), py::arg("forfeit") = py::none(), py::arg("illegal") = py::none(),
           py::arg("final_obs") = py::none(), py::arg("final_mask") = py::none(),
           py::arg("skip") = py::none(),
           "Plays one action per environment; see VecEnv::step and StepExtras in banting_env.hpp.")
      .def("sample_actions",
           [](PyVecEnv& s, I64 out) {
             auto* o = out_data(out, {static_cast<py::ssize_t>(s.env->size())}, "out");
             auto l = s.lock();
             py::gil_scoped_release release;
             s.env->sample_actions(o);
           })
      .def("round_seed", [](PyVecEnv& s, int i) { s.check_index(i); return s.env->round_seed(i); })
      .def("history", [](PyVecEnv& s, int i) {
        s.check_index(i);
        py::list out;
        for (const Move& mv : s.env->round(i).history()) out.append(move_tuple(mv));
        return out;
      })
      .def("round_opener", [](PyVecEnv& s, int i) {
        s.check_index(i);
        return s.env->round_opener(i);
      })
      .def("finished", [](PyVecEnv& s, int i) -> py::object {
        s.check_index(i);
        const VecEnv::Finished* f = s.env->finished(i);
        if (f == nullptr) return py::none();
        py::list moves;
        for (const Move& mv : f->round.history()) moves.append(move_tuple(mv));
        return py::make_tuple(f->seed, f->index, f->opener, moves);
      }, "The last round that ended in a step: (seed, index, opener, moves), or None.")
      .def("exchanges", [](PyVecEnv& s, int i, bool finished) -> py::object {
        s.check_index(i);
        const VecEnv::Finished* f = s.env->finished(i);
        if (finished && f == nullptr) return py::none();
        py::list out;
        for (const Exchange& x : (finished ? f->round : s.env->round(i)).exchanges())
          out.append(py::make_tuple(x.giver, x.receiver, x.card, x.back));
        return out;
      }, py::arg("i"), py::arg("finished") = false,
         "The card exchange that began environment i's round (or the last finished one): "
         "(giver, receiver, card, card given back) per pair; empty without one.")
      .def("round_index", [](PyVecEnv& s, int i) {
        s.check_index(i);
        return s.env->round_index(i);
      }, "Rounds dealt to environment i before this one since the reset (0: its first).")
      .def_property_readonly("rounds_done", [](PyVecEnv& s) { return s.env->rounds_done(); })
      .def_property_readonly("skipped_rounds", [](PyVecEnv& s) { return s.env->skipped_rounds(); })
      .def_property_readonly("forfeited_rounds", [](PyVecEnv& s) { return s.env->forfeited_rounds(); });

  m.attr("BANTING_OBS_SIZE") = kObsSize;
  m.attr("BANTING_ENV_ACTIONS") = kNumActions;
  m.attr("BANTING_OBS_LAYOUT") = py::dict(
      py::arg("hand") = py::make_tuple(ObsLayout::kHand, 52),
      py::arg("row") = py::make_tuple(ObsLayout::kRow, 13 * 17),
      py::arg("counts") = py::make_tuple(ObsLayout::kCounts, 4 * 14),
      py::arg("table_kind") = py::make_tuple(ObsLayout::kTableKind, 9),
      py::arg("table_cards") = py::make_tuple(ObsLayout::kTableCards, 52),
      py::arg("table_seat") = py::make_tuple(ObsLayout::kTableSeat, 4),
      py::arg("passed") = py::make_tuple(ObsLayout::kPassed, 4),
      py::arg("played") = py::make_tuple(ObsLayout::kPlayed, 4 * 52),
      py::arg("flags") = py::make_tuple(ObsLayout::kFlags, 6));
}

}  // namespace capsa_fast::bindings
