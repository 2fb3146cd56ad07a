#include "core/files.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>  // create_directories
#include <stdexcept>
#include <unistd.h>

namespace pv {

namespace {

std::string temp_name(const std::string& path) { return path + ".tmp." + std::to_string(::getpid()); }

/// Writes `content` to a new temporary file for `path` and fsyncs it; returns
/// its name, or removes it and throws.
std::string write_temp(const std::string& path, const std::string& content) {
  const std::string tmp = temp_name(path);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot create " + tmp + ": " + std::strerror(errno));
  auto give_up = [&](const char* what) {
    const int e = errno;
    ::close(fd);
    ::unlink(tmp.c_str());
    throw std::runtime_error(std::string(what) + " " + tmp + ": " + std::strerror(e));
  };
  std::size_t off = 0;
  while (off < content.size()) {
    const ssize_t n = ::write(fd, content.data() + off, content.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) give_up("cannot write");
    off += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) give_up("cannot flush");
  if (::close(fd) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    throw std::runtime_error("cannot close " + tmp + ": " + std::strerror(e));
  }
  return tmp;
}

std::string parent_dir(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

void write_files_atomic(const std::vector<std::pair<std::string, std::string>>& files) {
  std::vector<std::string> temps;
  try {
    for (const auto& [path, content] : files) temps.push_back(write_temp(path, content));
  } catch (...) {
    for (const auto& t : temps) ::unlink(t.c_str());
    throw;
  }
  // Every file is on disk; a rename within a folder does not need space.
  for (std::size_t i = 0; i < files.size(); ++i)
    if (std::rename(temps[i].c_str(), files[i].first.c_str()) != 0) {
      const int e = errno;
      for (std::size_t j = i; j < temps.size(); ++j) ::unlink(temps[j].c_str());
      throw std::runtime_error("cannot rename " + temps[i] + " to " + files[i].first + ": " +
                               std::strerror(e) + (i ? " (the files before it were replaced)" : ""));
    }
  for (const auto& [path, content] : files) {  // make the renames durable
    const int dfd = ::open(parent_dir(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
      ::fsync(dfd);
      ::close(dfd);
    }
  }
}

void write_file_atomic(const std::string& path, const std::string& content) {
  write_files_atomic({{path, content}});
}

void make_out_dir(const std::string& dir, const std::string& flag) {
  std::error_code ec, ec2;
  std::filesystem::create_directories(dir, ec);
  // fine whether this run, an earlier one or another run at the same moment made it
  if (std::filesystem::is_directory(dir, ec2)) return;
  if (std::filesystem::exists(dir, ec2))
    throw std::runtime_error(flag + ": '" + dir + "' exists and is not a folder");
  throw std::runtime_error(flag + ": cannot create folder '" + dir + "': " +
                           (ec ? ec.message() : std::string("unknown error")));
}

}  // namespace pv
