#!/usr/bin/env python3
"""Runs one kernel of a cubin on the GPU, as a JSON launch spec describes it.

    scripts/gpu-run.py FILE.cubin SPEC.json

Prints one line `param N: <lowercase hex bytes>` for every buffer parameter
marked as output (N = parameter index), in parameter order, and nothing else
on stdout. The launch spec format is documented in scripts/README.md.

Uses the CUDA driver API through whichever of cuda-python
(`cuda.bindings.driver` or the older `cuda.cuda`) and CuPy
(`cupy.cuda.driver`) is installed. Exit status 2 on a bad spec, 3 when no
driver binding is available, 1 on a CUDA error.
"""

import ctypes
import json
import struct
import sys

MASK64 = (1 << 64) - 1

SCALARS = {
    # kind: (struct format, size)
    "u8": ("<B", 1), "s8": ("<b", 1),
    "u16": ("<H", 2), "s16": ("<h", 2), "f16": ("<H", 2), "bf16": ("<H", 2),
    "u32": ("<I", 4), "s32": ("<i", 4), "f32": ("<I", 4),
    "u64": ("<Q", 8), "s64": ("<q", 8), "f64": ("<Q", 8),
}


class SpecError(Exception):
    pass


def splitmix64_bytes(seed, count):
    """`count` bytes from SplitMix64 seeded with `seed`: each 64-bit output
    little-endian, concatenated, the last one cut short."""
    state = seed & MASK64
    out = bytearray()
    while len(out) < count:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        z ^= z >> 31
        out += struct.pack("<Q", z)
    return bytes(out[:count])


def scalar_bytes(kind, value):
    fmt, size = SCALARS[kind]
    bits = int(value, 16) if isinstance(value, str) else int(value)
    # Values are bit patterns: take the low `size` bytes.
    return (bits & ((1 << (8 * size)) - 1)).to_bytes(size, "little")


def buffer_bytes(p, index):
    size = int(p["bytes"])
    fill = p.get("fill", "zero")
    if fill == "zero":
        return bytes(size)
    if fill == "random":
        return splitmix64_bytes(int(p.get("seed", 0)), size)
    if fill == "hex":
        data = bytes.fromhex(p["hex"])
        if len(data) != size:
            raise SpecError(f"param {index}: hex fill has {len(data)} bytes, buffer has {size}")
        return data
    raise SpecError(f"param {index}: unknown fill '{fill}'")


class Driver:
    """The few driver calls needed, over cuda-python or CuPy."""

    def __init__(self):
        self.kind = None
        try:
            try:
                from cuda.bindings import driver as cu
            except ImportError:
                from cuda import cuda as cu
            self.cu = cu
            self.kind = "cuda-python"
            self._check(cu.cuInit(0))
            device = self._check(cu.cuDeviceGet(0))
            self.context = self._check(cu.cuDevicePrimaryCtxRetain(device))
            self._check(cu.cuCtxSetCurrent(self.context))
            return
        except ImportError:
            pass
        try:
            import cupy
            self.cupy = cupy
            self.kind = "cupy"
            cupy.cuda.Device(0).use()
            cupy.cuda.runtime.free(cupy.cuda.runtime.malloc(1))  # creates the context
        except ImportError:
            raise SystemExit(3)

    def _check(self, result):
        err, *rest = result if isinstance(result, tuple) else (result,)
        if int(err) != 0:
            raise RuntimeError(f"CUDA error {err}")
        return rest[0] if len(rest) == 1 else (tuple(rest) if rest else None)

    def load(self, image):
        if self.kind == "cuda-python":
            return self._check(self.cu.cuModuleLoadData(image))
        return self.cupy.cuda.driver.moduleLoadData(image)

    def function(self, module, name):
        if self.kind == "cuda-python":
            return self._check(self.cu.cuModuleGetFunction(module, name.encode()))
        return self.cupy.cuda.driver.moduleGetFunction(module, name)

    def alloc(self, size):
        size = max(size, 1)
        if self.kind == "cuda-python":
            return int(self._check(self.cu.cuMemAlloc(size)))
        return self.cupy.cuda.runtime.malloc(size)

    def upload(self, pointer, data):
        if not data:
            return
        if self.kind == "cuda-python":
            self._check(self.cu.cuMemcpyHtoD(pointer, data, len(data)))
        else:
            self.cupy.cuda.runtime.memcpy(pointer, ctypes.cast(ctypes.c_char_p(data), ctypes.c_void_p).value, len(data), 1)

    def download(self, pointer, size):
        out = bytearray(size)
        if size == 0:
            return bytes(out)
        host = (ctypes.c_char * size).from_buffer(out)
        if self.kind == "cuda-python":
            self._check(self.cu.cuMemcpyDtoH(ctypes.addressof(host), pointer, size))
        else:
            self.cupy.cuda.runtime.memcpy(ctypes.addressof(host), pointer, size, 2)
        return bytes(out)

    def launch(self, function, grid, block, shared, params_address):
        if self.kind == "cuda-python":
            self._check(self.cu.cuLaunchKernel(function, *grid, *block, shared, 0, params_address, 0))
            self._check(self.cu.cuCtxSynchronize())
        else:
            self.cupy.cuda.driver.launchKernel(function, *grid, *block, shared, 0, params_address, 0)
            self.cupy.cuda.runtime.deviceSynchronize()


def main(argv):
    if len(argv) != 3:
        print("usage: gpu-run.py FILE.cubin SPEC.json", file=sys.stderr)
        return 2
    image = open(argv[1], "rb").read()
    try:
        spec = json.load(open(argv[2]))
        # One to three numbers each, missing ones are 1 (as src/interp/launch.rs reads them).
        grid = [int(x) for x in spec.get("grid", [1, 1, 1])]
        block = [int(x) for x in spec.get("block", [1, 1, 1])]
        if not (1 <= len(grid) <= 3 and 1 <= len(block) <= 3):
            raise SpecError("grid and block take one to three numbers each")
        grid += [1] * (3 - len(grid))
        block += [1] * (3 - len(block))
        host_args = []  # (index, bytes or None for a buffer, buffer bytes)
        for index, p in enumerate(spec["params"]):
            kind = p.get("kind")
            if kind in SCALARS:
                host_args.append((index, scalar_bytes(kind, p["value"]), None))
            elif kind == "bytes":
                host_args.append((index, bytes.fromhex(p["hex"]), None))
            elif kind == "buffer":
                host_args.append((index, None, buffer_bytes(p, index)))
            elif kind == "same":
                # The address of an earlier buffer parameter, passed again.
                earlier = int(p["param"])
                if not (0 <= earlier < index) or host_args[earlier][2] is None:
                    raise SpecError(f"param {index}: {earlier} is not an earlier buffer parameter")
                host_args.append((index, ("same", earlier), None))
            else:
                raise SpecError(f"param {index}: unknown kind '{kind}'")
    except (KeyError, ValueError, SpecError) as e:
        print(f"gpu-run.py: bad launch spec: {e}", file=sys.stderr)
        return 2

    driver = Driver()
    try:
        module = driver.load(image)
        function = driver.function(module, spec["kernel"])
        keep = []  # ctypes buffers that must outlive the launch
        pointers = {}
        arg_addresses = []
        for index, value, data in host_args:
            if isinstance(value, tuple):
                value = struct.pack("<Q", pointers[value[1]][0])
            elif data is not None:
                pointer = driver.alloc(len(data))
                driver.upload(pointer, data)
                pointers[index] = (pointer, len(data))
                # A struct whose first field is the pointer (`tail`: its other bytes).
                value = struct.pack("<Q", pointer) + bytes.fromhex(spec["params"][index].get("tail", ""))
            buf = ctypes.create_string_buffer(value, max(len(value), 1))
            keep.append(buf)
            arg_addresses.append(ctypes.addressof(buf))
        array = (ctypes.c_void_p * max(len(arg_addresses), 1))(*arg_addresses)
        driver.launch(function, grid, block, int(spec.get("shared_bytes", 0)), ctypes.addressof(array))
        for index, p in enumerate(spec["params"]):
            if p.get("kind") == "buffer" and p.get("output", False):
                pointer, size = pointers[index]
                print(f"param {index}: {driver.download(pointer, size).hex()}")
    except RuntimeError as e:
        print(f"gpu-run.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
