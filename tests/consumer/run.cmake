# ctest driver (cmake -P): install the built poetgrad to a temporary prefix, configure and build
# tests/consumer against it with find_package, then run the program. Called from tests/CMakeLists.txt
# with BUILD_DIR (the poetgrad build), SOURCE_DIR (this folder) and WORK_DIR (scratch space), and the
# build's compiler and flags (CXX, CXX_FLAGS, LINKER_FLAGS): a library built with libc++ links only so.
file(REMOVE_RECURSE "${WORK_DIR}")

function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "consumer: ${what} failed (${rc}):\n${out}\n${err}")
  endif()
  message(STATUS "consumer: ${what}: ok")
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

step("install to ${WORK_DIR}/prefix" "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${WORK_DIR}/prefix")
step("configure with find_package(poetgrad)" "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${WORK_DIR}/build"
     -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix" -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON
     "-DCMAKE_CXX_COMPILER=${CXX}" "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}")
file(STRINGS "${WORK_DIR}/build/CMakeCache.txt" found REGEX "^poetgrad_DIR:")
string(FIND "${found}" "${WORK_DIR}/prefix/" at)
if(at EQUAL -1)
  message(FATAL_ERROR "consumer: found poetgrad outside the install prefix: ${found}")
endif()
step("build" "${CMAKE_COMMAND}" --build "${WORK_DIR}/build")
step("run" "${WORK_DIR}/build/app")
message(STATUS "${step_output}")
