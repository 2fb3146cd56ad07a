/* The hostile plugins of tests/sandbox/hostile_test.cpp: each wraps the
 * built-in float64 attention (plugins/builtin/plain_double.c, included here
 * under another name) in one hostile act -- stray writes, forks, stderr
 * spam, huge allocations -- and exports only attention. A plugin that
 * leaves processes behind appends their pids to the file named by
 * POSVERIFY_HOSTILE_PIDFILE, so that the test can check they are gone. */
#ifndef PV_HOSTILE_H_
#define PV_HOSTILE_H_

#define _GNU_SOURCE
#define posverify_impl builtin_posverify_impl
#include "builtin/plain_double.c"
#undef posverify_impl

#include <stdio.h>
#include <unistd.h>

/* Appends this process's pid to $POSVERIFY_HOSTILE_PIDFILE. */
static inline void hostile_note_pid(void) {
  const char *f = getenv("POSVERIFY_HOSTILE_PIDFILE");
  if (!f) return;
  FILE *o = fopen(f, "a");
  if (!o) return;
  fprintf(o, "%d\n", (int)getpid());
  fclose(o);
}

/* How the sleeper of hostile_fork_sleeper_as leaves the plugin's process
 * group: it stays, it becomes a daemon (a session of its own, after a double
 * fork), or it joins the group of the plugin process's parent (posverify). */
enum hostile_leave { HOSTILE_STAYS, HOSTILE_SETSID_DAEMON, HOSTILE_JOINS_PARENT_GROUP };

/* Forks a process that notes its pid and sleeps for a minute, holding every
 * descriptor of the plugin's process; returns once the pid is noted. */
static inline void hostile_fork_sleeper_as(enum hostile_leave how) {
  int ready[2];
  if (pipe(ready) != 0) return;
  const pid_t parent_group = getpgid(getppid());
  if (fork() == 0) {
    if (how == HOSTILE_SETSID_DAEMON) {
      setsid();
      if (fork() != 0) _exit(0); /* the daemon's parent exits at once */
    } else if (how == HOSTILE_JOINS_PARENT_GROUP) {
      setpgid(0, parent_group);
    }
    hostile_note_pid();
    (void)!write(ready[1], "", 1);
    sleep(60);
    _exit(0);
  }
  char c;
  (void)!read(ready[0], &c, 1);
  close(ready[0]);
  close(ready[1]);
}
static inline void hostile_fork_sleeper(void) { hostile_fork_sleeper_as(HOSTILE_STAYS); }

/* The correct float64 attention, after the hostile act of the plugin. */
#define HOSTILE_ATTENTION(act)                                                                  \
  static int hostile_attention(pv_dtype t, const void *q, const void *k, const void *v,       \
                               int64_t n_q, int64_t n_k, int64_t d, int64_t d_v, void *out) { \
    act;                                                                                       \
    return attention(t, q, k, v, n_q, n_k, d, d_v, out);                                       \
  }

#define HOSTILE_PLUGIN(name)                                                         \
  static const pv_impl hostile_impl = {PV_ABI_VERSION, name, hostile_attention, NULL, NULL, NULL, NULL, 0, 0, 0}; \
  const pv_impl *posverify_impl(void) { return &hostile_impl; }

#endif
