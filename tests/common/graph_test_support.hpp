// Helpers shared by the graph-input tests: quiet load options, a per-test
// scratch directory, CSR comparison, and the one check every rejection test
// makes (error kind, line, and a message that starts "FILE:LINE: ").
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <variant>

#include "graph/csr.hpp"
#include "graph/error.hpp"
#include "graph/load.hpp"
#include "test_support.hpp"

namespace test_support {

// No progress lines on stderr; threads == 0 means all cores.
inline graph::LoadOptions quiet_load(int threads = 0) {
  graph::LoadOptions o;
  o.progress = false;
  o.threads = threads;
  return o;
}

template <class W>
void expect_same_csr(const graph::Csr<W>& a, const graph::Csr<W>& b) {
  EXPECT_EQ(a.num_vertices, b.num_vertices);
  EXPECT_EQ(a.offsets, b.offsets);
  EXPECT_EQ(a.targets, b.targets);
  EXPECT_EQ(a.weights, b.weights);
}

inline void expect_same_csr(const graph::AnyCsr& a, const graph::AnyCsr& b) {
  ASSERT_EQ(a.index(), b.index());
  if (std::holds_alternative<graph::IntCsr>(a))
    expect_same_csr(std::get<graph::IntCsr>(a), std::get<graph::IntCsr>(b));
  else
    expect_same_csr(std::get<graph::FloatCsr>(a), std::get<graph::FloatCsr>(b));
}

// Loads `path` and expects an InputError of `kind` at `line` whose message
// starts "PATH:LINE: " ("PATH: " when line is 0). `what` describes the input.
inline void expect_load_error(const std::string& path, const graph::LoadOptions& options,
                              graph::InputErrorKind kind, std::uint64_t line, const std::string& what) {
  try {
    graph::load_graph(path, options);
    ADD_FAILURE() << "no error for " << what;
  } catch (const graph::InputError& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    EXPECT_EQ(e.line(), line) << e.what();
    const std::string prefix = line > 0 ? path + ":" + std::to_string(line) + ": " : path + ": ";
    EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
  }
}

// A fixture with a scratch directory per test, removed afterwards.
class ScratchDirTest : public ::testing::Test {
 protected:
  explicit ScratchDirTest(std::string prefix) : prefix_(std::move(prefix)) {}
  void SetUp() override {
    dir_ = scratch_dir(prefix_ + "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Writes `bytes` to dir/name and returns the path.
  std::string write_file(const std::string& name, const std::string& bytes) const {
    const auto path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }

  std::filesystem::path dir_;

 private:
  std::string prefix_;
};

}  // namespace test_support
