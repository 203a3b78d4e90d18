"""What the package needs to know of a tensor, from any framework.

PyTorch tensors are read directly (the fast path). Anything else is read
through `__cuda_array_interface__` (CuPy, Numba, ...) or DLPack (`__dlpack__`:
JAX, CuPy, NumPy, ...). Output and workspace memory, staging copies and the
stream come from the framework of the inputs: PyTorch (its caching allocator
and current stream) or CuPy (its memory pool and current stream).
"""
import sys

from gemm import _core

# DLPack type codes (dlpack.h): kDLInt 0, kDLUInt 1, kDLFloat 2, kDLBfloat 4.
_DLPACK_TYPES = {(2, 16): "f16", (4, 16): "bf16", (2, 32): "f32", (2, 64): "f64",
                 (0, 8): "s8", (1, 8): "u8", (0, 32): "s32", (0, 64): "s64"}
_DLPACK_CUDA = (2, 13)  # kDLCUDA, kDLCUDAManaged
_TYPESTR = {"<f2": "f16", "<f4": "f32", "<f8": "f64", "|i1": "s8", "|u1": "u8",
            "<i4": "s32", "<i8": "s64", "<V2": "bf16"}
_ELEMENT_BYTES = {"bf16": 2, "f16": 2, "f32": 4, "f64": 8, "s8": 1, "u8": 1, "s32": 4, "s64": 8,
                  "e4m3": 1, "e5m2": 1}


class TensorView:
    """A tensor's address, shape, strides (in elements), type ("bf16", "f16",
    ... or the framework's name for others) and device."""
    __slots__ = ("obj", "framework", "ptr", "shape", "strides", "dtype", "is_cuda", "device",
                 "device_text")

    def __init__(self, obj, framework, ptr, shape, strides, dtype, is_cuda, device,
                 device_text):
        self.obj, self.framework, self.ptr, self.shape = obj, framework, ptr, shape
        self.strides, self.dtype, self.is_cuda, self.device = strides, dtype, is_cuda, device
        self.device_text = device_text

    @property
    def element_bytes(self):
        return _ELEMENT_BYTES.get(self.dtype, 0)


_torch_types = {}


def _torch_dtype_name(dtype):
    name = _torch_types.get(dtype)
    if name is None:
        torch = sys.modules["torch"]
        known = {torch.bfloat16: "bf16", torch.float16: "f16", torch.float32: "f32",
                 torch.float64: "f64", torch.int8: "s8", torch.uint8: "u8",
                 torch.int32: "s32", torch.int64: "s64"}
        for attr, spelling in (("float8_e4m3fn", "e4m3"), ("float8_e5m2", "e5m2")):
            if hasattr(torch, attr):
                known[getattr(torch, attr)] = spelling
        name = _torch_types[dtype] = known.get(dtype, str(dtype).replace("torch.", ""))
    return name


def view(obj, what):
    """A TensorView of `obj`; UsageError naming `what` if it is no tensor."""
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(obj, torch.Tensor):
        device = obj.device
        is_cuda = device.type == "cuda"
        return TensorView(obj, "torch", obj.data_ptr(), obj.shape, obj.stride(),
                          _torch_dtype_name(obj.dtype), is_cuda,
                          device.index if is_cuda else 0, device)
    framework = "cupy" if type(obj).__module__.startswith("cupy") else "other"
    cai = getattr(obj, "__cuda_array_interface__", None)
    if cai is not None:
        typestr = cai["typestr"]
        dtype = _TYPESTR.get(typestr, typestr)
        itemsize = int(typestr[2:]) if typestr[2:].isdigit() else 1
        shape = tuple(cai["shape"])
        if cai.get("strides") is None:
            strides, step = [], 1
            for extent in reversed(shape):
                strides.insert(0, step)
                step *= extent
        else:
            strides = [s // itemsize for s in cai["strides"]]
        device = _cai_device(obj)
        return TensorView(obj, framework, int(cai["data"][0]), shape, tuple(strides), dtype,
                          True, device, f"cuda:{device}")
    if hasattr(obj, "__dlpack__"):
        try:
            ptr, shape, strides, code, bits, lanes, device_type, device_id = \
                _core.dlpack_info(obj)
        except TypeError as e:
            raise _core.UsageError(f"{what}: its DLPack export failed ({e})") from None
        dtype = _DLPACK_TYPES.get((code, bits), f"dlpack type {code}/{bits}") \
            if lanes == 1 else f"vector type x{lanes}"
        is_cuda = device_type in _DLPACK_CUDA
        text = f"cuda:{device_id}" if is_cuda else \
            {1: "cpu", 3: "cuda pinned host memory"}.get(device_type, f"DLPack device {device_type}")
        return TensorView(obj, framework, ptr, tuple(shape), tuple(strides), dtype, is_cuda,
                          device_id, text)
    raise _core.UsageError(
        f"{what}: a {type(obj).__module__}.{type(obj).__name__} is not a tensor: pass a "
        "torch.Tensor, or an array with __cuda_array_interface__ or __dlpack__ (CuPy, JAX)")


def _cai_device(obj):
    device = getattr(obj, "device", None)
    ident = getattr(device, "id", None)
    return int(ident) if ident is not None else 0


_memories = {}


def memory(framework, device):
    """The Memory of a framework on a device (made once)."""
    key = (framework, device)
    found = _memories.get(key)
    if found is None:
        found = _memories[key] = Memory(framework, device)
    return found


class Memory:
    """Output, workspace and staging memory and the stream, from the
    framework of the inputs."""

    def __init__(self, framework, device):
        self.device = device
        self._types = {}
        torch = sys.modules.get("torch")
        if framework == "torch" or (framework == "other" and torch is not None):
            self.kind = "torch"
            self.torch = torch
            self.torch_device = torch.device("cuda", device)
        elif framework == "cupy" or "cupy" in sys.modules:
            import cupy
            self.kind = "cupy"
            self.cupy = cupy
        else:
            self.kind = None  # only the caller's own memory can be used

    def _need_allocator(self):
        if self.kind is None:
            raise _core.UsageError(
                "memory must be allocated (the output, a workspace or an aligned copy), and "
                "neither PyTorch nor CuPy is imported: pass out= (a writable CUDA tensor), "
                "or import torch or cupy")

    def stream(self):
        """The framework's current stream; the default stream without one."""
        if self.kind is None:
            return 0
        if self.kind == "torch":
            raw = getattr(self.torch._C, "_cuda_getCurrentRawStream", None)
            if raw is not None:
                return raw(self.device)
            return self.torch.cuda.current_stream(self.device).cuda_stream
        with self.cupy.cuda.Device(self.device):
            return self.cupy.cuda.get_current_stream().ptr

    def _dtype(self, dtype):
        """The framework's element type for `dtype`."""
        found = self._types.get(dtype)
        if found is None:
            found = self._types[dtype] = self._find_dtype(dtype)
        return found

    def _find_dtype(self, dtype):
        if self.kind == "torch":
            t = self.torch
            found = {"bf16": t.bfloat16, "f16": t.float16, "f32": t.float32, "s32": t.int32,
                     "s8": t.int8, "u8": t.uint8,
                     "e4m3": getattr(t, "float8_e4m3fn", None),
                     "e5m2": getattr(t, "float8_e5m2", None)}.get(dtype)
        else:
            cp = self.cupy
            found = {"f16": cp.float16, "f32": cp.float32, "s32": cp.int32, "s8": cp.int8,
                     "u8": cp.uint8}.get(dtype)
        if found is None:
            framework = "this PyTorch" if self.kind == "torch" else "CuPy"
            raise _core.UsageError(f"{framework} has no {dtype} type: pass out= for {dtype} "
                                   "results")
        return found

    def bytes(self, count, zeroed):
        self._need_allocator()
        if self.kind == "torch":
            t = self.torch
            make = t.zeros if zeroed else t.empty
            return make(count, dtype=t.uint8, device=self.torch_device)
        with self.cupy.cuda.Device(self.device):
            make = self.cupy.zeros if zeroed else self.cupy.empty
            return make(count, dtype=self.cupy.uint8)

    @staticmethod
    def transpose(buffer):
        """The view of a buffer with its last two dimensions exchanged (no
        copy)."""
        return buffer.swapaxes(-1, -2)

    @staticmethod
    def squeeze(buffer):
        """The first entry of a 3-D buffer of one entry, as a 2-D view."""
        return buffer[0]

    @staticmethod
    def unsqueeze(buffer):
        """A 2-D buffer as a 3-D view of one entry."""
        return buffer[None]

    def empty_nd(self, shape, dtype):
        """A packed row-major buffer of `shape` (a tuple) and `dtype`."""
        self._need_allocator()
        if self.kind == "torch":
            return self.torch.empty(shape, dtype=self._dtype(dtype), device=self.torch_device)
        with self.cupy.cuda.Device(self.device):
            return self.cupy.empty(shape, dtype=self._dtype(dtype))

    def empty3(self, batch, rows, cols, dtype, ld=None):
        """batch x rows x cols of `dtype`, packed entries of rows `ld`
        elements apart (a view into a wider buffer when ld > cols)."""
        ld = ld or cols
        buffer = self.empty_nd((batch, rows, ld), dtype)
        return buffer[:, :, :cols] if ld != cols else buffer

    def read_words(self, buffer, count):
        """The first `count` 32-bit words of a byte buffer, on the host
        (synchronises with the device first: whatever stream wrote them)."""
        if self.kind == "torch":
            self.torch.cuda.synchronize(self.device)
            return buffer[:4 * count].view(self.torch.int32).tolist()
        self.cupy.cuda.Device(self.device).synchronize()
        return [int(x) for x in buffer[:4 * count].view(self.cupy.int32).get()]

    @staticmethod
    def address(buffer):
        return buffer.data_ptr() if hasattr(buffer, "data_ptr") else buffer.data.ptr

    @staticmethod
    def fill_zero(buffer):
        if hasattr(buffer, "zero_"):
            buffer.zero_()
        else:
            buffer.fill(0)

    @staticmethod
    def copy(dst, src):
        if hasattr(dst, "copy_"):
            dst.copy_(src)
        else:
            dst[...] = src
