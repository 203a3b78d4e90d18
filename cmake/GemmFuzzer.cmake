# GEMM_BUILD_FUZZER: build tools/gemm-fuzz, the libFuzzer harness over the
# compiler (docs/Fuzzing.md), in a build directory of its own
# (scripts/fuzz.sh configures build-fuzz/). Everything this build compiles,
# the compiler libraries included, is instrumented for libFuzzer's coverage
# feedback and checked by AddressSanitizer and UndefinedBehaviorSanitizer
# (no recovery: the first report ends the run), with assertions on.
# Debian's LLVM/MLIR libraries are not instrumented: they are linked as they
# are, so the search is guided by the coverage of the project's own code.
option(GEMM_BUILD_FUZZER
       "Build gemm-fuzz (clang only; instruments the whole build)" OFF)
if(GEMM_BUILD_FUZZER)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "GEMM_BUILD_FUZZER needs clang (libFuzzer): configure "
                        "with CMAKE_CXX_COMPILER=clang++-22, as scripts/fuzz.sh does")
  endif()
  if(NOT GEMM_BUILD_COMPILER)
    message(FATAL_ERROR "GEMM_BUILD_FUZZER needs GEMM_BUILD_COMPILER")
  endif()
  add_compile_options(-fsanitize=address,undefined,fuzzer-no-link
                      -fno-sanitize-recover=all -fno-omit-frame-pointer
                      -UNDEBUG)
  add_link_options(-fsanitize=address,undefined)
endif()
