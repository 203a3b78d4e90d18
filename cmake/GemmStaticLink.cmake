# gemm_link_llvm_statically(TARGET [SHARED_CXX_RUNTIME] LIBRARIES...): link
# TARGET against the project's LIBRARIES and every LLVM/MLIR archive, so that
# it runs on machines without LLVM/MLIR (the GPU machine). The C++ runtime is
# linked in too unless SHARED_CXX_RUNTIME: a sanitized binary must take
# operator new and delete from the sanitizer's runtime, not from
# libstdc++.a (ASan reports the mix as alloc-dealloc mismatches). Debian's LLVM links its tools against libLLVM.so and its MLIR
# targets name that library in their interfaces, so the project's libraries
# and the static archives are named by file here, not by target.
function(gemm_link_llvm_statically target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "SHARED_CXX_RUNTIME" "" "")
  set(cxx_runtime -static-libstdc++ -static-libgcc)
  if(arg_SHARED_CXX_RUNTIME)
    set(cxx_runtime)
  endif()
  # Every archive: the linker takes only the objects something refers to.
  file(GLOB mlir_archives ${LLVM_LIBRARY_DIR}/libMLIR*.a)
  file(GLOB llvm_archives ${LLVM_LIBRARY_DIR}/libLLVM*.a)
  add_dependencies(${target} ${arg_UNPARSED_ARGUMENTS})
  set(gemm_archives)
  foreach(library ${arg_UNPARSED_ARGUMENTS})
    list(APPEND gemm_archives $<TARGET_FILE:${library}>)
  endforeach()
  # zlib statically; libzstd (LLVM's compression support) is on every
  # glibc system we target, and Debian has no static archive of it (nor, in
  # the runtime package, the unversioned name).
  find_library(GEMM_ZLIB_ARCHIVE libz.a REQUIRED)
  find_library(GEMM_ZSTD_LIBRARY NAMES zstd libzstd.so.1 REQUIRED)
  target_link_libraries(${target} PRIVATE
    -Wl,--start-group ${gemm_archives} ${mlir_archives} ${llvm_archives}
    -Wl,--end-group
    ${GEMM_ZLIB_ARCHIVE} ${GEMM_ZSTD_LIBRARY} pthread dl m rt
    ${cxx_runtime} -Wl,--gc-sections)
endfunction()
