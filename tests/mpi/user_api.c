/* Test program without MPI: marks what it does with the PICL-style user
 * API; under `paratrace record` the recorder starts by itself. */
#include <paratrace/record.h>

int main(void) {
  for (int i = 0; i < 5; i++) {
    pt_trace_begin("step");
    pt_trace_mark_int("iteration", i);
    pt_trace_mark_double("residual", 1.0 / (i + 1));
    pt_trace_end("step");
  }
  pt_trace_message("done");
  return 0;
}
