// Files written so that a reader never sees half of them: a temporary file in
// the same folder, flushed, then renamed; and the output folder of a run.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace pv {

/// Writes `content` to `path` atomically: a temporary file in the same
/// folder, flushed and closed, then renamed over `path`. Throws
/// std::runtime_error naming the file on any failure, leaving `path` as it was.
void write_file_atomic(const std::string& path, const std::string& content);

/// Writes several files (path, content) so that they change together: every
/// temporary file is written and fsync'ed first, and only then are they all
/// renamed. A failed write (full disk, ...) removes the temporary files and
/// leaves every old file as it was; throws std::runtime_error naming the file.
void write_files_atomic(const std::vector<std::pair<std::string, std::string>>& files);

/// Creates the output folder `dir` and its parents if missing. Race-free: a
/// folder created by another run at the same moment is fine. Throws
/// std::runtime_error "<flag>: ..." when it cannot be created or is not a folder.
void make_out_dir(const std::string& dir, const std::string& flag);

}  // namespace pv
