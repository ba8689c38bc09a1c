/* A small driver for benchmarks/scrabble_magpie.py, linked against MAGPIE's objects.

   Why a driver and not MAGPIE's console: the console's `generate` prints and
   sorts by equity; to time one move generation per call, the way our Python
   side is timed, we call MAGPIE's own functions directly: the position is
   loaded once with its `cgp` command, then each timed call recomputes the
   cross-sets (game_gen_all_cross_sets, which MAGPIE otherwise does when it
   loads a position: our generator does that work inside every call) and
   generates the moves by score (MOVE_SORT_SCORE, so no leave values count).

   Usage: driver DATA_PATHS LEXICON POSITIONS_FILE MODE [CALLS]
     MODE moves: for each position, every tile placement generated
       ("M idx dir row col score tiles...") and the best by score ("B ...").
     MODE time: for each position, "T idx all_ns best_ns", each the fastest of
       CALLS calls (cross-sets plus generation).
   Positions are CGP lines. Exit status 2 with a message on bad input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../src/def/move_defs.h"
#include "../src/def/thread_control_defs.h"
#include "../src/ent/equity.h"
#include "../src/ent/game.h"
#include "../src/ent/move.h"
#include "../src/ent/thread_control.h"
#include "../src/impl/config.h"
#include "../src/impl/move_gen.h"
#include "../src/util/io_util.h"

static void run_or_die(Config *config, const char *cmd) {
  ErrorStack *es = error_stack_create();
  thread_control_set_status(config_get_thread_control(config),
                            THREAD_CONTROL_STATUS_STARTED);
  config_load_command(config, cmd, es);
  if (error_stack_is_empty(es)) {
    config_execute_command(config, es);
  }
  if (!error_stack_is_empty(es)) {
    fprintf(stderr, "magpie command failed: %s\n", cmd);
    error_stack_print_and_reset(es);
    exit(2);
  }
  error_stack_destroy(es);
}

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void gen(Game *game, MoveList *ml, move_record_t record) {
  game_gen_all_cross_sets(game);
  const MoveGenArgs args = {
      .game = game,
      .move_list = ml,
      .move_record_type = record,
      .move_sort_type = MOVE_SORT_SCORE,
      .override_kwg = NULL,
      .eq_margin_movegen = 0,
      .target_equity = EQUITY_MAX_VALUE,
      .target_leave_size_for_exchange_cutoff = UNSET_LEAVE_SIZE,
  };
  generate_moves(&args);
}

static void print_move(char tag, int idx, const Move *m) {
  printf("%c %d %d %d %d %d", tag, idx, move_get_dir(m), move_get_row_start(m),
         move_get_col_start(m), equity_to_int(move_get_score(m)));
  for (int i = 0; i < move_get_tiles_length(m); i++) {
    printf(" %d", (int)move_get_tile(m, i));
  }
  printf("\n");
}

int main(int argc, char *argv[]) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s DATA_PATHS LEXICON POSITIONS MODE [CALLS]\n",
            argv[0]);
    return 2;
  }
  const int calls = argc > 5 ? atoi(argv[5]) : 5;
  if (calls < 1 || calls > 1000) {
    fprintf(stderr, "CALLS must be 1..1000, not %s\n", argv[5]);
    return 2;
  }
  const int timing = strcmp(argv[4], "time") == 0;
  if (!timing && strcmp(argv[4], "moves") != 0) {
    fprintf(stderr, "MODE must be moves or time, not %s\n", argv[4]);
    return 2;
  }
  FILE *in = fopen(argv[3], "r");
  if (!in) {
    fprintf(stderr, "cannot read %s\n", argv[3]);
    return 2;
  }
  ErrorStack *es = error_stack_create();
  ConfigArgs cargs = {.data_paths = argv[1],
                      .settings_filename = NULL,
                      .use_wmp = false};
  Config *config = config_create(&cargs, es);
  if (!error_stack_is_empty(es)) {
    error_stack_print_and_reset(es);
    return 2;
  }
  char setup[512];
  snprintf(setup, sizeof setup,
           "set -lex %s -ld english -leaves %s -threads 1 -s1 score -s2 score "
           "-r1 all -r2 all -savesettings false -autosave false",
           argv[2], argv[2]);
  run_or_die(config, setup);
  MoveList *ml = move_list_create(100000);
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  int idx = 0;
  char cmd[1024];
  while ((len = getline(&line, &cap, in)) > 0) {
    if (line[len - 1] == '\n') {
      line[--len] = '\0';
    }
    if (len == 0) {
      continue;
    }
    snprintf(cmd, sizeof cmd, "cgp %s", line);
    run_or_die(config, cmd);
    Game *game = config_get_game(config);
    if (timing) {
      double best_all = 1e30, best_best = 1e30;
      for (int k = 0; k < calls; k++) {
        double t0 = now_ns();
        gen(game, ml, MOVE_RECORD_ALL);
        double t1 = now_ns();
        gen(game, ml, MOVE_RECORD_BEST);
        double t2 = now_ns();
        if (t1 - t0 < best_all) best_all = t1 - t0;
        if (t2 - t1 < best_best) best_best = t2 - t1;
      }
      printf("T %d %.0f %.0f\n", idx, best_all, best_best);
    } else {
      gen(game, ml, MOVE_RECORD_ALL);
      const int n = move_list_get_count(ml);
      for (int i = 0; i < n; i++) {
        const Move *m = move_list_get_move(ml, i);
        if (move_get_type(m) == GAME_EVENT_TILE_PLACEMENT_MOVE) {
          print_move('M', idx, m);
        }
      }
      gen(game, ml, MOVE_RECORD_BEST);
      const Move *b = move_list_get_move(ml, 0);
      if (move_get_type(b) == GAME_EVENT_TILE_PLACEMENT_MOVE) {
        print_move('B', idx, b);
      } else {
        printf("N %d\n", idx);
      }
    }
    idx++;
  }
  free(line);
  fclose(in);
  move_list_destroy(ml);
  config_destroy(config);
  error_stack_destroy(es);
  return 0;
}
