"""Prefix sums along a row: tl.cumsum, and an associative scan with a custom combine."""
import triton
import triton.language as tl


@triton.jit
def cumsum(in_ptr, out_ptr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + row * BLOCK + offs)
    tl.store(out_ptr + row * BLOCK + offs, tl.cumsum(x, axis=0))


@triton.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def running_max(in_ptr, out_ptr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + row * BLOCK + offs)
    tl.store(out_ptr + row * BLOCK + offs, tl.associative_scan(x, 0, _max_combine))


KERNELS = [
    ("cumsum", cumsum, {"in_ptr": "*i32", "out_ptr": "*i32", "BLOCK": "constexpr"}, {"BLOCK": 256}, {"num_warps": 4}),
    ("running_max", running_max, {"in_ptr": "*fp32", "out_ptr": "*fp32", "BLOCK": "constexpr"}, {"BLOCK": 128},
     {"num_warps": 2}),
]
