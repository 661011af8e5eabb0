/* The PICL tables: every record type and every event type of Worley's "A
 * new PICL trace file format" (ORNL/TM-12125, Tables 3-18) plus the MPICL
 * extensions seen in real files.  Names, data-field layouts, the mapping to
 * the model and the writer's choices are all generated from these two
 * tables (src/formats/picl.c); nothing about an individual event type is
 * written anywhere else.
 */
#ifndef PT_FORMATS_PICL_TABLE_H
#define PT_FORMATS_PICL_TABLE_H

/* Data-field layouts (Tables 6-13): X(NAME, nfields, "field names") -- the
 * names document the fields in order; the reader keeps the values as
 * written (attribute picl.ints / picl.value) and the derived model events
 * take their slots from the positions below. */
#define PT_PICL_LAYOUTS(X)                                                   \
  X(NONE, 0, "")                                                             \
  X(SEND, 4, "length type dest_processor dest_process")                      \
  X(REQ, 1, "request")                                                       \
  X(RECV_WANT, 3, "req_type req_processor req_process")                      \
  X(RECV, 4, "length type src_processor src_process")                        \
  X(NAME, 1, "name (character data)")                                        \
  X(FD, 1, "fd")                                                             \
  X(LEN_FD, 2, "length fd")                                                  \
  X(SUBSETS, 2, "processor_subset process_subset")                           \
  X(NPROCS, 1, "processors")                                                 \
  X(SPAWNED, 2, "processor process")                                         \
  X(NUSER, 1, "user_events")                                                 \
  X(LEVELS, 3, "picl_level user_level trace_level")                          \
  X(LEN, 1, "length")                                                        \
  X(COLL_ROOT, 3, "length root subset")                                      \
  X(COLL, 2, "length subset")

/* What the reader derives from an event type's entry/exit records besides
 * the ENTER/LEAVE itself (and what the writer fills a foreign region's
 * records from).  Entry data are remembered per location until the exit. */
#define PT_PICL_ACTIONS(X)                                                   \
  X(NONE)         /* nothing */                                              \
  X(SEND)         /* entry: SEND(peer=dest, tag=type, bytes=length) */       \
  X(ISEND)        /* exit: ISEND(entry's dest/type/length, request=exit) */  \
  X(ISEND_DONE)   /* exit: ISEND_COMPLETE(request = entry) */                \
  X(RECV)         /* exit: RECV(peer=src, tag=type, bytes=length) */         \
  X(IRECV_POST)   /* exit: IRECV_REQUEST(request = exit) */                  \
  X(IRECV_DONE)   /* exit: IRECV(src/type/length of exit, request=entry) */  \
  X(COLL)         /* entry: COLL_BEGIN; exit: COLL_END(op, root, bytes) */

/* Event types (Tables 4-5 and MPICL):
 * X(code, NAME, "label", role, entry layout, exit layout, action, collective
 *   op, "model/MPI region names the writer maps to this type")
 * role is a pt_region_role without the PT_ROLE_ prefix.  The writer maps a
 * foreign region to the first row whose name list contains its name. */
#define PT_PICL_EVENTS(X)                                                       \
  X(-1, ALL, "all events", ARTIFICIAL, NONE, NONE, NONE, OTHER, "")             \
  X(-11, OPEN, "open", FUNCTION, NONE, NONE, NONE, OTHER, "MPI_Init MPI_Init_thread") \
  X(-12, CLOSE, "close", FUNCTION, NONE, NONE, NONE, OTHER, "MPI_Finalize")     \
  X(-13, WHO, "who", FUNCTION, NONE, NONE, NONE, OTHER, "MPI_Comm_rank MPI_Comm_size") \
  X(-14, RECVINFO, "recvinfo", FUNCTION, NONE, NONE, NONE, OTHER, "MPI_Get_count") \
  X(-21, SEND, "send", POINT2POINT, SEND, NONE, SEND, OTHER, "MPI_Send MPI_Bsend MPI_Ssend MPI_Rsend") \
  X(-22, BSEND, "bsend", POINT2POINT, SEND, NONE, SEND, OTHER, "")              \
  X(-23, SSEND, "ssend", POINT2POINT, SEND, NONE, SEND, OTHER, "")              \
  X(-24, RSEND, "rsend", POINT2POINT, SEND, NONE, SEND, OTHER, "")              \
  X(-27, SENDBEGIN, "sendbegin", POINT2POINT, SEND, REQ, ISEND, OTHER, "MPI_Isend MPI_Ibsend MPI_Issend MPI_Irsend") \
  X(-28, SENDSTATUS, "sendstatus (complete)", POINT2POINT, REQ, NONE, ISEND_DONE, OTHER, "") \
  X(-29, SENDSTATUS_NO, "sendstatus (not complete)", POINT2POINT, REQ, NONE, NONE, OTHER, "") \
  X(-30, SENDEND, "sendend (verify)", POINT2POINT, REQ, NONE, ISEND_DONE, OTHER, "") \
  X(-31, SENDEND_WAIT, "sendend (wait)", POINT2POINT, REQ, NONE, ISEND_DONE, OTHER, "") \
  X(-51, RECV, "recv", POINT2POINT, RECV_WANT, RECV, RECV, OTHER, "")           \
  X(-52, RECV_BLOCKED, "recv (blocked)", POINT2POINT, RECV_WANT, RECV, RECV, OTHER, "MPI_Recv") \
  X(-53, PROBE, "probe (available)", POINT2POINT, NONE, NONE, NONE, OTHER, "MPI_Probe") \
  X(-54, PROBE_NO, "probe (not available)", POINT2POINT, NONE, NONE, NONE, OTHER, "") \
  X(-55, WAIT, "wait (verify)", POINT2POINT, NONE, NONE, NONE, OTHER, "")       \
  X(-56, WAIT_BLOCKED, "wait (blocked)", POINT2POINT, RECV_WANT, RECV, RECV, OTHER, "") \
  X(-57, RECVBEGIN, "recvbegin", POINT2POINT, RECV_WANT, REQ, IRECV_POST, OTHER, "MPI_Irecv") \
  X(-58, RECVSTATUS, "recvstatus (complete)", POINT2POINT, REQ, RECV, IRECV_DONE, OTHER, "MPI_Test MPI_Testany MPI_Testall MPI_Testsome") \
  X(-59, RECVSTATUS_NO, "recvstatus (not complete)", POINT2POINT, REQ, NONE, NONE, OTHER, "") \
  X(-60, RECVEND, "recvend (verify)", POINT2POINT, REQ, RECV, IRECV_DONE, OTHER, "") \
  X(-61, RECVEND_WAIT, "recvend (wait)", POINT2POINT, REQ, RECV, IRECV_DONE, OTHER, "MPI_Wait MPI_Waitall MPI_Waitany MPI_Waitsome") \
  X(-201, FILE_OPEN, "file open", FILE_IO, NAME, FD, NONE, OTHER, "MPI_File_open open fopen") \
  X(-202, FILE_CLOSE, "file close", FILE_IO, FD, NONE, NONE, OTHER, "MPI_File_close close fclose") \
  X(-221, FILE_WRITE, "file write", FILE_IO, LEN_FD, NONE, NONE, OTHER, "MPI_File_write write fwrite") \
  X(-251, FILE_READ, "file read", FILE_IO, NONE, LEN_FD, NONE, OTHER, "MPI_File_read read fread") \
  X(-401, CLOCKSYNC, "clocksync", SYNC, SUBSETS, NONE, NONE, OTHER, "")        \
  X(-402, SYNC, "sync", BARRIER, SUBSETS, NONE, COLL, BARRIER, "MPI_Barrier") \
  X(-501, ALLOC, "allocate processors", FUNCTION, NPROCS, NPROCS, NONE, OTHER, "") \
  X(-502, RELEASE, "release processors", FUNCTION, NONE, NONE, NONE, OTHER, "") \
  X(-503, LOAD, "load", FUNCTION, NAME, SPAWNED, NONE, OTHER, "MPI_Comm_spawn") \
  X(-601, IDLE, "idle", ARTIFICIAL, NONE, NONE, NONE, OTHER, "")                \
  X(-602, SYS_OVERHEAD, "system overhead", ARTIFICIAL, NONE, NONE, NONE, OTHER, "") \
  X(-603, USER_OVERHEAD, "user or parallel overhead", ARTIFICIAL, NONE, NONE, NONE, OTHER, "") \
  X(-782, ALLREDUCE, "allreduce", COLLECTIVE, COLL, LEN, COLL, ALLREDUCE, "MPI_Allreduce") \
  X(-785, REDUCE_RECV, "reduce (receiving half)", COLLECTIVE, COLL_ROOT, LEN, NONE, OTHER, "") \
  X(-790, REDUCE, "reduce", COLLECTIVE, COLL_ROOT, LEN, COLL, REDUCE, "MPI_Reduce") \
  X(-901, TRACING, "tracing", TRACING, NONE, NONE, NONE, OTHER, "")            \
  X(-902, TRACEEVENTS, "traceevents", TRACING, NUSER, NONE, NONE, OTHER, "")   \
  X(-903, TRACEFILES, "tracefiles", TRACING, NONE, NONE, NONE, OTHER, "")      \
  X(-904, TRACELEVEL, "tracelevel", TRACING, LEVELS, NONE, NONE, OTHER, "")    \
  X(-905, TRACEINFO, "traceinfo", TRACING, NONE, NONE, NONE, OTHER, "")        \
  X(-911, TRACEMSG, "tracemsg", TRACING, LEN, NONE, NONE, OTHER, "")           \
  X(-912, TRACEFLUSH, "traceflush", TRACING, NONE, LEN, NONE, OTHER, "")       \
  X(-913, BUFFER_FULL, "trace buffer full, tracing disabled", TRACING, NONE, NONE, NONE, OTHER, "") \
  X(-914, BUFFER_WRAP, "trace buffer full, overwriting", TRACING, NONE, NONE, NONE, OTHER, "") \
  X(-1001, SUBSET_USER, "all user events", ARTIFICIAL, NONE, NONE, NONE, OTHER, "") \
  X(-1002, SUBSET_SYSTEM, "all system events", ARTIFICIAL, NONE, NONE, NONE, OTHER, "") \
  X(-1011, SUBSET_COMM, "all communication events", ARTIFICIAL, NONE, NONE, NONE, OTHER, "") \
  X(-1012, SUBSET_SEND, "all send events", ARTIFICIAL, NONE, NONE, NONE, OTHER, "") \
  X(-1013, SUBSET_RECV, "all receive events", ARTIFICIAL, NONE, NONE, NONE, OTHER, "") \
  X(-1014, SUBSET_BLOCKED, "all blocked send/receive events", ARTIFICIAL, NONE, NONE, NONE, OTHER, "") \
  X(-1201, SUBSET_FILE, "all file i/o events", ARTIFICIAL, NONE, NONE, NONE, OTHER, "") \
  X(-1401, SUBSET_SYNC, "all synchronization events", ARTIFICIAL, NONE, NONE, NONE, OTHER, "") \
  X(-1501, SUBSET_RESOURCE, "all resource allocation events", ARTIFICIAL, NONE, NONE, NONE, OTHER, "") \
  X(-1601, SUBSET_GENERIC, "all generic performance events", ARTIFICIAL, NONE, NONE, NONE, OTHER, "") \
  X(-1901, SUBSET_TRACING, "all tracing events", ARTIFICIAL, NONE, NONE, NONE, OTHER, "") \
  X(-1902, SUBSET_FLUSH, "all trace flushing events", ARTIFICIAL, NONE, NONE, NONE, OTHER, "")

/* Record types (Table 3): X(code, NAME, "name", class).  Classes: EVENT
 * (entry/exit/mark -> ENTER/LEAVE/MARK), LABEL (-5 -> LABEL def + a MARK
 * carrying the record), DESCRIPTOR (-6 -> DESCRIPTOR def + MARK), MESSAGE
 * (-7 -> MESSAGE), STATS (-101..-103 -> summaries), SUBSET (-201..-203 ->
 * GROUP def + MARK).  Record types >= 0 are user records (USER events);
 * any other negative type is kept verbatim in a MARK (header records). */
#define PT_PICL_RECORDS(X)                                                   \
  X(-2, MARK, "event mark", EVENT)                                           \
  X(-3, ENTRY, "event entry", EVENT)                                         \
  X(-4, EXIT, "event exit", EVENT)                                           \
  X(-5, LABEL, "event label", LABEL)                                         \
  X(-6, DESCRIPTOR, "event data descriptor", DESCRIPTOR)                     \
  X(-7, MESSAGE, "event message", MESSAGE)                                   \
  X(-101, STAT_TIME, "cumulative time", STATS)                               \
  X(-102, STAT_COUNT, "number of occurrences", STATS)                        \
  X(-103, STAT_VOLUME, "volume", STATS)                                      \
  X(-201, SUBSET_PROCESSORS, "processor subset", SUBSET)                     \
  X(-202, SUBSET_PROCESSES, "process subset", SUBSET)                        \
  X(-203, SUBSET_EVENTS, "event type subset", SUBSET)

/* Predefined integer data descriptors (Table 2). */
#define PT_PICL_DESCRIPTORS(X)                                               \
  X(0, CHAR, "%c") X(1, STRING, "%s") X(2, INT, "%d") X(3, LONG, "%ld")      \
  X(4, FLOAT, "%f") X(5, DOUBLE, "%lf")

#endif
