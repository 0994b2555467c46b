/* The C API's door to a job: each argument KEY=VALUE is one tmap_job_set
 * (tm-map's flags without "--"); the job's output (its "format") goes to
 * stdout. Exit 2 with the library's message on an error.
 * Usage: tmap-job-door machine=... comm=FILE alloc=... format=rankfile ... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tmap/tmap.h"

static int fail(char* error) {
  fprintf(stderr, "tmap-job-door: %s\n", error != NULL ? error : "(no message)");
  tmap_string_free(error);
  return 2;
}

int main(int argc, char** argv) {
  tmap_job* job = tmap_job_create();
  char* error = NULL;
  for (int k = 1; k < argc; ++k) {
    char* eq = strchr(argv[k], '=');
    if (eq == NULL) {
      fprintf(stderr, "tmap-job-door: '%s' is not KEY=VALUE\n", argv[k]);
      return 2;
    }
    *eq = '\0';
    if (tmap_job_set(job, argv[k], eq + 1, &error) != TMAP_OK) return fail(error);
  }
  tmap_result* result = NULL;
  if (tmap_job_run(job, &result, &error) != TMAP_OK) return fail(error);
  char* text = NULL;
  if (tmap_job_output(job, result, &text, &error) != TMAP_OK) return fail(error);
  fputs(text, stdout);
  tmap_string_free(text);
  tmap_result_free(result);
  tmap_job_free(job);
  return 0;
}
