"""Kernels of our own: a tiled transpose through shared memory, an fp16 fused multiply-add with clamp,
an int8 quantiser, a masked 2-D copy with 64-bit offsets, a grid-stride loop with a while."""
import triton
import triton.language as tl


@triton.jit
def transpose(in_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(in_ptr + rm[:, None] * N + rn[None, :], mask=mask)
    tl.store(out_ptr + rn[None, :] * M + rm[:, None], x, mask=mask)


@triton.jit
def fma_clamp_f16(a_ptr, b_ptr, c_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    c = tl.load(c_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.clamp(a * b + c, -4.0, 4.0), mask=mask)


@triton.jit
def quantize_int8(x_ptr, q_ptr, scale_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
    amax = tl.max(tl.abs(x), axis=0)
    scale = amax / 127.0
    q = tl.extra.cuda.libdevice.round(x / tl.maximum(scale, 1e-8))
    tl.store(q_ptr + row * n_cols + cols, q.to(tl.int8), mask=mask)
    tl.store(scale_ptr + row, scale)


@triton.jit
def copy_i64(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    start = tl.program_id(0).to(tl.int64) * BLOCK
    offs = start + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=mask), mask=mask)


@triton.jit
def grid_stride_scale(x_ptr, n, alpha, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    step = tl.num_programs(0) * BLOCK
    off = pid * BLOCK
    while off < n:
        offs = off + tl.arange(0, BLOCK)
        mask = offs < n
        tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=mask) * alpha, mask=mask)
        off += step


KERNELS = [
    ("transpose", transpose, {"in_ptr": "*fp32", "out_ptr": "*fp32", "M": "i32", "N": "i32", "BM": "constexpr",
                              "BN": "constexpr"}, {"BM": 32, "BN": 32}, {"num_warps": 4}),
    ("fma_clamp_f16", fma_clamp_f16, {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "out_ptr": "*fp16",
                                      "n": "i32", "BLOCK": "constexpr"}, {"BLOCK": 1024}, {"num_warps": 4}),
    ("quantize_int8", quantize_int8, {"x_ptr": "*fp32", "q_ptr": "*i8", "scale_ptr": "*fp32", "n_cols": "i32",
                                      "BLOCK": "constexpr"}, {"BLOCK": 512}, {"num_warps": 4}),
    ("copy_i64", copy_i64, {"src_ptr": "*bf16", "dst_ptr": "*bf16", "n": "i64", "BLOCK": "constexpr"},
     {"BLOCK": 512}, {"num_warps": 4}),
    ("grid_stride_scale", grid_stride_scale, {"x_ptr": "*fp32", "n": "i32", "alpha": "fp32", "BLOCK": "constexpr"},
     {"BLOCK": 256}, {"num_warps": 2}),
]
