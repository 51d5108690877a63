"""Row reductions of a 2-D block: sum, max and argmax along the columns."""
import triton
import triton.language as tl


@triton.jit
def row_sum(x_ptr, out_ptr, n_cols, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    mask = cols[None, :] < n_cols
    x = tl.load(x_ptr + rows[:, None] * n_cols + cols[None, :], mask=mask, other=0.0)
    tl.store(out_ptr + rows, tl.sum(x, axis=1))


@triton.jit
def row_max(x_ptr, out_ptr, n_cols, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    mask = cols[None, :] < n_cols
    x = tl.load(x_ptr + rows[:, None] * n_cols + cols[None, :], mask=mask, other=-float("inf"))
    tl.store(out_ptr + rows, tl.max(x, axis=1))


@triton.jit
def row_argmax(x_ptr, out_ptr, n_cols, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    mask = cols[None, :] < n_cols
    x = tl.load(x_ptr + rows[:, None] * n_cols + cols[None, :], mask=mask, other=-float("inf"))
    tl.store(out_ptr + rows, tl.argmax(x, axis=1))


_SIG = {"x_ptr": "*fp32", "out_ptr": "*fp32", "n_cols": "i32", "ROWS": "constexpr", "BLOCK": "constexpr"}
KERNELS = [
    ("row_sum", row_sum, _SIG, {"ROWS": 4, "BLOCK": 256}, {"num_warps": 4}),
    ("row_max", row_max, _SIG, {"ROWS": 4, "BLOCK": 256}, {"num_warps": 4}),
    ("row_argmax", row_argmax, dict(_SIG, out_ptr="*i32"), {"ROWS": 4, "BLOCK": 256}, {"num_warps": 4}),
]
