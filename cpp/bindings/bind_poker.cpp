#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <pthread.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "capsa_fast/cards.hpp"
#include "capsa_fast/poker.hpp"
#include "capsa_fast/spin.hpp"
#include "capsa_fast/threads.hpp"
#include "convert.hpp"

namespace py = pybind11;

namespace capsa_fast::bindings {
namespace {

using poker::Strength;

// HandValue is a plain CPython type rather than a pybind11 class: a per-hand evaluate()
// is bound by call and allocation overhead, and this keeps both to the minimum (a
// METH_FASTCALL function and one small object from Python's allocator). It holds the cards
// as given and their strength; the label and the best five are derived on demand.
struct HandValueObject {
  PyObject_HEAD
  Strength strength;
  std::uint8_t n;
  std::uint8_t cards[7];
};

PyTypeObject* g_hand_value_type = nullptr;
PyObject* g_category_names[poker::kNumCategories] = {};

HandValueObject* as_hand_value(PyObject* o) { return reinterpret_cast<HandValueObject*>(o); }

PyObject* hv_strength(PyObject* self, void*) { return PyLong_FromLong(as_hand_value(self)->strength); }

PyObject* hv_category(PyObject* self, void*) {
  PyObject* name = g_category_names[static_cast<int>(poker::category_of(as_hand_value(self)->strength))];
  Py_INCREF(name);
  return name;
}

PyObject* hv_category_index(PyObject* self, void*) {
  return PyLong_FromLong(static_cast<long>(poker::category_of(as_hand_value(self)->strength)));
}

PyObject* hv_label(PyObject* self, void*) {
  return PyUnicode_FromString(poker::label(as_hand_value(self)->strength).c_str());
}

PyObject* hv_cards(PyObject* self, void*) {
  const HandValueObject* hv = as_hand_value(self);
  PyObject* out = PyList_New(hv->n);
  if (!out) return nullptr;
  for (int i = 0; i < hv->n; ++i) PyList_SET_ITEM(out, i, PyLong_FromLong(hv->cards[i]));
  return out;
}

PyObject* hv_best(PyObject* self, void*) {
  const HandValueObject* hv = as_hand_value(self);
  int ids[7];
  for (int i = 0; i < hv->n; ++i) ids[i] = hv->cards[i];
  std::array<int, 5> idx{};
  const int m = poker::best_five(ids, hv->n, idx);
  PyObject* out = PyList_New(m);
  if (!out) return nullptr;
  for (int i = 0; i < m; ++i) PyList_SET_ITEM(out, i, PyLong_FromLong(ids[idx[static_cast<std::size_t>(i)]]));
  return out;
}

PyObject* hv_richcompare(PyObject* a, PyObject* b, int op) {
  if (!PyObject_TypeCheck(b, g_hand_value_type) || !PyObject_TypeCheck(a, g_hand_value_type)) {
    Py_RETURN_NOTIMPLEMENTED;
  }
  const int x = as_hand_value(a)->strength, y = as_hand_value(b)->strength;
  Py_RETURN_RICHCOMPARE(x, y, op);
}

Py_hash_t hv_hash(PyObject* self) { return as_hand_value(self)->strength; }

PyObject* hv_repr(PyObject* self) {
  const Strength st = as_hand_value(self)->strength;
  const std::string text = std::string("HandValue(category='") +
                           poker::category_name(poker::category_of(st)) + "', strength=" +
                           std::to_string(st) + ", label='" + poker::label(st) + "')";
  return PyUnicode_FromString(text.c_str());
}

void hv_dealloc(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  type->tp_free(self);
  Py_DECREF(type);
}

PyGetSetDef kHandValueGetSet[] = {
    {"strength", hv_strength, nullptr,
     "One integer, larger is stronger; 3/5/6/7-card hands share the scale.", nullptr},
    {"category", hv_category, nullptr, "Category name, e.g. 'two_pair'.", nullptr},
    {"category_index", hv_category_index, nullptr, "0 = high card .. 8 = straight flush.", nullptr},
    {"label", hv_label, nullptr, "Readable name, e.g. 'Two pair, kings and fives'.", nullptr},
    {"best", hv_best, nullptr, "Ids of the best five cards (a 3-card hand: its three).", nullptr},
    {"cards", hv_cards, nullptr, "The ids as given.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyType_Slot kHandValueSlots[] = {
    {Py_tp_doc, const_cast<char*>("A poker hand's value: category, strength, label, best five.")},
    {Py_tp_getset, kHandValueGetSet},
    {Py_tp_richcompare, reinterpret_cast<void*>(hv_richcompare)},
    {Py_tp_hash, reinterpret_cast<void*>(hv_hash)},
    {Py_tp_repr, reinterpret_cast<void*>(hv_repr)},
    {Py_tp_dealloc, reinterpret_cast<void*>(hv_dealloc)},
    {0, nullptr}};

PyType_Spec kHandValueSpec = {"capsa_fast._core.HandValue", sizeof(HandValueObject), 0,
                              Py_TPFLAGS_DEFAULT, kHandValueSlots};

// Reads up to 7 integer ids from a list or tuple without building any temporaries;
// returns the count, or -1 when the input needs the general converter (strings, other
// iterables, bad values: it produces the right error message).
int read_int_cards(PyObject* seq, int* out) {
  if (!PyList_Check(seq) && !PyTuple_Check(seq)) return -1;
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  if (n > 7) return -1;
  PyObject** items = PySequence_Fast_ITEMS(seq);
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (!PyLong_CheckExact(items[i])) return -1;
    const long v = PyLong_AsLong(items[i]);
    if (v < 0 || v >= kDeckSize) {
      PyErr_Clear();
      return -1;
    }
    out[i] = static_cast<int>(v);
  }
  return static_cast<int>(n);
}

PyObject* make_hand_value(const int* ids, int n) {
  const Strength strength = poker::evaluate(ids, n);  // checks the count and duplicates
  HandValueObject* hv = PyObject_New(HandValueObject, g_hand_value_type);
  if (!hv) return nullptr;
  hv->strength = strength;
  hv->n = static_cast<std::uint8_t>(n);
  // evaluate() refused any other count; the bound says so to the compiler too (GCC's LTO
  // warned of a write past `cards` for the parsed vector's unbounded size).
  for (std::size_t i = 0; i < std::size(hv->cards) && i < static_cast<std::size_t>(n); ++i)
    hv->cards[i] = static_cast<std::uint8_t>(ids[i]);
  return reinterpret_cast<PyObject*>(hv);
}

// evaluate(cards) with one sequence or string, or evaluate(c1, c2, ...) with the cards as
// separate arguments.
PyObject* evaluate_fast(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  try {
    int ids[7];
    if (nargs == 1) {
      const int n = read_int_cards(args[0], ids);
      if (n >= 0) return make_hand_value(ids, n);
      const std::vector<int> parsed = cards_from(args[0]);
      return make_hand_value(parsed.data(), static_cast<int>(parsed.size()));
    }
    py::tuple items(nargs);
    for (Py_ssize_t i = 0; i < nargs; ++i)
      items[static_cast<std::size_t>(i)] = py::reinterpret_borrow<py::object>(args[i]);
    const std::vector<int> parsed = cards_from(items);
    return make_hand_value(parsed.data(), static_cast<int>(parsed.size()));
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (const std::invalid_argument& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  return nullptr;
}

PyMethodDef kEvaluateDef = {
    "evaluate", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&evaluate_fast)),
    METH_FASTCALL,
    "evaluate(cards) -> HandValue\n\nEvaluate 3, 5, 6 or 7 cards (ids or strings) in poker "
    "order; evaluate(c1, c2, ...) also works. Raises ValueError naming a bad card, a "
    "duplicate or a wrong count."};

std::string row_problem(const std::vector<long long>& row) {
  std::uint64_t seen = 0;
  for (long long v : row) {
    if (v < 0 || v >= kDeckSize) {
      return "not a card id: " + std::to_string(v) + " (ids run from 0 = 2c to 51 = As)";
    }
    const std::uint64_t bit = std::uint64_t{1} << v;
    if (seen & bit) return "duplicate card: " + format_card(static_cast<int>(v));
    seen |= bit;
  }
  return "invalid row";
}

// Rows per unit of work handed to a thread, and the fewest rows worth a thread of their
// own: with 16,384 rows each, two threads are 1.87x one at 32,768 rows when the pool
// thread is still spinning from the call before, 1.27x when it was asleep (docs/performance.md).
constexpr std::size_t kChunkRows = 16384;
constexpr std::size_t kMinRowsPerThread = 16384;

// How many threads evaluate n rows when the caller asked for `threads`.
std::size_t threads_for(std::size_t n, int threads) {
  return std::max<std::size_t>(1, std::min<std::size_t>(static_cast<std::size_t>(threads),
                                                        n / kMinRowsPerThread));
}

// Threads kept between calls: starting and joining one costs about 30 us. Waking one that
// sleeps costs more here (capsa_fast/spin.hpp), so the calling thread spins for the others
// to finish their last chunk, and a pool thread spins a moment for the next call before it
// sleeps, which catches batches called one after another; a pool thread that was asleep
// still starts late, and the calling thread takes its rows meanwhile. One batch uses the
// pool at a time; a call that finds it busy (another Python thread's batch) starts its own
// threads instead. Never destroyed: its threads wait until the process ends. In a child
// after fork() the threads are gone, so the child gets a new pool.
class WorkerPool {
 public:
  // Runs task() on up to `extra` pool threads (fewer when the system will not start
  // more) and on the calling thread; returns once all have returned, then rethrows the
  // first exception any of them threw; or false at once (task not run) if the pool is busy.
  bool run(std::size_t extra, const std::function<void()>& task) {
    std::unique_lock<std::mutex> busy(run_mutex_, std::try_to_lock);
    if (!busy.owns_lock()) return false;
    FirstError error;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      try {
        for (; threads_ < extra; ++threads_) std::thread([this] { work(); }).detach();
      } catch (const std::system_error&) {
        extra = threads_;  // the threads there are
      }
      task_ = &task;
      error_ = &error;
      pending_ = extra;
      unfinished_.store(extra, std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    error.guard(task);
    const auto finished = [this] { return unfinished_.load(std::memory_order_acquire) == 0; };
    if (!spin_until(finished, kFinishSpin)) {
      std::unique_lock<std::mutex> lock(mutex_);
      done_.wait(lock, finished);
    }
    error.rethrow();
    return true;
  }

  static WorkerPool& instance() {
    static const bool registered = (pthread_atfork(nullptr, nullptr, [] { g_pool = nullptr; }), true);
    (void)registered;
    if (g_pool == nullptr) g_pool = new WorkerPool();  // NOLINT: kept for the process
    return *g_pool;
  }

 private:
  void work() {
    std::uint64_t joined = 0;  // the last run this thread took part in
    for (;;) {
      spin_until([&] { return generation_.load(std::memory_order_acquire) != joined; }, kIdleSpin);
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return pending_ > 0 && generation_.load(std::memory_order_relaxed) != joined; });
      joined = generation_.load(std::memory_order_relaxed);
      --pending_;
      const std::function<void()>* task = task_;
      FirstError* error = error_;
      lock.unlock();
      error->guard(*task);
      if (unfinished_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        // Under the lock, so the notify cannot fall between the caller's check and its wait.
        const std::lock_guard<std::mutex> done_lock(mutex_);
        done_.notify_all();
      }
    }
  }

  static inline WorkerPool* g_pool = nullptr;
  std::mutex run_mutex_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::size_t threads_ = 0;
  const std::function<void()>* task_ = nullptr;
  FirstError* error_ = nullptr;
  std::atomic<std::uint64_t> generation_{0};
  std::size_t pending_ = 0;
  std::atomic<std::size_t> unfinished_{0};  // threads of this run still working
};

// Runs f(begin, end) over [0, n) with `parts` threads (this one included). Each thread
// has its own contiguous share, which it takes a chunk at a time, and then helps with the
// others' shares, so a thread slowed by other work on its core just does less. Own shares
// first, because the output's pages are first touched here: numpy backs a large array
// with 2 MB pages, and two threads writing into the same new page wait for each other
// while the kernel clears it.
template <class F>
void parallel_rows(std::size_t n, std::size_t parts, F&& f) {
  if (parts <= 1) {
    f(std::size_t{0}, n);
    return;
  }
  struct alignas(64) Share {
    std::atomic<std::size_t> next{0};
    std::size_t end = 0;
  };
  std::unique_ptr<Share[]> shares(new Share[parts]);
  for (std::size_t p = 0; p < parts; ++p) {
    shares[p].next.store(n * p / parts, std::memory_order_relaxed);
    shares[p].end = n * (p + 1) / parts;
  }
  std::atomic<std::size_t> ids{0};
  const std::function<void()> worker = [&] {
    const std::size_t id = ids.fetch_add(1, std::memory_order_relaxed) % parts;
    for (std::size_t q = 0; q < parts; ++q) {
      Share& share = shares[(id + q) % parts];
      for (;;) {
        const std::size_t b = share.next.fetch_add(kChunkRows, std::memory_order_relaxed);
        if (b >= share.end) break;
        f(b, std::min(share.end, b + kChunkRows));
      }
    }
  };
  if (WorkerPool::instance().run(parts - 1, worker)) return;
  run_parts(static_cast<int>(parts), [&](int) { worker(); });
}

// The array the strengths go to: `out` when given (checked: a writable, contiguous int32
// vector of one entry per hand, apart from the hands), else a new one.
py::array_t<std::int32_t> output_for(const py::array& hands, const py::object& out) {
  const py::ssize_t n = hands.shape(0);
  if (out.is_none()) return py::array_t<std::int32_t>(n);
  if (!py::isinstance<py::array>(out)) {
    throw std::invalid_argument("out must be a numpy int32 array, got " +
                                py::str(py::type::of(out)).cast<std::string>());
  }
  const auto arr = py::reinterpret_borrow<py::array>(out);
  if (!py::detail::npy_api::get().PyArray_EquivTypes_(arr.dtype().ptr(), py::dtype::of<std::int32_t>().ptr())) {
    throw std::invalid_argument("out must have dtype int32, got " +
                                py::str(arr.dtype()).cast<std::string>());
  }
  if (arr.ndim() != 1 || arr.shape(0) != n) {
    std::string shape = "(";
    for (py::ssize_t d = 0; d < arr.ndim(); ++d) shape += (d ? ", " : "") + std::to_string(arr.shape(d));
    throw std::invalid_argument("out must have shape (" + std::to_string(n) + ",), one entry per hand, got " +
                                shape + (arr.ndim() == 1 ? ",)" : ")"));
  }
  if (n > 1 && arr.strides(0) != static_cast<py::ssize_t>(sizeof(std::int32_t))) {
    throw std::invalid_argument("out must be contiguous");
  }
  if (reinterpret_cast<std::uintptr_t>(arr.data()) % alignof(std::int32_t) != 0) {
    throw std::invalid_argument("out must be aligned to 4 bytes");
  }
  if (!arr.writeable()) throw std::invalid_argument("out is read-only");
  // The hands' bytes lie between their lowest and highest element (strides may be negative).
  auto lo = reinterpret_cast<std::uintptr_t>(hands.data());
  auto hi = lo;
  for (py::ssize_t d = 0; d < hands.ndim(); ++d) {
    const py::ssize_t span = (hands.shape(d) - 1) * hands.strides(d);
    (span < 0 ? lo : hi) += static_cast<std::uintptr_t>(span);
  }
  hi += static_cast<std::uintptr_t>(hands.itemsize());
  const auto o = reinterpret_cast<std::uintptr_t>(arr.data());
  if (n > 0 && o < hi && lo < o + static_cast<std::uintptr_t>(n) * sizeof(std::int32_t)) {
    throw std::invalid_argument("out overlaps hands: give it memory of its own");
  }
  return py::reinterpret_borrow<py::array_t<std::int32_t>>(arr);
}

template <class T>
py::array_t<std::int32_t> batch_typed(const py::array& arr, bool validate, int threads,
                                      const py::object& given) {
  const auto n = static_cast<std::size_t>(arr.shape(0));
  const int k = static_cast<int>(arr.shape(1));
  const auto rs = static_cast<std::ptrdiff_t>(arr.strides(0) / static_cast<py::ssize_t>(sizeof(T)));
  const auto cs = static_cast<std::ptrdiff_t>(arr.strides(1) / static_cast<py::ssize_t>(sizeof(T)));
  const T* data = static_cast<const T*>(arr.data());
  py::array_t<std::int32_t> out = output_for(arr, given);
  std::int32_t* dst = out.mutable_data();
  std::atomic<bool> all_valid{true};
  {
    py::gil_scoped_release release;
    parallel_rows(n, threads_for(n, threads), [&](std::size_t b, std::size_t e) {
      if (!poker::evaluate_batch(data + static_cast<std::ptrdiff_t>(b) * rs, e - b, k, rs, cs,
                                 dst + b, validate)) {
        all_valid.store(false, std::memory_order_relaxed);
      }
    });
  }
  if (!all_valid) {
    const std::size_t bad = poker::find_invalid_row(data, n, k, rs, cs);
    std::vector<long long> row(static_cast<std::size_t>(k));
    for (int j = 0; j < k; ++j) {
      row[static_cast<std::size_t>(j)] =
          static_cast<long long>(data[static_cast<std::ptrdiff_t>(bad) * rs + j * cs]);
    }
    throw std::invalid_argument("row " + std::to_string(bad) + ": " + row_problem(row));
  }
  return out;
}

py::array_t<std::int32_t> evaluate_batch(const py::array& arr, bool validate, int threads,
                                         const py::object& out) {
  if (arr.ndim() != 2) {
    throw std::invalid_argument("hands must be a 2-D array [N, k], got " +
                                std::to_string(arr.ndim()) + " dimension(s)");
  }
  const auto k = arr.shape(1);
  if (k != 3 && k != 5 && k != 6 && k != 7) {
    throw std::invalid_argument("a poker hand has 3, 5, 6 or 7 cards, got rows of " +
                                std::to_string(k));
  }
  if (threads < 1) throw std::invalid_argument("threads must be at least 1");
  const py::dtype dt = arr.dtype();
  const char kind = dt.kind();
  if (kind != 'i' && kind != 'u') {
    throw std::invalid_argument("hands must be an integer array of card ids, got dtype " +
                                py::str(dt).cast<std::string>());
  }
  // The loops read whole, aligned items: a view whose data or strides fall between items (a
  // view of a byte buffer at an odd offset) would be misaligned loads and rows read at the
  // wrong place. capsa_fast.poker.evaluate_batch copies such a view before calling here.
  const auto item = static_cast<py::ssize_t>(dt.itemsize());
  if (reinterpret_cast<std::uintptr_t>(arr.data()) % static_cast<std::uintptr_t>(item) != 0 ||
      arr.strides(0) % item != 0 || arr.strides(1) % item != 0) {
    throw std::invalid_argument("hands must be aligned, with strides in whole items (copy it first)");
  }
  const bool is_signed = kind == 'i';
  switch (dt.itemsize()) {
    case 1: return is_signed ? batch_typed<std::int8_t>(arr, validate, threads, out)
                             : batch_typed<std::uint8_t>(arr, validate, threads, out);
    case 2: return is_signed ? batch_typed<std::int16_t>(arr, validate, threads, out)
                             : batch_typed<std::uint16_t>(arr, validate, threads, out);
    case 4: return is_signed ? batch_typed<std::int32_t>(arr, validate, threads, out)
                             : batch_typed<std::uint32_t>(arr, validate, threads, out);
    default: return is_signed ? batch_typed<std::int64_t>(arr, validate, threads, out)
                              : batch_typed<std::uint64_t>(arr, validate, threads, out);
  }
}

void check_strength(long s) {
  if (s < 1 || s > poker::kMaxStrength) {
    throw std::invalid_argument("not a strength: " + std::to_string(s) + " (valid: 1.." +
                                std::to_string(poker::kMaxStrength) + ")");
  }
}

}  // namespace

void bind_poker(py::module_& m) {
  g_hand_value_type = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&kHandValueSpec));
  if (!g_hand_value_type) throw py::error_already_set();
  for (int c = 0; c < poker::kNumCategories; ++c) {
    g_category_names[c] = PyUnicode_InternFromString(poker::category_name(static_cast<poker::Category>(c)));
  }
  m.attr("HandValue") = py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(g_hand_value_type));
  m.attr("evaluate") = py::reinterpret_steal<py::object>(
      PyCFunction_NewEx(&kEvaluateDef, nullptr, m.attr("__name__").ptr()));
  m.def("evaluate_batch", &evaluate_batch, py::arg("hands"), py::arg("validate") = true,
        py::arg("threads") = 1, py::arg("out") = py::none());
  m.def(
      "strength_label",
      [](long s) {
        check_strength(s);
        return poker::label(static_cast<Strength>(s));
      },
      py::arg("strength"));
  m.def(
      "strength_ranks",
      [](long s) {
        check_strength(s);
        const poker::Description d = poker::describe(static_cast<Strength>(s));
        return std::vector<int>(d.ranks.begin(), d.ranks.begin() + d.n_ranks);
      },
      py::arg("strength"));
  m.def(
      "strength_category",
      [](long s) {
        check_strength(s);
        return std::string(poker::category_name(poker::category_of(static_cast<Strength>(s))));
      },
      py::arg("strength"));
  std::vector<int> starts;
  for (int c = 0; c <= poker::kNumCategories; ++c) starts.push_back(poker::category_start(c));
  m.attr("CATEGORY_STARTS") = py::tuple(py::cast(starts));
  std::vector<std::string> categories;
  for (int c = 0; c < poker::kNumCategories; ++c)
    categories.emplace_back(poker::category_name(static_cast<poker::Category>(c)));
  m.attr("CATEGORIES") = py::tuple(py::cast(categories));
  m.attr("MAX_STRENGTH") = static_cast<int>(poker::kMaxStrength);
  m.def("batch_paths", [] {
    std::vector<std::string> names;
    for (int p = 0; p < poker::kNumBatchPaths; ++p) {
      if (poker::batch_path_supported(static_cast<poker::BatchPath>(p)))
        names.emplace_back(poker::batch_path_name(static_cast<poker::BatchPath>(p)));
    }
    return names;
  });
  m.def("batch_path", [] { return std::string(poker::batch_path_name(poker::batch_path())); });
  m.def(
      "set_batch_path",
      [](const std::string& name) {
        std::string known;
        for (int p = 0; p < poker::kNumBatchPaths; ++p) {
          const auto path = static_cast<poker::BatchPath>(p);
          if (name == poker::batch_path_name(path)) return poker::set_batch_path(path);
          known += std::string(known.empty() ? "" : ", ") + poker::batch_path_name(path);
        }
        throw std::invalid_argument("not a batch path: '" + name + "' (known: " + known + ")");
      },
      py::arg("name"));
}

}  // namespace capsa_fast::bindings
