"""A few gemm.matmul calls that cover the package's launch paths (the
dispatcher's kernel, staged inputs and output, an explicit split-K kernel
with workspaces, a side stream), small enough to run under
compute-sanitizer:

    compute-sanitizer --tool memcheck python3 bench/python-sanitize.py
"""
import torch

import gemm


def check(c, a, b):
    ref = a.double() @ b.double().T
    err = ((c.double() - ref).norm() / ref.norm()).item()
    assert err < 1e-2, err


def main():
    torch.manual_seed(0)
    a = torch.randn(100, 200, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(72, 200, device="cuda", dtype=torch.bfloat16)
    check(gemm.matmul(a, b), a, b)
    odd_a = torch.randn(33, 77, device="cuda", dtype=torch.bfloat16)
    odd_b = torch.randn(45, 77, device="cuda", dtype=torch.bfloat16)
    check(gemm.matmul(odd_a, odd_b), odd_a, odd_b)          # every matrix staged
    split = gemm.Config(tile=(64, 128, 64), schedule="pingpong", splits=2)
    check(gemm.matmul(a, b, config=split), a, b)          # workspaces
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        c = gemm.matmul(a, b)
    side.synchronize()
    check(c, a, b)
    torch.cuda.synchronize()
    print("python-sanitize: 4 calls checked")


if __name__ == "__main__":
    main()
