"""Histograms: tl.histogram on one block, and a global one with atomic adds."""
import triton
import triton.language as tl


@triton.jit
def histogram(in_ptr, out_ptr, BLOCK: tl.constexpr, BINS: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + offs)
    tl.store(out_ptr + tl.arange(0, BINS), tl.histogram(x, BINS))


@triton.jit
def atomic_histogram(in_ptr, bins_ptr, n, BLOCK: tl.constexpr, BINS: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(in_ptr + offs, mask=mask, other=0)
    tl.atomic_add(bins_ptr + (x % BINS), 1, mask=mask)


KERNELS = [
    ("histogram", histogram, {"in_ptr": "*i32", "out_ptr": "*i32", "BLOCK": "constexpr", "BINS": "constexpr"},
     {"BLOCK": 512, "BINS": 64}, {"num_warps": 4}),
    ("atomic_histogram", atomic_histogram, {"in_ptr": "*i32", "bins_ptr": "*i32", "n": "i32", "BLOCK": "constexpr",
                                            "BINS": "constexpr"}, {"BLOCK": 256, "BINS": 32}, {"num_warps": 4}),
]
