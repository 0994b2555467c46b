# The Debian package: `cpack -G DEB` in the build folder makes
# tmap_<version>_<arch>.deb, installed under /usr: the tools and their man
# pages, libtmap and libtmap-mpi, the headers, the CMake and pkg-config
# files, the Python module (/usr/lib/python3/dist-packages) and the Open MPI
# component where Open MPI looks for components (below), so that
# `mpirun --mca topo tmap,basic` needs no component path. Library
# dependencies come from dpkg-shlibdeps; what the Python parts need is
# recommended.
set(CPACK_PACKAGE_NAME tmap)
set(CPACK_PACKAGE_VENDOR "tmap")
set(CPACK_PACKAGE_CONTACT "tmap developers <tmap@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Topology-aware process mapping: where each MPI rank should run")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The build tree's libraries for dpkg-shlibdeps (libtmap is the package's own).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PROJECT_BINARY_DIR}/lib)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3-numpy, python3-scipy, python3-networkx, python3-matplotlib, openmpi-bin")
include(CPack)
