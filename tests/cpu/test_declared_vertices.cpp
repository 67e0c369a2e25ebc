// graph::declared_vertices: the vertex count a .gr or .mtx header declares,
// read before any load (sssp checks the ids it was given against it), and
// nothing wherever the loader must be the one to speak.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <string>

#include "graph/declared_vertices.hpp"
#include "graph/load.hpp"
#include "graph_test_support.hpp"
#include "test_support.hpp"

using namespace graph;

namespace {

std::string fixture(const std::string& name) { return (test_support::fixtures_dir() / name).string(); }

class DeclaredVerticesTest : public test_support::ScratchDirTest {
 protected:
  DeclaredVerticesTest() : ScratchDirTest("declared") {}
};

}  // namespace

TEST_F(DeclaredVerticesTest, HeadersOfGrAndMtxFilesGzipOrNot) {
  auto d = declared_vertices(fixture("small.gr"));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->vertices, 4u);
  d = declared_vertices(fixture("small_two_members.gr.gz"));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->vertices, 4u);
  EXPECT_EQ(d->line, 3u);
  d = declared_vertices(fixture("small_integer_general.mtx.gz"));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->vertices, 5u);
  // A rectangular matrix is a graph on the larger side, as the reader has it.
  d = declared_vertices(write_file("wide.mtx", "%%MatrixMarket matrix coordinate pattern general\n% c\n\n3 7 1\n1 7\n"));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->vertices, 7u);
  EXPECT_EQ(d->line, 4u);
  // The format given wins over the name.
  d = declared_vertices(write_file("road.txt", "c x\np sp 9 0\n"), Format::Dimacs);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->vertices, 9u);
}

TEST_F(DeclaredVerticesTest, NothingWhereTheLoaderMustSpeak) {
  // Formats without a declared count.
  EXPECT_FALSE(declared_vertices(fixture("small_weighted.el")));
  EXPECT_FALSE(declared_vertices(write_file("g.csv", "source,target\n0,1\n")));
  EXPECT_FALSE(declared_vertices(write_file("road.txt", "c x\np sp 9 0\n")));  // an edge list by its name
  // Standard input, a missing file, a name without a format.
  EXPECT_FALSE(declared_vertices("-", Format::Dimacs));
  EXPECT_FALSE(declared_vertices((dir_ / "missing.gr").string()));
  EXPECT_FALSE(declared_vertices(write_file("graph.xyz", "p sp 9 0\n")));
  // Bad or missing headers: the loader's error, not a guess.
  EXPECT_FALSE(declared_vertices(write_file("bad.gr", "c x\na 1 2 3\np sp 9 1\n")));
  EXPECT_FALSE(declared_vertices(write_file("short.gr", "p sp 9\n")));
  EXPECT_FALSE(declared_vertices(write_file("empty.gr", "")));
  EXPECT_FALSE(declared_vertices(write_file("bad.mtx", "%%MatrixMarket matrix array real general\n3 3\n")));
  EXPECT_FALSE(declared_vertices(write_file("sym.mtx", "%%MatrixMarket matrix coordinate real symmetric\n3 4 0\n")));
  // A header line cut at the end of the first MiB ("p sp 123" of
  // "p sp 123456789 0") is not read.
  const std::size_t before = (std::size_t{1} << 20) - 8;
  std::string comments;
  while (before - comments.size() > 80) comments += "c " + std::string(70, 'x') + "\n";
  comments += "c " + std::string(before - comments.size() - 3, 'x') + "\n";
  ASSERT_EQ(comments.size(), before);
  EXPECT_FALSE(declared_vertices(write_file("late.gr", comments + "p sp 123456789 0\n")));
  // A FIFO is not read: its bytes would be gone before the loader reads them.
  const std::string fifo = (dir_ / "pipe.gr").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_FALSE(declared_vertices(fifo));
}
