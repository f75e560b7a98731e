# Cross-compiling for aarch64 Linux with Debian's g++-aarch64-linux-gnu; the programs run under
# qemu-aarch64 (qemu-user-static) with the cross C library. Header-only packages (xtensor, xsimd,
# Catch2 2, nlohmann-json) come from the host. Used by ./poet test's aarch64 stage.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
find_program(POETGRAD_QEMU_AARCH64 NAMES qemu-aarch64-static qemu-aarch64)
set(CMAKE_CROSSCOMPILING_EMULATOR ${POETGRAD_QEMU_AARCH64} -L /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
# Debian puts the CMake files of the header-only xtensor and xsimd under the host's multiarch folder.
set(xtensor_DIR /usr/lib/x86_64-linux-gnu/cmake/xtensor CACHE PATH "xtensor's CMake files (host, header-only)")
set(xsimd_DIR /usr/lib/x86_64-linux-gnu/cmake/xsimd CACHE PATH "xsimd's CMake files (host, header-only)")
