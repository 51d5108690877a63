"""Dropout with Philox random numbers (tl.rand) from a seed: no mask tensor in memory."""
import triton
import triton.language as tl


@triton.jit
def seeded_dropout(x_ptr, out_ptr, n, p, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    r = tl.rand(seed, offs)
    keep = r > p
    tl.store(out_ptr + offs, tl.where(keep, x / (1 - p), 0.0), mask=mask)


KERNELS = [
    ("seeded_dropout", seeded_dropout, {"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "p": "fp32", "seed": "i32",
                                        "BLOCK": "constexpr"}, {"BLOCK": 1024}, {"num_warps": 4}),
]
