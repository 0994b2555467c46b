// Each process reads its share of a .coo traffic file: the lines that start
// in its byte range, sent on to the processes owning their vertices (tm-pmap's
// reader; the library's, so that any MPI program can map a graph where it
// lives from a file).
#pragma once

#include <mpi.h>

#include <string>

#include "distributed/ptscotch_map.hpp"

namespace tmap::dist {

/// Collective. The first error any process met (`mine`, empty for none),
/// agreed by all: the lowest failing process's message travels to everyone
/// and is thrown as InputError everywhere; returns when none failed.
void agree_on_errors(MPI_Comm comm, const std::string& mine);

/// Collective. The symmetrised graph, in blocks of vertices by process
/// rank. Bad input throws InputError on every process, with the file and
/// line where a process found it (the lowest such process's message).
LocalGraph read_share(MPI_Comm comm, const std::string& path);

}  // namespace tmap::dist
