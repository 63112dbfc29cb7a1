# The Python module (python/, nanobind): built when DUMPCMP_PYTHON is ON, or AUTO and Python's
# development files and nanobind (pip; scripts/python-env.sh puts it in .venv) are found. Not in
# sanitizer or fuzzing builds, whose runtimes a Python interpreter does not load. Sets
# DUMPCMP_BUILD_PYTHON, and makes every library position-independent so the module can link them.
set(DUMPCMP_BUILD_PYTHON OFF)
if(NOT DUMPCMP_PYTHON STREQUAL "OFF" AND NOT DUMPCMP_SANITIZE AND NOT DUMPCMP_FUZZ)
  find_package(Python 3.8 COMPONENTS Interpreter Development.Module)
  if(Python_FOUND)
    execute_process(COMMAND "${Python_EXECUTABLE}" -m nanobind --cmake_dir
                    OUTPUT_VARIABLE nanobind_ROOT OUTPUT_STRIP_TRAILING_WHITESPACE
                    RESULT_VARIABLE nanobind_found ERROR_QUIET)
    if(nanobind_found EQUAL 0)
      find_package(nanobind CONFIG)
    endif()
  endif()
  if(nanobind_FOUND)
    set(DUMPCMP_BUILD_PYTHON ON)
    set(CMAKE_POSITION_INDEPENDENT_CODE ON)
  elseif(DUMPCMP_PYTHON STREQUAL "ON")
    message(FATAL_ERROR "DUMPCMP_PYTHON=ON needs Python's development files and nanobind")
  endif()
endif()
message(STATUS "dumpcmp: Python module ${DUMPCMP_BUILD_PYTHON}")
