// libtmap-mpi's recorder (TMAP_RECORD=PREFIX): the MPI profiling wrappers
// of initialisation, point-to-point sends and one-sided calls. Each counts
// after MPI's own call succeeded, from the arguments alone (count x type
// size to the peer's rank in MPI_COMM_WORLD), as Open MPI's monitoring
// counts; tmap's own calls use PMPI_* and are never counted. At
// MPI_Finalize each process writes PREFIX.<rank>.prof in monitoring's
// format. Collectives: pmpi_record_collectives.cpp.
#include <mpi.h>

#include "mpi/record_state.hpp"

using tmap::mpi::Traffic;
namespace record = tmap::mpi::record;

namespace {

/// `rc` after counting one message when the call succeeded.
int sent(int rc, MPI_Comm comm, int dest, int count, MPI_Datatype type) {
  if (rc == MPI_SUCCESS) record::count(Traffic::point_to_point, comm, dest, count, type);
  return rc;
}

int one_sided(int rc, Traffic kind, MPI_Win win, int target, int count, MPI_Datatype type) {
  if (rc == MPI_SUCCESS) record::count_one_sided(kind, win, target, count, type);
  return rc;
}

}  // namespace

// Exported (the library is built hidden): these are what LD_PRELOAD puts
// in front of MPI's own.
#pragma GCC visibility push(default)
extern "C" {

int MPI_Init(int* argc, char*** argv) {
  const int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) record::start();
  return rc;
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) record::start();
  return rc;
}

int MPI_Finalize() {
  record::finish();
  return PMPI_Finalize();
}

// Point to point: every send mode, blocking and not.
int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return sent(PMPI_Send(buf, count, type, dest, tag, comm), comm, dest, count, type);
}
int MPI_Bsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return sent(PMPI_Bsend(buf, count, type, dest, tag, comm), comm, dest, count, type);
}
int MPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return sent(PMPI_Ssend(buf, count, type, dest, tag, comm), comm, dest, count, type);
}
int MPI_Rsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return sent(PMPI_Rsend(buf, count, type, dest, tag, comm), comm, dest, count, type);
}
int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* req) {
  return sent(PMPI_Isend(buf, count, type, dest, tag, comm, req), comm, dest, count, type);
}
int MPI_Ibsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* req) {
  return sent(PMPI_Ibsend(buf, count, type, dest, tag, comm, req), comm, dest, count, type);
}
int MPI_Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* req) {
  return sent(PMPI_Issend(buf, count, type, dest, tag, comm, req), comm, dest, count, type);
}
int MPI_Irsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* req) {
  return sent(PMPI_Irsend(buf, count, type, dest, tag, comm, req), comm, dest, count, type);
}
int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  return sent(PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                            comm, status),
              comm, dest, sendcount, sendtype);
}
int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int sendtag, int source, int recvtag,
                         MPI_Comm comm, MPI_Status* status) {
  return sent(PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, status), comm, dest, count,
              type);
}

// Persistent sends count at each start, not at their creation.
#define TMAP_PERSISTENT_SEND(name)                                                                                    \
  int MPI_##name(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* req) { \
    const int rc = PMPI_##name(buf, count, type, dest, tag, comm, req);                                               \
    if (rc == MPI_SUCCESS) record::remember_persistent(*req, comm, dest, count, type);                                \
    return rc;                                                                                                        \
  }
TMAP_PERSISTENT_SEND(Send_init)
TMAP_PERSISTENT_SEND(Bsend_init)
TMAP_PERSISTENT_SEND(Ssend_init)
TMAP_PERSISTENT_SEND(Rsend_init)
#undef TMAP_PERSISTENT_SEND

int MPI_Start(MPI_Request* req) {
  const MPI_Request request = *req;
  const int rc = PMPI_Start(req);
  if (rc == MPI_SUCCESS) record::started(request);
  return rc;
}
int MPI_Startall(int count, MPI_Request reqs[]) {
  const int rc = PMPI_Startall(count, reqs);
  if (rc == MPI_SUCCESS) {
    for (int i = 0; i < count; ++i) record::started(reqs[i]);
  }
  return rc;
}
int MPI_Request_free(MPI_Request* req) {
  const MPI_Request request = *req;
  const int rc = PMPI_Request_free(req);
  if (rc == MPI_SUCCESS) record::forget(request);
  return rc;
}

// One-sided: data put or accumulated into the target's window is sent to
// it (S lines), data got from it is received (R lines), as Open MPI's osc
// monitoring counts them; the origin's count and type say how much
// (MPI_NO_OP sends nothing).
int MPI_Put(const void* origin, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
            MPI_Datatype ttype, MPI_Win win) {
  return one_sided(PMPI_Put(origin, ocount, otype, target, disp, tcount, ttype, win), Traffic::put, win, target, ocount,
                   otype);
}
int MPI_Rput(const void* origin, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
             MPI_Datatype ttype, MPI_Win win, MPI_Request* req) {
  return one_sided(PMPI_Rput(origin, ocount, otype, target, disp, tcount, ttype, win, req), Traffic::put, win, target,
                   ocount, otype);
}
int MPI_Get(void* origin, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount, MPI_Datatype ttype,
            MPI_Win win) {
  return one_sided(PMPI_Get(origin, ocount, otype, target, disp, tcount, ttype, win), Traffic::got, win, target, ocount,
                   otype);
}
int MPI_Rget(void* origin, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount, MPI_Datatype ttype,
             MPI_Win win, MPI_Request* req) {
  return one_sided(PMPI_Rget(origin, ocount, otype, target, disp, tcount, ttype, win, req), Traffic::got, win, target,
                   ocount, otype);
}
int MPI_Accumulate(const void* origin, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
                   MPI_Datatype ttype, MPI_Op op, MPI_Win win) {
  return one_sided(PMPI_Accumulate(origin, ocount, otype, target, disp, tcount, ttype, op, win), Traffic::put, win,
                   target, ocount, otype);
}
int MPI_Raccumulate(const void* origin, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
                    MPI_Datatype ttype, MPI_Op op, MPI_Win win, MPI_Request* req) {
  return one_sided(PMPI_Raccumulate(origin, ocount, otype, target, disp, tcount, ttype, op, win, req), Traffic::put,
                   win, target, ocount, otype);
}
int MPI_Get_accumulate(const void* origin, int ocount, MPI_Datatype otype, void* result, int rcount, MPI_Datatype rtype,
                       int target, MPI_Aint disp, int tcount, MPI_Datatype ttype, MPI_Op op, MPI_Win win) {
  const int rc =
      PMPI_Get_accumulate(origin, ocount, otype, result, rcount, rtype, target, disp, tcount, ttype, op, win);
  if (op != MPI_NO_OP) one_sided(rc, Traffic::put, win, target, ocount, otype);
  return one_sided(rc, Traffic::got, win, target, rcount, rtype);
}
int MPI_Rget_accumulate(const void* origin, int ocount, MPI_Datatype otype, void* result, int rcount,
                        MPI_Datatype rtype, int target, MPI_Aint disp, int tcount, MPI_Datatype ttype, MPI_Op op,
                        MPI_Win win, MPI_Request* req) {
  const int rc =
      PMPI_Rget_accumulate(origin, ocount, otype, result, rcount, rtype, target, disp, tcount, ttype, op, win, req);
  if (op != MPI_NO_OP) one_sided(rc, Traffic::put, win, target, ocount, otype);
  return one_sided(rc, Traffic::got, win, target, rcount, rtype);
}
int MPI_Fetch_and_op(const void* origin, void* result, MPI_Datatype type, int target, MPI_Aint disp, MPI_Op op,
                     MPI_Win win) {
  const int rc = PMPI_Fetch_and_op(origin, result, type, target, disp, op, win);
  if (op != MPI_NO_OP) one_sided(rc, Traffic::put, win, target, 1, type);
  return one_sided(rc, Traffic::got, win, target, 1, type);
}
int MPI_Compare_and_swap(const void* origin, const void* compare, void* result, MPI_Datatype type, int target,
                         MPI_Aint disp, MPI_Win win) {
  const int rc = PMPI_Compare_and_swap(origin, compare, result, type, target, disp, win);
  one_sided(rc, Traffic::put, win, target, 1, type);
  return one_sided(rc, Traffic::got, win, target, 1, type);
}

}  // extern "C"
#pragma GCC visibility pop
