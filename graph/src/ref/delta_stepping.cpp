// Parallel delta-stepping (Meyer and Sanders, "Delta-stepping: a
// parallelizable shortest path algorithm", J. Algorithms 49(1), 2003), in the
// form of GAP's sssp.cc (Beamer, Asanovic, Patterson, "The GAP Benchmark
// Suite", arXiv:1508.03619), which is among the fastest shared-memory codes:
//
//  * Vertices are kept in buckets ("bins") by floor(dist / delta). Each
//    thread owns its bins, so pushing a vertex needs no synchronisation.
//  * One phase processes one bin: every thread relaxes the out-arcs of the
//    bin's entries in parallel (dynamic schedule, chunks of 64). Distances are
//    lowered with an atomic compare-exchange loop (atomic min); the winner
//    pushes the vertex into its own bin of the new distance.
//  * Bin fusion (GAP): while a thread's copy of the current bin stays small
//    (< kFusionLimit), it keeps processing it alone instead of paying a
//    barrier for another phase; this matters on road graphs, where phases
//    are many and small.
//
// Differences from GAP (each measured with cpu_sssp_bench on 2 cores):
//  * Entries carry (32 bits of) the distance they were pushed with, and one
//    is relaxed only while dist[v] still matches it. GAP pushes bare vertices
//    and relaxes every copy whose distance is still in the bin, so a vertex
//    improved twice in one bin is relaxed twice: at the CPU's delta that was
//    25% of all relaxations on R-MAT (work ratio 1.34 -> 1.08 at c = 0.5,
//    7.96 -> 2.76 at the GPU's c = 32).
//  * One barrier per phase instead of two: a thread does not copy its bin
//    into a shared frontier after the next bin is known; it publishes its
//    lowest bin (a vector swap) before the barrier, together with its
//    proposal for the next bin. After the barrier every thread sees which
//    published bins equal the agreed one and claims chunks from their
//    concatenation; unclaimed ones go back to their owner's ring. Slots of
//    consecutive phases rotate (published entries by 2, proposals and claim
//    cursors by 3), so nothing is reset inside the critical path.
//  * Solo phases on a loaded machine: once a thread has had to sleep at a
//    barrier waiting for a team mate that another process had preempted (or
//    there are more threads than processors), a phase with fewer than
//    kSoloEnter entries in all is run by thread 0 alone. It takes every
//    thread's entries (the others wait at the barrier with their data at
//    rest) and runs sequential delta-stepping until a bin holds kSoloExit
//    entries, then publishes it and releases the team. On a loaded machine
//    every barrier risks waiting for a descheduled team mate for a scheduler
//    tick: on 2 shared cores the 2-thread DE road solve took 27 ms before
//    and 5.7 ms with solo phases (1.1 ms when the machine is idle, where
//    solo phases stay off: there they cost 20-30% on roads). A sleep while
//    the last team mate was still working (a long phase on one thread, as
//    wide bins on road graphs make) is not load: at 16 threads, counting
//    such sleeps too put luxembourg_osm and grid 2048 x 2048 into solo
//    phases on an idle machine (1.5-1.9x and 1.2x slower; docs/TUNING.md).
//  * GAP indexes its bins by absolute bin number in a vector grown on demand,
//    which needs (max distance / delta) bins and fails for tiny deltas. Here
//    each thread keeps a ring of kRingBins bins for the window [current bin,
//    current bin + kRingBins) and a "far" pile (a min-heap on the bin) for
//    anything beyond, moved into the ring as the window reaches it (the
//    near-far idea of Davidson et al., IPDPS 2014). Memory is bounded by the
//    pushes, never by max distance / delta, and sparse bins cost nothing.
//  * Software prefetch a few entries ahead (relax_entries): the loads of one
//    entry depend on each other, so without it a thread has one cache miss
//    in flight at a time (2 threads: grid 2048 x 2048 -25%, urand -30%).
//  * Phases are separated by our own spin-then-sleep barrier instead of
//    OpenMP's (see SpinBarrier), so the solver stays usable on loaded machines.
//  * Light/heavy arc splitting (Meyer and Sanders) is not done: at
//    auto_delta_cpu's delta the work ratio is already 1.00 to 1.10 on R-MAT,
//    uniform random, grids, roads and social graphs, so deferring heavy arcs
//    could save at most 10% of the relaxations, and without weight-sorted
//    adjacency lists it costs a second pass over every settled vertex's arcs.
//
// Correctness does not depend on the bin order (it is a label-correcting
// algorithm): every decrease of dist[v] pushes (v, new distance) into a bin
// that is processed later, and that entry stays live until dist[v] drops
// again, so every reached vertex relaxes its arcs with its final distance.
// Integer weights give exactly Dijkstra's distances; float distances are
// computed as dist[u] + w rounded to float, as in Dijkstra and on the GPU, but
// a different relaxation order may pick a different (equally short in exact
// arithmetic) path, so float results can differ in the last bits.
#include <omp.h>

#ifdef __linux__
#include <linux/futex.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
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
// How far ahead (in entries) relax_entries prefetches.
constexpr std::size_t kPrefetchFar = 16;
constexpr std::size_t kPrefetchNear = 8;
// Solo mode: on a loaded machine (a thread slept at a barrier, waiting for a
// preempted team mate, within the last kPressureHold phases, or more threads
// than processors), a phase with fewer shared entries than kSoloEnter is
// run by one thread, which goes on alone until a bin holds kSoloExit entries.
constexpr std::size_t kSoloEnter = 256;
constexpr std::size_t kSoloExit = 2048;
constexpr int kPressureHold = 64;
// auto_delta_cpu's c for graphs with hubs (the rule's base; see there).
constexpr double kCpuDeltaC = 1;
// Hub-free graphs: delta is widened at least this much (meshes, dense
// uniform random graphs); see auto_delta_cpu.
constexpr double kHubFreeMinWiden = 4;
// ... and at most this much for their degree alone (c = 16 to 19: grids,
// and road graphs of degree 2.2 to 3.8); see auto_delta_cpu.
constexpr double kLowDegreeWiden = 19;
// Large graphs whose degrees are extremely skewed (Graph500 R-MAT): delta is
// narrowed by this factor; "extremely skewed" is a standard deviation of the
// out-degree above kSkewCv times its mean, "large" at least kSkewMinArcs arcs.
constexpr double kSkewNarrow = 0.425;
constexpr double kSkewCv = 4;
constexpr std::uint64_t kSkewMinArcs = std::uint64_t{1} << 21;

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
  // Returns whether this thread had to sleep (waited beyond the spin time)
  // for a team mate that had been preempted: the last to arrive tells, when
  // someone sleeps, whether the scheduler took its core during the phase
  // (load from other processes) or it simply had more work.
  bool wait() {
    const std::uint32_t generation = generation_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) == threads_ - 1) {
      arrived_.store(0, std::memory_order_relaxed);
      // Published by the generation increment below (a seq_cst RMW).
      preempted_.store(sleepers_.load(std::memory_order_seq_cst) > 0 && preempted_since_last_check(),
                       std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_seq_cst);
      if (sleepers_.load(std::memory_order_seq_cst) > 0) wake_all();
      return false;
    }
    // Spin for a bounded time, not a count: pause lasts 10 to 140 cycles
    // depending on the processor.
    const auto spin_start = std::chrono::steady_clock::now();
    for (unsigned spin = 1;; ++spin) {
      if (generation_.load(std::memory_order_acquire) != generation) return false;
      cpu_relax();
      if (spin % 128 == 0 && std::chrono::steady_clock::now() - spin_start > kSpinTime) break;
    }
    // Dekker-style pairing with the releaser (both sides seq_cst): either it
    // sees our sleepers_ increment and wakes us, or we see its new generation.
    sleepers_.fetch_add(1, std::memory_order_seq_cst);
    while (generation_.load(std::memory_order_seq_cst) == generation) sleep_while(generation);
    sleepers_.fetch_sub(1, std::memory_order_relaxed);
    return preempted_.load(std::memory_order_relaxed);
  }

  // Whether the calling thread was descheduled against its will (its core
  // given to another task) since its previous call; each solver thread calls
  // it once when a solve starts, so that only that solve's switches count.
  // Where the count cannot be read, every sleep counts as load.
  static bool preempted_since_last_check() {
#ifdef __linux__
    thread_local long seen = 0;
    rusage usage;
    if (getrusage(RUSAGE_THREAD, &usage) != 0) return true;
    const bool preempted = usage.ru_nivcsw != seen;
    seen = usage.ru_nivcsw;
    return preempted;
#else
    return true;
#endif
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
  std::atomic<bool> preempted_{false};  // of the last generation: see wait()
  int threads_ = 1;
};

template <class Weight>
class DeltaStepping {
 public:
  using Dist = distance_t<Weight>;
  // A pushed vertex with a 32-bit tag of the distance it was pushed at (the
  // low bits of an integer distance, the bits of a float). An entry is live
  // while dist[v] still has that tag: every decrease pushes a new entry, so
  // an older one (lower in the same bin, or in an earlier bin) is skipped
  // without touching the graph. Vertex-only entries (GAP) relax a vertex once
  // per copy in its bin; on R-MAT at the CPU delta that was a quarter of all
  // relaxations. A live entry relaxes with the current distance, so a stale
  // one whose distance changed by a multiple of 2^32 (the only way a tag can
  // match wrongly) only costs a redundant, still correct, relaxation.
  struct Entry {
    vertex_id v;
    std::uint32_t tag;
  };
  static std::uint32_t tag_of(Dist d) {
    if constexpr (sizeof(Dist) == sizeof(std::uint32_t)) {
      std::uint32_t bits;
      std::memcpy(&bits, &d, sizeof bits);
      return bits;
    } else {
      return static_cast<std::uint32_t>(d);
    }
  }

  DeltaStepping(const Csr<Weight>& g, double delta, int team)
      : g_(g), inv_delta_(1.0 / delta), team_(team), published_(2 * static_cast<std::size_t>(team)),
        workers_(static_cast<std::size_t>(team), nullptr) {}

  // Solves into `dist` (n entries, any contents): the caller's array is the
  // distance array itself, accessed atomically during the solve, and each
  // thread initialises its own slice, so its pages are first touched in
  // parallel.
  void run(vertex_id source, Dist* dist, CpuSolveStats* stats) {
    dist_ = dist;
    source_ = source;
    bin_[0].store(bin_of(Dist{0}));
    bin_[1].store(kNoBin);
    bin_[2].store(kNoBin);
    for (auto& cursor : cursor_) cursor.store(0);

    // One parallel region per solve: initialisation and the phases are
    // separated by our own barrier, not by OpenMP's.
#pragma omp parallel num_threads(team_)
    {
      const int actual = omp_get_num_threads();
#pragma omp single
      {
        team_ = actual;  // OpenMP may give fewer threads than asked
        barrier_.reset(actual);
      }
      const auto team = static_cast<std::uint64_t>(actual);
      const auto id = static_cast<std::uint64_t>(omp_get_thread_num());
      const std::uint64_t n = g_.num_vertices;
      const std::uint64_t first = n * id / team, last = n * (id + 1) / team;
      for (std::uint64_t v = first; v < last; ++v)
        dist_[v] = v == source ? Dist{0} : infinite_distance<Weight>();
      Worker(*this, static_cast<int>(id)).run();
    }
    if (stats) {
      stats->relaxations = relaxations_.load();
      stats->phases = phases_;
    }
  }

 private:
  // Monotone in the distance (a product with a positive constant, correctly
  // rounded), which is all the algorithm needs: a relaxation never moves a
  // vertex to an earlier bin than the one being processed.
  std::uint64_t bin_of(Dist d) const {
    const double bin = static_cast<double>(d) * inv_delta_;
    return bin < static_cast<double>(kMaxBin) ? static_cast<std::uint64_t>(bin) : kMaxBin;
  }

  // What a thread offers for the next phase: its lowest bin's entries.
  struct alignas(64) Published {
    const Entry* data = nullptr;
    std::size_t size = 0;
    std::uint64_t bin = kNoBin;
    // The thread slept at the barrier before the phase it was published in,
    // for a preempted team mate.
    bool slept = false;
  };

  // One thread's bins and counters.
  class Worker {
   public:
    Worker(DeltaStepping& s, int id)
        : s_(s),
          id_(id),
          offsets_(s.g_.offsets.data()),
          targets_(s.g_.targets.data()),
          weights_(s.g_.weights.data()),
          dist_(s.dist_),
          ring_(kRingBins) {}

    // Phase p processes bin bin_[p % 3], the union of the entries that the
    // threads published for it (published_[p % 2]), then that bin's local
    // leftovers (fusion), publishes this thread's lowest bin for phase p + 1
    // and proposes it to bin_[(p + 1) % 3]. One barrier ends the phase.
    // Slot lifetimes: published_[(p + 1) % 2] was last read in phase p - 1;
    // cursor_[(p + 1) % 3] was last used in phase p - 2 and bin_[(p + 2) % 3]
    // last read at the start of phase p - 1, so the leader resets both in
    // phase p, after barrier p - 1, before anyone uses them again.
    void run() {
      const int team = s_.team_;
      // More threads than processors: some always wait for a core.
      const bool oversubscribed = team > omp_get_num_procs();
      s_.workers_[static_cast<std::size_t>(id_)] = this;
      (void)SpinBarrier::preempted_since_last_check();  // switches before this solve do not count
      if (id_ == 0) {
        // Phase 0: the source, published by thread 0.
        pub_[0].push_back({s_.source_, tag_of(Dist{0})});
        publish(0, s_.bin_of(Dist{0}));
      } else {
        s_.published_[static_cast<std::size_t>(id_)] = Published{};
      }
      slept_ = s_.barrier_.wait();
      std::uint64_t current = s_.bin_[0].load(std::memory_order_relaxed);
      for (std::uint64_t phase = 0; current != kNoBin; ++phase) {
        const int parity = static_cast<int>(phase & 1);
        base_ = current;
        if (id_ == 0) {
          s_.cursor_[(phase + 1) % 3].store(0, std::memory_order_relaxed);
          s_.bin_[(phase + 2) % 3].store(kNoBin, std::memory_order_relaxed);
        }
        // Every thread computes the same total from the same published data,
        // so all take the same branch without another barrier.
        bool any_slept = false;
        const std::size_t total = gather_parts(current, phase, team, any_slept);
        pressure_ = any_slept ? kPressureHold : pressure_ > 0 ? pressure_ - 1 : 0;
        const bool solo = team > 1 && total < kSoloEnter && (pressure_ > 0 || oversubscribed);
        if (solo) {
          // Solo (only under pressure: see kPressureHold): the phase is too
          // small to share. Thread 0 takes over every thread's entries (the
          // others wait at the barrier, their data at rest) and runs bins
          // sequentially, without barriers, until a bin is worth sharing
          // again. On a loaded machine every barrier risks waiting a
          // scheduler tick for a descheduled team mate.
          if (id_ == 0) {
            adopt_all(current, parity, team);
            run_solo(current);
            offer_next(base_, phase);
          } else {
            pub_[parity ^ 1].clear();
            publish(parity ^ 1, kNoBin);
          }
        } else {
          if (id_ == 0) ++s_.phases_;
          // Entries this thread published but that are not for this bin go
          // back into its ring (nobody reads them); then far entries that the
          // window now reaches.
          return_unclaimed(current, parity);
          redistribute_far(current);
          process_shared(phase, total);
          // Bin fusion (GAP): finish small local work on this bin without
          // another phase, i.e. without a barrier.
          std::vector<Entry>& slot = ring_[current & kRingMask];
          while (!slot.empty() && slot.size() < kFusionLimit) drain_once(slot);
          offer_next(current, phase);
        }
        // A sleep after a solo phase is expected (the team waited for thread
        // 0) and says nothing about the machine.
        slept_ = s_.barrier_.wait() && !solo;
        current = s_.bin_[(phase + 1) % 3].load(std::memory_order_relaxed);
      }
      s_.relaxations_.fetch_add(relaxations_, std::memory_order_relaxed);
    }

   private:
    // Relaxes the live entries of `slot` once (what they push into the same
    // bin lands in `slot` again).
    void drain_once(std::vector<Entry>& slot) {
      scratch_.swap(slot);
      ring_items_ -= scratch_.size();
      relax_entries(scratch_.data(), scratch_.size());
      scratch_.clear();
    }

    void return_unclaimed(std::uint64_t current, int parity) {
      if (pub_bin_[parity] == current || pub_[parity].empty()) return;
      std::vector<Entry>& slot = ring_[pub_bin_[parity] & kRingMask];  // empty since it was published
      slot.swap(pub_[parity]);
      ring_items_ += slot.size();
      ring_max_bin_ = std::max(ring_max_bin_, pub_bin_[parity]);
    }

    // This thread's lowest bin: published for the next phase and proposed as
    // its bin. `from` is the lowest bin the ring can hold entries for.
    void offer_next(std::uint64_t from, std::uint64_t phase) {
      std::uint64_t local_next = far_min();
      if (ring_items_ > 0) {
        for (std::uint64_t b = from; b < from + kRingBins && b < local_next; ++b)
          if (!ring_[b & kRingMask].empty()) {
            local_next = b;
            break;
          }
      }
      const int next_parity = static_cast<int>((phase + 1) & 1);
      pub_[next_parity].clear();
      if (local_next != kNoBin && local_next < from + kRingBins) {
        std::vector<Entry>& lowest = ring_[local_next & kRingMask];
        ring_items_ -= lowest.size();
        pub_[next_parity].swap(lowest);
      }
      publish(next_parity, local_next);
      atomic_min(s_.bin_[(phase + 1) % 3], local_next);
    }

    // Solo mode, thread 0: moves every other thread's entries (published,
    // ring and far) and its own published ones into its own bins. Every
    // entry's bin is >= current, and every ring entry's bin is below its
    // owner's window end <= current + kRingBins.
    void adopt_all(std::uint64_t current, int parity, int team) {
      pub_bin_[parity] = kNoBin;  // whatever it was, it goes back to the ring
      if (!pub_[parity].empty()) {
        for (const Entry& e : pub_[parity]) adopt(e);
        pub_[parity].clear();
      }
      for (int t = 1; t < team; ++t) {
        Worker& w = *s_.workers_[static_cast<std::size_t>(t)];
        for (const Entry& e : w.pub_[parity]) adopt(e);
        w.pub_[parity].clear();
        w.pub_bin_[parity] = kNoBin;
        if (w.ring_items_ > 0) {
          // Both windows contain every entry's bin (current .. w's highest
          // push), so a bin's slot is the same in both.
          const std::uint64_t last = std::min(w.ring_max_bin_, current + kRingBins - 1);
          for (std::uint64_t b = current; b <= last; ++b) {
            std::vector<Entry>& from = w.ring_[b & kRingMask];
            if (from.empty()) continue;
            std::vector<Entry>& to = ring_[b & kRingMask];
            ring_items_ += from.size();
            ring_max_bin_ = std::max(ring_max_bin_, b);
            if (to.empty()) {
              to.swap(from);
            } else {
              to.insert(to.end(), from.begin(), from.end());
              from.clear();
            }
          }
          w.ring_items_ = 0;
        }
        for (const auto& far_entry : w.far_) adopt(far_entry.second);
        w.far_.clear();
      }
      base_ = current;
    }

    void adopt(const Entry& e) {
      const Dist d = load_relaxed(&dist_[e.v]);
      if (tag_of(d) == e.tag) push(e.v, d);
    }

    // Solo mode, thread 0: plain sequential delta-stepping from bin
    // `current` until the next bin is large enough to share (base_ is then
    // that bin) or nothing is left.
    void run_solo(std::uint64_t current) {
      std::uint64_t b = current;
      while (true) {
        base_ = b;
        redistribute_far(b);
        std::vector<Entry>& slot = ring_[b & kRingMask];
        if (!slot.empty()) ++s_.phases_;
        while (!slot.empty()) {
          if (slot.size() >= kSoloExit) return;  // worth sharing: base_ == b
          drain_once(slot);
        }
        std::uint64_t next = far_min();
        if (ring_items_ > 0) {
          for (std::uint64_t k = b + 1; k < b + kRingBins && k < next; ++k)
            if (!ring_[k & kRingMask].empty()) {
              next = k;
              break;
            }
        }
        if (next == kNoBin) return;
        b = next;
      }
    }

    void publish(int parity, std::uint64_t bin) {
      pub_bin_[parity] = bin;
      s_.published_[static_cast<std::size_t>(parity) * s_.published_stride() + static_cast<std::size_t>(id_)] =
          Published{pub_[parity].data(), pub_[parity].size(), bin, slept_};
    }

    // The entries published for bin `current` by every thread, as prefix
    // offsets into their concatenation; returns their number.
    std::size_t gather_parts(std::uint64_t current, std::uint64_t phase, int team, bool& any_slept) {
      const Published* pubs = &s_.published_[(phase & 1) * s_.published_stride()];
      parts_.clear();
      std::size_t total = 0;
      for (int t = 0; t < team; ++t) {
        any_slept = any_slept || pubs[t].slept;
        if (pubs[t].bin != current || pubs[t].size == 0) continue;
        parts_.push_back({total, pubs[t].data});
        total += pubs[t].size;
      }
      parts_.push_back({total, nullptr});
      return total;
    }

    // Dynamic schedule over the gathered entries, chunks of kChunk (GAP
    // uses 64).
    void process_shared(std::uint64_t phase, std::size_t total) {
      if (total == 0) return;
      std::atomic<std::size_t>& cursor = s_.cursor_[phase % 3];
      std::size_t part = 0;
      for (std::size_t start = cursor.fetch_add(kChunk, std::memory_order_relaxed); start < total;
           start = cursor.fetch_add(kChunk, std::memory_order_relaxed)) {
        const std::size_t end = std::min(total, start + kChunk);
        for (std::size_t i = start; i < end;) {
          while (parts_[part + 1].first <= i) ++part;  // claims only grow
          const std::size_t stop = std::min(end, parts_[part + 1].first);
          relax_entries(parts_[part].second + (i - parts_[part].first), stop - i);
          i = stop;
        }
      }
    }

    // Relaxes the live entries of data[0, count). An entry is a chain of
    // dependent cache misses (dist[u] and offsets[u], then u's arcs, then its
    // targets' distances) at a random place, so the solve waits on memory
    // latency: while relaxing entry i, the distance and offsets of entry
    // i + kPrefetchFar and the first arcs of entry i + kPrefetchNear are
    // prefetched. (Prefetching the targets' distances as well, up to 8 per
    // entry, won 5% on grids but lost 10% on urand; not kept.)
    void relax_entries(const Entry* data, std::size_t count) {
      for (std::size_t i = 0; i < count; ++i) {
        if (i + kPrefetchFar < count) {
          const vertex_id a = data[i + kPrefetchFar].v;
          __builtin_prefetch(&dist_[a]);
          __builtin_prefetch(&offsets_[a]);
        }
        if (i + kPrefetchNear < count) {
          const edge_offset k = offsets_[data[i + kPrefetchNear].v];
          __builtin_prefetch(&targets_[k]);
          __builtin_prefetch(&weights_[k]);
        }
        const Entry e = data[i];
        const Dist du = load_relaxed(&dist_[e.v]);
        if (tag_of(du) == e.tag) relax(e.v, du);
      }
    }

    void relax(vertex_id u, Dist du) {
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
            push(v, candidate);
            break;
          }
        }
      }
    }

    void push(vertex_id v, Dist d) {
      const std::uint64_t bin = s_.bin_of(d);
      if (bin < base_ + kRingBins) {
        ring_[bin & kRingMask].push_back({v, tag_of(d)});
        ring_max_bin_ = std::max(ring_max_bin_, bin);
        ++ring_items_;
      } else {
        far_.push_back({bin, {v, tag_of(d)}});
        std::push_heap(far_.begin(), far_.end(), FarLater{});
      }
    }

    // Moves the far entries whose bin entered the window [next, next +
    // kRingBins) into the ring, dropping stale ones. The far pile is a
    // min-heap on the bin, so this touches only the entries that move,
    // however sparse the bins are.
    void redistribute_far(std::uint64_t next) {
      while (!far_.empty() && far_.front().first < next + kRingBins) {
        std::pop_heap(far_.begin(), far_.end(), FarLater{});
        const Entry e = far_.back().second;
        far_.pop_back();
        const Dist d = load_relaxed(&dist_[e.v]);
        if (tag_of(d) != e.tag) continue;  // superseded by a later push
        const std::uint64_t bin = s_.bin_of(d);
        if (bin < next) continue;  // (only after a tag collision) processed there
        push(e.v, d);
      }
    }

    std::uint64_t far_min() const { return far_.empty() ? kNoBin : far_.front().first; }

    struct FarLater {
      bool operator()(const std::pair<std::uint64_t, Entry>& a, const std::pair<std::uint64_t, Entry>& b) const {
        return a.first > b.first;
      }
    };

    DeltaStepping& s_;
    const int id_;
    const edge_offset* offsets_;
    const vertex_id* targets_;
    const Weight* weights_;
    Dist* dist_;
    std::vector<std::vector<Entry>> ring_;  // bin b lives in ring_[b % kRingBins]
    std::size_t ring_items_ = 0;
    std::uint64_t ring_max_bin_ = 0;  // no ring entry's bin is above it
    std::vector<std::pair<std::uint64_t, Entry>> far_;  // (bin, entry) beyond the window, a min-heap on bin
    std::vector<Entry> pub_[2];                         // published for the next phase, by parity
    std::uint64_t pub_bin_[2] = {kNoBin, kNoBin};
    std::vector<std::pair<std::size_t, const Entry*>> parts_;
    std::vector<Entry> scratch_;
    std::uint64_t base_ = 0;  // the bin being processed
    bool slept_ = false;        // slept, for a preempted team mate, at the last barrier that ended a shared phase
    // Solo phases are allowed for kPressureHold phases after any thread slept
    // at a barrier; every thread computes this from the same published flags.
    int pressure_ = 0;
    std::uint64_t relaxations_ = 0;
  };

  std::size_t published_stride() const { return published_.size() / 2; }

  const Csr<Weight>& g_;
  const double inv_delta_;
  int team_;
  vertex_id source_ = 0;
  Dist* dist_ = nullptr;  // the caller's distance array
  // published_[parity * team + thread]; one cache line each.
  std::vector<Published> published_;
  std::vector<Worker*> workers_;  // for solo mode's takeover
  // Written during phases: kept off the cache lines of the read-mostly
  // fields above, which every relaxation reads.
  alignas(64) std::atomic<std::uint64_t> bin_[3];
  alignas(64) std::atomic<std::size_t> cursor_[3];
  alignas(64) SpinBarrier barrier_;
  std::atomic<std::uint64_t> relaxations_{0};
  std::uint64_t phases_ = 0;
};

}  // namespace

template <class Weight>
void delta_stepping(const Csr<Weight>& g, vertex_id source, double delta, int threads, distance_t<Weight>* dist,
                    CpuSolveStats* stats) {
  if (source >= g.num_vertices)
    throw std::invalid_argument("delta_stepping: source " + std::to_string(source) +
                                " is not a vertex (the graph has " + std::to_string(g.num_vertices) + " vertices)");
  if (!(delta > 0) || !std::isfinite(delta) || !std::isfinite(1.0 / delta))
    throw std::invalid_argument("delta_stepping: delta must be positive and finite, not " + std::to_string(delta));
  if (threads < 0) throw std::invalid_argument("delta_stepping: threads must be >= 0");
  const int team = threads > 0 ? threads : omp_get_max_threads();
  DeltaStepping<Weight>(g, delta, team).run(source, dist, stats);
  if (stats) stats->delta = delta;
}

template <class Weight>
std::vector<distance_t<Weight>> delta_stepping(const Csr<Weight>& g, vertex_id source, double delta, int threads,
                                               CpuSolveStats* stats) {
  std::vector<distance_t<Weight>> dist(g.num_vertices);
  delta_stepping(g, source, delta, threads, dist.data(), stats);
  return dist;
}

template <class Weight>
std::unique_ptr<distance_t<Weight>[]> delta_stepping_new_array(const Csr<Weight>& g, vertex_id source, double delta,
                                                                int threads, CpuSolveStats* stats) {
  std::unique_ptr<distance_t<Weight>[]> dist(new distance_t<Weight>[g.num_vertices]);
  delta_stepping(g, source, delta, threads, dist.get(), stats);
  return dist;
}

namespace {

struct WeightStats {
  double mean = 0;
  double min_positive = 0;  // 0: every weight is 0 (or there are no arcs)
};

template <class Weight>
WeightStats weight_stats(const Csr<Weight>& g) {
  const edge_offset arcs = g.num_arcs();
  if (arcs == 0) return {};
  double weight_sum = 0;
  double min_positive = std::numeric_limits<double>::infinity();
  const auto m = static_cast<std::int64_t>(arcs);
#pragma omp parallel for schedule(static) reduction(+ : weight_sum) reduction(min : min_positive) if (m > (1 << 16))
  for (std::int64_t k = 0; k < m; ++k) {
    const auto w = static_cast<double>(g.weights[k]);
    weight_sum += w;
    if (w > 0 && w < min_positive) min_positive = w;
  }
  // (An OpenMP min reduction over a double starts at +inf with gcc but at
  // DBL_MAX with clang, so test both.)
  if (!(min_positive < std::numeric_limits<double>::max())) return {};
  return {weight_sum / static_cast<double>(arcs), min_positive};
}

}  // namespace

template <class Weight>
double auto_delta(const Csr<Weight>& g, double c) {
  if (!(c > 0) || !std::isfinite(c)) throw std::invalid_argument("auto_delta: c must be positive and finite");
  if (g.num_arcs() == 0 || g.num_vertices == 0) return 1.0;
  const WeightStats w = weight_stats(g);
  if (w.min_positive == 0) return 1.0;  // every weight is 0: any delta is exact
  const double mean_degree = static_cast<double>(g.num_arcs()) / static_cast<double>(g.num_vertices);
  // Davidson, Baxter, Garland, Owens, "Work-efficient parallel GPU methods for
  // single-source shortest paths", IPDPS 2014: delta = c * mean w / mean degree.
  return std::max(c * w.mean / mean_degree, w.min_positive);
}

template <class Weight>
double auto_delta_cpu(const Csr<Weight>& g) {
  if (g.num_arcs() == 0 || g.num_vertices == 0) return 1.0;
  const WeightStats w = weight_stats(g);
  if (w.min_positive == 0) return 1.0;
  // Mean degree over the vertices that have arcs (isolated vertices, common
  // in R-MAT, say nothing about the search), the largest degree, and the
  // spread of the degrees (over all vertices) for the skew.
  std::uint64_t active = 0;
  edge_offset max_degree = 0;
  double degree_squares = 0;
  for (vertex_id v = 0; v < g.num_vertices; ++v) {
    const edge_offset degree = g.offsets[v + 1] - g.offsets[v];
    active += degree > 0;
    max_degree = std::max(max_degree, degree);
    degree_squares += static_cast<double>(degree) * static_cast<double>(degree);
  }
  const double mean_degree = static_cast<double>(g.num_arcs()) / static_cast<double>(active);
  const double mean_all = static_cast<double>(g.num_arcs()) / static_cast<double>(g.num_vertices);
  const double degree_cv =
      std::sqrt(std::max(0.0, degree_squares / static_cast<double>(g.num_vertices) - mean_all * mean_all)) /
      mean_all;
  // The measurements behind each term are in docs/TUNING.md, "CPU
  // delta-stepping: the delta rule" (sweeps of cpu_sssp_bench at 16 threads
  // on the GPU machine's host and at 2 threads on the development machine).
  //
  // Hub-free graphs (meshes, roads, grids, uniform random): a wide bin costs
  // little extra work, because few alternative paths lead into a vertex
  // within one bin, while every bin costs a phase (a barrier, and the
  // latency of a small frontier). So delta is widened at least
  // kHubFreeMinWiden times (the copter2 mesh, degree 12.7, was 1.6x slower
  // at 1x than at 4x on 16 threads; uniform random graphs of degree 32 are
  // flat from 0.5x to 8x), more as the mean degree falls below 8 ((8 / d)^4:
  // 16x for grids at 4, up to kLowDegreeWiden from 3.8 down: long paths,
  // thousands of phases at a narrow delta; at 16 threads grids 1024^2 and
  // 2048^2, DE, amsterdam and rome99 were fastest at c = 16), then steeply below
  // 2.2 ((4 / d)^5: 26x for luxembourg_osm at 2.09, 34x for andorra at
  // 1.97; roads are nearly trees).
  //
  // Graphs with hubs keep kCpuDeltaC: a hub reached again within a wide bin
  // is relaxed again, all of its arcs (at 16 threads email-Enron and
  // cond-mat were fastest at c = 1 to 2, as-22july06 and pgp-strong at 2 to
  // 4 and within 1.17x at 1). Among them, large graphs whose degree
  // spread is extreme (Graph500 R-MAT: degree cv 6.5 to 8.6; social graphs
  // and the milder R-MAT a = 0.5 stay below 4) are narrowed by kSkewNarrow:
  // on rmat:20:16 at 16 threads the time against delta is bimodal, with a
  // slow valley from c = 0.5 to 4 and good regions at c <= 0.25 and at
  // c >= 8; the narrow one (c = 0.425 x w / d, over the vertices with arcs:
  // about 0.26 in the sweep's units) keeps the work ratio at 1.01 and
  // does not depend on the thread count (wide bins cost 2-3x the work at 2
  // threads). Small graphs (below kSkewMinArcs arcs) keep kCpuDeltaC: their
  // phases are too short for more of them to pay at 16 threads (as-22july06).
  const double d = mean_degree;
  const bool hub_free = static_cast<double>(max_degree) <= 4 * d + 8;
  double factor = 1.0;
  if (hub_free)
    factor = std::max({kHubFreeMinWiden, std::min(kLowDegreeWiden, std::pow(8 / d, 4)), std::pow(4 / d, 5)});
  else if (degree_cv > kSkewCv && g.num_arcs() >= kSkewMinArcs)
    factor = kSkewNarrow;
  return std::max(kCpuDeltaC * factor * w.mean / d, w.min_positive);
}

template std::vector<distance_t<std::uint32_t>> delta_stepping(const Csr<std::uint32_t>&, vertex_id, double, int,
                                                               CpuSolveStats*);
template std::vector<distance_t<float>> delta_stepping(const Csr<float>&, vertex_id, double, int, CpuSolveStats*);
template void delta_stepping(const Csr<std::uint32_t>&, vertex_id, double, int, distance_t<std::uint32_t>*,
                             CpuSolveStats*);
template void delta_stepping(const Csr<float>&, vertex_id, double, int, distance_t<float>*, CpuSolveStats*);
template std::unique_ptr<distance_t<std::uint32_t>[]> delta_stepping_new_array(const Csr<std::uint32_t>&, vertex_id,
                                                                               double, int, CpuSolveStats*);
template std::unique_ptr<distance_t<float>[]> delta_stepping_new_array(const Csr<float>&, vertex_id, double, int,
                                                                       CpuSolveStats*);
template double auto_delta(const Csr<std::uint32_t>&, double);
template double auto_delta(const Csr<float>&, double);
template double auto_delta_cpu(const Csr<std::uint32_t>&);
template double auto_delta_cpu(const Csr<float>&);

}  // namespace graph
