// Strategy names round-trip, and unknown names are refused with the name in
// the message (the command line and the reports rely on both).
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "sssp/solver.hpp"

TEST(SsspStrategyNames, RoundTrip) {
  std::set<std::string> seen;
  for (const sssp::Strategy s : sssp::all_strategies()) {
    const std::string name = sssp::to_string(s);
    EXPECT_EQ(sssp::parse_strategy(name), s) << name;
    EXPECT_TRUE(seen.insert(name).second) << "duplicate name " << name;
  }
  EXPECT_EQ(seen, (std::set<std::string>{"near-far", "bucket-sort", "bucket-multisplit", "bellman-ford"}));
}

TEST(SsspStrategyNames, OrderIsNearFarFirst) {
  // Reports compare every strategy with near-far, listed first.
  ASSERT_FALSE(sssp::all_strategies().empty());
  EXPECT_EQ(sssp::all_strategies().front(), sssp::Strategy::NearFar);
}

TEST(SsspStrategyNames, UnknownNamesAreRefused) {
  for (const char* bad : {"", "all", "Near-Far", "nearfar", "bucket", "dijkstra", "bellman-ford "}) {
    try {
      sssp::parse_strategy(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("'") + bad + "'"), std::string::npos) << e.what();
    }
  }
}
