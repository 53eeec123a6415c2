# SelfmonReaderCheck.cmake — selfmon_add_reader_check(): a library's
# reader checked by `selfmon check` under its own ctest.
#
# Owns: the function's arguments and their usage errors (one line each,
# then configuration stops), building the reader object for each arch with the
# compiler selfmon's configure found for it, and one ctest test per arch.
# Installed beside selfmonConfig.cmake, which sets SELFMON_EXECUTABLE and
# SELFMON_C_COMPILER_<arch> before including it.
#
#   selfmon_add_reader_check(NAME name SOURCES a.c [b.c...] SYMBOL fn
#     ABI raw|times|scaled|values       (or SYMBOL first,read
#                                        ABI delta|reset: two functions)
#     [ARCHES x86_64 arm64 riscv64]      default: all three
#     [BOUND K]                          default 2
#     [SCENARIOS name|file.scn ...]      default: every bundled one
#     [ACTIONS a ...] [WITHOUT a ...] [DROP_SCRIPTED]
#     [COMPILE_OPTIONS ...]              default -O2 -g
#     [INCLUDE_DIRECTORIES dir ...] [TIME_LIMIT s] [JOBS n]
#     [JUNIT_DIR dir])                   default ${CMAKE_BINARY_DIR}/selfmon-reports
#
# Tests: selfmon_<NAME>_<arch>, labelled "selfmon"; each writes its JUnit
# report to JUNIT_DIR/<NAME>-<arch>.xml and its counterexample traces
# under the build tree.  An arch with no compiler gets a configure message
# and a disabled test (ctest lists it as not run), never a silent gap.
include_guard(GLOBAL)

set(_SELFMON_ARCHES x86_64 arm64 riscv64)

# A usage error: one line naming the calling file (CMake's own error
# wraps long text and adds a call stack, so the line comes first, alone),
# then configuration stops.
function(_selfmon_usage msg)
  message(NOTICE "${CMAKE_CURRENT_LIST_FILE}: selfmon_add_reader_check: ${msg}")
  message(FATAL_ERROR "selfmon_add_reader_check: usage error (the line above)")
endfunction()

# Every argument as documented above, else a usage error.
function(_selfmon_validate)
  if(arg_UNPARSED_ARGUMENTS)
    list(GET arg_UNPARSED_ARGUMENTS 0 bad)
    _selfmon_usage("unknown argument '${bad}'")
  endif()
  if(arg_KEYWORDS_MISSING_VALUES)
    list(GET arg_KEYWORDS_MISSING_VALUES 0 kw)
    _selfmon_usage("${kw} needs a value")
  endif()
  foreach(kw NAME SOURCES SYMBOL ABI)
    if(NOT DEFINED arg_${kw})
      _selfmon_usage("${kw} is required (NAME, SOURCES, SYMBOL, ABI)")
    endif()
  endforeach()
  if(NOT arg_NAME MATCHES "^[A-Za-z0-9_.-]+$")
    _selfmon_usage("NAME '${arg_NAME}' may hold letters, digits, '_', '.' and '-' only")
  endif()
  if(NOT arg_SYMBOL MATCHES "^[A-Za-z_][A-Za-z0-9_]*(,[A-Za-z_][A-Za-z0-9_]*)?$")
    _selfmon_usage("SYMBOL '${arg_SYMBOL}' is not a C identifier (or FIRST,READ for the delta and reset ABIs)")
  endif()
  if(NOT arg_ABI MATCHES "^(raw|times|scaled|values|delta|reset)$")
    _selfmon_usage("ABI must be raw, times, scaled, values, delta or reset (got '${arg_ABI}')")
  endif()
  foreach(a IN LISTS arg_ARCHES)
    if(NOT a IN_LIST _SELFMON_ARCHES)
      _selfmon_usage("unknown arch '${a}' in ARCHES (x86_64, arm64, riscv64)")
    endif()
  endforeach()
  if(DEFINED arg_BOUND AND (NOT arg_BOUND MATCHES "^[0-9]+$"
                            OR arg_BOUND GREATER SELFMON_MAX_BOUND))
    _selfmon_usage("BOUND must be 0..${SELFMON_MAX_BOUND} (got '${arg_BOUND}')")
  endif()
  foreach(kw TIME_LIMIT JOBS)
    if(DEFINED arg_${kw} AND NOT arg_${kw} MATCHES "^[0-9]+$")
      _selfmon_usage("${kw} must be a whole number (got '${arg_${kw}}')")
    endif()
  endforeach()
  foreach(src IN LISTS arg_SOURCES)
    get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${abs}")
      _selfmon_usage("source '${src}' not found")
    endif()
  endforeach()
endfunction()

# The reader object for one arch in ${out_var}: each source compiled with
# cc, several linked into one relocatable object (ld -r).
function(_selfmon_object arch cc dir out_var)
  set(flags -O2 -g)
  if(DEFINED arg_COMPILE_OPTIONS)
    set(flags ${arg_COMPILE_OPTIONS})
  endif()
  foreach(inc IN LISTS arg_INCLUDE_DIRECTORIES)
    get_filename_component(inc "${inc}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND flags "-I${inc}")
  endforeach()
  set(objs "")
  set(reader "${dir}/${arg_NAME}.o")
  list(LENGTH arg_SOURCES nsrc)
  set(i 0)
  foreach(src IN LISTS arg_SOURCES)
    get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(base "${src}" NAME_WE)
    set(obj "${dir}/src/${i}-${base}.o")
    if(nsrc EQUAL 1)
      set(obj "${reader}")
    endif()
    add_custom_command(OUTPUT "${obj}"
      COMMAND "${CMAKE_COMMAND}" -E make_directory "${dir}/src"
      COMMAND "${cc}" ${flags} -MD -MF "${obj}.d" -c "${abs}" -o "${obj}"
      DEPENDS "${abs}" DEPFILE "${obj}.d"
      COMMENT "selfmon: ${arch} reader object for ${arg_NAME} (${src})"
      VERBATIM)
    list(APPEND objs "${obj}")
    math(EXPR i "${i} + 1")
  endforeach()
  if(nsrc GREATER 1)
    add_custom_command(OUTPUT "${reader}"
      COMMAND "${cc}" -r -nostdlib -o "${reader}" ${objs}
      DEPENDS ${objs}
      COMMENT "selfmon: ${arch} reader object for ${arg_NAME}"
      VERBATIM)
  endif()
  set(${out_var} "${reader}" PARENT_SCOPE)
endfunction()

# `selfmon check` of obj as the test selfmon_NAME_ARCH.
function(_selfmon_test arch obj dir)
  set(test "selfmon_${arg_NAME}_${arch}")
  set(args check "${obj}:${arg_SYMBOL}" --name "${arg_NAME}" --abi ${arg_ABI}
      --bound ${arg_BOUND})
  foreach(s IN LISTS arg_SCENARIOS)
    if(s MATCHES "/|\\.scn$")
      get_filename_component(s "${s}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    endif()
    list(APPEND args --scenario "${s}")
  endforeach()
  foreach(kw ACTIONS WITHOUT)
    if(DEFINED arg_${kw})
      string(TOLOWER "--${kw}" opt)
      string(REPLACE ";" "," set "${arg_${kw}}")
      list(APPEND args ${opt} "${set}")
    endif()
  endforeach()
  if(arg_DROP_SCRIPTED)
    list(APPEND args --drop-scripted)
  endif()
  if(DEFINED arg_TIME_LIMIT)
    list(APPEND args --time-limit ${arg_TIME_LIMIT})
  endif()
  if(DEFINED arg_JOBS)
    list(APPEND args -j ${arg_JOBS})
  endif()
  list(APPEND args --traces "${dir}/traces"
       --junit "${arg_JUNIT_DIR}/${arg_NAME}-${arch}.xml")
  add_test(NAME "${test}" COMMAND "${SELFMON_EXECUTABLE}" ${args})
  set_tests_properties("${test}" PROPERTIES LABELS selfmon)
  if(DEFINED arg_JOBS)
    set_tests_properties("${test}" PROPERTIES PROCESSORS ${arg_JOBS})
  endif()
endfunction()

# An arch without a compiler: said at configure, and a disabled test.
function(_selfmon_no_compiler arch explicit)
  string(TOUPPER "${arch}" up)
  set(msg "selfmon_add_reader_check(${arg_NAME}): no ${arch} compiler: selfmon was configured without one (install ${SELFMON_PACKAGE_${up}} and rebuild selfmon); the ${arch} check is not run")
  if(explicit)
    message(WARNING "${msg}")
  else()
    message(STATUS "${msg}")
  endif()
  set(test "selfmon_${arg_NAME}_${arch}")
  add_test(NAME "${test}" COMMAND "${CMAKE_COMMAND}" -E echo "${msg}")
  set_tests_properties("${test}" PROPERTIES DISABLED TRUE LABELS selfmon)
endfunction()

function(selfmon_add_reader_check)
  cmake_parse_arguments(PARSE_ARGV 0 arg "DROP_SCRIPTED"
    "NAME;SYMBOL;ABI;BOUND;TIME_LIMIT;JOBS;JUNIT_DIR"
    "SOURCES;ARCHES;SCENARIOS;ACTIONS;WITHOUT;COMPILE_OPTIONS;INCLUDE_DIRECTORIES")
  _selfmon_validate()
  set(explicit TRUE)
  if(NOT DEFINED arg_ARCHES)
    set(arg_ARCHES ${_SELFMON_ARCHES})
    set(explicit FALSE)
  endif()
  if(NOT DEFINED arg_BOUND)
    set(arg_BOUND 2)
  endif()
  if(NOT DEFINED arg_JUNIT_DIR)
    set(arg_JUNIT_DIR "${CMAKE_BINARY_DIR}/selfmon-reports")
  endif()
  get_filename_component(arg_JUNIT_DIR "${arg_JUNIT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_BINARY_DIR}")
  if(TARGET "selfmon_${arg_NAME}")
    _selfmon_usage("NAME '${arg_NAME}' is already used by another reader check")
  endif()
  # The reader object's path becomes PATH in selfmon's PATH:SYMBOL, where
  # '#' and ':' are refused (they would break the schedule line): say so
  # now, not in every test at run time.
  if(CMAKE_CURRENT_BINARY_DIR MATCHES "[#:]")
    _selfmon_usage("the build directory '${CMAKE_CURRENT_BINARY_DIR}' holds '#' or ':', which selfmon refuses in a reader's path; build in another directory")
  endif()
  file(MAKE_DIRECTORY "${arg_JUNIT_DIR}")
  set(objects "")
  list(REMOVE_DUPLICATES arg_ARCHES)
  foreach(arch IN LISTS arg_ARCHES)
    set(cc "${SELFMON_C_COMPILER_${arch}}")
    if(NOT cc)
      _selfmon_no_compiler(${arch} ${explicit})
      continue()
    endif()
    set(dir "${CMAKE_CURRENT_BINARY_DIR}/selfmon/${arg_NAME}/${arch}")
    _selfmon_object(${arch} "${cc}" "${dir}" obj)
    list(APPEND objects "${obj}")
    _selfmon_test(${arch} "${obj}" "${dir}")
  endforeach()
  add_custom_target("selfmon_${arg_NAME}" ALL DEPENDS ${objects})
endfunction()
