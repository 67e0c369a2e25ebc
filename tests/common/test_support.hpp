// Helpers shared by the test suites: where the data lives and how to skip.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace test_support {

// ../shared/datasets next to the project, or $SSSP_DATASETS when set (the GPU
// machine gets a carried copy there).
inline std::filesystem::path datasets_dir() {
  if (const char* env = std::getenv("SSSP_DATASETS"); env && *env) return env;
  return SSSP_DATASETS_DIR;
}

inline std::filesystem::path fixtures_dir() { return SSSP_FIXTURES_DIR; }

inline bool contains(const std::string& text, const std::string& piece) {
  return text.find(piece) != std::string::npos;
}

// A whole file as text ("" when it cannot be read).
inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// Sets an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (old_.empty())
      ::unsetenv(name_);
    else
      ::setenv(name_, old_.c_str(), 1);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::string old_;
};

// A scratch directory for files a test writes; removed by the caller.
inline std::filesystem::path scratch_dir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("sssp_test_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace test_support

// Skips (visibly) when a shared dataset file is absent.
#define SKIP_IF_NO_DATASET(relative_path)                                                  \
  do {                                                                                     \
    if (!std::filesystem::exists(test_support::datasets_dir() / (relative_path)))          \
      GTEST_SKIP() << "shared dataset " << (test_support::datasets_dir() / (relative_path)) \
                   << " not found; skipping";                                              \
  } while (0)
