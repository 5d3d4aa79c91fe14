# aoc_subsystem(NAME DEPS...): builds src/NAME/*.cpp into library aoc_NAME when the folder
# has sources; public include root is src/, so code includes "NAME/header.h".
function(aoc_subsystem name)
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
endfunction()
