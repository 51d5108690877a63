"""Element-wise math through libdevice and Triton's own math: tanh-GELU, erf, pow, rsqrt, log1p."""
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def libdevice_math(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    gelu = 0.5 * x * (1 + libdevice.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))
    y = gelu + libdevice.erf(x) + libdevice.pow(tl.abs(x), 1.5) + libdevice.rsqrt(tl.abs(x) + 1.0)
    y += libdevice.log1p(tl.abs(x)) + tl.sin(x) * tl.cos(x) + tl.exp2(x) + tl.log2(tl.abs(x) + 1.0)
    tl.store(out_ptr + offs, y, mask=mask)


KERNELS = [
    ("libdevice_math", libdevice_math, {"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
     {"BLOCK": 256}, {"num_warps": 4}),
]
