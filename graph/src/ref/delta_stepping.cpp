// Parallel delta-stepping (Meyer and Sanders, "Delta-stepping: a
// parallelizable shortest path algorithm", J. Algorithms 49(1), 2003), in the
// form of GAP's sssp.cc (Beamer, Asanovic, Patterson, "The GAP Benchmark
// Suite", arXiv:1508.03619), which is among the fastest shared-memory codes:
//
//  * Vertices are kept in buckets ("bins") by floor(dist / delta). Each
//    thread owns its bins, so pushing a vertex needs no synchronisation.
//  * One phase processes one bin: the threads gather their copies of the
//    current bin into a shared frontier array, then relax the out-arcs of the
//    frontier in parallel (dynamic schedule). Distances are lowered with an
//    atomic compare-exchange loop (atomic min); the winner pushes the vertex
//    into its own bin of the new distance.
//  * Bin fusion (GAP): while a thread's copy of the current bin stays small
//    (< kFusionLimit), it keeps processing it alone instead of paying two
//    barriers for another phase; this matters on road graphs, where phases
//    are many and small.
//  * A frontier entry whose distance has meanwhile dropped into an earlier
//    bin is stale (it was processed there) and is skipped.
//
// Differences from GAP:
//  * GAP indexes its bins by absolute bin number in a vector grown on demand,
//    which needs (max distance / delta) bins and fails for tiny deltas. Here
//    each thread keeps a ring of kRingBins bins for the window [current bin,
//    current bin + kRingBins) and a "far" pile (a min-heap on the bin) for
//    anything beyond, moved into the ring as the window reaches it (the
//    near-far idea of Davidson et al., IPDPS 2014). Memory is bounded by the
//    pushes, never by max distance / delta, and sparse bins cost nothing.
//  * Phases are separated by our own spin-then-sleep barrier instead of
//    OpenMP's (see SpinBarrier), so the solver stays usable on loaded machines.
//
// Correctness does not depend on the bin order (it is a label-correcting
// algorithm): every decrease of dist[v] pushes v into a bin that is processed
// later, so every reached vertex relaxes its arcs with its final distance.
// Integer weights give exactly Dijkstra's distances; float distances are
// computed as dist[u] + w rounded to float, as in Dijkstra and on the GPU, but
// a different relaxation order may pick a different (equally short in exact
// arithmetic) path, so float results can differ in the last bits.
#include <omp.h>

#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <queue>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "graph/reference.hpp"

namespace graph {

namespace {

constexpr std::uint64_t kNoBin = std::numeric_limits<std::uint64_t>::max();
// Bins above this are merged into one; keeps bin arithmetic far from overflow.
constexpr std::uint64_t kMaxBin = std::uint64_t{1} << 62;
constexpr std::uint64_t kRingBins = 2048;  // power of two
constexpr std::uint64_t kRingMask = kRingBins - 1;
// GAP's kBinSizeThreshold.
constexpr std::size_t kFusionLimit = 1000;
constexpr std::size_t kChunk = 64;  // frontier vertices claimed at a time

// Atomic access to plain distance storage (GCC/Clang builtins; C++17 has no
// atomic_ref), so the result vector doubles as the shared distance array.
// The generic forms work for float as well as for 64-bit integers.
template <class T>
T load_relaxed(const T* p) {
  T value;
  __atomic_load(p, &value, __ATOMIC_RELAXED);
  return value;
}
template <class T>
bool compare_exchange_relaxed(T* p, T& expected, T desired) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "lock-free sizes only");
  return __atomic_compare_exchange(p, &expected, &desired, /*weak=*/true, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

void atomic_min(std::atomic<std::uint64_t>& target, std::uint64_t value) {
  std::uint64_t current = target.load(std::memory_order_relaxed);
  while (value < current && !target.compare_exchange_weak(current, value, std::memory_order_relaxed)) {
  }
}

// A centralised barrier that spins briefly, then sleeps on a futex.
// OpenMP's barrier (libgomp) spins for about 300k iterations before it
// sleeps; when the machine is shared (CI, several processes on few cores) a
// spinning thread burns the time slice its descheduled partner needs: measured
// here on 2 loaded cores, the 2-thread solve of a 256x256 grid took 1.7 s
// instead of 4 ms. Sleeping after a short spin keeps the latency of a
// dedicated machine (phases that end together never sleep) and degrades
// gracefully under load: a woken sleeper is scheduled promptly.
class SpinBarrier {
 public:
  void reset(int threads) {
    threads_ = threads;
    arrived_.store(0, std::memory_order_relaxed);
  }
  void wait() {
    const std::uint32_t generation = generation_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) == threads_ - 1) {
      arrived_.store(0, std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_seq_cst);
      if (sleepers_.load(std::memory_order_seq_cst) > 0) wake_all();
      return;
    }
    // Spin for a bounded time, not a count: pause lasts 10 to 140 cycles
    // depending on the processor.
    const auto spin_start = std::chrono::steady_clock::now();
    for (unsigned spin = 1;; ++spin) {
      if (generation_.load(std::memory_order_acquire) != generation) return;
      cpu_relax();
      if (spin % 128 == 0 && std::chrono::steady_clock::now() - spin_start > kSpinTime) break;
    }
    // Dekker-style pairing with the releaser (both sides seq_cst): either it
    // sees our sleepers_ increment and wakes us, or we see its new generation.
    sleepers_.fetch_add(1, std::memory_order_seq_cst);
    while (generation_.load(std::memory_order_seq_cst) == generation) sleep_while(generation);
    sleepers_.fetch_sub(1, std::memory_order_relaxed);
  }

 private:
  // Long enough that phases ending within this of each other never sleep
  // (a futex wake costs a few microseconds plus scheduling), short enough
  // not to hold a core that a descheduled team mate needs.
  static constexpr std::chrono::microseconds kSpinTime{50};
  static void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
#ifdef __linux__
  // Returns at once if the generation already moved on (futex semantics).
  void sleep_while(std::uint32_t generation) {
    syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&generation_), FUTEX_WAIT_PRIVATE, generation, nullptr,
            nullptr, 0);
  }
  void wake_all() {
    syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&generation_), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr,
            nullptr, 0);
  }
#else
  void sleep_while(std::uint32_t) { std::this_thread::yield(); }
  void wake_all() {}
#endif
  static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t) &&
                    std::atomic<std::uint32_t>::is_always_lock_free,
                "the futex word must be a plain 32-bit integer");

  alignas(64) std::atomic<int> arrived_{0};
  alignas(64) std::atomic<std::uint32_t> generation_{0};
  std::atomic<int> sleepers_{0};
  int threads_ = 1;
};

template <class Weight>
class DeltaStepping {
 public:
  using Dist = distance_t<Weight>;

  DeltaStepping(const Csr<Weight>& g, double delta) : g_(g), inv_delta_(1.0 / delta) {}

  std::vector<Dist> run(vertex_id source, int threads, CpuSolveStats* stats) {
    // The result vector is the distance array itself (accessed atomically
    // during the solve), and the frontier is left uninitialised as GAP does:
    // no serial pass over memory beyond the vector's own zeroing.
    std::vector<Dist> out(g_.num_vertices);
    dist_ = out.data();
    frontier_capacity_ = std::max<std::size_t>(g_.num_vertices, 1);
    frontier_.reset(new vertex_id[frontier_capacity_]);
    frontier_[0] = source;
    phase_bin_[0].store(bin_of(Dist{0}));
    phase_bin_[1].store(kNoBin);
    tail_[0].store(1);
    tail_[1].store(0);
    cursor_[0].store(0);
    cursor_[1].store(0);
    overflow_[0].store(false);
    overflow_[1].store(false);

    // One parallel region per solve: initialisation and the phases are
    // separated by our own barriers, not by OpenMP's.
#pragma omp parallel num_threads(threads)
    {
#pragma omp single
      barrier_.reset(omp_get_num_threads());
      const auto team = static_cast<std::uint64_t>(omp_get_num_threads());
      const auto id = static_cast<std::uint64_t>(omp_get_thread_num());
      const std::uint64_t n = g_.num_vertices;
      const std::uint64_t first = n * id / team, last = n * (id + 1) / team;
      for (std::uint64_t v = first; v < last; ++v)
        dist_[v] = v == source ? Dist{0} : infinite_distance<Weight>();
      barrier_.wait();
      Worker(*this, id == 0).run();
    }
    if (stats) {
      stats->relaxations = relaxations_.load();
      stats->phases = phases_;
    }
    return out;
  }

 private:
  // Monotone in the distance (a product with a positive constant, correctly
  // rounded), which is all the algorithm needs: a relaxation never moves a
  // vertex to an earlier bin than the one being processed.
  std::uint64_t bin_of(Dist d) const {
    const double bin = static_cast<double>(d) * inv_delta_;
    return bin < static_cast<double>(kMaxBin) ? static_cast<std::uint64_t>(bin) : kMaxBin;
  }

  // One thread's bins and counters.
  class Worker {
   public:
    Worker(DeltaStepping& s, bool leader)
        : s_(s),
          leader_(leader),
          offsets_(s.g_.offsets.data()),
          targets_(s.g_.targets.data()),
          weights_(s.g_.weights.data()),
          dist_(s.dist_),
          ring_(kRingBins) {}

    // Shared state of phase p lives in slot p % 2 (bin, frontier length,
    // claim cursor, overflow flag). Slot p % 2 is reset by the leader after
    // the first barrier of phase p, when every thread is done reading it, and
    // refilled in phase p + 1, after that phase's first barrier.
    void run() {
      int parity = 0;
      while (true) {
        const std::uint64_t current = s_.phase_bin_[parity].load(std::memory_order_relaxed);
        if (current == kNoBin) break;
        base_ = current;
        const std::size_t count = s_.tail_[parity].load(std::memory_order_relaxed);
        // Dynamic schedule over the shared frontier, chunks of 64 (as GAP).
        std::atomic<std::size_t>& cursor = s_.cursor_[parity];
        for (std::size_t start = cursor.fetch_add(kChunk, std::memory_order_relaxed); start < count;
             start = cursor.fetch_add(kChunk, std::memory_order_relaxed)) {
          const std::size_t end = std::min(count, start + kChunk);
          for (std::size_t i = start; i < end; ++i) {
            const vertex_id u = s_.frontier_[i];
            if (s_.bin_of(load_relaxed(&dist_[u])) >= current) relax(u);
          }
        }
        // Bin fusion: finish small local work on this bin without a phase.
        std::vector<vertex_id>& slot = ring_[current & kRingMask];
        while (!slot.empty() && slot.size() < kFusionLimit) {
          scratch_.swap(slot);
          ring_items_ -= scratch_.size();
          for (const vertex_id u : scratch_) relax(u);
          scratch_.clear();
        }

        // Propose the next bin: this thread's first non-empty one.
        std::uint64_t local_next = far_min();
        if (ring_items_ > 0) {
          for (std::uint64_t b = current; b < current + kRingBins && b < local_next; ++b)
            if (!ring_[b & kRingMask].empty()) {
              local_next = b;
              break;
            }
        }
        atomic_min(s_.phase_bin_[parity ^ 1], local_next);
        s_.barrier_.wait();
        if (leader_) {
          s_.phase_bin_[parity].store(kNoBin, std::memory_order_relaxed);
          s_.tail_[parity].store(0, std::memory_order_relaxed);
          s_.cursor_[parity].store(0, std::memory_order_relaxed);
          s_.overflow_[parity ^ 1].store(false, std::memory_order_relaxed);
          ++s_.phases_;
        }
        const std::uint64_t next = s_.phase_bin_[parity ^ 1].load(std::memory_order_relaxed);
        std::size_t pending_start = 0;
        bool pending = false;
        if (next != kNoBin) {
          redistribute_far(next);
          std::vector<vertex_id>& next_slot = ring_[next & kRingMask];
          if (!next_slot.empty()) {
            pending_start = s_.tail_[parity ^ 1].fetch_add(next_slot.size(), std::memory_order_relaxed);
            if (pending_start + next_slot.size() <= s_.frontier_capacity_) {
              std::copy(next_slot.begin(), next_slot.end(), s_.frontier_.get() + pending_start);
              ring_items_ -= next_slot.size();
              next_slot.clear();
            } else {
              pending = true;
              s_.overflow_[parity].store(true, std::memory_order_relaxed);
            }
          }
        }
        s_.barrier_.wait();
        if (s_.overflow_[parity].load(std::memory_order_relaxed)) {
          // Rare: more pushes into one bin than the frontier holds (a vertex
          // can be pushed several times). Grow it and copy what did not fit.
          if (leader_) s_.grow_frontier(s_.tail_[parity ^ 1].load(std::memory_order_relaxed));
          s_.barrier_.wait();
          if (pending) {
            std::vector<vertex_id>& next_slot = ring_[next & kRingMask];
            std::copy(next_slot.begin(), next_slot.end(), s_.frontier_.get() + pending_start);
            ring_items_ -= next_slot.size();
            next_slot.clear();
          }
          s_.barrier_.wait();
        }
        parity ^= 1;
      }
      s_.relaxations_.fetch_add(relaxations_, std::memory_order_relaxed);
    }

   private:
    void relax(vertex_id u) {
      const Dist du = load_relaxed(&dist_[u]);
      const edge_offset end = offsets_[u + 1];
      const edge_offset begin = offsets_[u];
      relaxations_ += end - begin;
      for (edge_offset k = begin; k < end; ++k) {
        const vertex_id v = targets_[k];
        const Dist candidate = static_cast<Dist>(du + static_cast<Dist>(weights_[k]));
        Dist old = load_relaxed(&dist_[v]);
        while (candidate < old) {
          // Atomic min: on failure `old` is reloaded and the loop retries
          // only while the candidate still improves it.
          if (compare_exchange_relaxed(&dist_[v], old, candidate)) {
            push(v, s_.bin_of(candidate));
            break;
          }
        }
      }
    }

    void push(vertex_id v, std::uint64_t bin) {
      if (bin < base_ + kRingBins) {
        ring_[bin & kRingMask].push_back(v);
        ++ring_items_;
      } else {
        far_.push({bin, v});
      }
    }

    // Moves the far entries whose bin entered the window [next, next +
    // kRingBins) into the ring, placed by their current distance; drops those
    // whose distance fell below `next` (they were pushed again and processed
    // there). The far pile is a min-heap on the bin at push time, so this
    // touches only the entries that move, however sparse the bins are.
    void redistribute_far(std::uint64_t next) {
      while (!far_.empty() && far_.top().first < next + kRingBins) {
        const vertex_id v = far_.top().second;
        far_.pop();
        const std::uint64_t bin = s_.bin_of(load_relaxed(&dist_[v]));
        if (bin < next) continue;
        ring_[bin & kRingMask].push_back(v);  // bin <= its heap key < next + kRingBins
        ++ring_items_;
      }
    }

    std::uint64_t far_min() const { return far_.empty() ? kNoBin : far_.top().first; }

    DeltaStepping& s_;
    const bool leader_;  // does the per-phase bookkeeping
    const edge_offset* offsets_;
    const vertex_id* targets_;
    const Weight* weights_;
    Dist* dist_;
    std::vector<std::vector<vertex_id>> ring_;  // bin b lives in ring_[b % kRingBins]
    std::size_t ring_items_ = 0;
    // (bin at push, vertex) beyond the window; the top is a lower bound of
    // every pending far bin (an improved vertex was pushed again, lower).
    std::priority_queue<std::pair<std::uint64_t, vertex_id>, std::vector<std::pair<std::uint64_t, vertex_id>>,
                        std::greater<>>
        far_;
    std::vector<vertex_id> scratch_;
    std::uint64_t base_ = 0;                    // the bin being processed
    std::uint64_t relaxations_ = 0;
  };

  const Csr<Weight>& g_;
  const double inv_delta_;
  // Grows the frontier to hold at least `needed` entries, keeping its
  // contents; called by one thread between barriers.
  void grow_frontier(std::size_t needed) {
    const std::size_t capacity = std::max(2 * frontier_capacity_, needed);
    std::unique_ptr<vertex_id[]> grown(new vertex_id[capacity]);
    std::copy(frontier_.get(), frontier_.get() + frontier_capacity_, grown.get());
    frontier_ = std::move(grown);
    frontier_capacity_ = capacity;
  }

  Dist* dist_ = nullptr;  // the result vector's data
  std::unique_ptr<vertex_id[]> frontier_;
  std::size_t frontier_capacity_ = 0;
  // Written during phases: kept off the cache lines of the read-mostly
  // fields above (g_, inv_delta_, the vectors' data pointers), which every
  // relaxation reads; the claim cursor alone takes a fetch_add per 64
  // frontier vertices.
  alignas(64) std::atomic<std::uint64_t> phase_bin_[2];
  std::atomic<std::size_t> tail_[2];
  std::atomic<bool> overflow_[2];
  alignas(64) std::atomic<std::size_t> cursor_[2];
  alignas(64) SpinBarrier barrier_;
  std::atomic<std::uint64_t> relaxations_{0};
  std::uint64_t phases_ = 0;
};

}  // namespace

template <class Weight>
std::vector<distance_t<Weight>> delta_stepping(const Csr<Weight>& g, vertex_id source, double delta, int threads,
                                               CpuSolveStats* stats) {
  if (source >= g.num_vertices)
    throw std::invalid_argument("delta_stepping: source " + std::to_string(source) +
                                " is not a vertex (the graph has " + std::to_string(g.num_vertices) + " vertices)");
  if (!(delta > 0) || !std::isfinite(delta) || !std::isfinite(1.0 / delta))
    throw std::invalid_argument("delta_stepping: delta must be positive and finite, not " + std::to_string(delta));
  if (threads < 0) throw std::invalid_argument("delta_stepping: threads must be >= 0");
  const int team = threads > 0 ? threads : omp_get_max_threads();
  DeltaStepping<Weight> solver(g, delta);
  auto dist = solver.run(source, team, stats);
  if (stats) stats->delta = delta;
  return dist;
}

template <class Weight>
double auto_delta(const Csr<Weight>& g, double c) {
  if (!(c > 0) || !std::isfinite(c)) throw std::invalid_argument("auto_delta: c must be positive and finite");
  const edge_offset arcs = g.num_arcs();
  if (arcs == 0 || g.num_vertices == 0) return 1.0;
  double weight_sum = 0;
  double min_positive = std::numeric_limits<double>::infinity();
  const auto m = static_cast<std::int64_t>(arcs);
#pragma omp parallel for schedule(static) reduction(+ : weight_sum) reduction(min : min_positive) if (m > (1 << 16))
  for (std::int64_t k = 0; k < m; ++k) {
    const auto w = static_cast<double>(g.weights[k]);
    weight_sum += w;
    if (w > 0 && w < min_positive) min_positive = w;
  }
  // Every weight is 0: any delta is exact. (An OpenMP min reduction over a
  // double starts at +inf with gcc but at DBL_MAX with clang, so test both.)
  if (!(min_positive < std::numeric_limits<double>::max())) return 1.0;
  const double mean_weight = weight_sum / static_cast<double>(arcs);
  const double mean_degree = static_cast<double>(arcs) / static_cast<double>(g.num_vertices);
  // Davidson, Baxter, Garland, Owens, "Work-efficient parallel GPU methods for
  // single-source shortest paths", IPDPS 2014: delta = c * mean w / mean degree.
  return std::max(c * mean_weight / mean_degree, min_positive);
}

template std::vector<distance_t<std::uint32_t>> delta_stepping(const Csr<std::uint32_t>&, vertex_id, double, int,
                                                               CpuSolveStats*);
template std::vector<distance_t<float>> delta_stepping(const Csr<float>&, vertex_id, double, int, CpuSolveStats*);
template double auto_delta(const Csr<std::uint32_t>&, double);
template double auto_delta(const Csr<float>&, double);

}  // namespace graph
