// Distance files: one line per vertex, "id distance", ids as in the input
// file (id_base added), -1 for unreachable; the format of the reference .dist
// files that come with the real test graphs. Several sources write a table in
// the same conventions (write_distance_table, write_target_distances).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "graph/atomic_file.hpp"
#include "graph/types.hpp"

namespace graph {

// Reads a .dist file into 0-based order; unreachable = -1. Throws InputError
// naming file and line on malformed lines, duplicate or out-of-range ids.
std::vector<double> read_distances(const std::string& path, std::uint32_t id_base = 1);

// Writes through detail::AtomicFile (graph/atomic_file.hpp): a regular file
// is replaced atomically (temporary file, then rename: no partial output on
// error), a FIFO or device written in place, a symlink followed.
template <class Dist>
void write_distances(const std::string& path, const std::vector<Dist>& dist, Dist infinity,
                     std::uint32_t id_base = 1);

// Several sources: a comment line naming them, "# id d(S1) d(S2) ...", then
// one line per vertex, "id d1 d2 ...", in source order; -1 for unreachable.
// rows[i] holds source i's distances (every row as long as the first).
// source_ids are as the user sees them; vertex ids get id_base added.
// Atomic like write_distances. Throws std::invalid_argument when the rows
// and source_ids disagree in number or length.
template <class Dist>
void write_distance_table(const std::string& path, const std::vector<std::uint64_t>& source_ids,
                          const std::vector<std::vector<Dist>>& rows, Dist infinity, std::uint32_t id_base = 1);

// Distances from some sources to some targets: a comment line
// "# source target distance", then one "S T d" line per pair, sources in
// order and, for each, the targets in order; -1 for unreachable.
// distances[i][j] is source i's distance to target j; ids as the user sees
// them. Atomic like write_distances. Throws std::invalid_argument when the
// sizes disagree.
template <class Dist>
void write_target_distances(const std::string& path, const std::vector<std::uint64_t>& source_ids,
                            const std::vector<std::uint64_t>& target_ids,
                            const std::vector<std::vector<Dist>>& distances, Dist infinity);

// One predecessor row per source (or per source's targets): ids 0-based,
// kNoVertex for none; written back as the user's ids, -1 for none.
using PredecessorRows = std::vector<std::vector<vertex_id>>;

// The same three into a file the caller opened, for outputs that must be put
// in place together: every byte is written and `out` finished (the step that
// may fail), and out.commit() is left to the caller. Dropped uncommitted, the
// file leaves its target as it was. With predecessors, each distance is
// followed by its vertex's predecessor ("id distance predecessor"; the table
// and target forms name the columns in their comment line).
template <class Dist>
void write_distances(detail::AtomicFile& out, const std::vector<Dist>& dist, Dist infinity,
                     std::uint32_t id_base = 1, const std::vector<vertex_id>* predecessors = nullptr);
template <class Dist>
void write_distance_table(detail::AtomicFile& out, const std::vector<std::uint64_t>& source_ids,
                          const std::vector<std::vector<Dist>>& rows, Dist infinity, std::uint32_t id_base = 1,
                          const PredecessorRows* predecessors = nullptr);
template <class Dist>
void write_target_distances(detail::AtomicFile& out, const std::vector<std::uint64_t>& source_ids,
                            const std::vector<std::uint64_t>& target_ids,
                            const std::vector<std::vector<Dist>>& distances, Dist infinity,
                            const PredecessorRows* predecessors = nullptr, std::uint32_t id_base = 1);

// The same into a stream (`--output -`: standard output), flushed at the
// end. Throws std::runtime_error when the stream fails.
template <class Dist>
void write_distances(std::ostream& out, const std::vector<Dist>& dist, Dist infinity, std::uint32_t id_base = 1,
                     const std::vector<vertex_id>* predecessors = nullptr);
template <class Dist>
void write_distance_table(std::ostream& out, const std::vector<std::uint64_t>& source_ids,
                          const std::vector<std::vector<Dist>>& rows, Dist infinity, std::uint32_t id_base = 1,
                          const PredecessorRows* predecessors = nullptr);
template <class Dist>
void write_target_distances(std::ostream& out, const std::vector<std::uint64_t>& source_ids,
                            const std::vector<std::uint64_t>& target_ids,
                            const std::vector<std::vector<Dist>>& distances, Dist infinity,
                            const PredecessorRows* predecessors = nullptr, std::uint32_t id_base = 1);

}  // namespace graph
