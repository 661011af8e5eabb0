/* GENERATED ONCE by a script from the facts in sst-dumpi 13.0.0 (dumpiio.c write
 * order and wire widths, dumpi2ascii-callbacks.c print order); maintained by
 * hand since.  See dumpi.h for the meaning of the columns. */
#define PT__DUMPI_FUNCS(X) \
  X(0, "MPI_Send", SEND, OTHER, 0, ( A(INT, "count", -1, -1, -1)              \
    A(DATATYPE, "datatype", -1, -1, -1) A(DEST, "dest", -1, -1, -1)           \
    A(TAG, "tag", -1, -1, -1) A(COMM, "comm", -1, -1, -1)))                   \
  X(1, "MPI_Recv", RECV, OTHER, 0, ( A(INT, "count", -1, -1, -1)              \
    A(DATATYPE, "datatype", -1, -1, -1) A(SOURCE, "source", -1, -1, -1)       \
    A(TAG, "tag", -1, -1, -1) A(COMM, "comm", -1, -1, -1)                     \
    A(STATUS, "status", -1, -1, -1)))                                         \
  X(2, "MPI_Get_count", NONE, OTHER, 0, ( A(STATUS, "status", -1, -1, -1)     \
    A(DATATYPE, "datatype", -1, -1, -1) A(INT, "count", -1, -1, -1)))         \
  X(3, "MPI_Bsend", SEND, OTHER, 0, ( A(INT, "count", -1, -1, -1)             \
    A(DATATYPE, "datatype", -1, -1, -1) A(DEST, "dest", -1, -1, -1)           \
    A(TAG, "tag", -1, -1, -1) A(COMM, "comm", -1, -1, -1)))                   \
  X(4, "MPI_Ssend", SEND, OTHER, 0, ( A(INT, "count", -1, -1, -1)             \
    A(DATATYPE, "datatype", -1, -1, -1) A(DEST, "dest", -1, -1, -1)           \
    A(TAG, "tag", -1, -1, -1) A(COMM, "comm", -1, -1, -1)))                   \
  X(5, "MPI_Rsend", SEND, OTHER, 0, ( A(INT, "count", -1, -1, -1)             \
    A(DATATYPE, "datatype", -1, -1, -1) A(DEST, "dest", -1, -1, -1)           \
    A(TAG, "tag", -1, -1, -1) A(COMM, "comm", -1, -1, -1)))                   \
  X(6, "MPI_Buffer_attach", NONE, OTHER, 0, ( A(INT, "size", -1, -1, -1)))    \
  X(7, "MPI_Buffer_detach", NONE, OTHER, 0, ( A(INT, "size", -1, -1, -1)))    \
  X(8, "MPI_Isend", ISEND, OTHER, 0, ( A(INT, "count", -1, -1, -1)            \
    A(DATATYPE, "datatype", -1, -1, -1) A(DEST, "dest", -1, -1, -1)           \
    A(INT, "tag", -1, -1, -1) A(COMM, "comm", -1, -1, -1)                     \
    A(REQUEST, "request", -1, -1, -1)))                                       \
  X(9, "MPI_Ibsend", ISEND, OTHER, 0, ( A(INT, "count", -1, -1, -1)           \
    A(DATATYPE, "datatype", -1, -1, -1) A(DEST, "dest", -1, -1, -1)           \
    A(TAG, "tag", -1, -1, -1) A(COMM, "comm", -1, -1, -1)                     \
    A(REQUEST, "request", -1, -1, -1)))                                       \
  X(10, "MPI_Issend", ISEND, OTHER, 0, ( A(INT, "count", -1, -1, -1)          \
    A(DATATYPE, "datatype", -1, -1, -1) A(DEST, "dest", -1, -1, -1)           \
    A(TAG, "tag", -1, -1, -1) A(COMM, "comm", -1, -1, -1)                     \
    A(REQUEST, "request", -1, -1, -1)))                                       \
  X(11, "MPI_Irsend", ISEND, OTHER, 0, ( A(INT, "count", -1, -1, -1)          \
    A(DATATYPE, "datatype", -1, -1, -1) A(DEST, "dest", -1, -1, -1)           \
    A(TAG, "tag", -1, -1, -1) A(COMM, "comm", -1, -1, -1)                     \
    A(REQUEST, "request", -1, -1, -1)))                                       \
  X(12, "MPI_Irecv", IRECV, OTHER, 0, ( A(INT, "count", -1, -1, -1)           \
    A(DATATYPE, "datatype", -1, -1, -1) A(SOURCE, "source", -1, -1, -1)       \
    A(TAG, "tag", -1, -1, -1) A(COMM, "comm", -1, -1, -1)                     \
    A(REQUEST, "request", -1, -1, -1)))                                       \
  X(13, "MPI_Wait", WAIT, OTHER, 0, ( A(REQUEST, "request", -1, -1, -1)       \
    A(STATUS, "status", -1, -1, -1)))                                         \
  X(14, "MPI_Test", TEST, OTHER, 0, ( A(REQUEST, "request", -1, -1, -1)       \
    A(INT, "flag", -1, -1, -1) A(STATUS, "status", -1, -1, -1)))              \
  X(15, "MPI_Request_free", REQUEST_FREE, OTHER, 0, (                         \
    A(REQUEST, "request", -1, -1, -1)))                                       \
  X(16, "MPI_Waitany", WAITANY, OTHER, 0, ( A(INT, "count", -1, -1, -1)       \
    A(REQUESTS, "requests", 0, -1, -1) A(INT, "index", -1, -1, -1)            \
    A(STATUS, "status", -1, -1, -1)))                                         \
  X(17, "MPI_Testany", TESTANY, OTHER, 0, ( A(INT, "count", -1, -1, -1)       \
    A(REQUESTS, "requests", 0, -1, -1) A(INT, "index", -1, -1, -1)            \
    A(INT, "flag", -1, -1, -1) A(STATUS, "status", -1, -1, -1)))              \
  X(18, "MPI_Waitall", WAITALL, OTHER, 0, ( A(INT, "count", -1, -1, -1)       \
    A(REQUESTS, "requests", 0, -1, -1) A(STATUSES, "statuses", 0, -1, -1)))   \
  X(19, "MPI_Testall", TESTALL, OTHER, 0, ( A(INT, "count", -1, -1, -1)       \
    A(REQUESTS, "requests", 0, -1, -1) A(INT, "flag", -1, -1, -1)             \
    A(STATUSES, "statuses", 0, -1, -1)))                                      \
  X(20, "MPI_Waitsome", WAITSOME, OTHER, 0, ( A(INT, "count", -1, -1, -1)     \
    A(REQUESTS, "requests", 0, -1, -1) A(INT, "outcount", -1, -1, -1)         \
    A(INTS, "indices", 2, -1, -1) A(STATUSES, "statuses", 2, -1, -1)))        \
  X(21, "MPI_Testsome", TESTSOME, OTHER, 0, ( A(INT, "count", -1, -1, -1)     \
    A(REQUESTS, "requests", 0, -1, -1) A(INT, "outcount", -1, -1, -1)         \
    A(INTS, "indices", 2, -1, -1) A(STATUSES, "statuses", 2, -1, -1)))        \
  X(22, "MPI_Iprobe", NONE, OTHER, 0, ( A(SOURCE, "source", -1, -1, -1)       \
    A(TAG, "tag", -1, -1, -1) A(COMM, "comm", -1, -1, -1)                     \
    A(INT, "flag", -1, -1, -1) A(STATUS, "status", -1, -1, -1)))              \
  X(23, "MPI_Probe", NONE, OTHER, 0, ( A(SOURCE, "source", -1, -1, -1)        \
    A(TAG, "tag", -1, -1, -1) A(COMM, "comm", -1, -1, -1)                     \
    A(STATUS, "status", -1, -1, -1)))                                         \
  X(24, "MPI_Cancel", CANCEL, OTHER, 0, ( A(REQUEST, "request", -1, -1, -1))) \
  X(25, "MPI_Test_cancelled", NONE, OTHER, 0, (                               \
    A(STATUS, "status", -1, -1, -1) A(INT, "cancelled", -1, -1, -1)))         \
  X(26, "MPI_Send_init", SEND_INIT, OTHER, 0, ( A(INT, "count", -1, -1, -1)   \
    A(DATATYPE, "datatype", -1, -1, -1) A(DEST, "dest", -1, -1, -1)           \
    A(TAG, "tag", -1, -1, -1) A(COMM, "comm", -1, -1, -1)                     \
    A(REQUEST, "request", -1, -1, -1)))                                       \
  X(27, "MPI_Bsend_init", SEND_INIT, OTHER, 0, ( A(INT, "count", -1, -1, -1)  \
    A(DATATYPE, "datatype", -1, -1, -1) A(DEST, "dest", -1, -1, -1)           \
    A(TAG, "tag", -1, -1, -1) A(COMM, "comm", -1, -1, -1)                     \
    A(REQUEST, "request", -1, -1, -1)))                                       \
  X(28, "MPI_Ssend_init", SEND_INIT, OTHER, 0, ( A(INT, "count", -1, -1, -1)  \
    A(DATATYPE, "datatype", -1, -1, -1) A(DEST, "dest", -1, -1, -1)           \
    A(TAG, "tag", -1, -1, -1) A(COMM, "comm", -1, -1, -1)                     \
    A(REQUEST, "request", -1, -1, -1)))                                       \
  X(29, "MPI_Rsend_init", SEND_INIT, OTHER, 0, ( A(INT, "count", -1, -1, -1)  \
    A(DATATYPE, "datatype", -1, -1, -1) A(DEST, "dest", -1, -1, -1)           \
    A(TAG, "tag", -1, -1, -1) A(COMM, "comm", -1, -1, -1)                     \
    A(REQUEST, "request", -1, -1, -1)))                                       \
  X(30, "MPI_Recv_init", RECV_INIT, OTHER, 0, ( A(INT, "count", -1, -1, -1)   \
    A(DATATYPE, "datatype", -1, -1, -1) A(SOURCE, "source", -1, -1, -1)       \
    A(TAG, "tag", -1, -1, -1) A(COMM, "comm", -1, -1, -1)                     \
    A(REQUEST, "request", -1, -1, -1)))                                       \
  X(31, "MPI_Start", START, OTHER, 0, ( A(REQUEST, "request", -1, -1, -1)))   \
  X(32, "MPI_Startall", STARTALL, OTHER, 0, ( A(INT, "count", -1, -1, -1)     \
    A(REQUESTS, "requests", 0, -1, -1)))                                      \
  X(33, "MPI_Sendrecv", SENDRECV, OTHER, 0, (                                 \
    A(INT, "sendcount", -1, -1, -1) A(DATATYPE, "sendtype", -1, -1, -1)       \
    A(DEST, "dest", -1, -1, -1) A(TAG, "sendtag", -1, -1, -1)                 \
    A(INT, "recvcount", -1, -1, -1) A(DATATYPE, "recvtype", -1, -1, -1)       \
    A(SOURCE, "source", -1, -1, -1) A(TAG, "recvtag", -1, -1, -1)             \
    A(COMM, "comm", -1, -1, -1) A(STATUS, "status", -1, -1, -1)))             \
  X(34, "MPI_Sendrecv_replace", SENDRECV, OTHER, 0, (                         \
    A(INT, "count", -1, -1, -1) A(DATATYPE, "datatype", -1, -1, -1)           \
    A(DEST, "dest", -1, -1, -1) A(TAG, "sendtag", -1, -1, -1)                 \
    A(SOURCE, "source", -1, -1, -1) A(TAG, "recvtag", -1, -1, -1)             \
    A(COMM, "comm", -1, -1, -1) A(STATUS, "status", -1, -1, -1)))             \
  X(35, "MPI_Type_contiguous", NONE, OTHER, 0, ( A(INT, "count", -1, -1, -1)  \
    A(DATATYPE, "oldtype", -1, -1, -1) A(DATATYPE, "newtype", -1, -1, -1)))   \
  X(36, "MPI_Type_vector", NONE, OTHER, 0, ( A(INT, "count", -1, -1, -1)      \
    A(INT, "blocklength", -1, -1, -1) A(INT, "stride", -1, -1, -1)            \
    A(DATATYPE, "oldtype", -1, -1, -1) A(DATATYPE, "newtype", -1, -1, -1)))   \
  X(37, "MPI_Type_hvector", NONE, OTHER, 0, ( A(INT, "count", -1, -1, -1)     \
    A(INT, "blocklength", -1, -1, -1) A(INT, "stride", -1, -1, -1)            \
    A(DATATYPE, "oldtype", -1, -1, -1) A(DATATYPE, "newtype", -1, -1, -1)))   \
  X(38, "MPI_Type_indexed", NONE, OTHER, 0, ( A(INT, "count", -1, -1, -1)     \
    A(INTS, "lengths", 0, -1, -1) A(INTS, "indices", 0, -1, -1)               \
    A(DATATYPE, "oldtype", -1, -1, -1) A(DATATYPE, "newtype", -1, -1, -1)))   \
  X(39, "MPI_Type_hindexed", NONE, OTHER, 0, ( A(INT, "count", -1, -1, -1)    \
    A(INTS, "lengths", 0, -1, -1) A(INTS, "indices", 0, -1, -1)               \
    A(DATATYPE, "oldtype", -1, -1, -1) A(DATATYPE, "newtype", -1, -1, -1)))   \
  X(40, "MPI_Type_struct", NONE, OTHER, 0, ( A(INT, "count", -1, -1, -1)      \
    A(INTS, "lengths", 0, -1, -1) A(INTS, "indices", 0, -1, -1)               \
    A(DATATYPES, "oldtypes", 0, -1, -1) A(DATATYPE, "newtype", -1, -1, -1)))  \
  X(41, "MPI_Address", NONE, OTHER, 0, ( A(INT, "address", -1, -1, -1)))      \
  X(42, "MPI_Type_extent", NONE, OTHER, 0, (                                  \
    A(DATATYPE, "datatype", -1, -1, -1) A(INT, "extent", -1, -1, -1)))        \
  X(43, "MPI_Type_size", NONE, OTHER, 0, (                                    \
    A(DATATYPE, "datatype", -1, -1, -1) A(INT, "size", -1, -1, -1)))          \
  X(44, "MPI_Type_lb", NONE, OTHER, 0, ( A(DATATYPE, "datatype", -1, -1, -1)  \
    A(INT, "lb", -1, -1, -1)))                                                \
  X(45, "MPI_Type_ub", NONE, OTHER, 0, ( A(DATATYPE, "datatype", -1, -1, -1)  \
    A(INT, "ub", -1, -1, -1)))                                                \
  X(46, "MPI_Type_commit", NONE, OTHER, 0, (                                  \
    A(DATATYPE, "datatype", -1, -1, -1)))                                     \
  X(47, "MPI_Type_free", NONE, OTHER, 0, (                                    \
    A(DATATYPE, "datatype", -1, -1, -1)))                                     \
  X(48, "MPI_Get_elements", NONE, OTHER, 0, (                                 \
    A(STATUS, "status", -1, -1, -1) A(DATATYPE, "datatype", -1, -1, -1)       \
    A(INT, "elements", -1, -1, -1)))                                          \
  X(49, "MPI_Pack", NONE, OTHER, 0, ( A(INT, "incount", -1, -1, -1)           \
    A(DATATYPE, "datatype", -1, -1, -1) A(INT, "outcount", -1, -1, -1)        \
    A(INT, "position.in", -1, -1, -1) A(INT, "position.out", -1, -1, -1)      \
    A(COMM, "comm", -1, -1, -1)))                                             \
  X(50, "MPI_Unpack", NONE, OTHER, 0, ( A(INT, "incount", -1, -1, -1)         \
    A(INT, "position.in", -1, -1, -1) A(INT, "position.out", -1, -1, -1)      \
    A(INT, "outcount", -1, -1, -1) A(DATATYPE, "datatype", -1, -1, -1)        \
    A(COMM, "comm", -1, -1, -1)))                                             \
  X(51, "MPI_Pack_size", NONE, OTHER, 0, ( A(INT, "incount", -1, -1, -1)      \
    A(DATATYPE, "datatype", -1, -1, -1) A(COMM, "comm", -1, -1, -1)           \
    A(INT, "size", -1, -1, -1)))                                              \
  X(52, "MPI_Barrier", COLL, BARRIER, 0, ( A(COMM, "comm", -1, -1, -1)))      \
  X(53, "MPI_Bcast", COLL, BCAST, 0, ( A(INT, "count", -1, -1, -1)            \
    A(DATATYPE, "datatype", -1, -1, -1) A(INT, "root", -1, -1, -1)            \
    A(COMM, "comm", -1, -1, -1)))                                             \
  X(54, "MPI_Gather", COLL, GATHER, "abcfgde", (                              \
    A(INT, "commrank", -1, -1, -1) A(INT, "sendcount", -1, -1, -1)            \
    A(DATATYPE, "sendtype", -1, -1, -1) A(INT, "root", -1, -1, -1)            \
    A(COMM, "comm", -1, -1, -1) A(INT, "recvcount", -1, 0, 3)                 \
    A(DATATYPE, "recvtype", -1, 0, 3)))                                       \
  X(55, "MPI_Gatherv", COLL, GATHERV, "abcdghief", (                          \
    A(INT, "commrank", -1, -1, -1) A(INT, "commsize", -1, -1, -1)             \
    A(INT, "sendcount", -1, -1, -1) A(DATATYPE, "sendtype", -1, -1, -1)       \
    A(INT, "root", -1, -1, -1) A(COMM, "comm", -1, -1, -1)                    \
    A(INTS, "recvcounts", 1, 0, 4) A(INTS, "displs", 1, 0, 4)                 \
    A(DATATYPE, "recvtype", -1, -1, -1)))                                     \
  X(56, "MPI_Scatter", COLL, SCATTER, "afgbcde", (                            \
    A(INT, "commrank", -1, -1, -1) A(INT, "recvcount", -1, -1, -1)            \
    A(DATATYPE, "recvtype", -1, -1, -1) A(INT, "root", -1, -1, -1)            \
    A(COMM, "comm", -1, -1, -1) A(INT, "sendcount", -1, 0, 3)                 \
    A(DATATYPE, "sendtype", -1, 0, 3)))                                       \
  X(57, "MPI_Scatterv", COLL, SCATTERV, "abhicdefg", (                        \
    A(INT, "commrank", -1, -1, -1) A(INT, "commsize", -1, -1, -1)             \
    A(DATATYPE, "sendtype", -1, -1, -1) A(INT, "recvcount", -1, -1, -1)       \
    A(DATATYPE, "recvtype", -1, -1, -1) A(INT, "root", -1, -1, -1)            \
    A(COMM, "comm", -1, -1, -1) A(INTS, "sendcounts", 1, 0, 5)                \
    A(INTS, "displs", 1, 0, 5)))                                              \
  X(58, "MPI_Allgather", COLL, ALLGATHER, 0, (                                \
    A(INT, "sendcount", -1, -1, -1) A(DATATYPE, "sendtype", -1, -1, -1)       \
    A(INT, "recvcount", -1, -1, -1) A(DATATYPE, "recvtype", -1, -1, -1)       \
    A(COMM, "comm", -1, -1, -1)))                                             \
  X(59, "MPI_Allgatherv", COLL, ALLGATHERV, 0, (                              \
    A(INT, "commsize", -1, -1, -1) A(INT, "sendcount", -1, -1, -1)            \
    A(DATATYPE, "sendtype", -1, -1, -1) A(INTS, "recvcounts", 0, -1, -1)      \
    A(INTS, "displs", 0, -1, -1) A(DATATYPE, "recvtype", -1, -1, -1)          \
    A(COMM, "comm", -1, -1, -1)))                                             \
  X(60, "MPI_Alltoall", COLL, ALLTOALL, 0, ( A(INT, "sendcount", -1, -1, -1)  \
    A(DATATYPE, "sendtype", -1, -1, -1) A(INT, "recvcount", -1, -1, -1)       \
    A(DATATYPE, "recvtype", -1, -1, -1) A(COMM, "comm", -1, -1, -1)))         \
  X(61, "MPI_Alltoallv", COLL, ALLTOALLV, 0, (                                \
    A(INT, "commsize", -1, -1, -1) A(INTS, "sendcounts", 0, -1, -1)           \
    A(INTS, "senddispls", 0, -1, -1) A(DATATYPE, "sendtype", -1, -1, -1)      \
    A(INTS, "recvcounts", 0, -1, -1) A(INTS, "recvdispls", 0, -1, -1)         \
    A(DATATYPE, "recvtype", -1, -1, -1) A(COMM, "comm", -1, -1, -1)))         \
  X(62, "MPI_Reduce", COLL, REDUCE, 0, ( A(INT, "count", -1, -1, -1)          \
    A(DATATYPE, "datatype", -1, -1, -1) A(OP, "op", -1, -1, -1)               \
    A(INT, "root", -1, -1, -1) A(COMM, "comm", -1, -1, -1)))                  \
  X(63, "MPI_Op_create", NONE, OTHER, 0, ( A(INT, "commute", -1, -1, -1)      \
    A(OP, "op", -1, -1, -1)))                                                 \
  X(64, "MPI_Op_free", NONE, OTHER, 0, ( A(OP, "op", -1, -1, -1)))            \
  X(65, "MPI_Allreduce", COLL, ALLREDUCE, 0, ( A(INT, "count", -1, -1, -1)    \
    A(DATATYPE, "datatype", -1, -1, -1) A(OP, "op", -1, -1, -1)               \
    A(COMM, "comm", -1, -1, -1)))                                             \
  X(66, "MPI_Reduce_scatter", COLL, REDUCE_SCATTER, 0, (                      \
    A(INT, "commsize", -1, -1, -1) A(INTS, "recvcounts", 0, -1, -1)           \
    A(DATATYPE, "datatype", -1, -1, -1) A(OP, "op", -1, -1, -1)               \
    A(COMM, "comm", -1, -1, -1)))                                             \
  X(67, "MPI_Scan", COLL, SCAN, 0, ( A(INT, "count", -1, -1, -1)              \
    A(DATATYPE, "datatype", -1, -1, -1) A(OP, "op", -1, -1, -1)               \
    A(COMM, "comm", -1, -1, -1)))                                             \
  X(68, "MPI_Group_size", NONE, OTHER, 0, ( A(GROUP, "group", -1, -1, -1)     \
    A(INT, "size", -1, -1, -1)))                                              \
  X(69, "MPI_Group_rank", NONE, OTHER, 0, ( A(GROUP, "group", -1, -1, -1)     \
    A(INT, "rank", -1, -1, -1)))                                              \
  X(70, "MPI_Group_translate_ranks", NONE, OTHER, 0, (                        \
    A(GROUP, "group1", -1, -1, -1) A(INT, "count", -1, -1, -1)                \
    A(INTS, "ranks1", 1, -1, -1) A(GROUP, "group2", -1, -1, -1)               \
    A(INTS, "ranks2", 1, -1, -1)))                                            \
  X(71, "MPI_Group_compare", NONE, OTHER, 0, (                                \
    A(GROUP, "group1", -1, -1, -1) A(GROUP, "group2", -1, -1, -1)             \
    A(COMPARISON, "result", -1, -1, -1)))                                     \
  X(72, "MPI_Comm_group", NONE, OTHER, 0, ( A(COMM, "comm", -1, -1, -1)       \
    A(GROUP, "group", -1, -1, -1)))                                           \
  X(73, "MPI_Group_union", NONE, OTHER, 0, ( A(GROUP, "group1", -1, -1, -1)   \
    A(GROUP, "group2", -1, -1, -1) A(GROUP, "newgroup", -1, -1, -1)))         \
  X(74, "MPI_Group_intersection", NONE, OTHER, 0, (                           \
    A(GROUP, "group1", -1, -1, -1) A(GROUP, "group2", -1, -1, -1)             \
    A(GROUP, "newgroup", -1, -1, -1)))                                        \
  X(75, "MPI_Group_difference", NONE, OTHER, 0, (                             \
    A(GROUP, "group1", -1, -1, -1) A(GROUP, "group2", -1, -1, -1)             \
    A(GROUP, "newgroup", -1, -1, -1)))                                        \
  X(76, "MPI_Group_incl", NONE, OTHER, 0, ( A(GROUP, "group", -1, -1, -1)     \
    A(INT, "count", -1, -1, -1) A(INTS, "ranks", 1, -1, -1)                   \
    A(GROUP, "newgroup", -1, -1, -1)))                                        \
  X(77, "MPI_Group_excl", NONE, OTHER, 0, ( A(GROUP, "group", -1, -1, -1)     \
    A(INT, "count", -1, -1, -1) A(INTS, "ranks", 1, -1, -1)                   \
    A(GROUP, "newgroup", -1, -1, -1)))                                        \
  X(78, "MPI_Group_range_incl", NONE, OTHER, 0, (                             \
    A(GROUP, "group", -1, -1, -1) A(INT, "count", -1, -1, -1)                 \
    A(INTS2, "ranges", 1, -1, -1) A(GROUP, "newgroup", -1, -1, -1)))          \
  X(79, "MPI_Group_range_excl", NONE, OTHER, 0, (                             \
    A(GROUP, "group", -1, -1, -1) A(INT, "count", -1, -1, -1)                 \
    A(INTS2, "ranges", 1, -1, -1) A(GROUP, "newgroup", -1, -1, -1)))          \
  X(80, "MPI_Group_free", NONE, OTHER, 0, ( A(GROUP, "group", -1, -1, -1)))   \
  X(81, "MPI_Comm_size", COMM_SIZE, OTHER, 0, ( A(COMM, "comm", -1, -1, -1)   \
    A(INT, "size", -1, -1, -1)))                                              \
  X(82, "MPI_Comm_rank", COMM_RANK, OTHER, 0, ( A(COMM, "comm", -1, -1, -1)   \
    A(INT, "rank", -1, -1, -1)))                                              \
  X(83, "MPI_Comm_compare", NONE, OTHER, 0, ( A(COMM, "comm1", -1, -1, -1)    \
    A(COMM, "comm2", -1, -1, -1) A(COMPARISON, "result", -1, -1, -1)))        \
  X(84, "MPI_Comm_dup", NONE, OTHER, 0, ( A(COMM, "oldcomm", -1, -1, -1)      \
    A(COMM, "newcomm", -1, -1, -1)))                                          \
  X(85, "MPI_Comm_create", NONE, OTHER, 0, ( A(COMM, "oldcomm", -1, -1, -1)   \
    A(GROUP, "group", -1, -1, -1) A(COMM, "newcomm", -1, -1, -1)))            \
  X(86, "MPI_Comm_split", NONE, OTHER, 0, ( A(COMM, "oldcomm", -1, -1, -1)    \
    A(INT, "color", -1, -1, -1) A(INT, "key", -1, -1, -1)                     \
    A(COMM, "newcomm", -1, -1, -1)))                                          \
  X(87, "MPI_Comm_free", NONE, OTHER, 0, ( A(COMM, "comm", -1, -1, -1)))      \
  X(88, "MPI_Comm_test_inter", NONE, OTHER, 0, ( A(COMM, "comm", -1, -1, -1)  \
    A(INT, "inter", -1, -1, -1)))                                             \
  X(89, "MPI_Comm_remote_size", NONE, OTHER, 0, (                             \
    A(COMM, "comm", -1, -1, -1) A(INT, "size", -1, -1, -1)))                  \
  X(90, "MPI_Comm_remote_group", NONE, OTHER, 0, (                            \
    A(COMM, "comm", -1, -1, -1) A(GROUP, "group", -1, -1, -1)))               \
  X(91, "MPI_Intercomm_create", NONE, OTHER, 0, (                             \
    A(COMM, "localcomm", -1, -1, -1) A(INT, "localleader", -1, -1, -1)        \
    A(COMM, "remotecomm", -1, -1, -1) A(INT, "remoteleader", -1, -1, -1)      \
    A(TAG, "tag", -1, -1, -1) A(COMM, "newcomm", -1, -1, -1)))                \
  X(92, "MPI_Intercomm_merge", NONE, OTHER, 0, ( A(COMM, "comm", -1, -1, -1)  \
    A(INT, "high", -1, -1, -1) A(COMM, "newcomm", -1, -1, -1)))               \
  X(93, "MPI_Keyval_create", NONE, OTHER, 0, ( A(KEYVAL, "key", -1, -1, -1))) \
  X(94, "MPI_Keyval_free", NONE, OTHER, 0, ( A(KEYVAL, "key", -1, -1, -1)))   \
  X(95, "MPI_Attr_put", NONE, OTHER, 0, ( A(COMM, "comm", -1, -1, -1)         \
    A(INT, "key", -1, -1, -1)))                                               \
  X(96, "MPI_Attr_get", NONE, OTHER, 0, ( A(COMM, "comm", -1, -1, -1)         \
    A(INT, "key", -1, -1, -1) A(INT, "flag", -1, -1, -1)))                    \
  X(97, "MPI_Attr_delete", NONE, OTHER, 0, ( A(COMM, "comm", -1, -1, -1)      \
    A(INT, "key", -1, -1, -1)))                                               \
  X(98, "MPI_Topo_test", NONE, OTHER, 0, ( A(COMM, "comm", -1, -1, -1)        \
    A(TOPOLOGY, "topo", -1, -1, -1)))                                         \
  X(99, "MPI_Cart_create", NONE, OTHER, 0, ( A(COMM, "oldcomm", -1, -1, -1)   \
    A(INT, "ndim", -1, -1, -1) A(INTS, "dims", 1, -1, -1)                     \
    A(INTS, "periods", 1, -1, -1) A(INT, "reorder", -1, -1, -1)               \
    A(COMM, "newcomm", -1, -1, -1)))                                          \
  X(100, "MPI_Dims_create", NONE, OTHER, 0, ( A(INT, "nodes", -1, -1, -1)     \
    A(INT, "ndim", -1, -1, -1) A(INTS, "dims.in", 1, -1, -1)                  \
    A(INTS, "dims.out", 1, -1, -1)))                                          \
  X(101, "MPI_Graph_create", NONE, OTHER, 0, (                                \
    A(INT, "numedges", -1, -1, -1) A(COMM, "oldcomm", -1, -1, -1)             \
    A(INT, "nodes", -1, -1, -1) A(INTS, "index", 2, -1, -1)                   \
    A(INTS, "edges", 0, -1, -1) A(INT, "reorder", -1, -1, -1)                 \
    A(COMM, "newcomm", -1, -1, -1)))                                          \
  X(102, "MPI_Graphdims_get", NONE, OTHER, 0, ( A(COMM, "comm", -1, -1, -1)   \
    A(INT, "nodes", -1, -1, -1) A(INT, "edges", -1, -1, -1)))                 \
  X(103, "MPI_Graph_get", NONE, OTHER, 0, ( A(INT, "totedges", -1, -1, -1)    \
    A(INT, "totnodes", -1, -1, -1) A(COMM, "comm", -1, -1, -1)                \
    A(INT, "maxindex", -1, -1, -1) A(INT, "maxedges", -1, -1, -1)             \
    A(INTS, "index", 1, -1, -1) A(INTS, "edges", 0, -1, -1)))                 \
  X(104, "MPI_Cartdim_get", NONE, OTHER, 0, ( A(COMM, "comm", -1, -1, -1)     \
    A(INT, "ndim", -1, -1, -1)))                                              \
  X(105, "MPI_Cart_get", NONE, OTHER, 0, ( A(INT, "ndim", -1, -1, -1)         \
    A(COMM, "comm", -1, -1, -1) A(INT, "maxdims", -1, -1, -1)                 \
    A(INTS, "dims", 0, -1, -1) A(INTS, "periods", 0, -1, -1)                  \
    A(INTS, "coords", 0, -1, -1)))                                            \
  X(106, "MPI_Cart_rank", NONE, OTHER, 0, ( A(INT, "ndim", -1, -1, -1)        \
    A(COMM, "comm", -1, -1, -1) A(INTS, "coords", 0, -1, -1)                  \
    A(INT, "rank", -1, -1, -1)))                                              \
  X(107, "MPI_Cart_coords", NONE, OTHER, 0, ( A(INT, "ndim", -1, -1, -1)      \
    A(COMM, "comm", -1, -1, -1) A(INT, "rank", -1, -1, -1)                    \
    A(INT, "maxdims", -1, -1, -1) A(INTS, "coords", 0, -1, -1)))              \
  X(108, "MPI_Graph_neighbors_count", NONE, OTHER, 0, (                       \
    A(COMM, "comm", -1, -1, -1) A(INT, "rank", -1, -1, -1)                    \
    A(INT, "nneigh", -1, -1, -1)))                                            \
  X(109, "MPI_Graph_neighbors", NONE, OTHER, 0, (                             \
    A(INT, "nneigh", -1, -1, -1) A(COMM, "comm", -1, -1, -1)                  \
    A(INT, "rank", -1, -1, -1) A(INT, "maxneighbors", -1, -1, -1)             \
    A(INTS, "neighbors", 0, -1, -1)))                                         \
  X(110, "MPI_Cart_shift", NONE, OTHER, 0, ( A(COMM, "comm", -1, -1, -1)      \
    A(INT, "direction", -1, -1, -1) A(INT, "displ", -1, -1, -1)               \
    A(SOURCE, "source", -1, -1, -1) A(DEST, "dest", -1, -1, -1)))             \
  X(111, "MPI_Cart_sub", NONE, OTHER, 0, ( A(INT, "ndim", -1, -1, -1)         \
    A(COMM, "oldcomm", -1, -1, -1) A(INTS, "remain_dims", 0, -1, -1)          \
    A(COMM, "newcomm", -1, -1, -1)))                                          \
  X(112, "MPI_Cart_map", NONE, OTHER, 0, ( A(COMM, "comm", -1, -1, -1)        \
    A(INT, "ndim", -1, -1, -1) A(INTS, "dims", 1, -1, -1)                     \
    A(INTS, "period", 1, -1, -1) A(INT, "newrank", -1, -1, -1)))              \
  X(113, "MPI_Graph_map", NONE, OTHER, 0, ( A(INT, "numedges", -1, -1, -1)    \
    A(COMM, "comm", -1, -1, -1) A(INT, "nodes", -1, -1, -1)                   \
    A(INTS, "index", 2, -1, -1) A(INTS, "edges", 0, -1, -1)                   \
    A(INT, "newrank", -1, -1, -1)))                                           \
  X(114, "MPI_Get_processor_name", NONE, OTHER, 0, (                          \
    A(STRING, "name", 1, -1, -1) A(INT, "resultlen", -1, -1, -1)))            \
  X(115, "MPI_Get_version", NONE, OTHER, 0, ( A(INT, "version", -1, -1, -1)   \
    A(INT, "subversion", -1, -1, -1)))                                        \
  X(116, "MPI_Errhandler_create", NONE, OTHER, 0, (                           \
    A(ERRHANDLER, "errhandler", -1, -1, -1)))                                 \
  X(117, "MPI_Errhandler_set", NONE, OTHER, 0, ( A(COMM, "comm", -1, -1, -1)  \
    A(ERRHANDLER, "errhandler", -1, -1, -1)))                                 \
  X(118, "MPI_Errhandler_get", NONE, OTHER, 0, ( A(COMM, "comm", -1, -1, -1)  \
    A(ERRHANDLER, "errhandler", -1, -1, -1)))                                 \
  X(119, "MPI_Errhandler_free", NONE, OTHER, 0, (                             \
    A(ERRHANDLER, "errhandler", -1, -1, -1)))                                 \
  X(120, "MPI_Error_string", NONE, OTHER, 0, (                                \
    A(INT, "errorcode", -1, -1, -1) A(STRING, "errorstring", 2, -1, -1)       \
    A(INT, "resultlen", -1, -1, -1)))                                         \
  X(121, "MPI_Error_class", NONE, OTHER, 0, (                                 \
    A(INT, "errorcode", -1, -1, -1) A(INT, "errorclass", -1, -1, -1)))        \
  X(122, "MPI_Wtime", NONE, OTHER, 0, ())                                     \
  X(123, "MPI_Wtick", NONE, OTHER, 0, ())                                     \
  X(124, "MPI_Init", NONE, OTHER, 0, ( A(INT, "argc", -1, -1, -1)             \
    A(ARGV, "argv", 0, -1, -1)))                                              \
  X(125, "MPI_Finalize", NONE, OTHER, 0, ())                                  \
  X(126, "MPI_Initialized", NONE, OTHER, 0, ( A(INT, "result", -1, -1, -1)))  \
  X(127, "MPI_Abort", NONE, OTHER, 0, ( A(COMM, "comm", -1, -1, -1)           \
    A(INT, "errorcode", -1, -1, -1)))                                         \
  X(128, "MPI_Pcontrol", NONE, OTHER, 0, ())                                  \
  X(129, "MPI_Close_port", NONE, OTHER, 0, (                                  \
    A(STRING, "portname", -1, -1, -1)))                                       \
  X(130, "MPI_Comm_accept", NONE, OTHER, 0, (                                 \
    A(STRING, "portname", -1, -1, -1) A(INFO, "info", -1, -1, -1)             \
    A(INT, "root", -1, -1, -1) A(COMM, "oldcomm", -1, -1, -1)                 \
    A(COMM, "newcomm", -1, -1, -1)))                                          \
  X(131, "MPI_Comm_connect", NONE, OTHER, 0, (                                \
    A(STRING, "portname", -1, -1, -1) A(INFO, "info", -1, -1, -1)             \
    A(INT, "root", -1, -1, -1) A(COMM, "oldcomm", -1, -1, -1)                 \
    A(COMM, "newcomm", -1, -1, -1)))                                          \
  X(132, "MPI_Comm_disconnect", NONE, OTHER, 0, (                             \
    A(COMM, "comm", -1, -1, -1)))                                             \
  X(133, "MPI_Comm_get_parent", NONE, OTHER, 0, (                             \
    A(COMM, "parent", -1, -1, -1)))                                           \
  X(134, "MPI_Comm_join", NONE, OTHER, 0, ( A(INT, "fd", -1, -1, -1)          \
    A(COMM, "comm", -1, -1, -1)))                                             \
  X(135, "MPI_Comm_spawn", NONE, OTHER, "aefghbcdi", (                        \
    A(INT, "oldcommrank", -1, -1, -1) A(INT, "root", -1, -1, -1)              \
    A(COMM, "oldcomm", -1, -1, -1) A(COMM, "newcomm", -1, -1, -1)             \
    A(STRING, "command", -1, 0, 1) A(STRINGS_NT, "argv", -1, 0, 1)            \
    A(INT, "maxprocs", -1, 0, 1) A(INFO, "info", -1, 0, 1)                    \
    A(INTS, "errcodes", 6, 0, 1)))                                            \
  X(136, "MPI_Comm_spawn_multiple", NONE, OTHER, "abfghijcdek", (             \
    A(INT, "totprocs", -1, -1, -1) A(INT, "oldcommrank", -1, -1, -1)          \
    A(INT, "root", -1, -1, -1) A(COMM, "oldcomm", -1, -1, -1)                 \
    A(COMM, "newcomm", -1, -1, -1) A(INT, "count", -1, 1, 2)                  \
    A(STRINGS, "commands", 5, 1, 2) A(STRINGS2, "argvs", 5, 1, 2)             \
    A(INTS, "maxprocs", 5, 1, 2) A(INFOS, "info", 5, 1, 2)                    \
    A(INTS, "errcodes", 0, 1, 2)))                                            \
  X(137, "MPI_Lookup_name", NONE, OTHER, 0, (                                 \
    A(STRING, "servicename", -1, -1, -1) A(INFO, "info", -1, -1, -1)          \
    A(STRING, "portname", -1, -1, -1)))                                       \
  X(138, "MPI_Open_port", NONE, OTHER, 0, ( A(INFO, "info", -1, -1, -1)       \
    A(STRING, "portname", -1, -1, -1)))                                       \
  X(139, "MPI_Publish_name", NONE, OTHER, 0, (                                \
    A(STRING, "servicename", -1, -1, -1) A(INFO, "info", -1, -1, -1)          \
    A(STRING, "portname", -1, -1, -1)))                                       \
  X(140, "MPI_Unpublish_name", NONE, OTHER, 0, (                              \
    A(STRING, "servicename", -1, -1, -1) A(INFO, "info", -1, -1, -1)          \
    A(STRING, "portname", -1, -1, -1)))                                       \
  X(141, "MPI_Accumulate", RMA_ACC, OTHER, 0, (                                  \
    A(INT, "origincount", -1, -1, -1) A(DATATYPE, "origintype", -1, -1, -1)   \
    A(INT, "targetrank", -1, -1, -1) A(INT, "targetdisp", -1, -1, -1)         \
    A(INT, "targetcount", -1, -1, -1) A(DATATYPE, "targettype", -1, -1, -1)   \
    A(OP, "op", -1, -1, -1) A(WIN, "win", -1, -1, -1)))                       \
  X(142, "MPI_Get", RMA_GET, OTHER, 0, ( A(INT, "origincount", -1, -1, -1)       \
    A(DATATYPE, "origintype", -1, -1, -1) A(INT, "targetrank", -1, -1, -1)    \
    A(INT, "targetdisp", -1, -1, -1) A(INT, "targetcount", -1, -1, -1)        \
    A(DATATYPE, "targettype", -1, -1, -1) A(WIN, "win", -1, -1, -1)))         \
  X(143, "MPI_Put", RMA_PUT, OTHER, 0, ( A(INT, "origincount", -1, -1, -1)       \
    A(DATATYPE, "origintype", -1, -1, -1) A(INT, "targetrank", -1, -1, -1)    \
    A(INT, "targetdisp", -1, -1, -1) A(INT, "targetcount", -1, -1, -1)        \
    A(DATATYPE, "targettype", -1, -1, -1) A(WIN, "win", -1, -1, -1)))         \
  X(144, "MPI_Win_complete", NONE, OTHER, 0, ( A(WIN, "win", -1, -1, -1)))    \
  X(145, "MPI_Win_create", WIN_CREATE, OTHER, 0, ( A(INT, "size", -1, -1, -1)       \
    A(INT, "dispunit", -1, -1, -1) A(INFO, "info", -1, -1, -1)                \
    A(COMM, "comm", -1, -1, -1) A(WIN, "win", -1, -1, -1)))                   \
  X(146, "MPI_Win_fence", NONE, OTHER, 0, (                                   \
    A(WIN_ASSERT, "assertion", -1, -1, -1) A(WIN, "win", -1, -1, -1)))        \
  X(147, "MPI_Win_free", WIN_FREE, OTHER, 0, ( A(WIN, "win", -1, -1, -1)))        \
  X(148, "MPI_Win_get_group", NONE, OTHER, 0, ( A(WIN, "win", -1, -1, -1)     \
    A(GROUP, "group", -1, -1, -1)))                                           \
  X(149, "MPI_Win_lock", NONE, OTHER, 0, (                                    \
    A(LOCKTYPE, "locktype", -1, -1, -1) A(INT, "winrank", -1, -1, -1)         \
    A(WIN_ASSERT, "assertion", -1, -1, -1) A(WIN, "win", -1, -1, -1)))        \
  X(150, "MPI_Win_post", NONE, OTHER, 0, ( A(GROUP, "group", -1, -1, -1)      \
    A(WIN_ASSERT, "assertion", -1, -1, -1) A(WIN, "win", -1, -1, -1)))        \
  X(151, "MPI_Win_start", NONE, OTHER, 0, ( A(GROUP, "group", -1, -1, -1)     \
    A(WIN_ASSERT, "assertion", -1, -1, -1) A(WIN, "win", -1, -1, -1)))        \
  X(152, "MPI_Win_test", NONE, OTHER, 0, ( A(WIN, "win", -1, -1, -1)          \
    A(INT, "flag", -1, -1, -1)))                                              \
  X(153, "MPI_Win_unlock", NONE, OTHER, 0, ( A(INT, "winrank", -1, -1, -1)    \
    A(WIN, "win", -1, -1, -1)))                                               \
  X(154, "MPI_Win_wait", NONE, OTHER, 0, ( A(WIN, "win", -1, -1, -1)))        \
  X(155, "MPI_Alltoallw", COLL, ALLTOALLW, 0, (                               \
    A(INT, "commsize", -1, -1, -1) A(INTS, "sendcounts", 0, -1, -1)           \
    A(INTS, "senddispls", 0, -1, -1) A(DATATYPES, "sendtypes", 0, -1, -1)     \
    A(INTS, "recvcounts", 0, -1, -1) A(INTS, "recvdispls", 0, -1, -1)         \
    A(DATATYPES, "recvtypes", 0, -1, -1) A(COMM, "comm", -1, -1, -1)))        \
  X(156, "MPI_Exscan", COLL, EXSCAN, 0, ( A(INT, "count", -1, -1, -1)         \
    A(DATATYPE, "datatype", -1, -1, -1) A(OP, "op", -1, -1, -1)               \
    A(COMM, "comm", -1, -1, -1)))                                             \
  X(157, "MPI_Add_error_class", NONE, OTHER, 0, (                             \
    A(INT, "errorclass", -1, -1, -1)))                                        \
  X(158, "MPI_Add_error_code", NONE, OTHER, 0, (                              \
    A(INT, "errorclass", -1, -1, -1) A(INT, "errorcode", -1, -1, -1)))        \
  X(159, "MPI_Add_error_string", NONE, OTHER, 0, (                            \
    A(INT, "errorcode", -1, -1, -1) A(STRING, "errorstring", -1, -1, -1)))    \
  X(160, "MPI_Comm_call_errhandler", NONE, OTHER, 0, (                        \
    A(COMM, "comm", -1, -1, -1) A(INT, "errorcode", -1, -1, -1)))             \
  X(161, "MPI_Comm_create_keyval", NONE, OTHER, 0, (                          \
    A(COMM_KEYVAL, "keyval", -1, -1, -1)))                                    \
  X(162, "MPI_Comm_delete_attr", NONE, OTHER, 0, (                            \
    A(COMM, "comm", -1, -1, -1) A(COMM_KEYVAL, "keyval", -1, -1, -1)))        \
  X(163, "MPI_Comm_free_keyval", NONE, OTHER, 0, (                            \
    A(COMM_KEYVAL, "keyval", -1, -1, -1)))                                    \
  X(164, "MPI_Comm_get_attr", NONE, OTHER, 0, ( A(COMM, "comm", -1, -1, -1)   \
    A(COMM_KEYVAL, "keyval", -1, -1, -1) A(INT, "flag", -1, -1, -1)))         \
  X(165, "MPI_Comm_get_name", NONE, OTHER, 0, ( A(COMM, "comm", -1, -1, -1)   \
    A(STRING, "name", 2, -1, -1) A(INT, "resultlen", -1, -1, -1)))            \
  X(166, "MPI_Comm_set_attr", NONE, OTHER, 0, ( A(COMM, "comm", -1, -1, -1)   \
    A(COMM_KEYVAL, "keyval", -1, -1, -1)))                                    \
  X(167, "MPI_Comm_set_name", NONE, OTHER, 0, ( A(COMM, "comm", -1, -1, -1)   \
    A(STRING, "name", -1, -1, -1)))                                           \
  X(168, "MPI_File_call_errhandler", NONE, OTHER, 0, (                        \
    A(FILE, "file", -1, -1, -1) A(INT, "errorcode", -1, -1, -1)))             \
  X(169, "MPI_Grequest_complete", NONE, OTHER, 0, (                           \
    A(REQUEST, "request", -1, -1, -1)))                                       \
  X(170, "MPI_Grequest_start", NONE, OTHER, 0, (                              \
    A(REQUEST, "request", -1, -1, -1)))                                       \
  X(171, "MPI_Init_thread", NONE, OTHER, 0, ( A(INT, "argc", -1, -1, -1)      \
    A(ARGV, "argv", 0, -1, -1) A(THREADLEVEL, "required", -1, -1, -1)         \
    A(THREADLEVEL, "provided", -1, -1, -1)))                                  \
  X(172, "MPI_Is_thread_main", NONE, OTHER, 0, ( A(INT, "flag", -1, -1, -1))) \
  X(173, "MPI_Query_thread", NONE, OTHER, 0, (                                \
    A(THREADLEVEL, "supported", -1, -1, -1)))                                 \
  X(174, "MPI_Status_set_cancelled", NONE, OTHER, 0, (                        \
    A(STATUS, "status", -1, -1, -1) A(INT, "flag", -1, -1, -1)))              \
  X(175, "MPI_Status_set_elements", NONE, OTHER, 0, (                         \
    A(STATUS, "status", -1, -1, -1) A(DATATYPE, "datatype", -1, -1, -1)       \
    A(INT, "count", -1, -1, -1)))                                             \
  X(176, "MPI_Type_create_keyval", NONE, OTHER, 0, (                          \
    A(TYPE_KEYVAL, "keyval", -1, -1, -1)))                                    \
  X(177, "MPI_Type_delete_attr", NONE, OTHER, 0, (                            \
    A(DATATYPE, "datatype", -1, -1, -1) A(TYPE_KEYVAL, "keyval", -1, -1, -1)))\
  X(178, "MPI_Type_dup", NONE, OTHER, 0, (                                    \
    A(DATATYPE, "oldtype", -1, -1, -1) A(DATATYPE, "newtype", -1, -1, -1)))   \
  X(179, "MPI_Type_free_keyval", NONE, OTHER, 0, (                            \
    A(TYPE_KEYVAL, "keyval", -1, -1, -1)))                                    \
  X(180, "MPI_Type_get_attr", NONE, OTHER, 0, (                               \
    A(DATATYPE, "datatype", -1, -1, -1) A(TYPE_KEYVAL, "keyval", -1, -1, -1)  \
    A(INT, "flag", -1, -1, -1)))                                              \
  X(181, "MPI_Type_get_contents", NONE, OTHER, 0, (                           \
    A(INT, "numdatatypes", -1, -1, -1) A(INT, "numaddresses", -1, -1, -1)     \
    A(INT, "numintegers", -1, -1, -1) A(DATATYPE, "datatype", -1, -1, -1)     \
    A(INT, "maxintegers", -1, -1, -1) A(INT, "maxaddresses", -1, -1, -1)      \
    A(INT, "maxdatatypes", -1, -1, -1) A(INTS, "arrintegers", 2, -1, -1)      \
    A(INTS, "arraddresses", 1, -1, -1)                                        \
    A(DATATYPES, "arrdatatypes", 0, -1, -1)))                                 \
  X(182, "MPI_Type_get_envelope", NONE, OTHER, 0, (                           \
    A(DATATYPE, "datatype", -1, -1, -1) A(INT, "numintegers", -1, -1, -1)     \
    A(INT, "numaddresses", -1, -1, -1) A(INT, "numdatatypes", -1, -1, -1)     \
    A(COMBINER, "combiner", -1, -1, -1)))                                     \
  X(183, "MPI_Type_get_name", NONE, OTHER, 0, (                               \
    A(DATATYPE, "datatype", -1, -1, -1) A(STRING, "name", -1, -1, -1)         \
    A(INT, "resultlen", -1, -1, -1)))                                         \
  X(184, "MPI_Type_set_attr", NONE, OTHER, 0, (                               \
    A(DATATYPE, "datatype", -1, -1, -1) A(TYPE_KEYVAL, "keyval", -1, -1, -1)))\
  X(185, "MPI_Type_set_name", NONE, OTHER, 0, (                               \
    A(DATATYPE, "datatype", -1, -1, -1) A(STRING, "name", -1, -1, -1)))       \
  X(186, "MPI_Type_match_size", NONE, OTHER, 0, (                             \
    A(TYPECLASS, "typeclass", -1, -1, -1) A(INT, "size", -1, -1, -1)          \
    A(DATATYPE, "datatype", -1, -1, -1)))                                     \
  X(187, "MPI_Win_call_errhandler", NONE, OTHER, 0, (                         \
    A(WIN, "win", -1, -1, -1) A(INT, "errorcode", -1, -1, -1)))               \
  X(188, "MPI_Win_create_keyval", NONE, OTHER, 0, (                           \
    A(WIN_KEYVAL, "keyval", -1, -1, -1)))                                     \
  X(189, "MPI_Win_delete_attr", NONE, OTHER, 0, ( A(WIN, "win", -1, -1, -1)   \
    A(WIN_KEYVAL, "keyval", -1, -1, -1)))                                     \
  X(190, "MPI_Win_free_keyval", NONE, OTHER, 0, (                             \
    A(WIN_KEYVAL, "keyval", -1, -1, -1)))                                     \
  X(191, "MPI_Win_get_attr", NONE, OTHER, 0, ( A(WIN, "win", -1, -1, -1)      \
    A(WIN_KEYVAL, "keyval", -1, -1, -1) A(INT, "flag", -1, -1, -1)))          \
  X(192, "MPI_Win_get_name", NONE, OTHER, 0, ( A(WIN, "win", -1, -1, -1)      \
    A(STRING, "name", -1, -1, -1) A(INT, "resultlen", -1, -1, -1)))           \
  X(193, "MPI_Win_set_attr", NONE, OTHER, 0, ( A(WIN, "win", -1, -1, -1)      \
    A(WIN_KEYVAL, "keyval", -1, -1, -1)))                                     \
  X(194, "MPI_Win_set_name", NONE, OTHER, 0, ( A(WIN, "win", -1, -1, -1)      \
    A(STRING, "name", -1, -1, -1)))                                           \
  X(195, "MPI_Alloc_mem", NONE, OTHER, 0, ( A(INT, "size", -1, -1, -1)        \
    A(INFO, "info", -1, -1, -1)))                                             \
  X(196, "MPI_Comm_create_errhandler", NONE, OTHER, 0, (                      \
    A(ERRHANDLER, "errhandler", -1, -1, -1)))                                 \
  X(197, "MPI_Comm_get_errhandler", NONE, OTHER, 0, (                         \
    A(COMM, "comm", -1, -1, -1) A(ERRHANDLER, "errhandler", -1, -1, -1)))     \
  X(198, "MPI_Comm_set_errhandler", NONE, OTHER, 0, (                         \
    A(COMM, "comm", -1, -1, -1) A(ERRHANDLER, "errhandler", -1, -1, -1)))     \
  X(199, "MPI_File_create_errhandler", NONE, OTHER, 0, (                      \
    A(ERRHANDLER, "errhandler", -1, -1, -1)))                                 \
  X(200, "MPI_File_get_errhandler", NONE, OTHER, 0, (                         \
    A(FILE, "file", -1, -1, -1) A(ERRHANDLER, "errhandler", -1, -1, -1)))     \
  X(201, "MPI_File_set_errhandler", NONE, OTHER, 0, (                         \
    A(FILE, "file", -1, -1, -1) A(ERRHANDLER, "errhandler", -1, -1, -1)))     \
  X(202, "MPI_Finalized", NONE, OTHER, 0, ( A(INT, "flag", -1, -1, -1)))      \
  X(203, "MPI_Free_mem", NONE, OTHER, 0, ())                                  \
  X(204, "MPI_Get_address", NONE, OTHER, 0, ( A(INT, "address", -1, -1, -1))) \
  X(205, "MPI_Info_create", NONE, OTHER, 0, ( A(INFO, "info", -1, -1, -1)))   \
  X(206, "MPI_Info_delete", NONE, OTHER, 0, ( A(INFO, "info", -1, -1, -1)     \
    A(STRING, "key", -1, -1, -1)))                                            \
  X(207, "MPI_Info_dup", NONE, OTHER, 0, ( A(INFO, "oldinfo", -1, -1, -1)     \
    A(INFO, "newinfo", -1, -1, -1)))                                          \
  X(208, "MPI_Info_free", NONE, OTHER, 0, ( A(INFO, "info", -1, -1, -1)))     \
  X(209, "MPI_Info_get", NONE, OTHER, 0, ( A(INFO, "info", -1, -1, -1)        \
    A(STRING, "key", -1, -1, -1) A(INT, "valuelength", -1, -1, -1)            \
    A(STRING, "value", -1, -1, -1) A(INT, "flag", -1, -1, -1)))               \
  X(210, "MPI_Info_get_nkeys", NONE, OTHER, 0, ( A(INFO, "info", -1, -1, -1)  \
    A(INT, "nkeys", -1, -1, -1)))                                             \
  X(211, "MPI_Info_get_nthkey", NONE, OTHER, 0, (                             \
    A(INFO, "info", -1, -1, -1) A(INT, "n", -1, -1, -1)                       \
    A(STRING, "key", -1, -1, -1)))                                            \
  X(212, "MPI_Info_get_valuelen", NONE, OTHER, 0, (                           \
    A(INFO, "info", -1, -1, -1) A(STRING, "key", -1, -1, -1)                  \
    A(INT, "valuelen", -1, -1, -1) A(INT, "flag", -1, -1, -1)))               \
  X(213, "MPI_Info_set", NONE, OTHER, 0, ( A(INFO, "info", -1, -1, -1)        \
    A(STRING, "key", -1, -1, -1) A(STRING, "value", -1, -1, -1)))             \
  X(214, "MPI_Pack_external", NONE, OTHER, 0, (                               \
    A(STRING, "datarep", -1, -1, -1) A(INT, "incount", -1, -1, -1)            \
    A(DATATYPE, "intype", -1, -1, -1) A(INT, "outcount", -1, -1, -1)          \
    A(INT, "position.in", -1, -1, -1) A(INT, "position.out", -1, -1, -1)))    \
  X(215, "MPI_Pack_external_size", NONE, OTHER, 0, (                          \
    A(STRING, "datarep", -1, -1, -1) A(INT, "incount", -1, -1, -1)            \
    A(DATATYPE, "datatype", -1, -1, -1) A(INT, "size", -1, -1, -1)))          \
  X(216, "MPI_Request_get_status", NONE, OTHER, 0, (                          \
    A(REQUEST, "request", -1, -1, -1) A(INT, "flag", -1, -1, -1)              \
    A(STATUS, "status", -1, -1, -1)))                                         \
  X(217, "MPI_Type_create_darray", NONE, OTHER, 0, (                          \
    A(INT, "size", -1, -1, -1) A(INT, "rank", -1, -1, -1)                     \
    A(INT, "ndims", -1, -1, -1) A(INTS, "gsizes", 2, -1, -1)                  \
    A(DISTRIBS, "distribs", 2, -1, -1) A(INTS, "dargs", 2, -1, -1)            \
    A(INTS, "psizes", 2, -1, -1) A(ORDERING, "order", -1, -1, -1)             \
    A(DATATYPE, "oldtype", -1, -1, -1) A(DATATYPE, "newtype", -1, -1, -1)))   \
  X(218, "MPI_Type_create_hindexed", NONE, OTHER, 0, (                        \
    A(INT, "count", -1, -1, -1) A(INTS, "blocklengths", 0, -1, -1)            \
    A(INTS, "displacements", 0, -1, -1) A(DATATYPE, "oldtype", -1, -1, -1)    \
    A(DATATYPE, "newtype", -1, -1, -1)))                                      \
  X(219, "MPI_Type_create_hvector", NONE, OTHER, 0, (                         \
    A(INT, "count", -1, -1, -1) A(INT, "blocklength", -1, -1, -1)             \
    A(INT, "stride", -1, -1, -1) A(DATATYPE, "oldtype", -1, -1, -1)           \
    A(DATATYPE, "newtype", -1, -1, -1)))                                      \
  X(220, "MPI_Type_create_indexed_block", NONE, OTHER, 0, (                   \
    A(INT, "count", -1, -1, -1) A(INT, "blocklength", -1, -1, -1)             \
    A(INTS, "displacments", 0, -1, -1) A(DATATYPE, "oldtype", -1, -1, -1)     \
    A(DATATYPE, "newtype", -1, -1, -1)))                                      \
  X(221, "MPI_Type_create_resized", NONE, OTHER, 0, (                         \
    A(DATATYPE, "oldtype", -1, -1, -1) A(INT, "lb", -1, -1, -1)               \
    A(INT, "extent", -1, -1, -1) A(DATATYPE, "newtype", -1, -1, -1)))         \
  X(222, "MPI_Type_create_struct", NONE, OTHER, 0, (                          \
    A(INT, "count", -1, -1, -1) A(INTS, "blocklengths", 0, -1, -1)            \
    A(INTS, "displacements", 0, -1, -1) A(DATATYPES, "oldtypes", 0, -1, -1)   \
    A(DATATYPE, "newtype", -1, -1, -1)))                                      \
  X(223, "MPI_Type_create_subarray", NONE, OTHER, 0, (                        \
    A(INT, "ndims", -1, -1, -1) A(INTS, "sizes", 0, -1, -1)                   \
    A(INTS, "subsizes", 0, -1, -1) A(INTS, "starts", 0, -1, -1)               \
    A(ORDERING, "order", -1, -1, -1) A(DATATYPE, "oldtype", -1, -1, -1)       \
    A(DATATYPE, "newtype", -1, -1, -1)))                                      \
  X(224, "MPI_Type_get_extent", NONE, OTHER, 0, (                             \
    A(DATATYPE, "datatype", -1, -1, -1) A(INT, "lb", -1, -1, -1)              \
    A(INT, "extent", -1, -1, -1)))                                            \
  X(225, "MPI_Type_get_true_extent", NONE, OTHER, 0, (                        \
    A(DATATYPE, "datatype", -1, -1, -1) A(INT, "lb", -1, -1, -1)              \
    A(INT, "extent", -1, -1, -1)))                                            \
  X(226, "MPI_Unpack_external", NONE, OTHER, 0, (                             \
    A(STRING, "datarep", -1, -1, -1) A(INT, "insize", -1, -1, -1)             \
    A(INT, "position.in", -1, -1, -1) A(INT, "position.out", -1, -1, -1)      \
    A(INT, "outcount", -1, -1, -1) A(DATATYPE, "datatype", -1, -1, -1)))      \
  X(227, "MPI_Win_create_errhandler", NONE, OTHER, 0, (                       \
    A(ERRHANDLER, "errhandler", -1, -1, -1)))                                 \
  X(228, "MPI_Win_get_errhandler", NONE, OTHER, 0, (                          \
    A(WIN, "win", -1, -1, -1) A(ERRHANDLER, "errhandler", -1, -1, -1)))       \
  X(229, "MPI_Win_set_errhandler", NONE, OTHER, 0, (                          \
    A(WIN, "win", -1, -1, -1) A(ERRHANDLER, "errhandler", -1, -1, -1)))       \
  X(230, "MPI_File_open", NONE, OTHER, 0, ( A(COMM, "comm", -1, -1, -1)       \
    A(STRING, "filename", -1, -1, -1) A(FILEMODE, "amode", -1, -1, -1)        \
    A(INFO, "info", -1, -1, -1) A(FILE, "file", -1, -1, -1)))                 \
  X(231, "MPI_File_close", NONE, OTHER, 0, ( A(FILE, "file", -1, -1, -1)))    \
  X(232, "MPI_File_delete", NONE, OTHER, 0, (                                 \
    A(STRING, "filename", -1, -1, -1) A(INFO, "info", -1, -1, -1)))           \
  X(233, "MPI_File_set_size", NONE, OTHER, 0, ( A(FILE, "file", -1, -1, -1)   \
    A(I64, "size", -1, -1, -1)))                                              \
  X(234, "MPI_File_preallocate", NONE, OTHER, 0, (                            \
    A(FILE, "file", -1, -1, -1) A(I64, "size", -1, -1, -1)))                  \
  X(235, "MPI_File_get_size", NONE, OTHER, 0, ( A(FILE, "file", -1, -1, -1)   \
    A(I64, "size", -1, -1, -1)))                                              \
  X(236, "MPI_File_get_group", NONE, OTHER, 0, ( A(FILE, "file", -1, -1, -1)  \
    A(GROUP, "group", -1, -1, -1)))                                           \
  X(237, "MPI_File_get_amode", NONE, OTHER, 0, ( A(FILE, "file", -1, -1, -1)  \
    A(FILEMODE, "amode", -1, -1, -1)))                                        \
  X(238, "MPI_File_set_info", NONE, OTHER, 0, ( A(FILE, "file", -1, -1, -1)   \
    A(INFO, "info", -1, -1, -1)))                                             \
  X(239, "MPI_File_get_info", NONE, OTHER, 0, ( A(FILE, "file", -1, -1, -1)   \
    A(INFO, "info", -1, -1, -1)))                                             \
  X(240, "MPI_File_set_view", NONE, OTHER, 0, ( A(FILE, "file", -1, -1, -1)   \
    A(I64, "offset", -1, -1, -1) A(DATATYPE, "hosttype", -1, -1, -1)          \
    A(DATATYPE, "filetype", -1, -1, -1) A(STRING, "datarep", -1, -1, -1)      \
    A(INFO, "info", -1, -1, -1)))                                             \
  X(241, "MPI_File_get_view", NONE, OTHER, 0, ( A(FILE, "file", -1, -1, -1)   \
    A(I64, "offset", -1, -1, -1) A(DATATYPE, "hosttype", -1, -1, -1)          \
    A(DATATYPE, "filetype", -1, -1, -1) A(STRING, "datarep", -1, -1, -1)))    \
  X(242, "MPI_File_read_at", IO_READ, OTHER, 0, ( A(FILE, "file", -1, -1, -1) \
    A(I64, "offset", -1, -1, -1) A(INT, "count", -1, -1, -1)                  \
    A(DATATYPE, "datatype", -1, -1, -1) A(STATUS, "status", -1, -1, -1)))     \
  X(243, "MPI_File_read_at_all", IO_READ, OTHER, 0, (                         \
    A(FILE, "file", -1, -1, -1) A(I64, "offset", -1, -1, -1)                  \
    A(INT, "count", -1, -1, -1) A(DATATYPE, "datatype", -1, -1, -1)           \
    A(STATUS, "status", -1, -1, -1)))                                         \
  X(244, "MPI_File_write_at", IO_WRITE, OTHER, 0, (                           \
    A(FILE, "file", -1, -1, -1)                                               \
    A(I64, "offset", -1, -1, -1) A(INT, "count", -1, -1, -1)                  \
    A(DATATYPE, "datatype", -1, -1, -1) A(STATUS, "status", -1, -1, -1)))     \
  X(245, "MPI_File_write_at_all", IO_WRITE, OTHER, 0, (                       \
    A(FILE, "file", -1, -1, -1) A(I64, "offset", -1, -1, -1)                  \
    A(INT, "count", -1, -1, -1) A(DATATYPE, "datatype", -1, -1, -1)           \
    A(STATUS, "status", -1, -1, -1)))                                         \
  X(246, "MPI_File_iread_at", IO_IREAD, OTHER, 0, (                           \
    A(FILE, "file", -1, -1, -1)                                               \
    A(I64, "offset", -1, -1, -1) A(INT, "count", -1, -1, -1)                  \
    A(DATATYPE, "datatype", -1, -1, -1) A(IOREQUEST, "request", -1, -1, -1))) \
  X(247, "MPI_File_iwrite_at", IO_IWRITE, OTHER, 0, (                         \
    A(FILE, "file", -1, -1, -1)                                               \
    A(I64, "offset", -1, -1, -1) A(INT, "count", -1, -1, -1)                  \
    A(DATATYPE, "datatype", -1, -1, -1) A(IOREQUEST, "request", -1, -1, -1))) \
  X(248, "MPI_File_read", IO_READ, OTHER, 0, ( A(FILE, "file", -1, -1, -1)    \
    A(INT, "count", -1, -1, -1) A(DATATYPE, "datatype", -1, -1, -1)           \
    A(STATUS, "status", -1, -1, -1)))                                         \
  X(249, "MPI_File_read_all", IO_READ, OTHER, 0, (                            \
    A(FILE, "file", -1, -1, -1)                                               \
    A(INT, "count", -1, -1, -1) A(DATATYPE, "datatype", -1, -1, -1)           \
    A(STATUS, "status", -1, -1, -1)))                                         \
  X(250, "MPI_File_write", IO_WRITE, OTHER, 0, ( A(FILE, "file", -1, -1, -1)  \
    A(INT, "count", -1, -1, -1) A(DATATYPE, "datatype", -1, -1, -1)           \
    A(STATUS, "status", -1, -1, -1)))                                         \
  X(251, "MPI_File_write_all", IO_WRITE, OTHER, 0, (                          \
    A(FILE, "file", -1, -1, -1)                                               \
    A(INT, "count", -1, -1, -1) A(DATATYPE, "datatype", -1, -1, -1)           \
    A(STATUS, "status", -1, -1, -1)))                                         \
  X(252, "MPI_File_iread", IO_IREAD, OTHER, 0, ( A(FILE, "file", -1, -1, -1)  \
    A(INT, "count", -1, -1, -1) A(DATATYPE, "datatype", -1, -1, -1)           \
    A(IOREQUEST, "request", -1, -1, -1)))                                     \
  X(253, "MPI_File_iwrite", IO_IWRITE, OTHER, 0, (                            \
    A(FILE, "file", -1, -1, -1)                                               \
    A(INT, "count", -1, -1, -1) A(DATATYPE, "datatype", -1, -1, -1)           \
    A(IOREQUEST, "request", -1, -1, -1)))                                     \
  X(254, "MPI_File_seek", NONE, OTHER, 0, ( A(FILE, "file", -1, -1, -1)       \
    A(I64, "offset", -1, -1, -1) A(WHENCE, "whence", -1, -1, -1)))            \
  X(255, "MPI_File_get_position", NONE, OTHER, 0, (                           \
    A(FILE, "file", -1, -1, -1) A(I64, "offset", -1, -1, -1)))                \
  X(256, "MPI_File_get_byte_offset", NONE, OTHER, 0, (                        \
    A(FILE, "file", -1, -1, -1) A(I64, "offset", -1, -1, -1)                  \
    A(I64, "bytes", -1, -1, -1)))                                             \
  X(257, "MPI_File_read_shared", IO_READ, OTHER, 0, (                         \
    A(FILE, "file", -1, -1, -1) A(INT, "count", -1, -1, -1)                   \
    A(DATATYPE, "datatype", -1, -1, -1) A(STATUS, "status", -1, -1, -1)))     \
  X(258, "MPI_File_write_shared", IO_WRITE, OTHER, 0, (                       \
    A(FILE, "file", -1, -1, -1) A(INT, "count", -1, -1, -1)                   \
    A(DATATYPE, "datatype", -1, -1, -1) A(STATUS, "status", -1, -1, -1)))     \
  X(259, "MPI_File_iread_shared", IO_IREAD, OTHER, 0, (                       \
    A(FILE, "file", -1, -1, -1) A(INT, "count", -1, -1, -1)                   \
    A(DATATYPE, "datatype", -1, -1, -1) A(IOREQUEST, "request", -1, -1, -1))) \
  X(260, "MPI_File_iwrite_shared", IO_IWRITE, OTHER, 0, (                     \
    A(FILE, "file", -1, -1, -1) A(INT, "count", -1, -1, -1)                   \
    A(DATATYPE, "datatype", -1, -1, -1) A(IOREQUEST, "request", -1, -1, -1))) \
  X(261, "MPI_File_read_ordered", IO_READ, OTHER, 0, (                        \
    A(FILE, "file", -1, -1, -1) A(INT, "count", -1, -1, -1)                   \
    A(DATATYPE, "datatype", -1, -1, -1) A(STATUS, "status", -1, -1, -1)))     \
  X(262, "MPI_File_write_ordered", IO_WRITE, OTHER, 0, (                      \
    A(FILE, "file", -1, -1, -1) A(INT, "count", -1, -1, -1)                   \
    A(DATATYPE, "datatype", -1, -1, -1) A(STATUS, "status", -1, -1, -1)))     \
  X(263, "MPI_File_seek_shared", NONE, OTHER, 0, (                            \
    A(FILE, "file", -1, -1, -1) A(I64, "offset", -1, -1, -1)                  \
    A(WHENCE, "whence", -1, -1, -1)))                                         \
  X(264, "MPI_File_get_position_shared", NONE, OTHER, 0, (                    \
    A(FILE, "file", -1, -1, -1) A(I64, "offset", -1, -1, -1)))                \
  X(265, "MPI_File_read_at_all_begin", IO_SREAD, OTHER, 0, (                  \
    A(FILE, "file", -1, -1, -1) A(I64, "offset", -1, -1, -1)                  \
    A(INT, "count", -1, -1, -1) A(DATATYPE, "datatype", -1, -1, -1)))         \
  X(266, "MPI_File_read_at_all_end", IO_SEND, OTHER, 0, (                     \
    A(FILE, "file", -1, -1, -1) A(STATUS, "status", -1, -1, -1)))             \
  X(267, "MPI_File_write_at_all_begin", IO_SWRITE, OTHER, 0, (                \
    A(FILE, "file", -1, -1, -1) A(I64, "offset", -1, -1, -1)                  \
    A(INT, "count", -1, -1, -1) A(DATATYPE, "datatype", -1, -1, -1)))         \
  X(268, "MPI_File_write_at_all_end", IO_SEND, OTHER, 0, (                    \
    A(FILE, "file", -1, -1, -1) A(STATUS, "status", -1, -1, -1)))             \
  X(269, "MPI_File_read_all_begin", IO_SREAD, OTHER, 0, (                     \
    A(FILE, "file", -1, -1, -1) A(INT, "count", -1, -1, -1)                   \
    A(DATATYPE, "datatype", -1, -1, -1)))                                     \
  X(270, "MPI_File_read_all_end", IO_SEND, OTHER, 0, (                        \
    A(FILE, "file", -1, -1, -1) A(STATUS, "status", -1, -1, -1)))             \
  X(271, "MPI_File_write_all_begin", IO_SWRITE, OTHER, 0, (                   \
    A(FILE, "file", -1, -1, -1) A(INT, "count", -1, -1, -1)                   \
    A(DATATYPE, "datatype", -1, -1, -1)))                                     \
  X(272, "MPI_File_write_all_end", IO_SEND, OTHER, 0, (                       \
    A(FILE, "file", -1, -1, -1) A(STATUS, "status", -1, -1, -1)))             \
  X(273, "MPI_File_read_ordered_begin", IO_SREAD, OTHER, 0, (                 \
    A(FILE, "file", -1, -1, -1) A(INT, "count", -1, -1, -1)                   \
    A(DATATYPE, "datatype", -1, -1, -1)))                                     \
  X(274, "MPI_File_read_ordered_end", IO_SEND, OTHER, 0, (                    \
    A(FILE, "file", -1, -1, -1) A(STATUS, "status", -1, -1, -1)))             \
  X(275, "MPI_File_write_ordered_begin", IO_SWRITE, OTHER, 0, (               \
    A(FILE, "file", -1, -1, -1) A(INT, "count", -1, -1, -1)                   \
    A(DATATYPE, "datatype", -1, -1, -1)))                                     \
  X(276, "MPI_File_write_ordered_end", IO_SEND, OTHER, 0, (                   \
    A(FILE, "file", -1, -1, -1) A(STATUS, "status", -1, -1, -1)))             \
  X(277, "MPI_File_get_type_extent", NONE, OTHER, 0, (                        \
    A(FILE, "file", -1, -1, -1) A(DATATYPE, "datatype", -1, -1, -1)           \
    A(INT, "extent", -1, -1, -1)))                                            \
  X(278, "MPI_Register_datarep", NONE, OTHER, 0, (                            \
    A(STRING, "name", -1, -1, -1)))                                           \
  X(279, "MPI_File_set_atomicity", NONE, OTHER, 0, (                          \
    A(FILE, "file", -1, -1, -1) A(INT, "flag", -1, -1, -1)))                  \
  X(280, "MPI_File_get_atomicity", NONE, OTHER, 0, (                          \
    A(FILE, "file", -1, -1, -1) A(INT, "flag", -1, -1, -1)))                  \
  X(281, "MPI_File_sync", NONE, OTHER, 0, ( A(FILE, "file", -1, -1, -1)))     \
  X(282, "MPIO_Test", NONE, OTHER, 0, ( A(IOREQUEST, "request", -1, -1, -1)   \
    A(INT, "flag", -1, -1, -1) A(STATUS, "status", -1, -1, -1)))              \
  X(283, "MPIO_Wait", NONE, OTHER, 0, ( A(IOREQUEST, "request", -1, -1, -1)   \
    A(STATUS, "status", -1, -1, -1)))                                         \
  X(284, "MPIO_Testall", NONE, OTHER, 0, ( A(INT, "count", -1, -1, -1)        \
    A(IOREQUESTS, "requests", 0, -1, -1) A(INT, "flag", -1, -1, -1)           \
    A(STATUSES, "statuses", 0, -1, -1)))                                      \
  X(285, "MPIO_Waitall", NONE, OTHER, 0, ( A(INT, "count", -1, -1, -1)        \
    A(IOREQUESTS, "requests", 0, -1, -1) A(STATUSES, "statuses", 0, -1, -1))) \
  X(286, "MPIO_Testany", NONE, OTHER, "abdce", ( A(INT, "count", -1, -1, -1)  \
    A(IOREQUESTS, "requests", 0, -1, -1) A(INT, "flag", -1, -1, -1)           \
    A(INT, "index", -1, -1, -1) A(STATUSES, "statuses", 0, -1, -1)))          \
  X(287, "MPIO_Waitany", NONE, OTHER, 0, ( A(INT, "count", -1, -1, -1)        \
    A(IOREQUESTS, "requests", 0, -1, -1) A(INT, "index", -1, -1, -1)          \
    A(STATUSES, "statuses", 0, -1, -1)))                                      \
  X(288, "MPIO_Waitsome", NONE, OTHER, 0, ( A(INT, "count", -1, -1, -1)       \
    A(IOREQUESTS, "requests", 0, -1, -1) A(INT, "outcount", -1, -1, -1)       \
    A(INTS, "indices", 2, -1, -1) A(STATUSES, "statuses", 2, -1, -1)))        \
  X(289, "MPIO_Testsome", NONE, OTHER, 0, ( A(INT, "count", -1, -1, -1)       \
    A(IOREQUESTS, "requests", 0, -1, -1) A(INT, "outcount", -1, -1, -1)       \
    A(INTS, "indices", 2, -1, -1) A(STATUSES, "statuses", 2, -1, -1)))        \
  X(291, "Function_enter", NONE, OTHER, 0, ( A(FUNC, "fn", -1, -1, -1)))      \
  X(292, "Function_exit", NONE, OTHER, 0, ( A(FUNC, "fn", -1, -1, -1)))       \
  /* end */
