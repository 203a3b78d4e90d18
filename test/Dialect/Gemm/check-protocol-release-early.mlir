// RUN: gemm-opt %s -verify-diagnostics --gemm-materialize-sm90=wgmma-lookahead=0 --gemm-test-plant-bug=bug=release-early --gemm-check-protocol
//
// The WGMMA lookahead off by one: a kernel that releases each k-block's stage
// right after its wgmma.wait (correct without lookahead, pending(0)) now
// waits with pending(1), so the stage goes back to the producer while the
// WGMMAs that read it may still run. Caught at compile time as a race at the
// TMA load that refills the stage.

// expected-error @+3 {{protocol violation (race): the TMA load 'gemm.tma.load' of iteration 2 issued by CTA 0 producer (thread 0) overwrites shared memory of CTA 0 at byte 0 while 'gemm.mma.sm90' issued by CTA 0 consumer 0 (thread 128) may still read it (the stage is overwritten while a reader holds it)}}
// expected-note @+2 {{the read not known to be complete ('gemm.mma.sm90')}}
// expected-note @+1 {{counterexample trace:}}
gemm.matmul @release_early a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], stages = 2>)
