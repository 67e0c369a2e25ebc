// Output files, shared by every writer (distances, Matrix Market, the sssp
// JSON record). What the target is decides how it is written:
//  - missing or a regular file: the data goes to a temporary file beside it,
//    renamed over it only after every byte was written and flushed, so a
//    reader never sees a partial file and an error leaves the old one intact
//    (its permission bits are kept);
//  - a FIFO, character device or socket: written in place, because a rename
//    would put a regular file where the FIFO or device was (`--output
//    /dev/null` must not replace the system's /dev/null);
//  - this process's own descriptor (/dev/stdout, /dev/stderr, /dev/fd/N,
//    /proc/self/fd/N): written through that descriptor, in place, whatever
//    it is open on: `--output /dev/stdout > file` must fill the file the
//    shell opened (at its offset, appending where it appends), not rename a
//    new one over it;
//  - a symlink: followed, so the link stays a link and the file it points to
//    (or, dangling, would point to) gets the data by the rules above;
//  - a directory or block device: refused.
// Several files can be put in place together: finish() every one (the step
// that may fail), then commit() them.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>

namespace graph::detail {

class AtomicFile {
 public:
  // Opens the temporary file, or the target itself when it is written in
  // place (a FIFO's open waits for its reader). Throws InputError(CannotOpen)
  // naming `path`.
  explicit AtomicFile(std::string path);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  // Not committed (an exception is unwinding): the temporary file is removed
  // and the target left as it was.
  ~AtomicFile();

  void write(const char* data, std::size_t bytes);
  void write(const std::string& text) { write(text.data(), text.size()); }

  // Flushes and closes; nothing may be written after it. On failure the
  // target is untouched (in place: it has what reached it so far).
  void finish();
  // finish() unless done, then renames the temporary file over the target
  // (nothing more for a target written in place).
  void commit();

  // True for a FIFO, device or socket, which gets the bytes as they are written.
  bool in_place() const { return in_place_; }
  const std::string& path() const { return path_; }

 private:
  [[noreturn]] void fail(const std::string& what, int error);

  std::string path_;       // as the caller named it, for messages
  std::string target_;     // path_ with symlinks followed: what the rename replaces
  std::string temp_path_;  // empty when written in place
  std::FILE* file_ = nullptr;
  bool in_place_ = false;
  bool finished_ = false;
  bool committed_ = false;
  bool failed_ = false;  // a write, flush or rename failed: nothing may be committed
};

}  // namespace graph::detail
