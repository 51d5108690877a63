//! Launch specs: what one kernel launch is given (grid, block, dynamic shared
//! memory, parameters, device buffers) and what comes back (the output
//! buffers' bytes).
//!
//! The JSON form is the one `scripts/gpu-run.py` reads (documented in
//! scripts/README.md), so the same spec runs on a GPU, in the PTX
//! interpreter and in the SASS interpreter, and the three print their output
//! buffers in the same `param N: <hex>` lines.
//!
//! [`LaunchSpec::materialize`] turns a spec into a [`Launch`]: device memory
//! holding the buffers and the bytes of every argument, ready for an
//! interpreter to lay into its parameter space.

use super::memory::GlobalMemory;
use serde_json::{Map, Value};
use std::fmt;

/// A kernel launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchSpec {
    /// The kernel (entry) name.
    pub kernel: String,
    /// Grid size in CTAs, x y z.
    pub grid: [u32; 3],
    /// CTA size in threads, x y z.
    pub block: [u32; 3],
    /// Dynamic shared memory bytes.
    pub shared_bytes: u32,
    /// Arguments, in the kernel's parameter order.
    pub params: Vec<ParamSpec>,
    /// Textures bound for the launch (`"textures"` in the JSON).
    pub textures: Vec<TextureSpec>,
}

/// A texture bound for a launch: its handle (the 32-bit word a bindless
/// texture object's low half holds, or the one the driver writes into a
/// kernel's slot for a `.texref`), its size, how coordinates address it,
/// and four 32-bit words per texel (x fastest, then y, then z), returned
/// as a fetch's four components whatever the format: a point-filtered
/// fetch of a 32-bit-per-channel texture reads them unconverted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextureSpec {
    /// The handle (`"handle"`).
    pub handle: u32,
    /// The `.texref` the driver binds it to (`"texref"`), if any: the
    /// relocation of type 6 naming that symbol gets the handle.
    pub texref: Option<String>,
    /// Width, height and depth in texels (`"dims"`, 1 to 3 numbers).
    pub dims: [u32; 3],
    /// Float coordinates in [0, 1) over the texture rather than texels
    /// (`"normalized"`).
    pub normalized: bool,
    /// Coordinates outside the texture wrap around rather than clamp to
    /// its edge (`"address": "wrap"` or `"clamp"`).
    pub wrap: bool,
    /// The texels' words (`"fill"` as a buffer's, 16 bytes per texel).
    pub fill: Fill,
    /// A surface rather than a texture (`"element_bytes"`): the bytes of
    /// one element (1, 2, 4, 8 or 16); its fill is `dims` elements of
    /// that size, its reference named by `"surfref"`.
    pub element_bytes: Option<u32>,
}

/// A bound texture: its spec with the texels its fill makes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Texture {
    /// Handle, `.texref`, size and addressing, as the spec says.
    pub spec: TextureSpec,
    /// Four words per texel (none for a surface).
    pub texels: Vec<[u32; 4]>,
    /// A surface's address in device memory (`element_bytes` per element,
    /// x fastest, then y, then z or the layer).
    pub surface: Option<u64>,
}

impl Texture {
    /// The texel index along dimension `k` of a float coordinate (point
    /// filtering: the texel containing it, CUDA's cudaFilterModePoint).
    fn float_index(&self, k: usize, c: f32) -> i64 {
        let size = self.spec.dims[k].max(1);
        let scaled = if self.spec.normalized { c * size as f32 } else { c };
        // NaN reads texel 0 (`as` saturates and maps NaN to 0).
        scaled.floor() as i64
    }

    /// The index inside the texture of texel index `i` along dimension `k`.
    fn address(&self, k: usize, i: i64) -> u64 {
        let size = i64::from(self.spec.dims[k].max(1));
        (if self.spec.wrap { i.rem_euclid(size) } else { i.clamp(0, size - 1) }) as u64
    }

    /// Component `c` of the four texels bilinear filtering at the float
    /// coordinates (x, y) reads (`tld4`): with i0 = floor(x' - 0.5), j0 =
    /// floor(y' - 0.5) in texels (x' the coordinate times the width when
    /// normalized), in the PTX ISA's order, counter-clockwise from the
    /// lower left: (i0, j0+1), (i0+1, j0+1), (i0+1, j0), (i0, j0).
    pub fn gather(&self, coords: &[u32], c: u8) -> [u32; 4] {
        let texel_space = |k: usize| -> f32 {
            let v = coords.get(k).map_or(0.0, |&w| f32::from_bits(w));
            if self.spec.normalized { v * self.spec.dims[k].max(1) as f32 } else { v }
        };
        // NaN reads texel 0 (`as` saturates and maps NaN to 0).
        let (i0, j0) = ((texel_space(0) - 0.5).floor() as i64, (texel_space(1) - 0.5).floor() as i64);
        let w = u64::from(self.spec.dims[0].max(1));
        let at = |i: i64, j: i64| -> u32 {
            let index = self.address(0, i) + w * self.address(1, j);
            usize::try_from(index).ok().and_then(|k| self.texels.get(k)).map_or(0, |t| t[usize::from(c & 3)])
        };
        [at(i0, j0 + 1), at(i0 + 1, j0 + 1), at(i0 + 1, j0), at(i0, j0)]
    }

    /// The four components at coordinates `coords` (one word per
    /// dimension used; floats unless `int_coords`, then signed texel
    /// indices). Dimensions past the coordinates read index 0.
    pub fn fetch(&self, coords: &[u32], int_coords: bool) -> [u32; 4] {
        let mut at = [0u64; 3];
        for (k, &c) in coords.iter().take(3).enumerate() {
            let i = if int_coords { i64::from(c as i32) } else { self.float_index(k, f32::from_bits(c)) };
            at[k] = self.address(k, i);
        }
        let [w, h, _] = self.spec.dims.map(|d| u64::from(d.max(1)));
        let index = at[0] + w * (at[1] + h * at[2]);
        usize::try_from(index).ok().and_then(|i| self.texels.get(i)).copied().unwrap_or([0; 4])
    }
}

/// One argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamSpec {
    /// A scalar passed by value: its low `kind.size()` bytes, little-endian.
    Scalar {
        /// Its type.
        kind: ScalarKind,
        /// The bit pattern.
        bits: u64,
    },
    /// An aggregate passed by value.
    Bytes {
        /// Its bytes.
        bytes: Vec<u8>,
        /// Its alignment.
        align: u32,
    },
    /// Device memory; the kernel gets its 64-bit address.
    Buffer {
        /// Size in bytes.
        bytes: usize,
        /// Initial contents.
        fill: Fill,
        /// Whether the run prints it afterwards.
        output: bool,
    },
    /// A struct passed by value whose first field is the address of device
    /// memory (CUB's `kernel_arg`: the pointer, then an offset), then
    /// `tail`: a buffer with `"tail"` in the JSON.
    BufferInStruct {
        /// Size in bytes of the memory.
        bytes: usize,
        /// Its initial contents.
        fill: Fill,
        /// Whether the run prints it afterwards.
        output: bool,
        /// The struct's bytes after the address.
        tail: Vec<u8>,
    },
    /// The address of the buffer of an earlier parameter (ZLUDA's warp tests
    /// pass one buffer in two slots).
    SameAs {
        /// The earlier parameter's index.
        param: usize,
    },
}

/// A buffer's initial contents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fill {
    /// Zero bytes.
    Zero,
    /// Exactly these bytes.
    Hex(Vec<u8>),
    /// SplitMix64 of a seed (see [`splitmix64_bytes`]).
    Random {
        /// The seed.
        seed: u64,
    },
}

impl Fill {
    /// Writes the fill's fields of the spec format into a JSON object
    /// (`"fill"`, and `"hex"` or `"seed"`).
    fn insert_into(&self, m: &mut Map<String, Value>) {
        match self {
            Fill::Zero => {
                m.insert("fill".into(), "zero".into());
            }
            Fill::Hex(b) => {
                m.insert("fill".into(), "hex".into());
                m.insert("hex".into(), hex(b).into());
            }
            Fill::Random { seed } => {
                m.insert("fill".into(), "random".into());
                m.insert("seed".into(), (*seed).into());
            }
        }
    }

    /// The contents: `len` bytes for zeros and random ones, the given
    /// bytes as they are.
    pub fn bytes(&self, len: usize) -> Vec<u8> {
        match self {
            Fill::Zero => vec![0; len],
            Fill::Hex(b) => b.clone(),
            Fill::Random { seed } => splitmix64_bytes(*seed, len),
        }
    }
}

/// Scalar argument types of the spec format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum ScalarKind {
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    F16,
    Bf16,
    F32,
    F64,
}

impl ScalarKind {
    const SPELLINGS: [(ScalarKind, &'static str); 12] = [
        (ScalarKind::U8, "u8"),
        (ScalarKind::U16, "u16"),
        (ScalarKind::U32, "u32"),
        (ScalarKind::U64, "u64"),
        (ScalarKind::S8, "s8"),
        (ScalarKind::S16, "s16"),
        (ScalarKind::S32, "s32"),
        (ScalarKind::S64, "s64"),
        (ScalarKind::F16, "f16"),
        (ScalarKind::Bf16, "bf16"),
        (ScalarKind::F32, "f32"),
        (ScalarKind::F64, "f64"),
    ];

    /// The spec spelling (`"u32"`).
    pub fn spelling(self) -> &'static str {
        Self::SPELLINGS.iter().find(|(k, _)| *k == self).map_or("?", |(_, s)| s)
    }

    /// Parses a spec spelling.
    pub fn parse(text: &str) -> Option<ScalarKind> {
        Self::SPELLINGS.iter().find(|(_, s)| *s == text).map(|(k, _)| *k)
    }

    /// Size in bytes.
    pub fn size(self) -> usize {
        use ScalarKind::*;
        match self {
            U8 | S8 => 1,
            U16 | S16 | F16 | Bf16 => 2,
            U32 | S32 | F32 => 4,
            U64 | S64 | F64 => 8,
        }
    }
}

/// A launch spec that cannot be read or used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError {
    /// What is wrong, naming the field (`params[2].hex: ...`).
    pub message: String,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "launch spec: {}", self.message)
    }
}

impl std::error::Error for SpecError {}

fn err<T>(message: impl Into<String>) -> Result<T, SpecError> {
    Err(SpecError { message: message.into() })
}

/// Buffers larger than this are refused (a spec is test input; this keeps a
/// hostile spec from asking for all of memory).
pub const MAX_BUFFER_BYTES: usize = 1 << 30;

/// Threads per CTA the hardware allows, and so the spec.
pub const MAX_BLOCK_THREADS: u64 = 1024;

impl LaunchSpec {
    /// Reads the JSON form.
    pub fn from_json(text: &str) -> Result<LaunchSpec, SpecError> {
        let value: Value = serde_json::from_str(text).map_err(|e| SpecError { message: format!("not JSON: {e}") })?;
        Self::from_value(&value)
    }

    /// Reads an already parsed JSON value.
    pub fn from_value(value: &Value) -> Result<LaunchSpec, SpecError> {
        let Some(obj) = value.as_object() else { return err("the spec is not a JSON object") };
        let kernel = match obj.get("kernel") {
            Some(Value::String(s)) => s.clone(),
            _ => return err("kernel: missing or not a string"),
        };
        let grid = dims(obj, "grid")?;
        let block = dims(obj, "block")?;
        let threads = block.iter().map(|&d| d as u64).product::<u64>();
        if threads > MAX_BLOCK_THREADS {
            return err(format!("block: {threads} threads per CTA, more than {MAX_BLOCK_THREADS}"));
        }
        let shared_bytes = match obj.get("shared_bytes") {
            None => 0,
            Some(v) => number(v).and_then(|n| u32::try_from(n).ok()).ok_or(SpecError { message: "shared_bytes: not a 32-bit count".into() })?,
        };
        let params = match obj.get("params") {
            None => Vec::new(),
            Some(Value::Array(list)) => list.iter().enumerate().map(|(i, p)| param(i, p)).collect::<Result<_, _>>()?,
            Some(_) => return err("params: not an array"),
        };
        for (i, p) in params.iter().enumerate() {
            if let ParamSpec::SameAs { param } = p {
                if *param >= i || !matches!(params[*param], ParamSpec::Buffer { .. }) {
                    return err(format!("params[{i}].param: {param} is not an earlier buffer parameter"));
                }
            }
        }
        let textures = match obj.get("textures") {
            None => Vec::new(),
            Some(Value::Array(list)) => list.iter().enumerate().map(|(i, t)| texture(i, t)).collect::<Result<_, _>>()?,
            Some(_) => return err("textures: not an array"),
        };
        Ok(LaunchSpec { kernel, grid, block, shared_bytes, params, textures })
    }

    /// The JSON form (the one [`LaunchSpec::from_json`] reads back).
    pub fn to_json(&self) -> String {
        let params: Vec<Value> = self
            .params
            .iter()
            .map(|p| match p {
                ParamSpec::Scalar { kind, bits } => serde_json::json!({"kind": kind.spelling(), "value": format!("{bits:#x}")}),
                ParamSpec::Bytes { bytes, align } => serde_json::json!({"kind": "bytes", "hex": hex(bytes), "align": align}),
                ParamSpec::Buffer { bytes, fill, output } | ParamSpec::BufferInStruct { bytes, fill, output, .. } => {
                    let mut o = serde_json::json!({"kind": "buffer", "bytes": bytes, "output": output});
                    let m = o.as_object_mut().expect("built as an object");
                    if let ParamSpec::BufferInStruct { tail, .. } = p {
                        m.insert("tail".into(), hex(tail).into());
                    }
                    fill.insert_into(m);
                    o
                }
                ParamSpec::SameAs { param } => serde_json::json!({"kind": "same", "param": param}),
            })
            .collect();
        let mut spec = serde_json::json!({
            "kernel": self.kernel, "grid": self.grid, "block": self.block,
            "shared_bytes": self.shared_bytes, "params": params,
        });
        if !self.textures.is_empty() {
            let textures: Vec<Value> = self
                .textures
                .iter()
                .map(|t| {
                    let mut o = serde_json::json!({"handle": t.handle, "dims": t.dims, "normalized": t.normalized, "address": if t.wrap { "wrap" } else { "clamp" }});
                    let m = o.as_object_mut().expect("built as an object");
                    if let Some(r) = &t.texref {
                        m.insert(if t.element_bytes.is_some() { "surfref" } else { "texref" }.into(), r.clone().into());
                    }
                    if let Some(e) = t.element_bytes {
                        m.insert("element_bytes".into(), e.into());
                    }
                    t.fill.insert_into(m);
                    o
                })
                .collect();
            if let Some(m) = spec.as_object_mut() {
                m.insert("textures".into(), textures.into());
            }
        }
        spec.to_string()
    }

    /// Threads per CTA.
    pub fn threads_per_cta(&self) -> u32 {
        self.block.iter().product()
    }

    /// Allocates the buffers in fresh device memory and computes every
    /// argument's bytes.
    pub fn materialize(&self) -> Result<Launch, SpecError> {
        let mut memory = GlobalMemory::new();
        let mut args = Vec::with_capacity(self.params.len());
        let mut buffers: Vec<BufferArg> = Vec::new();
        for (index, p) in self.params.iter().enumerate() {
            let arg = match p {
                ParamSpec::Scalar { kind, bits } => Arg { bytes: bits.to_le_bytes()[..kind.size()].to_vec(), align: kind.size() as u32, pointer: false },
                ParamSpec::Bytes { bytes, align } => Arg { bytes: bytes.clone(), align: *align, pointer: false },
                ParamSpec::Buffer { bytes, fill, output } | ParamSpec::BufferInStruct { bytes, fill, output, .. } => {
                    let data = fill.bytes(*bytes);
                    let address = memory.allocate(data, format!("param {index}"));
                    buffers.push(BufferArg { param: index, address, bytes: *bytes, output: *output });
                    let mut arg = address.to_le_bytes().to_vec();
                    if let ParamSpec::BufferInStruct { tail, .. } = p {
                        arg.extend_from_slice(tail);
                    }
                    Arg { bytes: arg, align: 8, pointer: true }
                }
                ParamSpec::SameAs { param } => {
                    let Some(b) = buffers.iter().find(|b| b.param == *param) else {
                        return err(format!("params[{index}].param: {param} is not an earlier buffer parameter"));
                    };
                    Arg { bytes: b.address.to_le_bytes().to_vec(), align: 8, pointer: true }
                }
            };
            args.push(arg);
        }
        let textures = self
            .textures
            .iter()
            .enumerate()
            .map(|(k, t)| {
                let texels = t.dims.iter().map(|&d| d as usize).product::<usize>();
                if let Some(e) = t.element_bytes {
                    // A surface: its elements in device memory, x fastest.
                    let address = memory.allocate(t.fill.bytes(texels * e as usize), format!("surface {k}"));
                    return Texture { spec: t.clone(), texels: Vec::new(), surface: Some(address) };
                }
                let bytes = t.fill.bytes(texels * 16);
                let texels = bytes.chunks_exact(16).map(|c| std::array::from_fn(|k| u32::from_le_bytes([c[4 * k], c[4 * k + 1], c[4 * k + 2], c[4 * k + 3]]))).collect();
                Texture { spec: t.clone(), texels, surface: None }
            })
            .collect();
        Ok(Launch { memory, args, buffers, textures })
    }
}

fn dims(obj: &Map<String, Value>, field: &str) -> Result<[u32; 3], SpecError> {
    let Some(Value::Array(list)) = obj.get(field) else { return err(format!("{field}: missing or not an array")) };
    if list.is_empty() || list.len() > 3 {
        return err(format!("{field}: {} numbers, expected 1 to 3", list.len()));
    }
    let mut out = [1u32; 3];
    for (i, v) in list.iter().enumerate() {
        out[i] = number(v).and_then(|n| u32::try_from(n).ok()).filter(|&n| n > 0).ok_or(SpecError { message: format!("{field}[{i}]: not a positive 32-bit number") })?;
    }
    Ok(out)
}

/// A JSON number or a hex/decimal string as an unsigned integer.
fn number(v: &Value) -> Option<u64> {
    match v {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => parse_u64(s),
        _ => None,
    }
}

fn parse_u64(s: &str) -> Option<u64> {
    let s = s.trim();
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

/// The most texels a bound texture may have (16 bytes each).
const MAX_TEXELS: u64 = 1 << 24;

fn texture(index: usize, t: &Value) -> Result<TextureSpec, SpecError> {
    let Some(obj) = t.as_object() else { return err(format!("textures[{index}]: not an object")) };
    let handle = obj.get("handle").and_then(number).and_then(|n| u32::try_from(n).ok()).ok_or(SpecError { message: format!("textures[{index}].handle: missing or not a 32-bit number") })?;
    let texref = match obj.get("texref") {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => return err(format!("textures[{index}].texref: not a string")),
    };
    let mut dims = [1u32; 3];
    match obj.get("dims") {
        Some(Value::Array(list)) if !list.is_empty() && list.len() <= 3 => {
            for (k, v) in list.iter().enumerate() {
                dims[k] = number(v).and_then(|n| u32::try_from(n).ok()).filter(|&n| n > 0).ok_or(SpecError { message: format!("textures[{index}].dims: not sizes of 1 or more") })?;
            }
        }
        _ => return err(format!("textures[{index}].dims: missing or not 1 to 3 numbers")),
    }
    // A surface: `element_bytes` per element instead of a texel's 16, its
    // reference named `surfref` (or `texref`).
    let element_bytes = match obj.get("element_bytes") {
        None => None,
        Some(v) => Some(number(v).and_then(|n| u32::try_from(n).ok()).filter(|n| matches!(n, 1 | 2 | 4 | 8 | 16)).ok_or(SpecError { message: format!("textures[{index}].element_bytes: not 1, 2, 4, 8 or 16") })?),
    };
    let texref = match (texref, obj.get("surfref")) {
        (r, None) => r,
        (None, Some(Value::String(s))) if element_bytes.is_some() => Some(s.clone()),
        _ => return err(format!("textures[{index}].surfref: not a string naming a surface's reference")),
    };
    let texels = dims.iter().map(|&d| u64::from(d)).product::<u64>();
    if texels > MAX_TEXELS {
        return err(format!("textures[{index}].dims: {texels} texels, more than {MAX_TEXELS}"));
    }
    let normalized = match obj.get("normalized") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return err(format!("textures[{index}].normalized: not a boolean")),
    };
    let wrap = match obj.get("address").map(Value::as_str) {
        None | Some(Some("clamp")) => false,
        Some(Some("wrap")) => true,
        Some(_) => return err(format!("textures[{index}].address: not clamp or wrap")),
    };
    let fill = match obj.get("fill").map(Value::as_str) {
        None | Some(Some("zero")) => Fill::Zero,
        Some(Some("random")) => Fill::Random { seed: obj.get("seed").map_or(Some(0), number).ok_or(SpecError { message: format!("textures[{index}].seed: not a number") })? },
        Some(Some("hex")) => {
            let data = obj.get("hex").and_then(Value::as_str).and_then(unhex).ok_or(SpecError { message: format!("textures[{index}].hex: missing or not hex bytes") })?;
            let size = texels * u64::from(element_bytes.unwrap_or(16));
            if data.len() as u64 != size {
                return err(format!("textures[{index}].hex: {} bytes, the texture has {size}", data.len()));
            }
            Fill::Hex(data)
        }
        Some(_) => return err(format!("textures[{index}].fill: not zero, hex or random")),
    };
    Ok(TextureSpec { handle, texref, dims, normalized, wrap, fill, element_bytes })
}

fn param(index: usize, p: &Value) -> Result<ParamSpec, SpecError> {
    let Some(obj) = p.as_object() else { return err(format!("params[{index}]: not an object")) };
    let Some(kind) = obj.get("kind").and_then(Value::as_str) else { return err(format!("params[{index}].kind: missing or not a string")) };
    let field = |name: &str| obj.get(name).ok_or(SpecError { message: format!("params[{index}].{name}: missing") });
    match kind {
        "buffer" => {
            let bytes = number(field("bytes")?).and_then(|n| usize::try_from(n).ok()).filter(|&n| n <= MAX_BUFFER_BYTES).ok_or(SpecError {
                message: format!("params[{index}].bytes: not a size up to {MAX_BUFFER_BYTES}"),
            })?;
            let output = match obj.get("output") {
                None => false,
                Some(Value::Bool(b)) => *b,
                Some(_) => return err(format!("params[{index}].output: not a boolean")),
            };
            let fill = match obj.get("fill").map(|f| f.as_str()) {
                None | Some(Some("zero")) => Fill::Zero,
                Some(Some("random")) => Fill::Random { seed: obj.get("seed").map_or(Some(0), number).ok_or(SpecError { message: format!("params[{index}].seed: not a number") })? },
                Some(Some("hex")) => {
                    let data = unhex(field("hex")?.as_str().unwrap_or("?")).ok_or(SpecError { message: format!("params[{index}].hex: not hex bytes") })?;
                    if data.len() != bytes {
                        return err(format!("params[{index}].hex: {} bytes, the buffer has {bytes}", data.len()));
                    }
                    Fill::Hex(data)
                }
                Some(_) => return err(format!("params[{index}].fill: not zero, hex or random")),
            };
            match obj.get("tail") {
                None => Ok(ParamSpec::Buffer { bytes, fill, output }),
                Some(t) => {
                    let tail = unhex(t.as_str().unwrap_or("?")).ok_or(SpecError { message: format!("params[{index}].tail: not hex bytes") })?;
                    Ok(ParamSpec::BufferInStruct { bytes, fill, output, tail })
                }
            }
        }
        "bytes" => {
            let bytes = unhex(field("hex")?.as_str().unwrap_or("?")).ok_or(SpecError { message: format!("params[{index}].hex: not hex bytes") })?;
            let align = match obj.get("align") {
                None => 1,
                Some(v) => number(v).and_then(|n| u32::try_from(n).ok()).filter(|n| n.is_power_of_two() && *n <= 256).ok_or(SpecError {
                    message: format!("params[{index}].align: not a power of two up to 256"),
                })?,
            };
            Ok(ParamSpec::Bytes { bytes, align })
        }
        "same" => {
            let param = number(field("param")?).and_then(|n| usize::try_from(n).ok()).ok_or(SpecError { message: format!("params[{index}].param: not an index") })?;
            Ok(ParamSpec::SameAs { param })
        }
        other => {
            let Some(kind) = ScalarKind::parse(other) else { return err(format!("params[{index}].kind: unknown kind '{other}'")) };
            let bits = number(field("value")?).ok_or(SpecError { message: format!("params[{index}].value: not a hex bit pattern") })?;
            Ok(ParamSpec::Scalar { kind, bits })
        }
    }
}

/// Lowercase hex of bytes.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}

/// Bytes of a hex string (whitespace ignored); `None` when not hex or odd.
pub fn unhex(text: &str) -> Option<Vec<u8>> {
    let digits: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if digits.len() % 2 != 0 {
        return None;
    }
    let val = |d: u8| (d as char).to_digit(16);
    digits.chunks(2).map(|p| Some((val(p[0])? * 16 + val(p[1])?) as u8)).collect()
}

/// `count` bytes of SplitMix64 seeded with `seed`: each 64-bit output
/// little-endian, concatenated, the last cut short. (The generator's
/// constants are Steele, Lea and Flood's, as in Java's `SplittableRandom`.)
pub fn splitmix64_bytes(seed: u64, count: usize) -> Vec<u8> {
    let mut state = seed;
    let mut out = Vec::with_capacity(count + 8);
    while out.len() < count {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        out.extend_from_slice(&z.to_le_bytes());
    }
    out.truncate(count);
    out
}

/// A launch ready to run: device memory and argument bytes.
#[derive(Clone, Debug)]
pub struct Launch {
    /// Device memory with the buffers (interpreters add module variables).
    pub memory: GlobalMemory,
    /// Every argument's bytes, in parameter order.
    pub args: Vec<Arg>,
    /// The buffers, in parameter order.
    pub buffers: Vec<BufferArg>,
    /// The bound textures.
    pub textures: Vec<Texture>,
}

/// One argument's bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arg {
    /// The value, little-endian.
    pub bytes: Vec<u8>,
    /// Its natural alignment.
    pub align: u32,
    /// Whether it is a buffer's address.
    pub pointer: bool,
}

/// Where a buffer parameter's memory is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferArg {
    /// The parameter index.
    pub param: usize,
    /// Device address.
    pub address: u64,
    /// Size.
    pub bytes: usize,
    /// Whether it is printed after the run.
    pub output: bool,
}

impl Launch {
    /// The bytes of an output buffer (or any buffer) after the run.
    pub fn buffer_bytes(&self, param: usize) -> Option<&[u8]> {
        let b = self.buffers.iter().find(|b| b.param == param)?;
        self.memory.slice(b.address, b.bytes).ok()
    }

    /// `param N: <hex>` for every output buffer, one line each, in
    /// parameter order: the format of `scripts/gpu-run.py`.
    pub fn outputs_text(&self) -> String {
        let mut s = String::new();
        for b in self.buffers.iter().filter(|b| b.output) {
            let bytes = self.memory.slice(b.address, b.bytes).unwrap_or(&[]);
            s.push_str(&format!("param {}: {}\n", b.param, hex(bytes)));
        }
        // Then every bound surface's elements (`surface N`, N its index in
        // "textures"): surfaces are written in place.
        for (k, t) in self.textures.iter().enumerate() {
            if let (Some(address), Some(e)) = (t.surface, t.spec.element_bytes) {
                let size = t.spec.dims.iter().map(|&d| d as usize).product::<usize>() * e as usize;
                s.push_str(&format!("surface {k}: {}\n", hex(self.memory.slice(address, size).unwrap_or(&[]))));
            }
        }
        s
    }

    /// The bytes of bound surface `k` (its index in "textures") after the
    /// run.
    pub fn surface_bytes(&self, k: usize) -> Option<&[u8]> {
        let t = self.textures.get(k)?;
        let size = t.spec.dims.iter().map(|&d| d as usize).product::<usize>() * t.spec.element_bytes? as usize;
        self.memory.slice(t.surface?, size).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_the_published_vector_and_the_script() {
        // Seed 0's first output is the published test vector 0xe220a8397b1dcdaf.
        assert_eq!(splitmix64_bytes(0, 8), 0xe220a8397b1dcdafu64.to_le_bytes());
        // scripts/README.md: seed 7 starts with these bytes.
        assert_eq!(hex(&splitmix64_bytes(7, 16)), "d70d3259e4e1cb631c663cf4d73c4c04");
        assert_eq!(splitmix64_bytes(7, 5), splitmix64_bytes(7, 16)[..5]);
    }

    #[test]
    fn reads_the_documented_example_and_writes_it_back() {
        let text = r#"{"kernel": "saxpy", "grid": [4,1,1], "block": [128,1,1], "shared_bytes": 0,
          "params": [
            {"kind": "u32", "value": "0x00000200"},
            {"kind": "f32", "value": "0x40000000"},
            {"kind": "buffer", "bytes": 2048, "fill": "random", "seed": 7, "output": false},
            {"kind": "buffer", "bytes": 4, "fill": "hex", "hex": "0001ff02", "output": true},
            {"kind": "buffer", "bytes": 64, "fill": "zero", "output": true},
            {"kind": "same", "param": 4},
            {"kind": "bytes", "hex": "0102030405060708", "align": 8},
            {"kind": "buffer", "bytes": 16, "fill": "zero", "output": false, "tail": "0500000000000000"}]}"#;
        let spec = LaunchSpec::from_json(text).unwrap();
        assert_eq!(spec.grid, [4, 1, 1]);
        assert_eq!(spec.params[0], ParamSpec::Scalar { kind: ScalarKind::U32, bits: 0x200 });
        assert_eq!(spec.params[3], ParamSpec::Buffer { bytes: 4, fill: Fill::Hex(vec![0, 1, 0xff, 2]), output: true });
        assert_eq!(LaunchSpec::from_json(&spec.to_json()).unwrap(), spec);

        let launch = spec.materialize().unwrap();
        assert_eq!(launch.args[0].bytes, vec![0, 2, 0, 0]);
        assert_eq!(launch.args[1].bytes, 2.0f32.to_bits().to_le_bytes());
        assert_eq!(launch.args[5].bytes, launch.args[4].bytes, "`same` passes the earlier buffer's address");
        // A buffer in a struct: its address, then the tail's bytes.
        assert_eq!(spec.params[7], ParamSpec::BufferInStruct { bytes: 16, fill: Fill::Zero, output: false, tail: vec![5, 0, 0, 0, 0, 0, 0, 0] });
        assert_eq!(launch.args[7].bytes.len(), 16);
        assert_eq!(launch.args[7].bytes[8..], [5, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(launch.args[7].bytes[..8], launch.buffers.last().unwrap().address.to_le_bytes());
        assert_ne!(launch.args[4].bytes, launch.args[3].bytes);
        assert_eq!(launch.buffer_bytes(2).unwrap(), &splitmix64_bytes(7, 2048)[..]);
        let text = launch.outputs_text();
        assert_eq!(text, format!("param 3: 0001ff02\nparam 4: {}\n", "00".repeat(64)));
    }

    #[test]
    fn bad_specs_name_the_field() {
        let cases = [
            ("[]", "not a JSON object"),
            (r#"{"grid":[1],"block":[1]}"#, "kernel"),
            (r#"{"kernel":"k","grid":[0],"block":[1]}"#, "grid[0]"),
            (r#"{"kernel":"k","grid":[1],"block":[64,64]}"#, "threads per CTA"),
            (r#"{"kernel":"k","grid":[1],"block":[1],"params":[{"kind":"q32","value":"1"}]}"#, "params[0].kind"),
            (r#"{"kernel":"k","grid":[1],"block":[1],"params":[{"kind":"buffer","bytes":2,"fill":"hex","hex":"00"}]}"#, "params[0].hex"),
            (r#"{"kernel":"k","grid":[1],"block":[1],"params":[{"kind":"same","param":0}]}"#, "params[0].param"),
            (r#"{"kernel":"k","grid":[1],"block":[1],"params":[{"kind":"buffer","bytes":99999999999}]}"#, "params[0].bytes"),
            ("{", "not JSON"),
        ];
        for (text, needle) in cases {
            let e = LaunchSpec::from_json(text).unwrap_err();
            assert!(e.to_string().contains(needle), "{text}: {e}");
        }
    }

    /// A 4x2 texture whose texel k holds words 0x100 k + c.
    fn texture(normalized: bool, wrap: bool) -> Texture {
        let texels = (0..8u32).map(|k| std::array::from_fn(|c| 0x100 * k + c as u32)).collect();
        Texture { spec: TextureSpec { handle: 1, texref: None, dims: [4, 2, 1], normalized, wrap, fill: Fill::Zero, element_bytes: None }, texels, surface: None }
    }

    #[test]
    fn point_sampling_clamps_or_wraps_texel_and_normalized_coordinates() {
        let f = |x: f32, y: f32| [x.to_bits(), y.to_bits()];
        let clamp = texture(false, false);
        // (2.5, 1.25) is texel (2, 1): index 6.
        assert_eq!(clamp.fetch(&f(2.5, 1.25), false), [0x600, 0x601, 0x602, 0x603]);
        // Past the edges: clamped to (3, 0), index 3; NaN reads 0.
        assert_eq!(clamp.fetch(&f(9.0, -3.0), false)[0], 0x300);
        assert_eq!(clamp.fetch(&f(f32::NAN, 0.0), false)[0], 0);
        let wrap = texture(false, true);
        // -1 wraps to 3, 2 to 0.
        assert_eq!(wrap.fetch(&f(-0.5, 2.0), false)[0], 0x300);
        let normalized = texture(true, false);
        // 0.6 of 4 is 2.4, 0.75 of 2 is 1.5: texel (2, 1).
        assert_eq!(normalized.fetch(&f(0.6, 0.75), false)[0], 0x600);
        // Integer coordinates are texel indices, clamped too.
        assert_eq!(clamp.fetch(&[1, 1], true)[0], 0x500);
        assert_eq!(clamp.fetch(&[(-2i32) as u32, 5], true)[0], 0x400);
    }

    #[test]
    fn textures_round_trip_through_json_and_bad_ones_are_refused() {
        let text = r#"{"kernel": "k", "grid": [1], "block": [1], "params": [], "textures": [{"handle": 7, "texref": "tex", "dims": [2, 2], "address": "wrap", "normalized": true, "fill": "random", "seed": 3}]}"#;
        let spec = LaunchSpec::from_json(text).unwrap();
        assert_eq!(spec.textures, vec![TextureSpec { handle: 7, texref: Some("tex".into()), dims: [2, 2, 1], normalized: true, wrap: true, fill: Fill::Random { seed: 3 }, element_bytes: None }]);
        assert_eq!(LaunchSpec::from_json(&spec.to_json()).unwrap(), spec);
        let launch = spec.materialize().unwrap();
        assert_eq!(launch.textures[0].texels.len(), 4);
        for (bad, needle) in [
            (r#"[{"dims": [1]}]"#, "handle"),
            (r#"[{"handle": 1, "dims": [0]}]"#, "dims"),
            (r#"[{"handle": 1, "dims": [1, 1, 1, 1]}]"#, "dims"),
            (r#"[{"handle": 1, "dims": [1], "address": "mirror"}]"#, "address"),
            (r#"[{"handle": 1, "dims": [2], "fill": "hex", "hex": "00"}]"#, "hex"),
        ] {
            let text = format!(r#"{{"kernel": "k", "grid": [1], "block": [1], "textures": {bad}}}"#);
            let e = LaunchSpec::from_json(&text).unwrap_err();
            assert!(e.to_string().contains(needle), "{bad}: {e}");
        }
    }
}
