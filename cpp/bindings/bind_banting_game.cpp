// pybind11 face of a Banting round, its bots and the simulation loop
// (wrapped by capsa_fast.banting.Game and capsa_fast.banting.sim).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "capsa_fast/banting_env.hpp"
#include "capsa_fast/banting_game.hpp"
#include "convert.hpp"

namespace py = pybind11;

namespace capsa_fast::bindings {
namespace {

using namespace capsa_fast::banting;

BotLevel parse_level(const std::string& s) {
  if (s == "random") return BotLevel::kRandom;
  if (s == "beginner") return BotLevel::kBeginner;
  if (s == "standard") return BotLevel::kStandard;
  if (s == "expert") return BotLevel::kExpert;
  if (s == "master") return BotLevel::kMaster;
  if (s == "standard-v1") return BotLevel::kStandardV1;
  if (s == "standard-v2") return BotLevel::kStandardV2;
  throw std::invalid_argument("bot level must be random, beginner, standard, expert, master, "
                              "standard-v1 or standard-v2, got '" + s + "'");
}

// The master's budget from Python: iterations (rollouts a move) when time_ms is 0, else
// time_ms of wall time; threads >= 1.
SearchBudget make_budget(int iterations, double time_ms, int threads) {
  if (iterations < 1 || iterations > 100'000'000)
    throw std::invalid_argument("iterations must be 1..100000000, got " + std::to_string(iterations));
  if (!(time_ms >= 0 && time_ms <= 600'000))
    throw std::invalid_argument("time_ms must be 0..600000");
  if (threads < 1 || threads > 64)
    throw std::invalid_argument("threads must be 1..64, got " + std::to_string(threads));
  SearchBudget b;
  b.iterations = iterations;
  b.time_ms = time_ms;
  b.threads = threads;
  return b;
}

void check_players(int players) {
  if (players < 2 || players > kMaxPlayers) {
    throw std::invalid_argument("a round has 2 to 4 players, got " + std::to_string(players));
  }
}

// A round with its own copy of the rules (Round keeps a pointer to them) and the bots'
// random source, seeded by `dice`. The Python layer passes a hash of the deal's seed: the
// bots' dice show in their moves (and a random hint shows one throw), and SplitMix64 can be
// run backwards from its output, so dice seeded by the deal's seed itself would give it away.
struct PyRound {
  GameRules rules;
  Round round;
  SplitMix64 rng;
  PyRound(const GameRules& r, int players, std::uint64_t seed, int opener, std::uint64_t dice)
      : rules(r), round(rules, players, seed, opener), rng{dice} {}
  // An independent copy (the round reads the copy's own rules).
  struct Clone {};
  PyRound(Clone, const PyRound& o) : rules(o.rules), round(o.round, rules), rng(o.rng) {}
  PyRound(const PyRound&) = delete;
  PyRound& operator=(const PyRound&) = delete;

  void check_seat(int seat) const {
    if (seat < 0 || seat >= round.players()) {
      throw std::invalid_argument("seat must be 0.." + std::to_string(round.players() - 1) +
                                  ", got " + std::to_string(seat));
    }
  }

  // bot_move and hint read the round with the GIL released, so another Python thread could
  // change it meanwhile (a move's history push_back while the bot copies the round). They,
  // and every change to the round or the dice, hold this lock; a call that finds it taken
  // fails at once, as BantingVecEnvCore's do.
  std::unique_lock<std::mutex> lock() const {
    std::unique_lock<std::mutex> l(busy, std::try_to_lock);
    if (!l.owns_lock()) throw std::invalid_argument("this BantingRound is in use by another thread");
    return l;
  }

 private:
  mutable std::mutex busy;
};

py::object optional_seat(int seat) { return seat < 0 ? py::object(py::none()) : py::object(py::int_(seat)); }

const char* round_code_name(RoundCode code, const Verdict& v) {
  switch (code) {
    case RoundCode::kOk: return "OK";
    case RoundCode::kRoundOver: return "ROUND_OVER";
    case RoundCode::kNotYourTurn: return "NOT_YOUR_TURN";
    case RoundCode::kRules: break;
  }
  return code_name(v.code);
}

// (code, the play's combo or None, the card a first play must hold or -1).
py::tuple judge(PyRound& self, int seat, py::handle play, bool make) {
  self.check_seat(seat);
  const bool is_pass = play.is_none();
  const std::vector<int> ids = is_pass ? std::vector<int>{} : cards_from(play);
  std::unique_lock<std::mutex> busy;
  if (make) busy = self.lock();
  Verdict v;
  const int n = static_cast<int>(ids.size());
  const RoundCode code = make ? self.round.apply(seat, ids.data(), n, is_pass, &v)
                              : self.round.check(seat, ids.data(), n, is_pass, &v);
  py::object combo = py::none();
  if (code != RoundCode::kRoundOver && code != RoundCode::kNotYourTurn && !is_pass &&
      v.combo.kind != Kind::kNone) {
    combo = py::cast(v.combo);
  }
  return py::make_tuple(round_code_name(code, v), combo, v.lowest);
}

py::object move_tuple(const Move& m) {
  return py::make_tuple(m.seat, m.is_pass ? py::object(py::none()) : py::cast(m.combo));
}

std::vector<int> sorted_hand(CardMask hand, const Rules& rules) {
  std::vector<int> out;
  for (CardMask h = hand; h; h &= h - 1) out.push_back(__builtin_ctzll(h));
  std::sort(out.begin(), out.end(), [&](int a, int b) { return single_order(a, rules) < single_order(b, rules); });
  return out;
}

}  // namespace

void bind_banting_game(py::module_& m) {
  py::class_<GameRules>(m, "BantingGameRules")
      .def(py::init([](const Rules& rules, const std::vector<std::pair<int, int>>& tiers,
                       bool dragon, bool last_standing, bool previous_winner, bool bomb_ends,
                       bool exchange) {
             if (bomb_ends && !last_standing)
               throw std::invalid_argument("bomb_ends needs last_standing");
             GameRules g;
             g.rules = rules;
             g.tiers = tiers;
             g.dragon = dragon;
             g.last_standing = last_standing;
             g.previous_winner = previous_winner;
             g.bomb_ends = bomb_ends;
             g.exchange = exchange;
             return g;
           }),
           py::arg("rules"), py::arg("tiers"), py::arg("dragon"), py::arg("last_standing"),
           py::arg("previous_winner"), py::arg("bomb_ends") = false, py::arg("exchange") = false);

  py::class_<PyRound>(m, "BantingRound", "One Capsa Banting round (see capsa_fast.banting.Game).")
      .def(py::init([](const GameRules& rules, int players, std::uint64_t seed, int opener,
                       std::uint64_t dice) {
             check_players(players);
             return std::make_unique<PyRound>(rules, players, seed, opener, dice);
           }),
           py::arg("rules"), py::arg("players"), py::arg("seed"), py::arg("opener") = -1,
           py::arg("dice"))
      .def("__copy__", [](const PyRound& s) { return std::make_unique<PyRound>(PyRound::Clone{}, s); })
      .def("__deepcopy__", [](const PyRound& s, const py::dict&) {
        return std::make_unique<PyRound>(PyRound::Clone{}, s);
      }, py::arg("memo"))
      .def_property("dice_state", [](const PyRound& s) { return s.rng.state; },
                    [](PyRound& s, std::uint64_t state) {
                      const auto busy = s.lock();
                      s.rng.state = state;
                    },
                    "The bots' dice: a Game's copy or pickle carries it, so its bots throw as the "
                    "original's would.")
      .def_property_readonly("players", [](const PyRound& s) { return s.round.players(); })
      .def_property_readonly("turn", [](const PyRound& s) { return optional_seat(s.round.turn()); })
      .def_property_readonly("leader", [](const PyRound& s) { return optional_seat(s.round.leader()); })
      .def_property_readonly("table", [](const PyRound& s) {
        const Combo* t = s.round.table();
        return t ? py::cast(*t) : py::object(py::none());
      })
      .def_property_readonly("table_seat", [](const PyRound& s) { return optional_seat(s.round.table_seat()); })
      .def_property_readonly("passed", [](const PyRound& s) {
        std::vector<int> out;
        for (int p = 0; p < s.round.players(); ++p)
          if (s.round.has_passed(p)) out.push_back(p);
        return out;
      })
      .def_property_readonly("first_play", [](const PyRound& s) { return s.round.first_play(); })
      .def_property_readonly("twos_demoted", [](const PyRound& s) { return s.round.twos_demoted(); })
      .def_property_readonly("must_contain", [](const PyRound& s) { return s.round.must_contain(); })
      .def_property_readonly("over", [](const PyRound& s) { return s.round.over(); })
      .def_property_readonly("winner", [](const PyRound& s) { return optional_seat(s.round.winner()); })
      .def_property_readonly("dragon", [](const PyRound& s) { return s.round.dragon(); })
      .def_property_readonly("cards_left", [](const PyRound& s) {
        const auto& c = s.round.cards_left();
        return std::vector<int>(c.begin(), c.begin() + s.round.players());
      })
      .def_property_readonly("finishing_order", [](const PyRound& s) { return s.round.finishing_order(); })
      .def_property_readonly("scores", [](const PyRound& s) { return s.round.scores(); })
      .def_property_readonly("counts", [](const PyRound& s) {
        std::vector<int> out;
        for (int p = 0; p < s.round.players(); ++p) out.push_back(s.round.count(p));
        return out;
      })
      .def_property_readonly("can_pass", [](const PyRound& s) { return s.round.can_pass(); })
      .def_property_readonly("places", [](const PyRound& s) { return s.round.places(); },
                             "Once over: the seats from first to last place (the exchange's).")
      .def_property_readonly("exchanging", [](const PyRound& s) { return s.round.exchanging(); })
      .def_property_readonly("exchanges", [](const PyRound& s) {
        py::list out;
        for (const Exchange& x : s.round.exchanges()) {
          out.append(py::make_tuple(x.giver, x.receiver, x.card,
                                    x.back < 0 ? py::object(py::none()) : py::object(py::int_(x.back))));
        }
        return out;
      }, "The exchange's pairs: (giver, receiver, card given, card given back or None).")
      .def("begin_exchange", [](PyRound& s, const std::vector<int>& places) {
        const int n = s.round.players();
        std::vector<int> seen(static_cast<std::size_t>(n), 0);
        bool ok = static_cast<int>(places.size()) == n;
        for (const int p : places) {
          ok = ok && p >= 0 && p < n && !seen[static_cast<std::size_t>(p)];
          if (ok) seen[static_cast<std::size_t>(p)] = 1;
        }
        if (!ok) throw std::invalid_argument("places: each seat 0.." + std::to_string(n - 1) + " once");
        const auto busy = s.lock();
        if (s.round.over() || s.round.exchanging() || s.round.played() != 0)
          throw std::invalid_argument("an exchange begins a fresh round, before any move");
        s.round.begin_exchange(places);
      }, py::arg("places"), "Begin the card exchange after a round with these places.")
      .def("owes", [](const PyRound& s, int seat) {
        s.check_seat(seat);
        return s.round.owes(seat);
      }, py::arg("seat"), "Whether the seat still has a card to give back.")
      .def("give_back", [](PyRound& s, int seat, int card) {
        s.check_seat(seat);
        const auto busy = s.lock();
        switch (s.round.give_back(seat, card)) {
          case ExchangeCode::kOk: return "OK";
          case ExchangeCode::kClosed: return "EXCHANGE_CLOSED";
          case ExchangeCode::kNotInHand: break;
        }
        return "NOT_IN_HAND";
      }, py::arg("seat"), py::arg("card"), "Give a card back: OK, EXCHANGE_CLOSED or NOT_IN_HAND.")
      .def("bot_give_back", [](PyRound& s, int seat, const std::string& level, bool make) {
        s.check_seat(seat);
        const BotLevel lv = parse_level(level);
        const auto busy = s.lock();
        if (!s.round.owes(seat)) throw std::invalid_argument("this seat has no card to give back");
        SplitMix64 dice = s.rng;
        const int card = bot_give_back(s.round, seat, lv, dice);
        if (make) {
          s.rng = dice;
          s.round.give_back(seat, card);
        }
        return card;
      }, py::arg("seat"), py::arg("level"), py::arg("make"),
         "The card the level's bot gives back (and, with make, gives it).")
      .def("hand", [](const PyRound& s, int seat) {
        s.check_seat(seat);
        return sorted_hand(s.round.hand(seat), s.rules.rules);
      }, py::arg("seat"))
      .def_property_readonly("history", [](const PyRound& s) {
        py::list out;
        for (const Move& mv : s.round.history()) out.append(move_tuple(mv));
        return out;
      })
      .def("check", [](PyRound& s, int seat, py::handle play) { return judge(s, seat, play, false); },
           py::arg("seat"), py::arg("play"), "Judge a move (cards, or None for a pass) without making it.")
      .def("apply", [](PyRound& s, int seat, py::handle play) { return judge(s, seat, play, true); },
           py::arg("seat"), py::arg("play"), "Judge a move and make it when it is legal.")
      .def("legal_plays", [](const PyRound& s) {
        std::vector<Combo> out;
        s.round.for_each_legal([&](const Combo& c) { out.push_back(c); });
        return out;
      }, "Legal plays of the seat to move (no pass).")
      .def("bot_move", [](PyRound& s, const std::string& level, bool make, int iterations,
                          double time_ms, int threads) {
        if (s.round.over()) throw std::invalid_argument("the round is over");
        if (s.round.exchanging()) throw std::invalid_argument("no seat is to move: the card exchange is open");
        const BotLevel lv = parse_level(level);
        const SearchBudget budget = make_budget(iterations, time_ms, threads);
        const auto busy = s.lock();
        SplitMix64 dice = s.rng;  // a look-ahead (make=false) leaves the bots' dice as they were
        Move mv;
        {
          py::gil_scoped_release release;  // the master searches for tens of milliseconds
          mv = bot_move(s.round, lv, dice, budget);
        }
        if (make) {
          s.rng = dice;
          s.round.apply_legal(mv.seat, mv.is_pass ? nullptr : &mv.combo);
        }
        return move_tuple(mv);
      }, py::arg("level"), py::arg("make"),
         py::arg("iterations") = SearchBudget::kDefaultIterations, py::arg("time_ms") = 0.0,
         py::arg("threads") = 1)
      .def("hint", [](const PyRound& s, const std::string& level, int iterations, double time_ms,
                      int threads) {
        if (s.round.over()) throw std::invalid_argument("the round is over");
        if (s.round.exchanging()) throw std::invalid_argument("no seat is to move: the card exchange is open");
        const BotLevel lv = parse_level(level);
        const SearchBudget budget = make_budget(iterations, time_ms, threads);
        const auto busy = s.lock();
        SplitMix64 scratch = s.rng;  // nothing changes, the bots' dice included
        Hint h;
        {
          py::gil_scoped_release release;
          h = hint_move(s.round, lv, scratch, budget);
        }
        return py::make_tuple(h.move.seat,
                              h.move.is_pass ? py::object(py::none()) : py::cast(h.move.combo),
                              h.pass_reasonable);
      }, py::arg("level"), py::arg("iterations") = SearchBudget::kDefaultIterations,
         py::arg("time_ms") = 0.0, py::arg("threads") = 1,
         "The level's move, never a pass while a play exists: (seat, combo, pass_reasonable).")
      .def("observe", [](const PyRound& s, int seat) {
        s.check_seat(seat);
        py::array_t<std::int8_t> obs(env::kObsSize);
        py::array_t<bool> mask(env::kNumActions);
        env::encode_observation(s.round, seat, obs.mutable_data());
        static_assert(sizeof(bool) == 1, "numpy bool is one byte");
        env::legal_action_mask(s.round, seat, reinterpret_cast<std::uint8_t*>(mask.mutable_data()));
        return py::make_tuple(obs, mask);
      }, py::arg("seat"), "(observation int8 [612], action mask bool [1665]) of what the seat sees.")
      .def("apply_action", [](PyRound& s, long long action) {
        // The seat to move plays an action index; False (nothing changed) when illegal.
        if (action < 0 || action >= env::kNumActions || s.round.turn() < 0) return false;
        Combo play;
        bool is_pass = false;
        const auto busy = s.lock();
        if (!env::decode_action(s.round, static_cast<int>(action), &play, &is_pass)) return false;
        s.round.apply_legal(s.round.turn(), is_pass ? nullptr : &play);
        return true;
      }, py::arg("action"))
      .def("legal_actions", [](const PyRound& s) {
        std::vector<std::uint8_t> mask(env::kNumActions);
        std::vector<std::int16_t> list;
        if (s.round.turn() >= 0) env::legal_action_mask(s.round, s.round.turn(), mask.data(), &list);
        std::vector<int> out(list.begin(), list.end());
        std::sort(out.begin(), out.end());
        return out;
      }, "Legal action indices of the seat to move, ascending.");

  m.attr("BANTING_MASTER_ITERATIONS") = SearchBudget::kDefaultIterations;
  m.def("banting_shuffled_deck", [](std::uint64_t seed) {
    const auto deck = shuffled_deck(seed);
    return std::vector<int>(deck.begin(), deck.end());
  }, py::arg("seed"));
  m.def("banting_sim_round_seed", &sim_round_seed, py::arg("seed"), py::arg("g"));
  m.def("banting_plan", [](py::handle hand, const Rules& rules) {
    const Plan plan = plan_hand(card_mask(cards_from(hand)), rules);
    return py::make_tuple(plan.combos, plan.cost);
  }, py::arg("hand"), py::arg("rules"));
  m.def(
      "banting_simulate",
      [](const GameRules& rules, int players, const std::vector<std::string>& seats,
         std::uint64_t seed, std::uint64_t first, int count, int iterations, double time_ms,
         int threads) {
        check_players(players);
        if (static_cast<int>(seats.size()) != players) {
          throw std::invalid_argument("one bot level per seat: " + std::to_string(players) +
                                      " seats, got " + std::to_string(seats.size()));
        }
        if (count < 0) throw std::invalid_argument("count must be >= 0");
        std::vector<BotLevel> levels;
        for (const auto& s : seats) levels.push_back(parse_level(s));
        const SearchBudget budget = make_budget(iterations, time_ms, threads);
        py::array_t<std::int32_t> scores({static_cast<py::ssize_t>(count), static_cast<py::ssize_t>(players)});
        py::array_t<std::int32_t> winners(static_cast<py::ssize_t>(count));
        int* sp = scores.mutable_data();
        int* wp = winners.mutable_data();
        {
          py::gil_scoped_release release;
          simulate(rules, players, levels, seed, first, count, sp, wp, budget);
        }
        return py::make_tuple(scores, winners);
      },
      py::arg("rules"), py::arg("players"), py::arg("seats"), py::arg("seed"), py::arg("first"),
      py::arg("count"), py::arg("iterations") = SearchBudget::kDefaultIterations,
      py::arg("time_ms") = 0.0, py::arg("threads") = 1);
  m.def(
      "banting_simulate_duplicate",
      [](const GameRules& rules, int players, const std::vector<std::string>& lineup,
         std::uint64_t seed, std::uint64_t first, int count, int iterations, double time_ms,
         int threads) {
        check_players(players);
        if (static_cast<int>(lineup.size()) != players) {
          throw std::invalid_argument("one bot level per seat: " + std::to_string(players) +
                                      " seats, got " + std::to_string(lineup.size()));
        }
        if (count < 0) throw std::invalid_argument("count must be >= 0");
        std::vector<BotLevel> levels;
        for (const auto& s : lineup) levels.push_back(parse_level(s));
        const SearchBudget budget = make_budget(iterations, time_ms, threads);
        py::array_t<std::int32_t> points({static_cast<py::ssize_t>(count), static_cast<py::ssize_t>(players)});
        int* pp = points.mutable_data();
        {
          py::gil_scoped_release release;
          simulate_duplicate(rules, players, levels, seed, first, count, pp, budget);
        }
        return points;
      },
      py::arg("rules"), py::arg("players"), py::arg("lineup"), py::arg("seed"), py::arg("first"),
      py::arg("count"), py::arg("iterations") = SearchBudget::kDefaultIterations,
      py::arg("time_ms") = 0.0, py::arg("threads") = 1,
      "Duplicate deals: [count, players] points of each lineup entry, summed over the seat rotations.");
}

}  // namespace capsa_fast::bindings
