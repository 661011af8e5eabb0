/* Writes an OTF2 archive DIR/traces.otf2 with many regions whose role and
 * paradigm the model has no exact value for (as Score-P writes for HIP,
 * CUDA or MPI collectives: COLL_ONE2ALL, paradigm CUDA...), so that the
 * reader adds key-values for each while it reads the region definitions,
 * and one location entering and leaving every region, between a
 * ProgramBegin without arguments and a ProgramEnd (Score-P's first and last
 * events).
 * Usage: otf2-regions DIR [N]   (N regions, default 3000) */
#include <otf2/otf2.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x)                                                               \
  do {                                                                      \
    OTF2_ErrorCode e_ = (x);                                                \
    if (e_ != OTF2_SUCCESS) {                                               \
      fprintf(stderr, "otf2-regions: %s: %s\n", #x,                         \
              OTF2_Error_GetName(e_));                                      \
      exit(1);                                                              \
    }                                                                       \
  } while (0)

static OTF2_FlushType pre_flush(void *u, OTF2_FileType ft,
                                OTF2_LocationRef loc, void *cb, bool final) {
  (void)u; (void)ft; (void)loc; (void)cb; (void)final;
  return OTF2_FLUSH;
}
static OTF2_TimeStamp post_flush(void *u, OTF2_FileType ft,
                                 OTF2_LocationRef loc) {
  (void)u; (void)ft; (void)loc;
  return 0;
}
static OTF2_FlushCallbacks flush_cbs = {pre_flush, post_flush};

/* (a role with an exact model value now and then: the number of
 * definitions a region adds varies, so that the array of definitions grows
 * at every kind of place) */
static const OTF2_RegionRole roles[] = {
    OTF2_REGION_ROLE_COLL_ONE2ALL, OTF2_REGION_ROLE_FUNCTION,
    OTF2_REGION_ROLE_COLL_ALL2ONE, OTF2_REGION_ROLE_COLL_ALL2ALL,
    OTF2_REGION_ROLE_IMPLICIT_BARRIER};
static const OTF2_Paradigm pars[] = {OTF2_PARADIGM_CUDA, OTF2_PARADIGM_HIP,
                                     OTF2_PARADIGM_OPENCL, OTF2_PARADIGM_SHMEM};

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: otf2-regions DIR [N]\n");
    return 2;
  }
  uint32_t n = argc == 3 ? (uint32_t)strtoul(argv[2], NULL, 10) : 3000;
  OTF2_Archive *a = OTF2_Archive_Open(
      argv[1], "traces", OTF2_FILEMODE_WRITE, OTF2_CHUNK_SIZE_EVENTS_DEFAULT,
      OTF2_CHUNK_SIZE_DEFINITIONS_DEFAULT, OTF2_SUBSTRATE_POSIX,
      OTF2_COMPRESSION_NONE);
  if (!a) {
    fprintf(stderr, "otf2-regions: cannot create %s\n", argv[1]);
    return 1;
  }
  CK(OTF2_Archive_SetFlushCallbacks(a, &flush_cbs, NULL));
  CK(OTF2_Archive_SetSerialCollectiveCallbacks(a));
  CK(OTF2_Archive_OpenEvtFiles(a));
  OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(a, 0);
  uint64_t t = 1000;
  CK(OTF2_EvtWriter_ProgramBegin(w, NULL, t++, 2, 0, NULL));
  for (uint32_t i = 0; i < n; i++) {
    CK(OTF2_EvtWriter_Enter(w, NULL, t++, i));
    CK(OTF2_EvtWriter_Leave(w, NULL, t++, i));
  }
  CK(OTF2_EvtWriter_ProgramEnd(w, NULL, t++, 0));
  uint64_t nev;
  CK(OTF2_EvtWriter_GetNumberOfEvents(w, &nev));
  CK(OTF2_Archive_CloseEvtWriter(a, w));
  CK(OTF2_Archive_CloseEvtFiles(a));

  OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(a);
  CK(OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, 1000, t - 1000,
                                               OTF2_UNDEFINED_TIMESTAMP));
  CK(OTF2_GlobalDefWriter_WriteString(g, 0, ""));
  CK(OTF2_GlobalDefWriter_WriteString(g, 1, "node"));
  CK(OTF2_GlobalDefWriter_WriteString(g, 2, "process"));
  CK(OTF2_GlobalDefWriter_WriteString(g, 3, "thread"));
  CK(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 1, 1,
                                              OTF2_UNDEFINED_SYSTEM_TREE_NODE));
  CK(OTF2_GlobalDefWriter_WriteLocationGroup(
      g, 0, 2, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
      OTF2_UNDEFINED_LOCATION_GROUP));
  CK(OTF2_GlobalDefWriter_WriteLocation(g, 0, 3, OTF2_LOCATION_TYPE_CPU_THREAD,
                                        nev, 0));
  for (uint32_t i = 0; i < n; i++) {
    char name[32];
    snprintf(name, sizeof name, "kernel_%u", i);
    CK(OTF2_GlobalDefWriter_WriteString(g, 4 + i, name));
    CK(OTF2_GlobalDefWriter_WriteRegion(g, i, 4 + i, 4 + i, 0, roles[i % 5],
                                        pars[(i / 4) % 4],
                                        OTF2_REGION_FLAG_NONE, 0, 0, 0));
  }
  CK(OTF2_Archive_CloseGlobalDefWriter(a, g));
  CK(OTF2_Archive_Close(a));
  return 0;
}
