// Progress of a long run on stderr, when stderr is a terminal: "what: k/N
// units, about T left", redrawn in place at most every 0.2 s and erased at
// the end. Off a terminal (a CI log, a file, a pipe) it writes nothing, so
// that logs and reports stay free of it.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>
#include <unistd.h>

namespace pv {

class progress {
 public:
  /// `what` names the run ("check", "verify"), `unit` what is counted
  /// ("laws", "properties and claims"); total: how many there are.
  progress(std::string what, std::string unit, long total, bool enabled = ::isatty(STDERR_FILENO) == 1)
      : what_(std::move(what)), unit_(std::move(unit)), total_(total), on_(enabled && total > 0),
        t0_(clock::now()) {
    draw(true);
  }
  progress(const progress&) = delete;
  progress& operator=(const progress&) = delete;
  ~progress() { finish(); }

  /// n more units done.
  void step(long n = 1) {
    done_ += n;
    draw(done_ >= total_);
  }

  /// Erases the line before other output to the terminal; the next step draws it again.
  void clear() {
    if (on_ && drawn_) std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    drawn_ = false;
  }

  /// Erases the line (also done by the destructor).
  void finish() {
    if (on_ && drawn_) std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    on_ = false;
  }

  /// "12 s", "3 min 05 s", "2 h 07 min".
  static std::string duration_text(double s) {
    char b[48];
    const long t = long(s + 0.5);
    if (t < 60) std::snprintf(b, sizeof b, "%ld s", t);
    else if (t < 3600) std::snprintf(b, sizeof b, "%ld min %02ld s", t / 60, t % 60);
    else std::snprintf(b, sizeof b, "%ld h %02ld min", t / 3600, (t % 3600) / 60);
    return b;
  }

 private:
  using clock = std::chrono::steady_clock;
  void draw(bool force) {
    if (!on_) return;
    const auto now = clock::now();
    if (!force && drawn_ && now - last_ < std::chrono::milliseconds(200)) return;
    last_ = now;
    drawn_ = true;
    const double el = std::chrono::duration<double>(now - t0_).count();
    const std::string left = done_ == 0 ? "time left unknown"
                                        : "about " + duration_text(el / double(done_) * double(total_ - done_)) + " left";
    std::fprintf(stderr, "\r\033[K%s: %ld/%ld %s, %s", what_.c_str(), done_, total_, unit_.c_str(), left.c_str());
    std::fflush(stderr);
  }
  std::string what_, unit_;
  long total_, done_ = 0;
  bool on_, drawn_ = false;
  clock::time_point t0_, last_{};
};

}  // namespace pv
