// The parallel primitives of parallel.hpp and pair_loop.hpp on their own:
// for_phases keeps its phases in order without a barrier between them; a
// pair's barrier says on both threads alike when its waits stall.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "grundy/primitives/arena.hpp"
#include "grundy/primitives/pair_loop.hpp"
#include "grundy/primitives/parallel.hpp"

namespace grundy {
namespace {

// Every index of every phase is visited once; no piece of a phase starts
// before every index of the earlier phases is done; done(p) comes once per
// phase, once phases 0..p are all done. Phases of many sizes (empty ones
// too) and grains, on 1 to 4 threads; each index takes a little work, so
// that threads really overlap.
// Every task runs once, whatever the threads; with one thread, in order.
TEST(ForTasks, RunsEveryTaskOnce) {
  for (unsigned threads : {1u, 2u, 3u}) {
    for (std::size_t tasks : {0u, 1u, 2u, 7u}) {
      std::vector<std::atomic<int>> runs(tasks);
      std::vector<std::size_t> order;
      in_arena(threads, [&] {
        for_tasks(ParallelConfig{threads}, tasks, [&](std::size_t k) {
          runs[k].fetch_add(1);
          if (threads == 1) order.push_back(k);
        });
      });
      for (std::size_t k = 0; k < tasks; ++k) EXPECT_EQ(runs[k].load(), 1) << k << " of " << tasks << ", " << threads;
      if (threads == 1) {
        std::vector<std::size_t> want(tasks);
        for (std::size_t k = 0; k < tasks; ++k) want[k] = k;
        EXPECT_EQ(order, want);
      }
    }
  }
}

TEST(ForPhases, KeepsPhasesInOrderAndVisitsEveryIndexOnce) {
  std::mt19937_64 rng(7);
  std::vector<PhaseRange> phases;
  std::size_t at = 0;
  for (int p = 0; p < 300; ++p) {
    const std::size_t width = p % 17 == 5 ? 0 : rng() % 400;
    phases.push_back({at, at + width, 1 + rng() % 40});
    at += width;
  }
  const std::size_t total = at;
  // The phase of each index.
  std::vector<std::size_t> phase_of(total);
  for (std::size_t p = 0; p < phases.size(); ++p)
    for (std::size_t i = phases[p].begin; i < phases[p].end; ++i) phase_of[i] = p;

  for (unsigned threads : {1u, 2u, 3u, 4u}) {
    const auto visits = std::make_unique<std::atomic<int>[]>(total);
    const auto left = std::make_unique<std::atomic<std::size_t>[]>(phases.size());
    for (std::size_t p = 0; p < phases.size(); ++p) left[p] = phases[p].end - phases[p].begin;
    std::atomic<bool> early{false}, late_done{false};
    const auto finished_before = [&](std::size_t p) {  // phases 0..p-1 all done
      for (std::size_t q = 0; q < p; ++q)
        if (left[q].load() != 0) return false;
      return true;
    };
    std::vector<int> done_calls(phases.size(), 0);
    in_arena(threads, [&] {
      for_phases(
          ParallelConfig{threads}, phases,
          [&](std::size_t b, std::size_t e, std::size_t p) {
            if (p != phase_of[b]) early = true;  // named after another phase
            if (!finished_before(p)) early = true;
            for (std::size_t i = b; i < e; ++i) {
              if (phase_of[i] != p) early = true;  // a piece spanning phases
              volatile unsigned spin = 0;
              while (spin < 200) spin = spin + 1;
              visits[i].fetch_add(1);
              left[p].fetch_sub(1);
            }
          },
          [&](std::size_t p) {
            if (!finished_before(p + 1)) late_done = true;
            ++done_calls[p];  // once per phase: no two calls race on it
          });
    });
    EXPECT_FALSE(early) << threads << " threads";
    EXPECT_FALSE(late_done) << threads << " threads";
    for (std::size_t p = 0; p < phases.size(); ++p) ASSERT_EQ(done_calls[p], 1) << "phase " << p;
    for (std::size_t i = 0; i < total; ++i) ASSERT_EQ(visits[i].load(), 1) << "index " << i;
  }
}

// One thread of a pair arrives late at every barrier, past stalled_wait:
// each of the other's waits stalls, and from the barrier after
// PairBarrier::default_max_stalls of them on, wait() says so, the same answer on
// both threads at every barrier. (A thread descheduled for longer may add
// a stall sooner: only the first barrier and the last are pinned down.)
TEST(PairBarrier, SaysOnBothThreadsWhenItsWaitsStall) {
  constexpr unsigned kBarriers = PairBarrier::default_max_stalls + 2;
  PairBarrier barrier;
  std::vector<bool> said[2];
  std::thread late([&] {
    for (unsigned k = 0; k < kBarriers; ++k) {
      std::this_thread::sleep_for(stalled_wait + std::chrono::milliseconds(1));
      said[1].push_back(barrier.wait());
    }
  });
  for (unsigned k = 0; k < kBarriers; ++k) said[0].push_back(barrier.wait());
  late.join();
  EXPECT_EQ(said[0], said[1]);
  EXPECT_FALSE(said[0].front());
  EXPECT_TRUE(said[0].back());
  EXPECT_TRUE(std::is_sorted(said[0].begin(), said[0].end())) << "once stalled, it stays so";
}

}  // namespace
}  // namespace grundy
