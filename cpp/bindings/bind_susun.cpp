#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "capsa_fast/susun.hpp"
#include "capsa_fast/susun_table.hpp"
#include "capsa_fast/threads.hpp"
#include "convert.hpp"

namespace py = pybind11;

namespace capsa_fast::bindings {
namespace {

using namespace capsa_fast::susun;

Rules make_rules(bool suit_tiebreak, const std::vector<std::vector<int>>& bonus,
                 int sweep_multiplier, int super_multiplier, const std::vector<int>& super_players,
                 int majority_bonus, int foul_points, int dragon_points,
                 const std::map<std::string, int>& special_points) {
  Rules r;
  r.suit_tiebreak = suit_tiebreak;
  if (bonus.size() != 3) throw std::invalid_argument("bonus table needs 3 positions");
  for (std::size_t p = 0; p < 3; ++p) {
    if (bonus[p].size() != kBonusColumns) throw std::invalid_argument("bonus row needs 10 columns");
    for (std::size_t c = 0; c < kBonusColumns; ++c) r.bonus[p][c] = bonus[p][c];
  }
  r.sweep_multiplier = sweep_multiplier;
  r.super_multiplier = super_multiplier;
  r.super_players = 0;
  for (const int n : super_players) {
    if (n < 2 || n > 4) {
      throw std::invalid_argument("super_players lists table sizes 2..4, got " + std::to_string(n));
    }
    r.super_players |= 1u << n;
  }
  r.majority_bonus = majority_bonus;
  r.foul_points = foul_points;
  r.dragon_points = dragon_points;
  for (const auto& [name, points] : special_points) {
    Special sp = Special::kNone;
    if (!special_from_name(name, &sp) || sp == Special::kNone || sp == Special::kDragon) {
      throw std::invalid_argument("special_points: unknown special '" + name + "'");
    }
    r.special_points[static_cast<std::size_t>(sp)] = points;
  }
  return r;
}

// A player of susun_score_table: (keys, bonus, fouled, dragon[, special name or None]).
PlayerRows table_player(py::handle entry) {
  const py::tuple t = py::reinterpret_borrow<py::tuple>(entry);
  if (t.size() != 4 && t.size() != 5) throw std::invalid_argument("a player is 4 or 5 fields");
  PlayerRows r;
  const auto keys = t[0].cast<std::vector<int>>();
  const auto bonus = t[1].cast<std::vector<int>>();
  for (std::size_t i = 0; i < 3; ++i) {
    r.key[i] = static_cast<RowKey>(keys.at(i));
    r.bonus[i] = bonus.at(i);
  }
  r.fouled = t[2].cast<bool>();
  r.dragon = t[3].cast<bool>();
  if (t.size() == 5 && !t[4].is_none()) {
    const auto name = t[4].cast<std::string>();
    if (!special_from_name(name, &r.special)) {
      throw std::invalid_argument("unknown special '" + name + "'");
    }
  }
  return r;
}

std::vector<int> exactly(py::handle cards, std::size_t n, const char* what) {
  std::vector<int> ids = cards_from(cards);
  if (ids.size() != n) {
    throw std::invalid_argument(std::string(what) + " holds " + std::to_string(n) + " cards, got " +
                                std::to_string(ids.size()));
  }
  return ids;
}

DeepBudget deep_budget(int hands, int candidates, double time_ms, std::uint64_t seed, int bank) {
  if (hands < 1 || hands > 1'000'000) throw std::invalid_argument("deep hands must be 1..1000000");
  if (candidates < 1 || candidates > kMaxEvCandidates) {
    throw std::invalid_argument("deep candidates must be 1.." + std::to_string(kMaxEvCandidates));
  }
  if (!(time_ms >= 0 && time_ms <= 600'000)) throw std::invalid_argument("deep time_ms must be 0..600000");
  if (bank != 0 && (bank < DeepBudget::kMinBank || bank > DeepBudget::kMaxBank)) {
    throw std::invalid_argument("deep bank must be 0 (sample instead) or " +
                                std::to_string(DeepBudget::kMinBank) + ".." +
                                std::to_string(DeepBudget::kMaxBank));
  }
  DeepBudget b;
  b.bank = bank;
  b.hands = hands;
  b.candidates = candidates;
  b.time_ms = time_ms;
  b.seed = seed;
  return b;
}

Strategy parse_strategy(const std::string& s) {
  if (s == "percentile") return Strategy::kPercentile;
  if (s == "naive") return Strategy::kNaive;
  if (s == "ev") return Strategy::kEv;
  throw std::invalid_argument("strategy must be ev, percentile or naive, got '" + s + "'");
}

Special special_named(const std::string& name) {
  Special s = Special::kNone;
  if (!special_from_name(name, &s) || s == Special::kNone) {
    throw std::invalid_argument(
        "special must be dragon, six_pairs, three_flushes or three_straights, got '" + name + "'");
  }
  return s;
}

py::list ids_at(const std::vector<int>& hand, const std::uint8_t* idx, std::size_t n) {
  py::list out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = hand[idx[i]];
  return out;
}

}  // namespace

void bind_susun(py::module_& m) {
  py::class_<Rules>(m, "SusunRules")
      .def(py::init(&make_rules), py::arg("suit_tiebreak"), py::arg("bonus"),
           py::arg("sweep_multiplier"), py::arg("super_multiplier"),
           py::arg("super_players"), py::arg("majority_bonus"), py::arg("foul_points"),
           py::arg("dragon_points"), py::arg("special_points") = std::map<std::string, int>{});

  py::class_<EvModel>(m, "SusunEvModel")
      .def(py::init([](const std::vector<std::vector<float>>& win,
                       const std::vector<std::vector<float>>& tie,
                       const std::vector<std::vector<float>>& loss, int opponents,
                       const Rules* rules, bool card_removal) {
             if (win.size() != 3 || tie.size() != 3 || loss.size() != 3) {
               throw std::invalid_argument("one curve per position");
             }
             EvModel model;
             for (std::size_t p = 0; p < 3; ++p) {
               if (win[p].size() != kNumRowKeys || tie[p].size() != kNumRowKeys ||
                   loss[p].size() != kNumRowKeys) {
                 throw std::invalid_argument("each curve has one value per row key");
               }
               model.win[p] = win[p];
               model.tie[p] = tie[p];
               model.loss[p] = loss[p];
             }
             model.opponents = opponents;
             model.card_removal = card_removal;
             model.pack();
             if (rules) model.prepare(*rules);
             return model;
           }),
           py::arg("win"), py::arg("tie"), py::arg("loss"), py::arg("opponents"),
           py::arg("rules").none(true) = py::none(), py::arg("card_removal") = false)
      // Read-only: prepare() builds the tables card removal needs only when it is set.
      .def_readonly("card_removal", &EvModel::card_removal);
  m.attr("SUSUN_NUM_ROW_KEYS") = kNumRowKeys;
  m.def(
      "susun_scan_path", [] { return std::string(scan_path_name(scan_path())); },
      "The instruction set the Susun split scans run on here (portable, avx2, avx512).");
  m.def(
      "susun_key_strengths",
      [](bool suit_tiebreak) {
        // The poker strength behind every row key (0 for keys no row has).
        py::array_t<std::int32_t> out(kNumRowKeys);
        std::int32_t* dst = out.mutable_data();
        std::fill(dst, dst + kNumRowKeys, 0);
        int c[5];
        auto note = [&](int n) {
          const poker::Strength s = n == 3 ? poker::evaluate3(c[0], c[1], c[2])
                                           : poker::evaluate5(c[0], c[1], c[2], c[3], c[4]);
          dst[row_key(c, n, suit_tiebreak)] = s;
        };
        for (c[0] = 0; c[0] < 52; ++c[0])
          for (c[1] = c[0] + 1; c[1] < 52; ++c[1])
            for (c[2] = c[1] + 1; c[2] < 52; ++c[2]) {
              note(3);
              for (c[3] = c[2] + 1; c[3] < 52; ++c[3])
                for (c[4] = c[3] + 1; c[4] < 52; ++c[4]) note(5);
            }
        return out;
      },
      py::arg("suit_tiebreak"));
  m.def(
      "susun_row_keys_batch",
      [](const py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>& arranged,
         const Rules& rules) {
        // Per arranged hand [top 3, middle 5, bottom 5]: the three row keys, the three bonus
        // values and whether it is fouled / a dragon.
        if (arranged.ndim() != 2 || arranged.shape(1) != 13) {
          throw std::invalid_argument("arranged hands must be an array [N, 13]");
        }
        const auto n = static_cast<std::size_t>(arranged.shape(0));
        const std::int64_t* data = arranged.data();
        py::array_t<std::int32_t> keys({static_cast<py::ssize_t>(n), py::ssize_t{3}});
        py::array_t<std::int32_t> bonus({static_cast<py::ssize_t>(n), py::ssize_t{3}});
        py::array_t<bool> fouled(static_cast<py::ssize_t>(n));
        py::array_t<bool> dragon(static_cast<py::ssize_t>(n));
        auto k = keys.mutable_unchecked<2>();
        auto b = bonus.mutable_unchecked<2>();
        auto f = fouled.mutable_unchecked<1>();
        auto d = dragon.mutable_unchecked<1>();
        for (std::size_t i = 0; i < n; ++i) {
          int c[13];
          for (int j = 0; j < 13; ++j) {
            const std::int64_t v = data[i * 13 + static_cast<std::size_t>(j)];
            if (v < 0 || v >= kDeckSize) throw std::invalid_argument("not a card id: " + std::to_string(v));
            c[j] = static_cast<int>(v);
          }
          check_distinct(c, 13);
          const PlayerRows p = player_rows(c, c + 3, c + 8, rules);
          const auto row = static_cast<py::ssize_t>(i);
          for (py::ssize_t r = 0; r < 3; ++r) {
            k(row, r) = p.key[static_cast<std::size_t>(r)];
            b(row, r) = p.bonus[static_cast<std::size_t>(r)];
          }
          f(row) = p.fouled;
          d(row) = rules.dragon_points > 0 && is_dragon(c);
        }
        return py::make_tuple(keys, bonus, fouled, dragon);
      },
      py::arg("arranged"), py::arg("rules"));
  m.def(
      "susun_score_tables",
      [](const py::array_t<std::int32_t, py::array::c_style | py::array::forcecast>& keys,
         const py::array_t<std::int32_t, py::array::c_style | py::array::forcecast>& bonus,
         const py::array_t<bool, py::array::c_style | py::array::forcecast>& fouled,
         const py::array_t<bool, py::array::c_style | py::array::forcecast>& dragon,
         const Rules& rules) {
        // Many tables at once: keys and bonus [T, P, 3], fouled and dragon [T, P].
        if (keys.ndim() != 3 || keys.shape(2) != 3) throw std::invalid_argument("keys must be [T, P, 3]");
        const auto tables_n = keys.shape(0), players_n = keys.shape(1);
        if (players_n < 2 || players_n > 4) throw std::invalid_argument("2 to 4 players");
        py::array_t<std::int32_t> points({tables_n, players_n});
        auto out = points.mutable_unchecked<2>();
        auto k = keys.unchecked<3>();
        auto b = bonus.unchecked<3>();
        auto f = fouled.unchecked<2>();
        auto d = dragon.unchecked<2>();
        std::vector<PlayerRows> rows(static_cast<std::size_t>(players_n));
        for (py::ssize_t t = 0; t < tables_n; ++t) {
          for (py::ssize_t p = 0; p < players_n; ++p) {
            PlayerRows& r = rows[static_cast<std::size_t>(p)];
            for (py::ssize_t q = 0; q < 3; ++q) {
              r.key[static_cast<std::size_t>(q)] = static_cast<RowKey>(k(t, p, q));
              r.bonus[static_cast<std::size_t>(q)] = b(t, p, q);
            }
            r.fouled = f(t, p);
            r.dragon = d(t, p);
          }
          const TableResult res = score_table(rows, rules);
          for (py::ssize_t p = 0; p < players_n; ++p) out(t, p) = res.points[static_cast<std::size_t>(p)];
        }
        return points;
      },
      py::arg("keys"), py::arg("bonus"), py::arg("fouled"), py::arg("dragon"), py::arg("rules"));

  m.def(
      "susun_row_key",
      [](py::handle cards, bool suit_tiebreak) {
        const std::vector<int> ids = cards_from(cards);
        if (ids.size() != 3 && ids.size() != 5) {
          throw std::invalid_argument("a Susun row holds 3 or 5 cards, got " + std::to_string(ids.size()));
        }
        return static_cast<int>(row_key(ids.data(), static_cast<int>(ids.size()), suit_tiebreak));
      },
      py::arg("cards"), py::arg("suit_tiebreak"));
  m.def(
      "susun_percentile",
      [](py::handle cards, bool suit_tiebreak) {
        const std::vector<int> ids = cards_from(cards);
        if (ids.size() != 3 && ids.size() != 5) {
          throw std::invalid_argument("a Susun row holds 3 or 5 cards, got " + std::to_string(ids.size()));
        }
        const int n = static_cast<int>(ids.size());
        return static_cast<double>(percentile_units(row_key(ids.data(), n, suit_tiebreak), n, suit_tiebreak)) /
               kPercentileDenominator;
      },
      py::arg("cards"), py::arg("suit_tiebreak"));
  m.def(
      "susun_player_rows",
      [](py::handle top, py::handle middle, py::handle bottom, const Rules& rules) {
        const std::vector<int> t = exactly(top, 3, "the top row");
        const std::vector<int> mid = exactly(middle, 5, "the middle row");
        const std::vector<int> b = exactly(bottom, 5, "the bottom row");
        std::vector<int> all(t);
        all.insert(all.end(), mid.begin(), mid.end());
        all.insert(all.end(), b.begin(), b.end());
        check_distinct(all.data(), 13);
        const PlayerRows p = player_rows(t.data(), mid.data(), b.data(), rules);
        return py::make_tuple(std::vector<int>(p.key.begin(), p.key.end()),
                              std::vector<int>(p.bonus.begin(), p.bonus.end()), p.fouled,
                              is_dragon(all.data()));
      },
      py::arg("top"), py::arg("middle"), py::arg("bottom"), py::arg("rules"));
  m.def(
      "susun_count_valid",
      [](py::handle hand, const Rules& rules) {
        const std::vector<int> ids = exactly(hand, 13, "a Susun hand");
        py::gil_scoped_release release;
        return count_valid(ids.data(), rules);
      },
      py::arg("hand"), py::arg("rules"));
  m.def(
      "susun_arrange",
      [](py::handle hand, const Rules& rules, const std::string& strategy, int k,
         const EvModel* model) {
        const std::vector<int> ids = exactly(hand, 13, "a Susun hand");
        if (k < 1 || k > 1000) throw std::invalid_argument("top_k must be 1..1000");
        const Strategy st = parse_strategy(strategy);
        std::vector<Arrangement> found;
        int valid = 0;
        {
          py::gil_scoped_release release;
          found = arrange(ids.data(), rules, st, k, model);
          valid = count_valid(ids.data(), rules);
        }
        py::list out;
        for (const Arrangement& a : found) {
          out.append(py::make_tuple(ids_at(ids, a.split.top.data(), 3),
                                    ids_at(ids, a.split.middle.data(), 5),
                                    ids_at(ids, a.split.bottom.data(), 5), a.score, a.fouled));
        }
        return py::make_tuple(out, valid, is_dragon(ids.data()));
      },
      py::arg("hand"), py::arg("rules"), py::arg("strategy"), py::arg("k"),
      py::arg("model").none(true));
  m.def(
      "susun_arrange_batch",
      [](const py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>& hands,
         const Rules& rules, const std::string& strategy, int threads, const EvModel* model) {
        if (hands.ndim() != 2 || hands.shape(1) != 13) {
          throw std::invalid_argument("hands must be an array [N, 13] of card ids");
        }
        if (threads < 1) throw std::invalid_argument("threads must be at least 1");
        const Strategy st = parse_strategy(strategy);
        const auto n = static_cast<std::size_t>(hands.shape(0));
        const std::int64_t* data = hands.data();
        std::vector<int> ids(n * 13);
        for (std::size_t i = 0; i < n * 13; ++i) {
          if (data[i] < 0 || data[i] >= kDeckSize) {
            throw std::invalid_argument("row " + std::to_string(i / 13) + ": not a card id: " +
                                        std::to_string(data[i]));
          }
          ids[i] = static_cast<int>(data[i]);
        }
        for (std::size_t i = 0; i < n; ++i) {
          try {
            check_distinct(ids.data() + i * 13, 13);
          } catch (const std::invalid_argument& e) {
            throw std::invalid_argument("row " + std::to_string(i) + ": " + e.what());
          }
        }
        py::array_t<std::int16_t> out({static_cast<py::ssize_t>(n), py::ssize_t{13}});
        py::array_t<double> scores(static_cast<py::ssize_t>(n));
        std::int16_t* dst = out.mutable_data();
        double* sc = scores.mutable_data();
        {
          py::gil_scoped_release release;
          auto work = [&](std::size_t b, std::size_t e) {
            for (std::size_t i = b; i < e; ++i) {
              const int* hand = ids.data() + i * 13;
              const Arrangement a = arrange(hand, rules, st, 1, model).front();
              std::int16_t* row = dst + i * 13;
              for (int j = 0; j < 3; ++j) row[j] = static_cast<std::int16_t>(hand[a.split.top[static_cast<std::size_t>(j)]]);
              for (int j = 0; j < 5; ++j) row[3 + j] = static_cast<std::int16_t>(hand[a.split.middle[static_cast<std::size_t>(j)]]);
              for (int j = 0; j < 5; ++j) row[8 + j] = static_cast<std::int16_t>(hand[a.split.bottom[static_cast<std::size_t>(j)]]);
              sc[i] = a.score;
            }
          };
          const std::size_t parts = std::min<std::size_t>(static_cast<std::size_t>(threads), std::max<std::size_t>(n / 64, 1));
          const std::size_t chunk = (n + parts - 1) / parts;
          run_parts(static_cast<int>(parts), [&](int p) {
            const std::size_t b = static_cast<std::size_t>(p) * chunk, e = std::min(n, b + chunk);
            if (b < e) work(b, e);
          });
        }
        return py::make_tuple(out, scores);
      },
      py::arg("hands"), py::arg("rules"), py::arg("strategy"), py::arg("threads"),
      py::arg("model").none(true));
  m.def(
      "susun_score_table",
      [](const py::list& players, const Rules& rules) {
        std::vector<PlayerRows> rows;
        for (const py::handle p : players) rows.push_back(table_player(p));
        const TableResult res = score_table(rows, rules);
        std::vector<bool> supers(res.super_player.begin(), res.super_player.end());
        return py::make_tuple(res.points, res.between, res.row_winner, res.multiplier, supers);
      },
      py::arg("players"), py::arg("rules"));

  // --- specials, the bots' choice and whole tables (susun_table.hpp) ---
  m.def(
      "susun_holds_special",
      [](py::handle hand, const std::string& name) {
        const std::vector<int> ids = exactly(hand, 13, "a Susun hand");
        check_distinct(ids.data(), 13);
        return holds_special(ids.data(), special_named(name));
      },
      py::arg("hand"), py::arg("special"));
  m.def(
      "susun_best_special",
      [](py::handle hand, const Rules& rules) -> py::object {
        const std::vector<int> ids = exactly(hand, 13, "a Susun hand");
        check_distinct(ids.data(), 13);
        const Special s = best_special(ids.data(), rules);
        return s == Special::kNone ? py::object(py::none()) : py::object(py::str(special_name(s)));
      },
      py::arg("hand"), py::arg("rules"));
  m.def(
      "susun_special_rows",
      [](py::handle hand, const std::string& name) -> py::object {
        const std::vector<int> ids = exactly(hand, 13, "a Susun hand");
        check_distinct(ids.data(), 13);
        Split split;
        if (!special_rows(ids.data(), special_named(name), &split)) return py::none();
        return py::make_tuple(ids_at(ids, split.top.data(), 3), ids_at(ids, split.middle.data(), 5),
                              ids_at(ids, split.bottom.data(), 5));
      },
      py::arg("hand"), py::arg("special"));
  m.def(
      "susun_bot_choice",
      [](py::handle hand, const Rules& rules, const std::string& strategy, const EvModel* model) {
        const std::vector<int> ids = exactly(hand, 13, "a Susun hand");
        check_distinct(ids.data(), 13);
        const Strategy st = parse_strategy(strategy);
        BotChoice c;
        {
          py::gil_scoped_release release;
          c = bot_choice(ids.data(), rules, st, model);
        }
        const Split& sp = c.arrangement.split;
        py::object declared = py::none();
        if (c.declared != Special::kNone) declared = py::str(special_name(c.declared));
        return py::make_tuple(ids_at(ids, sp.top.data(), 3), ids_at(ids, sp.middle.data(), 5),
                              ids_at(ids, sp.bottom.data(), 5), c.arrangement.score, declared);
      },
      py::arg("hand"), py::arg("rules"), py::arg("strategy"), py::arg("model").none(true));
  m.def("susun_table_seed", &table_seed, py::arg("seed"), py::arg("g"));
  m.def(
      "susun_deep_choice",
      [](py::handle hand, const Rules& rules, int players, const EvModel* model, int hands,
         int candidates, double time_ms, std::uint64_t seed, int bank, int bank_step) {
        const std::vector<int> ids = exactly(hand, 13, "a Susun hand");
        check_distinct(ids.data(), 13);
        if (players < 2 || players > kMaxTablePlayers) throw std::invalid_argument("2 to 4 players");
        if (!model || !model->loaded()) throw std::invalid_argument("the deep strategy needs an ev model");
        DeepBudget budget = deep_budget(hands, candidates, time_ms, seed, bank);
        if (bank_step < 0 || bank_step > DeepBudget::kMaxBank) {
          throw std::invalid_argument("deep bank_step must be 0 (build a bank whole) to " +
                                      std::to_string(DeepBudget::kMaxBank));
        }
        budget.bank_step = bank_step;
        BotChoice c;
        {
          py::gil_scoped_release release;
          c = deep_choice(ids.data(), rules, players, model, budget);
        }
        const Split& sp = c.arrangement.split;
        py::object declared = py::none();
        if (c.declared != Special::kNone) declared = py::str(special_name(c.declared));
        return py::make_tuple(ids_at(ids, sp.top.data(), 3), ids_at(ids, sp.middle.data(), 5),
                              ids_at(ids, sp.bottom.data(), 5), c.arrangement.score, declared);
      },
      py::arg("hand"), py::arg("rules"), py::arg("players"), py::arg("model"),
      py::arg("hands") = DeepBudget::kDefaultHands, py::arg("candidates") = DeepBudget{}.candidates,
      py::arg("time_ms") = 0.0, py::arg("seed") = 0, py::arg("bank") = DeepBudget{}.bank,
      py::arg("bank_step") = 0);
  m.def(
      "susun_deep_bank_codes",
      [](const Rules& rules, const EvModel* model, int first, int last) {
        if (!model || !model->loaded()) throw std::invalid_argument("the bank needs an ev model");
        if (first < 0 || last < first || last > DeepBudget::kMaxBank)
          throw std::invalid_argument("bank hands: 0 <= first <= last <= " + std::to_string(DeepBudget::kMaxBank));
        std::vector<std::uint32_t> codes;
        {
          py::gil_scoped_release release;
          codes = deep_bank_codes(rules, *model, first, last);
        }
        py::array_t<std::uint32_t> out(static_cast<py::ssize_t>(codes.size()));
        std::copy(codes.begin(), codes.end(), out.mutable_data());
        return out;
      },
      py::arg("rules"), py::arg("model"), py::arg("first"), py::arg("last"));
  m.def(
      "susun_deep_ship_bank",
      [](const Rules& rules, const EvModel* model,
         const py::array_t<std::uint32_t, py::array::c_style | py::array::forcecast>& codes, int check) {
        if (!model || !model->loaded()) throw std::invalid_argument("the bank needs an ev model");
        if (codes.ndim() != 1) throw std::invalid_argument("bank codes: one dimension");
        std::vector<std::uint32_t> held(codes.data(), codes.data() + codes.shape(0));
        py::gil_scoped_release release;
        return ship_deep_bank(rules, *model, std::move(held), check);
      },
      py::arg("rules"), py::arg("model"), py::arg("codes"), py::arg("check") = 64);
  m.attr("SUSUN_DEEP_HANDS") = DeepBudget::kDefaultHands;
  m.attr("SUSUN_DEEP_SERVER_BANK_STEP") = DeepBudget::kServerBankStep;
  m.attr("SUSUN_DEEP_BANK") = DeepBudget{}.bank;
  m.attr("SUSUN_DEEP_MIN_BANK") = DeepBudget::kMinBank;
  m.attr("SUSUN_DEEP_MAX_BANK") = DeepBudget::kMaxBank;
  m.attr("SUSUN_DEEP_CANDIDATES") = DeepBudget{}.candidates;
  m.attr("SUSUN_MAX_DEEP_CANDIDATES") = kMaxEvCandidates;
  m.def(
      "susun_simulate_tables",
      [](const Rules& rules, int players, const std::vector<std::string>& strategies,
         const std::vector<const EvModel*>& models, std::uint64_t seed, std::uint64_t first,
         int count, int threads, bool duplicate, int deep_hands, double deep_time_ms,
         int deep_candidates, int deep_bank) {
        if (players < 2 || players > kMaxTablePlayers) throw std::invalid_argument("2 to 4 players");
        if (strategies.empty() || strategies.size() != models.size()) {
          throw std::invalid_argument("one model (or None) per strategy, at least one strategy");
        }
        if (duplicate && static_cast<int>(strategies.size()) != players) {
          throw std::invalid_argument("duplicate tables take one strategy per seat");
        }
        if (count < 0) throw std::invalid_argument("count must be >= 0");
        if (threads < 1) throw std::invalid_argument("threads must be at least 1");
        const DeepBudget budget = deep_budget(deep_hands, deep_candidates, deep_time_ms, seed, deep_bank);
        std::vector<SeatBot> seats;
        for (std::size_t i = 0; i < strategies.size(); ++i) {
          const bool deep = strategies[i] == "deep";
          seats.push_back(SeatBot{deep ? Strategy::kEv : parse_strategy(strategies[i]), models[i], deep, budget});
          if (seats.back().strategy == Strategy::kEv && (!models[i] || !models[i]->loaded())) {
            throw std::invalid_argument("the ev and deep strategies need their model");
          }
        }
        const auto rows = static_cast<py::ssize_t>(count);
        py::array_t<std::int32_t> points({rows, static_cast<py::ssize_t>(players)});
        py::array_t<std::int32_t> kinds({rows, static_cast<py::ssize_t>(players)});
        int* pp = points.mutable_data();
        int* kp = kinds.mutable_data();
        {
          py::gil_scoped_release release;
          const int parts = std::max(1, std::min(threads, count / 16));
          const int chunk = parts > 0 ? (count + parts - 1) / parts : count;
          run_parts(parts, [&](int p) {
            const int b = p * chunk, e = std::min(count, b + chunk);
            if (b >= e) return;
            const std::uint64_t from = first + static_cast<std::uint64_t>(b);
            int* out = pp + static_cast<std::ptrdiff_t>(b) * players;
            int* kinds_out = kp + static_cast<std::ptrdiff_t>(b) * players;
            if (duplicate) {
              simulate_tables_duplicate(rules, players, seats, seed, from, e - b, out);
              for (int g = 0; g < e - b; ++g)
                for (int i = 0; i < players; ++i) kinds_out[g * players + i] = i;
            } else {
              simulate_tables(rules, players, seats, seed, from, e - b, out, kinds_out);
            }
          });
        }
        return py::make_tuple(points, kinds);
      },
      py::arg("rules"), py::arg("players"), py::arg("strategies"), py::arg("models"),
      py::arg("seed"), py::arg("first"), py::arg("count"), py::arg("threads") = 1,
      py::arg("duplicate") = false, py::arg("deep_hands") = DeepBudget::kDefaultHands,
      py::arg("deep_time_ms") = 0.0, py::arg("deep_candidates") = DeepBudget{}.candidates,
      py::arg("deep_bank") = DeepBudget{}.bank,
      "Whole tables in C++: (points, strategy index) per table and seat; with duplicate, one "
      "strategy per seat and each deal played once per rotation (points summed over them, by "
      "lineup entry).");
}

}  // namespace capsa_fast::bindings
