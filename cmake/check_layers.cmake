# The layering of src/ checked on the sources themselves. Linking keeps a library from calling
# up into a later one only when the call needs a symbol; an include of a header-only struct or
# inline function from a higher folder links fine and still ties the lower folder to it. So
# every `#include "<folder>/..."` in src/<folder>/, include/ascendc/ and tests/<area>/ is
# compared with the folders that place may use (a test helper included as "<area>/helper.h"
# counts as that area's, since it uses that area's library), and the configure step stops at the first
# include that goes up or sideways.
#
# The table of what each folder may use is written by aoc_check_layers (cmake/subsystem.cmake)
# from the libraries' declared dependencies, one line per folder:
#   <folder>=<folder it may use>;<another>...
# Run alone (what the layering test does on a fixture tree):
#   cmake -DROOT=<source root> -DTABLE=<table file> -P cmake/check_layers.cmake

if(CMAKE_SCRIPT_MODE_FILE)
  cmake_minimum_required(VERSION 3.25)  # the policies of the project, alone too
endif()

function(aoc_scan_layers root table)
  get_filename_component(root "${root}" ABSOLUTE)
  if(NOT EXISTS "${table}")
    message(FATAL_ERROR "layer table ${table} does not exist")
  endif()
  file(STRINGS "${table}" rows)
  set(folders "")
  foreach(row IN LISTS rows)
    string(FIND "${row}" "=" eq)
    string(SUBSTRING "${row}" 0 ${eq} folder)
    math(EXPR from "${eq} + 1")
    string(SUBSTRING "${row}" ${from} -1 uses)
    set(AOC_LAYER_${folder} "${uses}")
    list(APPEND folders ${folder})
  endforeach()

  file(GLOB_RECURSE files "${root}/src/*.h" "${root}/src/*.cpp" "${root}/include/ascendc/*.h"
       "${root}/tests/*.h" "${root}/tests/*.cpp")
  set(errors "")
  foreach(path IN LISTS files)
    file(RELATIVE_PATH rel "${root}" "${path}")
    if(rel MATCHES "^tests/data/")  # candidate kernels and fixtures, not the project's code
      continue()
    endif()
    string(REGEX MATCH "^(src|tests)/([^/]+)/" owned "${rel}")
    set(owner "${CMAKE_MATCH_2}")
    # A folder of src/ or tests/ with no row (the cli and harness programs' own folders are
    # rows too) is not checked; include/ascendc/ may use no folder at all.
    if(owned AND NOT DEFINED AOC_LAYER_${owner})
      continue()
    endif()
    set(allowed "")
    if(owned)
      set(allowed ${owner} ${AOC_LAYER_${owner}})
    elseif(NOT rel MATCHES "^include/ascendc/")
      continue()
    endif()
    file(STRINGS "${path}" includes REGEX "^[ \t]*#[ \t]*include[ \t]+\"[a-z_0-9]+/")
    foreach(line IN LISTS includes)
      string(REGEX MATCH "\"([a-z_0-9]+)/[^\"]*\"" quoted "${line}")
      set(used "${CMAKE_MATCH_1}")
      string(REPLACE "\"" "" header "${quoted}")
      if(NOT used IN_LIST folders OR used IN_LIST allowed)
        continue()
      endif()
      if(owned AND AOC_LAYER_${owner})
        string(REPLACE ";" ", " may "${AOC_LAYER_${owner}}")
        string(APPEND errors "  ${rel} includes \"${header}\": ${owner} may use only ${may}\n")
      elseif(owned)
        string(APPEND errors "  ${rel} includes \"${header}\": ${owner} may use no other folder\n")
      else()
        string(APPEND errors "  ${rel} includes \"${header}\": include/ascendc may use nothing in src/\n")
      endif()
    endforeach()
  endforeach()
  if(errors)
    message(FATAL_ERROR "Includes against the layering of src/ (docs/design.md, \"Layers\"):\n${errors}"
                        "Move the code to a folder that may use what it needs, or the shared part "
                        "down to a folder both may use.")
  endif()
endfunction()

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  if(NOT DEFINED ROOT OR NOT DEFINED TABLE)
    message(FATAL_ERROR "usage: cmake -DROOT=<source root> -DTABLE=<table file> -P ${CMAKE_CURRENT_LIST_FILE}")
  endif()
  aoc_scan_layers("${ROOT}" "${TABLE}")
endif()
