"""Element-wise vector addition (the first Triton tutorial's kernel, written anew); the second
entry is the same kernel specialised for n divisible by 16, as Triton's launcher does when it is:
its masked loads and stores become 128-bit vector accesses."""
import triton
import triton.language as tl


@triton.jit
def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


KERNELS = [
    ("vector_add", vector_add, {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
     {"BLOCK": 1024}, {"num_warps": 4}),
    ("vector_add_div16", vector_add, {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32",
                                      "BLOCK": "constexpr"}, {"BLOCK": 1024}, {"num_warps": 4}, ["n"]),
]
