// The data mode checks the low-precision epilogue too: an fp8-output
// kernel whose epilogue no longer raises the amax (planted with
// gemm-test-plant-bug{bug=no-amax}) writes C right and leaves the amax at 0,
// which gemm-sim reports (exit 1). A kernel whose row scales are clamped
// to N instead of M (scale.rows' below(%m) edited to below(%n)) reads
// the scale of row N - 1 for the rows past it: those rows of C are wrong.
// One that reads its row scales from B's column scales (the pointer
// edited) reads past the end of them: a hardware-rule violation (exit 3).
//
// RUN: gemm-opt --gemm-materialize-sm90 %s > %t.good.mlir
// RUN: sed -e 's/\(gemm.scale.rows %arg6\[%[0-9]*\]\) below(%arg3)/\1 below(%arg4)/' %t.good.mlir > %t.clamp.mlir
// RUN: sh -c 'gemm-sim %t.clamp.mlir --kernel rows --shape 130x70x200 --sms 2; echo "exit $?"' | FileCheck %s --check-prefix=CLAMP
// CLAMP: FAIL rows m=130 n=70 k=200: {{[0-9]+}} element(s) of C differ from the reference
// CLAMP-NEXT: C[{{[0-9]+}}][{{[0-9]+}}] = {{.*}}, expected
// CLAMP: exit 1
// RUN: sed -e 's/gemm.scale.rows %arg6\[/gemm.scale.rows %arg7[/' %t.good.mlir > %t.pointer.mlir
// RUN: sh -c 'gemm-sim %t.pointer.mlir --kernel rows --shape 130x70x200 --sms 2; echo "exit $?"' | FileCheck %s --check-prefix=POINTER
// POINTER: protocol violation (hardware rule) at 'gemm.scale.rows' ({{.*}}): reads scale element {{[0-9]+}} past the end of its tensor (scale of b (col): 1 x 70 f32 (280 bytes))
// POINTER: exit 3
//
// And the unedited kernels pass.
// RUN: gemm-sim %t.good.mlir --shape 130x70x200 --sms 2 | FileCheck %s --check-prefix=GOOD
// GOOD-DAG: PASS out_fp8 m=130 n=70 k=200: {{.*}}, amax
// GOOD-DAG: PASS rows m=130 n=70 k=200
gemm.matmul @out_fp8 a(f8E4M3FN, row) b(f8E4M3FN, col) c(f8E5M2, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor, c = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)
gemm.matmul @rows a(si8, row) b(si8, col) c(bf16, row) acc(i32)
    quant(#gemm.quant<a = row, b = col>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)
