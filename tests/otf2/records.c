/* An OTF2 archive with every event record paratrace carries generically
 * (src/formats/otf2_int.h, PT__OTF2_GENERIC: the OpenMP, RMA, thread lock
 * and task, calling-context, I/O handle, non-blocking collective and
 * communicator records) and the definitions they refer to (RmaWin,
 * SourceCodeLocation, CallingContext, InterruptGenerator), written with
 * libotf2 the way Score-P writes them: two MPI ranks, one location each.
 * tests/cli/otf2_records.sh converts it OTF2 -> PTF -> OTF2 and compares
 * otf2-print of both.
 *
 *   otf2-records DIR     writes DIR/traces.otf2, DIR/traces.def, DIR/traces/
 */
#include <otf2/otf2.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(call)                                                             \
  do {                                                                       \
    OTF2_ErrorCode e_ = (call);                                              \
    if (e_ != OTF2_SUCCESS) {                                                \
      fprintf(stderr, "otf2-records: %s: %s\n", #call,                      \
              OTF2_Error_GetName(e_));                                       \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

static OTF2_FlushType pre_flush(void *u, OTF2_FileType t, OTF2_LocationRef l,
                                void *c, bool f) {
  (void)u, (void)t, (void)l, (void)c, (void)f;
  return OTF2_FLUSH;
}
static OTF2_FlushCallbacks flush_cbs = {.otf2_pre_flush = pre_flush};

enum { S_EMPTY, S_NODE, S_RANK0, S_RANK1, S_MAIN, S_WORLD, S_WIN, S_FILE,
       S_SRC, S_TIMER, S_POSIX, S_POSIX_IO, S_HANDLE, S_MPI, S_TEMPLATE,
       S_VERSION, S_FSTYPE, S_EXT4, S_DEPTH, S_LEVEL, S_CART, S_X, S_Y,
       S_INTER, S__N };
static const char *strs[S__N] = {
    "", "node", "rank 0", "rank 1", "main", "MPI_COMM_WORLD", "MPI_Win 0",
    "data.bin", "records.c", "timer", "POSIX", "POSIX I/O", "fd 3", "MPI",
    "Comm ${id}", "1.0", "fs type", "ext4", "depth", "level", "cart 2x1",
    "x", "y", "inter"};

/* The records of one rank, one tick apart from t. */
static void rank_events(OTF2_EvtWriter *w, uint64_t t, uint32_t me) {
  uint32_t peer = 1 - me;
  CK(OTF2_EvtWriter_Enter(w, NULL, t++, 0));
  CK(OTF2_EvtWriter_CommCreate(w, NULL, t++, 0));
  /* a message on the inter-communicator: remote rank 0 on both sides */
  if (me == 0)
    CK(OTF2_EvtWriter_MpiSend(w, NULL, t++, 0, 1, 77, 16));
  else
    CK(OTF2_EvtWriter_MpiRecv(w, NULL, t++, 0, 1, 77, 16));
  CK(OTF2_EvtWriter_RmaWinCreate(w, NULL, t++, 0));
  CK(OTF2_EvtWriter_RmaCollectiveBegin(w, NULL, t++));
  CK(OTF2_EvtWriter_RmaCollectiveEnd(w, NULL, t++, OTF2_COLLECTIVE_OP_CREATE_HANDLE,
                                     OTF2_RMA_SYNC_LEVEL_PROCESS, 0, 0, 8, 16));
  CK(OTF2_EvtWriter_RmaGroupSync(w, NULL, t++, OTF2_RMA_SYNC_LEVEL_MEMORY, 1, 1));
  CK(OTF2_EvtWriter_RmaRequestLock(w, NULL, t++, 0, peer, 7, OTF2_LOCK_EXCLUSIVE));
  CK(OTF2_EvtWriter_RmaAcquireLock(w, NULL, t++, 0, peer, 7, OTF2_LOCK_EXCLUSIVE));
  CK(OTF2_EvtWriter_RmaTryLock(w, NULL, t++, 0, peer, 8, OTF2_LOCK_SHARED));
  CK(OTF2_EvtWriter_RmaPut(w, NULL, t++, 1, peer, 4096, 100 + me));
  CK(OTF2_EvtWriter_RmaGet(w, NULL, t++, 0, peer, 512, 200 + me));
  CK(OTF2_EvtWriter_RmaAtomic(w, NULL, t++, 0, peer, OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ADD,
                              8, 8, 300 + me));
  CK(OTF2_EvtWriter_RmaOpTest(w, NULL, t++, 0, 100 + me));
  CK(OTF2_EvtWriter_RmaOpCompleteBlocking(w, NULL, t++, 0, 100 + me));
  CK(OTF2_EvtWriter_RmaOpCompleteNonBlocking(w, NULL, t++, 0, 200 + me));
  CK(OTF2_EvtWriter_RmaOpCompleteRemote(w, NULL, t++, 0, 300 + me));
  CK(OTF2_EvtWriter_RmaWaitChange(w, NULL, t++, 0));
  CK(OTF2_EvtWriter_RmaSync(w, NULL, t++, 0, peer, OTF2_RMA_SYNC_TYPE_MEMORY));
  CK(OTF2_EvtWriter_RmaReleaseLock(w, NULL, t++, 0, peer, 7));
  CK(OTF2_EvtWriter_RmaWinDestroy(w, NULL, t++, 0));
  CK(OTF2_EvtWriter_ThreadAcquireLock(w, NULL, t++, OTF2_PARADIGM_OPENMP, 3, 1));
  CK(OTF2_EvtWriter_ThreadReleaseLock(w, NULL, t++, OTF2_PARADIGM_OPENMP, 3, 1));
  CK(OTF2_EvtWriter_ThreadTaskCreate(w, NULL, t++, 0, me, 5));
  CK(OTF2_EvtWriter_ThreadTaskSwitch(w, NULL, t++, 0, me, 5));
  CK(OTF2_EvtWriter_ThreadTaskComplete(w, NULL, t++, 0, me, 5));
  CK(OTF2_EvtWriter_CallingContextEnter(w, NULL, t++, 1, 2));
  CK(OTF2_EvtWriter_CallingContextSample(w, NULL, t++, 1, 1, 0));
  CK(OTF2_EvtWriter_CallingContextLeave(w, NULL, t++, 1));
  CK(OTF2_EvtWriter_IoCreateHandle(w, NULL, t++, 0, OTF2_IO_ACCESS_MODE_READ_WRITE,
                                   OTF2_IO_CREATION_FLAG_CREATE,
                                   OTF2_IO_STATUS_FLAG_APPEND));
  CK(OTF2_EvtWriter_IoSeek(w, NULL, t++, 0, -64, OTF2_IO_SEEK_FROM_END, 960));
  CK(OTF2_EvtWriter_IoChangeStatusFlags(w, NULL, t++, 0, OTF2_IO_STATUS_FLAG_NONE));
  CK(OTF2_EvtWriter_IoAcquireLock(w, NULL, t++, 0, OTF2_LOCK_EXCLUSIVE));
  CK(OTF2_EvtWriter_IoTryLock(w, NULL, t++, 0, OTF2_LOCK_SHARED));
  CK(OTF2_EvtWriter_IoReleaseLock(w, NULL, t++, 0, OTF2_LOCK_EXCLUSIVE));
  CK(OTF2_EvtWriter_IoDuplicateHandle(w, NULL, t++, 0, 1, OTF2_IO_STATUS_FLAG_NONE));
  CK(OTF2_EvtWriter_IoDestroyHandle(w, NULL, t++, 1));
  CK(OTF2_EvtWriter_IoDestroyHandle(w, NULL, t++, 0));
  CK(OTF2_EvtWriter_IoDeleteFile(w, NULL, t++, 0, 0));
  CK(OTF2_EvtWriter_NonBlockingCollectiveRequest(w, NULL, t++, 42));
  CK(OTF2_EvtWriter_NonBlockingCollectiveComplete(
      w, NULL, t++, OTF2_COLLECTIVE_OP_ALLREDUCE, 0, OTF2_UNDEFINED_UINT32, 8, 8, 42));
  CK(OTF2_EvtWriter_CommDestroy(w, NULL, t++, 0));
  /* OTF2 1.x's OpenMP records: deprecated, still in older archives */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  CK(OTF2_EvtWriter_OmpFork(w, NULL, t++, 4));
  CK(OTF2_EvtWriter_OmpAcquireLock(w, NULL, t++, 9, 2));
  CK(OTF2_EvtWriter_OmpReleaseLock(w, NULL, t++, 9, 2));
  CK(OTF2_EvtWriter_OmpTaskCreate(w, NULL, t++, 77));
  CK(OTF2_EvtWriter_OmpTaskSwitch(w, NULL, t++, 77));
  CK(OTF2_EvtWriter_OmpTaskComplete(w, NULL, t++, 77));
  CK(OTF2_EvtWriter_OmpJoin(w, NULL, t++));
#pragma GCC diagnostic pop
  CK(OTF2_EvtWriter_Leave(w, NULL, t++, 0));
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: otf2-records DIR\n");
    return 2;
  }
  OTF2_Archive *a = OTF2_Archive_Open(
      argv[1], "traces", OTF2_FILEMODE_WRITE, OTF2_CHUNK_SIZE_EVENTS_DEFAULT,
      OTF2_CHUNK_SIZE_DEFINITIONS_DEFAULT, OTF2_SUBSTRATE_POSIX,
      OTF2_COMPRESSION_NONE);
  if (!a) {
    fprintf(stderr, "otf2-records: cannot create %s\n", argv[1]);
    return 1;
  }
  CK(OTF2_Archive_SetFlushCallbacks(a, &flush_cbs, NULL));
  CK(OTF2_Archive_SetSerialCollectiveCallbacks(a));
  CK(OTF2_Archive_OpenEvtFiles(a));
  uint64_t nev[2];
  for (uint32_t r = 0; r < 2; r++) {
    OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(a, r);
    rank_events(w, 1000 + 7 * r, r);
    CK(OTF2_EvtWriter_GetNumberOfEvents(w, &nev[r]));
    CK(OTF2_Archive_CloseEvtWriter(a, w));
  }
  CK(OTF2_Archive_CloseEvtFiles(a));

  OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(a);
  CK(OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, 1000, 100,
                                               OTF2_UNDEFINED_TIMESTAMP));
  for (uint32_t i = 0; i < S__N; i++)
    CK(OTF2_GlobalDefWriter_WriteString(g, i, strs[i]));
  CK(OTF2_GlobalDefWriter_WriteParadigm(g, OTF2_PARADIGM_MPI, S_MPI,
                                        OTF2_PARADIGM_CLASS_PROCESS));
  OTF2_AttributeValue av;
  av.stringRef = S_TEMPLATE;
  CK(OTF2_GlobalDefWriter_WriteParadigmProperty(
      g, OTF2_PARADIGM_MPI, OTF2_PARADIGM_PROPERTY_COMM_NAME_TEMPLATE,
      OTF2_TYPE_STRING, av));
  av.uint8 = OTF2_TRUE;
  CK(OTF2_GlobalDefWriter_WriteParadigmProperty(
      g, OTF2_PARADIGM_MPI, OTF2_PARADIGM_PROPERTY_RMA_ONLY, OTF2_TYPE_UINT8,
      av));
  CK(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, S_NODE, S_NODE,
                                              OTF2_UNDEFINED_SYSTEM_TREE_NODE));
  CK(OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(
      g, 0, OTF2_SYSTEM_TREE_DOMAIN_MACHINE));
  CK(OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(
      g, 0, OTF2_SYSTEM_TREE_DOMAIN_SHARED_MEMORY));
  for (uint32_t r = 0; r < 2; r++) {
    CK(OTF2_GlobalDefWriter_WriteLocationGroup(
        g, r, S_RANK0 + r, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
        OTF2_UNDEFINED_LOCATION_GROUP));
    CK(OTF2_GlobalDefWriter_WriteLocation(g, r, S_RANK0 + r,
                                          OTF2_LOCATION_TYPE_CPU_THREAD,
                                          nev[r], r));
  }
  CK(OTF2_GlobalDefWriter_WriteRegion(
      g, 0, S_MAIN, S_MAIN, S_EMPTY, OTF2_REGION_ROLE_FUNCTION,
      OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, S_SRC, 10, 90));
  uint64_t locs[2] = {0, 1}, ranks[2] = {0, 1};
  CK(OTF2_GlobalDefWriter_WriteGroup(g, 0, S_EMPTY,
                                     OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                     OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                     2, locs));
  CK(OTF2_GlobalDefWriter_WriteGroup(g, 1, S_EMPTY, OTF2_GROUP_TYPE_COMM_GROUP,
                                     OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                     2, ranks));
  CK(OTF2_GlobalDefWriter_WriteComm(g, 0, S_WORLD, 1, OTF2_UNDEFINED_COMM,
                                    OTF2_COMM_FLAG_NONE));
  /* an inter-communicator between {rank 0} and {rank 1} */
  for (uint64_t r = 0; r < 2; r++)
    CK(OTF2_GlobalDefWriter_WriteGroup(g, 2 + (uint32_t)r, S_EMPTY,
                                       OTF2_GROUP_TYPE_COMM_GROUP,
                                       OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                       1, &r));
  CK(OTF2_GlobalDefWriter_WriteInterComm(g, 1, S_INTER, 2, 3, 0,
                                         OTF2_COMM_FLAG_NONE));
  /* a second window without a name (OTF2_UNDEFINED_STRING stays
   * undefined); events refer to both */
  CK(OTF2_GlobalDefWriter_WriteRmaWin(g, 0, S_WIN, 0,
                                      OTF2_RMA_WIN_FLAG_CREATE_DESTROY_EVENTS));
  CK(OTF2_GlobalDefWriter_WriteRmaWin(g, 1, OTF2_UNDEFINED_STRING, 0,
                                      OTF2_RMA_WIN_FLAG_NONE));
  CK(OTF2_GlobalDefWriter_WriteSourceCodeLocation(g, 0, S_SRC, 42));
  CK(OTF2_GlobalDefWriter_WriteSourceCodeLocation(g, 1, S_SRC, 57));
  CK(OTF2_GlobalDefWriter_WriteCallingContext(g, 0, 0, 0,
                                              OTF2_UNDEFINED_CALLING_CONTEXT));
  CK(OTF2_GlobalDefWriter_WriteCallingContext(g, 1, 0, 1, 0));
  CK(OTF2_GlobalDefWriter_WriteInterruptGenerator(
      g, 0, S_TIMER, OTF2_INTERRUPT_GENERATOR_MODE_TIME, OTF2_BASE_DECIMAL,
      -9, 1000000));
  OTF2_IoParadigmProperty pp[1] = {OTF2_IO_PARADIGM_PROPERTY_VERSION};
  OTF2_Type pt[1] = {OTF2_TYPE_STRING};
  OTF2_AttributeValue pv[1];
  pv[0].stringRef = S_VERSION;
  CK(OTF2_GlobalDefWriter_WriteIoParadigm(
      g, 0, S_POSIX, S_POSIX_IO, OTF2_IO_PARADIGM_CLASS_SERIAL,
      OTF2_IO_PARADIGM_FLAG_OS, 1, pp, pt, pv));
  CK(OTF2_GlobalDefWriter_WriteIoRegularFile(g, 0, S_FILE, 0));
  av.stringRef = S_EXT4;
  CK(OTF2_GlobalDefWriter_WriteIoFileProperty(g, 0, S_FSTYPE,
                                              OTF2_TYPE_STRING, av));
  for (uint32_t h = 0; h < 2; h++)
    CK(OTF2_GlobalDefWriter_WriteIoHandle(
        g, h, S_HANDLE, 0, 0, OTF2_IO_HANDLE_FLAG_PRE_CREATED,
        OTF2_UNDEFINED_COMM, OTF2_UNDEFINED_IO_HANDLE));
  CK(OTF2_GlobalDefWriter_WriteIoPreCreatedHandleState(
      g, 1, OTF2_IO_ACCESS_MODE_WRITE_ONLY, OTF2_IO_STATUS_FLAG_APPEND));
  av.uint64 = 3;
  CK(OTF2_GlobalDefWriter_WriteCallingContextProperty(g, 1, S_DEPTH,
                                                      OTF2_TYPE_UINT64, av));
  /* callpaths with a parameter; a 2 x 1 Cartesian topology */
  CK(OTF2_GlobalDefWriter_WriteParameter(g, 0, S_LEVEL,
                                         OTF2_PARAMETER_TYPE_INT64));
  CK(OTF2_GlobalDefWriter_WriteCallpath(g, 0, OTF2_UNDEFINED_CALLPATH, 0));
  CK(OTF2_GlobalDefWriter_WriteCallpath(g, 1, 0, 0));
  av.int64 = -5;
  CK(OTF2_GlobalDefWriter_WriteCallpathParameter(g, 1, 0, OTF2_TYPE_INT64,
                                                 av));
  CK(OTF2_GlobalDefWriter_WriteCartDimension(g, 0, S_X, 2,
                                             OTF2_CART_PERIODIC_TRUE));
  CK(OTF2_GlobalDefWriter_WriteCartDimension(g, 1, S_Y, 1,
                                             OTF2_CART_PERIODIC_FALSE));
  OTF2_CartDimensionRef dims[2] = {0, 1};
  CK(OTF2_GlobalDefWriter_WriteCartTopology(g, 0, S_CART, 0, 2, dims));
  for (uint32_t r = 0; r < 2; r++) {
    uint32_t xy[2] = {r, 0};
    CK(OTF2_GlobalDefWriter_WriteCartCoordinate(g, 0, r, 2, xy));
  }
  /* the widest topology OTF2 allows: 255 dimensions with 10-digit ids and
   * 10-digit coordinates (the reader's text of it must not overrun) */
  OTF2_CartDimensionRef wide[255];
  uint32_t far[255];
  for (uint32_t i = 0; i < 255; i++) {
    wide[i] = 4000000000u + i;
    far[i] = 4000000000u - i;
    CK(OTF2_GlobalDefWriter_WriteCartDimension(g, wide[i], S_X, 1,
                                               OTF2_CART_PERIODIC_FALSE));
  }
  CK(OTF2_GlobalDefWriter_WriteCartTopology(g, 1, S_CART, 0, 255, wide));
  CK(OTF2_GlobalDefWriter_WriteCartCoordinate(g, 1, 4000000000u, 255, far));
  CK(OTF2_Archive_CloseGlobalDefWriter(a, g));
  CK(OTF2_Archive_OpenDefFiles(a));
  for (uint32_t r = 0; r < 2; r++) {
    OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(a, r);
    CK(OTF2_Archive_CloseDefWriter(a, d));
  }
  CK(OTF2_Archive_CloseDefFiles(a));
  CK(OTF2_Archive_Close(a));
  return 0;
}
