/*
 * A bare ncurses full repaint: the baseline of a swipe's frame in make bench.
 *
 * Each key (q quits) draws a new page: every cell of the screen changes, a title line and a
 * body line name the page, and one refresh sends it. pty_bench.py times a key to the page's
 * text on screen, as it times a swipe to the next card's text.
 *
 *   cc -O2 -o bare-repaint bench/bare-repaint.c -lncursesw
 */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <locale.h>
#include <stdio.h>

int main(void) {
  setlocale(LC_ALL, "");
  SCREEN *screen = newterm(NULL, stdout, stdin);
  if (screen == NULL) return 1;
  set_term(screen);
  raw();
  noecho();
  keypad(stdscr, TRUE);
  curs_set(0);
  for (int page = 0;; page++) {
    /* No two neighbouring cells alike, and every cell unlike the last page's. */
    for (int y = 0; y < LINES; y++) {
      move(y, 0);
      for (int x = 0; x < COLS; x++) addch('a' + (x + y + page) % 26);
    }
    mvprintw(LINES / 2 - 1, 4, " Page %05d title ", page);
    mvprintw(LINES / 2 + 1, 4, " Body of page %05d, a line of text as long as a card's. ", page);
    refresh();
    int key = getch();
    if (key == 'q' || key == ERR) break;
  }
  endwin();
  delscreen(screen);
  return 0;
}
