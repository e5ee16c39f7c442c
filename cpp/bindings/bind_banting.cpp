#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "capsa_fast/banting.hpp"
#include "capsa_fast/banting_env.hpp"
#include "convert.hpp"

namespace py = pybind11;

namespace capsa_fast::bindings {
namespace {

using namespace capsa_fast::banting;

StraightTiebreak parse_tiebreak(const std::string& s) {
  if (s == "highest-card") return StraightTiebreak::kHighestCard;
  if (s == "sequence-top") return StraightTiebreak::kSequenceTop;
  throw std::invalid_argument("straight_tiebreak must be highest-card or sequence-top, got '" + s + "'");
}

FlushCompare parse_flush(const std::string& s) {
  if (s == "suit-first") return FlushCompare::kSuitFirst;
  if (s == "rank-first") return FlushCompare::kRankFirst;
  if (s == "none") return FlushCompare::kNone;
  if (s == "top-card") return FlushCompare::kTopCard;
  throw std::invalid_argument("flush_compare must be suit-first, rank-first, top-card or none, got '" +
                              s + "'");
}

// The Python layer validates settings and hands over normalised values.
Rules make_rules(const std::string& suit_order, const std::vector<int>& straights,
                 const std::string& tiebreak, const std::string& flush, bool triples,
                 bool bombs, bool pass_locks, bool two_demotion, bool twos_demoted) {
  Rules r;
  if (suit_order.size() != 4) throw std::invalid_argument("suit_order must hold 4 suits");
  unsigned seen = 0;
  for (std::size_t pos = 0; pos < 4; ++pos) {
    const auto at = kSuitChars.find(suit_order[pos]);
    if (at == std::string_view::npos || (seen >> at & 1))
      throw std::invalid_argument("suit_order must name each suit once");
    seen |= 1u << at;
    r.suit_rank[at] = static_cast<std::uint8_t>(pos);
  }
  r.straights.clear();
  for (int s : straights) {
    if (s < 0 || s >= kNumRuns) throw std::invalid_argument("bad straight run");
    r.straights.push_back(static_cast<std::uint8_t>(s));
  }
  r.straight_tiebreak = parse_tiebreak(tiebreak);
  r.flush_compare = parse_flush(flush);
  r.triples = triples;
  r.bombs = bombs;
  r.pass_locks = pass_locks;
  r.two_demotion = two_demotion;
  r.twos_demoted = twos_demoted;
  return r;
}

py::list combo_cards(const Combo& c) {
  py::list out(c.size);
  for (std::size_t i = 0; i < c.size; ++i) out[i] = static_cast<int>(c.cards[i]);
  return out;
}

// A table combo from Python input: must be a real combo under the rules.
Combo table_combo(py::handle table, const Rules& rules, CardMask hand) {
  const std::vector<int> ids = cards_from(table);
  for (int c : ids) {
    if (hand >> c & 1) {
      throw std::invalid_argument("card both in hand and on the table: " + format_card(c));
    }
  }
  Code why = Code::kOk;
  const Combo combo = classify(ids.data(), static_cast<int>(ids.size()), rules, &why);
  if (combo.kind == Kind::kNone) {
    std::string text;
    for (int c : ids) text += (text.empty() ? "" : " ") + format_card(c);
    throw std::invalid_argument("the table is not a combo under these rules: [" + text + "]");
  }
  return combo;
}

Combo classify_py(py::handle cards, const Rules& rules, Code* why) {
  const std::vector<int> ids = cards_from(cards);
  return classify(ids.data(), static_cast<int>(ids.size()), rules, why);
}

CardMask hand_mask(py::handle hand) {
  const std::vector<int> ids = cards_from(hand);
  if (ids.empty()) throw std::invalid_argument("a hand holds 1 to 52 cards, got 0");
  return card_mask(ids);
}

int must_contain(CardMask hand, const Rules& rules, bool first_play) {
  return first_play ? lowest_card(hand, rules) : -1;
}

using HandRows = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;

// Checked rows of a batch as card masks, and the table combo if any.
struct BatchInput {
  std::vector<CardMask> masks;
  bool has_table = false;
  Combo table;
  const Combo* table_ptr() const { return has_table ? &table : nullptr; }
};

BatchInput batch_input(const HandRows& hands, py::handle table, const Rules& rules) {
  if (hands.ndim() != 2) throw std::invalid_argument("hands must be a 2-D array [N, cards]");
  const auto n = static_cast<std::size_t>(hands.shape(0));
  const auto k = static_cast<std::size_t>(hands.shape(1));
  if (k < 1 || k > 52) throw std::invalid_argument("a hand holds 1 to 52 cards");
  const std::int64_t* data = hands.data();
  BatchInput in;
  in.masks.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    CardMask m = 0;
    for (std::size_t j = 0; j < k; ++j) {
      const std::int64_t c = data[i * k + j];
      if (c < 0 || c >= kDeckSize) {
        throw std::invalid_argument("row " + std::to_string(i) + ": not a card id: " + std::to_string(c));
      }
      if (m >> c & 1) {
        throw std::invalid_argument("row " + std::to_string(i) + ": duplicate card: " +
                                    format_card(static_cast<int>(c)));
      }
      m |= CardMask{1} << c;
    }
    in.masks[i] = m;
  }
  in.has_table = !table.is_none();
  if (in.has_table) {
    in.table = table_combo(table, rules, 0);
    const CardMask tm = card_mask(cards_from(table));
    for (std::size_t i = 0; i < n; ++i) {
      if (in.masks[i] & tm) {
        throw std::invalid_argument("row " + std::to_string(i) + ": holds a card that is on the table");
      }
    }
  }
  return in;
}

// The mask form: one bit per subset of a row's positions that could be a play (sizes 1,
// 2, 3 and 5 of at most 13 cards: 13 + 78 + 286 + 1287 = 1664 actions), bit-packed
// little-endian per byte (numpy.unpackbits(..., bitorder="little")).
constexpr int kMaxMaskCards = 13;
constexpr int kNumActions = env::kNumPlayActions;  // 1664
constexpr std::size_t kMaskBytes = kNumActions / 8;

}  // namespace

void bind_banting(py::module_& m) {
  py::class_<Rules>(m, "BantingRules")
      .def(py::init(&make_rules), py::arg("suit_order"), py::arg("straights"),
           py::arg("straight_tiebreak"), py::arg("flush_compare"), py::arg("triples"),
           py::arg("bombs"), py::arg("pass_locks"), py::arg("two_demotion") = false,
           py::arg("twos_demoted") = false)
      .def_readonly("twos_demoted", &Rules::twos_demoted);

  py::class_<Combo>(m, "BantingCombo", "A Capsa Banting combo.")
      .def_property_readonly("kind", [](const Combo& c) { return std::string(kind_name(c.kind)); })
      .def_property_readonly("cards", &combo_cards, "Card ids, low to high in Big Two order.")
      .def_property_readonly("size", [](const Combo& c) { return static_cast<int>(c.size); })
      .def_readonly("strength", &Combo::strength,
                    "Orders combos of one size under one rule set; larger beats smaller.")
      .def_property_readonly("is_bomb", &Combo::is_bomb)
      .def("__eq__", [](const Combo& a, const Combo& b) {
        return a.kind == b.kind && a.size == b.size && a.cards == b.cards;
      })
      .def("__hash__", [](const Combo& c) { return static_cast<py::ssize_t>(c.mask()); });

  m.def(
      "banting_classify",
      [](py::handle cards, const Rules& rules) -> py::tuple {
        Code why = Code::kOk;
        const Combo c = classify_py(cards, rules, &why);
        if (c.kind == Kind::kNone) return py::make_tuple(py::none(), code_name(why));
        return py::make_tuple(c, py::none());
      },
      py::arg("cards"), py::arg("rules"));
  m.def(
      "banting_compare",
      [](py::handle a, py::handle b, const Rules& rules) {
        const Combo ca = classify_py(a, rules, nullptr);
        const Combo cb = classify_py(b, rules, nullptr);
        if (ca.kind == Kind::kNone) throw std::invalid_argument("a is not a combo under these rules");
        if (cb.kind == Kind::kNone) throw std::invalid_argument("b is not a combo under these rules");
        if (!comparable(ca, cb, rules)) {
          throw std::invalid_argument(std::string("a ") + kind_name(ca.kind) + " and a " +
                                      kind_name(cb.kind) + " cannot be compared (" +
                                      std::to_string(ca.size) + " vs " + std::to_string(cb.size) +
                                      " cards)");
        }
        return compare(ca, cb, rules);
      },
      py::arg("a"), py::arg("b"), py::arg("rules"));
  m.def(
      "banting_validate",
      [](py::handle hand, py::handle play, py::handle table, const Rules& rules,
         bool first_play, bool passed) -> py::tuple {
        const CardMask hm = hand_mask(hand);
        const bool has_table = !table.is_none();
        const Combo t = has_table ? table_combo(table, rules, hm) : Combo{};
        const bool is_pass = play.is_none();
        const std::vector<int> ids = is_pass ? std::vector<int>{} : cards_from(play);
        const Verdict v = validate(hm, ids.data(), static_cast<int>(ids.size()), is_pass,
                                   has_table ? &t : nullptr, rules, first_play, passed);
        py::object combo = py::none();
        if (v.combo.kind != Kind::kNone) combo = py::cast(v.combo);
        py::object table_obj = has_table ? py::cast(t) : py::none();
        return py::make_tuple(code_name(v.code), combo, table_obj, v.lowest,
                              static_cast<int>(ids.size()));
      },
      py::arg("hand"), py::arg("play"), py::arg("table"), py::arg("rules"),
      py::arg("first_play"), py::arg("passed"));
  m.def(
      "banting_legal_plays",
      [](py::handle hand, py::handle table, const Rules& rules, bool first_play, bool passed) {
        const CardMask hm = hand_mask(hand);
        const bool has_table = !table.is_none();
        const Combo t = has_table ? table_combo(table, rules, hm) : Combo{};
        std::vector<Combo> plays;
        {
          py::gil_scoped_release release;
          plays = legal_plays(hm, has_table ? &t : nullptr, rules,
                              must_contain(hm, rules, first_play), passed);
        }
        return plays;
      },
      py::arg("hand"), py::arg("table"), py::arg("rules"), py::arg("first_play"),
      py::arg("passed") = false);
  m.def(
      "banting_legal_play_counts",
      [](const HandRows& hands, py::handle table, const Rules& rules, bool first_play,
         bool passed) {
        const BatchInput in = batch_input(hands, table, rules);
        py::array_t<std::int32_t> out(static_cast<py::ssize_t>(in.masks.size()));
        std::int32_t* dst = out.mutable_data();
        {
          py::gil_scoped_release release;
          for (std::size_t i = 0; i < in.masks.size(); ++i) {
            dst[i] = count_legal_plays(in.masks[i], in.table_ptr(), rules,
                                       must_contain(in.masks[i], rules, first_play), passed);
          }
        }
        return out;
      },
      py::arg("hands"), py::arg("table"), py::arg("rules"), py::arg("first_play"),
      py::arg("passed") = false);
  m.def(
      "banting_legal_play_mask",
      [](const HandRows& hands, py::handle table, const Rules& rules, bool first_play,
         bool passed) {
        if (hands.shape(1) > kMaxMaskCards) {
          throw std::invalid_argument("the mask form takes hands of at most 13 cards, got " +
                                      std::to_string(hands.shape(1)));
        }
        const BatchInput in = batch_input(hands, table, rules);
        const auto n = static_cast<py::ssize_t>(in.masks.size());
        py::array_t<std::uint8_t> out({n, static_cast<py::ssize_t>(kMaskBytes)});
        std::uint8_t* dst = out.mutable_data();
        std::fill(dst, dst + static_cast<std::size_t>(n) * kMaskBytes, std::uint8_t{0});
        const std::size_t k = static_cast<std::size_t>(hands.shape(1));
        const std::int64_t* data = hands.data();
        {
          py::gil_scoped_release release;
          const auto& index = env::action_of_subset();
          std::array<std::int8_t, 52> position{};
          for (std::size_t i = 0; i < in.masks.size(); ++i) {
            for (std::size_t j = 0; j < k; ++j)
              position[static_cast<std::size_t>(data[i * k + j])] = static_cast<std::int8_t>(j);
            std::uint8_t* row = dst + i * kMaskBytes;
            for_each_legal_play(in.masks[i], in.table_ptr(), rules,
                                must_contain(in.masks[i], rules, first_play),
                                [&](const Combo& c) {
                                  unsigned subset = 0;
                                  for (std::size_t q = 0; q < c.size; ++q)
                                    subset |= 1u << position[c.cards[q]];
                                  const int a = index[subset];
                                  row[a >> 3] = static_cast<std::uint8_t>(row[a >> 3] | (1u << (a & 7)));
                                },
                                passed);
          }
        }
        return out;
      },
      py::arg("hands"), py::arg("table"), py::arg("rules"), py::arg("first_play"),
      py::arg("passed") = false);
  m.attr("BANTING_NUM_ACTIONS") = kNumActions;
  m.def("banting_actions", [] {
    // Position subsets in action order: sizes 1, 2, 3, 5, each in lexicographic order.
    std::vector<std::vector<int>> out;
    for (unsigned subset : env::action_subsets()) {
      std::vector<int> pos;
      for (int j = 0; j < kMaxMaskCards; ++j)
        if (subset >> j & 1) pos.push_back(j);
      out.push_back(pos);
    }
    return out;
  });
  m.def(
      "banting_score",
      [](const std::vector<int>& cards_left, const std::vector<std::pair<int, int>>& tiers) {
        return score(cards_left, tiers);
      },
      py::arg("cards_left"), py::arg("tiers"));
  m.def("banting_tier_multiplier", &tier_multiplier, py::arg("cards_left"), py::arg("tiers"));
  m.def(
      "banting_run_mask",
      [](int start) {
        if (start < 0 || start >= kNumRuns)
          throw py::value_error("start must be a rank index 0..12, got " + std::to_string(start));
        return run_mask(start);
      },
      py::arg("start"));
}

}  // namespace capsa_fast::bindings
