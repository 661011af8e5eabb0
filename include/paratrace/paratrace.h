/* paratrace: umbrella header. */
#ifndef PARATRACE_H
#define PARATRACE_H

#define PT_VERSION_MAJOR 0
#define PT_VERSION_MINOR 1
#define PT_VERSION_PATCH 0
#define PT_VERSION_STRING "0.1.0"

#include "status.h"
#include "model.h"
#include "writer.h"
#include "reader.h"
#include "format.h"
#include "generate.h"
#include "profile.h"
#include "record.h"
#include "timeline.h"

#endif
