# paratrace build.  One command: make (library + CLI), make check, make demo.
#   make SAN=1 BUILD=build-asan   AddressSanitizer + UBSan build
#   make SAN=1 SAN_MPI=1 ...      the same with the MPI recorder sanitized
#   make CC=clang                 build with clang
#   make fuzz                     long libFuzzer runs (clang)
#   make bench                    the PTF vs OTF2 benchmark
#   make install PREFIX=/usr/local

ifeq ($(origin CC),default)
CC      := gcc
endif
BUILD   ?= build
PREFIX  ?= /usr/local
SAN     ?= 0
OPT     ?= -O2

WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-missing-field-initializers
CFLAGS_BASE := -std=c11 $(OPT) -g $(WARN) -D_GNU_SOURCE -Iinclude -Isrc -fPIC -fvisibility=hidden -fno-semantic-interposition -pthread
ifeq ($(SAN),1)
CFLAGS_BASE += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS_SAN := -fsanitize=address,undefined
endif
CFLAGS  += $(CFLAGS_BASE)
LIBS    := -lotf2 -lzstd -lz -lm -pthread $(LDFLAGS_SAN)

LIB_SRCS  := $(sort $(wildcard src/core/*.c src/store/*.c src/formats/*.c src/analysis/*.c src/record/*.c src/profile/*.c))
TOOL_SRCS := $(sort $(wildcard tools/*.c))
TEST_SRCS := $(sort $(wildcard tests/unit/test_*.c))
BENCH_SRCS:= $(sort $(wildcard bench/*.c))
FUZZ_SRCS := $(sort $(wildcard tests/fuzz/fuzz_*.c))

LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
TOOL_OBJS := $(TOOL_SRCS:%.c=$(BUILD)/obj/%.o)
TESTS     := $(TEST_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
FUZZERS   := $(FUZZ_SRCS:tests/fuzz/%.c=$(BUILD)/fuzz/%)
DEPS      := $(LIB_OBJS:.o=.d) $(TOOL_OBJS:.o=.d)

STATIC  := $(BUILD)/lib/libparatrace.a
SHARED  := $(BUILD)/lib/libparatrace.so
CLI     := $(BUILD)/bin/paratrace
BENCH   := $(BUILD)/bin/paratrace-bench
PC      := $(BUILD)/lib/pkgconfig/paratrace.pc

.PHONY: all lib tests check demo bench fuzz fuzz-build install deps clean
all: $(STATIC) $(SHARED) $(CLI) $(PC)
lib: $(STATIC) $(SHARED)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(STATIC): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(SHARED): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libparatrace.so.0 -o $@ $^ $(LIBS)
	ln -sf libparatrace.so $(dir $@)libparatrace.so.0

# The CLI links the static library so that it runs from the build tree.
$(CLI): $(TOOL_OBJS) $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $(TOOL_OBJS) $(STATIC) $(LIBS)

$(PC): scripts/paratrace.pc.in
	@mkdir -p $(dir $@)
	sed -e 's|@PREFIX@|$(PREFIX)|g' $< > $@

# Unit tests may use internal headers (src/); each is one program.
$(BUILD)/tests/%: tests/unit/%.c tests/unit/test.h tests/unit/replay.h $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/unit -o $@ $< $(STATIC) $(LIBS) $(TEST_LDFLAGS)

# test_dumpi_oom makes allocations fail (its __wrap_malloc...)
$(BUILD)/tests/test_dumpi_oom: TEST_LDFLAGS := -Wl,--wrap=malloc \
  -Wl,--wrap=calloc -Wl,--wrap=realloc

tests: all $(TESTS)

# The benchmark links libotf2 (the peer it is measured against).
$(BENCH): $(BENCH_SRCS) $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $(BENCH_SRCS) $(STATIC) $(LIBS)

# ASCII parse speed (PICL, OTF 1.x) against the real OTF library.
ASCII_BENCH := $(BUILD)/bin/paratrace-ascii-bench
$(ASCII_BENCH): bench/ascii/ascii_bench.c $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -I/usr/include/open-trace-format -o $@ $< $(STATIC) -lopen-trace-format $(LIBS)

# demo and bench build in a second make: this one read `command -v mpicc`
# before deps installed OpenMPI on a fresh machine, so its `all` would
# leave out the MPI recorder.
bench: deps
	$(MAKE) BUILD=$(BUILD) all $(BENCH) $(ASCII_BENCH)
	scripts/run-bench.sh $(BUILD)
	scripts/run-ascii-bench.sh $(BUILD)
	scripts/run-mpi-bench.sh $(BUILD)
	scripts/run-stats-bench.sh $(BUILD)
	scripts/run-dumpi-bench.sh $(BUILD)

deps:
	@scripts/install-deps.sh

check: deps
	scripts/check.sh

demo: deps
	$(MAKE) BUILD=$(BUILD) all
	scripts/demo.sh $(BUILD)

# libFuzzer targets: clang only, own build tree; the library is compiled
# once (instrumented for coverage, not linked with the fuzzer main) and
# each target links it.
# (undefined behaviour stops the run, as a crash does: a finding)
FUZZ_CFLAGS := -std=c11 -O1 -g $(WARN) -D_GNU_SOURCE -Iinclude -Isrc -pthread \
               -fno-sanitize-recover=undefined
FUZZ_SAN    := address,undefined
FUZZ_OBJS   := $(LIB_SRCS:%.c=build-fuzz/obj/%.o)
FUZZ_BINS   := $(FUZZ_SRCS:tests/fuzz/%.c=build-fuzz/fuzz/%)
build-fuzz/obj/%.o: %.c
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link,$(FUZZ_SAN) -MMD -MP -c $< -o $@
build-fuzz/fuzz/%: tests/fuzz/%.c $(FUZZ_OBJS)
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer,$(FUZZ_SAN) -o $@ $< $(FUZZ_OBJS) -lotf2 -lzstd -lz -lm
fuzz-build: $(FUZZ_BINS)
.SECONDARY: $(FUZZ_OBJS)
-include $(FUZZ_OBJS:.o=.d)
fuzz: deps fuzz-build
	scripts/run-fuzz.sh build-fuzz/fuzz $${FUZZ_SECONDS:-300}

install: all
	install -d $(DESTDIR)$(PREFIX)/include/paratrace $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/bin
	install -m 644 include/paratrace/*.h $(DESTDIR)$(PREFIX)/include/paratrace/
	install -m 644 $(STATIC) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(SHARED) $(DESTDIR)$(PREFIX)/lib/libparatrace.so.0
	ln -sf libparatrace.so.0 $(DESTDIR)$(PREFIX)/lib/libparatrace.so
	install -m 755 $(CLI) $(DESTDIR)$(PREFIX)/bin/
	if [ -f $(BUILD)/bin/paratrace-mpi ]; then install -m 755 $(BUILD)/bin/paratrace-mpi $(DESTDIR)$(PREFIX)/bin/; fi
	if [ -f $(MPI_SO) ]; then install -m 755 $(MPI_SO) $(DESTDIR)$(PREFIX)/lib/; fi
	sed -e 's|@PREFIX@|$(PREFIX)|g' scripts/paratrace.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/paratrace.pc

clean:
	rm -rf build build-* 

-include $(DEPS)

# MPI interposition library (src/mpi/), built when mpicc is installed: the
# wrappers, the MPI recorder and the library's objects in one .so.  Never
# sanitized (it is preloaded into programs that are not); its objects are
# compiled apart for that.
MPICC   ?= $(shell command -v mpicc 2>/dev/null)
MPI_SO  := $(BUILD)/lib/libparatrace-mpi.so
MPI_CFLAGS := -std=c11 $(OPT) -g $(WARN) -D_GNU_SOURCE -Iinclude -Isrc -fPIC -fvisibility=hidden -fno-semantic-interposition -pthread
# SAN_MPI=1 (with SAN=1): the recorder sanitized too.  Not in make check:
# a sanitized libparatrace-mpi.so preloaded into a program built without
# the sanitizers (the Fortran, LD_PRELOAD and mpi4py tests) stops at
# start, ASan's runtime not being first in its library list.
MPI_SAN_LD :=
ifeq ($(SAN_MPI),1)
MPI_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
MPI_SAN_LD := -fsanitize=address,undefined
endif
MPI_LIBOBJS := $(LIB_SRCS:%.c=$(BUILD)/mpiobj/%.o)
MPI_OBJS := $(BUILD)/mpiobj/src/mpi/wrappers.o $(BUILD)/mpiobj/src/mpi/mpirec.o
ifneq ($(MPICC),)
all: $(MPI_SO) $(BUILD)/bin/paratrace-mpi
endif
# paratrace-mpi: the CLI plus MPI (mpirun -np K paratrace stats runs it).
MPI_INC  = $(shell $(MPICC) -showme:compile 2>/dev/null)
MPI_LINK = $(shell $(MPICC) -showme:link 2>/dev/null)
$(BUILD)/obj/tools/mpi/parallel.o: tools/mpi/parallel.c tools/cli.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(MPI_INC) -c $< -o $@
$(BUILD)/bin/paratrace-mpi: $(TOOL_OBJS) $(BUILD)/obj/tools/mpi/parallel.o $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $(TOOL_OBJS) $(BUILD)/obj/tools/mpi/parallel.o $(STATIC) $(LIBS) $(MPI_LINK)
$(BUILD)/mpiobj/src/mpi/%.o: src/mpi/%.c src/mpi/mpi_table.h src/mpi/mpi_ftable.h src/mpi/mpi_sem.h src/mpi/mpirec.h src/formats/mpi_fn.h src/record/open_call.h
	@mkdir -p $(dir $@)
	OMPI_CC=$(CC) $(MPICC) $(MPI_CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/mpiobj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(MPI_CFLAGS) -MMD -MP -c $< -o $@
$(MPI_SO): $(MPI_OBJS) $(MPI_LIBOBJS)
	@mkdir -p $(dir $@)
	OMPI_CC=$(CC) $(MPICC) -shared -o $@ $(MPI_OBJS) $(MPI_LIBOBJS) -lotf2 -lzstd -lz -lm -pthread $(MPI_SAN_LD)
-include $(MPI_LIBOBJS:.o=.d) $(MPI_OBJS:.o=.d)
