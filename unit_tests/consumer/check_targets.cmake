# What a user's project may see of Batchol's targets, whichever way it got
# them: no compile options (no -march, no warnings, no sanitizers) and no
# compile definitions (the build's choices live in Batchol_Config.hpp).
foreach(target Batchol::batchol Batchol::kernels)
  if(TARGET ${target})
    foreach(property INTERFACE_COMPILE_OPTIONS INTERFACE_COMPILE_DEFINITIONS)
      get_target_property(value ${target} ${property})
      if(value)
        message(FATAL_ERROR "${target} passes ${property} to its users: ${value}")
      endif()
    endforeach()
  endif()
endforeach()
