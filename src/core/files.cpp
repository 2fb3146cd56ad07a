#include "core/files.h"

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>  // realpath's free
#include <cstring>
#include <fcntl.h>
#include <filesystem>  // create_directories
#include <pthread.h>   // pthread_sigmask
#include <set>
#include <stdexcept>
#include <sys/file.h>  // flock
#include <sys/stat.h>
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

/// How one target is written: a temporary file renamed over `file` (the
/// target itself, or the regular file its symbolic links lead to), or the
/// target written in place (a character device, a FIFO).
struct target {
  std::string path, file;
  bool in_place = false;
};

[[noreturn]] void refuse(const std::string& flag, const std::string& path, const std::string& why) {
  throw std::runtime_error((flag.empty() ? std::string() : flag + ": ") + "cannot write '" + path + "': " + why);
}

/// The folder a temporary file for `file` goes to must exist and be writable.
void check_folder(const std::string& flag, const std::string& path, const std::string& file) {
  const std::string dir = parent_dir(file);
  struct stat ds{};
  if (::stat(dir.c_str(), &ds) != 0)
    refuse(flag, path, "its folder '" + dir + "' " + (errno == ENOENT ? "does not exist" : std::strerror(errno)));
  if (!S_ISDIR(ds.st_mode)) refuse(flag, path, "'" + dir + "' is not a folder");
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    refuse(flag, path, "its folder '" + dir + "' is not writable (" + std::strerror(errno) + ")");
}

target plan(const std::string& path, const std::string& flag) {
  if (path.empty()) refuse(flag, path, "empty file name");
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno != ENOENT) refuse(flag, path, std::strerror(errno));
    check_folder(flag, path, path);  // a new file (or a dangling link, replaced)
    return {path, path, false};
  }
  if (S_ISDIR(st.st_mode)) refuse(flag, path, "it is a folder");
  if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) return {path, path, true};
  if (!S_ISREG(st.st_mode)) refuse(flag, path, "it is neither a file, a character device nor a FIFO");
  target t{path, path, false};
  struct stat ls{};
  if (::lstat(path.c_str(), &ls) == 0 && S_ISLNK(ls.st_mode)) {  // replace the file, keep the link
    if (char* r = ::realpath(path.c_str(), nullptr)) {
      t.file = r;
      std::free(r);
    }
  }
  check_folder(flag, path, t.file);
  return t;
}

/// Opens the device or FIFO `path` for writing in place (a FIFO without a
/// reader is an error at once, not a wait); returns the descriptor.
int open_in_place(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0)
    throw std::runtime_error("cannot write '" + path + "': " +
                             (errno == ENXIO ? std::string("a FIFO without a reader") : std::strerror(errno)));
  const int fl = ::fcntl(fd, F_GETFL);
  if (fl >= 0) ::fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
  return fd;
}

/// Writes `content` to fd (opened by open_in_place) and closes it.
void write_in_place(int fd, const std::string& path, const std::string& content) {
  // a reader that goes away: EPIPE, an error, not death by SIGPIPE
  sigset_t pipe_set, old;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  ::pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
  int err = 0;
  for (std::size_t off = 0; off < content.size();) {
    const ssize_t n = ::write(fd, content.data() + off, content.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      err = errno;
      break;
    }
    off += static_cast<std::size_t>(n);
  }
  if (err == EPIPE) {  // take the pending SIGPIPE before unblocking it
    const timespec zero{0, 0};
    ::sigtimedwait(&pipe_set, nullptr, &zero);
  }
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
  ::close(fd);
  if (err) throw std::runtime_error("cannot write '" + path + "': " + std::strerror(err));
}

/// Exclusive flock()s on folders, released when it goes out of scope. A
/// file system without flock (some network file systems) gets no lock.
class folder_locks {
 public:
  explicit folder_locks(std::set<std::string> dirs) {
    for (const auto& d : dirs) {  // in sorted order: two writers cannot deadlock
      const int fd = ::open(d.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (fd < 0) continue;
      int r;
      while ((r = ::flock(fd, LOCK_EX)) != 0 && errno == EINTR) {
      }
      if (r != 0) {
        ::close(fd);
        continue;
      }
      fds_.push_back(fd);
    }
  }
  ~folder_locks() {
    for (int fd : fds_) ::close(fd);  // closing releases the lock
  }
  folder_locks(const folder_locks&) = delete;
  folder_locks& operator=(const folder_locks&) = delete;

 private:
  std::vector<int> fds_;
};

}  // namespace

void check_write_target(const std::string& path, const std::string& flag) { plan(path, flag); }

void write_files_atomic(const std::vector<std::pair<std::string, std::string>>& files) {
  // every target first: nothing is written when one of them cannot take its file
  std::vector<target> plans;
  for (const auto& f : files) plans.push_back(plan(f.first, ""));
  std::vector<std::string> temps(files.size());
  std::vector<int> fds(files.size(), -1);  // the targets written in place, opened first
  std::set<std::string> dirs;
  try {
    for (std::size_t i = 0; i < files.size(); ++i)
      if (plans[i].in_place) fds[i] = open_in_place(plans[i].path);
    for (std::size_t i = 0; i < files.size(); ++i)
      if (!plans[i].in_place) {
        temps[i] = write_temp(plans[i].file, files[i].second);
        dirs.insert(parent_dir(plans[i].file));
      }
  } catch (...) {
    for (const auto& t : temps)
      if (!t.empty()) ::unlink(t.c_str());
    for (int fd : fds)
      if (fd >= 0) ::close(fd);
    throw;
  }
  {
    // Every file is on disk; a rename within a folder does not need space.
    // Under the lock, the set of another run is not renamed between ours.
    folder_locks lock(dirs);
    for (std::size_t i = 0; i < files.size(); ++i) {
      if (plans[i].in_place) continue;
      if (std::rename(temps[i].c_str(), plans[i].file.c_str()) != 0) {
        const int e = errno;
        for (std::size_t j = i; j < temps.size(); ++j)
          if (!temps[j].empty()) ::unlink(temps[j].c_str());
        for (int fd : fds)
          if (fd >= 0) ::close(fd);
        throw std::runtime_error("cannot rename " + temps[i] + " to " + plans[i].file + ": " + std::strerror(e) +
                                 (i ? " (the files before it were replaced)" : ""));
      }
    }
  }
  for (const auto& d : dirs) {  // make the renames durable
    const int dfd = ::open(d.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
      ::fsync(dfd);
      ::close(dfd);
    }
  }
  std::string failed;
  for (std::size_t i = 0; i < files.size(); ++i)
    if (fds[i] >= 0) try {
        write_in_place(fds[i], plans[i].path, files[i].second);
      } catch (const std::runtime_error& e) {
        if (failed.empty()) failed = e.what();
      }
  if (!failed.empty()) throw std::runtime_error(failed);
}

void write_file_atomic(const std::string& path, const std::string& content) {
  write_files_atomic({{path, content}});
}

std::string read_regular_file(const std::string& path, std::size_t max_bytes) {
  // O_NONBLOCK: opening a FIFO does not wait for a writer (it is refused below)
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw std::runtime_error("cannot read '" + path + "': " + std::strerror(errno));
  struct stat st{};
  std::string why;
  if (::fstat(fd, &st) != 0) why = std::strerror(errno);
  else if (S_ISDIR(st.st_mode)) why = "it is a folder, not a file";
  else if (!S_ISREG(st.st_mode)) why = "not a regular file (a device, a FIFO or a socket)";
  else if (std::uint64_t(st.st_size) > max_bytes)
    why = std::to_string(st.st_size) + " bytes, more than the " + std::to_string(max_bytes) + " accepted";
  std::string s;
  char buf[65536];
  while (why.empty()) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) why = std::strerror(errno);
    if (n <= 0) break;
    s.append(buf, std::size_t(n));
    if (s.size() > max_bytes) why = "more than " + std::to_string(max_bytes) + " bytes";
  }
  ::close(fd);
  if (!why.empty()) throw std::runtime_error("cannot read '" + path + "': " + why);
  return s;
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
