/* The OTF 1.x format (doc/otf.md): internal tables and entry points shared
 * by the reader (otf_read.c), the writer (otf_write.c), the tests and the
 * fuzz target.  Not public API.
 *
 * Everything about OTF's record syntax lives in two X-macro tables:
 *   OTF_FIELDS   field keywords (short and long spelling) -> field ids
 *   OTF_RECORDS  record keywords (short and long spelling) -> record ids,
 *                with the kind of the first argument and the file class
 * The parser's keyword lookup, the writer's keyword spelling and the names
 * in messages are all generated from them. */
#ifndef PT_FORMATS_OTF_H
#define PT_FORMATS_OTF_H

#include "formats/registry.h"

/* X(ID, short, long) -- field keywords that follow a record's first
 * argument.  One short spelling can mean different things in different
 * records (T = tag or time, P = properties or process): the record's
 * handler gives it its meaning. */
#define OTF_FIELDS(X)                                                     \
  X(NM, "NM", "NAME") X(G, "G", "GROUP") X(L, "L", "LEN")                 \
  X(T, "T", "TAG") X(C, "C", "COMM") X(V, "V", "VALUE")                   \
  X(P, "P", "PROPERTIES") X(U, "U", "UNIT") X(Y, "Y", "TYPE")             \
  X(RT, "RT", "ROOT") X(S, "S", "SENT") X(R, "R", "RECVD")                \
  X(D, "D", "DUR") X(H, "H", "HANDLEID") X(PT, "PT", "PARENT")            \
  X(SCL, "X", "SCL") X(N, "N", "COUNT") X(E, "E", "EXCL")                   \
  X(I, "I", "INCL") X(O, "O", "OTIME") X(M, "M", "MEMBERS")               \
  X(F, "F", "FILE") X(LN, "LN", "LINE") X(NS, "NS", "NUMSENT")            \
  X(NR, "NR", "NUMRECVD") X(CL, "CL", "COLL") X(CNT, "CNT", "COUNTER")    \
  X(OP, "OP", "OPERATION") X(B, "B", "BYTES") X(MI, "MI", "MATCHID")      \
  X(NO, "NO", "NUMOPEN") X(NC, "NC", "NUMCLOSE") X(NRD, "NRD", "NUMREAD") \
  X(NW, "NW", "NUMWRITTEN") X(NSK, "NSK", "NUMSEEK")                      \
  X(BR, "BR", "BYTESREAD") X(BW, "BW", "BYTESWRITE")                      \
  /* long-only spellings that share a short one */                        \
  X(TIME, "T", "TIME") X(PROC, "P", "PROCESS")

enum {
#define OTF__F_ENUM(id, s, l) OTF_F_##id,
  OTF_FIELDS(OTF__F_ENUM)
#undef OTF__F_ENUM
  OTF_F__COUNT
};

/* Kind of a record's first argument. */
enum {
  OTF_A_NONE = 0, /* nothing (PB, PE, NOOP) */
  OTF_A_NUM,      /* hex number (token, time) */
  OTF_A_OPTNUM,   /* optional hex number (Leave may have none) */
  OTF_A_STR,      /* quoted string (comments, creator) */
  OTF_A_VERSION   /* DV: a.b.c then a quoted string */
};

/* File classes a record may appear in (bit mask). */
enum {
  OTF_CL_DEF = 1, OTF_CL_EVT = 2, OTF_CL_SNAP = 4, OTF_CL_STAT = 8,
  OTF_CL_MARK = 16, OTF_CL_ANY = 31
};

/* X(ID, class, short, long, arg) -- every OTF 1.x record.  Long spellings
 * marked (?) in doc/otf.md are not confirmed by a sample file. */
#define OTF_RECORDS(X)                                                       \
  /* definitions (NAME.0.def and NAME.x.def) */                              \
  X(DEFCOMMENT, OTF_CL_DEF, "DCMT", "DEFCOMMENT", OTF_A_STR)                 \
  X(DEFTIMERRES, OTF_CL_DEF, "DTR", "DEFTIMERRESOLUTION", OTF_A_NUM)        \
  X(DEFPROCESS, OTF_CL_DEF, "DP", "DEFPROCESS", OTF_A_NUM)                  \
  X(DEFPROCESSGROUP, OTF_CL_DEF, "DPG", "DEFPROCESSGROUP", OTF_A_NUM)       \
  X(DEFATTRLIST, OTF_CL_DEF, "DA", "DEFATTRIBUTELIST", OTF_A_NUM)           \
  X(DEFPROCATTR, OTF_CL_DEF, "DPGA", "DEFPROCESSORGROUPATTR", OTF_A_NUM)    \
  X(DEFFUNCTION, OTF_CL_DEF, "DF", "DEFFUNCTION", OTF_A_NUM)                \
  X(DEFFUNCTIONGROUP, OTF_CL_DEF, "DFG", "DEFFUNCTIONGROUP", OTF_A_NUM)     \
  X(DEFCOLLOP, OTF_CL_DEF, "DCO", "DEFCOLLOP", OTF_A_NUM)                   \
  X(DEFCOUNTER, OTF_CL_DEF, "DCNT", "DEFCOUNTER", OTF_A_NUM)                \
  X(DEFCOUNTERGROUP, OTF_CL_DEF, "DCG", "DEFCOUNTERGROUP", OTF_A_NUM)       \
  X(DEFSCL, OTF_CL_DEF, "DS", "DEFSCL", OTF_A_NUM)                          \
  X(DEFSCLFILE, OTF_CL_DEF, "DSF", "DEFSCLFILE", OTF_A_NUM)                 \
  X(DEFVERSION, OTF_CL_DEF, "DV", "DEFVERSION", OTF_A_VERSION)              \
  X(DEFCREATOR, OTF_CL_DEF, "DCR", "DEFCREATOR", OTF_A_STR)                 \
  X(DEFFILE, OTF_CL_DEF, "DFL", "DEFFILE", OTF_A_NUM)                       \
  X(DEFFILEGROUP, OTF_CL_DEF, "DFLG", "DEFFILEGROUP", OTF_A_NUM)            \
  X(DEFKEYVALUE, OTF_CL_DEF, "DK", "DEFKEYVALUE", OTF_A_NUM)                \
  X(DEFUNIQUEID, OTF_CL_DEF, "DUI", "DEFUNIQUEID", OTF_A_NUM)               \
  X(DEFTIMERANGE, OTF_CL_DEF, "DTRG", "DEFTIMERANGE", OTF_A_NUM)            \
  X(DEFCOUNTERASSIGN, OTF_CL_DEF, "DCA", "DEFCOUNTERASSIGNMENTS",           \
    OTF_A_NUM)                                                               \
  X(DEFPROCSUBST, OTF_CL_DEF, "DPS", "DEFPROCESSSUBSTITUTES", OTF_A_NUM)    \
  X(DEFAUXSAMPLE, OTF_CL_DEF, "DAUX", "DEFAUXSAMPLEPOINT", OTF_A_NUM)       \
  /* events (NAME.x.events) */                                               \
  X(NOOP, OTF_CL_EVT, "N", "NOOP", OTF_A_NONE)                              \
  X(ENTER, OTF_CL_EVT, "E", "ENTER", OTF_A_NUM)                             \
  X(LEAVE, OTF_CL_EVT, "L", "LEAVE", OTF_A_OPTNUM)                          \
  X(SEND, OTF_CL_EVT, "S", "SEND", OTF_A_NUM)                               \
  X(RECEIVE, OTF_CL_EVT, "R", "RECEIVE", OTF_A_NUM)                         \
  X(COUNTER, OTF_CL_EVT, "CNT", "COUNTER", OTF_A_NUM)                       \
  X(COLLOP, OTF_CL_EVT, "COP", "COLLOP", OTF_A_NUM)                         \
  X(COLLOPBEGIN, OTF_CL_EVT, "COPB", "COLLOPBEGIN", OTF_A_NUM)              \
  X(COLLOPEND, OTF_CL_EVT, "COPE", "COLLOPEND", OTF_A_NUM)                  \
  X(EVTCOMMENT, OTF_CL_EVT, "#", "#EVTCOMMENT", OTF_A_STR)                  \
  X(BEGINPROCESS, OTF_CL_EVT, "PB", "PROCESSBEGIN", OTF_A_NONE)             \
  X(ENDPROCESS, OTF_CL_EVT, "PE", "PROCESSEND", OTF_A_NONE)                 \
  X(FILEOP, OTF_CL_EVT, "F", "FILEOP", OTF_A_NUM)                           \
  X(FILEOPBEGIN, OTF_CL_EVT, "FA", "FILEOPBEGINNEW", OTF_A_NUM)             \
  X(FILEOPBEGIN_OLD, OTF_CL_EVT, "FB", "FILEOPBEGIN", OTF_A_NUM)            \
  X(FILEOPEND, OTF_CL_EVT, "FF", "FILEOPENDNEW", OTF_A_NUM)                 \
  X(FILEOPEND_OLD, OTF_CL_EVT, "FE", "FILEOPEND", OTF_A_NUM)                \
  X(RMAPUT, OTF_CL_EVT, "T", "TRMAPUT", OTF_A_NUM)                          \
  X(RMAPUTRE, OTF_CL_EVT, "U", "URMAPUTRE", OTF_A_NUM)                      \
  X(RMAGET, OTF_CL_EVT, "G", "GRMAGET", OTF_A_NUM)                          \
  X(RMAEND, OTF_CL_EVT, "M", "MRMAEND", OTF_A_NUM)                          \
  /* key-value pair attached to the next record (any file) */               \
  X(KEYVALUE, OTF_CL_ANY, "K", "KEY", OTF_A_NUM)                            \
  /* snapshots (NAME.x.snaps, also inline in events) */                      \
  X(SNAPCOMMENT, OTF_CL_SNAP, "TC", "TCOMMENT", OTF_A_STR)                  \
  X(SNAPENTER, OTF_CL_SNAP, "TE", "TENTER", OTF_A_NUM)                      \
  X(SNAPSEND, OTF_CL_SNAP, "TS", "TSEND", OTF_A_NUM)                        \
  X(SNAPOPENFILE, OTF_CL_SNAP, "TOF", "TOPENFILE", OTF_A_NUM)               \
  X(SNAPBEGINCOLLOP, OTF_CL_SNAP, "TBC", "TBEGINCOLLOP", OTF_A_NUM)         \
  X(SNAPBEGINFILEOP, OTF_CL_SNAP, "TBF", "TBEGINFILEOP", OTF_A_NUM)         \
  X(SNAPCOLLOPCOUNT, OTF_CL_SNAP, "TCOC", "TCOLLOPCOUNT", OTF_A_NUM)        \
  X(SNAPCOUNTER, OTF_CL_SNAP, "TCNT", "TCOUNTER", OTF_A_NUM)                \
  /* statistics / summaries (NAME.x.stats) */                                \
  X(SUMCOMMENT, OTF_CL_STAT, "SC", "SUMCOMMENT", OTF_A_STR)                 \
  X(SUMFUNCTION, OTF_CL_STAT, "SF", "SUMFUNCTION", OTF_A_NUM)               \
  X(SUMFUNCTIONGROUP, OTF_CL_STAT, "SG", "SUMFUNCTIONGROUP", OTF_A_NUM)     \
  X(SUMMESSAGE, OTF_CL_STAT, "SM", "SUMMESSAGE", OTF_A_NUM)                 \
  X(SUMCOLLOP, OTF_CL_STAT, "SCO", "SUMCOLLMESSAGE", OTF_A_NUM)             \
  X(SUMFILEOP, OTF_CL_STAT, "SFL", "SUMFILEOPERATION", OTF_A_NUM)           \
  X(SUMFILEGROUPOP, OTF_CL_STAT, "SFLG", "SUMFILEGROUPOPERATION", OTF_A_NUM) \
  /* markers (NAME.x.marker; carry their own time and process) */           \
  X(DEFMARKER, OTF_CL_MARK, "MD", "MARKERDEF", OTF_A_NUM)                   \
  X(MARKERSPOT, OTF_CL_MARK, "MS", "MARKERSPOT", OTF_A_NUM)

enum {
#define OTF__R_ENUM(id, cl, s, l, a) OTF_R_##id,
  OTF_RECORDS(OTF__R_ENUM)
#undef OTF__R_ENUM
  OTF_R__COUNT
};

typedef struct otf__span {
  const char *p;
  uint32_t n;
  uint8_t str; /* 1: was a quoted string (p/n exclude the quotes) */
} otf__span;

/* One record line, split into spans (pointers into the line). */
typedef struct otf__line {
  int rec;                  /* OTF_R_* */
  otf__span arg;            /* first argument */
  otf__span argstr;         /* DV: the string after the version */
  uint64_t present;         /* bit (1 << OTF_F_*) per field seen */
  otf__span f[OTF_F__COUNT];
  uint8_t fl[OTF_F__COUNT]; /* 1 if that field came in long spelling */
} otf__line;

/* Short / long spelling of a record or field (static strings). */
const char *pt__otf_record_short(int rec);
const char *pt__otf_record_long(int rec);
const char *pt__otf_field_short(int f);
const char *pt__otf_field_long(int f);

/* Split the record line [p, end) (no newline; not a time or process line).
 * Returns OTF_R_* (>= 0) and fills *ln, or -1 for an unknown record
 * keyword, or -2 for a malformed line; msg (n bytes) gets the reason with
 * the column.  Thread-safe. */
int pt__otf_split(const char *p, const char *end, otf__line *ln, char *msg,
                  size_t n);

/* Parse a hex number span; 0 or -1 (empty, bad digit, overflow). */
int pt__otf_hex(const otf__span *s, uint64_t *out);

/* Parse `n` bytes of one OTF file (events, defs, snaps or stats: all
 * record classes accepted) from memory, feeding every item to nothing; for
 * the fuzz target.  Returns PT_OK or the first error (message in msg). */
int pt__otf_parse_mem(const void *data, size_t n, char *msg, size_t msgn);

#endif
