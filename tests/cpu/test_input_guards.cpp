// Hostile input, second pass: what the readers and the loader must refuse or
// survive beyond the per-reader suites. Numbers past the double range
// written without an exponent; a file that shrinks while it is mapped; /proc
// files (no size); a header line of a hundred megabytes; control bytes
// echoed from a file; and every allocation path held to the host memory
// budget (gzip inflation, streams, parse windows, cache arrays, batches),
// with malformed budget values refused.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "graph/error.hpp"
#include "graph/io/binary_cache.hpp"
#include "graph/io/file_data.hpp"
#include "graph/load.hpp"
#include "graph/memory_budget.hpp"
#include "graph/reference.hpp"
#include "graph_test_support.hpp"
#include "test_support.hpp"

using namespace graph;
namespace fs = std::filesystem;

namespace {

using test_support::ScopedEnv;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizerBuild = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizerBuild = true;
#else
constexpr bool kAddressSanitizerBuild = false;
#endif
#else
constexpr bool kAddressSanitizerBuild = false;
#endif

LoadOptions quiet() { return test_support::quiet_load(); }

const std::string kRealBanner = "%%MatrixMarket matrix coordinate real general\n";

class InputGuards : public test_support::ScratchDirTest {
 protected:
  InputGuards() : ScratchDirTest("guards") {}

  void expect_error(const std::string& name, const std::string& bytes, InputErrorKind kind, std::uint64_t line,
                    const LoadOptions& options = quiet()) {
    test_support::expect_load_error(write_file(name, bytes), options, kind, line, name);
  }

  // Gzip of `text`, written as dir/name.
  std::string write_gzip(const std::string& name, const std::string& text) {
    const std::string path = (dir_ / name).string();
    gzFile out = gzopen(path.c_str(), "wb9");
    EXPECT_NE(out, nullptr);
    std::size_t at = 0;
    while (at < text.size()) {
      const auto piece = static_cast<unsigned>(std::min<std::size_t>(text.size() - at, 1u << 20));
      EXPECT_EQ(gzwrite(out, text.data() + at, piece), static_cast<int>(piece));
      at += piece;
    }
    gzclose(out);
    return path;
  }
};

// Expects `f` to throw InputError of `kind` whose message contains `piece`.
template <class F>
void expect_input_error(F&& f, InputErrorKind kind, const std::string& piece) {
  try {
    f();
    ADD_FAILURE() << "no error (expected one mentioning '" << piece << "')";
  } catch (const InputError& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    EXPECT_NE(std::string(e.what()).find(piece), std::string::npos) << e.what();
  }
}

}  // namespace

// ---------------------------------------------------------------- numbers

// A real weight beyond the double range written without an exponent was read
// as 0 (from_chars reports "out of range" either way, and the spelling was
// taken to mean underflow): a wrong distance with exit 0.
TEST_F(InputGuards, RealWeightsBeyondDoubleRangeOverflowWhateverTheirSpelling) {
  const std::string huge = "1" + std::string(309, '0');
  expect_error("a.mtx", kRealBanner + "2 2 1\n1 2 " + huge + "\n", InputErrorKind::Overflow, 3);
  expect_error("b.mtx", kRealBanner + "2 2 1\n1 2 -" + huge + "\n", InputErrorKind::BadWeight, 3);
  expect_error("c.mtx", kRealBanner + "2 2 1\n1 2 " + std::string(420, '9') + "e-10\n", InputErrorKind::Overflow, 3);
  expect_error("d.mtx", kRealBanner + "2 2 1\n1 2 " + huge + ".5\n", InputErrorKind::Overflow, 3);
  expect_error("e.el", "0 1 2.5\n1 2 " + huge + "\n", InputErrorKind::Overflow, 2);
  expect_error("f.el", "0 1 2.5\n1 2 0." + std::string(400, '0') + "1e800\n", InputErrorKind::Overflow, 2);
  // Tiny values still underflow to 0, however they are written.
  for (const std::string& tiny :
       std::vector<std::string>{"0." + std::string(400, '0') + "1", "1e-400", std::string(420, '1') + "e-900"}) {
    const auto g = load_graph(write_file("tiny.mtx", kRealBanner + "2 2 1\n1 2 " + tiny + "\n"), quiet());
    ASSERT_TRUE(std::holds_alternative<FloatCsr>(g)) << tiny;
    EXPECT_EQ(std::get<FloatCsr>(g).weights, std::vector<float>{0.0f}) << tiny;
  }
}

// ---------------------------------------------------------------- odd files

// Truncating a mapped file under the reader raised SIGBUS: the process died
// with no message. Now the reads see zeros and the loader reports it.
TEST_F(InputGuards, AFileThatShrinksWhileMappedIsReportedNotFatal) {
  std::string text = "0 1 5\n";
  while (text.size() < (4u << 20)) text += text;
  const std::string path = write_file("g.el", text);
  const io::FileData file = io::FileData::open(path);
  ASSERT_EQ(file.size(), text.size());
  ASSERT_EQ(::truncate(path.c_str(), 4096), 0);
  // Every page past the new end would fault; each now reads as zeros.
  std::uint64_t zeros = 0;
  for (std::size_t i = 0; i < file.size(); i += 4096) zeros += file.data()[i] == '\0';
  EXPECT_GT(zeros, 0u);
  expect_input_error([&] { file.check_unchanged(); }, InputErrorKind::Truncated, "shrank while it was being read");
}

TEST_F(InputGuards, AFileChangedInPlaceWhileReadIsReported) {
  const std::string path = write_file("g.el", "0 1 5\n1 2 5\n");
  const io::FileData file = io::FileData::open(path);
  std::ofstream(path, std::ios::app) << "2 3 5\n";
  expect_input_error([&] { file.check_unchanged(); }, InputErrorKind::BadToken, "changed while it was being read");
}

// /proc files report size 0 and were read as empty.
TEST_F(InputGuards, FilesWithoutASizeAreReadToTheirEnd) {
  const io::FileData status = io::FileData::open("/proc/self/status");
  EXPECT_GT(status.size(), 0u);
  EXPECT_NE(std::string(status.data(), status.size()).find("Pid:"), std::string::npos);
}

// Binary data from a device or pipe is refused at its first megabyte, not
// read until the memory budget runs out.
TEST_F(InputGuards, BinaryStreamsAreRefusedEarly) {
  expect_input_error([] { io::FileData::open("/dev/zero"); }, InputErrorKind::BadToken, "binary data");
  expect_input_error([] { io::FileData::open("/dev/urandom"); }, InputErrorKind::BadToken, "binary data");
}

TEST_F(InputGuards, StreamsAreHeldToTheMemoryBudget) {
  const std::string fifo = (dir_ / "g.el").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] {
    const int fd = ::open(fifo.c_str(), O_WRONLY);
    const std::string lines(1 << 20, '\n');
    // Stops when the reader gives up (EPIPE) or after 64 MB.
    ::signal(SIGPIPE, SIG_IGN);
    for (int i = 0; i < 64 && fd >= 0; ++i)
      if (::write(fd, lines.data(), lines.size()) < 0) break;
    if (fd >= 0) ::close(fd);
  });
  const ScopedEnv limit("SSSP_HOST_MEMORY_LIMIT", "8M");
  expect_input_error([&] { io::FileData::open(fifo); }, InputErrorKind::Overflow, "SSSP_HOST_MEMORY_LIMIT");
  writer.join();
}

// A 4.6 MB gzip of newlines inflated to gigabytes under a 64 MB limit.
TEST_F(InputGuards, GzipInflationIsHeldToTheMemoryBudget) {
  const std::string path = write_gzip("bomb.el.gz", std::string(200u << 20, '\n'));
  ASSERT_LT(fs::file_size(path), 1u << 20);
  const ScopedEnv limit("SSSP_HOST_MEMORY_LIMIT", "64M");
  expect_input_error([&] { load_graph(path, quiet()); }, InputErrorKind::Overflow, "decompressing");
}

// A file of blank lines sized its parse windows at several times its bytes.
TEST_F(InputGuards, ParseWindowsAreHeldToTheMemoryBudget) {
  const std::string path = write_file("blank.el", std::string(24u << 20, '\n') + "0 1 3\n");
  {
    const ScopedEnv limit("SSSP_HOST_MEMORY_LIMIT", "64M");
    expect_input_error([&] { load_graph(path, quiet()); }, InputErrorKind::Overflow, "parsing this file");
  }
  EXPECT_EQ(num_arcs(load_graph(path, quiet())), 1u);  // without the limit it loads
}

// A sparse cache declaring gigabytes of arrays in a few kilobytes on disk
// was allocated and read in full before its checksum failed.
TEST_F(InputGuards, CacheArraysAreHeldToTheMemoryBudget) {
  IntCsr g;
  g.num_vertices = 3;
  g.offsets = {0, 1, 2, 2};
  g.targets = {1, 2};
  g.weights = {4, 5};
  const std::string path = (dir_ / "g.bin").string();
  io::write_cache(path, AnyCsr(g), io::CacheInfo{});
  // Declare 16M vertices and no arcs, and make the file as long as that
  // layout (a hole: nothing written).
  std::string bytes = test_support::read_text(path);
  const std::uint64_t vertices = 16u << 20, arcs = 0;
  std::memcpy(&bytes[16], &vertices, 8);
  std::memcpy(&bytes[24], &arcs, 8);
  std::uint32_t key_bytes = 0, rule_bytes = 0;
  std::memcpy(&key_bytes, &bytes[88], 4);
  std::memcpy(&rule_bytes, &bytes[92], 4);
  const auto pad8 = [](std::uint64_t n) { return (n + 7) / 8 * 8; };
  const std::uint64_t total = pad8(128 + key_bytes + rule_bytes) + pad8((vertices + 1) * 8);
  const std::string sparse = write_file("sparse.bin", bytes.substr(0, 128 + key_bytes + rule_bytes));
  ASSERT_EQ(::truncate(sparse.c_str(), static_cast<off_t>(total)), 0);
  const ScopedEnv limit("SSSP_HOST_MEMORY_LIMIT", "64M");
  expect_input_error([&] { io::read_cache(sparse); }, InputErrorKind::Overflow, "cache's arrays");
}

// --sources with many ids under a memory limit threw bad_alloc inside an
// OpenMP region, which ends the process.
TEST_F(InputGuards, BatchedDijkstraIsHeldToTheBudget) {
  IntCsr g;
  g.num_vertices = 100000;
  g.offsets.assign(g.num_vertices + 1, 0);
  const std::vector<vertex_id> sources(20000, 0);
  {
    const ScopedEnv limit("SSSP_HOST_MEMORY_LIMIT", "256M");
    expect_input_error([&] { dijkstra_batch(g, sources, 4); }, InputErrorKind::Overflow, "distance rows");
  }
  if (kAddressSanitizerBuild) return;  // RLIMIT_AS cannot be lowered under ASan's shadow memory
  // A real address-space limit is part of the budget too: still a refusal
  // on this thread, before any row is allocated.
  struct rlimit saved {};
  ASSERT_EQ(::getrlimit(RLIMIT_AS, &saved), 0);
  struct rlimit low = saved;
  low.rlim_cur = 4ull << 30;
  if (saved.rlim_max != RLIM_INFINITY && saved.rlim_max < low.rlim_cur) low.rlim_cur = saved.rlim_max;
  ASSERT_EQ(::setrlimit(RLIMIT_AS, &low), 0);
  bool refused = false;
  try {
    dijkstra_batch(g, sources, 4);
  } catch (const InputError& e) {
    refused = e.kind() == InputErrorKind::Overflow;
  } catch (const std::bad_alloc&) {
    refused = true;
  }
  ASSERT_EQ(::setrlimit(RLIMIT_AS, &saved), 0);
  EXPECT_TRUE(refused);
}

TEST_F(InputGuards, MalformedBudgetValuesAreRefused) {
  for (const char* bad : {"512MB", "0.5G", "abc", "", "-1", "0", "12 M", "1e9"}) {
    const ScopedEnv limit("SSSP_HOST_MEMORY_LIMIT", bad);
    expect_input_error([] { detail::host_memory_budget(); }, InputErrorKind::BadArgument, "SSSP_HOST_MEMORY_LIMIT");
  }
  for (const auto& [good, bytes] : std::vector<std::pair<const char*, std::uint64_t>>{
           {"4096", 4096}, {"64k", 64u << 10}, {"512M", 512u << 20}, {"2G", 2ull << 30}}) {
    const ScopedEnv limit("SSSP_HOST_MEMORY_LIMIT", good);
    EXPECT_LE(detail::host_memory_budget(), bytes) << good;
    EXPECT_GE(detail::host_memory_budget(), std::min<std::uint64_t>(bytes, 1u << 20)) << good;
  }
}

// ---------------------------------------------------------------- headers and terminals

// A 100 MB banner of one-letter words cost 11x its size in a token list.
// Measured in a child process, whose peak resident memory is its own.
TEST_F(InputGuards, AHugeHeaderLineCostsNoMoreThanItsBytes) {
  std::string banner = "%%MatrixMarket";
  while (banner.size() < (48u << 20)) banner += " a";
  const std::string path = write_file("wide.mtx", banner + "\n2 2 1\n1 2 3\n");
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    struct rusage before {}, after {};
    ::getrusage(RUSAGE_SELF, &before);
    bool refused = false;
    try {
      load_graph(path, quiet());
    } catch (const InputError& e) {
      refused = e.kind() == InputErrorKind::BadHeader && std::strstr(e.what(), "more than 5") != nullptr;
    }
    ::getrusage(RUSAGE_SELF, &after);
    const long grown_kb = after.ru_maxrss - before.ru_maxrss;
    // The mapped file itself (48 MB) may count; a token list would add ~800 MB.
    ::_exit(refused && grown_kb < (120 << 10) ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "refused with bounded memory";
}

// Bytes of a token reached the terminal raw: escape sequences could drive it.
TEST_F(InputGuards, ControlBytesFromFilesAreEscapedInMessages) {
  const std::string path = write_file("esc.mtx", kRealBanner + "2 2 1\n1 2 \x1b[2J\x9b" "1\n");
  try {
    load_graph(path, quiet());
    FAIL() << "no error";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\x1b'), std::string::npos) << what;
    EXPECT_EQ(what.find('\x9b'), std::string::npos) << what;
    EXPECT_NE(what.find("\\x1b[2J\\x9b1"), std::string::npos) << what;
  }
  EXPECT_EQ(printable("caf\xc3\xa9 \xe2\x80\x94 ok"), "caf\xc3\xa9 \xe2\x80\x94 ok");  // UTF-8 stays
  EXPECT_EQ(printable("\xc2\x9b" "a\x7f\n"), "\\xc2\\x9ba\\x7f\\x0a");                   // C1, DEL, newline
  EXPECT_EQ(printable("\xed\xa0\x80\xf4\x90\x80\x80"), "\\xed\\xa0\\x80\\xf4\\x90\\x80\\x80");  // surrogate, > U+10FFFF
}

// A cache's strings are printed in reports: control bytes there are refused.
TEST_F(InputGuards, ControlBytesInCacheStringsAreRefused) {
  IntCsr g;
  g.num_vertices = 2;
  g.offsets = {0, 1, 1};
  g.targets = {1};
  g.weights = {1};
  io::CacheInfo info;
  info.weight_rule = "file \x1b]0;owned\x07";
  const std::string path = (dir_ / "g.bin").string();
  io::write_cache(path, AnyCsr(g), info);
  expect_input_error([&] { io::read_cache(path); }, InputErrorKind::CorruptCache, "control bytes");
}

TEST_F(InputGuards, ASymlinkLoopIsCannotOpen) {
  const std::string a = (dir_ / "a.mtx").string(), b = (dir_ / "b.mtx").string();
  fs::create_symlink(b, a);
  fs::create_symlink(a, b);
  test_support::expect_load_error(a, quiet(), InputErrorKind::CannotOpen, 0, "a symlink loop");
  LoadOptions cached = quiet();
  cached.use_cache = true;
  test_support::expect_load_error(a, cached, InputErrorKind::CannotOpen, 0, "a symlink loop, cached");
}
