# aoc_subsystem(NAME DEPS...): builds src/NAME/*.cpp into library aoc_NAME when the folder
# has sources; public include root is src/, so code includes "NAME/header.h".
# A folder may depend only on folders declared before it (an aoc_<folder> among DEPS that is
# not declared yet stops the configure step), so the layers cannot form a cycle; what each
# folder may include is checked by aoc_check_layers once all are declared.
include(${CMAKE_CURRENT_LIST_DIR}/check_layers.cmake)

# The project folders among `deps` (aoc_<folder> targets), with what they may use themselves.
function(_aoc_layer_closure name deps out_var)
  set(uses "")
  foreach(dep IN LISTS deps)
    if(NOT dep MATCHES "^aoc_(.+)$" OR dep STREQUAL "aoc_ascendc")
      continue()
    endif()
    set(folder "${CMAKE_MATCH_1}")
    get_property(known GLOBAL PROPERTY AOC_LAYER_${folder} SET)
    if(NOT known)
      message(FATAL_ERROR "${name} depends on ${dep}, which is not declared before it in src/CMakeLists.txt: "
                          "a folder may use only folders below it (docs/design.md, \"Layers\")")
    endif()
    get_property(below GLOBAL PROPERTY AOC_LAYER_${folder})
    list(APPEND uses ${folder} ${below})
  endforeach()
  list(REMOVE_DUPLICATES uses)
  list(SORT uses)
  set(${out_var} "${uses}" PARENT_SCOPE)
endfunction()

function(_aoc_declare_layer name deps)
  _aoc_layer_closure(${name} "${deps}" uses)
  set_property(GLOBAL PROPERTY AOC_LAYER_${name} "${uses}")
  set_property(GLOBAL APPEND PROPERTY AOC_LAYERS ${name})
endfunction()

function(aoc_subsystem name)
  _aoc_declare_layer(${name} "${ARGN}")
  file(GLOB srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${name}/*.cpp)
  if(NOT srcs)
    add_library(aoc_${name} INTERFACE)
    target_include_directories(aoc_${name} INTERFACE ${CMAKE_SOURCE_DIR}/src)
    target_link_libraries(aoc_${name} INTERFACE ${ARGN})
    return()
  endif()
  add_library(aoc_${name} STATIC ${srcs})
  target_include_directories(aoc_${name} PUBLIC ${CMAKE_SOURCE_DIR}/src)
  target_link_libraries(aoc_${name} PUBLIC ${ARGN})
  aoc_unity_build(aoc_${name})
endfunction()

# aoc_unity_build(TARGET): with AOC_UNITY_BUILD (the default), the target's sources compile in
# batches of a few files per translation unit, so the headers they share (the standard library,
# nlohmann/json, the project's own) are parsed once per batch instead of once per file: on the
# 2-core machine the libraries and the CLI build in about half the time. A name a source file
# keeps to itself (an anonymous namespace) must therefore be unique within its library.
# -DAOC_UNITY_BUILD=OFF compiles file by file, for quick rebuilds of one file while debugging.
option(AOC_UNITY_BUILD "Compile the libraries and the CLI in batches of source files" ON)
function(aoc_unity_build target)
  if(AOC_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  endif()
endfunction()

# aoc_program_folder(FOLDER DEPS...): src/FOLDER holds a program's own sources (not a
# library); it may use DEPS and what they use, and is checked like a library's folder.
function(aoc_program_folder name)
  _aoc_declare_layer(${name} "${ARGN}")
endfunction()

# Writes the table of what each folder may use and checks every include against it
# (cmake/check_layers.cmake); tests/<area>/ may use what src/<area>/ may.
function(aoc_check_layers)
  get_property(layers GLOBAL PROPERTY AOC_LAYERS)
  set(table "${CMAKE_BINARY_DIR}/layers.txt")
  set(rows "")
  foreach(layer IN LISTS layers)
    get_property(uses GLOBAL PROPERTY AOC_LAYER_${layer})
    string(APPEND rows "${layer}=${uses}\n")
  endforeach()
  file(WRITE "${table}" "${rows}")
  aoc_scan_layers("${CMAKE_SOURCE_DIR}" "${table}")
endfunction()
