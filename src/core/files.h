// Files written so that a reader never sees half of them: a temporary file in
// the same folder, flushed, then renamed; and the output folder of a run.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace pv {

/// Writes `content` to `path` atomically: a temporary file in the same
/// folder, flushed and closed, then renamed over `path`. Throws
/// std::runtime_error naming the file on any failure, leaving `path` as it was.
void write_file_atomic(const std::string& path, const std::string& content);

/// Checks that `path` can take a report, before anything is written (before a
/// run: a bad --junit found after an hour of checking loses the hour). Fine:
/// a missing file in an existing, writable folder; a regular file (behind
/// symbolic links too: the file is replaced, the links stay); a character
/// device (/dev/null, a terminal) or a FIFO, which are written in place, never
/// replaced. Throws std::runtime_error "<flag>: '<path>' ..." naming the
/// problem: a folder, a socket or block device, a missing or read-only folder.
void check_write_target(const std::string& path, const std::string& flag);

/// Writes several files (path, content) so that they change together: every
/// target is checked first (check_write_target: a folder in the way of one
/// file stops the write before any file changes), every temporary file is
/// written and fsync'ed, and only then are they all renamed, under an
/// exclusive lock (flock) on each of their folders, so that two runs writing
/// the same set leave all the files of one of them. A character device or a
/// FIFO is written in place, after the renames (a FIFO without a reader is an
/// error, not a wait). A failed write (full disk, ...) removes the temporary
/// files and leaves every old file as it was; throws std::runtime_error
/// naming the file.
void write_files_atomic(const std::vector<std::pair<std::string, std::string>>& files);

/// Largest report read back (merge, html, --baseline): reports are a few
/// hundred kB; a larger file is refused, not read into memory.
inline constexpr std::size_t max_report_bytes = 64u << 20;

/// The contents of the regular file `path`, at most `max_bytes`: a folder, a
/// device or a FIFO is refused without reading from it or waiting for a
/// writer (/dev/zero, a FIFO nobody writes), as is a longer file. Throws
/// std::runtime_error "cannot read '<path>': <why>".
std::string read_regular_file(const std::string& path, std::size_t max_bytes);

/// Creates the output folder `dir` and its parents if missing. Race-free: a
/// folder created by another run at the same moment is fine. Throws
/// std::runtime_error "<flag>: ..." when it cannot be created or is not a folder.
void make_out_dir(const std::string& dir, const std::string& flag);

}  // namespace pv
