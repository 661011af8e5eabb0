/* Status codes: names and messages generated from PT_STATUS_MAP. */
#include "paratrace/status.h"

const char *pt_strerror(int status) {
  switch (status) {
#define PT__STATUS_MSG(name, value, msg) \
  case value:                            \
    return msg;
    PT_STATUS_MAP(PT__STATUS_MSG)
#undef PT__STATUS_MSG
  }
  return "unknown status";
}

const char *pt_status_name(int status) {
  switch (status) {
#define PT__STATUS_NAME(name, value, msg) \
  case value:                             \
    return #name;
    PT_STATUS_MAP(PT__STATUS_NAME)
#undef PT__STATUS_NAME
  }
  return "UNKNOWN";
}
