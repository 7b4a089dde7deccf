/*
 * A ClickHouse server for tests, from the libchdb shared library that `npm ci` installs with chDB:
 * loads the library and runs its command-line entry point, clickhouse-local, with the arguments given
 * after the library's path (`clickhouse-server.ts` passes the listen ports, the data path and the
 * queries that open the HTTP and native interfaces and keep the process alive).
 *
 * Usage: clickhouse-launcher LIBCHDB [clickhouse-local arguments...]
 * Exits 0 when clickhouse-local returns, 1 with its error on stderr when it fails, 2-6 when the
 * library cannot be used. On Linux the process dies with its parent, so a crashed test runner leaves
 * no server behind.
 */
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

/* chdb.h's `struct local_result_v2`: what `query_stable_v2` returns. */
struct local_result_v2 {
  char *buf;
  size_t len;
  void *vec;
  double elapsed;
  uint64_t rows_read;
  uint64_t bytes_read;
  char *error_message;
};

typedef struct local_result_v2 *(*query_stable_v2_fn)(int argc, char **argv);

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s LIBCHDB [clickhouse-local arguments...]\n", argv[0]);
    return 2;
  }
#ifdef __linux__
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  /* The parent may have died before prctl took effect. */
  if (getppid() == 1) return 3;
#endif
  void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    fprintf(stderr, "cannot load %s: %s\n", argv[1], dlerror());
    return 4;
  }
  query_stable_v2_fn query = (query_stable_v2_fn)dlsym(library, "query_stable_v2");
  if (!query) {
    fprintf(stderr, "no query_stable_v2 in %s: %s\n", argv[1], dlerror());
    return 5;
  }
  /* clickhouse-local reads its arguments from argv[1] on, as a program named "clickhouse". */
  argv[1] = "clickhouse";
  struct local_result_v2 *result = query(argc - 1, argv + 1);
  if (!result) {
    fprintf(stderr, "query_stable_v2 returned no result\n");
    return 6;
  }
  if (result->error_message) {
    fprintf(stderr, "%s\n", result->error_message);
    return 1;
  }
  if (result->buf) fwrite(result->buf, 1, result->len, stdout);
  return 0;
}
