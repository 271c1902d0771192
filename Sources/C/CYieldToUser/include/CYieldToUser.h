#ifndef CTFO_YIELD_TO_USER_H
#define CTFO_YIELD_TO_USER_H

/// Background work that yields to the user (YieldToUser's `Courtesy` says how it is used).
/// The app's UI thread reports each key; its background threads (pulls, analytics) run at a
/// raised nice value, give the CPU up every quantum at their yield points, and between two
/// units of work wait for a pause in the keys. Threads that never call
/// ctfo_become_background (the UI thread, every command) never yield and never wait.

/// The user pressed a key (or the app launched): background units wait for a quiet moment.
void ctfo_user_acted(void);

/// From now on no background unit waits (the app is quitting and flushes what it can).
void ctfo_stop_deferring(void);

/// Makes the calling thread a background one: nice `niceness` (Linux gives each thread its
/// own) and a yield at its yield points once it has run `quantum_ns` since the last.
void ctfo_become_background(int niceness, long long quantum_ns);

/// Whether the calling thread is a background one.
int ctfo_is_background(void);

/// A yield point: on a background thread, sched_yield once its quantum has passed.
void ctfo_yield_point(void);
/// How many times the calling thread gave the CPU up at a yield point (for tests).
long long ctfo_yields(void);

/// Between two units of work, on a background thread: sleeps while a key came less than
/// `quiet_ns` ago, for at most `longest_ns` in all, then is a yield point. Returns the
/// nanoseconds it slept; at once (0) on other threads.
long long ctfo_pause(long long quiet_ns, long long longest_ns);

#endif
