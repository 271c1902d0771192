#ifndef CNCURSESW_SHIM_H
#define CNCURSESW_SHIM_H
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>
#include <ncursesw/curses.h>
#include <ncursesw/term.h>

/* Hidden by feature-test macros in the C library's module as Swift builds it. */
extern int wcwidth(wchar_t c);
extern int pipe2(int fds[2], int flags);

/* The width of a code point as curses counts it. */
static inline int cnc_wcwidth(wchar_t c) { return wcwidth(c); }

/* A non-blocking, close-on-exec pipe. */
static inline int cnc_pipe(int fds[2]) { return pipe2(fds, O_NONBLOCK | O_CLOEXEC); }

/* Attribute and colour-pair macros, which Swift cannot import. */
static inline attr_t cnc_a_bold(void) { return A_BOLD; }
static inline attr_t cnc_a_reverse(void) { return A_REVERSE; }
static inline attr_t cnc_a_dim(void) { return A_DIM; }
static inline attr_t cnc_a_underline(void) { return A_UNDERLINE; }
static inline attr_t cnc_a_normal(void) { return A_NORMAL; }
static inline attr_t cnc_color_pair(int pair) { return (attr_t)COLOR_PAIR(pair); }

/* getmaxyx is a macro assigning to its arguments. */
static inline void cnc_getmaxyx(const WINDOW *win, int *rows, int *cols) {
  int y, x;
  getmaxyx(win, y, x);
  *rows = y;
  *cols = x;
}

/* ioctl is variadic. Returns 0 and the size of the terminal on fd, or -1. */
static inline int cnc_window_size(int fd, int *rows, int *cols) {
  struct winsize ws;
  if (ioctl(fd, TIOCGWINSZ, &ws) != 0) return -1;
  *rows = ws.ws_row;
  *cols = ws.ws_col;
  return 0;
}

/* tigetstr returns (char *)-1 for a capability that is not a string: folded into NULL here. */
static inline const char *cnc_tigetstr(const char *name) {
  char *value = tigetstr(name);
  return value == (char *)-1 ? NULL : value;
}

/* Whether the current terminfo entry can address the cursor (TERM=dumb cannot). */
static inline int cnc_can_address_cursor(void) { return cnc_tigetstr("cup") != NULL; }

/* Drops the TERMINAL that a probing setupterm left current. */
static inline void cnc_drop_current_terminal(void) {
  TERMINAL *probe = set_curterm(NULL);
  if (probe != NULL) del_curterm(probe);
}

/*
 * Signal routing and crash restore.
 *
 * Everything below runs inside signal handlers, so it is C with async-signal-safe calls only
 * (write, tcsetattr, sigaction, raise, kill): Swift code may allocate or take locks.
 *
 * The state is a static variable of this header, which exists once per translation unit that
 * uses it: only Sources/Client/Terminal/SignalRoute.swift may call the cnc_signal_* and cnc_crash_*
 * functions, so that there is exactly one copy of it.
 */
#define CNC_MAX_SIGNAL 65
#define CNC_RESET_CAPACITY 256

struct cnc_signal_state {
  int pipe_fd;
  struct sigaction previous_action[CNC_MAX_SIGNAL];
  int crash_tty_fd;
  int crash_output_fd;
  struct termios crash_termios;
  char crash_reset[CNC_RESET_CAPACITY];
  size_t crash_reset_length;
  stack_t crash_stack;
};

/* The state, as a function-local static: the Swift compiler emits it with the function. */
static inline struct cnc_signal_state *cnc_signal_state(void) {
  static struct cnc_signal_state state = {.pipe_fd = -1, .crash_tty_fd = -1};
  return &state;
}

/* Writes the signal number as one byte to the self-pipe; never blocks (the pipe is O_NONBLOCK). */
static void cnc_signal_to_pipe(int sig) {
  int saved = errno;
  unsigned char byte = (unsigned char)sig;
  int fd = cnc_signal_state()->pipe_fd;
  if (fd >= 0) (void)!write(fd, &byte, 1);
  errno = saved;
}

/* Routes sig to the self-pipe, remembering the previous action for cnc_signal_unroute. */
static inline int cnc_signal_route(int sig, int pipe_fd) {
  struct cnc_signal_state *state = cnc_signal_state();
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = cnc_signal_to_pipe;
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  state->pipe_fd = pipe_fd;
  return sigaction(sig, &action, &state->previous_action[sig]);
}

/* Gives sig back the action it had before cnc_signal_route or cnc_crash_catch. */
static inline void cnc_signal_unroute(int sig) {
  (void)sigaction(sig, &cnc_signal_state()->previous_action[sig], NULL);
}

/*
 * Stops the process group with the default SIGTSTP action, and returns once continued. SIGTSTP
 * (not SIGSTOP) because the kernel discards it for an orphaned process group, which no shell
 * could continue; it is unblocked in this thread, as threads of Swift's pool block signals.
 */
static inline void cnc_signal_stop_process_group(void) {
  struct sigaction fallback, mine;
  sigset_t tstp, mask;
  memset(&fallback, 0, sizeof fallback);
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  sigemptyset(&tstp);
  sigaddset(&tstp, SIGTSTP);
  (void)sigaction(SIGTSTP, &fallback, &mine);
  (void)pthread_sigmask(SIG_UNBLOCK, &tstp, &mask);
  (void)kill(0, SIGTSTP);
  (void)pthread_sigmask(SIG_SETMASK, &mask, NULL);
  (void)sigaction(SIGTSTP, &mine, NULL);
}

/* Restores the terminal as it was before curses, then lets the previous action handle sig. */
static void cnc_crash_restore(int sig) {
  struct cnc_signal_state *state = cnc_signal_state();
  if (state->crash_tty_fd >= 0) {
    (void)tcsetattr(state->crash_tty_fd, TCSANOW, &state->crash_termios);
    (void)!write(state->crash_output_fd, state->crash_reset, state->crash_reset_length);
    state->crash_tty_fd = -1;
  }
  (void)sigaction(sig, &state->previous_action[sig], NULL);
  /* Blocked until this handler returns; then delivered with the previous action. */
  (void)raise(sig);
}

/* Saves what cnc_crash_restore needs: the termios of tty_fd now and the reset bytes. */
static inline void cnc_crash_arm(int tty_fd, int output_fd, const char *reset, size_t length) {
  struct cnc_signal_state *state = cnc_signal_state();
  if (length > CNC_RESET_CAPACITY) length = CNC_RESET_CAPACITY;
  memcpy(state->crash_reset, reset, length);
  state->crash_reset_length = length;
  state->crash_output_fd = output_fd;
  if (tcgetattr(tty_fd, &state->crash_termios) == 0) state->crash_tty_fd = tty_fd;
}

/* An alternate stack, so that a stack overflow's SIGSEGV can still restore the terminal. */
static inline void cnc_crash_ensure_stack(void) {
  stack_t *stack = &cnc_signal_state()->crash_stack;
  stack_t current;
  if (sigaltstack(NULL, &current) != 0 || !(current.ss_flags & SS_DISABLE)) return;
  if (stack->ss_sp == NULL) {
    stack->ss_size = 64 * 1024;
    stack->ss_sp = malloc(stack->ss_size);
    if (stack->ss_sp == NULL) return;
  }
  stack->ss_flags = 0;
  (void)sigaltstack(stack, NULL);
}

/* Catches the fatal signal sig with cnc_crash_restore. */
static inline int cnc_crash_catch(int sig) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = cnc_crash_restore;
  action.sa_flags = SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  return sigaction(sig, &action, &cnc_signal_state()->previous_action[sig]);
}

/* Forgets the saved terminal: a crash after close() must not touch the terminal. */
static inline void cnc_crash_disarm(void) { cnc_signal_state()->crash_tty_fd = -1; }

#endif
